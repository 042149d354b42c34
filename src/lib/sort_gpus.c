/* The C API of sort across GPUs: climb_comm_sort_u32 and climb_comm_sort_pairs_u32, u32 keys (and values) spread
 * over a communicator's GPUs sorted so that each rank ends with its share of the stable order, by the schedule of
 * the rung marked best (the exact radix split, one exchange, a sort a GPU), or inside a capture by the gathering
 * rung's (src/lib/comm.c for the communicator). */
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/sort/sort.h"
#include "../workloads/sort_gpus.h"

/* 256-byte steps through a rank's workspace. */
static size_t up256(size_t b) { return (b + 255) & ~(size_t)255; }

/* The split's state over x: every rank's counts (P of them), the keys in all, keys alone or pairs. */
static void split_init(climb_sgx *e, const climb_coll_exec *x, const size_t *counts, int P, size_t n, int pairs)
{
    memset(e, 0, sizeof *e);
    e->x = x;
    e->pairs = pairs;
    e->n = n;
    for (int q = 0; q < P; q++)
        e->cnt[q] = counts[q];
}

/* Rank r's part of the split's state in its workspace p: the classes and the carried words (each `each` bytes),
 * the pairs' partitioned keys and values, the radix sort's workspace (ws_bytes), the counters (`counters` bytes),
 * each from a 256-byte step. Returns where the counters' room ends (the rank form puts every rank's counters there). */
static unsigned char *split_carve(climb_sgx *e, int r, unsigned char *p, size_t each, size_t ws_bytes, size_t counters)
{
    e->cls[r] = (uint32_t *)p;
    e->carry[r] = (uint32_t *)(p + each);
    p += 2 * each;
    if (e->pairs) {
        e->part_k[r] = (uint32_t *)p;
        e->part_v[r] = (uint32_t *)(p + each);
        p += 2 * each;
    }
    e->ws[r] = p;
    e->ws_bytes = ws_bytes;
    e->d_count[r] = (unsigned long long *)(p + up256(ws_bytes));
    return p + up256(ws_bytes) + up256(counters);
}

/* Rank r's arrays of cnt words: each in/out pair the same array (in place) or apart, keys apart from values, each
 * memory rank r's GPU reaches, 4-byte aligned. */
static int rank_arrays_ok(const struct climb_comm_s *c, int r, size_t cnt, const uint32_t *ik, const uint32_t *iv,
                          const uint32_t *ok, const uint32_t *ov, int pairs)
{
    climb_span a, b, x, y;
    if (!climb_span_of(ik, cnt, 4, &a) || !climb_span_of(ok, cnt, 4, &b) ||
        (ik != ok && climb_spans_overlap(a, b)) || !climb_comm_reachable(c, r, ik, 4) ||
        !climb_comm_reachable(c, r, ok, 4))
        return 0;
    if (!pairs)
        return 1;
    return climb_span_of(iv, cnt, 4, &x) && climb_span_of(ov, cnt, 4, &y) && (iv == ov || !climb_spans_overlap(x, y)) &&
           !climb_spans_overlap(a, x) && !climb_spans_overlap(a, y) && !climb_spans_overlap(b, x) &&
           !climb_spans_overlap(b, y) && climb_comm_reachable(c, r, iv, 4) && climb_comm_reachable(c, r, ov, 4);
}

/* The rank form's counts on the host: `count` counters of d_count[me] from every rank, all-gathered by NCCL into
 * d_all and brought to e->all_counts, rank after rank. 1, or 0 with *st or *err set. */
static int gather_counts(climb_comm c, climb_sgx *e, int me, unsigned long long *d_all, size_t count,
                         climb_status *st, cudaError_t *err)
{
    const size_t P = (size_t)c->nranks;
    return (*st = climb_comm_nccl_call(c, 1, CLIMB_I32, e->d_count[me], d_all, 2 * count)) == CLIMB_STATUS_SUCCESS &&
           (*err = cudaSetDevice(c->devices[0])) == cudaSuccess &&
           (*err = cudaMemcpyAsync(e->all_counts, d_all, P * count * sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost, c->st[0])) == cudaSuccess &&
           (*err = cudaStreamSynchronize(c->st[0])) == cudaSuccess;
}

/* The rank form: this process's rank (me) of nranks, its keys ik (and iv) into ok (ov); counts every rank's, n their
 * sum, most the largest. Outside a capture the split's steps a rank at a time (climb_sgx_split_round and the rest),
 * every rank's counts all-gathered by NCCL and brought to the host, so that every rank computes the same plan; the
 * pieces exchanged in one NCCL group (a rank's piece for itself copied on its stream). Inside one, every key sent to
 * rank 0, sorted there, and each share sent back. */
static climb_status sort_ranks(climb_comm c, const size_t *counts, size_t n, size_t most, const uint32_t *ik,
                               const uint32_t *iv, uint32_t *ok, uint32_t *ov, int pairs)
{
    const int P = c->nranks, me = c->rank, capturing = climb_stream_capturing(c->st[0]);
    if (capturing && n > CLIMB_SORT_MAX_N)
        return CLIMB_STATUS_NOT_SUPPORTED;
    if (P > CLIMB_MAX_DEVICES)
        return CLIMB_STATUS_NOT_SUPPORTED;
    /* the workspace: as the one-process form's, and every rank's counters side by side (outside a capture); inside
     * one, rank 0's room for every key (and value) and the radix sort's workspace for them */
    const size_t keys = capturing ? (me == 0 ? n : 1) : most;
    const size_t ws_bytes = climb_sort_radix_workspace(CLIMB_U32, keys, capturing ? pairs : 1);
    const size_t counters = climb_sgx_counters(P) * sizeof(unsigned long long);
    const size_t arrays = capturing ? (pairs ? 2 : 1) : (pairs ? 4 : 2);
    size_t words, each, part, need, gathered;
    if (!ws_bytes || !climb_mul_fits(keys, 4, &words) || !climb_mul_fits(up256(words), arrays, &part) ||
        !climb_mul_fits(counters, (size_t)P, &gathered) || !climb_add_fits(part, up256(ws_bytes), &need) ||
        !climb_add_fits(need, capturing ? 0 : up256(counters) + up256(gathered), &need))
        return CLIMB_STATUS_INVALID_VALUE;
    each = up256(words);
    cudaError_t err = climb_comm_workspace(c, need);
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    unsigned char *p = (unsigned char *)c->ws[0];
    int prev = 0;
    cudaGetDevice(&prev);
    cudaGetLastError();
    climb_status st = CLIMB_STATUS_SUCCESS;
    if (capturing) {
        /* every share to rank 0 (its own copied), sorted there, each share back */
        size_t off[CLIMB_MAX_DEVICES], at = 0;
        for (int q = 0; q < P; q++) {
            off[q] = at;
            at += counts[q];
        }
        uint32_t *all_k = (uint32_t *)p, *all_v = pairs ? (uint32_t *)(p + each) : NULL;
        climb_comm_xfer ops[4 * CLIMB_MAX_DEVICES];
        int k = 0;
        if ((err = cudaSetDevice(c->devices[0])) == cudaSuccess && me == 0 && counts[0]) {
            err = cudaMemcpyAsync(all_k, ik, counts[0] * 4, cudaMemcpyDeviceToDevice, c->st[0]);
            if (err == cudaSuccess && pairs)
                err = cudaMemcpyAsync(all_v, iv, counts[0] * 4, cudaMemcpyDeviceToDevice, c->st[0]);
        }
        for (int q = 1; q < P && err == cudaSuccess; q++) {
            if (me == 0) {
                ops[k++] = (climb_comm_xfer){q, NULL, all_k + off[q], counts[q]};
                if (pairs)
                    ops[k++] = (climb_comm_xfer){q, NULL, all_v + off[q], counts[q]};
            } else if (me == q) {
                ops[k++] = (climb_comm_xfer){0, ik, NULL, counts[q]};
                if (pairs)
                    ops[k++] = (climb_comm_xfer){0, iv, NULL, counts[q]};
            }
        }
        if (err == cudaSuccess)
            st = climb_comm_nccl_group(c, ops, k);
        if (err == cudaSuccess && st == CLIMB_STATUS_SUCCESS && me == 0 && (err = cudaSetDevice(c->devices[0])) ==
                                                                                  cudaSuccess)
            err = climb_sort_radix(CLIMB_U32, all_k, all_v, all_k, all_v, n, p + arrays * each, ws_bytes, c->st[0]);
        k = 0;
        for (int q = 1; q < P && err == cudaSuccess && st == CLIMB_STATUS_SUCCESS; q++) {
            if (me == 0) {
                ops[k++] = (climb_comm_xfer){q, all_k + off[q], NULL, counts[q]};
                if (pairs)
                    ops[k++] = (climb_comm_xfer){q, all_v + off[q], NULL, counts[q]};
            } else if (me == q) {
                ops[k++] = (climb_comm_xfer){0, NULL, ok, counts[q]};
                if (pairs)
                    ops[k++] = (climb_comm_xfer){0, NULL, ov, counts[q]};
            }
        }
        if (err == cudaSuccess && st == CLIMB_STATUS_SUCCESS)
            st = climb_comm_nccl_group(c, ops, k);
        if (err == cudaSuccess && st == CLIMB_STATUS_SUCCESS && me == 0 && counts[0] &&
            (err = cudaSetDevice(c->devices[0])) == cudaSuccess) {
            err = cudaMemcpyAsync(ok, all_k, counts[0] * 4, cudaMemcpyDeviceToDevice, c->st[0]);
            if (err == cudaSuccess && pairs)
                err = cudaMemcpyAsync(ov, all_v, counts[0] * 4, cudaMemcpyDeviceToDevice, c->st[0]);
        }
    } else {
        climb_coll_exec x;
        climb_comm_exec_rank(c, &x);
        climb_sgx e;
        split_init(&e, &x, counts, P, n, pairs);
        unsigned long long *d_all = (unsigned long long *)split_carve(&e, me, p, each, ws_bytes, counters);
        if (climb_sgx_host_alloc(&e, P) != 0) {
            cudaSetDevice(prev);
            return CLIMB_STATUS_ALLOC_FAILED;
        }
        int rc = climb_sgx_split_begin(&e);
        for (size_t bins = 1; rc == 0 && bins;) {
            rc = climb_sgx_split_round(&e, me, ik, &bins);
            if (rc == 0 && bins && !gather_counts(c, &e, me, d_all, bins, &st, &err))
                break;
            if (rc == 0 && bins)
                rc = climb_sgx_split_feed(&e, e.all_counts, bins);
        }
        if (rc == 0 && st == CLIMB_STATUS_SUCCESS && err == cudaSuccess)
            rc = climb_sgx_classify(&e, me, ik, pairs ? iv : NULL);
        if (rc == 0 && st == CLIMB_STATUS_SUCCESS && err == cudaSuccess && gather_counts(c, &e, me, d_all, 2 * (size_t)P, &st, &err))
            rc = climb_sgx_plan(&e, e.all_counts);
        if (rc == 0 && st == CLIMB_STATUS_SUCCESS && err == cudaSuccess) {
            /* the pieces in the plan's order, which every rank lists alike; a rank's own piece copied */
            climb_comm_xfer *ops = (climb_comm_xfer *)malloc((size_t)(e.n_pieces ? e.n_pieces : 1) * 2 * sizeof *ops);
            const uint32_t *sk = pairs ? e.part_k[me] : e.carry[me], *sv = e.part_v[me];
            int k = 0;
            if (!ops)
                st = CLIMB_STATUS_ALLOC_FAILED;
            for (int i = 0; ops && i < e.n_pieces && err == cudaSuccess; i++) {
                const climb_sgx_piece *q = &e.pieces[i];
                if (q->s == me && q->d == me) {
                    err = cudaMemcpyAsync(ok + q->to, sk + q->from, q->len * 4, cudaMemcpyDeviceToDevice, c->st[0]);
                    if (err == cudaSuccess && pairs)
                        err = cudaMemcpyAsync(ov + q->to, sv + q->from, q->len * 4, cudaMemcpyDeviceToDevice, c->st[0]);
                } else if (q->s == me) {
                    ops[k++] = (climb_comm_xfer){q->d, sk + q->from, NULL, q->len};
                    if (pairs)
                        ops[k++] = (climb_comm_xfer){q->d, sv + q->from, NULL, q->len};
                } else if (q->d == me) {
                    ops[k++] = (climb_comm_xfer){q->s, NULL, ok + q->to, q->len};
                    if (pairs)
                        ops[k++] = (climb_comm_xfer){q->s, NULL, ov + q->to, q->len};
                }
            }
            if (ops && err == cudaSuccess)
                st = climb_comm_nccl_group(c, ops, k);
            free(ops);
            if (st == CLIMB_STATUS_SUCCESS && err == cudaSuccess)
                rc = climb_sgx_sort_received(&e, me, ok, pairs ? ov : NULL);
        }
        if (rc != 0)
            err = e.err != cudaSuccess ? e.err : cudaErrorUnknown;
        const int plan_failed = rc != 0 && e.err == cudaSuccess;
        climb_sgx_host_free(&e);
        if (plan_failed) {
            cudaSetDevice(prev);
            return CLIMB_STATUS_INTERNAL_ERROR;
        }
    }
    cudaSetDevice(prev);
    cudaGetLastError();
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    return st;
}

static climb_status sort_across(climb_comm c, const size_t *counts, const uint32_t *const *ik,
                                const uint32_t *const *iv, uint32_t *const *ok, uint32_t *const *ov, int pairs)
{
    if (!c || !counts)
        return CLIMB_STATUS_INVALID_VALUE;
    size_t n = 0, most = 1;
    for (int q = 0; q < c->nranks; q++) {
        if (counts[q] > CLIMB_SORT_MAX_N || !climb_add_fits(n, counts[q], &n))
            return CLIMB_STATUS_INVALID_VALUE;
        most = counts[q] > most ? counts[q] : most;
    }
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to sort: the pointers are not looked at */
    if (!ik || !ok || (pairs && (!iv || !ov)))
        return CLIMB_STATUS_INVALID_VALUE;
    for (int r = 0; r < c->P; r++) {
        const size_t cnt = counts[c->rank + r];
        if (cnt && !rank_arrays_ok(c, r, cnt, ik[r], pairs ? iv[r] : NULL, ok[r], pairs ? ov[r] : NULL, pairs))
            return CLIMB_STATUS_INVALID_VALUE;
    }
    if (c->nccl)
        return sort_ranks(c, counts, n, most, ik[0], pairs ? iv[0] : NULL, ok[0], pairs ? ov[0] : NULL, pairs);
    const int capturing = climb_stream_capturing(c->st[0]);
    if (capturing && n > CLIMB_SORT_MAX_N)
        return CLIMB_STATUS_NOT_SUPPORTED; /* inside a capture every key is sorted on the first GPU */
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    climb_sgx e;
    split_init(&e, &x, counts, c->P, n, pairs);
    /* the workspace, the same on every rank. Outside a capture, the split's: the classes and the carried words,
     * the pairs' partitioned keys and values, the radix sort's workspace for the largest share, the counters; inside
     * one, the gathering's: every key (and value) and the radix sort's workspace for them all (on the first GPU) */
    size_t words, need = 0, ws_bytes;
    if (!climb_mul_fits(capturing ? n : most, 4, &words))
        return CLIMB_STATUS_INVALID_VALUE;
    ws_bytes = climb_sort_radix_workspace(CLIMB_U32, capturing ? n : most, capturing ? pairs : 1);
    const size_t counters = climb_sgx_counters(c->P) * sizeof(unsigned long long);
    const size_t arrays = capturing ? (pairs ? 2 : 1) : (pairs ? 4 : 2);
    size_t each = up256(words), part;
    if (!ws_bytes || !climb_mul_fits(each, arrays, &part) || !climb_add_fits(part, up256(ws_bytes), &need) ||
        !climb_add_fits(need, capturing ? 0 : up256(counters), &need))
        return CLIMB_STATUS_INVALID_VALUE;
    cudaError_t err = climb_comm_workspace(c, need);
    if (err != cudaSuccess) {
        c->last = err;
        return climb_status_of_cuda(err);
    }
    for (int r = 0; r < c->P && !capturing; r++)
        split_carve(&e, r, (unsigned char *)c->ws[r], each, ws_bytes, counters);
    e.ws_bytes = ws_bytes;
    if (!capturing && climb_sgx_host_alloc(&e, c->P) != 0)
        return CLIMB_STATUS_ALLOC_FAILED;
    climb_comm_call call;
    err = climb_comm_begin(c, 0, NULL, 0, &call);
    if (err == cudaSuccess) {
        int rc;
        if (capturing) {
            unsigned char *p = (unsigned char *)c->ws[0];
            rc = climb_sgx_gather_sort(&e, ik, pairs ? iv : NULL, ok, pairs ? ov : NULL, (uint32_t *)p,
                                       pairs ? (uint32_t *)(p + each) : NULL, p + arrays * each, ws_bytes);
        } else {
            rc = climb_sgx_radix_split(&e, ik, pairs ? iv : NULL, ok, pairs ? ov : NULL);
        }
        /* a plan that went wrong without a CUDA error is the library's own fault */
        err = rc == 0 ? cudaSuccess : e.err != cudaSuccess ? e.err : cudaErrorUnknown;
    }
    climb_sgx_host_free(&e);
    const climb_status st = climb_comm_end(&call, err);
    return err == cudaErrorUnknown && e.err == cudaSuccess && e.why ? CLIMB_STATUS_INTERNAL_ERROR : st;
}

climb_status climb_comm_sort_u32(climb_comm comm, const size_t *counts, const uint32_t *const *d_in,
                                 uint32_t *const *d_out)
{
    return sort_across(comm, counts, d_in, NULL, d_out, NULL, 0);
}

climb_status climb_comm_sort_pairs_u32(climb_comm comm, const size_t *counts, const uint32_t *const *d_keys_in,
                                       const uint32_t *const *d_vals_in, uint32_t *const *d_keys_out,
                                       uint32_t *const *d_vals_out)
{
    return sort_across(comm, counts, d_keys_in, d_vals_in, d_keys_out, d_vals_out, 1);
}
