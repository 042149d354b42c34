/* Histogram's policy and kernels (src/workloads/histogram/), one group per rung.
 * Included by histogram.cu where it stands in the file (after the CPU reference and before the launchers); not a header
 * of its own. */
/* ---------------------------------------------------------------- policy */

/* Threads per block of every kernel of ours; the grid-stride rungs launch at most HIST_BLOCKS_PER_SM blocks per
 * SM (8 x 256 = 2048 threads, a full SM on CC 9.0), fewer when the input is small. */
#define HIST_BLOCK 256u
#define HIST_WARPS (HIST_BLOCK / 32)
#define HIST_BLOCKS_PER_SM 8u
/* wide_per_warp and packed_registers: 16-byte vectors each warp takes per step, each lane HIST_UNROLL of them in
 * flight. */
#define HIST_UNROLL 4u

/* ---------------------------------------------------------------- kernels */

/* hist_global_contiguous: the textbook first try. Thread t counts the t-th contiguous stretch of the input with
 * an atomicAdd to the global bins per byte. Neighbouring threads read bytes a stretch apart: every warp load
 * touches 32 sectors for 32 bytes (uncoalesced), and every byte is an atomic in L2. */
__global__ void __launch_bounds__(HIST_BLOCK) hist_global_contiguous_kernel(const uint8_t *__restrict__ in, size_t n,
                                                                            unsigned *counts, int map, unsigned bins,
                                                                            size_t chunk)
{
    const size_t t = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x, start = t * chunk;
    const size_t end = start + chunk < n ? start + chunk : n;
    for (size_t i = start; i < end; i++) {
        const int b = hist_bin(in[i], map, bins);
        if (b >= 0)
            atomicAdd(&counts[b], 1u);
    }
}

/* hist_global_interleaved: the same atomics, but thread t reads bytes t, t + T, t + 2T, ... (T threads in all):
 * a warp reads 32 consecutive bytes at a time (coalesced). Each byte is still a global atomic, and the popular
 * bins' atomics serialise in L2. */
__global__ void __launch_bounds__(HIST_BLOCK) hist_global_interleaved_kernel(const uint8_t *__restrict__ in, size_t n,
                                                                             unsigned *counts, int map, unsigned bins)
{
    const size_t stride = (size_t)gridDim.x * HIST_BLOCK;
    for (size_t i = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x; i < n; i += stride) {
        const int b = hist_bin(in[i], map, bins);
        if (b >= 0)
            atomicAdd(&counts[b], 1u);
    }
}

/* The end of every privatized kernel: the block's copies summed per bin and added to the global bins, one
 * atomic per nonzero bin. */
template <unsigned COPIES>
__device__ __forceinline__ void hist_merge(const unsigned *s, unsigned *counts, unsigned nbins)
{
    __syncthreads();
    for (unsigned b = threadIdx.x; b < nbins; b += HIST_BLOCK) {
        unsigned v = 0;
#pragma unroll
        for (unsigned c = 0; c < COPIES; c++)
            v += s[c * 256 + b];
        if (v)
            atomicAdd(&counts[b], v);
    }
}

__device__ __forceinline__ void hist_zero(unsigned *s, unsigned words)
{
    for (unsigned k = threadIdx.x; k < words; k += HIST_BLOCK)
        s[k] = 0;
    __syncthreads();
}

/* hist_shared_privatized: each block counts into its own copy of the bins in shared memory (atomics on shared
 * memory, in the SM, instead of L2), and adds its copy to the global bins once at the end. With AGGREGATE
 * (hist_shared_aggregated) each thread also keeps the bin it saw last and a count, and issues one atomic per run
 * of equal bins instead of one per byte: fewer atomics where a thread's bytes repeat, a compare and a branch per
 * byte everywhere (PMPP warns it loses when contention is low; docs/histogram.md has what it costs here). */
template <bool AGGREGATE>
__global__ void __launch_bounds__(HIST_BLOCK) hist_shared_kernel(const uint8_t *__restrict__ in, size_t n,
                                                                 unsigned *counts, int map, unsigned bins)
{
    __shared__ unsigned s[256];
    hist_zero(s, 256);
    const size_t stride = (size_t)gridDim.x * HIST_BLOCK;
    int prev = -1;
    unsigned run = 0;
    for (size_t i = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x; i < n; i += stride) {
        const int b = hist_bin(in[i], map, bins);
        if (!AGGREGATE) {
            if (b >= 0)
                atomicAdd(&s[b], 1u);
        } else if (b == prev) {
            run++;
        } else {
            if (prev >= 0)
                atomicAdd(&s[prev], run);
            prev = b;
            run = 1;
        }
    }
    if (AGGREGATE && prev >= 0)
        atomicAdd(&s[prev], run);
    hist_merge<1>(s, counts, map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : bins);
}

/* hist_per_warp: one copy of the bins per warp (8 KB a block for 256 bins): atomics from different warps never
 * meet on one address, so a popular bin serialises only the lanes of one warp; the merge adds 8 copies. */
__global__ void __launch_bounds__(HIST_BLOCK) hist_per_warp_kernel(const uint8_t *__restrict__ in, size_t n,
                                                                   unsigned *counts, int map, unsigned bins)
{
    __shared__ unsigned s[HIST_WARPS * 256];
    hist_zero(s, HIST_WARPS * 256);
    unsigned *mine = s + (threadIdx.x >> 5) * 256;
    const size_t stride = (size_t)gridDim.x * HIST_BLOCK;
    for (size_t i = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x; i < n; i += stride) {
        const int b = hist_bin(in[i], map, bins);
        if (b >= 0)
            atomicAdd(&mine[b], 1u);
    }
    hist_merge<HIST_WARPS>(s, counts, map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : bins);
}

/* Counts the 16 bytes of one vector into a warp's copy. When all 16 are one bin, one atomic of 16; when every
 * lane of the warp holds 16 of the same bin (constant input, long runs), lane 0 alone adds 512. Every lane of
 * the warp calls it (the votes need them all); `valid` says whether the lane holds a vector; `s` is the block's
 * copies, of which `mine` is the warp's. BINS is the bin count compiled in, or 0 (`bins`): 256 under the bytes map
 * (the full byte histogram) takes each byte's word address in the warp's copy straight from the vector, the
 * byte's bits shifted into place, masked and or-ed with the warp's offset: two instructions and the atomic a byte,
 * against five and the atomic with the bin count read at run time (take the byte out, multiply by bins, shift and
 * add the warp's copy, scale to an address). */
template <int MAP, unsigned BINS>
__device__ __forceinline__ void hist_count_vector(uint4 v, bool valid, unsigned *s, unsigned *mine, int map,
                                                  unsigned bins_arg)
{
    const unsigned bins = BINS ? BINS : bins_arg;
    const unsigned lane = threadIdx.x & 31;
    const unsigned splat = (v.x & 255u) * 0x01010101u;
    const bool same = valid && v.x == splat && v.y == splat && v.z == splat && v.w == splat;
    const int b0 = hist_bin(v.x & 255u, map, bins);
    const int lead = __shfl_sync(0xffffffffu, b0, 0);
    if (__all_sync(0xffffffffu, same && b0 == lead)) {
        if (lane == 0 && b0 >= 0)
            atomicAdd(&mine[b0], 512u);
        return;
    }
    if (!valid)
        return;
    if (same) {
        if (b0 >= 0)
            atomicAdd(&mine[b0], 16u);
        return;
    }
    const unsigned w[4] = {v.x, v.y, v.z, v.w};
    if constexpr (MAP == CLIMB_HIST_BYTES && BINS == 256) {
        /* the warp's copy begins (threadIdx.x >> 5) x 1024 bytes into s: bits 10 and up, above a byte's 4 x b */
        const unsigned copy = (threadIdx.x << 5) & ~1023u;
        char *const base = reinterpret_cast<char *>(s);
#pragma unroll
        for (int k = 0; k < 4; k++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const unsigned at = ((e == 0 ? w[k] << 2 : w[k] >> (8 * e - 2)) & 1020u) | copy;
                atomicAdd(reinterpret_cast<unsigned *>(base + at), 1u);
            }
    } else {
#pragma unroll
        for (int k = 0; k < 4; k++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                /* the bytes map counts every byte; under a map that skips bytes (letters) a byte no bin counts goes
                   to the copy's last word, which the merge never reads (7 bins): an atomic for every byte, but no
                   branch, so the lanes of a warp never split over which bytes count. MAP is CLIMB_HIST_BYTES
                   (compiled in: no select, which cost 8% at 256 bins over uniform bytes) or -1 (the map read at run
                   time: for the letters this measured 248 us at 2^29 against 298 with the letters map compiled in,
                   docs/histogram.md) */
                const int b = hist_bin((w[k] >> (8 * e)) & 255u, map, bins);
                atomicAdd(&mine[MAP == CLIMB_HIST_BYTES ? b : b >= 0 ? b : 255], 1u);
            }
    }
}

/* A lane's HIST_UNROLL 16-byte vectors of a warp's step (base + u * 32 + lane, zeros past nvec), streamed past L2:
 * the loads of wide_per_warp and packed_registers. */
__device__ __forceinline__ void hist_load_vectors(const uint4 *body, size_t base, unsigned lane, size_t nvec,
                                                  uint4 (&r)[HIST_UNROLL])
{
#pragma unroll
    for (unsigned u = 0; u < HIST_UNROLL; u++) {
        const size_t v = base + u * 32 + lane;
        r[u] = v < nvec ? __ldcs(&body[v]) : make_uint4(0, 0, 0, 0);
    }
}

/* hist_wide_per_warp (the best rung's kernel for the byte map): the per-warp copies, fed by 16-byte loads (16
 * bytes a thread a load, 4 in flight, streamed past L2), and hist_count_vector's whole-vector and whole-warp paths
 * for runs. The bytes before the first 16-byte boundary and after the last are counted one by one. BINS: as
 * hist_count_vector's (256 compiled in for the bytes map's full byte histogram, the common case). */
template <int MAP, unsigned BINS>
__global__ void __launch_bounds__(HIST_BLOCK) hist_wide_kernel(const uint8_t *__restrict__ in, size_t n,
                                                               unsigned *counts, int map_arg, unsigned bins_arg)
{
    const int map = MAP >= 0 ? MAP : map_arg;
    const unsigned bins = BINS ? BINS : bins_arg;
    __shared__ unsigned s[HIST_WARPS * 256];
    hist_zero(s, HIST_WARPS * 256);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned *mine = s + warp * 256;
    size_t head = (16 - ((uintptr_t)in & 15)) & 15;
    if (head > n)
        head = n;
    const size_t nvec = (n - head) / 16, tail = head + 16 * nvec;
    const size_t gtid = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x;
    if (gtid < head) {
        const int b = hist_bin(in[gtid], map, bins);
        if (b >= 0)
            atomicAdd(&mine[b], 1u);
    }
    if (gtid < n - tail) {
        const int b = hist_bin(in[tail + gtid], map, bins);
        if (b >= 0)
            atomicAdd(&mine[b], 1u);
    }
    const uint4 *body = reinterpret_cast<const uint4 *>(in + head);
    const size_t step = (size_t)gridDim.x * HIST_WARPS * 32 * HIST_UNROLL;
    const size_t first = ((size_t)blockIdx.x * HIST_WARPS + warp) * 32 * HIST_UNROLL;
    if constexpr (MAP == CLIMB_HIST_BYTES && BINS == 256) {
        /* the next step's vectors are loaded before this step's are counted, so a warp keeps its loads in flight
           while its atomics run (the 256-bin path's three instructions a byte left warps waiting on their loads:
           on an H100, 2^29 bytes of runs went 193.7 -> 197.0 us without this; with it, skewed 184.9 -> 181.2,
           text 189.4 -> 182.6, runs 187.7 / 197.5 -> 184.1 / 183.9 in two rounds; docs/histogram.md) */
        uint4 r[HIST_UNROLL];
        if (first < nvec)
            hist_load_vectors(body, first, lane, nvec, r);
        for (size_t base = first; base < nvec; base += step) {
            uint4 q[HIST_UNROLL];
            if (base + step < nvec)
                hist_load_vectors(body, base + step, lane, nvec, q);
#pragma unroll
            for (unsigned u = 0; u < HIST_UNROLL; u++)
                hist_count_vector<MAP, BINS>(r[u], base + u * 32 + lane < nvec, s, mine, map, bins);
#pragma unroll
            for (unsigned u = 0; u < HIST_UNROLL; u++)
                r[u] = q[u];
        }
    } else {
        for (size_t base = first; base < nvec; base += step) {
            uint4 r[HIST_UNROLL];
            hist_load_vectors(body, base, lane, nvec, r);
#pragma unroll
            for (unsigned u = 0; u < HIST_UNROLL; u++)
                hist_count_vector<MAP, BINS>(r[u], base + u * 32 + lane < nvec, s, mine, map, bins);
        }
    }
    hist_merge<HIST_WARPS>(s, counts, map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : bins);
}

/* At most this many bins take hist_packed_kernel: a byte counter a bin in one 64-bit register. */
#define HIST_PACKED_MAX_BINS 8u
/* Copies of its table (32 KB a block), and its blocks per SM: 4, what its registers allow (64 a thread, the
 * kernel's launch bounds; 4 x 32 KB of tables fit the 228 KB of an SM on CC 9.0). */
#define HIST_LUT_COPIES 16u
#define HIST_PACKED_BLOCKS_PER_SM 4u

/* Moves the packed byte counters into the 32-bit ones (before any byte counter can pass 255). */
__device__ __forceinline__ void hist_unpack(unsigned long long &acc, unsigned (&c)[HIST_PACKED_MAX_BINS])
{
#pragma unroll
    for (unsigned k = 0; k < HIST_PACKED_MAX_BINS; k++)
        c[k] += (unsigned)(acc >> (8 * k)) & 255u;
    acc = 0;
}

/* The packed kernels' table: entry e holds byte value e / COPIES's increment, 1 << WIDTH bin (0 for a byte no bin
 * counts), so entry v's copies lie side by side; consecutive threads write consecutive entries (no bank
 * conflicts). s, the block's bins, zeroed too. */
template <typename T, unsigned COPIES, unsigned WIDTH>
__device__ __forceinline__ void hist_fill_table(T *lut, unsigned *s, int map, unsigned bins)
{
#pragma unroll 1
    for (unsigned j = 0; j < COPIES; j++) {
        const unsigned e = j * HIST_BLOCK + threadIdx.x;
        const int b = hist_bin(e / COPIES, map, bins);
        lut[e] = b >= 0 ? (T)1 << (WIDTH * b) : (T)0;
    }
    if (threadIdx.x < HIST_PACKED_MAX_BINS)
        s[threadIdx.x] = 0;
}

/* The packed kernels' end: each warp sums its lanes' counters with one reduction a bin into s, and the block adds
 * s to the global bins. */
__device__ __forceinline__ void hist_add_counters(const unsigned (&c)[HIST_PACKED_MAX_BINS], unsigned *s,
                                                  unsigned *counts, int map, unsigned bins)
{
    const unsigned lane = threadIdx.x & 31;
#pragma unroll
    for (unsigned k = 0; k < HIST_PACKED_MAX_BINS; k++) {
        const unsigned v = __reduce_add_sync(0xffffffffu, c[k]);
        if (lane == 0 && v)
            atomicAdd(&s[k], v);
    }
    __syncthreads();
    const unsigned nb = map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : bins;
    if (threadIdx.x < nb && s[threadIdx.x])
        atomicAdd(&counts[threadIdx.x], s[threadIdx.x]);
}

/* hist_packed_registers, the packed counters for a map that skips bytes (the letters map's 7 bins; it takes any
 * map of at most 8 bins). No atomics and no bin arithmetic while counting. With few bins every lane of a warp hits
 * the same handful of shared words, and the per-byte bin arithmetic, a branch and a variable shift cost more
 * instructions than the memory leaves time for (the letters over text ran at half CUB's speed). Here each block
 * first writes a 256-entry table in shared memory: for byte value v, the 64-bit increment 1 << 8 * bin(v) (0 for
 * a byte no bin counts), in 16 copies so that no two lanes of a half warp read one bank (one copy had 2-way
 * conflicts on text); consecutive threads write consecutive entries, so the writes have no conflicts either (a
 * thread writing its byte value's 16 copies put a half warp's 16 writes in one bank: 16-way conflicts, a cost
 * every block pays). A thread then counts a byte with one table load and one 64-bit add into eight 8-bit counters
 * packed in a register, and moves them into eight 32-bit counters after every 64 bytes, before one can wrap: about
 * 5 instructions a byte.
 * (A first version computed the one-hot shift per byte: 1.05x wide_per_warp; one with 4-byte SIMD compares per bin
 * edge, which Hopper emulates in several instructions each: 0.79x; docs/histogram.md.) The loads are
 * wide_per_warp's (16-byte vectors, 4 in flight, streamed past L2). At the end each warp sums its lanes with one
 * reduction a bin, and the block's warps add theirs into the global bins. */
__global__ void __launch_bounds__(HIST_BLOCK, HIST_PACKED_BLOCKS_PER_SM)
    hist_packed_kernel(const uint8_t *__restrict__ in, size_t n, unsigned *counts, int map, unsigned bins)
{
    static_assert(HIST_BLOCK == 256, "the set-up writes HIST_BLOCK x HIST_LUT_COPIES entries: 256 byte values");
    /* 16 copies of the table, entry v's copies side by side: lane l reads copy l % 16, so the 16 lanes of each half
       warp (a 64-bit load is served a half warp at a time) always hit 16 different bank pairs */
    __shared__ unsigned long long lut[256 * HIST_LUT_COPIES];
    __shared__ unsigned s[HIST_PACKED_MAX_BINS];
    hist_fill_table<unsigned long long, HIST_LUT_COPIES, 8>(lut, s, map, bins); /* a half warp: 16 entries */
    __syncthreads();
    const unsigned long long *mine = lut + (threadIdx.x & (HIST_LUT_COPIES - 1));
    unsigned c[HIST_PACKED_MAX_BINS] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned long long acc = 0;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    size_t head = (16 - ((uintptr_t)in & 15)) & 15;
    if (head > n)
        head = n;
    const size_t nvec = (n - head) / 16, tail = head + 16 * nvec;
    const size_t gtid = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x;
    if (gtid < head) /* the bytes outside the 16-byte vectors, one by one */
        acc += mine[in[gtid] * HIST_LUT_COPIES];
    if (gtid < n - tail)
        acc += mine[in[tail + gtid] * HIST_LUT_COPIES];
    const uint4 *body = reinterpret_cast<const uint4 *>(in + head);
    const size_t step = (size_t)gridDim.x * HIST_WARPS * 32 * HIST_UNROLL;
    for (size_t base = ((size_t)blockIdx.x * HIST_WARPS + warp) * 32 * HIST_UNROLL; base < nvec; base += step) {
        uint4 r[HIST_UNROLL];
        hist_load_vectors(body, base, lane, nvec, r);
        hist_unpack(acc, c); /* at most 2 bytes before the loop, 64 a pass: no byte counter passes 255 */
        /* four sums, one a word of the vectors: four chains of adds in flight instead of one of 64 */
        unsigned long long part[4] = {0, 0, 0, 0};
#pragma unroll
        for (unsigned u = 0; u < HIST_UNROLL; u++) {
            if (base + u * 32 + lane >= nvec)
                continue;
            const unsigned w[4] = {r[u].x, r[u].y, r[u].z, r[u].w};
#pragma unroll
            for (int k = 0; k < 4; k++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    part[k] += mine[((w[k] >> (8 * e)) & 255u) * HIST_LUT_COPIES];
        }
        acc += (part[0] + part[1]) + (part[2] + part[3]);
    }
    hist_unpack(acc, c);
    hist_add_counters(c, s, counts, map, bins);
}

/* hist_nibble_kernel (packed_nibbles): hist_packed_kernel with half the shared bytes a counted byte. In
 * packed_registers each byte costs one 8-byte shared load, and a warp's 8-byte load is two 128-byte wavefronts:
 * 2^29 bytes are 16.8 M warp loads, 2 clocks each of an SM's shared memory, 128 us on 132 SMs at 1.98 GHz before
 * anything else, which is about what the kernel takes on the H100 and on the H200 alike (188-190 us; CUB 158 us
 * on the H200: docs/histogram.md). Here the table's entry is 32 bits, the increment 1 << 4 bin: eight 4-bit
 * counters, one 128-byte wavefront a warp load. The table holds 32 copies, entry v's copy c at v 32 + c, and lane
 * l reads copy l: every lane of a warp reads its own bank whatever the bytes (32 KB, as before). A 4-bit counter
 * holds 15, so each sum of table entries covers 8 bytes (two words of a vector) and is then folded into byte
 * counters, the even bins' nibbles and the odd bins' (p & 0x0f0f0f0f, (p >> 4) & 0x0f0f0f0f), 8 at most a fold;
 * the byte counters move into 32-bit ones once a pass (64 bytes a lane, at most 64 a byte counter). About 5.5
 * instructions a byte in its SASS (hist_packed_kernel: 7.8), and half the shared traffic. Letters over text at
 * 2^29: 180.5 against 190.1 us on an H100, 149.4 against 188.2 on an H200 (docs/histogram.md). */
#define HIST_NIBBLE_COPIES 32u
__device__ __forceinline__ void hist_fold(unsigned p, unsigned &even, unsigned &odd)
{
    even += p & 0x0f0f0f0fu;
    odd += (p >> 4) & 0x0f0f0f0fu;
}
/* Moves the byte counters of the even bins (0, 2, 4, 6) and the odd ones (1, 3, 5, 7) into c. */
__device__ __forceinline__ void hist_unfold(unsigned &even, unsigned &odd, unsigned (&c)[HIST_PACKED_MAX_BINS])
{
#pragma unroll
    for (unsigned k = 0; k < HIST_PACKED_MAX_BINS / 2; k++) {
        c[2 * k] += (even >> (8 * k)) & 255u;
        c[2 * k + 1] += (odd >> (8 * k)) & 255u;
    }
    even = odd = 0;
}

__global__ void __launch_bounds__(HIST_BLOCK, HIST_PACKED_BLOCKS_PER_SM)
    hist_nibble_kernel(const uint8_t *__restrict__ in, size_t n, unsigned *counts, int map, unsigned bins)
{
    static_assert(HIST_BLOCK == 256, "the set-up writes HIST_NIBBLE_COPIES rounds of HIST_BLOCK entries: 256 byte "
                                     "values");
    __shared__ unsigned lut[256 * HIST_NIBBLE_COPIES];
    __shared__ unsigned s[HIST_PACKED_MAX_BINS];
    hist_fill_table<unsigned, HIST_NIBBLE_COPIES, 4>(lut, s, map, bins); /* a warp: 32 entries, one a bank */
    __syncthreads();
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned *mine = lut + lane;
    const char *mine_bytes = (const char *)mine; /* entry v's copy: 128 v bytes on (32 copies of 4 bytes) */
    unsigned c[HIST_PACKED_MAX_BINS] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned even = 0, odd = 0;
    size_t head = (16 - ((uintptr_t)in & 15)) & 15;
    if (head > n)
        head = n;
    const size_t nvec = (n - head) / 16, tail = head + 16 * nvec;
    const size_t gtid = (size_t)blockIdx.x * HIST_BLOCK + threadIdx.x;
    {
        unsigned p = 0; /* the bytes outside the 16-byte vectors, one by one: at most 2 a thread */
        if (gtid < head)
            p += mine[in[gtid] * HIST_NIBBLE_COPIES];
        if (gtid < n - tail)
            p += mine[in[tail + gtid] * HIST_NIBBLE_COPIES];
        hist_fold(p, even, odd);
    }
    const uint4 *body = reinterpret_cast<const uint4 *>(in + head);
    const size_t step = (size_t)gridDim.x * HIST_WARPS * 32 * HIST_UNROLL;
    for (size_t base = ((size_t)blockIdx.x * HIST_WARPS + warp) * 32 * HIST_UNROLL; base < nvec; base += step) {
        uint4 r[HIST_UNROLL];
        hist_load_vectors(body, base, lane, nvec, r);
        hist_unfold(even, odd, c); /* then at most 64 counts a byte counter before the next unfold */
#pragma unroll
        for (unsigned u = 0; u < HIST_UNROLL; u++) {
            if (base + u * 32 + lane >= nvec)
                continue;
            const unsigned w[4] = {r[u].x, r[u].y, r[u].z, r[u].w};
            unsigned p[2] = {0, 0}; /* 8 bytes each: no 4-bit counter passes 8 */
#pragma unroll
            for (int k = 0; k < 4; k++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    /* byte e of the word moved to the low bits (one PRMT), then one shift-add to its entry */
                    const unsigned v = __byte_perm(w[k], 0, 0x4440u + (unsigned)e);
                    p[k >> 1] += *(const unsigned *)(mine_bytes + (v << 7));
                }
            hist_fold(p[0], even, odd);
            hist_fold(p[1], even, odd);
        }
    }
    hist_unfold(even, odd, c);
    hist_add_counters(c, s, counts, map, bins);
}
