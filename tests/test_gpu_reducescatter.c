/* GPU, two GPUs or more (skipped below): the reducescatter workload on every GPU here, as every collective is tested
 * (collective_tests.h): each rung of i32 and f32 from a poisoned start, climb check over the edge sizes (0, 1, fewer
 * elements than GPUs, odd sizes) with a fixed and a fresh seed, and on three GPUs where there are three or more. */
#include "workloads/reducescatter.h"
#include "collective_tests.h"

int main(void) { return test_collective_gpu(&climb_reducescatter_workload, 70001, "test_gpu_reducescatter"); }
