/* The library face: a handle, its stream and workspace, status codes, and each call dispatched to the
 * best rung of its workload. Never prints, never exits. */
#include "climb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/wisdom.h"
#include "../workloads/reduce.h"

struct climb_context {
    int device;
    cudaStream_t stream;
    climb_device_info dev;    /* the facts the tuning policy and wisdom keys need */
    climb_reduce_exec reduce;
    void *reduce_ws;          /* zeroed at creation; the best rung leaves it zeroed */
    size_t reduce_ws_bytes;
    int reduce_from_wisdom;
    char reduce_tuning[700];  /* where the reduce parameters come from, for climb_get_tuning */
    cudaError_t last_error;
};

int climb_version(void) { return CLIMB_VERSION_MAJOR * 10000 + CLIMB_VERSION_MINOR * 100 + CLIMB_VERSION_PATCH; }

const char *climb_status_string(climb_status s)
{
    switch (s) {
    case CLIMB_STATUS_SUCCESS: return "success";
    case CLIMB_STATUS_INVALID_VALUE: return "invalid value (a NULL handle or pointer, or a pointer the device cannot read)";
    case CLIMB_STATUS_NO_DEVICE: return "no CUDA device or driver";
    case CLIMB_STATUS_INVALID_DEVICE: return "no CUDA device with that ordinal";
    case CLIMB_STATUS_ALLOC_FAILED: return "device memory allocation failed";
    case CLIMB_STATUS_ARCH_MISMATCH: return "the library has no code for this GPU architecture";
    case CLIMB_STATUS_LAUNCH_FAILED: return "a CUDA call or kernel launch failed";
    case CLIMB_STATUS_INTERNAL_ERROR: return "internal error";
    }
    return "unknown status";
}

static climb_status from_cuda(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return CLIMB_STATUS_SUCCESS;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return CLIMB_STATUS_NO_DEVICE;
    case cudaErrorInvalidDevice: return CLIMB_STATUS_INVALID_DEVICE;
    case cudaErrorMemoryAllocation: return CLIMB_STATUS_ALLOC_FAILED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidKernelImage:
    case cudaErrorUnsupportedPtxVersion: return CLIMB_STATUS_ARCH_MISMATCH;
    default: return CLIMB_STATUS_LAUNCH_FAILED;
    }
}

/* Runs the rest of a call on the handle's device, putting the caller's current device back after. */
typedef struct { int prev; int switched; } device_guard;

static cudaError_t guard_enter(device_guard *g, int device)
{
    g->switched = 0;
    cudaError_t e = cudaGetDevice(&g->prev);
    if (e != cudaSuccess)
        return e;
    if (g->prev != device) {
        e = cudaSetDevice(device);
        g->switched = e == cudaSuccess;
    }
    return e;
}

static void guard_leave(device_guard *g)
{
    if (g->switched)
        cudaSetDevice(g->prev);
}

static climb_status finish(climb_handle h, cudaError_t e);

/* The device facts the tuning needs, read without printing. */
static cudaError_t read_device(int device, climb_device_info *d)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    memset(d, 0, sizeof *d);
    d->ordinal = device;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    return cudaDriverGetVersion(&d->driver_version);
}

/* Chooses the reduce parameters (wisdom, else defaults) and sizes the zeroed workspace for them. */
static cudaError_t tune_reduce(struct climb_context *h, const char *path)
{
    int v[CLIMB_MAX_TUNABLES];
    char msg[600], line[sizeof h->reduce_tuning - 8];
    climb_wisdom_outcome o = climb_wisdom_resolve(path, "reduce", climb_reduce_workload.tuning, &h->dev, v, msg,
                                                  sizeof msg, line, sizeof line);
    h->reduce_from_wisdom = o == CLIMB_WISDOM_USED;
    snprintf(h->reduce_tuning, sizeof h->reduce_tuning, "reduce: %s", line);
    climb_reduce_set_tuning(&h->reduce, v);

    if (h->reduce_ws)
        cudaFree(h->reduce_ws);
    h->reduce_ws = NULL;
    h->reduce_ws_bytes = climb_reduce_best_workspace(&h->reduce);
    cudaError_t e = cudaMalloc(&h->reduce_ws, h->reduce_ws_bytes);
    if (e == cudaSuccess)
        e = cudaMemset(h->reduce_ws, 0, h->reduce_ws_bytes);
    if (e != cudaSuccess) { /* calls refuse an empty workspace rather than write through a bad one */
        cudaGetLastError();
        if (h->reduce_ws)
            cudaFree(h->reduce_ws);
        h->reduce_ws = NULL;
        h->reduce_ws_bytes = 0;
    }
    return e;
}

climb_status climb_create(climb_handle *handle, int device)
{
    if (!handle)
        return CLIMB_STATUS_INVALID_VALUE;
    *handle = NULL;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        return CLIMB_STATUS_NO_DEVICE;
    }
    if (device < 0 || device >= count)
        return CLIMB_STATUS_INVALID_DEVICE;
    struct climb_context *h = calloc(1, sizeof *h);
    if (!h)
        return CLIMB_STATUS_ALLOC_FAILED;
    h->device = device;
    device_guard g;
    climb_status st = CLIMB_STATUS_SUCCESS;
    e = guard_enter(&g, device);
    if (e == cudaSuccess)
        e = read_device(device, &h->dev);
    h->reduce.sms = h->dev.sms;
    if (e == cudaSuccess)
        e = tune_reduce(h, NULL);
    if (e != cudaSuccess) {
        st = from_cuda(e);
        cudaGetLastError();
        if (h->reduce_ws)
            cudaFree(h->reduce_ws);
        free(h);
        h = NULL;
    }
    guard_leave(&g);
    *handle = h;
    return st;
}

climb_status climb_destroy(climb_handle h)
{
    if (!h)
        return CLIMB_STATUS_SUCCESS;
    device_guard g;
    cudaError_t e = guard_enter(&g, h->device);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(h->stream);
    cudaError_t f = h->reduce_ws ? cudaFree(h->reduce_ws) : cudaSuccess;
    guard_leave(&g);
    free(h);
    return from_cuda(e != cudaSuccess ? e : f);
}

climb_status climb_set_stream(climb_handle h, cudaStream_t stream)
{
    if (!h)
        return CLIMB_STATUS_INVALID_VALUE;
    h->stream = stream;
    h->reduce.stream = stream;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_get_stream(climb_handle h, cudaStream_t *stream)
{
    if (!h || !stream)
        return CLIMB_STATUS_INVALID_VALUE;
    *stream = h->stream;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_load_wisdom(climb_handle h, const char *path)
{
    if (!h)
        return CLIMB_STATUS_INVALID_VALUE;
    device_guard g;
    cudaError_t e = guard_enter(&g, h->device);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(h->stream); /* the old workspace may still be in use */
    if (e == cudaSuccess)
        e = tune_reduce(h, path);
    guard_leave(&g);
    return finish(h, e);
}

climb_status climb_get_tuning(climb_handle h, const char *workload, char *buf, size_t len, int *from_wisdom)
{
    if (!h || !workload || !buf || len == 0 || strcmp(workload, "reduce") != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    snprintf(buf, len, "%s", h->reduce_tuning);
    if (from_wisdom)
        *from_wisdom = h->reduce_from_wisdom;
    return CLIMB_STATUS_SUCCESS;
}

cudaError_t climb_last_cuda_error(climb_handle h) { return h ? h->last_error : cudaErrorInvalidValue; }

/* A pointer the handle's device can read or write: device, managed, or mapped host memory, aligned for
 * its element type. Host memory the device cannot reach is refused here rather than faulting later. */
static int device_reachable(const void *p, size_t align)
{
    if (!p || ((uintptr_t)p % align) != 0)
        return 0;
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ||
           (a.type == cudaMemoryTypeHost && a.devicePointer != NULL);
}

static climb_status finish(climb_handle h, cudaError_t e)
{
    h->last_error = e;
    return from_cuda(e);
}

climb_status climb_reduce_sum_i32(climb_handle h, const int32_t *d_in, size_t n, int32_t *d_out)
{
    if (!h || !device_reachable(d_out, sizeof *d_out) || (n > 0 && !device_reachable(d_in, sizeof *d_in)))
        return CLIMB_STATUS_INVALID_VALUE;
    device_guard g;
    cudaError_t e = guard_enter(&g, h->device);
    if (e == cudaSuccess)
        e = climb_reduce_best_i32(&h->reduce, d_in, n, d_out, h->reduce_ws, h->reduce_ws_bytes);
    guard_leave(&g);
    return finish(h, e);
}

climb_status climb_reduce_sum_f32(climb_handle h, const float *d_in, size_t n, float *d_out)
{
    if (!h || !device_reachable(d_out, sizeof *d_out) || (n > 0 && !device_reachable(d_in, sizeof *d_in)))
        return CLIMB_STATUS_INVALID_VALUE;
    device_guard g;
    cudaError_t e = guard_enter(&g, h->device);
    if (e == cudaSuccess)
        e = climb_reduce_best_f32(&h->reduce, d_in, n, d_out, h->reduce_ws, h->reduce_ws_bytes);
    guard_leave(&g);
    return finish(h, e);
}
