/* The kernels the SpMV ladder's merge_blocks rung and the best rung's plan share (src/workloads/spmv/spmv.cu and
 * plan.cu include this): the block sizes, the JDS kernel, merge_blocks' kernel, the adaptive kernels. Templates
 * only, so each file instantiates what it launches. */
#ifndef CLIMB_WORKLOADS_SPMV_KERNELS_CUH
#define CLIMB_WORKLOADS_SPMV_KERNELS_CUH

#include "../../device/device_primitives.cuh"

/* ---------------------------------------------------------------- policy */

/* Threads per block of the ladder's kernels. */
#define SPMV_BLOCK 256u

/* merge_blocks: 128 threads x 8 merge items, a row block of 1024 items. Measured with `climb tune` on an H100
 * over the f32 Poisson, 27-point and power-law matrices at 4096000 rows, among 128/256/512 threads x 2/4/8 items
 * (a budget of at most 1024, so that 2 x budget products and row ends fit 48 KB of static shared memory in
 * f64): 128 x 8 was the fastest on all three, 1.27x the geometric mean of 256 x 4. */
#define SPMV_MERGE_BLOCK 128u
#define SPMV_MERGE_ITEMS 8u
#define SPMV_MERGE_ITEMS_SMALL 2u /* the plan's row blocks for a matrix too small to fill the GPU with budgets of 8 */


static inline unsigned grid_for(long long n, unsigned per_block) { return (unsigned)((n + per_block - 1) / per_block); }

/* The merge-path search of the row ends against the nonzeros: core's primitive. */
__host__ __device__ static inline int merge_search(const int32_t *e, int rows, int nnz, int d)
{
    return climb_merge_path_search(e, rows, nnz, d);
}

/* spmv_jds: rows sorted by length (longest first) and stored by jagged diagonal: the d-th nonzeros of all rows
 * long enough to have one, side by side. Thread i takes the i-th longest row: neighbouring threads have rows of
 * nearly equal length (little divergence) and read each diagonal coalesced, with no padding. y is written
 * through the permutation. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_jds_kernel(int rows, int diagonals, const int *__restrict__ perm,
                                                              const int *__restrict__ jd_ptr,
                                                              const int *__restrict__ ci, const T *__restrict__ val,
                                                              const T *__restrict__ x, T *__restrict__ y, T alpha,
                                                              T beta)
{
    const int i = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (i >= rows)
        return;
    T s = 0;
    for (int d = 0; d < diagonals; d++) {
        const int start = jd_ptr[d];
        if (i >= jd_ptr[d + 1] - start)
            break;
        s += val[start + i] * x[ci[start + i]];
    }
    const int r = perm[i];
    y[r] = beta != T(0) ? alpha * s + beta * y[r] : alpha * s;
}

/* The plan's JDS: spmv_jds_kernel's rows, and its products added in the same order, with the diagonals taken
 * SPMV_JDS_AHEAD at a time. The plain loop cannot start a diagonal's column load before the last
 * diagonal's test (a loop that may stop at any diagonal), so each thread has one column load, then one x load, in
 * flight at a time. Here the group's lengths are read first (jd_ptr, the same for the whole warp), then the
 * group's columns and values, then its x: AHEAD nonzeros' loads in flight a thread. A diagonal past the row's
 * length is a predicated-off load. */
#define SPMV_JDS_AHEAD 4

/* Row i's sum over a JDS (diagonal d holds rows 0 .. jd_ptr[d + 1] - jd_ptr[d] - 1, row i's at jd_ptr[d] + i of
 * ci and val), AHEAD diagonals at a time, added in diagonal order. AHEAD = 1 is spmv_jds_kernel's loop. */
template <typename T, int AHEAD>
__device__ __forceinline__ T jds_row_sum(int i, int diagonals, const int *__restrict__ jd_ptr,
                                         const int *__restrict__ ci, const T *__restrict__ val,
                                         const T *__restrict__ x)
{
    T s = 0;
    for (int d = 0; d < diagonals; d += AHEAD) {
        int at[AHEAD], c[AHEAD];
        bool has[AHEAD];
        T v[AHEAD];
        int start = jd_ptr[d];
#pragma unroll
        for (int k = 0; k < AHEAD; k++) {
            const int end = d + k < diagonals ? jd_ptr[d + k + 1] : start;
            has[k] = i < end - start;
            at[k] = start + i;
            start = end;
        }
        if (!has[0])
            break;
#pragma unroll
        for (int k = 0; k < AHEAD; k++) {
            c[k] = has[k] ? ci[at[k]] : 0;
            v[k] = has[k] ? val[at[k]] : T(0);
        }
#pragma unroll
        for (int k = 0; k < AHEAD; k++)
            if (has[k])
                s += v[k] * x[c[k]];
    }
    return s;
}

template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_jds_ahead_kernel(int rows, int diagonals,
                                                                    const int *__restrict__ perm,
                                                                    const int *__restrict__ jd_ptr,
                                                                    const int *__restrict__ ci,
                                                                    const T *__restrict__ val,
                                                                    const T *__restrict__ x, T *__restrict__ y,
                                                                    T alpha, T beta)
{
    const int i = (int)(blockIdx.x * SPMV_BLOCK + threadIdx.x);
    if (i >= rows)
        return;
    const T s = jds_row_sum<T, SPMV_JDS_AHEAD>(i, diagonals, jd_ptr, ci, val, x);
    const int r = perm[i];
    y[r] = beta != T(0) ? alpha * s + beta * y[r] : alpha * s;
}

/* spmv_jds_windows: JDS within windows of SPMV_BLOCK consecutive rows, a block each (the sorting window of
 * Kreutzer, Hager, Wellein, Fehske and Bishop's SELL-C-sigma). Within its window the rows are sorted by length,
 * longest first, and stored by jagged diagonal in the window's own span of the CSR's nonzeros (from the row
 * pointer of its first row): the window's diagonal d starts at wjd[woff[w] + d], d = 0 .. its longest row. As in
 * the JDS, neighbouring threads read each diagonal coalesced, with no padding; unlike it, a block's rows are
 * SPMV_BLOCK neighbours of the row order, so the x they read stays as local as the matrix made it, where a sort of
 * the whole matrix sends rows of one length, from anywhere in it, to neighbouring threads. Each window's rows are
 * in perm (window by window). AHEAD diagonals at a time (jds_row_sum): 1 on the ladder, SPMV_JDS_AHEAD in the
 * plan. */
template <typename T, int AHEAD>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_jds_windows_kernel(int rows, const int *__restrict__ rp,
                                                                      const int *__restrict__ perm,
                                                                      const long long *__restrict__ woff,
                                                                      const int *__restrict__ wjd,
                                                                      const int *__restrict__ ci,
                                                                      const T *__restrict__ val,
                                                                      const T *__restrict__ x, T *__restrict__ y,
                                                                      T alpha, T beta, const int *__restrict__ wpad,
                                                                      int stride)
{
    const long long first_row = (long long)blockIdx.x * SPMV_BLOCK, i = first_row + threadIdx.x;
    if (i >= rows)
        return;
    const int base = rp[first_row];
    /* The window's diagonal starts: at woff[window] in wjd, or (the plan, stride > 0) at window x stride in wpad,
     * padded past its longest row with its end, which saves the dependent load of woff before them */
    const int *jd;
    int diagonals;
    if (stride > 0) {
        jd = wpad + (long long)blockIdx.x * stride;
        diagonals = stride - 1;
    } else {
        const long long first = woff[blockIdx.x];
        jd = wjd + first;
        diagonals = (int)(woff[blockIdx.x + 1] - first) - 1;
    }
    const T s = jds_row_sum<T, AHEAD>((int)threadIdx.x, diagonals, jd, ci + base, val + base, x);
    const int r = perm[i];
    y[r] = beta != T(0) ? alpha * s + beta * y[r] : alpha * s;
}

/* spmv_merge_blocks: each block takes a row block, a run of whole rows holding about a fixed budget of
 * merge items (rows + nonzeros), found once per matrix. The block loads the run's values and columns coalesced,
 * multiplies them by x into shared memory, and then each thread takes an equal share of the merged list of row
 * ends and products (merge path: a binary search finds where its share starts), adding products and finishing
 * rows as it meets them. A row shared by several threads is finished by the one that meets its end, which adds
 * the partial sums the threads before it left (in order, so the result does not depend on timing). Every
 * thread does the same work whether the rows are 1 or 1000 long; a row longer than the budget is a block of its
 * own, reduced by the whole block. Bytes: the CSR's, once. */
template <typename T, unsigned BLOCK, unsigned IPT>
__global__ void __launch_bounds__(BLOCK) spmv_merge_kernel(const int2 *__restrict__ blocks, const int *__restrict__ rp,
                                                           const int *__restrict__ ci, const T *__restrict__ val,
                                                           const T *__restrict__ x, T *__restrict__ y, T alpha,
                                                           T beta)
{
    constexpr int BUDGET = (int)(BLOCK * IPT);
    constexpr unsigned SLOTS = 2 * IPT; /* a block's rows and its nonzeros are each at most 2 x BUDGET */
    __shared__ T s_p[2 * BUDGET];
    __shared__ int s_e[2 * BUDGET];
    __shared__ T s_carry[BLOCK];
    __shared__ int s_crow[BLOCK];
    const int tid = (int)threadIdx.x;
    const int2 b0 = blocks[blockIdx.x], b1 = blocks[blockIdx.x + 1]; /* (first row, its first nonzero) */
    const int r0 = b0.x, nz0 = b0.y;
    const int R = b1.x - r0, P = b1.y - nz0;

    if (R == 1 && P > BUDGET) { /* one long row: the whole block on it */
        T s = 0;
        for (int j = nz0 + tid; j < b1.y; j += BLOCK)
            s += val[j] * x[ci[j]];
        s = climb_block_sum<BLOCK>(s, s_carry);
        if (tid == 0)
            y[r0] = beta != T(0) ? alpha * s + beta * y[r0] : alpha * s;
        return;
    }

    /* Every load of the block issued before any is waited for: the row ends, columns and values together, then
     * the x they name; one memory latency for the CSR, one for x. */
    int e[SLOTS], c[SLOTS];
    T v[SLOTS];
#pragma unroll
    for (unsigned u = 0; u < SLOTS; u++) {
        const int k = (int)(u * BLOCK) + tid;
        if (k < R)
            e[u] = rp[r0 + 1 + k];
        if (k < P) {
            c[u] = ci[nz0 + k];
            v[u] = val[nz0 + k];
        }
    }
#pragma unroll
    for (unsigned u = 0; u < SLOTS; u++) {
        const int k = (int)(u * BLOCK) + tid;
        if (k < P)
            v[u] *= x[c[u]];
    }
#pragma unroll
    for (unsigned u = 0; u < SLOTS; u++) {
        const int k = (int)(u * BLOCK) + tid;
        if (k < R)
            s_e[k] = e[u] - nz0;
        if (k < P)
            s_p[k] = v[u];
    }
    __syncthreads();

    const int D = R + P, share = (D + (int)BLOCK - 1) / (int)BLOCK;
    const int d0 = tid * share < D ? tid * share : D, d1 = d0 + share < D ? d0 + share : D;
    int i = merge_search(s_e, R, P, d0), j = d0 - i;
    T sum = 0, first_sum = 0;
    int first = -1;
    for (int d = d0; d < d1; d++) {
        if (i < R && j < s_e[i]) {
            sum += s_p[j++];
        } else {
            if (first < 0) {
                first = i;
                first_sum = sum;
            } else {
                T *out = &y[r0 + i];
                *out = beta != T(0) ? alpha * sum + beta * *out : alpha * sum;
            }
            sum = 0;
            i++;
        }
    }
    s_carry[tid] = sum;
    s_crow[tid] = i;
    __syncthreads();
    if (first >= 0) {
        for (int t = tid - 1; t >= 0 && s_crow[t] == first; t--)
            first_sum += s_carry[t];
        T *out = &y[r0 + first];
        *out = beta != T(0) ? alpha * first_sum + beta * *out : alpha * first_sum;
    }
}

/* spmv_csr_adaptive (best): the rows binned by length once per matrix. Rows of at most long_min nonzeros are
 * taken in row order by groups of LANES lanes, LANES chosen from the mean row length (1: a thread per row, which
 * on short rows reads a warp's rows from the same few cache lines; more lanes read longer rows side by side);
 * groups of more than one lane walk the rows grid-stride, so no block is launched for a handful of rows. The few
 * longer rows, listed in the plan, take a block each (spmv_long_rows_kernel), so one 4096-long row never holds up
 * a warp of short ones. The plan takes JDS (spmv_jds_kernel) or merge_blocks' kernel instead where they do better
 * (climb_spmv_plan_build). */
template <typename T, unsigned LANES>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_adaptive_kernel(int rows, const int *__restrict__ rp,
                                                                   const int *__restrict__ ci,
                                                                   const T *__restrict__ val, const T *__restrict__ x,
                                                                   T *__restrict__ y, T alpha, T beta, int long_min)
{
    constexpr unsigned GROUPS = 32 / LANES; /* rows a warp takes at a time */
    const unsigned lane = threadIdx.x % LANES, group = (threadIdx.x % 32) / LANES;
    const long long warp = ((long long)blockIdx.x * SPMV_BLOCK + threadIdx.x) / 32;
    const long long warps = (long long)gridDim.x * (SPMV_BLOCK / 32);
    for (long long base = warp * GROUPS; base < rows; base += warps * GROUPS) {
        const long long row = base + group;
        T s = 0;
        int skip = 1;
        if (row < rows) {
            const int b = rp[row], e = rp[row + 1];
            skip = e - b > long_min;
            if (!skip) {
#pragma unroll 4
                for (int j = b + (int)lane; j < e; j += LANES)
                    s += val[j] * x[ci[j]];
            }
        }
#pragma unroll
        for (unsigned o = LANES / 2; o > 0; o /= 2)
            s += __shfl_down_sync(0xffffffffu, s, o, LANES);
        if (lane == 0 && !skip)
            y[row] = beta != T(0) ? alpha * s + beta * y[row] : alpha * s;
    }
}

/* The long rows of the adaptive plan: a block per listed row, its threads strided over the row, a block sum. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_long_rows_kernel(const int *__restrict__ list,
                                                                    const int *__restrict__ rp,
                                                                    const int *__restrict__ ci,
                                                                    const T *__restrict__ val,
                                                                    const T *__restrict__ x, T *__restrict__ y,
                                                                    T alpha, T beta)
{
    __shared__ T scratch[SPMV_BLOCK / 32];
    const int row = list[blockIdx.x];
    const int b = rp[row], e = rp[row + 1];
    T s = 0;
    for (int j = b + (int)threadIdx.x; j < e; j += SPMV_BLOCK)
        s += val[j] * x[ci[j]];
    s = climb_block_sum<SPMV_BLOCK>(s, scratch);
    if (threadIdx.x == 0)
        y[row] = beta != T(0) ? alpha * s + beta * y[row] : alpha * s;
}

/* The rows of more than long_min and at most SPMV_WARP_ROW_MAX nonzeros, where the plan takes them a warp each
 * (the binning of rows by length of Ashari, Sedaghati, Eisenlohr, Parthasarathy and Sadayappan's ACSR): a block
 * per such row leaves most of its 256 threads idle on a row of 33 to a few hundred nonzeros, the common long row
 * of a power law; a warp reads it 32 nonzeros at a time, 4 of those steps' loads in flight, and adds its lanes by
 * shuffles. */
#define SPMV_WARP_ROW_MAX 1024
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_warp_rows_kernel(const int *__restrict__ list, int n,
                                                                    const int *__restrict__ rp,
                                                                    const int *__restrict__ ci,
                                                                    const T *__restrict__ val,
                                                                    const T *__restrict__ x, T *__restrict__ y,
                                                                    T alpha, T beta)
{
    const long long w = ((long long)blockIdx.x * SPMV_BLOCK + threadIdx.x) / 32;
    const int lane = (int)(threadIdx.x % 32);
    if (w >= n)
        return; /* a whole warp: n is the same for all its lanes */
    const int row = list[w];
    const int b = rp[row], e = rp[row + 1];
    T s = 0;
    for (int j = b + lane; j < e; j += 4 * 32) {
        int c[4];
        T v[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const int at = j + k * 32;
            c[k] = at < e ? ci[at] : 0;
            v[k] = at < e ? val[at] : T(0);
        }
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (j + k * 32 < e)
                s += v[k] * x[c[k]];
    }
    s = climb_warp_sum(s);
    if (lane == 0)
        y[row] = beta != T(0) ? alpha * s + beta * y[row] : alpha * s;
}

/* The products v of a warp's nonzeros, in row order (r: each lane's row, -1 for none), added per row across the warp
 * by a segmented scan (rows are sorted, so equal rows are neighbours); the last lane of each row's segment adds it
 * to y with one atomic. */
template <typename T> __device__ __forceinline__ void spmv_coo_warp_add(int r, T v, T *__restrict__ y)
{
    const unsigned lane = threadIdx.x & 31;
#pragma unroll
    for (unsigned o = 1; o < 32; o *= 2) {
        const T ov = __shfl_up_sync(0xffffffffu, v, o);
        const int orow = __shfl_up_sync(0xffffffffu, r, o);
        if (lane >= o && orow == r)
            v += ov;
    }
    const int next = __shfl_down_sync(0xffffffffu, r, 1);
    if (r >= 0 && (lane == 31 || next != r))
        atomicAdd(&y[r], v);
}

/* spmv_coo: one thread per nonzero with its row index beside it (COO), so every thread has the same work
 * whatever the row lengths. A warp adds its products per row and each row's last lane adds the sum to y with one
 * atomic (spmv_coo_warp_add): y is zeroed (or scaled by beta) first; alpha scales each product. Costs 4 more bytes
 * per nonzero (the row index) and an atomic per row per warp; the atomics' order varies, so the last bits may
 * differ from run to run. */
template <typename T>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_coo_kernel(long long nnz, const int *__restrict__ row,
                                                              const int *__restrict__ ci, const T *__restrict__ val,
                                                              const T *__restrict__ x, T *__restrict__ y, T alpha)
{
    const long long i = (long long)blockIdx.x * SPMV_BLOCK + threadIdx.x;
    int r = -1;
    T v = 0;
    if (i < nnz) {
        r = row[i];
        v = alpha * (val[i] * x[ci[i]]);
    }
    spmv_coo_warp_add(r, v, y);
}

/* The best rung's COO: spmv_coo_kernel's sums with fewer bytes moved, and launched while y's scaling runs.
 * - Each nonzero's row in BITS bits (the plan takes the fewest that hold the matrix's rows):
 *   - 8: the step from the row of the nonzero before it in its warp's 32 (nonzeros 32w .. 32w + 31; 0 for the
 *     warp's first), base[w] the row of the warp's first; a warp's inclusive scan of the steps gives the rows. Where
 *     no step is more than 255 (no run of 255 empty rows): 1 byte a nonzero and 4 a warp.
 *   - 16: the offset from base[b], the row of the first nonzero of block b (SPMV_BLOCK nonzeros), where every block
 *     spans fewer than 65536 rows.
 *   - 32: the row.
 *   In f64 that is 13, 14 or 16 bytes a nonzero where the CSR has 12 (and 4 a row); in f32 9, 10 or 12 against 8.
 * - The matrix (rows, columns, values) is read with the L2's evict-first policy: each byte is read once, while x's
 *   lines are read again by later nonzeros of the same columns. On the H100's f64 power law (4096000 rows, uniformly
 *   random columns: x is 33 MB, beside 300 MB of matrix) COO went from 356 to 301 us with the policy alone.
 * - EARLY (sm_90 and later, where the plan's trial finds it faster): launched as a programmatic dependent of
 *   spmv_scale_kernel, it starts as the scaling's last blocks run, and waits (climb_grid_dependency_wait) only
 *   before adding to y. The wait (one ACQBULK in SASS) is compiled only into this variant; the 10 us the COO path
 *   lost on the 4096000-row power law when the early launch came in (a70f5b7) were the scaling's, not the wait's
 *   (spmv_scale_kernel). */
template <typename T, int BITS, int EARLY>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_coo_stream_kernel(long long nnz, const void *__restrict__ rows,
                                                                     const int *__restrict__ base,
                                                                     const int *__restrict__ ci,
                                                                     const T *__restrict__ val,
                                                                     const T *__restrict__ x, T *__restrict__ y,
                                                                     T alpha)
{
    const long long i = (long long)blockIdx.x * SPMV_BLOCK + threadIdx.x;
    const bool in = i < nnz;
    const unsigned long long once = climb_l2_evict_first_policy();
    int r = -1;
    T v = 0;
    if (BITS == 8) { /* every lane of the warp in the scan: a step of 0 past the last nonzero */
        const int step = in ? (int)climb_ld_policy((const unsigned char *)rows + i, once) : 0;
        const int sum = climb_warp_inclusive_scan<climb_op_sum>(step);
        if (in)
            r = base[i / 32] + sum;
    } else if (in) {
        r = BITS == 16 ? base[i / SPMV_BLOCK] + (int)climb_ld_policy((const unsigned short *)rows + i, once)
                       : climb_ld_policy((const int *)rows + i, once);
    }
    if (in)
        v = alpha * (climb_ld_policy(val + i, once) * x[climb_ld_policy(ci + i, once)]);
    if (EARLY) /* launched as a dependent of the scaling of y: y scaled before the atomics */
        climb_grid_dependency_wait();
    spmv_coo_warp_add(r, v, y);
}

/* The best rung's COO path: y scaled by beta (0: zeroed) before the atomics add alpha A x. A bounded grid (the
 * launch: 8 blocks an SM at most), each thread a stride of rows. One row a thread, with the trigger below in every
 * one of its 16000 blocks, took 21.5 us (ncu, H100, f32, 4096000 rows; 18% achieved occupancy) and the COO path 198
 * us; this kernel takes 6.3 us (77%) and the path 182 (the trial, same matrix).
 * TRIGGER (the variant the COO kernel is launched early after): each block lets the dependent grid launch once its
 * rows are stored; its blocks take the places of this kernel's finished ones and start their loads (they wait
 * before their atomics). */
template <typename T, int TRIGGER>
__global__ void __launch_bounds__(SPMV_BLOCK) spmv_scale_kernel(int rows, T *__restrict__ y, T beta)
{
    const unsigned stride = gridDim.x * SPMV_BLOCK; /* unsigned: i + stride stays below 2^32 */
    for (unsigned i = blockIdx.x * SPMV_BLOCK + threadIdx.x; i < (unsigned)rows; i += stride)
        y[i] = beta != T(0) ? beta * y[i] : T(0);
    if (TRIGGER)
        climb_grid_dependents_launch();
}

#endif
