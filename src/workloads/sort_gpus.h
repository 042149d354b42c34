/* Sort across GPUs: the parts of src/workloads/sort_gpus.cu that the tests and the C API (src/lib/sort_gpus.c)
 * use: the workload, and the best rung's schedule (the exact radix split, then one exchange, then a sort a GPU) on
 * GPUs and arrays its caller owns. */
#ifndef CLIMB_WORKLOADS_SORT_GPUS_H
#define CLIMB_WORKLOADS_SORT_GPUS_H
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "../core/workload.h"
#include "../device/collective.h"
#include "common/coll_exec.h"
#ifdef __cplusplus
extern "C" {
#endif
extern const climb_workload climb_sort_gpus_workload;

/* One piece of the exchange: len keys from position `from` of rank s's partitioned keys to position `to` of rank
 * d's output. */
typedef struct climb_sgx_piece {
    int s, d;
    size_t from, len, to;
} climb_sgx_piece;

/* The radix split's state for the P ranks of x (one process driving them all: x->lo = 0, x->hi = P). Rank r holds
 * cnt[r] keys (and values) in and ends with cnt[r] out. The device arrays are the caller's, each on its rank's GPU:
 * cls[r], carry[r] (cnt[r] words each, at least 1), part_k[r], part_v[r] (pairs: cnt[r] words each; keys alone:
 * unused), ws[r] (ws_bytes >= climb_sort_radix_workspace(CLIMB_U32, the largest cnt, 1)), d_count[r]
 * (climb_sgx_counters(P) words of 8 bytes). The host arrays are the caller's too (climb_sgx_host_alloc). */
typedef struct climb_sgx {
    const climb_coll_exec *x;
    int pairs;
    size_t n, cnt[CLIMB_MAX_DEVICES];
    uint32_t *cls[CLIMB_MAX_DEVICES], *carry[CLIMB_MAX_DEVICES];
    uint32_t *part_k[CLIMB_MAX_DEVICES], *part_v[CLIMB_MAX_DEVICES];
    void *ws[CLIMB_MAX_DEVICES];
    size_t ws_bytes;
    unsigned long long *d_count[CLIMB_MAX_DEVICES];
    unsigned long long *h_count;  /* climb_sgx_counters(P) words */
    size_t *hist;                 /* a round's counts of every rank: P x P x 256 */
    unsigned long long *all_counts; /* every rank's counters side by side: P x climb_sgx_counters(P) */
    climb_keysplit *split;
    climb_sgx_piece *pieces;      /* 3 P a rank at the most */
    int n_pieces;
    cudaError_t err;              /* a failed call's CUDA error (cudaSuccess where the plan itself failed) */
    const char *why;              /* what failed, for a message */
} climb_sgx;

/* The counters a rank needs on its GPU: a split round's digit counts (P - 1 ranges of 256), the classes' (2 P); while
 * the split runs, the last word counts the keys its second round kept aside (past every round's digit counts). */
size_t climb_sgx_counters(int P);
/* The host arrays of e for P ranks (h_count pageable; pinned is the caller's choice, made after): 0, or -1 out of
 * host memory (nothing left allocated). climb_sgx_host_free frees what alloc made. */
int climb_sgx_host_alloc(climb_sgx *e, int P);
void climb_sgx_host_free(climb_sgx *e);

/* The best rung: rank r's in_k[r] (and in_v[r]) sorted across the ranks into out_k[r] (out_v[r]), stable; the split
 * first from rounds of digit counts (each waits for the host), each rank's keys partitioned by output, one exchange
 * by the copy engines, a sort a rank. out may be in (in place) on every rank; no other overlap. On the ranks'
 * streams (x->st), after the work issued there so far, the host waiting on them between rounds: not capturable.
 * 0, or -1 with e->err and e->why set. */
int climb_sgx_radix_split(climb_sgx *e, const uint32_t *const *in_k, const uint32_t *const *in_v,
                          uint32_t *const *out_k, uint32_t *const *out_v);

/* The same a rank at a time, for a caller that drives one rank and gathers the counts itself (the rank form, by
 * NCCL), all ranks computing the same plan: split_begin; then rounds of split_round (rank r's digit counts of its
 * keys into d_count[r], *bins of them; *bins 0: the split is done) and split_feed (all: every rank's bins counts,
 * rank after rank); classify (rank r's keys partitioned: its 2 P class counts into d_count[r]; the pieces it sends
 * from carry[r] for keys alone, part_k[r] and part_v[r] for pairs); plan (every rank's class counts, 2 P a rank,
 * rank after rank: e->pieces placed); the exchange (the caller's); sort_received. Each 0, or -1 with e->err and
 * e->why set. */
int climb_sgx_split_begin(climb_sgx *e);
int climb_sgx_split_round(climb_sgx *e, int r, const uint32_t *keys, size_t *bins);
int climb_sgx_split_feed(climb_sgx *e, const unsigned long long *all, size_t bins);
int climb_sgx_classify(climb_sgx *e, int r, const uint32_t *in_k, const uint32_t *in_v);
int climb_sgx_plan(climb_sgx *e, const unsigned long long *all);
int climb_sgx_sort_received(climb_sgx *e, int r, uint32_t *out_k, uint32_t *out_v);

/* The capturable way: every rank's keys (and values) copied into all_k (all_v) on rank 0's GPU at their offsets in
 * rank order, sorted there (climb's radix sort, workspace ws0 of ws0_bytes >= climb_sort_radix_workspace(CLIMB_U32,
 * n, pairs)) and each rank's share copied back into out_k[r] (out_v[r]), all by stream work alone. 0, or -1 with
 * e->err and e->why set. */
int climb_sgx_gather_sort(climb_sgx *e, const uint32_t *const *in_k, const uint32_t *const *in_v,
                          uint32_t *const *out_k, uint32_t *const *out_v, uint32_t *all_k, uint32_t *all_v,
                          void *ws0, size_t ws0_bytes);
#ifdef __cplusplus
}
#endif
#endif
