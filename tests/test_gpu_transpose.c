/* GPU: every transpose rung (the vendor, both bounds, the ladder, the best) over the edge shapes with and without
 * padded rows, misaligned inputs included, each run twice from poisoned outputs, for a fixed seed and a fresh one;
 * each reference mode; every tuning candidate of the best rung on edge shapes; proof that a wrong output and a
 * wrong copy fail; and the C API (both types, leading dimensions, the argument checks) against the CPU. */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/transpose.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct transpose_job {
    api_job base;
    int f32; /* else f64 */
    size_t rows, cols;
} transpose_job;

static int transpose_sizes(api_job *b)
{
    const transpose_job *j = (const transpose_job *)b;
    b->a_bytes = b->out_bytes = j->rows * j->cols * (j->f32 ? 4 : 8);
    return 0;
}

static int transpose_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const transpose_job *j = (const transpose_job *)b;
    climb_rng_fill(r, j->f32 ? CLIMB_F32 : CLIMB_F64, b->h_a, j->rows * j->cols, -1.0, 1.0);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status transpose_call(api_job *b, climb_handle h)
{
    const transpose_job *j = (const transpose_job *)b;
    return j->f32 ? climb_transpose_f32(h, j->rows, j->cols, b->d_a, j->cols, b->d_out, j->rows)
                  : climb_transpose_f64(h, j->rows, j->cols, b->d_a, j->cols, b->d_out, j->rows);
}

static void transpose_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const transpose_job *j = (const transpose_job *)b;
    const size_t es = j->f32 ? 4 : 8;
    char *want = malloc(b->out_bytes + 16);
    if (!want) {
        api_mismatch_note(m, 0, 0, 1);
        return;
    }
    climb_transpose_ref(b->h_a, j->cols, want, j->rows, j->rows, j->cols, es);
    for (size_t i = 0; i < j->rows * j->cols; i++)
        if (memcmp((const char *)got + i * es, want + i * es, es) != 0)
            api_mismatch_note(m, i, es == 4 ? ((const float *)got)[i] : ((const double *)got)[i],
                              es == 4 ? ((const float *)want)[i] : ((const double *)want)[i]);
    free(want);
}

static const api_job_ops transpose_ops = {
    .sizes = transpose_sizes, .fill = transpose_fill, .call = transpose_call, .check = transpose_check};

static api_job *transpose_job_of(int f32, size_t rows, size_t cols)
{
    transpose_job *j = api_job_new(sizeof *j, &transpose_ops);
    if (!j)
        return NULL;
    j->f32 = f32;
    j->rows = rows;
    j->cols = cols;
    snprintf(j->base.label, sizeof j->base.label, "climb_transpose_%s %zux%zu", f32 ? "f32" : "f64", rows, cols);
    return &j->base;
}

static int transpose_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    (void)id;
    if (cap < 2)
        return -1;
    out[0] = set == API_CAPTURE ? transpose_job_of(1, 1001, 3001) : transpose_job_of(1, 37, 1001);
    out[1] = set == API_CAPTURE ? transpose_job_of(0, 513, 700) : transpose_job_of(0, 300, 17);
    return 2;
}

const api_workload api_workload_transpose = {.name = "transpose", .jobs = transpose_jobs};

static const climb_workload *w = &climb_transpose_workload;
static climb_device_info dev;

static void plan_pad(climb_opt_plan *p, const char *pads) { test_plan(p, w, "pad", pads, NULL); }

/* An output nobody wrote fails, for a transposing rung and for a bound; each reference mode is chosen as asked,
 * passes a right answer and catches a wrong one. */
static void test_failures_and_modes(void)
{
    climb_opt_plan p;
    plan_pad(&p, "3");
    struct {
        climb_ref_mode m;
        const char *want;
    } modes[] = {{CLIMB_REF_AUTO, "CPU transpose, every element"},
                 {CLIMB_REF_SAMPLES, "random elements of out"},
                 {CLIMB_REF_VENDOR, "transpose_cublas_geam's output, 64 elements spot-checked"}};
    const int best = climb_best_rung(w), bound = climb_bound_rung(w);
    EXPECT(bound >= 0 && w->rung(bound)->kind == CLIMB_RUNG_BOUND);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        for (int t = CLIMB_F32; t <= CLIMB_F64; t++) {
            if (!(w->types & CLIMB_TYPE_BIT(t)))
                continue;
            climb_run_opts o;
            memset(&o, 0, sizeof o);
            o.seed = 99;
            o.reference = modes[m].m;
            climb_case_key k = {(climb_dtype)t, CLIMB_SHAPE2(257, 129), 0};
            climb_open_case oc;
            EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
            EXPECT_MSG(!oc.ref_failed && strstr(oc.reference, modes[m].want), "%s", oc.reference);
            char msg[400];
            EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1);
            EXPECT_MSG(strstr(msg, "out[") && strstr(msg, "nan, expected") && strstr(msg, "elements wrong"), "%s", msg);
            EXPECT(climb_case_verify(w, oc.c, bound, msg, sizeof msg) == 1 && strstr(msg, "copy[0][0] = ") && strstr(msg, "nan"));
            EXPECT(climb_case_prepare(w, oc.c, best) == 0 && climb_case_run(w, oc.c, best, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
            EXPECT(climb_case_run(w, oc.c, bound, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT_MSG(climb_case_verify(w, oc.c, bound, msg, sizeof msg) == 0, "%s", msg);
            /* The copy is not a transpose: checked as one, it fails (the outputs are separate). */
            EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_run(w, oc.c, bound, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1);
            climb_case_close(w, &oc);
        }
    climb_opt_plan_free(&p, NULL);
}

/* Every rung over the whole edge sweep, unpadded and padded, misaligned offsets included. */
static void test_check(uint64_t seed)
{
    climb_opt_plan p;
    plan_pad(&p, "0,5");
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    printf("check seed %" PRIu64 "\n", seed);
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0 && cr.runs > 0 && cr.failures == 0 && cr.refused == 0);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Every candidate climb tune may save, on edge shapes (full and partial tiles, misaligned and padded rows). */
static void test_candidates(void)
{
    const climb_tuning *tn = w->tuning;
    climb_opt_plan p;
    plan_pad(&p, "0,1");
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    o.options = &p;
    const char *only[1] = {w->rung(climb_best_rung(w))->name};
    o.rungs = only;
    o.n_rungs = 1;
    const climb_shape edge[] = {CLIMB_SHAPE2(1, 1), CLIMB_SHAPE2(64, 64), CLIMB_SHAPE2(65, 127),
                                CLIMB_SHAPE2(200, 3), CLIMB_SHAPE2(3, 200), CLIMB_SHAPE2(257, 513)};
    o.shapes = edge;
    o.n_shapes = (int)(sizeof edge / sizeof edge[0]);
    int tried = 0;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        char buf[200], desc[200];
        climb_tuning_values(tn, i, v);
        if (climb_tuning_check(tn, &dev, v, buf, sizeof buf))
            continue;
        o.tuning = v;
        tried++;
        climb_tuning_format(tn, v, desc, sizeof desc);
        EXPECT_MSG(climb_check(w, &o, &dev, NULL) == 0, "candidate %s", desc);
    }
    printf("%d tuning candidates checked, seed %" PRIu64 "\n", tried, o.seed);
    EXPECT(tried >= 40);
    climb_opt_plan_free(&p, NULL);
}

/* The C API against the CPU: both types, odd shapes, leading dimensions larger than the rows, misaligned
 * pointers, and the argument checks (which leave out untouched). */
static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const struct {
        size_t rows, cols, pad_in, pad_out, off;
    } cases[] = {{1, 1, 0, 0, 0}, {1000, 1, 0, 0, 1}, {1, 1000, 2, 0, 0}, {33, 31, 0, 7, 3},
                 {1001, 3001, 3, 1, 1}, {512, 256, 0, 0, 0}};
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int t = CLIMB_F32; t <= CLIMB_F64; t++) {
            const size_t rows = cases[k].rows, cols = cases[k].cols, ld_in = cols + cases[k].pad_in,
                         ld_out = rows + cases[k].pad_out, es = climb_dtype_size((climb_dtype)t), off = cases[k].off;
            const size_t in_bytes = rows * ld_in * es, out_bytes = cols * ld_out * es;
            char *h_in = malloc(in_bytes), *h_out = malloc(out_bytes), *want = malloc(out_bytes), *d_in, *d_out;
            climb_rng_fill(&r, (climb_dtype)t, h_in, rows * ld_in, -100, 100);
            memset(want, 0x5A, out_bytes); /* the padding stays as poisoned */
            climb_transpose_ref(h_in, ld_in, want, ld_out, rows, cols, es);
            EXPECT(cudaMalloc((void **)&d_in, in_bytes + off * es) == cudaSuccess);
            EXPECT(cudaMalloc((void **)&d_out, out_bytes + off * es) == cudaSuccess);
            EXPECT(cudaMemcpy(d_in + off * es, h_in, in_bytes, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(cudaMemset(d_out + off * es, 0x5A, out_bytes) == cudaSuccess);
            climb_status st = t == CLIMB_F32 ? climb_transpose_f32(h, rows, cols, (const float *)(d_in + off * es), ld_in,
                                                                   (float *)(d_out + off * es), ld_out)
                                             : climb_transpose_f64(h, rows, cols, (const double *)(d_in + off * es),
                                                                   ld_in, (double *)(d_out + off * es), ld_out);
            EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s", climb_status_string(st));
            EXPECT(cudaMemcpy(h_out, d_out + off * es, out_bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(h_out, want, out_bytes) == 0, "API %zu x %zu %s (ld %zu, %zu, offset %zu)", rows, cols,
                       climb_dtype_name((climb_dtype)t), ld_in, ld_out, off);
            if (k == 3) { /* argument checks on this case: nothing is written */
                float *fi = (float *)(d_in + off * es), *fo = (float *)(d_out + off * es);
                double *di = (double *)(d_in + off * es), *dout = (double *)(d_out + off * es);
                EXPECT(cudaMemset(d_out, 0x5A, out_bytes + off * es) == cudaSuccess);
                if (t == CLIMB_F32) {
                    EXPECT(climb_transpose_f32(NULL, rows, cols, fi, ld_in, fo, ld_out) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f32(h, rows, cols, fi, cols - 1, fo, ld_out) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f32(h, rows, cols, fi, ld_in, fo, rows - 1) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f32(h, rows, cols, fi, ld_in, fi + 1, ld_out) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f32(h, rows, cols, (const float *)h_in, ld_in, fo, ld_out) ==
                           CLIMB_STATUS_INVALID_VALUE);
                    /* empty: the pointers are not looked at, the leading dimensions are (climb.h's order) */
                    EXPECT(climb_transpose_f32(h, 0, cols, NULL, cols, NULL, 0) == CLIMB_STATUS_SUCCESS);
                    EXPECT(climb_transpose_f32(h, 0, cols, NULL, 0, NULL, 0) == CLIMB_STATUS_INVALID_VALUE);
                } else {
                    EXPECT(climb_transpose_f64(h, rows, cols, di, ld_in, di, ld_out) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f64(h, rows, cols, di, ld_in, dout, 0) == CLIMB_STATUS_INVALID_VALUE);
                    EXPECT(climb_transpose_f64(h, rows, 0, NULL, 0, NULL, rows) == CLIMB_STATUS_SUCCESS);
                    EXPECT(climb_transpose_f64(h, rows, 0, NULL, 0, NULL, 0) == CLIMB_STATUS_INVALID_VALUE);
                }
                EXPECT(cudaDeviceSynchronize() == cudaSuccess);
                char *after = malloc(out_bytes + off * es), *poison = malloc(out_bytes + off * es);
                memset(poison, 0x5A, out_bytes + off * es);
                EXPECT(cudaMemcpy(after, d_out, out_bytes + off * es, cudaMemcpyDeviceToHost) == cudaSuccess);
                EXPECT(memcmp(after, poison, out_bytes + off * es) == 0);
                free(after);
                free(poison);
            }
            cudaFree(d_in);
            cudaFree(d_out);
            free(h_in);
            free(h_out);
            free(want);
        }
    char line[700];
    int from;
    EXPECT(climb_get_tuning(h, "transpose", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS && strstr(line, "tile="));
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_failures_and_modes();
    test_check(20261122);
    test_check(climb_fresh_seed());
    test_candidates();
    test_api();
    EXPECT(api_test_workload(&api_workload_transpose) == 0);
    return test_finish("test_gpu_transpose");
}
