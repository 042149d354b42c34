/* The C API of MRI-Q: climb_mriq_f32 over the rung marked best. */
#include <stdint.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/mriq.h"

climb_status climb_mriq_f32(climb_handle h, size_t samples, const float *d_kx, const float *d_ky, const float *d_kz,
                            const float *d_phi_r, const float *d_phi_i, size_t voxels, const float *d_x,
                            const float *d_y, const float *d_z, float *d_qr, float *d_qi)
{
    if (!h || samples > 0x7fffffffu || voxels > 0x7fffffffu)
        return CLIMB_STATUS_INVALID_VALUE;
    if (voxels == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to compute: nothing is touched */
    /* the outputs must not overlap each other or any input (every span of under 2^33 bytes: none wraps but at the
     * top of the address space, refused) */
    const float *const in[8] = {d_kx, d_ky, d_kz, d_phi_r, d_phi_i, d_x, d_y, d_z};
    climb_span qr, qi, sp;
    if (!climb_span_of(d_qr, voxels, 4, &qr) || !climb_span_of(d_qi, voxels, 4, &qi) || climb_spans_overlap(qr, qi))
        return CLIMB_STATUS_INVALID_VALUE;
    for (int a = 0; a < 8; a++)
        if (!climb_span_of(in[a], a < 5 ? samples : voxels, 4, &sp) || climb_spans_overlap(sp, qr) ||
            climb_spans_overlap(sp, qi))
            return CLIMB_STATUS_INVALID_VALUE;
    for (int a = 0; a < 8; a++)
        if ((a >= 5 || samples > 0) && !climb_device_reachable(in[a], 4))
            return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_qr, 4) || !climb_device_reachable(d_qi, 4))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE2(samples, voxels), CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_mriq_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_mriq_tuning tn;
    climb_mriq_set_tuning(&tn, call.values);
    void *ws = NULL;
    size_t have = 0;
    cudaError_t e = climb_call_workspace(&call, (samples ? samples : 1) * 16, 0, &ws, &have);
    const climb_mriq_kspace ks = {samples, d_kx, d_ky, d_kz, d_phi_r, d_phi_i};
    if (e == cudaSuccess)
        e = climb_mriq_best(&tn, &ks, d_x, d_y, d_z, voxels, d_qr, d_qi, ws, call.stream);
    return climb_call_end(&call, e);
}
