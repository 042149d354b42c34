/* GPU: every reduction rung over the edge-size sweep (misaligned inputs included, each run twice from
 * poisoned outputs), for a fixed seed and a fresh one; and proof that the check can fail. */
#include <inttypes.h>
#include <string.h>

#include "core/device.h"
#include "core/harness.h"
#include "core/rng.h"
#include "workloads/reduce.h"
#include "testing.h"

int main(void)
{
    test_require_gpu();
    climb_device_info d;
    EXPECT(climb_device_query(0, &d) == 0);
    const climb_workload *w = &climb_reduce_workload;

    /* An output nobody wrote must fail verification (poison is never the right answer). */
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        climb_case_params p = {1000, (climb_dtype)t, 5, 0, &d};
        climb_case *c;
        EXPECT(w->create(&p, &c) == 0);
        char msg[256];
        EXPECT(w->poison(c) == 0);
        EXPECT(w->verify(c, msg, sizeof msg) == 1);
        /* ...and the same case passes once a rung has run. */
        EXPECT(w->prepare(c, w->n_rungs - 1) == 0);
        EXPECT(w->run(c, w->n_rungs - 1, 0) == 0);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(w->verify(c, msg, sizeof msg) == 0, "%s", msg);
        w->destroy(c);
    }

    /* A size no machine holds: a clear refusal (printed), no crash, and the device still works after. */
    {
        climb_case_params p = {(size_t)1 << 40, CLIMB_I32, 5, 0, &d};
        climb_case *c = (climb_case *)&p;
        EXPECT(w->create(&p, &c) == -1);
        EXPECT(c == NULL);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    }

    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.progress = 0;
    uint64_t seeds[2] = {20261122, climb_fresh_seed()};
    for (int k = 0; k < 2; k++) {
        o.seed = seeds[k];
        printf("seed %" PRIu64 "\n", o.seed);
        EXPECT(climb_check(w, &o, &d) == 0);
    }

    /* Every tuning candidate of the best rung (what climb tune may save as wisdom) is right on edge sizes and
     * misaligned inputs, not only on the sizes it was timed on. */
    const climb_tuning *tn = w->tuning;
    climb_run_opts ot;
    memset(&ot, 0, sizeof ot);
    ot.seed = climb_fresh_seed();
    ot.rungs[0] = w->rung(tn->rung)->name;
    ot.n_rungs = 1;
    const size_t edge[] = {0, 1, 3, 4097, 65537, 1000003};
    ot.n_sizes = (int)(sizeof edge / sizeof edge[0]);
    memcpy(ot.sizes, edge, sizeof edge);
    int tried = 0;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_values(tn, i, v);
        if (tn->rejects(&d, v))
            continue;
        ot.tuning = v;
        tried++;
        char desc[160];
        climb_tuning_format(tn, v, desc, sizeof desc);
        EXPECT_MSG(climb_check(w, &ot, &d) == 0, "candidate %s", desc);
    }
    printf("%d tuning candidates checked, seed %" PRIu64 "\n", tried, ot.seed);
    EXPECT(tried >= 40);
    return test_finish("test_gpu_reduce");
}
