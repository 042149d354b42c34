/* 1-D and 2-D convolution: the parts of src/workloads/conv/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_CONV_H
#define CLIMB_WORKLOADS_CONV_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_conv_workload;

#define CLIMB_CONV_MAX_RADIUS 4
#define CLIMB_CONV_MAX_TAPS ((2 * CLIMB_CONV_MAX_RADIUS + 1) * (2 * CLIMB_CONV_MAX_RADIUS + 1))

/* The best rung's tunable parameters, in the order of climb_conv_workload.tuning->params. */
typedef struct climb_conv_tuning {
    int outputs;    /* outputs a thread computes, down a column (register blocking) */
    int rows;       /* rows of 32 threads in a block: a block's tile is 32 x (rows x outputs) outputs */
    int tiles;      /* tiles a block walks down its column, the next one's loads in flight during this one's FMAs */
} climb_conv_tuning;

void climb_conv_set_tuning(climb_conv_tuning *t, const int *values);

/* CPU reference of output row i: out[j] = sum over a in [0, 2ry], b in [0, 2rx] of
 * mask[a (2rx + 1) + b] in[i + a - ry][j + b - rx], the input zero outside rows x cols (ghost cells), in double;
 * abs[j] (may be NULL) gets sum |mask| |in| of the same terms. ry = 0 is the 1-D convolution of each row. */
void climb_conv_ref_row(const float *in, size_t ld, size_t rows, size_t cols, const float *mask, int rx, int ry,
                        size_t i, double *out, double *abs);
/* The bound on |GPU - exact| for an output of `taps` float products accumulated in any order, whose terms' absolute
 * values add up to at most abs_sum: (taps + 2) 2^-24 abs_sum. */
double climb_conv_tolerance(int taps, double abs_sum);

/* 1 when a rows x cols image is within what the best rung launches: rows and cols below 2^31, and ceil(rows / 16) x
 * ceil(cols / 32) blocks (its smallest block tile, 32 x 16 outputs, in every candidate) below 2^31, a grid's limit. */
int climb_conv_fits(size_t rows, size_t cols);

/* The rung marked best, for the library face: out = in convolved with the (2ry + 1) x (2rx + 1) mask (row-major,
 * host memory, read now and passed by value to the kernel), zero ghost cells; rx in 1..4, ry in {0, rx}; any rows
 * and cols (0 does nothing), ld_in >= cols, ld_out >= cols, any element alignment; in and out must not overlap. */
cudaError_t climb_conv_best(const climb_conv_tuning *t, size_t rows, size_t cols, const float *in, size_t ld_in,
                            const float *mask, int rx, int ry, float *out, size_t ld_out, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
