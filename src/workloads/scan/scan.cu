/*
 * scan.cu - prefix sum (inclusive and exclusive, i32 and f32), as a ladder.
 *
 * From the ECE 408 / PMPP scan notes): Kogge-Stone, its double-buffered form, Brent-Kung, the three-phase
 * (coarsened) block scan, the hierarchical scheme that extends each to any n (scan sections, scan the section
 * sums, add them back), and the single-pass scan that chains adjacent blocks through flags, with dynamic block
 * indices so that it cannot deadlock. Above the book: a warp-shuffle block scan, and the best rung, a single pass
 * with decoupled look-back (Merrill & Garland) and 16-byte loads. See docs/scan.md.
 *
 * Order of this file: CPU reference and tolerance, policy, the chained tiles' flags, kernels (one per rung, each
 * with what it changes), launchers, the registry table, the harness glue.
 *
 * Bytes counted: n elements read, n written. Every kernel is a template over the element type (i32 and f32 share
 * each body: the i32 runs check the index logic exactly, the f32 runs the rounding).
 */
#include <cub/device/device_scan.cuh>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "scan.h"

/* ---------------------------------------------------------------- CPU reference and tolerance */

extern "C" void climb_scan_ref_i32(const int32_t *x, size_t n, int exclusive, int32_t *out)
{
    uint32_t s = 0; /* unsigned: wrap-around is defined, the bits are a signed sum's */
    for (size_t i = 0; i < n; i++) {
        const uint32_t v = (uint32_t)x[i];
        if (exclusive) {
            out[i] = (int32_t)s;
            s += v;
        } else {
            s += v;
            out[i] = (int32_t)s;
        }
    }
}

extern "C" void climb_scan_ref_f32(const float *x, size_t n, int exclusive, double *out, float *abs_prefix)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < n; i++) {
        if (exclusive) {
            out[i] = s;
            if (abs_prefix)
                abs_prefix[i] = (float)a;
        }
        s += x[i];
        a += fabs((double)x[i]);
        if (!exclusive) {
            out[i] = s;
            if (abs_prefix)
                abs_prefix[i] = (float)a;
        }
    }
}

/* Every rung computes out[i] as a sum of the inputs it covers, in some order: a tree whose height H bounds the
 * roundings any input goes through. Higham's bound for such a sum is |err| <= gamma(H) sum |x_j|, gamma(H) =
 * H u / (1 - H u), u = 2^-24; the output's own rounding to float adds u |out| <= u sum |x_j|; abs_prefix was
 * rounded to float (a relative 2^-24 more). */
extern "C" double climb_scan_tol_f32(double abs_prefix, double depth)
{
    const double u = 1.0 / 16777216.0;
    const double hu = (depth + 1) * u;
    const double gamma = hu < 0.5 ? hu / (1 - hu) : 1.0;
    return gamma * abs_prefix * (1 + 2 * u) + 1e-30;
}

/* Within a section (any rung): at most 16 sequential adds per thread, 2 log2(1024) = 20 in a block's tree, a few
 * to combine them: 48. The hierarchy has at most 6 levels for any n a GPU holds, each a section's adds and one
 * add back: 6 x 49 < 300. A chained rung adds, per tile before i, at most 8 (its look-back's window sum of 5
 * levels, the running prefix, the publication): chain_tile is the rung's tile / 8 (see SCAN_RUNGS). */
extern "C" double climb_scan_depth(size_t i, size_t chain_tile)
{
    return 300.0 + (chain_tile ? (double)(i / chain_tile) + 1.0 : 0.0);
}

/* ---------------------------------------------------------------- policy .. kernels (kernels.cuh) */

#include "kernels.cuh"

/* ---------------------------------------------------------------- launchers */

typedef cudaError_t (*scan_launch_fn)(const climb_scan_tuning *tn, climb_dtype t, int exclusive, const void *in,
                                      void *out, size_t n, void *ws, size_t ws_bytes, cudaStream_t s);

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* The hierarchy: the section sums of each level, one after another, each rounded up to 16 bytes. */
static size_t hier_workspace(size_t n, size_t section)
{
    size_t bytes = 16;
    for (size_t m = ceil_div(n, section); m > 1; m = ceil_div(m, section))
        bytes += ceil_div(m, 4) * 16;
    return bytes;
}

template <typename T> struct section_kernel { typedef void (*fn)(const T *, T *, size_t, int, T *); };

/* Scan n elements section by section; if there is more than one, scan the section sums (in place, inclusive)
 * by the same rung, and add them back. */
template <typename T>
static cudaError_t hier_scan(typename section_kernel<T>::fn k, unsigned threads, unsigned section, const T *in, T *out,
                             size_t n, int exclusive, char *ws, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    const size_t nb = ceil_div(n, section);
    if (nb > INT_MAX)
        return cudaErrorInvalidValue;
    T *sums = (T *)ws;
    k<<<(unsigned)nb, threads, 0, s>>>(in, out, n, exclusive, sums);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || nb == 1)
        return e;
    e = hier_scan<T>(k, threads, section, sums, sums, nb, 0, ws + ceil_div(nb, 4) * 16, s);
    if (e != cudaSuccess)
        return e;
    scan_add_kernel<T><<<(unsigned)(nb - 1), 256, 0, s>>>(out, n, sums, section);
    return cudaGetLastError();
}

/* One launcher per hierarchical rung: its section kernel, threads and section size. */
#define SCAN_HIER_RUNG(name, kernel, threads, section)                                                           \
    template <typename T>                                                                                      \
    static cudaError_t name##_typed(int ex, const void *in, void *out, size_t n, void *ws, cudaStream_t s)     \
    {                                                                                                          \
        return hier_scan<T>(kernel, threads, section, (const T *)in, (T *)out, n, ex, (char *)ws, s);          \
    }                                                                                                          \
    static cudaError_t name(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out,       \
                            size_t n, void *ws, size_t wsb, cudaStream_t s)                                    \
    {                                                                                                          \
        if (wsb < hier_workspace(n, section))                                                                  \
            return cudaErrorInvalidValue;                                                                      \
        return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {                        \
            return name##_typed<decltype(x)>(ex, in, out, n, ws, s);                                           \
        });                                                                                                    \
    }                                                                                                          \
    static size_t name##_ws(const climb_scan_tuning *, size_t n) { return hier_workspace(n, section); }

SCAN_HIER_RUNG(launch_kogge_stone, (scan_kogge_stone_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, SCAN_BLOCK)
SCAN_HIER_RUNG(launch_kogge_stone_db, (scan_kogge_stone_db_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, SCAN_BLOCK)
SCAN_HIER_RUNG(launch_brent_kung, (scan_brent_kung_kernel<T, SCAN_BLOCK>), SCAN_BLOCK, 2 * SCAN_BLOCK)
SCAN_HIER_RUNG(launch_three_phase, (scan_three_phase_kernel<T, SCAN_BLOCK, SCAN_COARSE>), SCAN_BLOCK,
               SCAN_BLOCK * SCAN_COARSE)
SCAN_HIER_RUNG(launch_warp_shuffle, (scan_warp_shuffle_kernel<T, SCAN_BLOCK, SCAN_COARSE>), SCAN_BLOCK,
               SCAN_BLOCK * SCAN_COARSE)

/* The single-pass rungs' workspace: the header and one status word per tile. */
static size_t chain_workspace(size_t n, size_t tile) { return SCAN_HDR + 8 * (ceil_div(n, tile) + 1); }

static size_t launch_chained_ws(const climb_scan_tuning *, size_t n)
{
    return chain_workspace(n, SCAN_BLOCK * SCAN_COARSE);
}

static cudaError_t launch_chained(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                                  cudaStream_t s)
{
    const size_t tiles = ceil_div(n, SCAN_BLOCK * SCAN_COARSE);
    if (n == 0)
        return cudaSuccess;
    if (wsb < chain_workspace(n, SCAN_BLOCK * SCAN_COARSE) || tiles > INT_MAX)
        return cudaErrorInvalidValue;
    const unsigned cap = (unsigned)((wsb - SCAN_HDR) / 8 < UINT_MAX ? (wsb - SCAN_HDR) / 8 : UINT_MAX);
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        scan_chained_kernel<T, SCAN_BLOCK, SCAN_COARSE>
            <<<(unsigned)tiles, SCAN_BLOCK, 0, s>>>((const T *)in, (T *)out, n, ex, (char *)ws, cap);
        return cudaGetLastError();
    });
}

extern "C" size_t climb_scan_best_workspace(const climb_scan_tuning *tn, size_t n)
{
    return chain_workspace(n, (size_t)tn->block * tn->items);
}

template <typename T> struct lookback_kernel {
    typedef void (*fn)(const T *, T *, size_t, int, char *, unsigned);
};
/* The instances of the candidates: 16-byte and scalar, per type. */
struct lookback_instance {
    int block, items;
    lookback_kernel<int>::fn i_vec, i_scalar;
    lookback_kernel<float>::fn f_vec, f_scalar;
};
#define SCAN_INSTANCE_ROW(b, i)                                                                                  \
    {b, i, scan_lookback_kernel<int, b, i, 4>, scan_lookback_kernel<int, b, i, 1>,                               \
     scan_lookback_kernel<float, b, i, 4>, scan_lookback_kernel<float, b, i, 1>},
static const lookback_instance SCAN_INSTANCES[] = {SCAN_BEST_CANDIDATES(SCAN_INSTANCE_ROW)};

static const lookback_instance *find_instance(const climb_scan_tuning *tn)
{
    for (int k = 0; k < CLIMB_COUNT(SCAN_INSTANCES); k++)
        if (SCAN_INSTANCES[k].block == tn->block && SCAN_INSTANCES[k].items == tn->items)
            return &SCAN_INSTANCES[k];
    return NULL;
}

/* An instance's 16-byte and scalar kernels of one type. */
static void kernels_of(const lookback_instance *k, lookback_kernel<int>::fn *vec, lookback_kernel<int>::fn *scalar)
{
    *vec = k->i_vec;
    *scalar = k->i_scalar;
}
static void kernels_of(const lookback_instance *k, lookback_kernel<float>::fn *vec, lookback_kernel<float>::fn *scalar)
{
    *vec = k->f_vec;
    *scalar = k->f_scalar;
}

/* The 16-byte instance where both arrays are 16-byte aligned, else the scalar one. */
template <typename T>
static cudaError_t launch_lookback(typename lookback_kernel<T>::fn vec, typename lookback_kernel<T>::fn scalar,
                                   unsigned block, int ex, const void *in, void *out, size_t n, char *ws,
                                   unsigned tiles, unsigned cap, cudaStream_t s)
{
    const bool aligned = (((uintptr_t)in | (uintptr_t)out) & 15) == 0;
    (aligned ? vec : scalar)<<<tiles, block, 0, s>>>((const T *)in, (T *)out, n, ex, ws, cap);
    return cudaGetLastError();
}

extern "C" cudaError_t climb_scan_best(const climb_scan_tuning *tn, climb_dtype t, int exclusive, const void *in,
                                       void *out, size_t n, void *ws, size_t ws_bytes, cudaStream_t s)
{
    const lookback_instance *k = find_instance(tn);
    if (!k || (t != CLIMB_I32 && t != CLIMB_F32))
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    const size_t tiles = ceil_div(n, (size_t)k->block * k->items);
    if (ws_bytes < climb_scan_best_workspace(tn, n) || tiles > INT_MAX)
        return cudaErrorInvalidValue;
    const unsigned cap = (unsigned)((ws_bytes - SCAN_HDR) / 8 < UINT_MAX ? (ws_bytes - SCAN_HDR) / 8 : UINT_MAX);
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        typename lookback_kernel<T>::fn vec, scalar;
        kernels_of(k, &vec, &scalar);
        return launch_lookback<T>(vec, scalar, k->block, exclusive, in, out, n, (char *)ws, (unsigned)tiles, cap, s);
    });
}

extern "C" const void *climb_scan_best_kernel(const climb_scan_tuning *tn, climb_dtype t, int aligned)
{
    const lookback_instance *k = find_instance(tn);
    if (!k || (t != CLIMB_I32 && t != CLIMB_F32))
        return NULL;
    if (t == CLIMB_I32)
        return (const void *)(aligned ? k->i_vec : k->i_scalar);
    return (const void *)(aligned ? k->f_vec : k->f_scalar);
}

extern "C" cudaError_t climb_scan_best_set_epoch(void *ws, uint32_t epoch)
{
    const unsigned long long word = (unsigned long long)epoch << 32;
    return cudaMemcpy(ws, &word, sizeof word, cudaMemcpyHostToDevice);
}

extern "C" uint32_t climb_scan_epochs(void) { return SCAN_EPOCHS; }

static cudaError_t launch_best(const climb_scan_tuning *tn, climb_dtype t, int ex, const void *in, void *out,
                               size_t n, void *ws, size_t wsb, cudaStream_t s)
{
    return climb_scan_best(tn, t, ex, in, out, n, ws, wsb, s);
}

/* The vendor rung, CUB's DeviceScan (decoupled look-back too), 32-bit offsets where n fits. The workspace size
 * comes from CUB's own query, made once before timing. */
template <typename T, typename Offset>
static cudaError_t cub_scan(void *ws, size_t *bytes, int ex, const T *in, T *out, size_t n, cudaStream_t s)
{
    return ex ? cub::DeviceScan::ExclusiveSum(ws, *bytes, in, out, (Offset)n, s)
              : cub::DeviceScan::InclusiveSum(ws, *bytes, in, out, (Offset)n, s);
}

template <typename T>
static cudaError_t cub_scan_any(void *ws, size_t *bytes, int ex, const T *in, T *out, size_t n, cudaStream_t s)
{
    return n <= (size_t)INT_MAX ? cub_scan<T, int>(ws, bytes, ex, in, out, n, s)
                                : cub_scan<T, int64_t>(ws, bytes, ex, in, out, n, s);
}

static size_t launch_cub_ws(const climb_scan_tuning *, size_t n)
{
    size_t most = 0;
    for (int ex = 0; ex < 2; ex++) {
        size_t a = 0, b = 0;
        if (cub_scan_any<int>(NULL, &a, ex, NULL, NULL, n, 0) != cudaSuccess ||
            cub_scan_any<float>(NULL, &b, ex, NULL, NULL, n, 0) != cudaSuccess)
            return 0;
        most = a > most ? a : most;
        most = b > most ? b : most;
    }
    return most + 16;
}

static cudaError_t launch_cub(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                              cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    return climb_typed<CLIMB_TYPES_I32_F32>(t, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        return cub_scan_any<T>(ws, &wsb, ex, (const T *)in, (T *)out, n, s);
    });
}

/* The bound: the same bytes moved by the copy engine's device-to-device copy. */
static cudaError_t launch_copy(const climb_scan_tuning *, climb_dtype t, int ex, const void *in, void *out, size_t n,
                              void *ws, size_t wsb,
                               cudaStream_t s)
{
    (void)ex;
    (void)ws;
    (void)wsb;
    return cudaMemcpyAsync(out, in, n * climb_dtype_size(t), cudaMemcpyDeviceToDevice, s);
}

static size_t no_workspace(const climb_scan_tuning *, size_t) { return 16; }

/* ---------------------------------------------------------------- the registry */

/* The kernels each rung launches, per type, for `climb occupancy --kernel` and the occupancy test. */
template <typename T> static const void *k_ks_f() { return (const void *)scan_kogge_stone_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_ksdb_f() { return (const void *)scan_kogge_stone_db_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_bk_f() { return (const void *)scan_brent_kung_kernel<T, SCAN_BLOCK>; }
template <typename T> static const void *k_tp_f()
{
    return (const void *)scan_three_phase_kernel<T, SCAN_BLOCK, SCAN_COARSE>;
}
template <typename T> static const void *k_ws_f()
{
    return (const void *)scan_warp_shuffle_kernel<T, SCAN_BLOCK, SCAN_COARSE>;
}

/* A hierarchical rung lists its section kernel and the add-back kernel. */
static int hier_kernels(climb_dtype t, const void *fi, const void *ff, const char *kname, unsigned threads,
                        climb_kernel_desc *o, int max)
{
    const bool i = t == CLIMB_I32;
    char name[96];
    snprintf(name, sizeof name, "%s<%s>", kname, i ? "int" : "float");
    climb_one_kernel(o, max, i ? fi : ff, name, (int)threads, 0);
    if (max > 1) {
        snprintf(name, sizeof name, "scan_add_kernel<%s>", i ? "int" : "float");
        climb_one_kernel(o + 1, max - 1, i ? (const void *)scan_add_kernel<int> : (const void *)scan_add_kernel<float>,
                         name, 256, 0);
    }
    return 2;
}

#define SCAN_HIER_KERNELS(fname, getter, kname)                                                                  \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)     \
    {                                                                                                          \
        return hier_kernels(t, getter<int>(), getter<float>(), kname, SCAN_BLOCK, o, max);                     \
    }
SCAN_HIER_KERNELS(k_kogge_stone, k_ks_f, "scan_kogge_stone_kernel")
SCAN_HIER_KERNELS(k_kogge_stone_db, k_ksdb_f, "scan_kogge_stone_db_kernel")
SCAN_HIER_KERNELS(k_brent_kung, k_bk_f, "scan_brent_kung_kernel")
SCAN_HIER_KERNELS(k_three_phase, k_tp_f, "scan_three_phase_kernel")
SCAN_HIER_KERNELS(k_warp_shuffle, k_ws_f, "scan_warp_shuffle_kernel")

static int k_chained(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const bool i = t == CLIMB_I32;
    return climb_one_kernel(o, max,
                            i ? (const void *)scan_chained_kernel<int, SCAN_BLOCK, SCAN_COARSE>
                              : (const void *)scan_chained_kernel<float, SCAN_BLOCK, SCAN_COARSE>,
                            i ? "scan_chained_kernel<int>" : "scan_chained_kernel<float>", SCAN_BLOCK, 0);
}

/* The best rung: the 16-byte instance and the scalar one (arrays not 16-byte aligned) of the tuned tile. */
static int k_lookback(climb_dtype t, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_scan_tuning tn;
    climb_scan_set_tuning(&tn, tuning);
    const lookback_instance *k = find_instance(&tn);
    if (!k)
        return 0;
    const bool i = t == CLIMB_I32;
    const void *f[2] = {i ? (const void *)k->i_vec : (const void *)k->f_vec,
                        i ? (const void *)k->i_scalar : (const void *)k->f_scalar};
    for (int v = 0; v < 2 && v < max; v++) {
        char name[96];
        snprintf(name, sizeof name, "scan_lookback_kernel<%s, %d, %d, %s>", i ? "int" : "float", k->block, k->items,
                 v ? "scalar" : "16-byte");
        climb_one_kernel(o + v, max - v, f[v], name, k->block, 0);
    }
    return 2;
}

typedef struct scan_rung {
    climb_rung_info info;
    scan_launch_fn launch;
    size_t (*workspace)(const climb_scan_tuning *tn, size_t n);
    size_t chain_tile;   /* f32 tolerance: elements per add on a chain of tiles (0: no chain; see climb_scan_depth);
                            the best rung's follows its tuned tile, in scan_verify */
} scan_rung;

static const scan_rung SCAN_RUNGS[] = {
    {.info = {.name = "cub_device_scan", .idea = "vendor: cub::DeviceScan::InclusiveSum / ExclusiveSum", .needs = "",
              .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cub, .workspace = launch_cub_ws, .chain_tile = 16},
    {.info = {.name = "device_copy", .idea = "bound: cudaMemcpyAsync of the same n elements, device to device",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = NULL},
     .launch = launch_copy, .workspace = no_workspace, .chain_tile = 0},
    {.info = {.name = "kogge_stone", .idea = "PMPP's block scan: log2(B) steps in shared memory, two barriers a "
                                             "step; hierarchical for any n",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_kogge_stone},
     .launch = launch_kogge_stone, .workspace = launch_kogge_stone_ws, .chain_tile = 0},
    {.info = {.name = "kogge_stone_double_buffer", .idea = "two shared arrays, read one and write the other: one "
                                                           "barrier a step",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_kogge_stone_db},
     .launch = launch_kogge_stone_db, .workspace = launch_kogge_stone_db_ws, .chain_tile = 0},
    {.info = {.name = "brent_kung", .idea = "work-efficient up-sweep and down-sweep trees, two elements a thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_brent_kung},
     .launch = launch_brent_kung, .workspace = launch_brent_kung_ws, .chain_tile = 0},
    {.info = {.name = "three_phase", .idea = "coarsening: 8 elements a thread scanned sequentially, Kogge-Stone over "
                                             "the thread totals",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_three_phase},
     .launch = launch_three_phase, .workspace = launch_three_phase_ws, .chain_tile = 0},
    {.info = {.name = "warp_shuffle", .idea = "the thread totals scanned with warp shuffles instead of shared "
                                              "memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_warp_shuffle},
     .launch = launch_warp_shuffle, .workspace = launch_warp_shuffle_ws, .chain_tile = 0},
    {.info = {.name = "chained", .idea = "one pass: each tile waits for its predecessor's prefix through a flag; "
                                         "tiles taken in start order",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_chained},
     .launch = launch_chained, .workspace = launch_chained_ws, .chain_tile = SCAN_BLOCK * SCAN_COARSE / 8},
    {.info = {.name = "decoupled_lookback", .idea = "tiles publish aggregates at once and look back 32 at a time; "
                                                    "16-byte loads into registers",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_lookback},
     .launch = launch_best, .workspace = climb_scan_best_workspace, .chain_tile = 0},
};
#define SCAN_N_RUNGS CLIMB_COUNT(SCAN_RUNGS)

static const climb_rung_info *scan_rung_info(int i) { return &SCAN_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

static const climb_tunable SCAN_TUNABLES[] = {
    {.name = "block", .meaning = "threads per block", .values = SCAN_TUNE_BLOCKS,
     .n_values = CLIMB_COUNT(SCAN_TUNE_BLOCKS)},
    {.name = "items", .meaning = "elements per thread", .values = SCAN_TUNE_ITEMS,
     .n_values = CLIMB_COUNT(SCAN_TUNE_ITEMS)},
};

static const char *scan_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)k; /* the same tile for every n and type */
    const int n = CLIMB_COUNT(SCAN_ARCH_POLICY);
    const scan_arch_policy *p = &SCAN_ARCH_POLICY[n - 1];
    for (int i = 0; i < n - 1; i++)
        if (SCAN_ARCH_POLICY[i].cc_major == dev->cc_major)
            p = &SCAN_ARCH_POLICY[i];
    v[0] = p->block;
    v[1] = p->items;
    return p->source;
}

static const climb_tuning SCAN_TUNING = {
    .params = SCAN_TUNABLES,
    .n_params = CLIMB_COUNT(SCAN_TUNABLES),
    .candidates = SCAN_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(SCAN_TUNE_CANDIDATES) / 2,
    .defaults = scan_tuning_defaults,
    .rejects = NULL,
};

extern "C" void climb_scan_set_tuning(climb_scan_tuning *t, const int *v)
{
    t->block = v[0];
    t->items = v[1];
}

/* ---------------------------------------------------------------- options */

static const char *const SCAN_KINDS[] = {"inclusive", "exclusive", NULL};
enum { OPT_KIND };
static constexpr climb_option SCAN_OPTIONS[] = {
    {.name = "kind", .kind = CLIMB_OPT_CHOICE,
     .meaning = "inclusive (out[i] = x[0] + ... + x[i]) or exclusive (out[i] = x[0] + ... + x[i-1], out[0] = 0)",
     .def = "all", .choices = SCAN_KINDS},
};
CLIMB_OPTION_AT(SCAN_OPTIONS, OPT_KIND, "kind");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    size_t n;
    int exclusive;
    void *h_in, *d_in;    /* n elements (the device's the offset's elements past its allocation) */
    void *h_out, *d_out;
    int32_t *ref_i32;     /* i32: the exact scan */
    double *ref_f32;      /* f32: the scan in double */
    float *abs_f32;       /* f32: sum of |x_j| over each output's inputs */
    void *d_ws;
    size_t ws_bytes;
    climb_scan_tuning tune;  /* the best rung's tile */
};

static void scan_fini(climb_case *c) { cudaFree(c->d_ws); }

static int scan_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->exclusive = c->p.opts[OPT_KIND].choice == 1;
    return 0;
}

/* i32: the full 32-bit range, so every partial sum wraps and a lost or doubled element shows at every later output.
 * f32: uniform in [-1, 1), signs mixed so that partial sums cancel. */
static int scan_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    if (c->p.type == CLIMB_I32) {
        double lo, hi;
        climb_dtype_full_range(CLIMB_I32, &lo, &hi);
        climb_rng_fill(&rng, CLIMB_I32, c->h_in, c->n, lo, hi);
        climb_scan_ref_i32((const int32_t *)c->h_in, c->n, c->exclusive, c->ref_i32);
    } else {
        climb_rng_fill_f32(&rng, (float *)c->h_in, c->n, -1.0f, 1.0f);
        climb_scan_ref_f32((const float *)c->h_in, c->n, c->exclusive, c->ref_f32, c->abs_f32);
    }
    return 0;
}

static size_t array_bytes(const climb_case *c) { return c->n * 4; }
static size_t i32_ref_bytes(const climb_case *c) { return c->p.type == CLIMB_I32 ? c->n * 4 : 0; }
static size_t f32_ref_bytes(const climb_case *c) { return c->p.type == CLIMB_F32 ? c->n * 8 : 0; }
static size_t f32_abs_bytes(const climb_case *c) { return c->p.type == CLIMB_F32 ? c->n * 4 : 0; }

static const climb_buffer SCAN_BUFFERS[] = {
    {.name = "in", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = array_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "out", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = array_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out)},
    {.name = "the i32 reference", .flags = CLIMB_BUF_HOST, .bytes = i32_ref_bytes,
     .host_at = offsetof(climb_case, ref_i32)},
    {.name = "the f32 reference", .flags = CLIMB_BUF_HOST, .bytes = f32_ref_bytes,
     .host_at = offsetof(climb_case, ref_f32)},
    {.name = "the f32 magnitudes", .flags = CLIMB_BUF_HOST, .bytes = f32_abs_bytes,
     .host_at = offsetof(climb_case, abs_f32)},
};

static const char *scan_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s scan; %s; arrays start %u elements past 256-byte alignment",
             c->exclusive ? "exclusive" : "inclusive",
             c->p.type == CLIMB_I32 ? "x uniform over all of i32" : "x uniform in [-1, 1)", c->p.offset);
    return buf;
}


static int scan_verify(climb_case *c, int rung, char *msg, size_t msglen);

static int scan_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const char *what = c->p.type == CLIMB_I32
                           ? "CPU scan, exact (wrapped modulo 2^32), every element"
                           : "CPU scan in double, every element; |got - ref| <= gamma(H) sum|x_j| (H: the "
                             "rung's summation height, docs/scan.md)";
    if (mode == CLIMB_REF_VENDOR) { /* its output downloaded by the harness */
        char msg[300];
        const int v = scan_verify(c, climb_vendor_rung(&climb_scan_workload), msg, sizeof msg);
        if (v != 0) {
            snprintf(desc, desclen, "cub_device_scan disagrees with the %s: %s", what, msg);
            return v < 0 ? -1 : 1;
        }
        snprintf(desc, desclen, "%s (cub_device_scan agrees)", what);
        return 0;
    }
    snprintf(desc, desclen, "%s", what);
    return 0;
}

static const char *scan_refuses(const climb_case *c, int rung)
{
    const size_t tile = SCAN_RUNGS[rung].launch == launch_best ? SCAN_MIN_TILE : SCAN_BLOCK;
    if (ceil_div(c->n, tile) > INT_MAX)
        return "more tiles than a 1-D grid holds";
    return NULL;
}

static int scan_prepare(climb_case *c, int rung)
{
    const size_t need = SCAN_RUNGS[rung].workspace(&c->tune, c->n);
    if (need == 0) {
        fprintf(stderr, "climb: %s could not size its workspace for n = %zu\n", SCAN_RUNGS[rung].info.name, c->n);
        return -1;
    }
    if (climb_grow_device_buffer(&c->d_ws, &c->ws_bytes, need) != 0)
        return -1;
    CLIMB_CHECK(cudaMemset(c->d_ws, 0, c->ws_bytes)); /* the single-pass rungs' flags start at epoch 0 */
    return 0;
}

static int scan_run(climb_case *c, int rung, cudaStream_t s)
{
    CLIMB_CHECK(
        SCAN_RUNGS[rung].launch(&c->tune, c->p.type, c->exclusive, c->d_in, c->d_out, c->n, c->d_ws, c->ws_bytes, s));
    return 0;
}

/* i32: the bitwise complement of the right answer at every element; f32: NaN. */
static int scan_poison(climb_case *c)
{
    if (c->p.type == CLIMB_I32) {
        int32_t *h = (int32_t *)c->h_out;
        for (size_t i = 0; i < c->n; i++)
            h[i] = ~c->ref_i32[i];
        CLIMB_CHECK(cudaMemcpy(c->d_out, h, c->n * 4, cudaMemcpyHostToDevice));
    } else {
        CLIMB_CHECK(cudaMemset(c->d_out, 0xFF, c->n * 4));
    }
    return 0;
}

/* out (downloaded by the harness): the bound's copy bit for bit; i32 exactly; f32 within each element's bound. */
static int scan_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    const bool f32 = c->p.type == CLIMB_F32;
    if (SCAN_RUNGS[rung].info.kind == CLIMB_RUNG_BOUND) { /* the copy: out == in, bit for bit */
        for (size_t i = 0; i < c->n; i++) {
            const double got = f32 ? ((float *)c->h_out)[i] : ((int32_t *)c->h_out)[i];
            const double want = f32 ? ((float *)c->h_in)[i] : ((int32_t *)c->h_in)[i];
            climb_compare_check(&k, memcmp((char *)c->h_out + 4 * i, (char *)c->h_in + 4 * i, 4) == 0,
                                "out[%zu] = %.9g, expected %.9g", i, got, want);
        }
    } else if (!f32) {
        const int32_t *g = (const int32_t *)c->h_out;
        for (size_t i = 0; i < c->n; i++)
            climb_compare_exact(&k, g[i], c->ref_i32[i], "out[%zu]", i);
    } else {
        const float *g = (const float *)c->h_out;
        const size_t chain = SCAN_RUNGS[rung].launch == launch_best ? (size_t)c->tune.block * c->tune.items / 8
                                                                    : SCAN_RUNGS[rung].chain_tile;
        for (size_t i = 0; i < c->n; i++)
            climb_compare_close(&k, g[i], c->ref_f32[i], climb_scan_tol_f32(c->abs_f32[i], climb_scan_depth(i, chain)),
                                "out[%zu]", i);
    }
    return climb_compare_end(&k);
}

static void scan_set_tuning(climb_case *c, const int *values) { climb_scan_set_tuning(&c->tune, values); }

static void scan_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->n * 4;
    out->bytes_written = (double)c->n * 4;
    out->flops = c->p.type == CLIMB_F32 && c->n > 0 ? (double)(c->n - 1) : 0.0;
}

static const climb_shape SCAN_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 24),
                                                CLIMB_SHAPE1((size_t)1 << 28), CLIMB_SHAPE1(10000019)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SCAN_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
/* 0, 1, a warp and a block either side, every section size (512, 1024, 4096) either side, the hierarchy's second
 * and third levels (512^2 and past), and odd sizes. */
static const climb_shape SCAN_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),      CLIMB_SHAPE1(1),      CLIMB_SHAPE1(2),       CLIMB_SHAPE1(3),       CLIMB_SHAPE1(5),
    CLIMB_SHAPE1(31),     CLIMB_SHAPE1(32),     CLIMB_SHAPE1(33),      CLIMB_SHAPE1(255),     CLIMB_SHAPE1(256),
    CLIMB_SHAPE1(257),    CLIMB_SHAPE1(511),    CLIMB_SHAPE1(512),     CLIMB_SHAPE1(513),     CLIMB_SHAPE1(1023),
    CLIMB_SHAPE1(1024),   CLIMB_SHAPE1(1025),   CLIMB_SHAPE1(4095),    CLIMB_SHAPE1(4096),    CLIMB_SHAPE1(4097),
    CLIMB_SHAPE1(8191),   CLIMB_SHAPE1(131071), CLIMB_SHAPE1(131073),  CLIMB_SHAPE1(262143),  CLIMB_SHAPE1(262145),
    CLIMB_SHAPE1(524289), CLIMB_SHAPE1(1000003), CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1(((size_t)1 << 22) + 1),
    CLIMB_SHAPE1(((size_t)1 << 24) + 7)};
static const climb_shape SCAN_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(4097), CLIMB_SHAPE1(262145)};

/* The ladder against n: f32 inclusive, 2^12 (one tile of the best rung) to 2^28. */
static const climb_sweep SCAN_SWEEPS[] = {
    {.name = "sizes",
     .title = "inclusive prefix sum of f32: GB/s (read + written) against n",
     .args = "--type f32 --set kind=inclusive --size 2^12 --size 2^14 --size 2^16 --size 2^18 --size 2^20 "
             "--size 2^22 --size 2^24 --size 2^26 --size 2^28",
     .x = "n",
     .log_x = 1},
};

/* The host memory a case needs at the least (input and output), for the harness's check before anything is allocated. */
static double scan_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 2.0 * (double)s->d[0] * (double)climb_dtype_size(t);
}

extern "C" const climb_workload climb_scan_workload = {
    .name = "scan",
    .title = "Prefix sum (inclusive and exclusive scan)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, scan (Kogge-Stone, Brent-Kung, "
                "three-phase, hierarchical, single-pass with dynamic block "
                "indices)",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32),
    .options = SCAN_OPTIONS,
    .n_options = CLIMB_COUNT(SCAN_OPTIONS),
    .bytes_counted = "read: n x 4 bytes; written: n x 4 bytes",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SCAN_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SCAN_BENCH_SHAPES),
    .check_shapes = SCAN_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SCAN_CHECK_SHAPES),
    .quick_shapes = SCAN_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SCAN_QUICK_SHAPES),
    .main_shapes = SCAN_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SCAN_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = SCAN_N_RUNGS,
    .rung = scan_rung_info,
    .published = NULL,
    .sweeps = SCAN_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SCAN_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = SCAN_BUFFERS,
    .n_buffers = CLIMB_COUNT(SCAN_BUFFERS),
    .init = scan_init,
    .fill = scan_fill,
    .fini = scan_fini,
    .describe = scan_describe,
    .reference = scan_reference,
    .case_bytes = scan_case_bytes,
    .refuses = scan_refuses,
    .prepare = scan_prepare,
    .run = scan_run,
    .poison = scan_poison,
    .verify = scan_verify,
    .counts = scan_counts,
    .tuning = &SCAN_TUNING,
    .set_tuning = scan_set_tuning,
};
