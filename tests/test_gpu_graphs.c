/* GPU: the C API as real programs use it (docs/graphs.md).
 *
 * capture: for every public call that launches work, a fresh handle on a non-blocking stream, its FIRST call
 *          captured into a CUDA graph, the graph instantiated and launched three times with new input copied in
 *          between, then one eager call; every element checked each time. Then a used handle whose workspace
 *          must grow inside a capture, with the graph captured before the growth launched again after it.
 * errors:  a call into a capture the caller broke fails with the capture's error and leaves none behind (the next
 *          call on another handle, and an SpMV plan made eagerly, work); a workspace that cannot be allocated
 *          (the device's memory taken) is CLIMB_STATUS_ALLOC_FAILED and the next calls work once memory is back;
 *          plan creation and climb_destroy refuse a capturing stream and leave the capture valid.
 * threads: eight threads, each with its own handle and stream, 200 mixed calls each, every result checked; all of
 *          them use one SpMV plan made on the main thread's handle.
 * devices: a handle made and used from a thread whose current device was never set; the caller's current device
 *          unchanged by calls on a handle of another device (run where there are two GPUs).
 *
 *   test_gpu_graphs [capture|all|--probe]   (capture: the capture part alone, as the compute-sanitizer run takes
 *                                           it; --probe: exit 0 where there is a GPU, 77 where not) 
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "base/rng.h"
#include "workloads/cnn.h"
#include "workloads/conv/conv.h"
#include "workloads/dcs.h"
#include "workloads/cutoff/cutoff.h"
#include "workloads/mriq.h"
#include "workloads/bezier/bezier.h"
#include "workloads/sort/sort.h"
#include "workloads/bfs/bfs.h"
#include "io/graph.h"
#include "workloads/histogram/histogram.h"
#include "workloads/reduce/reduce.h"
#include "workloads/scan/scan.h"
#include "workloads/sgemm/sgemm.h"
#include "workloads/spmv/spmv.h"
#include "workloads/stencil.h"
#include "workloads/transpose.h"
#include "testing.h"

/* ---------------------------------------------------------------- one call of the API, with its check */

typedef enum {
    J_REDUCE, J_SCAN, J_HIST, J_TRANSPOSE, J_SGEMM, J_SPMV, J_CONV, J_STENCIL, J_CNN, J_DCS, J_CUTOFF, J_MRIQ,
    J_SORT, J_BFS, J_BEZIER
} job_kind;

/* A device CSR matrix (shared by SpMV jobs) with its host copy. */
typedef struct matrix {
    int rows, cols, nnz;
    int32_t *rp, *ci;
    double *val;                /* host values, as the type holds them */
    int32_t *d_rp, *d_ci;
    void *d_val;                /* f32 or f64 */
    int f64;
} matrix;

typedef struct job {
    char label[96];
    job_kind k;
    int f32;                    /* reduce, scan: f32 (else i32); transpose: f32 (else f64); sort: pairs (else keys);
                                   bfs: climb_bfs_symmetric (else climb_bfs) */
    int graph;                  /* bfs: the generator (CLIMB_GEN_*); the CSR's row pointers in h_a, columns in h_b,
                                   m edges, the source in `rows`, the levels out */
    int exclusive;              /* scan */
    size_t n;                   /* reduce, scan, histogram: elements */
    unsigned bins;              /* histogram */
    size_t rows, cols;          /* transpose, conv; stencil: nx, ny (and nz in n) */
    climb_lattice_desc lattice; /* dcs, cutoff: atoms (x y z q) in h_a, n of them; the potential out */
    float cutoff;               /* cutoff */
    size_t samples, voxels;     /* mriq: kx ky kz phi_r phi_i (samples each), then x y z (voxels each) in h_a; Qr, Qi out */
    climb_conv_layer_desc layer; /* cnn: x in h_a, w in h_b (drawn once, at setup), y out */
    int radius;                 /* conv: its mask (in h_b, host memory) is drawn once, at setup: a graph keeps it */
    int max_points;             /* bezier: n curves in h_a; counts, offsets, then the points out */
    int ta, tb;                 /* sgemm */
    size_t m, nn, kk;
    float alpha, beta;
    const matrix *mat;          /* spmv */
    climb_spmv_plan plan;
    /* buffers: the input(s) on the host and device, the output on the device */
    void *h_a, *h_b, *h_c0;
    void *d_a, *d_b, *d_out;
    size_t a_bytes, b_bytes, out_bytes;
} job;

static size_t es_of(const job *j)
{
    if (j->k == J_HIST)
        return 1;
    if (j->k == J_TRANSPOSE)
        return j->f32 ? 4 : 8;
    if (j->k == J_SPMV)
        return j->mat->f64 ? 8 : 4;
    return 4;
}

/* Allocates j's buffers (0, or -1 with a message). */
static int job_setup(job *j)
{
    const size_t es = es_of(j);
    switch (j->k) {
    case J_REDUCE: j->a_bytes = j->n * es; j->out_bytes = es; break;
    case J_SCAN: j->a_bytes = j->n * es; j->out_bytes = j->n * es; break;
    case J_HIST: j->a_bytes = j->n; j->out_bytes = j->bins * 4; break;
    case J_TRANSPOSE: j->a_bytes = j->rows * j->cols * es; j->out_bytes = j->a_bytes; break;
    case J_CONV: j->a_bytes = j->rows * j->cols * 4; j->out_bytes = j->a_bytes; j->b_bytes = CLIMB_CONV_MAX_TAPS * 4; break;
    case J_CNN: {
        int p = 0, q = 0;
        climb_conv_output_size(&j->layer, &p, &q);
        const climb_conv_layer_desc *d = &j->layer;
        j->a_bytes = (size_t)d->n * d->c * d->h * d->w * 4;
        j->b_bytes = (size_t)d->k * d->c * d->r * d->s * 4;
        j->out_bytes = (size_t)d->n * d->k * p * q * 4;
        break;
    }
    case J_DCS:
    case J_CUTOFF:
        j->a_bytes = j->n * 16;
        j->out_bytes = j->lattice.nx * j->lattice.ny * j->lattice.nz * 4;
        break;
    case J_MRIQ: j->a_bytes = (5 * j->samples + 3 * j->voxels) * 4; j->out_bytes = 2 * j->voxels * 4; break;
    case J_BFS: { /* the graph drawn once; each fill shuffles the order within rows (the same levels) */
        climb_sparse_gen sg = {j->graph, (int64_t)j->n, (int64_t)j->n, 0, 8, 0, 20261124};
        climb_csr g;
        char err[200];
        if (climb_sparse_generate(&sg, &g, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", j->label, err);
            return -1;
        }
        j->m = (size_t)g.nnz;
        j->a_bytes = (j->n + 1) * 4;
        j->b_bytes = j->m * 4;
        j->out_bytes = j->n * 4;
        j->rows = (size_t)climb_bfs_default_source((int32_t)j->n, g.row_ptr, g.col_idx, 7);
        j->h_a = malloc(j->a_bytes + 16);
        j->h_b = malloc(j->b_bytes + 16);
        if (j->h_a && j->h_b) {
            memcpy(j->h_a, g.row_ptr, j->a_bytes);
            memcpy(j->h_b, g.col_idx, j->b_bytes);
        }
        climb_csr_free(&g);
        j->h_c0 = malloc(j->out_bytes + 16);
        if (!j->h_a || !j->h_b || !j->h_c0 || cudaMalloc(&j->d_a, j->a_bytes + 16) != cudaSuccess ||
            cudaMalloc(&j->d_b, j->b_bytes + 16) != cudaSuccess || cudaMalloc(&j->d_out, j->out_bytes + 16) != cudaSuccess)
            return -1;
        return cudaMemcpy(j->d_a, j->h_a, j->a_bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
    }
    case J_BEZIER:
        j->a_bytes = j->n * sizeof(climb_bezier);
        j->out_bytes = j->n * 8 + j->n * (size_t)j->max_points * 8;
        break;
    case J_SORT: /* in place: the keys are sorted in d_out (copied there from h_a), the values in d_b (from h_b) */
        j->a_bytes = j->out_bytes = j->n * 4;
        j->b_bytes = j->f32 ? j->n * 4 : 0;
        break;
    case J_STENCIL: j->a_bytes = j->rows * j->cols * j->n * 4; j->out_bytes = j->a_bytes; j->b_bytes = 7 * 4; break;
    case J_SGEMM:
        j->a_bytes = j->m * j->kk * 4;
        j->b_bytes = j->kk * j->nn * 4;
        j->out_bytes = j->m * j->nn * 4;
        break;
    case J_SPMV:
        j->a_bytes = (size_t)j->mat->cols * es;
        j->b_bytes = (size_t)j->mat->rows * es; /* y0, when beta != 0 */
        j->out_bytes = (size_t)j->mat->rows * es;
        break;
    }
    j->h_a = malloc(j->a_bytes + 16);
    j->h_b = malloc(j->b_bytes + 16);
    j->h_c0 = malloc(j->out_bytes + 16);
    if (!j->h_a || !j->h_b || !j->h_c0 || cudaMalloc(&j->d_a, j->a_bytes + 16) != cudaSuccess ||
        cudaMalloc(&j->d_b, j->b_bytes + 16) != cudaSuccess || cudaMalloc(&j->d_out, j->out_bytes + 16) != cudaSuccess) {
        fprintf(stderr, "%s: out of memory for the test's buffers\n", j->label);
        return -1;
    }
    if (j->k == J_CNN) { /* the filters: drawn once, copied once */
        climb_rng mr;
        climb_rng_seed(&mr, (uint64_t)j->layer.k * 131 + j->layer.c);
        climb_rng_fill_f32(&mr, j->h_b, j->b_bytes / 4, -1.0f, 1.0f);
        if (cudaMemcpy(j->d_b, j->h_b, j->b_bytes, cudaMemcpyHostToDevice) != cudaSuccess)
            return -1;
    }
    if (j->k == J_CONV || j->k == J_STENCIL) { /* the weights: drawn once (a captured graph keeps them) */
        climb_rng mr;
        climb_rng_seed(&mr, (uint64_t)j->rows * 31 + j->cols);
        if (j->k == J_CONV)
            climb_rng_fill_f32(&mr, j->h_b, CLIMB_CONV_MAX_TAPS, -1.0f, 1.0f);
        else
            climb_rng_fill_f32(&mr, j->h_b, 7, -0.14f, 0.14f);
    }
    return 0;
}

static void job_free(job *j)
{
    free(j->h_a);
    free(j->h_b);
    free(j->h_c0);
    cudaFree(j->d_a);
    cudaFree(j->d_b);
    cudaFree(j->d_out);
    j->h_a = j->h_b = j->h_c0 = j->d_a = j->d_b = j->d_out = NULL;
}

/* New input drawn and copied in, the output poisoned (all bits set: NaN for floats), on stream s, waited for. */
static int job_fill(job *j, climb_rng *r, cudaStream_t s)
{
    switch (j->k) {
    case J_REDUCE:
    case J_SCAN:
        if (j->f32)
            climb_rng_fill_f32(r, j->h_a, j->n, -1.0f, 1.0f);
        else
            climb_rng_fill_i32(r, j->h_a, j->n, j->k == J_REDUCE ? INT32_MIN : -1000, j->k == J_REDUCE ? INT32_MAX : 1000);
        break;
    case J_HIST:
        for (size_t i = 0; i < j->n; i++)
            ((uint8_t *)j->h_a)[i] = (uint8_t)climb_rng_next(r);
        break;
    case J_TRANSPOSE:
        climb_rng_fill(r, j->f32 ? CLIMB_F32 : CLIMB_F64, j->h_a, j->rows * j->cols, -1.0, 1.0);
        break;
    case J_CONV: climb_rng_fill_f32(r, j->h_a, j->rows * j->cols, 0.0f, 1.0f); break;
    case J_STENCIL: climb_rng_fill_f32(r, j->h_a, j->rows * j->cols * j->n, -1.0f, 1.0f); break;
    case J_CNN: climb_rng_fill_f32(r, j->h_a, j->a_bytes / 4, -1.0f, 1.0f); break;
    case J_DCS: climb_rng_fill_f32(r, j->h_a, j->n * 4, -1.0f, 20.0f); break; /* atoms around the lattice; q in [-1, 20) */
    case J_MRIQ: { /* k in [-8, 8)^3, phi in [-1, 1)^2, voxels in [-0.5, 0.5)^3 */
        float *a = j->h_a;
        climb_rng_fill_f32(r, a, 3 * j->samples, -8.0f, 8.0f);
        climb_rng_fill_f32(r, a + 3 * j->samples, 2 * j->samples, -1.0f, 1.0f);
        climb_rng_fill_f32(r, a + 5 * j->samples, 3 * j->voxels, -0.5f, 0.5f);
        break;
    }
    case J_CUTOFF: /* atoms in and around the lattice, some beyond the cutoff; q in [-1, 1) */
        for (size_t a = 0; a < j->n; a++)
            for (int d = 0; d < 4; d++)
                ((float *)j->h_a)[4 * a + d] = d == 3 ? climb_rng_float(r, -1, 1) : climb_rng_float(r, -15, 40);
        break;
    case J_SGEMM:
        climb_rng_fill_f32(r, j->h_a, j->m * j->kk, -1.0f, 1.0f);
        climb_rng_fill_f32(r, j->h_b, j->kk * j->nn, -1.0f, 1.0f);
        climb_rng_fill_f32(r, j->h_c0, j->m * j->nn, -1.0f, 1.0f);
        break;
    case J_SPMV:
        climb_rng_fill(r, j->mat->f64 ? CLIMB_F64 : CLIMB_F32, j->h_a, (size_t)j->mat->cols, -1.0, 1.0);
        climb_rng_fill(r, j->mat->f64 ? CLIMB_F64 : CLIMB_F32, j->h_c0, (size_t)j->mat->rows, -1.0, 1.0);
        break;
    case J_BFS: break; /* below: the graph stays, its rows are shuffled */
    case J_BEZIER: climb_bezier_generate(climb_rng_next(r), (int)(climb_rng_next(r) % 3), j->h_a, j->n); break;
    case J_SORT: /* keys from 1000 values (many ties: the values' order checks stability), values uniform */
        climb_rng_fill_i32(r, j->h_a, j->n, 0, 999);
        climb_rng_fill_i32(r, j->h_b, j->b_bytes / 4, INT32_MIN, INT32_MAX);
        break;
    }
    if (j->k == J_BFS) { /* the rows' orders shuffled; the levels poisoned with a level no vertex has */
        const int32_t *rp = j->h_a;
        int32_t *ci = j->h_b;
        for (size_t v = 0; v < j->n; v++)
            for (int32_t e = rp[v + 1] - 1; e > rp[v]; e--) {
                const int32_t o = rp[v] + (int32_t)(climb_rng_next(r) % (uint64_t)(e - rp[v] + 1)), t = ci[e];
                ci[e] = ci[o];
                ci[o] = t;
            }
        cudaError_t e = cudaMemcpyAsync(j->d_b, j->h_b, j->b_bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = cudaMemsetAsync(j->d_out, 0x7f, j->out_bytes, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        return e == cudaSuccess ? 0 : -1;
    }
    if (j->k == J_SORT) { /* in place: the input goes where the output will be */
        cudaError_t e = cudaMemcpyAsync(j->d_out, j->h_a, j->a_bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(j->d_b, j->h_b, j->b_bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        return e == cudaSuccess ? 0 : -1;
    }
    cudaError_t e = cudaMemcpyAsync(j->d_a, j->h_a, j->a_bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess && j->k == J_SGEMM)
        e = cudaMemcpyAsync(j->d_b, j->h_b, j->b_bytes, cudaMemcpyHostToDevice, s);
    /* C (sgemm) and y (spmv) are inputs too where beta is not 0: their start copied in; else poisoned */
    const int reads_out = (j->k == J_SGEMM || j->k == J_SPMV) && j->beta != 0.0f;
    if (e == cudaSuccess)
        e = reads_out ? cudaMemcpyAsync(j->d_out, j->h_c0, j->out_bytes, cudaMemcpyHostToDevice, s)
                      : cudaMemsetAsync(j->d_out, 0xFF, j->out_bytes, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess)
        fprintf(stderr, "%s: filling the input: %s\n", j->label, cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : -1;
}

static climb_status job_call(job *j, climb_handle h)
{
    switch (j->k) {
    case J_REDUCE:
        return j->f32 ? climb_reduce_sum_f32(h, j->d_a, j->n, j->d_out) : climb_reduce_sum_i32(h, j->d_a, j->n, j->d_out);
    case J_SCAN:
        if (j->f32)
            return j->exclusive ? climb_scan_exclusive_f32(h, j->d_a, j->n, j->d_out)
                                : climb_scan_inclusive_f32(h, j->d_a, j->n, j->d_out);
        return j->exclusive ? climb_scan_exclusive_i32(h, j->d_a, j->n, j->d_out)
                            : climb_scan_inclusive_i32(h, j->d_a, j->n, j->d_out);
    case J_HIST: return climb_histogram_u8(h, j->d_a, j->n, j->bins, j->d_out);
    case J_TRANSPOSE:
        return j->f32 ? climb_transpose_f32(h, j->rows, j->cols, j->d_a, j->cols, j->d_out, j->rows)
                      : climb_transpose_f64(h, j->rows, j->cols, j->d_a, j->cols, j->d_out, j->rows);
    case J_SGEMM: {
        const size_t lda = j->ta ? j->m : j->kk, ldb = j->tb ? j->kk : j->nn;
        return climb_sgemm(h, j->ta ? CLIMB_OP_T : CLIMB_OP_N, j->tb ? CLIMB_OP_T : CLIMB_OP_N, j->m, j->nn, j->kk,
                           j->alpha, j->d_a, lda, j->d_b, ldb, j->beta, j->d_out, j->nn);
    }
    case J_CONV:
        return climb_conv2d_f32(h, j->rows, j->cols, j->d_a, j->cols, j->h_b, j->radius, j->d_out, j->cols);
    case J_DCS: return climb_coulomb_dcs_f32(h, j->d_a, j->n, &j->lattice, j->d_out);
    case J_MRIQ: {
        const float *k = j->d_a, *x = (const float *)j->d_a + 5 * j->samples;
        const size_t K = j->samples, X = j->voxels;
        return climb_mriq_f32(h, K, k, k + K, k + 2 * K, k + 3 * K, k + 4 * K, X, x, x + X, x + 2 * X, j->d_out,
                              (float *)j->d_out + X);
    }
    case J_CUTOFF: return climb_coulomb_cutoff_f32(h, j->d_a, j->n, &j->lattice, j->cutoff, j->d_out);
    case J_SORT: return j->f32 ? climb_sort_pairs_u32(h, j->d_out, j->d_b, j->n) : climb_sort_u32(h, j->d_out, j->n);
    case J_BEZIER: { /* counts, offsets and points one after another in d_out */
        int32_t *o = j->d_out;
        return climb_bezier_tessellate(h, j->n, j->d_a, j->max_points, o, o + j->n, (float *)(o + 2 * j->n));
    }
    case J_BFS:
        return j->f32 ? climb_bfs_symmetric(h, (int32_t)j->n, j->d_a, j->d_b, (int32_t)j->rows, j->d_out)
                      : climb_bfs(h, (int32_t)j->n, j->d_a, j->d_b, (int32_t)j->rows, j->d_out);
    case J_CNN: return climb_conv_forward_f32(h, &j->layer, j->d_a, j->d_b, j->d_out);
    case J_STENCIL: return climb_stencil7_f32(h, j->rows, j->cols, j->n, j->h_b, j->d_a, j->d_out);
    case J_SPMV:
        return j->mat->f64 ? climb_spmv_f64(h, j->plan, j->alpha, j->d_a, j->beta, j->d_out)
                           : climb_spmv(h, j->plan, j->alpha, j->d_a, j->beta, j->d_out);
    }
    return CLIMB_STATUS_INTERNAL_ERROR;
}

/* Every element of the output against the CPU (the tolerances are the workloads' own). 1 if all are right;
 * otherwise 0, with the first wrong element named. */
static int job_check(const job *j, cudaStream_t s, const char *when)
{
    void *got = malloc(j->out_bytes + 16);
    if (!got || cudaMemcpyAsync(got, j->d_out, j->out_bytes, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        fprintf(stderr, "%s %s: could not read the output back\n", j->label, when);
        free(got);
        return 0;
    }
    size_t bad = 0, first = 0;
    double fg = 0, fw = 0;
#define MISMATCH(i, g, w)                                                                                          \
    do {                                                                                                           \
        if (bad++ == 0) {                                                                                          \
            first = (i);                                                                                           \
            fg = (double)(g);                                                                                      \
            fw = (double)(w);                                                                                      \
        }                                                                                                          \
    } while (0)
    switch (j->k) {
    case J_REDUCE:
        if (j->f32) {
            double abs_sum, want = climb_reduce_ref_f32(j->h_a, j->n, &abs_sum);
            const float g = *(float *)got;
            if (!(fabs(g - want) <= climb_reduce_tol_f32(j->n, abs_sum)))
                MISMATCH(0, g, want);
        } else {
            const int32_t want = climb_reduce_ref_i32(j->h_a, j->n), g = *(int32_t *)got;
            if (g != want)
                MISMATCH(0, g, want);
        }
        break;
    case J_SCAN:
        if (j->f32) {
            double *want = malloc(j->n * 8 + 8);
            float *absp = malloc(j->n * 4 + 4);
            climb_scan_ref_f32(j->h_a, j->n, j->exclusive, want, absp);
            for (size_t i = 0; i < j->n; i++) {
                const float g = ((float *)got)[i];
                if (!(fabs(g - want[i]) <= climb_scan_tol_f32(absp[i], climb_scan_depth(i, 512))))
                    MISMATCH(i, g, want[i]);
            }
            free(want);
            free(absp);
        } else {
            int32_t *want = malloc(j->n * 4 + 4);
            climb_scan_ref_i32(j->h_a, j->n, j->exclusive, want);
            for (size_t i = 0; i < j->n; i++)
                if (((int32_t *)got)[i] != want[i])
                    MISMATCH(i, ((int32_t *)got)[i], want[i]);
            free(want);
        }
        break;
    case J_HIST: {
        uint64_t want[256];
        climb_hist_ref(j->h_a, j->n, CLIMB_HIST_BYTES, j->bins, want);
        for (unsigned b = 0; b < j->bins; b++)
            if (((uint32_t *)got)[b] != want[b])
                MISMATCH(b, ((uint32_t *)got)[b], want[b]);
        break;
    }
    case J_TRANSPOSE: {
        const size_t es = es_of(j);
        char *want = malloc(j->out_bytes + 16);
        climb_transpose_ref(j->h_a, j->cols, want, j->rows, j->rows, j->cols, es);
        for (size_t i = 0; i < j->rows * j->cols; i++)
            if (memcmp((char *)got + i * es, want + i * es, es) != 0)
                MISMATCH(i, es == 4 ? ((float *)got)[i] : ((double *)got)[i],
                         es == 4 ? ((float *)want)[i] : ((double *)want)[i]);
        free(want);
        break;
    }
    case J_SGEMM: {
        /* op(A) and op(B) as plain row-major matrices for the reference */
        float *a = malloc(j->m * j->kk * 4 + 4), *b = malloc(j->kk * j->nn * 4 + 4);
        const float *ha = j->h_a, *hb = j->h_b;
        for (size_t r = 0; r < j->m; r++)
            for (size_t p = 0; p < j->kk; p++)
                a[r * j->kk + p] = j->ta ? ha[p * j->m + r] : ha[r * j->kk + p];
        for (size_t p = 0; p < j->kk; p++)
            for (size_t c = 0; c < j->nn; c++)
                b[p * j->nn + c] = j->tb ? hb[c * j->kk + p] : hb[p * j->nn + c];
        double *row = malloc(j->nn * 8), *mag = malloc(j->nn * 8);
        for (size_t r = 0; r < j->m; r++) {
            climb_sgemm_ref_row(a, j->kk, 0, b, j->nn, 0, (const float *)j->h_c0 + r * j->nn, j->nn, j->kk, j->alpha,
                                j->beta, r, row, mag);
            for (size_t c = 0; c < j->nn; c++) {
                const float g = ((float *)got)[r * j->nn + c];
                if (!(fabs(g - row[c]) <= climb_sgemm_tolerance(j->kk, mag[c])))
                    MISMATCH(r * j->nn + c, g, row[c]);
            }
        }
        free(a);
        free(b);
        free(row);
        free(mag);
        break;
    }
    case J_CONV: {
        double *row = malloc(j->cols * 8), *mag = malloc(j->cols * 8);
        const int taps = (2 * j->radius + 1) * (2 * j->radius + 1);
        for (size_t r = 0; r < j->rows; r++) {
            climb_conv_ref_row(j->h_a, j->cols, j->rows, j->cols, j->h_b, j->radius, j->radius, r, row, mag);
            for (size_t c = 0; c < j->cols; c++) {
                const float g = ((float *)got)[r * j->cols + c];
                if (!(fabs(g - row[c]) <= climb_conv_tolerance(taps, mag[c])))
                    MISMATCH(r * j->cols + c, g, row[c]);
            }
        }
        free(row);
        free(mag);
        break;
    }
    case J_DCS: {
        const climb_lattice_desc *d = &j->lattice;
        climb_dcs_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]}, d->exclusion};
        for (size_t i = 0; i < d->nx * d->ny * d->nz; i++) {
            double tol;
            const double want = climb_dcs_ref_at(&l, j->h_a, j->n, i % d->nx, (i / d->nx) % d->ny, i / (d->nx * d->ny), &tol);
            if (!(fabs(((float *)got)[i] - want) <= tol))
                MISMATCH(i, ((float *)got)[i], want);
        }
        break;
    }
    case J_BFS: {
        int32_t *want = malloc(j->n * 4 + 4);
        if (!want) {
            MISMATCH(0, 0, 1);
            break;
        }
        climb_bfs_ref((int32_t)j->n, j->h_a, j->h_b, (int32_t)j->rows, want, NULL, NULL);
        for (size_t v = 0; v < j->n; v++)
            if (((int32_t *)got)[v] != want[v])
                MISMATCH(v, ((int32_t *)got)[v], want[v]);
        free(want);
        break;
    }
    case J_BEZIER: { /* each count within the boundary rule, the offsets their scan, every point within tolerance */
        const climb_bezier *c = j->h_a;
        const int32_t *counts = got, *offsets = counts + j->n;
        const float *pts = (const float *)(offsets + j->n);
        long long at = 0;
        for (size_t i = 0; i < j->n; i++) {
            if (!climb_bezier_count_ok(&c[i], j->max_points, counts[i]) || offsets[i] != at) {
                MISMATCH(i, counts[i], climb_bezier_count(climb_bezier_curvature(&c[i]), j->max_points));
                break;
            }
            const double tol = climb_bezier_tolerance(&c[i]);
            for (int k = 0; k < counts[i]; k++) {
                double x, y;
                climb_bezier_point(&c[i], k, counts[i], &x, &y);
                const float *p = pts + 2 * (size_t)(at + k);
                if (!(fabs(p[0] - x) <= tol && fabs(p[1] - y) <= tol))
                    MISMATCH(2 * j->n + 2 * (size_t)(at + k), p[0], x);
            }
            at += counts[i];
        }
        break;
    }
    case J_SORT: {
        uint32_t *k = malloc(j->n * 4 + 4), *v = malloc(j->b_bytes + 4), *tmp = malloc(j->n * 8 + 8),
                 *gv = malloc(j->b_bytes + 4);
        if (!k || !v || !tmp || !gv ||
            (j->f32 && (cudaMemcpyAsync(gv, j->d_b, j->b_bytes, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
                        cudaStreamSynchronize(s) != cudaSuccess))) {
            MISMATCH(0, 0, 1);
        } else {
            memcpy(k, j->h_a, j->n * 4);
            memcpy(v, j->h_b, j->b_bytes);
            climb_sort_ref(k, j->f32 ? v : NULL, j->n, tmp);
            for (size_t i = 0; i < j->n; i++) {
                if (((uint32_t *)got)[i] != k[i])
                    MISMATCH(i, ((uint32_t *)got)[i], k[i]);
                if (j->f32 && gv[i] != v[i])
                    MISMATCH(j->n + i, gv[i], v[i]);
            }
        }
        free(k);
        free(v);
        free(tmp);
        free(gv);
        break;
    }
    case J_MRIQ: {
        const float *a = j->h_a, *x = a + 5 * j->samples;
        const size_t K = j->samples, X = j->voxels;
        const climb_mriq_kspace ks = {K, a, a + K, a + 2 * K, a + 3 * K, a + 4 * K};
        for (size_t v = 0; v < X; v++) {
            double qr, qi, tol;
            climb_mriq_ref_at(&ks, x[v], x[X + v], x[2 * X + v], 1, &qr, &qi, &tol, NULL);
            const float gr = ((float *)got)[v], gi = ((float *)got)[X + v];
            if (!(fabs(gr - qr) <= tol))
                MISMATCH(v, gr, qr);
            if (!(fabs(gi - qi) <= tol))
                MISMATCH(X + v, gi, qi);
        }
        break;
    }
    case J_CUTOFF: {
        const climb_lattice_desc *d = &j->lattice;
        climb_cutoff_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]},
                                  j->cutoff, d->exclusion};
        climb_cutoff_cells cc;
        if (climb_cutoff_cells_build(&cc, &l, j->h_a, j->n) != 0)
            return 0;
        for (size_t i = 0; i < d->nx * d->ny * d->nz; i++) {
            climb_cutoff_ref ref;
            climb_cutoff_ref_at(&cc, &l, i % d->nx, (i / d->nx) % d->ny, i / (d->nx * d->ny), &ref);
            if (!climb_cutoff_ref_ok(&ref, ((float *)got)[i]))
                MISMATCH(i, ((float *)got)[i], ref.zero ? 0.0 : ref.v);
        }
        climb_cutoff_cells_free(&cc);
        break;
    }
    case J_CNN: {
        const climb_conv_layer_desc *d = &j->layer;
        climb_cnn_layer l = {d->n, d->c, d->h, d->w, d->k, d->r, d->s, d->stride_h, d->stride_w, d->pad_h, d->pad_w, 0, 0};
        climb_cnn_layer_check(&l);
        size_t i = 0;
        for (int n = 0; n < l.n; n++)
            for (int k = 0; k < l.k; k++)
                for (int p = 0; p < l.p; p++)
                    for (int q = 0; q < l.q; q++, i++) {
                        double mag;
                        const double want = climb_cnn_ref_at(&l, j->h_a, j->h_b, n, k, p, q, &mag);
                        if (!(fabs(((float *)got)[i] - want) <= climb_cnn_tolerance(&l, mag)))
                            MISMATCH(i, ((float *)got)[i], want);
                    }
        break;
    }
    case J_STENCIL: {
        const size_t n = j->rows * j->cols * j->n;
        double *in = malloc(n * 8), *want = malloc(n * 8);
        for (size_t i = 0; i < n; i++)
            in[i] = ((float *)j->h_a)[i];
        climb_stencil_ref_step(in, want, j->rows, j->cols, j->n, j->h_b);
        for (size_t i = 0; i < n; i++)
            if (!(fabs(((float *)got)[i] - want[i]) <= climb_stencil_tolerance(1, 1.0)))
                MISMATCH(i, ((float *)got)[i], want[i]);
        free(in);
        free(want);
        break;
    }
    case J_SPMV: {
        const matrix *mt = j->mat;
        for (int r = 0; r < mt->rows; r++) {
            double sum = 0, abs_sum = 0;
            for (int p = mt->rp[r]; p < mt->rp[r + 1]; p++) {
                const double x = mt->f64 ? ((double *)j->h_a)[mt->ci[p]] : ((float *)j->h_a)[mt->ci[p]];
                sum += mt->val[p] * x;
                abs_sum += fabs(mt->val[p] * x);
            }
            const double y0 = mt->f64 ? ((double *)j->h_c0)[r] : ((float *)j->h_c0)[r];
            const double want = j->alpha * sum + (j->beta != 0.0f ? j->beta * y0 : 0.0);
            const double mag = fabs(j->alpha) * abs_sum + fabs(j->beta * y0);
            const double g = mt->f64 ? ((double *)got)[r] : ((float *)got)[r];
            if (!(fabs(g - want) <= climb_spmv_tolerance(mt->rp[r + 1] - mt->rp[r] + 2, mag, mt->f64)))
                MISMATCH(r, g, want);
        }
        break;
    }
    }
#undef MISMATCH
    free(got);
    if (bad)
        fprintf(stderr, "%s %s: %zu wrong; the first at %zu: got %.9g, expected %.9g\n", j->label, when, bad, first, fg,
                fw);
    return bad == 0;
}

/* ---------------------------------------------------------------- inputs */

/* A random CSR matrix: row lengths 0 to 2 x mean, a few rows `long_len` long, columns distinct in each row. */
static int matrix_make(matrix *mt, int rows, int cols, int mean, int n_long, int long_len, int f64, climb_rng *r)
{
    memset(mt, 0, sizeof *mt);
    mt->rows = rows;
    mt->cols = cols;
    mt->f64 = f64;
    mt->rp = malloc(sizeof(int32_t) * (size_t)(rows + 1));
    if (!mt->rp)
        return -1;
    mt->rp[0] = 0;
    for (int i = 0; i < rows; i++) {
        int len = (int)climb_rng_range(r, 0, 2 * mean);
        if (i % (rows / (n_long + 1) + 1) == 7 && n_long > 0)
            len = long_len;
        if (len > cols)
            len = cols;
        mt->rp[i + 1] = mt->rp[i] + len;
    }
    mt->nnz = mt->rp[rows];
    mt->ci = malloc(sizeof(int32_t) * (size_t)mt->nnz + 4);
    mt->val = malloc(sizeof(double) * (size_t)mt->nnz + 8);
    if (!mt->ci || !mt->val)
        return -1;
    for (int i = 0; i < rows; i++) {
        const int len = mt->rp[i + 1] - mt->rp[i];
        /* a random start and stride (odd, cols odd keeps them distinct only if coprime: use a stride of 1 when
         * the row is long, else a gap that cannot wrap) */
        const int gap = len > 0 ? (int)(cols / len) : 1;
        const int start = (int)climb_rng_range(r, 0, cols - (int64_t)(len > 0 ? (len - 1) * (int64_t)gap : 0) - 1);
        for (int p = 0; p < len; p++) {
            mt->ci[mt->rp[i] + p] = start + p * gap;
            const double v = climb_rng_double(r, -1.0, 1.0);
            mt->val[mt->rp[i] + p] = f64 ? v : (double)(float)v;
        }
    }
    const size_t es = f64 ? 8 : 4;
    void *hv = malloc(es * (size_t)mt->nnz + 8);
    if (!hv)
        return -1;
    for (int p = 0; p < mt->nnz; p++) {
        if (f64)
            ((double *)hv)[p] = mt->val[p];
        else
            ((float *)hv)[p] = (float)mt->val[p];
    }
    cudaError_t e = cudaMalloc((void **)&mt->d_rp, sizeof(int32_t) * (size_t)(rows + 1));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&mt->d_ci, sizeof(int32_t) * (size_t)mt->nnz + 4);
    if (e == cudaSuccess)
        e = cudaMalloc(&mt->d_val, es * (size_t)mt->nnz + 8);
    if (e == cudaSuccess)
        e = cudaMemcpy(mt->d_rp, mt->rp, sizeof(int32_t) * (size_t)(rows + 1), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(mt->d_ci, mt->ci, sizeof(int32_t) * (size_t)mt->nnz, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(mt->d_val, hv, es * (size_t)mt->nnz, cudaMemcpyHostToDevice);
    free(hv);
    return e == cudaSuccess ? 0 : -1;
}

static void matrix_free(matrix *mt)
{
    free(mt->rp);
    free(mt->ci);
    free(mt->val);
    cudaFree(mt->d_rp);
    cudaFree(mt->d_ci);
    cudaFree(mt->d_val);
}

static climb_status plan_for(climb_handle h, const matrix *mt, climb_spmv_plan *plan)
{
    return mt->f64 ? climb_spmv_plan_create_f64(h, mt->rows, mt->cols, mt->nnz, mt->d_rp, mt->d_ci, mt->d_val,
                                                CLIMB_SPMV_VALIDATE, plan)
                   : climb_spmv_plan_create(h, mt->rows, mt->cols, mt->nnz, mt->d_rp, mt->d_ci, mt->d_val,
                                            CLIMB_SPMV_VALIDATE, plan);
}

/* ---------------------------------------------------------------- capture */

/* Captures j's call on s into a graph (the handle's first call when h is fresh); 1 if it worked. */
static int capture(job *j, climb_handle h, cudaStream_t s, cudaGraphExec_t *exec)
{
    cudaGraph_t g = NULL;
    *exec = NULL;
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    const climb_status st = job_call(j, h);
    const cudaError_t end = cudaStreamEndCapture(s, &g);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s: captured call: %s (%s)", j->label, climb_status_string(st),
               cudaGetErrorName(climb_last_cuda_error(h)));
    EXPECT_MSG(end == cudaSuccess && g, "%s: end of capture: %s", j->label, cudaGetErrorName(end));
    if (st != CLIMB_STATUS_SUCCESS || end != cudaSuccess || !g) {
        if (g)
            cudaGraphDestroy(g);
        cudaGetLastError();
        return 0;
    }
    const cudaError_t in = cudaGraphInstantiate(exec, g, 0);
    EXPECT_MSG(in == cudaSuccess, "%s: instantiate: %s", j->label, cudaGetErrorName(in));
    cudaGraphDestroy(g);
    return in == cudaSuccess;
}

/* Launches the graph with new input `times` times, checking each. */
static void replay(job *j, cudaGraphExec_t exec, cudaStream_t s, climb_rng *r, int times, const char *what)
{
    for (int t = 0; t < times; t++) {
        char when[64];
        snprintf(when, sizeof when, "%s replay %d", what, t + 1);
        EXPECT(job_fill(j, r, s) == 0);
        EXPECT(cudaGraphLaunch(exec, s) == cudaSuccess);
        EXPECT_MSG(cudaStreamSynchronize(s) == cudaSuccess, "%s %s", j->label, when);
        EXPECT_MSG(job_check(j, s, when), "%s", j->label);
    }
}

/* The first call of a fresh handle captured, replayed three times with new input, then one eager call. */
static void first_call_captured(job *j, climb_rng *r)
{
    climb_handle h;
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_fill(j, r, s) == 0);
    cudaGraphExec_t exec;
    if (capture(j, h, s, &exec)) {
        replay(j, exec, s, r, 3, "first call captured:");
        cudaGraphExecDestroy(exec);
    }
    EXPECT(job_fill(j, r, s) == 0);
    const climb_status st = job_call(j, h);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s eager after the graph: %s", j->label, climb_status_string(st));
    EXPECT(job_check(j, s, "eager after the graph"));
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
}

static job reduce_job(int f32, size_t n)
{
    job j = {.k = J_REDUCE, .f32 = f32, .n = n};
    snprintf(j.label, sizeof j.label, "climb_reduce_sum_%s n=%zu", f32 ? "f32" : "i32", n);
    return j;
}

static job scan_job(int f32, int exclusive, size_t n)
{
    job j = {.k = J_SCAN, .f32 = f32, .exclusive = exclusive, .n = n};
    snprintf(j.label, sizeof j.label, "climb_scan_%s_%s n=%zu", exclusive ? "exclusive" : "inclusive",
             f32 ? "f32" : "i32", n);
    return j;
}

static job hist_job(size_t n, unsigned bins)
{
    job j = {.k = J_HIST, .n = n, .bins = bins};
    snprintf(j.label, sizeof j.label, "climb_histogram_u8 n=%zu bins=%u", n, bins);
    return j;
}

static job transpose_job(int f32, size_t rows, size_t cols)
{
    job j = {.k = J_TRANSPOSE, .f32 = f32, .rows = rows, .cols = cols};
    snprintf(j.label, sizeof j.label, "climb_transpose_%s %zux%zu", f32 ? "f32" : "f64", rows, cols);
    return j;
}

static job conv_job(size_t rows, size_t cols, int radius)
{
    job j = {.k = J_CONV, .rows = rows, .cols = cols, .radius = radius};
    snprintf(j.label, sizeof j.label, "climb_conv2d_f32 %zux%zu radius %d", rows, cols, radius);
    return j;
}

static job dcs_job(size_t nx, size_t ny, size_t nz, size_t atoms)
{
    job j = {.k = J_DCS, .n = atoms, .lattice = {nx, ny, nz, 0.7f, {0.5f, -0.5f, 1.0f}, 1.0f}};
    snprintf(j.label, sizeof j.label, "climb_coulomb_dcs_f32 %zux%zux%zu %zu atoms", nx, ny, nz, atoms);
    return j;
}

static job cutoff_job(size_t nx, size_t ny, size_t nz, size_t atoms, float cutoff)
{
    job j = {.k = J_CUTOFF, .n = atoms, .lattice = {nx, ny, nz, 0.6f, {0.5f, -0.5f, 1.0f}, 1.0f}, .cutoff = cutoff};
    snprintf(j.label, sizeof j.label, "climb_coulomb_cutoff_f32 %zux%zux%zu %zu atoms cutoff %g", nx, ny, nz, atoms,
             cutoff);
    return j;
}

static job mriq_job(size_t samples, size_t voxels)
{
    job j = {.k = J_MRIQ, .samples = samples, .voxels = voxels};
    snprintf(j.label, sizeof j.label, "climb_mriq_f32 %zu samples %zu voxels", samples, voxels);
    return j;
}

static job bfs_job(int symmetric, int graph, size_t n)
{
    job j = {.k = J_BFS, .f32 = symmetric, .graph = graph, .n = n};
    snprintf(j.label, sizeof j.label, "climb_bfs%s %s n=%zu", symmetric ? "_symmetric" : "",
             climb_sparse_gen_name(graph), n);
    return j;
}

static job bezier_job(size_t n, int max_points)
{
    job j = {.k = J_BEZIER, .n = n, .max_points = max_points};
    snprintf(j.label, sizeof j.label, "climb_bezier_tessellate n=%zu max_points=%d", n, max_points);
    return j;
}

static job sort_job(int pairs, size_t n)
{
    job j = {.k = J_SORT, .f32 = pairs, .n = n};
    snprintf(j.label, sizeof j.label, "climb_sort_%su32 n=%zu", pairs ? "pairs_" : "", n);
    return j;
}

static job cnn_job(int n, int c, int hw, int k, int rs, int stride)
{
    job j = {.k = J_CNN, .layer = {n, c, hw, hw, k, rs, rs, stride, stride, (rs - 1) / 2, (rs - 1) / 2}};
    snprintf(j.label, sizeof j.label, "climb_conv_forward_f32 N%d C%d %dx%d K%d %dx%d stride %d", n, c, hw, hw, k, rs,
             rs, stride);
    return j;
}

static job stencil_job(size_t nx, size_t ny, size_t nz)
{
    job j = {.k = J_STENCIL, .rows = nx, .cols = ny, .n = nz};
    snprintf(j.label, sizeof j.label, "climb_stencil7_f32 %zux%zux%zu", nx, ny, nz);
    return j;
}

static job sgemm_job(int ta, int tb, size_t m, size_t n, size_t k, float alpha, float beta)
{
    job j = {.k = J_SGEMM, .ta = ta, .tb = tb, .m = m, .nn = n, .kk = k, .alpha = alpha, .beta = beta};
    snprintf(j.label, sizeof j.label, "climb_sgemm %c%c %zux%zux%zu beta=%g", ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k,
             beta);
    return j;
}

static job spmv_job(const matrix *mt, climb_spmv_plan plan, float alpha, float beta)
{
    job j = {.k = J_SPMV, .mat = mt, .plan = plan, .alpha = alpha, .beta = beta};
    snprintf(j.label, sizeof j.label, "climb_spmv%s %dx%d nnz=%d beta=%g", mt->f64 ? "_f64" : "", mt->rows, mt->cols,
             mt->nnz, beta);
    return j;
}

static void test_capture(climb_rng *r)
{
    const size_t big = ((size_t)1 << 22) + 3;
    job jobs[] = {
        reduce_job(0, big), reduce_job(1, big),
        scan_job(0, 0, big), scan_job(1, 0, big), scan_job(0, 1, 1000003), scan_job(1, 1, 1000003),
        hist_job(((size_t)1 << 22) + 1, 256), hist_job(999999, 7),
        transpose_job(1, 1001, 3001), transpose_job(0, 513, 700),
        sgemm_job(0, 0, 512, 512, 512, 1.0f, 0.0f),         /* small output: split k, a workspace */
        sgemm_job(0, 0, 64, 64, 65536, 0.5f, 1.0f),         /* long k: many splits */
        sgemm_job(0, 0, 1000, 1000, 1000, 1.0f, 0.0f),
        sgemm_job(1, 0, 300, 200, 700, 1.0f, -0.5f), sgemm_job(0, 1, 300, 200, 700, 1.0f, 0.0f),
        sgemm_job(1, 1, 257, 129, 4000, 2.0f, 0.0f),
        conv_job(1001, 3001, 2), conv_job(37, 513, 4), stencil_job(130, 250, 33), stencil_job(31, 7, 5),
        cnn_job(4, 16, 28, 64, 3, 1), cnn_job(2, 3, 45, 70, 7, 2), dcs_job(33, 20, 5, 1000), dcs_job(129, 3, 2, 77),
        cutoff_job(40, 33, 17, 20000, 8.0f), cutoff_job(9, 3, 2, 50, 12.0f),
        mriq_job(3000, 5000), mriq_job(1, 1),
        sort_job(0, ((size_t)1 << 20) + 7), sort_job(1, 1000003), sort_job(1, 2), sort_job(0, 1),
        bfs_job(1, CLIMB_GEN_RMAT, 100000), bfs_job(0, CLIMB_GEN_RANDOM, 30011), bfs_job(1, CLIMB_GEN_GRID2D, 4097),
        bfs_job(0, CLIMB_GEN_GRID2D, 1), bezier_job(300007, 32), bezier_job(1, 4), bezier_job(4099, 100),
    };
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        if (job_setup(&jobs[i]) == 0)
            first_call_captured(&jobs[i], r);
        else
            EXPECT_MSG(0, "%s: setup", jobs[i].label);
        job_free(&jobs[i]);
    }

    /* SpMV: the plan made eagerly on one handle; the first climb_spmv of a fresh handle captured. */
    for (int f64 = 0; f64 < 2; f64++)
        for (int shape = 0; shape < 2; shape++) {
            matrix mt;
            /* short rows with a few long ones; then rows averaging 24 (the plan's other path) */
            const int ok = shape == 0 ? matrix_make(&mt, 20011, 15013, 4, 5, 3000, f64, r)
                                      : matrix_make(&mt, 9001, 9001, 24, 0, 0, f64, r);
            EXPECT(ok == 0);
            climb_handle maker;
            climb_spmv_plan plan = NULL;
            EXPECT(climb_create(&maker, 0) == CLIMB_STATUS_SUCCESS);
            EXPECT(ok == 0 && plan_for(maker, &mt, &plan) == CLIMB_STATUS_SUCCESS);
            for (int b = 0; b < 2 && plan; b++) {
                job j = spmv_job(&mt, plan, 1.5f, b ? 0.25f : 0.0f);
                if (job_setup(&j) == 0)
                    first_call_captured(&j, r);
                job_free(&j);
            }
            climb_spmv_plan_destroy(plan);
            EXPECT(climb_destroy(maker) == CLIMB_STATUS_SUCCESS);
            matrix_free(&mt);
        }

    /* A used handle whose workspace must grow inside a capture (scan: larger n; sgemm: more splits), with the
     * graph captured before the growth launched again after it (the outgrown workspace is still there). */
    climb_handle h;
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    job small = scan_job(1, 0, 5000), large = scan_job(1, 0, ((size_t)1 << 24) + 7);
    job g1 = sgemm_job(0, 0, 96, 96, 2048, 1.0f, 0.0f), g2 = sgemm_job(0, 0, 128, 128, 40000, 1.0f, 0.0f);
    job *grow[][2] = {{&small, &large}, {&g1, &g2}};
    for (int p = 0; p < 2; p++) {
        job *a = grow[p][0], *b = grow[p][1];
        EXPECT(job_setup(a) == 0 && job_setup(b) == 0);
        EXPECT(job_fill(a, r, s) == 0);
        EXPECT(job_call(a, h) == CLIMB_STATUS_SUCCESS);
        EXPECT(job_check(a, s, "eager, before the growth"));
        cudaGraphExec_t ea = NULL, eb = NULL;
        EXPECT(job_fill(a, r, s) == 0);
        if (capture(a, h, s, &ea))
            replay(a, ea, s, r, 1, "captured before the growth:");
        EXPECT(job_fill(b, r, s) == 0);
        if (capture(b, h, s, &eb))
            replay(b, eb, s, r, 3, "captured call that grew the workspace:");
        if (ea)
            replay(a, ea, s, r, 2, "graph from before the growth, launched after it:");
        EXPECT(job_fill(a, r, s) == 0 && job_call(a, h) == CLIMB_STATUS_SUCCESS);
        EXPECT(job_check(a, s, "eager after the growth"));
        if (ea)
            cudaGraphExecDestroy(ea);
        if (eb)
            cudaGraphExecDestroy(eb);
        job_free(a);
        job_free(b);
    }
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
}

/* ---------------------------------------------------------------- errors */

static void test_errors(climb_rng *r)
{
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    matrix mt;
    EXPECT(matrix_make(&mt, 5003, 4001, 6, 3, 1500, 0, r) == 0);

    /* A capture the caller breaks (a wait on the capturing stream is illegal): the call into it fails with the
     * capture's error and leaves none behind. */
    climb_handle h, other;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    job red = reduce_job(0, 100003);
    EXPECT(job_setup(&red) == 0 && job_fill(&red, r, s) == 0);
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) != cudaSuccess); /* invalidates the capture */
    const climb_status st = job_call(&red, h);
    EXPECT_MSG(st == CLIMB_STATUS_LAUNCH_FAILED, "a call into a broken capture: %s", climb_status_string(st));
    EXPECT_MSG(climb_last_cuda_error(h) == cudaErrorStreamCaptureInvalidated, "%s",
               cudaGetErrorName(climb_last_cuda_error(h)));
    EXPECT_MSG(cudaPeekAtLastError() == cudaSuccess, "left behind: %s", cudaGetErrorName(cudaPeekAtLastError()));
    cudaGraph_t g = NULL;
    EXPECT(cudaStreamEndCapture(s, &g) != cudaSuccess); /* the caller's own error, left unread on purpose */
    if (g)
        cudaGraphDestroy(g);
    /* The next calls, on another handle, eagerly: the plan's analysis (it checks its launches) and a product. */
    EXPECT(climb_create(&other, 0) == CLIMB_STATUS_SUCCESS);
    climb_spmv_plan plan = NULL;
    const climb_status ps = plan_for(other, &mt, &plan);
    EXPECT_MSG(ps == CLIMB_STATUS_SUCCESS, "plan after a broken capture: %s (%s)", climb_status_string(ps),
               cudaGetErrorName(climb_last_cuda_error(other)));
    cudaStream_t s2;
    EXPECT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_set_stream(other, s2) == CLIMB_STATUS_SUCCESS);
    job sp = spmv_job(&mt, plan, 1.0f, 0.0f);
    EXPECT(job_setup(&sp) == 0 && job_fill(&sp, r, s2) == 0);
    EXPECT(job_call(&sp, other) == CLIMB_STATUS_SUCCESS && job_check(&sp, s2, "after a broken capture"));
    EXPECT(climb_last_cuda_error(other) == cudaSuccess);
    /* and the handle that failed works again */
    EXPECT(job_fill(&red, r, s) == 0 && job_call(&red, h) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_check(&red, s, "the failed handle, next call"));
    EXPECT(climb_last_cuda_error(h) == cudaSuccess);

    /* What waits for the GPU refuses a capturing stream, and the capture stays valid. */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    climb_spmv_plan p2 = NULL;
    EXPECT(plan_for(h, &mt, &p2) == CLIMB_STATUS_CAPTURE_UNSUPPORTED && p2 == NULL);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_CAPTURE_UNSUPPORTED);
    EXPECT(climb_load_wisdom(h, NULL) == CLIMB_STATUS_SUCCESS); /* launches nothing: allowed */
    EXPECT(job_call(&red, h) == CLIMB_STATUS_SUCCESS);
    g = NULL;
    EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
    cudaGraphExec_t ex = NULL;
    EXPECT(g && cudaGraphInstantiate(&ex, g, 0) == cudaSuccess);
    if (ex) {
        replay(&red, ex, s, r, 1, "after refusals inside the capture:");
        cudaGraphExecDestroy(ex);
    }
    if (g)
        cudaGraphDestroy(g);
    /* A plan made while ANOTHER stream is being captured (global mode): allowed, and that capture stays valid. */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(job_call(&red, h) == CLIMB_STATUS_SUCCESS);
    EXPECT(plan_for(other, &mt, &p2) == CLIMB_STATUS_SUCCESS && p2);
    EXPECT(climb_spmv_plan_destroy(p2) == CLIMB_STATUS_SUCCESS);
    g = NULL;
    EXPECT_MSG(cudaStreamEndCapture(s, &g) == cudaSuccess && g, "a plan made beside a capture invalidated it");
    if (g)
        cudaGraphDestroy(g);
    cudaGetLastError();

    /* A workspace that cannot be allocated: the device's memory taken, then a call that needs a new workspace. */
    job big = sgemm_job(0, 0, 256, 256, 65536, 1.0f, 0.0f); /* small output, long k: split k */
    EXPECT(job_setup(&big) == 0 && job_fill(&big, r, s) == 0);
    void *hog[4096];
    int n_hog = 0;
    for (size_t chunk = (size_t)1 << 30; chunk >= ((size_t)1 << 20) && n_hog < 4096; chunk /= 2)
        while (n_hog < 4096 && cudaMalloc(&hog[n_hog], chunk) == cudaSuccess)
            n_hog++;
    cudaGetLastError();
    climb_handle fresh;
    EXPECT(climb_create(&fresh, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(fresh, s) == CLIMB_STATUS_SUCCESS);
    const climb_status as = job_call(&big, fresh);
    EXPECT_MSG(as == CLIMB_STATUS_ALLOC_FAILED, "no memory for the workspace: %s", climb_status_string(as));
    EXPECT(climb_last_cuda_error(fresh) == cudaErrorMemoryAllocation);
    EXPECT_MSG(cudaPeekAtLastError() == cudaSuccess, "left behind: %s", cudaGetErrorName(cudaPeekAtLastError()));
    for (int i = 0; i < n_hog; i++)
        cudaFree(hog[i]);
    printf("workspace allocation refused with %d blocks of the device's memory taken\n", n_hog);
    /* memory back: the same call on the same handle, and on the other handle, works */
    EXPECT(job_fill(&big, r, s) == 0 && job_call(&big, fresh) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_check(&big, s, "after the memory came back"));
    EXPECT(climb_set_stream(other, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_fill(&big, r, s) == 0 && job_call(&big, other) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_check(&big, s, "another handle, after the memory came back"));

    job_free(&big);
    job_free(&red);
    job_free(&sp);
    climb_spmv_plan_destroy(plan);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(other) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(fresh) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
    matrix_free(&mt);
}

/* ---------------------------------------------------------------- threads */

#define N_THREADS 8
#define CALLS_PER_THREAD 200

typedef struct worker {
    int id;
    const matrix *mat;
    climb_spmv_plan plan;       /* made on the main thread's handle */
    uint64_t seed;
    int calls, failures;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    climb_rng r;
    climb_rng_seed(&r, w->seed);
    climb_handle h;
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess || climb_create(&h, 0) != CLIMB_STATUS_SUCCESS ||
        climb_set_stream(h, s) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "thread %d: no handle\n", w->id);
        w->failures++;
        return NULL;
    }
    job jobs[] = {
        reduce_job(0, 10007 + w->id), reduce_job(1, 30011), scan_job(0, 0, 20011), scan_job(1, 1, 70001 + w->id),
        hist_job(50001, 256), hist_job(4097, 13), transpose_job(1, 37, 1001), transpose_job(0, 300, 17),
        sgemm_job(0, 0, 64, 96, 200, 1.0f, 0.0f), sgemm_job(1, 0, 33, 65, 3000, 1.0f, 0.5f),
        spmv_job(w->mat, w->plan, 2.0f, 0.0f), conv_job(65, 129, 1 + w->id % 4),
        stencil_job(40, 33, 9 + w->id), cnn_job(2, 4, 9 + w->id, 20, 3, 1),
        dcs_job(17, 9 + w->id, 3, 300), cutoff_job(21, 9 + w->id, 5, 3000, 6.0f),
        mriq_job(500 + w->id, 700), sort_job(w->id % 2, 20011 + w->id),
        bfs_job(w->id % 2, w->id % 2 ? CLIMB_GEN_RMAT : CLIMB_GEN_RANDOM, 5003 + w->id),
        bezier_job(10007 + w->id, 16 + w->id),
    };
    const int n_jobs = (int)(sizeof jobs / sizeof jobs[0]);
    for (int i = 0; i < n_jobs; i++)
        if (job_setup(&jobs[i]) != 0)
            w->failures++;
    for (int c = 0; c < CALLS_PER_THREAD && !w->failures; c++) {
        job *j = &jobs[(c * 7 + w->id) % n_jobs]; /* a different mix in each thread */
        char when[48];
        snprintf(when, sizeof when, "thread %d call %d", w->id, c);
        const climb_status st = job_fill(j, &r, s) == 0 ? job_call(j, h) : CLIMB_STATUS_INTERNAL_ERROR;
        if (st != CLIMB_STATUS_SUCCESS) {
            fprintf(stderr, "%s %s: %s\n", j->label, when, climb_status_string(st));
            w->failures++;
        } else if (!job_check(j, s, when))
            w->failures++;
        w->calls++;
    }
    for (int i = 0; i < n_jobs; i++)
        job_free(&jobs[i]);
    if (climb_destroy(h) != CLIMB_STATUS_SUCCESS)
        w->failures++;
    cudaStreamDestroy(s);
    return NULL;
}

static void test_threads(climb_rng *r)
{
    matrix mt;
    EXPECT(matrix_make(&mt, 30011, 20011, 5, 4, 2500, 0, r) == 0);
    climb_handle h;
    climb_spmv_plan plan = NULL;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && plan_for(h, &mt, &plan) == CLIMB_STATUS_SUCCESS);
    worker w[N_THREADS];
    pthread_t t[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (worker){.id = i, .mat = &mt, .plan = plan, .seed = climb_rng_next(r)};
        EXPECT(pthread_create(&t[i], NULL, work, &w[i]) == 0);
    }
    int calls = 0, failures = 0;
    for (int i = 0; i < N_THREADS; i++) {
        pthread_join(t[i], NULL);
        calls += w[i].calls;
        failures += w[i].failures;
    }
    printf("threads: %d threads, %d calls checked, %d failed\n", N_THREADS, calls, failures);
    EXPECT(calls == N_THREADS * CALLS_PER_THREAD);
    EXPECT(failures == 0);
    climb_spmv_plan_destroy(plan);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    matrix_free(&mt);
}

/* ---------------------------------------------------------------- devices */

typedef struct fresh_thread {
    uint64_t seed;
    int ok, device_after;
} fresh_thread;

/* A thread that never set its current device: a handle on device 0, a call, checked. */
static void *fresh(void *arg)
{
    fresh_thread *f = arg;
    climb_rng r;
    climb_rng_seed(&r, f->seed);
    climb_handle h;
    job j = scan_job(0, 0, 123457);
    f->ok = climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && job_setup(&j) == 0 && job_fill(&j, &r, 0) == 0 &&
            job_call(&j, h) == CLIMB_STATUS_SUCCESS && job_check(&j, 0, "a thread with no device set");
    job_free(&j);
    f->ok = f->ok && climb_destroy(h) == CLIMB_STATUS_SUCCESS;
    cudaGetDevice(&f->device_after);
    return NULL;
}

static void test_devices(climb_rng *r)
{
    fresh_thread f = {.seed = climb_rng_next(r), .device_after = -1};
    pthread_t t;
    EXPECT(pthread_create(&t, NULL, fresh, &f) == 0 && pthread_join(t, NULL) == 0);
    EXPECT(f.ok);
    EXPECT(f.device_after == 0);

    int count = 0;
    EXPECT(cudaGetDeviceCount(&count) == cudaSuccess);
    if (count < 2) {
        printf("devices: one GPU; a handle on another device than the current one is not run here\n");
        return;
    }
    /* Device 0 current, a handle on the last device, its buffers there: the call runs there, device 0 stays. */
    const int dev = count - 1;
    EXPECT(cudaSetDevice(dev) == cudaSuccess);
    job j = reduce_job(1, 1000003);
    EXPECT(job_setup(&j) == 0 && job_fill(&j, r, 0) == 0);
    EXPECT(cudaSetDevice(0) == cudaSuccess);
    climb_handle h;
    EXPECT(climb_create(&h, dev) == CLIMB_STATUS_SUCCESS);
    EXPECT(job_call(&j, h) == CLIMB_STATUS_SUCCESS);
    int cur = -1;
    EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == 0);
    EXPECT(cudaSetDevice(dev) == cudaSuccess);
    EXPECT(job_check(&j, 0, "a handle on another device"));
    job_free(&j);
    EXPECT(cudaSetDevice(0) == cudaSuccess);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    printf("devices: a handle on device %d used with device 0 current\n", dev);
}

int main(int argc, char **argv)
{
    test_require_gpu();
    if (argc > 1 && strcmp(argv[1], "--probe") == 0)
        return 0; /* a GPU is there (for the sanitizer script) */
    const int capture_only = argc > 1 && strcmp(argv[1], "capture") == 0;
    if (argc > 1 && !capture_only && strcmp(argv[1], "all") != 0) {
        fprintf(stderr, "usage: test_gpu_graphs [capture|all]\n");
        return 2;
    }
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1); /* the built-in defaults, whatever is here */
    climb_rng r;
    const uint64_t seed = climb_fresh_seed();
    printf("seed %llu\n", (unsigned long long)seed);
    climb_rng_seed(&r, seed);
    test_capture(&r);
    if (!capture_only) {
        test_errors(&r);
        test_threads(&r);
        test_devices(&r);
    }
    return test_finish("test_gpu_graphs");
}
