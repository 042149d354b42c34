/* What the collectives across GPUs (allreduce, allgather, reducescatter) share of their cases: the case's GPUs, a
 * stream and an event each, the step between schedule stages (every GPU's stream waits for every other's), peer
 * access among every pair, NCCL's communicator of the GPUs and the vendor rung on it, the per-GPU arrays and their
 * poison, the CPU's sums, the fork from the timed stream and the join back, copies between GPUs, the kernel that
 * sums every GPU's piece of an array over NVLink, and the table fields every collective has alike. Static inline:
 * each workload's file compiles its own.
 *
 * One process a GPU (params.procs): the same calls on every process, each issuing only its own rank's work
 * (climb_gpuset_mine); the arrays of the other ranks reached through CUDA's interprocess memory handles and their
 * events through interprocess event handles, exchanged at the case's set-up; NCCL's communicator made rank by
 * rank from an id rank 0 hands out. */
#ifndef CLIMB_WORKLOADS_COMMON_GPUSET_CUH
#define CLIMB_WORKLOADS_COMMON_GPUSET_CUH

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/procs.h"
#include "../../device/device.h"
#include "../../device/collective.h"
#include "../../device/device_primitives.cuh"
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
    void *owned[8][CLIMB_MAX_DEVICES];      /* the per-rank arrays climb_gpuset_alloc made, kept here (the caller's
                                               copy may be a local), freed by _fini (another process's: its mapping
                                               closed) */
    int n_owned;
    int opened_events;                      /* x.ev of the other ranks are interprocess handles this case opened */
#if CLIMB_HAVE_NCCL
    ncclComm_t comm[CLIMB_MAX_DEVICES];
    int comm_made;
#endif
} climb_gpuset;

/* 1 if this process issues rank r's work (every rank in one process). */
static inline int climb_gpuset_mine(const climb_gpuset *g, int r) { return climb_coll_mine(&g->x, r); }

/* The case's GPUs, a non-blocking stream and an event (timing off) each, and which pairs reach each other. */
static inline int climb_gpuset_init(climb_gpuset *g, const climb_case_params *p)
{
    g->x.P = p->n_devices;
    g->x.procs = p->procs;
    g->x.lo = p->procs ? p->procs->rank : 0;
    g->x.hi = p->procs ? p->procs->rank + 1 : p->n_devices;
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
    const unsigned flags = cudaEventDisableTiming | (g->x.procs ? cudaEventInterprocess : 0);
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaStreamCreateWithFlags(&g->x.st[r], cudaStreamNonBlocking));
        CLIMB_CHECK(cudaEventCreateWithFlags(&g->x.ev[r], flags));
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    CLIMB_CHECK(cudaEventCreateWithFlags(&g->fork, cudaEventDisableTiming));
    if (g->x.procs && !g->x.procs->one_node)
        g->all_access = 0; /* other nodes' GPUs: NCCL and the host reach them, a kernel or a copy engine does not */
    if (g->x.procs && g->x.procs->one_node) { /* every rank's event, through its interprocess handle */
        const climb_procs *pr = g->x.procs;
        cudaIpcEventHandle_t mine, all[CLIMB_MAX_DEVICES];
        if (climb_procs_check(pr, cudaIpcGetEventHandle(&mine, g->x.ev[g->x.lo]) == cudaSuccess ? 0 : -1,
                              "an event's interprocess handle") != 0 ||
            pr->allgather(pr->ctx, &mine, all, sizeof mine) != 0)
            return -1;
        g->opened_events = 1;
        for (int q = 0; q < g->x.P; q++)
            if (!climb_gpuset_mine(g, q))
                CLIMB_CHECK(cudaIpcOpenEventHandle(&g->x.ev[q], all[q]));
    }
    return 0;
}

static inline void climb_gpuset_fini(climb_gpuset *g)
{
    for (int r = 0; r < g->x.P; r++) {
        const int mine = climb_gpuset_mine(g, r);
        if (mine)
            cudaSetDevice(g->x.devices[r]);
        for (int k = 0; k < g->n_owned; k++)
            if (g->owned[k][r])
                mine ? cudaFree(g->owned[k][r]) : cudaIpcCloseMemHandle(g->owned[k][r]);
        if (g->x.st[r])
            cudaStreamDestroy(g->x.st[r]);
        if (g->x.ev[r] && (mine || g->opened_events))
            cudaEventDestroy(g->x.ev[r]);
    }
    cudaSetDevice(g->home);
    if (g->fork)
        cudaEventDestroy(g->fork);
}

/* The vendor rung of a collective: NCCL's all-reduce (sum), all-gather or reduce-scatter (sum) on the case's
 * communicator, one call a rank in one group, in[k] and out[k] on rank k, count elements (NCCL's count: the array
 * of an all-reduce, a rank's piece otherwise). 0 or -1 (printed, naming the workload). */
static inline int climb_gpuset_nccl(climb_gpuset *g, climb_coll coll, climb_dtype type, void *const *in,
                                    void *const *out, size_t count, const char *workload)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc)
        return -1;
    const ncclDataType_t t = type == CLIMB_I32 ? ncclInt32 : ncclFloat32;
    ncclResult_t r = nc->group_start();
    for (int k = g->x.lo; k < g->x.hi && r == ncclSuccess; k++)
        r = coll == CLIMB_COLL_ALL_REDUCE ? nc->all_reduce(in[k], out[k], count, t, ncclSum, g->comm[k], g->x.st[k])
            : coll == CLIMB_COLL_ALL_GATHER
                ? nc->all_gather(in[k], out[k], count, t, g->comm[k], g->x.st[k])
                : nc->reduce_scatter(in[k], out[k], count, t, ncclSum, g->comm[k], g->x.st[k]);
    const ncclResult_t end = nc->group_end();
    if (r != ncclSuccess || end != ncclSuccess) {
        const char *name = coll == CLIMB_COLL_ALL_REDUCE   ? "ncclAllReduce"
                           : coll == CLIMB_COLL_ALL_GATHER ? "ncclAllGather"
                                                           : "ncclReduceScatter";
        fprintf(stderr, "climb: %s: %s: %s\n", workload, name, nc->error_string(r != ncclSuccess ? r : end));
        return -1;
    }
    return 0;
#else
    (void)g, (void)coll, (void)type, (void)in, (void)out, (void)count, (void)workload;
    return -1;
#endif
}

/* The CPU's sums of P host arrays of n elements each, back to back in h (i32 or f32), in double: ref[i] the sum of
 * element i over the arrays, in array order, mag[i] the sum of magnitudes (the f32 tolerance's scale). */
static inline void climb_gpuset_cpu_sums(const void *h, climb_dtype type, int P, size_t n, double *ref, double *mag)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0, m = 0;
        for (int q = 0; q < P; q++) {
            const size_t k = (size_t)q * n + i;
            const double x = type == CLIMB_I32 ? ((const int32_t *)h)[k] : ((const float *)h)[k];
            s += x;
            m += fabs(x);
        }
        ref[i] = s;
        mag[i] = m;
    }
}

/* An array on every rank's GPU, per_rank[r] (bytes each, rank 0's rank0_bytes), freed by climb_gpuset_fini. The set
 * keeps its own copy of the pointers, so per_rank may be a local. 0, or -1 after saying what could not be
 * allocated. */
static inline int climb_gpuset_alloc(climb_gpuset *g, void **per_rank, size_t bytes, size_t rank0_bytes,
                                     const char *what)
{
    if (g->n_owned == (int)(sizeof g->owned / sizeof g->owned[0])) {
        fprintf(stderr, "climb: more than %d per-GPU arrays in a case\n", g->n_owned);
        return -1;
    }
    void **kept = g->owned[g->n_owned++];
    for (int q = 0; q < g->x.P; q++)
        per_rank[q] = kept[q] = NULL;
    void *alloc;
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        if (climb_procs_check(g->x.procs, climb_device_alloc_offset(r == 0 ? rank0_bytes : bytes, 0, &alloc,
                                                                    &kept[r], what),
                              "an allocation") != 0)
            return -1;
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    if (g->x.procs && g->x.procs->one_node) { /* the other ranks' arrays mapped here through their interprocess
                                                   handles */
        const climb_procs *pr = g->x.procs;
        cudaIpcMemHandle_t mine, all[CLIMB_MAX_DEVICES];
        if (climb_procs_check(pr, cudaIpcGetMemHandle(&mine, kept[g->x.lo]) == cudaSuccess ? 0 : -1,
                              "an array's interprocess handle") != 0 ||
            pr->allgather(pr->ctx, &mine, all, sizeof mine) != 0)
            return -1;
        for (int q = 0; q < g->x.P; q++)
            if (!climb_gpuset_mine(g, q))
                CLIMB_CHECK(cudaIpcOpenMemHandle(&kept[q], all[q], cudaIpcMemLazyEnablePeerAccess));
    }
    for (int q = 0; q < g->x.P; q++)
        per_rank[q] = kept[q];
    return 0;
}

/* Every rank's output (out[r], bytes each; at least 1 written) set to 0xFF, and done when this returns: the
 * memsets run on each GPU's legacy stream, which the case's non-blocking streams do not wait for, and the harness
 * waits for the home GPU alone. */
static inline int climb_gpuset_poison(climb_gpuset *g, void *const *out, size_t bytes)
{
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemset(out[r], 0xFF, bytes ? bytes : 1));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    CLIMB_CHECK(cudaSetDevice(g->home));
    return 0;
}

/* With one process a GPU: the first rank whose `bytes` at `mine` (this process's rank's copy of an output every
 * rank must hold alike) differ from rank 0's, by their hash; 0 where all agree or in one process (the caller
 * compares its own ranks); -1 where the processes could not compare. */
static inline int climb_gpuset_differs(const climb_gpuset *g, const void *mine, size_t bytes)
{
    const climb_procs *pr = g->x.procs;
    if (!pr)
        return 0;
    uint64_t h = climb_procs_hash(mine, bytes), all[CLIMB_MAX_DEVICES];
    if (pr->allgather(pr->ctx, &h, all, sizeof h) != 0)
        return -1;
    for (int q = 1; q < pr->size; q++)
        if (all[q] != all[0])
            return q;
    return 0;
}

/* With one process a rank: every process's `bytes` at `mine` into the host array `all` (rank order; mine may be
 * its own place in it), through the launcher (MPI's all-gather). 0 in one process (nothing to do), or -1. */
static inline int climb_gpuset_host_allgather(const climb_gpuset *g, const void *mine, void *all, size_t bytes)
{
    const climb_procs *pr = g->x.procs;
    return pr ? pr->allgather(pr->ctx, mine, all, bytes) : 0;
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
    for (int r = g->x.lo; r < g->x.hi; r++)
        CLIMB_CHECK(cudaStreamWaitEvent(g->x.st[r], g->fork, 0));
    return 0;
}

static inline int climb_gpuset_join(climb_gpuset *g, cudaStream_t s, int others_write)
{
    /* One process a GPU: where another rank's work writes this one's memory or reads what the caller may change next
     * (every rung but NCCL's, which orders itself, and the host's, whose all-gather does), the rung ends when every
     * rank's part has: a step between ranks first. In one process the join below takes in every rank. */
    if (g->x.procs && others_write && climb_gpuset_barrier(g))
        return -1;
    for (int r = g->x.lo; r < g->x.hi; r++) {
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
    /* (another process's arrays: their mappings turned access on already) */
    for (int a = 0; access && !g->x.procs && a < g->x.P; a++)
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
        ncclResult_t e = nc ? ncclSuccess : ncclSystemError;
        if (nc && g->x.procs) { /* rank by rank, on rank 0's id */
            const climb_procs *pr = g->x.procs;
            ncclUniqueId id;
            memset(&id, 0, sizeof id);
            if (pr->rank == 0)
                e = nc->get_unique_id(&id);
            if (climb_procs_check(pr, e == ncclSuccess ? 0 : -1, "NCCL's id") != 0 ||
                climb_procs_bcast(pr, &id, sizeof id, 0) != 0)
                return -1;
            CLIMB_CHECK(cudaSetDevice(g->x.devices[g->x.lo]));
            e = nc->comm_init_rank(&g->comm[g->x.lo], g->x.P, id, g->x.lo);
        } else if (nc) {
            e = nc->comm_init_all(g->comm, g->x.P, g->x.devices);
        }
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
    for (int r = g->x.lo; nc && r < g->x.hi; r++)
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
    if (!bytes || !climb_gpuset_mine(g, a))
        return 0;
    CLIMB_CHECK(cudaSetDevice(g->x.devices[a]));
    CLIMB_CHECK(climb_coll_copy(&g->x, a, src, b, dst, bytes));
    return 0;
}

/* The refusal of the rungs that reach other GPUs' memory at all (kernels or copy engines), where the processes of
 * a case span nodes; NULL otherwise. */
static inline const char *climb_gpuset_other_nodes(const climb_gpuset *g)
{
    return g->x.procs && !g->x.procs->one_node
               ? "the case's processes span nodes: only NCCL and the host reach another node's GPU"
               : NULL;
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

/* How many ranks' loads a thread of the sum kernel keeps in flight at once. */
#define CLIMB_SUM_LOADS 8

/* The sum over q = 0..P-1 of ((const V *)(src.p[q] + base))[i], in rank order: V the element type or its 16-byte
 * vector (climb_vec16). Up to CLIMB_SUM_LOADS ranks' loads are issued before any is added (a load over NVLink takes
 * microseconds to come back: without them in flight together, the loop would wait for each). */
/* v[j] = ((const V *)(src.p[q0 + j] + base))[i] for the ranks q0 + j below P, j < CLIMB_SUM_LOADS: the loads issued
 * together, before any is used. */
template <typename V, typename T>
__device__ __forceinline__ void climb_gpuset_load_ranks(const climb_gpuset_ptrs<T> &src, int q0, int P, size_t base,
                                                        size_t i, V (&v)[CLIMB_SUM_LOADS])
{
#pragma unroll
    for (int j = 0; j < CLIMB_SUM_LOADS; j++)
        if (q0 + j < P)
            v[j] = ((const V *)(src.p[q0 + j] + base))[i];
}

template <typename V, typename T>
__device__ __forceinline__ V climb_gpuset_sum_at(const climb_gpuset_ptrs<T> &src, int P, size_t base, size_t i)
{
    V s = ((const V *)(src.p[0] + base))[i];
    for (int q0 = 1; q0 < P; q0 += CLIMB_SUM_LOADS) {
        V v[CLIMB_SUM_LOADS];
        climb_gpuset_load_ranks<V>(src, q0, P, base, i, v);
#pragma unroll
        for (int j = 0; j < CLIMB_SUM_LOADS; j++)
            if (q0 + j < P)
                climb_vec_add(s, v[j]);
    }
    return s;
}

/* out[i] = the sum over q = 0..P-1 of src.p[q][i], i in [0, n), in rank order (every GPU that sums the same
 * elements gets the same bits); src.p[q] may be another GPU's memory (peer access). Elements [head, head + 4 x n4)
 * are read as 16-byte vectors (every pointer 16-byte aligned there), the others one by one. */
template <typename T>
__global__ void __launch_bounds__(256) climb_gpuset_sum_kernel(T *__restrict__ out, climb_gpuset_ptrs<T> src, int P,
                                                               size_t n, size_t head, size_t n4)
{
    typedef typename climb_vec16<T>::type V;
    const size_t step = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n4; i += step)
        ((V *)(out + head))[i] = climb_gpuset_sum_at<V>(src, P, head, i);
    /* the elements outside the vectors: the head, and the tail from head + 4 x n4 */
    const size_t rest = n - 4 * n4;
    for (size_t k = first; k < rest; k += step) {
        const size_t i = k < head ? k : k + 4 * n4;
        out[i] = climb_gpuset_sum_at<T>(src, P, 0, i);
    }
}

/* The sum kernel over n elements on a stream of a GPU of `sms` SMs: 16-byte loads where out and every src.p[q]
 * allow them (climb_vec4_split), else one by one. cudaSuccess or the launch's error. */
template <typename T>
static inline cudaError_t climb_gpuset_sum_launch(T *out, const climb_gpuset_ptrs<T> &src, int P, size_t n, int sms,
                                                  cudaStream_t st)
{
    static_assert(sizeof(T) == 4, "the collectives' elements are 4 bytes");
    if (!n)
        return cudaSuccess;
    const void *ptrs[CLIMB_MAX_DEVICES + 1] = {0};
    ptrs[0] = out;
    for (int q = 0; q < P; q++)
        ptrs[q + 1] = src.p[q];
    size_t head, n4;
    climb_vec4_split(ptrs, P + 1, n, &head, &n4);
    const size_t threads = n4 + (n - 4 * n4); /* one a vector, and one an element left over */
    climb_gpuset_sum_kernel<T><<<climb_gpuset_blocks(threads, sms), 256, 0, st>>>(out, src, P, n, head, n4);
    return cudaGetLastError();
}

/* The sum kernel on rank r's stream over n elements. */
template <typename T>
static inline int climb_gpuset_sum(climb_gpuset *g, int r, T *out, const climb_gpuset_ptrs<T> &src, size_t n)
{
    if (!n || !climb_gpuset_mine(g, r))
        return 0;
    CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
    CLIMB_CHECK(climb_gpuset_sum_launch<T>(out, src, g->x.P, n, g->x.sms[r], g->x.st[r]));
    return 0;
}

/* What every collective's table says alike: one size n (elements), i32 and f32, two GPUs to the most; rated in
 * nccl-tests' bus bytes against the links, with no ceiling of one GPU beside them. */
#define CLIMB_COLLECTIVE_CASES                                                                                         \
    .dims = {"n"}, .types = CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32), .min_devices = 2,                   \
    .max_devices = CLIMB_MAX_DEVICES
#define CLIMB_COLLECTIVE_RATE .items_unit = "bus bytes", .items_rate = "GB/s", .extra_ceiling = CLIMB_CEIL_NONE

#endif
