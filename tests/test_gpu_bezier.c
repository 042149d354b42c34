/* GPU: every Bezier rung over the check sizes (0, 1, a few, around a warp, a scan block and a flat tile, several
 * tiles) for every curve set and three maxima (4: every curve at the minimum; 32, the default; 100, not a multiple
 * of a warp), each count, offset and point checked from poisoned outputs; every rung's poisoned output fails; the
 * dynamic-parallelism rung's refusal past its curve limit. */
#include <string.h>

#include "core/rng.h"
#include "device/device.h"
#include "core/harness.h"
#include "workloads/bezier/bezier.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_bezier_workload;
static climb_device_info dev;

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "skewed", NULL);
        test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE1(5000), "curve 0");
        climb_opt_plan_free(&p, NULL);
    }
    const uint64_t fresh = climb_fresh_seed();
    const char *maxima[] = {"4", "32", "100"};
    for (int m = 0; m < 3; m++) {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "all", "max_points", maxima[m], NULL);
        char what[60];
        snprintf(what, sizeof what, "curves=all max_points=%s", maxima[m]);
        test_check_plan(w, &dev, &p, fresh + (uint64_t)m, 0, what);
        climb_opt_plan_free(&p, NULL);
    }
    /* past the dynamic-parallelism rung's limit it refuses, and the others still run */
    {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "straight", "max_points", "4", NULL);
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = fresh;
        o.options = &p;
        const climb_shape big[] = {CLIMB_SHAPE1(CLIMB_BEZIER_DP_MAX_CURVES + 1)};
        o.shapes = big;
        o.n_shapes = 1;
        climb_check_result cr;
        EXPECT(climb_check(w, &o, &dev, &cr) == 0);
        EXPECT_MSG(cr.failures == 0 && cr.refused == 1 && cr.runs > 0, "past the limit: %ld runs, %d failures, %ld refused",
                   cr.runs, cr.failures, cr.refused);
        climb_check_result_free(&cr);
        climb_opt_plan_free(&p, NULL);
    }
    return test_finish("test_gpu_bezier");
}
