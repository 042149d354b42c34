/* GPU: sort across GPUs on one GPU and on every GPU here (and on three where there are three or more): every rung
 * from poisoned outputs, keys and pairs, and climb check over the edge sizes (empty, fewer keys than GPUs, odd
 * sizes) and every distribution (few distinct values: ties split between GPUs) with a fixed and a fresh seed, and
 * the weak split (each GPU's keys the shape);
 * every key and value of every GPU's output against the CPU's stable sort. */
#include <inttypes.h>
#include <string.h>

#include "base/rng.h"
#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "workloads/sort_gpus.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_sort_gpus_workload;
static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

static void poisoned(climb_shape shape, const char *what, const char *dist)
{
    climb_opt_plan p;
    test_plan(&p, w, "what", what, "dist", dist, NULL);
    test_poison_rungs_on(w, devs, &set, &p, (climb_case_key){CLIMB_U32, shape, 0}, 6, "none", dist);
    climb_opt_plan_free(&p, NULL);
}

static void check(uint64_t seed, const char *what)
{
    climb_opt_plan p;
    test_plan(&p, w, "what", what, NULL);
    test_check_gpus(w, devs, &set, &p, seed, CLIMB_REF_AUTO, what);
    climb_opt_plan_free(&p, NULL);
}

static void on(int n, int count)
{
    test_use_gpus(n, count, &set, devs);
    poisoned((climb_shape)CLIMB_SHAPE1(100003), "pairs", "uniform");
    poisoned((climb_shape)CLIMB_SHAPE1(8833), "pairs", "few");
    poisoned((climb_shape)CLIMB_SHAPE1(3), "keys", "sorted");
    check(20261128, "keys");
    check(climb_fresh_seed(), "pairs");
    climb_opt_plan p; /* weak: each GPU's keys the shape */
    test_plan(&p, w, "what", "pairs", "split", "weak", NULL);
    test_poison_rungs_on(w, devs, &set, &p, (climb_case_key){CLIMB_U32, CLIMB_SHAPE1(4099), 0}, 7, "none", "weak");
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    test_on_gpu_counts(on);
    return test_finish("test_gpu_sort_gpus");
}
