/* Inside the library face: a communicator of several GPUs (climb_comm_*), and the ordering its calls share. */
#ifndef CLIMB_LIB_COMM_H
#define CLIMB_LIB_COMM_H

#include "climb.h"
#include "../device/device_set.h"

struct climb_comm_s {
    int P;
    int devices[CLIMB_MAX_DEVICES];
    int sms[CLIMB_MAX_DEVICES];
    int all_access;                          /* peer access on between every ordered pair */
    unsigned char access[CLIMB_MAX_DEVICES][CLIMB_MAX_DEVICES]; /* access[a][b]: rank a reaches rank b's memory */
    cudaStream_t st[CLIMB_MAX_DEVICES];      /* the streams calls run on: the communicator's own or the caller's */
    cudaStream_t own[CLIMB_MAX_DEVICES];     /* the ones it made (destroyed by climb_comm_destroy) */
    cudaEvent_t ev[CLIMB_MAX_DEVICES];       /* one a rank, timing off, on its device */
    cudaError_t last;
    int offline;                             /* made by climb_comm_offline: no CUDA objects */
};

/* A communicator of described devices made without the CUDA runtime, for the argument tests where no GPU is: a
 * call that passes its checks goes on to its first CUDA call. every pair reaches every other when all_access.
 * climb_comm_destroy frees it. */
climb_status climb_comm_offline(climb_comm *comm, int ndev, const int *devices, int all_access);

/* 1 when p is memory rank r's device can use (device or managed memory, or mapped host memory), aligned to align.
 * The one CUDA call a check makes (cudaPointerGetAttributes). */
int climb_comm_reachable(const struct climb_comm_s *c, int r, const void *p, size_t align);

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
