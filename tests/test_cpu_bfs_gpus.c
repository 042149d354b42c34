/* CPU: the bfs_gpus workload's table (the one-GPU row first of the ladder, one GPU to eight, the rungs that wait for
 * the host marked so), its host memory rule. The vertex ranges are test_cpu_collectives' (climb_vertex_range). */
#include <string.h>

#include "core/harness.h"
#include "workloads/bfs_gpus.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_bfs_gpus_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_spans_devices(w) && w->min_devices == 1 && w->max_devices >= 8);
    const int best = climb_best_rung(w);
    EXPECT(best > 0 && strcmp(w->rung(best)->name, "bfs_gpus_best") == 0 && w->rung(best)->host_part);
    EXPECT(strcmp(w->rung(0)->name, "one_gpu") == 0 && w->rung(0)->kind == CLIMB_RUNG_LADDER && !w->rung(0)->host_part);
    EXPECT(w->rung(climb_find_rung(w, "top_down"))->host_part);
    /* scale 26 at edge factor 16: the drawn edges both ways and the CSR, the in-edges and the levels */
    const climb_shape big = CLIMB_SHAPE1((size_t)1 << 26);
    EXPECT(w->case_bytes(&big, CLIMB_I32, NULL) == (double)((size_t)1 << 26) * (16 * 2 * 8 * 2 + 32));
    return test_finish("test_cpu_bfs_gpus");
}
