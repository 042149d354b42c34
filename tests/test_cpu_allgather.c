/* CPU: the allgather workload's table, as every collective's is checked (collective_tests.h: counted as nccl-tests' bus
 * bytes, (P-1)/P of the whole array), and the best rung's built-in choice between the kernel and the copy
 * engines. */
#include "device/collective.h"
#include "workloads/allgather.h"
#include "collective_tests.h"
#include "testing.h"

int main(void)
{
    EXPECT(test_collective_table(&climb_allgather_workload, "(P-1)/P") == 0);
    EXPECT(climb_allgather_best_uses_kernel(4096) && !climb_allgather_best_uses_kernel((size_t)1 << 30));
    EXPECT(!climb_allgather_best_uses_kernel((size_t)16 << 20) &&
           climb_allgather_best_uses_kernel(((size_t)16 << 20) - 1));
    EXPECT(climb_busbw_factor(CLIMB_COLL_ALL_GATHER, 4) == 0.75);
    return test_finish("test_cpu_allgather");
}
