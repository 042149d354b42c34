/* CPU: the reducescatter workload's table (valid; vendor first, one best; it spans 2 or more GPUs; counted as nccl-tests'
 * bus bytes, (P-1)/P of the whole array) and the best rung's choice between the kernel and the copy engines. */
#include <string.h>

#include "device/collective.h"
#include "workloads/reducescatter.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_reducescatter_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);
    EXPECT(climb_spans_devices(w) && w->min_devices == 2 && w->max_devices >= 8);
    EXPECT(w->items_unit && strstr(w->items_unit, "bus") && strstr(w->bytes_counted, "(P-1)/P"));
    EXPECT(w->types == (CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32)));
    EXPECT(climb_reducescatter_best_uses_kernel(4096) && !climb_reducescatter_best_uses_kernel((size_t)1 << 30));
    EXPECT(!climb_reducescatter_best_uses_kernel((size_t)1 << 18) && climb_reducescatter_best_uses_kernel(((size_t)1 << 18) - 1));
    EXPECT(climb_busbw_factor(CLIMB_COLL_REDUCE_SCATTER, 4) == 0.75);
    for (int r = 0; r < w->n_rungs; r++) /* the kernels that cross links need peer access, and say so */
        if (strcmp(w->rung(r)->name, "kernel_pull") == 0)
            EXPECT(w->rung(r)->refuses && strstr(w->rung(r)->needs, "peer access"));
    return test_finish("test_cpu_reducescatter");
}
