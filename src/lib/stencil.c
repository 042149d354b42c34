/* The C API of the 7-point stencil: climb_stencil7_f32 over the rung marked best. */
#include "handle.h"
#include "../workloads/stencil.h"

climb_status climb_stencil7_f32(climb_handle h, size_t nx, size_t ny, size_t nz, const float coeffs[7],
                                const float *d_in, float *d_out)
{
    if (!h || !coeffs)
        return CLIMB_STATUS_INVALID_VALUE;
    if (nx == 0 || ny == 0 || nz == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty grid: the pointers are not touched */
    if (nx > 0x7fffffffu || ny > 0x7fffffffu || nz > 0x7fffffffu || !climb_device_reachable(d_in, sizeof(float)) ||
        !climb_device_reachable(d_out, sizeof(float)))
        return CLIMB_STATUS_INVALID_VALUE;
    const size_t bytes = nx * ny * nz * sizeof(float);
    if (bytes / sizeof(float) / nx / ny != nz)
        return CLIMB_STATUS_INVALID_VALUE; /* the element count overflows */
    const char *in0 = (const char *)d_in, *out0 = (const char *)d_out;
    if (in0 < out0 + bytes && out0 < in0 + bytes)
        return CLIMB_STATUS_INVALID_VALUE; /* no step in place: a block would read points another has written */
    climb_tuning_key key = {CLIMB_SHAPE3(nx, ny, nz), CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_stencil_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_stencil_tuning tn;
    climb_stencil_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_stencil_best(&tn, nx, ny, nz, coeffs, d_in, d_out, call.stream));
}
