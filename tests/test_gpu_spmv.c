/* GPU: every SpMV rung, f32 and f64, over the check shapes of every generator (climb check); over Matrix Market
 * files with empty rows, an empty last row, a 1 x 1 matrix, a single dense row, rectangular shapes both ways and a
 * pattern file, each row checked against the CPU from poisoned output; proof that a wrong y fails (one product
 * lost in one row); the C API (alpha and beta, beta = 0 over NaN, the validation flag, a power-law matrix that
 * takes the merge plan, a matrix with long rows listed, bad arguments); the plan's windowed JDS built on the device
 * against its host layout, and its lanes with rows a warp, each built alone. */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/spmv/spmv.h"
#include "spmv_fixture.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* A device CSR matrix with its host copy, and a plan made on the main thread's handle. */
typedef struct api_csr {
    int rows, cols, nnz, f64;
    int32_t *rp, *ci;
    double *val; /* host values, as the type holds them */
    int32_t *d_rp, *d_ci;
    void *d_val; /* f32 or f64 */
    climb_spmv_plan plan;
} api_csr;

/* A random CSR matrix: row lengths 0 to 2 x mean, a few rows `long_len` long, columns distinct in each row. */
static int api_csr_make(api_csr *mt, int rows, int cols, int mean, int n_long, int long_len, int f64, climb_rng *r)
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
        /* a random start and a gap that cannot wrap: the columns of a row are distinct */
        const int len = mt->rp[i + 1] - mt->rp[i];
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

static void api_csr_free(api_csr *mt)
{
    climb_spmv_plan_destroy(mt->plan);
    free(mt->rp);
    free(mt->ci);
    free(mt->val);
    cudaFree(mt->d_rp);
    cudaFree(mt->d_ci);
    cudaFree(mt->d_val);
}

static climb_status api_plan_for(climb_handle h, const api_csr *mt, climb_spmv_plan *plan)
{
    return mt->f64 ? climb_spmv_plan_create_f64(h, mt->rows, mt->cols, mt->nnz, mt->d_rp, mt->d_ci, mt->d_val,
                                                CLIMB_SPMV_VALIDATE, plan)
                   : climb_spmv_plan_create(h, mt->rows, mt->cols, mt->nnz, mt->d_rp, mt->d_ci, mt->d_val,
                                            CLIMB_SPMV_VALIDATE, plan);
}

typedef struct spmv_job {
    api_job base;
    const api_csr *mat;
    float alpha, beta;
} spmv_job;

static int spmv_sizes(api_job *b)
{
    const spmv_job *j = (const spmv_job *)b;
    const size_t es = j->mat->f64 ? 8 : 4;
    b->a_bytes = (size_t)j->mat->cols * es;
    b->out_bytes = (size_t)j->mat->rows * es;
    return 0;
}

/* y is an input too where beta is not 0: its start copied in; else poisoned. */
static int spmv_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const spmv_job *j = (const spmv_job *)b;
    const climb_dtype t = j->mat->f64 ? CLIMB_F64 : CLIMB_F32;
    climb_rng_fill(r, t, b->h_a, (size_t)j->mat->cols, -1.0, 1.0);
    climb_rng_fill(r, t, b->h_c0, (size_t)j->mat->rows, -1.0, 1.0);
    return api_job_send(b, s, API_SEND_A | (j->beta != 0.0f ? API_SEND_C0 : API_POISON_OUT), 0xFF);
}

static climb_status spmv_call(api_job *b, climb_handle h)
{
    const spmv_job *j = (const spmv_job *)b;
    return j->mat->f64 ? climb_spmv_f64(h, j->mat->plan, j->alpha, b->d_a, j->beta, b->d_out)
                       : climb_spmv(h, j->mat->plan, j->alpha, b->d_a, j->beta, b->d_out);
}

static void spmv_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const spmv_job *j = (const spmv_job *)b;
    const api_csr *mt = j->mat;
    for (int r = 0; r < mt->rows; r++) {
        double sum = 0, abs_sum = 0;
        for (int p = mt->rp[r]; p < mt->rp[r + 1]; p++) {
            const double x = mt->f64 ? ((const double *)b->h_a)[mt->ci[p]] : ((const float *)b->h_a)[mt->ci[p]];
            sum += mt->val[p] * x;
            abs_sum += fabs(mt->val[p] * x);
        }
        const double y0 = mt->f64 ? ((const double *)b->h_c0)[r] : ((const float *)b->h_c0)[r];
        const double want = j->alpha * sum + (j->beta != 0.0f ? j->beta * y0 : 0.0);
        const double mag = fabs(j->alpha) * abs_sum + fabs(j->beta * y0);
        const double g = mt->f64 ? ((const double *)got)[r] : ((const float *)got)[r];
        if (!(fabs(g - want) <= climb_spmv_tolerance(mt->rp[r + 1] - mt->rp[r] + 2, mag, mt->f64)))
            api_mismatch_note(m, (size_t)r, g, want);
    }
}

static const api_job_ops spmv_ops = {.sizes = spmv_sizes, .fill = spmv_fill, .call = spmv_call, .check = spmv_check};

static api_job *spmv_job_of(const api_csr *mt, float alpha, float beta)
{
    spmv_job *j = api_job_new(sizeof *j, &spmv_ops);
    if (!j)
        return NULL;
    j->mat = mt;
    j->alpha = alpha;
    j->beta = beta;
    snprintf(j->base.label, sizeof j->base.label, "climb_spmv%s %dx%d nnz=%d beta=%g", mt->f64 ? "_f64" : "",
             mt->rows, mt->cols, mt->nnz, beta);
    return &j->base;
}

/* The matrices, each with its plan made on h: for the captures, short rows with a few long ones and rows averaging
 * 24 (the plan's other path), in f32 and f64; for the threads, one. */
typedef struct spmv_shared {
    int n;
    api_csr m[4];
} spmv_shared;

static void spmv_shared_free(void *p)
{
    spmv_shared *sh = p;
    for (int i = 0; i < sh->n; i++)
        api_csr_free(&sh->m[i]);
    free(sh);
}

static void *spmv_shared_make(int set, climb_handle h, climb_rng *r)
{
    spmv_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return NULL;
    const int n = set == API_CAPTURE ? 4 : 1;
    for (int i = 0; i < n; i++, sh->n++) {
        const int f64 = i / 2, shape = i % 2;
        int ok = set == API_THREAD  ? api_csr_make(&sh->m[i], 30011, 20011, 5, 4, 2500, 0, r)
                 : shape == 0       ? api_csr_make(&sh->m[i], 20011, 15013, 4, 5, 3000, f64, r)
                                    : api_csr_make(&sh->m[i], 9001, 9001, 24, 0, 0, f64, r);
        const climb_status st = ok == 0 ? api_plan_for(h, &sh->m[i], &sh->m[i].plan) : CLIMB_STATUS_ALLOC_FAILED;
        if (st != CLIMB_STATUS_SUCCESS) {
            fprintf(stderr, "spmv: a matrix and its plan: %s\n", climb_status_string(st));
            sh->n++;
            spmv_shared_free(sh);
            return NULL;
        }
    }
    return sh;
}

static int spmv_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)id;
    const spmv_shared *sh = shared;
    if (!sh || cap < 2 * sh->n)
        return -1;
    if (set == API_THREAD) {
        out[0] = spmv_job_of(&sh->m[0], 2.0f, 0.0f);
        return 1;
    }
    for (int i = 0; i < sh->n; i++) {
        out[2 * i] = spmv_job_of(&sh->m[i], 1.5f, 0.0f);
        out[2 * i + 1] = spmv_job_of(&sh->m[i], 1.5f, 0.25f);
    }
    return 2 * sh->n;
}

const api_workload api_workload_spmv = {
    .name = "spmv", .jobs = spmv_jobs, .shared_make = spmv_shared_make, .shared_free = spmv_shared_free};

/* Making a plan waits for the GPU, so it is refused on a capturing stream, and that capture stays valid; a plan
 * made while ANOTHER stream is being captured (global mode) is allowed, and leaves that capture valid; a plan made
 * eagerly right after a call into a capture the caller broke works (its analysis checks its own launches). */
static void test_api_plans_and_captures(void)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    cudaStream_t s, s2;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
    api_csr mt;
    EXPECT(api_csr_make(&mt, 5003, 4001, 6, 3, 1500, 0, &r) == 0);
    climb_handle h, other;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_create(&other, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(other, s2) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_plan_for(other, &mt, &mt.plan) == CLIMB_STATUS_SUCCESS);
    api_job *j = spmv_job_of(&mt, 1.0f, 0.0f);
    EXPECT(api_job_setup(j) == 0 && api_job_fill(j, &r, s) == 0);

    /* refused inside the capture, which stays valid: the product captured after it runs right */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    climb_spmv_plan p2 = NULL;
    EXPECT(api_plan_for(h, &mt, &p2) == CLIMB_STATUS_CAPTURE_UNSUPPORTED && p2 == NULL);
    EXPECT(j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
    cudaGraph_t g = NULL;
    EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
    cudaGraphExec_t ex = NULL;
    EXPECT(g && cudaGraphInstantiate(&ex, g, 0) == cudaSuccess);
    if (ex) {
        EXPECT(api_replay(j, ex, s, &r, 1, "after a plan refused inside the capture:") == 0);
        cudaGraphExecDestroy(ex);
    }
    if (g)
        cudaGraphDestroy(g);

    /* beside another stream's capture: allowed, and that capture stays valid */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_plan_for(other, &mt, &p2) == CLIMB_STATUS_SUCCESS && p2);
    EXPECT(climb_spmv_plan_destroy(p2) == CLIMB_STATUS_SUCCESS);
    g = NULL;
    EXPECT_MSG(cudaStreamEndCapture(s, &g) == cudaSuccess && g, "a plan made beside a capture invalidated it");
    if (g)
        cudaGraphDestroy(g);

    /* a call into a capture the caller broke (a wait on the capturing stream is illegal), then a plan eagerly */
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) != cudaSuccess); /* invalidates the capture */
    const climb_status st = j->ops->call(j, h);
    EXPECT_MSG(st != CLIMB_STATUS_SUCCESS, "a call into a broken capture: %s", climb_status_string(st));
    EXPECT_MSG(climb_last_cuda_error(h) == cudaErrorStreamCaptureInvalidated, "%s",
               cudaGetErrorName(climb_last_cuda_error(h)));
    EXPECT_MSG(cudaPeekAtLastError() == cudaSuccess, "left behind: %s", cudaGetErrorName(cudaPeekAtLastError()));
    g = NULL;
    EXPECT(cudaStreamEndCapture(s, &g) != cudaSuccess); /* the caller's own error, left unread on purpose */
    if (g)
        cudaGraphDestroy(g);
    cudaGetLastError();
    EXPECT(api_plan_for(other, &mt, &p2) == CLIMB_STATUS_SUCCESS && p2);
    EXPECT(climb_spmv_plan_destroy(p2) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_fill(j, &r, s2) == 0 && j->ops->call(j, other) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_check(j, s2, "after a broken capture"));
    EXPECT(api_job_fill(j, &r, s) == 0 && j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_check(j, s, "the failed handle, next call"));

    api_job_free(j);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(other) == CLIMB_STATUS_SUCCESS);
    api_csr_free(&mt);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
}

static const climb_workload *w = &climb_spmv_workload;
static climb_device_info dev;

static void test_check(uint64_t seed)
{
    climb_opt_plan p;
    test_plan(&p, w, "matrix", "all", "band", "3", "per_row", "5", "max_row", "300", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%ld runs, %d failures, %ld refused", cr.runs, cr.failures,
               cr.refused);
    printf("check: %ld runs, %ld refused, seed %" PRIu64 "\n", cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Every rung on the matrix in `text` (a Matrix Market file), f32 and f64: verified, or refused for a stated reason
 * (only cuSPARSE on an empty matrix). Returns the runs verified. */
static int every_rung_on(const char *dir, const char *name, const char *text)
{
    char path[256], err[300], desc[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    test_write_text(path, text);
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    const int k = climb_opt_find(w->options, w->n_options, "input");
    EXPECT(climb_opt_plan_set(&p, k, path, 0, err, sizeof err) == 0);
    climb_opt_value *v = &p.values[k][0];
    EXPECT_MSG(w->load(v->text, &v->data, &v->shape, desc, sizeof desc, err, sizeof err) == 0, "%s", err);
    v->desc = strdup(desc);
    int verified = 0;
    const climb_dtype types[] = {CLIMB_F32, CLIMB_F64};
    for (int ti = 0; ti < 2; ti++) {
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 31 + ti;
        climb_case_key key = {types[ti], v->shape, 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &key, 0, &dev, 0, &oc) == 0);
        for (int r = 0; r < w->n_rungs; r++) {
            const char *why = climb_case_refuses(w, oc.c, r);
            if (why) {
                EXPECT_MSG(strstr(why, "cuSPARSE") != NULL, "%s %s refused: %s", name, w->rung(r)->name, why);
                continue;
            }
            char msg[600] = "";
            EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
            EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            const int bad = climb_case_verify(w, oc.c, r, msg, sizeof msg);
            EXPECT_MSG(bad == 0, "%s %s %s: %s", name, climb_dtype_name(types[ti]), w->rung(r)->name, msg);
            verified += bad == 0;
        }
        climb_case_close(w, &oc);
    }
    climb_opt_plan_free(&p, w->unload);
    unlink(path);
    return verified;
}

static void test_files(void)
{
    char dir[] = "/tmp/climb_gpu_spmv_XXXXXX";
    EXPECT(mkdtemp(dir) != NULL);
    const int rungs = w->n_rungs;
    /* 1 x 1 */
    EXPECT(every_rung_on(dir, "one.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -2.5\n") ==
           2 * rungs);
    /* empty rows in the middle and at the end (rows 2, 4 and 6 of 6) */
    EXPECT(every_rung_on(dir, "empty.mtx",
                         "%%MatrixMarket matrix coordinate real general\n6 5 5\n1 1 1\n1 5 2\n3 2 3\n5 3 4\n5 4 "
                         "-5\n") == 2 * rungs);
    /* rectangular both ways, with a pattern file (values 1) */
    EXPECT(every_rung_on(dir, "wide.mtx",
                         "%%MatrixMarket matrix coordinate pattern general\n2 7 5\n1 1\n1 7\n2 3\n2 4\n2 6\n") ==
           2 * rungs);
    EXPECT(every_rung_on(dir, "tall.mtx",
                         "%%MatrixMarket matrix coordinate integer general\n7 2 4\n1 1 3\n4 2 -1\n7 1 2\n7 2 5\n") ==
           2 * rungs);
    /* an all-zero matrix (nonzeros 0) */
    EXPECT(every_rung_on(dir, "zero.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 0\n") == 2 * rungs);
    /* one dense row of 5000 among 300 rows of one nonzero, f64: ELL pads every row to 5000 (18 MB, 285x the CSR),
     * so format_limit is raised to let every rung run */
    {
        size_t cap = 400000, used = 0;
        char *t = malloc(cap);
        used += (size_t)snprintf(t + used, cap - used, "%%%%MatrixMarket matrix coordinate real general\n300 5000 %d\n",
                                 5000 + 299);
        for (int j = 1; j <= 5000; j++)
            used += (size_t)snprintf(t + used, cap - used, "7 %d %g\n", j, 0.001 * j - 2);
        for (int i = 1; i <= 300; i++)
            if (i != 7)
                used += (size_t)snprintf(t + used, cap - used, "%d %d 1.5\n", i, (i * 37) % 5000 + 1);
        char path[256], err[300], desc[300];
        snprintf(path, sizeof path, "%s/dense.mtx", dir);
        test_write_text(path, t);
        free(t);
        climb_opt_plan p;
        test_plan(&p, w, "format_limit", "1000", NULL);
        const int k = climb_opt_find(w->options, w->n_options, "input");
        EXPECT(climb_opt_plan_set(&p, k, path, 0, err, sizeof err) == 0);
        climb_opt_value *v = &p.values[k][0];
        EXPECT(w->load(v->text, &v->data, &v->shape, desc, sizeof desc, err, sizeof err) == 0);
        v->desc = strdup(desc);
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 5;
        climb_case_key key = {CLIMB_F64, v->shape, 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &key, 0, &dev, 0, &oc) == 0);
        int verified = 0;
        for (int r = 0; r < w->n_rungs; r++) {
            char msg[600] = "";
            EXPECT_MSG(climb_case_refuses(w, oc.c, r) == NULL, "%s", w->rung(r)->name);
            EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
            EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            const int bad = climb_case_verify(w, oc.c, r, msg, sizeof msg);
            EXPECT_MSG(bad == 0, "dense row, %s: %s", w->rung(r)->name, msg);
            verified += bad == 0;
        }
        EXPECT(verified == w->n_rungs);
        climb_case_close(w, &oc);
        climb_opt_plan_free(&p, w->unload);
        unlink(path);
    }
    rmdir(dir);
}

/* Poisoned output fails, a run passes. */
static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "matrix", "powerlaw", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 12;
    climb_case_key key = {CLIMB_F32, CLIMB_SHAPE2(20000, 20000), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &key, 0, &dev, 0, &oc) == 0);
    const int best = climb_best_rung(w);
    char msg[600];
    EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1 && strstr(msg, "of 20000 elements wrong"));
    EXPECT(climb_case_prepare(w, oc.c, best) == 0 && climb_case_run(w, oc.c, best, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

/* y = alpha A x + beta y on the CPU, in double. */
static void cpu_spmv(const climb_csr *m, double alpha, const double *x, double beta, double *y, double *tol, int f64)
{
    for (int32_t i = 0; i < m->rows; i++) {
        double s = 0, a = 0;
        for (int32_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            s += m->val[k] * x[m->col_idx[k]];
            a += fabs(m->val[k] * x[m->col_idx[k]]);
        }
        const int32_t len = m->row_ptr[i + 1] - m->row_ptr[i];
        tol[i] = climb_spmv_tolerance(len + 2, fabs(alpha) * a + fabs(beta * y[i]), f64);
        y[i] = alpha * s + beta * y[i];
    }
}

/* n values to the device array d in the case's type (double with f64, else float), through the host buffer buf. */
static void upload_typed(void *d, const double *v, size_t n, int f64, void *buf)
{
    for (size_t k = 0; k < n; k++)
        f64 ? (void)(((double *)buf)[k] = v[k]) : (void)(((float *)buf)[k] = (float)v[k]);
    EXPECT(cudaMemcpy(d, buf, n * (f64 ? 8 : 4), cudaMemcpyHostToDevice) == cudaSuccess);
}

/* n values drawn uniform in [-1, 1) as the type holds them, into v and the device array d. */
static void draw_typed(double *v, size_t n, int f64, climb_rng *r, void *d, void *buf)
{
    for (size_t k = 0; k < n; k++) {
        v[k] = climb_rng_double(r, -1, 1);
        v[k] = f64 ? v[k] : (double)(float)v[k];
    }
    upload_typed(d, v, n, f64, buf);
}

/* A matrix on the device: its row pointers and columns copied, room for its values, x and y in f64. */
typedef struct dev_csr {
    int32_t *rp, *ci;
    void *val, *x, *y;
} dev_csr;

static void dev_csr_make(dev_csr *d, const climb_csr *m)
{
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    memset(d, 0, sizeof *d);
    EXPECT(cudaMalloc((void **)&d->rp, (rows + 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d->ci, (nnz + 1) * 4) == cudaSuccess &&
           cudaMalloc(&d->val, (nnz + 1) * 8) == cudaSuccess && cudaMalloc(&d->x, (cols + 1) * 8) == cudaSuccess &&
           cudaMalloc(&d->y, (rows + 1) * 8) == cudaSuccess);
    EXPECT(cudaMemcpy(d->rp, m->row_ptr, (rows + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(d->ci, m->col_idx, nnz * 4, cudaMemcpyHostToDevice) == cudaSuccess);
}

static void dev_csr_free(dev_csr *d)
{
    cudaFree(d->rp);
    cudaFree(d->ci);
    cudaFree(d->val);
    cudaFree(d->x);
    cudaFree(d->y);
}

/* m with its values as the type holds them (val: f64's own, or each rounded to float), uploaded in the type. */
static climb_csr typed_values(const climb_csr *m, int f64, double *val, const dev_csr *d, void *buf)
{
    climb_csr mt = *m;
    for (int32_t k = 0; k < m->nnz; k++)
        val[k] = f64 ? m->val[k] : (double)(float)m->val[k];
    mt.val = val;
    upload_typed(d->val, val, (size_t)m->nnz, f64, buf);
    return mt;
}

/* One matrix through the API in f32 and f64: plan (validated; chosen by trial, or by the rules with
 * CLIMB_SPMV_NO_TRIAL in flags), two calls (beta 0 over NaN, then beta != 0), every row checked. Returns the plan's
 * bytes (f64). */
static size_t api_matrix_flags(climb_handle h, const climb_csr *m, uint64_t seed, unsigned flags)
{
    size_t kept = 0;
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    dev_csr d;
    dev_csr_make(&d, m);
    int32_t *d_rp = d.rp, *d_ci = d.ci;
    void *d_val = d.val, *d_x = d.x, *d_y = d.y;
    double *x = malloc((cols + 1) * 8), *y = malloc((rows + 1) * 8), *ref = malloc((rows + 1) * 8),
           *tol = malloc((rows + 1) * 8), *val = malloc((nnz + 1) * 8);
    void *buf = malloc((rows + cols + nnz + 1) * 8);
    climb_rng r;
    climb_rng_seed(&r, seed);
    for (int f64 = 0; f64 < 2; f64++) {
        const size_t each = f64 ? 8 : 4;
        const climb_csr mt = typed_values(m, f64, val, &d, buf);
        draw_typed(x, cols, f64, &r, d_x, buf);
        climb_spmv_plan plan = NULL;
        const climb_status st =
            f64 ? climb_spmv_plan_create_f64(h, m->rows, m->cols, m->nnz, d_rp, d_ci, d_val,
                                             CLIMB_SPMV_VALIDATE | flags, &plan)
                : climb_spmv_plan_create(h, m->rows, m->cols, m->nnz, d_rp, d_ci, d_val, CLIMB_SPMV_VALIDATE | flags,
                                         &plan);
        EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "plan: %s", climb_status_string(st));
        if (st != CLIMB_STATUS_SUCCESS)
            continue;
        EXPECT(climb_spmv_plan_bytes(plan, &kept) == CLIMB_STATUS_SUCCESS);
        const double alphas[] = {1.0, -0.75}, betas[] = {0.0, 0.5};
        EXPECT(cudaMemset(d_y, 0xFF, rows * each + 1) == cudaSuccess); /* NaN: beta = 0 must not read it */
        for (size_t i = 0; i < rows; i++)
            y[i] = 0;
        for (int call = 0; call < 2; call++) {
            const double al = alphas[call], be = betas[call];
            memcpy(ref, y, rows * 8);
            cpu_spmv(&mt, al, x, be, ref, tol, f64);
            const climb_status rs = f64 ? climb_spmv_f64(h, plan, al, d_x, be, d_y)
                                        : climb_spmv(h, plan, (float)al, d_x, (float)be, d_y);
            EXPECT(rs == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaMemcpy(buf, d_y, rows * each, cudaMemcpyDeviceToHost) == cudaSuccess);
            size_t bad = 0;
            for (size_t i = 0; i < rows; i++) {
                y[i] = f64 ? ((double *)buf)[i] : ((float *)buf)[i];
                bad += !(fabs(y[i] - ref[i]) <= tol[i]);
            }
            EXPECT_MSG(bad == 0, "api %dx%d nnz %d %s call %d: %zu rows wrong", m->rows, m->cols, m->nnz,
                       f64 ? "f64" : "f32", call, bad);
            memcpy(y, ref, rows * 8); /* the next call's beta y is the reference's */
            if (!f64) /* ...as f32 held it */
                for (size_t i = 0; i < rows; i++)
                    y[i] = ((float *)buf)[i];
        }
        /* the other type's call and a host pointer are refused */
        EXPECT(f64 ? climb_spmv(h, plan, 1, d_x, 0, d_y) == CLIMB_STATUS_INVALID_VALUE
                   : climb_spmv_f64(h, plan, 1, d_x, 0, d_y) == CLIMB_STATUS_INVALID_VALUE);
        if (rows > 0)
            EXPECT((f64 ? climb_spmv_f64(h, plan, 1, d_x, 0, y) : climb_spmv(h, plan, 1, d_x, 0, (float *)y)) ==
                   CLIMB_STATUS_INVALID_VALUE);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
        EXPECT(climb_spmv_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
    }
    free(x);
    free(y);
    free(ref);
    free(tol);
    free(val);
    free(buf);
    dev_csr_free(&d);
    return kept;
}

/* The rules' plan (whose kept bytes the caller checks: they say which way it runs), then the trial's. */
static size_t api_matrix(climb_handle h, const climb_csr *m, uint64_t seed)
{
    const size_t kept = api_matrix_flags(h, m, seed, CLIMB_SPMV_NO_TRIAL);
    api_matrix_flags(h, m, seed + 1000, 0);
    return kept;
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const uint64_t seed = climb_fresh_seed();
    char err[300];
    /* regular (a thread per row), 8 lanes, a power law (many long rows: the merge plan, which keeps row blocks),
     * one dense row among short ones (a listed long row), rectangular, empty; elasticity (81 a row in 3 x 3
     * blocks) and FEM-like rows (20 to 60 within a band), where the trial's choice differs from the rules' */
    const struct { int matrix; int64_t rows, cols; int per_row; } cases[] = {
        {CLIMB_SPMV_POISSON, 27000, 27000, 16}, {CLIMB_SPMV_RANDOM, 5000, 7000, 24},
        {CLIMB_SPMV_POWERLAW, 100000, 100000, 16}, {CLIMB_SPMV_BANDED, 333, 4000, 16},
        {CLIMB_SPMV_RANDOM, 0, 0, 16}, {CLIMB_SPMV_RANDOM, 10, 0, 16},
        {CLIMB_SPMV_ELASTIC27, 30000, 30000, 16}, {CLIMB_SPMV_FEM, 20001, 20001, 40}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        climb_spmv_gen g = {cases[c].matrix, cases[c].rows, cases[c].cols, 8, cases[c].per_row, 4096, seed + c};
        climb_csr m;
        EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == 0);
        const size_t kept = api_matrix(h, &m, seed + 100 + c);
        if (cases[c].matrix == CLIMB_SPMV_POWERLAW)
            EXPECT_MSG(kept > 1000, "power law plan keeps %zu bytes", kept);
        if (cases[c].matrix == CLIMB_SPMV_POISSON)
            EXPECT(kept == 0);
        climb_csr_free(&m);
    }
    /* one dense row of 20000 in 5000 rows of 3: listed as long, a block of its own */
    {
        climb_csr m;
        climb_spmv_gen g = {CLIMB_SPMV_RANDOM, 5000, 20000, 8, 3, 4096, seed};
        EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == 0);
        int32_t *rp = malloc((5001) * 4), *ci = malloc(((size_t)m.nnz + 20000) * 4);
        double *v = malloc(((size_t)m.nnz + 20000) * 8);
        int32_t n = 0;
        rp[0] = 0;
        for (int32_t i = 0; i < 5000; i++) {
            if (i == 1234)
                for (int32_t j = 0; j < 20000; j++, n++) {
                    ci[n] = j;
                    v[n] = 0.5 - j * 1e-5;
                }
            else
                for (int32_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; k++, n++) {
                    ci[n] = m.col_idx[k];
                    v[n] = m.val[k];
                }
            rp[i + 1] = n;
        }
        climb_csr d = {5000, 20000, n, rp, ci, v};
        EXPECT(climb_csr_check(&d) == NULL);
        EXPECT_MSG(api_matrix(h, &d, seed + 7) == 4, "one long row listed"); /* one int */
        free(rp);
        free(ci);
        free(v);
        climb_csr_free(&m);
    }
    /* validation: a decreasing row pointer, a column out of range, nnz that the pointers do not end at */
    {
        int32_t rp[] = {0, 2, 1, 3}, ci[] = {0, 1, 2}, rp_ok[] = {0, 1, 2, 3}, ci_bad[] = {0, 3, 1};
        float val[] = {1, 2, 3};
        int32_t *d_rp, *d_ci;
        float *d_val;
        EXPECT(cudaMalloc((void **)&d_rp, 16) == cudaSuccess && cudaMalloc((void **)&d_ci, 12) == cudaSuccess &&
               cudaMalloc((void **)&d_val, 12) == cudaSuccess);
        EXPECT(cudaMemcpy(d_val, val, 12, cudaMemcpyHostToDevice) == cudaSuccess);
        climb_spmv_plan plan = (climb_spmv_plan)1;
        EXPECT(cudaMemcpy(d_rp, rp, 16, cudaMemcpyHostToDevice) == cudaSuccess &&
               cudaMemcpy(d_ci, ci, 12, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, d_rp, d_ci, d_val, CLIMB_SPMV_VALIDATE, &plan) ==
                   CLIMB_STATUS_INVALID_MATRIX && plan == NULL);
        EXPECT(cudaMemcpy(d_rp, rp_ok, 16, cudaMemcpyHostToDevice) == cudaSuccess &&
               cudaMemcpy(d_ci, ci_bad, 12, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, d_rp, d_ci, d_val, CLIMB_SPMV_VALIDATE, &plan) ==
               CLIMB_STATUS_INVALID_MATRIX);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 2, d_rp, d_ci, d_val, CLIMB_SPMV_VALIDATE, &plan) ==
               CLIMB_STATUS_INVALID_MATRIX);
        EXPECT(cudaMemcpy(d_ci, ci, 12, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, d_rp, d_ci, d_val, CLIMB_SPMV_VALIDATE, &plan) ==
               CLIMB_STATUS_SUCCESS);
        EXPECT(climb_spmv_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
        /* bad arguments */
        EXPECT(climb_spmv_plan_create(NULL, 3, 3, 3, d_rp, d_ci, d_val, 0, &plan) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv_plan_create(h, -1, 3, 3, d_rp, d_ci, d_val, 0, &plan) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, rp_ok, d_ci, d_val, 0, &plan) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, d_rp, d_ci, d_val, 4u, &plan) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv_plan_create(h, 3, 3, 3, d_rp, d_ci, d_val, 0, NULL) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv(h, NULL, 1, NULL, 0, NULL) == CLIMB_STATUS_INVALID_VALUE);
        size_t b;
        EXPECT(climb_spmv_plan_bytes(NULL, &b) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_spmv_plan_destroy(NULL) == CLIMB_STATUS_SUCCESS);
        cudaFree(d_rp);
        cudaFree(d_ci);
        cudaFree(d_val);
    }
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

/* The plan of m on the device d with one path built alone (only: CLIMB_SPMV_ONLY_*), untimed. */
static cudaError_t build_only(climb_spmv_plan_dev *p, const climb_csr *m, const dev_csr *d, int f64, int only)
{
    memset(p, 0, sizeof *p);
    p->rows = m->rows;
    p->cols = m->cols;
    p->nnz = m->nnz;
    p->row_ptr = d->rp;
    p->col_idx = d->ci;
    p->val = d->val;
    p->f64 = f64;
    p->sms = dev.sms;
    p->only = only;
    return climb_spmv_plan_build(p, 0);
}

/* y = -0.75 A x + 0.5 y by plan p, y drawn, against the CPU (mt: the matrix with its values as the type holds
 * them): the rows outside their tolerance. */
static size_t run_checked(const climb_spmv_plan_dev *p, const climb_csr *mt, const double *x, double *y, double *ref,
                          double *tol, const dev_csr *d, climb_rng *rng, void *buf)
{
    const size_t rows = (size_t)mt->rows;
    draw_typed(y, rows, p->f64, rng, d->y, buf);
    memcpy(ref, y, rows * 8);
    cpu_spmv(mt, -0.75, x, 0.5, ref, tol, p->f64);
    EXPECT(climb_spmv_plan_run(p, -0.75, d->x, 0.5, d->y, 0) == cudaSuccess);
    EXPECT(cudaMemcpy(buf, d->y, rows * (p->f64 ? 8 : 4), cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (size_t i = 0; i < rows; i++)
        bad += !(fabs((p->f64 ? ((double *)buf)[i] : ((float *)buf)[i]) - ref[i]) <= tol[i]);
    return bad;
}

/* The plan's windowed JDS built on the device (only), held array by array to the host layout
 * (climb_spmv_windows_layout, which test_cpu_spmv holds to its definition) and to the host's scatter, then run with
 * alpha and beta against the CPU: FEM-like rows over many windows, 257 rows (a last window of one row), one row, a
 * power law (long rows among short ones), a band, and rows with whole empty windows. */
static void windows_case(const climb_csr *m, uint64_t seed)
{
    const int W = CLIMB_SPMV_WINDOW;
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    const size_t windows = (rows + W - 1) / W;
    int32_t *perm = malloc((rows + 1) * 4), *jd = NULL, *hci = malloc((nnz + 1) * 4);
    int32_t *gi = malloc((rows + nnz + 1) * 4);
    int64_t *woff = malloc((windows + 1) * 8), *goff = malloc((windows + 1) * 8);
    double *hv = malloc((nnz + 1) * 8), *x = malloc((cols + 1) * 8), *y = malloc((rows + 1) * 8),
           *ref = malloc((rows + 1) * 8), *tol = malloc((rows + 1) * 8), *val = malloc((nnz + 1) * 8);
    void *buf = malloc((rows + cols + nnz + 1) * 8);
    EXPECT(climb_spmv_windows_layout(m->row_ptr, m->rows, perm, woff, &jd) == 0);
    for (size_t wi = 0; wi < windows; wi++) /* the host's scatter, as the ladder's jds_windows rung does it */
        for (size_t i = 0; i < (size_t)W && wi * W + i < rows; i++) {
            const int32_t r = perm[wi * W + i], b = m->row_ptr[r];
            for (int32_t k = 0; k < m->row_ptr[r + 1] - b; k++) {
                const int64_t at = m->row_ptr[wi * W] + jd[woff[wi] + k] + (int64_t)i;
                hci[at] = m->col_idx[b + k];
                hv[at] = m->val[b + k];
            }
        }
    dev_csr d;
    dev_csr_make(&d, m);
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    for (int f64 = 0; f64 < 2; f64++) {
        const size_t each = f64 ? 8 : 4;
        const climb_csr mt = typed_values(m, f64, val, &d, buf);
        draw_typed(x, cols, f64, &rng, d.x, buf);
        climb_spmv_plan_dev p;
        const cudaError_t e = build_only(&p, m, &d, f64, CLIMB_SPMV_ONLY_WINDOWS);
        EXPECT_MSG(e == cudaSuccess && p.jds_woff && strstr(p.choice, "windows"), "%dx%d nnz %d: %s, %s", m->rows,
                   m->cols, m->nnz, cudaGetErrorString(e), p.choice);
        if (e != cudaSuccess || !p.jds_woff)
            continue;
        /* the device's arrays are the host's */
        EXPECT(cudaMemcpy(gi, p.jds_perm, rows * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(memcmp(gi, perm, rows * 4) == 0, "%dx%d: perm", m->rows, m->cols);
        EXPECT(cudaMemcpy(goff, p.jds_woff, (windows + 1) * 8, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(memcmp(goff, woff, (windows + 1) * 8) == 0, "%dx%d: woff", m->rows, m->cols);
        if (goff[windows] == woff[windows]) {
            EXPECT(cudaMemcpy(gi, p.jds_ptr, (size_t)woff[windows] * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(gi, jd, (size_t)woff[windows] * 4) == 0, "%dx%d: diagonal starts", m->rows, m->cols);
        }
        /* the starts again at a stride of the longest row + 1, padded with each window's end, where that is at most
           4 times their number (+ 1024) */
        int64_t longest = 0;
        for (size_t wi = 0; wi < windows; wi++)
            longest = woff[wi + 1] - woff[wi] - 1 > longest ? woff[wi + 1] - woff[wi] - 1 : longest;
        const int64_t stride = longest + 1;
        const int want_pad = windows > 0 && (int64_t)windows * stride <= 4 * woff[windows] + 1024;
        EXPECT_MSG(p.jds_wstride == (want_pad ? stride : 0) && (p.jds_wpad != NULL) == want_pad,
                   "%dx%d: stride %d, want %lld", m->rows, m->cols, p.jds_wstride, (long long)(want_pad ? stride : 0));
        if (want_pad && p.jds_wstride == stride) {
            int32_t *pad = malloc((size_t)windows * (size_t)stride * 4 + 4);
            EXPECT(cudaMemcpy(pad, p.jds_wpad, (size_t)windows * (size_t)stride * 4, cudaMemcpyDeviceToHost) ==
                   cudaSuccess);
            size_t pbad = 0;
            for (size_t wi = 0; wi < windows; wi++) {
                const int64_t n = woff[wi + 1] - woff[wi];
                for (int64_t dd = 0; dd < stride; dd++)
                    pbad += pad[wi * (size_t)stride + (size_t)dd] != jd[woff[wi] + (dd < n ? dd : n - 1)];
            }
            EXPECT_MSG(pbad == 0, "%dx%d: %zu padded starts wrong", m->rows, m->cols, pbad);
            free(pad);
        }
        EXPECT(cudaMemcpy(gi, p.jds_col, nnz * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(memcmp(gi, hci, nnz * 4) == 0, "%dx%d: columns", m->rows, m->cols);
        EXPECT(cudaMemcpy(buf, p.jds_val, nnz * each, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t vbad = 0;
        for (size_t k = 0; k < nnz; k++)
            vbad += (f64 ? ((double *)buf)[k] : (double)((float *)buf)[k]) != (f64 ? hv[k] : (double)(float)hv[k]);
        EXPECT_MSG(vbad == 0, "%dx%d: %zu values", m->rows, m->cols, vbad);
        const size_t bad = run_checked(&p, &mt, x, y, ref, tol, &d, &rng, buf);
        EXPECT_MSG(bad == 0, "windows %dx%d nnz %d %s: %zu rows wrong", m->rows, m->cols, m->nnz, f64 ? "f64" : "f32",
                   bad);
        climb_spmv_plan_free(&p);
    }
    dev_csr_free(&d);
    free(perm);
    free(jd);
    free(hci);
    free(gi);
    free(woff);
    free(goff);
    free(hv);
    free(x);
    free(y);
    free(ref);
    free(tol);
    free(val);
    free(buf);
}

/* What a case of one plan path needs besides its own arrays: x, y, the reference and its tolerances, the values as
 * the type holds them, a staging buffer, the matrix on the device and the case's random stream. */
typedef struct plan_case {
    double *x, *y, *ref, *tol, *val;
    void *buf;
    dev_csr d;
    climb_rng rng;
} plan_case;

static void plan_case_make(plan_case *c, const climb_csr *m, uint64_t seed)
{
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    c->x = malloc((cols + 1) * 8);
    c->y = malloc((rows + 1) * 8);
    c->ref = malloc((rows + 1) * 8);
    c->tol = malloc((rows + 1) * 8);
    c->val = malloc((nnz + 1) * 8);
    c->buf = malloc((rows + cols + nnz + 1) * 8);
    dev_csr_make(&c->d, m);
    climb_rng_seed(&c->rng, seed);
}

static void plan_case_free(plan_case *c)
{
    dev_csr_free(&c->d);
    void *each[] = {c->x, c->y, c->ref, c->tol, c->val, c->buf};
    for (size_t k = 0; k < sizeof each / sizeof each[0]; k++)
        free(each[k]);
}

/* The plan's lanes with the long rows of at most SPMV_WARP_ROW_MAX (1024) nonzeros a warp each, built alone (only):
 * its two lists are the rows the host finds in each class, in row order, and it computes alpha A x + beta y. */
static void warp_rows_case(const climb_csr *m, uint64_t seed, int want_warp, int want_long)
{
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    const int long_min = climb_spmv_long_min(climb_spmv_lanes(rows ? (double)nnz / (double)rows : 0));
    int32_t *hw = malloc((rows + 1) * 4), *hl = malloc((rows + 1) * 4), *got = malloc((rows + 1) * 4);
    int nw = 0, nl = 0;
    for (int32_t r = 0; r < m->rows; r++) {
        const int32_t len = m->row_ptr[r + 1] - m->row_ptr[r];
        if (len > 1024)
            hl[nl++] = r;
        else if (len > long_min)
            hw[nw++] = r;
    }
    EXPECT_MSG((nw > 0) == want_warp && (nl > 0) == want_long, "%dx%d: %d rows a warp, %d long: not the case meant",
               m->rows, m->cols, nw, nl);
    plan_case c;
    plan_case_make(&c, m, seed);
    for (int f64 = 0; f64 < 2; f64++) {
        const climb_csr mt = typed_values(m, f64, c.val, &c.d, c.buf);
        draw_typed(c.x, cols, f64, &c.rng, c.d.x, c.buf);
        climb_spmv_plan_dev p;
        const cudaError_t e = build_only(&p, m, &c.d, f64, CLIMB_SPMV_ONLY_WARP_ROWS);
        EXPECT_MSG(e == cudaSuccess && p.n_warp == nw && p.n_long == nl, "%dx%d: %s, %s (host: %d a warp, %d long)",
                   m->rows, m->cols, cudaGetErrorString(e), p.choice, nw, nl);
        if (e != cudaSuccess || p.n_warp != nw || p.n_long != nl) {
            climb_spmv_plan_free(&p);
            continue;
        }
        if (nw > 0) {
            EXPECT(cudaMemcpy(got, p.warp_rows, (size_t)nw * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(got, hw, (size_t)nw * 4) == 0, "%dx%d: the rows a warp", m->rows, m->cols);
        }
        if (nl > 0) {
            EXPECT(cudaMemcpy(got, p.long_rows, (size_t)nl * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(got, hl, (size_t)nl * 4) == 0, "%dx%d: the long rows", m->rows, m->cols);
        }
        const size_t bad = run_checked(&p, &mt, c.x, c.y, c.ref, c.tol, &c.d, &c.rng, c.buf);
        EXPECT_MSG(bad == 0, "rows a warp %dx%d nnz %d %s: %zu rows wrong", m->rows, m->cols, m->nnz,
                   f64 ? "f64" : "f32", bad);
        climb_spmv_plan_free(&p);
    }
    plan_case_free(&c);
    free(hw);
    free(hl);
    free(got);
}

/* The rows of the plan's COO in `bits` bits as the host finds them (spmv_coo_stream_kernel's layout), for a matrix
 * whose nonzero k is in row hrow[k]: into rows_out and base (each large enough); 0 where they do not fit. */
static int coo_layout(const int32_t *hrow, size_t nnz, int bits, void *rows_out, int32_t *base)
{
    for (size_t k = 0; k < nnz; k++) {
        if (bits == 8) {
            const int32_t step = k % 32 == 0 ? 0 : hrow[k] - hrow[k - 1];
            if (k % 32 == 0)
                base[k / 32] = hrow[k];
            if (step > 255)
                return 0;
            ((uint8_t *)rows_out)[k] = (uint8_t)step;
        } else if (bits == 16) {
            const size_t b = k / CLIMB_SPMV_COO_BLOCK;
            const int32_t off = hrow[k] - hrow[b * CLIMB_SPMV_COO_BLOCK];
            if (k % CLIMB_SPMV_COO_BLOCK == 0)
                base[b] = hrow[k];
            if (off > 65535)
                return 0;
            ((uint16_t *)rows_out)[k] = (uint16_t)off;
        } else {
            ((int32_t *)rows_out)[k] = hrow[k];
        }
    }
    return 1;
}

/* The plan's COO built alone (only): each nonzero's row in the fewest of 8, 16 and 32 bits that hold the matrix's
 * rows (want_bits: which the case is meant to take; 0 for any); its arrays against the host's layout, then
 * alpha A x + beta y against the CPU, and 1.25 A x with beta 0 over a y of NaN (y is not read); each launched early
 * and not, with y's scaling on the device's SMs and on one. */
static void coo_case(const climb_csr *m, uint64_t seed, int want_bits)
{
    const size_t rows = (size_t)m->rows, cols = (size_t)m->cols, nnz = (size_t)m->nnz;
    int32_t *hrow = malloc((nnz + 1) * 4), *hbase = malloc((nnz / 32 + 2) * 4), *gbase = malloc((nnz / 32 + 2) * 4);
    void *hrows = malloc((nnz + 1) * 4), *grows = malloc((nnz + 1) * 4);
    for (int32_t r = 0; r < m->rows; r++)
        for (int32_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++)
            hrow[k] = r;
    int bits = 8;
    while (bits < 32 && !coo_layout(hrow, nnz, bits, hrows, hbase))
        bits *= 2;
    if (bits == 32)
        coo_layout(hrow, nnz, 32, hrows, hbase);
    const size_t n_base = bits == 8 ? (nnz + 31) / 32 : bits == 16 ? (nnz + CLIMB_SPMV_COO_BLOCK - 1) /
                                                                         CLIMB_SPMV_COO_BLOCK : 0;
    EXPECT_MSG(want_bits == 0 || bits == want_bits, "%dx%d nnz %d: the host's rows take %d bits: not the case meant",
               m->rows, m->cols, m->nnz, bits);
    plan_case c;
    plan_case_make(&c, m, seed);
    for (int f64 = 0; f64 < 2; f64++) {
        const climb_csr mt = typed_values(m, f64, c.val, &c.d, c.buf);
        draw_typed(c.x, cols, f64, &c.rng, c.d.x, c.buf);
        climb_spmv_plan_dev p;
        const cudaError_t e = build_only(&p, m, &c.d, f64, CLIMB_SPMV_ONLY_COO);
        const int as_meant = nnz == 0 ? p.coo_rows == NULL
                                      : p.coo_rows != NULL && p.coo_bits == bits && (p.coo_base != NULL) == (bits < 32);
        EXPECT_MSG(e == cudaSuccess && as_meant, "%dx%d nnz %d: %s, %s (host: %d bits)", m->rows, m->cols, m->nnz,
                   cudaGetErrorString(e), p.choice, bits);
        if (e != cudaSuccess) {
            climb_spmv_plan_free(&p);
            continue;
        }
        if (as_meant && nnz > 0) {
            EXPECT(cudaMemcpy(grows, p.coo_rows, nnz * (size_t)(bits / 8), cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(grows, hrows, nnz * (size_t)(bits / 8)) == 0, "%dx%d: the %d-bit rows", m->rows,
                       m->cols, bits);
            if (n_base) {
                EXPECT(cudaMemcpy(gbase, p.coo_base, n_base * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
                EXPECT_MSG(memcmp(gbase, hbase, n_base * 4) == 0, "%dx%d: the bases of %d-bit rows", m->rows,
                           m->cols, bits);
            }
        }
        const int sms = p.sms;
        /* launched early where the device can, and after y's scaling; y's scaling on the device's SMs, then as if
           on one (8 blocks: a thread strides over rows past 2048) */
        for (int run = 2 * p.pdl + 1; run >= 0; run--) {
            const int early = run / 2, one_sm = run % 2;
            p.pdl = early;
            p.sms = one_sm ? 1 : sms;
            size_t bad = run_checked(&p, &mt, c.x, c.y, c.ref, c.tol, &c.d, &c.rng, c.buf);
            EXPECT_MSG(bad == 0, "COO %dx%d nnz %d %s (pdl %d, %d SMs): %zu rows wrong", m->rows, m->cols, m->nnz,
                       f64 ? "f64" : "f32", early, p.sms, bad);
            memset(c.ref, 0, rows * 8);
            cpu_spmv(&mt, 1.25, c.x, 0.0, c.ref, c.tol, f64);
            EXPECT(cudaMemset(c.d.y, 0xff, rows * (f64 ? 8 : 4)) == cudaSuccess); /* NaN */
            EXPECT(climb_spmv_plan_run(&p, 1.25, c.d.x, 0.0, c.d.y, 0) == cudaSuccess);
            EXPECT(cudaMemcpy(c.buf, c.d.y, rows * (f64 ? 8 : 4), cudaMemcpyDeviceToHost) == cudaSuccess);
            bad = 0;
            for (size_t i = 0; i < rows; i++)
                bad += !(fabs((f64 ? ((double *)c.buf)[i] : ((float *)c.buf)[i]) - c.ref[i]) <= c.tol[i]);
            EXPECT_MSG(bad == 0, "COO %dx%d nnz %d %s (pdl %d, %d SMs), beta 0 over NaN: %zu rows wrong", m->rows,
                       m->cols, m->nnz, f64 ? "f64" : "f32", early, p.sms, bad);
        }
        climb_spmv_plan_free(&p);
    }
    plan_case_free(&c);
    free(hrow);
    free(hbase);
    free(gbase);
    free(hrows);
    free(grows);
}

/* A rows x 3 matrix whose nonzeros sit in the rows of `at` (sorted, n of them, 3 each at columns 0..2): empty runs
 * between them as long as the case needs. */
static climb_csr coo_fixture(int32_t rows, const int32_t *at, int n, int32_t *rp, int32_t *ci, double *v)
{
    int k = 0, nz = 0;
    rp[0] = 0;
    for (int32_t r = 0; r < rows; r++) {
        if (k < n && at[k] == r) {
            for (int c = 0; c < 3; c++, nz++) {
                ci[nz] = c;
                v[nz] = 0.5 + 0.25 * (double)((r + c) % 7);
            }
            k++;
        }
        rp[r + 1] = nz;
    }
    climb_csr m = {.rows = rows, .cols = 3, .nnz = nz, .row_ptr = rp, .col_idx = ci, .val = v};
    return m;
}

static void test_plan_paths(uint64_t seed)
{
    char err[300];
    const struct { int matrix; int64_t rows, cols; int per_row; } cases[] = {
        {CLIMB_SPMV_FEM, 20001, 20001, 24}, {CLIMB_SPMV_RANDOM, 257, 300, 9}, {CLIMB_SPMV_RANDOM, 1, 5, 3},
        {CLIMB_SPMV_POWERLAW, 5000, 5000, 16}, {CLIMB_SPMV_BANDED, 4096, 4096, 16}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        climb_spmv_gen g = {cases[c].matrix, cases[c].rows, cases[c].cols, 8, cases[c].per_row, 4096, seed + c};
        climb_csr m;
        EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == 0);
        windows_case(&m, seed + 50 + c);
        climb_csr_free(&m);
    }
    /* windows 0 and 2 with no nonzero */
    int32_t rp[1001], ci[600];
    double v[600];
    climb_csr e = spmv_fixture_empty_windows(rp, ci, v);
    windows_case(&e, seed + 99);
    /* the lanes with rows a warp: a power law with rows past 1024 and one without, and the fixture (one row of 100) */
    warp_rows_case(&e, seed + 98, 1, 0);
    const struct { int64_t rows; int max_row, has_long; } laws[] = {{100000, 4096, 1}, {100000, 300, 0}};
    for (int k = 0; k < 2; k++) {
        climb_spmv_gen g = {CLIMB_SPMV_POWERLAW, laws[k].rows, laws[k].rows, 8, 16, laws[k].max_row, seed + 200 + k};
        climb_csr m;
        EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == 0);
        warp_rows_case(&m, seed + 300 + k, 1, laws[k].has_long);
        climb_csr_free(&m);
    }
    /* COO: a power law (the case it is for) in 8 bits, the empty-windows fixture; steps of 255 (8 bits) and 256 (16)
       within a warp; 65535 rows between the first and last of a block (16 bits) and 65536 (32); 702 nonzeros (3
       blocks, the last partial) with a gap of 70000 empty rows in the last block only (32); no nonzero at all */
    coo_case(&e, seed + 97, 0);
    {
        climb_spmv_gen g = {CLIMB_SPMV_POWERLAW, 30001, 30001, 8, 16, 4096, seed + 400};
        climb_csr m;
        EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == 0);
        coo_case(&m, seed + 401, 8);
        climb_csr_free(&m);
    }
    static int32_t frp[140002], fci[800];
    static double fv[800];
    const struct { int32_t rows, first, last; int bits; } pairs[] = {
        {300, 0, 255, 8}, {300, 0, 256, 16}, {65537, 0, 65535, 16}, {65537, 0, 65536, 32}};
    for (int k = 0; k < 4; k++) {
        const int32_t at[2] = {pairs[k].first, pairs[k].last};
        const climb_csr f = coo_fixture(pairs[k].rows, at, 2, frp, fci, fv);
        coo_case(&f, seed + 402 + k, pairs[k].bits);
    }
    int32_t spread[234];
    for (int k = 0; k < 233; k++) /* 699 nonzeros in rows 0..232, then 3 in row 70300 */
        spread[k] = k;
    spread[233] = 70300;
    climb_csr f = coo_fixture(140001, spread, 234, frp, fci, fv);
    coo_case(&f, seed + 406, 32);
    f = coo_fixture(5, spread, 0, frp, fci, fv);
    coo_case(&f, seed + 407, 0);
}

/* The plan's kernels loaded for both types, twice (the second a no-op), on a stream: no error, none left behind. */
static void test_warm(void)
{
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == cudaSuccess);
    for (int k = 0; k < 2; k++) {
        EXPECT(climb_spmv_plan_warm(0, s) == cudaSuccess);
        EXPECT(climb_spmv_plan_warm(1, s) == cudaSuccess);
    }
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess && cudaGetLastError() == cudaSuccess);
    cudaStreamDestroy(s);
}

int main(void)
{
    test_require_gpu();
    test_warm();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_files();
    test_poisoned();
    test_api();
    test_plan_paths(climb_fresh_seed());
    test_check(20261122);
    test_check(climb_fresh_seed());
    EXPECT(api_test_workload(&api_workload_spmv) == 0);
    test_api_plans_and_captures();
    return test_finish("test_gpu_spmv");
}
