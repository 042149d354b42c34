/* GPU: every scan rung, inclusive and exclusive, i32 and f32, over the edge sizes with misaligned arrays (each run
 * from a poisoned output), for a fixed seed and a fresh one; proof that an output nobody wrote fails; CUB as the
 * reference; the C API (in place, misaligned, on the caller's stream, overlap refused); and the best rung across
 * the wrap of its flags' epochs, where stale flags would otherwise be read as fresh. */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/scan/scan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct scan_job {
    api_job base;
    int f32, exclusive; /* f32, else i32 */
    size_t n;
} scan_job;

static int scan_sizes(api_job *b)
{
    const scan_job *j = (const scan_job *)b;
    b->a_bytes = b->out_bytes = j->n * 4;
    return 0;
}

static int scan_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const scan_job *j = (const scan_job *)b;
    if (j->f32)
        climb_rng_fill_f32(r, b->h_a, j->n, -1.0f, 1.0f);
    else
        climb_rng_fill_i32(r, b->h_a, j->n, -1000, 1000);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status scan_call(api_job *b, climb_handle h)
{
    const scan_job *j = (const scan_job *)b;
    if (j->f32)
        return j->exclusive ? climb_scan_exclusive_f32(h, b->d_a, j->n, b->d_out)
                            : climb_scan_inclusive_f32(h, b->d_a, j->n, b->d_out);
    return j->exclusive ? climb_scan_exclusive_i32(h, b->d_a, j->n, b->d_out)
                        : climb_scan_inclusive_i32(h, b->d_a, j->n, b->d_out);
}

static void scan_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const scan_job *j = (const scan_job *)b;
    if (j->f32) {
        double *want = malloc(j->n * 8 + 8);
        float *absp = malloc(j->n * 4 + 4);
        if (!want || !absp)
            api_mismatch_note(m, 0, 0, 1);
        else {
            climb_scan_ref_f32(b->h_a, j->n, j->exclusive, want, absp);
            for (size_t i = 0; i < j->n; i++) {
                const float g = ((const float *)got)[i];
                if (!(fabs(g - want[i]) <= climb_scan_tol_f32(absp[i], climb_scan_depth(i, 512))))
                    api_mismatch_note(m, i, g, want[i]);
            }
        }
        free(want);
        free(absp);
    } else {
        int32_t *want = malloc(j->n * 4 + 4);
        if (!want) {
            api_mismatch_note(m, 0, 0, 1);
            return;
        }
        climb_scan_ref_i32(b->h_a, j->n, j->exclusive, want);
        for (size_t i = 0; i < j->n; i++)
            if (((const int32_t *)got)[i] != want[i])
                api_mismatch_note(m, i, ((const int32_t *)got)[i], want[i]);
        free(want);
    }
}

static const api_job_ops scan_ops = {.sizes = scan_sizes, .fill = scan_fill, .call = scan_call, .check = scan_check};

static api_job *scan_job_of(int f32, int exclusive, size_t n)
{
    scan_job *j = api_job_new(sizeof *j, &scan_ops);
    if (!j)
        return NULL;
    j->f32 = f32;
    j->exclusive = exclusive;
    j->n = n;
    snprintf(j->base.label, sizeof j->base.label, "climb_scan_%s_%s n=%zu", exclusive ? "exclusive" : "inclusive",
             f32 ? "f32" : "i32", n);
    return &j->base;
}

static int scan_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    const size_t big = ((size_t)1 << 22) + 3;
    if (cap < 4)
        return -1;
    if (set == API_CAPTURE) {
        out[0] = scan_job_of(0, 0, big);
        out[1] = scan_job_of(1, 0, big);
        out[2] = scan_job_of(0, 1, 1000003);
        out[3] = scan_job_of(1, 1, 1000003);
        return 4;
    }
    out[0] = scan_job_of(0, 0, 20011);
    out[1] = scan_job_of(1, 1, 70001 + (size_t)id);
    return 2;
}

const api_workload api_workload_scan = {.name = "scan", .jobs = scan_jobs};

static const climb_workload *w = &climb_scan_workload;
static climb_device_info dev;

static void test_check(uint64_t seed)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 0, "%ld runs, %d failures, %ld refused", cr.runs,
               cr.failures, cr.refused);
    printf("check: %ld runs, seed %" PRIu64 "\n", cr.runs, seed);
    climb_check_result_free(&cr);
}

static void test_poison_and_vendor(void)
{
    climb_opt_plan plan;
    char err[200];
    EXPECT(climb_opt_plan_init(&plan, w->options, w->n_options, err, sizeof err) == 0);
    const int best = climb_best_rung(w);
    for (int t = 0; t < 2; t++) {
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 11;
        climb_case_key k = {t ? CLIMB_F32 : CLIMB_I32, CLIMB_SHAPE1(100003), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &plan, &k, 0, &dev, 0, &oc) == 0);
        char msg[400];
        EXPECT(climb_case_prepare(w, oc.c, best) == 0 && climb_case_poison(w, oc.c) == 0);
        EXPECT(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1 && strstr(msg, "of 100003 elements wrong"));
        EXPECT(climb_case_run(w, oc.c, best, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
        /* A copy of the input is not a scan: the bound's output fails the scan's check. */
        const int bound = climb_bound_rung(w);
        EXPECT(climb_case_run(w, oc.c, bound, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT(climb_case_verify(w, oc.c, bound, msg, sizeof msg) == 0);
        EXPECT(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1);
        climb_case_close(w, &oc);
        o.reference = CLIMB_REF_VENDOR;
        EXPECT(climb_case_open(w, &o, &plan, &k, 0, &dev, 0, &oc) == 0);
        EXPECT_MSG(!oc.ref_failed && strstr(oc.reference, "cub_device_scan agrees"), "%s", oc.reference);
        climb_case_close(w, &oc);
    }
    climb_opt_plan_free(&plan, NULL);
}

/* Each output of the API against the CPU: i32 exactly, f32 within the best rung's bound. */
static int expect_scan(const void *h_in, const void *d_out, size_t n, int f32, int exclusive, const char *label)
{
    void *got = malloc(n * 4 + 4);
    EXPECT(cudaMemcpy(got, d_out, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    if (!f32) {
        int32_t *want = malloc(n * 4 + 4);
        climb_scan_ref_i32(h_in, n, exclusive, want);
        for (size_t i = 0; i < n; i++)
            bad += ((int32_t *)got)[i] != want[i];
        free(want);
    } else {
        double *want = malloc(n * 8 + 8);
        float *abs_prefix = malloc(n * 4 + 4);
        climb_scan_ref_f32(h_in, n, exclusive, want, abs_prefix);
        for (size_t i = 0; i < n; i++)
            bad += !(fabs(((float *)got)[i] - want[i]) <= climb_scan_tol_f32(abs_prefix[i], climb_scan_depth(i, 512)));
        free(want);
        free(abs_prefix);
    }
    EXPECT_MSG(bad == 0, "%s n=%zu %s %s: %zu wrong", label, n, f32 ? "f32" : "i32",
               exclusive ? "exclusive" : "inclusive", bad);
    free(got);
    return bad == 0;
}

static void test_api(void)
{
    static const size_t sizes[] = {1, 2, 31, 4095, 4096, 4097, 65537, 1000003, ((size_t)1 << 22) + 5};
    const size_t max_n = ((size_t)1 << 22) + 5 + 4;
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == cudaSuccess);
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    void *h_in = malloc(max_n * 4), *d_in, *d_out;
    EXPECT(cudaMalloc(&d_in, max_n * 4) == cudaSuccess && cudaMalloc(&d_out, max_n * 4) == cudaSuccess);
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t n = sizes[k];
        for (int f32 = 0; f32 < 2; f32++)
            for (int ex = 0; ex < 2; ex++)
                for (unsigned off = 0; off < 3; off++) {
                    if (f32)
                        climb_rng_fill_f32(&rng, h_in, n, -1.0f, 1.0f);
                    else
                        climb_rng_fill_i32(&rng, h_in, n, INT32_MIN, INT32_MAX);
                    char *in = (char *)d_in + 4 * off, *out = (char *)d_out + 4 * (2 - off);
                    EXPECT(cudaMemcpy(in, h_in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
                    EXPECT(cudaMemset(out, 0xFF, n * 4) == cudaSuccess);
                    climb_status st;
                    if (f32)
                        st = ex ? climb_scan_exclusive_f32(h, (const float *)in, n, (float *)out)
                                : climb_scan_inclusive_f32(h, (const float *)in, n, (float *)out);
                    else
                        st = ex ? climb_scan_exclusive_i32(h, (const int32_t *)in, n, (int32_t *)out)
                                : climb_scan_inclusive_i32(h, (const int32_t *)in, n, (int32_t *)out);
                    EXPECT(st == CLIMB_STATUS_SUCCESS && cudaStreamSynchronize(s) == cudaSuccess);
                    expect_scan(h_in, out, n, f32, ex, "api");
                    /* In place, the same arrays again. */
                    if (f32)
                        st = ex ? climb_scan_exclusive_f32(h, (const float *)in, n, (float *)in)
                                : climb_scan_inclusive_f32(h, (const float *)in, n, (float *)in);
                    else
                        st = ex ? climb_scan_exclusive_i32(h, (const int32_t *)in, n, (int32_t *)in)
                                : climb_scan_inclusive_i32(h, (const int32_t *)in, n, (int32_t *)in);
                    EXPECT(st == CLIMB_STATUS_SUCCESS && cudaStreamSynchronize(s) == cudaSuccess);
                    expect_scan(h_in, in, n, f32, ex, "api in place");
                }
    }
    /* Refusals: overlapping arrays, a host pointer, a NULL handle; n = 0 touches nothing. */
    EXPECT(climb_scan_inclusive_i32(h, (const int32_t *)d_in, 100, (int32_t *)d_in + 1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_scan_inclusive_f32(h, (const float *)h_in, 100, (float *)d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_scan_exclusive_i32(NULL, (const int32_t *)d_in, 100, (int32_t *)d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_scan_exclusive_f32(h, NULL, 0, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamDestroy(s) == cudaSuccess);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
}

/* Calls across the wrap of the epochs: a large scan leaves flags for many tiles; small and large calls follow
 * through the wrap; each is right, and the counter is back at a small epoch. */
static void test_epoch_wrap(void)
{
    const size_t big = 3000000, sizes[] = {big, 5000, 1, big, 70000, big};
    climb_scan_tuning tn = {256, 8}; /* the smallest tile: the most flags */
    const size_t ws_bytes = climb_scan_best_workspace(&tn, big);
    void *ws, *d_in, *d_out, *h_in = malloc(big * 4);
    EXPECT(cudaMalloc(&ws, ws_bytes) == cudaSuccess && cudaMemset(ws, 0, ws_bytes) == cudaSuccess);
    EXPECT(cudaMalloc(&d_in, big * 4) == cudaSuccess && cudaMalloc(&d_out, big * 4) == cudaSuccess);
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    EXPECT(climb_scan_best(&tn, CLIMB_I32, 0, d_in, d_out, 100, ws, ws_bytes, 0) == cudaSuccess); /* epoch 0 flags */
    EXPECT(climb_scan_best_set_epoch(ws, climb_scan_epochs() - 3) == cudaSuccess);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t n = sizes[k];
        climb_rng_fill_i32(&rng, h_in, n, INT32_MIN, INT32_MAX);
        EXPECT(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(d_out, 0xFF, n * 4) == cudaSuccess);
        EXPECT(climb_scan_best(&tn, CLIMB_I32, (int)(k & 1), d_in, d_out, n, ws, ws_bytes, 0) == cudaSuccess);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
        char label[64];
        snprintf(label, sizeof label, "epoch wrap, call %zu", k);
        expect_scan(h_in, d_out, n, 0, (int)(k & 1), label);
    }
    unsigned long long word = 0;
    EXPECT(cudaMemcpy(&word, ws, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    EXPECT_MSG(word == (unsigned long long)3 << 32, "ticket word after the wrap: %#llx", word);
    cudaFree(ws);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
}

/* Every tuning candidate (what climb tune may save as wisdom) is right on edge sizes, misaligned too. */
static void test_candidates(void)
{
    const climb_tuning *tn = w->tuning;
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    const char *only[1] = {w->rung(climb_best_rung(w))->name};
    o.rungs = only;
    o.n_rungs = 1;
    const climb_shape edge[] = {CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2047),   CLIMB_SHAPE1(2049),
                                CLIMB_SHAPE1(16385), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
    o.shapes = edge;
    o.n_shapes = (int)(sizeof edge / sizeof edge[0]);
    int tried = 0;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        char buf[200], desc[200];
        climb_tuning_values(tn, i, v);
        EXPECT(climb_tuning_check(tn, &dev, v, buf, sizeof buf) == NULL);
        o.tuning = v;
        tried++;
        climb_tuning_format(tn, v, desc, sizeof desc);
        EXPECT_MSG(climb_check(w, &o, &dev, NULL) == 0, "candidate %s", desc);
    }
    printf("%d tuning candidates checked, seed %" PRIu64 "\n", tried, o.seed);
    EXPECT(tried == 6);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poison_and_vendor();
    test_epoch_wrap();
    test_api();
    test_candidates();
    test_check(20261122);
    test_check(climb_fresh_seed());
    EXPECT(api_test_workload(&api_workload_scan) == 0);
    /* A used handle whose workspace must grow inside a capture: a larger n. */
    {
        climb_rng r;
        climb_rng_seed(&r, climb_fresh_seed());
        EXPECT(api_test_growth(scan_job_of(1, 0, 5000), scan_job_of(1, 0, ((size_t)1 << 24) + 7), &r) == 0);
    }
    return test_finish("test_gpu_scan");
}
