/* GPU: every SGEMM rung over the edge shapes (0, 1, odd, non-multiples of every tile), with alpha and beta (beta
 * != 0 restores C before each run), padded leading dimensions, the CPU reference in double; the tuned rung with
 * every tile shape `climb tune` may pick; the vendor reference with CPU rows at a shape past the CPU limit; proof
 * that poisoned output fails; the C API (climb_sgemm) in its four transpose forms and its argument checks. */
#include <stdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/sgemm/sgemm.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct sgemm_job {
    api_job base;
    int ta, tb;
    size_t m, n, k;
    float alpha, beta;
} sgemm_job;

static int sgemm_sizes(api_job *b)
{
    const sgemm_job *j = (const sgemm_job *)b;
    b->a_bytes = j->m * j->k * 4;
    b->b_bytes = j->k * j->n * 4;
    b->out_bytes = j->m * j->n * 4;
    return 0;
}

/* C is an input too where beta is not 0: its start copied in; else poisoned. */
static int sgemm_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const sgemm_job *j = (const sgemm_job *)b;
    climb_rng_fill_f32(r, b->h_a, j->m * j->k, -1.0f, 1.0f);
    climb_rng_fill_f32(r, b->h_b, j->k * j->n, -1.0f, 1.0f);
    climb_rng_fill_f32(r, b->h_c0, j->m * j->n, -1.0f, 1.0f);
    return api_job_send(b, s, API_SEND_A | API_SEND_B | (j->beta != 0.0f ? API_SEND_C0 : API_POISON_OUT), 0xFF);
}

static climb_status sgemm_call(api_job *b, climb_handle h)
{
    const sgemm_job *j = (const sgemm_job *)b;
    const size_t lda = j->ta ? j->m : j->k, ldb = j->tb ? j->k : j->n;
    return climb_sgemm(h, j->ta ? CLIMB_OP_T : CLIMB_OP_N, j->tb ? CLIMB_OP_T : CLIMB_OP_N, j->m, j->n, j->k, j->alpha,
                       b->d_a, lda, b->d_b, ldb, j->beta, b->d_out, j->n);
}

static void sgemm_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *mm)
{
    (void)s;
    const sgemm_job *j = (const sgemm_job *)b;
    /* op(A) and op(B) as plain row-major matrices for the reference */
    float *a = malloc(j->m * j->k * 4 + 4), *bb = malloc(j->k * j->n * 4 + 4);
    double *row = malloc(j->n * 8 + 8), *mag = malloc(j->n * 8 + 8);
    const float *ha = b->h_a, *hb = b->h_b;
    if (!a || !bb || !row || !mag)
        api_mismatch_note(mm, 0, 0, 1);
    else {
        for (size_t r = 0; r < j->m; r++)
            for (size_t p = 0; p < j->k; p++)
                a[r * j->k + p] = j->ta ? ha[p * j->m + r] : ha[r * j->k + p];
        for (size_t p = 0; p < j->k; p++)
            for (size_t c = 0; c < j->n; c++)
                bb[p * j->n + c] = j->tb ? hb[c * j->k + p] : hb[p * j->n + c];
        for (size_t r = 0; r < j->m; r++) {
            climb_sgemm_ref_row(a, j->k, 0, bb, j->n, 0, (const float *)b->h_c0 + r * j->n, j->n, j->k, j->alpha,
                                j->beta, r, row, mag);
            for (size_t c = 0; c < j->n; c++) {
                const float g = ((const float *)got)[r * j->n + c];
                if (!(fabs(g - row[c]) <= climb_sgemm_tolerance(j->k, mag[c])))
                    api_mismatch_note(mm, r * j->n + c, g, row[c]);
            }
        }
    }
    free(a);
    free(bb);
    free(row);
    free(mag);
}

static const api_job_ops sgemm_ops = {
    .sizes = sgemm_sizes, .fill = sgemm_fill, .call = sgemm_call, .check = sgemm_check};

static api_job *sgemm_job_of(int ta, int tb, size_t m, size_t n, size_t k, float alpha, float beta)
{
    sgemm_job *j = api_job_new(sizeof *j, &sgemm_ops);
    if (!j)
        return NULL;
    *j = (sgemm_job){.base = j->base, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta};
    snprintf(j->base.label, sizeof j->base.label, "climb_sgemm %c%c %zux%zux%zu beta=%g", ta ? 'T' : 'N',
             tb ? 'T' : 'N', m, n, k, beta);
    return &j->base;
}

static int sgemm_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    (void)id;
    if (cap < 6)
        return -1;
    if (set == API_THREAD) {
        out[0] = sgemm_job_of(0, 0, 64, 96, 200, 1.0f, 0.0f);
        out[1] = sgemm_job_of(1, 0, 33, 65, 3000, 1.0f, 0.5f);
        return 2;
    }
    out[0] = sgemm_job_of(0, 0, 512, 512, 512, 1.0f, 0.0f); /* small output: split k, a workspace */
    out[1] = sgemm_job_of(0, 0, 64, 64, 65536, 0.5f, 1.0f); /* long k: many splits */
    out[2] = sgemm_job_of(0, 0, 1000, 1000, 1000, 1.0f, 0.0f);
    out[3] = sgemm_job_of(1, 0, 300, 200, 700, 1.0f, -0.5f);
    out[4] = sgemm_job_of(0, 1, 300, 200, 700, 1.0f, 0.0f);
    out[5] = sgemm_job_of(1, 1, 257, 129, 4000, 2.0f, 0.0f);
    return 6;
}

const api_workload api_workload_sgemm = {.name = "sgemm", .jobs = sgemm_jobs};

/* A workspace that cannot be allocated: the device's memory taken, then a call that needs a new workspace (a
 * small output with a long k: split k) is CLIMB_STATUS_ALLOC_FAILED with no error left behind; once the memory is
 * back the same call works on the same handle and on another that has been used. */
static void test_api_workspace_refused(void)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    api_job *big = sgemm_job_of(0, 0, 256, 256, 65536, 1.0f, 0.0f), *small = sgemm_job_of(0, 0, 64, 64, 64, 1.0f, 0.0f);
    climb_handle used, fresh;
    EXPECT(climb_create(&used, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(used, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_setup(big) == 0 && api_job_fill(big, &r, s) == 0);
    EXPECT(api_job_setup(small) == 0 && api_job_fill(small, &r, s) == 0);
    EXPECT(small->ops->call(small, used) == CLIMB_STATUS_SUCCESS && api_job_check(small, s, "before"));
    void *hog[4096];
    int n_hog = 0;
    for (size_t chunk = (size_t)1 << 30; chunk >= ((size_t)1 << 20) && n_hog < 4096; chunk /= 2)
        while (n_hog < 4096 && cudaMalloc(&hog[n_hog], chunk) == cudaSuccess)
            n_hog++;
    cudaGetLastError();
    EXPECT(climb_create(&fresh, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(fresh, s) == CLIMB_STATUS_SUCCESS);
    const climb_status as = big->ops->call(big, fresh);
    EXPECT_MSG(as == CLIMB_STATUS_ALLOC_FAILED, "no memory for the workspace: %s", climb_status_string(as));
    EXPECT(climb_last_cuda_error(fresh) == cudaErrorMemoryAllocation);
    EXPECT_MSG(cudaPeekAtLastError() == cudaSuccess, "left behind: %s", cudaGetErrorName(cudaPeekAtLastError()));
    for (int i = 0; i < n_hog; i++)
        cudaFree(hog[i]);
    printf("workspace allocation refused with %d blocks of the device's memory taken\n", n_hog);
    EXPECT(api_job_fill(big, &r, s) == 0 && big->ops->call(big, fresh) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_check(big, s, "after the memory came back"));
    EXPECT(api_job_fill(big, &r, s) == 0 && big->ops->call(big, used) == CLIMB_STATUS_SUCCESS);
    EXPECT(api_job_check(big, s, "another handle, after the memory came back"));
    api_job_free(big);
    api_job_free(small);
    EXPECT(climb_destroy(used) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(fresh) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
}

static const climb_workload *w = &climb_sgemm_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *alpha, const char *beta, const char *pad, const char *form)
{
    climb_opt_plan p;
    test_plan(&p, w, "alpha", alpha, "beta", beta, "pad", pad, "form", form, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    /* the article's tiled16 and tiled32 refuse shapes that are not multiples of their tile, and only those */
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "alpha %s beta %s pad %s: %ld runs, %d failures", alpha, beta, pad,
               cr.runs, cr.failures);
    printf("alpha=%s beta=%s pad=%s form=%s: %ld runs, %ld refused, seed %" PRIu64 "\n", alpha, beta, pad, form,
           cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_vendor_reference(const char *form)
{
    climb_opt_plan p;
    test_plan(&p, w, "beta", "0.5", "form", form, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 3;
    o.reference = CLIMB_REF_VENDOR;
    climb_case_key k = {CLIMB_F32, CLIMB_SHAPE3(700, 650, 600), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    EXPECT_MSG(strstr(oc.reference, "CPU rows agree") != NULL, "%s", oc.reference);
    for (int r = 1; r < w->n_rungs; r++) {
        char msg[600];
        if (climb_case_refuses(w, oc.c, r))
            continue;
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0 && climb_case_reset(w, oc.c, 0) == 0);
        EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s: %s", w->rung(r)->name, msg);
    }
    char msg[600];
    EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_verify(w, oc.c, 1, msg, sizeof msg) == 1);
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

/* The tuned rung with every tile shape `climb tune` may pick, over the edge shapes (its split-K included). */
static void test_every_tile(uint64_t seed)
{
    const climb_tuning *tn = w->tuning;
    climb_opt_plan p;
    test_plan(&p, w, "beta", "0.5", "pad", "1", "form", "all", NULL);
    const char *const best[] = {"tuned"};
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_values(tn, i, v);
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = seed + (uint64_t)i;
        o.options = &p;
        o.tuning = v;
        o.rungs = best;
        o.n_rungs = 1;
        climb_check_result cr;
        EXPECT(climb_check(w, &o, &dev, &cr) == 0);
        char label[120];
        climb_tuning_format(tn, v, label, sizeof label);
        EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%s: %ld runs, %d failures", label, cr.runs, cr.failures);
        printf("tuned %s: %ld runs\n", label, cr.runs);
        climb_check_result_free(&cr);
    }
    climb_opt_plan_free(&p, NULL);
}

/* One climb_sgemm call (or, with sms > 0, the best rung's plan for a GPU of that many SMs: whole waves and split
 * tiles on small shapes) against the CPU in double: every element of C (m x n, rows ldc apart) checked, the padding
 * after each row untouched. beta 0 puts NaN in C first (it must not be read); alpha 0 passes no A or B. */
static void api_case(climb_handle h, int sms, climb_rng *rng, int ta, int tb, size_t m, size_t n, size_t k, size_t pad,
                     float alpha, float beta)
{
    const size_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
    const size_t lda = a_cols + pad, ldb = b_cols + pad, ldc = n + pad;
    const size_t na = a_rows * lda + 1, nb = b_rows * ldb + 1, nc = m * ldc + 1;
    float *ha = malloc(na * 4), *hb = malloc(nb * 4), *hc = malloc(nc * 4), *got = malloc(nc * 4);
    float *opa = malloc((m * k + 1) * 4), *opb = malloc((k * n + 1) * 4);
    double *want = malloc((n + 1) * sizeof(double)), *mag = malloc((n + 1) * sizeof(double));
    EXPECT(ha && hb && hc && got && opa && opb && want && mag);
    climb_rng_fill_f32(rng, ha, na, -1, 1);
    climb_rng_fill_f32(rng, hb, nb, -1, 1);
    climb_rng_fill_f32(rng, hc, nc, -1, 1);
    if (beta == 0.0f)
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                hc[i * ldc + j] = NAN;
    for (size_t i = 0; i < m; i++) /* op(A) and op(B) as plain row-major m x k and k x n */
        for (size_t p = 0; p < k; p++)
            opa[i * k + p] = ta ? ha[p * lda + i] : ha[i * lda + p];
    for (size_t p = 0; p < k; p++)
        for (size_t j = 0; j < n; j++)
            opb[p * n + j] = tb ? hb[j * ldb + p] : hb[p * ldb + j];
    float *da, *db, *dc;
    EXPECT(cudaMalloc((void **)&da, na * 4) == cudaSuccess && cudaMalloc((void **)&db, nb * 4) == cudaSuccess &&
           cudaMalloc((void **)&dc, nc * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(da, ha, na * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(db, hb, nb * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(dc, hc, nc * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    if (sms > 0) {
        const size_t wsb = climb_sgemm_workspace(NULL, ta, tb, m, n, k, sms);
        void *ws = NULL;
        EXPECT(!wsb || cudaMalloc(&ws, wsb) == cudaSuccess);
        EXPECT(climb_sgemm_best(NULL, ta, tb, m, n, k, alpha, da, lda, db, ldb, beta, dc, ldc, ws, wsb, sms, 0) ==
               cudaSuccess);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
        cudaFree(ws);
    } else {
        const climb_status st = climb_sgemm(h, ta ? CLIMB_OP_T : CLIMB_OP_N, tb ? CLIMB_OP_T : CLIMB_OP_N, m, n, k,
                                            alpha, alpha == 0.0f ? NULL : da, lda, alpha == 0.0f ? NULL : db, ldb, beta,
                                            dc, ldc);
        EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "climb_sgemm: %s", climb_status_string(st));
    }
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    EXPECT(cudaMemcpy(got, dc, nc * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (size_t i = 0; i < m; i++) {
        climb_sgemm_ref_row(opa, k, 0, opb, n, 0, hc + i * ldc, n, k, alpha, beta, i, want, mag);
        for (size_t j = 0; j < ldc; j++) {
            const float g = got[i * ldc + j];
            const int ok = j < n ? fabs(g - want[j]) <= climb_sgemm_tolerance(k, mag[j])
                                 : memcmp(&g, &hc[i * ldc + j], 4) == 0; /* padding untouched */
            if (!ok && bad++ < 3)
                printf("  %s%s %zux%zux%zu pad %zu alpha %g beta %g: C[%zu][%zu] = %.9g, expected %.9g\n",
                       ta ? "T" : "N", tb ? "T" : "N", m, n, k, pad, alpha, beta, i, j, g, j < n ? want[j] : hc[i * ldc + j]);
        }
    }
    EXPECT_MSG(bad == 0, "%s%s %zux%zux%zu: %zu wrong", ta ? "T" : "N", tb ? "T" : "N", m, n, k, bad);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free(ha);
    free(hb);
    free(hc);
    free(got);
    free(opa);
    free(opb);
    free(want);
    free(mag);
}

/* climb_sgemm: the four transpose forms over odd shapes, padded rows, split-K shapes, alpha and beta 0; and the
 * argument checks. */
static void test_api(uint64_t seed)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    static const size_t shapes[][3] = {{1, 1, 1}, {33, 31, 17}, {130, 67, 300}, {257, 255, 1000}, {64, 64, 4096},
                                       {300, 513, 40}, {5, 7, 0}};
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                const size_t pad = (s * 3 + (size_t)ta + 2 * (size_t)tb) % 5;
                api_case(h, 0, &rng, ta, tb, shapes[s][0], shapes[s][1], shapes[s][2], pad, s % 2 ? -0.75f : 1.0f,
                         s % 3 ? 0.0f : 1.5f);
            }
    api_case(h, 0, &rng, 0, 0, 2048, 1024, 512, 0, 1.0f, 0.0f); /* the large tile, vector paths */
    api_case(h, 0, &rng, 0, 0, 100, 90, 80, 1, 0.0f, 0.5f);     /* alpha 0: C = beta C, A and B not passed */
    api_case(h, 0, &rng, 1, 1, 100, 90, 80, 0, 0.0f, 0.0f);     /* alpha 0, beta 0: zeros over NaN */

    float *d;
    EXPECT(cudaMalloc((void **)&d, 64 * 64 * 4) == cudaSuccess);
    float host[16];
    const climb_operation N = CLIMB_OP_N, T = CLIMB_OP_T;
    EXPECT(climb_sgemm(NULL, N, N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, d + 32, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, (climb_operation)2, N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, d + 32, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 4, 4, 4, 1, d, 3, d + 16, 4, 0, d + 32, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, T, N, 5, 4, 4, 1, d, 4, d + 32, 4, 0, d + 64, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, T, 4, 4, 5, 1, d, 5, d + 32, 4, 0, d + 64, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, d + 32, 3) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 4, 4, 4, 1, host, 4, d + 16, 4, 0, d + 32, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, NULL, 4) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 4, 4, 4, 1, d, 4, d + 16, 4, 0, d + 8, 4) == CLIMB_STATUS_INVALID_VALUE); /* C on A */
    EXPECT(climb_sgemm(h, N, N, (size_t)INT32_MAX + 1, 4, 4, 1, d, 4, d + 16, 4, 0, d + 32, 4) ==
           CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(h, N, N, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4) == CLIMB_STATUS_SUCCESS); /* no output */
    EXPECT(climb_last_cuda_error(h) == cudaSuccess);
    cudaFree(d);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    printf("climb_sgemm: 4 forms x %zu shapes and the argument checks, seed %" PRIu64 "\n",
           sizeof shapes / sizeof shapes[0], seed);
}

/* The plans on GPUs of 1 to 7 SMs (the grid and the second pass do not depend on the real count): whole waves with
 * the remaining tiles split (the hybrid), every tile split, every tile whole, in every form. */
static void test_plans(uint64_t seed)
{
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    static const size_t shapes[][3] = {{389, 261, 700}, {130, 1000, 900}, {1, 70, 3000}, {200, 3, 333}};
    static const int sms[] = {1, 2, 3, 5, 7};
    int hybrid = 0, split = 0, whole = 0, slices[4] = {0, 0, 0, 0};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t q = 0; q < sizeof sms / sizeof sms[0]; q++) {
            climb_sgemm_plan_info pi;
            climb_sgemm_plan_describe(NULL, 0, 0, shapes[s][0], shapes[s][1], shapes[s][2], sms[q], &pi);
            hybrid += pi.dp_tiles && pi.sk_tiles;
            split += !pi.dp_tiles && pi.sk_tiles;
            whole += !pi.sk_tiles;
            slices[0] += pi.sk_tiles && pi.splits <= 32;
            const int f = (int)(s + q) % 4;
            api_case(NULL, sms[q], &rng, f & 1, f >> 1, shapes[s][0], shapes[s][1], shapes[s][2], q % 3,
                     q % 2 ? -0.75f : 1.0f, s % 2 ? 0.0f : 1.5f);
        }
    /* one tile and a long k on GPUs of 16, 20 and 40 SMs: 63, 79 and 157 splits, which the second pass adds in 2, 4
     * and 8 slices (a slice more for every 32 splits past 32, at most 8) */
    static const int many[] = {16, 20, 40};
    for (size_t q = 0; q < sizeof many / sizeof many[0]; q++) {
        climb_sgemm_plan_info pi;
        climb_sgemm_plan_describe(NULL, 0, 0, 33, 47, 20000, many[q], &pi);
        if (pi.sk_tiles)
            slices[pi.splits > 128 ? 3 : pi.splits > 64 ? 2 : pi.splits > 32 ? 1 : 0]++;
        api_case(NULL, many[q], &rng, (int)q & 1, 0, 33, 47, 20000, q, 1.0f, q % 2 ? 0.0f : 0.5f);
    }
    EXPECT_MSG(hybrid > 0 && split > 0 && whole > 0, "plans: %d hybrid, %d split, %d whole", hybrid, split, whole);
    EXPECT_MSG(slices[0] > 0 && slices[1] > 0 && slices[2] > 0 && slices[3] > 0,
               "second passes of 1, 2, 4, 8 slices: %d %d %d %d", slices[0], slices[1], slices[2], slices[3]);
    printf("plans on 1 to 7 SMs: %d hybrid, %d split, %d whole, seed %" PRIu64 "\n", hybrid, split, whole, seed);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_vendor_reference("nn");
    test_vendor_reference("tt"); /* the tolerance's row and column norms of op(A) and op(B) */
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "1", "0", "0", "nn");
    test_check(fresh + 1, "-0.75", "1.5", "3", "nn");
    test_check(fresh + 3, "1", "0", "1", "tn,nt,tt"); /* the vendor and tuned; the rest refuse */
    test_every_tile(fresh + 2);
    test_api(fresh + 100);
    test_plans(fresh + 200);
    EXPECT(api_test_workload(&api_workload_sgemm) == 0);
    /* A used handle whose workspace must grow inside a capture: more splits of k. */
    {
        climb_rng r;
        climb_rng_seed(&r, climb_fresh_seed());
        EXPECT(api_test_growth(sgemm_job_of(0, 0, 96, 96, 2048, 1.0f, 0.0f),
                               sgemm_job_of(0, 0, 128, 128, 40000, 1.0f, 0.0f), &r) == 0);
    }
    test_api_workspace_refused();
    return test_finish("test_gpu_sgemm");
}
