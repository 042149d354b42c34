/* The GPUs a collective's schedule runs on, as the workloads across GPUs and the C API's communicator both hand
 * them over (C): each rank's device, SM count, stream and event (timing off), and the step between stages. */
#ifndef CLIMB_WORKLOADS_COMMON_COLL_EXEC_H
#define CLIMB_WORKLOADS_COMMON_COLL_EXEC_H

#include <cuda_runtime_api.h>

#include "../../base/procs.h"
#include "../../device/device_set.h"

typedef struct climb_coll_exec {
    int P;
    int devices[CLIMB_MAX_DEVICES];
    int sms[CLIMB_MAX_DEVICES];
    cudaStream_t st[CLIMB_MAX_DEVICES];     /* the ranks this process drives: [lo, hi) */
    cudaEvent_t ev[CLIMB_MAX_DEVICES];      /* every rank's (another process's through its interprocess handle) */
    int lo, hi;                             /* the ranks this process issues work for: all (0, P) in one process */
    const climb_procs *procs;               /* NULL: one process; else one process a rank (lo = rank, hi = lo + 1) */
} climb_coll_exec;

/* A schedule's CUDA call for a state e that records failures (fields err, a cudaError_t, and why, a const char *:
 * the library's schedules print nothing): on failure the error and what the call was go there, and the enclosing
 * function returns -1. */
#define CLIMB_SCHED_TRY(e, call, what)                                                                             \
    do {                                                                                                           \
        const cudaError_t climb_sched_e_ = (call);                                                                 \
        if (climb_sched_e_ != cudaSuccess) {                                                                       \
            (e)->err = climb_sched_e_;                                                                             \
            (e)->why = (what);                                                                                     \
            return -1;                                                                                             \
        }                                                                                                          \
    } while (0)

/* 1 if this process issues rank r's work. */
static inline int climb_coll_mine(const climb_coll_exec *x, int r) { return r >= x->lo && r < x->hi; }

/* bytes from one GPU's array to another's on stream s, by a copy engine. Unified addressing names both devices in the
 * pointers, so this is cudaMemcpyAsync with cudaMemcpyDefault rather than cudaMemcpyPeerAsync: the same copy (over
 * NVLink with peer access, staged by the driver without), but one a stream capture accepts (cudaMemcpyPeerAsync is
 * refused while capturing, which would break every call the C API lets a user capture into a CUDA graph). */
static inline cudaError_t climb_copy_across(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
}

/* bytes from rank r's src to rank q's dst on r's stream, by a copy engine (with one process a rank, q's array is
 * mapped into r's context: one address space either way). */
static inline cudaError_t climb_coll_copy(const climb_coll_exec *x, int r, const void *src, int q, void *dst,
                                          size_t bytes)
{
    (void)q;
    return climb_copy_across(dst, src, bytes, x->st[r]);
}

/* Every rank's stream waits for what every other rank's has issued so far. Leaves another device current. With one
 * process a rank: each records its event, all meet (the records are made before anyone waits on them), each
 * stream waits for every other's event, and all meet again (nobody records the next stage's before every wait on
 * this one's is in place). */
static inline cudaError_t climb_coll_barrier(const climb_coll_exec *x)
{
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++)
        if ((e = cudaSetDevice(x->devices[r])) == cudaSuccess)
            e = cudaEventRecord(x->ev[r], x->st[r]);
    if (x->procs && climb_procs_check(x->procs, e == cudaSuccess ? x->procs->barrier(x->procs->ctx) : -1,
                                      "a step between GPUs") != 0)
        return cudaErrorUnknown;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        e = cudaSetDevice(x->devices[r]);
        for (int q = 0; q < x->P && e == cudaSuccess; q++)
            if (q != r)
                e = cudaStreamWaitEvent(x->st[r], x->ev[q], 0);
    }
    if (x->procs && climb_procs_check(x->procs, e == cudaSuccess ? x->procs->barrier(x->procs->ctx) : -1,
                                      "a step between GPUs") != 0)
        return cudaErrorUnknown;
    return e;
}

#endif
