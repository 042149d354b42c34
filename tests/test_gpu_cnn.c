/* GPU: every CNN layer rung over the edge layers (empty batches, maps and filters; one of everything; a filter
 * larger than the image; 1 x 1 filters; strides 2 and 3; channel and filter counts that are no multiple of a tile),
 * with the size-keeping pad, no pad and pad 2, misaligned tensors, every output checked against the CPU in double;
 * proof that an output nobody wrote fails; the C API (layers of both strides and pads, its refusals). */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "core/harness.h"
#include "base/rng.h"
#include "device/device.h"
#include "workloads/cnn/cnn.h"
#include "workloads/cnn/winograd.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* The C API's bound at output (n, k, p, q), sum |w x| there being mag: Winograd's (winograd.h, F(2 x 2, r x r))
 * where climb_conv_forward_f32 runs it, the direct convolution's elsewhere. */
static double api_bound(const climb_cnn_layer *l, const float *x, const float *w, int n, int k, int p, int q,
                        double mag)
{
    if (!climb_cnn_best_winograd(l))
        return climb_cnn_tolerance(l, mag);
    climb_winograd wg;
    climb_winograd_init(&wg, 2, l->r);
    return climb_winograd_tolerance(&wg, l, climb_winograd_abs_at(&wg, l, x, w, n, k, p, q));
}

typedef struct cnn_job {
    api_job base;
    climb_conv_layer_desc layer;
} cnn_job;

static int cnn_sizes(api_job *b)
{
    const climb_conv_layer_desc *d = &((const cnn_job *)b)->layer;
    int p = 0, q = 0;
    if (climb_conv_output_size(d, &p, &q) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "%s: no output size\n", b->label);
        return -1;
    }
    b->a_bytes = (size_t)d->n * d->c * d->h * d->w * 4;
    b->b_bytes = (size_t)d->k * d->c * d->r * d->s * 4;
    b->out_bytes = (size_t)d->n * d->k * p * q * 4;
    return 0;
}

/* The filters: drawn once, copied once. */
static int cnn_once(api_job *b)
{
    const climb_conv_layer_desc *d = &((const cnn_job *)b)->layer;
    climb_rng mr;
    climb_rng_seed(&mr, (uint64_t)d->k * 131 + d->c);
    climb_rng_fill_f32(&mr, b->h_b, b->b_bytes / 4, -1.0f, 1.0f);
    return cudaMemcpy(b->d_b, b->h_b, b->b_bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
}

static int cnn_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    climb_rng_fill_f32(r, b->h_a, b->a_bytes / 4, -1.0f, 1.0f);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status cnn_call(api_job *b, climb_handle h)
{
    return climb_conv_forward_f32(h, &((const cnn_job *)b)->layer, b->d_a, b->d_b, b->d_out);
}

static void cnn_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const climb_conv_layer_desc *d = &((const cnn_job *)b)->layer;
    climb_cnn_layer l = {d->n, d->c, d->h, d->w, d->k, d->r, d->s, d->stride_h, d->stride_w, d->pad_h, d->pad_w, 0, 0};
    climb_cnn_layer_check(&l);
    size_t i = 0;
    for (int n = 0; n < l.n; n++)
        for (int k = 0; k < l.k; k++)
            for (int p = 0; p < l.p; p++)
                for (int q = 0; q < l.q; q++, i++) {
                    double mag;
                    const double want = climb_cnn_ref_at(&l, b->h_a, b->h_b, n, k, p, q, &mag);
                    if (!(fabs(((const float *)got)[i] - want) <= api_bound(&l, b->h_a, b->h_b, n, k, p, q, mag)))
                        api_mismatch_note(m, i, ((const float *)got)[i], want);
                }
}

static const api_job_ops cnn_ops = {
    .sizes = cnn_sizes, .once = cnn_once, .fill = cnn_fill, .call = cnn_call, .check = cnn_check};

static api_job *cnn_job_of(int n, int c, int hw, int k, int rs, int stride)
{
    cnn_job *j = api_job_new(sizeof *j, &cnn_ops);
    if (!j)
        return NULL;
    j->layer = (climb_conv_layer_desc){n, c, hw, hw, k, rs, rs, stride, stride, (rs - 1) / 2, (rs - 1) / 2};
    snprintf(j->base.label, sizeof j->base.label, "climb_conv_forward_f32 N%d C%d %dx%d K%d %dx%d stride %d", n, c,
             hw, hw, k, rs, rs, stride);
    return &j->base;
}

static int cnn_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = cnn_job_of(2, 4, 9 + id, 20, 3, 1);
        return 1;
    }
    out[0] = cnn_job_of(4, 16, 28, 64, 3, 1);
    out[1] = cnn_job_of(2, 3, 45, 70, 7, 2);
    return 2;
}

const api_workload api_workload_cnn = {.name = "cnn", .jobs = cnn_jobs};

static const climb_workload *w = &climb_cnn_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *pad)
{
    climb_opt_plan p;
    test_plan(&p, w, "pad", pad, NULL);
    char what[40];
    snprintf(what, sizeof what, "pad=%s", pad);
    test_check_plan(w, &dev, &p, seed, 1, what); /* shared_tiles may refuse a tile over 48 KB */
    climb_opt_plan_free(&p, NULL);
}

/* The filter-major rung on every tile it has (the option's choices), every check layer, against the CPU. */
static void test_rsc_tiles(uint64_t seed)
{
    climb_opt_plan p;
    test_plan(&p, w, "tile", "all", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    const char *const rungs[] = {"implicit_gemm_rsc"};
    o.rungs = rungs;
    o.n_rungs = 1;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs >= 5 * 16 && cr.failures == 0 && cr.refused == 0, "implicit_gemm_rsc tile=all: %ld runs, %d failures, %ld refused",
               cr.runs, cr.failures, cr.refused);
    printf("cnn implicit_gemm_rsc tile=all: %ld runs, seed %" PRIu64 "\n", cr.runs, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPEN(8, 2, 5, 9, 11, 70, 3, 3, 1), "y[0][0][0][0]");
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPEN(8, 2, 5, 9, 11, 70, 5, 5, 1), "y[0][0][0][0]");
    climb_opt_plan_free(&p, NULL);
}

/* Every output of y (downloaded) against the CPU within the C API's bound; the count of those past it. */
static size_t api_wrong(const climb_cnn_layer *l, const float *hx, const float *hw, const float *hy)
{
    size_t bad = 0, i = 0;
    for (int n = 0; n < l->n; n++)
        for (int k = 0; k < l->k; k++)
            for (int p = 0; p < l->p; p++)
                for (int q = 0; q < l->q; q++, i++) {
                    double mag;
                    const double want = climb_cnn_ref_at(l, hx, hw, n, k, p, q, &mag);
                    bad += !(fabs(hy[i] - want) <= api_bound(l, hx, hw, n, k, p, q, mag));
                }
    return bad;
}

/* One layer's tensors for the C API's tests: x and w random in [-1, 1) on the host and the device, y on both. */
typedef struct layer_data {
    climb_cnn_layer l;
    size_t nx, nw, ny;
    float *hx, *hw, *hy, *dx, *dw, *dy;
} layer_data;

static void layer_data_free(layer_data *t)
{
    free(t->hx);
    free(t->hw);
    free(t->hy);
    cudaFree(t->dx);
    cudaFree(t->dw);
    cudaFree(t->dy);
}

/* 0, or -1 (a failed check recorded, nothing kept) */
static int layer_data_make(layer_data *t, const climb_conv_layer_desc *d, climb_rng *rg)
{
    memset(t, 0, sizeof *t);
    t->l = (climb_cnn_layer){d->n, d->c, d->h, d->w, d->k, d->r, d->s, d->stride_h, d->stride_w, d->pad_h, d->pad_w, 0, 0};
    EXPECT(climb_cnn_layer_check(&t->l) == 0 && t->l.p > 0 && t->l.q > 0);
    const climb_cnn_layer *l = &t->l;
    t->nx = (size_t)l->n * l->c * l->h * l->w;
    t->nw = (size_t)l->k * l->c * l->r * l->s;
    t->ny = (size_t)l->n * l->k * l->p * l->q;
    t->hx = malloc(t->nx * 4);
    t->hw = malloc(t->nw * 4);
    t->hy = malloc(t->ny * 4);
    int ok = t->hx && t->hw && t->hy && cudaMalloc((void **)&t->dx, t->nx * 4) == cudaSuccess &&
             cudaMalloc((void **)&t->dw, t->nw * 4) == cudaSuccess && cudaMalloc((void **)&t->dy, t->ny * 4) == cudaSuccess;
    if (ok) {
        climb_rng_fill_f32(rg, t->hx, t->nx, -1.0f, 1.0f);
        climb_rng_fill_f32(rg, t->hw, t->nw, -1.0f, 1.0f);
        ok = cudaMemcpy(t->dx, t->hx, t->nx * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemcpy(t->dw, t->hw, t->nw * 4, cudaMemcpyHostToDevice) == cudaSuccess;
    }
    EXPECT(ok);
    if (!ok)
        layer_data_free(t);
    return ok ? 0 : -1;
}

/* y poisoned, run, downloaded: the count of outputs past the C API's bound (SIZE_MAX where it did not run). */
static size_t layer_data_wrong(layer_data *t, climb_status (*run)(layer_data *, const void *), const void *arg)
{
    if (cudaMemset(t->dy, 0xFF, t->ny * 4) != cudaSuccess || run(t, arg) != CLIMB_STATUS_SUCCESS ||
        cudaMemcpy(t->hy, t->dy, t->ny * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
        return SIZE_MAX;
    return api_wrong(&t->l, t->hx, t->hw, t->hy);
}

static climb_status run_forward(layer_data *t, const void *arg)
{
    const void *const *a = (const void *const *)arg; /* the handle and the layer */
    return climb_conv_forward_f32((climb_handle)a[0], (const climb_conv_layer_desc *)a[1], t->dx, t->dw, t->dy);
}

static climb_status run_planned(layer_data *t, const void *arg)
{
    const void *const *a = (const void *const *)arg; /* the handle and the plan */
    return climb_conv_forward_plan_f32((climb_handle)a[0], (climb_conv_plan)a[1], t->dx, t->dy);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng rg;
    climb_rng_seed(&rg, climb_fresh_seed());
    const climb_conv_layer_desc layers[] = {
        {3, 5, 17, 19, 70, 3, 3, 1, 1, 1, 1}, {2, 3, 30, 31, 64, 7, 7, 2, 2, 3, 3}, {4, 16, 8, 8, 130, 1, 1, 1, 1, 0, 0},
        {1, 2, 9, 12, 3, 3, 5, 2, 3, 0, 2},
        /* Winograd's: odd maps, unequal pads, channels and filters no multiple of its steps and blocks; 5 x 5 */
        {2, 20, 13, 15, 70, 3, 3, 1, 1, 1, 2}, {1, 33, 10, 7, 17, 3, 3, 1, 1, 0, 0}, {2, 20, 13, 15, 33, 5, 5, 1, 1, 2, 1},
        /* the filter-major implicit GEMM's: C a multiple of 8 (strided), C of 64 and more padded, 5 x 5 */
        {2, 72, 15, 17, 33, 3, 3, 2, 2, 1, 1}, {1, 65, 9, 9, 12, 5, 5, 1, 1, 2, 2}, {3, 8, 11, 10, 9, 5, 5, 1, 1, 2, 2},
        {5, 64, 13, 13, 130, 1, 1, 2, 2, 0, 0}};
    const int n_layers = (int)(sizeof layers / sizeof layers[0]);
    EXPECT(climb_cnn_best_winograd(&(climb_cnn_layer){2, 20, 13, 15, 70, 3, 3, 1, 1, 1, 2, 0, 0}) &&
           climb_cnn_best_winograd(&(climb_cnn_layer){2, 20, 13, 15, 33, 5, 5, 1, 1, 2, 1, 0, 0}) &&
           !climb_cnn_best_winograd(&(climb_cnn_layer){1, 65, 9, 9, 12, 5, 5, 1, 1, 2, 2, 0, 0}));
    for (int li = 0; li < n_layers; li++) {
        layer_data t;
        if (layer_data_make(&t, &layers[li], &rg) != 0)
            continue;
        const void *arg[2] = {h, &layers[li]};
        const size_t bad = layer_data_wrong(&t, run_forward, arg);
        EXPECT_MSG(bad == 0, "climb_conv_forward_f32 layer %d: %zu of %zu wrong", li, bad, t.ny);
        layer_data_free(&t);
    }
    float *d;
    EXPECT(cudaMalloc((void **)&d, 1 << 22) == cudaSuccess);
    climb_conv_layer_desc bad = {1, 2, 8, 8, 4, 3, 3, 1, 1, 1, 1};
    EXPECT(climb_conv_forward_f32(h, &bad, d, d + 200000, d + 100) == CLIMB_STATUS_INVALID_VALUE); /* y over x */
    EXPECT(climb_conv_forward_f32(h, NULL, d, d, d) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv_forward_f32(NULL, &bad, d, d + 200000, d + 300000) == CLIMB_STATUS_INVALID_VALUE);
    bad.stride_h = 0;
    EXPECT(climb_conv_forward_f32(h, &bad, d, d + 200000, d + 300000) == CLIMB_STATUS_INVALID_VALUE);
    bad.stride_h = 1;
    bad.pad_w = -1;
    EXPECT(climb_conv_forward_f32(h, &bad, d, d + 200000, d + 300000) == CLIMB_STATUS_INVALID_VALUE);
    bad.pad_w = 1;
    float host[16];
    EXPECT(climb_conv_forward_f32(h, &bad, host, d + 200000, d + 300000) == CLIMB_STATUS_INVALID_VALUE);
    bad.n = 0;
    EXPECT(climb_conv_forward_f32(h, &bad, NULL, NULL, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    cudaFree(d);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

/* The conv plan: a Winograd layer (its filters transformed once, the plan's bytes those of the workspace) and an
 * filter-major implicit-GEMM one (the permuted filters' bytes), a channel-major one (no bytes); the planned run against the CPU, and after the weights are overwritten (the
 * transformed ones are the plan's own); captured on a fresh handle's stream; refusals. */
static void test_conv_plan(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng rg;
    climb_rng_seed(&rg, climb_fresh_seed());
    const climb_conv_layer_desc layers[] = {
        {3, 20, 13, 15, 70, 3, 3, 1, 1, 1, 2}, {2, 72, 15, 17, 33, 3, 3, 2, 2, 1, 1}, {2, 3, 30, 31, 64, 7, 7, 2, 2, 3, 3}};
    for (int li = 0; li < 3; li++) {
        const climb_conv_layer_desc *d = &layers[li];
        layer_data t;
        if (layer_data_make(&t, d, &rg) != 0)
            continue;
        EXPECT(climb_cnn_best_winograd(&t.l) == (li == 0));
        climb_conv_plan plan = NULL;
        EXPECT(climb_conv_plan_create(h, d, t.dw, &plan) == CLIMB_STATUS_SUCCESS && plan);
        size_t bytes = 1;
        EXPECT(climb_conv_plan_bytes(plan, &bytes) == CLIMB_STATUS_SUCCESS);
        EXPECT_MSG(bytes == climb_cnn_best_workspace(&t.l) && (bytes > 0) == (li < 2), "plan %d: %zu bytes", li, bytes);
        const void *arg[2] = {h, plan};
        size_t bad = layer_data_wrong(&t, run_planned, arg);
        EXPECT_MSG(bad == 0, "planned layer %d: %zu of %zu wrong", li, bad, t.ny);
        if (li < 2) { /* the transformed filters are the plan's: overwriting the caller's changes nothing */
            EXPECT(cudaMemset(t.dw, 0, t.nw * 4) == cudaSuccess);
            bad = layer_data_wrong(&t, run_planned, arg);
            EXPECT_MSG(bad == 0, "planned layer %d after its weights were overwritten: %zu of %zu wrong", li, bad, t.ny);
            EXPECT(cudaMemcpy(t.dw, t.hw, t.nw * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        }
        /* captured on a fresh handle's stream (its first call), replayed twice */
        climb_handle h2;
        cudaStream_t s;
        cudaGraph_t g = NULL;
        cudaGraphExec_t ge = NULL;
        EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
        EXPECT(climb_create(&h2, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h2, s) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaMemset(t.dy, 0xFF, t.ny * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
        EXPECT(climb_conv_forward_plan_f32(h2, plan, t.dx, t.dy) == CLIMB_STATUS_SUCCESS);
        climb_conv_plan unmade = NULL; /* a plan is not made inside a capture */
        EXPECT(climb_conv_plan_create(h2, d, t.dw, &unmade) == CLIMB_STATUS_CAPTURE_UNSUPPORTED && !unmade);
        EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
        EXPECT(g && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
        for (int r = 0; r < 2 && ge; r++)
            EXPECT(cudaGraphLaunch(ge, s) == cudaSuccess);
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
        EXPECT(cudaMemcpy(t.hy, t.dy, t.ny * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        bad = api_wrong(&t.l, t.hx, t.hw, t.hy);
        EXPECT_MSG(bad == 0, "planned layer %d, captured: %zu of %zu wrong", li, bad, t.ny);
        if (ge)
            cudaGraphExecDestroy(ge);
        if (g)
            cudaGraphDestroy(g);
        EXPECT(climb_destroy(h2) == CLIMB_STATUS_SUCCESS);
        cudaStreamDestroy(s);
        /* refused: y over x or over the weights, no plan, no handle; nothing left behind */
        EXPECT(climb_conv_forward_plan_f32(h, plan, t.dx, t.dx) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_conv_forward_plan_f32(h, plan, t.dx, t.dw) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_conv_forward_plan_f32(h, NULL, t.dx, t.dy) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_conv_forward_plan_f32(NULL, plan, t.dx, t.dy) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(cudaGetLastError() == cudaSuccess);
        EXPECT(climb_conv_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
        layer_data_free(&t);
    }
    EXPECT(climb_conv_plan_destroy(NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "-1");
    test_check(fresh + 1, "0");
    test_check(fresh + 2, "2");
    test_rsc_tiles(fresh + 3);
    test_api();
    test_conv_plan();
    EXPECT(api_test_workload(&api_workload_cnn) == 0);
    return test_finish("test_gpu_cnn");
}
