/*
 * trapezoid.cu - the trapezoidal rule for f(x) = x^2 + 1 over [a, b] (default [-3, 3], exactly 24), as a ladder.
 *
 * From Pacheco (CUDA trapezoidal rule II and III): one atomicAdd per thread; a warp-shuffle tree sum with
 * blocks of one warp (one atomic per warp); a shared-memory dissemination sum with blocks of one warp; blocks of
 * several warps (warp sums in shared memory, one atomic per block). Table 6.8 gives the GTX Titan X's times for
 * n = 2^20 (3.08, 0.210, 0.206 ms). The best rung coarsens: a grid-stride loop of two FMAs per trapezoid, one
 * value per block, and the last block adds them in a fixed order (one launch, a deterministic result). See
 * docs/trapezoid.md.
 *
 * T_n = h [ (f(a) + f(b)) / 2 + sum_{i=1}^{n-1} f(a + i h) ], h = (b - a) / n. Every rung computes in the case's
 * type (f32 or f64), Pacheco's way: x_i and f(x_i) in that type.
 *
 * Order of this file: the exact value and tolerance, kernels, launchers, the registry table, the harness glue.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/device.h"
#include "../device/device_primitives.cuh"
#include "../core/workload.cuh"
#include "trapezoid.h"

/* ---------------------------------------------------------------- exact value and tolerance */

extern "C" double climb_trap_integral(double a, double b)
{
    const long double A = a, B = b;
    return (double)((B * B * B - A * A * A) / 3 + (B - A));
}

extern "C" double climb_trap_exact(double a, double b, size_t n)
{
    const long double A = a, B = b, w = B - A, N = (long double)n;
    return (double)((B * B * B - A * A * A) / 3 + w + w * w * w / (6 * N * N));
}

extern "C" double climb_trap_cpu(double a, double b, size_t n)
{
    const long double A = a, h = ((long double)b - A) / (long double)n;
    long double s = ((A * A + 1) + ((long double)b * b + 1)) / 2;
    for (size_t i = 1; i < n; i++) {
        const long double x = A + (long double)i * h;
        s += x * x + 1;
    }
    return (double)(s * h);
}

/* Each x_i is off by at most 4 u (M + |b - a|), M = max(|a|, |b|) (h's rounding times i, i h's, the add's, or the
 * best rung's step and offset); f(x) = x^2 + 1 then by 2 M that much plus its own two roundings; the terms' sum, a
 * tree of height `depth`, by gamma(depth) sum f; the endpoints, the product with h and h itself by 3 u T. All terms
 * are positive, so h sum f <= T and h sum 2 M |dx| <= |b - a| 2 M 4 u (M + |b - a|). */
extern "C" double climb_trap_tol(double u, double a, double b, size_t n, double depth)
{
    const double T = fabs(climb_trap_exact(a, b, n)), w = fabs(b - a), M = fmax(fabs(a), fabs(b));
    const double hu = (depth + 6) * u, gamma = hu < 0.5 ? hu / (1 - hu) : 1.0;
    return gamma * T + 8 * u * w * M * (M + w) + 1e-300;
}

/* ---------------------------------------------------------------- policy */

/* Pacheco's rungs: blocks of one warp (table 6.8: "block size of 32 threads"); the several-warp rung: 256
 * threads. The best rung: 256 threads, TRAP_BLOCKS_PER_SM blocks per SM, TRAP_UNROLL independent sums a thread. */
#define TRAP_WARP 32u
#define TRAP_BLOCK 256u
#define TRAP_BLOCKS_PER_SM 8u
#define TRAP_UNROLL 8u
/* One atomic per trapezoid on one address: above this many trapezoids a run takes seconds. */
#define TRAP_ATOMIC_MAX ((size_t)1 << 26)

/* ---------------------------------------------------------------- kernels */

template <typename T> __device__ __forceinline__ T trap_f(T x) { return x * x + T(1); }

/* Pacheco's host sets the sum to (f(a) + f(b)) / 2 before the kernel and multiplies by h after; here two
 * one-thread kernels do it on the device, so that every rung leaves T_n in device memory. */
template <typename T> __global__ void trap_init_kernel(T a, T b, T *acc) { *acc = (trap_f(a) + trap_f(b)) / T(2); }
template <typename T> __global__ void trap_scale_kernel(T h, T *acc) { *acc = *acc * h; }

/* trap_atomic_per_thread, Pacheco's first CUDA version: thread i (0 < i < n) evaluates f(a + i h) and adds it
 * to the one sum with atomicAdd. n - 1 atomics on one address, serialised in L2. */
template <typename T> __global__ void trap_atomic_kernel(T a, T h, size_t n, T *acc)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (0 < i && i < n)
        atomicAdd(acc, trap_f(a + (T)i * h));
}

/* trap_warp_shuffle: blocks of one warp; the warp's 32 values summed in registers (a shuffle tree, five steps,
 * the result in lane 0, Pacheco's Warp_sum), then one atomicAdd per warp: 32 times fewer atomics. */
template <typename T> __global__ void __launch_bounds__(TRAP_WARP) trap_warp_shuffle_kernel(T a, T h, size_t n, T *acc)
{
    const size_t i = (size_t)blockIdx.x * TRAP_WARP + threadIdx.x;
    T v = 0 < i && i < n ? trap_f(a + (T)i * h) : T(0);
#pragma unroll
    for (unsigned d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x == 0)
        atomicAdd(acc, v);
}

/* trap_shared_dissemination: the same blocks, the sum in shared memory (Pacheco's Shared_mem_sum): at each of five
 * steps every lane adds the value `diff` lanes on (mod 32), so every lane ends with the total. Pacheco relied
 * on the warp's lock-step for the reads to come before the writes; since Volta the lanes are scheduled
 * independently, so a __syncwarp() separates the reads from the writes of each step. */
template <typename T>
__global__ void __launch_bounds__(TRAP_WARP) trap_shared_dissemination_kernel(T a, T h, size_t n, T *acc)
{
    __shared__ T vals[TRAP_WARP];
    const unsigned lane = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * TRAP_WARP + lane;
    vals[lane] = 0 < i && i < n ? trap_f(a + (T)i * h) : T(0);
    __syncwarp();
    for (unsigned diff = 16; diff > 0; diff >>= 1) {
        const T other = vals[(lane + diff) & 31];
        __syncwarp();
        vals[lane] += other;
        __syncwarp();
    }
    if (lane == 0)
        atomicAdd(acc, vals[0]);
}

/* trap_multi_warp: blocks of TRAP_BLOCK threads (Pacheco's section 6.13): each warp sums with shuffles, the warp
 * sums meet in shared memory and one warp adds them: one atomic per block, 8 times fewer than per warp. */
template <typename T> __global__ void __launch_bounds__(TRAP_BLOCK) trap_multi_warp_kernel(T a, T h, size_t n, T *acc)
{
    __shared__ T scratch[TRAP_BLOCK / 32];
    const size_t i = (size_t)blockIdx.x * TRAP_BLOCK + threadIdx.x;
    T v = 0 < i && i < n ? trap_f(a + (T)i * h) : T(0);
    v = climb_block_sum<TRAP_BLOCK>(v, scratch);
    if (threadIdx.x == 0)
        atomicAdd(acc, v);
}

/* trap_coarsened, the best rung: a fixed grid, each thread many trapezoids, one launch.
 * - Thread t takes inner trapezoids j = t, t + G, t + 2G, ... (G threads). Its k-th is at x = x0 + k (G h): with the
 *   TRAP_UNROLL starting points x0 + u G h kept in registers, each trapezoid costs two FMAs, x = k step + x0u and
 *   s_u = x x + s_u (the +1 of each of the n - 1 terms is added once, as n - 1); TRAP_UNROLL independent sums
 *   hide the FMA latency and shorten each sum.
 * - Each block writes its sum to a slot; the last block to finish (a ticket) adds the slots in slot order, adds
 *   the endpoints and n - 1, multiplies by h and resets the ticket: the same result every run. */
template <typename T>
__global__ void __launch_bounds__(TRAP_BLOCK) trap_coarsened_kernel(T a, T b, T h, size_t n, T *out, T *partials,
                                                                    unsigned *ticket)
{
    __shared__ T scratch[TRAP_BLOCK / 32];
    const size_t G = (size_t)gridDim.x * TRAP_BLOCK, t = (size_t)blockIdx.x * TRAP_BLOCK + threadIdx.x;
    const size_t m = n - 1; /* inner trapezoids */
    const size_t count = t < m ? (m - t + G - 1) / G : 0;
    const T step = (T)G * h, x0 = a + (T)(t + 1) * h;
    T x0u[TRAP_UNROLL], s[TRAP_UNROLL];
#pragma unroll
    for (unsigned u = 0; u < TRAP_UNROLL; u++) {
        x0u[u] = (T)u * step + x0;
        s[u] = T(0);
    }
    const size_t full = count / TRAP_UNROLL;
    T k = T(0);
    for (size_t r = 0; r < full; r++, k += T(TRAP_UNROLL)) {
#pragma unroll
        for (unsigned u = 0; u < TRAP_UNROLL; u++) {
            const T x = k * step + x0u[u];
            s[u] = x * x + s[u];
        }
    }
    for (unsigned u = 0; u < count % TRAP_UNROLL; u++) {
        const T x = k * step + x0u[u];
        s[u] = x * x + s[u];
    }
    T v = T(0);
#pragma unroll
    for (unsigned u = 0; u < TRAP_UNROLL; u++)
        v += s[u];
    v = climb_block_sum<TRAP_BLOCK>(v, scratch);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = v;
    if (!climb_last_block(ticket))
        return;
    T total = T(0);
    for (unsigned j = threadIdx.x; j < gridDim.x; j += TRAP_BLOCK)
        total += __ldcg(&partials[j]);
    total = climb_block_sum<TRAP_BLOCK>(total, scratch);
    if (threadIdx.x == 0) {
        *out = ((trap_f(a) + trap_f(b)) / T(2) + ((T)m + total)) * h;
        *ticket = 0;
    }
}

/* ---------------------------------------------------------------- launchers */

typedef struct trap_args {
    double a, b;
    size_t n;
    void *out;
    void *ws;      /* the best rung's ticket (first 16 bytes) and slots */
    int sms;
    cudaStream_t s;
} trap_args;

typedef cudaError_t (*trap_launch_fn)(climb_dtype t, const trap_args *x);

static unsigned trap_best_grid(const trap_args *x)
{
    const size_t cap = (size_t)(x->sms > 0 ? x->sms : 1) * TRAP_BLOCKS_PER_SM;
    const size_t want = (x->n + (size_t)TRAP_BLOCK * TRAP_UNROLL * 4 - 1) / ((size_t)TRAP_BLOCK * TRAP_UNROLL * 4);
    return (unsigned)(want < 1 ? 1 : want < cap ? want : cap);
}

static size_t trap_workspace(int sms) { return 16 + (size_t)(sms > 0 ? sms : 1) * TRAP_BLOCKS_PER_SM * 8; }

/* Pacheco's shape of run: the sum set to the endpoints' half, the kernel's atomics, the product with h. */
template <typename T>
static cudaError_t launch_atomic_rung(void (*kernel)(T, T, size_t, T *), unsigned block, const trap_args *x)
{
    const T a = (T)x->a, b = (T)x->b, h = (b - a) / (T)x->n;
    T *acc = (T *)x->out;
    trap_init_kernel<T><<<1, 1, 0, x->s>>>(a, b, acc);
    const size_t blocks = (x->n + block - 1) / block;
    kernel<<<(unsigned)blocks, block, 0, x->s>>>(a, h, x->n, acc);
    trap_scale_kernel<T><<<1, 1, 0, x->s>>>(h, acc);
    return cudaGetLastError();
}

#define TRAP_ATOMIC_LAUNCHER(name, kernel, block)                                                                \
    static cudaError_t name(climb_dtype t, const trap_args *x)                                                 \
    {                                                                                                          \
        return climb_typed<CLIMB_TYPES_F32_F64>(t, cudaErrorInvalidValue, [&](auto v) {                        \
            typedef decltype(v) T;                                                                             \
            return launch_atomic_rung<T>(kernel<T>, block, x);                                                 \
        });                                                                                                    \
    }
TRAP_ATOMIC_LAUNCHER(launch_atomic, trap_atomic_kernel, TRAP_WARP)
TRAP_ATOMIC_LAUNCHER(launch_warp_shuffle, trap_warp_shuffle_kernel, TRAP_WARP)
TRAP_ATOMIC_LAUNCHER(launch_dissemination, trap_shared_dissemination_kernel, TRAP_WARP)
TRAP_ATOMIC_LAUNCHER(launch_multi_warp, trap_multi_warp_kernel, TRAP_BLOCK)

template <typename T> static cudaError_t launch_coarsened_typed(const trap_args *x)
{
    const T a = (T)x->a, b = (T)x->b, h = (b - a) / (T)x->n;
    trap_coarsened_kernel<T><<<trap_best_grid(x), TRAP_BLOCK, 0, x->s>>>(
        a, b, h, x->n, (T *)x->out, (T *)((char *)x->ws + 16), (unsigned *)x->ws);
    return cudaGetLastError();
}

static cudaError_t launch_coarsened(climb_dtype t, const trap_args *x)
{
    return climb_typed<CLIMB_TYPES_F32_F64>(t, cudaErrorInvalidValue,
                                            [&](auto v) { return launch_coarsened_typed<decltype(v)>(x); });
}

/* ---------------------------------------------------------------- the registry */

#define TRAP_KERNELS_FN(fname, kernel, kname, block)                                                             \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)     \
    {                                                                                                          \
        const bool f = t == CLIMB_F32;                                                                         \
        return climb_one_kernel(o, max, f ? (const void *)kernel<float> : (const void *)kernel<double>,        \
                                f ? kname "<float>" : kname "<double>", block, 0);                             \
    }
TRAP_KERNELS_FN(k_atomic, trap_atomic_kernel, "trap_atomic_kernel", TRAP_WARP)
TRAP_KERNELS_FN(k_warp_shuffle, trap_warp_shuffle_kernel, "trap_warp_shuffle_kernel", TRAP_WARP)
TRAP_KERNELS_FN(k_dissemination, trap_shared_dissemination_kernel, "trap_shared_dissemination_kernel", TRAP_WARP)
TRAP_KERNELS_FN(k_multi_warp, trap_multi_warp_kernel, "trap_multi_warp_kernel", TRAP_BLOCK)
TRAP_KERNELS_FN(k_coarsened, trap_coarsened_kernel, "trap_coarsened_kernel", TRAP_BLOCK)

typedef struct trap_rung {
    climb_rung_info info;
    trap_launch_fn launch;
    unsigned per_atomic;   /* trapezoids per atomicAdd on the one sum (0: the best rung's fixed-order finish) */
} trap_rung;

/* Table 6.8's GTX Titan X times (ms, n = 2^20, blocks of 32 threads): original 3.08, warp shuffle 0.210, shared
 * memory 0.206. */
static const trap_rung TRAP_RUNGS[] = {
    {.info = {.name = "atomic_per_thread", .idea = "Pacheco's first version: one atomicAdd per trapezoid, blocks of "
                                                   "32",
              .needs = "n <= 2^26 (n atomics on one address)", .kind = CLIMB_RUNG_LADDER, .kernels = k_atomic,
              .published_us = 3080},
     .launch = launch_atomic, .per_atomic = 1},
    {.info = {.name = "warp_shuffle", .idea = "blocks of one warp, a shuffle tree sum, one atomicAdd per warp",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_shuffle, .published_us = 210},
     .launch = launch_warp_shuffle, .per_atomic = TRAP_WARP},
    {.info = {.name = "shared_dissemination", .idea = "blocks of one warp, a dissemination sum in shared memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_dissemination, .published_us = 206},
     .launch = launch_dissemination, .per_atomic = TRAP_WARP},
    {.info = {.name = "multi_warp", .idea = "blocks of 8 warps: warp sums in shared memory, one atomicAdd per block",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_multi_warp},
     .launch = launch_multi_warp, .per_atomic = TRAP_BLOCK},
    {.info = {.name = "coarsened", .idea = "grid-stride, two FMAs a trapezoid, 8 sums a thread, fixed-order finish "
                                           "in one launch",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_coarsened},
     .launch = launch_coarsened, .per_atomic = 0},
};
#define TRAP_N_RUNGS CLIMB_COUNT(TRAP_RUNGS)

static const climb_rung_info *trap_rung_info(int i) { return &TRAP_RUNGS[i].info; }

static const climb_published TRAP_PUBLISHED = {
    .source = "Pacheco, the CUDA trapezoidal rule, table 6.8 'Mean run-times for trapezoidal rule using block size "
              "of 32 threads'",
    .gpu = "GTX Titan X",
    .type = CLIMB_F32,
    .shape = CLIMB_SHAPE1((size_t)1 << 20),
    .rate_unit = "GFLOP/s",
};

/* ---------------------------------------------------------------- options */

enum { OPT_A, OPT_B };
static constexpr climb_option TRAP_OPTIONS[] = {
    {.name = "a", .kind = CLIMB_OPT_FLOAT, .meaning = "left end of the interval", .def = "-3", .min = -1e6,
     .max = 1e6},
    {.name = "b", .kind = CLIMB_OPT_FLOAT, .meaning = "right end of the interval", .def = "3", .min = -1e6,
     .max = 1e6},
};
CLIMB_OPTION_AT(TRAP_OPTIONS, OPT_A, "a");
CLIMB_OPTION_AT(TRAP_OPTIONS, OPT_B, "b");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    double a, b, exact;
    size_t n;
    void *d_out;
    void *d_ws;
};

static int trap_init(climb_case *c)
{
    c->a = c->p.opts[OPT_A].f;
    c->b = c->p.opts[OPT_B].f;
    c->n = c->p.shape.d[0];
    c->exact = c->n ? climb_trap_exact(c->a, c->b, c->n) : 0;
    return 0;
}

static size_t result_bytes(const climb_case *c) { return 16; }
static size_t ws_bytes(const climb_case *c) { return trap_workspace(c->p.dev ? c->p.dev->sms : 1); }

/* The result's poison is all ones: NaN in either type. The best rung's ticket starts at 0 and is left at 0. */
static const climb_buffer TRAP_BUFFERS[] = {
    {.name = "the result", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = result_bytes,
     .device_at = offsetof(climb_case, d_out), .poison = 0xFF},
    {.name = "the workspace", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_ZERO, .bytes = ws_bytes,
     .device_at = offsetof(climb_case, d_ws)},
};

static const char *trap_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "f(x) = x^2 + 1 over [%g, %g]: integral %.17g, T_n = %.17g", c->a, c->b,
             climb_trap_integral(c->a, c->b), c->exact);
    return buf;
}

static int trap_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "T_n in closed form (long double); |got - T_n| <= the rung's rounding bound "
                            "(docs/trapezoid.md)");
    return 0;
}

static const char *trap_refuses(const climb_case *c, int rung)
{
    if (c->n == 0)
        return "n = 0 trapezoids: the rule needs at least one";
    if (TRAP_RUNGS[rung].per_atomic == 1 && c->n > TRAP_ATOMIC_MAX)
        return "n > 2^26: one atomicAdd per trapezoid on one address would take seconds a run";
    if (TRAP_RUNGS[rung].per_atomic && (c->n + TRAP_WARP - 1) / TRAP_WARP > 0x7fffffffu)
        return "more blocks than a 1-D grid holds";
    return NULL;
}

static int trap_run(climb_case *c, int rung, cudaStream_t s)
{
    const trap_args x = {c->a, c->b, c->n, c->d_out, c->d_ws, c->p.dev ? c->p.dev->sms : 1, s};
    CLIMB_CHECK(TRAP_RUNGS[rung].launch(c->p.type, &x));
    return 0;
}

/* The summation height of a rung: the tree or chain its n - 1 terms pass through. */
static double trap_depth(const climb_case *c, int rung)
{
    const unsigned per = TRAP_RUNGS[rung].per_atomic;
    if (per) /* a tree of log2(per) levels, then a chain of n / per atomics */
        return log2((double)per) + (double)(c->n / per) + 2;
    const int sms = c->p.dev ? c->p.dev->sms : 1;
    const double G = (double)sms * TRAP_BLOCKS_PER_SM * TRAP_BLOCK;
    return (double)c->n / (G * TRAP_UNROLL) + 2 + TRAP_UNROLL + 2 * 10 + sms * TRAP_BLOCKS_PER_SM / TRAP_BLOCK + 2;
}

extern "C" int climb_trap_result(climb_case *c, double *value)
{
    if (c->p.type == CLIMB_F32) {
        float g;
        CLIMB_CHECK(cudaMemcpy(&g, c->d_out, 4, cudaMemcpyDeviceToHost));
        *value = g;
    } else {
        CLIMB_CHECK(cudaMemcpy(value, c->d_out, 8, cudaMemcpyDeviceToHost));
    }
    return 0;
}

static int trap_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    double got;
    if (climb_trap_result(c, &got) != 0)
        return -1;
    const double u = c->p.type == CLIMB_F32 ? 1.0 / 16777216.0 : 1.0 / 9007199254740992.0;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    climb_compare_close(&k, got, c->exact, climb_trap_tol(u, c->a, c->b, c->n, trap_depth(c, rung)), "T_n");
    return climb_compare_end(&k);
}

/* Two FMAs per inner trapezoid (x = a + i h, and x^2 added to the sum; the +1s are one addition of n - 1): 4 flops
 * each, the least the rule needs. The book's rungs do more (a multiply and two adds); they are counted the same. */
static void trap_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->flops = c->n > 1 ? 4.0 * (double)(c->n - 1) : 0.0;
    out->bytes_written = (double)climb_dtype_size(c->p.type);
    out->items = (double)c->n;
}

static const climb_shape TRAP_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 30)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape TRAP_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 26)};
static const climb_shape TRAP_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),      CLIMB_SHAPE1(2),       CLIMB_SHAPE1(3),      CLIMB_SHAPE1(31),
    CLIMB_SHAPE1(32),    CLIMB_SHAPE1(33),     CLIMB_SHAPE1(255),     CLIMB_SHAPE1(256),    CLIMB_SHAPE1(257),
    CLIMB_SHAPE1(2047),  CLIMB_SHAPE1(2049),   CLIMB_SHAPE1(8193),    CLIMB_SHAPE1(65537),  CLIMB_SHAPE1(1000003),
    CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1(((size_t)1 << 24) + 1)};
static const climb_shape TRAP_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(257), CLIMB_SHAPE1(65537)};

static const climb_sweep TRAP_SWEEPS[] = {
    {.name = "sizes",
     .title = "trapezoidal rule: trapezoids per second against n",
     .args = "--size 2^10 --size 2^14 --size 2^18 --size 2^20 --size 2^22 --size 2^26 --size 2^30",
     .x = "n",
     .log_x = 1},
};

extern "C" const climb_workload climb_trapezoid_workload = {
    .name = "trapezoid",
    .title = "Trapezoidal rule, f(x) = x^2 + 1",
    .sources = "Pacheco, CUDA trapezoidal rule II and III, table 6.8",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64),
    .options = TRAP_OPTIONS,
    .n_options = CLIMB_COUNT(TRAP_OPTIONS),
    .bytes_counted = "written: the one result (the work is arithmetic: 2 FMAs a trapezoid)",
    .items_unit = "trapezoids",
    .items_rate = "Gtrap/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = TRAP_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(TRAP_BENCH_SHAPES),
    .check_shapes = TRAP_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(TRAP_CHECK_SHAPES),
    .quick_shapes = TRAP_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(TRAP_QUICK_SHAPES),
    .main_shapes = TRAP_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(TRAP_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = TRAP_N_RUNGS,
    .rung = trap_rung_info,
    .published = &TRAP_PUBLISHED,
    .sweeps = TRAP_SWEEPS,
    .n_sweeps = CLIMB_COUNT(TRAP_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = TRAP_BUFFERS,
    .n_buffers = CLIMB_COUNT(TRAP_BUFFERS),
    .init = trap_init,
    .describe = trap_describe,
    .reference = trap_reference,
    .refuses = trap_refuses,
    .run = trap_run,
    .verify = trap_verify,
    .counts = trap_counts,
};
