/* The C API of the transpose: climb_transpose_f32 and climb_transpose_f64 over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/transpose.h"

static climb_status transpose(climb_handle h, climb_dtype t, size_t rows, size_t cols, const void *d_in, size_t ld_in,
                              void *d_out, size_t ld_out)
{
    const size_t es = climb_dtype_size(t);
    if (!h || ld_in < cols || ld_out < rows || !climb_transpose_fits(rows, cols))
        return CLIMB_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to move; the pointers are not touched */
    /* The two matrices must not overlap: in place is not supported. */
    climb_span in, out;
    if (!climb_span_matrix(d_in, rows, cols, ld_in, es, &in) || !climb_span_matrix(d_out, cols, rows, ld_out, es, &out) ||
        climb_spans_overlap(in, out))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_in, es) || !climb_device_reachable(d_out, es))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE2(rows, cols), t, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_transpose_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_transpose_tuning tn;
    climb_transpose_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_transpose_best(&tn, t, d_in, ld_in, d_out, ld_out, rows, cols, call.stream));
}

climb_status climb_transpose_f32(climb_handle h, size_t rows, size_t cols, const float *d_in, size_t ld_in, float *d_out,
                                 size_t ld_out)
{
    return transpose(h, CLIMB_F32, rows, cols, d_in, ld_in, d_out, ld_out);
}

climb_status climb_transpose_f64(climb_handle h, size_t rows, size_t cols, const double *d_in, size_t ld_in,
                                 double *d_out, size_t ld_out)
{
    return transpose(h, CLIMB_F64, rows, cols, d_in, ld_in, d_out, ld_out);
}
