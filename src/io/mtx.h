/* Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html), read for real use: the `coordinate`
 * format with `real`, `integer` or `pattern` values and `general`, `symmetric` or `skew-symmetric` storage,
 * comments, 1-based indices, duplicate entries summed, empty rows. The result is a CSR matrix in host memory with
 * each row's columns in increasing order. Every malformed file (a bad header, wrong counts, an index out of
 * range, a token that is not a number, a truncated file, NaN or infinity) gives "file:line: what is wrong" and
 * -1, never a crash; tests/test_cpu_mtx.c fuzzes it. A gzip'd file is recognised and refused with a message
 * (unpack it first). Used by SpMV today, and by any workload that reads a sparse matrix or a graph. */
#ifndef CLIMB_IO_MTX_H
#define CLIMB_IO_MTX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_mtx_field { CLIMB_MTX_REAL = 0, CLIMB_MTX_INTEGER = 1, CLIMB_MTX_PATTERN = 2 } climb_mtx_field;
typedef enum climb_mtx_symmetry {
    CLIMB_MTX_GENERAL = 0,
    CLIMB_MTX_SYMMETRIC = 1,   /* only the lower triangle and the diagonal are stored; a(j,i) = a(i,j) */
    CLIMB_MTX_SKEW = 2         /* only the strict lower triangle is stored; a(j,i) = -a(i,j) */
} climb_mtx_symmetry;

/* The largest matrix read: 32-bit row and column indices and row pointers (cuSPARSE's CUSPARSE_INDEX_32I). */
#define CLIMB_MTX_MAX_DIM 2147483646LL
#define CLIMB_MTX_MAX_NNZ 2147483647LL

typedef struct climb_csr {
    int32_t rows, cols;
    int32_t nnz;            /* stored nonzeros after mirroring and after duplicates are summed */
    int32_t *row_ptr;       /* rows + 1 */
    int32_t *col_idx;       /* nnz, increasing within each row */
    double *val;            /* nnz (pattern: 1) */
} climb_csr;

typedef struct climb_mtx_info {
    climb_mtx_field field;
    climb_mtx_symmetry symmetry;
    int64_t entries;        /* entry lines in the file (the size line's third number) */
    int64_t duplicates;     /* entries added into an earlier one of the same (row, column) */
} climb_mtx_info;

/* Reads `path` into *m (free with climb_csr_free; left empty on failure). info may be NULL. 0, or -1 with err
 * ("path:line: what is wrong", or "path: ..." for what concerns no line). */
int climb_mtx_read(const char *path, climb_csr *m, climb_mtx_info *info, char *err, size_t errlen);
/* The banner and the size line alone (rows, columns, info->entries), checked as climb_mtx_read checks them: what a
 * dry run needs of a file, without reading its entries. 0, or -1 with err. */
int climb_mtx_peek(const char *path, int32_t *rows, int32_t *cols, climb_mtx_info *info, char *err, size_t errlen);
void climb_csr_free(climb_csr *m);

/* NULL if m is a consistent CSR matrix (row pointers from 0 to nnz, never decreasing; columns in range and
 * increasing within each row), else what is wrong. */
const char *climb_csr_check(const climb_csr *m);

#ifdef __cplusplus
}
#endif

#endif
