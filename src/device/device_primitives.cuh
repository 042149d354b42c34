/* Shared device primitives: warp- and block-wide reductions and scans with register shuffles, and the 16-byte
 * vector type of each element type. One header of inline device functions, used by every workload (reduce
 * today; scan, histogram, SpMV and BFS next) and tested once (tests/test_gpu_primitives.cu) - CUB's warp and
 * block layers, in miniature. C style: function templates over the element type, the operation and the block
 * size, nothing else.
 *
 * Conventions: BLOCK is blockDim.x, known at compile time, a multiple of 32 (at most 1024); every thread of
 * the block calls a block primitive (they contain __syncthreads); `scratch` is __shared__ storage of the stated
 * size that the call may overwrite and may be reused as soon as it returns. */
#ifndef CLIMB_DEVICE_DEVICE_PRIMITIVES_CUH
#define CLIMB_DEVICE_DEVICE_PRIMITIVES_CUH

#include <cuda/std/limits>
#include <string.h>

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

/* ---- math ---- */

/* 1 / sqrt(x) from the special-function unit alone: rsqrt.approx with subnormals flushed, one MUFU.RSQ. rsqrtf
 * compiled without -ftz adds a fix-up for subnormal inputs around it; callers whose x is never subnormal where the
 * result is used (a squared distance above an exclusion radius) save those instructions. */
__device__ __forceinline__ float climb_rsqrt_ftz(float x)
{
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

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

/* The lanes of a full warp whose labels agree in their low BITS bits, as a mask (what __match_any_sync gives for
 * those bits), from BITS ballots: bit b's ballot, inverted in the lanes whose bit b is clear, is the set of lanes
 * that agree with this one in bit b; the agreement in every bit is their intersection. For a few bits this is
 * faster than match.any (Adinets and Merrill's Onesweep ranks its 8-bit digits so). */
template <int BITS> __device__ __forceinline__ unsigned climb_warp_match_bits(unsigned label)
{
    /* Written in PTX so that each bit costs a ballot, a predicated NOT and an AND: the bit's test stays a predicate,
     * which ptxas loads for seven bits at once (R2P) and the NOT is predicated on. The C form (set ? ones : ~ones)
     * compiled to a shift, a mask, a compare and a select a bit besides: twice the instructions, in a kernel bound by
     * its issue slots (the Onesweep pass ranks every key so). */
    unsigned peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < BITS; b++) {
        unsigned agree;
        asm("{\n\t.reg .pred p;\n\t"
            "and.b32 %0, %1, %2;\n\t"
            "setp.ne.u32 p, %0, 0;\n\t"
            "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
            "@!p not.b32 %0, %0;\n\t}"
            : "=r"(agree)
            : "r"(label), "r"(1u << b));
        peers &= agree;
    }
    return peers;
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

/* The GPU's global timer, in nanoseconds (the same clock on every SM). */
__device__ __forceinline__ unsigned long long climb_globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

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

/* Thread 0 of a block that hands a result to the last block, after writing it: the block's ticket (the count before
 * its own; the block that draws gridDim.x - 1 is the last). One acquire-release atomic: its release makes this
 * thread's earlier writes visible before the ticket, its acquire makes the other blocks' writes visible to what this
 * thread does next (and, after a __syncwarp or __syncthreads, to its warp or block). No fence of its own, unlike
 * climb_last_block. The caller resets *ticket to 0 (from the last block) for the next launch. */
__device__ __forceinline__ unsigned climb_ticket_acq_rel(unsigned *ticket)
{
    unsigned before;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(before) : "l"(ticket) : "memory");
    return before;
}

/* ---- single-pass tile scan: decoupled look-back ----
 *
 * Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (NVIDIA, 2016). A grid scans
 * tiles in one pass: each block draws a tile in the order blocks start (a ticket, so a tile's predecessors are
 * already running), publishes its tile's aggregate at once, looks back over its predecessors' words and adds
 * aggregates until it meets one that is an inclusive prefix, then publishes its own inclusive prefix.
 *
 * The workspace: a climb_lookback_hdr (CLIMB_LOOKBACK_HDR bytes), then one 64-bit status word per tile: the high
 * half (epoch + 1) << 1 | 1 for an inclusive prefix, | 0 for an aggregate alone; the low half the value's 32 bits.
 * A flag and its value travel in one 64-bit store, so no fence is needed between them. A word written by an
 * earlier launch carries an older epoch and reads as "not ready": the workspace is zeroed once, never between
 * launches (CUB runs an initialisation kernel instead). After CLIMB_LOOKBACK_EPOCHS launches the epoch wraps and
 * that launch's last block clears the words (climb_lookback_finish). Values of 4 bytes (int, unsigned, float). */
#define CLIMB_LOOKBACK_EPOCHS 0x7fffffffu
#define CLIMB_LOOKBACK_HDR 16u

struct climb_lookback_hdr {
    unsigned long long ticket;   /* the launch's epoch in the high half, the next ticket in the low half */
    unsigned done;               /* blocks finished, counted in the wrapping launch only */
    unsigned pad;
};

template <typename T> __device__ __forceinline__ unsigned climb_lookback_bits(T v)
{
    static_assert(sizeof(T) == 4, "look-back values are 4 bytes");
    unsigned b;
    memcpy(&b, &v, 4);
    return b;
}
template <typename T> __device__ __forceinline__ T climb_lookback_from_bits(unsigned b)
{
    T v;
    memcpy(&v, &b, 4);
    return v;
}
__device__ __forceinline__ unsigned long long climb_lookback_load(const unsigned long long *p)
{
    return *(const volatile unsigned long long *)p;
}
template <typename T>
__device__ __forceinline__ void climb_lookback_publish(unsigned long long *p, unsigned marker, int inclusive, T v)
{
    *(volatile unsigned long long *)p =
        (unsigned long long)((marker << 1) | (unsigned)inclusive) << 32 | climb_lookback_bits(v);
}

/* Thread 0 of each block: the tile this block scans (in the order blocks start) and the launch's epoch. The block
 * that draws the last ticket moves the word to the next epoch and ticket 0. */
__device__ __forceinline__ void climb_lookback_ticket(climb_lookback_hdr *h, unsigned tiles, unsigned *tile,
                                                      unsigned *epoch)
{
    const unsigned long long old = atomicAdd(&h->ticket, 1ull);
    *epoch = (unsigned)(old >> 32);
    *tile = (unsigned)old;
    if (*tile == tiles - 1)
        atomicExch(&h->ticket, (unsigned long long)((*epoch + 1) % CLIMB_LOOKBACK_EPOCHS) << 32);
}

/* Every thread of every block, at its end: in the launch whose epoch wraps, the last block out clears the
 * `capacity` status words. */
template <unsigned BLOCK>
__device__ __forceinline__ void climb_lookback_finish(climb_lookback_hdr *h, unsigned long long *status,
                                                      unsigned capacity, unsigned epoch, unsigned tiles)
{
    if (epoch != CLIMB_LOOKBACK_EPOCHS - 1)
        return;
    __shared__ int last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(&h->done, 1u) == tiles - 1;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    for (unsigned i = threadIdx.x; i < capacity; i += BLOCK)
        status[i] = 0;
    if (threadIdx.x == 0)
        h->done = 0;
}

/* The 32 lanes of one warp of the block scanning `tile` (marker: its epoch + 1), with the tile's aggregate:
 * publishes it, looks back 32 tiles at a time (the nearest inclusive prefix ends the walk), publishes the tile's
 * inclusive prefix, and returns in every lane the sum of every tile before this one (the identity for tile 0).
 * first_ns: a sleep between publishing the aggregate and the first read of the window, so that the predecessors'
 * words have landed before it is read (0: none). poll_ns: the sleep before reading a window again that was not all
 * ready (0: a back-off from 32 ns doubling to 512). Polling warps compete with the data for L2: on a grid that
 * streams memory, reading later and less often is faster (scan.cu, docs/scan.md). */
template <typename T>
__device__ __forceinline__ T climb_lookback_prefix(unsigned long long *status, unsigned tile, unsigned marker,
                                                   T aggregate, unsigned first_ns = 0, unsigned poll_ns = 0)
{
    const unsigned lane = threadIdx.x & 31;
    T prefix = T(0);
    if (tile == 0) {
        if (lane == 0)
            climb_lookback_publish(&status[0], marker, 1, aggregate);
        return prefix;
    }
    if (lane == 0)
        climb_lookback_publish(&status[tile], marker, 0, aggregate);
    if (first_ns)
        __nanosleep(first_ns);
    long long pos = (long long)tile - 1;
    for (;;) {
        const long long i = pos - lane;
        unsigned long long w;
        bool ready;
        for (unsigned sleep = 32;; sleep = sleep < 512 ? 2 * sleep : sleep) {
            w = i >= 0 ? climb_lookback_load(&status[i]) : (unsigned long long)((marker << 1) | 1u) << 32;
            ready = (unsigned)(w >> 33) == marker;
            if (__all_sync(0xffffffffu, ready))
                break;
            __nanosleep(poll_ns ? poll_ns : sleep);
        }
        const unsigned p = __ballot_sync(0xffffffffu, (unsigned)(w >> 32) & 1u);
        T v = climb_lookback_from_bits<T>((unsigned)w);
        if (p && (int)lane > __ffs(p) - 1)
            v = T(0); /* past the nearest inclusive prefix */
        prefix = prefix + climb_warp_sum(v);
        if (p)
            break;
        pos -= 32;
    }
    if (lane == 0)
        climb_lookback_publish(&status[tile], marker, 1, prefix + aggregate);
    return prefix;
}

/* ---- a warp's search of a sorted array ---- */

/* The last index i of a[0 .. n) (nondecreasing, a[0] <= k, n >= 1) with a[i] <= k: every lane of a full warp calls
 * it and gets the answer. The warp probes 32 evenly spaced points of the range a step, so 2^20 entries take 4
 * dependent steps (a thread's binary search takes 20). The owner of item k when a holds each list's first item. */
__device__ __forceinline__ int climb_warp_search_le(const int *a, int n, int k)
{
    const int lane = threadIdx.x & 31;
    int lo = 0, hi = n;
    while (hi - lo > 1) {
        const int step = (hi - lo + 31) / 32, p = lo + lane * step;
        const unsigned ok = __ballot_sync(0xffffffffu, p < hi && a[p] <= k); /* lane 0's probe, lo, always is */
        lo += (31 - __clz(ok)) * step;
        hi = min(lo + step, hi);
    }
    return lo;
}

/* ---- runs of items ---- */

/* Which of 32 runs of items item k falls in, the runs laid end to end (run i: items end(i - 1) to end(i) - 1, end(-1)
 * = 0; the ends nondecreasing, so a run may be empty): the number of runs that end at or before k, by five probes
 * of end (a binary search). Where k is below end(31) that run holds k and is not empty; else 31. end(i) is run i's
 * end: on the device the lanes' own values by shuffles (climb_warp_run_of), on the host an array (the tests). */
#pragma nv_exec_check_disable
template <typename End> __host__ __device__ __forceinline__ int climb_run_of32(const End &end, int k)
{
    int b = 0;
    for (int s = 16; s >= 1; s >>= 1) /* five steps, unrolled by the compiler */
        if (end(b + s - 1) <= k) /* every lane probes (a shuffle needs them all), whatever it then takes */
            b += s;
    return b;
}

struct climb_lane_ends {
    int inc; /* this lane's run's inclusive end */
    __device__ __forceinline__ int operator()(int i) const { return __shfl_sync(0xffffffffu, inc, i); }
};

/* The lane whose run holds item k, where each lane of a full warp holds a run of items and inc is the inclusive scan
 * of the runs' lengths (climb_warp_inclusive_scan): a warp spreads its lanes' lists over all its lanes so. Every lane
 * calls it, each with its own k; k at or past the total gives 31. */
__device__ __forceinline__ int climb_warp_run_of(int inc, int k) { return climb_run_of32(climb_lane_ends{inc}, k); }

/* ---- merge path ---- */

/* The merge-path search (Green, McColl and Bader, "GPU Merge Path"; Merrill and Garland's merge-based SpMV): on
 * the merge of a sorted list of `a_len` row ends e[] with the natural numbers 0 .. b_len - 1 (the nonzeros), how
 * many row ends come before position `diagonal` of the merged order, a row end counted first on a tie (a row's
 * end e[r] sorts after nonzero e[r] - 1). Binary search along the diagonal: O(log min(a_len, diagonal)). Host
 * and device. */
__host__ __device__ __forceinline__ int climb_merge_path_search(const int *e, int a_len, int b_len, int diagonal)
{
    int lo = diagonal - b_len > 0 ? diagonal - b_len : 0, hi = diagonal < a_len ? diagonal : a_len;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (e[mid] <= diagonal - 1 - mid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- programmatic dependent launch (sm_90 and later; nothing before) ---- */

/* A kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may start while the kernel before it
 * in the stream is still running: before it reads what that kernel wrote, it waits here for it to finish (and its
 * writes to be visible). Without the attribute, or before sm_90, it returns at once. */
__device__ __forceinline__ void climb_grid_dependency_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Lets the next kernel in the stream (if launched with the attribute) begin launching once every block of this one
 * has called it or exited: its blocks then wait in climb_grid_dependency_wait, already resident. */
__device__ __forceinline__ void climb_grid_dependents_launch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* ---- co-rank ---- */

/* The co-rank of position k in the stable merge of sorted a[0 .. m) and b[0 .. n), an element of a first on a tie
 * (Siebert and Träff, "Perfectly load-balanced, optimal, stable, parallel merge"; Kirk and Hwu, PMPP chapter 11):
 * how many of the first k outputs come from a (the rest, k minus that, from b). Binary search for the first i with
 * a[i] > b[k - i - 1]: O(log min(m, n)). a and b are anything indexable (pointers, or a circular buffer's view).
 * 0 <= k <= m + n. Host and device. */
template <typename A, typename B>
__host__ __device__ __forceinline__ int climb_co_rank(int k, const A &a, int m, const B &b, int n)
{
    int lo = k > n ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (!(b[k - mid - 1] < a[mid]))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- loads with an L2 eviction priority (sm_80 and later; plain loads before) ---- */

/* An L2 eviction policy for data a kernel reads once: evict-first, so that under pressure the L2 gives these lines
 * up before the lines it keeps at normal priority (what the kernel reads again: a gathered vector). */
__device__ __forceinline__ unsigned long long climb_l2_evict_first_policy()
{
    unsigned long long p = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
#endif
    return p;
}

/* A read-only load (the non-coherent path: the data must not change during the kernel) under an L2 policy. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CLIMB_LD_POLICY(T, SUFFIX, C)                                                                                 \
    __device__ __forceinline__ T climb_ld_policy(const T *a, unsigned long long p)                                   \
    {                                                                                                                 \
        T v;                                                                                                          \
        asm("ld.global.nc.L2::cache_hint." SUFFIX " %0, [%1], %2;" : "=" C(v) : "l"(a), "l"(p));                     \
        return v;                                                                                                     \
    }
#else
#define CLIMB_LD_POLICY(T, SUFFIX, C)                                                                                 \
    __device__ __forceinline__ T climb_ld_policy(const T *a, unsigned long long) { return __ldg(a); }
#endif
CLIMB_LD_POLICY(float, "f32", "f")
CLIMB_LD_POLICY(double, "f64", "d")
CLIMB_LD_POLICY(int, "s32", "r")
CLIMB_LD_POLICY(unsigned short, "u16", "h")
#undef CLIMB_LD_POLICY
__device__ __forceinline__ unsigned char climb_ld_policy(const unsigned char *a, unsigned long long p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned v;
    asm("ld.global.nc.L2::cache_hint.u8 %0, [%1], %2;" : "=r"(v) : "l"(a), "l"(p));
    return (unsigned char)v;
#else
    (void)p;
    return __ldg(a);
#endif
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

/* a += b, element by element (a scalar as itself): the same code over a 16-byte vector or one element. */
__device__ __forceinline__ void climb_vec_add(int4 &a, const int4 &b) { a.x += b.x, a.y += b.y, a.z += b.z, a.w += b.w; }
__device__ __forceinline__ void climb_vec_add(uint4 &a, const uint4 &b) { a.x += b.x, a.y += b.y, a.z += b.z, a.w += b.w; }
__device__ __forceinline__ void climb_vec_add(float4 &a, const float4 &b) { a.x += b.x, a.y += b.y, a.z += b.z, a.w += b.w; }
__device__ __forceinline__ void climb_vec_add(double2 &a, const double2 &b) { a.x += b.x, a.y += b.y; }
template <typename T> __device__ __forceinline__ void climb_vec_add(T &a, const T &b) { a += b; }

/* ---- a block's tiles of shared memory ---- */

/* Every thread of the block gets every element of src[begin .. end), in order: the block stages them through `tile`
 * (T elements of shared memory, thread t loading element t of each tile) and each thread calls f(element) for each;
 * the broadcast loop of the Coulomb kernels (an element read from global memory once a block, from shared
 * memory by every thread). UNROLL: the inner loop's unroll count (0: the compiler's choice). Every thread of the block
 * must call it (it holds barriers). */
template <int T, int UNROLL = 0, typename E, typename F>
__device__ __forceinline__ void climb_block_tiles(const E *__restrict__ src, int begin, int end, E *tile, int t, F f)
{
    for (int a0 = begin; a0 < end; a0 += T) {
        const int m = min(T, end - a0);
        __syncthreads();
        if (t < m)
            tile[t] = src[a0 + t];
        __syncthreads();
        if constexpr (UNROLL == 0) {
            for (int a = 0; a < m; a++)
                f(tile[a]);
        } else {
#pragma unroll UNROLL
            for (int a = 0; a < m; a++)
                f(tile[a]);
        }
    }
}

#endif
