/* The C API of SGEMM across GPUs: climb_comm_sgemm_f32, C = A B with the operands spread over a communicator's GPUs,
 * by the schedule of the rung marked best (the panels on two GPUs, the gathering on more), and
 * climb_comm_sgemm_split, the spread (src/lib/comm.c for the communicator). */
#include <limits.h>
#include <string.h>

#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../device/collective.h"
#include "../workloads/sgemm/sgemm.h"
#include "../workloads/sgemm_gpus.h"

climb_status climb_comm_sgemm_split(climb_comm c, size_t m, size_t k, int rank, size_t *m0, size_t *m1, size_t *k0,
                                    size_t *k1)
{
    if (!c || !m0 || !m1 || !k0 || !k1 || rank < 0 || rank >= c->nranks)
        return CLIMB_STATUS_INVALID_VALUE;
    size_t off, len;
    climb_chunk_of(m, c->nranks, rank, &off, &len);
    *m0 = off;
    *m1 = off + len;
    climb_chunk_of(k, c->nranks, rank, &off, &len);
    *k0 = off;
    *k1 = off + len;
    return CLIMB_STATUS_SUCCESS;
}

/* Rank r's (global rank g's) arrays: its rows of A and C and its piece of B, each of its extent without wrapping
 * where it has any, C over neither input, each memory rank r's GPU reaches, 4-byte aligned. */
static int arrays_ok(const struct climb_comm_s *c, int r, int g, size_t m, size_t n, size_t k, const float *a,
                     const float *b, float *out)
{
    size_t off, rows, kk;
    climb_chunk_of(m, c->nranks, g, &off, &rows);
    climb_chunk_of(k, c->nranks, g, &off, &kk);
    climb_span sa = {0, 0}, sb = {0, 0}, sc = {0, 0};
    const int has_a = rows && k, has_b = kk != 0, has_c = rows != 0;
    if ((has_a && (!climb_span_matrix(a, rows, k, k, sizeof(float), &sa) || !climb_comm_reachable(c, r, a, 4))) ||
        (has_b && (!climb_span_matrix(b, kk, n, n, sizeof(float), &sb) || !climb_comm_reachable(c, r, b, 4))) ||
        (has_c && (!climb_span_matrix(out, rows, n, n, sizeof(float), &sc) || !climb_comm_reachable(c, r, out, 4))))
        return 0;
    return !(has_c && ((has_a && climb_spans_overlap(sc, sa)) || (has_b && climb_spans_overlap(sc, sb))));
}

climb_status climb_comm_sgemm_f32(climb_comm c, size_t m, size_t n, size_t k, const float *const *d_a,
                                  const float *const *d_b, float *const *d_c)
{
    if (!c || m > INT_MAX || n > INT_MAX || k > INT_MAX)
        return CLIMB_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CLIMB_STATUS_SUCCESS; /* no product: nothing is touched */
    if (!d_a || !d_b || !d_c)
        return CLIMB_STATUS_INVALID_VALUE;
    for (int r = 0; r < c->P; r++)
        if (!arrays_ok(c, r, c->rank + r, m, n, k, d_a[r], d_b[r], d_c[r]))
            return CLIMB_STATUS_INVALID_VALUE;
    int most_sms = 1;
    for (int r = 0; r < c->P; r++)
        most_sms = c->sms[r] > most_sms ? c->sms[r] : most_sms;
    if (c->nccl) { /* one process a GPU: every piece gathered into the workspace by NCCL, then this rank's rows */
        size_t off[CLIMB_MAX_RANKS], count[CLIMB_MAX_RANKS], rows, m0;
        for (int q = 0; q < c->nranks; q++) {
            climb_chunk_of(k, c->nranks, q, &off[q], &count[q]);
            off[q] *= n;
            count[q] *= n;
        }
        climb_chunk_of(m, c->nranks, c->rank, &m0, &rows);
        const size_t split = climb_sgemm_workspace(NULL, 0, 0, rows, n, k, c->sms[0]);
        const size_t whole = k * n * sizeof(float), need = ((whole + 255) & ~(size_t)255) + split;
        cudaError_t e = climb_comm_workspace(c, need);
        if (e != cudaSuccess) {
            c->last = e;
            return climb_status_of_cuda(e);
        }
        float *all = (float *)c->ws[0];
        climb_status st = CLIMB_STATUS_SUCCESS;
        int prev = 0;
        cudaGetDevice(&prev);
        cudaGetLastError();
        e = cudaSetDevice(c->devices[0]);
        if (e == cudaSuccess && count[c->rank])
            e = cudaMemcpyAsync(all + off[c->rank], d_b[0], count[c->rank] * sizeof(float), cudaMemcpyDeviceToDevice,
                                c->st[0]);
        cudaSetDevice(prev);
        if (e == cudaSuccess)
            st = climb_comm_nccl_pieces(c, d_b[0], all, off, count);
        if (e != cudaSuccess || st != CLIMB_STATUS_SUCCESS) {
            cudaGetLastError();
            if (e != cudaSuccess)
                c->last = e;
            return e != cudaSuccess ? climb_status_of_cuda(e) : st;
        }
        e = cudaSetDevice(c->devices[0]);
        if (e == cudaSuccess && rows)
            e = k ? climb_sgemm_best(NULL, 0, 0, rows, n, k, 1.0f, d_a[0], k, all, n, 0.0f, d_c[0], n,
                                     (char *)c->ws[0] + ((whole + 255) & ~(size_t)255), split, c->sms[0], c->st[0])
                  : cudaMemsetAsync(d_c[0], 0, rows * n * sizeof(float), c->st[0]);
        cudaSetDevice(prev);
        cudaGetLastError();
        c->last = e;
        return climb_status_of_cuda(e);
    }
    /* one process, every GPU: on one or two, the panels, each rank's copies on its second stream, the workspace two
     * panels and SGEMM's split-K space; on more, the pieces gathered into the workspace's whole of B first */
    const int gathers = climb_sgemm_gpus_gathers(c->P);
    const size_t panel = gathers ? (k ? k * n : 1) * sizeof(float)
                                 : climb_sgemm_gpus_panel_floats(n, k, c->P) * sizeof(float);
    const size_t panel_r = (panel + 255) & ~(size_t)255;
    const size_t split = climb_sgemm_gpus_ws_bytes(m, n, k, c->P, most_sms);
    cudaError_t e = climb_comm_workspace(c, (gathers ? 1 : 2) * panel_r + split);
    if (e != cudaSuccess) {
        c->last = e;
        return climb_status_of_cuda(e);
    }
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    climb_sgemm_gpus_args g;
    memset(&g, 0, sizeof g);
    g.m = m;
    g.n = n;
    g.k = k;
    g.ws_bytes = split;
    for (int r = 0; r < c->P; r++) {
        g.a[r] = d_a[r];
        g.b[r] = d_b[r];
        g.c[r] = d_c[r];
        if (gathers) {
            g.whole[r] = (float *)c->ws[r];
            g.ws[r] = (char *)c->ws[r] + panel_r;
        } else {
            g.panel[r][0] = (float *)c->ws[r];
            g.panel[r][1] = (float *)((char *)c->ws[r] + panel_r);
            g.ws[r] = (char *)c->ws[r] + 2 * panel_r;
        }
        g.aux[r] = c->aux[r];
        g.got[r][0] = c->aux_ev[r][0];
        g.got[r][1] = c->aux_ev[r][1];
        g.used[r][0] = c->aux_ev[r][2];
        g.used[r][1] = c->aux_ev[r][3];
    }
    climb_comm_call call;
    e = climb_comm_begin(c, 0, NULL, 0, &call);
    if (e == cudaSuccess)
        e = gathers ? climb_sgemm_gpus_gather_async(&x, &g) : climb_sgemm_gpus_panels_async(&x, &g);
    return climb_comm_end(&call, e);
}
