/* Measured ceilings: what this GPU really does for the simplest memory and arithmetic loops, so each
 * rung can be judged against the hardware it runs on rather than a datasheet. */
#include "../base/check.h"
#include "device_primitives.cuh"
#include "device.h"
#include "mma.cuh"
#include "timing.h"

#include <stdio.h>

/* Streaming read of 16-byte words, four in flight per thread per step, grid-stride. The sum is written
 * only if it equals a value no real input produces, so the compiler must keep every load. */
__global__ void ceiling_read_kernel(const uint4 *__restrict__ in, size_t nvec, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (; i + 3 * stride < nvec; i += 4 * stride) {
        uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < nvec; i += stride) {
        uint4 a = in[i];
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == 0x9E3779B9u)
        *sink = acc;
}

/* Device-to-device copy of 16-byte words, two in flight per thread per step. */
__global__ void ceiling_copy_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t nvec)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < nvec; i += 2 * stride) {
        uint4 a = in[i], b = in[i + stride];
        out[i] = a;
        out[i + stride] = b;
    }
    if (i < nvec)
        out[i] = in[i];
}

#define FMA_CHAINS 8
#define FMA_ITERS 2048

/* FMA_CHAINS independent multiply-add chains per thread hide the FMA latency; the operands come from run-time
 * values so nothing folds. 2 flops per FMA. T = float measures FFMA, T = double DFMA. */
template <typename T> __global__ void ceiling_fma_kernel(T a, T b, T *sink)
{
    T x[FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        x[c] = (T)(threadIdx.x + c);
    for (int it = 0; it < FMA_ITERS; it++) {
#pragma unroll
        for (int c = 0; c < FMA_CHAINS; c++)
            x[c] = fma(x[c], a, b);
    }
    T s = 0;
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        s += x[c];
    if (s == (T)1234.5)
        *sink = s;
}

#define SFU_ITERS 1024

/* Special-function throughput: FMA_CHAINS independent chains of rsqrtf, each step one MUFU.RSQ (x stays near 1,
 * a fixed point, and never turns denormal). Counted as one op per rsqrtf. */
__global__ void ceiling_sfu_kernel(float *sink)
{
    float x[FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        x[c] = 1.0f + threadIdx.x + c;
    for (int it = 0; it < SFU_ITERS; it++) {
#pragma unroll
        for (int c = 0; c < FMA_CHAINS; c++)
            x[c] = rsqrtf(x[c]);
    }
    float s = 0;
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        s += x[c];
    if (s == 1234.5f)
        *sink = s;
}

#define TC_ITERS 512
#define TC_CHAIN 8

/* Tensor-core throughput, dense, FP32 accumulation; T32 = 1 for TF32 inputs, else BF16. A block of 128 threads
 * (a warp group). On sm_90a: batches of TC_CHAIN wgmma m64n128 (k16 BF16, k8 TF32) on zeroed-then-set shared
 * tiles by descriptor, one batch kept in flight while the next is issued, as a GEMM's main loop does. Elsewhere
 * (sm_80 and later without the warp-group instructions): each warp TC_CHAIN independent mma.sync chains from
 * registers. *per_block gets the flops a block did (2 per multiply-add). */
template <int T32> __global__ void __launch_bounds__(128) ceiling_tensor_kernel(float *sink, double *per_block)
{
    __shared__ __align__(128) uint4 tiles[6144 / 16]; /* A 64 x 16 BF16 (or 64 x 8 TF32): 2 KiB; B 4 KiB */
    for (int i = (int)threadIdx.x; i < 6144 / 16; i += 128)
        tiles[i] = make_uint4(0x3f803f80u, 0x3f803f80u, 0x3f803f80u, 0x3f803f80u);
    __syncthreads();
    float s = 0;
    double flops = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    climb_fence_proxy_async_shared();
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.0f;
    /* K-major without swizzling: core matrices of 8 rows x 16 bytes, 128 bytes apart along k, 256 along m (n) */
    const uint64_t da = climb_wgmma_desc(tiles, 128, 256), db = climb_wgmma_desc(tiles + 2048 / 16, 128, 256);
    for (int it = 0; it < TC_ITERS; it++) {
        climb_wgmma_fence();
#pragma unroll
        for (int j = 0; j < TC_CHAIN; j++) {
            if (T32)
                climb_wgmma_m64n128k8_tf32(d, da, db);
            else
                climb_wgmma_m64n128k16_bf16(d, da, db);
        }
        climb_wgmma_commit();
        climb_wgmma_wait<1>();
    }
    climb_wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < 64; i++)
        s += d[i];
    flops = (double)TC_ITERS * TC_CHAIN * 2.0 * 64 * 128 * (T32 ? 8 : 16);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const uint32_t *w = (const uint32_t *)tiles;
    const uint32_t a[4] = {w[threadIdx.x % 32], w[32 + threadIdx.x % 32], w[64], w[65]}, b[2] = {w[96], w[97]};
    float acc[TC_CHAIN][4] = {};
    for (int it = 0; it < TC_ITERS; it++) {
#pragma unroll
        for (int j = 0; j < TC_CHAIN; j++) {
            if (T32)
                climb_mma_tf32_1688(acc[j], a, b);
            else
                climb_mma_bf16_16816(acc[j], a, b);
        }
    }
#pragma unroll
    for (int j = 0; j < TC_CHAIN; j++)
        s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
    flops = (double)TC_ITERS * TC_CHAIN * 4 * 2.0 * 16 * 8 * (T32 ? 8 : 16);
#endif
    if (s == 1234.5f)
        *sink = s;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *per_block = flops;
}

__global__ void ceiling_empty_kernel(void) {}

/* One thread that spins until `ns` nanoseconds of the GPU's global timer have passed. */
__global__ void timing_gate_kernel(unsigned long long ns)
{
    const unsigned long long t0 = climb_globaltimer();
    while (climb_globaltimer() - t0 < ns) {
    }
}

extern "C" cudaError_t climb_launch_gate(unsigned ns, cudaStream_t s)
{
    timing_gate_kernel<<<1, 1, 0, s>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t climb_launch_read_pass(const void *buf, size_t bytes, unsigned *sink, cudaStream_t s)
{
    size_t nvec = bytes / 16;
    int sms = 1;
    cudaError_t e = climb_current_sms(&sms);
    if (e != cudaSuccess)
        return e;
    /* 512 threads x 4 blocks per SM: the shape that read fastest on an H200 (see src/workloads/reduce/kernels.cuh). */
    ceiling_read_kernel<<<sms * 4, 512, 0, s>>>((const uint4 *)buf, nvec, sink);
    return cudaGetLastError();
}

typedef struct {
    const climb_device_info *d;
    void *a, *b;
    size_t bytes;
    unsigned *usink;
    float *fsink;
    double *dsink;
} ceiling_ctx;

static int run_read(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    CLIMB_CHECK(climb_launch_read_pass(c->a, c->bytes, c->usink, s));
    return 0;
}

static int run_copy(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_copy_kernel<<<c->d->sms * 8, 256, 0, s>>>((const uint4 *)c->a, (uint4 *)c->b, c->bytes / 16);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int fma_blocks(const climb_device_info *d) { return d->sms * 16; }

static int run_ffma(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_fma_kernel<float><<<fma_blocks(c->d), 256, 0, s>>>(0.999f, 0.001f, c->fsink);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int run_dfma(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_fma_kernel<double><<<fma_blocks(c->d), 256, 0, s>>>(0.999, 0.001, c->dsink);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int run_sfu(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_sfu_kernel<<<fma_blocks(c->d), 256, 0, s>>>(c->fsink);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

/* two warp groups an SM */
static int tensor_blocks(const climb_device_info *d) { return d->sms * 2; }

static int run_tensor_bf16(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_tensor_kernel<0><<<tensor_blocks(c->d), 128, 0, s>>>(c->fsink, c->dsink);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int run_tensor_tf32(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_tensor_kernel<1><<<tensor_blocks(c->d), 128, 0, s>>>(c->fsink, c->dsink);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int run_empty(void *p, cudaStream_t s)
{
    (void)p;
    ceiling_empty_kernel<<<1, 32, 0, s>>>();
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

extern "C" double climb_write_gbs(double copy_gbs, double read_gbs)
{
    double inv = 2.0 / copy_gbs - 1.0 / read_gbs;
    /* A copy can never be faster than twice the read rate; should the two measurements say otherwise, the
     * copy's own rate is the honest bound for writes. */
    return inv > 0 ? 1.0 / inv : copy_gbs;
}

static climb_timing_opts ceiling_timing(void)
{
    climb_timing_opts o = climb_timing_defaults();
    o.min_samples = 10;
    o.max_samples = 50;
    o.min_gpu_s = 0.02;
    o.max_wall_s = 0.5;
    o.batch = 1; /* buffers far larger than L2 and pure arithmetic: back-to-back passes need no flush */
    return o;
}

/* The special-function ceiling, on its own (asked for by workloads that name it). */
static int measure_sfu(climb_device_info *d, climb_timer *t, ceiling_ctx *c)
{
    climb_timing_opts o = ceiling_timing();
    climb_timing r;
    if (climb_time(t, run_sfu, NULL, c, &o, &r) != 0)
        return -1;
    d->sfu_gops = (double)fma_blocks(d) * 256 * FMA_CHAINS * SFU_ITERS / (r.median_us * 1e-6) / 1e9;
    return 0;
}

/* The tensor cores' dense BF16 and TF32 rates (asked for by workloads that name them): flops from what the kernel
 * says a block did; 0 (not measured) on a GPU before sm_80. */
static int measure_tensor(climb_device_info *d, climb_timer *t, ceiling_ctx *c)
{
    if (d->cc_major < 8)
        return 0;
    climb_timing_opts o = ceiling_timing();
    climb_timing r;
    for (int t32 = 0; t32 < 2; t32++) {
        double per_block = 0;
        if (climb_time(t, t32 ? run_tensor_tf32 : run_tensor_bf16, NULL, c, &o, &r) != 0 ||
            CLIMB_FAILED(cudaMemcpy(&per_block, c->dsink, sizeof per_block, cudaMemcpyDeviceToHost)))
            return -1;
        const double gflops = tensor_blocks(d) * per_block / (r.median_us * 1e-6) / 1e9;
        *(t32 ? &d->tensor_tf32_gflops : &d->tensor_bf16_gflops) = gflops;
    }
    return 0;
}

extern "C" int climb_measure_ceilings(climb_device_info *d, unsigned extra)
{
    ceiling_ctx c = {d, NULL, NULL, 0, NULL, NULL, NULL};
    int base = !d->measured, sfu = (extra & CLIMB_MEASURE_SFU) && !(d->sfu_gops > 0);
    const int tensor = (extra & CLIMB_MEASURE_TENSOR) && !(d->tensor_bf16_gflops > 0) && d->cc_major >= 8;
    if (!base && !sfu && !tensor)
        return 0;
    /* 1 GiB per buffer (a quarter of memory at most): many times any L2, so every pass streams DRAM, and
     * long enough that the gap between back-to-back launches is lost in it. */
    size_t bytes = (size_t)1 << 30;
    if (bytes > d->global_mem_bytes / 4)
        bytes = (d->global_mem_bytes / 4) & ~(size_t)15;
    c.bytes = bytes;
    climb_timer t;
    climb_timing r;
    climb_timing_opts o = ceiling_timing();
    int rc = -1;
    if (climb_timer_init(&t, (size_t)d->l2_bytes) != 0)
        return -1;
    if (CLIMB_FAILED(cudaMalloc((void **)&c.usink, sizeof(unsigned))) ||
        CLIMB_FAILED(cudaMalloc((void **)&c.fsink, sizeof(float))) ||
        CLIMB_FAILED(cudaMalloc((void **)&c.dsink, sizeof(double))))
        goto done;
    if (sfu && measure_sfu(d, &t, &c) != 0)
        goto done;
    if (tensor && measure_tensor(d, &t, &c) != 0)
        goto done;
    if (!base) {
        rc = 0;
        goto done;
    }
    if (CLIMB_FAILED(cudaMalloc(&c.a, bytes)) || CLIMB_FAILED(cudaMalloc(&c.b, bytes)) ||
        CLIMB_FAILED(cudaMemset(c.a, 0x5a, bytes)) || CLIMB_FAILED(cudaMemset(c.b, 0, bytes)))
        goto done;

    if (climb_time(&t, run_copy, NULL, &c, &o, &r) != 0)
        goto done;
    d->copy_gbs = 2.0 * bytes / (r.median_us * 1e-6) / 1e9;
    if (climb_time(&t, run_read, NULL, &c, &o, &r) != 0)
        goto done;
    d->read_gbs = bytes / (r.median_us * 1e-6) / 1e9;
    d->write_gbs = climb_write_gbs(d->copy_gbs, d->read_gbs);
    if (climb_time(&t, run_ffma, NULL, &c, &o, &r) != 0)
        goto done;
    d->ffma_gflops = (double)fma_blocks(d) * 256 * FMA_CHAINS * FMA_ITERS * 2.0 / (r.median_us * 1e-6) / 1e9;
    if (climb_time(&t, run_dfma, NULL, &c, &o, &r) != 0)
        goto done;
    d->dfma_gflops = (double)fma_blocks(d) * 256 * FMA_CHAINS * FMA_ITERS * 2.0 / (r.median_us * 1e-6) / 1e9;
    /* Launch latency: one empty kernel between two events, synchronised between samples. */
    {
        /* Cold mode would flush L2 before every sample; an empty kernel does not care, so time directly. */
        double x[200];
        for (int i = 0; i < 10; i++)
            if (run_empty(NULL, t.stream) != 0)
                goto done;
        for (int i = 0; i < 200; i++) {
            float ms;
            if (CLIMB_FAILED(cudaEventRecord(t.start, t.stream)) || run_empty(NULL, t.stream) != 0 ||
                CLIMB_FAILED(cudaEventRecord(t.stop, t.stream)) || CLIMB_FAILED(cudaEventSynchronize(t.stop)) ||
                CLIMB_FAILED(cudaEventElapsedTime(&ms, t.start, t.stop)))
                goto done;
            x[i] = 1000.0 * ms;
        }
        climb_timing_stats(x, 200, &r);
        d->launch_us = r.median_us;
    }
    d->measured = 1;
    rc = 0;
done:
    if (c.a)
        cudaFree(c.a);
    if (c.b)
        cudaFree(c.b);
    if (c.usink)
        cudaFree(c.usink);
    if (c.fsink)
        cudaFree(c.fsink);
    if (c.dsink)
        cudaFree(c.dsink);
    climb_timer_free(&t);
    return rc;
}

/* Whether this build's code runs on the current device: the runtime's attributes of one kernel (no launch). */
extern "C" cudaError_t climb_kernel_image_probe(void)
{
    cudaFuncAttributes a;
    return cudaFuncGetAttributes(&a, (const void *)ceiling_copy_kernel);
}
