/* The process's one cuDNN handle, for the workloads whose vendor rung is cuDNN (convolution, CNN layers), made
 * once on first use (creating one costs far more than a run). Only where cuDNN was found (CLIMB_HAVE_CUDNN). */
#ifndef CLIMB_DEVICE_CUDNN_SHARED_H
#define CLIMB_DEVICE_CUDNN_SHARED_H

#ifdef CLIMB_HAVE_CUDNN
#include <cudnn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out = the shared handle. 0, or -1 after printing why (who names the caller in the message). */
int climb_cudnn_shared(cudnnHandle_t *out, const char *who);
/* 0 when st is success; else prints "climb: who: what: cuDNN's message" and returns -1. */
int climb_cudnn_ok(cudnnStatus_t st, const char *who, const char *what);

#ifdef __cplusplus
}
#endif

#endif
#endif
