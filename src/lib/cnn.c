/* The C API of the convolutional layer: climb_conv_forward_f32 over the rung marked best (Winograd's F(2 x 2, 3 x 3)
 * fused on the 3 x 3 layers of stride 1 it chooses, the filter-major implicit GEMM over permuted filters where the
 * channels pad to whole k-tiles, both in the handle's workspace; the channel-major implicit GEMM elsewhere). */
#include <stdlib.h>

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

static climb_tuning_key key_of(const climb_cnn_layer *l);

/* A run's x and y for layer l (counts below 2^30: no product wraps): whole spans, y over neither x nor the
 * filters' span w; then y and x reachable from the device, in that order, so that a refusal by the spans queries
 * nothing. 1 when they are fine. */
static int arrays_ok(const climb_cnn_layer *l, const float *d_x, climb_span w, const float *d_y)
{
    const size_t nx = (size_t)l->n * l->c * l->h * l->w, ny = (size_t)l->n * l->k * l->p * l->q;
    climb_span x, y;
    if (!climb_span_of(d_x, nx, sizeof(float), &x) || !climb_span_of(d_y, ny, sizeof(float), &y) ||
        climb_spans_overlap(y, x) || climb_spans_overlap(y, w))
        return 0;
    return climb_device_reachable(d_y, sizeof(float)) && (!nx || climb_device_reachable(d_x, sizeof(float)));
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
    const size_t nw = (size_t)l.k * l.c * l.r * l.s, ny = (size_t)l.n * l.k * l.p * l.q;
    if (ny == 0)
        return CLIMB_STATUS_SUCCESS; /* no output: nothing is touched */
    climb_span w;
    if (!climb_span_of(d_w, nw, sizeof(float), &w) || !arrays_ok(&l, d_x, w, d_y) ||
        (nw && !climb_device_reachable(d_w, sizeof(float))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = key_of(&l);
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_cnn_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_cnn_tuning tn;
    climb_cnn_set_tuning(&tn, call.values);
    /* the transformed or permuted filters where the layer takes them (below 2^35 bytes: every count below 2^30) */
    const size_t need = climb_cnn_best_workspace(&l);
    void *ws = NULL;
    size_t have = 0;
    cudaError_t e = need ? climb_call_workspace(&call, need, 0, &ws, &have) : cudaSuccess;
    if (e == cudaSuccess)
        e = climb_cnn_best(&tn, &l, d_x, d_w, d_y, ws, have, call.dev->sms, call.stream);
    return climb_call_end(&call, e);
}

/* ---------------------------------------------------------------- plans: the filters transformed once */

struct climb_conv_plan_s {
    int device;               /* the handle's device when the plan was made */
    climb_cnn_layer l;
    const float *d_w;         /* the caller's filters (the implicit GEMM's path reads them at each run) */
    climb_span w;             /* where they lie: y must not overlap them */
    void *d_u;                /* the transformed or permuted filters, owned (NULL where the call reads d_w) */
    size_t u_bytes;
};

static climb_tuning_key key_of(const climb_cnn_layer *l)
{
    climb_tuning_key key = {CLIMB_SHAPEN(8, (size_t)l->n, (size_t)l->c, (size_t)l->h, (size_t)l->w, (size_t)l->k,
                                         (size_t)l->r, (size_t)l->s, (size_t)l->stride_h),
                            CLIMB_F32, NULL};
    return key;
}

climb_status climb_conv_plan_create(climb_handle h, const climb_conv_layer_desc *layer, const float *d_w,
                                    climb_conv_plan *plan)
{
    if (plan)
        *plan = NULL;
    climb_cnn_layer l;
    if (!h || !plan || layer_of(layer, &l) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    /* every count below 2^30 (climb_cnn_layer_check): these products cannot wrap */
    const size_t nw = (size_t)l.k * l.c * l.r * l.s, ny = (size_t)l.n * l.k * l.p * l.q;
    climb_span w;
    if (!climb_span_of(d_w, nw, sizeof(float), &w) || (ny && nw && !climb_device_reachable(d_w, sizeof(float))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = key_of(&l);
    climb_call call;
    /* the transform is waited for, so that any stream may run the plan: never inside a capture */
    climb_status st = climb_call_begin_waiting(h, &climb_cnn_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    struct climb_conv_plan_s *pl = calloc(1, sizeof *pl);
    if (!pl)
        return climb_call_end(&call, cudaErrorMemoryAllocation);
    pl->device = call.dev->ordinal;
    pl->l = l;
    pl->d_w = d_w;
    pl->w = w;
    pl->u_bytes = ny ? climb_cnn_best_workspace(&l) : 0;
    cudaError_t e = cudaSuccess;
    if (pl->u_bytes) {
        /* its allocation must not invalidate a capture another stream or thread has in progress */
        const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
        e = cudaMalloc(&pl->d_u, pl->u_bytes);
        if (e == cudaSuccess)
            e = climb_cnn_best_filters(&l, d_w, pl->d_u, call.stream);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(call.stream);
        if (e != cudaSuccess && pl->d_u)
            cudaFree(pl->d_u);
        climb_relaxed_end(mode);
    }
    if (e != cudaSuccess) {
        free(pl);
        return climb_call_end(&call, e);
    }
    *plan = pl;
    return climb_call_end(&call, cudaSuccess);
}

climb_status climb_conv_plan_bytes(climb_conv_plan plan, size_t *bytes)
{
    if (!plan || !bytes)
        return CLIMB_STATUS_INVALID_VALUE;
    *bytes = plan->u_bytes;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_conv_forward_plan_f32(climb_handle h, climb_conv_plan plan, const float *d_x, float *d_y)
{
    if (!h || !plan)
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_cnn_layer *l = &plan->l;
    if ((size_t)l->n * l->k * l->p * l->q == 0)
        return CLIMB_STATUS_SUCCESS; /* no output: nothing is touched */
    if (!arrays_ok(l, d_x, plan->w, d_y)) /* the filters were checked when the plan was made */
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = key_of(l);
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_cnn_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    if (call.dev->ordinal != plan->device) {
        climb_call_end(&call, cudaSuccess);
        return CLIMB_STATUS_INVALID_VALUE;
    }
    climb_cnn_tuning tn;
    climb_cnn_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_cnn_best_planned(&tn, l, d_x, plan->d_w, plan->d_u, d_y, call.dev->sms,
                                                        call.stream));
}

static void plan_release(void *p) { cudaFree(((struct climb_conv_plan_s *)p)->d_u); }

climb_status climb_conv_plan_destroy(climb_conv_plan plan)
{
    if (!plan)
        return CLIMB_STATUS_SUCCESS;
    if (plan->d_u)
        climb_release_on_device(plan->device, plan_release, plan);
    free(plan);
    return CLIMB_STATUS_SUCCESS;
}
