/* The many-small-kernels ladder's shared device code (src/workloads/streams/): included by streams.cu (the table,
 * the rungs launched from the host) and launch.rdc.cu (the rung whose kernels are launched from the device,
 * relocatable device code). */
#ifndef CLIMB_WORKLOADS_STREAMS_KERNELS_CUH
#define CLIMB_WORKLOADS_STREAMS_KERNELS_CUH

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>

#include "../../core/workload.h"

#define ST_A 1664525u
#define ST_C 1013904223u

/* A thread's work: its value stepped `iters` times, one dependent multiply-add after another. */
__device__ __forceinline__ uint32_t st_steps(uint32_t x, unsigned iters)
{
#pragma unroll 4
    for (unsigned k = 0; k < iters; k++)
        x = x * ST_A + ST_C;
    return x;
}

/* What the device-launched rung's kernels need: the case's arrays and sizes. */
typedef struct st_dev_args {
    const uint32_t *x0;
    uint32_t *out;
    unsigned *count;
    unsigned iters, chain, blocks, threads, K;
} st_dev_args;

/* launch.rdc.cu: one kernel on s whose threads launch the K chains from the device (fire and forget), each chain's
 * next kernel a tail launch of the one before. The kernels it launches, for the occupancy check. */
cudaError_t st_launch_from_device(const st_dev_args *a, cudaStream_t s);
int st_device_kernels(climb_kernel_desc *o, int max);

#endif
