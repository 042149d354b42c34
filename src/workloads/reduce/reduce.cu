/*
 * reduce.cu - parallel reduction (sum of i32 or f32), as a ladder.
 *
 * From Harris, "Optimizing Parallel Reduction in CUDA" (kernels 1-7 and their G80 timings), PMPP (the ECE 408
 * reduction notes) and Pacheco (the warp-shuffle tree sum). See docs/reduce.md.
 *
 * The folder: kernels.cuh the policy and the kernels (one per rung, each with what it changes); this file the CPU
 * reference, the launchers, the registry table, then the harness glue (inputs, reference, verify, counts).
 *
 * The element type is a compile-time parameter of the kernels, like the block size: one body serves
 * i32 and f32 where the alternative is two copies of every kernel.
 *
 * Bytes counted: n x element size read, one element written.
 */
#include <cub/device/device_reduce.cuh>

#include <limits.h>
#include <type_traits>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../base/rng.h"
#include "../../core/validate.h"
#include "../../core/workload.cuh"
#include "reduce.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" int32_t climb_reduce_ref_i32(const int32_t *x, size_t n)
{
    uint64_t s = 0; /* unsigned: wrap-around is defined, and the low 32 bits are the same as a signed sum's */
    for (size_t i = 0; i < n; i++)
        s += (uint64_t)(int64_t)x[i];
    return (int32_t)(uint32_t)s;
}

extern "C" double climb_reduce_ref_f32(const float *x, size_t n, double *abs_sum)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        a += fabs((double)x[i]);
    }
    if (abs_sum)
        *abs_sum = a;
    return s;
}

/* Float sums in any order differ from the exact sum by rounding that grows with the sum of |x_i|. On
 * random-signed inputs the rungs here land near 1e-9 of sum |x_i|; 1e-6 leaves room for every
 * summation order on the ladder and still catches one lost element on the edge-size sweep. */
extern "C" double climb_reduce_tol_f32(size_t n, double abs_sum)
{
    (void)n;
    return 1e-6 * abs_sum + 1e-6;
}

/* ---------------------------------------------------------------- policy .. kernels (kernels.cuh) */

#include "kernels.cuh"

/* ---------------------------------------------------------------- launchers */

static unsigned ceil_div(size_t a, size_t b) { return (unsigned)((a + b - 1) / b); }

/* The shared-memory tree rungs (reduce_interleaved_divergent .. reduce_complete_unroll): one launch per level, as the text does, until one block's output is the answer. Two
 * ping-pong buffers in the workspace hold the partial sums between levels. */
template <typename T> struct pass_kernel { typedef void (*fn)(const T *, T *, size_t); };

static size_t multipass_workspace(size_t n, size_t per_block)
{
    size_t b1 = n > per_block ? (n + per_block - 1) / per_block : 0;
    size_t b2 = b1 > per_block ? (b1 + per_block - 1) / per_block : 0;
    return (b1 + b2) * 4 + 16;
}

template <typename T, unsigned PER_BLOCK>
static cudaError_t launch_multipass(typename pass_kernel<T>::fn kernel, const climb_reduce_exec *x, const T *in,
                                    size_t n, T *out, void *ws, size_t ws_bytes)
{
    if (ws_bytes < multipass_workspace(n, PER_BLOCK))
        return cudaErrorInvalidValue;
    T *buf[2];
    buf[0] = (T *)ws;
    buf[1] = buf[0] + (n > PER_BLOCK ? ceil_div(n, PER_BLOCK) : 0);
    const T *src = in;
    size_t m = n;
    for (int level = 0;; level++) {
        const unsigned blocks = m == 0 ? 1 : ceil_div(m, PER_BLOCK);
        T *dst = blocks == 1 ? out : buf[level & 1];
        kernel<<<blocks, REDUCE_BLOCK, 0, x->stream>>>(src, dst, m);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1)
            return e;
        src = dst;
        m = blocks;
    }
}

static size_t ws_one_per_thread(const climb_reduce_exec *x, size_t n)
{
    (void)x;
    return multipass_workspace(n, REDUCE_BLOCK);
}

static size_t ws_two_per_thread(const climb_reduce_exec *x, size_t n)
{
    (void)x;
    return multipass_workspace(n, 2 * REDUCE_BLOCK);
}

/* One launcher per rung, all of the same shape; the macro writes the wrapper, not the kernel. */
#define REDUCE_MULTIPASS_LAUNCHER(name, per_block, kernel)                                                   \
    template <typename T>                                                                                    \
    static cudaError_t name(const climb_reduce_exec *x, const T *in, size_t n, T *out, void *ws, size_t wsb) \
    {                                                                                                        \
        return launch_multipass<T, per_block>(kernel, x, in, n, out, ws, wsb);                               \
    }

REDUCE_MULTIPASS_LAUNCHER(launch_interleaved_divergent, REDUCE_BLOCK, reduce_interleaved_divergent_kernel<T>)
REDUCE_MULTIPASS_LAUNCHER(launch_interleaved_strided, REDUCE_BLOCK, reduce_interleaved_strided_kernel<T>)
REDUCE_MULTIPASS_LAUNCHER(launch_seq_addressing, REDUCE_BLOCK, reduce_seq_addressing_kernel<T>)
REDUCE_MULTIPASS_LAUNCHER(launch_first_add_load, 2 * REDUCE_BLOCK, reduce_first_add_load_kernel<T>)
REDUCE_MULTIPASS_LAUNCHER(launch_unroll_last_warp, 2 * REDUCE_BLOCK, reduce_unroll_last_warp_kernel<T>)
REDUCE_MULTIPASS_LAUNCHER(launch_complete_unroll, 2 * REDUCE_BLOCK, (reduce_complete_unroll_kernel<T, REDUCE_BLOCK>))

/* The grid-stride rungs launch at most `per_sm` blocks per SM, each walking the input grid-stride. */
static unsigned max_grid(const climb_reduce_exec *x, unsigned per_sm)
{
    unsigned g = (unsigned)(x->sms > 0 ? x->sms : 1) * per_sm;
    return g < 65535u ? g : 65535u; /* the best rung's packed ticket counts at most 65535 blocks */
}

static unsigned grid_stride_blocks(const climb_reduce_exec *x, unsigned per_sm, size_t n, size_t per_block_step)
{
    size_t want = n == 0 ? 1 : (n + per_block_step - 1) / per_block_step;
    return want < max_grid(x, per_sm) ? (unsigned)want : max_grid(x, per_sm);
}

/* Workspace of reduce_multi_element and reduce_warp_shuffle: one partial-sum slot per block. */
static size_t ws_grid_stride(const climb_reduce_exec *x, size_t n)
{
    (void)n;
    return (size_t)max_grid(x, REDUCE_BLOCKS_PER_SM) * 4;
}

/* Workspace of the best rung: the packed i32 word, the f32 ticket, one slot per block (see the kernel). */
static size_t ws_single_pass(const climb_reduce_exec *x, size_t n)
{
    (void)n;
    return 16 + (size_t)max_grid(x, (unsigned)x->tune.blocks_per_sm) * 4;
}

/* reduce_multi_element and reduce_warp_shuffle: the grid's partial sums, then one block over them. */
template <typename T>
static cudaError_t launch_two_pass(typename pass_kernel<T>::fn kernel, const climb_reduce_exec *x, const T *in,
                                   size_t n, T *out, void *ws, size_t ws_bytes)
{
    if (ws_bytes < ws_grid_stride(x, n))
        return cudaErrorInvalidValue;
    const unsigned blocks = grid_stride_blocks(x, REDUCE_BLOCKS_PER_SM, n, 2 * REDUCE_BLOCK);
    T *partials = (T *)ws;
    kernel<<<blocks, REDUCE_BLOCK, 0, x->stream>>>(in, blocks == 1 ? out : partials, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || blocks == 1)
        return e;
    kernel<<<1, REDUCE_BLOCK, 0, x->stream>>>(partials, out, blocks);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t launch_multi_element(const climb_reduce_exec *x, const T *in, size_t n, T *out, void *ws,
                                        size_t ws_bytes)
{
    return launch_two_pass<T>(reduce_multi_element_kernel<T, REDUCE_BLOCK>, x, in, n, out, ws, ws_bytes);
}

template <typename T>
static cudaError_t launch_warp_shuffle(const climb_reduce_exec *x, const T *in, size_t n, T *out, void *ws,
                                       size_t ws_bytes)
{
    return launch_two_pass<T>(reduce_warp_shuffle_kernel<T, REDUCE_BLOCK>, x, in, n, out, ws, ws_bytes);
}

/* The best rung's instances: one per candidate block size and loads in flight, generated from the candidate lists
 * (the block size and VECS are compile-time: they size the scratch array and unroll the loads). */
template <typename T> struct single_pass_kernel {
    typedef void (*fn)(const T *, size_t, T *, unsigned long long *, unsigned *, T *);
};
template <typename T> struct single_pass_instance_row {
    int block, vecs;
    typename single_pass_kernel<T>::fn kernel;
};
#define REDUCE_SP_ENTRY(B, V) {B, V, reduce_vectorized_single_pass_kernel<T, B, V>},
#define REDUCE_SP_ROW(B) REDUCE_TUNE_VECS_LIST(REDUCE_SP_ENTRY, B)

template <typename T> static typename single_pass_kernel<T>::fn single_pass_instance(const climb_reduce_tuning *t)
{
    static const single_pass_instance_row<T> table[] = {REDUCE_TUNE_BLOCK_LIST(REDUCE_SP_ROW)};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].block == t->block && table[i].vecs == t->vecs)
            return table[i].kernel;
    return NULL;
}

template <typename T>
static cudaError_t launch_vectorized_single_pass(const climb_reduce_exec *x, const T *in, size_t n, T *out, void *ws,
                                                 size_t ws_bytes)
{
    typename single_pass_kernel<T>::fn kernel = single_pass_instance<T>(&x->tune);
    if (!kernel || x->tune.blocks_per_sm < 1 || ws_bytes < ws_single_pass(x, n))
        return cudaErrorInvalidValue;
    const unsigned block = (unsigned)x->tune.block;
    const unsigned blocks =
        grid_stride_blocks(x, (unsigned)x->tune.blocks_per_sm, n, (size_t)4 * block * (unsigned)x->tune.vecs);
    unsigned long long *packed = (unsigned long long *)ws;
    unsigned *ticket = (unsigned *)((char *)ws + 8);
    T *partials = (T *)((char *)ws + 16);
    kernel<<<blocks, block, 0, x->stream>>>(in, n, out, packed, ticket, partials);
    return cudaGetLastError();
}

/* The vendor rung, CUB. 32-bit offsets where n fits, as a caller of CUB would choose; the workspace size comes
 * from CUB's own query, made once before timing. */
template <typename T, typename Offset>
static cudaError_t cub_sum(void *ws, size_t *bytes, const T *in, T *out, size_t n, cudaStream_t s)
{
    return cub::DeviceReduce::Sum(ws, *bytes, in, out, (Offset)n, s);
}

static size_t ws_cub(const climb_reduce_exec *x, size_t n)
{
    size_t a = 0, b = 0;
    cudaError_t e1, e2;
    if (n <= (size_t)INT_MAX) {
        e1 = cub_sum<int, int>(NULL, &a, (const int *)NULL, (int *)NULL, n, x->stream);
        e2 = cub_sum<float, int>(NULL, &b, (const float *)NULL, (float *)NULL, n, x->stream);
    } else {
        e1 = cub_sum<int, int64_t>(NULL, &a, (const int *)NULL, (int *)NULL, n, x->stream);
        e2 = cub_sum<float, int64_t>(NULL, &b, (const float *)NULL, (float *)NULL, n, x->stream);
    }
    if (e1 != cudaSuccess || e2 != cudaSuccess)
        return 0;
    return (a > b ? a : b) + 16;
}

template <typename T>
static cudaError_t launch_cub(const climb_reduce_exec *x, const T *in, size_t n, T *out, void *ws, size_t ws_bytes)
{
    if (n <= (size_t)INT_MAX)
        return cub_sum<T, int>(ws, &ws_bytes, in, out, n, x->stream);
    return cub_sum<T, int64_t>(ws, &ws_bytes, in, out, n, x->stream);
}

/* ---------------------------------------------------------------- the registry */

/* The kernels a rung launches, for `climb occupancy --kernel` and the occupancy test. */

/* The fixed-block rungs launch one kernel of REDUCE_BLOCK threads (no dynamic shared memory); the macro writes
 * the lookup, the kernel expression names T. */
#define REDUCE_KERNELS_OF(fname, kname, ...)                                                                  \
    template <typename T> static const void *fname##_of() { return (const void *)(__VA_ARGS__); }            \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)  \
    {                                                                                                         \
        const void *f = climb_typed<CLIMB_TYPES_I32_F32>(t, (const void *)NULL, [](auto x) {                  \
            return fname##_of<decltype(x)>();                                                                 \
        });                                                                                                   \
        return climb_kernel_at(out, max, 0, f, (int)REDUCE_BLOCK, 0, "%s<%s>", kname, climb_dtype_name(t));    \
    }
REDUCE_KERNELS_OF(k_interleaved_divergent, "reduce_interleaved_divergent_kernel", reduce_interleaved_divergent_kernel<T>)
REDUCE_KERNELS_OF(k_interleaved_strided, "reduce_interleaved_strided_kernel", reduce_interleaved_strided_kernel<T>)
REDUCE_KERNELS_OF(k_seq_addressing, "reduce_seq_addressing_kernel", reduce_seq_addressing_kernel<T>)
REDUCE_KERNELS_OF(k_first_add_load, "reduce_first_add_load_kernel", reduce_first_add_load_kernel<T>)
REDUCE_KERNELS_OF(k_unroll_last_warp, "reduce_unroll_last_warp_kernel", reduce_unroll_last_warp_kernel<T>)
REDUCE_KERNELS_OF(k_complete_unroll, "reduce_complete_unroll_kernel", reduce_complete_unroll_kernel<T, REDUCE_BLOCK>)
REDUCE_KERNELS_OF(k_multi_element, "reduce_multi_element_kernel", reduce_multi_element_kernel<T, REDUCE_BLOCK>)
REDUCE_KERNELS_OF(k_warp_shuffle, "reduce_warp_shuffle_kernel", reduce_warp_shuffle_kernel<T, REDUCE_BLOCK>)

/* The best rung launches the instance its tuned block and loads in flight select. */
static int k_vectorized_single_pass(climb_dtype t, const climb_device_info *dev, const int *tuning,
                                    climb_kernel_desc *out, int max)
{
    climb_reduce_exec x = {0, dev->sms, {0, 0, 0}};
    climb_reduce_set_tuning(&x, tuning);
    const void *f = climb_typed<CLIMB_TYPES_I32_F32>(t, (const void *)NULL, [&](auto v) {
        return (const void *)single_pass_instance<decltype(v)>(&x.tune);
    });
    if (!f)
        return 0;
    if (max >= 1) {
        memset(out, 0, sizeof *out);
        snprintf(out->name, sizeof out->name, "reduce_vectorized_single_pass_kernel<%s, %d, %d>", climb_dtype_name(t),
                 x.tune.block, x.tune.vecs);
        out->func = f;
        out->block_threads = x.tune.block;
    }
    return 1;
}

typedef struct reduce_rung {
    climb_rung_info info;
    cudaError_t (*launch_i32)(const climb_reduce_exec *, const int32_t *, size_t, int32_t *, void *ws, size_t ws_bytes);
    cudaError_t (*launch_f32)(const climb_reduce_exec *, const float *, size_t, float *, void *ws, size_t ws_bytes);
    size_t (*workspace)(const climb_reduce_exec *, size_t n);
} reduce_rung;

#define REDUCE_LAUNCH(fn) .launch_i32 = fn<int32_t>, .launch_f32 = fn<float>

/* The ladder, in order: the vendor, the text's kernels 1-7 (with Harris's G80 figures for 2^22 ints, time
 * and GB/s, from its table 'Performance for 4M element reduction'), the warp-shuffle step, the best. */
static const reduce_rung REDUCE_RUNGS[] = {
    {.info = {.name = "cub_device_reduce", .idea = "vendor: cub::DeviceReduce::Sum", .needs = "",
              .kind = CLIMB_RUNG_VENDOR},
     REDUCE_LAUNCH(launch_cub), .workspace = ws_cub},
    {.info = {.name = "reduce_interleaved_divergent",
              .idea = "shared-memory tree, tid % (2*stride) picks the adders: divergent warps", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_interleaved_divergent, .published_us = 8054, .published_rate = 2.083},
     REDUCE_LAUNCH(launch_interleaved_divergent), .workspace = ws_one_per_thread},
    {.info = {.name = "reduce_interleaved_strided",
              .idea = "strided index keeps active threads together: no divergence, bank conflicts", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_interleaved_strided, .published_us = 3456, .published_rate = 4.854},
     REDUCE_LAUNCH(launch_interleaved_strided), .workspace = ws_one_per_thread},
    {.info = {.name = "reduce_seq_addressing",
              .idea = "sequential addressing: conflict-free, but half the threads idle at once", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_seq_addressing, .published_us = 1722, .published_rate = 9.741},
     REDUCE_LAUNCH(launch_seq_addressing), .workspace = ws_one_per_thread},
    {.info = {.name = "reduce_first_add_load", .idea = "each thread adds two elements while loading: no idle first step",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_first_add_load, .published_us = 965,
              .published_rate = 17.377},
     REDUCE_LAUNCH(launch_first_add_load), .workspace = ws_two_per_thread},
    {.info = {.name = "reduce_unroll_last_warp", .idea = "last 64 sums by one warp with __syncwarp, no block barriers",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_unroll_last_warp, .published_us = 536,
              .published_rate = 31.289},
     REDUCE_LAUNCH(launch_unroll_last_warp), .workspace = ws_two_per_thread},
    {.info = {.name = "reduce_complete_unroll", .idea = "block size as a template parameter: the whole tree unrolled",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_complete_unroll, .published_us = 381,
              .published_rate = 43.996},
     REDUCE_LAUNCH(launch_complete_unroll), .workspace = ws_two_per_thread},
    {.info = {.name = "reduce_multi_element",
              .idea = "algorithm cascading: grid-stride loop, many elements per thread, 2 launches", .needs = "",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_multi_element, .published_us = 268, .published_rate = 62.671},
     REDUCE_LAUNCH(launch_multi_element), .workspace = ws_grid_stride},
    {.info = {.name = "reduce_warp_shuffle", .idea = "block sum in registers with __shfl_xor_sync instead of a shared tree",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_shuffle},
     REDUCE_LAUNCH(launch_warp_shuffle), .workspace = ws_grid_stride},
    {.info = {.name = "reduce_vectorized_single_pass",
              .idea = "16-byte loads, several in flight per thread, last block to finish writes: 1 launch", .needs = "",
              .kind = CLIMB_RUNG_BEST, .kernels = k_vectorized_single_pass},
     REDUCE_LAUNCH(launch_vectorized_single_pass), .workspace = ws_single_pass},
};
#define REDUCE_N_RUNGS CLIMB_COUNT(REDUCE_RUNGS)

static const climb_published REDUCE_PUBLISHED = {
    .source = "Harris, Optimizing Parallel Reduction in CUDA, table 'Performance for 4M element reduction'",
    .gpu = "G80",
    .type = CLIMB_I32,
    .shape = CLIMB_SHAPE1(1 << 22),
    .rate_unit = "GB/s",
};

static const climb_rung_info *reduce_rung_info(int i) { return &REDUCE_RUNGS[i].info; }

/* The rung marked best, found by its mark. */
static const reduce_rung *reduce_best(void)
{
    for (int i = 0; i < REDUCE_N_RUNGS; i++)
        if (REDUCE_RUNGS[i].info.kind == CLIMB_RUNG_BEST)
            return &REDUCE_RUNGS[i];
    return NULL;
}

extern "C" size_t climb_reduce_best_workspace(const climb_reduce_exec *x) { return reduce_best()->workspace(x, 0); }

extern "C" cudaError_t climb_reduce_best_i32(const climb_reduce_exec *x, const int32_t *in, size_t n, int32_t *out,
                                             void *ws, size_t ws_bytes)
{
    return reduce_best()->launch_i32(x, in, n, out, ws, ws_bytes);
}

extern "C" cudaError_t climb_reduce_best_f32(const climb_reduce_exec *x, const float *in, size_t n, float *out,
                                             void *ws, size_t ws_bytes)
{
    return reduce_best()->launch_f32(x, in, n, out, ws, ws_bytes);
}

/* ---------------------------------------------------------------- tuning (experiment mode) */

static const climb_tunable REDUCE_TUNABLES[] = {
    {.name = "block", .meaning = "threads per block", .values = REDUCE_TUNE_BLOCKS,
     .n_values = CLIMB_COUNT(REDUCE_TUNE_BLOCKS)},
    {.name = "blocks_per_sm", .meaning = "blocks launched per SM", .values = REDUCE_TUNE_BLOCKS_PER_SM,
     .n_values = CLIMB_COUNT(REDUCE_TUNE_BLOCKS_PER_SM)},
    {.name = "vecs", .meaning = "16-byte loads in flight per thread", .values = REDUCE_TUNE_VECS,
     .n_values = CLIMB_COUNT(REDUCE_TUNE_VECS)},
};

static const char *reduce_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)k; /* the same values for every n and type */
    int n = CLIMB_COUNT(REDUCE_ARCH_POLICY);
    const reduce_arch_policy *p = &REDUCE_ARCH_POLICY[n - 1];
    for (int i = 0; i < n - 1; i++)
        if (REDUCE_ARCH_POLICY[i].cc_major == dev->cc_major)
            p = &REDUCE_ARCH_POLICY[i];
    v[0] = p->block;
    v[1] = p->blocks_per_sm;
    v[2] = p->vecs;
    if (v[1] == 0) { /* as many blocks as the SM holds threads for: the largest candidate that fits */
        v[1] = REDUCE_TUNE_BLOCKS_PER_SM[0];
        for (int i = 0; i < CLIMB_COUNT(REDUCE_TUNE_BLOCKS_PER_SM); i++)
            if (REDUCE_TUNE_BLOCKS_PER_SM[i] * p->block <= dev->max_threads_per_sm)
                v[1] = REDUCE_TUNE_BLOCKS_PER_SM[i];
    }
    return p->source;
}

/* The device's own rule; whether each value is one of its parameter's candidates is checked from the lists. */
static const char *reduce_tuning_rejects(const climb_device_info *dev, const int *v)
{
    if (dev->max_threads_per_sm > 0 && v[0] * v[1] > dev->max_threads_per_sm)
        return "block x blocks_per_sm is more threads than one SM holds at once (a second wave of blocks)";
    return NULL;
}

static const climb_tuning REDUCE_TUNING = {
    .params = REDUCE_TUNABLES,
    .n_params = CLIMB_COUNT(REDUCE_TUNABLES),
    .candidates = NULL, /* every combination */
    .n_candidates = 0,
    .defaults = reduce_tuning_defaults,
    .rejects = reduce_tuning_rejects,
};

extern "C" void climb_reduce_set_tuning(climb_reduce_exec *x, const int *v)
{
    x->tune.block = v[0];
    x->tune.blocks_per_sm = v[1];
    x->tune.vecs = v[2];
}

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    climb_reduce_exec x;
    void *h_in, *d_in;   /* n elements (the device's the offset's elements past its allocation) */
    void *d_out;         /* one element */
    void *d_ws;
    size_t ws_bytes;
    int32_t ref_i32;     /* the CPU sum, computed at creation (the poison needs it) */
    double ref_f32, abs_f32;
};

static size_t reduce_n(const climb_case_params *p) { return p->shape.d[0]; }

static void reduce_fini(climb_case *c) { cudaFree(c->d_ws); }

static int reduce_init(climb_case *c)
{
    c->x.stream = 0;
    c->x.sms = c->p.dev ? c->p.dev->sms : 1;
    return 0;
}

/* i32: the full 32-bit range, so sums wrap constantly and any lost or doubled element changes the result. f32:
 * uniform in [-1, 1). The CPU sum now: the poison needs it. */
static int reduce_fill(climb_case *c)
{
    const size_t n = reduce_n(&c->p);
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    double lo, hi;
    climb_dtype_full_range(c->p.type, &lo, &hi);
    climb_rng_fill(&rng, c->p.type, c->h_in, n, lo, hi);
    if (c->p.type == CLIMB_I32)
        c->ref_i32 = climb_reduce_ref_i32((const int32_t *)c->h_in, n);
    else
        c->ref_f32 = climb_reduce_ref_f32((const float *)c->h_in, n, &c->abs_f32);
    return 0;
}

static size_t input_bytes(const climb_case *c) { return reduce_n(&c->p) * climb_dtype_size(c->p.type); }
static size_t sum_bytes(const climb_case *c) { return climb_dtype_size(c->p.type); }

static const climb_buffer REDUCE_BUFFERS[] = {
    {.name = "the input", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = input_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "the sum", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = sum_bytes,
     .device_at = offsetof(climb_case, d_out)},
};

/* The sum has one element, so every mode uses the whole CPU sum made at creation; with the vendor's output in
 * d_out (VENDOR), that output must agree with it as any rung's must. */
static int reduce_verify(climb_case *c, int rung, char *msg, size_t msglen);

static int reduce_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const char *what = c->p.type == CLIMB_I32 ? "CPU sum, exact (64-bit accumulation, wrapped to 32 bits)"
                                              : "CPU sum in double; |got - ref| <= 1e-6 sum|x| + 1e-6";
    if (mode == CLIMB_REF_VENDOR) {
        char msg[300];
        int v = reduce_verify(c, 0, msg, sizeof msg); /* the vendor rung's output */
        if (v != 0) {
            snprintf(desc, desclen, "cub_device_reduce disagrees with the %s: %s", what, msg);
            return v < 0 ? -1 : 1;
        }
        snprintf(desc, desclen, "%s (cub_device_reduce agrees)", what);
        return 0;
    }
    snprintf(desc, desclen, "%s", what);
    return 0;
}

static int reduce_prepare(climb_case *c, int rung)
{
    size_t need = REDUCE_RUNGS[rung].workspace(&c->x, reduce_n(&c->p));
    if (need == 0) {
        fprintf(stderr, "climb: %s could not size its workspace for n = %zu\n", REDUCE_RUNGS[rung].info.name,
                reduce_n(&c->p));
        return -1;
    }
    if (climb_grow_device_buffer(&c->d_ws, &c->ws_bytes, need) != 0)
        return -1;
    CLIMB_CHECK(cudaMemset(c->d_ws, 0, c->ws_bytes)); /* the single-pass rung's tickets start at zero */
    return 0;
}

static int reduce_run(climb_case *c, int rung, cudaStream_t s)
{
    climb_reduce_exec x = c->x;
    x.stream = s;
    const reduce_rung *r = &REDUCE_RUNGS[rung];
    const size_t n = reduce_n(&c->p);
    if (c->p.type == CLIMB_I32)
        CLIMB_CHECK(r->launch_i32(&x, (const int32_t *)c->d_in, n, (int32_t *)c->d_out, c->d_ws, c->ws_bytes));
    else
        CLIMB_CHECK(r->launch_f32(&x, (const float *)c->d_in, n, (float *)c->d_out, c->d_ws, c->ws_bytes));
    return 0;
}

/* Never the right answer: the sum's complement, or NaN. */
static int reduce_poison(climb_case *c)
{
    if (c->p.type == CLIMB_I32) {
        int32_t bad = ~c->ref_i32; /* never equal to the right answer */
        CLIMB_CHECK(cudaMemcpy(c->d_out, &bad, sizeof bad, cudaMemcpyHostToDevice));
    } else {
        float bad = nanf("");
        CLIMB_CHECK(cudaMemcpy(c->d_out, &bad, sizeof bad, cudaMemcpyHostToDevice));
    }
    return 0;
}

static int reduce_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung; /* every rung of the reduction makes the same sum */
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (c->p.type == CLIMB_I32) {
        int32_t got;
        CLIMB_CHECK(cudaMemcpy(&got, c->d_out, sizeof got, cudaMemcpyDeviceToHost));
        climb_compare_exact(&k, got, c->ref_i32, "the sum");
    } else {
        float got;
        CLIMB_CHECK(cudaMemcpy(&got, c->d_out, sizeof got, cudaMemcpyDeviceToHost));
        climb_compare_close(&k, got, c->ref_f32, climb_reduce_tol_f32(reduce_n(&c->p), c->abs_f32), "the sum");
    }
    return climb_compare_end(&k);
}

static void reduce_counts(const climb_case *c, climb_counts *out)
{
    const size_t n = reduce_n(&c->p), es = climb_dtype_size(c->p.type);
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)n * es;
    out->bytes_written = (double)es;
    out->flops = c->p.type == CLIMB_F32 && n > 0 ? (double)(n - 1) : 0.0; /* i32 adds are not floating point */
}

static void reduce_set_tuning(climb_case *c, const int *values) { climb_reduce_set_tuning(&c->x, values); }

static const climb_shape REDUCE_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 22), CLIMB_SHAPE1((size_t)1 << 28)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape REDUCE_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
/* 0, 1, odd sizes, powers of two and their neighbours, non-multiples of every block's tile, and sizes that need
 * two and three levels of the multi-pass rungs. */
static const climb_shape REDUCE_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),       CLIMB_SHAPE1(1),       CLIMB_SHAPE1(2),       CLIMB_SHAPE1(3),       CLIMB_SHAPE1(4),
    CLIMB_SHAPE1(5),       CLIMB_SHAPE1(7),       CLIMB_SHAPE1(8),       CLIMB_SHAPE1(15),      CLIMB_SHAPE1(16),
    CLIMB_SHAPE1(17),      CLIMB_SHAPE1(31),      CLIMB_SHAPE1(32),      CLIMB_SHAPE1(33),      CLIMB_SHAPE1(63),
    CLIMB_SHAPE1(64),      CLIMB_SHAPE1(65),      CLIMB_SHAPE1(127),     CLIMB_SHAPE1(255),     CLIMB_SHAPE1(256),
    CLIMB_SHAPE1(257),     CLIMB_SHAPE1(511),     CLIMB_SHAPE1(512),     CLIMB_SHAPE1(513),     CLIMB_SHAPE1(1023),
    CLIMB_SHAPE1(1024),    CLIMB_SHAPE1(1025),    CLIMB_SHAPE1(4095),    CLIMB_SHAPE1(4096),    CLIMB_SHAPE1(4097),
    CLIMB_SHAPE1(16383),   CLIMB_SHAPE1(65535),   CLIMB_SHAPE1(65536),   CLIMB_SHAPE1(65537),   CLIMB_SHAPE1(131071),
    CLIMB_SHAPE1(262145),  CLIMB_SHAPE1(1000003), CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1(((size_t)1 << 22) + 1),
    CLIMB_SHAPE1(((size_t)1 << 24) + 7)};
/* One element, a non-multiple of the tile, a size past one level of the tree, and a multi-level odd size. */
static const climb_shape REDUCE_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(1025), CLIMB_SHAPE1(65537),
                                                  CLIMB_SHAPE1(1000003)};

/* The host memory a case needs at the least (the input), for the harness's check before anything is allocated. */
static double reduce_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return (double)s->d[0] * (double)climb_dtype_size(t);
}

extern "C" const climb_workload climb_reduce_workload = {
    .name = "reduce",
    .title = "Parallel reduction (sum)",
    .sources = "Harris, Optimizing CUDA, Optimization Example 2 (reduction); Hwu, Kirk and El Hajj, Programming "
                "Massively Parallel Processors, reduction; Pacheco, the CUDA trapezoidal rule (warp shuffle)",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32),
    .bytes_counted = "read: n x element size; written: the one sum",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = REDUCE_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(REDUCE_BENCH_SHAPES),
    .check_shapes = REDUCE_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(REDUCE_CHECK_SHAPES),
    .quick_shapes = REDUCE_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(REDUCE_QUICK_SHAPES),
    .main_shapes = REDUCE_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(REDUCE_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = REDUCE_N_RUNGS,
    .rung = reduce_rung_info,
    .published = &REDUCE_PUBLISHED,
    .case_size = sizeof(climb_case),
    .buffers = REDUCE_BUFFERS,
    .n_buffers = CLIMB_COUNT(REDUCE_BUFFERS),
    .init = reduce_init,
    .fill = reduce_fill,
    .fini = reduce_fini,
    .reference = reduce_reference,
    .case_bytes = reduce_case_bytes,
    .prepare = reduce_prepare,
    .run = reduce_run,
    .poison = reduce_poison,
    .verify = reduce_verify,
    .counts = reduce_counts,
    .tuning = &REDUCE_TUNING,
    .set_tuning = reduce_set_tuning,
};
