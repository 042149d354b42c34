/* CPU: the sgemm_gpus workload's table (the vendor row NCCL's and cuBLAS's, the one-GPU row first of the ladder,
 * one GPU to eight, the weak-scaling run), and its host memory rule. */
#include <string.h>

#include "core/harness.h"
#include "workloads/sgemm_gpus.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_sgemm_gpus_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_spans_devices(w) && w->min_devices == 1 && w->max_devices >= 8);
    EXPECT(climb_vendor_rung(w) == 0 && strcmp(w->rung(0)->name, "nccl_cublas") == 0 && w->rung(0)->refuses);
    const int best = climb_best_rung(w);
    EXPECT(best > 0 && strcmp(w->rung(best)->name, "sgemm_gpus_best") == 0);
    EXPECT(strcmp(w->rung(1)->name, "one_gpu") == 0 && w->rung(1)->kind == CLIMB_RUNG_LADDER);
    EXPECT(w->ref_cost && w->ref_cost_limit > 0 && w->rung_counts);
    /* 16384^3: A, B and the product's download on the host, 3 GiB */
    const climb_shape big = CLIMB_SHAPE3(16384, 16384, 16384);
    EXPECT(w->case_bytes(&big, CLIMB_F32, NULL) == 3.0 * 4 * 16384.0 * 16384.0);
    return test_finish("test_cpu_sgemm_gpus");
}
