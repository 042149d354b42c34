#include "workload.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *climb_rung_kind_name(climb_rung_kind k)
{
    switch (k) {
    case CLIMB_RUNG_VENDOR: return "vendor";
    case CLIMB_RUNG_LADDER: return "ladder";
    case CLIMB_RUNG_BEST: return "best";
    case CLIMB_RUNG_BOUND: return "bound";
    }
    return "?";
}

const char *climb_ceiling_name(climb_ceiling c)
{
    switch (c) {
    case CLIMB_CEIL_NONE: return "none";
    case CLIMB_CEIL_SFU: return "sfu";
    case CLIMB_CEIL_TENSOR: return "tensor";
    }
    return "?";
}

const char *climb_tensor_format_name(climb_tensor_format f)
{
    return f == CLIMB_TENSOR_BF16 ? "bf16" : f == CLIMB_TENSOR_TF32 ? "tf32" : "none";
}

climb_tensor_format climb_tensor_format_parse(const char *s)
{
    return strcmp(s, "bf16") == 0 ? CLIMB_TENSOR_BF16 : strcmp(s, "tf32") == 0 ? CLIMB_TENSOR_TF32 : CLIMB_TENSOR_NONE;
}

const char *climb_ref_mode_name(climb_ref_mode m)
{
    switch (m) {
    case CLIMB_REF_AUTO: return "auto";
    case CLIMB_REF_CPU: return "cpu";
    case CLIMB_REF_VENDOR: return "vendor";
    case CLIMB_REF_SAMPLES: return "samples";
    }
    return "?";
}

/* ---- the registry ---- */

/* The registry CMake generates from CLIMB_ALL_WORKLOADS (src/workloads/registry.c.in): the built-in list. */
const climb_workload *const *climb_builtin_workloads(int *count);

static const climb_workload **all_workloads;
static int n_all, cap_all;
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

static void make_list(void)
{
    int nb;
    const climb_workload *const *b = climb_builtin_workloads(&nb);
    int cap = nb + 8;
    const climb_workload **l = malloc(sizeof *l * (size_t)cap);
    if (!l)
        return;
    for (int i = 0; i < nb; i++)
        l[i] = b[i];
    n_all = nb;
    cap_all = cap;
    all_workloads = l;
}

/* The built-in list copied into the growable one, once, whichever thread asks first (the C API's handles may be
 * used from many). 0, or -1 when out of memory. Registering more (tests, before any thread starts) is not locked. */
static int ensure_list(void)
{
    pthread_once(&list_once, make_list);
    return all_workloads ? 0 : -1;
}

const climb_workload *const *climb_workloads(int *count)
{
    if (ensure_list() != 0)
        return climb_builtin_workloads(count);
    *count = n_all;
    return all_workloads;
}

int climb_register_workload(const climb_workload *w)
{
    if (!w || !w->name || ensure_list() != 0 || climb_find_workload(w->name))
        return -1;
    if (n_all == cap_all) {
        const climb_workload **p = realloc(all_workloads, sizeof *p * (size_t)(2 * cap_all));
        if (!p)
            return -1;
        all_workloads = p;
        cap_all *= 2;
    }
    all_workloads[n_all++] = w;
    return 0;
}

const climb_workload *climb_find_workload(const char *name)
{
    int n;
    const climb_workload *const *all = climb_workloads(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

int climb_find_rung(const climb_workload *w, const char *name)
{
    for (int i = 0; i < w->n_rungs; i++)
        if (strcmp(w->rung(i)->name, name) == 0)
            return i;
    /* the ordinal `climb list` prints beside it */
    int k = 0;
    const char *p = name;
    for (; *p >= '0' && *p <= '9' && k <= w->n_rungs; p++)
        k = 10 * k + (*p - '0');
    return p != name && *p == '\0' && k < w->n_rungs ? k : -1;
}

static int first_of_kind(const climb_workload *w, climb_rung_kind k)
{
    for (int i = 0; i < w->n_rungs; i++)
        if (w->rung(i)->kind == k)
            return i;
    return -1;
}

int climb_best_rung(const climb_workload *w) { return first_of_kind(w, CLIMB_RUNG_BEST); }
int climb_vendor_rung(const climb_workload *w) { return first_of_kind(w, CLIMB_RUNG_VENDOR); }
int climb_bound_rung(const climb_workload *w) { return first_of_kind(w, CLIMB_RUNG_BOUND); }

int climb_one_kernel(climb_kernel_desc *out, int max, const void *func, const char *name, int block_threads,
                     size_t dynamic_smem)
{
    if (max >= 1) {
        out[0].func = func;
        snprintf(out[0].name, sizeof out[0].name, "%s", name);
        out[0].block_threads = block_threads;
        out[0].dynamic_smem = dynamic_smem;
    }
    return 1;
}

int climb_kernel_at(climb_kernel_desc *out, int max, int i, const void *func, int block_threads, size_t dynamic_smem,
                    const char *fmt, ...)
{
    if (!func)
        return i;
    if (i < max) {
        memset(&out[i], 0, sizeof out[i]);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out[i].name, sizeof out[i].name, fmt, ap);
        va_end(ap);
        out[i].func = func;
        out[i].block_threads = block_threads;
        out[i].dynamic_smem = dynamic_smem;
    }
    return i + 1;
}

int climb_rung_kernels(const climb_workload *w, int r, climb_dtype t, const climb_device_info *dev,
                       climb_kernel_desc *out, int max)
{
    const climb_rung_info *ri = w->rung(r);
    if (!ri->kernels)
        return 0;
    int tuning[CLIMB_MAX_TUNABLES] = {0};
    if (r == climb_best_rung(w) && w->tuning && w->n_bench_shapes > 0) {
        climb_tuning_key key = {w->bench_shapes[0], t, NULL};
        climb_tuning_defaults(w->tuning, dev, &key, tuning);
    }
    return ri->kernels(t, dev, tuning, out, max);
}

int climb_no_kernels(climb_dtype t, const climb_device_info *dev, const int *tuning, climb_kernel_desc *out, int max)
{
    (void)t;
    (void)dev;
    (void)tuning;
    (void)out;
    (void)max;
    return 0;
}

const climb_sweep *climb_find_sweep(const climb_workload *w, const char *name)
{
    for (int i = 0; i < w->n_sweeps && w->sweeps; i++)
        if (strcmp(w->sweeps[i].name, name) == 0)
            return &w->sweeps[i];
    return NULL;
}

int climb_rung_on_ladder(const climb_workload *w, int rung)
{
    climb_rung_kind k = w->rung(rung)->kind;
    return k == CLIMB_RUNG_LADDER || k == CLIMB_RUNG_BEST;
}

int climb_first_ladder_rung(const climb_workload *w)
{
    for (int i = 0; i < w->n_rungs; i++)
        if (climb_rung_on_ladder(w, i))
            return i;
    return -1;
}

int climb_workload_ndims(const climb_workload *w)
{
    int n = 0;
    while (n < CLIMB_MAX_DIMS && w->dims[n])
        n++;
    return n;
}

void climb_workload_dims(const climb_workload *w, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < climb_workload_ndims(w) && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", w->dims[i]);
        if (k > 0)
            used += (size_t)k;
    }
}

/* The index of the dim named by the len characters at name, or -1. */
static int dim_index(const climb_workload *w, const char *name, size_t len)
{
    for (int i = 0; i < climb_workload_ndims(w); i++)
        if (strlen(w->dims[i]) == len && strncmp(w->dims[i], name, len) == 0)
            return i;
    return -1;
}

void climb_case_label(const climb_workload *w, const climb_shape *s, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (w->shape_format) {
        size_t used = 0;
        for (const char *p = w->shape_format; *p && used + 1 < len;) {
            const char *close = *p == '{' ? strchr(p, '}') : NULL;
            const int d = close ? dim_index(w, p + 1, (size_t)(close - p - 1)) : -1;
            int k;
            if (d >= 0 && d < s->ndims) {
                k = snprintf(buf + used, len - used, "%zu", s->d[d]);
                p = close + 1;
            } else {
                k = snprintf(buf + used, len - used, "%c", *p);
                p++;
            }
            if (k > 0)
                used += (size_t)k;
        }
        return;
    }
    char dims[160], shape[200];
    size_t used = 0;
    dims[0] = '\0';
    for (int i = 0; i < climb_workload_ndims(w) && used < sizeof dims; i++) {
        int k = snprintf(dims + used, sizeof dims - used, "%s%s", i ? "," : "", w->dims[i]);
        if (k > 0)
            used += (size_t)k;
    }
    climb_shape_label(s, shape, sizeof shape);
    snprintf(buf, len, "%s=%s", dims, shape);
}

/* ---- tuning helpers ---- */

void climb_tuning_class(const climb_workload *w, const climb_tuning_key *key, const climb_device_info *dev, char *buf,
                        size_t len)
{
    const climb_opt_value *opts = key ? key->opts : NULL;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < w->n_options && used < len; i++) {
        const climb_option *o = &w->options[i];
        if (!o->keys_tuning)
            continue;
        /* without values, the option's default (its first value where the default lists several) */
        char def[64];
        const char *v = opts && opts[i].text ? opts[i].text : NULL;
        if (!v) {
            snprintf(def, sizeof def, "%s", o->def);
            def[strcspn(def, ",")] = '\0';
            v = def;
        }
        int k = snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "", o->name, v);
        if (k > 0)
            used += (size_t)k;
    }
    if (w->tuning && w->tuning->shape_class && key && dev && used + 1 < len) {
        char part[64] = "";
        w->tuning->shape_class(dev, key, part, sizeof part);
        if (part[0])
            snprintf(buf + used, len - used, "%s%s", used ? "," : "", part);
    }
}

int climb_tuning_has_classes(const climb_workload *w)
{
    if (w->tuning && w->tuning->shape_class)
        return 1;
    for (int i = 0; i < w->n_options; i++)
        if (w->options[i].keys_tuning)
            return 1;
    return 0;
}

long climb_tuning_count(const climb_tuning *tn)
{
    if (tn->candidates)
        return tn->n_candidates;
    long total = 1;
    for (int k = 0; k < tn->n_params; k++)
        total *= tn->params[k].n_values;
    return total;
}

void climb_tuning_values(const climb_tuning *tn, long i, int *v)
{
    if (tn->candidates) {
        memcpy(v, tn->candidates + (size_t)i * (size_t)tn->n_params, sizeof(int) * (size_t)tn->n_params);
        return;
    }
    for (int k = tn->n_params - 1; k >= 0; k--) {
        v[k] = tn->params[k].values[i % tn->params[k].n_values];
        i /= tn->params[k].n_values;
    }
}

const char *climb_tuning_defaults(const climb_tuning *tn, const climb_device_info *dev, const climb_tuning_key *k,
                                  int *values)
{
    if (tn->defaults)
        return tn->defaults(dev, k, values);
    memcpy(values, tn->builtin, sizeof *values * (size_t)tn->n_params);
    return tn->builtin_why;
}

const char *climb_tuning_check(const climb_tuning *tn, const climb_device_info *dev, const int *v, char *buf,
                               size_t len)
{
    for (int k = 0; k < tn->n_params; k++) {
        const climb_tunable *p = &tn->params[k];
        int found = 0;
        for (int j = 0; j < p->n_values; j++)
            found |= p->values[j] == v[k];
        if (found)
            continue;
        size_t used = (size_t)snprintf(buf, len, "%s is not one of ", p->name);
        for (int j = 0; j < p->n_values && used < len; j++) {
            int w = snprintf(buf + used, len - used, "%s%d", j ? ", " : "", p->values[j]);
            if (w > 0)
                used += (size_t)w;
        }
        return buf;
    }
    if (tn->candidates) {
        int found = 0;
        for (int i = 0; i < tn->n_candidates && !found; i++)
            found = memcmp(tn->candidates + (size_t)i * (size_t)tn->n_params, v, sizeof(int) * (size_t)tn->n_params) == 0;
        if (!found) {
            snprintf(buf, len, "not one of the %d listed candidate sets", tn->n_candidates);
            return buf;
        }
    }
    return tn->rejects ? tn->rejects(dev, v) : NULL;
}

void climb_tuning_format(const climb_tuning *tn, const int *values, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; tn && i < tn->n_params && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s=%d", i ? " " : "", tn->params[i].name, values[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* ---- validation ---- */

typedef struct {
    char *msg;
    size_t len, used;
    int problems;
    const char *wname;
} problems;

static void problem(problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems *p, const char *fmt, ...)
{
    p->problems++;
    if (p->used + 1 >= p->len)
        return;
    int k = snprintf(p->msg + p->used, p->len - p->used, "%s%s: ", p->used ? "; " : "", p->wname);
    if (k > 0)
        p->used += (size_t)k;
    if (p->used + 1 >= p->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    k = vsnprintf(p->msg + p->used, p->len - p->used, fmt, ap);
    va_end(ap);
    if (k > 0)
        p->used += (size_t)k;
    if (p->used >= p->len)
        p->used = p->len - 1;
}

static int identifier(const char *s)
{
    if (!s || !*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

static int text(const char *s) { return s && *s; }

const climb_shape *climb_default_shapes(const climb_workload *w, int check, int quick, int *n)
{
    if (check) {
        *n = quick ? w->n_quick_shapes : w->n_check_shapes;
        return quick ? w->quick_shapes : w->check_shapes;
    }
    if (quick && w->main_shapes && w->n_main_shapes > 0) {
        *n = w->n_main_shapes;
        return w->main_shapes;
    }
    *n = w->n_bench_shapes;
    return w->bench_shapes;
}

const climb_shape *climb_tune_shapes(const climb_workload *w, int *n)
{
    if (w->tune_shapes && w->n_tune_shapes > 0) {
        *n = w->n_tune_shapes;
        return w->tune_shapes;
    }
    *n = w->n_bench_shapes;
    return w->bench_shapes;
}

const climb_shape *climb_size_class_shapes(const climb_workload *w, char cls, int *n)
{
    *n = 0;
    if (cls == 'M')
        return climb_default_shapes(w, 0, 1, n);
    if (cls != 'S' && cls != 'L')
        return NULL;
    const climb_shape *pick = NULL;
    for (int i = 0; i < w->n_bench_shapes; i++) {
        const climb_shape *s = &w->bench_shapes[i];
        if (!pick || (cls == 'S' ? climb_shape_elems(s) < climb_shape_elems(pick)
                                 : climb_shape_elems(s) > climb_shape_elems(pick)))
            pick = s;
    }
    *n = pick ? 1 : 0;
    return pick;
}

static void check_shapes(problems *p, const char *what, const climb_shape *s, int n, int ndims, int need)
{
    if (need && (n < 1 || !s))
        problem(p, "no %s", what);
    for (int i = 0; i < n && s; i++)
        if (s[i].ndims != ndims)
            problem(p, "%s[%d] has %d sizes, the workload %d dims", what, i, s[i].ndims, ndims);
}

/* An environment variable's name: capitals, digits and '_', not starting with a digit. */
static int env_name(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static void check_options(problems *p, const climb_workload *w)
{
    if (w->n_options < 0 || (w->n_options > 0 && !w->options))
        problem(p, "n_options is %d but options is %s", w->n_options, w->options ? "set" : "NULL");
    int files = 0;
    for (int k = 0; k < w->n_options && w->options; k++) {
        const climb_option *o = &w->options[k];
        if (!identifier(o->name))
            problem(p, "option %d has no proper name", k);
        if (!text(o->meaning))
            problem(p, "option %s has no meaning", o->name ? o->name : "?");
        if (o->keys_tuning && (o->kind == CLIMB_OPT_FILE || !w->tuning))
            problem(p, "option %s keys the tuning but %s", o->name ? o->name : "?",
                    o->kind == CLIMB_OPT_FILE ? "is a file" : "the workload has nothing to tune");
        for (int j = 0; j < k; j++)
            if (o->name && w->options[j].name && strcmp(o->name, w->options[j].name) == 0)
                problem(p, "option %s declared twice", o->name);
        if (o->env && (o->kind != CLIMB_OPT_INT || o->min != 0 || !env_name(o->env)))
            problem(p, "option %s stands for an environment variable: it must be an INT from 0, the variable's name "
                       "in capitals, digits and '_'", o->name ? o->name : "?");
        if ((o->kind == CLIMB_OPT_INT || o->kind == CLIMB_OPT_FLOAT) && !(o->min <= o->max))
            problem(p, "option %s: min > max", o->name);
        if (o->kind == CLIMB_OPT_CHOICE && (!o->choices || !o->choices[0]))
            problem(p, "option %s: a choice with no choices", o->name);
        files += o->kind == CLIMB_OPT_FILE;
    }
    if (files && (!w->load || !w->unload))
        problem(p, "a FILE option needs load and unload");
    if (!files && (w->load || w->unload))
        problem(p, "load/unload without a FILE option");
    /* Every default parses with the option's own rules. */
    if (w->n_options > 0 && w->options) {
        climb_opt_plan plan;
        char err[300];
        if (climb_opt_plan_init(&plan, w->options, w->n_options, err, sizeof err) != 0)
            problem(p, "a default does not parse: %s", err);
        climb_opt_plan_free(&plan, NULL);
    }
}

static void check_rungs(problems *p, const climb_workload *w)
{
    if (w->n_rungs < 2 || !w->rung) {
        problem(p, "a ladder needs at least two rungs");
        return;
    }
    int best = 0, seen_bound = 0, seen_ladder = 0, published = 0, vendors = 0;
    for (int i = 0; i < w->n_rungs; i++) {
        const climb_rung_info *r = w->rung(i);
        if (!r) {
            problem(p, "rung %d is NULL", i);
            continue;
        }
        if (r->beside && r->kind != CLIMB_RUNG_VENDOR)
            problem(p, "rung %s is beside the bar but not a vendor rung", r->name ? r->name : "?");
        if (r->beside && r->kind == CLIMB_RUNG_VENDOR && vendors == 0)
            problem(p, "vendor rung %s is beside the bar: the first vendor rung is the bar", r->name ? r->name : "?");
        vendors += r->kind == CLIMB_RUNG_VENDOR;
        if (!identifier(r->name))
            problem(p, "rung %d has no proper name", i);
        if (!text(r->idea))
            problem(p, "rung %s has no idea", r->name ? r->name : "?");
        if (!r->needs)
            problem(p, "rung %s: needs is NULL (\"\" when it takes every case)", r->name ? r->name : "?");
        for (int j = 0; j < i; j++)
            if (r->name && w->rung(j)->name && strcmp(r->name, w->rung(j)->name) == 0)
                problem(p, "rung %s appears twice", r->name);
        switch (r->kind) {
        case CLIMB_RUNG_VENDOR:
            if (seen_bound || seen_ladder)
                problem(p, "vendor rung %s after a bound or ladder rung (vendors come first)", r->name);
            break;
        case CLIMB_RUNG_BOUND:
            seen_bound = 1;
            if (seen_ladder)
                problem(p, "bound rung %s after a ladder rung (bounds come after the vendors, before the ladder)",
                        r->name);
            break;
        case CLIMB_RUNG_BEST:
            best++;
            /* fall through */
        case CLIMB_RUNG_LADDER:
            seen_ladder = 1;
            if (!r->kernels)
                problem(p, "rung %s does not say which kernels it launches", r->name);
            break;
        default:
            problem(p, "rung %s has no kind", r->name ? r->name : "?");
        }
        if (r->published_us < 0 || r->published_rate < 0)
            problem(p, "rung %s: a negative published figure", r->name);
        if (r->formerly && climb_find_rung(w, r->formerly) >= 0)
            problem(p, "rung %s: its former name %s is a rung's name today (old reports would read as the wrong "
                       "rung)", r->name, r->formerly);
        published |= r->published_us > 0 || r->published_rate > 0;
    }
    if (best != 1)
        problem(p, "%d rungs marked best (exactly one is)", best);
    if (published && !w->published)
        problem(p, "published figures without the published case");
    if (w->published) {
        const climb_published *pc = w->published;
        if (!text(pc->source) || !text(pc->gpu) || !text(pc->rate_unit))
            problem(p, "published case lacks source, gpu or rate_unit");
        if (!(w->types & CLIMB_TYPE_BIT(pc->type)))
            problem(p, "published case's type is not one of the workload's");
        if (pc->shape.ndims != climb_workload_ndims(w))
            problem(p, "published case's shape has %d sizes", pc->shape.ndims);
        if (!published)
            problem(p, "a published case, but no rung has a published figure");
    }
}

/* Names, axes and the arguments' shape; the CLI checks that the arguments parse (test_cli.sh runs every sweep with
 * --dry-run). */
static void check_sweeps(problems *p, const climb_workload *w)
{
    if (w->n_sweeps < 0 || (w->n_sweeps > 0 && !w->sweeps))
        problem(p, "n_sweeps is %d but sweeps is %s", w->n_sweeps, w->sweeps ? "set" : "NULL");
    for (int i = 0; i < w->n_sweeps && w->sweeps; i++) {
        const climb_sweep *s = &w->sweeps[i];
        if (!identifier(s->name) || !text(s->title)) {
            problem(p, "sweep %d lacks a proper name or a title", i);
            continue;
        }
        for (int j = 0; j < i; j++)
            if (w->sweeps[j].name && strcmp(s->name, w->sweeps[j].name) == 0)
                problem(p, "sweep %s declared twice", s->name);
        if (s->args && (!text(s->args) || strstr(s->args, "--sweep") || strstr(s->args, "--json") ||
                        strstr(s->args, "--md") || strstr(s->args, "--csv")))
            problem(p, "sweep %s: args are bench arguments other than --sweep and the report paths", s->name);
        if (s->overview && !s->args)
            problem(p, "sweep %s: an overview row needs a run of its own (args); the bench's rows have theirs",
                    s->name);
        int axis = 0;
        for (int d = 0; d < climb_workload_ndims(w); d++)
            axis |= s->x && strcmp(s->x, w->dims[d]) == 0;
        for (int k = 0; k < w->n_options && w->options; k++)
            axis |= s->x && w->options[k].name && strcmp(s->x, w->options[k].name) == 0 &&
                    (w->options[k].kind == CLIMB_OPT_INT || w->options[k].kind == CLIMB_OPT_FLOAT);
        if (!axis)
            problem(p, "sweep %s: x '%s' is neither a dim nor a numeric option", s->name, s->x ? s->x : "(null)");
    }
}

static void check_scaling(problems *p, const climb_workload *w)
{
    if (!w->weak_scaling)
        return;
    if (!climb_spans_devices(w) || w->min_devices != 1)
        problem(p, "weak_scaling is for a workload whose cases span GPUs from one");
    if (!text(w->weak_scaling) || strstr(w->weak_scaling, "--gpus") || strstr(w->weak_scaling, "--devices") ||
        strstr(w->weak_scaling, "--json") || strstr(w->weak_scaling, "--md") || strstr(w->weak_scaling, "--csv") ||
        strstr(w->weak_scaling, "--sweep"))
        problem(p, "weak_scaling: bench arguments other than the GPUs, a sweep and the report paths");
}

static void check_tuning(problems *p, const climb_workload *w)
{
    const climb_tuning *tn = w->tuning;
    if (!tn) {
        if (w->set_tuning)
            problem(p, "set_tuning without tuning");
        return;
    }
    if (!w->set_tuning)
        problem(p, "tuning needs set_tuning");
    if (!tn->defaults == !(tn->builtin && text(tn->builtin_why)))
        problem(p, "tuning needs either defaults or builtin with builtin_why");
    if (tn->n_params < 1 || tn->n_params > CLIMB_MAX_TUNABLES || !tn->params) {
        problem(p, "tuning has %d parameters (1 to %d)", tn->n_params, CLIMB_MAX_TUNABLES);
        return;
    }
    if (!tn->shape_class != !text(tn->shape_class_meaning))
        problem(p, "shape_class and shape_class_meaning go together");
    for (int k = 0; k < tn->n_params; k++) {
        const climb_tunable *t = &tn->params[k];
        if (!identifier(t->name) || !text(t->meaning) || t->n_values < 1 || !t->values)
            problem(p, "tunable %d is incomplete", k);
        for (int j = 1; j < t->n_values && t->values; j++)
            if (t->values[j] <= t->values[j - 1])
                problem(p, "tunable %s: values not ascending and distinct", t->name);
    }
    if (tn->candidates) {
        if (tn->n_candidates < 1)
            problem(p, "an empty candidate list");
        for (int i = 0; i < tn->n_candidates; i++) {
            const int *v = tn->candidates + (size_t)i * (size_t)tn->n_params;
            for (int k = 0; k < tn->n_params; k++) {
                int found = 0;
                for (int j = 0; j < tn->params[k].n_values; j++)
                    found |= tn->params[k].values[j] == v[k];
                if (!found)
                    problem(p, "candidate %d: %s=%d is not among the parameter's values", i, tn->params[k].name, v[k]);
            }
            for (int j = 0; j < i; j++)
                if (memcmp(v, tn->candidates + (size_t)j * (size_t)tn->n_params, sizeof(int) * (size_t)tn->n_params) == 0)
                    problem(p, "candidate %d repeats candidate %d", i, j);
        }
    }
    /* The defaults of every bench case are candidates on a typical device of each supported generation. */
    static const int ccs[][2] = {{7, 0}, {8, 0}, {8, 6}, {9, 0}, {10, 0}, {12, 0}};
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0] && (tn->defaults || tn->builtin); c++) {
        climb_device_info dev;
        memset(&dev, 0, sizeof dev);
        snprintf(dev.name, sizeof dev.name, "validation device");
        dev.cc_major = ccs[c][0];
        dev.cc_minor = ccs[c][1];
        dev.sms = 100;
        dev.max_threads_per_sm = dev.cc_major == 8 && dev.cc_minor == 6 ? 1536 : 2048;
        dev.max_blocks_per_sm = 32;
        dev.regs_per_sm = 65536;
        dev.smem_per_sm = 228 * 1024;
        dev.smem_per_block_optin = 227 * 1024;
        for (int s = 0; s < w->n_bench_shapes && w->bench_shapes; s++)
            for (int t = 0; t < CLIMB_NTYPES; t++) {
                if (!(w->types & CLIMB_TYPE_BIT(t)))
                    continue;
                climb_tuning_key key = {w->bench_shapes[s], (climb_dtype)t, NULL};
                int v[CLIMB_MAX_TUNABLES];
                char buf[200];
                const char *src = climb_tuning_defaults(tn, &dev, &key, v);
                const char *why = climb_tuning_check(tn, &dev, v, buf, sizeof buf);
                if (!text(src) || why)
                    problem(p, "the defaults on CC %d.%d are not a candidate: %s", dev.cc_major, dev.cc_minor,
                            why ? why : "no source");
            }
    }
}

/* The case, one way or the other: the kit (case_size, buffers, init, fill, fini) or create and destroy by hand; a run
 * for every rung (the workload's, or each row's launch); a poison (the workload's, or declared outputs). */
static void check_case_kit(problems *p, const climb_workload *w)
{
    if (w->case_size && (w->create || w->destroy))
        problem(p, "case_size (the kit) and create/destroy: one way or the other");
    if (!w->case_size && (!w->create || !w->destroy))
        problem(p, "no case: set case_size (the kit) or both create and destroy");
    if (!w->case_size && (w->n_buffers || w->init || w->fill || w->fini))
        problem(p, "buffers, init, fill and fini are the kit's: they need case_size");
    if ((w->buffers != NULL) != (w->n_buffers > 0))
        problem(p, "buffers and n_buffers go together");
    int outputs = 0;
    for (int i = 0; i < w->n_buffers; i++) {
        const climb_buffer *b = &w->buffers[i];
        const char *name = b->name ? b->name : "?";
        if (!b->name || !b->name[0] || !b->bytes)
            problem(p, "buffer %d needs a name and a bytes function", i);
        if (!(b->flags & (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)) || b->flags >= 64)
            problem(p, "buffer %s: flags name neither host nor device, or an unknown bit", name);
        if ((b->flags & CLIMB_BUF_INPUT) && (b->flags & (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)) !=
                                                 (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE))
            problem(p, "buffer %s: an input is uploaded, so it needs a host copy and a device array", name);
        if ((b->flags & CLIMB_BUF_OUTPUT) && !(b->flags & CLIMB_BUF_DEVICE))
            problem(p, "buffer %s: an output is a device array", name);
        if ((b->flags & CLIMB_BUF_OFFSET) && !(b->flags & CLIMB_BUF_DEVICE))
            problem(p, "buffer %s: the offset moves a device array", name);
        if (((b->flags & CLIMB_BUF_HOST) != 0) != (b->host_at != 0) ||
            ((b->flags & CLIMB_BUF_DEVICE) != 0) != (b->device_at != 0))
            problem(p, "buffer %s: a field for each of its host copy and device array, and none for what it lacks",
                    name);
        if (b->host_at && b->host_at + sizeof(void *) > w->case_size)
            problem(p, "buffer %s: its host field lies past the case", name);
        if (b->device_at && b->device_at + sizeof(void *) > w->case_size)
            problem(p, "buffer %s: its device field lies past the case", name);
        for (int j = 0; j < i; j++)
            if (w->buffers[j].name && b->name && strcmp(w->buffers[j].name, b->name) == 0)
                problem(p, "buffer %s declared twice", name);
        outputs += (b->flags & CLIMB_BUF_OUTPUT) != 0;
    }
    if (!w->poison && !outputs)
        problem(p, "no poison: give a poison hook or declare the outputs (CLIMB_BUF_OUTPUT)");
    for (int r = 0; !w->run && r < w->n_rungs; r++)
        if (!w->rung(r)->launch)
            problem(p, "rung %s has no launch and the workload no run", w->rung(r)->name);
}

int climb_spans_devices(const climb_workload *w) { return w->max_devices > 1 || w->min_devices > 1; }

int climb_workload_validate(const climb_workload *w, char *msg, size_t len)
{
    problems p = {msg, len, 0, 0, w && w->name ? w->name : "?"};
    if (len)
        msg[0] = '\0';
    if (!w) {
        problem(&p, "NULL workload");
        return p.problems;
    }
    if (!identifier(w->name))
        problem(&p, "no proper name");
    if (!text(w->title) || !text(w->sources) || !text(w->bytes_counted))
        problem(&p, "title, sources and bytes_counted are all needed");
    if (w->command && !identifier(w->command))
        problem(&p, "command is not a proper name");
    if ((w->min_devices || w->max_devices) &&
        !(w->min_devices >= 1 && w->min_devices <= w->max_devices && w->max_devices <= CLIMB_MAX_DEVICES))
        problem(&p, "min_devices %d and max_devices %d: 0 and 0 (one GPU), or 1 <= min <= max <= %d", w->min_devices,
                w->max_devices, CLIMB_MAX_DEVICES);
    int nd = climb_workload_ndims(w);
    if (nd < 1)
        problem(&p, "no dims");
    for (int i = 0; i < nd; i++) {
        if (!identifier(w->dims[i]))
            problem(&p, "dim %d has no proper name", i);
        for (int j = 0; j < i; j++)
            if (strcmp(w->dims[i], w->dims[j]) == 0)
                problem(&p, "dim %s appears twice", w->dims[i]);
    }
    if (w->shape_format) {
        int seen[CLIMB_MAX_DIMS] = {0};
        for (const char *q = w->shape_format; *q; q++) {
            if (*q == '}') {
                problem(&p, "shape_format has a '}' that closes nothing");
                break;
            }
            if (*q != '{')
                continue;
            const char *close = strchr(q, '}');
            const int d = close ? dim_index(w, q + 1, (size_t)(close - q - 1)) : -1;
            if (d < 0) {
                problem(&p, "shape_format names no dim at '%.20s'", q);
                break;
            }
            seen[d] = 1;
            q = close;
        }
        for (int i = 0; i < nd; i++)
            if (!seen[i])
                problem(&p, "shape_format leaves out dim %s", w->dims[i]);
    }
    if (w->types == 0 || (w->types >> CLIMB_NTYPES) != 0)
        problem(&p, "types must name at least one known type");
    if (w->bench_types & ~w->types)
        problem(&p, "bench_types must be a subset of types");
    if ((w->items_unit != NULL) != (w->items_rate != NULL))
        problem(&p, "items_unit and items_rate go together");
    if (w->items_rate_scale < 0 || (w->items_rate_scale != 0 && !w->items_rate))
        problem(&p, "items_rate_scale: items a second in one unit of items_rate, > 0 and only with items_rate");
    if (w->extra_ceiling != CLIMB_CEIL_NONE && w->extra_ceiling != CLIMB_CEIL_SFU &&
        w->extra_ceiling != CLIMB_CEIL_TENSOR)
        problem(&p, "unknown extra ceiling");
    check_options(&p, w);
    check_shapes(&p, "bench_shapes", w->bench_shapes, w->n_bench_shapes, nd, 1);
    check_shapes(&p, "check_shapes", w->check_shapes, w->n_check_shapes, nd, 1);
    check_shapes(&p, "quick_shapes", w->quick_shapes, w->n_quick_shapes, nd, 1);
    check_shapes(&p, "main_shapes", w->main_shapes, w->n_main_shapes, nd, 0);
    check_shapes(&p, "tune_shapes", w->tune_shapes, w->n_tune_shapes, nd, 0);
    if (w->tune_shapes && !w->tuning)
        problem(&p, "tune_shapes without tunable parameters");
    if ((w->main_shapes != NULL) != (w->n_main_shapes > 0))
        problem(&p, "main_shapes and n_main_shapes go together");
    if (!w->reference || !w->verify || !w->counts)
        problem(&p, "reference, verify and counts are all needed");
    check_case_kit(&p, w);
    if (w->modifies && !w->reset)
        problem(&p, "modifies without reset");
    if (w->ref_cost && !(w->ref_cost_limit > 0))
        problem(&p, "ref_cost needs a positive ref_cost_limit");
    check_rungs(&p, w);
    check_sweeps(&p, w);
    check_scaling(&p, w);
    check_tuning(&p, w);
    return p.problems;
}
