/* The C API of the convolutional layer: climb_conv_forward_f32 over the rung marked best (implicit GEMM). */
#include "handle.h"
#include "../workloads/cnn.h"

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

static int overlap(const void *a, size_t an, const void *b, size_t bn)
{
    const char *a0 = (const char *)a, *b0 = (const char *)b;
    return an && bn && a0 < b0 + bn && b0 < a0 + an;
}

climb_status climb_conv_forward_f32(climb_handle h, const climb_conv_layer_desc *layer, const float *d_x,
                                    const float *d_w, float *d_y)
{
    climb_cnn_layer l;
    if (!h || layer_of(layer, &l) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    const size_t nx = (size_t)l.n * l.c * l.h * l.w * sizeof(float), nw = (size_t)l.k * l.c * l.r * l.s * sizeof(float);
    const size_t ny = (size_t)l.n * l.k * l.p * l.q * sizeof(float);
    if (ny == 0)
        return CLIMB_STATUS_SUCCESS; /* no output: nothing is touched */
    if (!climb_device_reachable(d_y, sizeof(float)) || (nx && !climb_device_reachable(d_x, sizeof(float))) ||
        (nw && !climb_device_reachable(d_w, sizeof(float))) || overlap(d_y, ny, d_x, nx) || overlap(d_y, ny, d_w, nw))
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
    return climb_call_end(&call, climb_cnn_best(&tn, &l, d_x, d_w, d_y, call.dev->sms, call.stream));
}
