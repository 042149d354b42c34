/* CPU: the all-reduce workload's table, as every collective's is checked (collective_tests.h: counted as
 * nccl-tests' bus bytes, 2(P-1)/P of an array), its tree marked as taking a power of two of GPUs, and the best
 * rung's built-in choice between one shot and two. The schedules its tree and ring follow are run on simulated
 * ranks in test_cpu_collectives. */
#include <string.h>

#include "workloads/allreduce.h"
#include "collective_tests.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_allreduce_workload;
    EXPECT(test_collective_table(w, "2(P-1)/P") == 0);
    int tree = -1;
    for (int r = 0; r < w->n_rungs; r++)
        if (strcmp(w->rung(r)->name, "tree") == 0)
            tree = r;
    EXPECT(tree > 0 && strstr(w->rung(tree)->needs, "power-of-two"));
    EXPECT(climb_allreduce_best_one_shot(4096) && !climb_allreduce_best_one_shot((size_t)1 << 30));
    EXPECT(!climb_allreduce_best_one_shot((size_t)1 << 18) && climb_allreduce_best_one_shot(((size_t)1 << 18) - 1));
    return test_finish("test_cpu_allreduce");
}
