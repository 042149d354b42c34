/* Matrix transpose: the parts of src/workloads/transpose.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_TRANSPOSE_H
#define CLIMB_WORKLOADS_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_transpose_workload;

/* The best rung's tunable parameters, in the order of climb_transpose_workload.tuning->params. */
typedef struct climb_transpose_tuning {
    int tile;       /* a tile is tile x tile elements, staged in shared memory */
    int rows;       /* rows of threads per block: each thread moves tile / rows rows of the tile */
    int vec;        /* elements per global load and store (one vector of vec x element size, up to 16 B each) */
    int diagonal;   /* 1: tiles taken in diagonal order instead of row by row */
} climb_transpose_tuning;

void climb_transpose_set_tuning(climb_transpose_tuning *t, const int *values);

/* CPU reference: out (cols x rows, leading dimension ld_out) = in^T (rows x cols, leading dimension ld_in),
 * elements of es bytes; the padding of out is left as it is. */
void climb_transpose_ref(const void *in, size_t ld_in, void *out, size_t ld_out, size_t rows, size_t cols, size_t es);

/* 1 when a rows x cols transpose is within what the tiled rungs launch: ceil(rows / 32) x ceil(cols / 32) tiles of
 * the smallest tile (32, every candidate's least) below 2^31, a grid's limit. */
int climb_transpose_fits(size_t rows, size_t cols);

/* The rung marked best, for the library face (src/lib/transpose.c): out = in^T on stream s, type f32 or f64,
 * any rows and cols climb_transpose_fits takes (0 does nothing), ld_in >= cols, ld_out >= rows, any element
 * alignment. */
cudaError_t climb_transpose_best(const climb_transpose_tuning *t, climb_dtype type, const void *in, size_t ld_in,
                                 void *out, size_t ld_out, size_t rows, size_t cols, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
