/* Inside the library face: the handle, and what each workload's API file (src/lib/<workload>.c) uses of it.
 * A handle keeps one slot per workload: the tuned values its best rung runs with (wisdom, resolved on first
 * use) and the device workspace it owns. A workload's API file adds its functions without touching climb.c:
 *
 *     climb_call call;
 *     climb_status st = climb_call_begin(h, &climb_<w>_workload, &key, &call);   // device, stream, values
 *     ... climb_call_workspace(&call, bytes, zeroed, &ws) ...
 *     return climb_call_end(&call, cuda_error_of_the_launch);
 */
#ifndef CLIMB_LIB_HANDLE_H
#define CLIMB_LIB_HANDLE_H

#include "climb.h"
#include "../core/workload.h"

/* The tuned values of one tuning class of a workload whose options key its tuning (climb_tuning_class). */
typedef struct climb_slot_class {
    char cls[128];
    int from_wisdom;
    int values[CLIMB_MAX_TUNABLES];
} climb_slot_class;

typedef struct climb_slot {
    const climb_workload *w;
    int resolved;                         /* the values below were looked up (wisdom file read) */
    int from_wisdom;                      /* 1: values came from a wisdom file, for every case */
    int values[CLIMB_MAX_TUNABLES];       /* the wisdom's values (from_wisdom) */
    char line[700];                       /* where the values come from, for climb_get_tuning */
    climb_slot_class *classes;            /* per tuning class, looked up on first use (workloads with classes) */
    int n_classes, cap_classes;
    void *ws;                             /* device workspace, owned by the handle */
    size_t ws_bytes;
    int ws_zeroed;                        /* allocated zeroed; the workload's calls leave it zeroed */
} climb_slot;

typedef struct climb_call {
    climb_handle h;
    climb_slot *slot;
    int values[CLIMB_MAX_TUNABLES];       /* the best rung's values for this call's case */
    cudaStream_t stream;
    const climb_device_info *dev;
    int prev_device, switched;
} climb_call;

/* The most options a workload may declare for a C API call's key to hold them. */
#define CLIMB_API_MAX_OPTIONS 8
/* A C API call's tuning key: the case's shape and type, and the option values that key the tuning, set by name
 * through the workload's own option table (never by position; the others stay unset, as they key nothing). */
typedef struct climb_api_key {
    climb_opt_value opts[CLIMB_API_MAX_OPTIONS];
    climb_tuning_key key;
} climb_api_key;
/* Fills *k for workload w: shape and type, then each ("name", "value") pair up to a NULL name, the value parsed as
 * the option's kind (its text must outlive the call). 0; -1 when w declares more options than a key holds, a name
 * is not one of w's options or a value does not parse: a renamed option fails the call (the caller returns
 * CLIMB_STATUS_INTERNAL_ERROR) and the API tests, and never keys the tuning wrongly. */
int climb_api_key_make(climb_api_key *k, const climb_workload *w, climb_shape shape, climb_dtype t, ...);

/* Starts a call of workload w on case `key` (shape and type): makes the handle's device current, resolves the
 * tuned values (wisdom, else the defaults for the case). CLIMB_STATUS_SUCCESS, or the status to return. */
climb_status climb_call_begin(climb_handle h, const climb_workload *w, const climb_tuning_key *key, climb_call *c);
/* climb_call_begin for a call that waits for the GPU (an analysis or a verdict read back): while the handle's
 * stream is capturing, the call is ended and CLIMB_STATUS_CAPTURE_UNSUPPORTED returned. */
climb_status climb_call_begin_waiting(climb_handle h, const climb_workload *w, const climb_tuning_key *key,
                                      climb_call *c);
/* Frees what an object keeps on its device (a plan's arrays): release(arg) with `device` current and this thread's
 * capture mode relaxed (a capture in progress elsewhere stays valid), then both put back and the runtime's
 * last-error state cleared. */
void climb_release_on_device(int device, void (*release)(void *), void *arg);
/* A workspace of at least `bytes` on the handle's device (grown when too small, at least twofold; zeroed before
 * the call's kernels when `zeroed`, for workloads that keep it zeroed between calls). Capturable: it neither
 * waits for the call's stream nor puts work on it, and an outgrown workspace stays allocated until
 * climb_destroy (a graph captured earlier may still use it). */
cudaError_t climb_call_workspace(climb_call *c, size_t bytes, int zeroed, void **ws, size_t *ws_bytes);
/* Puts the caller's device back, clears the runtime's last-error state and maps e to a status (recorded for
 * climb_last_cuda_error). climb_call_begin clears that state too, so a call sees its own errors alone. */
climb_status climb_call_end(climb_call *c, cudaError_t e);
/* 1 when the call's stream is being captured into a graph (or is the legacy stream while a capture forbids
 * waiting on it): a call that must wait for the GPU returns CLIMB_STATUS_CAPTURE_UNSUPPORTED then. */
int climb_call_capturing(const climb_call *c);
int climb_stream_capturing(cudaStream_t s);
/* Around calls that are not stream work (cudaMalloc, cudaFree, a stream of the handle's own): this thread's
 * capture mode set to relaxed, so that a capture in progress, here or in another thread, is not invalidated by
 * them; climb_relaxed_end puts the previous mode back. */
enum cudaStreamCaptureMode climb_relaxed_begin(void);
void climb_relaxed_end(enum cudaStreamCaptureMode previous);

/* 1 if the handle's device can read or write p (device, managed or mapped host memory) and p is aligned to
 * `align`; host memory the device cannot reach is refused here rather than faulting later. The one CUDA call an
 * argument check makes (cudaPointerGetAttributes), after every check of sizes, limits and overlaps. */
int climb_device_reachable(const void *p, size_t align);
/* The same, device memory counting only where it is on `device` (-1: any device's). */
int climb_pointer_reachable(const void *p, size_t align, int device);

/* ---- argument checks shared by several API files (src/lib/args.c); sizes by src/base/checked.h ---- */

/* A Coulomb lattice and its atoms (climb_coulomb_dcs_f32, climb_coulomb_cutoff_f32): the spacing and exclusion
 * finite, spacing > 0, exclusion >= 0.001; nx at most 2^31 - 1, ny and nz at most max_yz, n_atoms at most 2^31 - 1;
 * the lattice's points counted in *points without wrapping. CLIMB_STATUS_SUCCESS, or INVALID_VALUE. No CUDA call. */
climb_status climb_lattice_args(const climb_lattice_desc *d, size_t max_yz, size_t n_atoms, size_t *points);
/* The lattice's arrays for a non-empty lattice: d_out (points floats, 4-byte aligned) and d_atoms (16 bytes an
 * atom, 16-byte aligned) must not overlap and must be memory the device reaches. */
climb_status climb_lattice_arrays(const float *d_atoms, size_t n_atoms, const float *d_out, size_t points);

/* A GEMM's operands in memory (climb_sgemm, climb_gemm_ex): C (m x n, rows ldc apart, FP32) a span that does not
 * wrap; where kk (k, or 0 when alpha is 0 and A and B are not read) A (a_rows x a_cols, rows lda apart) and B (b_rows x
 * b_cols, rows ldb apart) of esize-byte elements too, neither overlapping C. 1 if so. No CUDA call. */
int climb_gemm_spans_ok(const void *A, size_t a_rows, size_t a_cols, size_t lda, const void *B, size_t b_rows,
                        size_t b_cols, size_t ldb, size_t esize, const void *C, size_t m, size_t n, size_t ldc,
                        size_t kk);

/* The CUDA devices there are, in *count: CLIMB_STATUS_SUCCESS, or NO_DEVICE (none, or no driver; the runtime's
 * error state cleared). */
climb_status climb_devices_here(int *count);
/* The status of a CUDA error, as every call maps it. */
climb_status climb_status_of_cuda(cudaError_t e);

/* A handle on a described device made without the CUDA runtime, for the argument tests that run where no GPU is:
 * a call on it that passes its checks goes on to its first CUDA call. climb_destroy frees it. */
climb_status climb_handle_offline(climb_handle *handle, const climb_device_info *dev);

#endif
