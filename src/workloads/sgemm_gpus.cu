/*
 * sgemm_gpus.cu - C = A B in f32 (row-major, m x k times k x n) with its operands already spread over the case's
 * GPUs: A and C split by rows (rank r holds rows [m0, m1) of each), B split by rows too (rank r holds rows [k0, k1),
 * its piece), so that every GPU needs every piece of B. The ladder: the whole product on one GPU (the row the others
 * are sped up from); the pieces of B gathered onto every GPU by the copy engines, then climb's SGEMM on each GPU's
 * rows; the same with the product accumulated piece by piece as the pieces arrive (the next piece's copy under this
 * piece's product); the 2-D split (van de Geijn and Watts, SUMMA: the GPUs as a grid, a block of each operand,
 * panels of k sent along the grid's rows and columns); NCCL's send and receive of the pieces and cuBLAS on each GPU
 * beside them.
 *
 * Sources: the GEMM of Hwu, Kirk and El Hajj, Programming Massively Parallel Processors (tiling, register tiling;
 * climb's one-GPU ladder is sgemm), split over GPUs with transfers between them without the host (van Oosten,
 * Introduction to CUDA 5.0: GPUDirect). See docs/sgemm_gpus.md.
 *
 * Counted for the busiest GPU (the one with the most rows of A): its 2 m_r n k flops, its rows of A, the whole of B
 * and its rows of C in memory, the pieces of B it receives over the links.
 *
 * Order of this file: the case, the schedules, the registry table, the harness glue.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "../base/check.h"
#include "../base/checked.h"
#include "../base/rng.h"
#include "../device/collective.h"
#include "../core/workload.cuh"
#include "common/gpuset.cuh"
#include "sgemm/sgemm.h"
#include "sgemm_gpus.h"

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    size_t m, n, k;
    float *h_a, *h_b;            /* m x k and k x n (host), from the seed */
    float *h_c;                  /* the product downloaded, m x n */
    size_t m0[CLIMB_MAX_DEVICES], m1[CLIMB_MAX_DEVICES]; /* rank r's rows of A and C */
    size_t k0[CLIMB_MAX_DEVICES], k1[CLIMB_MAX_DEVICES]; /* rank r's rows of B, its piece */
    float *a[CLIMB_MAX_DEVICES];      /* rank r's rows of A, (m1 - m0) x k */
    float *piece[CLIMB_MAX_DEVICES];  /* rank r's piece of B, (k1 - k0) x n */
    float *c_out[CLIMB_MAX_DEVICES];  /* rank r's rows of C, (m1 - m0) x n */
    float *b_all[CLIMB_MAX_DEVICES];  /* the gathering rungs: the whole of B on rank r's GPU (made by prepare) */
    float *panel[CLIMB_MAX_DEVICES][2]; /* panels: two buffers of the largest piece on rank r's GPU (prepare) */
    void *ws[CLIMB_MAX_DEVICES];      /* SGEMM's split-K workspace on rank r's GPU (prepare), ws_bytes each */
    size_t ws_bytes;
    float *one_a, *one_b, *one_c;     /* one_gpu: the whole product on rank 0's GPU (prepare) */
    int from_gpu0;                    /* source=gpu0: A and B whole on rank 0's GPU, scattered in every run */
    float *src_a, *src_b;             /* source=gpu0: A and B on rank 0's GPU (init, fill) */
    cudaStream_t cp[CLIMB_MAX_DEVICES];          /* panels: each rank's copy stream */
    cudaEvent_t got[CLIMB_MAX_DEVICES][2];       /* panels: buffer b's piece arrived */
    cudaEvent_t used[CLIMB_MAX_DEVICES][2];      /* panels: buffer b's product done (free again) */
    cublasHandle_t cublas[CLIMB_MAX_DEVICES];    /* the vendor rung's, one a GPU (prepare) */
    /* summa: the GPUs as a grid of gr rows by gc columns, rank r at (r / gc, r % gc), each holding a block of A, of B
     * and of C (block_of) and two buffers for each operand's panels (made by prepare) */
    int gr, gc;
    float *sa[CLIMB_MAX_DEVICES], *sb[CLIMB_MAX_DEVICES], *sc[CLIMB_MAX_DEVICES];
    float *spa[CLIMB_MAX_DEVICES][2], *spb[CLIMB_MAX_DEVICES][2];
    /* the reference */
    climb_ref_mode mode;
    double *ref, *tol;           /* CPU: every element and its tolerance; VENDOR: the adopted product */
    size_t *rows, n_rows;        /* SAMPLES and VENDOR: rows of C computed on the CPU */
    double *row_ref, *row_tol;
};

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

enum { OPT_SOURCE, OPT_SPLIT };      /* the options (MG_OPTIONS) */
enum { SOURCE_SPREAD, SOURCE_GPU0 }; /* source's choices */
enum { SPLIT_STRONG, SPLIT_WEAK };   /* split's choices */

static int ranks(const climb_case *c) { return c->g.x.P; }
static size_t rows_of(const climb_case *c, int r) { return c->m1[r] - c->m0[r]; }
static size_t piece_of(const climb_case *c, int r) { return c->k1[r] - c->k0[r]; }

/* ---------------------------------------------------------------- the 2-D split (SUMMA) */

/* Rank r's blocks on the grid: rows [mi0, mi0 + mi) of A and C; A's columns [ka0, ka0 + ka) of k (its grid
 * column's share); B's rows [kb0, kb0 + kb) of k (its grid row's share); B's and C's columns [nj0, nj0 + nj). */
typedef struct summa_block {
    int i, j;
    size_t mi0, mi, ka0, ka, kb0, kb, nj0, nj;
} summa_block;
static summa_block block_of(const climb_case *c, int r)
{
    summa_block b;
    b.i = r / c->gc;
    b.j = r % c->gc;
    climb_chunk_of(c->m, c->gr, b.i, &b.mi0, &b.mi);
    climb_chunk_of(c->k, c->gc, b.j, &b.ka0, &b.ka);
    climb_chunk_of(c->k, c->gr, b.i, &b.kb0, &b.kb);
    climb_chunk_of(c->n, c->gc, b.j, &b.nj0, &b.nj);
    return b;
}

/* The panels of k (climb_summa_panels). */
static int summa_panels(const climb_case *c, size_t *p) { return climb_summa_panels(c->k, c->gr, c->gc, p); }

/* ---------------------------------------------------------------- the schedules */

/* one_gpu: the whole product on rank 0's GPU. */
static int run_one_gpu(climb_case *c)
{
    ON(c->g.x.devices[0]);
    if (c->k == 0)
        CLIMB_CHECK(cudaMemsetAsync(c->one_c, 0, c->m * c->n * sizeof(float), c->g.x.st[0]));
    else
        CLIMB_CHECK(climb_sgemm_best(NULL, 0, 0, c->m, c->n, c->k, 1.0f, c->one_a, c->k, c->one_b, c->n, 0.0f,
                                     c->one_c, c->n, c->ws[0], c->ws_bytes, c->g.x.sms[0], c->g.x.st[0]));
    return 0;
}

/* C_r (+)= A_r[:, kq0 .. kq0 + kk) B_q of an args' rank r, on stream s of its GPU (current). */
static cudaError_t panel_gemm(const climb_coll_exec *x, const climb_sgemm_gpus_args *g, int r, size_t rows,
                              const float *b, size_t kq0, size_t kk, float beta, cudaStream_t s)
{
    if (!rows)
        return cudaSuccess;
    if (!kk) /* no products: C is beta C */
        return beta == 0.0f ? cudaMemsetAsync(g->c[r], 0, rows * g->n * sizeof(float), s) : cudaSuccess;
    return climb_sgemm_best(NULL, 0, 0, rows, g->n, kk, 1.0f, g->a[r] + kq0, g->k, b, g->n, beta, g->c[r], g->n,
                            g->ws[r], g->ws_bytes, x->sms[r], s);
}

extern "C" cudaError_t climb_sgemm_gpus_panels_async(const climb_coll_exec *x, const climb_sgemm_gpus_args *g)
{
    const int P = x->P;
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        size_t m0, rows, k0, kk;
        climb_chunk_of(g->m, P, r, &m0, &rows);
        if (!rows) /* no rows of C here: nothing to multiply */
            continue;
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        cudaStream_t s = x->st[r], cp = g->aux[r];
        /* the copy stream starts where the run does; both buffers free */
        if ((e = cudaEventRecord(g->used[r][0], s)) != cudaSuccess || (e = cudaStreamWaitEvent(cp, g->used[r][0], 0)) !=
                cudaSuccess || (e = cudaEventRecord(g->used[r][1], s)) != cudaSuccess)
            break;
        int first = 1;
        if (g->k == 0)
            e = cudaMemsetAsync(g->c[r], 0, rows * g->n * sizeof(float), s);
        for (int j = 0; j < P && e == cudaSuccess; j++) {
            const int q = (r + j) % P, b = j % 2;
            climb_chunk_of(g->k, P, q, &k0, &kk);
            const float *src = g->b[r];
            if (j > 0 && kk) {
                if ((e = cudaStreamWaitEvent(cp, g->used[r][b], 0)) != cudaSuccess ||
                    (e = climb_copy_across(g->panel[r][b], g->b[q], kk * g->n * sizeof(float), cp)) != cudaSuccess ||
                    (e = cudaEventRecord(g->got[r][b], cp)) != cudaSuccess ||
                    (e = cudaStreamWaitEvent(s, g->got[r][b], 0)) != cudaSuccess)
                    break;
                src = g->panel[r][b];
            }
            if (kk) {
                if ((e = panel_gemm(x, g, r, rows, src, k0, kk, first ? 0.0f : 1.0f, s)) != cudaSuccess)
                    break;
                first = 0;
            }
            if (j > 0)
                e = cudaEventRecord(g->used[r][b], s);
        }
    }
    return e;
}

extern "C" cudaError_t climb_sgemm_gpus_gather_async(const climb_coll_exec *x, const climb_sgemm_gpus_args *g)
{
    const int P = x->P;
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        size_t k0, kk;
        climb_chunk_of(g->k, P, r, &k0, &kk);
        if (!kk)
            continue;
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        for (int j = 0; j < P && e == cudaSuccess; j++) {
            const int q = (r + j) % P;
            e = climb_coll_copy(x, r, g->b[r], q, g->whole[q] + k0 * g->n, kk * g->n * sizeof(float));
        }
    }
    if (e == cudaSuccess)
        e = climb_coll_barrier(x);
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        size_t m0, rows;
        climb_chunk_of(g->m, P, r, &m0, &rows);
        if ((e = cudaSetDevice(x->devices[r])) == cudaSuccess)
            e = panel_gemm(x, g, r, rows, g->whole[r], 0, g->k, 0.0f, x->st[r]);
    }
    return e;
}

extern "C" int climb_sgemm_gpus_gathers(int P) { return P >= 3; }

extern "C" size_t climb_sgemm_gpus_ws_bytes(size_t m, size_t n, size_t k, int P, int sms)
{
    size_t ws = 0;
    for (int q = 0; q < P; q++) {
        size_t o, rows, kk;
        climb_chunk_of(m, P, q, &o, &rows);
        for (int s = 0; s < P; s++) {
            climb_chunk_of(k, P, s, &o, &kk);
            const size_t a = climb_sgemm_workspace(NULL, 0, 0, rows, n, kk, sms);
            ws = a > ws ? a : ws;
        }
        const size_t b = climb_sgemm_workspace(NULL, 0, 0, rows, n, k, sms);
        ws = b > ws ? b : ws;
    }
    return ws;
}

extern "C" size_t climb_sgemm_gpus_panel_floats(size_t n, size_t k, int P)
{
    size_t o, most;
    climb_chunk_of(k, P, 0, &o, &most); /* the first piece is the largest */
    return most && n ? most * n : 1;
}

/* The case's arrays as the panels take them. */
static climb_sgemm_gpus_args args_of(const climb_case *c)
{
    climb_sgemm_gpus_args g;
    memset(&g, 0, sizeof g);
    g.m = c->m;
    g.n = c->n;
    g.k = c->k;
    g.ws_bytes = c->ws_bytes;
    for (int r = 0; r < ranks(c); r++) {
        g.a[r] = c->a[r];
        g.b[r] = c->piece[r];
        g.c[r] = c->c_out[r];
        g.ws[r] = c->ws[r];
        g.aux[r] = c->cp[r];
        for (int b = 0; b < 2; b++) {
            g.panel[r][b] = c->panel[r][b];
            g.got[r][b] = c->got[r][b];
            g.used[r][b] = c->used[r][b];
        }
    }
    return g;
}

/* panels: each GPU multiplies by its own piece first, then by each other GPU's as it arrives (rank r + 1's, r + 2's,
 * ...), each piece copied into one of two buffers on a stream of its own while the piece before is multiplied:
 * the copy of piece j waits for the product of piece j - 2 (its buffer free), the product of piece j for its copy.
 * No step between the GPUs: the pieces are inputs nobody writes (climb_sgemm_gpus_panels_async, as the C API's
 * climb_comm_sgemm_f32). */
static int run_panels(climb_case *c)
{
    const climb_sgemm_gpus_args g = args_of(c);
    CLIMB_CHECK(climb_sgemm_gpus_panels_async(&c->g.x, &g));
    return 0;
}

/* gather: every GPU's piece pushed into every GPU's whole B by the copy engines (rank r's k-th copy to rank r + k,
 * so that at every moment each GPU receives from one other), a step between the GPUs, then each GPU's rows
 * (climb_sgemm_gpus_gather_async, as the C API's climb_comm_sgemm_f32 on three GPUs or more). */
static int run_gather(climb_case *c)
{
    climb_sgemm_gpus_args g = args_of(c);
    for (int r = 0; r < ranks(c); r++)
        g.whole[r] = c->b_all[r];
    CLIMB_CHECK(climb_sgemm_gpus_gather_async(&c->g.x, &g));
    return 0;
}

/* best: the panels on one or two GPUs, the gathering on more (climb_sgemm_gpus_gathers; docs/sgemm_gpus.md has the
 * measurements that chose it). */
static int run_best(climb_case *c)
{
    return climb_sgemm_gpus_gathers(ranks(c)) ? run_gather(c) : run_panels(c);
}

/* summa: each panel of k in turn (van de Geijn and Watts' SUMMA): the GPU of each grid row that holds the panel's
 * columns of A sends them along its row, the GPU of each grid column that holds the panel's rows of B along its
 * column; every GPU adds the product of the two into its block of C. Each GPU pulls what it lacks by the copy
 * engines into one of two buffers for each operand, on its copy stream, under the product of the panel before
 * (the copy of panel t waits for the product of panel t - 2, the product for its copies). */
static int run_summa(climb_case *c)
{
    const int P = ranks(c);
    size_t p[2 * CLIMB_MAX_DEVICES + 1];
    const int panels = summa_panels(c, p);
    for (int r = 0; r < P; r++) {
        const summa_block me = block_of(c, r);
        if (!me.mi || !me.nj)
            continue;
        ON(c->g.x.devices[r]);
        cudaStream_t s = c->g.x.st[r], cp = c->cp[r];
        CLIMB_CHECK(cudaEventRecord(c->used[r][0], s)); /* the copy stream starts where the run does */
        CLIMB_CHECK(cudaStreamWaitEvent(cp, c->used[r][0], 0));
        CLIMB_CHECK(cudaEventRecord(c->used[r][1], s));
        if (panels == 0) /* k 0: C = 0 */
            CLIMB_CHECK(cudaMemsetAsync(c->sc[r], 0, me.mi * me.nj * sizeof(float), s));
        for (int t = 0; t < panels; t++) {
            const size_t p0 = p[t], w = p[t + 1] - p[t];
            const int b = t % 2;
            const int oa = me.i * c->gc + climb_chunk_holding(c->k, c->gc, p0); /* holds A's columns, in my grid row */
            const int ob = climb_chunk_holding(c->k, c->gr, p0) * c->gc + me.j; /* holds B's rows, in my grid column */
            const summa_block ba = block_of(c, oa), bb = block_of(c, ob);
            const float *ap = c->sa[oa] + (p0 - ba.ka0), *bp = c->sb[ob] + (p0 - bb.kb0) * me.nj;
            size_t lda = ba.ka;
            const int copy = oa != r || ob != r;
            if (copy)
                CLIMB_CHECK(cudaStreamWaitEvent(cp, c->used[r][b], 0));
            if (oa != r) { /* the panel's columns of A, w of each of my rows */
                CLIMB_CHECK(cudaMemcpy2DAsync(c->spa[r][b], w * sizeof(float), ap, ba.ka * sizeof(float),
                                              w * sizeof(float), me.mi, cudaMemcpyDefault, cp));
                ap = c->spa[r][b];
                lda = w;
            }
            if (ob != r) { /* the panel's rows of B, whole rows of my columns */
                CLIMB_CHECK(cudaMemcpyAsync(c->spb[r][b], bp, w * me.nj * sizeof(float), cudaMemcpyDefault, cp));
                bp = c->spb[r][b];
            }
            if (copy) {
                CLIMB_CHECK(cudaEventRecord(c->got[r][b], cp));
                CLIMB_CHECK(cudaStreamWaitEvent(s, c->got[r][b], 0));
            }
            CLIMB_CHECK(climb_sgemm_best(NULL, 0, 0, me.mi, me.nj, w, 1.0f, ap, lda, bp, me.nj, t ? 1.0f : 0.0f,
                                         c->sc[r], me.nj, c->ws[r], c->ws_bytes, c->g.x.sms[r], s));
            if (copy)
                CLIMB_CHECK(cudaEventRecord(c->used[r][b], s));
        }
    }
    return 0;
}

/* nccl_cublas: every piece to every GPU by NCCL's send and receive in one group (a GPU's own piece copied on its
 * stream), then cublasSgemm on each GPU's rows (row-major C = A B as column-major C^T = B^T A^T). */
static int run_vendor(climb_case *c)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc) {
        fprintf(stderr, "climb: sgemm_gpus: %s\n", why);
        return -1;
    }
    const int P = ranks(c);
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpyAsync(c->b_all[r] + c->k0[r] * c->n, c->piece[r], piece_of(c, r) * c->n * sizeof(float),
                                    cudaMemcpyDeviceToDevice, c->g.x.st[r]));
    }
    ncclResult_t e = nc->group_start();
    for (int r = 0; r < P && e == ncclSuccess; r++)
        for (int q = 0; q < P && e == ncclSuccess; q++) {
            if (q == r || !piece_of(c, r))
                continue;
            e = nc->send(c->piece[r], piece_of(c, r) * c->n, ncclFloat32, q, c->g.comm[r], c->g.x.st[r]);
            if (e == ncclSuccess)
                e = nc->recv(c->b_all[q] + c->k0[r] * c->n, piece_of(c, r) * c->n, ncclFloat32, r, c->g.comm[q],
                             c->g.x.st[q]);
        }
    const ncclResult_t end = nc->group_end();
    if (e != ncclSuccess || end != ncclSuccess) {
        fprintf(stderr, "climb: sgemm_gpus: NCCL's pieces of B: %s\n", nc->error_string(e != ncclSuccess ? e : end));
        return -1;
    }
    const float one = 1.0f, zero = 0.0f;
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        cublasStatus_t st = cublasSetStream(c->cublas[r], c->g.x.st[r]);
        if (st == CUBLAS_STATUS_SUCCESS && rows_of(c, r) && c->n)
            st = cublasSgemm(c->cublas[r], CUBLAS_OP_N, CUBLAS_OP_N, (int)c->n, (int)rows_of(c, r), (int)c->k, &one,
                             c->b_all[r], (int)c->n, c->a[r], (int)(c->k ? c->k : 1), &zero, c->c_out[r], (int)c->n);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "climb: sgemm_gpus: cublasSgemm on GPU %d: %s\n", c->g.x.devices[r],
                    cublasGetStatusString(st));
            return -1;
        }
    }
    return 0;
#else
    (void)c;
    return -1;
#endif
}

/* source=gpu0: every other GPU's share pulled from rank 0's whole A and B on its own stream (the rows of A and the
 * piece of B the rows split gives it, or, for summa, its blocks of A and B), rank 0's own share copied on its GPU;
 * then a step between the GPUs, since the rungs read each other's pieces. */
static int scatter(climb_case *c, int summa)
{
    const int P = ranks(c);
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        cudaStream_t s = c->g.x.st[r];
        if (summa) {
            const summa_block b = block_of(c, r);
            if (b.mi && b.ka)
                CLIMB_CHECK(cudaMemcpy2DAsync(c->sa[r], b.ka * sizeof(float), c->src_a + b.mi0 * c->k + b.ka0,
                                              c->k * sizeof(float), b.ka * sizeof(float), b.mi, cudaMemcpyDefault, s));
            if (b.kb && b.nj)
                CLIMB_CHECK(cudaMemcpy2DAsync(c->sb[r], b.nj * sizeof(float), c->src_b + b.kb0 * c->n + b.nj0,
                                              c->n * sizeof(float), b.nj * sizeof(float), b.kb, cudaMemcpyDefault, s));
        } else {
            if (rows_of(c, r) && c->k)
                CLIMB_CHECK(climb_copy_across(c->a[r], c->src_a + c->m0[r] * c->k,
                                              rows_of(c, r) * c->k * sizeof(float), s));
            if (piece_of(c, r) && c->n)
                CLIMB_CHECK(climb_copy_across(c->piece[r], c->src_b + c->k0[r] * c->n,
                                              piece_of(c, r) * c->n * sizeof(float), s));
        }
    }
    return climb_gpuset_barrier(&c->g);
}

/* ---------------------------------------------------------------- the registry table */

typedef struct mg_rung {
    climb_rung_info info;
    int (*run)(climb_case *c);
    int one;      /* the whole product on one GPU */
    int all_b;    /* needs the whole of B on every GPU */
    int panels;   /* needs the two panel buffers */
    int vendor;   /* NCCL and cuBLAS */
    int summa;    /* the 2-D blocks */
} mg_rung;

static int k_sgemm(climb_dtype, const climb_device_info *d, const int *, climb_kernel_desc *out, int max)
{
    return climb_rung_kernels(&climb_sgemm_workload, climb_best_rung(&climb_sgemm_workload), CLIMB_F32, d, out, max);
}

static const char *refuses_vendor(const climb_case *c)
{
    (void)c;
    const char *why = climb_nccl_refusal();
    if (why)
        return why;
    return c->m > INT32_MAX || c->n > INT32_MAX || c->k > INT32_MAX ? "cuBLAS takes sizes below 2^31" : NULL;
}

static const mg_rung MG_RUNGS[] = {
    {.info = {.name = "nccl_cublas", .idea = "vendor: every piece of B to every GPU by ncclSend and ncclRecv in one "
                                             "group, then cublasSgemm on each GPU's rows (CUBLAS_PEDANTIC_MATH)",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_vendor},
     .run = run_vendor, .all_b = 1, .vendor = 1},
    {.info = {.name = "one_gpu", .idea = "the whole product on one GPU by climb's best SGEMM: what the others are "
                                         "sped up from",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sgemm},
     .run = run_one_gpu, .one = 1},
    {.info = {.name = "gather_then_multiply", .idea = "rows of A and C a GPU; the pieces of B pushed to every GPU by "
                                                      "the copy engines at once, then each GPU's rows",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sgemm},
     .run = run_gather, .all_b = 1},
    {.info = {.name = "panels", .idea = "each GPU's own piece first, then each other piece as it arrives: the next "
                                        "piece's copy under this piece's product",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sgemm},
     .run = run_panels, .panels = 1},
    {.info = {.name = "summa", .idea = "the 2-D split: the GPUs as a grid, a block of A, B and C each; each panel of k "
                                       "sent along the grid's rows (A) and columns (B), its copies under the product "
                                       "before (SUMMA)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sgemm},
     .run = run_summa, .summa = 1},
    {.info = {.name = "sgemm_gpus_best", .idea = "the panels on one or two GPUs (the pieces' copies under the "
                                                 "products); on more, the pieces gathered first, then each GPU's rows",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_sgemm},
     .run = run_best, .all_b = 1, .panels = 1},
};
#define MG_N_RUNGS CLIMB_COUNT(MG_RUNGS)

static const climb_rung_info *mg_rung_info(int i) { return &MG_RUNGS[i].info; }

/* ---------------------------------------------------------------- harness glue */

static void mg_fini(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        cudaSetDevice(c->g.x.devices[r]);
        if (c->cp[r])
            cudaStreamDestroy(c->cp[r]);
        for (int b = 0; b < 2; b++) {
            if (c->got[r][b])
                cudaEventDestroy(c->got[r][b]);
            if (c->used[r][b])
                cudaEventDestroy(c->used[r][b]);
            cudaFree(c->panel[r][b]);
        }
        cudaFree(c->b_all[r]);
        cudaFree(c->ws[r]);
        cudaFree(c->sa[r]);
        cudaFree(c->sb[r]);
        cudaFree(c->sc[r]);
        for (int b = 0; b < 2; b++) {
            cudaFree(c->spa[r][b]);
            cudaFree(c->spb[r][b]);
        }
        if (c->cublas[r])
            cublasDestroy(c->cublas[r]);
    }
    cudaSetDevice(c->g.x.devices[0]);
    cudaFree(c->one_a);
    cudaFree(c->one_b);
    cudaFree(c->one_c);
    cudaFree(c->src_a);
    cudaFree(c->src_b);
    climb_gpuset_fini(&c->g);
    free(c->ref);
    free(c->tol);
    free(c->rows);
    free(c->row_ref);
    free(c->row_tol);
}

/* Every rank's rows of A and C and its piece of B on its GPU; the copy streams and events. */
static int mg_init(climb_case *c)
{
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    c->m = c->p.shape.d[0];
    c->n = c->p.shape.d[1];
    c->k = c->p.shape.d[2];
    const int P = ranks(c);
    if (c->p.opts[OPT_SPLIT].choice == SPLIT_WEAK && !climb_mul_fits(c->m, (size_t)P, &c->m)) {
        fprintf(stderr, "climb: sgemm_gpus: %zu rows x %d GPUs overflow size_t\n", c->p.shape.d[0], P);
        return -1;
    }
    size_t mk, kn, mn, bytes;
    if (!climb_mul_fits(c->m, c->k, &mk) || !climb_mul_fits(c->k, c->n, &kn) || !climb_mul_fits(c->m, c->n, &mn) ||
        !climb_mul_fits(mn, 2 * sizeof(double), &bytes) || (double)mk + (double)kn > (double)(SIZE_MAX / 8)) {
        fprintf(stderr, "climb: sgemm_gpus %zu x %zu x %zu: more elements than size_t counts\n", c->m, c->n, c->k);
        return -1;
    }
    c->from_gpu0 = c->p.opts[OPT_SOURCE].choice == SOURCE_GPU0;
    if (c->from_gpu0 && !c->g.x.procs) { /* (one process a GPU: refused, see mg_refuses) */
        ON(c->g.x.devices[0]);
        if (cudaMalloc((void **)&c->src_a, (mk ? mk : 1) * sizeof(float)) != cudaSuccess ||
            cudaMalloc((void **)&c->src_b, (kn ? kn : 1) * sizeof(float)) != cudaSuccess) {
            cudaGetLastError();
            cudaSetDevice(c->g.home);
            fprintf(stderr, "climb: sgemm_gpus: out of memory on GPU %d for the whole of A and B (source=gpu0)\n",
                    c->g.x.devices[0]);
            return -1;
        }
    }
    climb_summa_grid(P, &c->gr, &c->gc);
    size_t most_a = 1, most_c = 1, most_p = 1;
    for (int r = 0; r < P; r++) {
        size_t off, len;
        climb_chunk_of(c->m, P, r, &off, &len);
        c->m0[r] = off;
        c->m1[r] = off + len;
        climb_chunk_of(c->k, P, r, &off, &len);
        c->k0[r] = off;
        c->k1[r] = off + len;
        most_a = rows_of(c, r) * c->k > most_a ? rows_of(c, r) * c->k : most_a;
        most_c = rows_of(c, r) * c->n > most_c ? rows_of(c, r) * c->n : most_c;
        most_p = piece_of(c, r) * c->n > most_p ? piece_of(c, r) * c->n : most_p;
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaStreamCreateWithFlags(&c->cp[r], cudaStreamNonBlocking));
        for (int b = 0; b < 2; b++) {
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->got[r][b], cudaEventDisableTiming));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->used[r][b], cudaEventDisableTiming));
        }
    }
    ON(c->g.home);
    void *a[CLIMB_MAX_DEVICES], *pc[CLIMB_MAX_DEVICES], *co[CLIMB_MAX_DEVICES];
    if (climb_gpuset_alloc(&c->g, a, most_a * sizeof(float), most_a * sizeof(float), "a GPU's rows of A") ||
        climb_gpuset_alloc(&c->g, pc, most_p * sizeof(float), most_p * sizeof(float), "a GPU's piece of B") ||
        climb_gpuset_alloc(&c->g, co, most_c * sizeof(float), most_c * sizeof(float), "a GPU's rows of C"))
        return -1;
    for (int r = 0; r < P; r++) {
        c->a[r] = (float *)a[r];
        c->piece[r] = (float *)pc[r];
        c->c_out[r] = (float *)co[r];
    }
    return 0;
}

/* A and B uniform in [-1, 1); every rank's rows and piece uploaded. */
static int mg_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    climb_rng_fill_f32(&rng, c->h_a, c->m * c->k, -1.0f, 1.0f);
    climb_rng_fill_f32(&rng, c->h_b, c->k * c->n, -1.0f, 1.0f);
    if (c->src_a) { /* source=gpu0: the whole of A and B on the first GPU as well */
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemcpy(c->src_a, c->h_a, c->m * c->k * sizeof(float), cudaMemcpyHostToDevice));
        CLIMB_CHECK(cudaMemcpy(c->src_b, c->h_b, c->k * c->n * sizeof(float), cudaMemcpyHostToDevice));
    }
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        if (c->src_a) { /* the scatter alone must fill them: NaNs until it does */
            CLIMB_CHECK(cudaMemset(c->a[r], 0xFF, rows_of(c, r) * c->k * sizeof(float)));
            CLIMB_CHECK(cudaMemset(c->piece[r], 0xFF, piece_of(c, r) * c->n * sizeof(float)));
            CLIMB_CHECK(cudaDeviceSynchronize());
            continue;
        }
        CLIMB_CHECK(cudaMemcpy(c->a[r], c->h_a + c->m0[r] * c->k, rows_of(c, r) * c->k * sizeof(float),
                               cudaMemcpyHostToDevice));
        CLIMB_CHECK(cudaMemcpy(c->piece[r], c->h_b + c->k0[r] * c->n, piece_of(c, r) * c->n * sizeof(float),
                               cudaMemcpyHostToDevice));
    }
    ON(c->g.home);
    return 0;
}

static size_t at_least_1(size_t n) { return n ? n : 1; }
static size_t a_bytes(const climb_case *c) { return at_least_1(c->m * c->k) * sizeof(float); }
static size_t b_bytes(const climb_case *c) { return at_least_1(c->k * c->n) * sizeof(float); }
static size_t c_bytes(const climb_case *c) { return at_least_1(c->m * c->n) * sizeof(float); }

static const climb_buffer MG_BUFFERS[] = {
    {.name = "A", .flags = CLIMB_BUF_HOST, .bytes = a_bytes, .host_at = offsetof(climb_case, h_a)},
    {.name = "B", .flags = CLIMB_BUF_HOST, .bytes = b_bytes, .host_at = offsetof(climb_case, h_b)},
    {.name = "the product downloaded", .flags = CLIMB_BUF_HOST, .bytes = c_bytes, .host_at = offsetof(climb_case, h_c)},
};

static int mg_empty(const climb_case *c) { return c->m == 0 || c->n == 0; }

static const char *mg_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "A and B uniform in [-1, 1); a %zu x %zu x %zu product, rows of A and C and a piece of B "
             "on each of %d GPUs", c->m, c->n, c->k, ranks(c));
    return buf;
}

/* The product downloaded into h_c: the one GPU's, or every rank's rows. */
static int download(climb_case *c, int rung)
{
    if (mg_empty(c))
        return 0;
    if (MG_RUNGS[rung].one) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemcpy(c->h_c, c->one_c, c->m * c->n * sizeof(float), cudaMemcpyDeviceToHost));
    } else if (MG_RUNGS[rung].summa) { /* every GPU's block into its place */
        for (int r = 0; r < ranks(c); r++) {
            const summa_block b = block_of(c, r);
            ON(c->g.x.devices[r]);
            if (b.mi && b.nj)
                CLIMB_CHECK(cudaMemcpy2D(c->h_c + b.mi0 * c->n + b.nj0, c->n * sizeof(float), c->sc[r],
                                         b.nj * sizeof(float), b.nj * sizeof(float), b.mi, cudaMemcpyDeviceToHost));
        }
    } else {
        for (int r = 0; r < ranks(c); r++) {
            ON(c->g.x.devices[r]);
            CLIMB_CHECK(cudaMemcpy(c->h_c + c->m0[r] * c->n, c->c_out[r], rows_of(c, r) * c->n * sizeof(float),
                                   cudaMemcpyDeviceToHost));
        }
    }
    ON(c->g.home);
    return 0;
}

/* Row i of the product on the CPU in double, with each element's tolerance. */
static void cpu_row(const climb_case *c, size_t i, double *out, double *tol)
{
    climb_sgemm_ref_row(c->h_a, c->k ? c->k : 1, 0, c->h_b, c->n, 0, NULL, c->n, c->k, 1.0f, 0.0f, i, out, tol);
    for (size_t j = 0; j < c->n; j++)
        tol[j] = climb_sgemm_tolerance(c->k, tol[j]);
}

/* Rows of C computed on the CPU where the whole product would take too long (SAMPLES, VENDOR). */
#define MG_CPU_ROWS 8

static int mg_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    const size_t m = c->m, n = c->n;
    if (mode == CLIMB_REF_CPU) {
        c->ref = (double *)malloc(at_least_1(m * n) * sizeof(double));
        c->tol = (double *)malloc(at_least_1(m * n) * sizeof(double));
        if (!c->ref || !c->tol)
            return climb_host_oom("the sgemm_gpus reference");
        for (size_t i = 0; i < m; i++)
            cpu_row(c, i, c->ref + i * n, c->tol + i * n);
        snprintf(desc, desclen, "CPU, double; |error| <= 1.01 (k + 2) 2^-24 sum|a b| each");
        return 0;
    }
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x5167e3ULL);
    c->rows = climb_rng_samples(&rng, m, MG_CPU_ROWS, &c->n_rows);
    c->row_ref = (double *)malloc(at_least_1(c->n_rows * n) * sizeof(double));
    c->row_tol = (double *)malloc(at_least_1(c->n_rows * n) * sizeof(double));
    if (!c->rows || !c->row_ref || !c->row_tol)
        return climb_host_oom("the sgemm_gpus reference");
    for (size_t r = 0; r < c->n_rows; r++)
        cpu_row(c, c->rows[r], c->row_ref + r * n, c->row_tol + r * n);
    if (mode == CLIMB_REF_SAMPLES) {
        snprintf(desc, desclen, "CPU, %zu random rows of C in double", c->n_rows);
        return 0;
    }
    /* VENDOR: its product at the CPU's rows, then adopted for the rest within twice the bound (|a_i||b_j| <=
     * ||a_i|| ||b_j||, Cauchy-Schwarz, bounds sum |a b| without a product per element), as sgemm's is */
    for (int r = 0; r < MG_N_RUNGS; r++)
        if (MG_RUNGS[r].info.kind == CLIMB_RUNG_VENDOR && download(c, r))
            return -1;
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++) {
            const double got = c->h_c[c->rows[r] * n + j], want = c->row_ref[r * n + j];
            if (!(fabs(got - want) <= c->row_tol[r * n + j])) {
                snprintf(desc, desclen, "the vendor's C[%zu][%zu] = %.9g, CPU %.9g", c->rows[r], j, got, want);
                return 1;
            }
        }
    c->ref = (double *)malloc(m * n * sizeof(double));
    c->tol = (double *)malloc(m * n * sizeof(double));
    double *an = (double *)calloc(m, sizeof(double)), *bn = (double *)calloc(n, sizeof(double));
    if (!c->ref || !c->tol || !an || !bn) {
        free(an);
        free(bn);
        return climb_host_oom("the sgemm_gpus reference");
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t p = 0; p < c->k; p++)
            an[i] += (double)c->h_a[i * c->k + p] * c->h_a[i * c->k + p];
        an[i] = sqrt(an[i]);
    }
    for (size_t p = 0; p < c->k; p++)
        for (size_t j = 0; j < n; j++)
            bn[j] += (double)c->h_b[p * n + j] * c->h_b[p * n + j];
    for (size_t j = 0; j < n; j++)
        bn[j] = sqrt(bn[j]);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            c->ref[i * n + j] = c->h_c[i * n + j];
            c->tol[i * n + j] = 2 * climb_sgemm_tolerance(c->k, an[i] * bn[j]);
        }
    free(an);
    free(bn);
    snprintf(desc, desclen, "nccl_cublas's product (%zu CPU rows agree in double), within 2 x 1.01 (k + 2) 2^-24 "
             "||a_i|| ||b_j||; the %zu CPU rows checked too", c->n_rows, c->n_rows);
    return 0;
}

/* The whole product's CPU cost, a multiply-add each. */
static double mg_ref_cost(const climb_case *c) { return (double)c->m * c->n * c->k; }

/* The buffers a rung needs beyond the case's (untimed), on the GPUs; peer access, NCCL's communicator. */
static int mg_prepare(climb_case *c, int rung)
{
    const mg_rung *r = &MG_RUNGS[rung];
    const int P = ranks(c);
    if (mg_empty(c))
        return 0;
    /* SGEMM's workspace: the largest any product here asks for */
    size_t ws = climb_sgemm_workspace(NULL, 0, 0, c->m, c->n, c->k, c->g.x.sms[0]);
    size_t pk[2 * CLIMB_MAX_DEVICES + 1];
    const int panels = summa_panels(c, pk);
    for (int q = 0; q < P; q++) {
        const size_t w = climb_sgemm_gpus_ws_bytes(c->m, c->n, c->k, P, c->g.x.sms[q]);
        ws = w > ws ? w : ws;
        const summa_block bq = block_of(c, q);
        for (int t = 0; r->summa && t < panels; t++) {
            const size_t v = climb_sgemm_workspace(NULL, 0, 0, bq.mi, bq.nj, pk[t + 1] - pk[t], c->g.x.sms[q]);
            ws = v > ws ? v : ws;
        }
    }
    if (ws > c->ws_bytes) {
        for (int q = 0; q < P; q++) {
            ON(c->g.x.devices[q]);
            cudaFree(c->ws[q]);
            c->ws[q] = NULL;
            if (cudaMalloc(&c->ws[q], ws) != cudaSuccess)
                goto oom;
        }
        c->ws_bytes = ws;
    }
    for (int q = 0; q < P; q++) {
        ON(c->g.x.devices[q]);
        if (r->all_b && !c->b_all[q] && cudaMalloc((void **)&c->b_all[q], c->k * c->n * sizeof(float) + 4) != cudaSuccess)
            goto oom;
        for (int b = 0; b < 2; b++)
            if (r->panels && !c->panel[q][b] &&
                cudaMalloc((void **)&c->panel[q][b], climb_sgemm_gpus_panel_floats(c->n, c->k, P) * sizeof(float)) !=
                    cudaSuccess)
                goto oom;
        if (r->vendor && !c->cublas[q]) {
            if (cublasCreate(&c->cublas[q]) != CUBLAS_STATUS_SUCCESS ||
                cublasSetMathMode(c->cublas[q], CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
                fprintf(stderr, "climb: sgemm_gpus: cuBLAS on GPU %d did not start\n", c->g.x.devices[q]);
                return -1;
            }
        }
    }
    if (r->one && !c->one_a) {
        ON(c->g.x.devices[0]);
        if (cudaMalloc((void **)&c->one_a, a_bytes(c)) != cudaSuccess ||
            cudaMalloc((void **)&c->one_b, b_bytes(c)) != cudaSuccess ||
            cudaMalloc((void **)&c->one_c, c_bytes(c)) != cudaSuccess)
            goto oom;
        CLIMB_CHECK(cudaMemcpy(c->one_a, c->h_a, c->m * c->k * sizeof(float), cudaMemcpyHostToDevice));
        CLIMB_CHECK(cudaMemcpy(c->one_b, c->h_b, c->k * c->n * sizeof(float), cudaMemcpyHostToDevice));
    }
    for (int q = 0; r->summa && q < P && !c->sa[q]; q++) { /* the blocks from the host's A and B, untimed */
        const summa_block b = block_of(c, q);
        size_t wide = 1;
        for (int t = 0; t < panels; t++)
            wide = pk[t + 1] - pk[t] > wide ? pk[t + 1] - pk[t] : wide;
        ON(c->g.x.devices[q]);
        if (cudaMalloc((void **)&c->sa[q], (b.mi * b.ka + 1) * sizeof(float)) != cudaSuccess ||
            cudaMalloc((void **)&c->sb[q], (b.kb * b.nj + 1) * sizeof(float)) != cudaSuccess ||
            cudaMalloc((void **)&c->sc[q], (b.mi * b.nj + 1) * sizeof(float)) != cudaSuccess)
            goto oom;
        for (int k = 0; k < 2; k++)
            if (cudaMalloc((void **)&c->spa[q][k], (b.mi * wide + 1) * sizeof(float)) != cudaSuccess ||
                cudaMalloc((void **)&c->spb[q][k], (wide * b.nj + 1) * sizeof(float)) != cudaSuccess)
                goto oom;
        if (c->src_a) { /* source=gpu0: the scatter alone fills the blocks (NaNs until it does) */
            CLIMB_CHECK(cudaMemset(c->sa[q], 0xFF, (b.mi * b.ka + 1) * sizeof(float)));
            CLIMB_CHECK(cudaMemset(c->sb[q], 0xFF, (b.kb * b.nj + 1) * sizeof(float)));
            CLIMB_CHECK(cudaDeviceSynchronize());
            continue;
        }
        if (b.mi && b.ka)
            CLIMB_CHECK(cudaMemcpy2D(c->sa[q], b.ka * sizeof(float), c->h_a + b.mi0 * c->k + b.ka0,
                                     c->k * sizeof(float), b.ka * sizeof(float), b.mi, cudaMemcpyHostToDevice));
        if (b.kb && b.nj)
            CLIMB_CHECK(cudaMemcpy2D(c->sb[q], b.nj * sizeof(float), c->h_b + b.kb0 * c->n + b.nj0,
                                     c->n * sizeof(float), b.nj * sizeof(float), b.kb, cudaMemcpyHostToDevice));
    }
    ON(c->g.home);
    return climb_gpuset_prepare(&c->g, !r->one, r->vendor, "sgemm_gpus");
oom:
    cudaGetLastError();
    cudaSetDevice(c->g.home);
    fprintf(stderr, "climb: sgemm_gpus: out of GPU memory for %s's buffers (%zu x %zu x %zu)\n", r->info.name, c->m,
            c->n, c->k);
    return -1;
}

/* What prepare made for a rung goes once another runs: one GPU's whole operands, the whole of B on every GPU. */
static void mg_release(climb_case *c, int rung)
{
    const mg_rung *r = &MG_RUNGS[rung];
    for (int q = 0; q < ranks(c); q++) {
        cudaSetDevice(c->g.x.devices[q]);
        if (r->all_b) {
            cudaFree(c->b_all[q]);
            c->b_all[q] = NULL;
        }
        if (r->vendor && c->cublas[q]) {
            cublasDestroy(c->cublas[q]);
            c->cublas[q] = NULL;
        }
        if (r->summa) {
            cudaFree(c->sa[q]);
            cudaFree(c->sb[q]);
            cudaFree(c->sc[q]);
            c->sa[q] = c->sb[q] = c->sc[q] = NULL;
            for (int b = 0; b < 2; b++) {
                cudaFree(c->spa[q][b]);
                cudaFree(c->spb[q][b]);
                c->spa[q][b] = c->spb[q][b] = NULL;
            }
        }
    }
    if (r->one) {
        cudaSetDevice(c->g.x.devices[0]);
        cudaFree(c->one_a);
        cudaFree(c->one_b);
        cudaFree(c->one_c);
        c->one_a = c->one_b = c->one_c = NULL;
    }
    climb_gpuset_release(&c->g, r->vendor);
}

static int mg_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = c->from_gpu0 && !MG_RUNGS[rung].one && scatter(c, MG_RUNGS[rung].summa) ? -1 : MG_RUNGS[rung].run(c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, 0);
}

/* Every rank's rows of C (and the one GPU's product), all ones: a NaN no product of finite values makes. */
static int mg_poison(climb_case *c)
{
    if (mg_empty(c))
        return 0;
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemset(c->c_out[r], 0xFF, rows_of(c, r) * c->n * sizeof(float)));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    if (c->one_c) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemset(c->one_c, 0xFF, c_bytes(c)));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    for (int r = 0; r < ranks(c); r++)
        if (c->sc[r]) {
            const summa_block b = block_of(c, r);
            ON(c->g.x.devices[r]);
            CLIMB_CHECK(cudaMemset(c->sc[r], 0xFF, b.mi * b.nj * sizeof(float)));
            CLIMB_CHECK(cudaDeviceSynchronize());
        }
    ON(c->g.home);
    return 0;
}

/* The whole product, every element, against the CPU's (or the adopted product); the CPU's rows too. */
static int mg_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    if (download(c, rung))
        return -1;
    const size_t m = c->m, n = c->n;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (c->ref)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                climb_compare_close(&k, c->h_c[i * n + j], c->ref[i * n + j], c->tol[i * n + j], "C[%zu][%zu]", i, j);
    for (size_t r = 0; r < c->n_rows; r++)
        for (size_t j = 0; j < n; j++)
            climb_compare_close(&k, c->h_c[c->rows[r] * n + j], c->row_ref[r * n + j], c->row_tol[r * n + j],
                                "C[%zu][%zu]", c->rows[r], j);
    return climb_compare_end(&k);
}

/* The busiest GPU (rank 0: the most rows): its flops, its rows of A, the whole of B and its rows of C; the pieces
 * of B the GPU with the smallest piece receives. */
static void mg_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double rows = (double)rows_of(c, 0), n = (double)c->n, k = (double)c->k;
    out->flops = 2.0 * rows * n * k;
    out->bytes_read = 4.0 * (rows * k + k * n);
    out->bytes_written = 4.0 * rows * n;
    size_t least = c->k;
    for (int r = 0; r < ranks(c); r++)
        least = piece_of(c, r) < least ? piece_of(c, r) : least;
    out->link_bytes = ranks(c) > 1 ? 4.0 * (double)(c->k - least) * n : 0;
    if (c->from_gpu0 && ranks(c) > 1) /* and the largest share the first GPU sends one other (rank 1's) */
        out->link_bytes += 4.0 * ((double)rows_of(c, 1) * k + (double)piece_of(c, 1) * n);
}

/* one_gpu's own: the whole product on one GPU, nothing over the links. */
static int mg_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (!MG_RUNGS[rung].one)
        return 0;
    memset(out, 0, sizeof *out);
    out->flops = 2.0 * (double)c->m * c->n * c->k;
    out->bytes_read = 4.0 * ((double)c->m * c->k + (double)c->k * c->n);
    out->bytes_written = 4.0 * (double)c->m * c->n;
    return 1;
}

/* 8192^3 and 16384^3 (strong scaling: the same product on 1, 2, 4, ... GPUs; --set split=weak makes m each GPU's
 * rows). */
static const climb_shape MG_BENCH_SHAPES[] = {CLIMB_SHAPE3(8192, 8192, 8192), CLIMB_SHAPE3(16384, 16384, 16384)};
static const climb_shape MG_MAIN_SHAPES[] = {CLIMB_SHAPE3(8192, 8192, 8192)};
/* Empty, a row a GPU or fewer, a piece of B a GPU or fewer, odd sizes, non-multiples of the tiles. */
static const climb_shape MG_CHECK_SHAPES[] = {
    CLIMB_SHAPE3(0, 0, 0),     CLIMB_SHAPE3(4, 0, 4),      CLIMB_SHAPE3(4, 4, 0),    CLIMB_SHAPE3(1, 1, 1),
    CLIMB_SHAPE3(3, 5, 2),     CLIMB_SHAPE3(2, 7, 3),      CLIMB_SHAPE3(33, 65, 17), CLIMB_SHAPE3(130, 257, 129),
    CLIMB_SHAPE3(1000, 300, 500)};
static const climb_shape MG_QUICK_SHAPES[] = {CLIMB_SHAPE3(3, 5, 2), CLIMB_SHAPE3(130, 257, 129)};

static const char *const MG_SOURCES[] = {"spread", "gpu0", NULL};
static const char *const MG_SPLITS[] = {"strong", "weak", NULL};
static constexpr climb_option MG_OPTIONS[] = {
    {.name = "source", .kind = CLIMB_OPT_CHOICE,
     .meaning = "spread: A and B already spread over the GPUs (rows of A, pieces of B: the user's data lives there); "
                "gpu0: A and B whole on the first GPU, each run scattering every GPU's share first (counted)",
     .def = "spread", .choices = MG_SOURCES, .check_def = "all"},
    {.name = "split", .kind = CLIMB_OPT_CHOICE, .meaning = "strong: the shape is the whole product; weak: m is each "
                                                           "GPU's rows (the product is (m x GPUs) x n x k)",
     .def = "strong", .choices = MG_SPLITS},
};
CLIMB_OPTION_AT(MG_OPTIONS, OPT_SOURCE, "source");
CLIMB_OPTION_AT(MG_OPTIONS, OPT_SPLIT, "split");

/* The scatter's cost: the default shapes with A and B starting whole on one GPU. */
static const climb_sweep MG_SWEEPS[] = {
    {.name = "from_gpu0",
     .title = "A and B whole on the first GPU, each run scattering the GPUs' shares first: time against the spread "
              "case's",
     .args = "--set source=gpu0", .x = "m", .log_x = 1},
};

/* One process a GPU cannot read the first GPU's memory from the others' copies: source=gpu0 runs in one process. */
static const char *mg_refuses(const climb_case *c, int rung)
{
    return c->from_gpu0 && c->g.x.procs && !MG_RUNGS[rung].one
               ? "source=gpu0 runs in one process (every GPU copies its share from the first GPU's memory)"
               : NULL;
}

/* The host memory a case needs at the least: A, B, the product's download, and the reference's rows. */
static double mg_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    const double m = (double)s->d[0], n = (double)s->d[1], k = (double)s->d[2];
    return 4.0 * (m * k + k * n + m * n);
}

extern "C" const climb_workload climb_sgemm_gpus_workload = {
    .name = "sgemm_gpus",
    .title = "SGEMM across GPUs: rows of A and C a GPU, the pieces of B gathered, or multiplied as they arrive; the "
             "2-D split (SUMMA)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, GEMM (the one-GPU kernel); van "
               "Oosten, Introduction to CUDA 5.0: GPUDirect (transfers between GPUs without the host); van de Geijn "
               "and Watts, SUMMA: Scalable Universal Matrix Multiplication Algorithm",
    .dims = {"m", "n", "k"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .min_devices = 1,
    .max_devices = CLIMB_MAX_DEVICES,
    .options = MG_OPTIONS,
    .n_options = CLIMB_COUNT(MG_OPTIONS),
    .bytes_counted = "the busiest GPU's rows of A and C and the whole of B (one_gpu: A, B and C); the pieces of B a "
                     "GPU receives over the links",
    .bench_shapes = MG_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(MG_BENCH_SHAPES),
    .check_shapes = MG_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(MG_CHECK_SHAPES),
    .quick_shapes = MG_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(MG_QUICK_SHAPES),
    .main_shapes = MG_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(MG_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = MG_N_RUNGS,
    .rung = mg_rung_info,
    .sweeps = MG_SWEEPS,
    .n_sweeps = CLIMB_COUNT(MG_SWEEPS),
    .weak_scaling = "--set split=weak --size 8192x8192x8192",
    .case_size = sizeof(climb_case),
    .buffers = MG_BUFFERS,
    .n_buffers = CLIMB_COUNT(MG_BUFFERS),
    .init = mg_init,
    .fill = mg_fill,
    .fini = mg_fini,
    .describe = mg_describe,
    .reference = mg_reference,
    .ref_cost = mg_ref_cost,
    .ref_cost_limit = 1 << 28,
    .case_bytes = mg_case_bytes,
    .refuses = mg_refuses,
    .prepare = mg_prepare,
    .run = mg_run,
    .empty = mg_empty,
    .poison = mg_poison,
    .verify = mg_verify,
    .counts = mg_counts,
    .rung_counts = mg_rung_counts,
    .release = mg_release,
};
