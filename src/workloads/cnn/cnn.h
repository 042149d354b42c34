/* One convolutional layer forward: the parts of src/workloads/cnn/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_CNN_H
#define CLIMB_WORKLOADS_CNN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_cnn_workload;

/* A layer: x is n x c x h x w (NCHW), the filters k x c x r x s, y is n x k x p x q with p = (h + 2 pad_h - r) /
 * stride_h + 1 and q = (w + 2 pad_w - s) / stride_w + 1 (0 when the padded input is smaller than the filter). */
typedef struct climb_cnn_layer {
    int n, c, h, w, k, r, s;
    int stride_h, stride_w, pad_h, pad_w;
    int p, q;
} climb_cnn_layer;

/* The limit of every element count of a layer (x, w, y, c r s, n p q) and of its padded sizes (h + 2 pad_h, w + 2
 * pad_w): the kernels index in 32-bit integers, and a count below 2^30 leaves every index they form (a tile's edge
 * past the end, p stride - pad + r) below 2^31. */
#define CLIMB_CNN_MAX_ELEMS (1LL << 30)

/* Fills p and q; 0, or -1 (p and q 0) for a layer no kernel takes: a size below 0 (r, s and the strides below 1), a
 * pad below 0, or a count at CLIMB_CNN_MAX_ELEMS or more. */
int climb_cnn_layer_check(climb_cnn_layer *l);

/* y[n][k][p][q] of the layer on the CPU in double (x and w as above); abs (may be NULL) gets sum |w x|. */
double climb_cnn_ref_at(const climb_cnn_layer *l, const float *x, const float *w, int n, int k, int p, int q,
                        double *abs);
/* |GPU - exact| allowed for an output whose c r s products add up, in absolute value, to at most abs_sum. */
double climb_cnn_tolerance(const climb_cnn_layer *l, double abs_sum);

/* The best rung's tunable parameters, in the order of climb_cnn_workload.tuning->params. */
typedef struct climb_cnn_tuning {
    int bm;         /* output channels a block computes at most (64 or 128; 64 when k <= 64) */
    int bk;         /* c r s a k-tile holds (8 or 16) */
    int wide;       /* 1: 64 x 256 tiles (8 x 16 outputs a thread) where BM is 64 and there are 16384 pixels */
} climb_cnn_tuning;

void climb_cnn_set_tuning(climb_cnn_tuning *t, const int *values);

/* The rung marked best, for the library face: y = the layer of x with filters w on stream s, on a device of `sms`
 * SMs. Any layer climb_cnn_layer_check takes: Winograd's F(2 x 2, 3 x 3), fused, on the 3 x 3 layers of stride 1
 * it chooses, the filter-major implicit GEMM over permuted filters where C is a multiple of 8 or at least 64 and
 * R S C, C so padded, stays below CLIMB_CNN_MAX_ELEMS (in both, climb_cnn_best_workspace is above 0: ws must hold
 * that many bytes, else cudaErrorInvalidValue and nothing is launched), the channel-major implicit GEMM with tuning
 * t on the rest. */
cudaError_t climb_cnn_best(const climb_cnn_tuning *t, const climb_cnn_layer *l, const float *x, const float *w,
                           float *y, void *ws, size_t ws_bytes, int sms, cudaStream_t s);
/* The device workspace climb_cnn_best needs for layer l: the transformed or permuted filters, or 0 (the
 * channel-major implicit GEMM reads w as it lies). */
size_t climb_cnn_best_workspace(const climb_cnn_layer *l);
/* climb_cnn_best in two parts, for a plan that runs one layer's weights again: the filters' transform or
 * permutation into u (climb_cnn_best_workspace bytes; nothing where that is 0), then the layer from u (w is read
 * only where the workspace is 0). The same kernels and results as climb_cnn_best; cudaErrorInvalidValue for a
 * NULL u where the workspace is above 0. */
cudaError_t climb_cnn_best_filters(const climb_cnn_layer *l, const float *w, void *u, cudaStream_t s);
cudaError_t climb_cnn_best_planned(const climb_cnn_tuning *t, const climb_cnn_layer *l, const float *x,
                                   const float *w, const void *u, float *y, int sms, cudaStream_t s);
/* 1 where climb_cnn_best runs Winograd's F(2 x 2, r x r) on layer l (3 x 3 or 5 x 5 filters; its error bound is
 * then Winograd's for that r). */
int climb_cnn_best_winograd(const climb_cnn_layer *l);

#ifdef __cplusplus
}
#endif

#endif
