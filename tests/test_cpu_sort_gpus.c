/* CPU: the sort_gpus workload's table (CUB's radix sort on one GPU the vendor, the one-GPU row first of the ladder,
 * one GPU to eight, the rungs that wait for the host marked so), its host memory rule and its refusal of more keys
 * than the one-GPU sort takes. The split itself is test_cpu_collectives' (climb_keysplit). */
#include <string.h>

#include "core/harness.h"
#include "workloads/sort_gpus.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_sort_gpus_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_spans_devices(w) && w->min_devices == 1 && w->max_devices >= 8);
    EXPECT(climb_vendor_rung(w) == 0 && strcmp(w->rung(0)->name, "cub_radix_one_gpu") == 0);
    const int best = climb_best_rung(w);
    EXPECT(best > 0 && strcmp(w->rung(best)->name, "sort_gpus_best") == 0 && w->rung(best)->host_part);
    EXPECT(strcmp(w->rung(1)->name, "one_gpu") == 0 && w->rung(1)->kind == CLIMB_RUNG_LADDER);
    const int split = climb_find_rung(w, "radix_split"), sorted = climb_find_rung(w, "sort_split");
    EXPECT(split > 1 && sorted > 1 && w->rung(split)->host_part && w->rung(sorted)->host_part);
    EXPECT(!w->rung(climb_find_rung(w, "gather_sort"))->host_part);
    /* 2^30 keys: the keys, their download and the reference (values alike), and the reference's two words a key */
    const climb_shape big = CLIMB_SHAPE1((size_t)1 << 30);
    EXPECT(w->case_bytes(&big, CLIMB_U32, NULL) == 20.0 * (double)((size_t)1 << 30));
    return test_finish("test_cpu_sort_gpus");
}
