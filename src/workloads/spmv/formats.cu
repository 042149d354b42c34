/* SpMV on the host: the generated matrices and their statistics, the tolerance, and the formats the ladder converts
 * CSR into (ELL, COO, the hybrid, JDS, JDS with ELL sections, the windowed JDS; the row-block and adaptive plans),
 * built once per matrix and copied to the device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/host.h"
#include "../../io/graph.h"
#include "case.h"
#include "kernels.cuh"

/* ---------------------------------------------------------------- generators */

/* The generated matrices are core's (src/io/graph.c), shared with the graph workloads. */
extern "C" int climb_spmv_generate(const climb_spmv_gen *g, climb_csr *m, int grid[3], char *err, size_t errlen)
{
    const int kind = g->matrix == CLIMB_SPMV_ELASTIC27 ? CLIMB_GEN_ELASTIC27
                     : g->matrix == CLIMB_SPMV_FEM     ? CLIMB_GEN_FEM
                                                       : g->matrix;
    const climb_sparse_gen sg = {kind, g->rows, g->cols, g->band, g->per_row, g->max_row, g->seed, 0};
    return climb_sparse_generate(&sg, m, grid, err, errlen);
}

extern "C" double climb_spmv_tolerance(int32_t len, double sum_abs, int f64)
{
    return 1.01 * ((double)len + 1) * ldexp(1.0, f64 ? -53 : -24) * sum_abs;
}

extern "C" void climb_spmv_row_stats(const climb_csr *m, climb_spmv_stats *s)
{
    memset(s, 0, sizeof *s);
    if (m->rows == 0)
        return;
    double sum = 0, sq = 0;
    for (int32_t r = 0; r < m->rows; r++) {
        const int32_t l = m->row_ptr[r + 1] - m->row_ptr[r];
        sum += l;
        sq += (double)l * l;
        s->max = l > s->max ? l : s->max;
        s->empty += l == 0;
    }
    s->mean = sum / m->rows;
    const double var = sq / m->rows - s->mean * s->mean;
    s->cv = s->mean > 0 ? sqrt(var > 0 ? var : 0) / s->mean : 0;
}

/* ---------------------------------------------------------------- host formats (built once per matrix) */



int spmv_sort_rows(const climb_csr *m, spmv_sorted *s)
{
    const int32_t rows = m->rows;
    s->perm = (int32_t *)malloc(((size_t)rows + 1) * sizeof(int32_t));
    s->len = (int32_t *)malloc(((size_t)rows + 1) * sizeof(int32_t));
    int32_t maxlen = 0;
    for (int32_t r = 0; r < rows; r++) {
        const int32_t l = m->row_ptr[r + 1] - m->row_ptr[r];
        maxlen = l > maxlen ? l : maxlen;
    }
    int64_t *start = (int64_t *)calloc((size_t)maxlen + 2, sizeof(int64_t));
    if (!s->perm || !s->len || !start) {
        free(start);
        return -1;
    }
    /* counting sort, descending: start[k] = rows longer than maxlen - k ... as positions */
    for (int32_t r = 0; r < rows; r++)
        start[maxlen - (m->row_ptr[r + 1] - m->row_ptr[r]) + 1]++;
    for (int32_t k = 1; k <= maxlen + 1; k++)
        start[k] += start[k - 1];
    for (int32_t r = 0; r < rows; r++) {
        const int32_t l = m->row_ptr[r + 1] - m->row_ptr[r];
        const int64_t at = start[maxlen - l]++;
        s->perm[at] = r;
        s->len[at] = l;
    }
    free(start);
    return 0;
}

void spmv_free_sorted(spmv_sorted *s)
{
    free(s->perm);
    free(s->len);
    memset(s, 0, sizeof *s);
}



/* The hybrid's ELL width, as CUSP chooses it: the largest k such that at least max(4096, rows / 3) rows have k
 * or more nonzeros (so most of the ELL slots hold a nonzero); the rest of each longer row goes to COO. */
static int32_t hyb_width(const climb_csr *m, const int64_t *at_least, int32_t maxlen)
{
    const int64_t need = m->rows / 3 > 4096 ? m->rows / 3 : 4096;
    int32_t k = 0;
    while (k < maxlen && at_least[k + 1] >= need)
        k++;
    return k;
}

int spmv_compute_sizes(const climb_csr *m, const spmv_sorted *s, spmv_sizes *z)
{
    memset(z, 0, sizeof *z);
    const int32_t rows = m->rows;
    int32_t maxlen = rows ? s->len[0] : 0;
    z->ell_width = maxlen;
    z->ell_elems = (int64_t)maxlen * rows;
    int64_t *at_least = (int64_t *)calloc((size_t)maxlen + 2, sizeof(int64_t));
    if (!at_least)
        return -1;
    for (int32_t r = 0; r < rows; r++)
        at_least[s->len[r]]++;
    for (int32_t k = maxlen - 1; k >= 0; k--)
        at_least[k] += at_least[k + 1];
    z->hyb_width = hyb_width(m, at_least, maxlen);
    for (int32_t r = 0; r < rows; r++)
        z->hyb_coo += s->len[r] > z->hyb_width ? s->len[r] - z->hyb_width : 0;
    free(at_least);
    z->sections = (int32_t)(((int64_t)rows + SPMV_SECTION - 1) / SPMV_SECTION);
    for (int32_t sec = 0; sec < z->sections; sec++)
        z->sell_elems += (int64_t)SPMV_SECTION * s->len[(int64_t)sec * SPMV_SECTION];
    return 0;
}

/* Copies n values to a new device array in the case's type. */
int spmv_upload_vals(const climb_case *c, const double *v, size_t n, void **d)
{
    void *h = malloc((n ? n : 1) * c->tsize);
    if (!h) {
        climb_host_oom("%zu values", n);
        return -1;
    }
    if (c->p.type == CLIMB_F64)
        memcpy(h, v, n * sizeof(double));
    else
        for (size_t k = 0; k < n; k++)
            ((float *)h)[k] = (float)v[k];
    cudaError_t e = cudaMalloc(d, (n ? n : 1) * c->tsize);
    if (e == cudaSuccess)
        e = cudaMemcpy(*d, h, n * c->tsize, cudaMemcpyHostToDevice);
    free(h);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: spmv: could not place %zu values on the device: %s\n", n, cudaGetErrorString(e));
        cudaGetLastError();
        return -1;
    }
    return 0;
}

static int upload_ints(const void *v, size_t n, size_t each, void **d)
{
    cudaError_t e = cudaMalloc(d, (n ? n : 1) * each);
    if (e == cudaSuccess)
        e = cudaMemcpy(*d, v, n * each, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: spmv: could not place %zu indices on the device: %s\n", n, cudaGetErrorString(e));
        cudaGetLastError();
        return -1;
    }
    return 0;
}

/* An ELL block of `width` slots for `nrows` rows (slot k of row i at k x nrows + i): row i is perm[i] (or i
 * without perm), and its slots from `skip` on... the first `width` nonzeros of each row. */
static int build_ell_host(const climb_csr *m, int32_t width, int32_t **ci, double **v)
{
    const size_t n = (size_t)width * (size_t)m->rows;
    *ci = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
    *v = (double *)calloc(n ? n : 1, sizeof(double));
    if (!*ci || !*v)
        return -1;
    for (size_t k = 0; k < n; k++)
        (*ci)[k] = -1;
    for (int32_t r = 0; r < m->rows; r++) {
        const int32_t b = m->row_ptr[r], l = m->row_ptr[r + 1] - b;
        for (int32_t k = 0; k < l && k < width; k++) {
            (*ci)[(size_t)k * m->rows + r] = m->col_idx[b + k];
            (*v)[(size_t)k * m->rows + r] = m->val[b + k];
        }
    }
    return 0;
}

int spmv_build_format(climb_case *c, spmv_format f)
{
    const climb_csr *m = c->m;
    int rc = 0;
    int32_t *ci = NULL, *idx = NULL, *idx2 = NULL;
    double *v = NULL, *v2 = NULL;
    long long *sec = NULL;
    double bytes = 0;
    switch (f) {
    case FMT_ELL:
        rc = build_ell_host(m, c->sz.ell_width, &ci, &v);
        if (rc == 0)
            rc = upload_ints(ci, (size_t)c->sz.ell_elems, 4, (void **)&c->d_ell_ci) ||
                 spmv_upload_vals(c, v, (size_t)c->sz.ell_elems, &c->d_ell_val);
        bytes = (double)c->sz.ell_elems * (4 + c->tsize);
        break;
    case FMT_COO:
        idx = (int32_t *)malloc(((size_t)m->nnz + 1) * sizeof(int32_t));
        rc = idx ? 0 : -1;
        for (int32_t r = 0; rc == 0 && r < m->rows; r++)
            for (int32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j++)
                idx[j] = r;
        if (rc == 0)
            rc = upload_ints(idx, (size_t)m->nnz, 4, (void **)&c->d_coo_row);
        bytes = (double)m->nnz * 4;
        break;
    case FMT_HYB: {
        const int32_t w = c->sz.hyb_width;
        const int64_t rest = c->sz.hyb_coo;
        rc = build_ell_host(m, w, &ci, &v);
        idx = (int32_t *)malloc(((size_t)rest + 1) * sizeof(int32_t));
        idx2 = (int32_t *)malloc(((size_t)rest + 1) * sizeof(int32_t));
        v2 = (double *)malloc(((size_t)rest + 1) * sizeof(double));
        if (rc == 0 && (!idx || !idx2 || !v2))
            rc = -1;
        int64_t k = 0;
        for (int32_t r = 0; rc == 0 && r < m->rows; r++)
            for (int32_t j = m->row_ptr[r] + w; j < m->row_ptr[r + 1]; j++, k++) {
                idx[k] = r;
                idx2[k] = m->col_idx[j];
                v2[k] = m->val[j];
            }
        const size_t ell = (size_t)w * (size_t)m->rows;
        if (rc == 0)
            rc = upload_ints(ci, ell, 4, (void **)&c->d_hyb_ci) || spmv_upload_vals(c, v, ell, &c->d_hyb_val) ||
                 upload_ints(idx, (size_t)rest, 4, (void **)&c->d_hyb_row) ||
                 upload_ints(idx2, (size_t)rest, 4, (void **)&c->d_hyb_cci) ||
                 spmv_upload_vals(c, v2, (size_t)rest, &c->d_hyb_cval);
        bytes = (double)ell * (4 + c->tsize) + (double)rest * (8 + c->tsize);
        break;
    }
    case FMT_JDS: {
        const int32_t diag = m->rows ? c->sorted.len[0] : 0;
        idx = (int32_t *)calloc((size_t)diag + 1, sizeof(int32_t));
        ci = (int32_t *)malloc(((size_t)m->nnz + 1) * sizeof(int32_t));
        v = (double *)malloc(((size_t)m->nnz + 1) * sizeof(double));
        rc = idx && ci && v ? 0 : -1;
        /* jd_ptr[d]: nonzeros on the diagonals before d; the rows with a d-th nonzero are the first of perm */
        int32_t longer = m->rows;
        for (int32_t d = 0; rc == 0 && d < diag; d++) {
            while (longer > 0 && c->sorted.len[longer - 1] <= d)
                longer--;
            idx[d + 1] = idx[d] + longer;
            for (int32_t i = 0; i < longer; i++) {
                const int32_t j = m->row_ptr[c->sorted.perm[i]] + d;
                ci[idx[d] + i] = m->col_idx[j];
                v[idx[d] + i] = m->val[j];
            }
        }
        if (rc == 0)
            rc = upload_ints(c->sorted.perm, (size_t)m->rows, 4, (void **)&c->d_perm) ||
                 upload_ints(idx, (size_t)diag + 1, 4, (void **)&c->d_jd_ptr) ||
                 upload_ints(ci, (size_t)m->nnz, 4, (void **)&c->d_jds_ci) ||
                 spmv_upload_vals(c, v, (size_t)m->nnz, &c->d_jds_val);
        bytes = (double)m->nnz * (4 + c->tsize) + (double)m->rows * 4 + ((double)diag + 1) * 4;
        break;
    }
    case FMT_SELL: {
        const int32_t ns = c->sz.sections;
        const size_t n = (size_t)c->sz.sell_elems;
        sec = (long long *)malloc(((size_t)ns + 1) * sizeof(long long));
        idx = (int32_t *)malloc(((size_t)ns + 1) * sizeof(int32_t));
        ci = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
        v = (double *)calloc(n ? n : 1, sizeof(double));
        rc = sec && idx && ci && v ? 0 : -1;
        for (size_t k = 0; rc == 0 && k < n; k++)
            ci[k] = -1;
        long long at = 0;
        for (int32_t s = 0; rc == 0 && s < ns; s++) {
            const int32_t w = c->sorted.len[(int64_t)s * SPMV_SECTION];
            sec[s] = at;
            idx[s] = w;
            for (int32_t l = 0; l < SPMV_SECTION; l++) {
                const int64_t i = (int64_t)s * SPMV_SECTION + l;
                if (i >= m->rows)
                    break;
                const int32_t r = c->sorted.perm[i], b = m->row_ptr[r], len = m->row_ptr[r + 1] - b;
                for (int32_t k = 0; k < len; k++) {
                    ci[at + (long long)k * SPMV_SECTION + l] = m->col_idx[b + k];
                    v[at + (long long)k * SPMV_SECTION + l] = m->val[b + k];
                }
            }
            at += (long long)w * SPMV_SECTION;
        }
        if (rc == 0) {
            sec[ns] = at;
            rc = upload_ints(c->sorted.perm, (size_t)m->rows, 4, (void **)&c->d_perm) ||
                 upload_ints(sec, (size_t)ns + 1, sizeof(long long), (void **)&c->d_sec_ptr) ||
                 upload_ints(idx, (size_t)ns, 4, (void **)&c->d_sec_w) ||
                 upload_ints(ci, n, 4, (void **)&c->d_sell_ci) || spmv_upload_vals(c, v, n, &c->d_sell_val);
        }
        bytes = (double)n * (4 + c->tsize) + (double)m->rows * 4 + (double)ns * 12;
        break;
    }
    case FMT_WINDOWS: {
        const int W = CLIMB_SPMV_WINDOW;
        const int64_t windows = ((int64_t)m->rows + W - 1) / W;
        int64_t *woff = (int64_t *)malloc(((size_t)windows + 1) * sizeof(int64_t));
        int32_t *jd = NULL;
        idx = (int32_t *)malloc(((size_t)m->rows + 1) * sizeof(int32_t));
        ci = (int32_t *)malloc(((size_t)m->nnz + 1) * sizeof(int32_t));
        v = (double *)malloc(((size_t)m->nnz + 1) * sizeof(double));
        rc = woff && idx && ci && v ? climb_spmv_windows_layout(m->row_ptr, m->rows, idx, woff, &jd) : -1;
        /* the k-th nonzero of the row at rank i of window w: row_ptr[w W] + jd[woff[w] + k] + i */
        for (int64_t w = 0; rc == 0 && w < windows; w++)
            for (int64_t i = 0; i < W && w * W + i < m->rows; i++) {
                const int32_t r = idx[w * W + i], b = m->row_ptr[r];
                for (int32_t k = 0; k < m->row_ptr[r + 1] - b; k++) {
                    const int64_t at = m->row_ptr[w * W] + jd[woff[w] + k] + i;
                    ci[at] = m->col_idx[b + k];
                    v[at] = m->val[b + k];
                }
            }
        if (rc == 0)
            rc = upload_ints(idx, (size_t)m->rows, 4, (void **)&c->d_win_perm) ||
                 upload_ints(woff, (size_t)windows + 1, sizeof(int64_t), (void **)&c->d_win_off) ||
                 upload_ints(jd, (size_t)woff[windows], 4, (void **)&c->d_win_jd) ||
                 upload_ints(ci, (size_t)m->nnz, 4, (void **)&c->d_win_ci) ||
                 spmv_upload_vals(c, v, (size_t)m->nnz, &c->d_win_val);
        bytes = rc == 0 ? (double)m->nnz * (4 + c->tsize) + (double)m->rows * 4 + ((double)windows + 1) * 8 +
                              (double)woff[windows] * 4
                        : 0;
        free(woff);
        free(jd);
        break;
    }
    case FMT_MERGE:
    case FMT_ADAPTIVE: {
        cudaError_t e = f == FMT_MERGE ? spmv_merge_plan_build(&c->mplan, &c->plan, SPMV_MERGE_BLOCK, SPMV_MERGE_ITEMS, 0)
                                       : climb_spmv_plan_build(&c->plan, 0);
        if (e != cudaSuccess) {
            fprintf(stderr, "climb: spmv: could not build the plan: %s\n", cudaGetErrorString(e));
            cudaGetLastError();
            rc = -1;
        }
        bytes = f == FMT_MERGE ? (double)c->mplan.bytes : (double)c->plan.bytes;
        break;
    }
    default:
        break;
    }
    if (rc != 0 && f != FMT_MERGE && f != FMT_ADAPTIVE)
        fprintf(stderr, "climb: spmv: could not build a format (host or device memory)\n");
    free(ci);
    free(v);
    free(idx);
    free(idx2);
    free(v2);
    free(sec);
    if (rc == 0 && CLIMB_FAILED(cudaDeviceSynchronize()))
        rc = -1;
    c->made[f].bytes = bytes;
    return rc;
}
