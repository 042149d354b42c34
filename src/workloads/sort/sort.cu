/*
 * sort.cu - sorting keys, and key-value pairs (u32 values), stably, as a ladder: merge sort of u32 keys, then radix
 * sort of u32, i32, f32 and u64 keys, then the tuned choice between them.
 *
 * From Kirk and Hwu, Programming Massively Parallel Processors, chapter 11 (and the UIUC ECE 508 lecture on merge
 * sort): the co-rank function, which finds where an output position of a merge splits its two inputs, so that every
 * thread can merge its own part; the basic merge kernel (a thread per output); the tiled merge (co-rank at block
 * boundaries, tiles staged in shared memory); and the circular-buffer refinement of the tiled merge. Sorting is the
 * merge repeated over doubling run lengths. The merge path rung is the design of Green, McColl and Bader's "GPU
 * Merge Path" and of CUB's block merge sort: many keys a thread in registers, sorted there, block-wide merges in
 * shared memory, then one global pass per doubling with the partitions found by a separate search. The radix rungs
 * follow Hwu,
 * Kirk and El Hajj's radix-sort chapter (PMPP, 4th edition, chapter 13): LSD passes of counts, scan and scatter, from
 * one bit a pass to wider digits sorted in shared memory before they are written, and Adinets and Merrill's Onesweep
 * (radix.cuh). The best rung, `tuned`, runs whichever of the merge path and the radix sorts measured fastest for the
 * case's class. See docs/sort.md.
 *
 * The folder: reference.cu the CPU reference and the inputs, kernels.cuh the merge kernels (one group per rung),
 * radix.cuh the radix kernels, this file the pass drivers, the registry and the harness glue.
 *
 * Bytes counted: the keys (and values) read once and written once: the least a sort moves; each rung's passes move
 * that many bytes again each (its own counts say how many passes).
 */
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../core/workload.cuh"
#include "../../device/device.h"
#include "../scan/scan.h"
#include "kernels.cuh"
#include "radix.cuh"

enum { OPT_WHAT, OPT_DIST }; /* the options, in their table's order (below) */

/* ---------------------------------------------------------------- pass drivers */

typedef struct sort_args {
    const u32 *in_k, *in_v;  /* in_v NULL: keys only */
    u32 *out_k, *out_v;      /* may equal in_k, in_v (in place) for the best rung */
    u32 *tmp_k, *tmp_v;      /* n words each (tmp_v when pairs) */
    int *part;               /* the best rung's partitions: tiles + 1 ints */
    long long n;
    void *vendor_ws;         /* CUB's temporary storage */
    size_t vendor_ws_bytes;
    void *radix_ws;          /* the radix rungs' digit counts and their scan's workspace (radix_workspace) */
    size_t radix_ws_bytes;
    climb_sort_tuning tn;
    int pdl;                 /* the best rung's passes as programmatic dependent launches (sm_90 and later) */
    climb_dtype type;        /* the keys' type: U32 for the merge rungs; the radix and CUB rungs take every type of
                                the workload, the key pointers then pointing at keys of that type */
    cudaStream_t s;
} sort_args;

/* How many merge passes take runs of w0 to one run of n: the passes alternate between out and tmp so that the last
 * writes out (sort_pass_dst), and the step before them writes where that parity wants. */
static int sort_pass_count(long long n, long long w0)
{
    int passes = 0;
    for (long long w = w0; w < n; w *= 2)
        passes++;
    return passes;
}

typedef cudaError_t (*sort_pass_fn)(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w);

/* The buffers pass p of `passes` writes: the last one writes out. */
static void sort_pass_dst(const sort_args *a, int p, int passes, u32 **k, u32 **v)
{
    const int to_out = (passes - 1 - p) % 2 == 0;
    *k = to_out ? a->out_k : a->tmp_k;
    *v = to_out ? a->out_v : a->tmp_v;
}

/* The passes after a first step that left runs of w0 in (k, v). */
static cudaError_t sort_run_passes(const sort_args *a, const u32 *k, const u32 *v, long long w0, sort_pass_fn pass)
{
    const int passes = sort_pass_count(a->n, w0);
    long long w = w0;
    for (int p = 0; p < passes; p++, w *= 2) {
        u32 *dk, *dv;
        sort_pass_dst(a, p, passes, &dk, &dv);
        const cudaError_t e = pass(a, k, v, dk, dv, w);
        if (e != cudaSuccess)
            return e;
        k = dk;
        v = dv;
    }
    return cudaSuccess;
}

/* n <= 1: a copy (in to out), nothing when in place. */
static cudaError_t sort_trivial(const sort_args *a)
{
    if (a->n == 0 || a->in_k == a->out_k)
        return cudaSuccess;
    cudaError_t e = cudaMemcpyAsync(a->out_k, a->in_k, climb_dtype_size(a->type), cudaMemcpyDeviceToDevice, a->s);
    if (e == cudaSuccess && a->in_v)
        e = cudaMemcpyAsync(a->out_v, a->in_v, 4, cudaMemcpyDeviceToDevice, a->s);
    return e;
}

static unsigned sort_grid(long long n, int per_block) { return (unsigned)((n + per_block - 1) / per_block); }

static size_t sort_align(size_t x) { return (x + 255) / 256 * 256; }

static cudaError_t pass_naive(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w)
{
    const unsigned grid = sort_grid(a->n, 256);
    if (a->in_v)
        sort_merge_naive_kernel<true><<<grid, 256, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    else
        sort_merge_naive_kernel<false><<<grid, 256, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    return cudaGetLastError();
}

static cudaError_t launch_naive(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    /* the first pass merges runs of 1 straight from the input */
    const int passes = sort_pass_count(a->n, 1);
    u32 *dk, *dv;
    sort_pass_dst(a, 0, passes, &dk, &dv);
    cudaError_t e = pass_naive(a, a->in_k, a->in_v, dk, dv, 1);
    if (e != cudaSuccess || passes == 1)
        return e;
    /* the rest as if the first step had left runs of 2 in (dk, dv): the parity is the same */
    return sort_run_passes(a, dk, dv, 2, pass_naive);
}

/* The smem block sort into the first destination of the passes that follow from SORT_SMEM_TILE. */
static cudaError_t sort_smem_tiles(const sort_args *a, u32 **k, u32 **v)
{
    const int passes = sort_pass_count(a->n, SORT_SMEM_TILE);
    if (passes == 0) {
        *k = a->out_k;
        *v = a->out_v;
    } else {
        const int to_out = passes % 2 == 0;
        *k = to_out ? a->out_k : a->tmp_k;
        *v = to_out ? a->out_v : a->tmp_v;
    }
    const unsigned grid = sort_grid(a->n, SORT_SMEM_TILE);
    if (a->in_v)
        sort_block_smem_kernel<true><<<grid, SORT_SMEM_BLOCK, 0, a->s>>>(a->in_k, a->in_v, *k, *v, a->n);
    else
        sort_block_smem_kernel<false><<<grid, SORT_SMEM_BLOCK, 0, a->s>>>(a->in_k, a->in_v, *k, *v, a->n);
    return cudaGetLastError();
}

static cudaError_t launch_block_sort(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    u32 *k, *v;
    const cudaError_t e = sort_smem_tiles(a, &k, &v);
    return e != cudaSuccess ? e : sort_run_passes(a, k, v, SORT_SMEM_TILE, pass_naive);
}

template <bool CIRCULAR>
static cudaError_t pass_tiled(const sort_args *a, const u32 *ki, const u32 *vi, u32 *ko, u32 *vo, long long w)
{
    const unsigned grid = sort_grid(a->n, SORT_TILED_CHUNK);
    if (a->in_v)
        sort_merge_tiled_kernel<true, CIRCULAR><<<grid, SORT_TILED_BLOCK, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    else
        sort_merge_tiled_kernel<false, CIRCULAR><<<grid, SORT_TILED_BLOCK, 0, a->s>>>(ki, vi, ko, vo, a->n, w);
    return cudaGetLastError();
}

template <bool CIRCULAR> static cudaError_t launch_tiled(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    u32 *k, *v;
    const cudaError_t e = sort_smem_tiles(a, &k, &v);
    return e != cudaSuccess ? e : sort_run_passes(a, k, v, SORT_SMEM_TILE, pass_tiled<CIRCULAR>);
}

/* The best rung's instances: (block, items) pairs `climb tune sort` tries, each listed once. */
#define SORT_BEST_CANDIDATES(X)                                                                                 \
    X(128, 15) X(256, 11) X(256, 15) X(256, 17) X(256, 19) X(256, 23) X(512, 15) X(512, 19)
static const int SORT_TUNE_BLOCKS[] = {128, 256, 384, 512}; /* 384: Onesweep's wide tile */
static const int SORT_TUNE_ITEMS[] = {9, 11, 15, 17, 19, 23}; /* 9 and 23: Onesweep's tiles */
static const int SORT_TUNE_ALGOS[] = {CLIMB_SORT_MERGE, CLIMB_SORT_ONESWEEP, CLIMB_SORT_MATCH_RANK};
/* The tuned rung's candidates: the merge path at every instance, Onesweep at its four tiles (256 x 9, 384 x 17,
 * 384 x 19 and 384 x 23 for u32 keys), and the match-ranked three-kernel sort (its tile is fixed: 256 x 9). */
#define SORT_CANDIDATE_VALUES(b, i) b, i, CLIMB_SORT_MERGE,
static const int SORT_TUNE_CANDIDATES[] = {SORT_BEST_CANDIDATES(SORT_CANDIDATE_VALUES) 256, 9, CLIMB_SORT_ONESWEEP,
                                           384, 17, CLIMB_SORT_ONESWEEP, 384, 19, CLIMB_SORT_ONESWEEP,
                                           384, 23, CLIMB_SORT_ONESWEEP,
                                           256, 9, CLIMB_SORT_MATCH_RANK};

/* Built-in values, per tuning class (keys alone, or pairs), used where no wisdom file matches the device: what
 * `climb tune sort` chose on an H100 at 87cc628 (2^24 and 2^26 uniform keys, cold L2). Keys: 512 x 19, a tile of
 * 9728 (one global pass fewer than 256 x 19 from 2^24 up). Pairs: 256 x 19 (512 x 19 holds 76 KB of shared memory a
 * block with the values: two blocks an SM, 12% slower). */
typedef struct sort_class_policy {
    int block, items;
    const char *source;
} sort_class_policy;
static const sort_class_policy SORT_POLICY[2] = {
    {512, 19, "built-in (measured on an H100: keys alone, 512 threads x 19 keys, a tile of 9728)"},
    {256, 19, "built-in (measured on an H100: pairs, 256 threads x 19 keys, a tile of 4864)"},
};
/* The tuned rung's size classes, and the built-in algorithm of each, from the ladder's rows on an H100 (u32,
 * uniform; results/h100-80gb-hbm3/sort/bench-small at 5b53594, bench-classes at 178ad55 and b947430, all against
 * CUB's radix sort in the same run). small, to 2^16 keys: for keys the merge path (2^16: 50.3 us, CUB 56.8; at
 * 81,919, one merge pass more, 62.2 against CUB's 57.1, where Onesweep at 256 x 9 took 52.8 at 81,920: past 2^16
 * the merge's next pass costs more than Onesweep's five launches), for pairs Onesweep at 256 x 9 (2^16:
 * 57.8 us against the merge path's 64.1 and CUB's 61.9); medium, to 5 x 2^17 (655,360) keys: Onesweep at 256 x 9
 * (2^18: 59.9 us keys, 63.9 pairs, against the wide tile's 71.1 and 80.8; 2^19 - 1: 67.9 and 75.5, against the wide
 * tile's 72.2 and 82.1 at 2^19); large, from there: Onesweep at its wide tile, 384 x 23 (2^20: 77.5 us keys, 91.7
 * pairs, against 90.0 and 102.4 at 256 x 9; from 2^22 1.11x to 1.28x 256 x 9 at f0b2979). The small edge is the
 * largest size measured faster on the merge path; the medium-large edge is where the two tiles' times cross when
 * drawn straight between 2^19 and 2^20 (keys; within a few percent either side at b947430). */
#define SORT_MEDIUM_N (((size_t)1 << 16) + 1)
#define SORT_LARGE_N ((size_t)5 << 17)
enum { SORT_SMALL = 0, SORT_MEDIUM = 1, SORT_LARGE = 2 };
static int sort_class(size_t n) { return n >= SORT_LARGE_N ? SORT_LARGE : n >= SORT_MEDIUM_N ? SORT_MEDIUM : SORT_SMALL; }

typedef struct sort_best_instance {
    int block, items;
    const void *block_fn[2], *merge_fn[2]; /* [pairs] */
} sort_best_instance;

#define SORT_INSTANCE(b, i)                                                                                            \
    {b, i, {(const void *)sort_best_block_kernel<b, i, false>, (const void *)sort_best_block_kernel<b, i, true>},       \
     {(const void *)sort_best_merge_kernel<b, i, false>, (const void *)sort_best_merge_kernel<b, i, true>}},
static const sort_best_instance SORT_INSTANCES[] = {SORT_BEST_CANDIDATES(SORT_INSTANCE)};

static const sort_best_instance *sort_instance(const climb_sort_tuning *t)
{
    for (int i = 0; i < CLIMB_COUNT(SORT_INSTANCES); i++)
        if (SORT_INSTANCES[i].block == t->block && SORT_INSTANCES[i].items == t->items)
            return &SORT_INSTANCES[i];
    return NULL;
}

static size_t sort_best_smem(const sort_best_instance *in, int pairs)
{
    return (size_t)in->block * in->items * 4 * (pairs ? 2 : 1);
}

/* A launch with `smem` bytes of dynamic shared memory, the opt-in raised where it is over 48 KB; with `pdl`, a
 * programmatic dependent launch (it may start while the kernel before it finishes: it waits in
 * climb_grid_dependency_wait before reading what that kernel wrote). */
static cudaError_t sort_launch(const void *fn, unsigned grid, int block, size_t smem, cudaStream_t s, void **args,
                               int pdl)
{
    if (smem > 48 * 1024) {
        const cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess)
            return e;
    }
    return climb_launch_ex(fn, grid, (unsigned)block, smem, s, args, pdl);
}

/* The merge path at the tile of a->tn (block x items). */
static cudaError_t launch_merge_tile(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    const sort_best_instance *in = sort_instance(&a->tn);
    if (!in)
        return cudaErrorInvalidValue;
    const int pairs = a->in_v != NULL;
    const long long tile = (long long)in->block * in->items, n = a->n;
    const size_t smem = sort_best_smem(in, pairs);
    const int passes = sort_pass_count(n, tile);
    /* the block sort writes where the passes' parity wants it: in place is safe, a block reads its tile whole
     * before it writes */
    u32 *k = passes % 2 == 0 ? a->out_k : a->tmp_k, *v = passes % 2 == 0 ? a->out_v : a->tmp_v;
    const u32 *ik = a->in_k, *iv = a->in_v;
    long long nn = n;
    void *bargs[] = {(void *)&ik, (void *)&iv, (void *)&k, (void *)&v, (void *)&nn};
    /* the block sort waits for whatever ran before (a plain launch); each kernel after it is a programmatic
     * dependent launch on sm_90 and later, its launch hidden behind the end of the one before */
    cudaError_t e = sort_launch(in->block_fn[pairs], sort_grid(n, (int)tile), in->block, smem, a->s, bargs, 0);
    const int tiles = (int)sort_grid(n, (int)tile), pdl = a->pdl;
    long long w = tile;
    for (int p = 0; p < passes && e == cudaSuccess; p++, w *= 2) {
        u32 *dk, *dv;
        sort_pass_dst(a, p, passes, &dk, &dv);
        const u32 *sk = k, *sv = v;
        int *part = a->part, tl = (int)tile, tn = tiles;
        void *pargs[] = {(void *)&sk, (void *)&part, (void *)&nn, (void *)&w, (void *)&tl, (void *)&tn};
        e = sort_launch((const void *)sort_partition_kernel, sort_grid((long long)tiles + 1, SORT_PARTITION_BLOCK),
                        SORT_PARTITION_BLOCK, 0, a->s, pargs, pdl);
        if (e != cudaSuccess)
            break;
        void *margs[] = {(void *)&sk, (void *)&sv, (void *)&dk, (void *)&dv, (void *)&part, (void *)&nn, (void *)&w};
        e = sort_launch(in->merge_fn[pairs], (unsigned)tiles, in->block, smem, a->s, margs, pdl);
        k = dk;
        v = dv;
    }
    return e;
}

/* The radix rungs (radix.cuh): LSD, BITS a pass, 32 / BITS passes of three kernels, alternating between out and
 * tmp so that the last pass writes out (the input is only read). A tile is RADIX_BLOCK x RADIX_ITEMS keys. The
 * digit counts' scan is the project's single-pass scan at a fixed tuning. */
#define RADIX_BLOCK 256
#define RADIX_ITEMS 9
#define RADIX_TILE (RADIX_BLOCK * RADIX_ITEMS)
static const climb_scan_tuning RADIX_SCAN = {256, 16};

static size_t radix_counts_bytes(long long n, int bits)
{
    return sort_align((size_t)sort_grid(n, RADIX_TILE) << bits) * sizeof(int);
}

/* The radix rungs' workspace for n keys and BITS-bit digits: the counts, then the scan's workspace (zeroed once,
 * when allocated). */
static size_t radix_workspace(long long n, int bits)
{
    return radix_counts_bytes(n, bits) + climb_scan_best_workspace(&RADIX_SCAN, (size_t)sort_grid(n, RADIX_TILE) << bits);
}

/* The key types, and f(KT()) for the key type of t (radix_key, over the project's typed dispatch): the radix and
 * CUB rungs' one dispatch over them. */
#define SORT_KEY_TYPES                                                                                            \
    (CLIMB_TYPE_BIT(CLIMB_U32) | CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_U64))
template <typename F> static cudaError_t sort_by_key_type(climb_dtype t, F &&f)
{
    return climb_typed<SORT_KEY_TYPES>(t, cudaErrorInvalidValue,
                                       [&](auto x) { return f(typename radix_key_of<decltype(x)>::type()); });
}

template <typename KT, int BITS, int RANK> static cudaError_t launch_radix_typed(const sort_args *a)
{
    typedef typename KT::bits K;
    constexpr int PASSES = KT::BITS / BITS;
    static_assert(KT::BITS % BITS == 0 && PASSES % 2 == 0, "the passes end in out: an even number of them");
    const long long n = a->n;
    const int tiles = (int)sort_grid(n, RADIX_TILE);
    const size_t digits = (size_t)tiles << BITS, counts_bytes = radix_counts_bytes(n, BITS);
    if (!a->radix_ws || a->radix_ws_bytes < radix_workspace(n, BITS))
        return cudaErrorInvalidValue;
    int *counts = (int *)a->radix_ws;
    void *scan_ws = (char *)a->radix_ws + counts_bytes;
    const size_t scan_bytes = a->radix_ws_bytes - counts_bytes;
    const K *k = (const K *)a->in_k;
    const u32 *v = a->in_v;
    cudaError_t e = cudaSuccess;
    for (int p = 0; p < PASSES && e == cudaSuccess; p++) {
        u32 *dk32, *dv;
        sort_pass_dst(a, p, PASSES, &dk32, &dv);
        K *dk = (K *)dk32;
        const int shift = p * BITS;
        radix_count_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS><<<(unsigned)tiles, RADIX_BLOCK, 0, a->s>>>(
            k, n, shift, counts, tiles);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = climb_scan_best(&RADIX_SCAN, CLIMB_I32, 1, counts, counts, digits, scan_ws, scan_bytes, a->s);
        if (e != cudaSuccess)
            break;
        if (a->in_v)
            radix_scatter_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS, RANK, true>
                <<<(unsigned)tiles, RADIX_BLOCK, 0, a->s>>>(k, v, dk, dv, n, shift, counts, tiles);
        else
            radix_scatter_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS, RANK, false>
                <<<(unsigned)tiles, RADIX_BLOCK, 0, a->s>>>(k, v, dk, dv, n, shift, counts, tiles);
        e = cudaGetLastError();
        k = dk;
        v = dv;
    }
    return e;
}

template <int BITS, int RANK> static cudaError_t launch_radix(const sort_args *a)
{
    if (a->n <= 1)
        return sort_trivial(a);
    return sort_by_key_type(a->type, [&](auto kt) { return launch_radix_typed<decltype(kt), BITS, RANK>(a); });
}

/* Onesweep (radix.cuh): every 8-bit digit's counts in one read (4 digits of a 32-bit key, 8 of a 64-bit one), their
 * starts and the passes' plan (a pass whose digit is the same in every key is skipped), then one kernel a pass, and
 * a copy to out where the plan ends elsewhere. The workspace: the counts (256 ints a digit), the passes' tickets (an
 * int a pass) and the plan, cleared once a sort, room for 8 passes; then the look-back words, a tile's 256 a pass,
 * cleared before each pass. n below 2^30 (the words' counts are 30-bit). */
#define ONESWEEP_MAX_N ((1ll << 30) - 1)
static size_t onesweep_plan_offset(void) { return (RADIX_MAX_PASSES * 256 + RADIX_MAX_PASSES) * sizeof(int); }
static size_t onesweep_head_bytes(void)
{
    return sort_align(RADIX_MAX_PASSES * 256 + RADIX_MAX_PASSES + sizeof(radix_plan) / sizeof(int)) * sizeof(int);
}
static size_t onesweep_workspace(long long n)
{
    return onesweep_head_bytes() + (size_t)sort_grid(n, RADIX_TILE) * 256 * sizeof(unsigned);
}

template <typename KT, int BLOCK, int ITEMS, bool EARLY> static cudaError_t launch_onesweep_typed(const sort_args *a)
{
    typedef typename KT::bits K;
    constexpr int P = KT::BITS / 8;
    const long long n = a->n;
    const unsigned tiles = sort_grid(n, BLOCK * ITEMS);
    int *hist = (int *)a->radix_ws, *tickets = hist + RADIX_MAX_PASSES * 256;
    radix_plan *plan = (radix_plan *)((char *)a->radix_ws + onesweep_plan_offset());
    unsigned *status = (unsigned *)((char *)a->radix_ws + onesweep_head_bytes());
    const size_t status_bytes = (size_t)tiles * 256 * sizeof(unsigned);
    const K *in_k = (const K *)a->in_k;
    K *out_k = (K *)a->out_k, *tmp_k = (K *)a->tmp_k;
    cudaError_t e = cudaMemsetAsync(a->radix_ws, 0, onesweep_head_bytes(), a->s);
    if (e != cudaSuccess)
        return e;
    radix_histograms_kernel<KT, 256><<<tiles < 1024 ? tiles : 1024, 256, 0, a->s>>>(in_k, n, hist);
    radix_digit_starts_kernel<<<P, 256, 0, a->s>>>(hist);
    radix_plan_kernel<<<1, 32, 0, a->s>>>(hist, n, P, a->in_k == a->out_k, plan);
    e = cudaGetLastError();
    for (int p = 0; p < P && e == cudaSuccess; p++) {
        e = cudaMemsetAsync(status, 0, status_bytes, a->s);
        if (e != cudaSuccess)
            break;
        if (a->in_v)
            radix_onesweep_kernel<KT, BLOCK, ITEMS, true, EARLY><<<tiles, BLOCK, 0, a->s>>>(
                in_k, a->in_v, out_k, a->out_v, tmp_k, a->tmp_v, n, p, hist + 256 * p, status, tickets + p, plan);
        else
            radix_onesweep_kernel<KT, BLOCK, ITEMS, false, EARLY><<<tiles, BLOCK, 0, a->s>>>(
                in_k, a->in_v, out_k, a->out_v, tmp_k, a->tmp_v, n, p, hist + 256 * p, status, tickets + p, plan);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        const unsigned blocks = sort_grid(n, 256 * 8);
        radix_final_copy_kernel<K><<<blocks < 1024 ? blocks : 1024, 256, 0, a->s>>>(in_k, a->in_v, out_k, a->out_v,
                                                                                    tmp_k, a->tmp_v, n, plan);
        e = cudaGetLastError();
    }
    return e;
}

/* Onesweep's two tiles: the rung's, 256 x RADIX_ITEMS keys, for every key type; and the wide rung's, 384 threads of
 * 23 keys for 4-byte keys (the tile CUB's Onesweep takes for them on Hopper: its sm90 default) and of 11 for 8-byte
 * keys (about the same shared memory). The workspace onesweep_workspace sizes for the smaller tile serves both. */
#define ONESWEEP_WIDE_BLOCK 384
/* Two more tiles for 4-byte keys, choices of the tuned rung, each the tile CUB's Onesweep kernel runs on an H100 (its
 * kernel's launch, read by Nsight Compute): 384 x 19 (7,296 keys, three blocks an SM) for u32 keys, 384 x 17 (6,528,
 * two blocks an SM) for u32 pairs. */
#define ONESWEEP_MID_ITEMS 19
#define ONESWEEP_PAIRS_ITEMS 17
static constexpr int onesweep_wide_items_of(size_t key_bytes) { return key_bytes == 8 ? 11 : 23; }
template <typename KT> struct onesweep_wide {
    enum { items = onesweep_wide_items_of(sizeof(typename KT::bits)) };
};
static int onesweep_wide_items(climb_dtype t) { return onesweep_wide_items_of(climb_dtype_size(t)); }

static cudaError_t launch_onesweep_tile(const sort_args *a, int block, int items, int early)
{
    if (a->n <= 1)
        return sort_trivial(a);
    if (a->n > ONESWEEP_MAX_N || !a->radix_ws || a->radix_ws_bytes < onesweep_workspace(a->n))
        return cudaErrorInvalidValue;
    return sort_by_key_type(a->type, [&](auto kt) {
        typedef decltype(kt) KT;
        if (block == RADIX_BLOCK && items == RADIX_ITEMS)
            return early ? launch_onesweep_typed<KT, RADIX_BLOCK, RADIX_ITEMS, true>(a)
                         : launch_onesweep_typed<KT, RADIX_BLOCK, RADIX_ITEMS, false>(a);
        if (block == ONESWEEP_WIDE_BLOCK && items == (int)onesweep_wide<KT>::items && early)
            return launch_onesweep_typed<KT, ONESWEEP_WIDE_BLOCK, onesweep_wide<KT>::items, true>(a);
        if constexpr (KT::BITS == 32) {
            if (block == ONESWEEP_WIDE_BLOCK && items == ONESWEEP_MID_ITEMS && early)
                return launch_onesweep_typed<KT, ONESWEEP_WIDE_BLOCK, ONESWEEP_MID_ITEMS, true>(a);
            if (block == ONESWEEP_WIDE_BLOCK && items == ONESWEEP_PAIRS_ITEMS && early)
                return launch_onesweep_typed<KT, ONESWEEP_WIDE_BLOCK, ONESWEEP_PAIRS_ITEMS, true>(a);
        }
        return cudaErrorInvalidValue;
    });
}

/* The three Onesweep rungs: counts from the match.any ranking at the 256 x RADIX_ITEMS tile; early counts and
 * ballot matches at that tile; the same at the wide tile. The tuned rung takes the early counts at either tile. */
static cudaError_t launch_onesweep(const sort_args *a) { return launch_onesweep_tile(a, RADIX_BLOCK, RADIX_ITEMS, 0); }
static cudaError_t launch_onesweep_early(const sort_args *a)
{
    return launch_onesweep_tile(a, RADIX_BLOCK, RADIX_ITEMS, 1);
}
static cudaError_t launch_onesweep_wide(const sort_args *a)
{
    return launch_onesweep_tile(a, ONESWEEP_WIDE_BLOCK, onesweep_wide_items(a->type), 1);
}

/* The match-ranked three-kernel radix sort with its scan's workspace cleared first: for callers whose workspace is not
 * the rung's own (the scan leaves a workspace ready for its next call, but one shared with other work is not). */
static cudaError_t launch_match_rank_cleared(const sort_args *a)
{
    if (a->n > 1) {
        if (!a->radix_ws || a->radix_ws_bytes < radix_workspace(a->n, 8))
            return cudaErrorInvalidValue;
        const size_t counts = radix_counts_bytes(a->n, 8);
        const cudaError_t e =
            cudaMemsetAsync((char *)a->radix_ws + counts, 0, radix_workspace(a->n, 8) - counts, a->s);
        if (e != cudaSuccess)
            return e;
    }
    return launch_radix<8, RADIX_MATCH>(a);
}

/* The merge path rung: the tuned tile where the tuning is the merge's, else the class's built-in tile. */
static cudaError_t launch_merge_path(const sort_args *a)
{
    if (a->tn.algo == CLIMB_SORT_MERGE)
        return launch_merge_tile(a);
    sort_args b = *a;
    const sort_class_policy *p = &SORT_POLICY[a->in_v != NULL];
    b.tn.block = p->block;
    b.tn.items = p->items;
    b.tn.algo = CLIMB_SORT_MERGE;
    return launch_merge_tile(&b);
}

/* The tuned rung: the algorithm its tuning names for the case's class (keys or pairs, small or large). Onesweep from
 * 2^30 keys is the match-ranked radix sort (no 30-bit counts). u32 keys. */
static cudaError_t launch_tuned(const sort_args *a)
{
    switch (a->tn.algo) {
    case CLIMB_SORT_MERGE: return launch_merge_tile(a);
    case CLIMB_SORT_ONESWEEP:
        if (a->n <= ONESWEEP_MAX_N)
            return launch_onesweep_tile(a, a->tn.block, a->tn.items, 1);
        return launch_match_rank_cleared(a);
    case CLIMB_SORT_MATCH_RANK: return launch_match_rank_cleared(a);
    default: return cudaErrorInvalidValue;
    }
}

/* The radix sorts' own workspace (the larger of Onesweep's and the three-kernel sort's). */
static size_t sort_radix_own_workspace(size_t n)
{
    const size_t one = onesweep_workspace((long long)n), three = radix_workspace((long long)n, 8);
    return one > three ? one : three;
}

static_assert((int)RADIX_IN == (int)CLIMB_SORT_BUF_IN && (int)RADIX_OUT == (int)CLIMB_SORT_BUF_OUT &&
                  (int)RADIX_TMP == (int)CLIMB_SORT_BUF_TMP,
              "the plan's buffer names");
extern "C" int climb_sort_radix_plan(int passes, const int *trivial, int in_place, int *src, int *dst, int *result)
{
    if (passes < 0 || passes > RADIX_MAX_PASSES)
        return -1;
    radix_plan plan;
    radix_plan_make(passes, trivial, in_place, &plan);
    for (int p = 0; p < passes; p++) {
        src[p] = plan.src[p];
        dst[p] = plan.dst[p];
    }
    *result = plan.result;
    return plan.skipped;
}

extern "C" int climb_sort_lookback_step(const unsigned *words, unsigned *before, int *found)
{
    unsigned w[RADIX_LOOKBACK];
    for (int u = 0; u < RADIX_LOOKBACK; u++)
        w[u] = words[u];
    return radix_lookback_sum(w, before, found);
}

/* The vendor rungs. CUB's merge sort, copying from the input to the output: SortKeysCopy and SortPairsCopy. CUB
 * documents the copying forms as not guaranteed stable, but StableSortKeysCopy is SortKeysCopy, and both pairs forms
 * run the one merge-sort dispatch; the verification checks the order of equal keys on every run, so a form that
 * were not stable would fail there. CUB's radix sort (stable, out of place): the bar. */
/* The merge sort's comparator on a key type's bits: their codes' order (radix_key), the order of the radix rungs
 * and of CUB's radix sort (floats: -NaN first, +NaN last, -0 before +0). */
template <typename KT> struct sort_less {
    typedef typename KT::bits K;
    __device__ __forceinline__ bool operator()(const K &x, const K &y) const { return KT::code(x) < KT::code(y); }
};

/* The C type CUB's radix sort takes for a key type: it flips the bits of signed and float keys itself. */
template <typename KT> struct sort_cub_key { typedef typename KT::bits type; };
template <> struct sort_cub_key<radix_i32> { typedef int type; };
template <> struct sort_cub_key<radix_f32> { typedef float type; };

static cudaError_t cub_merge(const sort_args *a, void *tmp, size_t *bytes)
{
    return sort_by_key_type(a->type, [&](auto kt) {
        typedef decltype(kt) KT;
        typedef typename KT::bits K;
        const K *ik = (const K *)a->in_k;
        K *ok = (K *)a->out_k;
        if (a->in_v)
            return cub::DeviceMergeSort::SortPairsCopy(tmp, *bytes, ik, a->in_v, ok, a->out_v, a->n, sort_less<KT>(),
                                                       a->s);
        return cub::DeviceMergeSort::StableSortKeysCopy(tmp, *bytes, ik, ok, a->n, sort_less<KT>(), a->s);
    });
}

static cudaError_t cub_radix(const sort_args *a, void *tmp, size_t *bytes)
{
    return sort_by_key_type(a->type, [&](auto kt) {
        typedef decltype(kt) KT;
        typedef typename sort_cub_key<KT>::type K;
        const K *ik = (const K *)a->in_k;
        K *ok = (K *)a->out_k;
        if (a->in_v)
            return cub::DeviceRadixSort::SortPairs(tmp, *bytes, ik, ok, a->in_v, a->out_v, a->n, 0, KT::BITS, a->s);
        return cub::DeviceRadixSort::SortKeys(tmp, *bytes, ik, ok, a->n, 0, KT::BITS, a->s);
    });
}

static cudaError_t launch_cub_merge(const sort_args *a)
{
    if (a->n == 0)
        return cudaSuccess;
    size_t bytes = a->vendor_ws_bytes;
    return cub_merge(a, a->vendor_ws, &bytes);
}

static cudaError_t launch_cub_radix(const sort_args *a)
{
    if (a->n == 0)
        return cudaSuccess;
    size_t bytes = a->vendor_ws_bytes;
    return cub_radix(a, a->vendor_ws, &bytes);
}

/* ---------------------------------------------------------------- the registry */

typedef cudaError_t (*sort_launch_fn)(const sort_args *a);

static int k_naive(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_merge_naive_kernel<false>, 256, 0, "sort_merge_naive_kernel<keys>");
    return climb_kernel_at(o, max, n, (const void *)sort_merge_naive_kernel<true>, 256, 0, "sort_merge_naive_kernel<pairs>");
}

static int k_block(climb_dtype t, const climb_device_info *d, const int *v, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_block_smem_kernel<false>, SORT_SMEM_BLOCK, 0,
                            "sort_block_smem_kernel<keys>");
    n = climb_kernel_at(o, max, n, (const void *)sort_block_smem_kernel<true>, SORT_SMEM_BLOCK, 0,
                        "sort_block_smem_kernel<pairs>");
    climb_kernel_desc rest[2];
    const int m = k_naive(t, d, v, rest, 2);
    for (int i = 0; i < m; i++)
        n = climb_kernel_at(o, max, n, rest[i].func, rest[i].block_threads, 0, "%s", rest[i].name);
    return n;
}

/* A radix rung's kernels for keys of type t: the counts, the scatters (keys, pairs) and the scan of the counts. */
template <int BITS, int RANK>
static int k_radix(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = 0;
    sort_by_key_type(t, [&](auto kt) {
        typedef decltype(kt) KT;
        n = climb_kernel_at(o, max, 0, (const void *)radix_count_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS>,
                            RADIX_BLOCK, 0, "radix_count_kernel<%s, %d bits>", climb_dtype_name(t), BITS);
        n = climb_kernel_at(o, max, n,
                            (const void *)radix_scatter_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS, RANK, false>,
                            RADIX_BLOCK, 0, "radix_scatter_kernel<%s, %d bits, keys>", climb_dtype_name(t), BITS);
        n = climb_kernel_at(o, max, n,
                            (const void *)radix_scatter_kernel<KT, BITS, RADIX_BLOCK, RADIX_ITEMS, RANK, true>,
                            RADIX_BLOCK, 0, "radix_scatter_kernel<%s, %d bits, pairs>", climb_dtype_name(t), BITS);
        return cudaSuccess;
    });
    return climb_kernel_at(o, max, n, climb_scan_best_kernel(&RADIX_SCAN, CLIMB_I32, 1), RADIX_SCAN.block, 0,
                           "the digit counts' scan (climb_scan_best, %d x %d)", RADIX_SCAN.block, RADIX_SCAN.items);
}

/* Onesweep's kernels for keys of type t at a tile of block x items (either of its two tiles; the wide one early
 * counts only), early counts or not. */
static int k_onesweep_tile(climb_dtype t, int block, int items, int early, climb_kernel_desc *o, int max)
{
    int n = 0;
    sort_by_key_type(t, [&](auto kt) {
        typedef decltype(kt) KT;
        const char *kn = climb_dtype_name(t);
        n = climb_kernel_at(o, max, 0, (const void *)radix_histograms_kernel<KT, 256>, 256, 0,
                            "radix_histograms_kernel<%s>", kn);
        n = climb_kernel_at(o, max, n, (const void *)radix_final_copy_kernel<typename KT::bits>, 256, 0,
                            "radix_final_copy_kernel<%d-bit keys>", KT::BITS);
        constexpr int WI = onesweep_wide<KT>::items;
        /* the other 384-thread tiles: 4-byte keys only */
        constexpr int MI = KT::BITS == 32 ? ONESWEEP_MID_ITEMS : WI, PI = KT::BITS == 32 ? ONESWEEP_PAIRS_ITEMS : WI;
        const int wide = block == ONESWEEP_WIDE_BLOCK && items == WI;
        const int mid = block == ONESWEEP_WIDE_BLOCK && items == MI && !wide;
        const int pt = block == ONESWEEP_WIDE_BLOCK && items == PI && !wide;
        const void *keys = wide    ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, WI, false, true>
                           : mid   ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, MI, false, true>
                           : pt    ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, PI, false, true>
                           : early ? (const void *)radix_onesweep_kernel<KT, RADIX_BLOCK, RADIX_ITEMS, false, true>
                                   : (const void *)radix_onesweep_kernel<KT, RADIX_BLOCK, RADIX_ITEMS, false, false>;
        const void *pairs = wide    ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, WI, true, true>
                            : mid   ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, MI, true, true>
                            : pt    ? (const void *)radix_onesweep_kernel<KT, ONESWEEP_WIDE_BLOCK, PI, true, true>
                            : early ? (const void *)radix_onesweep_kernel<KT, RADIX_BLOCK, RADIX_ITEMS, true, true>
                                    : (const void *)radix_onesweep_kernel<KT, RADIX_BLOCK, RADIX_ITEMS, true, false>;
        const int b = wide || mid || pt ? ONESWEEP_WIDE_BLOCK : RADIX_BLOCK,
                  i = wide ? WI : mid ? MI : pt ? PI : RADIX_ITEMS;
        const char *how = wide || mid || pt || early ? "early counts" : "match.any";
        n = climb_kernel_at(o, max, n, keys, b, 0, "radix_onesweep_kernel<%s, keys, %d x %d, %s>", kn, b, i, how);
        n = climb_kernel_at(o, max, n, pairs, b, 0, "radix_onesweep_kernel<%s, pairs, %d x %d, %s>", kn, b, i, how);
        return cudaSuccess;
    });
    n = climb_kernel_at(o, max, n, (const void *)radix_digit_starts_kernel, 256, 0, "radix_digit_starts_kernel");
    return climb_kernel_at(o, max, n, (const void *)radix_plan_kernel, 32, 0, "radix_plan_kernel");
}

static int k_onesweep(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_onesweep_tile(t, RADIX_BLOCK, RADIX_ITEMS, 0, o, max);
}

static int k_onesweep_early(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_onesweep_tile(t, RADIX_BLOCK, RADIX_ITEMS, 1, o, max);
}

static int k_onesweep_wide(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_onesweep_tile(t, ONESWEEP_WIDE_BLOCK, onesweep_wide_items(t), 1, o, max);
}

template <bool CIRCULAR> static int k_tiled(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)sort_block_smem_kernel<false>, SORT_SMEM_BLOCK, 0,
                            "sort_block_smem_kernel<keys>");
    n = climb_kernel_at(o, max, n, (const void *)sort_block_smem_kernel<true>, SORT_SMEM_BLOCK, 0,
                        "sort_block_smem_kernel<pairs>");
    n = climb_kernel_at(o, max, n, (const void *)sort_merge_tiled_kernel<false, CIRCULAR>, SORT_TILED_BLOCK, 0,
                        "sort_merge_tiled_kernel<keys, %s>", CIRCULAR ? "circular" : "tiled");
    return climb_kernel_at(o, max, n, (const void *)sort_merge_tiled_kernel<true, CIRCULAR>, SORT_TILED_BLOCK, 0,
                           "sort_merge_tiled_kernel<pairs, %s>", CIRCULAR ? "circular" : "tiled");
}

/* The best rung's kernels for values v, each allowed its shared memory past 48 KB first (the runtime's occupancy
 * counts it, as a launch does). */
static int k_best(climb_dtype, const climb_device_info *, const int *v, climb_kernel_desc *o, int max)
{
    const int merge = !v || v[2] == CLIMB_SORT_MERGE; /* else the merge path rung runs the built-in tile */
    const climb_sort_tuning t = {merge && v ? v[0] : SORT_POLICY[0].block, merge && v ? v[1] : SORT_POLICY[0].items,
                                 CLIMB_SORT_MERGE};
    const sort_best_instance *in = sort_instance(&t);
    if (!in)
        return 0;
    int n = 0;
    for (int pairs = 0; pairs < 2; pairs++) {
        const size_t smem = sort_best_smem(in, pairs);
        if (smem > 48 * 1024 && (cudaFuncSetAttribute(in->block_fn[pairs], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      (int)smem) != cudaSuccess ||
                                 cudaFuncSetAttribute(in->merge_fn[pairs], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      (int)smem) != cudaSuccess))
            cudaGetLastError(); /* no device (listing only): the runtime is not asked then */
        n = climb_kernel_at(o, max, n, in->block_fn[pairs], in->block, smem, "sort_best_block_kernel<%d, %d, %s>",
                            in->block, in->items, pairs ? "pairs" : "keys");
        n = climb_kernel_at(o, max, n, in->merge_fn[pairs], in->block, smem, "sort_best_merge_kernel<%d, %d, %s>",
                            in->block, in->items, pairs ? "pairs" : "keys");
    }
    return climb_kernel_at(o, max, n, (const void *)sort_partition_kernel, SORT_PARTITION_BLOCK, 0,
                           "sort_partition_kernel");
}

/* The tuned rung's kernels: those of the algorithm its values name. */
static int k_tuned(climb_dtype, const climb_device_info *dev, const int *v, climb_kernel_desc *o, int max)
{
    if (v && v[2] == CLIMB_SORT_ONESWEEP)
        return k_onesweep_tile(CLIMB_U32, v[0], v[1], 1, o, max);
    if (v && v[2] == CLIMB_SORT_MATCH_RANK)
        return k_radix<8, RADIX_MATCH>(CLIMB_U32, dev, v, o, max);
    return k_best(CLIMB_U32, dev, v, o, max);
}

/* The rows' launches take the pass drivers' arguments, not the case: the run hook makes those and calls them. */
typedef cudaError_t (*sort_cub_fn)(const sort_args *a, void *tmp, size_t *bytes);

typedef struct sort_rung {
    climb_rung_info info;
    sort_launch_fn launch;
    sort_cub_fn cub;         /* a CUB rung: its call, whose temporary storage prepare sizes (NULL for the ladder) */
    int radix_bits;          /* a radix rung: its digit's bits (its workspace: radix_workspace); 0 for the others */
    int onesweep;            /* the Onesweep rung (its workspace: onesweep_workspace; n up to ONESWEEP_MAX_N) */
    int tuned;               /* the tuned rung: the algorithm its tuning names (the radix sorts' workspace) */
} sort_rung;

static const sort_rung SORT_RUNGS[] = {
    {.info = {.name = "cub_radix_sort", .idea = "vendor: cub::DeviceRadixSort (SortKeys, SortPairs: Onesweep, stable): "
                                                "the bar, the sort a CUDA user reaches for first",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cub_radix, .cub = cub_radix},
    {.info = {.name = "cub_merge_sort", .idea = "vendor: cub::DeviceMergeSort (SortKeysCopy, SortPairsCopy: its stable "
                                                "merge sort): the merge rungs' reference, beside the bar",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL, .beside = 1},
     .launch = launch_cub_merge, .cub = cub_merge},
    {.info = {.name = "corank_naive", .idea = "a thread per output finds its element by the co-rank; log2(n) merge "
                                              "passes over doubling runs from 1",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive},
     .launch = launch_naive},
    {.info = {.name = "block_sort", .idea = "tiles of 1024 keys sorted by one block in shared memory first: 10 fewer "
                                            "global passes",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_block},
     .launch = launch_block_sort},
    {.info = {.name = "tiled_merge", .idea = "co-rank at block boundaries, a and b staged through shared memory a "
                                             "tile at a time, a thread merging several outputs serially",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled<false>},
     .launch = launch_tiled<false>},
    {.info = {.name = "circular_buffer", .idea = "the tiles as circular buffers: only what a step consumed is loaded "
                                                 "again",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tiled<true>},
     .launch = launch_tiled<true>},
    {.info = {.name = "register_merge_path", .idea = "many keys a thread in registers: sorted there, merged by merge "
                                                     "path in shared memory; tiles of thousands, one pass a doubling",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_best},
     .launch = launch_merge_path},
    {.info = {.name = "radix_bit_split", .idea = "LSD radix sort, one bit a pass (32 passes): the tiles' zeros and "
                                                 "ones counted, scanned, and each tile split by a block scan, every "
                                                 "key written straight to its place",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix<1, RADIX_DIRECT>},
     .launch = launch_radix<1, RADIX_DIRECT>, .radix_bits = 1},
    {.info = {.name = "radix_local_sort", .idea = "4-bit digits (8 passes), each tile sorted by its digit in shared "
                                                  "memory first (4 splits): a warp's writes fall in runs of "
                                                  "consecutive addresses",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix<4, RADIX_SPLITS>},
     .launch = launch_radix<4, RADIX_SPLITS>, .radix_bits = 4},
    {.info = {.name = "radix_wide_digits", .idea = "8-bit digits (4 passes): half the passes over memory for twice "
                                                   "the splits in shared memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix<8, RADIX_SPLITS>},
     .launch = launch_radix<8, RADIX_SPLITS>, .radix_bits = 8},
    {.info = {.name = "radix_match_rank", .idea = "8-bit digits ranked in one round a key, not one split a bit: "
                                                  "each warp matches the lanes that share a digit and keeps a "
                                                  "counter a digit (warp-level multisplit)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix<8, RADIX_MATCH>},
     .launch = launch_radix<8, RADIX_MATCH>, .radix_bits = 8},
    {.info = {.name = "radix_onesweep", .idea = "one kernel a pass (Onesweep): every digit counted in one read "
                                                "first, then each tile ranked and its digits' places found by "
                                                "decoupled look-back over the tiles before it",
              .needs = "n below 2^30", .kind = CLIMB_RUNG_LADDER, .kernels = k_onesweep},
     .launch = launch_onesweep, .radix_bits = 8, .onesweep = 1},
    {.info = {.name = "radix_onesweep_early", .idea = "early counts: each tile's digits counted by shared-memory "
                                                      "atomics and published before it is ranked; the lanes sharing "
                                                      "a digit found by 8 ballots, not match.any; a tile of one digit "
                                                      "left as it is",
              .needs = "n below 2^30", .kind = CLIMB_RUNG_LADDER, .kernels = k_onesweep_early},
     .launch = launch_onesweep_early, .radix_bits = 8, .onesweep = 1},
    {.info = {.name = "radix_onesweep_wide", .idea = "Onesweep at a tile of 384 x 23 keys (4-byte keys; 384 x 11 for "
                                                     "8-byte ones), 3.8 times the rung's: a quarter of the tiles to "
                                                     "look back over, each block's fixed work over more keys",
              .needs = "n below 2^30", .kind = CLIMB_RUNG_LADDER, .kernels = k_onesweep_wide},
     .launch = launch_onesweep_wide, .radix_bits = 8, .onesweep = 1},
    {.info = {.name = "tuned", .idea = "the fastest of the merge path (its tile tuned) and the radix sorts, chosen by "
                                       "measurement for each class of case (keys or pairs; to 2^16 keys, to "
                                       "655,360, from there)",
              .needs = "u32 keys", .kind = CLIMB_RUNG_BEST, .kernels = k_tuned},
     .launch = launch_tuned, .tuned = 1},
};
#define SORT_N_RUNGS CLIMB_COUNT(SORT_RUNGS)
static const climb_rung_info *sort_rung_info(int i) { return &SORT_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning */

static const climb_tunable SORT_TUNABLES[] = {
    {.name = "block", .meaning = "threads per block", .values = SORT_TUNE_BLOCKS, .n_values = CLIMB_COUNT(SORT_TUNE_BLOCKS)},
    {.name = "items", .meaning = "keys per thread (odd: conflict-free shared memory)", .values = SORT_TUNE_ITEMS,
     .n_values = CLIMB_COUNT(SORT_TUNE_ITEMS)},
    {.name = "algo", .meaning = "0 the merge path (block x items), 1 Onesweep, 2 the match-ranked three-kernel radix "
                                "sort",
     .values = SORT_TUNE_ALGOS, .n_values = CLIMB_COUNT(SORT_TUNE_ALGOS)},
};

static const char *sort_tuning_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)dev;
    const int pairs = k && k->opts && k->opts[OPT_WHAT].choice == 1;
    const int cls = k ? sort_class(k->shape.d[0]) : SORT_SMALL;
    const sort_class_policy *p = &SORT_POLICY[pairs];
    v[0] = p->block;
    v[1] = p->items;
    v[2] = CLIMB_SORT_MERGE;
    if (cls == SORT_LARGE) { /* Onesweep at its wide tile, as measured */
        v[0] = ONESWEEP_WIDE_BLOCK;
        v[1] = onesweep_wide_items(CLIMB_U32);
        v[2] = CLIMB_SORT_ONESWEEP;
        return pairs ? "built-in (measured on an H100 at 5b53594 and 178ad55: pairs from 655,360 keys, Onesweep at "
                       "384 x 23, 1.09x its 256 x 9 tile at 2^20, 1.11x to 1.28x from 2^22; 1.47x the merge path at "
                       "2^20)"
                     : "built-in (measured on an H100 at 5b53594 and 178ad55: keys from 655,360, Onesweep at 384 x 23, "
                       "1.13x its 256 x 9 tile at 2^20, 1.15x to 1.22x from 2^22; 1.33x the merge path at 2^20)";
    }
    if (cls == SORT_MEDIUM || pairs) { /* Onesweep at its 256 x 9 tile, as measured (pairs: small too) */
        v[0] = RADIX_BLOCK;
        v[1] = RADIX_ITEMS;
        v[2] = CLIMB_SORT_ONESWEEP;
        if (cls == SORT_SMALL)
            return "built-in (measured on an H100 at 5b53594: pairs at 2^16, Onesweep at 256 x 9, 57.8 us against the "
                   "merge path's 64.1 and CUB's 61.9)";
        return pairs ? "built-in (measured on an H100 at 5b53594 and 178ad55: pairs from 65,537 to 655,360 keys, "
                       "Onesweep at 256 x 9, 1.26x its wide tile and 1.37x the merge path at 2^18)"
                     : "built-in (measured on an H100 at 5b53594, 178ad55 and b947430: keys from 65,537 to 655,360, "
                       "Onesweep at 256 x 9, 1.19x its wide tile and 1.28x the merge path at 2^18; 1.18x the merge "
                       "path near 81,920)";
    }
    return p->source;
}

/* The size class: to 2^16 keys, to 655,360, or from there (the crossovers measured). */
static void sort_shape_class(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len)
{
    (void)dev;
    static const char *const names[] = {"small", "medium", "large"};
    snprintf(buf, len, "%s", names[sort_class(k->shape.d[0])]);
}

/* The tile with values must fit the device's shared memory for a block. */
static const char *sort_tuning_rejects(const climb_device_info *dev, const int *v)
{
    return (size_t)v[0] * v[1] * 8 > dev->smem_per_block_optin ? "a tile of pairs over the shared memory a block may "
                                                                 "have"
                                                               : NULL;
}

static const climb_tuning SORT_TUNING = {
    .params = SORT_TUNABLES,
    .n_params = CLIMB_COUNT(SORT_TUNABLES),
    .candidates = SORT_TUNE_CANDIDATES,
    .n_candidates = CLIMB_COUNT(SORT_TUNE_CANDIDATES) / CLIMB_COUNT(SORT_TUNABLES),
    .defaults = sort_tuning_defaults,
    .rejects = sort_tuning_rejects,
    .shape_class = sort_shape_class,
    .shape_class_meaning = "small (to 65,536 keys), medium (65,537 to 655,359) or large (from 655,360)",
};

extern "C" void climb_sort_set_tuning(climb_sort_tuning *t, const int *v)
{
    t->block = v[0];
    t->items = v[1];
    t->algo = v[2];
}

/* ---------------------------------------------------------------- the library face */

static cudaError_t sort_radix_path(climb_dtype t, int algo, int block, int items, const void *in_keys,
                                   const uint32_t *in_vals, void *out_keys, uint32_t *out_vals, size_t n, void *ws,
                                   size_t ws_bytes, cudaStream_t s);

extern "C" size_t climb_sort_best_workspace(const climb_sort_tuning *t, size_t n, int pairs)
{
    if (t->algo != CLIMB_SORT_MERGE)
        return climb_sort_radix_workspace(CLIMB_U32, n, pairs);
    const sort_best_instance *in = sort_instance(t);
    const size_t tile = in ? (size_t)in->block * in->items : 1;
    return sort_align(n * 4) * (pairs ? 2 : 1) + sort_align((n / tile + 2) * sizeof(int));
}

extern "C" cudaError_t climb_sort_best(const climb_sort_tuning *t, const uint32_t *in_keys, const uint32_t *in_vals,
                                       uint32_t *out_keys, uint32_t *out_vals, size_t n, void *ws, size_t ws_bytes,
                                       int cc_major, cudaStream_t s)
{
    const int pairs = in_vals != NULL;
    if (t->algo != CLIMB_SORT_MERGE) /* a radix sort: the radix path, its algorithm as tuned */
        return t->algo == CLIMB_SORT_ONESWEEP || t->algo == CLIMB_SORT_MATCH_RANK
                   ? sort_radix_path(CLIMB_U32, t->algo, t->block, t->items, in_keys, in_vals, out_keys, out_vals,
                                     n, ws, ws_bytes, s)
                   : cudaErrorInvalidValue;
    if (n > CLIMB_SORT_MAX_N || (pairs && !out_vals) || !sort_instance(t) ||
        ws_bytes < climb_sort_best_workspace(t, n, pairs))
        return cudaErrorInvalidValue;
    char *w = (char *)ws;
    sort_args a;
    memset(&a, 0, sizeof a);
    a.in_k = in_keys;
    a.in_v = in_vals;
    a.out_k = out_keys;
    a.out_v = pairs ? out_vals : NULL;
    a.tmp_k = (u32 *)w;
    a.tmp_v = pairs ? (u32 *)(w + sort_align(n * 4)) : NULL;
    a.part = (int *)(w + sort_align(n * 4) * (pairs ? 2 : 1));
    a.n = (long long)n;
    a.tn = *t;
    a.pdl = cc_major >= 9;
    a.type = CLIMB_U32;
    a.s = s;
    return launch_merge_tile(&a);
}

/* The radix path of the library face: any key type of the workload, Onesweep below 2^30 keys, the match-ranked
 * three-kernel rung from there (its scan's workspace cleared each call: the handle's workspace is shared). The
 * workspace: the second buffer of keys (and values), then the larger of the two rungs' own. */
extern "C" size_t climb_sort_radix_workspace(climb_dtype t, size_t n, int pairs)
{
    return sort_align(n * climb_dtype_size(t)) + (pairs ? sort_align(n * 4) : 0) + sort_radix_own_workspace(n);
}

/* The radix path: Onesweep at a tile of block x items (algo CLIMB_SORT_ONESWEEP; from 2^30 keys the match-ranked
 * sort) or the match-ranked three-kernel sort (CLIMB_SORT_MATCH_RANK). */
static cudaError_t sort_radix_path(climb_dtype t, int algo, int block, int items, const void *in_keys,
                                   const uint32_t *in_vals, void *out_keys, uint32_t *out_vals, size_t n, void *ws,
                                   size_t ws_bytes, cudaStream_t s)
{
    const int pairs = in_vals != NULL;
    if (!(SORT_KEY_TYPES & CLIMB_TYPE_BIT(t)) || n > CLIMB_SORT_MAX_N ||
        (pairs && !out_vals) || ws_bytes < climb_sort_radix_workspace(t, n, pairs))
        return cudaErrorInvalidValue;
    char *w = (char *)ws;
    const size_t kb = sort_align(n * climb_dtype_size(t)), vb = pairs ? sort_align(n * 4) : 0;
    sort_args a;
    memset(&a, 0, sizeof a);
    a.in_k = (const u32 *)in_keys;
    a.in_v = in_vals;
    a.out_k = (u32 *)out_keys;
    a.out_v = pairs ? out_vals : NULL;
    a.tmp_k = (u32 *)w;
    a.tmp_v = pairs ? (u32 *)(w + kb) : NULL;
    a.n = (long long)n;
    a.radix_ws = w + kb + vb;
    a.radix_ws_bytes = ws_bytes - kb - vb;
    a.type = t;
    a.s = s;
    return algo == CLIMB_SORT_ONESWEEP && n <= (size_t)ONESWEEP_MAX_N ? launch_onesweep_tile(&a, block, items, 1)
                                                                      : launch_match_rank_cleared(&a);
}

/* Onesweep's wide tile from 655,360 4-byte keys, the tuned rung's large class (measured on u32 keys and pairs at
 * 5b53594: 1.09x to 1.13x the 256 x 9 tile at 2^20, 1.11x to 1.28x from 2^22 at f0b2979); the 256 x 9 tile below,
 * and for 8-byte keys. */
extern "C" cudaError_t climb_sort_radix(climb_dtype t, const void *in_keys, const uint32_t *in_vals, void *out_keys,
                                        uint32_t *out_vals, size_t n, void *ws, size_t ws_bytes, cudaStream_t s)
{
    const int wide = sort_class(n) == SORT_LARGE && climb_dtype_size(t) == 4;
    return sort_radix_path(t, CLIMB_SORT_ONESWEEP, wide ? ONESWEEP_WIDE_BLOCK : RADIX_BLOCK,
                           wide ? onesweep_wide_items(t) : RADIX_ITEMS,
                           in_keys, in_vals, out_keys, out_vals, n, ws, ws_bytes, s);
}

/* ---------------------------------------------------------------- options */

static const char *const SORT_DISTS[] = {"uniform", "sorted", "reverse", "few", "nearly", "narrow", NULL};
static const char *const SORT_WHAT[] = {"keys", "pairs", NULL};
static constexpr climb_option SORT_OPTIONS[] = {
    {.name = "what", .kind = CLIMB_OPT_CHOICE,
     .meaning = "keys (keys alone) or pairs (keys, each with a u32 value carried along; stability checked)",
     .def = "keys,pairs", .choices = SORT_WHAT, .keys_tuning = 1},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE,
     .meaning = "keys, by their order's codes: uniform (every bit pattern alike: f32 keys include infinities and "
                "NaNs), sorted, reverse (sorted backwards), few (16 distinct values: long runs of ties), nearly "
                "(sorted, 1% of positions swapped), narrow (16 bits: u32 and u64 keys below 2^16, i32 keys 0 .. 65535, "
                "f32 keys +0 and the smallest subnormals)",
     .def = "uniform", .choices = SORT_DISTS, .generator = 1},
};
CLIMB_OPTION_AT(SORT_OPTIONS, OPT_WHAT, "what");
CLIMB_OPTION_AT(SORT_OPTIONS, OPT_DIST, "dist");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    size_t n, es;            /* keys, and a key's bytes (the case's type: u32, i32, f32 or u64) */
    int pairs, dist;
    void *h_k, *d_in_k;      /* the input keys */
    u32 *h_v, *d_in_v;       /* the input values */
    void *h_out_k, *d_out_k; /* the output, and verify's download */
    u32 *h_out_v, *d_out_v;
    void *d_tmp_k;           /* the passes' second buffer */
    u32 *d_tmp_v;
    int *d_part;             /* the best rung's partitions */
    void *ref_k;             /* the input sorted on the CPU */
    u32 *ref_v;
    void *d_vendor;
    size_t vendor_bytes;
    void *d_radix;           /* a radix rung's workspace (prepare) */
    size_t radix_bytes;
    int skipped;             /* the Onesweep rung's last run: the passes its plan skipped (-1: not known) */
    char note[120];
    climb_sort_tuning tn;
};

static void sort_fini(climb_case *c)
{
    cudaFree(c->d_vendor);
    cudaFree(c->d_radix);
}

static sort_args sort_case_args(const climb_case *c, cudaStream_t s)
{
    sort_args a;
    memset(&a, 0, sizeof a);
    a.in_k = (const u32 *)c->d_in_k; /* keys of the case's type (a.type) */
    a.in_v = c->pairs ? c->d_in_v : NULL;
    a.out_k = (u32 *)c->d_out_k;
    a.out_v = c->pairs ? c->d_out_v : NULL;
    a.tmp_k = (u32 *)c->d_tmp_k;
    a.tmp_v = c->pairs ? c->d_tmp_v : NULL;
    a.part = c->d_part;
    a.n = (long long)c->n;
    a.vendor_ws = c->d_vendor;
    a.vendor_ws_bytes = c->vendor_bytes;
    a.radix_ws = c->d_radix;
    a.radix_ws_bytes = c->radix_bytes;
    a.tn = c->tn;
    a.pdl = c->p.dev && c->p.dev->cc_major >= 9;
    a.type = c->p.type;
    a.s = s;
    return a;
}

static int sort_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->es = climb_dtype_size(c->p.type);
    c->pairs = c->p.opts[OPT_WHAT].choice == 1;
    c->dist = c->p.opts[OPT_DIST].choice;
    c->skipped = -1;
    c->tn.block = SORT_POLICY[c->pairs].block;
    c->tn.items = SORT_POLICY[c->pairs].items;
    c->tn.algo = CLIMB_SORT_MERGE; /* until the harness sets the tuned values */
    if (c->n > CLIMB_SORT_MAX_N) {
        fprintf(stderr, "climb: sort n = %zu: indices are 32-bit, so n must be below 2^31\n", c->n);
        return -1;
    }
    return 0;
}

/* The input, and the reference: the input sorted by the CPU's radix sort (its scratch allocated there). */
static int sort_fill(climb_case *c)
{
    climb_sort_generate_typed(c->p.seed, c->dist, c->p.type, c->h_k, c->h_v, c->n);
    memcpy(c->ref_k, c->h_k, c->n * c->es);
    if (c->pairs)
        memcpy(c->ref_v, c->h_v, c->n * 4);
    if (climb_sort_ref_typed(c->p.type, c->ref_k, c->pairs ? c->ref_v : NULL, c->n) != 0)
        return climb_host_oom("the reference sort's scratch (%zu keys)", c->n);
    return 0;
}

static size_t keys_bytes(const climb_case *c) { return (c->n ? c->n : 1) * c->es; }
static size_t vals_bytes(const climb_case *c) { return c->pairs ? (c->n ? c->n : 1) * 4 : 0; }
static size_t part_bytes(const climb_case *c) { return ((c->n ? c->n : 1) / 64 + 2) * sizeof(int); }

#define SORT_IO (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)
/* The outputs' poison, 0xA5 in every byte: a uniform input has no run of n equal keys, so the first element that
 * was not written says so. The keys' input starts `offset` elements past alignment; the values' (pairs only) not. */
static const climb_buffer SORT_BUFFERS[] = {
    {.name = "keys in", .flags = SORT_IO | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET, .bytes = keys_bytes,
     .host_at = offsetof(climb_case, h_k), .device_at = offsetof(climb_case, d_in_k)},
    {.name = "values in", .flags = SORT_IO | CLIMB_BUF_INPUT, .bytes = vals_bytes,
     .host_at = offsetof(climb_case, h_v), .device_at = offsetof(climb_case, d_in_v)},
    {.name = "keys out", .flags = SORT_IO | CLIMB_BUF_OUTPUT, .bytes = keys_bytes,
     .host_at = offsetof(climb_case, h_out_k), .device_at = offsetof(climb_case, d_out_k), .poison = 0xA5},
    {.name = "values out", .flags = SORT_IO | CLIMB_BUF_OUTPUT, .bytes = vals_bytes,
     .host_at = offsetof(climb_case, h_out_v), .device_at = offsetof(climb_case, d_out_v), .poison = 0xA5},
    {.name = "keys between passes", .flags = CLIMB_BUF_DEVICE, .bytes = keys_bytes,
     .device_at = offsetof(climb_case, d_tmp_k)},
    {.name = "values between passes", .flags = CLIMB_BUF_DEVICE, .bytes = vals_bytes,
     .device_at = offsetof(climb_case, d_tmp_v)},
    {.name = "partitions", .flags = CLIMB_BUF_DEVICE, .bytes = part_bytes, .device_at = offsetof(climb_case, d_part)},
    {.name = "sorted keys", .flags = CLIMB_BUF_HOST, .bytes = keys_bytes, .host_at = offsetof(climb_case, ref_k)},
    {.name = "sorted values", .flags = CLIMB_BUF_HOST, .bytes = vals_bytes, .host_at = offsetof(climb_case, ref_v)},
};
#undef SORT_IO

static const char *sort_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%s %s %s keys%s; input starts %u elements past alignment", c->pairs ? "pairs of" : "",
             SORT_DISTS[c->dist], climb_dtype_name(c->p.type), c->pairs ? " and uniform u32 values" : "",
             c->p.offset);
    return buf;
}

static int sort_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode; /* the CPU radix sort is cheap at every size */
    snprintf(desc, desclen, "CPU stable LSD radix sort by the keys' codes, every element (keys%s), exact",
             c->pairs ? " and values" : "");
    return 0;
}

/* CUB's temporary storage; a radix rung's counts and scan workspace (zeroed: the scan's flags start clear). */
/* The rung whose algorithm a rung runs on this case: itself, or for the tuned rung the ladder rung its tuning names
 * (by name). */
static int sort_rung_named(const char *name)
{
    for (int i = 0; i < (int)SORT_N_RUNGS; i++)
        if (strcmp(SORT_RUNGS[i].info.name, name) == 0)
            return i;
    return -1;
}

static int sort_runs_as(const climb_case *c, int rung)
{
    if (!SORT_RUNGS[rung].tuned)
        return rung;
    if (c->tn.algo == CLIMB_SORT_MERGE)
        return sort_rung_named("register_merge_path");
    if (c->tn.algo == CLIMB_SORT_ONESWEEP && c->n <= (size_t)ONESWEEP_MAX_N)
        return sort_rung_named(c->tn.block == ONESWEEP_WIDE_BLOCK ? "radix_onesweep_wide" : "radix_onesweep_early");
    return sort_rung_named("radix_match_rank");
}

static int sort_prepare(climb_case *c, int rung)
{
    if (SORT_RUNGS[rung].tuned && c->tn.algo != CLIMB_SORT_MERGE) { /* either radix sort's workspace, cleared */
        if (climb_grow_device_buffer(&c->d_radix, &c->radix_bytes, sort_radix_own_workspace(c->n)) != 0)
            return -1;
        CLIMB_CHECK(cudaMemset(c->d_radix, 0, c->radix_bytes));
        return 0;
    }
    if (SORT_RUNGS[rung].radix_bits) {
        const size_t bytes = SORT_RUNGS[rung].onesweep ? onesweep_workspace((long long)c->n)
                                                       : radix_workspace((long long)c->n, SORT_RUNGS[rung].radix_bits);
        if (climb_grow_device_buffer(&c->d_radix, &c->radix_bytes, bytes) != 0)
            return -1;
        CLIMB_CHECK(cudaMemset(c->d_radix, 0, c->radix_bytes));
        return 0;
    }
    sort_args a = sort_case_args(c, 0);
    if (SORT_RUNGS[rung].cub) {
        size_t bytes = 0;
        const cudaError_t e = SORT_RUNGS[rung].cub(&a, NULL, &bytes);
        if (CLIMB_FAILED(e))
            return -1;
        return climb_grow_device_buffer(&c->d_vendor, &c->vendor_bytes, bytes ? bytes : 1);
    }
    return 0;
}

static void sort_release(climb_case *c, int rung)
{
    (void)rung;
    if (c->d_vendor)
        cudaFree(c->d_vendor);
    c->d_vendor = NULL;
    c->vendor_bytes = 0;
    if (c->d_radix)
        cudaFree(c->d_radix);
    c->d_radix = NULL;
    c->radix_bytes = 0;
}

/* The tuned rung: the algorithm it ran. Onesweep (the rung, or the tuned rung running it): how many of its passes
 * the last run skipped (a digit the same in every key), where any was. */
static const char *sort_rung_note(climb_case *c, int rung)
{
    const int as = sort_runs_as(c, rung);
    int used = 0;
    c->note[0] = '\0';
    if (as != rung && as >= 0)
        used = snprintf(c->note, sizeof c->note, "ran %s (the tuning of its class)", SORT_RUNGS[as].info.name);
    if (as >= 0 && SORT_RUNGS[as].onesweep && c->skipped > 0 && used >= 0 && used < (int)sizeof c->note)
        snprintf(c->note + used, sizeof c->note - used, "%s%d of %d passes skipped (their digit the same in every key)",
                 used ? "; " : "", c->skipped, (int)c->es); /* a pass an 8-bit digit: a pass a byte of the key */
    return c->note[0] ? c->note : NULL;
}

static const char *sort_refuses(const climb_case *c, int rung)
{
    if (c->p.type != CLIMB_U32 && SORT_RUNGS[rung].tuned)
        return "u32 keys only: it chooses among the u32 sorts (other key types: the radix rungs, climb_sort_i32, "
               "_f32, _u64)";
    if (c->p.type != CLIMB_U32 && !SORT_RUNGS[rung].radix_bits && !SORT_RUNGS[rung].cub)
        return "u32 keys only: the merge rungs compare u32 keys (other key types sort by the radix rungs)";
    if (SORT_RUNGS[rung].onesweep && c->n > (size_t)ONESWEEP_MAX_N)
        return "n below 2^30: its look-back words hold 30-bit counts";
    return NULL;
}

static int sort_run(climb_case *c, int rung, cudaStream_t s)
{
    const sort_args a = sort_case_args(c, s);
    CLIMB_CHECK(SORT_RUNGS[rung].launch(&a));
    return 0;
}

static int sort_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    c->skipped = -1;
    const int as = sort_runs_as(c, rung);
    if (as >= 0 && SORT_RUNGS[as].onesweep && c->n > 1 && c->d_radix) { /* what the last run's plan skipped */
        radix_plan plan;
        CLIMB_CHECK(cudaMemcpy(&plan, (char *)c->d_radix + onesweep_plan_offset(), sizeof plan, cudaMemcpyDeviceToHost));
        c->skipped = plan.skipped;
    }
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t i = 0; i < c->n; i++) { /* the keys' bits, exactly (-0 and +0, NaNs: each its own bits) */
        const int same = memcmp((const char *)c->h_out_k + i * c->es, (const char *)c->ref_k + i * c->es, c->es) == 0;
        if (c->es == 8)
            climb_compare_check(&k, same, "key[%zu] = 0x%016llx, expected 0x%016llx", i,
                                (unsigned long long)((const uint64_t *)c->h_out_k)[i],
                                (unsigned long long)((const uint64_t *)c->ref_k)[i]);
        else
            climb_compare_check(&k, same, "key[%zu] = 0x%08x, expected 0x%08x", i, ((const u32 *)c->h_out_k)[i],
                                ((const u32 *)c->ref_k)[i]);
    }
    if (climb_compare_end(&k) || !c->pairs)
        return k.bad != 0;
    climb_compare_begin(&k, msg, msglen);
    for (size_t i = 0; i < c->n; i++)
        climb_compare_exact(&k, c->h_out_v[i], c->ref_v[i], "value[%zu]", i);
    if (!climb_compare_end(&k))
        return 0;
    const size_t used = strlen(msg);
    snprintf(msg + used, msglen - used, ": the keys are right, the order of equal keys is not (unstable)");
    return 1;
}

static void sort_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double bytes = (double)c->n * ((double)c->es + (c->pairs ? 4 : 0));
    out->bytes_read = bytes;
    out->bytes_written = bytes;
    out->items = (double)c->n;
}

/* A rung's own counts: its passes over the data (the block sort's counted as one), each a read and a write of every
 * key and value; the vendors' are CUB's own business (the case's counts). */
static int sort_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    rung = sort_runs_as(c, rung); /* the tuned rung counts as the rung it ran */
    if (rung < 0)
        return 0;
    const sort_rung *r = &SORT_RUNGS[rung];
    if (r->cub || c->n <= 1)
        return 0;
    if (r->radix_bits) { /* a pass: the keys read by the count, keys (and values) read and written by the scatter;
                            Onesweep reads the keys once for every pass's counts */
        const double passes = 8.0 * (double)c->es / r->radix_bits, keys = (double)c->n * (double)c->es,
                     all = keys + (c->pairs ? (double)c->n * 4 : 0);
        sort_counts(c, out);
        const double run = r->onesweep && c->skipped > 0 ? passes - c->skipped : passes;
        out->bytes_read = r->onesweep ? keys + run * all : passes * (keys + all);
        out->bytes_written = run * all;
        return 1;
    }
    long long first = 1;
    int extra = 0;
    if (r->launch == launch_naive)
        first = 1;
    else if (r->launch == launch_merge_path) {
        climb_sort_tuning t = c->tn;
        if (t.algo != CLIMB_SORT_MERGE) { /* the class's built-in tile */
            t.block = SORT_POLICY[c->pairs].block;
            t.items = SORT_POLICY[c->pairs].items;
        }
        const sort_best_instance *in = sort_instance(&t);
        first = in ? (long long)in->block * in->items : 1;
        extra = 1;
    } else {
        first = SORT_SMEM_TILE;
        extra = 1;
    }
    const int passes = sort_pass_count((long long)c->n, first) + extra;
    sort_counts(c, out);
    out->bytes_read *= passes;
    out->bytes_written *= passes;
    return 1;
}

static void sort_set_tuning(climb_case *c, const int *values) { climb_sort_set_tuning(&c->tn, values); }

/* `climb tune sort`'s sizes: at least one in each of the tuned rung's size classes (2^16 small, 2^18 medium, the
 * rest large), so that each class gets its own winner. */
static const climb_shape SORT_TUNE_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 16), CLIMB_SHAPE1((size_t)1 << 18),
                                               CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 24),
                                               CLIMB_SHAPE1((size_t)1 << 26)};
static const climb_shape SORT_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 24),
                                                CLIMB_SHAPE1((size_t)1 << 26), CLIMB_SHAPE1(10000019)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape SORT_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 24)};
/* 0, 1, 2, odd sizes, every tile's edges (1024, 2048, the best rung's 11 to 19 x 128 to 512), several passes. */
static const climb_shape SORT_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),     CLIMB_SHAPE1(3),      CLIMB_SHAPE1(17),
    CLIMB_SHAPE1(255),   CLIMB_SHAPE1(1023),  CLIMB_SHAPE1(1024),  CLIMB_SHAPE1(1025),   CLIMB_SHAPE1(2047),
    CLIMB_SHAPE1(2049),  CLIMB_SHAPE1(3839),  CLIMB_SHAPE1(3840),  CLIMB_SHAPE1(3841),   CLIMB_SHAPE1(7681),
    CLIMB_SHAPE1(9728),  CLIMB_SHAPE1(65535), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003), CLIMB_SHAPE1(4194304),
    CLIMB_SHAPE1(2303),  CLIMB_SHAPE1(2304),  CLIMB_SHAPE1(2305),  CLIMB_SHAPE1(4609),   /* a radix tile's edges */
    CLIMB_SHAPE1(4224),  CLIMB_SHAPE1(4225),  CLIMB_SHAPE1(8831),  CLIMB_SHAPE1(8832),   CLIMB_SHAPE1(17665),
    CLIMB_SHAPE1(7295),  CLIMB_SHAPE1(7296),  CLIMB_SHAPE1(14593), CLIMB_SHAPE1(6527),   CLIMB_SHAPE1(6528),
    CLIMB_SHAPE1(13057)};
/* (the wide Onesweep tiles: 384 x 11, 384 x 23 and the tuned rung's 384 x 19 and 384 x 17) */
/* The sanitizer's few, for four key types: one key; a merge tile's edge; two tiles of the widest merge tile (9728),
 * five radix tiles (2304) and two or three wide Onesweep tiles (8832, or 4224 for 8-byte keys), a partial last one of
 * each. */
static const climb_shape SORT_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(3841), CLIMB_SHAPE1(9729)};

static const climb_sweep SORT_SWEEPS[] = {
    {.name = "dist",
     .title = "u32 keys: CUB's two sorts, the best merge rung, the three Onesweep rungs and the tuned choice: Gkeys/s "
              "against n for each key distribution",
     .args = "--rung cub_radix_sort --rung cub_merge_sort --rung register_merge_path --rung radix_onesweep "
             "--rung radix_onesweep_early --rung radix_onesweep_wide --rung tuned "
             "--set what=keys --size 2^20 --size 2^22 --size 2^24 --size 2^26 "
             "--set dist=uniform,sorted,reverse,few,nearly,narrow",
     .x = "n",
     .log_x = 1},
    {.name = "types",
     .title = "every key type, uniform keys and pairs: CUB's radix sort and the three Onesweep rungs, Gkeys/s "
              "against n",
     .args = "--type u32 --type i32 --type f32 --type u64 --rung cub_radix_sort --rung radix_onesweep "
             "--rung radix_onesweep_early --rung radix_onesweep_wide --set what=keys,pairs --size 2^20 --size 2^24 "
             "--size 2^26",
     .x = "n",
     .log_x = 1},
    {.name = "sizes",
     .title = "uniform u32 keys and pairs, every rung: Gkeys/s against n",
     .args = "--size 2^16 --size 2^18 --size 2^20 --size 2^22 --size 2^24 --size 2^26",
     .x = "n",
     .log_x = 1},
};

static const char *sort_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return s->d[0] > CLIMB_SORT_MAX_N ? "indices are 32-bit, so n must be below 2^31" : NULL;
}

/* Host memory: the input, the reference and the read-back (and twice n words for the reference's scratch). */
/* Host memory a key: the input, the reference and the read-back of keys (and values), and the reference's scratch
 * (u32: two words; the other types: two codes, two indices and a copy of the keys and values). */
static double sort_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    const double es = (double)climb_dtype_size(t), pairs = opts && opts[OPT_WHAT].choice == 1;
    const double scratch = t == CLIMB_U32 ? 8 : 24 + es + 4 * pairs;
    return (double)s->d[0] * (3 * es + 12 * pairs + scratch);
}

extern "C" const climb_workload climb_sort_workload = {
    .name = "sort",
    .title = "Sorting keys and key-value pairs, stably: merge sort, then LSD radix sort (u32 keys; i32, f32 and u64 "
             "keys by the radix rungs)",
    .sources = "Kirk and Hwu, Programming Massively Parallel Processors, chapter 11 (co-rank, basic and "
                "tiled merge, circular buffer); Green, McColl and Bader, GPU Merge Path; Hwu, Kirk and El Hajj, "
                "PMPP 4th edition, chapter 13 (radix sort); Adinets and Merrill, Onesweep",
    .command = NULL,
    .dims = {"n"},
    .shape_format = NULL,
    .types = SORT_KEY_TYPES,
    .bench_types = CLIMB_TYPE_BIT(CLIMB_U32), /* the ladder's figures; the other key types by --type */
    .options = SORT_OPTIONS,
    .n_options = CLIMB_COUNT(SORT_OPTIONS),
    .bytes_counted = "the keys (and values) read once and written once, the least a sort moves; a rung's own counts "
                     "add a read and a write of them for each of its passes",
    .items_unit = "keys",
    .items_rate = "Gkeys/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = SORT_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SORT_BENCH_SHAPES),
    .check_shapes = SORT_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SORT_CHECK_SHAPES),
    .quick_shapes = SORT_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SORT_QUICK_SHAPES),
    .main_shapes = SORT_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SORT_MAIN_SHAPES),
    .tune_shapes = SORT_TUNE_SHAPES,
    .n_tune_shapes = CLIMB_COUNT(SORT_TUNE_SHAPES),
    .check_max_offset = 3,
    .n_rungs = SORT_N_RUNGS,
    .rung = sort_rung_info,
    .published = NULL,
    .sweeps = SORT_SWEEPS,
    .n_sweeps = CLIMB_COUNT(SORT_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .peek = NULL,
    .case_size = sizeof(climb_case),
    .buffers = SORT_BUFFERS,
    .n_buffers = CLIMB_COUNT(SORT_BUFFERS),
    .init = sort_init,
    .fill = sort_fill,
    .fini = sort_fini,
    .create = NULL,
    .describe = sort_describe,
    .reference = sort_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = sort_case_bytes,
    .case_refuses = sort_case_refuses,
    .refuses = sort_refuses,
    .prepare = sort_prepare,
    .setup = NULL,
    .modifies = NULL,
    .reset = NULL,
    .run = sort_run,
    .empty = NULL,
    .poison = NULL,
    .verify = sort_verify,
    .counts = sort_counts,
    .rung_counts = sort_rung_counts,
    .rung_note = sort_rung_note,
    .release = sort_release,
    .save = NULL,
    .destroy = NULL,
    .tuning = &SORT_TUNING,
    .set_tuning = sort_set_tuning,
};
