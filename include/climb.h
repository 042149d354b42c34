/*
 * climb.h - the C face of climb: the best rung of each workload behind a cuBLAS-style handle.
 *
 * Every call is asynchronous on the handle's stream, takes device pointers, and returns a climb_status.
 * The library never prints and never exits. A handle owns the workspace its calls need, so there is no
 * two-phase temporary-storage query; use one handle per stream that runs calls concurrently.
 *
 * C11. Link with -lclimb (pkg-config climb).
 */
#ifndef CLIMB_H
#define CLIMB_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

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
    CLIMB_STATUS_INTERNAL_ERROR = 7
} climb_status;

typedef struct climb_context *climb_handle;

/* Library version as MAJOR*10000 + MINOR*100 + PATCH. */
CLIMB_API int climb_version(void);

/* A fixed English description of a status; never NULL. */
CLIMB_API const char *climb_status_string(climb_status status);

/* Creates a handle bound to CUDA device `device`, on the default stream. */
CLIMB_API climb_status climb_create(climb_handle *handle, int device);

/* Frees the handle and its workspace. Waits for the handle's stream first. NULL is accepted. */
CLIMB_API climb_status climb_destroy(climb_handle handle);

/* Later calls on this handle are issued on `stream` (0: the legacy default stream). */
CLIMB_API climb_status climb_set_stream(climb_handle handle, cudaStream_t stream);
CLIMB_API climb_status climb_get_stream(climb_handle handle, cudaStream_t *stream);

/* The CUDA error behind the last CLIMB_STATUS_LAUNCH_FAILED or ALLOC_FAILED on this handle (cudaSuccess if none). */
CLIMB_API cudaError_t climb_last_cuda_error(climb_handle handle);

/*
 * Sum reduction: *d_out = d_in[0] + ... + d_in[n-1].
 * n == 0 writes 0. Any n and any element alignment of d_in are handled. i32 sums wrap modulo 2^32.
 * The f32 order of additions is fixed for a given n, device and library version, so results repeat.
 */
CLIMB_API climb_status climb_reduce_sum_i32(climb_handle handle, const int32_t *d_in, size_t n, int32_t *d_out);
CLIMB_API climb_status climb_reduce_sum_f32(climb_handle handle, const float *d_in, size_t n, float *d_out);

#ifdef __cplusplus
}
#endif

#endif /* CLIMB_H */
