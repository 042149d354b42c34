#include "harness.h"

#include <nvtx3/nvToolsExt.h>
#include "../device/device.h"
#include "../base/check.h"
#include "../base/procs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int climb_select_rungs(const climb_workload *w, const climb_run_opts *o, int *sel)
{
    int count = 0;
    for (int i = 0; i < w->n_rungs; i++) {
        sel[i] = o->n_rungs == 0;
        for (int k = 0; k < o->n_rungs; k++)
            if (climb_find_rung(w, o->rungs[k]) == i) /* by name, or by the ordinal `climb list` prints */
                sel[i] = 1;
        count += sel[i];
    }
    return count;
}

unsigned climb_select_types(const climb_workload *w, const climb_run_opts *o)
{
    if (o->types)
        return o->types & w->types;
    return o->bench_types && w->bench_types ? w->bench_types : w->types;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t climb_case_seed(uint64_t seed, const climb_case_key *k, unsigned offset)
{
    uint64_t z = mix(seed ^ (0x9E3779B97F4A7C15ull * (1 + (uint64_t)k->type)));
    for (int i = 0; i < k->shape.ndims; i++)
        z = mix(z ^ ((uint64_t)k->shape.d[i] * 0xBF58476D1CE4E5B9ull) ^ (uint64_t)i);
    z = mix(z ^ ((uint64_t)k->combo * 0xD6E8FEB86659FD93ull));
    return mix(z ^ ((uint64_t)offset << 56));
}

unsigned climb_extra_ceilings(const climb_workload *const *ws, int n)
{
    unsigned need = 0;
    for (int i = 0; i < n; i++)
        if (ws[i]->extra_ceiling == CLIMB_CEIL_SFU)
            need |= CLIMB_MEASURE_SFU;
        else if (ws[i]->extra_ceiling == CLIMB_CEIL_TENSOR)
            need |= CLIMB_MEASURE_TENSOR;
    return need;
}

int climb_cases(const climb_workload *w, const climb_run_opts *o, const climb_opt_plan *plan,
                const climb_shape *defaults, int n_defaults, climb_case_key **out)
{
    *out = NULL;
    const unsigned types = climb_select_types(w, o);
    const long combos = climb_opt_plan_combos(plan);
    climb_opt_value *vals = w->n_options ? calloc((size_t)w->n_options, sizeof *vals) : NULL;
    size_t n = 0, cap = 16;
    climb_case_key *keys = malloc(sizeof *keys * cap);
    if (!keys || (w->n_options && !vals)) {
        climb_host_oom("the list of cases");
        free(keys);
        free(vals);
        return -1;
    }
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        if (!(types & CLIMB_TYPE_BIT(t)))
            continue;
        for (long c = 0; c < combos; c++) {
            climb_opt_plan_combo(plan, c, vals);
            const climb_shape *shapes = o->n_shapes ? o->shapes : defaults;
            int n_shapes = o->n_shapes ? o->n_shapes : n_defaults;
            int file = 0, repeat = 0;
            for (int k = 0; k < w->n_options; k++)
                if (w->options[k].kind == CLIMB_OPT_FILE && (vals[k].data || vals[k].shape.ndims > 0)) {
                    /* loaded, or (a dry run) peeked at: its shape alone */
                    file = 1;
                    if (vals[k].shape.ndims > 0) {
                        shapes = &vals[k].shape; /* the file fixes the shape */
                        n_shapes = 1;
                    }
                }
            /* With a file, a generator's option runs its first value only. */
            for (int k = 0; k < w->n_options && file; k++)
                if (w->options[k].generator && plan->count[k] > 1 &&
                    strcmp(vals[k].text, plan->values[k][0].text) != 0)
                    repeat = 1;
            if (repeat)
                continue;
            for (int s = 0; s < n_shapes; s++) {
                if (o->only_class) { /* tune, one tuning class at a time */
                    char cls[128];
                    const climb_tuning_key tk = {shapes[s], (climb_dtype)t, vals};
                    climb_tuning_class(w, &tk, o->class_dev, cls, sizeof cls);
                    if (strcmp(cls, o->only_class) != 0)
                        continue;
                }
                if (n == cap) {
                    climb_case_key *p = realloc(keys, sizeof *keys * (cap *= 2));
                    if (!p) {
                        climb_host_oom("the list of cases");
                        free(keys);
                        free(vals);
                        return -1;
                    }
                    keys = p;
                }
                keys[n].type = (climb_dtype)t;
                keys[n].shape = shapes[s];
                keys[n].combo = c;
                n++;
            }
        }
    }
    free(vals);
    *out = keys;
    return (int)n;
}

/* Appends text to buf (len bytes) with "; " between parts. */
static void add_part(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (text && *text && used + 1 < len)
        snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

static void release(const climb_workload *w, climb_case *c, int rung);

/* The poison on this process's GPUs finished, and with several processes on every process's (a rank's run writes
 * other ranks' outputs: none may start before every poison is in place). 0, or -1. */
static int poisoned(const climb_workload *w, climb_case *c, const climb_procs *procs)
{
    /* The poison is written on the legacy stream, which the rung's streams need not follow: wait for it. */
    const int rc = climb_case_poison(w, c) != 0 || CLIMB_FAILED(cudaDeviceSynchronize()) ? -1 : 0;
    if (climb_procs_check(procs, rc, "the poison") != 0 || (procs && procs->barrier(procs->ctx) != 0))
        return -1;
    return 0;
}

/* Poison, reset what the rung changes, run once on s, wait, compare. 0 right, 1 wrong (msg), -1 CUDA error. */
static int run_and_verify(const climb_workload *w, climb_case *c, int rung, cudaStream_t s, const climb_procs *procs,
                          char *msg, size_t len)
{
    msg[0] = '\0';
    const char *changes = w->modifies ? w->modifies(c, rung) : NULL;
    if (poisoned(w, c, procs) != 0 ||
        (changes && climb_case_reset(w, c, s) != 0) || climb_case_run(w, c, rung, s) != 0 || CLIMB_FAILED(cudaStreamSynchronize(s))) {
        snprintf(msg, len, "CUDA error (see above)");
        return -1;
    }
    return climb_case_verify(w, c, rung, msg, len);
}

int climb_env_value_here(const climb_option *o, long long v)
{
    if (v == 0)
        return 1;
    const char *e = getenv(o->env);
    char *end = NULL;
    const long long here = e && *e ? strtoll(e, &end, 10) : 0;
    return e && *e && end && *end == '\0' && here == v;
}

const char *climb_case_env_refuses(const climb_workload *w, const climb_opt_value *opts, char *buf, size_t len)
{
    for (int k = 0; k < w->n_options && opts; k++) {
        const climb_option *o = &w->options[k];
        if (!o->env || climb_env_value_here(o, opts[k].i))
            continue;
        const char *e = getenv(o->env);
        snprintf(buf, len, "%s=%lld needs %s=%lld from the process's start (here it is %s); climb bench runs such "
                           "cases in a process of their own",
                 o->name, opts[k].i, o->env, opts[k].i, e ? e : "unset");
        return buf;
    }
    return NULL;
}

const char *climb_case_too_large(const climb_workload *w, const climb_case_key *k, const climb_opt_value *opts,
                                 char *buf, size_t len)
{
    if (climb_case_env_refuses(w, opts, buf, len))
        return buf;
    const char *rule = w->case_refuses ? w->case_refuses(&k->shape, k->type, opts) : NULL;
    if (rule) {
        char label[160];
        climb_case_label(w, &k->shape, label, sizeof label);
        snprintf(buf, len, "%s %s: %s", climb_dtype_name(k->type), label, rule);
        return buf;
    }
    if (!w->case_bytes)
        return NULL;
    const double need = w->case_bytes(&k->shape, k->type, opts);
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return NULL; /* unknown: create decides */
    const double total = (double)pages * (double)page;
    if (need <= total / 2)
        return NULL;
    char label[160];
    climb_case_label(w, &k->shape, label, sizeof label);
    static const char *const units[] = {"GB", "TB", "PB", "EB", "ZB"};
    double v = need / 1e9;
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    snprintf(buf, len, "%s %s: its inputs and outputs need %.1f %s of host memory; this machine has %.1f GB (at most "
                       "half is used)", climb_dtype_name(k->type), label, v, units[u], total / 1e9);
    return buf;
}

int climb_case_open(const climb_workload *w, const climb_run_opts *o, const climb_opt_plan *plan,
                    const climb_case_key *k, unsigned offset, const climb_device_info *dev, cudaStream_t s,
                    climb_open_case *oc)
{
    memset(oc, 0, sizeof *oc);
    if (w->n_options) {
        oc->opts = calloc((size_t)w->n_options, sizeof *oc->opts);
        if (!oc->opts) {
            climb_host_oom("the option values of a case");
            return -1;
        }
        climb_opt_plan_combo(plan, k->combo, oc->opts);
    }
    char why[300];
    if (climb_case_too_large(w, k, oc->opts, why, sizeof why)) {
        fprintf(stderr, "climb: %s: %s\n", w->name, why);
        climb_case_close(w, oc);
        return -1;
    }
    climb_case_key seed_key = *k; /* options marked same_seed do not change the seed */
    if (w->n_options)
        seed_key.combo = climb_opt_plan_seed_combo(plan, k->combo);
    climb_case_params p = {k->shape, k->type, climb_case_seed(o->seed, &seed_key, offset), offset, oc->opts, dev, 1,
                           &dev->ordinal, dev, NULL};
    if (climb_spans_devices(w)) {
        const int n = o->devices ? o->devices->n : 0;
        if (n < w->min_devices || n > w->max_devices || !o->devs) {
            fprintf(stderr, "climb: %s: a case spans %d to %d GPUs, and %d %s given\n", w->name, w->min_devices,
                    w->max_devices, n, n == 1 ? "was" : "were");
            climb_case_close(w, oc);
            return -1;
        }
        p.n_devices = n;
        p.devices = o->devices->id;
        p.devs = o->devs;
        p.procs = o->procs;
    }
    if (climb_case_create(w, &p, &oc->c) != 0) {
        climb_case_close(w, oc);
        return -1;
    }
    if (w->tuning) {
        int v[CLIMB_MAX_TUNABLES];
        char cls[128];
        const climb_tuning_key tk = {k->shape, k->type, oc->opts};
        climb_tuning_class(w, &tk, dev, cls, sizeof cls);
        const climb_tuned_class *tc = NULL;
        for (int i = 0; !o->tuning && i < o->n_tuned && !tc; i++)
            if (strcmp(o->tuned[i].cls, cls) == 0)
                tc = &o->tuned[i];
        if (o->tuning) {
            memcpy(v, o->tuning, sizeof(int) * (size_t)w->tuning->n_params);
        } else if (tc) {
            memcpy(v, tc->values, sizeof(int) * (size_t)w->tuning->n_params);
        } else {
            climb_tuning_key key = {k->shape, k->type, oc->opts};
            climb_tuning_defaults(w->tuning, dev, &key, v);
        }
        w->set_tuning(oc->c, v);
    }
    for (int i = 0; i < w->n_options; i++)
        if (oc->opts[i].desc)
            add_part(oc->input, sizeof oc->input, oc->opts[i].desc);
    if (w->describe)
        add_part(oc->input, sizeof oc->input, w->describe(oc->c));

    /* The reference, once for every rung of the case. */
    climb_ref_mode mode = o->reference;
    if (mode == CLIMB_REF_AUTO)
        mode = w->ref_cost && w->ref_cost(oc->c) > w->ref_cost_limit ? CLIMB_REF_VENDOR : CLIMB_REF_CPU;
    const char *fallback = NULL;
    int v = climb_vendor_rung(w);
    if (mode == CLIMB_REF_VENDOR && (v < 0 || climb_case_refuses(w, oc->c, v))) {
        mode = CLIMB_REF_SAMPLES;
        fallback = v < 0 ? "no vendor rung" : "the vendor rung does not take this case";
    }
    if (mode == CLIMB_REF_VENDOR) {
        /* The vendor rung's output, in the outputs, is what the workload spot-checks and adopts. */
        const char *changes = w->modifies ? w->modifies(oc->c, v) : NULL;
        if (climb_case_prepare(w, oc->c, v) != 0 || climb_case_poison(w, oc->c) != 0 ||
            CLIMB_FAILED(cudaDeviceSynchronize()) || (changes && climb_case_reset(w, oc->c, s) != 0) ||
            climb_case_run(w, oc->c, v, s) != 0 || CLIMB_FAILED(cudaStreamSynchronize(s))) {
            fprintf(stderr, "climb: %s: the vendor rung %s could not run for the reference\n", w->name, w->rung(v)->name);
            climb_case_close(w, oc);
            return -1;
        }
    }
    int r = climb_case_reference(w, oc->c, mode, oc->reference, sizeof oc->reference);
    if (mode == CLIMB_REF_VENDOR)
        release(w, oc->c, v);
    if (r < 0) {
        climb_case_close(w, oc);
        return -1;
    }
    oc->ref_failed = r == 1;
    if (fallback) {
        char why[120];
        snprintf(why, sizeof why, " (%s)", fallback);
        size_t used = strlen(oc->reference);
        snprintf(oc->reference + used, sizeof oc->reference - used, "%s", why);
    }
    return 0;
}

void climb_case_close(const climb_workload *w, climb_open_case *oc)
{
    if (oc->c)
        climb_case_destroy(w, oc->c);
    free(oc->opts);
    memset(oc, 0, sizeof *oc);
}

typedef struct {
    const climb_workload *w;
    climb_case *c;
    int rung;
} run_ctx;

static int run_one(void *p, cudaStream_t s)
{
    run_ctx *r = (run_ctx *)p;
    return climb_case_run(r->w, r->c, r->rung, s);
}

static int run_many(void *p, cudaStream_t s, int reps)
{
    run_ctx *r = (run_ctx *)p;
    return climb_case_run_batch(r->w, r->c, r->rung, s, reps);
}

static int reset_one(void *p, cudaStream_t s)
{
    run_ctx *r = (run_ctx *)p;
    return climb_case_reset(r->w, r->c, s);
}

int climb_context_lost(int v)
{
    if (v >= 0)
        return 0;
    cudaGetLastError();
    if (cudaDeviceSynchronize() == cudaSuccess)
        return 0;
    fprintf(stderr, "climb: the CUDA context is no longer usable; stopping\n");
    return 1;
}

int climb_run_setup_open(const climb_workload *w, const climb_run_opts *o, const climb_shape *defaults,
                         int n_defaults, climb_run_setup *s)
{
    memset(s, 0, sizeof *s);
    s->sel = calloc((size_t)w->n_rungs, sizeof *s->sel);
    s->vals = w->n_options ? calloc((size_t)w->n_options, sizeof *s->vals) : NULL;
    if (!s->sel || (w->n_options && !s->vals)) {
        climb_host_oom("the run's rungs and options");
        return -1;
    }
    s->n_selected = climb_select_rungs(w, o, s->sel);
    s->plan = o->options;
    if (!s->plan) {
        char err[300];
        if (climb_opt_plan_init(&s->own, w->options, w->n_options, err, sizeof err) != 0) {
            fprintf(stderr, "climb: %s: %s\n", w->name, err);
            return -1;
        }
        s->plan = &s->own;
    }
    s->n_cases = climb_cases(w, o, s->plan, defaults, n_defaults, &s->keys);
    return s->n_cases < 0 ? -1 : 0;
}

void climb_run_setup_close(const climb_workload *w, climb_run_setup *s)
{
    free(s->sel);
    free(s->vals);
    free(s->keys);
    climb_opt_plan_free(&s->own, w->unload);
    memset(s, 0, sizeof *s);
}

/* Done with a rung on this case: what its prepare built is freed (w->release), after its work has finished. */
static void release(const climb_workload *w, climb_case *c, int rung)
{
    if (!w->release)
        return;
    cudaDeviceSynchronize();
    climb_case_release(w, c, rung);
}

/* The counts of rung r's row: its own where it declares them, else the case's. 1 when they are its own. */
static int row_counts(const climb_workload *w, const climb_case *c, int rung, climb_counts *out)
{
    w->counts(c, out);
    climb_counts own;
    if (w->rung_counts && w->rung_counts(c, rung, &own) == 1) {
        *out = own;
        return 1;
    }
    return 0;
}

static int measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                        climb_timing *out, char *msg, size_t len);

/* The rung timed on the device the workload names for this case (w->timer_device), with a timer of its own there
 * where that is not the run's timer's device. */
int climb_measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                       climb_timing *out, char *msg, size_t len)
{
    const int d = w->timer_device && !o->procs ? w->timer_device(c) : -1;
    if (d < 0 || d == t->device)
        return measure_rung(w, c, rung, t, o, out, msg, len);
    climb_timer own;
    memset(&own, 0, sizeof own);
    int prev = -1, l2 = 0, rc = -1;
    if (!CLIMB_FAILED(cudaGetDevice(&prev)) && !CLIMB_FAILED(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d)) &&
        !CLIMB_FAILED(cudaSetDevice(d))) {
        rc = climb_timer_init(&own, (size_t)l2);
        rc = CLIMB_FAILED(cudaSetDevice(prev)) ? -1 : rc;
    }
    if (rc == 0)
        rc = measure_rung(w, c, rung, &own, o, out, msg, len);
    else
        snprintf(msg, len, "CUDA error (see stderr): no timer on GPU %d", d);
    climb_timer_free(&own);
    return rc;
}

static int measure_rung(const climb_workload *w, climb_case *c, int rung, climb_timer *t, const climb_timing_opts *o,
                        climb_timing *out, char *msg, size_t len)
{
    msg[0] = '\0';
    /* The rung's set-up is timed here, for every workload alike: the wall clock around prepare and its device work.
     * Where the workload reports set-ups and can release one, a first prepare goes untimed and is released: the
     * first launch of a kernel in a process loads its module (CUDA loads lazily), a cost paid once a process and
     * not by each set-up (the BFS plan's sort measured 27 ms the first time, 4 ms after). */
    const climb_procs *procs = o->procs;
    int prepared = 1;
    if (w->setup && w->release) {
        prepared = climb_case_prepare(w, c, rung) == 0 && !CLIMB_FAILED(cudaDeviceSynchronize());
        if (prepared)
            release(w, c, rung);
    }
    const double t0 = climb_wall_s();
    prepared = prepared && climb_case_prepare(w, c, rung) == 0 && !CLIMB_FAILED(cudaDeviceSynchronize());
    const double prepare_ms = 1e3 * (climb_wall_s() - t0);
    /* With several processes, a failure on one ends them all (the others would wait inside a run for it); a wrong
     * output on one is every process's verdict. */
    climb_procs_check(procs, prepared ? 0 : -1, "a rung's set-up");
    const double t1 = climb_wall_s();
    int v = prepared ? climb_procs_check(procs, run_and_verify(w, c, rung, t->stream, procs, msg, len), "a rung's run") : -1;
    if (procs)
        v = climb_procs_verdict(procs, v, msg, len);
    if (v != 0) {
        if (v < 0 && !msg[0])
            snprintf(msg, len, "CUDA error (see stderr)");
        release(w, c, rung);
        return v;
    }
    double first_s = climb_wall_s() - t1;
    if (procs && climb_procs_max(procs, &first_s, 1) != 0)
        return -1;
    if (o->budget_s > 0 && first_s > o->budget_s) { /* right, but too slow to sample in a quick run */
        snprintf(msg, len, "not timed: one verified run took %.2f s, over the quick run's %.2g s a rung (climb bench "
                           "%s, or --full, times it)", first_s, o->budget_s, w->name);
        release(w, c, rung);
        return 2;
    }
    /* Time from poisoned outputs, then check what the last timed run left. A rung with a host part is timed by
     * the host's clock, its waits for the host included. */
    run_ctx rc = {w, c, rung};
    const char *changes = w->modifies ? w->modifies(c, rung) : NULL;
    climb_timing_opts to = *o;
    to.wall = w->rung(rung)->host_part;
    to.no_flush = w->cold_no_flush;
    to.many = w->run_batch ? run_many : NULL;
    if (poisoned(w, c, procs) != 0 ||
        climb_time(t, run_one, changes ? reset_one : NULL, &rc, &to, out) != 0) {
        snprintf(msg, len, "CUDA error (see stderr)");
        release(w, c, rung);
        return -1;
    }
    out->prepare_ms = prepare_ms;
    char m[256];
    v = climb_procs_check(procs, climb_case_verify(w, c, rung, m, sizeof m), "the check of a timed run");
    if (procs)
        v = climb_procs_verdict(procs, v, m, sizeof m);
    if (v == 1)
        snprintf(msg, len, "wrong after repeated runs: %s", m);
    else if (v < 0)
        snprintf(msg, len, "CUDA error (see stderr)");
    release(w, c, rung);
    return v;
}

/* Progress and failure lines name a case like this: "reduce i32 n=2^22 [bins=256]". */
static void case_name(const climb_workload *w, const climb_case_key *k, const climb_opt_value *opts, char *buf,
                      size_t len)
{
    char label[160], o[400];
    climb_case_label(w, &k->shape, label, sizeof label);
    climb_opt_format(w->options, w->n_options, opts, o, sizeof o);
    snprintf(buf, len, "%s %s %s%s%s%s", w->name, climb_dtype_name(k->type), label, o[0] ? " [" : "", o, o[0] ? "]" : "");
}

const climb_shape *climb_bench_shapes(const climb_workload *w, const climb_run_opts *o, int *n)
{
    if (o->size_class)
        return climb_size_class_shapes(w, o->size_class, n);
    return climb_default_shapes(w, 0, o->quick, n);
}

void climb_progress_step(climb_progress *m, const char *what)
{
    const long i = m->done + 1, total = m->total > 0 ? m->total : 1;
    if (!m->tty) {
        fprintf(stderr, "[%ld/%ld] %s\n", i, m->total, what);
        m->done++;
        return;
    }
    int cols = 100;
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        cols = ws.ws_col;
    const double frac = (double)m->done / (double)total, el = climb_wall_s() - m->t0;
    char bar[21], line[512], left[48] = "";
    const int fill = (int)(frac * 20 + 0.5);
    for (int k = 0; k < 20; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[20] = '\0';
    if (m->done > 0) {
        const double rest = el / (double)m->done * (double)(total - m->done);
        snprintf(left, sizeof left, ", about %d:%02d left", (int)rest / 60, (int)rest % 60);
    }
    int n = snprintf(line, sizeof line, "[%s] %3d%% %ld/%ld %d:%02d%s  %s", bar, (int)(100 * frac), i, m->total,
                     (int)el / 60, (int)el % 60, left, what);
    if (n >= cols) /* one line: cut to the terminal's width */
        line[cols - 1 < (int)sizeof line ? cols - 1 : (int)sizeof line - 1] = '\0';
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    m->shown = 1;
    m->done++;
}

void climb_progress_break(climb_progress *m)
{
    if (m && m->tty && m->shown) {
        if (m->done >= m->total) { /* the last step has finished: the bar full */
            const double el = climb_wall_s() - m->t0;
            fprintf(stderr, "\r\033[K[####################] 100%% %ld/%ld %d:%02d", m->total, m->total, (int)el / 60,
                    (int)el % 60);
        }
        fputc('\n', stderr);
        m->shown = 0;
    }
}

int climb_bench(const climb_workload *w, const climb_run_opts *o, climb_timer *t, climb_report *rep)
{
    climb_run_setup rs;
    int failures = 0;
    int n_shapes;
    const climb_shape *shapes = climb_bench_shapes(w, o, &n_shapes);
    if (climb_run_setup_open(w, o, shapes, n_shapes, &rs) != 0) {
        failures = -1;
        goto done;
    }
    /* --output: one case, and the rung whose output is written (the best, else the last selected). */
    int save_rung = -1;
    if (o->output) {
        const int best = climb_best_rung(w);
        for (int r = 0; r < w->n_rungs; r++)
            if (rs.sel[r])
                save_rung = r;
        if (best >= 0 && rs.sel[best])
            save_rung = best;
        if (!w->save || rs.n_cases != 1 || save_rung < 0) {
            fprintf(stderr, "climb: --output %s: %s\n", o->output,
                    !w->save ? "this workload writes no output file"
                    : save_rung < 0 ? "no rung is selected"
                                    : "one case's output is written, and this run has several (name one size or "
                                      "input, one value of each option, one type)");
            failures = -1;
            goto done;
        }
    }
    for (int ci = 0; ci < rs.n_cases && rs.n_selected; ci++) {
        const climb_case_key *k = &rs.keys[ci];
        climb_opt_value *vals = rs.vals;
        climb_opt_plan_combo(rs.plan, k->combo, vals);
        char name[600];
        case_name(w, k, vals, name, sizeof name);
        if (o->progress && !(o->meter && o->meter->tty)) /* on a terminal the bar names the case */
            fprintf(stderr, "[%s] preparing inputs and reference\n", name);
        climb_open_case oc;
        int opened = climb_case_open(w, o, rs.plan, k, 0, &rep->dev, t->stream, &oc) == 0;
        climb_procs_check(o->procs, opened ? 0 : -1, "setting up a case");
        int vendor = climb_vendor_rung(w);
        for (int r = 0; r < w->n_rungs; r++) {
            if (!rs.sel[r])
                continue;
            climb_row *row = climb_report_add(rep, w, r, k->type, &k->shape, vals, opened ? oc.input : "");
            if (!row) {
                climb_host_oom("report rows");
                if (opened)
                    climb_case_close(w, &oc);
                failures = -1;
                goto done;
            }
            if (!opened) {
                row->status = CLIMB_ROW_ERROR;
                snprintf(row->note, sizeof row->note, "could not set up the inputs (see the message above)");
                failures++;
                continue;
            }
            row->own_counts = row_counts(w, oc.c, r, &row->counts);
            row->wall = w->rung(r)->host_part;
            snprintf(row->reference, sizeof row->reference, "%s", oc.reference);
            if (oc.ref_failed) {
                row->status = r == vendor ? CLIMB_ROW_WRONG : CLIMB_ROW_ERROR;
                snprintf(row->note, sizeof row->note, "%s", r == vendor ? "its output failed the CPU spot checks"
                                                                        : "no reference (the vendor's output failed the CPU spot checks)");
                failures++;
                continue;
            }
            const char *why = climb_case_refuses(w, oc.c, r);
            if (why) {
                row->status = CLIMB_ROW_REFUSED;
                snprintf(row->note, sizeof row->note, "%s", why);
                continue;
            }
            const char *changes = w->modifies ? w->modifies(oc.c, r) : NULL;
            if (w->rung(r)->host_part && o->timing.batch) {
                row->status = CLIMB_ROW_REFUSED;
                snprintf(row->note, sizeof row->note,
                         "no batch timing: a run waits for the host inside itself, so runs cannot be launched back "
                         "to back; time it cold (by the wall clock, the host's work included)");
                continue;
            }
            if (changes && o->timing.batch) {
                row->status = CLIMB_ROW_REFUSED;
                snprintf(row->note, sizeof row->note,
                         "no batch timing: a run changes its operands (%s) and the reset between runs would be timed; "
                         "time it cold", changes);
                continue;
            }
            if (o->progress && o->meter) {
                char what[700];
                snprintf(what, sizeof what, "%s %s", name, w->rung(r)->name);
                climb_progress_step(o->meter, what);
            } else if (o->progress) {
                fprintf(stderr, "[%s] %d %s\n", name, r, w->rung(r)->name);
            } else if (o->meter) {
                o->meter->done++;
            }
            char msg[300], range[700];
            /* An NVTX range per rung and case, named workload/rung/case, for nsys and ncu (--profile) */
            snprintf(range, sizeof range, "%s/%s/%s", w->name, w->rung(r)->name, name);
            nvtxRangePushA(range);
            int v = climb_measure_rung(w, oc.c, r, t, &o->timing, &row->t, msg, sizeof msg);
            nvtxRangePop();
            if (v >= 0 && w->setup && (row->has_setup = w->setup(oc.c, r, &row->setup) == 1))
                row->setup.ms = row->t.prepare_ms; /* the harness times every rung's prepare */
            if (v >= 0) /* asked again: a rung's counts may depend on what its run found */
                row->own_counts = row_counts(w, oc.c, r, &row->counts);
            const char *about = v == 0 && w->rung_note ? w->rung_note(oc.c, r) : NULL;
            if (about && about[0])
                climb_report_note(rep, "%s, %s: %s", name, w->rung(r)->name, about);
            if (v == 0 && o->timing.max_noise_pct > 0 && row->t.noise_pct > o->timing.max_noise_pct)
                snprintf(row->note, sizeof row->note, "noise %.2f%% above the %.2g%% target: %s (%d samples)",
                         row->t.noise_pct, o->timing.max_noise_pct,
                         row->t.stop == CLIMB_STOP_STEADY ? "it held steady there, so more samples would not lower it"
                         : row->t.stop == CLIMB_STOP_TIME ? "stopped at the time limit (--max-time)"
                                                          : "stopped at the sample cap",
                         row->t.samples);
            if (v == 0 && r == save_rung) {
                char err[240];
                if (climb_case_save(w, oc.c, r, o->output, err, sizeof err) != 0) {
                    snprintf(msg, sizeof msg, "its output could not be written: %s", err);
                    v = -1;
                } else if (o->progress) {
                    fprintf(stderr, "[%s] %s's output written to %s\n", name, w->rung(r)->name, o->output);
                }
            }
            if (v == 2) { /* over the quick run's budget: refused, with the time it took */
                row->status = CLIMB_ROW_REFUSED;
                snprintf(row->note, sizeof row->note, "%s", msg);
                v = 0;
                continue;
            }
            if (v != 0) {
                row->status = v == 1 ? CLIMB_ROW_WRONG : CLIMB_ROW_ERROR;
                snprintf(row->note, sizeof row->note, "%s", msg);
                climb_progress_break(o->meter);
                fprintf(stderr, "FAIL %s %s seed=%llu: %s\n", name, w->rung(r)->name, (unsigned long long)o->seed,
                        row->note);
                failures++;
                if (climb_context_lost(v)) {
                    climb_case_close(w, &oc);
                    failures = -1;
                    goto done;
                }
            }
        }
        if (opened)
            climb_case_close(w, &oc);
    }
done:
    climb_run_setup_close(w, &rs);
    return failures;
}

/* Prints one failure of a check and keeps it for the report. */
static void check_failed(climb_check_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_failed(climb_check_result *res, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
    if (!res)
        return;
    if (res->n_failed == res->cap_failed) {
        int cap = res->cap_failed ? 2 * res->cap_failed : 8;
        char **p = realloc(res->failed, sizeof *p * (size_t)cap);
        if (!p)
            return;
        res->failed = p;
        res->cap_failed = cap;
    }
    size_t n = strlen(line) + 1;
    char *copy = malloc(n);
    if (copy) {
        memcpy(copy, line, n);
        res->failed[res->n_failed++] = copy;
    }
}

int climb_check(const climb_workload *w, const climb_run_opts *o, const climb_device_info *dev,
                climb_check_result *res)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->w = w;
    }
    climb_run_setup rs;
    cudaStream_t s = NULL;
    long runs = 0, refused = 0, cases = 0;
    int failures = 0;
    int n_shapes;
    const climb_shape *shapes = climb_default_shapes(w, 1, o->quick, &n_shapes);
    if (climb_run_setup_open(w, o, shapes, n_shapes, &rs) != 0 ||
        CLIMB_FAILED(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking))) {
        failures = -1;
        goto done;
    }
    /* With several processes, every one runs every check and their verdicts are combined; rank 0 says them. */
    const climb_procs *procs = o->procs;
    const int say = !procs || procs->rank == 0;
    if (o->progress && say)
        fprintf(stderr, "[check %s] %d cases\n", w->name, rs.n_cases);
    for (int ci = 0; ci < rs.n_cases && rs.n_selected; ci++) {
        const climb_case_key *k = &rs.keys[ci];
        climb_opt_value *vals = rs.vals;
        climb_opt_plan_combo(rs.plan, k->combo, vals);
        char name[600];
        case_name(w, k, vals, name, sizeof name);
        unsigned max_off = climb_shape_elems(&k->shape) <= CLIMB_CHECK_OFFSET_MAX_ELEMS ? w->check_max_offset : 0;
        for (unsigned off = 0; off <= max_off; off++) {
            climb_open_case oc;
            if (climb_procs_check(procs, climb_case_open(w, o, rs.plan, k, off, dev, s, &oc), "setting up a case") != 0) {
                check_failed(res, "FAIL %s offset=%u: could not set up the inputs", name, off);
                failures++;
                continue;
            }
            cases++;
            if (oc.ref_failed) {
                check_failed(res, "FAIL %s offset=%u: %s: %s", name, off, w->rung(climb_vendor_rung(w))->name,
                             oc.reference);
                failures++;
                climb_case_close(w, &oc);
                continue;
            }
            for (int r = 0; r < w->n_rungs; r++) {
                if (!rs.sel[r])
                    continue;
                if (climb_case_refuses(w, oc.c, r)) {
                    refused++;
                    continue;
                }
                if (climb_procs_check(procs, climb_case_prepare(w, oc.c, r), "a rung's set-up") != 0) {
                    check_failed(res, "FAIL %s %s offset=%u: could not prepare the rung", name, w->rung(r)->name, off);
                    failures++;
                    continue;
                }
                for (int rep = 1; rep <= 2; rep++) {
                    char msg[320];
                    int v = climb_procs_check(procs, run_and_verify(w, oc.c, r, s, procs, msg, sizeof msg), "a rung's run");
                    if (procs)
                        v = climb_procs_verdict(procs, v, msg, sizeof msg);
                    runs++;
                    if (v != 0) {
                        if (say)
                            check_failed(res, "FAIL %s %s offset=%u run %d (seed %llu): %s", name, w->rung(r)->name,
                                         off, rep, (unsigned long long)o->seed, msg);
                        failures++;
                        if (climb_context_lost(v)) {
                            climb_case_close(w, &oc);
                            failures = -1;
                            goto done;
                        }
                        break;
                    }
                }
                release(w, oc.c, r);
            }
            climb_case_close(w, &oc);
        }
    }
    if (say)
        printf("check %s: %ld cases, %ld runs, %ld refused, %d failures (seed %llu)\n", w->name, cases, runs, refused,
               failures, (unsigned long long)o->seed);
    if (res) {
        res->cases = cases;
        res->runs = runs;
        res->refused = refused;
        res->failures = failures;
    }
done:
    if (s)
        cudaStreamDestroy(s);
    climb_run_setup_close(w, &rs);
    return failures;
}
