/* CPU: the stencil_gpus workload's table (every rung named and kinded, the vendor row NCCL's, one GPU to eight, the
 * options), and its size rules; the slabs and the halo exchange are tested in test_cpu_stencil. */
#include <string.h>

#include "core/harness.h"
#include "workloads/stencil_gpus.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_stencil_gpus_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_spans_devices(w) && w->min_devices == 1 && w->max_devices >= 8);
    EXPECT(climb_vendor_rung(w) == 0 && strcmp(w->rung(0)->name, "nccl_halos") == 0);
    const int best = climb_best_rung(w);
    EXPECT(best > 0 && strcmp(w->rung(best)->name, "stencil_gpus_best") == 0);
    int one = -1, host = -1;
    for (int r = 0; r < w->n_rungs; r++) {
        if (strcmp(w->rung(r)->name, "one_gpu") == 0)
            one = r;
        if (strcmp(w->rung(r)->name, "through_host") == 0)
            host = r;
    }
    /* the one-GPU row is the ladder's first, what the others are sped up from; the host's waits are timed by the
     * wall clock */
    EXPECT(one == 1 && w->rung(one)->kind == CLIMB_RUNG_LADDER);
    EXPECT(host > one && w->rung(host)->host_part == 1);
    /* the rung that loads the neighbours' planes says it needs peer access, and refuses by its own rule */
    for (int r = 0; r < w->n_rungs; r++)
        if (strstr(w->rung(r)->needs, "peer access"))
            EXPECT_MSG(w->rung(r)->refuses != NULL && strcmp(w->rung(r)->name, "direct") == 0, "%s", w->rung(r)->name);
    EXPECT(climb_opt_find(w->options, w->n_options, "steps") >= 0 && climb_opt_find(w->options, w->n_options, "split") >= 0);
    EXPECT(w->ref_cost && w->ref_cost_limit > 0 && w->rung_counts);
    /* a 1024 x 1024 x 512 grid needs its host copies: 16 bytes a point (the grid, its download, the reference) */
    const climb_shape big = CLIMB_SHAPE3(1024, 1024, 512);
    EXPECT(w->case_bytes(&big, CLIMB_F32, NULL) == 16.0 * 1024 * 1024 * 512);
    return test_finish("test_cpu_stencil_gpus");
}
