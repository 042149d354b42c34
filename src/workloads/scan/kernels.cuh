/* Scan's policy, the chained tiles' flags and kernels (src/workloads/scan/), one group per rung.
 * Included by scan.cu where it stands in the file (after the CPU reference and before the launchers); not a header
 * of its own. */
/* ---------------------------------------------------------------- policy */

/* The shared-memory block scans (Kogge-Stone, Brent-Kung): 512 threads, the book's SECTION_SIZE = blockDim
 * (Brent-Kung: 2 x blockDim). The three-phase, warp-shuffle and chained rungs: 512 threads x 8 elements each,
 * a section of 4096 (16 KB of shared memory for f32). */
#define SCAN_BLOCK 512u
#define SCAN_COARSE 8u
/* The best rung's look-back sleeps (climb_lookback_prefix) and its register budget, measured on an H100
 * (2026-11-24, f32 and i32, cold L2, block 128 x 32 items; docs/scan.md has the table). Reading the window at once
 * and backing off from 32 ns ran 2^28 at 0.90x CUB: each tile waited twice as long for its prefix as for its data
 * (clock64 in the kernel: 8.6 us against 3.8), and polled 3.8 times. Sleeping 1.5 us before the first read and
 * 0.7 us between polls (CUB's sm_90 scan sleeps 1.14 us and 0.69 us) cut the polls to 2.1 a tile; the 16-byte
 * kernel held to 1024 threads an SM (64 registers: 8 blocks of 128, not 7) keeps more tiles' loads in flight
 * while some wait. Together, in the committed reports (e83cff3 -> 6cad1ed, f32 inclusive): 2^28 964 -> 850 us
 * (0.90x -> 1.02x CUB), 2^24 0.96x -> 1.02x, 10^7 0.99x -> 1.06x; at 2^20 (256 tiles, all resident at once, so
 * the first sleep is latency) 9.38 -> 9.54 us, 1.23x -> 1.21x. */
#define SCAN_LOOKBACK_FIRST_NS 1500u
#define SCAN_LOOKBACK_POLL_NS 700u
#define SCAN_LOOKBACK_MIN_THREADS 1024u
/* The best rung's tile: `block` threads x `items` elements each (16-byte vectors, items / 4 of them a thread).
 * The candidates `climb tune scan` tries, each listed once: the instance table and the tuning lists come from it.
 * Larger tiles mean fewer look-backs per byte and more bytes in flight per block, and more registers (fewer blocks
 * per SM). */
#define SCAN_BEST_CANDIDATES(X) X(128, 16) X(256, 8) X(256, 16) X(512, 16) X(128, 32) X(256, 32)
static const int SCAN_TUNE_BLOCKS[] = {128, 256, 512};
static const int SCAN_TUNE_ITEMS[] = {8, 16, 32};
#define SCAN_CANDIDATE_VALUES(b, i) b, i,
static const int SCAN_TUNE_CANDIDATES[] = {SCAN_BEST_CANDIDATES(SCAN_CANDIDATE_VALUES)};
/* Built-in values per architecture, used where no wisdom file matches the device.
 * CC 9.x: `climb tune scan` on an H100 (2026-11-22, f32 inclusive, cold L2, 2^24 and 2^28): 128 x 32 scored best
 * (59.5 us and 964 us), 256 x 32 and 512 x 16 within 2%, 256 x 16 3% slower, 256 x 8 26% slower: the tile
 * must hold 16 KB or more. */
typedef struct scan_arch_policy {
    int cc_major; /* 0: any other architecture */
    int block, items;
    const char *source;
} scan_arch_policy;
static const scan_arch_policy SCAN_ARCH_POLICY[] = {
    {9, 128, 32, "built-in CC 9.x policy (measured on an H100)"},
    {0, 256, 16, "built-in default (not measured on this architecture)"},
};
/* The smallest tile of any candidate: the status words a workspace needs are counted in these. */
#define SCAN_MIN_TILE 2048u

/* ---------------------------------------------------------------- the chained tiles' flags */

/* The single-pass rungs share the look-back primitives' workspace layout (src/device/device_primitives.cuh): a
 * ticket word, then a 64-bit status word per tile whose flag and epoch let a workspace serve launch after launch
 * with no reset; the wrapping launch clears it. */
#define SCAN_EPOCHS CLIMB_LOOKBACK_EPOCHS
#define SCAN_HDR CLIMB_LOOKBACK_HDR
typedef climb_lookback_hdr scan_hdr;

/* ---------------------------------------------------------------- kernels */

/* The section kernels of the hierarchical rungs share one signature: scan the section of `blockIdx.x`, write it,
 * and its total to sums[blockIdx.x]. They read the whole section before writing any of it, so out may be in (the
 * hierarchy scans the section sums in place). An exclusive scan of a section is the inclusive scan of its
 * inputs shifted right by one (the book's way): slot t holds x[t - 1], slot 0 the identity. */

/* scan_kogge_stone: one section of BLOCK elements, one per thread, in shared memory. At step d every thread
 * adds the value d slots to its left: log2(BLOCK) steps, n log n adds (not work-efficient), each step two
 * barriers (every read of the step before any write). */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_kogge_stone_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    __shared__ T s[BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * BLOCK, i = base + t;
    const size_t src = exclusive ? i - 1 : i;
    s[t] = (exclusive && t == 0) || src >= n ? T(0) : in[src];
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && i < n)
        last = in[i];
    for (unsigned d = 1; d < BLOCK; d <<= 1) {
        __syncthreads();
        const T v = t >= d ? s[t - d] : T(0);
        __syncthreads();
        if (t >= d)
            s[t] += v;
    }
    if (i < n)
        out[i] = s[t];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[t] + last;
}

/* scan_kogge_stone_double_buffer: the same steps between two shared arrays, reading one and writing the other,
 * so a step needs one barrier instead of two. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_kogge_stone_db_kernel(const T *in, T *out, size_t n, int exclusive,
                                                                    T *sums)
{
    __shared__ T s[2][BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * BLOCK, i = base + t;
    const size_t src = exclusive ? i - 1 : i;
    s[0][t] = (exclusive && t == 0) || src >= n ? T(0) : in[src];
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && i < n)
        last = in[i];
    unsigned cur = 0;
    for (unsigned d = 1; d < BLOCK; d <<= 1) {
        __syncthreads();
        s[cur ^ 1][t] = t >= d ? s[cur][t - d] + s[cur][t] : s[cur][t];
        cur ^= 1;
    }
    if (i < n)
        out[i] = s[cur][t];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[cur][t] + last;
}

/* scan_brent_kung: a section of 2 x BLOCK elements, two per thread. An up-sweep reduction tree leaves partial
 * sums at power-of-two strides, a down-sweep distributes them: about 2 x 2 BLOCK adds in all (work-efficient),
 * twice the steps of Kogge-Stone, and many threads idle in each step. */
template <typename T, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) scan_brent_kung_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    __shared__ T s[2 * BLOCK];
    const unsigned t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * (2 * BLOCK);
    for (unsigned k = t; k < 2 * BLOCK; k += BLOCK) {
        const size_t src = exclusive ? base + k - 1 : base + k;
        s[k] = (exclusive && k == 0) || src >= n ? T(0) : in[src];
    }
    T last = T(0);
    if (exclusive && t == BLOCK - 1 && base + 2 * BLOCK - 1 < n)
        last = in[base + 2 * BLOCK - 1];
    for (unsigned stride = 1; stride <= BLOCK; stride <<= 1) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * stride - 1;
        if (k < 2 * BLOCK)
            s[k] += s[k - stride];
    }
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * stride - 1;
        if (k + stride < 2 * BLOCK)
            s[k + stride] += s[k];
    }
    __syncthreads();
    for (unsigned k = t; k < 2 * BLOCK; k += BLOCK)
        if (base + k < n)
            out[base + k] = s[k];
    if (t == BLOCK - 1)
        sums[blockIdx.x] = s[2 * BLOCK - 1] + last;
}

/* The three-phase section of BLOCK x COARSE elements, with the block-wide step chosen by SHUFFLE:
 *   phase 1: the section is loaded coalesced into shared memory; each thread takes its COARSE consecutive
 *            elements and sums them sequentially (no barrier, no idle thread);
 *   phase 2: an exclusive scan of the BLOCK thread totals: Kogge-Stone in shared memory (scan_three_phase), or
 *            warp shuffles (scan_warp_shuffle: five register steps a warp, one warp over the warp totals);
 *   phase 3: each thread runs through its elements again from its prefix, back into shared memory, and the
 *            block stores the section coalesced.
 * With CHAIN the tile's prefix comes from the tile before it (scan_chained): the block draws its tile in start
 * order, waits for its predecessor's inclusive prefix and publishes its own; without, the section's total goes
 * to sums[] for the hierarchy. */
template <typename T, unsigned BLOCK, unsigned COARSE, bool SHUFFLE, bool CHAIN>
__device__ __forceinline__ void scan_staged_tile(const T *in, T *out, size_t n, int exclusive, T *sums, scan_hdr *h,
                                                 unsigned long long *status, unsigned capacity)
{
    constexpr unsigned TILE = BLOCK * COARSE;
    __shared__ T s[TILE];
    __shared__ T ks[SHUFFLE ? BLOCK / 32 + 1 : BLOCK];
    __shared__ T s_prefix;
    __shared__ unsigned s_tile, s_epoch;
    const unsigned t = threadIdx.x;
    unsigned tile = blockIdx.x, epoch = 0;
    if (CHAIN) {
        if (t == 0)
            climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
        __syncthreads();
        tile = s_tile;
        epoch = s_epoch;
    }
    const size_t base = (size_t)tile * TILE;
    for (unsigned j = t; j < TILE; j += BLOCK)
        s[j] = base + j < n ? in[base + j] : T(0);
    __syncthreads();
    T x[COARSE];
    T total = T(0);
#pragma unroll
    for (unsigned c = 0; c < COARSE; c++) {
        x[c] = s[t * COARSE + c];
        total += x[c];
    }
    T pre, block_total;
    if (SHUFFLE) {
        pre = climb_block_exclusive_scan<climb_op_sum, BLOCK>(total, ks, &block_total);
    } else {
        ks[t] = total;
        for (unsigned d = 1; d < BLOCK; d <<= 1) {
            __syncthreads();
            const T v = t >= d ? ks[t - d] : T(0);
            __syncthreads();
            if (t >= d)
                ks[t] += v;
        }
        __syncthreads();
        pre = t > 0 ? ks[t - 1] : T(0);
        block_total = ks[BLOCK - 1];
    }
    if (CHAIN) {
        if (t == 0) {
            const unsigned marker = epoch + 1;
            T prefix = T(0);
            if (tile > 0) {
                unsigned long long w;
                do
                    w = climb_lookback_load(&status[tile - 1]);
                while ((unsigned)(w >> 33) != marker);
                prefix = climb_lookback_from_bits<T>((unsigned)w);
            }
            climb_lookback_publish(&status[tile], marker, 1, prefix + block_total);
            s_prefix = prefix;
        }
        __syncthreads();
        pre = s_prefix + pre;
    } else if (t == 0) {
        sums[blockIdx.x] = block_total;
    }
    __syncthreads(); /* every thread has read s */
    T run = pre;
#pragma unroll
    for (unsigned c = 0; c < COARSE; c++) {
        if (exclusive) {
            s[t * COARSE + c] = run;
            run += x[c];
        } else {
            run += x[c];
            s[t * COARSE + c] = run;
        }
    }
    __syncthreads();
    for (unsigned j = t; j < TILE; j += BLOCK)
        if (base + j < n)
            out[base + j] = s[j];
    if (CHAIN)
        climb_lookback_finish<BLOCK>(h, status, capacity, epoch, gridDim.x);
}

template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_three_phase_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    scan_staged_tile<T, BLOCK, COARSE, false, false>(in, out, n, exclusive, sums, NULL, NULL, 0);
}

template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_warp_shuffle_kernel(const T *in, T *out, size_t n, int exclusive, T *sums)
{
    scan_staged_tile<T, BLOCK, COARSE, true, false>(in, out, n, exclusive, sums, NULL, NULL, 0);
}

/* scan_chained: one pass. The warp-shuffle tile, whose prefix is its predecessor's inclusive prefix, passed
 * along the chain of tiles through flags in global memory (L2): no second read and write of the data, but each
 * tile waits for the one before it, a chain of latencies across the whole array. Blocks take tiles in the order
 * they start (a ticket), so a block only waits on a tile whose block is already running. */
template <typename T, unsigned BLOCK, unsigned COARSE>
__global__ void __launch_bounds__(BLOCK) scan_chained_kernel(const T *in, T *out, size_t n, int exclusive, char *ws,
                                                             unsigned capacity)
{
    scan_staged_tile<T, BLOCK, COARSE, true, true>(in, out, n, exclusive, NULL, (scan_hdr *)ws,
                                                   (unsigned long long *)(ws + SCAN_HDR), capacity);
}

/* The hierarchy's last step: section b + 1 adds the inclusive scan of the section sums up to section b. */
template <typename T>
__global__ void scan_add_kernel(T *out, size_t n, const T *sums, unsigned section)
{
    const T a = sums[blockIdx.x];
    const size_t base = (size_t)(blockIdx.x + 1) * section;
    for (unsigned j = threadIdx.x; j < section && base + j < n; j += blockDim.x)
        out[base + j] = a + out[base + j];
}

/* scan_decoupled_lookback, the best rung: one pass, each tile's prefix found by looking back.
 * - Wide loads straight into registers: warp w of the block owns a contiguous stretch of the tile; in round k its
 *   lane l holds the W-element vector k x 32 + l of that stretch (16-byte loads and stores, 512 bytes a warp an
 *   instruction, no shared-memory staging). W = 1 when the arrays are not 16-byte aligned.
 * - Each round: the lane sums its vector, the warp scans the 32 sums with shuffles, a running carry joins the
 *   rounds; the warps' totals meet once in shared memory.
 * - Decoupled look-back: the tile publishes its aggregate at once (flag A), then warp 0 reads the 32 tiles before
 *   it in one go, adds aggregates back to the nearest tile that has published its inclusive prefix (flag P), and
 *   steps back 32 tiles more while none has; then it publishes its own inclusive prefix. No tile waits for a chain
 *   of its predecessors' look-backs, only for their aggregates, which they publish as soon as they have read their
 *   data. On a large input the wait is still the cost: the sleeps and the register budget above. */
template <typename T, unsigned BLOCK, unsigned ITEMS, unsigned W>
__global__ void __launch_bounds__(BLOCK, W == 4 ? SCAN_LOOKBACK_MIN_THREADS / BLOCK : 1)
    scan_lookback_kernel(const T *in, T *out, size_t n, int exclusive, char *ws, unsigned capacity)
{
    typedef typename std::conditional<W == 4, typename climb_vec16<T>::type, T>::type V;
    constexpr unsigned VECS = ITEMS / W, WARPS = BLOCK / 32, TILE = BLOCK * ITEMS;
    static_assert(ITEMS % W == 0 && (W == 1 || W == 4), "ITEMS whole vectors of 1 or 4 elements");
    __shared__ unsigned s_tile, s_epoch;
    __shared__ T s_warp[WARPS];
    scan_hdr *h = (scan_hdr *)ws;
    unsigned long long *status = (unsigned long long *)(ws + SCAN_HDR);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0)
        climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
    __syncthreads();
    const unsigned tile = s_tile, epoch = s_epoch, marker = epoch + 1;
    const size_t wbase = (size_t)tile * TILE + (size_t)warp * (VECS * 32 * W);
    const bool full = (size_t)tile * TILE + TILE <= n;

    T x[VECS][W];
    if (full) {
        const V *src = reinterpret_cast<const V *>(in + wbase);
#pragma unroll
        for (unsigned k = 0; k < VECS; k++) {
            const V v = __ldcs(&src[k * 32 + lane]); /* streamed: read once, kept out of the way in L2 */
            memcpy(x[k], &v, sizeof v);
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
#pragma unroll
            for (unsigned e = 0; e < W; e++) {
                const size_t i = wbase + (size_t)(k * 32 + lane) * W + e;
                x[k][e] = i < n ? in[i] : T(0);
            }
    }

    T pre[VECS], carry = T(0);
#pragma unroll
    for (unsigned k = 0; k < VECS; k++) {
        T sum = x[k][0];
#pragma unroll
        for (unsigned e = 1; e < W; e++)
            sum += x[k][e];
        const T inc = climb_warp_inclusive_scan<climb_op_sum>(sum);
        const T exc = __shfl_up_sync(0xffffffffu, inc, 1);
        pre[k] = carry + (lane == 0 ? T(0) : exc);
        carry = carry + __shfl_sync(0xffffffffu, inc, 31);
    }
    if (lane == 0)
        s_warp[warp] = carry;
    __syncthreads();

    if (warp == 0) {
        const T a = lane < WARPS ? s_warp[lane] : T(0);
        const T inc = climb_warp_inclusive_scan<climb_op_sum>(a);
        const T aggregate = __shfl_sync(0xffffffffu, inc, 31);
        const T up = __shfl_up_sync(0xffffffffu, inc, 1); /* every lane: the mask names all 32 */
        const T wexc = lane == 0 ? T(0) : up;
        const T prefix =
            climb_lookback_prefix<T>(status, tile, marker, aggregate, SCAN_LOOKBACK_FIRST_NS, SCAN_LOOKBACK_POLL_NS);
        if (lane < WARPS)
            s_warp[lane] = prefix + wexc;
    }
    __syncthreads();
    const T wp = s_warp[warp];

#pragma unroll
    for (unsigned k = 0; k < VECS; k++) {
        T run = wp + pre[k];
#pragma unroll
        for (unsigned e = 0; e < W; e++) {
            const T v = x[k][e];
            if (exclusive) {
                x[k][e] = run;
                run += v;
            } else {
                run += v;
                x[k][e] = run;
            }
        }
    }
    if (full) {
        V *dst = reinterpret_cast<V *>(out + wbase);
#pragma unroll
        for (unsigned k = 0; k < VECS; k++) {
            V v;
            memcpy(&v, x[k], sizeof v);
            __stcs(&dst[k * 32 + lane], v);
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < VECS; k++)
#pragma unroll
            for (unsigned e = 0; e < W; e++) {
                const size_t i = wbase + (size_t)(k * 32 + lane) * W + e;
                if (i < n)
                    out[i] = x[k][e];
            }
    }
    climb_lookback_finish<BLOCK>(h, status, capacity, epoch, gridDim.x);
}
