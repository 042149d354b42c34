/* GPU: every trapezoid rung over the edge sizes, f32 and f64, on Pacheco's interval and others (reversed, wide),
 * each result checked against the closed form within the rung's bound from a poisoned start; proof that a result
 * nobody wrote fails; the best rung repeats bit for bit. It prints each rung's value and error against the
 * integral (24 on [-3, 3]) at n = 2^20 and 2^30, the figures docs/trapezoid.md sets beside table 6.8. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "workloads/trapezoid.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_trapezoid_workload;
static climb_device_info dev;

static void plan(climb_opt_plan *p, const char *a, const char *b) { test_plan(p, w, "a", a, "b", b, NULL); }

static void test_check(const char *a, const char *b)
{
    climb_opt_plan p;
    plan(&p, a, b);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    /* n = 0 is refused by every rung (2 types), nothing else. */
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 2 * w->n_rungs,
               "[%s, %s]: %ld runs, %d failures, %ld refused", a, b, cr.runs, cr.failures, cr.refused);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Each rung's T_n and its error against the integral, poisoned first; the best rung twice (bit for bit). */
static void test_errors(void)
{
    climb_opt_plan p;
    plan(&p, "-3", "3");
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    const size_t sizes[] = {(size_t)1 << 20, (size_t)1 << 30};
    printf("%-22s %-4s %-6s %-24s %s\n", "rung", "type", "n", "T_n", "T_n - 24");
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 2; s++) {
            climb_case_key k = {t ? CLIMB_F64 : CLIMB_F32, CLIMB_SHAPE1(sizes[s]), 0};
            climb_open_case oc;
            EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
            for (int r = 0; r < w->n_rungs; r++) {
                if (climb_case_refuses(w, oc.c, r))
                    continue;
                char msg[300];
                EXPECT(climb_case_poison(w, oc.c) == 0);
                EXPECT(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1);
                EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
                EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s", msg);
                double v = 0, again = 1;
                EXPECT(climb_trap_result(oc.c, &v) == 0);
                if (w->rung(r)->kind == CLIMB_RUNG_BEST) { /* a fixed order: the same bits every run */
                    EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
                    EXPECT(climb_trap_result(oc.c, &again) == 0 && again == v);
                }
                printf("%-22s %-4s 2^%-4d %-24.17g %+.3e\n", w->rung(r)->name, t ? "f64" : "f32", s ? 30 : 20, v,
                       v - 24);
            }
            climb_case_close(w, &oc);
        }
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_errors();
    test_check("-3", "3");
    test_check("0", "1");
    test_check("2", "-5");
    test_check("-1000", "7.5");
    return test_finish("test_gpu_trapezoid");
}
