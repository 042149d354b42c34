/* GPU: every quadtree rung over the check sizes (0, 1, a few, around a leaf, several blocks) for uniform, clustered
 * and identical points, at the default limits and at tight ones (max_depth 3, leaf_points 1; max_depth 16, leaf_points
 * 1: the depth limit where points coincide), each tree compared with the CPU build node for node from poisoned
 * outputs; every rung's poisoned output fails. */
#include <string.h>

#include "core/rng.h"
#include "device/device.h"
#include "core/harness.h"
#include "workloads/quadtree.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_quadtree_workload;
static climb_device_info dev;

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    {
        climb_opt_plan p;
        test_plan(&p, w, "points", "clustered", NULL);
        test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE1(5000), "the build reported");
        climb_opt_plan_free(&p, NULL);
    }
    const uint64_t fresh = climb_fresh_seed();
    const char *limits[][2] = {{"12", "16"}, {"3", "1"}, {"16", "1"}, {"0", "1"}};
    for (int k = 0; k < 4; k++) {
        climb_opt_plan p;
        test_plan(&p, w, "points", "all", "max_depth", limits[k][0], "leaf_points", limits[k][1], NULL);
        char what[80];
        snprintf(what, sizeof what, "points=all max_depth=%s leaf_points=%s", limits[k][0], limits[k][1]);
        test_check_plan(w, &dev, &p, fresh + (uint64_t)k, 0, what);
        climb_opt_plan_free(&p, NULL);
    }
    return test_finish("test_gpu_quadtree");
}
