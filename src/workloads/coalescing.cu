/*
 * coalescing.cu - what access patterns cost: Harris's experiment (read a float, add one, write it back) under
 * each pattern a warp can make of its addresses, and the same for 12-byte structs (float3).
 *
 * From Harris ("Optimizing CUDA": coalescing on the G80, 3M floats, 12K blocks of 256 threads: 356 us
 * coalesced, 357 us with some threads idle, 3494 us permuted or misaligned; float3 3302 us directly and 359 us
 * staged through shared memory) and Filipovič (Filipovic: the coalescing rules per compute capability, strided
 * access). See docs/coalescing.md.
 *
 * A case is n floats, `in`, and the result out[k] = in[k] + 1 for every k, whatever the rung: the rungs differ
 * only in which thread touches which bytes, and how. The `pattern` option says how threads are mapped to items
 * (an item is a float, or a struct of three), `offset` shifts both arrays by that many words for the misaligned
 * pattern, `stride` spaces neighbouring threads' items for the strided one.
 *
 * Order of this file: the patterns (host and device), kernels, launchers, the registry table, the harness glue.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/device.h"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "coalescing.h"

/* ---------------------------------------------------------------- options */

static const char *const COAL_PATTERNS[] = {"coalesced", "idle", "misaligned", "permuted", "strided", NULL};
enum { OPT_PATTERN, OPT_OFFSET, OPT_STRIDE };
static constexpr climb_option COAL_OPTIONS[] = {
    {.name = "pattern", .kind = CLIMB_OPT_CHOICE,
     .meaning = "how threads take items: coalesced (thread t item t); idle (every 4th lane sits out); misaligned "
                "(arrays start `offset` words late); permuted (scrambled within each warp); strided (neighbours "
                "`stride` items apart)",
     .def = "all", .choices = COAL_PATTERNS},
    {.name = "offset", .kind = CLIMB_OPT_INT, .meaning = "words (4 bytes) the arrays start late, pattern=misaligned",
     .def = "1", .min = 0, .max = 32},
    {.name = "stride", .kind = CLIMB_OPT_INT, .meaning = "items between neighbouring threads, pattern=strided",
     .def = "32", .min = 1, .max = 32},
};
CLIMB_OPTION_AT(COAL_OPTIONS, OPT_PATTERN, "pattern");
CLIMB_OPTION_AT(COAL_OPTIONS, OPT_OFFSET, "offset");
CLIMB_OPTION_AT(COAL_OPTIONS, OPT_STRIDE, "stride");

/* ---------------------------------------------------------------- the patterns */

#define COAL_NONE ((size_t)-1)

/* A bijection of 0..31: lane l takes the (7 l + 3) mod 32-th item of its warp's 32 (7 is odd). */
__host__ __device__ static inline unsigned coal_scramble(unsigned lane) { return (lane * 7u + 3u) & 31u; }

__host__ __device__ static inline size_t coal_item(int p, size_t gid, size_t m, unsigned stride)
{
    size_t i;
    switch (p) {
    case CLIMB_COAL_IDLE: { /* lanes 3, 7, ..., 31 idle: 24 items a warp */
        const unsigned lane = (unsigned)(gid & 31);
        if ((lane & 3) == 3)
            return COAL_NONE;
        i = (gid >> 5) * 24 + lane - lane / 4;
        break;
    }
    case CLIMB_COAL_PERMUTED:
        i = (gid & ~(size_t)31) | coal_scramble((unsigned)(gid & 31));
        break;
    case CLIMB_COAL_STRIDED: { /* q = ceil(m / stride) threads per class; thread g takes (g mod q) stride + g / q */
        const size_t q = (m + stride - 1) / stride;
        i = q && gid / q < stride ? (gid % q) * stride + gid / q : COAL_NONE; /* past q x stride: none */
        break;
    }
    default: /* coalesced, misaligned */
        i = gid;
    }
    return i < m ? i : COAL_NONE;
}

extern "C" size_t climb_coal_threads(int p, size_t m, unsigned stride)
{
    switch (p) {
    case CLIMB_COAL_IDLE: return (m + 23) / 24 * 32;
    case CLIMB_COAL_PERMUTED: return (m + 31) / 32 * 32;
    case CLIMB_COAL_STRIDED: return (m + stride - 1) / stride * stride;
    default: return m;
    }
}

extern "C" size_t climb_coal_item(int p, size_t gid, size_t m, unsigned stride)
{
    return coal_item(p, gid, m, stride);
}

/* ---------------------------------------------------------------- kernels */

/* float (and the bound, coalesced_float, with the coalesced pattern): Harris's kernel. One float per thread,
 * taken by the pattern. Hopper moves global memory in 32-byte sectors: a warp's request costs the sectors its
 * addresses touch, however they are ordered (permuted is free) or which lanes are off (idle is free); what costs
 * is touching sectors the warp does not use up (misaligned: one sector more per 128 bytes; strided: a sector per
 * element from a stride of 8 floats). */
__global__ void coal_float_kernel(const float *__restrict__ in, float *__restrict__ out, size_t n, int pattern,
                                  unsigned stride)
{
    const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = coal_item(pattern, gid, n, stride);
    if (i != COAL_NONE)
        out[i] = in[i] + 1.0f;
}

/* The n % 3 floats after the structs of the float3 rungs: by the first threads, one each. */
__device__ __forceinline__ void coal_tail(const float *__restrict__ in, float *__restrict__ out, size_t gid,
                                          unsigned tail)
{
    if (gid < tail)
        out[gid] = in[gid] + 1.0f;
}

/* float3_aos (S = float3) and float4_padded (S = float4): one struct per thread, x, y and z each plus one (the
 * padded struct's fourth float is copied through).
 * float3_aos, Harris's accessFloat3: a 12-byte load is three 4-byte loads, each touching a third of the sectors
 * of the warp's 384 bytes, so the same sectors are requested three times (the G80 made that 3 uncoalesced
 * transactions per thread; L1 now absorbs most of the repeats).
 * float4_padded, Harris's __align__(16) advice: one 16-byte load and store a thread, a quarter of the bytes
 * moved being padding. */
template <typename S>
__global__ void coal_struct_kernel(const S *__restrict__ in, S *__restrict__ out, size_t m,
                                   const float *__restrict__ tin, float *__restrict__ tout, unsigned tail, int pattern,
                                   unsigned stride)
{
    const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = coal_item(pattern, gid, m, stride);
    coal_tail(tin, tout, gid, tail);
    if (i != COAL_NONE) {
        S a = in[i];
        a.x += 1.0f;
        a.y += 1.0f;
        a.z += 1.0f;
        out[i] = a;
    }
}

/* float3_shared: Harris's cure. A block of 256 threads reads its 256 structs as 768 floats, three coalesced
 * loads a thread, into shared memory; each thread works on its struct there (a stride of 3 words: 3 is odd, so
 * no bank conflicts), and the block writes the 768 floats back the same way. The pattern is the block's
 * contiguous span, so only coalesced and misaligned apply. */
__global__ void __launch_bounds__(256) coal_shared_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                          size_t m, unsigned tail)
{
    __shared__ float s[256 * 3];
    const size_t base = (size_t)blockIdx.x * 768, nf = 3 * m;
    const unsigned t = threadIdx.x;
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (base + t + 256 * k < nf)
            s[t + 256 * k] = in[base + t + 256 * k];
    __syncthreads();
    if ((size_t)blockIdx.x * 256 + t < m) {
        s[3 * t] += 1.0f;
        s[3 * t + 1] += 1.0f;
        s[3 * t + 2] += 1.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 3; k++)
        if (base + t + 256 * k < nf)
            out[base + t + 256 * k] = s[t + 256 * k];
    if (blockIdx.x == 0)
        coal_tail(in + nf, out + nf, t, tail);
}

/* float3_soa: the same structs stored as three arrays (x[m], y[m], z[m]: the first, second and third m floats
 * of in): each thread makes three 4-byte accesses, each coalesced on its own. */
__global__ void coal_soa_kernel(const float *__restrict__ in, float *__restrict__ out, size_t m, unsigned tail,
                                int pattern, unsigned stride)
{
    const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = coal_item(pattern, gid, m, stride);
    coal_tail(in + 3 * m, out + 3 * m, gid, tail);
    if (i != COAL_NONE) {
        out[i] = in[i] + 1.0f;
        out[m + i] = in[m + i] + 1.0f;
        out[2 * m + i] = in[2 * m + i] + 1.0f;
    }
}

/* vector_grid_stride (best): whatever the pattern asked for, the remedy is to touch the bytes in order: a few
 * scalar floats up to the first 16-byte boundary, then 16-byte vectors over a grid of a few waves that strides
 * through the array, then the last floats. in and out share their misalignment (the case shifts both alike). */
__global__ void __launch_bounds__(256) coal_vector_kernel(const float *__restrict__ in, float *__restrict__ out,
                                                          size_t n)
{
    size_t head = ((16 - ((uintptr_t)in & 15)) & 15) / 4;
    if (head > n)
        head = n;
    const size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, step = (size_t)gridDim.x * blockDim.x;
    if (gid < head)
        out[gid] = in[gid] + 1.0f;
    const float4 *in4 = (const float4 *)(in + head);
    float4 *out4 = (float4 *)(out + head);
    const size_t n4 = (n - head) / 4;
    for (size_t i = gid; i < n4; i += step) {
        float4 v = in4[i];
        v.x += 1.0f;
        v.y += 1.0f;
        v.z += 1.0f;
        v.w += 1.0f;
        out4[i] = v;
    }
    for (size_t k = head + 4 * n4 + gid; k < n; k += step)
        out[k] = in[k] + 1.0f;
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    size_t n, m;               /* floats; structs of three (m = n / 3) */
    unsigned tail;             /* n % 3 */
    int pattern;
    unsigned stride;
    size_t shift;              /* words the arrays start past their allocation: the contract's offset, plus the
                                  option's for pattern=misaligned */
    float *h_in, *d_in;        /* flat: n floats */
    float *h_out, *d_out;      /* the last output, downloaded */
    float *h_pad;              /* padded: m structs of 4 floats, then the tail; its output downloaded */
    char *d_pin_alloc, *d_pout_alloc;
    float *d_pin, *d_pout;     /* padded, on the device (made by prepare for float4_padded) */
};

#define COAL_PAD_MARK -7777.0f /* the fourth float of a padded struct: copied through unchanged */

/* ---------------------------------------------------------------- launchers */

static unsigned blocks_for(size_t threads) { return (unsigned)((threads + 255) / 256 > 0 ? (threads + 255) / 256 : 1); }

static cudaError_t run_coalesced(climb_case *c, cudaStream_t s)
{
    coal_float_kernel<<<blocks_for(c->n), 256, 0, s>>>(c->d_in, c->d_out, c->n, CLIMB_COAL_COALESCED, 1);
    return cudaGetLastError();
}

static cudaError_t run_float(climb_case *c, cudaStream_t s)
{
    coal_float_kernel<<<blocks_for(climb_coal_threads(c->pattern, c->n, c->stride)), 256, 0, s>>>(
        c->d_in, c->d_out, c->n, c->pattern, c->stride);
    return cudaGetLastError();
}

static size_t struct_threads(const climb_case *c)
{
    size_t t = climb_coal_threads(c->pattern, c->m, c->stride);
    return t > c->tail ? t : c->tail;
}

static cudaError_t run_aos(climb_case *c, cudaStream_t s)
{
    coal_struct_kernel<float3><<<blocks_for(struct_threads(c)), 256, 0, s>>>(
        (const float3 *)c->d_in, (float3 *)c->d_out, c->m, c->d_in + 3 * c->m, c->d_out + 3 * c->m, c->tail,
        c->pattern, c->stride);
    return cudaGetLastError();
}

static cudaError_t run_shared(climb_case *c, cudaStream_t s)
{
    coal_shared_kernel<<<blocks_for(c->m), 256, 0, s>>>(c->d_in, c->d_out, c->m, c->tail);
    return cudaGetLastError();
}

static cudaError_t run_soa(climb_case *c, cudaStream_t s)
{
    coal_soa_kernel<<<blocks_for(struct_threads(c)), 256, 0, s>>>(c->d_in, c->d_out, c->m, c->tail, c->pattern,
                                                                  c->stride);
    return cudaGetLastError();
}

static cudaError_t run_padded(climb_case *c, cudaStream_t s)
{
    coal_struct_kernel<float4><<<blocks_for(struct_threads(c)), 256, 0, s>>>(
        (const float4 *)c->d_pin, (float4 *)c->d_pout, c->m, c->d_pin + 4 * c->m, c->d_pout + 4 * c->m, c->tail,
        c->pattern, c->stride);
    return cudaGetLastError();
}

/* Four waves of 256-thread blocks (8 resident per SM), fewer for small arrays. */
static cudaError_t run_vector(climb_case *c, cudaStream_t s)
{
    size_t want = blocks_for((c->n + 3) / 4), cap = (size_t)(c->p.dev->sms > 0 ? c->p.dev->sms : 1) * 8 * 4;
    coal_vector_kernel<<<(unsigned)(want < cap ? want : cap), 256, 0, s>>>(c->d_in, c->d_out, c->n);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- the registry */

/* Every coalescing kernel runs 256 threads a block. */
#define one_kernel(f, name, out, max) climb_kernel_at(out, max, 0, f, 256, 0, "%s", name)

static int k_float(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_float_kernel, "coal_float_kernel", o, max);
}
static int k_aos(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_struct_kernel<float3>, "coal_struct_kernel<float3>", o, max);
}
static int k_shared(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_shared_kernel, "coal_shared_kernel", o, max);
}
static int k_soa(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_soa_kernel, "coal_soa_kernel", o, max);
}
static int k_padded(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_struct_kernel<float4>, "coal_struct_kernel<float4>", o, max);
}
static int k_vector(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return one_kernel((const void *)coal_vector_kernel, "coal_vector_kernel", o, max);
}

/* The rows' own rules: staging takes a block's contiguous span; 16-byte structs need a 16-byte start. */
static const char *refuses_pattern(const climb_case *c)
{
    return c->pattern != CLIMB_COAL_COALESCED && c->pattern != CLIMB_COAL_MISALIGNED
               ? "staging takes a block's contiguous span: patterns coalesced and misaligned only"
               : NULL;
}
static const char *refuses_unaligned(const climb_case *c)
{
    return c->shift % 4 ? "16-byte structs need a 16-byte aligned start (offset a multiple of 4 words)" : NULL;
}

typedef struct coal_rung {
    climb_rung_info info;
    int padded;   /* 1: works on the padded layout (d_pin, d_pout) */
} coal_rung;

/* The G80 figures are Harris's, 3M floats (us): 356 coalesced (the bound here), 3302 for float3 read directly,
 * 359 staged through shared memory. Its 357 (idle threads) and 3494 (permuted or misaligned) belong to the float
 * rung under those patterns; docs/coalescing.md sets them beside ours. */
static const coal_rung COAL_RUNGS[] = {
    {.info = {.name = "coalesced_float", .idea = "bound: Harris's kernel with thread t on float t, whatever the "
                                                 "pattern: what these bytes cost when the warp's accesses coalesce",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = k_float, .published_us = 356, .launch = run_coalesced}},
    {.info = {.name = "float", .idea = "Harris's kernel (read a float, add one, write it) under the case's pattern",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_float, .launch = run_float}},
    {.info = {.name = "float3_aos", .idea = "12-byte structs read and written directly, one per thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_aos, .published_us = 3302, .launch = run_aos}},
    {.info = {.name = "float3_shared", .idea = "the structs staged through shared memory: three coalesced 4-byte "
                                               "loads and stores a thread",
              .needs = "pattern coalesced or misaligned", .kind = CLIMB_RUNG_LADDER, .kernels = k_shared,
              .published_us = 359, .launch = run_shared, .refuses = refuses_pattern}},
    {.info = {.name = "float3_soa", .idea = "structure of arrays: x, y and z in three arrays, three coalesced "
                                            "accesses a thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_soa, .launch = run_soa}},
    {.info = {.name = "float4_padded", .idea = "the struct padded to 16 aligned bytes: one vector access a thread, "
                                               "a third more bytes moved",
              .needs = "a 16-byte aligned start (offset a multiple of 4 words)", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_padded, .launch = run_padded, .refuses = refuses_unaligned},
     .padded = 1},
    {.info = {.name = "vector_grid_stride", .idea = "the remedy: bytes in order, 16-byte vectors, a grid of a few "
                                                    "waves striding through them",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_vector, .launch = run_vector}},
};
#define COAL_N_RUNGS CLIMB_COUNT(COAL_RUNGS)

static const climb_rung_info *coal_rung_info(int i) { return &COAL_RUNGS[i].info; }

static const climb_published COAL_PUBLISHED = {
    .source = "Harris, Optimizing CUDA, 'Coalescing: Timing Results' (3M floats, 12 MB)",
    .gpu = "G80",
    .type = CLIMB_F32,
    .shape = CLIMB_SHAPE1(3145728),
    .rate_unit = "GB/s",
};

/* ---------------------------------------------------------------- harness glue */

/* The padded layout, made by prepare. */
static void coal_fini(climb_case *c)
{
    free(c->h_pad);
    if (c->d_pin_alloc)
        cudaFree(c->d_pin_alloc);
    if (c->d_pout_alloc)
        cudaFree(c->d_pout_alloc);
}

static int coal_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->m = c->n / 3;
    c->tail = (unsigned)(c->n % 3);
    c->pattern = c->p.opts[OPT_PATTERN].choice;
    c->stride = (unsigned)c->p.opts[OPT_STRIDE].i;
    c->shift = c->p.offset + (c->pattern == CLIMB_COAL_MISALIGNED ? (size_t)c->p.opts[OPT_OFFSET].i : 0);
    return 0;
}

static int coal_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    climb_rng_fill_f32(&rng, c->h_in, c->n, -1000.0f, 1000.0f);
    return 0;
}

static size_t flat_bytes(const climb_case *c) { return (c->n ? c->n : 1) * sizeof(float); }
static size_t shift_bytes(const climb_case *c) { return c->shift * sizeof(float); }

/* The output's poison is all ones: NaN, which no finite input plus one becomes. */
static const climb_buffer COAL_BUFFERS[] = {
    {.name = "in", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = flat_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in), .shift = shift_bytes},
    {.name = "out", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = flat_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out), .poison = 0xFF,
     .shift = shift_bytes},
};

static int coal_empty(const climb_case *c) { return c->n == 0; }

static const char *coal_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "in uniform random in [-1000, 1000); arrays start %zu words past 256-byte alignment",
             c->shift);
    return buf;
}

/* in + 1 is computed in float on both sides (one rounding, the same in IEEE arithmetic): checked bit for bit. */
static int coal_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "CPU in[k] + 1 in float, every element, bit for bit");
    return 0;
}

static const char *coal_refuses(const climb_case *c, int rung)
{
    (void)rung; /* a row's own rules are its refuses */
    if (climb_coal_threads(c->pattern, c->n, c->stride) / 256 >= (size_t)INT32_MAX)
        return "more blocks than a 1-D grid holds";
    return NULL;
}

/* The padded layout, once per case: m structs (x, y, z from in, the fourth float a mark), then the tail. */
static int coal_prepare(climb_case *c, int rung)
{
    if (!COAL_RUNGS[rung].padded || c->d_pin)
        return 0;
    const size_t floats = 4 * c->m + c->tail, bytes = (floats + c->shift) * sizeof(float) + 16;
    cudaError_t e = cudaMalloc((void **)&c->d_pin_alloc, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_pout_alloc, bytes);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: out of device memory for the padded structs: %s\n", cudaGetErrorString(e));
        cudaGetLastError();
        return -1;
    }
    c->h_pad = (float *)malloc(floats * sizeof(float) + 1);
    if (!c->h_pad) {
        climb_host_oom("the padded structs");
        return -1;
    }
    for (size_t i = 0; i < c->m; i++) {
        memcpy(c->h_pad + 4 * i, c->h_in + 3 * i, 3 * sizeof(float));
        c->h_pad[4 * i + 3] = COAL_PAD_MARK;
    }
    memcpy(c->h_pad + 4 * c->m, c->h_in + 3 * c->m, c->tail * sizeof(float));
    c->d_pin = (float *)c->d_pin_alloc + c->shift;
    c->d_pout = (float *)c->d_pout_alloc + c->shift;
    CLIMB_CHECK(cudaMemcpy(c->d_pin, c->h_pad, floats * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
}

/* The flat output (downloaded by the harness) and the padded one (its padding keeps its mark) bit for bit. */
static int coal_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_out, 0xFF, c->n * sizeof(float)));
    if (c->d_pout)
        CLIMB_CHECK(cudaMemset(c->d_pout, 0xFF, (4 * c->m + c->tail) * sizeof(float)));
    return 0;
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static int coal_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (COAL_RUNGS[rung].padded) {
        CLIMB_CHECK(cudaMemcpy(c->h_pad, c->d_pout, (4 * c->m + c->tail) * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i <= c->m; i++)
            for (unsigned e = 0; e < (i < c->m ? 4u : c->tail); e++) {
                const float want = e == 3 ? COAL_PAD_MARK : c->h_in[3 * i + e] + 1.0f, got = c->h_pad[4 * i + e];
                climb_compare_check(&k, same_bits(got, want), "out[%zu] = %.9g, expected %.9g", 3 * i + (e % 3), got,
                                    want);
            }
    } else {
        for (size_t i = 0; i < c->n; i++) {
            const float want = c->h_in[i] + 1.0f;
            climb_compare_check(&k, same_bits(c->h_out[i], want), "out[%zu] = %.9g, expected %.9g", i, c->h_out[i],
                                want);
        }
    }
    return climb_compare_end(&k);
}

/* The bytes the result needs, the same for every rung: n floats read, n written (the padded rung moves a third
 * more, its padding, at the same count: that is its cost). */
static void coal_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->n * sizeof(float);
    out->bytes_written = out->bytes_read;
}

/* Harris's 3M floats, and 2^28 floats (1 GiB in, 1 GiB out) to fill the GPU's memory system. */
static const climb_shape COAL_BENCH_SHAPES[] = {CLIMB_SHAPE1(3145728), CLIMB_SHAPE1(1u << 28)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape COAL_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
static const climb_shape COAL_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),   CLIMB_SHAPE1(1),    CLIMB_SHAPE1(2),
                                                CLIMB_SHAPE1(3),   CLIMB_SHAPE1(4),    CLIMB_SHAPE1(31),
                                                CLIMB_SHAPE1(33),  CLIMB_SHAPE1(95),   CLIMB_SHAPE1(97),
                                                CLIMB_SHAPE1(767), CLIMB_SHAPE1(769),  CLIMB_SHAPE1(1000),
                                                CLIMB_SHAPE1(4099), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
static const climb_shape COAL_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(97), CLIMB_SHAPE1(4099)};

/* GB/s against the misaligned start (0 to 32 words) and against the stride (1 to 32 items), on 2^25 floats
 * (128 MiB each way: past the L2). */
static const climb_sweep COAL_SWEEPS[] = {
    {.name = "offset",
     .title = "read, add one, write 2^25 floats: GB/s against the misaligned start",
     .args = "--size 2^25 --set pattern=misaligned "
             "--set offset=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32 "
             "--rung coalesced_float --rung float --rung float3_aos --rung float3_shared --rung vector_grid_stride",
     .x = "offset",
     .log_x = 0},
    {.name = "stride",
     .title = "read, add one, write 2^25 floats: GB/s against the stride between neighbouring threads",
     .args = "--size 2^25 --set pattern=strided "
             "--set stride=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32 "
             "--rung coalesced_float --rung float --rung float3_aos --rung float3_soa --rung float4_padded",
     .x = "stride",
     .log_x = 0},
};

extern "C" const climb_workload climb_coalescing_workload = {
    .name = "coalescing",
    .title = "Coalescing lab: read a float, add one, write it, under each access pattern",
    .sources = "Harris, Optimizing CUDA: coalescing (G80); Filipovic, GPU Hardware Performance: coalescing rules "
                "and strided access",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = COAL_OPTIONS,
    .n_options = CLIMB_COUNT(COAL_OPTIONS),
    .bytes_counted = "n floats read and n written (the padded structs' padding not counted)",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = COAL_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(COAL_BENCH_SHAPES),
    .check_shapes = COAL_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(COAL_CHECK_SHAPES),
    .quick_shapes = COAL_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(COAL_QUICK_SHAPES),
    .main_shapes = COAL_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(COAL_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = COAL_N_RUNGS,
    .rung = coal_rung_info,
    .published = &COAL_PUBLISHED,
    .sweeps = COAL_SWEEPS,
    .n_sweeps = CLIMB_COUNT(COAL_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = COAL_BUFFERS,
    .n_buffers = CLIMB_COUNT(COAL_BUFFERS),
    .init = coal_init,
    .fill = coal_fill,
    .fini = coal_fini,
    .describe = coal_describe,
    .reference = coal_reference,
    .refuses = coal_refuses,
    .prepare = coal_prepare,
    .empty = coal_empty,
    .poison = coal_poison,
    .verify = coal_verify,
    .counts = coal_counts,
};
