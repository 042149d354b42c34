#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/text.h"

const char *climb_opt_kind_name(climb_opt_kind k)
{
    switch (k) {
    case CLIMB_OPT_INT: return "int";
    case CLIMB_OPT_FLOAT: return "float";
    case CLIMB_OPT_CHOICE: return "choice";
    case CLIMB_OPT_FILE: return "file";
    }
    return "?";
}

int climb_opt_find(const climb_option *opts, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].name, name) == 0)
            return i;
    return -1;
}

static void choice_list(const climb_option *o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; o->choices && o->choices[i] && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", o->choices[i]);
        if (k > 0)
            used += (size_t)k;
    }
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int climb_opt_parse(const climb_option *o, const char *text, climb_opt_value *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char shown[96];
    climb_printable(text, strlen(text), shown, sizeof shown);
    switch (o->kind) {
    case CLIMB_OPT_INT: {
        long long v;
        if (climb_parse_int(text, -(1LL << 53), 1LL << 53, &v) != 0) {
            snprintf(err, errlen, "%s=%s: not a whole number", o->name, shown);
            return -1;
        }
        if ((double)v < o->min || (double)v > o->max) {
            snprintf(err, errlen, "%s=%s: not in %.0f..%.0f", o->name, shown, o->min, o->max);
            return -1;
        }
        out->i = v;
        out->f = (double)v;
        break;
    }
    case CLIMB_OPT_FLOAT: {
        double v;
        if (climb_parse_double(text, &v) != 0) {
            snprintf(err, errlen, "%s=%s: not a number", o->name, shown);
            return -1;
        }
        if (v < o->min || v > o->max) {
            snprintf(err, errlen, "%s=%s: not in %g..%g", o->name, shown, o->min, o->max);
            return -1;
        }
        out->f = v;
        break;
    }
    case CLIMB_OPT_CHOICE: {
        int found = -1;
        for (int i = 0; o->choices && o->choices[i]; i++)
            if (strcmp(o->choices[i], text) == 0)
                found = i;
        if (found < 0) {
            char list[400];
            choice_list(o, list, sizeof list);
            snprintf(err, errlen, "%s=%s: not one of %s (or all)", o->name, shown, list);
            return -1;
        }
        out->choice = found;
        break;
    }
    case CLIMB_OPT_FILE:
        break;
    }
    out->text = dup_text(text);
    if (!out->text) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    return 0;
}

static void free_value(climb_opt_value *v)
{
    free(v->text);
    free(v->desc);
    v->text = v->desc = NULL;
}

void climb_opt_format(const climb_option *opts, int n, const climb_opt_value *v, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < n && used < len; k++) {
        if (opts[k].kind == CLIMB_OPT_FILE && (!v[k].text || !v[k].text[0]))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", opts[k].name, v[k].text ? v[k].text : "");
        if (w > 0)
            used += (size_t)w;
    }
}

climb_opt_value *climb_opt_values_dup(int n, const climb_opt_value *v)
{
    if (n <= 0)
        return NULL;
    climb_opt_value *d = calloc((size_t)n, sizeof *d);
    if (!d)
        return NULL;
    for (int k = 0; k < n; k++) {
        d[k] = v[k];
        d[k].data = NULL;
        d[k].text = dup_text(v[k].text ? v[k].text : "");
        d[k].desc = v[k].desc ? dup_text(v[k].desc) : NULL;
        if (!d[k].text || (v[k].desc && !d[k].desc)) {
            climb_opt_values_free(n, d);
            return NULL;
        }
    }
    return d;
}

void climb_opt_values_free(int n, climb_opt_value *v)
{
    if (!v)
        return;
    for (int k = 0; k < n; k++)
        free_value(&v[k]);
    free(v);
}

int climb_opt_values_equal(const climb_option *opts, int n, const climb_opt_value *a, const climb_opt_value *b)
{
    for (int k = 0; k < n; k++) {
        const char *x = a[k].text ? a[k].text : "", *y = b[k].text ? b[k].text : "";
        if (strcmp(x, y) != 0)
            return 0;
        (void)opts;
    }
    return 1;
}

/* ---- plan ---- */

static void clear_option(climb_opt_plan *p, int k, void (*unload)(void *))
{
    for (int j = 0; j < p->count[k]; j++) {
        if (unload && p->values[k][j].data)
            unload(p->values[k][j].data);
        free_value(&p->values[k][j]);
    }
    free(p->values[k]);
    p->values[k] = NULL;
    p->count[k] = 0;
}

/* Appends the parsed values of one list element (a CHOICE's "all" is every choice). */
static int add_values(climb_opt_plan *p, int k, const char *item, char *err, size_t errlen)
{
    const climb_option *o = &p->opts[k];
    int n_new = 1;
    if (o->kind == CLIMB_OPT_CHOICE && strcmp(item, "all") == 0) {
        n_new = 0;
        while (o->choices && o->choices[n_new])
            n_new++;
    }
    climb_opt_value *nv = realloc(p->values[k], sizeof *nv * (size_t)(p->count[k] + n_new));
    if (!nv) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    p->values[k] = nv;
    for (int j = 0; j < n_new; j++) {
        const char *t = n_new > 1 || (o->kind == CLIMB_OPT_CHOICE && strcmp(item, "all") == 0) ? o->choices[j] : item;
        climb_opt_value v;
        if (climb_opt_parse(o, t, &v, err, errlen) != 0)
            return -1;
        for (int q = 0; q < p->count[k]; q++)
            if (strcmp(p->values[k][q].text, v.text) == 0) {
                char shown[96];
                climb_printable(v.text, strlen(v.text), shown, sizeof shown);
                snprintf(err, errlen, "%s: %s is listed twice", o->name, shown);
                free_value(&v);
                return -1;
            }
        p->values[k][p->count[k]++] = v;
    }
    return 0;
}

int climb_opt_plan_set(climb_opt_plan *p, int k, const char *text, int append, char *err, size_t errlen)
{
    const climb_option *o = &p->opts[k];
    if (o->kind == CLIMB_OPT_FILE) {
        if (!append || (p->count[k] == 1 && !p->values[k][0].text[0]))
            clear_option(p, k, NULL);
        if (!text[0] && p->count[k] > 0) {
            snprintf(err, errlen, "%s: an empty file name", o->name);
            return -1;
        }
        return add_values(p, k, text, err, errlen);
    }
    clear_option(p, k, NULL);
    if (!text[0]) {
        snprintf(err, errlen, "%s: no value", o->name);
        return -1;
    }
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        char item[256];
        if (n == 0 || n >= sizeof item) {
            char shown[96];
            climb_printable(text, strlen(text), shown, sizeof shown);
            snprintf(err, errlen, "%s=%s: %s", o->name, shown, n == 0 ? "an empty value in the list" : "a value too long");
            return -1;
        }
        memcpy(item, s, n);
        item[n] = '\0';
        if (add_values(p, k, item, err, errlen) != 0)
            return -1;
        if (!comma)
            break;
        s = comma + 1;
    }
    return 0;
}

int climb_opt_plan_init(climb_opt_plan *p, const climb_option *opts, int n, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->opts = opts;
    p->n = n;
    if (n == 0)
        return 0;
    p->count = calloc((size_t)n, sizeof *p->count);
    p->values = calloc((size_t)n, sizeof *p->values);
    if (!p->count || !p->values) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    for (int k = 0; k < n; k++) {
        const char *def = opts[k].def ? opts[k].def : "";
        if (opts[k].kind == CLIMB_OPT_FILE) {
            if (add_values(p, k, def, err, errlen) != 0)
                return -1;
        } else if (climb_opt_plan_set(p, k, def, 0, err, errlen) != 0) {
            return -1;
        }
    }
    return 0;
}

long climb_opt_plan_combos(const climb_opt_plan *p)
{
    long total = 1;
    for (int k = 0; k < p->n; k++)
        total *= p->count[k];
    return total;
}

void climb_opt_plan_combo(const climb_opt_plan *p, long i, climb_opt_value *out)
{
    for (int k = p->n - 1; k >= 0; k--) {
        out[k] = p->values[k][i % p->count[k]];
        i /= p->count[k];
    }
}

long climb_opt_plan_seed_combo(const climb_opt_plan *p, long i)
{
    long out = 0, scale = 1;
    for (int k = p->n - 1; k >= 0; k--) {
        const long digit = i % p->count[k];
        out += (p->opts[k].same_seed ? 0 : digit) * scale;
        scale *= p->count[k];
        i /= p->count[k];
    }
    return out;
}

void climb_opt_plan_free(climb_opt_plan *p, void (*unload)(void *))
{
    for (int k = 0; k < p->n && p->count; k++)
        if (p->values)
            clear_option(p, k, unload);
    free(p->count);
    free(p->values);
    memset(p, 0, sizeof *p);
}
