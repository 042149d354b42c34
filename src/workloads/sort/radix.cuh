/* The radix sort rungs' kernels (src/workloads/sort/), after Hwu, Kirk and El Hajj, Programming Massively Parallel
 * Processors (4th edition), chapter 13: least-significant-digit radix sort, one digit of BITS bits a pass, each pass
 * three kernels: every tile's digit counts (radix_count_kernel), their exclusive scan in digit-major order (the
 * project's single-pass scan, climb_scan_best), and the stable scatter (radix_scatter_kernel), where a key of digit d
 * in tile b goes to the scan's offset of (d, b) plus its rank among the tile's keys of digit d.
 *
 * A tile is BLOCK x ITEMS keys; thread t holds the tile's keys t x ITEMS .. t x ITEMS + ITEMS - 1 (ITEMS odd: the
 * blocked reads of shared memory fall in distinct banks). The ranks come from one-bit splits, each a block-wide
 * exclusive scan of the zeros (the book's split). With LOCAL false (the book's first kernel, one bit a pass) each
 * thread writes its keys straight to their places in memory; with LOCAL true the tile is first sorted by its digit
 * in shared memory (BITS splits), so that the writes of a warp fall in a few runs of consecutive addresses (the
 * book's coalescing refinement).
 *
 * Past the end of the array a tile holds padding keys of all ones: their digit is the largest, the splits are stable,
 * so they stay behind every real key and are never written. */
#ifndef CLIMB_WORKLOADS_SORT_RADIX_CUH
#define CLIMB_WORKLOADS_SORT_RADIX_CUH

#include "kernels.cuh"

/* The tile's digit counts: counts[d x tiles + b] for tile b (digit-major, so that one exclusive scan gives every
 * (digit, tile) its first place in the output). Keys read in stripes (coalesced). */
template <int BITS, int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) radix_count_kernel(const u32 *__restrict__ keys, long long n, int shift,
                                                            int *__restrict__ counts, int tiles)
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
                ones += (keys[base + at] >> shift) & 1;
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
                atomicAdd(&hist[(keys[base + at] >> shift) & (R - 1)], 1);
        }
        __syncthreads();
        for (int d = threadIdx.x; d < R; d += BLOCK)
            counts[(long long)d * tiles + blockIdx.x] = hist[d];
    }
}

/* One stable split of the keys a thread holds (k[0 .. ITEMS), its slice of the tile in order) by the bit at `bit`:
 * the new place in the tile of each key, zeros first. The block's exclusive scan of the zeros gives each thread the
 * zeros before it; the ones go after every zero of the tile, in order. Returns the tile's zeros. */
template <int BLOCK, int ITEMS>
__device__ __forceinline__ int radix_split_places(const u32 (&k)[ITEMS], int bit, int (&place)[ITEMS], int *scratch)
{
    int zeros = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        zeros += ((k[i] >> bit) & 1) == 0;
    int all_zeros;
    const int before = climb_block_exclusive_scan<climb_op_sum, BLOCK>(zeros, scratch, &all_zeros);
    int z = before, first = (int)threadIdx.x * ITEMS;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const bool one = (k[i] >> bit) & 1;
        /* a one's place: every zero of the tile, then the ones before it (its place in the tile less the zeros
         * before it) */
        place[i] = one ? all_zeros + (first + i - z) : z;
        z += !one;
    }
    return all_zeros;
}

/* The scatter of one pass (see the file's head): tile b's keys (and values) to out, each at the scan's offset of
 * its (digit, tile) plus its rank among the tile's keys of that digit. */
template <int BITS, int BLOCK, int ITEMS, bool LOCAL, bool PAIRS>
__global__ void __launch_bounds__(BLOCK) radix_scatter_kernel(const u32 *__restrict__ ki, const u32 *__restrict__ vi,
                                                              u32 *__restrict__ ko, u32 *__restrict__ vo, long long n,
                                                              int shift, const int *__restrict__ offsets, int tiles)
{
    static_assert(LOCAL || BITS == 1, "without the local sort the ranks come from one split: one bit a pass");
    constexpr int R = 1 << BITS, TILE = BLOCK * ITEMS;
    __shared__ u32 sk[TILE];
    __shared__ u32 sv[PAIRS ? TILE : 1];
    __shared__ int start[R], place_of[R];
    __shared__ int scratch[BLOCK / 32 + 1];
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)(n - base < TILE ? n - base : TILE);
    for (int d = threadIdx.x; d < R; d += BLOCK)
        place_of[d] = offsets[(long long)d * tiles + blockIdx.x];
    /* in through shared memory: striped loads, blocked registers */
    for (int i = 0; i < ITEMS; i++) {
        const int at = i * BLOCK + threadIdx.x;
        sk[at] = at < valid ? ki[base + at] : 0xFFFFFFFFu;
        if (PAIRS)
            sv[at] = at < valid ? vi[base + at] : 0u;
    }
    __syncthreads();
    u32 k[ITEMS], v[ITEMS];
    int place[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        k[i] = sk[threadIdx.x * ITEMS + i];
        if (PAIRS)
            v[i] = sv[threadIdx.x * ITEMS + i];
    }
    if constexpr (!LOCAL) {
        /* one split by the pass's bit; each key straight to memory: a zero at the tile's zero offset plus its
         * place, a one at the tile's one offset plus its place among the ones (the padding keys are ones, placed
         * after every real key, and not written) */
        const int zeros = radix_split_places<BLOCK, ITEMS>(k, shift, place, scratch);
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            if ((int)threadIdx.x * ITEMS + i >= valid)
                continue;
            const int one = (k[i] >> shift) & 1;
            const long long to = (long long)place_of[one] + (one ? place[i] - zeros : place[i]);
            ko[to] = k[i];
            if (PAIRS)
                vo[to] = v[i];
        }
    } else {
        /* the tile sorted by its digit in shared memory: BITS stable splits, low bit first */
        for (int b = 0; b < BITS; b++) {
            radix_split_places<BLOCK, ITEMS>(k, shift + b, place, scratch);
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
        /* where each digit's run starts in the sorted tile: at the first key of that digit (digits absent from the
         * tile have no key to ask) */
        for (int j = threadIdx.x; j < valid; j += BLOCK) {
            const int d = (int)((sk[j] >> shift) & (R - 1));
            if (j == 0 || (int)((sk[j - 1] >> shift) & (R - 1)) != d)
                start[d] = j;
        }
        __syncthreads();
        /* out in tile order: consecutive threads write consecutive places within each digit's run */
        for (int j = threadIdx.x; j < valid; j += BLOCK) {
            const u32 key = sk[j];
            const int d = (int)((key >> shift) & (R - 1));
            const long long to = (long long)place_of[d] + (j - start[d]);
            ko[to] = key;
            if (PAIRS)
                vo[to] = sv[j];
        }
    }
}

#endif
