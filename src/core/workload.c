#include "workload.h"

#include <stdio.h>
#include <string.h>

const char *climb_dtype_name(climb_dtype t)
{
    switch (t) {
    case CLIMB_I32: return "i32";
    case CLIMB_F32: return "f32";
    default: return "?";
    }
}

size_t climb_dtype_size(climb_dtype t)
{
    switch (t) {
    case CLIMB_I32: return 4;
    case CLIMB_F32: return 4;
    default: return 0;
    }
}

int climb_dtype_parse(const char *s, climb_dtype *out)
{
    for (int t = 0; t < CLIMB_NTYPES; t++)
        if (strcmp(s, climb_dtype_name((climb_dtype)t)) == 0) {
            *out = (climb_dtype)t;
            return 0;
        }
    return -1;
}

const char *climb_ceiling_name(climb_ceiling_kind k)
{
    switch (k) {
    case CLIMB_CEIL_READ: return "read";
    case CLIMB_CEIL_COPY: return "copy";
    case CLIMB_CEIL_FFMA: return "ffma";
    default: return "?";
    }
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
    return -1;
}

void climb_size_label(char *buf, size_t len, size_t n)
{
    if (n >= 2 && (n & (n - 1)) == 0) {
        int k = 0;
        while (((size_t)1 << k) < n)
            k++;
        snprintf(buf, len, "2^%d", k);
    } else {
        snprintf(buf, len, "%zu", n);
    }
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

long climb_tuning_count(const climb_tuning *tn)
{
    long total = 1;
    for (int k = 0; k < tn->n_params; k++)
        total *= tn->params[k].n_values;
    return total;
}

void climb_tuning_values(const climb_tuning *tn, long i, int *v)
{
    for (int k = tn->n_params - 1; k >= 0; k--) {
        v[k] = tn->params[k].values[i % tn->params[k].n_values];
        i /= tn->params[k].n_values;
    }
}
