/* GPU, two GPUs or more (skipped below): every reducescatter rung on every GPU here (up to 64), i32 and f32, each GPU's
 * output poisoned (an unwritten output fails), then right after a run (every element checked); climb check over
 * the edge sizes with a fixed seed and a fresh one; on three GPUs where there are three or more (pieces that
 * fall unevenly on the ring). */
#include <inttypes.h>
#include <string.h>

#include "device/device.h"
#include "device/device_set.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/reducescatter.h"
#include "testing.h"

static const climb_workload *w = &climb_reducescatter_workload;
static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

static void test_poisoned(climb_dtype t)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.devices = &set;
    o.devs = devs;
    climb_opt_plan p;
    char err[200];
    EXPECT(climb_opt_plan_init(&p, w->options, w->n_options, err, sizeof err) == 0);
    climb_case_key k = {t, CLIMB_SHAPE1(70001), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &devs[0], 0, &oc) == 0);
    for (int r = 0; oc.c && r < w->n_rungs; r++) {
        char msg[400];
        const char *why = climb_case_refuses(w, oc.c, r);
        if (why) {
            printf("%s refused: %s\n", w->rung(r)->name, why);
            EXPECT_MSG(strstr(why, "NCCL") || strstr(why, "peer access"), "%s", why);
            continue;
        }
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "%s: an unwritten output passed", w->rung(r)->name);
        EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", climb_dtype_name(t),
                   w->rung(r)->name, msg);
        climb_case_release(w, oc.c, r);
        int cur = -1;
        EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == set.id[0]);
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

static void test_check(uint64_t seed)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.devices = &set;
    o.devs = devs;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &devs[0], &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%ld runs, %d failures", cr.runs, cr.failures);
    printf("check on %d GPUs: %ld runs, %ld refused, seed %" PRIu64 "\n", set.n, cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
}

int main(void)
{
    const int n = test_require_gpus(2);
    char why[200];
    EXPECT(climb_device_set_first(n < CLIMB_MAX_DEVICES ? n : CLIMB_MAX_DEVICES, n, &set, why, sizeof why) == 0);
    for (int i = set.n - 1; i >= 0; i--) /* the first queried last: current */
        EXPECT(climb_device_query(set.id[i], &devs[i]) == 0);
    test_poisoned(CLIMB_I32);
    test_poisoned(CLIMB_F32);
    test_check(20261127);
    test_check(climb_fresh_seed());
    if (n >= 3) {
        EXPECT(climb_device_set_first(3, n, &set, why, sizeof why) == 0);
        test_check(climb_fresh_seed());
    }
    return test_finish("test_gpu_reducescatter");
}
