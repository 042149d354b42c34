/* CPU: the reducescatter workload's table, as every collective's is checked (collective_tests.h: counted as nccl-tests' bus
 * bytes, (P-1)/P of the whole array), and the best rung's built-in choice between the kernel and the copy
 * engines. */
#include "device/collective.h"
#include "workloads/reducescatter.h"
#include "collective_tests.h"
#include "testing.h"

int main(void)
{
    EXPECT(test_collective_table(&climb_reducescatter_workload, "(P-1)/P") == 0);
    EXPECT(climb_reducescatter_best_uses_kernel(4096) && !climb_reducescatter_best_uses_kernel((size_t)1 << 30));
    EXPECT(!climb_reducescatter_best_uses_kernel((size_t)128 << 20) &&
           climb_reducescatter_best_uses_kernel(((size_t)128 << 20) - 1) &&
           climb_reducescatter_best_uses_kernel((size_t)64 << 20)); /* the largest size measured: the kernel's */
    EXPECT(climb_busbw_factor(CLIMB_COLL_REDUCE_SCATTER, 4) == 0.75);
    return test_finish("test_cpu_reducescatter");
}
