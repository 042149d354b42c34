/* GPU: every matrix-addition rung over the edge shapes, f32 and f64, unpadded and padded (ld = cols + 3), at
 * element offsets 0 to 3 (misaligned rows: the best rung's scalar path), each element checked exactly and the
 * padding checked unwritten; proof that an output nobody wrote fails. */
#include <inttypes.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/matadd.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_matadd_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *pad)
{
    climb_opt_plan p;
    test_plan(&p, w, "pad", pad, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 0, "pad %s: %ld runs, %d failures, %ld refused", pad,
               cr.runs, cr.failures, cr.refused);
    printf("pad=%s: %ld runs, seed %" PRIu64 "\n", pad, cr.runs, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "pad", "2", NULL);
    test_poison_best(w, &dev, &p, (climb_case_key){CLIMB_F32, CLIMB_SHAPE2(100, 37), 0}, 4, "C[0][0]");
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "0");
    test_check(fresh + 1, "3");
    return test_finish("test_gpu_matadd");
}
