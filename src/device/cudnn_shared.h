/* The process's one cuDNN handle, for the workloads whose vendor rung is cuDNN (convolution, CNN layers), made
 * once on first use (creating one costs far more than a run). Only where cuDNN was found (CLIMB_HAVE_CUDNN). */
#ifndef CLIMB_DEVICE_CUDNN_SHARED_H
#define CLIMB_DEVICE_CUDNN_SHARED_H

#ifdef CLIMB_HAVE_CUDNN
#include <cuda_runtime_api.h>
#include <cudnn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out = the shared handle. 0, or -1 after printing why (who names the caller in the message). */
int climb_cudnn_shared(cudnnHandle_t *out, const char *who);
/* 0 when st is success; else prints "climb: who: what: cuDNN's message" and returns -1. */
int climb_cudnn_ok(cudnnStatus_t st, const char *who, const char *what);

/* One forward convolution planned for a vendor rung: NCHW tensors with the strides given (a padded image's rows
 * ld apart, say), cross-correlation, FP32 FMA math (no TF32 tensor cores), and the algorithm that
 * cudnnFindConvolutionForwardAlgorithm times fastest with FMA math (past the `skip` fastest: a caller whose
 * accuracy check the fastest failed plans again with skip raised), with its workspace. Zero it before the first
 * plan; release frees what a plan holds (a released or never planned one too) and keeps skip and ws_bytes, the last
 * plan's workspace, for the reports' set-up columns. */
typedef struct climb_cudnn_conv {
    cudnnHandle_t h;
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t conv;
    cudnnConvolutionFwdAlgo_t algo;
    void *ws;
    size_t ws_bytes;
    int ready;
    int skip;                  /* the fastest FMA-math algorithms passed over */
} climb_cudnn_conv;

/* x: n c h w with strides xs (n, c, h, w order); the filters k c r s; y: n k p q with strides ys; padding and
 * stride per dimension. 0, or -1 after printing why (who names the caller). A planned p is kept as it is. */
int climb_cudnn_conv_plan(climb_cudnn_conv *p, const int x_dims[4], const int xs[4], const int w_dims[4],
                          const int y_dims[4], const int ys[4], int pad_h, int pad_w, int stride_h, int stride_w,
                          const char *who);
/* y = conv(x, w) on stream s: cudaSuccess, or cudaErrorUnknown after printing cuDNN's error. */
cudaError_t climb_cudnn_conv_run(climb_cudnn_conv *p, const float *x, const float *w, float *y, cudaStream_t s,
                                 const char *who);
void climb_cudnn_conv_release(climb_cudnn_conv *p);
/* The planned algorithm's name ("FFT tiling"). */
const char *climb_cudnn_conv_algo_name(const climb_cudnn_conv *p);
/* 1 when the planned algorithm does not sum the products directly (FFT, Winograd): it rounds differently. */
int climb_cudnn_conv_indirect(const climb_cudnn_conv *p);

#ifdef __cplusplus
}
#endif

#endif
#endif
