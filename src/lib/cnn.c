/* The C API of the convolutional layer: climb_conv_forward_f32 over the rung marked best (Winograd's F(2 x 2, 3 x 3)
 * fused on the 3 x 3 layers of stride 1 it chooses, in the handle's workspace; the implicit GEMM elsewhere). */
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/cnn/cnn.h"

/* The layer as the workload takes it, checked; 0, or -1 for a descriptor no kernel takes. */
static int layer_of(const climb_conv_layer_desc *d, climb_cnn_layer *l)
{
    if (!d)
        return -1;
    *l = (climb_cnn_layer){d->n, d->c, d->h, d->w, d->k, d->r, d->s, d->stride_h, d->stride_w, d->pad_h, d->pad_w, 0, 0};
    return climb_cnn_layer_check(l);
}

climb_status climb_conv_output_size(const climb_conv_layer_desc *layer, int *p, int *q)
{
    climb_cnn_layer l;
    if (!p || !q || layer_of(layer, &l) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    *p = l.p;
    *q = l.q;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_conv_forward_f32(climb_handle h, const climb_conv_layer_desc *layer, const float *d_x,
                                    const float *d_w, float *d_y)
{
    climb_cnn_layer l;
    if (!h || layer_of(layer, &l) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    /* every count below 2^30 (climb_cnn_layer_check): these products cannot wrap */
    const size_t nx = (size_t)l.n * l.c * l.h * l.w, nw = (size_t)l.k * l.c * l.r * l.s;
    const size_t ny = (size_t)l.n * l.k * l.p * l.q;
    if (ny == 0)
        return CLIMB_STATUS_SUCCESS; /* no output: nothing is touched */
    climb_span x, w, y;
    if (!climb_span_of(d_x, nx, sizeof(float), &x) || !climb_span_of(d_w, nw, sizeof(float), &w) ||
        !climb_span_of(d_y, ny, sizeof(float), &y) || climb_spans_overlap(y, x) || climb_spans_overlap(y, w))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_y, sizeof(float)) || (nx && !climb_device_reachable(d_x, sizeof(float))) ||
        (nw && !climb_device_reachable(d_w, sizeof(float))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPEN(8, (size_t)l.n, (size_t)l.c, (size_t)l.h, (size_t)l.w, (size_t)l.k,
                                         (size_t)l.r, (size_t)l.s, (size_t)l.stride_h),
                            CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_cnn_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_cnn_tuning tn;
    climb_cnn_set_tuning(&tn, call.values);
    /* the transformed filters where the layer runs Winograd (below 2^35 bytes: C and K below 2^30) */
    const size_t need = climb_cnn_best_workspace(&l);
    void *ws = NULL;
    size_t have = 0;
    cudaError_t e = need ? climb_call_workspace(&call, need, 0, &ws, &have) : cudaSuccess;
    if (e == cudaSuccess)
        e = climb_cnn_best(&tn, &l, d_x, d_w, d_y, ws, have, call.dev->sms, call.stream);
    return climb_call_end(&call, e);
}
