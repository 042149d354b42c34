/* GPU: BFS across GPUs on one GPU and on every GPU here (and on three where there are three or more): every rung
 * from poisoned levels on an R-MAT graph, a directed one (bottom-up through the in-edges) and a grid (deep levels),
 * and climb check over the edge sizes (empty, one vertex, fewer bitmap words than GPUs, counts that are not whole
 * words) and every graph, with a fixed and a fresh seed; every vertex's level against the CPU's. */
#include <inttypes.h>
#include <string.h>

#include "base/rng.h"
#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "workloads/bfs_gpus.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_bfs_gpus_workload;
static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

static void poisoned(climb_shape shape, const char *graph)
{
    climb_opt_plan p;
    test_plan(&p, w, "graph", graph, NULL);
    test_poison_rungs_on(w, devs, &set, &p, (climb_case_key){CLIMB_I32, shape, 0}, 8, "none", graph);
    climb_opt_plan_free(&p, NULL);
}

static void check(uint64_t seed)
{
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    test_check_gpus(w, devs, &set, &p, seed, CLIMB_REF_AUTO, "every graph");
    climb_opt_plan_free(&p, NULL);
}

static void on(int n, int count)
{
    test_use_gpus(n, count, &set, devs);
    poisoned((climb_shape)CLIMB_SHAPE1(100003), "rmat");
    poisoned((climb_shape)CLIMB_SHAPE1(65536), "rmat_directed");
    poisoned((climb_shape)CLIMB_SHAPE1(4099), "grid2d");
    check(20261128);
    check(climb_fresh_seed());
}

int main(void)
{
    test_require_gpu();
    test_on_gpu_counts(on);
    return test_finish("test_gpu_bfs_gpus");
}
