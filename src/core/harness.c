#include "harness.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

int climb_select_rungs(const climb_workload *w, const climb_run_opts *o, int *sel)
{
    int count = 0;
    for (int i = 0; i < w->n_rungs; i++) {
        sel[i] = o->n_rungs == 0;
        for (int k = 0; k < o->n_rungs; k++)
            if (strcmp(o->rungs[k], w->rung(i)->name) == 0)
                sel[i] = 1;
        count += sel[i];
    }
    return count;
}

unsigned climb_select_types(const climb_workload *w, const climb_run_opts *o)
{
    return o->types ? (o->types & w->types) : w->types;
}

uint64_t climb_case_seed(uint64_t seed, climb_dtype t, size_t size, unsigned offset)
{
    uint64_t z = seed ^ (0x9E3779B97F4A7C15ull * (1 + (uint64_t)t)) ^ ((uint64_t)size * 0xBF58476D1CE4E5B9ull) ^
                 ((uint64_t)offset << 56);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct {
    const climb_workload *w;
    climb_case *c;
    int rung;
} run_ctx;

static int run_one(void *p, cudaStream_t s)
{
    run_ctx *r = (run_ctx *)p;
    return r->w->run(r->c, r->rung, s);
}

/* Poison, run once on `s`, wait, compare. 0 right, 1 wrong (msg), -1 CUDA error (printed, msg says so). */
static int run_and_verify(const climb_workload *w, climb_case *c, int rung, cudaStream_t s, char *msg, size_t len)
{
    msg[0] = '\0';
    if (w->poison(c) != 0 || w->run(c, rung, s) != 0 || CLIMB_FAILED(cudaStreamSynchronize(s))) {
        snprintf(msg, len, "CUDA error (see above)");
        return -1;
    }
    return w->verify(c, msg, len);
}

/* After a failed run: 1 if the CUDA context can no longer be used (a sticky error such as a fault). */
int climb_context_broken(void)
{
    cudaGetLastError();
    return cudaDeviceSynchronize() != cudaSuccess;
}

int climb_measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                       climb_timing *out, char *msg, size_t len)
{
    msg[0] = '\0';
    int v = w->prepare(c, rung) == 0 ? run_and_verify(w, c, rung, t->stream, msg, len) : -1;
    if (v != 0) {
        if (v < 0 && !msg[0])
            snprintf(msg, len, "CUDA error (see stderr)");
        return v;
    }
    /* Time from poisoned outputs, then check what the last timed run left. */
    run_ctx rc = {w, c, rung};
    if (w->poison(c) != 0 || climb_time(t, run_one, &rc, o, out) != 0) {
        snprintf(msg, len, "CUDA error (see stderr)");
        return -1;
    }
    char m[256];
    if ((v = w->verify(c, m, sizeof m)) == 1)
        snprintf(msg, len, "wrong after repeated runs: %s", m);
    else if (v < 0)
        snprintf(msg, len, "CUDA error (see stderr)");
    return v;
}

int climb_bench(const climb_workload *w, const climb_run_opts *o, climb_timer *t, climb_report *rep)
{
    int sel[256];
    if (w->n_rungs > 256 || climb_select_rungs(w, o, sel) == 0)
        return 0;
    unsigned types = climb_select_types(w, o);
    const size_t *sizes = o->n_sizes ? o->sizes : w->bench_sizes;
    int n_sizes = o->n_sizes ? o->n_sizes : w->n_bench_sizes;
    int failures = 0;
    for (int ti = 0; ti < CLIMB_NTYPES; ti++) {
        if (!(types & CLIMB_TYPE_BIT(ti)))
            continue;
        for (int si = 0; si < n_sizes; si++) {
            climb_case_params p = {sizes[si], (climb_dtype)ti, climb_case_seed(o->seed, (climb_dtype)ti, sizes[si], 0),
                                   0, &rep->dev};
            char lbl[32];
            climb_size_label(lbl, sizeof lbl, p.size);
            if (o->progress)
                fprintf(stderr, "[%s %s n=%s] preparing inputs and reference\n", w->name, climb_dtype_name(p.type), lbl);
            climb_case *c = NULL;
            int created = w->create(&p, &c) == 0;
            if (created && o->tuning && w->set_tuning)
                w->set_tuning(c, o->tuning);
            for (int r = 0; r < w->n_rungs; r++) {
                if (!sel[r])
                    continue;
                climb_row *row = climb_report_add(rep);
                if (!row) {
                    fprintf(stderr, "climb: out of host memory for report rows\n");
                    if (c)
                        w->destroy(c);
                    return -1;
                }
                row->w = w;
                row->ordinal = r;
                row->type = p.type;
                row->size = p.size;
                if (!created) {
                    row->status = CLIMB_ROW_ERROR;
                    snprintf(row->note, sizeof row->note, "could not set up the inputs (see the message above)");
                    failures++;
                    continue;
                }
                row->bytes = w->bytes(c);
                row->flops = w->flops(c);
                const char *why = w->refuses(c, r);
                if (why) {
                    row->status = CLIMB_ROW_REFUSED;
                    snprintf(row->note, sizeof row->note, "%s", why);
                    continue;
                }
                if (o->progress)
                    fprintf(stderr, "[%s %s n=%s] %d %s\n", w->name, climb_dtype_name(p.type), lbl, r, w->rung(r)->name);
                char msg[300];
                int v = climb_measure_rung(w, c, r, t, &o->timing, &row->t, msg, sizeof msg);
                if (v != 0) {
                    row->status = v == 1 ? CLIMB_ROW_WRONG : CLIMB_ROW_ERROR;
                    snprintf(row->note, sizeof row->note, "%s", msg);
                    fprintf(stderr, "FAIL %s %s %s n=%zu seed=%llu: %s\n", w->name, w->rung(r)->name,
                            climb_dtype_name(p.type), p.size, (unsigned long long)o->seed, row->note);
                    failures++;
                    if (v < 0 && climb_context_broken()) {
                        /* A sticky error leaves the context unusable: stop here rather than report nonsense. */
                        fprintf(stderr, "climb: the CUDA context is no longer usable; stopping\n");
                        w->destroy(c);
                        return -1;
                    }
                }
            }
            if (c)
                w->destroy(c);
        }
    }
    return failures;
}

int climb_check(const climb_workload *w, const climb_run_opts *o, const climb_device_info *dev)
{
    int sel[256];
    if (w->n_rungs > 256 || climb_select_rungs(w, o, sel) == 0)
        return 0;
    unsigned types = climb_select_types(w, o);
    const size_t *sizes = o->n_sizes ? o->sizes : w->check_sizes;
    int n_sizes = o->n_sizes ? o->n_sizes : w->n_check_sizes;
    cudaStream_t s;
    CLIMB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    long runs = 0, refused = 0, cases = 0;
    int failures = 0;
    for (int ti = 0; ti < CLIMB_NTYPES; ti++) {
        if (!(types & CLIMB_TYPE_BIT(ti)))
            continue;
        if (o->progress)
            fprintf(stderr, "[check %s %s] %d sizes\n", w->name, climb_dtype_name((climb_dtype)ti), n_sizes);
        for (int si = 0; si < n_sizes; si++) {
            unsigned max_off = sizes[si] <= CLIMB_CHECK_OFFSET_MAX_SIZE ? w->check_max_offset : 0;
            for (unsigned off = 0; off <= max_off; off++) {
                climb_case_params p = {sizes[si], (climb_dtype)ti,
                                       climb_case_seed(o->seed, (climb_dtype)ti, sizes[si], off), off, dev};
                climb_case *c = NULL;
                if (w->create(&p, &c) != 0) {
                    fprintf(stderr, "FAIL %s %s n=%zu offset=%u: could not set up the inputs\n", w->name,
                            climb_dtype_name(p.type), p.size, off);
                    failures++;
                    continue;
                }
                if (o->tuning && w->set_tuning)
                    w->set_tuning(c, o->tuning);
                cases++;
                for (int r = 0; r < w->n_rungs; r++) {
                    if (!sel[r])
                        continue;
                    if (w->refuses(c, r)) {
                        refused++;
                        continue;
                    }
                    if (w->prepare(c, r) != 0) {
                        failures++;
                        continue;
                    }
                    for (int rep = 1; rep <= 2; rep++) {
                        char msg[320];
                        int v = run_and_verify(w, c, r, s, msg, sizeof msg);
                        runs++;
                        if (v != 0) {
                            fprintf(stderr, "FAIL %s %s %s n=%zu offset=%u run %d (seed %llu): %s\n", w->name,
                                    w->rung(r)->name, climb_dtype_name(p.type), p.size, off, rep,
                                    (unsigned long long)o->seed, msg);
                            failures++;
                            if (v < 0 && climb_context_broken()) {
                                fprintf(stderr, "climb: the CUDA context is no longer usable; stopping\n");
                                w->destroy(c);
                                cudaStreamDestroy(s);
                                return -1;
                            }
                            break;
                        }
                    }
                }
                w->destroy(c);
            }
        }
    }
    cudaStreamDestroy(s);
    printf("check %s: %ld cases, %ld runs, %ld refused, %d failures (seed %llu)\n", w->name, cases, runs, refused,
           failures, (unsigned long long)o->seed);
    return failures;
}
