/* What the collectives across GPUs (allreduce, allgather, reducescatter) share of their cases: the case's GPUs, a
 * stream and an event each, the step between schedule stages (every GPU's stream waits for every other's), peer
 * access among every pair, NCCL's communicator of the GPUs, the fork from the timed stream and the join back, copies
 * between GPUs, and the kernel that sums every GPU's piece of an array over NVLink. Static inline: each workload's
 * file compiles its own. */
#ifndef CLIMB_WORKLOADS_COMMON_GPUSET_CUH
#define CLIMB_WORKLOADS_COMMON_GPUSET_CUH

#include <stdio.h>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_set.h"
#include "../../device/nccl.h"
#include "coll_exec.h"
#include "../../core/workload.h"

typedef struct climb_gpuset {
    climb_coll_exec x;                      /* ranks: the case's GPUs (rank r on x.devices[r]), a stream and an
                                               event each: what the schedules run on, for the C API too */
    int home;                               /* the run's device: current again after every hook */
    int all_access;                         /* every ordered pair can reach the other's memory */
    cudaEvent_t fork;
#if CLIMB_HAVE_NCCL
    ncclComm_t comm[CLIMB_MAX_DEVICES];
    int comm_made;
#endif
} climb_gpuset;

/* The case's GPUs, a non-blocking stream and an event (timing off) each, and which pairs reach each other. */
static inline int climb_gpuset_init(climb_gpuset *g, const climb_case_params *p)
{
    g->x.P = p->n_devices;
    g->home = p->dev->ordinal;
    g->all_access = 1;
    for (int r = 0; r < g->x.P; r++) {
        g->x.devices[r] = p->devices[r];
        g->x.sms[r] = p->devs[r].sms;
    }
    for (int a = 0; a < g->x.P; a++)
        for (int b = 0; b < g->x.P; b++) {
            int v = 0;
            if (a != b) {
                CLIMB_CHECK(cudaDeviceCanAccessPeer(&v, g->x.devices[a], g->x.devices[b]));
                g->all_access &= v;
            }
        }
    for (int r = 0; r < g->x.P; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaStreamCreateWithFlags(&g->x.st[r], cudaStreamNonBlocking));
        CLIMB_CHECK(cudaEventCreateWithFlags(&g->x.ev[r], cudaEventDisableTiming));
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    CLIMB_CHECK(cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming));
    return 0;
}

static inline void climb_gpuset_fini(climb_gpuset *g)
{
    for (int r = 0; r < g->x.P; r++) {
        cudaSetDevice(g->x.devices[r]);
        if (g->x.st[r])
            cudaStreamDestroy(g->x.st[r]);
        if (g->x.ev[r])
            cudaEventDestroy(g->x.ev[r]);
    }
    cudaSetDevice(g->home);
    if (g->fork)
        cudaEventDestroy(g->fork);
}

/* Every rank's output (out[r], bytes each; at least 1 written) set to 0xFF, and done when this returns: the
 * memsets run on each GPU's legacy stream, which the case's non-blocking streams do not wait for, and the harness
 * waits for the home GPU alone. */
static inline int climb_gpuset_poison(climb_gpuset *g, void *const *out, size_t bytes)
{
    for (int r = 0; r < g->x.P; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemset(out[r], 0xFF, bytes ? bytes : 1));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    return 0;
}

/* Every rank's stream waits for what every other rank's has issued so far: a stage of a schedule done everywhere. */
static inline int climb_gpuset_barrier(climb_gpuset *g)
{
    CLIMB_CHECK(climb_coll_barrier(&g->x));
    return 0;
}

/* Around a rung's schedule: every rank's stream forked from the timed stream s, and joined back into it. */
static inline int climb_gpuset_fork(climb_gpuset *g, cudaStream_t s)
{
    CLIMB_CHECK(cudaSetDevice(g->home));
    CLIMB_CHECK(cudaEventRecord(g->fork, s));
    for (int r = 0; r < g->x.P; r++)
        CLIMB_CHECK(cudaStreamWaitEvent(g->x.st[r], g->fork, 0));
    return 0;
}

static inline int climb_gpuset_join(climb_gpuset *g, cudaStream_t s)
{
    for (int r = 0; r < g->x.P; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaEventRecord(g->x.ev[r], g->x.st[r]));
        CLIMB_CHECK(cudaStreamWaitEvent(s, g->x.ev[r], 0));
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    return 0;
}

/* A rung's set-up, untimed: peer access on among every pair that has it (access), NCCL's communicator of the
 * GPUs (nccl; made once a case). */
static inline int climb_gpuset_prepare(climb_gpuset *g, int access, int nccl, const char *workload)
{
    for (int a = 0; access && a < g->x.P; a++)
        for (int b = 0; b < g->x.P; b++) {
            int v = 0;
            if (a == b || cudaDeviceCanAccessPeer(&v, g->x.devices[a], g->x.devices[b]) != cudaSuccess || !v)
                continue;
            CLIMB_CHECK(climb_peer_access(g->x.devices[a], g->x.devices[b], 1));
        }
    cudaGetLastError();
#if CLIMB_HAVE_NCCL
    if (nccl && !g->comm_made) {
        char why[300];
        const climb_nccl *nc = climb_nccl_get(why, sizeof why);
        const ncclResult_t e = nc ? nc->comm_init_all(g->comm, g->x.P, g->x.devices) : ncclSystemError;
        if (e != ncclSuccess) {
            fprintf(stderr, "climb: %s: NCCL's communicator of %d GPUs: %s\n", workload, g->x.P,
                    nc ? nc->error_string(e) : why);
            cudaSetDevice(g->home);
            return -1;
        }
        g->comm_made = 1;
    }
#else
    (void)nccl;
    (void)workload;
#endif
    CLIMB_CHECK(cudaSetDevice(g->home));
    return 0;
}

/* After a rung that used NCCL: its communicator destroyed. */
static inline void climb_gpuset_release(climb_gpuset *g, int nccl)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = nccl && g->comm_made ? climb_nccl_get(why, sizeof why) : NULL;
    for (int r = 0; nc && r < g->x.P; r++)
        nc->comm_destroy(g->comm[r]);
    if (nc)
        g->comm_made = 0;
#else
    (void)nccl;
#endif
    cudaSetDevice(g->home);
}

/* bytes from rank a's src to rank b's dst, on a's stream: a copy engine (over the link with peer access, through
 * the host without), or a copy on one GPU where a == b. */
static inline int climb_gpuset_copy(climb_gpuset *g, int a, const void *src, int b, void *dst, size_t bytes)
{
    if (!bytes)
        return 0;
    CLIMB_CHECK(cudaSetDevice(g->x.devices[a]));
    CLIMB_CHECK(cudaMemcpyPeerAsync(dst, g->x.devices[b], src, g->x.devices[a], bytes, g->x.st[a]));
    return 0;
}

/* The refusal of the rungs whose kernels read or write other GPUs' memory. */
static inline const char *climb_gpuset_no_access(const climb_gpuset *g)
{
    return g->all_access ? NULL
                         : "a pair of the case's GPUs has no peer access (cudaDeviceCanAccessPeer): a kernel cannot "
                           "read or write the other GPUs' memory";
}

static inline unsigned climb_gpuset_blocks(size_t n, int sms)
{
    size_t b = (n + 1023) / 1024, cap = (size_t)(sms > 0 ? sms : 1) * 4;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}

template <typename T> struct climb_gpuset_ptrs {
    const T *p[CLIMB_MAX_DEVICES];
};

/* out[i] = the sum over q = 0..P-1 of src.p[q][i], i in [0, n), in rank order (every GPU that sums the same
 * elements gets the same bits); src.p[q] may be another GPU's memory (peer access). */
template <typename T>
__global__ void __launch_bounds__(256) climb_gpuset_sum_kernel(T *__restrict__ out, climb_gpuset_ptrs<T> src, int P,
                                                               size_t n)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        T s = src.p[0][i];
        for (int q = 1; q < P; q++)
            s += src.p[q][i];
        out[i] = s;
    }
}

/* The sum kernel on rank r's stream over n elements. */
template <typename T>
static inline int climb_gpuset_sum(climb_gpuset *g, int r, T *out, const climb_gpuset_ptrs<T> &src, size_t n)
{
    if (!n)
        return 0;
    CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
    climb_gpuset_sum_kernel<T><<<climb_gpuset_blocks(n, g->x.sms[r]), 256, 0, g->x.st[r]>>>(out, src, g->x.P, n);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

#endif
