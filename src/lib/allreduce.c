/* The C API of the all-reduce across GPUs: climb_comm_allreduce_sum_{f32,i32} over the rung marked best, on a
 * communicator's streams (src/lib/comm.c). */
#include <string.h>

#include "comm.h"
#include "handle.h"
#include "../workloads/allreduce.h"

#define AR_MAX_N ((size_t)1 << 58) /* 2^60 bytes of 4-byte elements */

static climb_status allreduce(climb_comm c, climb_dtype t, const void *const *in, void *const *out, size_t n)
{
    if (!c || n > AR_MAX_N)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to sum; the pointers are not looked at */
    int in_place;
    climb_status st = climb_comm_arrays(c, in, n, (const void *const *)out, n, 1, &in_place);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    if (c->nccl) /* one process a GPU */
        return climb_comm_nccl_call(c, 0, t, in[0], out[0], n);
    if (!c->all_access)
        return CLIMB_STATUS_NOT_SUPPORTED;
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    climb_allreduce_flags fl;
    memset(&fl, 0, sizeof fl);
    for (int r = 0; r < c->P; r++) {
        fl.lines[r] = c->flag_lines[r];
        fl.state[r] = c->flag_state[r];
        fl.meet[r] = c->flag_meet[r];
    }
    fl.cap = c->flag_cap;
    climb_comm_call call;
    cudaError_t e = climb_comm_begin(c, 0, NULL, 0, &call);
    if (e == cudaSuccess)
        e = climb_allreduce_sum_async(&x, t, (void *const *)in, out, n, fl.cap || fl.meet[0] ? &fl : NULL);
    return climb_comm_end(&call, e);
}

climb_status climb_comm_allreduce_sum_f32(climb_comm comm, const float *const *d_in, float *const *d_out, size_t n)
{
    return allreduce(comm, CLIMB_F32, (const void *const *)d_in, (void *const *)d_out, n);
}

climb_status climb_comm_allreduce_sum_i32(climb_comm comm, const int32_t *const *d_in, int32_t *const *d_out,
                                          size_t n)
{
    return allreduce(comm, CLIMB_I32, (const void *const *)d_in, (void *const *)d_out, n);
}
