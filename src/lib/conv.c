/* The C API of the 2-D convolution: climb_conv2d_f32 over the rung marked best. */
#include <stdio.h>
#include <string.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/conv/conv.h"

climb_status climb_conv2d_f32(climb_handle h, size_t rows, size_t cols, const float *d_in, size_t ld_in,
                              const float *mask, int radius, float *d_out, size_t ld_out)
{
    if (!h || !mask || radius < 1 || radius > CLIMB_CONV_MAX_RADIUS || ld_in < cols || ld_out < cols ||
        !climb_conv_fits(rows, cols))
        return CLIMB_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to filter; the pointers are not touched */
    /* No in-place filtering: a block would read inputs another block has overwritten. */
    climb_span in, out;
    if (!climb_span_matrix(d_in, rows, cols, ld_in, sizeof(float), &in) ||
        !climb_span_matrix(d_out, rows, cols, ld_out, sizeof(float), &out) || climb_spans_overlap(in, out))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_in, sizeof(float)) || !climb_device_reachable(d_out, sizeof(float)))
        return CLIMB_STATUS_INVALID_VALUE;
    /* The tuning class: radius and dims, as the workload's options key it. */
    char r[16];
    snprintf(r, sizeof r, "%d", radius);
    climb_api_key key;
    if (climb_api_key_make(&key, &climb_conv_workload, (climb_shape)CLIMB_SHAPE2(rows, cols), CLIMB_F32, "radius", r,
                           "dims", "2", NULL) != 0)
        return CLIMB_STATUS_INTERNAL_ERROR;
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_conv_workload, &key.key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_conv_tuning tn;
    climb_conv_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_conv_best(&tn, rows, cols, d_in, ld_in, mask, radius, radius, d_out, ld_out,
                                                 call.stream));
}
