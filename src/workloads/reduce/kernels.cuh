/* Reduction's policy (elements a thread, blocks a wave), device helpers and kernels (src/workloads/reduce/), one group per rung.
 * Included by reduce.cu where it stands in the file (after the CPU reference and before the launchers); not a header
 * of its own. */
/* ---------------------------------------------------------------- policy */

/* Block size of every rung but the vendor's and the best. A power of two (the interleaved rungs need it) and a
 * multiple of 64 (reduce_unroll_last_warp and reduce_complete_unroll unroll the last 64 elements). */
#define REDUCE_BLOCK 256u
/* The grid-stride rungs launch at most this many blocks per SM: 8 x 256 = 2048 threads, a full SM on CC 9.0,
 * as the text advises (enough blocks to fill the GPU, no more). */
#define REDUCE_BLOCKS_PER_SM 8u

/* The best rung's three tunable parameters and their candidate values, each listed once (`climb tune reduce`
 * tries every combination that keeps the grid within one resident wave of threads):
 *   block          threads per block
 *   blocks_per_sm  blocks launched per SM (the grid is this times the SM count, fewer for small n)
 *   vecs           16-byte loads each thread has in flight per grid step
 * The lists make the values arrays and the table of kernel instances (block and vecs are compile-time). */
#define REDUCE_TUNE_BLOCK_LIST(X) X(128) X(256) X(512) X(1024)
#define REDUCE_TUNE_BLOCKS_PER_SM_LIST(X) X(1) X(2) X(3) X(4) X(6) X(8) X(12) X(16)
#define REDUCE_TUNE_VECS_LIST(X, B) X(B, 1) X(B, 2) X(B, 4) X(B, 8)
#define REDUCE_VALUE(v) v,
#define REDUCE_SECOND(b, v) v,
static const int REDUCE_TUNE_BLOCKS[] = {REDUCE_TUNE_BLOCK_LIST(REDUCE_VALUE)};
static const int REDUCE_TUNE_BLOCKS_PER_SM[] = {REDUCE_TUNE_BLOCKS_PER_SM_LIST(REDUCE_VALUE)};
static const int REDUCE_TUNE_VECS[] = {REDUCE_TUNE_VECS_LIST(REDUCE_SECOND, 0)};

/* Built-in values per architecture, used where no wisdom file matches the device.
 * CC 9.x: chosen on an H200 (2026-11-22, cold L2, median of 200+ samples): with 512 threads, 4 blocks per
 * SM and 4 loads in flight, 2^28 i32 took 232.9 us and f32 234.3 us, against 233.6 and 235.4 us with 256
 * threads and 8 blocks per SM. Also tried and slower: 8 or 16 loads in flight (2^28 i32 up to 254 us),
 * one contiguous share per block instead of the grid stride (+1 to 3%), and the L2::256B prefetch hint
 * on the loads (+7% at 2^28). `climb tune reduce` on an H200 (results/h200/reduce/tune.md) kept them: of 80
 * candidates the fastest, 512/3/4, scored 0.5% better, inside the 1% tie rule.
 * Other architectures: not measured; 512 threads, as many blocks as fill the SM's threads, 4 loads.
 * The defaults do not depend on the case: the same values serve every n and both types. */
typedef struct reduce_arch_policy {
    int cc_major;                 /* 0: any other architecture */
    int block, blocks_per_sm, vecs;
    const char *source;
} reduce_arch_policy;
static const reduce_arch_policy REDUCE_ARCH_POLICY[] = {
    {9, 512, 4, 4, "built-in CC 9.x policy (measured on an H200)"},
    {0, 512, 0, 4, "built-in default (not measured on this architecture: 512 threads, blocks to fill the SM, 4 loads)"},
};

/* ---------------------------------------------------------------- device helpers */

/* The last 64 partial sums of a shared-memory tree, by the first warp alone. Since Volta the threads
 * of a warp are scheduled independently, so Harris's implicit lock-step (a volatile pointer and no
 * barrier) is a race: a lane may read s[tid + 16] before the lane that owns it has written it. Here
 * each step reads into a register, then __syncwarp() orders every read before any lane writes, and a
 * second __syncwarp() makes the writes visible before the next step reads. */
template <typename T> __device__ __forceinline__ void warp_tail_sum(T *s, unsigned tid)
{
    T v = s[tid];
#pragma unroll
    for (unsigned offset = 32; offset > 0; offset >>= 1) {
        v += s[tid + offset];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
}

/* ---------------------------------------------------------------- kernels */

/* reduce_interleaved_divergent: interleaved addressing, divergent branch. Each block loads REDUCE_BLOCK elements into
 * shared memory and halves them in a tree where the threads whose index is a multiple of 2*stride do
 * the adds. The active threads are scattered over every warp, so almost every warp diverges at every
 * step, and `%` is a slow integer operation. The text's kernel 1. */
template <typename T>
__global__ void reduce_interleaved_divergent_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n)
{
    __shared__ T s[REDUCE_BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : (T)0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_interleaved_strided: interleaved addressing, strided index. The same tree, but thread k adds at 2*stride*k, so
 * the active threads are the first ones and whole warps go idle together: no divergence and no `%`.
 * The price: the strided shared-memory accesses of one warp fall into the same banks (2-way at
 * stride 1, up to 16-way later), and those accesses serialise. */
template <typename T>
__global__ void reduce_interleaved_strided_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n)
{
    __shared__ T s[REDUCE_BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : (T)0;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned idx = 2 * stride * tid;
        if (idx < blockDim.x)
            s[idx] += s[idx + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_seq_addressing: sequential addressing. Thread k adds s[k + stride] into s[k] with the stride halving from
 * blockDim/2: a warp reads 32 consecutive words, one per bank, so there are no bank conflicts. Half
 * the threads are idle from the first step, which the next rung fixes. */
template <typename T>
__global__ void reduce_seq_addressing_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n)
{
    __shared__ T s[REDUCE_BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : (T)0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_first_add_load: first add during the global load. Each block covers 2*blockDim elements and every thread
 * adds its two before the tree starts, so no thread is idle at the first step and half as many blocks
 * (and a shallower launch chain) are needed. */
template <typename T>
__global__ void reduce_first_add_load_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n)
{
    __shared__ T s[REDUCE_BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (2 * blockDim.x) + tid;
    T v = i < n ? in[i] : (T)0;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_unroll_last_warp: unrolled last warp. Once 64 partial sums are left, only the first warp works; it finishes
 * without __syncthreads() and without the loop's bookkeeping (see warp_tail_sum for why this is
 * correct under independent thread scheduling where Harris's version is not). */
template <typename T>
__global__ void reduce_unroll_last_warp_kernel(const T *__restrict__ in, T *__restrict__ out, size_t n)
{
    __shared__ T s[REDUCE_BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (2 * blockDim.x) + tid;
    T v = i < n ? in[i] : (T)0;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32)
        warp_tail_sum(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* Shared-memory tree for a block of compile-time size BLOCK (a power of two, >= 64): every `if` on
 * BLOCK is decided by the compiler, so the loop, its counter and its comparisons disappear. */
template <typename T, unsigned BLOCK> __device__ __forceinline__ void block_tree_unrolled(T *s, unsigned tid)
{
    if (BLOCK >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; __syncthreads(); }
    if (BLOCK >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (BLOCK >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (BLOCK >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
    if (tid < 32)
        warp_tail_sum(s, tid);
}

/* reduce_complete_unroll: completely unrolled. The block size becomes a template parameter and the whole tree is
 * unrolled (block_tree_unrolled). The launcher instantiates it once, for the policy's REDUCE_BLOCK,
 * so there is no switch over instances. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_complete_unroll_kernel(const T *__restrict__ in, T *__restrict__ out,
                                                                       size_t n)
{
    __shared__ T s[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * (2 * BLOCK) + tid;
    T v = i < n ? in[i] : (T)0;
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    s[tid] = v;
    __syncthreads();
    block_tree_unrolled<T, BLOCK>(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_multi_element: multiple elements per thread (algorithm cascading). A fixed grid of about a full GPU's worth
 * of blocks walks the input with a grid-sized stride (coalesced at every step), each thread adding
 * many elements in a register before the one tree per block. Far fewer blocks, so a second launch of
 * one block finishes the job instead of a chain of launches. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_multi_element_kernel(const T *__restrict__ in, T *__restrict__ out,
                                                                     size_t n)
{
    __shared__ T s[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t grid_stride = (size_t)2 * BLOCK * gridDim.x;
    T v = 0;
    for (size_t i = (size_t)blockIdx.x * (2 * BLOCK) + tid; i < n; i += grid_stride) {
        v += in[i];
        if (i + BLOCK < n)
            v += in[i + BLOCK];
    }
    s[tid] = v;
    __syncthreads();
    block_tree_unrolled<T, BLOCK>(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

/* reduce_warp_shuffle: warp shuffles. The same grid-stride accumulation, but the per-block sum runs in registers:
 * each warp sums with __shfl_down_sync (five steps, no shared memory, no barrier), then one warp sums
 * the warp totals. One small shared array and two barriers remain instead of log2(BLOCK). */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_warp_shuffle_kernel(const T *__restrict__ in, T *__restrict__ out,
                                                                    size_t n)
{
    __shared__ T scratch[BLOCK / 32];
    const size_t grid_stride = (size_t)2 * BLOCK * gridDim.x;
    T v = 0;
    for (size_t i = (size_t)blockIdx.x * (2 * BLOCK) + threadIdx.x; i < n; i += grid_stride) {
        v += in[i];
        if (i + BLOCK < n)
            v += in[i + BLOCK];
    }
    v = climb_block_sum<BLOCK>(v, scratch);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

/* reduce_vectorized_single_pass, the best rung: wide loads, many in flight, one pass. The input is split at 16-byte boundaries
 * into a head (0-3 elements), a body of 16-byte vectors and a tail (0-3 elements), so any alignment
 * and any n work. Each thread issues VECS independent 16-byte loads before it uses any of them, which
 * keeps enough bytes in flight to cover DRAM latency. One launch does the whole reduction: the last
 * block to finish writes the result.
 * - i32: one 64-bit atomic per block carries both its sum and its ticket (count in the top 16 bits,
 *   the blocks' sums as unsigned 32-bit values added in the low 48, which cannot overflow for fewer
 *   than 65536 blocks). The block that draws the last ticket holds the total mod 2^32 in the atomic's
 *   return value: no fence, no second read of anything, and the word is reset for the next call.
 * - f32: each block writes its sum to a slot and takes a ticket (an acquire-release atomic: no separate fence);
 *   the last block's first warp adds the slots in a fixed order, so f32 results repeat exactly (16 loads in
 *   flight a lane), and resets the ticket. (With a fence, a block barrier and the whole last block adding, 2^18
 *   and 2^20 ran 0.6 us slower.)
 * The workspace: the 64-bit word, the 32-bit ticket, then one slot per block; zeroed once, left zeroed. */
#define REDUCE_SLOT_BATCH 16u /* slots a lane of the finishing warp loads at once */
template <typename T, unsigned BLOCK, unsigned VECS>
__global__ void __launch_bounds__(BLOCK) reduce_vectorized_single_pass_kernel(const T *__restrict__ in, size_t n,
                                                                              T *__restrict__ out,
                                                                              unsigned long long *packed,
                                                                              unsigned *ticket, T *partials)
{
    typedef typename climb_vec16<T>::type V;
    __shared__ T scratch[BLOCK / 32];

    size_t head = ((16 - ((uintptr_t)in & 15)) & 15) / sizeof(T);
    if (head > n)
        head = n;
    const size_t nvec = (n - head) / 4;
    const size_t tail_start = head + 4 * nvec;
    const V *body = reinterpret_cast<const V *>(in + head);

    const size_t gtid = (size_t)blockIdx.x * BLOCK + threadIdx.x;
    T v = 0;
    if (gtid < head)
        v += in[gtid];
    if (gtid < n - tail_start)
        v += in[tail_start + gtid];

    /* Block b owns chunks of BLOCK*VECS consecutive vectors, one chunk per grid step. */
    const size_t step = (size_t)gridDim.x * BLOCK * VECS;
    size_t i = (size_t)blockIdx.x * BLOCK * VECS + threadIdx.x;
    for (; i + (VECS - 1) * BLOCK < nvec; i += step) {
        V r[VECS];
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
            r[k] = body[i + k * BLOCK];
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
            v += climb_vec_sum(r[k]);
    }
#pragma unroll
    for (unsigned k = 0; k < VECS; k++) /* the one partial chunk at the end, if it is this block's */
        if (i + k * BLOCK < nvec) {
            V r = body[i + k * BLOCK];
            v += climb_vec_sum(r);
        }

    v = climb_block_sum<BLOCK>(v, scratch);
    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            *out = v;
        return;
    }
    if constexpr (std::is_same<T, int32_t>::value) {
        if (threadIdx.x == 0) {
            const unsigned long long mine = (1ull << 48) | (unsigned)v;
            const unsigned long long before = atomicAdd(packed, mine);
            if ((before >> 48) == gridDim.x - 1) {
                *out = (T)(unsigned)(before + mine);
                *packed = 0;
            }
        }
        return;
    }
    /* f32: warp 0 alone. Thread 0 writes the slot and takes the ticket with one acquire-release atomic
       (climb_ticket_acq_rel), so neither a full fence nor a block barrier is needed; the last block's warp then adds
       the slots. */
    if (threadIdx.x >= 32)
        return;
    unsigned last = 0;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        last = climb_ticket_acq_rel(ticket) == gridDim.x - 1;
    }
    if (!__shfl_sync(0xffffffffu, last, 0))
        return;
    __syncwarp(); /* the lanes' reads after lane 0's acquire */
    /* Each lane adds slots lane, lane + 32, lane + 64, ... in that order (so the result repeats exactly), with
       REDUCE_SLOT_BATCH of its loads in flight at once: one load at a time cost one L2 round trip a slot, 16 in a
       row at 512 blocks (11.6 -> 11.1 us at 2^22, docs/reduce.md). */
    T total = 0;
    for (unsigned j0 = threadIdx.x; j0 < gridDim.x; j0 += 32 * REDUCE_SLOT_BATCH) {
        T p[REDUCE_SLOT_BATCH];
#pragma unroll
        for (unsigned k = 0; k < REDUCE_SLOT_BATCH; k++) /* from L2: other SMs wrote them */
            p[k] = j0 + 32 * k < gridDim.x ? __ldcg(&partials[j0 + 32 * k]) : T(0);
#pragma unroll
        for (unsigned k = 0; k < REDUCE_SLOT_BATCH; k++)
            if (j0 + 32 * k < gridDim.x)
                total += p[k];
    }
    total = climb_warp_sum(total);
    if (threadIdx.x == 0) {
        *out = total;
        *ticket = 0;
    }
}
