/*
 * climb_base.h - what every public header of climb shares: the export macro, the version and the status codes.
 * climb.h includes it. C11.
 */
#ifndef CLIMB_BASE_H
#define CLIMB_BASE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CLIMB_API
#else
#define CLIMB_API __attribute__((visibility("default")))
#endif

#define CLIMB_VERSION_MAJOR 0
#define CLIMB_VERSION_MINOR 1
#define CLIMB_VERSION_PATCH 0

typedef enum climb_status {
    CLIMB_STATUS_SUCCESS = 0,
    CLIMB_STATUS_INVALID_VALUE = 1,   /* a NULL handle or pointer, a host pointer where a device one is needed */
    CLIMB_STATUS_NO_DEVICE = 2,       /* no CUDA device, or no driver */
    CLIMB_STATUS_INVALID_DEVICE = 3,  /* the device ordinal does not exist */
    CLIMB_STATUS_ALLOC_FAILED = 4,    /* device memory for the handle's workspace could not be had */
    CLIMB_STATUS_ARCH_MISMATCH = 5,   /* the library holds no code for this GPU's architecture */
    CLIMB_STATUS_LAUNCH_FAILED = 6,   /* a kernel launch or another CUDA call failed; see climb_last_cuda_error */
    CLIMB_STATUS_INTERNAL_ERROR = 7,
    CLIMB_STATUS_INVALID_MATRIX = 8,  /* a sparse matrix or graph failed the checks asked for (CLIMB_SPMV_VALIDATE,
                                         CLIMB_BFS_VALIDATE) */
    CLIMB_STATUS_CAPTURE_UNSUPPORTED = 9, /* the call waits for the GPU: not while its stream is captured into a graph */
    CLIMB_STATUS_NOT_SUPPORTED = 10   /* the GPUs lack what the call needs (peer access between a communicator's pairs) */
} climb_status;

#ifdef __cplusplus
}
#endif

#endif
