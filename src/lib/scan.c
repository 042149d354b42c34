/* The C API of the prefix sum: climb_scan_{inclusive,exclusive}_{i32,f32} over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/scan/scan.h"

static climb_status scan(climb_handle h, climb_dtype t, int exclusive, const void *d_in, size_t n, void *d_out)
{
    if (!h || n > CLIMB_SCAN_MAX_N)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to write; the pointers are not touched */
    /* In place (d_out == d_in) is allowed; a partial overlap is not: a tile would read what another wrote. */
    climb_span in, out;
    if (!climb_span_of(d_in, n, 4, &in) || !climb_span_of(d_out, n, 4, &out) ||
        (in.begin != out.begin && climb_spans_overlap(in, out)))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_in, 4) || !climb_device_reachable(d_out, 4))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1(n), t, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_scan_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_scan_tuning tn;
    climb_scan_set_tuning(&tn, call.values);
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_scan_best_workspace(&tn, n), 1, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = climb_scan_best(&tn, t, exclusive, d_in, d_out, n, ws, ws_bytes, call.stream);
    return climb_call_end(&call, e);
}

climb_status climb_scan_inclusive_i32(climb_handle h, const int32_t *d_in, size_t n, int32_t *d_out)
{
    return scan(h, CLIMB_I32, 0, d_in, n, d_out);
}

climb_status climb_scan_inclusive_f32(climb_handle h, const float *d_in, size_t n, float *d_out)
{
    return scan(h, CLIMB_F32, 0, d_in, n, d_out);
}

climb_status climb_scan_exclusive_i32(climb_handle h, const int32_t *d_in, size_t n, int32_t *d_out)
{
    return scan(h, CLIMB_I32, 1, d_in, n, d_out);
}

climb_status climb_scan_exclusive_f32(climb_handle h, const float *d_in, size_t n, float *d_out)
{
    return scan(h, CLIMB_F32, 1, d_in, n, d_out);
}
