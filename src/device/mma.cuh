/* Tensor-core primitives (sm_80 and later, as PTX): the warp-wide matrix multiply-accumulate mma.sync for BF16 and
 * TF32 inputs with FP32 accumulators, ldmatrix (a warp's 8 x 8 tiles of 16-bit elements out of shared memory, in
 * the mma's register layout), cp.async of 16 bytes with zero fill and of 4 bytes, and its groups, and the FP32 -> TF32 rounding.
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
/* 4 bytes from global src to shared dst (each 4-byte aligned), through L1 (.ca: neighbouring blocks' loads of the same
 * lines may hit). */
__device__ __forceinline__ void climb_cp_async4(void *dst, const void *src)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src));
}
__device__ __forceinline__ void climb_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void climb_cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

/* ---- Hopper's warp-group MMA (sm_90a: compiled where __CUDA_ARCH_FEAT_SM90_ALL is defined; a trap elsewhere) ----
 * A warp group (4 warps, 128 threads) multiplies a 64 x K tile of A by a K x N tile of B, both read from shared
 * memory through 64-bit matrix descriptors, into FP32 accumulators spread over its threads (N / 2 each). The
 * operations are asynchronous: wgmma.fence before the first that touches registers others wrote, commit_group
 * after a batch, wait_group<N> until at most N batches remain in flight. */

/* A shared-memory matrix descriptor without swizzling: the start address, the byte offset between core matrices
 * (8 rows of 16 bytes) adjacent along the leading dimension (lbo) and along the strided one (sbo). */
__device__ __forceinline__ uint64_t climb_wgmma_desc(const void *smem, unsigned lbo, unsigned sbo)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFFu) >> 4) | (uint64_t)((lbo & 0x3FFFFu) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFFu) >> 4) << 32;
}

__device__ __forceinline__ void climb_wgmma_fence()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void climb_wgmma_commit()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void climb_wgmma_wait()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
/* Shared memory the threads wrote (the generic proxy) made visible to wgmma's reads (the async proxy). */
__device__ __forceinline__ void climb_fence_proxy_async_shared()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/* d (64 floats a thread) += A (64 x 16 BF16, K-major) B (16 x 128 BF16), both by descriptor; B K-major (TB 0)
 * or MN-major (TB 1: wgmma's transposed form, which 16-bit inputs have and TF32 has not). */
template <int TB = 0> __device__ __forceinline__ void climb_wgmma_m64n128k16_bf16(float d[64], uint64_t da, uint64_t db)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, %67;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(1), "n"(TB));
#else
    __trap();
#endif
}

/* d (64 floats a thread) += A (64 x 8 TF32, K-major) B (8 x 128 TF32, K-major), both by descriptor. */
__device__ __forceinline__ void climb_wgmma_m64n128k8_tf32(float d[64], uint64_t da, uint64_t db)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(1));
#else
    __trap();
#endif
}

/* A descriptor of a K-major tile in the 128-byte swizzle TMA writes (rows of 128 bytes, 8-row groups 1024 bytes
 * apart, the group's base 1024-byte aligned); a k-step inside the row advances the start address. */
__device__ __forceinline__ uint64_t climb_wgmma_desc_sw128(const void *smem)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFFu) >> 4) | (uint64_t)(16u >> 4) << 16 | (uint64_t)(1024u >> 4) << 32 |
           (uint64_t)1 << 62;
}

/* A descriptor of an MN-major tile in the 128-byte swizzle (16-bit elements): boxes of 64 elements along M or N
 * (128 bytes) by the k rows, a row 128 bytes after the one before, 8-row groups 1024 bytes apart, the next 64
 * along M or N `box` bytes on (the leading offset); a k-step of 16 rows advances the start address by 2048. */
__device__ __forceinline__ uint64_t climb_wgmma_desc_sw128_mn(const void *smem, unsigned box)
{
    const unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFFu) >> 4) | (uint64_t)((box & 0x3FFFFu) >> 4) << 16 | (uint64_t)(1024u >> 4) << 32 |
           (uint64_t)1 << 62;
}

/* ---- mbarriers and the Tensor Memory Accelerator (sm_90) ---- */

__device__ __forceinline__ void climb_mbar_init(uint64_t *bar, unsigned count)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"((unsigned)__cvta_generic_to_shared(bar)),
                 "r"(count)
                 : "memory");
#endif
}
/* Makes the barriers' initialisation visible to the other threads and to the async proxy (TMA's complete_tx),
 * before the block's barrier that follows it. */
__device__ __forceinline__ void climb_fence_mbar_init()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/* One arrival that also announces `bytes` the barrier's phase waits for (TMA's complete_tx counts them down). */
__device__ __forceinline__ void climb_mbar_expect_tx(uint64_t *bar, unsigned bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                     (unsigned)__cvta_generic_to_shared(bar)),
                 "r"(bytes)
                 : "memory");
#endif
}
/* Waits until the barrier's phase of this parity has completed. */
__device__ __forceinline__ void climb_mbar_wait(uint64_t *bar, unsigned parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{\n.reg .pred done;\nwait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n}\n" ::"r"(a),
                 "r"(parity)
                 : "memory");
#endif
}
/* The box of a 2-D tensor map at (c0 along its inner dimension, c1 along its outer) into shared memory, counted on
 * the mbarrier (zeros where the box passes the tensor's edge). */
__device__ __forceinline__ void climb_tma_load_2d(void *dst, const void *tmap, int c0, int c1, uint64_t *bar)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
                 "%3}], [%4];\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(tmap), "r"(c0), "r"(c1), "r"((unsigned)__cvta_generic_to_shared(bar))
                 : "memory");
#endif
}

/* d (128 floats a thread) += A (64 x 16 BF16, K-major) B (16 x 256 BF16), both by descriptor; B K-major (TB 0)
 * or MN-major (TB 1). */
template <int TB = 0> __device__ __forceinline__ void climb_wgmma_m64n256k16_bf16(float d[128], uint64_t da, uint64_t db)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, %131;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(1), "n"(TB));
#else
    __trap();
#endif
}

/* d (128 floats a thread) += A (64 x 8 TF32, K-major) B (8 x 256 TF32, K-major), both by descriptor. */
__device__ __forceinline__ void climb_wgmma_m64n256k8_tf32(float d[128], uint64_t da, uint64_t db)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(1));
#else
    __trap();
#endif
}

/* d (64 floats a thread) += A (64 x 8 TF32) from registers B (8 x 128 TF32, K-major) by descriptor: wgmma's RS
 * form (d = A B, d's values ignored, where accumulate is 0). Each warp of the warp group holds 16 rows of A, a
 * thread (lane l) four values: a[0] at row l / 4, column l % 4; a[1] eight rows below; a[2] and a[3] the same rows
 * four columns on (mma.sync's m16n8k8 TF32 fragment). */
__device__ __forceinline__ void climb_wgmma_m64n128k8_tf32_rs(float d[64], const uint32_t a[4], uint64_t db,
                                                              int accumulate = 1)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
#else
    __trap();
#endif
}

/* d (128 floats a thread) += A (64 x 8 TF32) from registers (climb_wgmma_m64n128k8_tf32_rs's fragment) B (8 x 256
 * TF32, K-major) by descriptor. */
__device__ __forceinline__ void climb_wgmma_m64n256k8_tf32_rs(float d[128], const uint32_t a[4], uint64_t db)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
#else
    __trap();
#endif
}

/* One arrival on the barrier. */
__device__ __forceinline__ void climb_mbar_arrive(uint64_t *bar)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"((unsigned)__cvta_generic_to_shared(bar))
                 : "memory");
#endif
}

/* ---- thread-block clusters (sm_90) ---- */

/* This block's rank in its cluster. */
__device__ __forceinline__ unsigned climb_cluster_rank()
{
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
    return r;
}
/* Every thread of every block of the cluster arrives, then waits for all: what a block wrote to shared memory
 * before (barriers initialised, among others) is seen by the cluster's blocks after. */
__device__ __forceinline__ void climb_cluster_sync()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}
/* One arrival on the barrier at bar's offset in the shared memory of the cluster's block `cta` (this one too). */
__device__ __forceinline__ void climb_mbar_arrive_cluster(uint64_t *bar, unsigned cta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("{\n.reg .b32 ra;\nmapa.shared::cluster.u32 ra, %0, %1;\n"
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra];\n}\n" ::"r"(
                     (unsigned)__cvta_generic_to_shared(bar)),
                 "r"(cta)
                 : "memory");
#endif
}
/* climb_mbar_wait with the cluster's scope: what other blocks of the cluster did before their arrivals is seen. */
__device__ __forceinline__ void climb_mbar_wait_cluster(uint64_t *bar, unsigned parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{\n.reg .pred done;\nwait_%=:\n"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n}\n" ::"r"(a),
                 "r"(parity)
                 : "memory");
#endif
}
/* climb_tma_load_2d into the same offset of the shared memory of every block of the cluster in `mask` (bit r: rank
 * r), each block's barrier at bar's offset counting the bytes it receives. */
__device__ __forceinline__ void climb_tma_load_2d_multicast(void *dst, const void *tmap, int c0, int c1, uint64_t *bar,
                                                            unsigned short mask)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(tmap), "r"(c0), "r"(c1), "r"((unsigned)__cvta_generic_to_shared(bar)), "h"(mask)
                 : "memory");
#endif
}

/* The warp group's registers a thread, down or up (sm_90a: warp specialisation's producers give theirs to the
 * consumers). */
template <int N> __device__ __forceinline__ void climb_setmaxnreg_dec()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
template <int N> __device__ __forceinline__ void climb_setmaxnreg_inc()
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}

/* The box of a 2-D tensor map at (c0, c1) written from shared memory by TMA (the parts past the tensor's edge are
 * not written), in this thread's bulk async-group; then the group committed. */
__device__ __forceinline__ void climb_tma_store_2d(const void *tmap, int c0, int c1, const void *src)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
                 "cp.async.bulk.commit_group;\n" ::"l"(tmap),
                 "r"(c0), "r"(c1), "r"((unsigned)__cvta_generic_to_shared(src))
                 : "memory");
#endif
}
/* Waits until at most N of this thread's bulk async-groups still read their shared memory (it may be written
 * again). */
template <int N> __device__ __forceinline__ void climb_bulk_wait_read()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
#endif
}
/* A barrier of `threads` threads (whole warps) of the block on named barrier `id` (1 to 15; 0 is __syncthreads'). */
__device__ __forceinline__ void climb_named_barrier(unsigned id, unsigned threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* Cross-block hand-off of data written by ordinary stores and read by TMA: the reader's acquire load of the flag
 * (GPU scope), then a proxy fence, so that its later copies by the async proxy (TMA) see what the acquire made
 * visible; the writer's release store of the flag after its stores (each storing thread fenced, then a barrier of
 * the block). */
__device__ __forceinline__ int climb_ld_acquire_gpu(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void climb_st_release_gpu(int *p, int v)
{
    asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void climb_fence_proxy_async_global()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.global;\n" ::: "memory");
#endif
}

#endif
