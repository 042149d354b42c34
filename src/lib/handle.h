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

typedef struct climb_slot {
    const climb_workload *w;
    int resolved;                         /* the values below were looked up (wisdom file read) */
    int from_wisdom;                      /* 1: values came from a wisdom file, for every case */
    int values[CLIMB_MAX_TUNABLES];       /* the wisdom's values (from_wisdom) */
    char line[700];                       /* where the values come from, for climb_get_tuning */
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

/* Starts a call of workload w on case `key` (shape and type): makes the handle's device current, resolves the
 * tuned values (wisdom, else the defaults for the case). CLIMB_STATUS_SUCCESS, or the status to return. */
climb_status climb_call_begin(climb_handle h, const climb_workload *w, const climb_tuning_key *key, climb_call *c);
/* A workspace of at least `bytes` on the handle's device (grown when too small; zeroed on the call's stream
 * when `zeroed`, for workloads that keep it zeroed between calls). */
cudaError_t climb_call_workspace(climb_call *c, size_t bytes, int zeroed, void **ws, size_t *ws_bytes);
/* Puts the caller's device back and maps e to a status (recorded for climb_last_cuda_error). */
climb_status climb_call_end(climb_call *c, cudaError_t e);

/* 1 if the handle's device can read or write p (device, managed or mapped host memory) and p is aligned to
 * `align`; host memory the device cannot reach is refused here rather than faulting later. */
int climb_device_reachable(const void *p, size_t align);

#endif
