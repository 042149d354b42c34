/*
 * sort_gpus.cu - u32 keys (and key-value pairs) spread over the case's GPUs, a slice a GPU in the input's order,
 * sorted stably so that each GPU ends with its slice of the global order: as many keys as it started with, the
 * smallest on the first GPU. The ladder: the whole array on one GPU (climb's radix sort: the row the others are
 * sped up from); everything gathered onto the first GPU, sorted there and the slices sent back; each GPU sorting its
 * own keys, the exact split of the sorted order found from digit counts, each GPU's piece for every other sent by
 * the copy engines and the received pieces sorted again; the split found first (an MSB radix split, as Ilic,
 * Tolovski and Rabl's RMG sort partitions), each GPU's keys partitioned by destination, sent, and sorted once
 * (the best). Vendor: CUB's radix sort of the whole array on one GPU, the figure a user would otherwise get.
 *
 * The split (climb_keysplit, src/device/collective.h): rounds of 8-bit digit counts over the keys of the ranges
 * that straddle a cut between two outputs, every GPU counting its own keys; a cut among equal keys is split by GPU
 * in input order, so that heavy keys are shared by as many GPUs as they fill and the order stays stable. Each round
 * waits for the host (the counts go down, the plan comes back), so these rungs are timed by the wall clock.
 *
 * Counted for the busiest GPU (the first: the largest slice): its keys (and values) read and written once; over the
 * links, what it sends (gather: what the first GPU receives). See docs/sort_gpus.md.
 *
 * Order of this file: the case, the kernels, the schedules, the registry table, the harness glue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "../base/check.h"
#include "../base/checked.h"
#include "../base/host.h"
#include "../device/collective.h"
#include "../core/validate.h"
#include "../core/workload.cuh"
#include "common/gpuset.cuh"
#include "sort/sort.h"
#include "sort_gpus.h"

#define SG_MAXD CLIMB_MAX_DEVICES
#define SG_DIGIT 8 /* the split's digit: 256 bins a range, 4 rounds at the most for 32-bit keys */

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    size_t n;
    int pairs, dist;
    uint32_t *h_keys, *h_vals;      /* the input, the global order (host, from the seed) */
    uint32_t *h_out_k, *h_out_v;    /* a rung's output downloaded, the global order */
    uint32_t *ref_k, *ref_v;        /* the stable sorted order (CPU) */
    size_t off[SG_MAXD], cnt[SG_MAXD]; /* rank r's slice of the input and of the output */
    uint32_t *in_k[SG_MAXD], *in_v[SG_MAXD];   /* rank r's input (no rung writes it) */
    uint32_t *out_k[SG_MAXD], *out_v[SG_MAXD]; /* rank r's output */
    uint32_t *tmp_k[SG_MAXD], *tmp_v[SG_MAXD]; /* rank r's keys between the steps (the split's partitioned keys) */
    uint32_t *aux_a[SG_MAXD], *aux_b[SG_MAXD]; /* radix_split: each key's class and its key or index */
    void *ws[SG_MAXD];
    unsigned long long *d_count[SG_MAXD];      /* a GPU's counts: digit counts, class counts, cut positions */
    climb_sgx sx;                   /* the split's state, over the arrays above (h_count pinned) */
    uint32_t *one_k, *one_v;        /* one_gpu and the vendor: the whole input on the first GPU */
    uint32_t *one_ok, *one_ov;      /* ... their output; gather_sort's keys on the first GPU */
    void *one_ws, *cub_tmp;
    size_t one_ws_bytes, cub_bytes;
};

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

enum { OPT_WHAT, OPT_DIST, OPT_SPLIT };
enum { SPLIT_STRONG, SPLIT_WEAK };

static int ranks(const climb_case *c) { return c->g.x.P; }

/* ---------------------------------------------------------------- the kernels */

/* The ranges a split round counts: at most P - 1 prefixes (a key's code >> above), the digit [shift, shift + 8). */
typedef struct {
    int n_open, shift, above;
    unsigned prefix[SG_MAXD];
} sg_ranges;

/* One digit's counts over the keys of the open ranges: counts[o * 256 + digit], the block's in shared memory first,
 * then added to the GPU's (zeroed before). The keys are keys[0 .. n), or [0 .. *n_dev) where n_dev is set (the
 * keys kept aside by an earlier round); where side is set, the keys of the open ranges are kept aside there too (a
 * warp's at once: one atomic on *side_n, zeroed before, for its 32), in no particular order. */
__global__ void sg_hist_kernel(const uint32_t *keys, size_t n, const unsigned long long *n_dev, sg_ranges rg,
                               unsigned long long *counts, uint32_t *side, unsigned long long *side_n)
{
    extern __shared__ unsigned sh_bins[];
    const int bins = rg.n_open << SG_DIGIT, lane = threadIdx.x % 32;
    if (n_dev)
        n = (size_t)*n_dev;
    for (int i = threadIdx.x; i < bins; i += blockDim.x)
        sh_bins[i] = 0;
    __syncthreads();
    /* a warp's 32 keys a step (blockDim is a multiple of 32: the loop is the warp's, for the ballot) */
    for (size_t base = blockIdx.x * (size_t)blockDim.x + threadIdx.x - lane; base < n;
         base += (size_t)gridDim.x * blockDim.x) {
        const size_t i = base + lane;
        const unsigned k = i < n ? keys[i] : 0u;
        int o = rg.n_open;
        if (i < n) {
            o = 0;
            if (rg.above < 32)
                while (o < rg.n_open && (k >> rg.above) != rg.prefix[o])
                    o++;
        }
        if (o < rg.n_open)
            atomicAdd(&sh_bins[(o << SG_DIGIT) + ((k >> rg.shift) & ((1u << SG_DIGIT) - 1))], 1u);
        if (side) {
            const unsigned in = __ballot_sync(0xffffffffu, o < rg.n_open);
            if (in) {
                unsigned long long at = 0;
                if (lane == 0)
                    at = atomicAdd(side_n, (unsigned long long)__popc(in));
                at = __shfl_sync(0xffffffffu, at, 0);
                if (in >> lane & 1u)
                    side[at + __popc(in & ((1u << lane) - 1u))] = k;
            }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < bins; i += blockDim.x)
        if (sh_bins[i])
            atomicAdd(&counts[i], (unsigned long long)sh_bins[i]);
}

/* The cuts as one GPU needs them: each cut's key and whether it is past every key, how many of this GPU's keys equal
 * to it go below it (t); the keys that are split between outputs (ties: their class is P + their index here). */
typedef struct {
    int n_cuts, n_ties, P;
    unsigned v[SG_MAXD];
    int end[SG_MAXD];
    unsigned long long t[SG_MAXD];
    unsigned tie[SG_MAXD];
} sg_cuts;

/* sort_split: where each cut falls in this GPU's sorted keys: the first key not below v, plus t. */
__global__ void sg_cut_positions_kernel(const uint32_t *sorted, size_t n, sg_cuts c, unsigned long long *pos)
{
    const int k = threadIdx.x;
    if (k >= c.n_cuts)
        return;
    if (c.end[k]) {
        pos[k] = n;
        return;
    }
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < c.v[k])
            lo = mid + 1;
        else
            hi = mid;
    }
    pos[k] = lo + c.t[k];
}

/* radix_split: each key's class, its output (0 .. P - 1) or, for a key split between outputs, P + its tie's index;
 * the key itself (keys alone) or its index (pairs) beside it; the classes counted (counts[class], zeroed before). */
__global__ void sg_class_kernel(const uint32_t *keys, size_t n, sg_cuts c, int pairs, uint32_t *cls, uint32_t *carry,
                                unsigned long long *counts)
{
    __shared__ unsigned sh_cls[2 * SG_MAXD];
    for (int i = threadIdx.x; i < 2 * SG_MAXD; i += blockDim.x)
        sh_cls[i] = 0;
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const unsigned k = keys[i];
        int q = -1;
        for (int j = 0; j < c.n_ties; j++)
            q = k == c.tie[j] ? c.P + j : q;
        if (q < 0) { /* below every cut it is not past (a key equal to a cut with t = 0 is above it) */
            q = 0;
            for (int j = 0; j < c.n_cuts; j++)
                q += !c.end[j] && k >= c.v[j];
        }
        cls[i] = (uint32_t)q;
        carry[i] = pairs ? (uint32_t)i : k;
        atomicAdd(&sh_cls[q], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * SG_MAXD; i += blockDim.x)
        if (sh_cls[i])
            atomicAdd(&counts[i], (unsigned long long)sh_cls[i]);
}

/* radix_split, pairs: the keys and values in their partitioned order, from the indices the class sort moved. */
__global__ void sg_gather_kernel(const uint32_t *idx, size_t n, const uint32_t *in_k, const uint32_t *in_v,
                                 uint32_t *out_k, uint32_t *out_v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint32_t j = idx[i];
        out_k[i] = in_k[j];
        out_v[i] = in_v[j];
    }
}

#define SG_THREADS 256

static unsigned sg_blocks(size_t n, int sms)
{
    const size_t want = (n + SG_THREADS - 1) / SG_THREADS, most = (size_t)sms * 8;
    return (unsigned)(want < 1 ? 1 : want < most ? want : most);
}

/* ---------------------------------------------------------------- the schedules */

/* A failed step of the split: its CUDA error (or none, where the plan itself went wrong) and what it was. */
#define SGX_TRY(call, what) CLIMB_SCHED_TRY(e, call, what)
#define SGX_FAIL(what)                                                                                             \
    do {                                                                                                           \
        e->err = cudaSuccess;                                                                                      \
        e->why = (what);                                                                                           \
        return -1;                                                                                                 \
    } while (0)

extern "C" size_t climb_sgx_counters(int P) { return ((size_t)(P > 1 ? P - 1 : 1) << SG_DIGIT) + 2 * (size_t)P; }

extern "C" int climb_sgx_host_alloc(climb_sgx *e, int P)
{
    e->h_count = (unsigned long long *)malloc(climb_sgx_counters(P) * sizeof(unsigned long long));
    e->hist = (size_t *)calloc((size_t)P * P << SG_DIGIT, sizeof *e->hist);
    e->split = (climb_keysplit *)calloc(1, sizeof *e->split);
    e->pieces = (climb_sgx_piece *)calloc((size_t)P * (3 * P), sizeof *e->pieces); /* 3P - 2 a rank at the most */
    e->all_counts = (unsigned long long *)malloc((size_t)P * climb_sgx_counters(P) * sizeof(unsigned long long));
    if (!e->h_count || !e->hist || !e->split || !e->pieces || !e->all_counts) {
        climb_sgx_host_free(e);
        return -1;
    }
    return 0;
}

extern "C" void climb_sgx_host_free(climb_sgx *e)
{
    free(e->h_count);
    free(e->hist);
    free(e->split);
    free(e->pieces);
    free(e->all_counts);
    e->all_counts = NULL;
    e->h_count = NULL;
    e->hist = NULL;
    e->split = NULL;
    e->pieces = NULL;
}

/* A rank's counters down to the host (its stream waited for): n of them into h_count. */
static int counts_down(climb_sgx *e, int r, size_t n)
{
    SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
    SGX_TRY(cudaMemcpyAsync(e->h_count, e->d_count[r], n * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                            e->x->st[r]),
            "a rank's counts to the host");
    SGX_TRY(cudaStreamSynchronize(e->x->st[r]), "a rank's counts to the host");
    return 0;
}

/* The split's rounds, a rank at a time (the rank form drives one rank, its counts gathered by NCCL). */
extern "C" int climb_sgx_split_begin(climb_sgx *e)
{
    if (climb_keysplit_init(e->split, e->x->P, 32, SG_DIGIT, e->cnt) != 0)
        SGX_FAIL("the split's counts");
    return 0;
}

extern "C" int climb_sgx_split_round(climb_sgx *e, int r, const uint32_t *keys, size_t *bins)
{
    int shift, width;
    const int open = climb_keysplit_round(e->split, &shift, &width);
    *bins = (size_t)(open > 0 ? open : 0) << SG_DIGIT;
    if (open <= 0)
        return 0;
    sg_ranges rg;
    memset(&rg, 0, sizeof rg);
    rg.n_open = open;
    rg.shift = shift;
    rg.above = shift + width;
    for (int o = 0; o < open; o++)
        rg.prefix[o] = (unsigned)e->split->open_prefix[o];
    SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
    if (*bins * sizeof(unsigned) > 48 * 1024) /* past the default: up to 63 ranges of 256 counters */
        SGX_TRY(cudaFuncSetAttribute(sg_hist_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)(*bins * sizeof(unsigned))),
                "the digit counts' shared memory");
    SGX_TRY(cudaMemsetAsync(e->d_count[r], 0, *bins * sizeof(unsigned long long), e->x->st[r]),
            "the digit counts' clearing");
    /* Every round reads every key but for this: the second round keeps the keys of its open ranges aside (in carry,
     * free until the classes), and the later rounds, whose ranges lie inside those, read them alone (the count in
     * the counters' last word, past every round's digit counts). */
    unsigned long long *side_n = e->d_count[r] + climb_sgx_counters(e->x->P) - 1;
    const int depth = e->split->depth;
    if (depth == 1)
        SGX_TRY(cudaMemsetAsync(side_n, 0, sizeof *side_n, e->x->st[r]), "the kept keys' count");
    if (e->cnt[r]) {
        sg_hist_kernel<<<sg_blocks(e->cnt[r], e->x->sms[r]), SG_THREADS, *bins * sizeof(unsigned), e->x->st[r]>>>(
            depth >= 2 ? e->carry[r] : keys, e->cnt[r], depth >= 2 ? side_n : NULL, rg, e->d_count[r],
            depth == 1 ? e->carry[r] : NULL, side_n);
        SGX_TRY(cudaGetLastError(), "the digit counts");
    }
    return 0;
}

extern "C" int climb_sgx_split_feed(climb_sgx *e, const unsigned long long *all, size_t bins)
{
    const int P = e->x->P, open = (int)(bins >> SG_DIGIT);
    for (int r = 0; r < P; r++)
        for (int o = 0; o < open; o++)
            for (size_t d = 0; d < ((size_t)1 << SG_DIGIT); d++)
                e->hist[(((size_t)o * P + r) << SG_DIGIT) + d] = (size_t)all[(size_t)r * bins + ((size_t)o << SG_DIGIT) + d];
    if (climb_keysplit_feed(e->split, e->hist) != 0)
        SGX_FAIL("the ranks' digit counts disagree with the split so far");
    return 0;
}

/* The split of the keys in arrays keys[r] (each rank's cnt[r] of them, in any order), one process driving every
 * rank: rounds of digit counts until every cut is placed, each rank's counts brought to the host in turn. */
static int find_split(climb_sgx *e, const uint32_t *const *keys)
{
    const int P = e->x->P;
    if (climb_sgx_split_begin(e))
        return -1;
    for (;;) {
        size_t bins = 0;
        for (int r = 0; r < P; r++)
            if (climb_sgx_split_round(e, r, keys[r], &bins))
                return -1;
        if (!bins)
            return 0;
        for (int r = 0; r < P; r++) {
            if (counts_down(e, r, bins))
                return -1;
            memcpy(e->all_counts + (size_t)r * bins, e->h_count, bins * sizeof(unsigned long long));
        }
        if (climb_sgx_split_feed(e, e->all_counts, bins))
            return -1;
    }
}

/* The cuts as rank r needs them (ties: the keys split between outputs there, each once, ascending). */
static sg_cuts cuts_for(const climb_sgx *e, int r)
{
    sg_cuts k;
    memset(&k, 0, sizeof k);
    k.P = e->x->P;
    k.n_cuts = k.P - 1;
    for (int j = 0; j + 1 < k.P; j++) {
        const climb_keycut *cut = &e->split->cut[j];
        k.v[j] = (unsigned)cut->v;
        k.end[j] = cut->end;
        k.t[j] = cut->t[r];
    }
    unsigned long long ties[SG_MAXD];
    k.n_ties = climb_keysplit_tie_values(e->split, r, ties);
    for (int j = 0; j < k.n_ties; j++)
        k.tie[j] = (unsigned)ties[j];
    return k;
}

/* Where each piece lands: every output takes its pieces in the order of the ranks they come from (so that equal keys
 * keep the input's order), each rank's pieces for it in the order listed. */
static int place_pieces(climb_sgx *e)
{
    for (int d = 0; d < e->x->P; d++) {
        size_t at = 0;
        for (int s = 0; s < e->x->P; s++)
            for (int i = 0; i < e->n_pieces; i++)
                if (e->pieces[i].d == d && e->pieces[i].s == s) {
                    e->pieces[i].to = at;
                    at += e->pieces[i].len;
                }
        if (at != e->cnt[d])
            SGX_FAIL("a rank's pieces do not hold its share");
    }
    return 0;
}

static void add_piece(climb_sgx *e, int s, int d, size_t from, size_t len)
{
    if (len)
        e->pieces[e->n_pieces++] = (climb_sgx_piece){s, d, from, len, 0};
}

/* A step between the ranks: every rank's stream waits for what every other's has issued so far. */
static int sgx_barrier(climb_sgx *e)
{
    SGX_TRY(climb_coll_barrier(e->x), "a step between the GPUs");
    return 0;
}

/* Every piece pushed from its rank's send arrays into its output by the copy engines (after a step between the
 * ranks: an output may be an input another rank still reads), a step between the ranks, then each rank's received
 * keys sorted in place. */
static int exchange_and_sort(climb_sgx *e, uint32_t *const *send_k, uint32_t *const *send_v, uint32_t *const *out_k,
                             uint32_t *const *out_v)
{
    if (sgx_barrier(e))
        return -1;
    for (int i = 0; i < e->n_pieces; i++) {
        const climb_sgx_piece *q = &e->pieces[i];
        SGX_TRY(cudaSetDevice(e->x->devices[q->s]), "a rank's device");
        SGX_TRY(climb_copy_across(out_k[q->d] + q->to, send_k[q->s] + q->from, q->len * 4, e->x->st[q->s]),
                "a piece's copy");
        if (e->pairs)
            SGX_TRY(climb_copy_across(out_v[q->d] + q->to, send_v[q->s] + q->from, q->len * 4, e->x->st[q->s]),
                    "a piece's copy");
    }
    if (sgx_barrier(e))
        return -1;
    for (int r = 0; r < e->x->P; r++)
        if (climb_sgx_sort_received(e, r, out_k[r], e->pairs ? out_v[r] : NULL))
            return -1;
    return 0;
}

/* radix_split, rank r's part: each key's class (its output, or the tie it is part of), the classes counted into
 * d_count[r] (2 P); the keys partitioned by class, stably (climb's radix sort of the classes, in place, which takes
 * one pass: they are below 128); keys alone travel as the classes' carried words; pairs carry indices, and the keys
 * and values are gathered by them into part_k and part_v. */
extern "C" int climb_sgx_classify(climb_sgx *e, int r, const uint32_t *in_k, const uint32_t *in_v)
{
    const int P = e->x->P;
    const sg_cuts k = cuts_for(e, r);
    SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
    cudaStream_t s = e->x->st[r];
    SGX_TRY(cudaMemsetAsync(e->d_count[r], 0, 2 * P * sizeof(unsigned long long), s), "the class counts");
    if (!e->cnt[r])
        return 0;
    sg_class_kernel<<<sg_blocks(e->cnt[r], e->x->sms[r]), SG_THREADS, 0, s>>>(in_k, e->cnt[r], k, e->pairs, e->cls[r],
                                                                             e->carry[r], e->d_count[r]);
    SGX_TRY(cudaGetLastError(), "the classes");
    SGX_TRY(climb_sort_radix(CLIMB_U32, e->cls[r], e->carry[r], e->cls[r], e->carry[r], e->cnt[r], e->ws[r],
                             e->ws_bytes, s),
            "the partition by class");
    if (e->pairs) {
        sg_gather_kernel<<<sg_blocks(e->cnt[r], e->x->sms[r]), SG_THREADS, 0, s>>>(e->carry[r], e->cnt[r], in_k, in_v,
                                                                                  e->part_k[r], e->part_v[r]);
        SGX_TRY(cudaGetLastError(), "the pairs' gather");
    }
    return 0;
}

/* The pieces of every rank from every rank's class counts (all: rank r's 2 P at all + 2 P r), placed: the classes in
 * order, outputs 0 .. P - 1, then the ties; a tie's keys cut at each of its cuts' t. */
extern "C" int climb_sgx_plan(climb_sgx *e, const unsigned long long *all)
{
    const int P = e->x->P;
    e->n_pieces = 0;
    for (int r = 0; r < P; r++) {
        if (!e->cnt[r])
            continue;
        unsigned long long ties[SG_MAXD];
        const int n_ties = climb_keysplit_tie_values(e->split, r, ties);
        size_t count[2 * SG_MAXD], from[3 * SG_MAXD], len[3 * SG_MAXD], total = 0;
        int dest[3 * SG_MAXD];
        for (int q = 0; q < P + n_ties; q++)
            total += count[q] = (size_t)all[2 * (size_t)P * r + q];
        if (total != e->cnt[r])
            SGX_FAIL("a rank's classes do not hold its keys");
        const int n = climb_keysplit_class_pieces(e->split, r, count, dest, from, len);
        for (int i = 0; i < n; i++)
            add_piece(e, r, dest[i], from[i], len[i]);
    }
    return place_pieces(e);
}

/* What rank r received, sorted in place. */
extern "C" int climb_sgx_sort_received(climb_sgx *e, int r, uint32_t *out_k, uint32_t *out_v)
{
    SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
    if (e->cnt[r])
        SGX_TRY(climb_sort_radix(CLIMB_U32, out_k, e->pairs ? out_v : NULL, out_k, e->pairs ? out_v : NULL, e->cnt[r],
                                 e->ws[r], e->ws_bytes, e->x->st[r]),
                "a rank's sort");
    return 0;
}

/* radix_split, one process driving every rank: the split first, from the unsorted keys; every rank classified;
 * the pieces planned from the class counts; one exchange by the copy engines; the received keys sorted once. */
extern "C" int climb_sgx_radix_split(climb_sgx *e, const uint32_t *const *in_k, const uint32_t *const *in_v,
                                     uint32_t *const *out_k, uint32_t *const *out_v)
{
    const int P = e->x->P;
    e->err = cudaSuccess;
    e->why = NULL;
    if (P == 1) { /* one output: no split and no exchange, the keys sorted where they are to where they go */
        SGX_TRY(cudaSetDevice(e->x->devices[0]), "a rank's device");
        if (e->cnt[0])
            SGX_TRY(climb_sort_radix(CLIMB_U32, in_k[0], e->pairs ? in_v[0] : NULL, out_k[0],
                                     e->pairs ? out_v[0] : NULL, e->cnt[0], e->ws[0], e->ws_bytes, e->x->st[0]),
                    "the sort of the one rank");
        return 0;
    }
    if (find_split(e, in_k))
        return -1;
    for (int r = 0; r < P; r++) {
        if (climb_sgx_classify(e, r, in_k[r], e->pairs ? in_v[r] : NULL))
            return -1;
        if (counts_down(e, r, 2 * (size_t)P))
            return -1;
        memcpy(e->all_counts + 2 * (size_t)P * r, e->h_count, 2 * (size_t)P * sizeof(unsigned long long));
    }
    if (climb_sgx_plan(e, e->all_counts))
        return -1;
    return exchange_and_sort(e, e->pairs ? e->part_k : e->carry, e->part_v, out_k, out_v);
}

extern "C" int climb_sgx_gather_sort(climb_sgx *e, const uint32_t *const *in_k, const uint32_t *const *in_v,
                                     uint32_t *const *out_k, uint32_t *const *out_v, uint32_t *all_k, uint32_t *all_v,
                                     void *ws0, size_t ws0_bytes)
{
    const int P = e->x->P;
    e->err = cudaSuccess;
    e->why = NULL;
    size_t at = 0;
    for (int r = 0; r < P; at += e->cnt[r], r++) {
        if (!e->cnt[r])
            continue; /* (its arrays may be NULL) */
        SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
        SGX_TRY(climb_copy_across(all_k + at, in_k[r], e->cnt[r] * 4, e->x->st[r]), "a slice's copy");
        if (e->pairs)
            SGX_TRY(climb_copy_across(all_v + at, in_v[r], e->cnt[r] * 4, e->x->st[r]), "a slice's copy");
    }
    if (sgx_barrier(e))
        return -1;
    SGX_TRY(cudaSetDevice(e->x->devices[0]), "a rank's device");
    if (e->n)
        SGX_TRY(climb_sort_radix(CLIMB_U32, all_k, e->pairs ? all_v : NULL, all_k, e->pairs ? all_v : NULL, e->n, ws0,
                                 ws0_bytes, e->x->st[0]),
                "the sort on the first GPU");
    if (sgx_barrier(e))
        return -1;
    at = 0;
    for (int r = 0; r < P; at += e->cnt[r], r++) {
        if (!e->cnt[r])
            continue;
        SGX_TRY(cudaSetDevice(e->x->devices[r]), "a rank's device");
        SGX_TRY(climb_copy_across(out_k[r], all_k + at, e->cnt[r] * 4, e->x->st[r]), "a slice's copy back");
        if (e->pairs)
            SGX_TRY(climb_copy_across(out_v[r], all_v + at, e->cnt[r] * 4, e->x->st[r]), "a slice's copy back");
    }
    return 0;
}

/* A failed split step as the harness reports it. */
static int sgx_report(const climb_sgx *e)
{
    if (e->err != cudaSuccess)
        fprintf(stderr, "climb: sort_gpus: %s: %s\n", e->why, cudaGetErrorString(e->err));
    else
        fprintf(stderr, "climb: sort_gpus: %s\n", e->why);
    cudaGetLastError();
    return -1;
}

/* The vendor: CUB's radix sort of the whole array on the first GPU. */
static int run_vendor(climb_case *c)
{
    ON(c->g.x.devices[0]);
    size_t bytes = c->cub_bytes;
    if (c->pairs)
        CLIMB_CHECK(cub::DeviceRadixSort::SortPairs(c->cub_tmp, bytes, c->one_k, c->one_ok, c->one_v, c->one_ov,
                                                    (int64_t)c->n, 0, 32, c->g.x.st[0]));
    else
        CLIMB_CHECK(cub::DeviceRadixSort::SortKeys(c->cub_tmp, bytes, c->one_k, c->one_ok, (int64_t)c->n, 0, 32,
                                                   c->g.x.st[0]));
    return 0;
}

/* one_gpu: climb's radix sort of the whole array on the first GPU. */
static int run_one_gpu(climb_case *c)
{
    ON(c->g.x.devices[0]);
    CLIMB_CHECK(climb_sort_radix(CLIMB_U32, c->one_k, c->pairs ? c->one_v : NULL, c->one_ok,
                                 c->pairs ? c->one_ov : NULL, c->n, c->one_ws, c->one_ws_bytes, c->g.x.st[0]));
    return 0;
}

/* gather_sort: every slice pushed into the first GPU, sorted there in place, each GPU pulling its slice back (the
 * C API's way inside a capture). */
static int run_gather(climb_case *c)
{
    return climb_sgx_gather_sort(&c->sx, c->in_k, c->in_v, c->out_k, c->out_v, c->one_ok, c->one_ov, c->one_ws,
                                 c->one_ws_bytes)
               ? sgx_report(&c->sx)
               : 0;
}

/* sort_split: each GPU sorts its keys; the split; each GPU's sorted keys cut where the cuts fall in them (a piece
 * for each output, in order), sent, and the received pieces sorted again. */
static int run_sort_split(climb_case *c)
{
    climb_sgx *e = &c->sx;
    const int P = ranks(c);
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        if (c->cnt[r])
            CLIMB_CHECK(climb_sort_radix(CLIMB_U32, c->in_k[r], c->pairs ? c->in_v[r] : NULL, c->tmp_k[r],
                                         c->pairs ? c->tmp_v[r] : NULL, c->cnt[r], c->ws[r], e->ws_bytes,
                                         c->g.x.st[r]));
    }
    if (find_split(e, c->tmp_k))
        return sgx_report(e);
    e->n_pieces = 0;
    for (int r = 0; r < P; r++) {
        const sg_cuts k = cuts_for(e, r);
        size_t pos[SG_MAXD + 1];
        pos[0] = 0;
        if (k.n_cuts > 0) {
            ON(c->g.x.devices[r]);
            sg_cut_positions_kernel<<<1, SG_MAXD, 0, c->g.x.st[r]>>>(c->tmp_k[r], c->cnt[r], k, c->d_count[r]);
            CLIMB_CHECK(cudaGetLastError());
            if (counts_down(e, r, (size_t)k.n_cuts))
                return sgx_report(e);
        }
        for (int j = 0; j < k.n_cuts; j++)
            pos[j + 1] = (size_t)e->h_count[j];
        pos[P] = c->cnt[r];
        for (int d = 0; d < P; d++) {
            if (pos[d + 1] < pos[d] || pos[d + 1] > c->cnt[r]) {
                fprintf(stderr, "climb: sort_gpus: GPU %d's cuts out of order\n", r);
                return -1;
            }
            add_piece(e, r, d, pos[d], pos[d + 1] - pos[d]);
        }
    }
    return place_pieces(e) || exchange_and_sort(e, c->tmp_k, c->tmp_v, c->out_k, c->out_v) ? sgx_report(e) : 0;
}

/* radix_split (the best rung, and the C API's way outside a capture). */
static int run_radix_split(climb_case *c)
{
    return climb_sgx_radix_split(&c->sx, c->in_k, c->in_v, c->out_k, c->out_v) ? sgx_report(&c->sx) : 0;
}

/* ---------------------------------------------------------------- the registry table */

typedef struct {
    climb_rung_info info;
    int (*run)(climb_case *c);
    int one;    /* the whole array on the first GPU (one_gpu, the vendor) */
    int gather; /* the whole array's room on the first GPU (gather_sort) */
} sg_rung;

static int k_radix(climb_dtype, const climb_device_info *d, const int *, climb_kernel_desc *out, int max)
{
    const climb_workload *w = &climb_sort_workload;
    return climb_rung_kernels(w, climb_find_rung(w, "radix_onesweep_early"), CLIMB_U32, d, out, max);
}

static int k_split(climb_dtype t, const climb_device_info *d, const int *tuning, climb_kernel_desc *out, int max)
{
    int n = k_radix(t, d, tuning, out, max);
    n = climb_kernel_at(out, max, n, (const void *)sg_hist_kernel, SG_THREADS, 0, "sg_hist_kernel");
    return climb_kernel_at(out, max, n, (const void *)sg_cut_positions_kernel, SG_MAXD, 0, "sg_cut_positions_kernel");
}

static int k_radix_split(climb_dtype t, const climb_device_info *d, const int *tuning, climb_kernel_desc *out, int max)
{
    int n = k_radix(t, d, tuning, out, max);
    n = climb_kernel_at(out, max, n, (const void *)sg_hist_kernel, SG_THREADS, 0, "sg_hist_kernel");
    n = climb_kernel_at(out, max, n, (const void *)sg_class_kernel, SG_THREADS, 0, "sg_class_kernel");
    return climb_kernel_at(out, max, n, (const void *)sg_gather_kernel, SG_THREADS, 0, "sg_gather_kernel");
}

static const sg_rung SG_RUNGS[] = {
    {.info = {.name = "cub_radix_one_gpu", .idea = "vendor: cub::DeviceRadixSort (SortKeys, SortPairs) of the whole "
                                                   "array on the first GPU",
              .needs = "", .kind = CLIMB_RUNG_VENDOR},
     .run = run_vendor, .one = 1},
    {.info = {.name = "one_gpu", .idea = "the whole array on one GPU by climb's radix sort (Onesweep): what the others "
                                         "are sped up from",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix},
     .run = run_one_gpu, .one = 1},
    {.info = {.name = "gather_sort", .idea = "every slice pushed to the first GPU by the copy engines, sorted there, "
                                             "and each GPU's slice of the result pulled back",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix},
     .run = run_gather, .gather = 1},
    {.info = {.name = "sort_split", .idea = "each GPU sorts its own keys; the exact split from rounds of digit counts; "
                                            "each sorted run cut where the split falls, the pieces sent by the copy "
                                            "engines, the received pieces sorted again",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_split, .host_part = 1},
     .run = run_sort_split},
    {.info = {.name = "radix_split", .idea = "the split first (an MSB radix split made exact: digit counts, ties "
                                             "shared by GPU in input order); each GPU's keys partitioned by output in "
                                             "one radix pass, sent, and sorted once",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_radix_split, .host_part = 1},
     .run = run_radix_split},
    {.info = {.name = "sort_gpus_best", .idea = "the split first (radix_split)", .needs = "", .kind = CLIMB_RUNG_BEST,
              .kernels = k_radix_split, .host_part = 1},
     .run = run_radix_split},
};
#define SG_N_RUNGS CLIMB_COUNT(SG_RUNGS)

static const climb_rung_info *sg_rung_info(int i) { return &SG_RUNGS[i].info; }

/* ---------------------------------------------------------------- harness glue */

static void free_one(climb_case *c)
{
    cudaSetDevice(c->g.x.devices[0]);
    cudaFree(c->one_k);
    cudaFree(c->one_v);
    cudaFree(c->one_ok);
    cudaFree(c->one_ov);
    cudaFree(c->one_ws);
    cudaFree(c->cub_tmp);
    c->one_k = c->one_v = c->one_ok = c->one_ov = NULL;
    c->one_ws = c->cub_tmp = NULL;
    c->one_ws_bytes = c->cub_bytes = 0;
}

static void sg_fini(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        cudaSetDevice(c->g.x.devices[r]);
        uint32_t *arrays[] = {c->in_k[r], c->in_v[r], c->out_k[r], c->out_v[r], c->tmp_k[r], c->tmp_v[r],
                              c->aux_a[r], c->aux_b[r]};
        for (size_t i = 0; i < CLIMB_COUNT(arrays); i++)
            cudaFree(arrays[i]);
        cudaFree(c->ws[r]);
        cudaFree(c->d_count[r]);
    }
    free_one(c);
    cudaFreeHost(c->sx.h_count);
    c->sx.h_count = NULL;
    climb_sgx_host_free(&c->sx);
    climb_gpuset_fini(&c->g);
}

/* Every rank's slice and its arrays on its GPU: input, output, the keys between steps, the classes, the sort's
 * workspace and the counts. */
static int sg_init(climb_case *c)
{
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    const int P = ranks(c);
    c->n = c->p.shape.d[0];
    if (c->p.opts[OPT_SPLIT].choice == SPLIT_WEAK && !climb_mul_fits(c->n, (size_t)P, &c->n)) {
        fprintf(stderr, "climb: sort_gpus: %zu keys x %d GPUs overflow size_t\n", c->p.shape.d[0], P);
        return -1;
    }
    c->pairs = c->p.opts[OPT_WHAT].choice == 1;
    c->dist = c->p.opts[OPT_DIST].choice;
    climb_sgx *e = &c->sx;
    e->x = &c->g.x;
    e->pairs = c->pairs;
    e->n = c->n;
    if (climb_sgx_host_alloc(e, P) != 0)
        return climb_host_oom("sort_gpus's plan");
    free(e->h_count); /* pinned instead: the rounds' counts come down by DMA */
    e->h_count = NULL;
    CLIMB_CHECK(cudaMallocHost((void **)&e->h_count, climb_sgx_counters(P) * sizeof(unsigned long long)));
    size_t most = 1;
    for (int r = 0; r < P; r++) {
        climb_chunk_of(c->n, P, r, &c->off[r], &c->cnt[r]);
        e->cnt[r] = c->cnt[r];
        most = c->cnt[r] > most ? c->cnt[r] : most;
    }
    e->ws_bytes = climb_sort_radix_workspace(CLIMB_U32, most, 1);
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        const size_t b = (c->cnt[r] ? c->cnt[r] : 1) * sizeof(uint32_t);
        uint32_t **arrays[] = {&c->in_k[r], &c->out_k[r], &c->tmp_k[r], &c->aux_a[r], &c->aux_b[r],
                               &c->in_v[r], &c->out_v[r], &c->tmp_v[r]};
        for (size_t i = 0; i < CLIMB_COUNT(arrays); i++)
            if ((i < 5 || c->pairs) && cudaMalloc((void **)arrays[i], b) != cudaSuccess)
                goto oom;
        if (cudaMalloc(&c->ws[r], e->ws_bytes) != cudaSuccess ||
            cudaMalloc((void **)&c->d_count[r], climb_sgx_counters(P) * sizeof(unsigned long long)) != cudaSuccess)
            goto oom;
        e->cls[r] = c->aux_a[r];
        e->carry[r] = c->aux_b[r];
        e->part_k[r] = c->tmp_k[r];
        e->part_v[r] = c->tmp_v[r];
        e->ws[r] = c->ws[r];
        e->d_count[r] = c->d_count[r];
    }
    ON(c->g.home);
    return 0;
oom:
    cudaGetLastError();
    cudaSetDevice(c->g.home);
    fprintf(stderr, "climb: sort_gpus: out of GPU memory for %zu %s over %d GPUs (about %.3g GB a GPU)\n", c->n,
            c->pairs ? "pairs" : "keys", P, (double)most * (c->pairs ? 32 : 20) / 1e9);
    return -1;
}

/* The keys (and values) by the distribution, uploaded slice by slice. */
static int sg_fill(climb_case *c)
{
    climb_sort_generate(c->p.seed, c->dist, c->h_keys, c->pairs ? c->h_vals : NULL, c->n);
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpy(c->in_k[r], c->h_keys + c->off[r], c->cnt[r] * 4, cudaMemcpyHostToDevice));
        if (c->pairs)
            CLIMB_CHECK(cudaMemcpy(c->in_v[r], c->h_vals + c->off[r], c->cnt[r] * 4, cudaMemcpyHostToDevice));
    }
    ON(c->g.home);
    return 0;
}

static size_t keys_bytes(const climb_case *c) { return (c->n ? c->n : 1) * sizeof(uint32_t); }
static size_t vals_bytes(const climb_case *c) { return c->pairs ? keys_bytes(c) : 0; }

static const climb_buffer SG_BUFFERS[] = {
    {.name = "keys", .flags = CLIMB_BUF_HOST, .bytes = keys_bytes, .host_at = offsetof(climb_case, h_keys)},
    {.name = "values", .flags = CLIMB_BUF_HOST, .bytes = vals_bytes, .host_at = offsetof(climb_case, h_vals)},
    {.name = "keys downloaded", .flags = CLIMB_BUF_HOST, .bytes = keys_bytes, .host_at = offsetof(climb_case, h_out_k)},
    {.name = "values downloaded", .flags = CLIMB_BUF_HOST, .bytes = vals_bytes, .host_at = offsetof(climb_case, h_out_v)},
    {.name = "sorted keys", .flags = CLIMB_BUF_HOST, .bytes = keys_bytes, .host_at = offsetof(climb_case, ref_k)},
    {.name = "sorted values", .flags = CLIMB_BUF_HOST, .bytes = vals_bytes, .host_at = offsetof(climb_case, ref_v)},
};

static int sg_empty(const climb_case *c) { return c->n == 0; }

static const char *sg_describe(const climb_case *c)
{
    static const char *const dists[] = {"uniform", "sorted", "reverse", "few (16 values)", "nearly sorted", "narrow"};
    static char buf[200];
    snprintf(buf, sizeof buf, "%s u32 %s, a slice of the input on each of %d GPUs", dists[c->dist],
             c->pairs ? "keys with u32 values" : "keys", ranks(c));
    return buf;
}

/* The stable order, on the CPU (climb_sort_ref: an LSD radix sort), keys and values. */
static int sg_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)mode;
    memcpy(c->ref_k, c->h_keys, c->n * 4);
    if (c->pairs)
        memcpy(c->ref_v, c->h_vals, c->n * 4);
    uint32_t *tmp = (uint32_t *)malloc((c->n ? c->n : 1) * 2 * sizeof(uint32_t));
    if (!tmp)
        return climb_host_oom("the sort_gpus reference");
    climb_sort_ref(c->ref_k, c->pairs ? c->ref_v : NULL, c->n, tmp);
    free(tmp);
    snprintf(desc, desclen, "CPU, a stable sort of the whole input; every key%s exact", c->pairs ? " and value" : "");
    return 0;
}

/* The first GPU's whole arrays (one_gpu, the vendor, gather_sort), CUB's scratch; peer access. */
static int sg_prepare(climb_case *c, int rung)
{
    const sg_rung *r = &SG_RUNGS[rung];
    if (sg_empty(c))
        return 0;
    ON(c->g.x.devices[0]);
    const size_t b = c->n * sizeof(uint32_t);
    if ((r->one || r->gather) && !c->one_ok) {
        if (cudaMalloc((void **)&c->one_ok, b) != cudaSuccess ||
            (c->pairs && cudaMalloc((void **)&c->one_ov, b) != cudaSuccess))
            goto oom;
        c->one_ws_bytes = climb_sort_radix_workspace(CLIMB_U32, c->n, c->pairs);
        if (cudaMalloc(&c->one_ws, c->one_ws_bytes) != cudaSuccess)
            goto oom;
    }
    if (r->one && !c->one_k) {
        if (cudaMalloc((void **)&c->one_k, b) != cudaSuccess ||
            (c->pairs && cudaMalloc((void **)&c->one_v, b) != cudaSuccess))
            goto oom;
        CLIMB_CHECK(cudaMemcpy(c->one_k, c->h_keys, b, cudaMemcpyHostToDevice));
        if (c->pairs)
            CLIMB_CHECK(cudaMemcpy(c->one_v, c->h_vals, b, cudaMemcpyHostToDevice));
        size_t bytes = 0;
        CLIMB_CHECK(c->pairs ? cub::DeviceRadixSort::SortPairs((void *)NULL, bytes, c->one_k, c->one_ok, c->one_v,
                                                                c->one_ov, (int64_t)c->n, 0, 32)
                             : cub::DeviceRadixSort::SortKeys((void *)NULL, bytes, c->one_k, c->one_ok, (int64_t)c->n,
                                                               0, 32));
        if (cudaMalloc(&c->cub_tmp, bytes ? bytes : 1) != cudaSuccess)
            goto oom;
        c->cub_bytes = bytes;
    }
    ON(c->g.home);
    return climb_gpuset_prepare(&c->g, !r->one, 0, "sort_gpus");
oom:
    cudaGetLastError();
    cudaSetDevice(c->g.home);
    fprintf(stderr, "climb: sort_gpus: out of GPU memory on GPU %d for %s's whole array (%zu %s)\n",
            c->g.x.devices[0], r->info.name, c->n, c->pairs ? "pairs" : "keys");
    return -1;
}

static void sg_release(climb_case *c, int rung)
{
    if (SG_RUNGS[rung].one || SG_RUNGS[rung].gather)
        free_one(c);
}

static int sg_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = SG_RUNGS[rung].run(c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, 0);
}

/* Every output, all ones. */
static int sg_poison(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemset(c->out_k[r], 0xFF, c->cnt[r] * 4));
        if (c->pairs)
            CLIMB_CHECK(cudaMemset(c->out_v[r], 0xFF, c->cnt[r] * 4));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    if (c->one_ok) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemset(c->one_ok, 0xFF, c->n * 4));
        if (c->one_ov)
            CLIMB_CHECK(cudaMemset(c->one_ov, 0xFF, c->n * 4));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    ON(c->g.home);
    return 0;
}

/* Every key (and value) of every GPU's output, in the global order, against the stable sort's. */
static int sg_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    if (SG_RUNGS[rung].one) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemcpy(c->h_out_k, c->one_ok, c->n * 4, cudaMemcpyDeviceToHost));
        if (c->pairs)
            CLIMB_CHECK(cudaMemcpy(c->h_out_v, c->one_ov, c->n * 4, cudaMemcpyDeviceToHost));
    } else {
        for (int r = 0; r < ranks(c); r++) {
            ON(c->g.x.devices[r]);
            CLIMB_CHECK(cudaMemcpy(c->h_out_k + c->off[r], c->out_k[r], c->cnt[r] * 4, cudaMemcpyDeviceToHost));
            if (c->pairs)
                CLIMB_CHECK(cudaMemcpy(c->h_out_v + c->off[r], c->out_v[r], c->cnt[r] * 4, cudaMemcpyDeviceToHost));
        }
    }
    ON(c->g.home);
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t i = 0; i < c->n; i++) {
        climb_compare_exact(&k, c->h_out_k[i], c->ref_k[i], "key[%zu]", i);
        if (c->pairs)
            climb_compare_exact(&k, c->h_out_v[i], c->ref_v[i], "value[%zu]", i);
    }
    return climb_compare_end(&k);
}

/* The busiest GPU (the first, with the largest slice): its keys (and values) read and written once; what it sends
 * over the links in the exchange, (P - 1) / P of its slice where the keys are spread evenly. */
static void sg_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double w = c->pairs ? 8 : 4, mine = (double)c->cnt[0], P = ranks(c);
    out->bytes_read = out->bytes_written = w * mine;
    out->items = (double)c->n;
    out->link_bytes = w * mine * (P - 1) / P;
}

/* The whole array on one GPU (one_gpu, the vendor): nothing over the links; gather_sort: what the first GPU
 * receives (every other slice) and sends back. */
static int sg_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    const double w = c->pairs ? 8 : 4;
    if (SG_RUNGS[rung].one) {
        memset(out, 0, sizeof *out);
        out->bytes_read = out->bytes_written = w * (double)c->n;
        out->items = (double)c->n;
        return 1;
    }
    if (SG_RUNGS[rung].gather) {
        memset(out, 0, sizeof *out);
        out->bytes_read = out->bytes_written = w * (double)c->n;
        out->items = (double)c->n;
        out->link_bytes = w * (double)(c->n - c->cnt[0]);
        return 1;
    }
    return 0;
}

/* 2^26 and 2^28 keys across the GPUs (strong scaling: the same keys on 1, 2, 4, ... GPUs); 2^30 (32 GiB of the
 * host's memory for pairs) by --size. */
static const climb_shape SG_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 26), CLIMB_SHAPE1((size_t)1 << 28)};
static const climb_shape SG_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 26)};
/* Empty, fewer keys than GPUs, odd sizes, a tile and one more. */
static const climb_shape SG_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),      CLIMB_SHAPE1(3),
                                              CLIMB_SHAPE1(1000),  CLIMB_SHAPE1(8833),   CLIMB_SHAPE1(100003),
                                              CLIMB_SHAPE1((1 << 20) + 7)};
static const climb_shape SG_QUICK_SHAPES[] = {CLIMB_SHAPE1(3), CLIMB_SHAPE1(8833)};

static const char *const SG_DISTS[] = {"uniform", "sorted", "reverse", "few", "nearly", "narrow", NULL};
static const char *const SG_WHAT[] = {"keys", "pairs", NULL};
static const char *const SG_SPLITS[] = {"strong", "weak", NULL};
static constexpr climb_option SG_OPTIONS[] = {
    {.name = "what", .kind = CLIMB_OPT_CHOICE,
     .meaning = "keys (keys alone) or pairs (keys, each with a u32 value carried along; stability checked)",
     .def = "keys,pairs", .choices = SG_WHAT},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE,
     .meaning = "the keys: uniform, sorted, reverse, few (16 distinct values: ties split between GPUs), nearly "
                "(sorted, 1% of positions swapped), narrow (below 2^16: the upper digits all equal)",
     .def = "uniform", .choices = SG_DISTS, .check_def = "all"},
    {.name = "split", .kind = CLIMB_OPT_CHOICE, .meaning = "strong: the shape is every key; weak: each GPU's keys "
                                                           "(n x GPUs in all)",
     .def = "strong", .choices = SG_SPLITS},
};
CLIMB_OPTION_AT(SG_OPTIONS, OPT_WHAT, "what");
CLIMB_OPTION_AT(SG_OPTIONS, OPT_DIST, "dist");
CLIMB_OPTION_AT(SG_OPTIONS, OPT_SPLIT, "split");

/* The host memory a case needs: the keys, their download and the sorted reference (values alike), and the
 * reference's scratch (two words a key). */
static double sg_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const int pairs = opts && opts[OPT_WHAT].choice == 1;
    return (pairs ? 32.0 : 20.0) * (double)s->d[0];
}

static const char *sg_refuses(const climb_case *c, int rung)
{
    (void)rung;
    return c->n > CLIMB_SORT_MAX_N ? "more keys than climb's radix sort takes on one GPU (2^31 - 1)" : NULL;
}

extern "C" const climb_workload climb_sort_gpus_workload = {
    .name = "sort_gpus",
    .title = "Sort across GPUs: a slice of the keys a GPU, each ending with its slice of the stable order: gathered "
             "to one GPU, sorted then split, split then sorted (an exact MSB radix split)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, sorting (the one-GPU radix sort); "
               "Ilic, Tolovski and Rabl, RMG Sort: Radix-Partitioning-Based Multi-GPU Sorting; van Oosten, "
               "Introduction to CUDA 5.0: GPUDirect (transfers between GPUs without the host)",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_U32),
    .min_devices = 1,
    .max_devices = CLIMB_MAX_DEVICES,
    .options = SG_OPTIONS,
    .n_options = CLIMB_COUNT(SG_OPTIONS),
    .bytes_counted = "the busiest GPU's keys (and values) read and written once (one_gpu and the vendor: the whole "
                     "array); over the links, what it sends ((P - 1) / P of its slice for keys spread evenly; "
                     "gather_sort: every other slice into the first GPU)",
    .items_unit = "keys",
    .items_rate = "G keys/s",
    .bench_shapes = SG_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SG_BENCH_SHAPES),
    .check_shapes = SG_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SG_CHECK_SHAPES),
    .quick_shapes = SG_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SG_QUICK_SHAPES),
    .main_shapes = SG_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SG_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = SG_N_RUNGS,
    .rung = sg_rung_info,
    .weak_scaling = "--set split=weak --size 2^26",
    .case_size = sizeof(climb_case),
    .buffers = SG_BUFFERS,
    .n_buffers = CLIMB_COUNT(SG_BUFFERS),
    .init = sg_init,
    .fill = sg_fill,
    .fini = sg_fini,
    .describe = sg_describe,
    .reference = sg_reference,
    .case_bytes = sg_case_bytes,
    .refuses = sg_refuses,
    .prepare = sg_prepare,
    .run = sg_run,
    .empty = sg_empty,
    .poison = sg_poison,
    .verify = sg_verify,
    .counts = sg_counts,
    .rung_counts = sg_rung_counts,
    .release = sg_release,
};
