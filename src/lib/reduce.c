/* The C API of the reduction: climb_reduce_sum_i32 and climb_reduce_sum_f32 over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/reduce/reduce.h"

static climb_status reduce_sum(climb_handle h, climb_dtype t, const void *d_in, size_t n, void *d_out)
{
    const size_t es = climb_dtype_size(t);
    climb_span in, out;
    if (!h || !climb_span_of(d_in, n, es, &in) || !climb_span_of(d_out, 1, es, &out) || climb_spans_overlap(in, out))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_out, es) || (n > 0 && !climb_device_reachable(d_in, es)))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1(n), t, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_reduce_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_reduce_exec x = {call.stream, call.dev->sms, {0, 0, 0}};
    climb_reduce_set_tuning(&x, call.values);
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_reduce_best_workspace(&x), 1, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = t == CLIMB_I32 ? climb_reduce_best_i32(&x, (const int32_t *)d_in, n, (int32_t *)d_out, ws, ws_bytes)
                           : climb_reduce_best_f32(&x, (const float *)d_in, n, (float *)d_out, ws, ws_bytes);
    return climb_call_end(&call, e);
}

climb_status climb_reduce_sum_i32(climb_handle h, const int32_t *d_in, size_t n, int32_t *d_out)
{
    return reduce_sum(h, CLIMB_I32, d_in, n, d_out);
}

climb_status climb_reduce_sum_f32(climb_handle h, const float *d_in, size_t n, float *d_out)
{
    return reduce_sum(h, CLIMB_F32, d_in, n, d_out);
}
