/* The radix sort rungs' kernels (src/workloads/sort/), after Hwu, Kirk and El Hajj, Programming Massively Parallel
 * Processors (4th edition), chapter 13: least-significant-digit radix sort, one digit of BITS bits a pass, each pass
 * three kernels: every tile's digit counts (radix_count_kernel), their exclusive scan in digit-major order (the
 * project's single-pass scan, climb_scan_best), and the stable scatter (radix_scatter_kernel), where a key of digit d
 * in tile b goes to the scan's offset of (d, b) plus its rank among the tile's keys of digit d.
 *
 * A tile is BLOCK x ITEMS keys; thread t holds the tile's keys t x ITEMS .. t x ITEMS + ITEMS - 1 (ITEMS odd: the
 * blocked reads of shared memory fall in distinct banks). The ranks come from one-bit splits, each a block-wide
 * exclusive scan of the zeros (the book's split), or from the warps' matches. The ranking (RANK):
 *   RADIX_DIRECT  one split by the pass's one bit; each thread writes its keys straight to their places in memory
 *                 (the book's first kernel);
 *   RADIX_SPLITS  the tile sorted by its digit in shared memory first, BITS splits, so that the writes of a warp
 *                 fall in a few runs of consecutive addresses (the book's coalescing refinement);
 *   RADIX_MATCH   the same local sort, ranked in one round a key instead of one split a bit: each warp takes its
 *                 slice of the tile 32 keys at a time, finds the lanes that share a key's digit (__match_any_sync),
 *                 ranks the key among them and keeps a counter a digit for the warp; the warps' counters, scanned
 *                 over warps and digits, give every key its place (the warp-level multisplit of Onesweep: Adinets
 *                 and Merrill, 2022).
 *
 * Past the end of the array a tile holds padding keys whose code is all ones: their digit is the largest, the splits
 * are stable, so they stay behind every real key and are never written.
 *
 * Key types (KT, radix_key below): the kernels sort the keys' codes, an unsigned integer of the key's width whose
 * order is the keys' order, and move the keys themselves. The code of an unsigned key is the key; of a signed
 * integer, its bits with the sign bit flipped; of a float, its bits with the sign bit flipped when the sign is clear
 * and every bit flipped when it is set (so -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN: the order of CUB's
 * radix sort). The code is taken where a digit is read; no pass encodes or decodes the array. */
#ifndef CLIMB_WORKLOADS_SORT_RADIX_CUH
#define CLIMB_WORKLOADS_SORT_RADIX_CUH

#include "kernels.cuh"

typedef unsigned long long u64;

enum { RADIX_UNSIGNED = 0, RADIX_SIGNED = 1, RADIX_FLOAT = 2 }; /* how a key's bits map to its code */

/* A key type: B the bits (u32 or u64), ORDER how they map to the code. */
template <typename B, int ORDER> struct radix_key {
    typedef B bits;
    static constexpr int BITS = 8 * (int)sizeof(B);
    static constexpr B SIGN = (B)1 << (BITS - 1);
    __host__ __device__ static __forceinline__ B code(B x)
    {
        if (ORDER == RADIX_SIGNED)
            return x ^ SIGN;
        if (ORDER == RADIX_FLOAT)
            return (x & SIGN) ? ~x : x ^ SIGN;
        return x;
    }
    /* the key whose code is all ones: the padding */
    static constexpr B PAD = ORDER == RADIX_UNSIGNED ? ~(B)0 : ~(B)0 ^ SIGN;
};
typedef radix_key<u32, RADIX_UNSIGNED> radix_u32;
typedef radix_key<u32, RADIX_SIGNED> radix_i32;
typedef radix_key<u32, RADIX_FLOAT> radix_f32;
typedef radix_key<u64, RADIX_UNSIGNED> radix_u64;
/* The key type of a C element type (climb_typed's): uint32_t, int32_t, float, uint64_t. */
template <typename T> struct radix_key_of;
template <> struct radix_key_of<uint32_t> { typedef radix_u32 type; };
template <> struct radix_key_of<int32_t> { typedef radix_i32 type; };
template <> struct radix_key_of<float> { typedef radix_f32 type; };
template <> struct radix_key_of<uint64_t> { typedef radix_u64 type; };

/* The digit of BITS bits at `shift` of key x's code. */
template <typename KT, int BITS> __device__ __forceinline__ int radix_digit(typename KT::bits x, int shift)
{
    return (int)((KT::code(x) >> shift) & (typename KT::bits)((1u << BITS) - 1));
}

/* The tile's digit counts: counts[d x tiles + b] for tile b (digit-major, so that one exclusive scan gives every
 * (digit, tile) its first place in the output). Keys read in stripes (coalesced). */
template <typename KT, int BITS, int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) radix_count_kernel(const typename KT::bits *__restrict__ keys, long long n,
                                                            int shift, int *__restrict__ counts, int tiles)
{
    constexpr int R = 1 << BITS, TILE = BLOCK * ITEMS;
    __shared__ int hist[R];
    __shared__ int scratch[BLOCK / 32];
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)(n - base < TILE ? n - base : TILE);
    if constexpr (BITS == 1) { /* two bins: count the ones with a block sum, not with atomics on one word */
        int ones = 0;
        for (int i = 0; i < ITEMS; i++) {
            const int at = i * BLOCK + threadIdx.x;
            if (at < valid)
                ones += radix_digit<KT, 1>(keys[base + at], shift);
        }
        ones = climb_block_sum<BLOCK>(ones, scratch);
        if (threadIdx.x == 0) {
            counts[blockIdx.x] = valid - ones;
            counts[(long long)tiles + blockIdx.x] = ones;
        }
    } else {
        for (int d = threadIdx.x; d < R; d += BLOCK)
            hist[d] = 0;
        __syncthreads();
        for (int i = 0; i < ITEMS; i++) {
            const int at = i * BLOCK + threadIdx.x;
            if (at < valid)
                atomicAdd(&hist[radix_digit<KT, BITS>(keys[base + at], shift)], 1);
        }
        __syncthreads();
        for (int d = threadIdx.x; d < R; d += BLOCK)
            counts[(long long)d * tiles + blockIdx.x] = hist[d];
    }
}

/* One stable split of the keys a thread holds (k[0 .. ITEMS), its slice of the tile in order) by the bit at `bit`:
 * the new place in the tile of each key, zeros first. The block's exclusive scan of the zeros gives each thread the
 * zeros before it; the ones go after every zero of the tile, in order. Returns the tile's zeros. */
template <typename KT, int BLOCK, int ITEMS>
__device__ __forceinline__ int radix_split_places(const typename KT::bits (&k)[ITEMS], int bit, int (&place)[ITEMS],
                                                  int *scratch)
{
    int zeros = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        zeros += radix_digit<KT, 1>(k[i], bit) == 0;
    int all_zeros;
    const int before = climb_block_exclusive_scan<climb_op_sum, BLOCK>(zeros, scratch, &all_zeros);
    int z = before, first = (int)threadIdx.x * ITEMS;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const bool one = radix_digit<KT, 1>(k[i], bit);
        /* a one's place: every zero of the tile, then the ones before it (its place in the tile less the zeros
         * before it) */
        place[i] = one ? all_zeros + (first + i - z) : z;
        z += !one;
    }
    return all_zeros;
}

enum { RADIX_DIRECT = 0, RADIX_SPLITS = 1, RADIX_MATCH = 2 }; /* how the scatter ranks a tile's keys */

/* A tile into shared memory: striped loads (coalesced), padding keys (code all ones) past the end. The caller
 * syncs. */
template <typename KT, int BLOCK, int ITEMS, bool PAIRS>
__device__ __forceinline__ void radix_load_tile(const typename KT::bits *__restrict__ ki, const u32 *__restrict__ vi,
                                                long long base, int valid, typename KT::bits *sk, u32 *sv)
{
    for (int i = 0; i < ITEMS; i++) {
        const int at = i * BLOCK + threadIdx.x;
        sk[at] = at < valid ? ki[base + at] : KT::PAD;
        if (PAIRS)
            sv[at] = at < valid ? vi[base + at] : 0u;
    }
}

/* A tile sorted by its digit in shared memory out in tile order, each key at its digit's place in the output
 * (place_of) plus its rank in the digit's run (from start): consecutive threads write consecutive places within a
 * run. The padding, all ones, sorts behind every real key of the last digit and is not written. */
template <typename KT, int BITS, int BLOCK, bool PAIRS>
__device__ __forceinline__ void radix_write_tile(const typename KT::bits *sk, const u32 *sv, int valid, int shift,
                                                 const int *place_of, const int *start,
                                                 typename KT::bits *__restrict__ ko, u32 *__restrict__ vo)
{
    for (int j = threadIdx.x; j < valid; j += BLOCK) {
        const typename KT::bits key = sk[j];
        const int d = radix_digit<KT, BITS>(key, shift);
        const long long to = (long long)place_of[d] + (j - start[d]);
        ko[to] = key;
        if (PAIRS)
            vo[to] = sv[j];
    }
}

/* Warp-level ranking by matches: k[i] is the warp's place (i x 32 + lane) of its run of 32 x ITEMS places. The lanes
 * whose keys share a digit find each other (__match_any_sync), the lowest of them adds their number to the warp's
 * counter of that digit (mine: 2^BITS ints, zeroed before), and rank[i] is the counter before plus the lanes below
 * it among them: each key's rank among the warp's keys of its digit, in place order (stable). */
template <typename KT, int BITS, int ITEMS>
__device__ __forceinline__ void radix_warp_match_rank(const typename KT::bits (&k)[ITEMS], int shift, int *mine,
                                                      int (&rank)[ITEMS])
{
    const int lane = threadIdx.x & 31;
    const unsigned below = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int d = radix_digit<KT, BITS>(k[i], shift);
        const unsigned peers = __match_any_sync(0xffffffffu, d);
        const int leader = __ffs(peers) - 1;
        int before = 0;
        if (lane == leader) {
            before = mine[d];
            mine[d] = before + __popc(peers);
        }
        before = __shfl_sync(0xffffffffu, before, leader);
        rank[i] = before + __popc(peers & below);
        __syncwarp(); /* the counter's new value before the next round reads it */
    }
}

/* RADIX_MATCH: the tile in sk (and sv) sorted stably by its digit, in place, and each digit's start in the sorted
 * tile. Warp w ranks the tile's places [w x 32 x ITEMS, (w + 1) x 32 x ITEMS) in order, 32 at a time: the lanes
 * whose keys share a digit find each other (__match_any_sync), the lowest of them adds their number to the warp's
 * counter of that digit, and each key's rank is the counter before plus the lanes below it among them. Then thread
 * d turns digit d's counters over the warps into each warp's start within the digit, the digits' totals are
 * scanned into their starts in the tile, and every key goes to its digit's start + its warp's + its rank.
 * whist: (BLOCK / 32) x 2^BITS ints; scratch: BLOCK / 32 + 1. */
template <typename KT, int BITS, int BLOCK, int ITEMS, bool PAIRS>
__device__ __forceinline__ void radix_match_sort_tile(typename KT::bits *sk, u32 *sv, int shift, int *whist, int *start,
                                                      int *scratch)
{
    constexpr int R = 1 << BITS, W = BLOCK / 32;
    static_assert(BLOCK == R, "a thread a digit for the scans over the warps and the digits");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int i = threadIdx.x; i < W * R; i += BLOCK)
        whist[i] = 0;
    __syncthreads();
    int *mine = whist + warp * R;
    typename KT::bits k[ITEMS];
    u32 v[ITEMS];
    int rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int at = warp * 32 * ITEMS + i * 32 + lane;
        k[i] = sk[at];
        if (PAIRS)
            v[i] = sv[at];
    }
    radix_warp_match_rank<KT, BITS, ITEMS>(k, shift, mine, rank);
    __syncthreads();
    {
        const int d = threadIdx.x;
        int run = 0;
        for (int w = 0; w < W; w++) {
            const int c = whist[w * R + d];
            whist[w * R + d] = run;
            run += c;
        }
        start[d] = climb_block_exclusive_scan<climb_op_sum, BLOCK>(run, scratch, (int *)NULL);
    }
    __syncthreads(); /* every key has been read (k, v) and every start written */
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int d = radix_digit<KT, BITS>(k[i], shift);
        const int to = start[d] + mine[d] + rank[i];
        sk[to] = k[i];
        if (PAIRS)
            sv[to] = v[i];
    }
    __syncthreads();
}

/* The scatter of one pass (see the file's head): tile b's keys (and values) to out, each at the scan's offset of
 * its (digit, tile) plus its rank among the tile's keys of that digit. */
template <typename KT, int BITS, int BLOCK, int ITEMS, int RANK, bool PAIRS>
__global__ void __launch_bounds__(BLOCK) radix_scatter_kernel(const typename KT::bits *__restrict__ ki,
                                                              const u32 *__restrict__ vi,
                                                              typename KT::bits *__restrict__ ko, u32 *__restrict__ vo,
                                                              long long n, int shift, const int *__restrict__ offsets,
                                                              int tiles)
{
    static_assert(RANK != RADIX_DIRECT || BITS == 1, "without the local sort the ranks come from one split: one bit");
    typedef typename KT::bits K;
    constexpr int R = 1 << BITS, TILE = BLOCK * ITEMS;
    __shared__ K sk[TILE];
    __shared__ u32 sv[PAIRS ? TILE : 1];
    __shared__ int start[R], place_of[R];
    __shared__ int whist[RANK == RADIX_MATCH ? (BLOCK / 32) * R : 1];
    __shared__ int scratch[BLOCK / 32 + 1];
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)(n - base < TILE ? n - base : TILE);
    for (int d = threadIdx.x; d < R; d += BLOCK)
        place_of[d] = offsets[(long long)d * tiles + blockIdx.x];
    radix_load_tile<KT, BLOCK, ITEMS, PAIRS>(ki, vi, base, valid, sk, sv);
    __syncthreads();
    if constexpr (RANK == RADIX_MATCH) {
        radix_match_sort_tile<KT, BITS, BLOCK, ITEMS, PAIRS>(sk, sv, shift, whist, start, scratch);
    } else {
        /* blocked registers: thread t holds tile places t x ITEMS .. t x ITEMS + ITEMS - 1 */
        K k[ITEMS];
        u32 v[ITEMS];
        int place[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            k[i] = sk[threadIdx.x * ITEMS + i];
            if (PAIRS)
                v[i] = sv[threadIdx.x * ITEMS + i];
        }
        if constexpr (RANK == RADIX_DIRECT) {
            /* one split by the pass's bit; each key straight to memory: a zero at the tile's zero offset plus its
             * place, a one at the tile's one offset plus its place among the ones (the padding keys are ones,
             * placed after every real key, and not written) */
            const int zeros = radix_split_places<KT, BLOCK, ITEMS>(k, shift, place, scratch);
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                if ((int)threadIdx.x * ITEMS + i >= valid)
                    continue;
                const int one = radix_digit<KT, 1>(k[i], shift);
                const long long to = (long long)place_of[one] + (one ? place[i] - zeros : place[i]);
                ko[to] = k[i];
                if (PAIRS)
                    vo[to] = v[i];
            }
        } else {
            /* the tile sorted by its digit in shared memory: BITS stable splits, low bit first */
            for (int b = 0; b < BITS; b++) {
                radix_split_places<KT, BLOCK, ITEMS>(k, shift + b, place, scratch);
                __syncthreads(); /* every thread has read its keys before any is overwritten */
#pragma unroll
                for (int i = 0; i < ITEMS; i++) {
                    sk[place[i]] = k[i];
                    if (PAIRS)
                        sv[place[i]] = v[i];
                }
                __syncthreads();
                if (b + 1 < BITS) {
#pragma unroll
                    for (int i = 0; i < ITEMS; i++) {
                        k[i] = sk[threadIdx.x * ITEMS + i];
                        if (PAIRS)
                            v[i] = sv[threadIdx.x * ITEMS + i];
                    }
                }
            }
            /* where each digit's run starts in the sorted tile: at the first key of that digit (digits absent
             * from the tile have no key to ask) */
            for (int j = threadIdx.x; j < valid; j += BLOCK) {
                const int d = radix_digit<KT, BITS>(sk[j], shift);
                if (j == 0 || radix_digit<KT, BITS>(sk[j - 1], shift) != d)
                    start[d] = j;
            }
            __syncthreads();
        }
    }
    /* out in tile order */
    if constexpr (RANK != RADIX_DIRECT)
        radix_write_tile<KT, BITS, BLOCK, PAIRS>(sk, sv, valid, shift, place_of, start, ko, vo);
}

/* ---- Onesweep (Adinets and Merrill, 2022): one kernel a pass ----
 * The 8-bit digits' counts over the whole array come first, every digit of a key (4 of a 32-bit key, 8 of a 64-bit
 * one) in one read of the keys (radix_histograms_kernel), and their exclusive scans give each digit's start in each
 * pass's output (radix_digit_starts_kernel). A pass is then one kernel: each block takes the next tile in the order
 * blocks start (a ticket), ranks it by warp matches, and learns how many keys of each digit the tiles before it hold
 * by decoupled look-back: thread d publishes its tile's count of digit d (flag "aggregate"), sums its predecessors'
 * words back to the first that carries an inclusive prefix (flag "inclusive"), reading several at once, then publishes
 * its own inclusive prefix. A word is the 2-bit flag and a 30-bit count, so a pass takes n below 2^30; the words are
 * cleared before each pass. */
#define RADIX_FLAG_AGGREGATE (1u << 30)
#define RADIX_FLAG_INCLUSIVE (2u << 30)
#define RADIX_COUNT_MASK ((1u << 30) - 1u)
#define RADIX_MAX_PASSES 8 /* 8-bit digits of a 64-bit key */
#define RADIX_LOOKBACK 4    /* the look-back's words read at once */

/* One step of the look-back over RADIX_LOOKBACK words, w[0] the nearest tile's: the counts added to *before in order,
 * up to and with the first inclusive word (*found = 1 then), stopping before the first word not yet published.
 * Returns how many words were used. */
__host__ __device__ __forceinline__ int radix_lookback_sum(const unsigned (&w)[RADIX_LOOKBACK], unsigned *before,
                                                           int *found)
{
    int used = 0, f = 0;
    for (int u = 0; u < RADIX_LOOKBACK; u++) { /* a constant count: unrolled */
        const unsigned flag = w[u] & ~RADIX_COUNT_MASK;
        if (f || used < u || flag == 0)
            continue; /* past the prefix, or past a word not yet published */
        *before += w[u] & RADIX_COUNT_MASK;
        used = u + 1;
        f = flag == RADIX_FLAG_INCLUSIVE;
    }
    *found = f;
    return used;
}

/* hist[p x 256 + d]: the keys whose digit p (bits 8p .. 8p + 7 of the code) is d, for the key's KT::BITS / 8
 * digits; hist zeroed before. A thread loads U keys of the grid's stride apart before it counts any, so that U loads
 * a thread are in flight (with one a thread, 2^26 keys took 136 us on an H100, where the measured read rate reads
 * them in 87 and CUB's histogram took 122); the keys past the last whole round one at a time. */
template <typename KT, int BLOCK>
__global__ void __launch_bounds__(BLOCK) radix_histograms_kernel(const typename KT::bits *__restrict__ keys, long long n,
                                                                 int *__restrict__ hist)
{
    constexpr int P = KT::BITS / 8;
    __shared__ int h[P * 256];
    for (int i = threadIdx.x; i < P * 256; i += BLOCK)
        h[i] = 0;
    __syncthreads();
    typedef typename KT::bits K;
    constexpr int U = sizeof(K) == 4 ? 8 : 4;
    const long long step = (long long)gridDim.x * BLOCK;
    long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
    for (; i + (U - 1) * step < n; i += U * step) {
        K k[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            k[u] = keys[i + u * step];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int p = 0; p < P; p++)
                atomicAdd(&h[p * 256 + radix_digit<KT, 8>(k[u], 8 * p)], 1);
    }
    for (; i < n; i += step) {
        const K k = keys[i];
#pragma unroll
        for (int p = 0; p < P; p++)
            atomicAdd(&h[p * 256 + radix_digit<KT, 8>(k, 8 * p)], 1);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < P * 256; i += BLOCK)
        if (h[i])
            atomicAdd(&hist[i], h[i]);
}

/* Block p (a block of 256 a pass): hist[p x 256 + d] becomes the exclusive scan over digits, digit d's first
 * place. */
__global__ void __launch_bounds__(256) radix_digit_starts_kernel(int *hist)
{
    __shared__ int scratch[256 / 32 + 1];
    int *h = hist + blockIdx.x * 256;
    const int v = h[threadIdx.x];
    h[threadIdx.x] = climb_block_exclusive_scan<climb_op_sum, 256>(v, scratch, (int *)NULL);
}

/* The passes' plan, made on the GPU from the digits' counts (radix_plan_kernel): a pass whose digit is the same in
 * every key leaves the order as it is and is skipped. Buffers: RADIX_IN (the input, only read), RADIX_OUT, RADIX_TMP.
 * The passes that run alternate between out and tmp, the first reading the input; where the input is not the output
 * the parity is chosen so that the last writes out; in place (input = output) the first writes tmp, and when the
 * last then writes tmp, or when no pass runs and the input is not the output, radix_final_copy_kernel copies the
 * result to out. */
enum { RADIX_IN = 0, RADIX_OUT = 1, RADIX_TMP = 2, RADIX_SKIP = -1 };
typedef struct radix_plan {
    int src[RADIX_MAX_PASSES], dst[RADIX_MAX_PASSES]; /* per pass: the buffers it reads and writes, or RADIX_SKIP */
    int result;  /* where the sorted keys are after the passes */
    int skipped; /* the passes skipped */
} radix_plan;

/* The plan of `passes` passes (at most RADIX_MAX_PASSES) where those with trivial[p] != 0 (the digit the same in
 * every key) are skipped; in_place: input = output. */
__host__ __device__ inline void radix_plan_make(int passes, const int *trivial, int in_place, radix_plan *plan)
{
    int m = 0;
    for (int p = 0; p < passes; p++)
        m += !trivial[p];
    int cur = in_place ? RADIX_OUT : RADIX_IN, j = 0; /* in place the input is out */
    for (int p = 0; p < RADIX_MAX_PASSES; p++) {
        if (p >= passes || trivial[p]) {
            plan->src[p] = plan->dst[p] = RADIX_SKIP;
            continue;
        }
        const int to = in_place ? (j % 2 == 0 ? RADIX_TMP : RADIX_OUT) : ((m - 1 - j) % 2 == 0 ? RADIX_OUT : RADIX_TMP);
        plan->src[p] = cur;
        plan->dst[p] = to;
        cur = to;
        j++;
    }
    plan->result = cur;
    plan->skipped = passes - m;
}

/* One warp: the plan of `passes` passes from the digits' starts (hist after radix_digit_starts_kernel). in_place:
 * input = output. */
__global__ void radix_plan_kernel(const int *__restrict__ starts, long long n, int passes, int in_place,
                                  radix_plan *plan)
{
    __shared__ int trivial[RADIX_MAX_PASSES];
    const int lane = threadIdx.x;
    for (int p = 0; p < passes; p++) {
        int one = 0;
        for (int d = lane; d < 256; d += 32) {
            const long long end = d < 255 ? starts[p * 256 + d + 1] : n;
            one |= end - starts[p * 256 + d] == n;
        }
        one = __any_sync(0xffffffffu, one);
        if (lane == 0)
            trivial[p] = one;
    }
    __syncwarp();
    if (lane == 0)
        radix_plan_make(passes, trivial, in_place, plan);
}

/* Where the passes left the keys (and values), copied to out when that is not out (see radix_plan). */
template <typename K>
__global__ void radix_final_copy_kernel(const K *__restrict__ in_k, const u32 *__restrict__ in_v, K *out_k, u32 *out_v,
                                        const K *tmp_k, const u32 *tmp_v, long long n, const radix_plan *plan)
{
    const int from = plan->result;
    if (from == RADIX_OUT)
        return;
    const K *k = from == RADIX_IN ? in_k : tmp_k;
    const u32 *v = from == RADIX_IN ? in_v : tmp_v;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        out_k[i] = k[i];
        if (out_v)
            out_v[i] = v[i];
    }
}

/* Onesweep's tile in and out. FULL: a whole tile (every tile but the last), no element checked against `valid`;
 * the last tile takes the checked form. A warp holds the tile's places [w x 32 x ITEMS, (w + 1) x 32 x ITEMS), 32
 * consecutive elements a load: element i of a thread is place first + 32 i, first = w x 32 x ITEMS + lane. */
template <typename T, int ITEMS, bool FULL>
__device__ __forceinline__ void onesweep_load(const T *__restrict__ src, int first, int valid, T pad, T (&x)[ITEMS])
{
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int at = first + i * 32;
        x[i] = FULL || at < valid ? src[at] : pad;
    }
}

/* The sorted tile sk out in tile order (consecutive threads write consecutive places within a digit's run): key j
 * to place_of[its digit] + j; PAIRS keeps each key's destination for its value. */
template <typename KT, int BLOCK, int ITEMS, bool FULL, bool PAIRS>
__device__ __forceinline__ void onesweep_write_keys(const typename KT::bits *sk, const int *place_of, int shift,
                                                    int valid, typename KT::bits *ko, int (&to)[PAIRS ? ITEMS : 1])
{
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int j = i * BLOCK + threadIdx.x;
        if (FULL || j < valid) {
            const typename KT::bits key = sk[j];
            const int t = place_of[radix_digit<KT, 8>(key, shift)] + j;
            ko[t] = key;
            if (PAIRS)
                to[i] = t;
        }
    }
}

/* The sorted values sv out to the places their keys took. */
template <int BLOCK, int ITEMS, bool FULL>
__device__ __forceinline__ void onesweep_write_vals(const u32 *sv, const int (&to)[ITEMS], int valid, u32 *vo)
{
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int j = i * BLOCK + threadIdx.x;
        if (FULL || j < valid)
            vo[to[i]] = sv[j];
    }
}

/* One pass of Onesweep, on the buffers the plan gives pass `pass` (nothing when it is skipped). BLOCK threads (whole
 * warps, at least 256: thread d < 256 speaks for digit d), ITEMS keys each, so a tile of BLOCK x ITEMS keys.
 * The keys go straight into registers, warp by warp (warp w holds the tile's places [w x 32 x ITEMS,
 * (w + 1) x 32 x ITEMS), 32 consecutive keys a load), and are ranked there by warp matches. Each digit's count in
 * the tile is published as soon as it is known, before the tile is sorted into shared memory: the tiles after this
 * one then find it while this one still works, and this tile's own look-back comes after its sort, when its
 * predecessors have had that time to publish. Two ways to the counts:
 *   EARLY = false  the ranking gives them (radix_warp_match_rank: __match_any_sync, a warp counter a digit), and
 *                  the counts go out after the whole ranking;
 *   EARLY = true   CUB's "early counts": the warps count their digits by shared-memory atomics first (one atomic a
 *                  key, no ranking), the counts go out at once, and the ranking follows with the counters already
 *                  turned into places in the sorted tile; the lanes sharing a digit are found by 8 ballots
 *                  (climb_warp_match_bits), not match.any. A tile whose keys all share the pass's digit is sorted
 *                  as it stands and skips the ranking (sorted and few-distinct inputs).
 * One room of shared memory holds in turn the warps' digit counters, the sorted keys and, for pairs, the sorted
 * values: the values follow the keys through it, each to the place its key took, and go out to the destinations the
 * keys' writes kept. */
/* The blocks an SM a tile asks for. The widest (over 7296 keys) two: left to itself, ptxas gave the 384 x 23 kernel
 * 105 registers a thread, one block (12 warps) an SM; held to two blocks, 80. A tile of 4097 to 7296 keys three
 * (384 x 19 and 384 x 11: 56 registers, 36 warps an SM, the occupancy CUB's Onesweep kernel has on an H100), but two
 * with values (pairs): at three, ptxas spilled 196 bytes a thread in 384 x 19 for pairs (at two: 80 registers, no
 * spills; CUB's pairs tile on an H100, 384 x 17, runs at 80 registers and two blocks an SM, by Nsight Compute).
 * Narrower tiles keep the compiler's own choice (an explicit minimum of one took 256 x 9 from 40 registers to 64). */
#define RADIX_ONESWEEP_MIN_BLOCKS(BLOCK, ITEMS, PAIRS)                                                                \
    ((BLOCK) * (ITEMS) > ((PAIRS) ? 4096 : 7296) ? 2 : (BLOCK) * (ITEMS) > 4096 ? 3 : 0)
template <typename KT, int BLOCK, int ITEMS, bool PAIRS, bool EARLY>
__global__ void __launch_bounds__(BLOCK, RADIX_ONESWEEP_MIN_BLOCKS(BLOCK, ITEMS, PAIRS))
    radix_onesweep_kernel(const typename KT::bits *in_k, const u32 *in_v, typename KT::bits *out_k, u32 *out_v,
                          typename KT::bits *tmp_k, u32 *tmp_v, long long n, int pass,
                          const int *__restrict__ digit_start, unsigned *status, int *ticket, const radix_plan *plan)
{
    typedef typename KT::bits K;
    constexpr int R = 256, W = BLOCK / 32, TILE = BLOCK * ITEMS;
    static_assert(BLOCK >= R && BLOCK % 32 == 0, "a thread a digit, whole warps");
    constexpr size_t KEY_BYTES = (size_t)TILE * sizeof(K), VAL_BYTES = PAIRS ? (size_t)TILE * sizeof(u32) : 0,
                     HIST_BYTES = (size_t)W * R * sizeof(int);
    constexpr size_t SORTED_BYTES = KEY_BYTES > VAL_BYTES ? KEY_BYTES : VAL_BYTES;
    /* early counts keep the warps' counters apart from the sorted tile, so that each key goes to its place as soon
     * as it is ranked (no array of ranks held in registers for keys alone); the match.any ranking shares one room */
    constexpr size_t ROOM = EARLY ? HIST_BYTES + SORTED_BYTES : (SORTED_BYTES > HIST_BYTES ? SORTED_BYTES : HIST_BYTES);
    const int src = plan->src[pass], dst = plan->dst[pass], shift = 8 * pass;
    if (src == RADIX_SKIP)
        return;
    const K *ki = src == RADIX_IN ? in_k : src == RADIX_OUT ? out_k : tmp_k;
    const u32 *vi = src == RADIX_IN ? in_v : src == RADIX_OUT ? out_v : tmp_v;
    K *ko = dst == RADIX_OUT ? out_k : tmp_k;
    u32 *vo = dst == RADIX_OUT ? out_v : tmp_v;
    __shared__ __align__(16) unsigned char room[ROOM];
    __shared__ int start[EARLY ? 1 : R], place_of[R];
    __shared__ int scratch[W + 1];
    __shared__ int my_tile, whole;
    int *whist = (int *)room;
    K *sk = (K *)(room + (EARLY ? HIST_BYTES : 0));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, d = threadIdx.x;
    for (int i = threadIdx.x; i < W * R; i += BLOCK)
        whist[i] = 0;
    if (threadIdx.x == 0) {
        my_tile = atomicAdd(ticket, 1); /* tiles in the order blocks start: every tile looked back at has started */
        whole = -1;
    }
    __syncthreads();
    const int tile = my_tile;
    const long long base = (long long)tile * TILE;
    const int valid = (int)(n - base < TILE ? n - base : TILE);
    const bool full = valid == TILE;
    K k[ITEMS]; /* the last tile's padding, all ones, sorts behind every real key */
    if (full)
        onesweep_load<K, ITEMS, true>(ki + base, warp * 32 * ITEMS + lane, valid, KT::PAD, k);
    else
        onesweep_load<K, ITEMS, false>(ki + base, warp * 32 * ITEMS + lane, valid, KT::PAD, k);
    /* the warp's count of each digit: by the ranking itself (each key's rank among the warp's keys of its digit,
     * in place order), or early, by shared-memory atomics alone, the ranking left for after the counts are out */
    int *mine = whist + warp * R;
    int rank[EARLY && !PAIRS ? 1 : ITEMS]; /* each key's place in the sorted tile, for the values to follow */
    if constexpr (EARLY) {
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            atomicAdd(&mine[radix_digit<KT, 8>(k[i], shift)], 1);
    } else {
        radix_warp_match_rank<KT, 8, ITEMS>(k, shift, mine, rank);
    }
    __syncthreads();
    /* thread d: digit d's counters over the warps become each warp's start within the digit; the tile's count of
     * the digit (less the padding, digit 255) is published at once */
    volatile unsigned *words = status;
    int run = 0;
    unsigned count = 0;
    if (d < R) {
        for (int w = 0; w < W; w++) {
            const int c = whist[w * R + d];
            whist[w * R + d] = run;
            run += c;
        }
        count = (unsigned)(run - (d == R - 1 ? TILE - valid : 0));
        words[(size_t)tile * R + d] = (tile == 0 ? RADIX_FLAG_INCLUSIVE : RADIX_FLAG_AGGREGATE) | count;
    }
    const int first = climb_block_exclusive_scan<climb_op_sum, BLOCK>(run, scratch, (int *)NULL);
    if (d < R) {
        if (!EARLY)
            start[d] = first; /* where digit d's run starts in the sorted tile */
        else {
            /* each warp's counter of digit d becomes the place its first key of d takes in the sorted tile */
            for (int w = 0; w < W; w++)
                whist[w * R + d] += first;
            if (run == TILE)
                whole = d; /* one digit the whole tile: the tile is sorted as it stands */
        }
    }
    __syncthreads();
    if constexpr (EARLY) {
        if (whole >= 0) {
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const int at = warp * 32 * ITEMS + i * 32 + lane;
                sk[at] = k[i];
                if (PAIRS)
                    rank[i] = at;
            }
        } else {
            /* the lanes sharing a key's digit found by 8 ballots; the highest of them takes their number of places
             * from the warp's counter of the digit (an atomic: the next round's taker may be another lane), and
             * each key's place is the counter before plus the lanes below it among them (stable) */
            const unsigned below = (1u << lane) - 1u;
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const int dg = radix_digit<KT, 8>(k[i], shift);
                const unsigned peers = climb_warp_match_bits<8>((unsigned)dg);
                const int leader = 31 - __clz(peers);
                int at = 0;
                if (lane == leader)
                    at = atomicAdd(&mine[dg], __popc(peers));
                at = __shfl_sync(0xffffffffu, at, leader) + __popc(peers & below);
                sk[at] = k[i];
                if (PAIRS)
                    rank[i] = at;
            }
        }
    } else {
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const int dg = radix_digit<KT, 8>(k[i], shift);
            rank[i] += start[dg] + mine[dg]; /* the key's place in the sorted tile */
        }
        __syncthreads(); /* every counter read before the keys take the room */
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            sk[rank[i]] = k[i];
    }
    if (d < R) {
        /* back over the tiles before, RADIX_LOOKBACK words read at once (independent loads: one round trip to L2
         * for several tiles), summed in order up to the first inclusive prefix; a word not yet published stops the
         * sum there and is read again. Tile 0's word is inclusive, so the walk ends by tile 0. */
        unsigned before = 0;
        if (tile > 0) {
            long long j = tile - 1;
            for (;;) {
                unsigned w[RADIX_LOOKBACK];
#pragma unroll
                for (int u = 0; u < RADIX_LOOKBACK; u++)
                    w[u] = j - u >= 0 ? words[(size_t)(j - u) * R + d] : RADIX_FLAG_INCLUSIVE;
                int found;
                const int used = radix_lookback_sum(w, &before, &found);
                if (found)
                    break;
                j -= used;
            }
            words[(size_t)tile * R + d] = RADIX_FLAG_INCLUSIVE | (before + count);
        }
        place_of[d] = digit_start[d] + (int)before - first; /* + the place in the sorted tile: the output's */
    }
    __syncthreads();
    /* out in tile order: consecutive threads write consecutive places within a digit's run */
    int to[PAIRS ? ITEMS : 1];
    if (full)
        onesweep_write_keys<KT, BLOCK, ITEMS, true, PAIRS>(sk, place_of, shift, valid, ko, to);
    else
        onesweep_write_keys<KT, BLOCK, ITEMS, false, PAIRS>(sk, place_of, shift, valid, ko, to);
    if constexpr (PAIRS) {
        u32 v[ITEMS];
        if (full)
            onesweep_load<u32, ITEMS, true>(vi + base, warp * 32 * ITEMS + lane, valid, 0u, v);
        else
            onesweep_load<u32, ITEMS, false>(vi + base, warp * 32 * ITEMS + lane, valid, 0u, v);
        u32 *sv = (u32 *)(void *)sk;
        __syncthreads(); /* every key read out of the sorted tile before the values take its room */
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            sv[rank[i]] = v[i];
        __syncthreads();
        if (full)
            onesweep_write_vals<BLOCK, ITEMS, true>(sv, to, valid, vo);
        else
            onesweep_write_vals<BLOCK, ITEMS, false>(sv, to, valid, vo);
    }
}

#endif
