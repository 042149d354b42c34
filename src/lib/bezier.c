/* The C API of Bezier tessellation: climb_bezier_tessellate over the rung marked best (a scan and a flat launch). */
#include <stdio.h>
#include <string.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/bezier/bezier.h"

_Static_assert(sizeof(climb_bezier_curve) == sizeof(climb_bezier), "the public curve is the workload's");

climb_status climb_bezier_tessellate(climb_handle h, size_t n, const climb_bezier_curve *d_curves, int max_points,
                                     int32_t *d_counts, int32_t *d_offsets, float *d_points)
{
    size_t out_points;
    if (!h || max_points < CLIMB_BEZIER_MIN_POINTS || max_points > CLIMB_BEZIER_MAX_POINTS ||
        !climb_mul_fits(n, (size_t)max_points, &out_points) || out_points > CLIMB_BEZIER_MAX_OUTPUT)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to tessellate; the pointers are not touched */
    /* four arrays, the three outputs apart from each other and from the curves */
    climb_span c, k, o, p;
    if (!climb_span_of(d_curves, n, sizeof(climb_bezier_curve), &c) || !climb_span_of(d_counts, n, 4, &k) ||
        !climb_span_of(d_offsets, n, 4, &o) || !climb_span_of(d_points, out_points, 8, &p) ||
        climb_spans_overlap(k, o) || climb_spans_overlap(k, p) || climb_spans_overlap(o, p) ||
        climb_spans_overlap(c, k) || climb_spans_overlap(c, o) || climb_spans_overlap(c, p))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_curves, 4) || !climb_device_reachable(d_counts, 4) ||
        !climb_device_reachable(d_offsets, 4) || !climb_device_reachable(d_points, 8))
        return CLIMB_STATUS_INVALID_VALUE;
    char mp[16];
    snprintf(mp, sizeof mp, "%d", max_points);
    climb_api_key key;
    if (climb_api_key_make(&key, &climb_bezier_workload, (climb_shape)CLIMB_SHAPE1(n), CLIMB_F32, "curves", "uniform",
                           "max_points", mp, NULL) != 0)
        return CLIMB_STATUS_INTERNAL_ERROR;
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_bezier_workload, &key.key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    void *ws = NULL;
    size_t ws_bytes = 0;
    cudaError_t e = climb_call_workspace(&call, climb_bezier_best_workspace((int32_t)n), 1, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = climb_bezier_best((int32_t)n, max_points, (const climb_bezier *)d_curves, d_counts, d_offsets, d_points,
                              ws, ws_bytes, call.dev->sms, call.dev->cc_major, call.stream);
    return climb_call_end(&call, e);
}
