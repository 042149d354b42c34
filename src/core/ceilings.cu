/* Measured ceilings: what this GPU really does for the simplest memory and arithmetic loops, so each
 * rung can be judged against the hardware it runs on rather than a datasheet. */
#include "check.h"
#include "device.h"
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

#define FFMA_CHAINS 8
#define FFMA_ITERS 2048

/* FFMA_CHAINS independent multiply-add chains per thread hide the FMA latency; the operands come from
 * run-time values so nothing folds. 2 flops per FFMA. */
__global__ void ceiling_ffma_kernel(float a, float b, float *sink)
{
    float x[FFMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FFMA_CHAINS; c++)
        x[c] = threadIdx.x + c;
    for (int it = 0; it < FFMA_ITERS; it++) {
#pragma unroll
        for (int c = 0; c < FFMA_CHAINS; c++)
            x[c] = fmaf(x[c], a, b);
    }
    float s = 0;
#pragma unroll
    for (int c = 0; c < FFMA_CHAINS; c++)
        s += x[c];
    if (s == 1234.5f)
        *sink = s;
}

__global__ void ceiling_empty_kernel(void) {}

extern "C" cudaError_t climb_launch_read_pass(const void *buf, size_t bytes, unsigned *sink, cudaStream_t s)
{
    size_t nvec = bytes / 16;
    int dev = 0, sms = 1;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return e;
    /* 512 threads x 4 blocks per SM: the shape that read fastest on an H200 (see src/workloads/reduce.cu). */
    ceiling_read_kernel<<<sms * 4, 512, 0, s>>>((const uint4 *)buf, nvec, sink);
    return cudaGetLastError();
}

typedef struct {
    const climb_device_info *d;
    void *a, *b;
    size_t bytes;
    unsigned *usink;
    float *fsink;
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

static int ffma_blocks(const climb_device_info *d) { return d->sms * 16; }

static int run_ffma(void *p, cudaStream_t s)
{
    ceiling_ctx *c = (ceiling_ctx *)p;
    ceiling_ffma_kernel<<<ffma_blocks(c->d), 256, 0, s>>>(0.999f, 0.001f, c->fsink);
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

extern "C" int climb_measure_ceilings(climb_device_info *d)
{
    ceiling_ctx c = {d, NULL, NULL, 0, NULL, NULL};
    /* 1 GiB per buffer (a quarter of memory at most): many times any L2, so every pass streams DRAM, and
     * long enough that the gap between back-to-back launches is lost in it. */
    size_t bytes = (size_t)1 << 30;
    if (bytes > d->global_mem_bytes / 4)
        bytes = (d->global_mem_bytes / 4) & ~(size_t)15;
    c.bytes = bytes;
    climb_timer t;
    climb_timing r;
    climb_timing_opts o = climb_timing_defaults();
    o.min_samples = 10;
    o.max_samples = 50;
    o.min_gpu_s = 0.02;
    o.max_wall_s = 0.5;
    o.batch = 1; /* buffers far larger than L2: back-to-back passes are already cold */
    int rc = -1;
    if (climb_timer_init(&t, (size_t)d->l2_bytes) != 0)
        return -1;
    if (CLIMB_FAILED(cudaMalloc(&c.a, bytes)) || CLIMB_FAILED(cudaMalloc(&c.b, bytes)) ||
        CLIMB_FAILED(cudaMalloc((void **)&c.usink, sizeof(unsigned))) ||
        CLIMB_FAILED(cudaMalloc((void **)&c.fsink, sizeof(float))) ||
        CLIMB_FAILED(cudaMemset(c.a, 0x5a, bytes)) || CLIMB_FAILED(cudaMemset(c.b, 0, bytes)))
        goto done;

    if (climb_time(&t, run_copy, &c, &o, &r) != 0)
        goto done;
    d->copy_gbs = 2.0 * bytes / (r.median_us * 1e-6) / 1e9;
    if (climb_time(&t, run_read, &c, &o, &r) != 0)
        goto done;
    d->read_gbs = bytes / (r.median_us * 1e-6) / 1e9;
    if (climb_time(&t, run_ffma, &c, &o, &r) != 0)
        goto done;
    d->ffma_gflops = (double)ffma_blocks(d) * 256 * FFMA_CHAINS * FFMA_ITERS * 2.0 / (r.median_us * 1e-6) / 1e9;
    /* Launch latency: one empty kernel between two events, synchronised between samples. */
    o.batch = 0;
    o.min_samples = 200;
    o.max_samples = 200;
    o.warmup = 10;
    {
        /* Cold mode would flush L2 before every sample; an empty kernel does not care, so time directly. */
        double x[200];
        for (int i = 0; i < o.warmup; i++)
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
    climb_timer_free(&t);
    return rc;
}
