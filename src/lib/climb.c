/* The library face: a handle, its stream, one slot per workload (tuned values and workspace), status codes. The
 * workloads' own calls are in src/lib/<workload>.c. Never prints, never exits.
 *
 * CUDA graphs (docs/graphs.md): a call that launches work on the handle's stream must be capturable, as a handle's
 * first call too. So nothing here synchronises the handle's stream or touches the legacy stream during a call;
 * a workspace that must grow is allocated with the thread's capture mode set to relaxed (cudaMalloc is not stream
 * work, and a graph must not own it), zeroed on the handle's own non-blocking side stream, and the outgrown one
 * is kept until climb_destroy, because a graph captured earlier may still use it. */
#include "handle.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/wisdom.h"

struct climb_context {
    int device;
    cudaStream_t stream;
    cudaStream_t side;        /* the handle's own non-blocking stream: zeroes new workspaces, is never captured */
    climb_device_info dev;    /* the facts the tuning policies and wisdom keys need */
    char wisdom[4096];        /* the file climb_load_wisdom named; "" for the default file */
    climb_slot *slots;        /* one per workload used so far */
    int n_slots;
    void **retired;           /* outgrown workspaces, freed by climb_destroy (a captured graph may still use them) */
    int n_retired, cap_retired;
    cudaError_t last_error;
};

int climb_version(void) { return CLIMB_VERSION_MAJOR * 10000 + CLIMB_VERSION_MINOR * 100 + CLIMB_VERSION_PATCH; }

static climb_status from_cuda(cudaError_t e);

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
    case CLIMB_STATUS_INVALID_MATRIX: return "the sparse matrix is not valid (row pointers or column indices)";
    case CLIMB_STATUS_CAPTURE_UNSUPPORTED:
        return "the call waits for the GPU and cannot run while its stream is captured into a CUDA graph";
    case CLIMB_STATUS_NOT_SUPPORTED:
        return "the GPUs lack what the call needs (peer access between every pair of a communicator's GPUs)";
    }
    return "unknown status";
}

climb_status climb_status_of_cuda(cudaError_t e) { return from_cuda(e); }

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

enum cudaStreamCaptureMode climb_relaxed_begin(void)
{
    enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&m);
    return m;
}

void climb_relaxed_end(enum cudaStreamCaptureMode previous) { cudaThreadExchangeStreamCaptureMode(&previous); }

int climb_stream_capturing(cudaStream_t s)
{
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &st) != cudaSuccess) {
        /* the legacy stream while a blocking stream is captured: waiting on it would join the capture */
        cudaGetLastError();
        return 1;
    }
    return st != cudaStreamCaptureStatusNone;
}

/* Runs the rest of a call on the handle's device, putting the caller's current device back after. */
static cudaError_t guard_enter(int device, int *prev, int *switched)
{
    *switched = 0;
    cudaError_t e = cudaGetDevice(prev);
    if (e != cudaSuccess)
        return e;
    if (*prev != device) {
        e = cudaSetDevice(device);
        *switched = e == cudaSuccess;
    }
    return e;
}

static void guard_leave(int prev, int switched)
{
    if (switched)
        cudaSetDevice(prev);
}

climb_status climb_devices_here(int *count)
{
    *count = 0;
    if (cudaGetDeviceCount(count) != cudaSuccess || *count == 0) {
        cudaGetLastError();
        *count = 0;
        return CLIMB_STATUS_NO_DEVICE;
    }
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_create(climb_handle *handle, int device)
{
    if (!handle)
        return CLIMB_STATUS_INVALID_VALUE;
    *handle = NULL;
    int count = 0;
    if (climb_devices_here(&count) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_NO_DEVICE;
    cudaError_t e = cudaSuccess;
    if (device < 0 || device >= count)
        return CLIMB_STATUS_INVALID_DEVICE;
    struct climb_context *h = calloc(1, sizeof *h);
    if (!h)
        return CLIMB_STATUS_ALLOC_FAILED;
    h->device = device;
    int prev, switched;
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin(); /* a capture elsewhere stays valid */
    e = guard_enter(device, &prev, &switched);
    if (e == cudaSuccess)
        e = climb_device_read(device, &h->dev); /* the CLI's reader: the same facts */
    char why[400];
    if (e == cudaSuccess && climb_device_code_check(&h->dev, why, sizeof why) != 0)
        e = cudaErrorNoKernelImageForDevice; /* ARCH_MISMATCH now, not a launch failure later */
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&h->side, cudaStreamNonBlocking);
    guard_leave(prev, switched);
    climb_relaxed_end(mode);
    if (e != cudaSuccess) {
        cudaGetLastError();
        free(h);
        return from_cuda(e);
    }
    *handle = h;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_handle_offline(climb_handle *handle, const climb_device_info *dev)
{
    if (!handle || !dev)
        return CLIMB_STATUS_INVALID_VALUE;
    struct climb_context *h = calloc(1, sizeof *h);
    if (!h)
        return CLIMB_STATUS_ALLOC_FAILED;
    h->device = dev->ordinal;
    h->dev = *dev;
    *handle = h;
    return CLIMB_STATUS_SUCCESS;
}

/* Frees every workspace, the slots' and the outgrown ones (after the stream's work is done). */
static cudaError_t free_workspaces(climb_handle h)
{
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < h->n_slots + h->n_retired; i++) {
        void **p = i < h->n_slots ? &h->slots[i].ws : &h->retired[i - h->n_slots];
        if (*p) {
            cudaError_t f = cudaFree(*p);
            if (e == cudaSuccess)
                e = f;
        }
        *p = NULL;
        if (i < h->n_slots)
            h->slots[i].ws_bytes = 0;
    }
    h->n_retired = 0;
    return e;
}

climb_status climb_destroy(climb_handle h)
{
    if (!h)
        return CLIMB_STATUS_SUCCESS;
    int prev, switched;
    cudaError_t e = guard_enter(h->device, &prev, &switched);
    if (e == cudaSuccess && climb_stream_capturing(h->stream)) {
        guard_leave(prev, switched);
        return CLIMB_STATUS_CAPTURE_UNSUPPORTED; /* the handle stays valid */
    }
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(h->stream);
    cudaError_t f = free_workspaces(h);
    if (h->side)
        cudaStreamDestroy(h->side);
    climb_relaxed_end(mode);
    guard_leave(prev, switched);
    cudaGetLastError();
    for (int i = 0; i < h->n_slots; i++)
        free(h->slots[i].classes);
    free(h->slots);
    free(h->retired);
    free(h);
    return from_cuda(e != cudaSuccess ? e : f);
}

climb_status climb_set_stream(climb_handle h, cudaStream_t stream)
{
    if (!h)
        return CLIMB_STATUS_INVALID_VALUE;
    h->stream = stream;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_get_stream(climb_handle h, cudaStream_t *stream)
{
    if (!h || !stream)
        return CLIMB_STATUS_INVALID_VALUE;
    *stream = h->stream;
    return CLIMB_STATUS_SUCCESS;
}

/* The slot of workload w, made on first use; NULL when out of memory. */
static climb_slot *slot_of(climb_handle h, const climb_workload *w)
{
    for (int i = 0; i < h->n_slots; i++)
        if (h->slots[i].w == w)
            return &h->slots[i];
    climb_slot *p = realloc(h->slots, sizeof *p * (size_t)(h->n_slots + 1));
    if (!p)
        return NULL;
    h->slots = p;
    climb_slot *s = &h->slots[h->n_slots++];
    memset(s, 0, sizeof *s);
    s->w = w;
    return s;
}

/* Looks up the wisdom for the slot's workload (once per load). */
static void resolve(climb_handle h, climb_slot *s)
{
    const climb_workload *w = s->w;
    if (s->resolved)
        return;
    s->resolved = 1;
    s->from_wisdom = 0;
    if (!w->tuning) {
        snprintf(s->line, sizeof s->line, "%s: nothing to tune", w->name);
        return;
    }
    /* The line describes the defaults by the workload's first bench case. */
    climb_tuning_key example = {w->bench_shapes[0], CLIMB_I32, NULL};
    for (int t = 0; t < CLIMB_NTYPES; t++)
        if (w->types & CLIMB_TYPE_BIT(t)) {
            example.type = (climb_dtype)t;
            break;
        }
    char msg[600], line[sizeof s->line - 64];
    climb_wisdom_outcome o = climb_wisdom_resolve(h->wisdom[0] ? h->wisdom : NULL, w->name, w->tuning, &h->dev,
                                                  &example, s->values, msg, sizeof msg, line, sizeof line);
    s->from_wisdom = o == CLIMB_WISDOM_USED;
    snprintf(s->line, sizeof s->line, "%s: %s", w->name, line);
}

/* The tuned values of key's tuning class, looked up in the wisdom once per class and kept; NULL when out of host
 * memory (the call then runs the defaults). */
static const climb_slot_class *class_of(climb_handle h, climb_slot *s, const climb_tuning_key *key)
{
    char cls[128];
    climb_tuning_class(s->w, key, &h->dev, cls, sizeof cls);
    for (int i = 0; i < s->n_classes; i++)
        if (strcmp(s->classes[i].cls, cls) == 0)
            return &s->classes[i];
    if (s->n_classes == s->cap_classes) {
        const int cap = s->cap_classes ? 2 * s->cap_classes : 4;
        climb_slot_class *p = realloc(s->classes, sizeof *p * (size_t)cap);
        if (!p)
            return NULL;
        s->classes = p;
        s->cap_classes = cap;
    }
    climb_slot_class *sc = &s->classes[s->n_classes++];
    memset(sc, 0, sizeof *sc);
    snprintf(sc->cls, sizeof sc->cls, "%s", cls);
    char msg[600], line[700];
    sc->from_wisdom = climb_wisdom_resolve(h->wisdom[0] ? h->wisdom : NULL, s->w->name, s->w->tuning, &h->dev, key,
                                           sc->values, msg, sizeof msg, line, sizeof line) == CLIMB_WISDOM_USED;
    return sc;
}

climb_status climb_load_wisdom(climb_handle h, const char *path)
{
    if (!h)
        return CLIMB_STATUS_INVALID_VALUE;
    if (path && strlen(path) >= sizeof h->wisdom)
        return CLIMB_STATUS_INVALID_VALUE;
    /* No wait for the stream: new values may need other workspace sizes, but a workspace is never freed while
     * the handle lives, so calls in flight keep theirs. */
    snprintf(h->wisdom, sizeof h->wisdom, "%s", path ? path : "");
    for (int i = 0; i < h->n_slots; i++) {
        h->slots[i].resolved = 0;
        h->slots[i].n_classes = 0; /* looked up again in the new file */
    }
    /* Resolve every tuned workload now, so that climb_get_tuning reports what this file says. */
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    for (int i = 0; i < n; i++) {
        if (!all[i]->tuning)
            continue;
        climb_slot *s = slot_of(h, all[i]);
        if (!s)
            return CLIMB_STATUS_ALLOC_FAILED;
        resolve(h, s);
    }
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_get_tuning(climb_handle h, const char *workload, char *buf, size_t len, int *from_wisdom)
{
    const climb_workload *w = workload ? climb_find_workload(workload) : NULL;
    if (!h || !w || !buf || len == 0)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_slot *s = slot_of(h, w);
    if (!s)
        return CLIMB_STATUS_ALLOC_FAILED;
    resolve(h, s);
    snprintf(buf, len, "%s", s->line);
    if (from_wisdom)
        *from_wisdom = s->from_wisdom;
    return CLIMB_STATUS_SUCCESS;
}

cudaError_t climb_last_cuda_error(climb_handle h) { return h ? h->last_error : cudaErrorInvalidValue; }

int climb_pointer_reachable(const void *p, size_t align, int device)
{
    if (!p || ((uintptr_t)p % align) != 0)
        return 0;
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    if (a.type == cudaMemoryTypeDevice)
        return device < 0 || a.device == device;
    return a.type == cudaMemoryTypeManaged || (a.type == cudaMemoryTypeHost && a.devicePointer != NULL);
}

int climb_device_reachable(const void *p, size_t align) { return climb_pointer_reachable(p, align, -1); }

int climb_api_key_make(climb_api_key *k, const climb_workload *w, climb_shape shape, climb_dtype t, ...)
{
    memset(k, 0, sizeof *k);
    k->key.shape = shape;
    k->key.type = t;
    k->key.opts = w->n_options ? k->opts : NULL;
    if (w->n_options > CLIMB_API_MAX_OPTIONS)
        return -1;
    int rc = 0;
    va_list ap;
    va_start(ap, t);
    for (const char *name = va_arg(ap, const char *); name && rc == 0; name = va_arg(ap, const char *)) {
        const char *text = va_arg(ap, const char *);
        const int i = climb_opt_find(w->options, w->n_options, name);
        char err[200];
        if (i < 0 || !text || climb_opt_parse(&w->options[i], text, &k->opts[i], err, sizeof err) != 0) {
            rc = -1;
            break;
        }
        free(k->opts[i].text); /* the parse's copy: the caller's text stands instead */
        k->opts[i].text = (char *)text;
    }
    va_end(ap);
    return rc;
}

climb_status climb_call_begin(climb_handle h, const climb_workload *w, const climb_tuning_key *key, climb_call *c)
{
    /* An error an earlier, unrelated call left in the runtime's last-error state is not this call's: drop it, so
     * that the launch checks below see this call's errors alone. */
    cudaGetLastError();
    memset(c, 0, sizeof *c);
    c->h = h;
    c->stream = h->stream;
    c->dev = &h->dev;
    cudaError_t e = guard_enter(h->device, &c->prev_device, &c->switched);
    if (e != cudaSuccess) {
        h->last_error = e;
        return from_cuda(e);
    }
    c->slot = slot_of(h, w);
    if (!c->slot) {
        guard_leave(c->prev_device, c->switched);
        return CLIMB_STATUS_ALLOC_FAILED;
    }
    if (w->tuning) {
        resolve(h, c->slot);
        const climb_slot_class *sc = climb_tuning_has_classes(w) ? class_of(h, c->slot, key) : NULL;
        if (sc ? sc->from_wisdom : c->slot->from_wisdom)
            memcpy(c->values, sc ? sc->values : c->slot->values, sizeof c->values);
        else
            climb_tuning_defaults(w->tuning, &h->dev, key, c->values);
    }
    return CLIMB_STATUS_SUCCESS;
}

/* Keeps an outgrown workspace until climb_destroy. 0, or -1 when out of host memory. */
static int retire(climb_handle h, void *ws)
{
    if (h->n_retired == h->cap_retired) {
        const int cap = h->cap_retired ? 2 * h->cap_retired : 8;
        void **p = realloc(h->retired, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        h->retired = p;
        h->cap_retired = cap;
    }
    h->retired[h->n_retired++] = ws;
    return 0;
}

cudaError_t climb_call_workspace(climb_call *c, size_t bytes, int zeroed, void **ws, size_t *ws_bytes)
{
    climb_slot *s = c->slot;
    if (bytes > s->ws_bytes || (zeroed && !s->ws_zeroed)) {
        /* Grow at least twofold, so that the outgrown workspaces kept add up to less than the current one. */
        size_t want = bytes > SIZE_MAX / 2 || bytes >= 2 * s->ws_bytes ? bytes : 2 * s->ws_bytes;
        if (want <= SIZE_MAX - 255)
            want = (want + 255) / 256 * 256;
        void *p = NULL;
        const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
        cudaError_t e = cudaMalloc(&p, want);
        if (e == cudaSuccess && zeroed) {
            /* zero before any kernel of this call runs, captured or not: on the side stream, waited for */
            e = cudaMemsetAsync(p, 0, want, c->h->side);
            if (e == cudaSuccess)
                e = cudaStreamSynchronize(c->h->side);
        }
        if (e == cudaSuccess && s->ws && retire(c->h, s->ws) != 0)
            e = cudaErrorMemoryAllocation;
        if (e != cudaSuccess && p)
            cudaFree(p);
        climb_relaxed_end(mode);
        if (e != cudaSuccess)
            return e;
        s->ws = p;
        s->ws_bytes = want;
        s->ws_zeroed = zeroed;
    }
    *ws = s->ws;
    *ws_bytes = s->ws_bytes;
    return cudaSuccess;
}

int climb_call_capturing(const climb_call *c) { return climb_stream_capturing(c->stream); }

climb_status climb_call_begin_waiting(climb_handle h, const climb_workload *w, const climb_tuning_key *key,
                                      climb_call *c)
{
    const climb_status st = climb_call_begin(h, w, key, c);
    if (st != CLIMB_STATUS_SUCCESS || !climb_call_capturing(c))
        return st;
    climb_call_end(c, cudaSuccess);
    return CLIMB_STATUS_CAPTURE_UNSUPPORTED;
}

void climb_release_on_device(int device, void (*release)(void *), void *arg)
{
    int prev = -1, switched = 0;
    if (guard_enter(device, &prev, &switched) != cudaSuccess)
        switched = 0;
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
    release(arg);
    climb_relaxed_end(mode);
    guard_leave(prev, switched);
    cudaGetLastError();
}

climb_status climb_call_end(climb_call *c, cudaError_t e)
{
    guard_leave(c->prev_device, c->switched);
    /* Leave nothing behind for the caller's next call (a sticky error, after a fault in a kernel, stays: the
     * runtime keeps it for every later call in the process). */
    cudaGetLastError();
    c->h->last_error = e;
    return from_cuda(e);
}
