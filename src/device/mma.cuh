/* Tensor-core primitives (sm_80 and later, as PTX): the warp-wide matrix multiply-accumulate mma.sync for BF16 and
 * TF32 inputs with FP32 accumulators, ldmatrix (a warp's 8 x 8 tiles of 16-bit elements out of shared memory, in
 * the mma's register layout), cp.async of 16 bytes with zero fill and its groups, and the FP32 -> TF32 rounding.
 * The register layouts are PTX ISA's "Matrix fragments for mma.m16n8k16" and "mma.m16n8k8": with g = lane / 4 and
 * t = lane % 4, a thread holds rows g and g + 8 of A's 16-row tile and column g of B's 8-column tile; its
 * accumulators are C[g][2t], C[g][2t + 1], C[g + 8][2t], C[g + 8][2t + 1]. */
#ifndef CLIMB_DEVICE_MMA_CUH
#define CLIMB_DEVICE_MMA_CUH

#include <stdint.h>

/* d += a b for a 16 x 16 BF16 tile of A (row-major: a[0] rows g, k 2t..2t+1; a[1] row g + 8; a[2], a[3] the same at
 * k + 8) and a 16 x 8 tile of B (b[0] k 2t..2t+1 of column g, b[1] k + 8), the lower-indexed element of a pair in
 * the low 16 bits. */
__device__ __forceinline__ void climb_mma_bf16_16816(float d[4], const uint32_t a[4], const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* d += a b for a 16 x 8 TF32 tile of A (a[0] row g, k t; a[1] row g + 8; a[2], a[3] the same at k t + 4) and an
 * 8 x 8 tile of B (b[0] k t of column g, b[1] k t + 4), each a TF32 value in a 32-bit register. */
__device__ __forceinline__ void climb_mma_tf32_1688(float d[4], const uint32_t a[4], const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* x rounded to TF32 (10 bits of fraction), to nearest with ties away from zero; the low 13 bits are then zero, so
 * the register is also that value as an FP32. */
__device__ __forceinline__ uint32_t climb_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* x as big + small, both TF32: big = tf32(x), small = tf32(x - big) (x - big is exact in FP32). What is lost is
 * the rounding of small, at most 2^-11 |x - big| <= 2^-22 |x|. */
__device__ __forceinline__ void climb_tf32_split(float x, uint32_t *big, uint32_t *small)
{
    *big = climb_tf32(x);
    *small = climb_tf32(x - __uint_as_float(*big));
}

/* Four 8 x 8 tiles of 16-bit elements from shared memory into r[0..3]: lanes 8i..8i+7 give the addresses of tile
 * i's eight rows (16 bytes each); each thread receives row g, elements 2t and 2t + 1 of every tile. */
__device__ __forceinline__ void climb_ldmatrix_x4(uint32_t r[4], const void *row)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(row);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

/* The same, each tile transposed: a thread receives elements (2t, g) and (2t + 1, g), which is the B operand's
 * layout when the tile's rows run along k. */
__device__ __forceinline__ void climb_ldmatrix_x4_trans(uint32_t r[4], const void *row)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(row);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

/* 16 bytes from global src to shared dst (both 16-byte aligned) of which the first `bytes` are read and the rest
 * zero-filled (0: nothing is read, src need not be valid memory but is given a valid address by the callers). */
__device__ __forceinline__ void climb_cp_async16_zfill(void *dst, const void *src, int bytes)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void climb_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void climb_cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

#endif
