/* The CSR check of csr_check.h: one grid-stride pass over the row pointers and the columns, each fault or-ed into a
 * word that is read back. */
#include "csr_check.h"

__global__ void climb_csr_check_kernel(int rows, int cols, int nnz, const int *__restrict__ rp,
                                       const int *__restrict__ ci, unsigned *bad)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k <= rows; k += stride) {
        const int p = rp[k];
        if ((k == 0 && p != 0) || (k == rows && p != nnz) || (k < rows && rp[k + 1] < p) || p < 0 || p > nnz)
            atomicOr(bad, (unsigned)CLIMB_CSR_BAD_ROW_PTR);
    }
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride) {
        const int c = ci[k];
        if (c < 0 || c >= cols)
            atomicOr(bad, (unsigned)CLIMB_CSR_BAD_COLUMN);
    }
}

extern "C" cudaError_t climb_csr_check_device(int rows, int cols, int nnz, const int *row_ptr, const int *col_idx,
                                       unsigned *bad, cudaStream_t s)
{
    *bad = 0;
    unsigned *d_bad = NULL, h_bad = 0;
    cudaError_t e = cudaMalloc((void **)&d_bad, sizeof *d_bad);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(d_bad, 0, sizeof *d_bad, s);
    if (e == cudaSuccess) {
        climb_csr_check_kernel<<<1024, 256, 0, s>>>(rows, cols, nnz, row_ptr, col_idx, d_bad);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&h_bad, d_bad, sizeof h_bad, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (d_bad)
        cudaFree(d_bad);
    *bad = h_bad;
    return e;
}
