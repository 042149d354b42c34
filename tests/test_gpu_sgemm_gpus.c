/* GPU: SGEMM across GPUs on one GPU and on every GPU here (and on three where there are three or more): every rung
 * from a poisoned product (the whole product split, and m rows a GPU: weak), climb check over the edge shapes (empty,
 * fewer rows or pieces than GPUs, odd sizes, non-multiples of the tiles) with a fixed and a fresh seed, each split,
 * and each reference mode (the CPU's whole product, the vendor's spot-checked and adopted, CPU rows alone). */
#include <inttypes.h>
#include <string.h>

#include "base/rng.h"
#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "workloads/sgemm_gpus.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_sgemm_gpus_workload;
static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

static void poisoned(climb_shape shape, const char *split)
{
    climb_opt_plan p;
    test_plan(&p, w, "split", split, NULL);
    test_poison_rungs_on(w, devs, &set, &p, (climb_case_key){CLIMB_F32, shape, 0}, 5, "NCCL", split);
    climb_opt_plan_free(&p, NULL);
}

static void check(uint64_t seed, climb_ref_mode mode, const char *split)
{
    climb_opt_plan p;
    test_plan(&p, w, "split", split, NULL);
    test_check_gpus(w, devs, &set, &p, seed, mode, split);
    climb_opt_plan_free(&p, NULL);
}

static void on(int n, int count)
{
    test_use_gpus(n, count, &set, devs);
    poisoned((climb_shape)CLIMB_SHAPE3(130, 257, 129), "strong");
    poisoned((climb_shape)CLIMB_SHAPE3(3, 5, 2), "strong");
    poisoned((climb_shape)CLIMB_SHAPE3(33, 65, 17), "weak");
    check(20261128, CLIMB_REF_AUTO, "strong");
    check(climb_fresh_seed(), CLIMB_REF_AUTO, "strong");
    check(climb_fresh_seed(), CLIMB_REF_AUTO, "weak");
    check(climb_fresh_seed(), CLIMB_REF_VENDOR, "strong");
    check(climb_fresh_seed(), CLIMB_REF_SAMPLES, "strong");
}

int main(void)
{
    test_require_gpu();
    test_on_gpu_counts(on);
    return test_finish("test_gpu_sgemm_gpus");
}
