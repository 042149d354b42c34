/* GPU: the stencil across GPUs on one GPU and on every GPU here (and on three where there are three or more): every
 * rung from a poisoned start, 1 and 3 steps (the ping-pong and the halos of several steps), strong and weak splits,
 * climb check over the edge grids (a point a GPU, a plane a GPU, uneven slabs, more GPUs than planes refused) with
 * a fixed and a fresh seed; the references where the whole grid's CPU steps would cost too much (the vendor's grid
 * spot-checked and adopted, then every rung bit for bit; samples alone without NCCL). */
#include <inttypes.h>
#include <string.h>

#include "base/rng.h"
#include "core/harness.h"
#include "device/device.h"
#include "device/device_set.h"
#include "workloads/stencil_gpus.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_stencil_gpus_workload;
static climb_device_info devs[CLIMB_MAX_DEVICES];
static climb_device_set set;

/* Every rung of one case from a poisoned start. */
static void poisoned(climb_shape shape, const char *steps, const char *split)
{
    climb_opt_plan p;
    test_plan(&p, w, "steps", steps, "split", split, NULL);
    test_poison_rungs_on(w, devs, &set, &p, (climb_case_key){CLIMB_F32, shape, 0}, 11, "NCCL", split);
    climb_opt_plan_free(&p, NULL);
}

/* climb check over the edge grids; refused: a grid of fewer planes than GPUs (and NCCL's rung where NCCL does not
 * open). */
static void check(uint64_t seed, const char *steps, const char *split, climb_ref_mode mode)
{
    climb_opt_plan p;
    test_plan(&p, w, "steps", steps, "split", split, NULL);
    char what[60];
    snprintf(what, sizeof what, "steps=%s split=%s", steps, split);
    test_check_gpus(w, devs, &set, &p, seed, mode, what);
    climb_opt_plan_free(&p, NULL);
}

static void on(int n, int count)
{
    test_use_gpus(n, count, &set, devs);
    poisoned((climb_shape)CLIMB_SHAPE3(33, 17, 9), "3", "strong");
    poisoned((climb_shape)CLIMB_SHAPE3(64, 8, 5), "2", "weak");
    check(20261128, "1", "strong", CLIMB_REF_AUTO);
    check(climb_fresh_seed(), "3", "strong", CLIMB_REF_AUTO);
    check(climb_fresh_seed(), "3", "weak", CLIMB_REF_AUTO);
    check(climb_fresh_seed(), "4", "strong", CLIMB_REF_VENDOR);
    check(climb_fresh_seed(), "2", "strong", CLIMB_REF_SAMPLES);
}

int main(void)
{
    test_require_gpu();
    test_on_gpu_counts(on);
    return test_finish("test_gpu_stencil_gpus");
}
