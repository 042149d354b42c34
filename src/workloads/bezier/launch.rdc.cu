/*
 * launch.rdc.cu - the Bezier ladder's dynamic-parallelism rung: a parent thread a curve launches its points' child
 * grid from the device. The one file of the workload compiled as relocatable device code (a file named *.rdc.cu;
 * cmake/climb.cmake), so that the other rungs' kernels load in modules without device launches. See bezier.cu.
 */
#include "kernels.cuh"

__global__ void __launch_bounds__(BEZ_WARP) bez_child_kernel(const climb_bezier *curve, int count, float2 *out)
{
    const int j = blockIdx.x * BEZ_WARP + threadIdx.x;
    if (j < count)
        out[j] = bez_point(*curve, j, count);
}

cudaError_t bez_launch_dp(const bez_args *a)
{
    if (a->n > 0)
        bez_scan_kernel<true><<<bez_tiles(a->n), BEZ_BLOCK, 0, a->s>>>(a->curves, a->n, a->maxp, a->counts,
                                                                      a->offsets, a->total, a->pts, a->ws,
                                                                      a->capacity, a->failed);
    return cudaGetLastError();
}

int bez_dp_kernels(climb_kernel_desc *o, int max)
{
    const int n =
        climb_kernel_at(o, max, 0, (const void *)bez_scan_kernel<true>, BEZ_BLOCK, 0, "bez_scan_kernel<true>");
    return climb_kernel_at(o, max, n, (const void *)bez_child_kernel, BEZ_WARP, 0, "bez_child_kernel");
}
