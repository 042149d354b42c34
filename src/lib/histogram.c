/* The C API of the histogram: climb_histogram_u8 over the rung marked best. */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/histogram/histogram.h"

climb_status climb_histogram_u8(climb_handle h, const uint8_t *d_in, size_t n, unsigned bins, uint32_t *d_counts)
{
    climb_span in, counts;
    if (!h || bins < 1 || bins > 256 || n >= (size_t)UINT32_MAX || !climb_span_of(d_in, n, 1, &in) ||
        !climb_span_of(d_counts, bins, 4, &counts) || climb_spans_overlap(in, counts))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_counts, 4) || (n > 0 && !climb_device_reachable(d_in, 1)))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE1(n), CLIMB_U8, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_histogram_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    return climb_call_end(&call, climb_hist_best(d_in, n, bins, d_counts, call.dev->sms, call.stream));
}
