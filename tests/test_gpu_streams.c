/* GPU: every rung of the many-small-kernels workload over the edge counts (0 to 129 chains), independent kernels and
 * chains of three, one block and several: every thread's value exact and every kernel counted once; every rung's
 * poisoned output fails, then passes after its run. */
#include <inttypes.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/streams/streams.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_streams_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *chain, const char *blocks)
{
    climb_opt_plan p;
    test_plan(&p, w, "chain", chain, "blocks", blocks, "us", "5", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    /* the threads rung refuses above 128 chains (the 129 case): every other run must have run */
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused <= 1, "chain %s blocks %s: %ld runs, %d failures, %ld refused",
               chain, blocks, cr.runs, cr.failures, cr.refused);
    printf("chain=%s blocks=%s: %ld runs, %ld refused, seed %" PRIu64 "\n", chain, blocks, cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Every rung: poisoned values fail, naming the first; after the rung's run they pass (chains of two). */
static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "iters", "1000", "chain", "2", NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE1(5), "kernel 0 of chain 0 ran 0 times");
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "1", "1");
    test_check(fresh + 1, "3", "2");
    return test_finish("test_gpu_streams");
}
