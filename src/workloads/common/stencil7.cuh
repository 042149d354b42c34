/* The 7-point stencil's point update, which every kernel of the one-GPU ladder and the plane kernel of the ladder
 * across GPUs compute (CUDA). One function, with its roundings spelled out (a product, then six fused multiply-adds
 * in the order centre, x-1, x+1, y-1, y+1, z-1, z+1), so that the compiler cannot contract two kernels' sums
 * differently: every kernel's point is the same bits, which lets one rung's grid be checked against another's
 * exactly. */
#ifndef CLIMB_WORKLOADS_COMMON_STENCIL7_CUH
#define CLIMB_WORKLOADS_COMMON_STENCIL7_CUH

typedef struct stencil_coef {
    float c[7]; /* centre, x - 1, x + 1, y - 1, y + 1, z - 1, z + 1 */
} stencil_coef;

__device__ __forceinline__ float st_point(const stencil_coef &k, float here, float xm, float xp, float ym, float yp,
                                          float zm, float zp)
{
    float s = __fmul_rn(k.c[0], here);
    s = __fmaf_rn(k.c[1], xm, s);
    s = __fmaf_rn(k.c[2], xp, s);
    s = __fmaf_rn(k.c[3], ym, s);
    s = __fmaf_rn(k.c[4], yp, s);
    s = __fmaf_rn(k.c[5], zm, s);
    return __fmaf_rn(k.c[6], zp, s);
}

#endif
