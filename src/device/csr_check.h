/* A CSR structure checked on the device: the sparse matrix-vector product's and breadth-first search's opt-in
 * validation of a caller's arrays (CLIMB_SPMV_VALIDATE, CLIMB_BFS_VALIDATE). */
#ifndef CLIMB_DEVICE_CSR_CHECK_H
#define CLIMB_DEVICE_CSR_CHECK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What climb_csr_check_device found wrong (0: nothing). */
enum {
    CLIMB_CSR_BAD_ROW_PTR = 1,  /* row_ptr[0] != 0, row_ptr[rows] != nnz, a decrease, or a pointer outside [0, nnz] */
    CLIMB_CSR_BAD_COLUMN = 2    /* a column index outside [0, cols) */
};

/* Reads row_ptr[0 .. rows] and col_idx[0 .. nnz) (device memory, rows, cols and nnz at least 0) on stream s and
 * sets *bad to the CLIMB_CSR_BAD_* bits of what is wrong. Allocates a word of device memory, waits for s. Every
 * read is within the arrays as the sizes give them, whatever their contents. */
cudaError_t climb_csr_check_device(int rows, int cols, int nnz, const int *row_ptr, const int *col_idx, unsigned *bad,
                            cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
