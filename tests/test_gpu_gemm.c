/* GPU: every tensor-core GEMM rung in every precision over the edge shapes (0, 1, odd, non-multiples of the
 * 128 x 128 tile and of the k stage), uniform and spread inputs, alpha and beta (beta != 0 restores C), padded
 * leading dimensions (the pipelined rung refuses the rows cp.async cannot move, and only those), against the CPU's
 * FP64 product within each precision's bound; the FP64 reference of a large shape (cuBLAS's DGEMM, CPU rows
 * agreeing; rows of whole 16-byte chunks, which every rung takes) with every rung within the bound of it; poisoned
 * output fails every rung; and each precision's measured error sits where it should (3xTF32 near FP32's, TF32 well
 * above). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "climb.h"

#include "api_jobs.h"
#include "core/harness.h"
#include "device/device.h"
#include "workloads/gemm/gemm.h"
#include "workloads/sgemm/sgemm.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_gemm_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *alpha, const char *beta, const char *pad, int allow_refused)
{
    climb_opt_plan p;
    test_plan(&p, w, "precision", "all", "inputs", "all", "alpha", alpha, "beta", beta, "pad", pad, NULL);
    char what[80];
    snprintf(what, sizeof what, "alpha %s beta %s pad %s", alpha, beta, pad);
    test_check_plan(w, &dev, &p, seed, allow_refused, what);
    climb_opt_plan_free(&p, NULL);
}

/* The rungs on Hopper's warp-group MMA. */
static int is_wg(const char *name)
{
    return strcmp(name, "wgmma") == 0 || strcmp(name, "tma") == 0 || strcmp(name, "warp_specialized") == 0 ||
           strcmp(name, "persistent") == 0 || strcmp(name, "clusters") == 0 ||
           strcmp(name, "overlapped_transpose") == 0;
}
/* The wgmma rungs with a 3xTF32 kernel. */
static int wg_takes_3x(const char *name)
{
    return strcmp(name, "warp_specialized") == 0 || strcmp(name, "persistent") == 0;
}

/* Which rungs refuse what: pipelined exactly the rows cp.async cannot move; the wgmma rungs (which copy such an A
 * into their workspace) any GPU but Hopper, and 3xTF32 but warp_specialized and persistent; mma_sync and gemm_best
 * nothing. */
static void test_refusals(void)
{
    static const struct { const char *prec, *pad; size_t k, n; int aligned; } cases[] = {
        {"bf16", "0", 64, 64, 1}, {"bf16", "0", 60, 64, 0}, {"bf16", "8", 64, 64, 1}, {"bf16", "4", 64, 64, 0},
        {"tf32", "0", 60, 64, 1}, {"tf32", "0", 62, 64, 0}, {"3xtf32", "0", 64, 64, 1}, {"3xtf32", "1", 64, 64, 0}};
    const int hopper = dev.cc_major == 9 && dev.cc_minor == 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        climb_opt_plan p;
        test_plan(&p, w, "precision", cases[i].prec, "pad", cases[i].pad, NULL);
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 5;
        climb_case_key k = {CLIMB_F32, CLIMB_SHAPE3(64, cases[i].n, cases[i].k), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
        for (int r = 0; r < w->n_rungs; r++) {
            const char *name = w->rung(r)->name, *why = climb_case_refuses(w, oc.c, r);
            int want = 0;
            if (strcmp(name, "pipelined") == 0)
                want = !cases[i].aligned;
            else if (strcmp(name, "overlapped_transpose") == 0) /* TF32 alone, B's rows (n + pad) 16-byte chunks */
                want = !hopper || strcmp(cases[i].prec, "tf32") != 0 || (cases[i].n + atoi(cases[i].pad)) % 4 != 0;
            else if (is_wg(name))
                want = !hopper || (strcmp(cases[i].prec, "3xtf32") == 0 && !wg_takes_3x(name));
            EXPECT_MSG((why != NULL) == want, "%s pad %s k %zu: %s %s", cases[i].prec, cases[i].pad, cases[i].k, name,
                       why ? why : "takes it");
        }
        climb_case_close(w, &oc);
        climb_opt_plan_free(&p, NULL);
    }
}

/* A shape past the CPU's limit: the FP64 reference on the GPU; every rung within the bound of it, and its error
 * note; poison fails. Returns the largest error of the rung named `rung` (and of `rung2` in *second where given;
 * -1 where it refused). */
static double test_large_at(const char *precision, const char *inputs, const char *pad, climb_shape shape,
                            const char *rung, const char *rung2, double *second)
{
    climb_opt_plan p;
    test_plan(&p, w, "precision", precision, "inputs", inputs, "beta", "0.5", "pad", pad, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    climb_case_key k = {CLIMB_F32, shape, 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    EXPECT_MSG(strstr(oc.reference, "DGEMM") && strstr(oc.reference, "CPU rows agree"), "%s", oc.reference);
    double found = -1;
    if (second)
        *second = -1;
    for (int r = 0; r < w->n_rungs; r++) {
        char msg[600];
        if (climb_case_refuses(w, oc.c, r)) { /* the wgmma rungs: not in 3xTF32 (nor off Hopper); the overlapped
                                                 transpose in TF32 alone */
            EXPECT_MSG(is_wg(w->rung(r)->name) &&
                           ((strcmp(precision, "3xtf32") == 0 && !wg_takes_3x(w->rung(r)->name)) ||
                            (strcmp(precision, "tf32") != 0 &&
                             strcmp(w->rung(r)->name, "overlapped_transpose") == 0) ||
                            !(dev.cc_major == 9 && dev.cc_minor == 0)),
                       "%s %s refused: %s", precision, w->rung(r)->name, climb_case_refuses(w, oc.c, r));
            continue;
        }
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0 &&
               climb_case_reset(w, oc.c, 0) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "%s: poison passed", w->rung(r)->name);
        EXPECT(climb_case_reset(w, oc.c, 0) == 0 && climb_case_run(w, oc.c, r, 0) == 0 &&
               cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", precision, w->rung(r)->name, msg);
        const char *note = w->rung_note(oc.c, r);
        double largest = -1;
        EXPECT(note && sscanf(strstr(note, "largest ") ? strstr(note, "largest ") : "", "largest %lf", &largest) == 1);
        printf("%s %s %s: %s\n", precision, inputs, w->rung(r)->name, note ? note : "");
        if (strcmp(w->rung(r)->name, rung) == 0)
            found = largest;
        if (rung2 && strcmp(w->rung(r)->name, rung2) == 0)
            *second = largest;
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
    return found;
}
static double test_large2(const char *precision, const char *inputs, const char *rung, const char *rung2,
                          double *second)
{
    return test_large_at(precision, inputs, "0", (climb_shape)CLIMB_SHAPE3(704, 648, 1200), rung, rung2, second);
}
static double test_large(const char *precision, const char *inputs, const char *rung)
{
    return test_large2(precision, inputs, rung, NULL, NULL);
}

/* TF32's B^T made inside the kernel, on a product of more tiles than one wave of the multiplying blocks (17 x 9 of
 * 128 x 256), its last tile column and last stage partial (n = 2301: the last 16-byte chunk of B's rows one value;
 * k = 301), ldb = 2304: the same products as the persistent kernel on B^T made before it, so the same largest
 * error, bit for bit. */
static void test_overlap(const char *inputs)
{
    if (!(dev.cc_major == 9 && dev.cc_minor == 0))
        return;
    double persistent = -1;
    const double overlap = test_large_at("tf32", inputs, "3", (climb_shape)CLIMB_SHAPE3(2100, 2301, 301),
                                         "overlapped_transpose", "persistent", &persistent);
    EXPECT_MSG(overlap > 0 && overlap == persistent, "%s: TF32 largest error: overlapped_transpose %.9g, persistent "
               "%.9g", inputs, overlap, persistent);
}

/* 3xTF32's split of k, on shapes whose tiles fill at most half the SMs: 257 x 1101 x 1001 (27 tiles of 128 x 128,
 * the last row and column partial; 32 stages of k, the last 9 values: four slices of 8 on an H100) and 700 x 901 x
 * 777 (48 tiles, 25 stages: two slices, of 12 and 13); pad 3 (leading dimensions 1004 and 1104, 780 and 904:
 * whole 16-byte chunks, so that every rung takes them). Every rung within its bound of the FP64 product
 * (test_large_at), and the split kernels' largest error within 4x of cuBLAS's FP32 SGEMM's, as without a split. */
static void test_split(const char *inputs)
{
    if (!(dev.cc_major == 9 && dev.cc_minor == 0))
        return;
    const size_t shapes[2][3] = {{257, 1101, 1001}, {700, 901, 777}};
    for (int i = 0; i < 2; i++) {
        const int ks = climb_gemm_w3_ksplit(shapes[i][0], shapes[i][1], shapes[i][2], dev.sms);
        EXPECT_MSG(ks > 1, "%zu x %zu x %zu: no split of k on %d SMs", shapes[i][0], shapes[i][1], shapes[i][2],
                   dev.sms);
        double fp32 = -1, fp32b = -1;
        const climb_shape sh = CLIMB_SHAPE3(shapes[i][0], shapes[i][1], shapes[i][2]);
        const double ws = test_large_at("3xtf32", inputs, "3", sh, "warp_specialized", "cublas", &fp32);
        const double persistent = test_large_at("3xtf32", inputs, "3", sh, "persistent", "cublas", &fp32b);
        EXPECT_MSG(ws > 0 && persistent > 0 && fp32 > 0 && fp32b > 0 && ws < 4 * fp32 && persistent < 4 * fp32b,
                   "%s %zu x %zu x %zu (%d slices): 3xTF32 largest error: warp_specialized %.3g (cuBLAS FP32 %.3g), "
                   "persistent %.3g (%.3g)", inputs, shapes[i][0], shapes[i][1], shapes[i][2], ks, ws, fp32,
                   persistent, fp32b);
    }
}

/* The tensor cores' ceilings: measured when asked, far above FFMA's, TF32 about half BF16's rate. */
static void test_tensor_ceiling(void)
{
    climb_device_info d = dev;
    EXPECT(climb_measure_ceilings(&d, CLIMB_MEASURE_TENSOR) == 0);
    printf("tensor cores: BF16 %.0f GFLOP/s, TF32 %.0f GFLOP/s; FFMA %.0f GFLOP/s\n", d.tensor_bf16_gflops,
           d.tensor_tf32_gflops, d.ffma_gflops);
    EXPECT_MSG(d.tensor_bf16_gflops > 4 * d.ffma_gflops && d.tensor_tf32_gflops > 0.3 * d.tensor_bf16_gflops &&
                   d.tensor_tf32_gflops < 0.7 * d.tensor_bf16_gflops,
               "BF16 %.0f, TF32 %.0f, FFMA %.0f GFLOP/s", d.tensor_bf16_gflops, d.tensor_tf32_gflops, d.ffma_gflops);
}

/* ---------------------------------------------------------------- climb_gemm_ex's jobs */

typedef struct gemm_job {
    api_job base;
    climb_gemm_compute mode;
    int ta, tb;
    size_t m, n, k;
    float alpha, beta;
} gemm_job;

static size_t esize_of(climb_gemm_compute m) { return m == CLIMB_GEMM_BF16 ? 2 : 4; }

static int gemm_sizes(api_job *b)
{
    const gemm_job *j = (const gemm_job *)b;
    b->a_bytes = j->m * j->k * esize_of(j->mode);
    b->b_bytes = j->k * j->n * esize_of(j->mode);
    b->out_bytes = j->m * j->n * 4;
    return 0;
}

/* A and B drawn with every significand bit random (BF16: rounded, their bits sent); C's start where beta reads it. */
static int gemm_fill_job(api_job *b, climb_rng *r, cudaStream_t s)
{
    const gemm_job *j = (const gemm_job *)b;
    const int bf = j->mode == CLIMB_GEMM_BF16;
    float *tmp = malloc((j->m * j->k + j->k * j->n + 1) * 4);
    if (!tmp)
        return -1;
    climb_gemm_fill(r, bf ? CLIMB_GEMM_PREC_BF16 : CLIMB_GEMM_PREC_TF32, 0, bf ? tmp : (float *)b->h_a, bf ? b->h_a : NULL,
                    j->m * j->k);
    climb_gemm_fill(r, bf ? CLIMB_GEMM_PREC_BF16 : CLIMB_GEMM_PREC_TF32, 0, bf ? tmp : (float *)b->h_b, bf ? b->h_b : NULL,
                    j->k * j->n);
    free(tmp);
    climb_rng_fill_f32(r, b->h_c0, j->m * j->n, -1.0f, 1.0f);
    return api_job_send(b, s, API_SEND_A | API_SEND_B | (j->beta != 0.0f ? API_SEND_C0 : API_POISON_OUT), 0xFF);
}

static climb_status gemm_call(api_job *b, climb_handle h)
{
    const gemm_job *j = (const gemm_job *)b;
    const size_t lda = j->ta ? j->m : j->k, ldb = j->tb ? j->k : j->n;
    return climb_gemm_ex(h, j->mode, j->ta ? CLIMB_OP_T : CLIMB_OP_N, j->tb ? CLIMB_OP_T : CLIMB_OP_N, j->m, j->n, j->k,
                         j->alpha, b->d_a, lda, b->d_b, ldb, j->beta, b->d_out, j->n);
}

/* An input element as FP32 (BF16 bits widened). */
static float elem(const gemm_job *j, const void *p, size_t i)
{
    return j->mode == CLIMB_GEMM_BF16 ? climb_bf16_float(((const uint16_t *)p)[i]) : ((const float *)p)[i];
}

static void gemm_check_job(const api_job *b, const void *got, cudaStream_t s, api_mismatch *mm)
{
    (void)s;
    const gemm_job *j = (const gemm_job *)b;
    float *a = malloc(j->m * j->k * 4 + 4), *bb = malloc(j->k * j->n * 4 + 4);
    double *row = malloc(j->n * 8 + 8), *mag = malloc(j->n * 8 + 8);
    if (!a || !bb || !row || !mag) {
        api_mismatch_note(mm, 0, 0, 1);
    } else {
        for (size_t r = 0; r < j->m; r++)
            for (size_t p = 0; p < j->k; p++)
                a[r * j->k + p] = elem(j, b->h_a, j->ta ? p * j->m + r : r * j->k + p);
        for (size_t p = 0; p < j->k; p++)
            for (size_t c = 0; c < j->n; c++)
                bb[p * j->n + c] = elem(j, b->h_b, j->tb ? c * j->k + p : p * j->n + c);
        const double bound = j->mode == CLIMB_GEMM_FP32 ? -1
                             : climb_gemm_bound(j->mode == CLIMB_GEMM_BF16   ? CLIMB_GEMM_PREC_BF16
                                                : j->mode == CLIMB_GEMM_TF32 ? CLIMB_GEMM_PREC_TF32
                                                                             : CLIMB_GEMM_PREC_3XTF32,
                                                j->k);
        for (size_t r = 0; r < j->m; r++) {
            climb_sgemm_ref_row(a, j->k, 0, bb, j->n, 0, (const float *)b->h_c0 + r * j->n, j->n, j->k, j->alpha,
                                j->beta, r, row, mag);
            for (size_t c = 0; c < j->n; c++) {
                const float g = ((const float *)got)[r * j->n + c];
                const double tol = bound < 0 ? climb_sgemm_tolerance(j->k, mag[c]) : bound * mag[c];
                if (!(fabs(g - row[c]) <= tol))
                    api_mismatch_note(mm, r * j->n + c, g, row[c]);
            }
        }
    }
    free(a);
    free(bb);
    free(row);
    free(mag);
}

static const api_job_ops gemm_ops = {
    .sizes = gemm_sizes, .fill = gemm_fill_job, .call = gemm_call, .check = gemm_check_job};

static const char *const MODE_NAMES[] = {"fp32", "3xtf32", "tf32", "bf16"};

static api_job *gemm_job_of(climb_gemm_compute mode, int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                            float beta)
{
    gemm_job *j = api_job_new(sizeof *j, &gemm_ops);
    if (!j)
        return NULL;
    *j = (gemm_job){.base = j->base, .mode = mode, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,
                    .beta = beta};
    snprintf(j->base.label, sizeof j->base.label, "climb_gemm_ex %s %c%c %zux%zux%zu beta=%g", MODE_NAMES[mode],
             ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, beta);
    return &j->base;
}

static int gemm_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < (set == API_THREAD ? 2 : 7))
        return -1;
    if (set == API_THREAD) {
        out[0] = gemm_job_of((climb_gemm_compute)(1 + id % 3), id % 2, 0, 64 + (size_t)id, 96, 200, 1.0f, 0.0f);
        out[1] = gemm_job_of(CLIMB_GEMM_BF16, 1, 1, 33, 65, 300, 1.0f, 0.5f);
        return 2;
    }
    out[0] = gemm_job_of(CLIMB_GEMM_BF16, 0, 0, 512, 512, 512, 1.0f, 0.0f);   /* wgmma (Hopper), else pipelined */
    out[1] = gemm_job_of(CLIMB_GEMM_3XTF32, 1, 0, 300, 200, 700, 1.0f, -0.5f); /* A packed; odd n: mma_sync */
    out[2] = gemm_job_of(CLIMB_GEMM_TF32, 0, 1, 256, 264, 96, 1.0f, 0.0f);    /* B packed */
    out[3] = gemm_job_of(CLIMB_GEMM_BF16, 1, 1, 257, 129, 1000, 2.0f, 0.0f);  /* both packed */
    out[4] = gemm_job_of(CLIMB_GEMM_BF16, 0, 0, 31, 17, 33, 1.0f, 1.0f);      /* rows of 33 BF16: A copied for
                                                                                 wgmma; mma_sync elsewhere */
    out[5] = gemm_job_of(CLIMB_GEMM_FP32, 1, 0, 100, 90, 80, 1.0f, 0.0f);     /* climb_sgemm */
    out[6] = gemm_job_of(CLIMB_GEMM_TF32, 0, 0, 1100, 4100, 70, 1.0f, 0.0f);  /* 9 x 17 tiles of 128 x 256: the
                                                                                 large products' kernel, replayed */
    return 7;
}
const api_workload api_workload_gemm = {.name = "gemm", .jobs = gemm_jobs};

/* climb_gemm_ex: every mode and form over odd and edge shapes, alpha 0 and beta 0 cases, on one handle. */
static void test_api(uint64_t seed)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    cudaStream_t s = 0;
    static const size_t shapes[][3] = {{1, 1, 1}, {33, 31, 17}, {130, 67, 300}, {128, 256, 64}, {5, 7, 0}, {300, 512, 40}};
    int runs = 0;
    for (int mode = 0; mode < 4; mode++)
        for (int f = 0; f < 4; f++)
            for (size_t q = 0; q < sizeof shapes / sizeof shapes[0]; q++) {
                const float alpha = q == 2 ? -0.75f : 1.0f, beta = q % 3 == 0 ? 0.5f : 0.0f;
                api_job *j = gemm_job_of((climb_gemm_compute)mode, f & 1, f >> 1, shapes[q][0], shapes[q][1],
                                         shapes[q][2], alpha, beta);
                EXPECT(j && api_job_setup(j) == 0 && api_job_fill(j, &rng, s) == 0);
                EXPECT_MSG(j->ops->call(j, h) == CLIMB_STATUS_SUCCESS, "%s", j->label);
                EXPECT(api_job_check(j, s, "eager"));
                api_job_free(j);
                runs++;
            }
    api_job *z = gemm_job_of(CLIMB_GEMM_BF16, 0, 0, 100, 90, 80, 0.0f, 0.5f); /* alpha 0: C = beta C */
    EXPECT(z && api_job_setup(z) == 0 && api_job_fill(z, &rng, s) == 0 && z->ops->call(z, h) == CLIMB_STATUS_SUCCESS &&
           api_job_check(z, s, "alpha 0"));
    api_job_free(z);
    EXPECT(climb_last_cuda_error(h) == cudaSuccess);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    printf("climb_gemm_ex: %d calls over 4 modes x 4 forms x %zu shapes, seed %" PRIu64 "\n", runs,
           sizeof shapes / sizeof shapes[0], seed);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_tensor_ceiling();
    const uint64_t fresh = climb_fresh_seed();
    test_refusals();
    test_check(fresh, "1", "0", "0", 1);           /* odd k or n: pipelined refuses those */
    test_check(fresh + 1, "-0.75", "1.5", "3", 1);
    test_check(fresh + 2, "1", "0", "8", 1);
    for (int s = 0; s < 2; s++) {
        const char *in = s ? "spread" : "uniform";
        /* 3xTF32 is as accurate as FP32 on the CUDA cores (within 4x of its error), TF32 far less so (its inputs
         * rounded); BF16's error is the sum's alone (its inputs are BF16 values, exact in the reference too) */
        double x3_wg;
        const double fp32 = test_large2("3xtf32", in, "cublas", "persistent", &x3_wg);
        const double x3 = test_large("3xtf32", in, "pipelined");
        double tf32_wg;
        const double tf32 = test_large2("tf32", in, "pipelined", "persistent", &tf32_wg);
        const double bf16 = test_large("bf16", in, "pipelined");
        EXPECT_MSG(fp32 > 0 && x3 > 0 && x3 < 4 * fp32 && tf32 > 16 * x3 && bf16 >= 0,
                   "%s: largest errors: FP32 %.3g, 3xTF32 %.3g, TF32 %.3g, BF16 %.3g", in, fp32, x3, tf32, bf16);
        /* the wgmma kernels round their TF32 inputs as mma.sync's cvt.rna does (wgmma alone would truncate them: a
         * bias toward zero, about twice the error), so their error is the pipelined rung's, give or take the order
         * of the sums */
        /* 3xTF32 on the warp-specialised kernel sums each stage apart as the pipelined rung does: FP32's accuracy */
        if (dev.cc_major == 9 && dev.cc_minor == 0)
            EXPECT_MSG(x3_wg > 0 && x3_wg < 4 * fp32, "%s: 3xTF32 largest error: persistent %.3g, cuBLAS FP32 %.3g", in,
                       x3_wg, fp32);
        if (dev.cc_major == 9 && dev.cc_minor == 0)
            EXPECT_MSG(tf32_wg > 0 && tf32_wg < 1.5 * tf32, "%s: TF32 largest error: persistent %.3g, pipelined %.3g",
                       in, tf32_wg, tf32);
    }
    test_overlap("uniform");
    test_overlap("spread");
    test_split("uniform");
    test_split("spread");
    test_api(fresh + 100);
    EXPECT(api_test_workload(&api_workload_gemm) == 0);
    return test_finish("test_gpu_gemm");
}
