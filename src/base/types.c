#include "types.h"
#include "checked.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t bytes;
    climb_dtype_kind kind;
} dtype_row;

static const dtype_row DTYPES[] = {
#define CLIMB_X_ROW(id, name, bytes, kind, ctype) {name, bytes, kind},
    CLIMB_DTYPES(CLIMB_X_ROW)
#undef CLIMB_X_ROW
};

const char *climb_dtype_name(climb_dtype t) { return (unsigned)t < CLIMB_NTYPES ? DTYPES[t].name : "?"; }
size_t climb_dtype_size(climb_dtype t) { return (unsigned)t < CLIMB_NTYPES ? DTYPES[t].bytes : 0; }
climb_dtype_kind climb_dtype_kind_of(climb_dtype t)
{
    return (unsigned)t < CLIMB_NTYPES ? DTYPES[t].kind : CLIMB_KIND_UINT;
}

int climb_dtype_parse(const char *s, climb_dtype *out)
{
    for (int t = 0; t < CLIMB_NTYPES; t++)
        if (strcmp(s, DTYPES[t].name) == 0) {
            *out = (climb_dtype)t;
            return 0;
        }
    return -1;
}

void climb_dtype_list(unsigned mask, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        if (!(mask & CLIMB_TYPE_BIT(t)) || used >= len)
            continue;
        int k = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", DTYPES[t].name);
        if (k > 0)
            used += (size_t)k;
    }
}

/* ---- shapes ---- */

/* One size: decimal digits or 2^K. Advances *s past it. */
static int parse_one(const char **s, size_t *out)
{
    const char *p = *s;
    if (p[0] == '2' && p[1] == '^') {
        p += 2;
        if (*p < '0' || *p > '9')
            return -1;
        unsigned k = 0;
        while (*p >= '0' && *p <= '9') {
            k = k * 10 + (unsigned)(*p++ - '0');
            if (k > 62)
                return -1;
        }
        *out = (size_t)1 << k;
        *s = p;
        return 0;
    }
    if (*p < '0' || *p > '9')
        return -1;
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        unsigned dgt = (unsigned)(*p++ - '0');
        if (v > (UINT64_C(1) << 62) / 10)
            return -1;
        v = v * 10 + dgt;
    }
    if (v > (UINT64_C(1) << 62))
        return -1;
    *out = (size_t)v;
    *s = p;
    return 0;
}

int climb_shape_parse(const char *text, climb_shape *out, char *err, size_t errlen)
{
    climb_shape s;
    memset(&s, 0, sizeof s);
    const char *p = text;
    for (;;) {
        if (s.ndims == CLIMB_MAX_DIMS) {
            snprintf(err, errlen, "'%s' has more than %d sizes", text, CLIMB_MAX_DIMS);
            return -1;
        }
        if (parse_one(&p, &s.d[s.ndims]) != 0) {
            snprintf(err, errlen, "'%s' is not a size (write e.g. 4194304, 2^22 or 4096x4096)", text);
            return -1;
        }
        s.ndims++;
        if (*p == '\0')
            break;
        if (*p != 'x' || p[1] == '\0') {
            snprintf(err, errlen, "'%s' is not a size (write e.g. 4194304, 2^22 or 4096x4096)", text);
            return -1;
        }
        p++;
    }
    /* The element count must be representable (a zero anywhere makes it 0, which is fine). */
    size_t prod = 0;
    int zero = 0;
    for (int i = 0; i < s.ndims; i++)
        zero |= s.d[i] == 0;
    if (!zero && (!climb_prod_fits(s.d, s.ndims, &prod) || prod > ((size_t)1 << 62))) {
        snprintf(err, errlen, "'%s' has more than 2^62 elements", text);
        return -1;
    }
    *out = s;
    return 0;
}

size_t climb_shape_elems(const climb_shape *s)
{
    if (s->ndims <= 0)
        return 0;
    size_t n;
    return climb_prod_fits(s->d, s->ndims, &n) ? n : SIZE_MAX; /* a product past size_t: as many as can be said */
}

int climb_shape_equal(const climb_shape *a, const climb_shape *b)
{
    if (a->ndims != b->ndims)
        return 0;
    for (int i = 0; i < a->ndims; i++)
        if (a->d[i] != b->d[i])
            return 0;
    return 1;
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

void climb_shape_label(const climb_shape *s, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (s->ndims == 1) {
        climb_size_label(buf, len, s->d[0]);
        return;
    }
    size_t used = 0;
    for (int i = 0; i < s->ndims && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%zu", i ? "x" : "", s->d[i]);
        if (k > 0)
            used += (size_t)k;
    }
}
