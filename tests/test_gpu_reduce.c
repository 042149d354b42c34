/* GPU: every reduction rung over the edge-size sweep (misaligned inputs included, each run twice from poisoned
 * outputs), for a fixed seed and a fresh one; every tuning candidate of the best rung on edge sizes; proof that
 * the check can fail; and climb_reduce_sum_f32 and _i32 captured as a handle's first call and from eight threads
 * (tests/api_jobs.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/reduce/reduce.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct reduce_job {
    api_job base;
    int f32; /* else i32 */
    size_t n;
} reduce_job;

static int reduce_sizes(api_job *b)
{
    reduce_job *j = (reduce_job *)b;
    b->a_bytes = j->n * 4;
    b->out_bytes = 4;
    return 0;
}

static int reduce_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    reduce_job *j = (reduce_job *)b;
    if (j->f32)
        climb_rng_fill_f32(r, b->h_a, j->n, -1.0f, 1.0f);
    else
        climb_rng_fill_i32(r, b->h_a, j->n, INT32_MIN, INT32_MAX);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status reduce_call(api_job *b, climb_handle h)
{
    reduce_job *j = (reduce_job *)b;
    return j->f32 ? climb_reduce_sum_f32(h, b->d_a, j->n, b->d_out) : climb_reduce_sum_i32(h, b->d_a, j->n, b->d_out);
}

static void reduce_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const reduce_job *j = (const reduce_job *)b;
    if (j->f32) {
        double abs_sum, want = climb_reduce_ref_f32(b->h_a, j->n, &abs_sum);
        const float g = *(const float *)got;
        if (!(fabs(g - want) <= climb_reduce_tol_f32(j->n, abs_sum)))
            api_mismatch_note(m, 0, g, want);
    } else {
        const int32_t want = climb_reduce_ref_i32(b->h_a, j->n), g = *(const int32_t *)got;
        if (g != want)
            api_mismatch_note(m, 0, g, want);
    }
}

static const api_job_ops reduce_ops = {
    .sizes = reduce_sizes, .fill = reduce_fill, .call = reduce_call, .check = reduce_check};

static api_job *reduce_job_of(int f32, size_t n)
{
    reduce_job *j = api_job_new(sizeof *j, &reduce_ops);
    if (!j)
        return NULL;
    j->f32 = f32;
    j->n = n;
    snprintf(j->base.label, sizeof j->base.label, "climb_reduce_sum_%s n=%zu", f32 ? "f32" : "i32", n);
    return &j->base;
}

static int reduce_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    const size_t big = ((size_t)1 << 22) + 3;
    if (cap < 2)
        return -1;
    if (set == API_CAPTURE) {
        out[0] = reduce_job_of(0, big);
        out[1] = reduce_job_of(1, big);
    } else {
        out[0] = reduce_job_of(0, 10007 + (size_t)id);
        out[1] = reduce_job_of(1, 30011);
    }
    return 2;
}

const api_workload api_workload_reduce = {.name = "reduce", .jobs = reduce_jobs};

int main(void)
{
    test_require_gpu();
    climb_device_info d;
    EXPECT(climb_device_query(0, &d) == 0);
    const climb_workload *w = &climb_reduce_workload;
    const int best = climb_best_rung(w);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    climb_opt_plan plan;
    char err[200];
    EXPECT(climb_opt_plan_init(&plan, w->options, w->n_options, err, sizeof err) == 0);

    /* An output nobody wrote must fail verification (poison is never the right answer)... */
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        if (!(w->types & CLIMB_TYPE_BIT(t)))
            continue;
        climb_case_key k = {(climb_dtype)t, CLIMB_SHAPE1(1000), 0};
        climb_open_case oc;
        o.seed = 5;
        EXPECT(climb_case_open(w, &o, &plan, &k, 0, &d, 0, &oc) == 0);
        EXPECT(strstr(oc.reference, "CPU sum") != NULL);
        char msg[256];
        EXPECT(climb_case_poison(w, oc.c) == 0);
        EXPECT(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1);
        /* ...and the same case passes once a rung has run. */
        EXPECT(climb_case_prepare(w, oc.c, best) == 0);
        EXPECT(climb_case_run(w, oc.c, best, 0) == 0);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
        climb_case_close(w, &oc);
        /* The vendor as the reference: CUB's sum checked against the CPU's. */
        o.reference = CLIMB_REF_VENDOR;
        EXPECT(climb_case_open(w, &o, &plan, &k, 0, &d, 0, &oc) == 0);
        EXPECT_MSG(!oc.ref_failed && strstr(oc.reference, "cub_device_reduce agrees"), "%s", oc.reference);
        climb_case_close(w, &oc);
        o.reference = CLIMB_REF_AUTO;
    }

    /* A size no machine holds: a clear refusal (printed), no crash, and the device still works after. */
    {
        climb_case_key k = {CLIMB_I32, CLIMB_SHAPE1((size_t)1 << 40), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &plan, &k, 0, &d, 0, &oc) == -1);
        EXPECT(oc.c == NULL);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    }
    climb_opt_plan_free(&plan, NULL);

    uint64_t seeds[2] = {20261122, climb_fresh_seed()};
    for (int k = 0; k < 2; k++) {
        o.seed = seeds[k];
        printf("seed %" PRIu64 "\n", o.seed);
        {
            climb_check_result cr;
            EXPECT(climb_check(w, &o, &d, &cr) == 0 && cr.runs > 0 && cr.failures == 0 && cr.n_failed == 0);
            climb_check_result_free(&cr);
        }
    }

    /* Every tuning candidate of the best rung (what climb tune may save as wisdom) is right on edge sizes and
     * misaligned inputs, not only on the sizes it was timed on. */
    const climb_tuning *tn = w->tuning;
    climb_run_opts ot;
    memset(&ot, 0, sizeof ot);
    ot.seed = climb_fresh_seed();
    const char *only[1] = {w->rung(best)->name};
    ot.rungs = only;
    ot.n_rungs = 1;
    const climb_shape edge[] = {CLIMB_SHAPE1(0), CLIMB_SHAPE1(1), CLIMB_SHAPE1(3), CLIMB_SHAPE1(4097),
                                CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
    ot.shapes = edge;
    ot.n_shapes = (int)(sizeof edge / sizeof edge[0]);
    int tried = 0;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        char buf[200];
        climb_tuning_values(tn, i, v);
        if (climb_tuning_check(tn, &d, v, buf, sizeof buf))
            continue;
        ot.tuning = v;
        tried++;
        char desc[200];
        climb_tuning_format(tn, v, desc, sizeof desc);
        EXPECT_MSG(climb_check(w, &ot, &d, NULL) == 0, "candidate %s", desc);
    }
    printf("%d tuning candidates checked, seed %" PRIu64 "\n", tried, ot.seed);
    EXPECT(tried >= 40);

    EXPECT(api_test_workload(&api_workload_reduce) == 0);
    return test_finish("test_gpu_reduce");
}
