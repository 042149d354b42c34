/* Cutoff summation's kernels (src/workloads/cutoff/): the direct loop, the capacity bins' kernel, the pencils and
 * the scan binning. */
#ifndef CLIMB_WORKLOADS_CUTOFF_KERNELS_CUH
#define CLIMB_WORKLOADS_CUTOFF_KERNELS_CUH

#include "geometry.cuh"

/* ---------------------------------------------------------------- kernels */

/* One atom at squared distance r2 from a point: its smoothed term added when exclusion <= r < cutoff (one MUFU.RSQ,
 * computed for every pair examined), and the point marked when a charged atom is inside the exclusion distance. */
__device__ __forceinline__ void cut_eval(float r2, float q, const cut_grid &g, float &acc, bool &ex)
{
    const float s = fmaf(-r2, g.inv_c2, 1.0f);
    const float t = q * climb_rsqrt_ftz(r2) * (s * s); /* r2 >= e2 >= 10^-6 where used: never subnormal */
    acc += (r2 < g.c2 && r2 >= g.e2) ? t : 0.0f;
    ex = ex || (r2 < g.e2 && q != 0.0f);
}

/* direct: dcs's best loop with the cutoff test (2 points a thread 32 apart along x, 4 rows a block, the atoms
 * staged through shared memory): every atom for every point. */
#define CUT_DIRECT_P 2
#define CUT_DIRECT_ROWS 4
__global__ void __launch_bounds__(32 * CUT_DIRECT_ROWS) cut_direct_kernel(const float4 *__restrict__ atoms, int n,
                                                                          float *out, cut_grid g)
{
    constexpr int T = 32 * CUT_DIRECT_ROWS, P = CUT_DIRECT_P;
    __shared__ float4 tile[T];
    const int t = threadIdx.y * 32 + threadIdx.x;
    const int i0 = blockIdx.x * 32 * P + threadIdx.x, j = blockIdx.y * CUT_DIRECT_ROWS + threadIdx.y, k = blockIdx.z;
    const float py = g.oy + g.h * j, pz = g.oz + g.h * k;
    float px[P], acc[P];
    bool ex[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        px[p] = g.ox + g.h * (i0 + p * 32);
        acc[p] = 0.0f;
        ex[p] = false;
    }
    climb_block_tiles<T>(atoms, 0, n, tile, t, [&](const float4 at) {
        const float dy = py - at.y, dz = pz - at.z, dyz = dy * dy + dz * dz;
#pragma unroll
        for (int p = 0; p < P; p++) {
            const float dx = px[p] - at.x;
            cut_eval(fmaf(dx, dx, dyz), at.w, g, acc[p], ex[p]);
        }
    });
    if (j >= g.ny)
        return;
    float *o = out + ((size_t)k * g.ny + j) * g.nx;
#pragma unroll
    for (int p = 0; p < P; p++)
        if (i0 + p * 32 < g.nx)
            o[i0 + p * 32] = ex[p] ? 0.0f : acc[p];
}

/* A block's region: 8 x 8 x 8 points, the block 8 x 8 x (8 / P) threads (x fastest), each P points along z. */
template <int P> struct cut_region {
    int i, j, k0;
    float px, py, pz[P];
    __device__ __forceinline__ cut_region(const cut_grid &g, int t)
    {
        i = blockIdx.x * CLIMB_CUTOFF_BIN + (t & 7);
        j = blockIdx.y * CLIMB_CUTOFF_BIN + ((t >> 3) & 7);
        k0 = blockIdx.z * CLIMB_CUTOFF_BIN + (t >> 6) * P;
        px = g.ox + g.h * i;
        py = g.oy + g.h * j;
#pragma unroll
        for (int p = 0; p < P; p++)
            pz[p] = g.oz + g.h * (k0 + p);
    }
    /* the region's points that are on the lattice: excluded ones 0, or NaN (nan_excluded: a later pass adds the
     * CPU's part and turns NaN into 0) */
    __device__ __forceinline__ void store(const cut_grid &g, float *out, const float *acc, const bool *ex,
                                          bool nan_excluded) const
    {
        if (i >= g.nx || j >= g.ny)
            return;
#pragma unroll
        for (int p = 0; p < P; p++)
            if (k0 + p < g.nz)
                out[((size_t)(k0 + p) * g.ny + j) * g.nx + i] = ex[p] ? (nan_excluded ? __int_as_float(0x7fc00000) : 0.0f)
                                                                      : acc[p];
    }
};

/* The neighbour bins of a region, as offsets from its own bin (the book keeps them in constant memory). */
#define CUT_MAX_NBR 8192
__constant__ int cut_nbr[CUT_MAX_NBR];
#define CUT_CAP_THREADS 128
#define CUT_CAP_P 4

/* cpu_bins and gpu_bins: a block per region reads its n_nbr neighbour bins of cap atoms each (dummy atoms of charge
 * 0 far away fill the bins), 128 slots at a time through shared memory. Excluded points are left NaN. */
__global__ void __launch_bounds__(CUT_CAP_THREADS) cut_capacity_kernel(const float4 *__restrict__ bins, int cap,
                                                                       int n_nbr, float *out, cut_grid g)
{
    __shared__ float4 tile[CUT_CAP_THREADS];
    const int t = threadIdx.x;
    const cut_region<CUT_CAP_P> r(g, t);
    const int64_t home = ((int64_t)(blockIdx.z + g.margin) * g.by + blockIdx.y + g.margin) * g.bx + blockIdx.x + g.margin;
    float acc[CUT_CAP_P];
    bool ex[CUT_CAP_P];
#pragma unroll
    for (int p = 0; p < CUT_CAP_P; p++) {
        acc[p] = 0.0f;
        ex[p] = false;
    }
    const int total = n_nbr * cap;
    for (int s0 = 0; s0 < total; s0 += CUT_CAP_THREADS) {
        const int s = s0 + t;
        __syncthreads();
        if (s < total) {
            const int nb = s / cap;
            tile[t] = bins[(size_t)(home + cut_nbr[nb]) * cap + (s - nb * cap)];
        }
        __syncthreads();
        const int m = min(CUT_CAP_THREADS, total - s0);
        for (int a = 0; a < m; a++) {
            const float4 at = tile[a];
            const float dx = r.px - at.x, dy = r.py - at.y, dxy = fmaf(dx, dx, dy * dy);
#pragma unroll
            for (int p = 0; p < CUT_CAP_P; p++) {
                const float dz = r.pz[p] - at.z;
                cut_eval(fmaf(dz, dz, dxy), at.w, g, acc[p], ex[p]);
            }
        }
    }
    r.store(g, out, acc, ex, true);
}

/* scan_bins and the best rung: the region's pencils (rows of neighbour bins along x, each one contiguous range of
 * the sorted atoms), a block's width of them at a time: their lengths scanned into offsets, the concatenated atoms
 * read in tiles of a block's width (a thread's atom found by a binary search over the offsets). CYL: the cylinder
 * test, dx^2 + dy^2 against the cutoff once for the thread's P points along z. */
template <int P, bool CYL>
__global__ void __launch_bounds__(64 * (8 / P)) cut_pencil_kernel(const float4 *__restrict__ sorted,
                                                                  const int *__restrict__ start, float *out, cut_grid g)
{
    constexpr int NT = 64 * (8 / P);
    __shared__ float4 tile[NT];
    __shared__ int pbeg[NT], poff[NT], scratch[NT / 32 + 1];
    const int t = threadIdx.x;
    const cut_region<P> r(g, t);
    float acc[P];
    bool ex[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        acc[p] = 0.0f;
        ex[p] = false;
    }
    const int w = 2 * g.margin + 1, n_pencils = w * w;
    for (int g0 = 0; g0 < n_pencils; g0 += NT) {
        int beg = 0, len = 0;
        int64_t lo, hi;
        if (g0 + t < n_pencils && cut_pencil(g, blockIdx.x, blockIdx.y, blockIdx.z, g0 + t, &lo, &hi)) {
            beg = start[lo];
            len = start[hi + 1] - beg;
        }
        int total;
        const int off = climb_block_exclusive_scan<climb_op_sum, NT>(len, scratch, &total);
        __syncthreads(); /* the last group's offsets are read no more */
        pbeg[t] = beg;
        poff[t] = off;
        for (int a0 = 0; a0 < total; a0 += NT) {
            __syncthreads();
            const int j = a0 + t;
            if (j < total) {
                int lo2 = 0, hi2 = NT - 1;
                while (lo2 < hi2) {
                    const int mid = (lo2 + hi2 + 1) >> 1;
                    if (poff[mid] <= j)
                        lo2 = mid;
                    else
                        hi2 = mid - 1;
                }
                tile[t] = sorted[pbeg[lo2] + (j - poff[lo2])];
            }
            __syncthreads();
            const int m = min(NT, total - a0);
            for (int a = 0; a < m; a++) {
                const float4 at = tile[a];
                const float dx = r.px - at.x, dy = r.py - at.y, dxy = fmaf(dx, dx, dy * dy);
                if (CYL && !(dxy < g.c2))
                    continue;
#pragma unroll
                for (int p = 0; p < P; p++) {
                    const float dz = r.pz[p] - at.z;
                    cut_eval(fmaf(dz, dz, dxy), at.w, g, acc[p], ex[p]);
                }
            }
        }
    }
    r.store(g, out, acc, ex, false);
}

/* Binning by a scan, step 1: each atom's bin counted, its rank among its bin's atoms kept (NULL: counts only). */
__global__ void __launch_bounds__(256) cut_count_kernel(const float4 *__restrict__ atoms, int n, int *counts, int *rank,
                                                        cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    const int k = b >= 0 ? atomicAdd(counts + b, 1) : -1;
    if (rank)
        rank[a] = k;
}

/* Step 2: the counts' exclusive prefix sum, start[nb] the total, in one block. */
#define CUT_SCAN_THREADS 1024
__global__ void __launch_bounds__(CUT_SCAN_THREADS) cut_scan_kernel(const int *counts, int nb, int *start)
{
    __shared__ int scratch[CUT_SCAN_THREADS / 32 + 1];
    int carry = 0;
    for (int base = 0; base < nb; base += CUT_SCAN_THREADS) {
        const int i = base + threadIdx.x;
        int total;
        const int ex = climb_block_exclusive_scan<climb_op_sum, CUT_SCAN_THREADS>(i < nb ? counts[i] : 0, scratch, &total);
        if (i < nb)
            start[i] = carry + ex;
        carry += total;
    }
    if (threadIdx.x == 0)
        start[nb] = carry;
}

/* Step 3: each atom to its bin's range at its rank. */
__global__ void __launch_bounds__(256) cut_scatter_kernel(const float4 *__restrict__ atoms, int n, const int *rank,
                                                          const int *start, float4 *sorted, cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    if (b >= 0)
        sorted[start[b] + rank[a]] = at;
}

/* gpu_bins: every slot a dummy atom (charge 0, 10^18 Å away), then each atom into its bin if there is room (the
 * count read first: a full bin costs no atomic), else onto the overflow list. */
__global__ void __launch_bounds__(256) cut_dummy_kernel(float4 *bins, size_t slots)
{
    const size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    if (i < slots)
        bins[i] = make_float4(1e18f, 1e18f, 1e18f, 0.0f);
}

__global__ void __launch_bounds__(256) cut_bin_capacity_kernel(const float4 *__restrict__ atoms, int n, int *fill,
                                                               float4 *bins, int cap, float4 *ovf, int *n_ovf, cut_grid g)
{
    const int a = blockIdx.x * 256 + threadIdx.x;
    if (a >= n)
        return;
    const float4 at = atoms[a];
    const int64_t b = cut_bin(g, at.x, at.y, at.z, at.w);
    if (b < 0)
        return;
    if (*(volatile int *)(fill + b) < cap) {
        const int s = atomicAdd(fill + b, 1);
        if (s < cap) {
            bins[(size_t)b * cap + s] = at;
            return;
        }
    }
    ovf[atomicAdd(n_ovf, 1)] = at;
}

/* The capacity rungs' last pass: the CPU's sums of the overflow atoms added (cpu NULL: none), and the excluded
 * points (NaN from either side) set to 0. */
__global__ void __launch_bounds__(256) cut_combine_kernel(float *out, const float *cpu, size_t n)
{
    const size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    if (i >= n)
        return;
    const float v = out[i] + (cpu ? cpu[i] : 0.0f);
    out[i] = isnan(v) ? 0.0f : v;
}

/* ---------------------------------------------------------------- launchers the ladder and the library face share */

static inline size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

/* The scan-binning workspace: counts (nb), start (nb + 1), rank (n), sorted atoms (n float4). */
typedef struct cut_ws {
    int *counts, *start, *rank;
    float4 *sorted;
} cut_ws;

static inline size_t ws_layout(size_t nb, size_t n, void *base, cut_ws *w)
{
    const size_t sizes[4] = {align256(nb * 4), align256((nb + 1) * 4), align256((n ? n : 1) * 4),
                             align256((n ? n : 1) * 16)};
    if (base) {
        char *p = (char *)base;
        w->counts = (int *)p;
        w->start = (int *)(p + sizes[0]);
        w->rank = (int *)(p + sizes[0] + sizes[1]);
        w->sorted = (float4 *)(p + sizes[0] + sizes[1] + sizes[2]);
    }
    return sizes[0] + sizes[1] + sizes[2] + sizes[3];
}

extern "C" size_t climb_cutoff_best_workspace(const climb_cutoff_lattice *l, size_t n)
{
    climb_cutoff_bins b;
    char err[200];
    if (climb_cutoff_bins_of(l, &b, err, sizeof err) != 0)
        return 0;
    return ws_layout(b.count, n, NULL, NULL);
}

/* Bins by a scan on s: counts, offsets, scatter. */
static inline cudaError_t scan_binning(const cut_grid &g, size_t nb, const float4 *atoms, size_t n, const cut_ws &w,
                                cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(w.counts, 0, nb * sizeof(int), s);
    if (e != cudaSuccess)
        return e;
    if (n)
        cut_count_kernel<<<(unsigned)cdiv(n, 256), 256, 0, s>>>(atoms, (int)n, w.counts, w.rank, g);
    cut_scan_kernel<<<1, CUT_SCAN_THREADS, 0, s>>>(w.counts, (int)nb, w.start);
    if (n)
        cut_scatter_kernel<<<(unsigned)cdiv(n, 256), 256, 0, s>>>(atoms, (int)n, w.rank, w.start, w.sorted, g);
    return cudaGetLastError();
}

static inline dim3 regions_of(const climb_cutoff_lattice *l)
{
    return dim3((unsigned)cdiv(l->nx, CLIMB_CUTOFF_BIN), (unsigned)cdiv(l->ny, CLIMB_CUTOFF_BIN),
                (unsigned)cdiv(l->nz, CLIMB_CUTOFF_BIN));
}

static inline cudaError_t launch_pencils(int points, bool cyl, const cut_grid &g, const climb_cutoff_lattice *l,
                                  const cut_ws &w, float *out, cudaStream_t s)
{
    const dim3 grid = regions_of(l);
#define CUT_PENCIL(P_)                                                                                       \
    if (points == P_) {                                                                                      \
        if (cyl)                                                                                             \
            cut_pencil_kernel<P_, true><<<grid, 64 * (8 / P_), 0, s>>>(w.sorted, w.start, out, g);           \
        else                                                                                                 \
            cut_pencil_kernel<P_, false><<<grid, 64 * (8 / P_), 0, s>>>(w.sorted, w.start, out, g);          \
        return cudaGetLastError();                                                                           \
    }
    CUT_PENCIL(2) CUT_PENCIL(4) CUT_PENCIL(8)
#undef CUT_PENCIL
    return cudaErrorInvalidValue;
}

#endif
