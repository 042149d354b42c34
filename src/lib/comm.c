/* The communicator of the C API across GPUs: climb_comm_create and _destroy (and the rank form over NCCL), its
 * streams and workspace, the check of a collective's arrays, and the ordering its calls share (climb_comm_begin,
 * climb_comm_end). The calls themselves live with their workloads' API files (src/lib/allreduce.c, allgather.c,
 * reducescatter.c, peer.c). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../device/device.h"
#include "../device/nccl.h"
#include "../device/collective.h"
#include "../workloads/allreduce.h"
#include "../workloads/common/flag_lines.h"

static void release(struct climb_comm_s *c)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = c->nccl ? climb_nccl_get(why, sizeof why) : NULL;
    if (nc)
        (c->nccl_failed ? nc->comm_abort : nc->comm_destroy)((ncclComm_t)c->nccl);
#endif
    for (int r = 0; !c->offline && r < c->P; r++) {
        if (cudaSetDevice(c->devices[r]) != cudaSuccess)
            continue;
        if (c->ev[r])
            cudaEventDestroy(c->ev[r]);
        if (c->aux[r])
            cudaStreamDestroy(c->aux[r]);
        for (int k = 0; k < 4; k++)
            if (c->aux_ev[r][k])
                cudaEventDestroy(c->aux_ev[r][k]);
        cudaFree(c->ws[r]);
        cudaFree(c->flag_lines[r]);
        cudaFree(c->flag_state[r]);
        cudaFree(c->flag_meet[r]);
        for (int i = r; i < c->n_retired; i += c->P)
            cudaFree(c->retired[i]);
    }
    cudaGetLastError();
    free(c->retired);
    free(c);
}

cudaError_t climb_comm_workspace(struct climb_comm_s *c, size_t bytes)
{
    if (bytes <= c->ws_bytes)
        return cudaSuccess;
    size_t want = c->ws_bytes * 2 > bytes ? c->ws_bytes * 2 : bytes;
    if (c->ws_bytes && c->n_retired + c->P > c->cap_retired) {
        const int cap = c->cap_retired ? c->cap_retired * 2 : 4 * c->P;
        void **more = realloc(c->retired, sizeof *more * (size_t)cap);
        if (!more)
            return cudaErrorMemoryAllocation;
        c->retired = more;
        c->cap_retired = cap;
    }
    void *fresh[CLIMB_MAX_DEVICES] = {0};
    int prev = 0;
    cudaGetDevice(&prev);
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < c->P && e == cudaSuccess; r++)
        if ((e = cudaSetDevice(c->devices[r])) == cudaSuccess)
            e = cudaMalloc(&fresh[r], want);
    if (e != cudaSuccess)
        for (int r = 0; r < c->P; r++)
            if (fresh[r] && cudaSetDevice(c->devices[r]) == cudaSuccess)
                cudaFree(fresh[r]);
    climb_relaxed_end(mode);
    cudaSetDevice(prev);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return e;
    }
    for (int r = 0; r < c->P; r++) {
        if (c->ws[r])
            c->retired[c->n_retired++] = c->ws[r];
        c->ws[r] = fresh[r];
    }
    c->ws_bytes = want;
    return cudaSuccess;
}

/* The list: 1..CLIMB_MAX_DEVICES ordinals, each once and not negative. No CUDA call. */
static int list_ok(int ndev, const int *devices)
{
    if (ndev < 1 || ndev > CLIMB_MAX_DEVICES || !devices)
        return 0;
    for (int i = 0; i < ndev; i++) {
        if (devices[i] < 0)
            return 0;
        for (int j = 0; j < i; j++)
            if (devices[j] == devices[i])
                return 0;
    }
    return 1;
}

/* The all-reduce's workspace on every rank's GPU for the kernels whose GPUs meet inside them (the flag kernel's
 * lines for the arrays the best rung sums with it, the fused two shots' meeting points, their shared state),
 * cleared on a stream of its own (never the legacy stream, which a capture elsewhere may not allow). */
static cudaError_t flag_workspace(struct climb_comm_s *c)
{
    const size_t cap = climb_flag_cap(4);
    const size_t lines = climb_flag_lines_bytes(c->P, cap), state = CLIMB_FLAG_STATE_BYTES;
    const size_t meet = climb_allreduce_meet_bytes(c->P);
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < c->P && e == cudaSuccess; r++) {
        cudaStream_t s = NULL;
        if ((e = cudaSetDevice(c->devices[r])) == cudaSuccess && (e = cudaMalloc(&c->flag_lines[r], lines)) ==
                cudaSuccess && (e = cudaMalloc(&c->flag_state[r], state)) == cudaSuccess &&
            (e = cudaMalloc(&c->flag_meet[r], meet)) == cudaSuccess &&
            (e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) == cudaSuccess &&
            (e = cudaMemsetAsync(c->flag_lines[r], 0, lines, s)) == cudaSuccess &&
            (e = cudaMemsetAsync(c->flag_state[r], 0, state, s)) == cudaSuccess &&
            (e = cudaMemsetAsync(c->flag_meet[r], 0, meet, s)) == cudaSuccess)
            e = cudaStreamSynchronize(s);
        if (s)
            cudaStreamDestroy(s);
    }
    c->flag_cap = e == cudaSuccess ? cap : 0;
    return e;
}

climb_status climb_comm_create(climb_comm *comm, int ndev, const int *devices)
{
    if (!comm)
        return CLIMB_STATUS_INVALID_VALUE;
    *comm = NULL;
    if (!list_ok(ndev, devices))
        return CLIMB_STATUS_INVALID_VALUE;
    int count = 0;
    if (climb_devices_here(&count) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_NO_DEVICE;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < ndev; i++)
        if (devices[i] >= count)
            return CLIMB_STATUS_INVALID_DEVICE;
    struct climb_comm_s *c = calloc(1, sizeof *c);
    if (!c)
        return CLIMB_STATUS_ALLOC_FAILED;
    c->P = c->nranks = ndev;
    memcpy(c->devices, devices, sizeof *devices * (size_t)ndev);
    int prev = 0;
    cudaGetDevice(&prev);
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin(); /* a capture elsewhere stays valid */
    c->all_access = 1;
    for (int r = 0; r < ndev && e == cudaSuccess; r++) {
        climb_device_info info;
        char why[400];
        memset(&info, 0, sizeof info);
        e = climb_device_read(devices[r], &info);
        if (e == cudaSuccess && climb_device_code_check(&info, why, sizeof why) != 0)
            e = cudaErrorNoKernelImageForDevice;
        c->sms[r] = info.sms;
        if (e == cudaSuccess)
            e = cudaSetDevice(devices[r]);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&c->ev[r], cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&c->aux[r], cudaStreamNonBlocking);
        for (int k = 0; k < 4 && e == cudaSuccess; k++)
            e = cudaEventCreateWithFlags(&c->aux_ev[r][k], cudaEventDisableTiming);
        c->st[r] = 0; /* the GPU's legacy default stream, as a handle's */
        for (int q = 0; q < ndev && e == cudaSuccess; q++) {
            int can = 0;
            if (q == r)
                continue;
            e = cudaDeviceCanAccessPeer(&can, devices[r], devices[q]);
            if (e == cudaSuccess && can)
                e = climb_peer_access(devices[r], devices[q], 1);
            c->access[r][q] = (unsigned char)(e == cudaSuccess && can);
            c->all_access &= c->access[r][q];
        }
    }
    if (e == cudaSuccess && c->all_access && ndev > 1)
        e = flag_workspace(c);
    cudaSetDevice(prev);
    climb_relaxed_end(mode);
    if (e != cudaSuccess) {
        release(c);
        cudaGetLastError();
        return climb_status_of_cuda(e);
    }
    *comm = c;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_comm_offline(climb_comm *comm, int ndev, const int *devices, int all_access)
{
    if (!comm || !list_ok(ndev, devices))
        return CLIMB_STATUS_INVALID_VALUE;
    struct climb_comm_s *c = calloc(1, sizeof *c);
    if (!c)
        return CLIMB_STATUS_ALLOC_FAILED;
    c->P = c->nranks = ndev;
    c->offline = 1;
    c->all_access = all_access;
    for (int r = 0; r < ndev; r++) {
        c->devices[r] = devices[r];
        c->sms[r] = 132;
        for (int q = 0; q < ndev; q++)
            c->access[r][q] = (unsigned char)(q != r && all_access);
    }
    *comm = c;
    return CLIMB_STATUS_SUCCESS;
}

#if CLIMB_HAVE_NCCL
/* How long climb waits on NCCL for the other ranks: $CLIMB_COMM_TIMEOUT seconds, else 300. */
static double comm_timeout(void)
{
    const char *e = getenv("CLIMB_COMM_TIMEOUT");
    const double v = e ? atof(e) : 0;
    return v > 0 ? v : 300;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A non-blocking communicator's state once its last operation has settled: ncclSuccess, its error, or
 * ncclInProgress still after comm_timeout() (the other ranks did not come). */
static ncclResult_t nccl_settle(const climb_nccl *nc, ncclComm_t comm)
{
    const double until = now_s() + comm_timeout();
    ncclResult_t st = ncclInProgress;
    while (nc->comm_get_async_error(comm, &st) == ncclSuccess && st == ncclInProgress && now_s() < until) {
        const struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return st;
}

/* The end of a rank-form call through NCCL: a non-blocking communicator settled (its work enqueued), the caller's
 * device back, the status (a failure marks the communicator to be aborted, not waited for, by destroy). */
static climb_status nccl_finish(struct climb_comm_s *c, const climb_nccl *nc, ncclResult_t r, int prev)
{
    if (r == ncclInProgress)
        r = nccl_settle(nc, (ncclComm_t)c->nccl);
    cudaSetDevice(prev);
    const cudaError_t e = cudaGetLastError();
    if (r != ncclSuccess) {
        c->nccl_failed = 1;
        c->last = e != cudaSuccess ? e : cudaErrorUnknown;
        return CLIMB_STATUS_LAUNCH_FAILED;
    }
    c->last = cudaSuccess;
    return CLIMB_STATUS_SUCCESS;
}
#endif

climb_status climb_comm_get_id(climb_comm_id *id)
{
    if (!id)
        return CLIMB_STATUS_INVALID_VALUE;
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc)
        return CLIMB_STATUS_NOT_SUPPORTED;
    ncclUniqueId u;
    if (sizeof u > sizeof id->bytes || nc->get_unique_id(&u) != ncclSuccess)
        return CLIMB_STATUS_INTERNAL_ERROR;
    memset(id->bytes, 0, sizeof id->bytes);
    memcpy(id->bytes, &u, sizeof u);
    return CLIMB_STATUS_SUCCESS;
#else
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_init_rank(climb_comm *comm, int nranks, climb_comm_id id, int rank, int device)
{
    if (!comm)
        return CLIMB_STATUS_INVALID_VALUE;
    *comm = NULL;
    if (nranks < 1 || rank < 0 || rank >= nranks || device < 0)
        return CLIMB_STATUS_INVALID_VALUE;
    int count = 0;
    if (climb_devices_here(&count) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_NO_DEVICE;
    if (device >= count)
        return CLIMB_STATUS_INVALID_DEVICE;
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc)
        return CLIMB_STATUS_NOT_SUPPORTED;
    climb_comm c = NULL;
    climb_status st = climb_comm_create(&c, 1, &device); /* the stream, event and facts of this rank's GPU */
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    c->nranks = nranks;
    c->rank = rank;
    c->all_access = 0; /* no other GPU is in this process */
    int prev = 0;
    cudaGetDevice(&prev);
    ncclUniqueId u;
    memcpy(&u, id.bytes, sizeof u);
    ncclComm_t nccl = NULL;
    /* Non-blocking, so that a rank that never comes is a timeout here rather than a hang inside NCCL. */
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclResult_t r = cudaSetDevice(device) == cudaSuccess
                         ? nc->comm_init_rank_config(&nccl, nranks, u, rank, &config)
                         : ncclUnhandledCudaError;
    if (nccl && (r == ncclSuccess || r == ncclInProgress))
        r = nccl_settle(nc, nccl);
    cudaSetDevice(prev);
    cudaGetLastError();
    if (r != ncclSuccess) {
        if (nccl)
            nc->comm_abort(nccl);
        climb_comm_destroy(c);
        return r == ncclInvalidArgument || r == ncclInvalidUsage ? CLIMB_STATUS_INVALID_VALUE
                                                                 : CLIMB_STATUS_LAUNCH_FAILED;
    }
    c->nccl = nccl;
    *comm = c;
    return CLIMB_STATUS_SUCCESS;
#else
    (void)id;
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_ranks(climb_comm c, int *nranks, int *rank)
{
    if (!c || !nranks || !rank)
        return CLIMB_STATUS_INVALID_VALUE;
    *nranks = c->nranks;
    *rank = c->rank;
    return CLIMB_STATUS_SUCCESS;
}

#if CLIMB_HAVE_NCCL
/* The start of a rank-form call through NCCL: the library (NULL where NCCL does not open or the communicator is not
 * of the rank form), the caller's device kept in *prev, the runtime's error state cleared, this rank's GPU current
 * (0; -1 where it cannot be made so). */
static const climb_nccl *nccl_begin(const struct climb_comm_s *c, int *prev, int *on_gpu)
{
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc || !c->nccl)
        return NULL;
    *prev = 0;
    cudaGetDevice(prev);
    cudaGetLastError();
    *on_gpu = cudaSetDevice(c->devices[0]) == cudaSuccess;
    return nc;
}

typedef climb_comm_xfer nccl_op;

/* The sends and receives in one group on this rank's stream (4-byte words: NCCL moves them as they are). */
static climb_status nccl_group(struct climb_comm_s *c, const nccl_op *ops, int n)
{
    int prev, on_gpu;
    const climb_nccl *nc = nccl_begin(c, &prev, &on_gpu);
    if (!nc)
        return CLIMB_STATUS_NOT_SUPPORTED;
    ncclComm_t comm = (ncclComm_t)c->nccl;
    ncclResult_t r = on_gpu ? nc->group_start() : ncclUnhandledCudaError;
    for (int i = 0; i < n && r == ncclSuccess; i++)
        if (ops[i].words)
            r = ops[i].send ? nc->send(ops[i].send, ops[i].words, ncclFloat32, ops[i].peer, comm, c->st[0])
                            : nc->recv(ops[i].recv, ops[i].words, ncclFloat32, ops[i].peer, comm, c->st[0]);
    const ncclResult_t end = on_gpu ? nc->group_end() : r;
    return nccl_finish(c, nc, r == ncclSuccess ? end : r, prev);
}
#endif

climb_status climb_comm_nccl_call(struct climb_comm_s *c, int what, climb_dtype t, const void *in, void *out,
                                  size_t n)
{
#if CLIMB_HAVE_NCCL
    int prev, on_gpu;
    const climb_nccl *nc = nccl_begin(c, &prev, &on_gpu);
    if (!nc)
        return CLIMB_STATUS_NOT_SUPPORTED;
    const ncclDataType_t dt = t == CLIMB_I32 ? ncclInt32 : ncclFloat32;
    ncclComm_t comm = (ncclComm_t)c->nccl;
    ncclResult_t r = ncclUnhandledCudaError;
    if (on_gpu)
        r = what == 0   ? nc->all_reduce(in, out, n, dt, ncclSum, comm, c->st[0])
            : what == 1 ? nc->all_gather(in, out, n, dt, comm, c->st[0])
                        : nc->reduce_scatter(in, out, n, dt, ncclSum, comm, c->st[0]);
    return nccl_finish(c, nc, r, prev);
#else
    (void)c;
    (void)what;
    (void)t;
    (void)in;
    (void)out;
    (void)n;
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_nccl_halos(struct climb_comm_s *c, const float *send_below, float *recv_below,
                                   const float *send_above, float *recv_above, size_t count)
{
#if CLIMB_HAVE_NCCL
    nccl_op ops[4];
    int n = 0;
    if (send_below)
        ops[n++] = (nccl_op){c->rank - 1, send_below, NULL, count};
    if (recv_below)
        ops[n++] = (nccl_op){c->rank - 1, NULL, recv_below, count};
    if (send_above)
        ops[n++] = (nccl_op){c->rank + 1, send_above, NULL, count};
    if (recv_above)
        ops[n++] = (nccl_op){c->rank + 1, NULL, recv_above, count};
    return nccl_group(c, ops, n);
#else
    (void)c;
    (void)send_below;
    (void)recv_below;
    (void)send_above;
    (void)recv_above;
    (void)count;
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_nccl_pieces(struct climb_comm_s *c, const float *mine, float *all, const size_t *off,
                                    const size_t *count)
{
#if CLIMB_HAVE_NCCL
    nccl_op ops[2 * CLIMB_MAX_RANKS];
    int n = 0;
    for (int q = 0; q < c->nranks && q < CLIMB_MAX_RANKS; q++) {
        if (q == c->rank)
            continue;
        ops[n++] = (nccl_op){q, mine, NULL, count[c->rank]};
        ops[n++] = (nccl_op){q, NULL, all + off[q], count[q]};
    }
    return nccl_group(c, ops, n);
#else
    (void)c;
    (void)mine;
    (void)all;
    (void)off;
    (void)count;
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_nccl_group(struct climb_comm_s *c, const climb_comm_xfer *ops, int n)
{
#if CLIMB_HAVE_NCCL
    return nccl_group(c, ops, n);
#else
    (void)c;
    (void)ops;
    (void)n;
    return CLIMB_STATUS_NOT_SUPPORTED;
#endif
}

climb_status climb_comm_destroy(climb_comm c)
{
    if (!c)
        return CLIMB_STATUS_SUCCESS;
    cudaError_t e = cudaSuccess;
    int prev = 0;
    cudaGetDevice(&prev);
    for (int r = 0; !c->offline && r < c->P; r++)
        if (cudaSetDevice(c->devices[r]) == cudaSuccess && climb_stream_capturing(c->st[r])) {
            cudaSetDevice(prev);
            return CLIMB_STATUS_CAPTURE_UNSUPPORTED;
        }
    for (int r = 0; !c->offline && r < c->P; r++) {
        cudaError_t f = cudaSetDevice(c->devices[r]);
        if (f == cudaSuccess)
            f = cudaStreamSynchronize(c->st[r]);
        if (e == cudaSuccess)
            e = f;
    }
    release(c);
    cudaSetDevice(prev);
    cudaGetLastError();
    return climb_status_of_cuda(e);
}

climb_status climb_comm_size(climb_comm c, int *ndev)
{
    if (!c || !ndev)
        return CLIMB_STATUS_INVALID_VALUE;
    *ndev = c->P;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_comm_set_stream(climb_comm c, int rank, cudaStream_t stream)
{
    if (!c || rank < 0 || rank >= c->P)
        return CLIMB_STATUS_INVALID_VALUE;
    c->st[rank] = stream;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_comm_get_stream(climb_comm c, int rank, cudaStream_t *stream)
{
    if (!c || !stream || rank < 0 || rank >= c->P)
        return CLIMB_STATUS_INVALID_VALUE;
    *stream = c->st[rank];
    return CLIMB_STATUS_SUCCESS;
}

cudaError_t climb_comm_last_cuda_error(climb_comm c) { return c ? c->last : cudaErrorInvalidValue; }

int climb_comm_reachable(const struct climb_comm_s *c, int r, const void *p, size_t align)
{
    return climb_pointer_reachable(p, align, c->devices[r]);
}

climb_status climb_comm_arrays(const struct climb_comm_s *c, const void *const *in, size_t in_elems,
                               const void *const *out, size_t out_elems, int in_place_ok, int *in_place)
{
    if (!in || !out)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_span si[CLIMB_MAX_DEVICES], so[CLIMB_MAX_DEVICES];
    int same = 0;
    for (int r = 0; r < c->P; r++) {
        if (!climb_span_of(in[r], in_elems, 4, &si[r]) || !climb_span_of(out[r], out_elems, 4, &so[r]))
            return CLIMB_STATUS_INVALID_VALUE;
        same += in[r] == out[r];
    }
    *in_place = in_place_ok && same == c->P && in_elems == out_elems;
    if (same && !*in_place)
        return CLIMB_STATUS_INVALID_VALUE; /* in place on some ranks only, or where the call has no in-place form */
    for (int r = 0; r < c->P; r++)
        for (int q = 0; q < c->P; q++) {
            if (!(*in_place && q == r) && climb_spans_overlap(so[r], si[q]))
                return CLIMB_STATUS_INVALID_VALUE;
            if (q != r && climb_spans_overlap(so[r], so[q]))
                return CLIMB_STATUS_INVALID_VALUE;
        }
    for (int r = 0; r < c->P; r++)
        if (!climb_comm_reachable(c, r, in[r], 4) || !climb_comm_reachable(c, r, out[r], 4))
            return CLIMB_STATUS_INVALID_VALUE;
    return CLIMB_STATUS_SUCCESS;
}

void climb_comm_exec(const struct climb_comm_s *c, climb_coll_exec *x)
{
    x->P = c->P;
    x->lo = 0;
    x->hi = c->P;
    x->procs = NULL;
    for (int r = 0; r < c->P; r++) {
        x->devices[r] = c->devices[r];
        x->sms[r] = c->sms[r];
        x->st[r] = c->st[r];
        x->ev[r] = c->ev[r];
    }
}

void climb_comm_exec_rank(const struct climb_comm_s *c, climb_coll_exec *x)
{
    memset(x, 0, sizeof *x);
    x->P = c->nranks;
    x->lo = c->rank;
    x->hi = c->rank + 1;
    x->devices[c->rank] = c->devices[0];
    x->sms[c->rank] = c->sms[0];
    x->st[c->rank] = c->st[0];
}

static cudaError_t record_on(struct climb_comm_s *c, int r)
{
    cudaError_t e = cudaSetDevice(c->devices[r]);
    return e == cudaSuccess ? cudaEventRecord(c->ev[r], c->st[r]) : e;
}

static cudaError_t wait_on(struct climb_comm_s *c, int r, int q)
{
    cudaError_t e = cudaSetDevice(c->devices[r]);
    return e == cudaSuccess ? cudaStreamWaitEvent(c->st[r], c->ev[q], 0) : e;
}

cudaError_t climb_comm_begin(struct climb_comm_s *c, int origin, const int *ranks, int n_ranks, climb_comm_call *call)
{
    call->c = c;
    call->origin = origin;
    call->prev = 0;
    cudaGetDevice(&call->prev);
    cudaGetLastError();
    call->n_ranks = ranks ? n_ranks : c->P;
    for (int i = 0; i < call->n_ranks; i++)
        call->ranks[i] = ranks ? ranks[i] : i;
    /* The others forked from the origin (a capture begun there takes them in), then each waits for the work the
     * others had issued before the call. */
    cudaError_t e = record_on(c, origin);
    for (int i = 0; i < call->n_ranks && e == cudaSuccess; i++)
        if (call->ranks[i] != origin)
            e = wait_on(c, call->ranks[i], origin);
    for (int i = 0; i < call->n_ranks && e == cudaSuccess; i++)
        e = record_on(c, call->ranks[i]);
    for (int i = 0; i < call->n_ranks && e == cudaSuccess; i++)
        for (int j = 0; j < call->n_ranks && e == cudaSuccess; j++)
            if (i != j)
                e = wait_on(c, call->ranks[i], call->ranks[j]);
    return e;
}

climb_status climb_comm_end(climb_comm_call *call, cudaError_t e)
{
    struct climb_comm_s *c = call->c;
    /* Joined back into the origin; outside a capture the others then wait for the whole call too. */
    for (int i = 0; i < call->n_ranks && e == cudaSuccess; i++)
        if (call->ranks[i] != call->origin && (e = record_on(c, call->ranks[i])) == cudaSuccess)
            e = wait_on(c, call->origin, call->ranks[i]);
    if (e == cudaSuccess && !climb_stream_capturing(c->st[call->origin])) {
        e = record_on(c, call->origin);
        for (int i = 0; i < call->n_ranks && e == cudaSuccess; i++)
            if (call->ranks[i] != call->origin)
                e = wait_on(c, call->ranks[i], call->origin);
    }
    cudaSetDevice(call->prev);
    cudaGetLastError();
    c->last = e;
    return climb_status_of_cuda(e);
}
