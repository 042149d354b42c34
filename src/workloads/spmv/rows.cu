/* The SpMV ladder's row layouts built for a plan (src/workloads/spmv/): the rows a flag selects, merge_blocks' row
 * blocks, and the windowed JDS's layout on the host. */
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>

#include <stdio.h>
#include <stdlib.h>

#include "../../device/device.h"
#include "kernels.cuh"
#include "plan_internal.h"
#include "plan_kernels.cuh"

/* ---------------------------------------------------------------- the windowed JDS's layout (host) */

static_assert(CLIMB_SPMV_WINDOW == SPMV_BLOCK, "a window of the windowed JDS is a block of its kernel");

extern "C" int climb_spmv_windows_layout(const int32_t *row_ptr, int rows, int32_t *perm, int64_t *woff, int32_t **jd)
{
    const int W = CLIMB_SPMV_WINDOW;
    const int64_t windows = ((int64_t)rows + W - 1) / W;
    *jd = NULL;
    woff[0] = 0;
    for (int64_t w = 0; w < windows; w++) {
        int32_t longest = 0;
        for (int64_t r = w * W; r < rows && r < (w + 1) * W; r++)
            longest = std::max(longest, row_ptr[r + 1] - row_ptr[r]);
        woff[w + 1] = woff[w] + longest + 1;
    }
    *jd = (int32_t *)malloc((size_t)(woff[windows] ? woff[windows] : 1) * sizeof(int32_t));
    if (!*jd)
        return -1;
    for (int64_t w = 0; w < windows; w++) {
        const int64_t first = w * W;
        const int n = (int)std::min<int64_t>(W, rows - first);
        int32_t *rank = perm + first;
        for (int i = 0; i < n; i++)
            rank[i] = (int32_t)(first + i);
        /* longest first, ties in row order */
        std::stable_sort(rank, rank + n, [row_ptr](int32_t a, int32_t b) {
            return row_ptr[a + 1] - row_ptr[a] > row_ptr[b + 1] - row_ptr[b];
        });
        /* jd[d + 1] = jd[d] + the rows longer than d, which are the first `longer` of the window */
        int32_t *wjd = *jd + woff[w];
        const int32_t longest = (int32_t)(woff[w + 1] - woff[w]) - 1;
        int longer = n;
        wjd[0] = 0;
        for (int32_t d = 0; d < longest; d++) {
            while (longer > 0 && row_ptr[rank[longer - 1] + 1] - row_ptr[rank[longer - 1]] <= d)
                longer--;
            wjd[d + 1] = wjd[d] + longer;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- merge_blocks' row blocks */

void spmv_merge_plan_free(spmv_merge_plan *p)
{
    if (p->blocks)
        cudaFree(p->blocks);
    p->blocks = NULL;
    p->n_blocks = 0;
    p->bytes = 0;
}

/* The rows whose flag is set, in order, as a new device list of exactly *n entries (NULL when none): CUB's
 * DeviceSelect over the row numbers. Synchronises s. */
cudaError_t spmv_flagged_rows(int rows, const unsigned char *flags, int **list, int *n, cudaStream_t s)
{
    *list = NULL;
    *n = 0;
    int *count = NULL, *all = NULL;
    void *tmp = NULL;
    size_t tmp_bytes = 0;
    thrust::counting_iterator<int> rows_it(0);
    cudaError_t e = cub::DeviceSelect::Flagged(NULL, tmp_bytes, rows_it, flags, all, count, rows, s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&count, sizeof(int));
    if (e == cudaSuccess)
        e = cudaMalloc(&tmp, tmp_bytes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&all, (size_t)rows * sizeof(int));
    if (e == cudaSuccess)
        e = cub::DeviceSelect::Flagged(tmp, tmp_bytes, rows_it, flags, all, count, rows, s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(n, count, sizeof *n, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e == cudaSuccess && *n > 0)
        e = cudaMalloc((void **)list, (size_t)*n * sizeof(int));
    if (e == cudaSuccess && *n > 0)
        e = cudaMemcpyAsync(*list, all, (size_t)*n * sizeof(int), cudaMemcpyDeviceToDevice, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (count)
        cudaFree(count);
    if (tmp)
        cudaFree(tmp);
    if (all)
        cudaFree(all);
    if (e != cudaSuccess && *list) {
        cudaFree(*list);
        *list = NULL;
    }
    return e;
}

cudaError_t spmv_merge_plan_build(spmv_merge_plan *p, const climb_spmv_plan_dev *m, int block, int items,
                                    cudaStream_t s)
{
    spmv_merge_plan_free(p);
    p->block = block;
    p->items = items;
    if (m->rows == 0)
        return cudaSuccess;
    unsigned char *flags = NULL;
    int *starts = NULL, n = 0;
    int2 *kept = NULL;
    cudaError_t e = cudaMalloc((void **)&flags, (size_t)m->rows);
    if (e == cudaSuccess) {
        spmv_flags_kernel<<<grid_for(m->rows, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(m->rows, m->row_ptr, block * items,
                                                                             flags);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = spmv_flagged_rows(m->rows, flags, &starts, &n, s);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&kept, ((size_t)n + 1) * sizeof(int2));
    if (e == cudaSuccess) {
        spmv_pair_blocks_kernel<<<grid_for((long long)n + 1, SPMV_BLOCK), SPMV_BLOCK, 0, s>>>(starts, n, m->rows,
                                                                                            m->row_ptr, kept);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (flags)
        cudaFree(flags);
    if (starts)
        cudaFree(starts);
    if (e != cudaSuccess) {
        if (kept)
            cudaFree(kept);
        return e;
    }
    p->blocks = kept;
    p->n_blocks = n;
    p->bytes = ((size_t)n + 1) * sizeof(int2);
    return cudaSuccess;
}
