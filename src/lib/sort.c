/* The C API of sort, in place: climb_sort_u32 and climb_sort_pairs_u32 over the best rung (`tuned`: the merge path
 * or a radix sort, as tuned for the call's class); the other key types (i32, f32, u64) over the radix path. */
#include <string.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/sort/sort.h"

/* Every key type, in place: u32 keys by the best rung as tuned for the call's class (climb_sort_best), the other
 * types by the radix path (climb_sort_radix). */
static climb_status sort(climb_handle h, climb_dtype t, void *d_keys, uint32_t *d_vals, size_t n, int pairs)
{
    if (!h || n > CLIMB_SORT_MAX_N)
        return CLIMB_STATUS_INVALID_VALUE;
    if (n == 0)
        return CLIMB_STATUS_SUCCESS; /* nothing to sort; the pointers are not touched */
    const size_t es = climb_dtype_size(t);
    climb_span k, v;
    if (!climb_span_of(d_keys, n, es, &k) || (pairs && (!climb_span_of(d_vals, n, 4, &v) || climb_spans_overlap(k, v))))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_keys, es) || (pairs && !climb_device_reachable(d_vals, 4)))
        return CLIMB_STATUS_INVALID_VALUE;
    /* the tuning class: keys alone or pairs, as the workload's `what` option keys it, and the size's */
    climb_api_key key;
    if (climb_api_key_make(&key, &climb_sort_workload, (climb_shape)CLIMB_SHAPE1(n), t, "what",
                           pairs ? "pairs" : "keys", "dist", "uniform", NULL) != 0)
        return CLIMB_STATUS_INTERNAL_ERROR;
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_sort_workload, &key.key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_sort_tuning tn;
    climb_sort_set_tuning(&tn, call.values);
    const size_t bytes =
        t == CLIMB_U32 ? climb_sort_best_workspace(&tn, n, pairs) : climb_sort_radix_workspace(t, n, pairs);
    void *ws = NULL;
    size_t ws_bytes = 0;
    uint32_t *vals = pairs ? d_vals : NULL;
    cudaError_t e = climb_call_workspace(&call, bytes, 0, &ws, &ws_bytes);
    if (e == cudaSuccess)
        e = t == CLIMB_U32 ? climb_sort_best(&tn, d_keys, vals, d_keys, vals, n, ws, ws_bytes, call.dev->cc_major,
                                             call.stream)
                           : climb_sort_radix(t, d_keys, vals, d_keys, vals, n, ws, ws_bytes, call.stream);
    return climb_call_end(&call, e);
}

climb_status climb_sort_u32(climb_handle h, uint32_t *d_keys, size_t n)
{
    return sort(h, CLIMB_U32, d_keys, NULL, n, 0);
}

climb_status climb_sort_i32(climb_handle h, int32_t *d_keys, size_t n)
{
    return sort(h, CLIMB_I32, d_keys, NULL, n, 0);
}

climb_status climb_sort_f32(climb_handle h, float *d_keys, size_t n)
{
    return sort(h, CLIMB_F32, d_keys, NULL, n, 0);
}

climb_status climb_sort_u64(climb_handle h, uint64_t *d_keys, size_t n)
{
    return sort(h, CLIMB_U64, d_keys, NULL, n, 0);
}

climb_status climb_sort_pairs_i32(climb_handle h, int32_t *d_keys, uint32_t *d_vals, size_t n)
{
    return sort(h, CLIMB_I32, d_keys, d_vals, n, 1);
}

climb_status climb_sort_pairs_f32(climb_handle h, float *d_keys, uint32_t *d_vals, size_t n)
{
    return sort(h, CLIMB_F32, d_keys, d_vals, n, 1);
}

climb_status climb_sort_pairs_u64(climb_handle h, uint64_t *d_keys, uint32_t *d_vals, size_t n)
{
    return sort(h, CLIMB_U64, d_keys, d_vals, n, 1);
}

climb_status climb_sort_pairs_u32(climb_handle h, uint32_t *d_keys, uint32_t *d_vals, size_t n)
{
    return sort(h, CLIMB_U32, d_keys, d_vals, n, 1);
}
