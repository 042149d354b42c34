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
    return test_finish("test_gpu_reduce");
}
