/* The case kit (workload.h): a case's declared buffers allocated, uploaded, poisoned, downloaded and freed here, for
 * every workload alike; and the one way the harness reaches a case's hooks (harness.h), whichever way the workload
 * makes its cases. */
#include "harness.h"
#include "../base/check.h"
#include "../base/host.h"
#include "../base/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the harness keeps of a kit case, just before the workload's struct. */
typedef struct kit_head {
    const climb_workload *w;
    void **host, **alloc;      /* per buffer: the host copy, the device allocation */
    void **dev;                /* per buffer: the device array (alloc + the offset) */
    size_t *bytes;
    size_t pad;                /* keeps the workload's struct 16-byte aligned */
} kit_head;

_Static_assert(sizeof(kit_head) % 16 == 0, "the case after the head must stay 16-byte aligned");

static kit_head *head_of(climb_case *c) { return (kit_head *)c - 1; }

static void set_field(climb_case *c, size_t at, void *p)
{
    if (at)
        memcpy((char *)c + at, &p, sizeof p);
}

static void kit_free(climb_case *c)
{
    kit_head *h = head_of(c);
    const climb_workload *w = h->w;
    if (w->fini)
        w->fini(c);
    for (int i = 0; i < w->n_buffers && h->bytes; i++) {
        free(h->host[i]);
        if (h->alloc[i])
            cudaFree(h->alloc[i]);
    }
    free(h->host);
    free(h->alloc);
    free(h->dev);
    free(h->bytes);
    free(h);
}

static int kit_create(const climb_workload *w, const climb_case_params *p, climb_case **out)
{
    *out = NULL;
    kit_head *h = calloc(1, sizeof *h + w->case_size);
    if (!h)
        return climb_host_oom("a %s case", w->name);
    climb_case *c = (climb_case *)(h + 1);
    h->w = w;
    memcpy(c, p, sizeof *p); /* the case's first member */
    const int nb = w->n_buffers;
    h->host = calloc((size_t)nb + 1, sizeof *h->host);
    h->alloc = calloc((size_t)nb + 1, sizeof *h->alloc);
    h->dev = calloc((size_t)nb + 1, sizeof *h->dev);
    h->bytes = calloc((size_t)nb + 1, sizeof *h->bytes);
    if (!h->host || !h->alloc || !h->dev || !h->bytes) {
        kit_free(c);
        return climb_host_oom("a %s case's buffers", w->name);
    }
    if (w->init && w->init(c) != 0) {
        kit_free(c);
        return -1;
    }
    /* Device arrays first: a size the GPU cannot hold is refused before any host memory is touched. */
    size_t host_total = 0;
    const size_t off = (size_t)p->offset * climb_dtype_size(p->type);
    for (int i = 0; i < nb; i++) {
        const climb_buffer *b = &w->buffers[i];
        h->bytes[i] = b->bytes(c);
        if (b->flags & CLIMB_BUF_HOST)
            host_total += h->bytes[i];
        if (!(b->flags & CLIMB_BUF_DEVICE) || h->bytes[i] == 0)
            continue;
        const size_t shift = !(b->flags & CLIMB_BUF_OFFSET) ? 0 : b->shift ? b->shift(c) : off;
        if (h->bytes[i] > SIZE_MAX - shift - 16) {
            fprintf(stderr, "climb: %s's %s: %zu bytes cannot be addressed\n", w->name, b->name, h->bytes[i]);
            kit_free(c);
            return -1;
        }
        const cudaError_t e = cudaMalloc(&h->alloc[i], h->bytes[i] + shift + 16);
        if (e != cudaSuccess) {
            fprintf(stderr, "climb: out of device memory for %s's %s (%zu bytes): %s\n", w->name, b->name,
                    h->bytes[i] + shift + 16, cudaGetErrorString(e));
            cudaGetLastError(); /* the one place a failed allocation's error state is cleared */
            h->alloc[i] = NULL;
            kit_free(c);
            return -1;
        }
        h->dev[i] = (char *)h->alloc[i] + shift;
        if ((b->flags & CLIMB_BUF_ZERO) && CLIMB_FAILED(cudaMemset(h->alloc[i], 0, h->bytes[i] + shift + 16))) {
            kit_free(c);
            return -1;
        }
        set_field(c, b->device_at, h->dev[i]);
    }
    char what[160];
    snprintf(what, sizeof what, "%s's host buffers", w->name);
    if (host_total && climb_host_memory_refuses(host_total, what)) {
        kit_free(c);
        return -1;
    }
    for (int i = 0; i < nb; i++) {
        const climb_buffer *b = &w->buffers[i];
        if (!(b->flags & CLIMB_BUF_HOST) || h->bytes[i] == 0)
            continue;
        h->host[i] = b->flags & CLIMB_BUF_ZERO ? calloc(1, h->bytes[i]) : malloc(h->bytes[i]);
        if (!h->host[i]) {
            climb_host_oom("%s's %s (%zu bytes)", w->name, b->name, h->bytes[i]);
            kit_free(c);
            return -1;
        }
        set_field(c, b->host_at, h->host[i]);
    }
    if (w->fill && w->fill(c) != 0) {
        kit_free(c);
        return -1;
    }
    for (int i = 0; i < nb; i++)
        if ((w->buffers[i].flags & CLIMB_BUF_INPUT) && h->host[i] && h->dev[i] &&
            CLIMB_FAILED(cudaMemcpy(h->dev[i], h->host[i], h->bytes[i], cudaMemcpyHostToDevice))) {
            kit_free(c);
            return -1;
        }
    *out = c;
    return 0;
}

/* Downloads every output that has a host copy. 0 or -1 (printed). */
static int kit_download(const climb_workload *w, climb_case *c)
{
    kit_head *h = head_of(c);
    for (int i = 0; i < w->n_buffers; i++)
        if ((w->buffers[i].flags & CLIMB_BUF_OUTPUT) && h->host[i] && h->dev[i] &&
            CLIMB_FAILED(cudaMemcpy(h->host[i], h->dev[i], h->bytes[i], cudaMemcpyDeviceToHost)))
            return -1;
    return 0;
}

int climb_case_create(const climb_workload *w, const climb_case_params *p, climb_case **out)
{
    return w->case_size ? kit_create(w, p, out) : w->create(p, out);
}

void climb_case_destroy(const climb_workload *w, climb_case *c)
{
    if (!c)
        return;
    if (w->case_size)
        kit_free(c);
    else
        w->destroy(c);
}

int climb_case_poison(const climb_workload *w, climb_case *c)
{
    if (w->poison)
        return w->poison(c);
    kit_head *h = head_of(c);
    for (int i = 0; i < w->n_buffers; i++)
        if ((w->buffers[i].flags & CLIMB_BUF_OUTPUT) && h->dev[i])
            CLIMB_CHECK(cudaMemset(h->dev[i], w->buffers[i].poison, h->bytes[i]));
    return 0;
}

int climb_case_run(const climb_workload *w, climb_case *c, int rung, cudaStream_t s)
{
    if (w->empty && w->empty(c))
        return 0;
    if (w->run)
        return w->run(c, rung, s);
    CLIMB_CHECK(w->rung(rung)->launch(c, s));
    return 0;
}

int climb_case_run_batch(const climb_workload *w, climb_case *c, int rung, cudaStream_t s, int reps)
{
    if (w->run_batch && !(w->empty && w->empty(c)))
        return w->run_batch(c, rung, s, reps);
    for (int k = 0; k < reps; k++)
        if (climb_case_run(w, c, rung, s) != 0)
            return -1;
    return 0;
}

int climb_case_verify(const climb_workload *w, climb_case *c, int rung, char *msg, size_t len)
{
    if (w->case_size && kit_download(w, c) != 0)
        return -1;
    return w->verify(c, rung, msg, len);
}

int climb_case_reference(const climb_workload *w, climb_case *c, climb_ref_mode mode, char *desc, size_t len)
{
    if (mode == CLIMB_REF_VENDOR && w->case_size && kit_download(w, c) != 0)
        return -1;
    return w->reference(c, mode, desc, len);
}

int climb_case_save(const climb_workload *w, climb_case *c, int rung, const char *path, char *err, size_t len)
{
    if (w->case_size && kit_download(w, c) != 0) {
        snprintf(err, len, "%s: could not read the output back", path);
        return -1;
    }
    return w->save(c, rung, path, err, len);
}

const char *climb_case_refuses(const climb_workload *w, const climb_case *c, int rung)
{
    /* The case's own refusal first (a case no rung can run, such as a pair that is one GPU), then the rung's. */
    const climb_rung_info *r = w->rung(rung);
    const char *why = w->refuses ? w->refuses(c, rung) : NULL;
    return why ? why : r->refuses ? r->refuses(c) : NULL;
}

int climb_case_prepare(const climb_workload *w, climb_case *c, int rung)
{
    return w->prepare ? w->prepare(c, rung) : 0;
}

void climb_case_release(const climb_workload *w, climb_case *c, int rung)
{
    if (w->release)
        w->release(c, rung);
}

int climb_case_reset(const climb_workload *w, climb_case *c, cudaStream_t s)
{
    return w->reset ? w->reset(c, s) : 0;
}

int climb_ref_points(climb_ref_mode mode, uint64_t seed, size_t n, size_t max, size_t **samples, size_t *count)
{
    *samples = NULL;
    *count = n;
    if (mode != CLIMB_REF_SAMPLES && mode != CLIMB_REF_VENDOR)
        return 0;
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    *samples = climb_rng_samples(&rng, n, max, count);
    return *samples ? 0 : -1;
}
