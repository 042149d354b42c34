/* Inside the library face: a communicator of several GPUs (climb_comm_*), and the ordering its calls share. */
#ifndef CLIMB_LIB_COMM_H
#define CLIMB_LIB_COMM_H

#include "climb.h"
#include "../device/device_set.h"
#include "../workloads/common/coll_exec.h"
#include "../base/types.h"

struct climb_comm_s {
    int P;
    int devices[CLIMB_MAX_DEVICES];
    int sms[CLIMB_MAX_DEVICES];
    int all_access;                          /* peer access on between every ordered pair */
    unsigned char access[CLIMB_MAX_DEVICES][CLIMB_MAX_DEVICES]; /* access[a][b]: rank a reaches rank b's memory */
    cudaStream_t st[CLIMB_MAX_DEVICES];      /* the streams calls run on: 0 (each GPU's legacy stream) or the caller's */
    cudaEvent_t ev[CLIMB_MAX_DEVICES];       /* one a rank, timing off, on its device */
    cudaError_t last;
    int offline;                             /* made by climb_comm_offline: no CUDA objects */
    int nranks, rank;                        /* the whole communicator's ranks and this process's first */
    void *nccl;                              /* the rank form's NCCL communicator (ncclComm_t), else NULL */
    int nccl_failed;                         /* a call on it failed: destroy aborts rather than waits */
    void *ws[CLIMB_MAX_DEVICES];             /* a workspace of ws_bytes on each rank's GPU (climb_comm_workspace) */
    size_t ws_bytes;
    void *flag_lines[CLIMB_MAX_DEVICES];     /* the all-reduce's flag workspace on each rank's GPU (climb_comm_create */
    void *flag_state[CLIMB_MAX_DEVICES];     /* where every pair has peer access), zero at the start, and its state */
    void *flag_meet[CLIMB_MAX_DEVICES];      /* the fused two shots' meeting points beside them, zero at the start */
    cudaStream_t aux[CLIMB_MAX_DEVICES];     /* a second stream a rank for copies under a rank's work (the SGEMM's
                                                panels), joined to the rank's stream by events, and its events */
    cudaEvent_t aux_ev[CLIMB_MAX_DEVICES][4];
    size_t flag_cap;                         /* elements it holds (0: none) */
    void **retired;                          /* outgrown workspaces (rank after rank), freed by climb_comm_destroy */
    int n_retired, cap_retired;
};

/* A workspace of at least `bytes` on every rank's GPU in c->ws (grown at least twofold, outside any capture: this
 * thread's capture mode relaxed for the allocation; an outgrown one kept until climb_comm_destroy, as a graph
 * captured earlier may use it). cudaSuccess or the allocation's error (the caller's device kept). */
cudaError_t climb_comm_workspace(struct climb_comm_s *c, size_t bytes);

/* A communicator of described devices made without the CUDA runtime, for the argument tests where no GPU is: a
 * call that passes its checks goes on to its first CUDA call. every pair reaches every other when all_access.
 * climb_comm_destroy frees it. */
climb_status climb_comm_offline(climb_comm *comm, int ndev, const int *devices, int all_access);

/* 1 when p is memory rank r's device can use (device or managed memory, or mapped host memory), aligned to align.
 * The one CUDA call a check makes (cudaPointerGetAttributes). */
int climb_comm_reachable(const struct climb_comm_s *c, int r, const void *p, size_t align);

/* The arrays of a collective, checked in the API's order after the scalars: in and out non-NULL, each rank's
 * in[r] of in_elems and out[r] of out_elems 4-byte elements (extents that must not wrap), no output over any input
 * or other output (in place, in[r] == out[r] on every rank, allowed where in_place_ok: then on every rank or none),
 * then every pointer memory its own rank's GPU reaches, 4-byte aligned. SUCCESS or INVALID_VALUE; *in_place set. */
climb_status climb_comm_arrays(const struct climb_comm_s *c, const void *const *in, size_t in_elems,
                               const void *const *out, size_t out_elems, int in_place_ok, int *in_place);

/* The communicator's GPUs, SM counts, streams and events as the schedules take them. */
void climb_comm_exec(const struct climb_comm_s *c, climb_coll_exec *x);
/* The rank form's: every rank of the communicator counted (x->P = nranks), this process's alone driven (lo = rank,
 * hi = rank + 1: its GPU, SM count and stream at that rank; no events). */
void climb_comm_exec_rank(const struct climb_comm_s *c, climb_coll_exec *x);

/* The rank form's collectives through NCCL (src/lib/comm.c): what = 0 all-reduce (sum), 1 all-gather, 2
 * reduce-scatter (sum); n as the call's. The status to return (NOT_SUPPORTED without NCCL). */
climb_status climb_comm_nccl_call(struct climb_comm_s *c, int what, climb_dtype t, const void *in, void *out,
                                  size_t n);

/* The rank form's halo exchange through NCCL, on this rank's stream after the work issued so far: count floats of
 * send_below to rank - 1 and of send_above to rank + 1, into recv_below from rank - 1 and recv_above from rank + 1,
 * in one group (NULL pairs where that neighbour does not exist). The status to return (NOT_SUPPORTED without
 * NCCL). */
climb_status climb_comm_nccl_halos(struct climb_comm_s *c, const float *send_below, float *recv_below,
                                   const float *send_above, float *recv_above, size_t count);

/* The rank form's pieces to every rank through NCCL, on this rank's stream after the work issued so far: this rank's
 * count[rank] floats of mine to every other rank, and every other rank q's count[q] floats into all + off[q], in
 * one group. The status to return (NOT_SUPPORTED without NCCL). */
climb_status climb_comm_nccl_pieces(struct climb_comm_s *c, const float *mine, float *all, const size_t *off,
                                    const size_t *count);

/* One send (send set) or receive (into recv) of `words` 4-byte words with rank `peer`. */
typedef struct climb_comm_xfer {
    int peer;
    const void *send;
    void *recv;
    size_t words;
} climb_comm_xfer;
/* The rank form's sends and receives in one NCCL group on this rank's stream, after the work issued so far: each
 * pair of ranks matches its sends and receives in the order listed. The status to return (NOT_SUPPORTED without
 * NCCL). */
climb_status climb_comm_nccl_group(struct climb_comm_s *c, const climb_comm_xfer *ops, int n);

/* Around a call's work: the caller's device kept, the runtime's error state cleared. begin forks the ranks in
 * `ranks` (mask of rank numbers; NULL: all) from the stream of rank `origin` and makes each wait for every other's
 * work so far; end joins them back into the origin's stream, makes the others wait for it where no capture is in
 * progress, puts the caller's device back, records e and maps it to a status. */
typedef struct climb_comm_call {
    struct climb_comm_s *c;
    int prev, origin, n_ranks;
    int ranks[CLIMB_MAX_DEVICES];
} climb_comm_call;
cudaError_t climb_comm_begin(struct climb_comm_s *c, int origin, const int *ranks, int n_ranks, climb_comm_call *call);
climb_status climb_comm_end(climb_comm_call *call, cudaError_t e);

#endif
