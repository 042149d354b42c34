/* The C API of the 7-point stencil: climb_stencil7_f32 over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/stencil.h"

climb_status climb_stencil7_f32(climb_handle h, size_t nx, size_t ny, size_t nz, const float coeffs[7],
                                const float *d_in, float *d_out)
{
    size_t points;
    if (!h || !coeffs || !climb_stencil_fits(nx, ny, nz) || !climb_mul3_fits(nx, ny, nz, &points))
        return CLIMB_STATUS_INVALID_VALUE;
    if (points == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty grid: the pointers are not touched */
    /* no step in place: a block would read points another has written */
    climb_span in, out;
    if (!climb_span_of(d_in, points, sizeof(float), &in) || !climb_span_of(d_out, points, sizeof(float), &out) ||
        climb_spans_overlap(in, out))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_in, sizeof(float)) || !climb_device_reachable(d_out, sizeof(float)))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE3(nx, ny, nz), CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_stencil_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_stencil_tuning tn;
    climb_stencil_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_stencil_best(&tn, nx, ny, nz, coeffs, d_in, d_out, call.stream));
}
