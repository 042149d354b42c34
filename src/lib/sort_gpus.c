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
        return CLIMB_STATUS_NOT_SUPPORTED; /* one process a GPU: not yet */
    const int capturing = climb_stream_capturing(c->st[0]);
    if (capturing && n > CLIMB_SORT_MAX_N)
        return CLIMB_STATUS_NOT_SUPPORTED; /* inside a capture every key is sorted on the first GPU */
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    climb_sgx e;
    memset(&e, 0, sizeof e);
    e.x = &x;
    e.pairs = pairs;
    e.n = n;
    for (int r = 0; r < c->P; r++)
        e.cnt[r] = counts[r];
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
    for (int r = 0; r < c->P; r++) {
        unsigned char *p = (unsigned char *)c->ws[r];
        if (capturing)
            break;
        e.cls[r] = (uint32_t *)p;
        e.carry[r] = (uint32_t *)(p + each);
        p += 2 * each;
        if (pairs) {
            e.part_k[r] = (uint32_t *)p;
            e.part_v[r] = (uint32_t *)(p + each);
            p += 2 * each;
        }
        e.ws[r] = p;
        e.d_count[r] = (unsigned long long *)(p + up256(ws_bytes));
    }
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
