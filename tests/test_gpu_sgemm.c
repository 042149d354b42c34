/* GPU: every SGEMM rung over the edge shapes (0, 1, odd, non-multiples of every tile), with alpha and beta (beta
 * != 0 restores C before each run), padded leading dimensions, the CPU reference in double; the vendor reference
 * with CPU rows at a shape past the CPU limit; proof that poisoned output fails. */
#include <inttypes.h>
#include <string.h>

#include "core/device.h"
#include "core/harness.h"
#include "core/rng.h"
#include "workloads/sgemm.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_sgemm_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *alpha, const char *beta, const char *pad)
{
    climb_opt_plan p;
    test_plan(&p, w, "alpha", alpha, "beta", beta, "pad", pad, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    /* the seed's tiled16 and tiled32 refuse shapes that are not multiples of their tile, and only those */
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "alpha %s beta %s pad %s: %ld runs, %d failures", alpha, beta, pad,
               cr.runs, cr.failures);
    printf("alpha=%s beta=%s pad=%s: %ld runs, %ld refused, seed %" PRIu64 "\n", alpha, beta, pad, cr.runs,
           cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_vendor_reference(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "beta", "0.5", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 3;
    o.reference = CLIMB_REF_VENDOR;
    climb_case_key k = {CLIMB_F32, CLIMB_SHAPE3(700, 650, 600), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    EXPECT_MSG(strstr(oc.reference, "CPU rows agree") != NULL, "%s", oc.reference);
    for (int r = 1; r < w->n_rungs; r++) {
        char msg[600];
        if (w->refuses(oc.c, r))
            continue;
        EXPECT(w->prepare(oc.c, r) == 0 && w->poison(oc.c) == 0 && w->reset(oc.c, 0) == 0);
        EXPECT(w->run(oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(w->verify(oc.c, r, msg, sizeof msg) == 0, "%s: %s", w->rung(r)->name, msg);
    }
    char msg[600];
    EXPECT(w->poison(oc.c) == 0 && w->verify(oc.c, 1, msg, sizeof msg) == 1);
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_vendor_reference();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "1", "0", "0");
    test_check(fresh + 1, "-0.75", "1.5", "3");
    return test_finish("test_gpu_sgemm");
}
