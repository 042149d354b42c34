/* The process's one cuDNN handle (see cudnn_shared.h). */
#ifdef CLIMB_HAVE_CUDNN
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cudnn_shared.h"

int climb_cudnn_ok(cudnnStatus_t st, const char *who, const char *what)
{
    if (st == CUDNN_STATUS_SUCCESS)
        return 0;
    fprintf(stderr, "climb: %s: %s: %s\n", who, what, cudnnGetErrorString(st));
    return -1;
}

int climb_cudnn_shared(cudnnHandle_t *out, const char *who)
{
    static cudnnHandle_t shared = NULL;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (!shared && climb_cudnn_ok(cudnnCreate(&shared), who, "cudnnCreate") != 0) {
        shared = NULL;
        rc = -1;
    }
    *out = shared;
    pthread_mutex_unlock(&lock);
    return rc;
}

void climb_cudnn_conv_release(climb_cudnn_conv *p)
{
    if (p->x)
        cudnnDestroyTensorDescriptor(p->x);
    if (p->y)
        cudnnDestroyTensorDescriptor(p->y);
    if (p->w)
        cudnnDestroyFilterDescriptor(p->w);
    if (p->conv)
        cudnnDestroyConvolutionDescriptor(p->conv);
    if (p->ws)
        cudaFree(p->ws);
    /* the handle is the process's; the workspace's size stays for the reports (they read it after release) */
    cudnnHandle_t h = p->h;
    const size_t ws_bytes = p->ws_bytes;
    const int skip = p->skip;
    memset(p, 0, sizeof *p);
    p->h = h;
    p->ws_bytes = ws_bytes;
    p->skip = skip;
}

int climb_cudnn_conv_plan(climb_cudnn_conv *p, const int x_dims[4], const int xs[4], const int w_dims[4],
                          const int y_dims[4], const int ys[4], int pad_h, int pad_w, int stride_h, int stride_w,
                          const char *who)
{
    if (p->ready)
        return 0;
    if (climb_cudnn_shared(&p->h, who) != 0)
        return -1;
    if (climb_cudnn_ok(cudnnCreateTensorDescriptor(&p->x), who, "descriptor") ||
        climb_cudnn_ok(cudnnCreateTensorDescriptor(&p->y), who, "descriptor") ||
        climb_cudnn_ok(cudnnCreateFilterDescriptor(&p->w), who, "descriptor") ||
        climb_cudnn_ok(cudnnCreateConvolutionDescriptor(&p->conv), who, "descriptor") ||
        climb_cudnn_ok(cudnnSetTensor4dDescriptorEx(p->x, CUDNN_DATA_FLOAT, x_dims[0], x_dims[1], x_dims[2], x_dims[3],
                                                    xs[0], xs[1], xs[2], xs[3]),
                       who, "input descriptor") ||
        climb_cudnn_ok(cudnnSetTensor4dDescriptorEx(p->y, CUDNN_DATA_FLOAT, y_dims[0], y_dims[1], y_dims[2], y_dims[3],
                                                    ys[0], ys[1], ys[2], ys[3]),
                       who, "output descriptor") ||
        climb_cudnn_ok(cudnnSetFilter4dDescriptor(p->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, w_dims[0], w_dims[1],
                                                  w_dims[2], w_dims[3]),
                       who, "filter descriptor") ||
        climb_cudnn_ok(cudnnSetConvolution2dDescriptor(p->conv, pad_h, pad_w, stride_h, stride_w, 1, 1,
                                                       CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                       who, "convolution descriptor") ||
        climb_cudnn_ok(cudnnSetConvolutionMathType(p->conv, CUDNN_FMA_MATH), who, "FMA math")) {
        climb_cudnn_conv_release(p);
        return -1;
    }
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int n = 0;
    /* The shared handle may still name a stream an earlier run destroyed: the search runs on the legacy stream. */
    if (climb_cudnn_ok(cudnnSetStream(p->h, 0), who, "cudnnSetStream") ||
        climb_cudnn_ok(cudnnFindConvolutionForwardAlgorithm(p->h, p->x, p->w, p->conv, p->y,
                                                            CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf),
                       who, "cudnnFindConvolutionForwardAlgorithm")) {
        climb_cudnn_conv_release(p);
        return -1;
    }
    int pick = -1;
    for (int k = 0, seen = 0; k < n && pick < 0; k++)
        if (perf[k].status == CUDNN_STATUS_SUCCESS && perf[k].mathType == CUDNN_FMA_MATH && seen++ == p->skip)
            pick = k;
    if (pick < 0) {
        if (p->skip)
            fprintf(stderr, "climb: %s: no forward algorithm with FMA math is left past the %d passed over\n", who,
                    p->skip);
        else
            fprintf(stderr, "climb: %s: no forward algorithm runs this case with FMA math\n", who);
        climb_cudnn_conv_release(p);
        return -1;
    }
    p->algo = perf[pick].algo;
    p->ws_bytes = perf[pick].memory;
    if (p->ws_bytes && cudaMalloc(&p->ws, p->ws_bytes) != cudaSuccess) {
        fprintf(stderr, "climb: %s: out of device memory for cuDNN's workspace (%zu bytes)\n", who, p->ws_bytes);
        cudaGetLastError();
        p->ws = NULL;
        climb_cudnn_conv_release(p);
        return -1;
    }
    p->ready = 1;
    return 0;
}

cudaError_t climb_cudnn_conv_run(climb_cudnn_conv *p, const float *x, const float *w, float *y, cudaStream_t s,
                                 const char *who)
{
    const float one = 1, zero = 0;
    if (climb_cudnn_ok(cudnnSetStream(p->h, s), who, "cudnnSetStream") ||
        climb_cudnn_ok(cudnnConvolutionForward(p->h, &one, p->x, x, p->w, w, p->conv, p->algo, p->ws, p->ws_bytes,
                                               &zero, p->y, y),
                       who, "cudnnConvolutionForward"))
        return cudaErrorUnknown;
    return cudaGetLastError();
}

const char *climb_cudnn_conv_algo_name(const climb_cudnn_conv *p)
{
    switch (p->algo) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "implicit GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "implicit precomputed GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "direct";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT tiling";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "Winograd";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "Winograd non-fused";
    default: return "an algorithm";
    }
}

int climb_cudnn_conv_indirect(const climb_cudnn_conv *p)
{
    return p->algo == CUDNN_CONVOLUTION_FWD_ALGO_FFT || p->algo == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING ||
           p->algo == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD || p->algo == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
}
#else
typedef int climb_cudnn_shared_unused; /* ISO C wants something in a translation unit */
#endif
