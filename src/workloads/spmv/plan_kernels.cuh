/* The kernels that build the best rung's plan of the SpMV ladder (src/workloads/spmv/plan.cu): the JDS copy made on
 * the device (row lengths and ids, the diagonals' counts, the scatter), the long rows' list and the row blocks'
 * first nonzeros. */
#ifndef CLIMB_WORKLOADS_SPMV_PLAN_KERNELS_CUH
#define CLIMB_WORKLOADS_SPMV_PLAN_KERNELS_CUH

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "kernels.cuh"

/* 1 where row r starts a row block of merge_blocks: its rows + nonzeros cross a multiple of the budget, or it or the
 * row before it is longer than the budget (a block of its own). */
__host__ __device__ static inline int block_flag(const int32_t *rp, int r, int budget)
{
    if (r == 0)
        return 1;
    const int64_t here = ((int64_t)rp[r] + r) / budget, before = ((int64_t)rp[r - 1] + r - 1) / budget;
    return here != before || rp[r + 1] - rp[r] > budget || rp[r] - rp[r - 1] > budget;
}

/* The adaptive plan's JDS, built on the device: row lengths and ids, sorted (longest first) by CUB; the count of
 * rows reaching each diagonal; the nonzeros scattered diagonal by diagonal. */
static __global__ void spmv_lengths_kernel(int rows, const int *__restrict__ rp, int *len, int *ids)
{
    const int r = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (r < rows) {
        len[r] = rp[r + 1] - rp[r];
        ids[r] = r;
    }
}

static __global__ void spmv_diagonal_counts_kernel(int rows, const int *__restrict__ sorted_len, int *count)
{
    const int i = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (i >= rows)
        return;
    const int lo = i + 1 < rows ? sorted_len[i + 1] : 0;
    for (int d = lo; d < sorted_len[i]; d++)
        count[d] = i + 1; /* rows 0 .. i reach diagonal d, row i + 1 does not */
}

template <typename T>
static __global__ void spmv_jds_scatter_kernel(int rows, const int *__restrict__ perm, const int *__restrict__ sorted_len,
                                        const int *__restrict__ jd_ptr, const int *__restrict__ rp,
                                        const int *__restrict__ ci, const T *__restrict__ val, int *jci, T *jval)
{
    const int i = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (i >= rows)
        return;
    const int b = rp[perm[i]];
    for (int k = 0; k < sorted_len[i]; k++) {
        jci[jd_ptr[k] + i] = ci[b + k];
        jval[jd_ptr[k] + i] = val[b + k];
    }
}

/* The windowed JDS's build (climb_spmv_windows_layout is its host twin), a block a window. First each window's
 * rows sorted by length, longest first, ties in row order (CUB's block radix sort is stable, on the bits the window's
 * longest row needs), and the window's count of diagonal starts (its longest row + 1) for the scan into woff. */
static __global__ void __launch_bounds__(CLIMB_SPMV_WINDOW) spmv_windows_sort_kernel(int rows, const int *__restrict__ rp,
                                                                              int *perm, int *slen, long long *count,
                                                                              unsigned *longest)
{
    typedef cub::BlockRadixSort<unsigned, CLIMB_SPMV_WINDOW, 1, int> Sort;
    __shared__ typename Sort::TempStorage tmp;
    __shared__ unsigned top;
    const long long r = (long long)blockIdx.x * CLIMB_SPMV_WINDOW + threadIdx.x;
    unsigned key[1] = {r < rows ? (unsigned)(rp[r + 1] - rp[r]) : 0u};
    int id[1] = {r < rows ? (int)r : -1}; /* past the last row: length 0, after every row of the window */
    if (threadIdx.x == 0)
        top = 0;
    __syncthreads();
    if (key[0] != 0)
        atomicMax(&top, key[0]);
    __syncthreads();
    const int bits = top ? 32 - __clz((int)top) : 1;
    Sort(tmp).SortDescending(key, id, 0, bits); /* one item a thread: thread i holds rank i */
    if (r < rows) {
        perm[r] = id[0];
        slen[r] = (int)key[0];
    }
    if (threadIdx.x == 0) {
        count[blockIdx.x] = (long long)key[0] + 1;
        if (key[0] != 0)
            atomicMax(longest, key[0]);
    }
}

/* The windows' diagonal starts at a stride: window w's d-th at w x stride + d, and past its longest row its end. */
static __global__ void spmv_windows_pad_kernel(long long windows, int stride, const long long *__restrict__ woff,
                                        const int *__restrict__ wjd, int *wpad)
{
    const long long k = (long long)blockIdx.x * SPMV_BLOCK + threadIdx.x;
    if (k >= windows * stride)
        return;
    const long long w = k / stride, first = woff[w];
    const int d = (int)(k - w * stride), n = (int)(woff[w + 1] - first);
    wpad[k] = wjd[first + (d < n ? d : n - 1)];
}

/* Then each window's diagonal starts, jd[d] = the sum over its rows of min(length, d): with m rows longer than d
 * (a search of the sorted lengths) and P the lengths' prefix sums, m d + P[n] - P[m]; and its nonzeros scattered,
 * each row's k-th to row_ptr[first row] + jd[k] + its rank. */
template <typename T>
static __global__ void __launch_bounds__(CLIMB_SPMV_WINDOW) spmv_windows_scatter_kernel(
    int rows, const int *__restrict__ rp, const int *__restrict__ ci, const T *__restrict__ val,
    const int *__restrict__ perm, const int *__restrict__ slen, const long long *__restrict__ woff, int *wjd, int *jci,
    T *jval)
{
    constexpr int W = CLIMB_SPMV_WINDOW;
    typedef cub::BlockScan<int, W> Scan;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ int len_s[W], prefix[W + 1];
    const long long first_row = (long long)blockIdx.x * W, r = first_row + threadIdx.x;
    const int n = rows - first_row < W ? (int)(rows - first_row) : W;
    const int len = (int)threadIdx.x < n ? slen[r] : 0;
    int before, total;
    Scan(tmp).ExclusiveSum(len, before, total);
    len_s[threadIdx.x] = len;
    prefix[threadIdx.x] = before;
    if (threadIdx.x == 0)
        prefix[W] = total;
    __syncthreads();
    const long long off = woff[blockIdx.x];
    const int longest = (int)(woff[blockIdx.x + 1] - off) - 1;
    for (int d = (int)threadIdx.x; d <= longest; d += W) {
        int lo = 0, hi = n; /* m: the rows longer than d, the first of the window's ranks */
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (len_s[mid] > d)
                lo = mid + 1;
            else
                hi = mid;
        }
        wjd[off + d] = lo * d + (prefix[W] - prefix[lo]);
    }
    __syncthreads(); /* the window's starts, written to global memory above, are visible to the whole block */
    if ((int)threadIdx.x < n) {
        const int b = rp[perm[r]], base = rp[first_row];
        const int *jd = wjd + off;
        for (int k = 0; k < len; k++) {
            const int at = base + jd[k] + (int)threadIdx.x;
            jci[at] = ci[b + k];
            jval[at] = val[b + k];
        }
    }
}

/* The rows of more than lo and at most hi nonzeros. */
static __global__ void spmv_long_flags_kernel(int rows, const int *__restrict__ rp, int lo, int hi, unsigned char *flags)
{
    const int r = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (r < rows) {
        const int len = rp[r + 1] - rp[r];
        flags[r] = (unsigned char)(len > lo && len <= hi);
    }
}

/* merge_blocks' build: which rows start a block (block_flag), compacted into the list of starting rows. */
static __global__ void spmv_flags_kernel(int rows, const int *__restrict__ rp, int budget, unsigned char *flags)
{
    const int r = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (r < rows)
        flags[r] = (unsigned char)block_flag(rp, r, budget);
}

/* The plan keeps each block's first row and its first nonzero, and one more pair past the last block. */
static __global__ void spmv_pair_blocks_kernel(const int *rows_of, int n, int rows, const int *__restrict__ rp, int2 *pairs)
{
    for (int b = (int)(blockIdx.x * blockDim.x + threadIdx.x); b <= n; b += (int)(gridDim.x * blockDim.x)) {
        const int r = b < n ? rows_of[b] : rows;
        pairs[b] = make_int2(r, rp[r]);
    }
}

#endif
