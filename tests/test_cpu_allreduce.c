/* CPU: the all-reduce workload's table (valid; vendor first, one best; it spans 2 or more GPUs; counted as nccl-tests'
 * bus bytes) and the best rung's choice between one shot and two. The schedules its tree and ring follow are run on
 * simulated ranks in test_cpu_collectives. */
#include <string.h>

#include "workloads/allreduce.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_allreduce_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);
    EXPECT(climb_spans_devices(w) && w->min_devices == 2 && w->max_devices >= 8);
    EXPECT(w->items_unit && strstr(w->items_unit, "bus") && strstr(w->bytes_counted, "2(P-1)/P"));
    EXPECT(w->types == (CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32)));
    int tree = -1;
    for (int r = 0; r < w->n_rungs; r++)
        if (strcmp(w->rung(r)->name, "tree") == 0)
            tree = r;
    EXPECT(tree > 0 && strstr(w->rung(tree)->needs, "power-of-two"));
    EXPECT(climb_allreduce_best_one_shot(4096) && !climb_allreduce_best_one_shot((size_t)1 << 30));
    EXPECT(!climb_allreduce_best_one_shot((size_t)1 << 18) && climb_allreduce_best_one_shot(((size_t)1 << 18) - 1));
    return test_finish("test_cpu_allreduce");
}
