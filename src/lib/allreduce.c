/* The C API of the all-reduce across GPUs: climb_comm_allreduce_sum_{f32,i32} over the rung marked best, on a
 * communicator's streams (src/lib/comm.c). */
#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/allreduce.h"

#define AR_MAX_N ((size_t)1 << 58) /* 2^60 bytes of 4-byte elements */

static climb_status allreduce(climb_comm c, climb_dtype t, const void *const *in, void *const *out, size_t n)
{
    if (!c || n > AR_MAX_N)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to sum; the pointers are not looked at */
    if (!in || !out)
        return CLIMB_STATUS_INVALID_VALUE;
    int in_place = 1;
    for (int r = 0; r < c->P; r++) {
        climb_span a, b;
        if (!climb_span_of(in[r], n, 4, &a) || !climb_span_of(out[r], n, 4, &b))
            return CLIMB_STATUS_INVALID_VALUE;
        in_place &= in[r] == out[r];
        for (int q = 0; q < c->P; q++) { /* an output over any other array: only its own input, exactly */
            climb_span x, y;
            if (!climb_span_of(in[q], n, 4, &x) || !climb_span_of(out[q], n, 4, &y))
                return CLIMB_STATUS_INVALID_VALUE;
            if ((q != r && (climb_spans_overlap(b, x) || climb_spans_overlap(b, y))) ||
                (q == r && in[r] != out[r] && climb_spans_overlap(b, x)))
                return CLIMB_STATUS_INVALID_VALUE;
        }
    }
    for (int r = 0; r < c->P; r++)
        if ((in[r] != out[r]) != !in_place)
            return CLIMB_STATUS_INVALID_VALUE; /* in place on some ranks and not others */
    for (int r = 0; r < c->P; r++)
        if (!climb_comm_reachable(c, r, in[r], 4) || !climb_comm_reachable(c, r, out[r], 4))
            return CLIMB_STATUS_INVALID_VALUE;
    if (!c->all_access)
        return CLIMB_STATUS_NOT_SUPPORTED;
    climb_coll_exec x;
    x.P = c->P;
    for (int r = 0; r < c->P; r++) {
        x.devices[r] = c->devices[r];
        x.sms[r] = c->sms[r];
        x.st[r] = c->st[r];
        x.ev[r] = c->ev[r];
    }
    climb_comm_call call;
    cudaError_t e = climb_comm_begin(c, 0, NULL, 0, &call);
    if (e == cudaSuccess)
        e = climb_allreduce_sum_async(&x, t, (void *const *)in, out, n);
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
