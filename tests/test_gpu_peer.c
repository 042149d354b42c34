/* GPU, two GPUs or more (skipped below): every peer rung one way and both ways, from GPU 0 to GPU 1 and back, over
 * the edge sizes (0, 1, around 16 bytes, odd sizes, several pipelined pieces), each arriving byte checked from a
 * poisoned start; an unwritten destination fails on each GPU; a pair that is not two GPUs of the case is refused
 * by every rung; NCCL_NVLS_ENABLE is 0 after NCCL ran. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "core/harness.h"
#include "core/report.h"
#include "device/timing.h"
#include "base/rng.h"
#include "workloads/peer.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_peer_workload;
static climb_device_info devs[2];
static climb_device_set set = {2, {0, 1}};

static void opts_with(climb_run_opts *o, climb_opt_plan *p, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    o->seed = seed;
    o->options = p;
    o->devices = &set;
    o->devs = devs;
}

static void test_poisoned(void)
{
    const char *dirs[] = {"one", "both"};
    for (int d = 0; d < 2; d++) {
        climb_opt_plan p;
        test_plan(&p, w, "direction", dirs[d], "chunk", "4096", NULL);
        climb_run_opts o;
        opts_with(&o, &p, 3);
        climb_case_key k = {CLIMB_U8, CLIMB_SHAPE1(40961), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &k, 0, &devs[0], 0, &oc) == 0);
        for (int r = 0; oc.c && r < w->n_rungs; r++) {
            char msg[400];
            const char *why = climb_case_refuses(w, oc.c, r);
            if (why) { /* NCCL absent, or no peer access: said, and nothing else is allowed to refuse */
                printf("%s %s refused: %s\n", dirs[d], w->rung(r)->name, why);
                EXPECT_MSG(strstr(why, "NCCL") || strstr(why, "peer access"), "%s", why);
                continue;
            }
            EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0);
            EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1 && strstr(msg, "= 255, expected"),
                       "%s %s: %s", dirs[d], w->rung(r)->name, msg);
            EXPECT(climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", dirs[d], w->rung(r)->name,
                       msg);
            int cur = -1;
            EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == 0); /* the run's device current again */
        }
        climb_case_close(w, &oc);
        climb_opt_plan_free(&p, NULL);
    }
    const char *nvls = getenv("NCCL_NVLS_ENABLE");
    EXPECT_MSG(!nvls || strcmp(nvls, "0") == 0, "NCCL_NVLS_ENABLE=%s", nvls);
}

static void test_refused(void)
{
    const char *const pairs[][3] = {{"0", "0", "same GPU"}, {"5", "1", "from = 5"}, {"0", "2", "to = 2"}};
    for (int i = 0; i < 3; i++) {
        climb_opt_plan p;
        test_plan(&p, w, "from", pairs[i][0], "to", pairs[i][1], "direction", "one", NULL);
        climb_run_opts o;
        opts_with(&o, &p, 5);
        climb_case_key k = {CLIMB_U8, CLIMB_SHAPE1(100), 0};
        climb_open_case oc;
        EXPECT(climb_case_open(w, &o, &p, &k, 0, &devs[0], 0, &oc) == 0);
        for (int r = 0; oc.c && r < w->n_rungs; r++) {
            const char *why = climb_case_refuses(w, oc.c, r);
            EXPECT_MSG(why && strstr(why, pairs[i][2]), "%s: %s", w->rung(r)->name, why ? why : "not refused");
        }
        climb_case_close(w, &oc);
        climb_opt_plan_free(&p, NULL);
    }
}

static void test_check(uint64_t seed, const char *chunks)
{
    climb_opt_plan p;
    test_plan(&p, w, "from", "0,1", "to", "1,0", "direction", "all", "chunk", chunks, NULL);
    climb_run_opts o;
    opts_with(&o, &p, seed);
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &devs[0], &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "%ld runs, %d failures", cr.runs, cr.failures);
    printf("check: %ld runs, %ld refused (from = to among them), seed %" PRIu64 "\n", cr.runs, cr.refused, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* Timed from GPU 1 to GPU 0, one way and both, with the run's timer on GPU 0: the harness times on the sender's
 * GPU (a timer of its own there), every rung verified and timed, the run's device current after. */
static void test_bench_from_other(void)
{
    climb_timer t;
    EXPECT(cudaSetDevice(0) == cudaSuccess && climb_timer_init(&t, (size_t)devs[0].l2_bytes) == 0 && t.device == 0);
    climb_opt_plan p;
    test_plan(&p, w, "from", "1", "to", "0", "direction", "one,both", NULL);
    climb_run_opts o;
    opts_with(&o, &p, climb_fresh_seed());
    o.timing = climb_timing_defaults();
    o.timing.min_samples = 3;
    o.timing.max_wall_s = 0.02;
    climb_shape shapes[2] = {CLIMB_SHAPE1(4), CLIMB_SHAPE1(65537)};
    o.shapes = shapes;
    o.n_shapes = 2;
    o.types = CLIMB_TYPE_BIT(CLIMB_U8);
    climb_report rep;
    climb_report_init(&rep, "bench", o.seed, 0, &devs[0]);
    EXPECT(climb_bench(w, &o, &t, &rep) == 0);
    int ok = 0;
    for (int i = 0; i < rep.n_rows; i++) {
        const climb_row *r = &rep.rows[i];
        if (r->status == CLIMB_ROW_OK)
            ok += r->t.median_us > 0;
        else /* only NCCL's absence or no peer access may keep a rung out */
            EXPECT_MSG(r->status == CLIMB_ROW_REFUSED && (strstr(r->note, "NCCL") || strstr(r->note, "peer access")),
                       "%s: %s", w->rung(r->rung)->name, r->note);
    }
    EXPECT_MSG(ok >= 2 * 2 * 5, "%d rows timed of %d", ok, rep.n_rows);
    int cur = -1;
    EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == 0 && cudaGetLastError() == cudaSuccess);
    climb_report_free(&rep);
    climb_opt_plan_free(&p, NULL);
    climb_timer_free(&t);
}

int main(void)
{
    test_require_gpus(2);
    EXPECT(climb_device_query(1, &devs[1]) == 0 && climb_device_query(0, &devs[0]) == 0);
    test_refused();
    test_poisoned();
    test_check(20261127, "4096,65536"); /* the pipelined rung's pieces: several, and one piece to 64 KiB */
    test_check(climb_fresh_seed(), "4096");
    test_bench_from_other();
    return test_finish("test_gpu_peer");
}
