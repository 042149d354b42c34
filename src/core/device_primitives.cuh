/* Shared device primitives: warp- and block-wide reductions and scans with register shuffles, and the 16-byte
 * vector type of each element type. One header of inline device functions, used by every workload (reduce
 * today; scan, histogram, SpMV and BFS next) and tested once (tests/test_gpu_primitives.cu) - CUB's warp and
 * block layers, in miniature. C style: function templates over the element type, the operation and the block
 * size, nothing else.
 *
 * Conventions: BLOCK is blockDim.x, known at compile time, a multiple of 32 (at most 1024); every thread of
 * the block calls a block primitive (they contain __syncthreads); `scratch` is __shared__ storage of the stated
 * size that the call may overwrite and may be reused as soon as it returns. */
#ifndef CLIMB_CORE_DEVICE_PRIMITIVES_CUH
#define CLIMB_CORE_DEVICE_PRIMITIVES_CUH

#include <cuda/std/limits>

/* ---- operations ---- */

struct climb_op_sum {
    template <typename T> __device__ __forceinline__ static T apply(T a, T b) { return a + b; }
    template <typename T> __device__ __forceinline__ static T identity() { return T(0); }
};

struct climb_op_max {
    template <typename T> __device__ __forceinline__ static T apply(T a, T b) { return a > b ? a : b; }
    template <typename T> __device__ __forceinline__ static T identity() { return cuda::std::numeric_limits<T>::lowest(); }
};

struct climb_op_min {
    template <typename T> __device__ __forceinline__ static T apply(T a, T b) { return a < b ? a : b; }
    template <typename T> __device__ __forceinline__ static T identity() { return cuda::std::numeric_limits<T>::max(); }
};

/* ---- warp ---- */

/* The reduction of v over the 32 lanes of a full warp, in every lane (butterfly: 5 shuffles). */
template <typename Op, typename T> __device__ __forceinline__ T climb_warp_reduce(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v = Op::apply(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

template <typename T> __device__ __forceinline__ T climb_warp_sum(T v) { return climb_warp_reduce<climb_op_sum>(v); }
template <typename T> __device__ __forceinline__ T climb_warp_max(T v) { return climb_warp_reduce<climb_op_max>(v); }
template <typename T> __device__ __forceinline__ T climb_warp_min(T v) { return climb_warp_reduce<climb_op_min>(v); }

/* Inclusive scan over the lanes of a full warp (Kogge-Stone with shuffles: lane i gets op over lanes 0..i). */
template <typename Op, typename T> __device__ __forceinline__ T climb_warp_inclusive_scan(T v)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        T y = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v = Op::apply(y, v);
    }
    return v;
}

/* Exclusive scan over the lanes of a full warp: lane i gets op over lanes 0..i-1 (lane 0 the identity). */
template <typename Op, typename T> __device__ __forceinline__ T climb_warp_exclusive_scan(T v)
{
    T inc = climb_warp_inclusive_scan<Op>(v);
    T exc = __shfl_up_sync(0xffffffffu, inc, 1);
    return (threadIdx.x & 31) == 0 ? Op::template identity<T>() : exc;
}

/* ---- block ---- */

/* The reduction of v over the block, valid in every lane of warp 0 (thread 0 usually writes it).
 * scratch: BLOCK / 32 elements. */
template <typename Op, unsigned BLOCK, typename T> __device__ __forceinline__ T climb_block_reduce(T v, T *scratch)
{
    static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK must be a multiple of 32, at most 1024");
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = climb_warp_reduce<Op>(v);
    if (BLOCK == 32)
        return v;
    __syncthreads(); /* scratch may still be read by an earlier call */
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK / 32 ? scratch[lane] : Op::template identity<T>();
        v = climb_warp_reduce<Op>(v);
    }
    return v;
}

template <unsigned BLOCK, typename T> __device__ __forceinline__ T climb_block_sum(T v, T *scratch)
{
    return climb_block_reduce<climb_op_sum, BLOCK>(v, scratch);
}
template <unsigned BLOCK, typename T> __device__ __forceinline__ T climb_block_max(T v, T *scratch)
{
    return climb_block_reduce<climb_op_max, BLOCK>(v, scratch);
}
template <unsigned BLOCK, typename T> __device__ __forceinline__ T climb_block_min(T v, T *scratch)
{
    return climb_block_reduce<climb_op_min, BLOCK>(v, scratch);
}

/* Inclusive scan over the block in thread order: thread i gets op over threads 0..i; *total (if not NULL) gets
 * the whole block's in every thread. Warp scans, then one warp scans the warp totals. scratch: BLOCK/32 + 1. */
template <typename Op, unsigned BLOCK, typename T>
__device__ __forceinline__ T climb_block_inclusive_scan(T v, T *scratch, T *total)
{
    static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK must be a multiple of 32, at most 1024");
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = climb_warp_inclusive_scan<Op>(v);
    __syncthreads(); /* scratch may still be read by an earlier call */
    if (lane == 31)
        scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        T w = lane < BLOCK / 32 ? scratch[lane] : Op::template identity<T>();
        T inc = climb_warp_inclusive_scan<Op>(w);
        /* Each lane reads and writes only its own slot: no race within warp 0. Each warp's prefix: the inclusive scan of the warp totals before it. */
        T exc = __shfl_up_sync(0xffffffffu, inc, 1);
        if (lane < BLOCK / 32)
            scratch[lane] = lane == 0 ? Op::template identity<T>() : exc;
        if (lane == 31)
            scratch[BLOCK / 32] = inc; /* lane 31 holds the total of all warps (identity past the last) */
    }
    __syncthreads();
    v = Op::apply(scratch[warp], v);
    if (total)
        *total = scratch[BLOCK / 32];
    return v;
}

/* Exclusive scan over the block: thread i gets op over threads 0..i-1 (thread 0 the identity). */
template <typename Op, unsigned BLOCK, typename T>
__device__ __forceinline__ T climb_block_exclusive_scan(T v, T *scratch, T *total)
{
    T inc = climb_block_inclusive_scan<Op, BLOCK>(v, scratch, total);
    /* inc - v is not available for every op (max), so take the neighbour's inclusive value through shuffles and
     * the warp prefixes in scratch, which are still there. */
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T prev = __shfl_up_sync(0xffffffffu, inc, 1);
    return lane == 0 ? scratch[warp] : prev;
}

/* ---- grid ---- */

/* Every thread of every block calls it once, after the block has written what it leaves for the others (a partial
 * sum in a slot): true in every thread of the block that arrives last, which may then read every block's slot.
 * Thread 0 fences the block's writes device-wide before it takes a ticket; the last block fences again before it
 * reads. The caller resets *ticket to 0 (from the last block) for the next launch. */
__device__ __forceinline__ bool climb_last_block(unsigned *ticket)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last)
        __threadfence();
    return last;
}

/* ---- wide loads ---- */

/* The 16-byte vector type of an element type, and how many elements it holds. */
template <typename T> struct climb_vec16;
template <> struct climb_vec16<int> { typedef int4 type; enum { count = 4 }; };
template <> struct climb_vec16<unsigned> { typedef uint4 type; enum { count = 4 }; };
template <> struct climb_vec16<float> { typedef float4 type; enum { count = 4 }; };
template <> struct climb_vec16<double> { typedef double2 type; enum { count = 2 }; };

/* The sum of the elements of a 16-byte vector, pairwise. */
__device__ __forceinline__ int climb_vec_sum(int4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ unsigned climb_vec_sum(uint4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ float climb_vec_sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ double climb_vec_sum(double2 v) { return v.x + v.y; }

#endif
