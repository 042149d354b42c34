/* The shared tests of the collectives across GPUs (collective_tests.h). */
#include "collective_tests.h"

#include <inttypes.h>
#include <string.h>

#include "base/rng.h"
#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "testing.h"

int test_collective_table(const climb_workload *w, const char *bytes_formula)
{
    const int before = test_failures;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);
    EXPECT(climb_spans_devices(w) && w->min_devices == 2 && w->max_devices >= 8);
    EXPECT(w->items_unit && strstr(w->items_unit, "bus") && strstr(w->bytes_counted, bytes_formula));
    EXPECT(w->types == (CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32)));
    EXPECT(w->tuning && w->tuning->n_params >= 1 && w->set_tuning); /* the best rung's crossovers */
    int n = 0; /* tuned over the sizes around its candidates, not the whole bench */
    EXPECT(climb_tune_shapes(w, &n) == w->tune_shapes && n > 0 && w->tune_shapes != w->bench_shapes);
    for (int r = 0; r < w->n_rungs; r++) /* the kernels that cross links need peer access, and say so */
        if (strstr(w->rung(r)->needs, "peer access"))
            EXPECT_MSG(w->rung(r)->refuses != NULL, "%s", w->rung(r)->name);
    return test_failures - before;
}

static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

static void poisoned(const climb_workload *w, climb_dtype t, size_t n)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.devices = &set;
    o.devs = devs;
    climb_opt_plan p;
    char err[200];
    EXPECT(climb_opt_plan_init(&p, w->options, w->n_options, err, sizeof err) == 0);
    climb_case_key k = {t, CLIMB_SHAPE1(n), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &devs[0], 0, &oc) == 0);
    for (int r = 0; oc.c && r < w->n_rungs; r++) {
        char msg[400];
        const char *why = climb_case_refuses(w, oc.c, r);
        if (why) { /* NCCL absent, or no peer access: said, and nothing else is allowed to refuse here */
            printf("%s refused: %s\n", w->rung(r)->name, why);
            EXPECT_MSG(strstr(why, "NCCL") || strstr(why, "peer access"), "%s", why);
            continue;
        }
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "%s: an unwritten output passed",
                   w->rung(r)->name);
        EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", climb_dtype_name(t),
                   w->rung(r)->name, msg);
        climb_case_release(w, oc.c, r);
        int cur = -1;
        EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == set.id[0]); /* the run's device current again */
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

static void check(const climb_workload *w, uint64_t seed)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.devices = &set;
    o.devs = devs;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &devs[0], &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%ld runs, %d failures", cr.runs, cr.failures);
    printf("check %s on %d GPUs: %ld runs, %ld refused, seed %" PRIu64 "\n", w->name, set.n, cr.runs, cr.refused,
           seed);
    climb_check_result_free(&cr);
}

int test_collective_gpu(const climb_workload *w, size_t n, const char *name)
{
    const int count = test_require_gpus(2);
    char why[200];
    EXPECT(climb_device_set_first(count < CLIMB_MAX_DEVICES ? count : CLIMB_MAX_DEVICES, count, &set, why,
                                  sizeof why) == 0);
    for (int i = set.n - 1; i >= 0; i--) /* the first queried last: current */
        EXPECT(climb_device_query(set.id[i], &devs[i]) == 0);
    poisoned(w, CLIMB_I32, n);
    poisoned(w, CLIMB_F32, n);
    check(w, 20261127);
    check(w, climb_fresh_seed());
    if (count >= 3) { /* three GPUs: a rung that takes a power of two refuses, the others run */
        EXPECT(climb_device_set_first(3, count, &set, why, sizeof why) == 0);
        check(w, climb_fresh_seed());
    }
    return test_finish(name);
}
