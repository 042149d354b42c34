/* GPU: every coalescing rung under every pattern over the edge sizes (tails of the structs, partial warps and
 * blocks), misaligned starts from the harness and from the offset option, strides 1 to 32, each output checked
 * element by element from a poisoned start; proof that an output nobody wrote fails, for the flat and the padded
 * layouts; and the refusals (staging with a scattered pattern, padded structs misaligned). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/coalescing.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_coalescing_workload;
static climb_device_info dev;

static void plan(climb_opt_plan *p, const char *pattern, const char *offset, const char *stride)
{
    test_plan(p, w, "pattern", pattern, "offset", offset, "stride", stride, NULL);
}

static void test_check(uint64_t seed, const char *pattern, const char *offset, const char *stride, int refused_ok)
{
    climb_opt_plan p;
    plan(&p, pattern, offset, stride);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && (refused_ok || cr.refused == 0),
               "pattern %s offset %s stride %s: %ld runs, %d failures, %ld refused", pattern, offset, stride, cr.runs,
               cr.failures, cr.refused);
    printf("pattern=%s offset=%s stride=%s: %ld runs, %ld refused, seed %" PRIu64 "\n", pattern, offset, stride,
           cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Poisoned outputs fail for the flat and the padded layouts; the refusals say why. */
static void test_poisoned(void)
{
    climb_opt_plan p;
    plan(&p, "misaligned", "4", "1");
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 5;
    climb_case_key k = {CLIMB_F32, CLIMB_SHAPE1(1001), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    const int flat = climb_find_rung(w, "float3_aos"), padded = climb_find_rung(w, "float4_padded");
    char msg[400];
    EXPECT(climb_case_prepare(w, oc.c, padded) == 0 && climb_case_poison(w, oc.c) == 0);
    EXPECT(climb_case_verify(w, oc.c, flat, msg, sizeof msg) == 1 && strstr(msg, "out[0] = ") && strstr(msg, "nan") && strstr(msg, "of 1001 elements wrong"));
    EXPECT(climb_case_verify(w, oc.c, padded, msg, sizeof msg) == 1 && strstr(msg, "nan"));
    EXPECT(climb_case_refuses(w, oc.c, padded) == NULL);
    EXPECT(climb_case_run(w, oc.c, padded, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT_MSG(climb_case_verify(w, oc.c, padded, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_case_verify(w, oc.c, flat, msg, sizeof msg) == 1); /* the flat output was not written */
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);

    plan(&p, "strided", "3", "7");
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    const char *why = climb_case_refuses(w, oc.c, climb_find_rung(w, "float3_shared"));
    EXPECT(why && strstr(why, "coalesced and misaligned"));
    EXPECT(climb_case_refuses(w, oc.c, padded) == NULL); /* the offset applies to pattern=misaligned only */
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
    plan(&p, "misaligned", "3", "1");
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    why = climb_case_refuses(w, oc.c, padded);
    EXPECT(why && strstr(why, "16-byte aligned"));
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(20261122, "coalesced,idle,permuted", "1", "32", 1);
    test_check(fresh, "misaligned", "0,1,2,3,4,5,7,8,13,16,31,32", "1", 1);
    test_check(fresh, "strided", "1", "1,2,3,4,5,7,8,16,31,32", 1);
    return test_finish("test_gpu_coalescing");
}
