/* What a workload's GPU test repeats, once: the option plan it runs cases with (every option at its default, then
 * the listed ones set by name), `climb check` over the check shapes with that plan, and every rung run from a
 * poisoned output. */
#ifndef CLIMB_TESTS_TEST_PLAN_H
#define CLIMB_TESTS_TEST_PLAN_H

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "core/options.h"
#include "core/workload.h"
#include "testing.h"

/* NAME, VALUE pairs after w, then NULL: test_plan(&p, w, "bins", "256", "dist", "all", NULL). An unknown name
 * or a value the option refuses is a failed check, with why. Free with climb_opt_plan_free. */
static inline void test_plan(climb_opt_plan *p, const climb_workload *w, ...)
{
    char err[300] = "";
    EXPECT_MSG(climb_opt_plan_init(p, w->options, w->n_options, err, sizeof err) == 0, "%s", err);
    va_list ap;
    va_start(ap, w);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        const char *value = va_arg(ap, const char *);
        const int k = climb_opt_find(w->options, w->n_options, name);
        EXPECT_MSG(k >= 0 && climb_opt_plan_set(p, k, value, 0, err, sizeof err) == 0, "%s=%s: %s", name, value,
                   k >= 0 ? err : "no such option");
    }
    va_end(ap);
}

/* `climb check` of w over its check shapes with plan p and seed, the rungs named (n of them; none: all), the best
 * rung's tuning values `tuning` for every case (NULL: its classes' defaults): every run right, and none refused
 * unless allow_refused. `what` names the plan in the failure message and the progress line. */
static inline void test_check_rungs(const climb_workload *w, const climb_device_info *dev, climb_opt_plan *p,
                                    uint64_t seed, const char *const *rungs, int n, const int *tuning,
                                    int allow_refused, const char *what)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = p;
    o.rungs = rungs;
    o.n_rungs = n;
    o.tuning = tuning;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && (allow_refused || cr.refused == 0),
               "%s %s: %ld runs, %d failures, %ld refused", w->name, what, cr.runs, cr.failures, cr.refused);
    printf("%s %s: %ld runs, %ld refused, seed %" PRIu64 "\n", w->name, what, cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
}

/* The same over every rung. */
static inline void test_check_plan(const climb_workload *w, const climb_device_info *dev, climb_opt_plan *p,
                                   uint64_t seed, int allow_refused, const char *what)
{
    test_check_rungs(w, dev, p, seed, NULL, 0, NULL, allow_refused, what);
}

/* The best rung of w on one case (key, plan p, inputs from `seed`): a poisoned output fails verification, naming
 * `first` (the first wrong element), and after the rung's run it passes. */
static inline void test_poison_best(const climb_workload *w, const climb_device_info *dev, climb_opt_plan *p,
                                    climb_case_key k, uint64_t seed, const char *first)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, p, &k, 0, dev, 0, &oc) == 0);
    const int best = climb_best_rung(w);
    char msg[400];
    EXPECT(climb_case_poison(w, oc.c) == 0);
    EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1 && strstr(msg, first), "%s", msg);
    EXPECT(climb_case_prepare(w, oc.c, best) == 0 && climb_case_run(w, oc.c, best, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
    climb_case_close(w, &oc);
}

/* Every rung of w that takes one case (shape, plan p; f32, or the first type w takes without it): a poisoned
 * output fails verification, naming the element `first` ("out[0][0]"), and after the rung's run it passes; what
 * prepare built is released. A rung that refuses the case is passed over; at least one must take it. */
static inline void test_poison_every_rung(const climb_workload *w, const climb_device_info *dev, climb_opt_plan *p,
                                          climb_shape shape, const char *first)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 4;
    climb_dtype t = CLIMB_F32;
    for (int k = 0; !(w->types & CLIMB_TYPE_BIT(t)) && k < 32; k++)
        if (w->types & CLIMB_TYPE_BIT(k))
            t = (climb_dtype)k;
    climb_case_key k = {t, shape, 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, p, &k, 0, dev, 0, &oc) == 0);
    char msg[400];
    int ran = 0;
    for (int r = 0; r < w->n_rungs; r++) {
        if (climb_case_refuses(w, oc.c, r)) /* a rung that refuses this shape says so; the rest must run it */
            continue;
        ran++;
        EXPECT(climb_case_poison(w, oc.c) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1 && strstr(msg, first), "%s: %s", w->rung(r)->name, msg);
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_run(w, oc.c, r, 0) == 0 &&
               cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s: %s", w->rung(r)->name, msg);
        climb_case_release(w, oc.c, r);
    }
    EXPECT_MSG(ran > 0, "%s: every rung refused the case", w->name);
    climb_case_close(w, &oc);
}

/* Sets the FILE option `name` of plan p to path and loads the file as the CLI does (w->load); the loaded value,
 * its description in desc. A failure is a failed check. */
static inline climb_opt_value *test_plan_input(climb_opt_plan *p, const climb_workload *w, const char *name,
                                               const char *path, char *desc, size_t desclen)
{
    char err[400] = "";
    const int k = climb_opt_find(w->options, w->n_options, name);
    EXPECT(k >= 0 && climb_opt_plan_set(p, k, path, 0, err, sizeof err) == 0);
    if (k < 0)
        return NULL;
    climb_opt_value *v = &p->values[k][0];
    EXPECT_MSG(w->load(v->text, &v->data, &v->shape, desc, desclen, err, sizeof err) == 0, "%s", err);
    v->desc = strdup(desc);
    return v;
}

/* `climb bench` of w with plan p, a few short samples a rung, writing the output to `out` (--output): the bench
 * succeeds and, with every_row_ok, every row is right. */
static inline void test_bench_output(const climb_workload *w, const climb_device_info *dev, climb_opt_plan *p,
                                     const char *out, int every_row_ok)
{
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)dev->l2_bytes) == 0);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 5;
    o.timing = climb_timing_defaults();
    o.timing.min_samples = 3;
    o.timing.max_wall_s = 0.05;
    o.options = p;
    o.output = out;
    climb_report rep;
    climb_report_init(&rep, "bench", 5, 0, dev);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    for (int i = 0; every_row_ok && i < rep.n_rows; i++)
        EXPECT_MSG(rep.rows[i].status == CLIMB_ROW_OK, "%s: %s", w->rung(rep.rows[i].rung)->name, rep.rows[i].note);
    climb_report_free(&rep);
    climb_timer_free(&t);
}

/* The first n of the machine's count GPUs as the set a case spans, devs their facts (the first queried last, so
 * that it is current). */
static inline void test_use_gpus(int n, int count, climb_device_set *set, climb_device_info *devs)
{
    char why[200];
    EXPECT_MSG(climb_device_set_first(n, count, set, why, sizeof why) == 0, "%s", why);
    for (int i = set->n - 1; i >= 0; i--)
        EXPECT(climb_device_query(set->id[i], &devs[i]) == 0);
}

/* For a workload spanning GPUs from one: on(n, count) on one GPU, on every GPU here, and on three where there are
 * three or more (count: the machine's GPUs, at most CLIMB_MAX_DEVICES). */
static inline void test_on_gpu_counts(void (*on)(int n, int count))
{
    int count = 0;
    EXPECT(cudaGetDeviceCount(&count) == cudaSuccess);
    if (count > CLIMB_MAX_DEVICES)
        count = CLIMB_MAX_DEVICES;
    on(1, count);
    if (count >= 2)
        on(count, count);
    if (count >= 3)
        on(3, count);
}

/* `climb check` of w over its check shapes on the GPUs of `set` (devs their facts), plan p, seed, reference mode:
 * every run right (a rung may refuse, saying why: the report counts them). `what` names the plan. */
static inline void test_check_gpus(const climb_workload *w, climb_device_info *devs, climb_device_set *set,
                                 climb_opt_plan *p, uint64_t seed, climb_ref_mode mode, const char *what)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = p;
    o.devices = set;
    o.devs = devs;
    o.reference = mode;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &devs[0], &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%s on %d GPUs, %s, reference %d: %ld runs, %d failures", w->name,
               set->n, what, (int)mode, cr.runs, cr.failures);
    printf("check %s on %d GPUs, %s, reference %d: %ld runs, %ld refused, seed %" PRIu64 "\n", w->name, set->n, what,
           (int)mode, cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
}

/* Every rung of w on one case (key, plan p, inputs from `seed`) spanning the GPUs of `set` (devs their facts): a
 * poisoned output fails verification, and after the rung's run it passes; what prepare built is released; the
 * set's first GPU is current after each. A rung may refuse only saying `may_refuse` (NCCL's absence). `what`
 * names the case in a failure. */
static inline void test_poison_rungs_on(const climb_workload *w, climb_device_info *devs, climb_device_set *set,
                                        climb_opt_plan *p, climb_case_key k, uint64_t seed, const char *may_refuse,
                                        const char *what)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = p;
    o.devices = set;
    o.devs = devs;
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, p, &k, 0, &devs[0], 0, &oc) == 0);
    for (int r = 0; oc.c && r < w->n_rungs; r++) {
        char msg[400];
        const char *why = climb_case_refuses(w, oc.c, r);
        if (why) {
            printf("%s refused: %s\n", w->rung(r)->name, why);
            EXPECT_MSG(strstr(why, may_refuse), "%s %s: %s", what, w->rung(r)->name, why);
            continue;
        }
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "%s %s: an unwritten output passed", what,
                   w->rung(r)->name);
        EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s on %d GPUs, %s: %s", what, set->n,
                   w->rung(r)->name, msg);
        climb_case_release(w, oc.c, r);
        int cur = -1;
        EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == set->id[0]); /* the run's device current again */
    }
    climb_case_close(w, &oc);
}

#endif
