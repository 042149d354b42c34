/* The C API of the reduce-scatter across GPUs: climb_comm_reducescatter_sum_{f32,i32} over the rung marked best, on
 * a communicator's streams and workspace (src/lib/comm.c). */
#include "comm.h"
#include "handle.h"
#include "../workloads/reducescatter.h"

static climb_status reducescatter(climb_comm c, climb_dtype t, const void *const *in, void *const *out, size_t n)
{
    if (!c || n > ((size_t)1 << 58) / (size_t)c->nranks)
        return CLIMB_STATUS_INVALID_VALUE; /* each GPU's array, P x n x 4 bytes, under 2^60 */
    if (n == 0)
        return CLIMB_STATUS_SUCCESS;
    int in_place;
    climb_status st = climb_comm_arrays(c, in, n * (size_t)c->nranks, (const void *const *)out, n, 0, &in_place);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    if (c->nccl) /* one process a GPU */
        return climb_comm_nccl_call(c, 2, t, in[0], out[0], n);
    climb_coll_exec x;
    climb_comm_exec(c, &x);
    cudaError_t e = climb_comm_workspace(c, climb_reducescatter_work_bytes(n, c->P, c->all_access));
    if (e != cudaSuccess) {
        c->last = e;
        return climb_status_of_cuda(e);
    }
    climb_comm_call call;
    e = climb_comm_begin(c, 0, NULL, 0, &call);
    if (e == cudaSuccess)
        e = climb_reducescatter_sum_async(&x, t, in, out, n, c->all_access, c->ws);
    return climb_comm_end(&call, e);
}

climb_status climb_comm_reducescatter_sum_f32(climb_comm comm, const float *const *d_in, float *const *d_out,
                                              size_t n)
{
    return reducescatter(comm, CLIMB_F32, (const void *const *)d_in, (void *const *)d_out, n);
}

climb_status climb_comm_reducescatter_sum_i32(climb_comm comm, const int32_t *const *d_in, int32_t *const *d_out,
                                              size_t n)
{
    return reducescatter(comm, CLIMB_I32, (const void *const *)d_in, (void *const *)d_out, n);
}
