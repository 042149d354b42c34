/* GPU: every bandwidth rung in every direction over the edge sizes (0, 1, odd, around the chunk), with small
 * chunks (many transfers) and 1 to 16 overlap streams, each destination checked byte by byte from a poisoned
 * start; an unwritten destination fails, on the device and in each kind of host memory; the refusals. */
#include <inttypes.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/bandwidth.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_bandwidth_workload;
static climb_device_info dev;

static void plan(climb_opt_plan *p, const char *dir, const char *chunk, const char *streams)
{
    test_plan(p, w, "direction", dir, "chunk", chunk, "streams", streams, NULL);
}

static void test_check(uint64_t seed, const char *chunk, const char *streams)
{
    climb_opt_plan p;
    plan(&p, "all", chunk, streams);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    /* bidir refuses the vendor and the two overlap rungs, on every shape and streams value */
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "chunk %s streams %s: %ld runs, %d failures", chunk, streams, cr.runs,
               cr.failures);
    printf("chunk=%s streams=%s: %ld runs, %ld refused, seed %" PRIu64 "\n", chunk, streams, cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    const char *dirs[] = {"h2d", "d2h", "bidir"};
    for (int d = 0; d < 3; d++) {
        climb_opt_plan p;
        plan(&p, dirs[d], "1000", "3");
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 3;
        climb_case_key k = {CLIMB_U8, CLIMB_SHAPE1(4099), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
        for (int r = 0; r < w->n_rungs; r++) {
            char msg[400];
            const char *why = climb_case_refuses(w, oc.c, r);
            if (d == 2 && (r == 0 || strstr(w->rung(r)->name, "kernel") || strstr(w->rung(r)->name, "overlap"))) {
                EXPECT_MSG(why && strstr(why, "one direction"), "%s %s", dirs[d], w->rung(r)->name);
                continue;
            }
            EXPECT(why == NULL);
            EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
            /* a byte of 255, or a word of the kernel's output: 0xFFFFFFFF */
            EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1 &&
                           (strstr(msg, "= 255, expected") || strstr(msg, "= 4294967295, expected")), "%s %s: %s",
                       dirs[d], w->rung(r)->name, msg);
            EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", dirs[d], w->rung(r)->name, msg);
        }
        climb_case_close(w, &oc);
        climb_opt_plan_free(&p, NULL);
    }
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    test_check(20261122, "65536", "4");
    test_check(climb_fresh_seed(), "256,1000", "1,3,16");
    return test_finish("test_gpu_bandwidth");
}
