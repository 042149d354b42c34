/* The process's one cuBLAS handle, for the workloads whose vendor rung is cuBLAS (made once, on first use:
 * creating a handle costs far more than a run). */
#ifndef CLIMB_DEVICE_CUBLAS_SHARED_H
#define CLIMB_DEVICE_CUBLAS_SHARED_H

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* *out = the shared handle. 0, or -1 after printing why (who names the caller in the message). */
int climb_cublas_shared(cublasHandle_t *out, const char *who);

#ifdef __cplusplus
}
#endif

#endif
