/* The GPUs a collective's schedule runs on, as the workloads across GPUs and the C API's communicator both hand
 * them over (C): each rank's device, SM count, stream and event (timing off), and the step between stages. */
#ifndef CLIMB_WORKLOADS_COMMON_COLL_EXEC_H
#define CLIMB_WORKLOADS_COMMON_COLL_EXEC_H

#include <cuda_runtime_api.h>

#include "../../device/device_set.h"

typedef struct climb_coll_exec {
    int P;
    int devices[CLIMB_MAX_DEVICES];
    int sms[CLIMB_MAX_DEVICES];
    cudaStream_t st[CLIMB_MAX_DEVICES];
    cudaEvent_t ev[CLIMB_MAX_DEVICES];
} climb_coll_exec;

/* Every rank's stream waits for what every other rank's has issued so far. Leaves another device current. */
static inline cudaError_t climb_coll_barrier(const climb_coll_exec *x)
{
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < x->P && e == cudaSuccess; r++)
        if ((e = cudaSetDevice(x->devices[r])) == cudaSuccess)
            e = cudaEventRecord(x->ev[r], x->st[r]);
    for (int r = 0; r < x->P && e == cudaSuccess; r++) {
        e = cudaSetDevice(x->devices[r]);
        for (int q = 0; q < x->P && e == cudaSuccess; q++)
            if (q != r)
                e = cudaStreamWaitEvent(x->st[r], x->ev[q], 0);
    }
    return e;
}

#endif
