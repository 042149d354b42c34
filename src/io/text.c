#define _GNU_SOURCE /* strtod_l, newlocale */
#include "text.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- numbers ---- */

int climb_scan_int(const char **s, long long lo, long long hi, long long *out)
{
    const char *p = *s;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return -1;
    unsigned long long v = 0;
    const unsigned long long limit = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');
        if (v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    long long x = neg ? (v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v) : (long long)v;
    if (x < lo || x > hi)
        return -1;
    *out = x;
    *s = p;
    return 0;
}

static locale_t c_locale(void)
{
    static locale_t loc = (locale_t)0;
    if (!loc)
        loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return loc;
}

double climb_strtod_c(const char *s, char **end)
{
    locale_t loc = c_locale();
    if (!loc) {
        *end = (char *)s;
        return 0;
    }
    return strtod_l(s, end, loc);
}

int climb_scan_double(const char **s, double *out)
{
    const char *p = *s;
    /* Only the plain decimal forms: sign, digits, point, exponent. strtod would also take "nan", "inf" and
     * hexadecimal, which no input of ours should contain: the token must end where this scan says it does. */
    const char *q = p;
    if (*q == '+' || *q == '-')
        q++;
    int digits = 0;
    while (*q >= '0' && *q <= '9')
        q++, digits++;
    if (*q == '.') {
        q++;
        while (*q >= '0' && *q <= '9')
            q++, digits++;
    }
    if (!digits)
        return -1;
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (*e < '0' || *e > '9')
            return -1;
        while (*e >= '0' && *e <= '9')
            e++;
        q = e;
    }
    char *end;
    errno = 0;
    double v = climb_strtod_c(p, &end);
    if (end != q || (errno == ERANGE && fabs(v) > 1.0) || !isfinite(v))
        return -1;
    *out = v;
    *s = end;
    return 0;
}

int climb_parse_int(const char *s, long long lo, long long hi, long long *out)
{
    const char *p = s;
    long long v;
    if (climb_scan_int(&p, lo, hi, &v) != 0 || *p != '\0')
        return -1;
    *out = v;
    return 0;
}

int climb_parse_double(const char *s, double *out)
{
    const char *p = s;
    double v;
    if (climb_scan_double(&p, &v) != 0 || *p != '\0')
        return -1;
    *out = v;
    return 0;
}

/* ---- line reader ---- */

int climb_lines_open(climb_lines *r, const char *path, size_t max_line, uint64_t max_bytes, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->max_line = max_line;
    r->max_bytes = max_bytes;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        snprintf(err, errlen, "%s: %llu bytes, more than the %llu this input may have", path,
                 (unsigned long long)st.st_size, (unsigned long long)max_bytes);
        return -1;
    }
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    r->cap = 256;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        fclose(r->f);
        r->f = NULL;
        snprintf(err, errlen, "%s: out of host memory", path);
        return -1;
    }
    return 0;
}

int climb_lines_fail(const climb_lines *r, char *err, size_t errlen, const char *fmt, ...)
{
    int k = snprintf(err, errlen, "%s:%ld: ", r->path, r->line > 0 ? r->line : 1);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int climb_lines_next(climb_lines *r, char **line, size_t *len, char *err, size_t errlen)
{
    if (!r->f)
        return 0;
    size_t n = 0;
    int c, any = 0;
    r->line++;
    while ((c = getc(r->f)) != EOF) {
        any = 1;
        if (++r->bytes > r->max_bytes)
            return climb_lines_fail(r, err, errlen, "the file is longer than %llu bytes",
                                    (unsigned long long)r->max_bytes);
        if (c == '\n')
            break;
        if (c == '\0')
            return climb_lines_fail(r, err, errlen, "a NUL byte: this is not a text file");
        if (n >= r->max_line)
            return climb_lines_fail(r, err, errlen, "line longer than %zu bytes", r->max_line);
        if (n + 2 > r->cap) {
            size_t cap = r->cap * 2;
            char *b = realloc(r->buf, cap);
            if (!b)
                return climb_lines_fail(r, err, errlen, "out of host memory");
            r->buf = b;
            r->cap = cap;
        }
        r->buf[n++] = (char)c;
    }
    if (ferror(r->f))
        return climb_lines_fail(r, err, errlen, "read error: %s", strerror(errno));
    if (!any) {
        r->line--;
        return 0;
    }
    if (n > 0 && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = '\0';
    /* a UTF-8 byte-order mark before the first line (some editors write one) is not part of the text */
    size_t skip = 0;
    if (r->line == 1 && n >= 3 && (unsigned char)r->buf[0] == 0xEF && (unsigned char)r->buf[1] == 0xBB &&
        (unsigned char)r->buf[2] == 0xBF)
        skip = 3;
    *line = r->buf + skip;
    *len = n - skip;
    return 1;
}

int climb_lines_open_plain(climb_lines *r, const char *path, size_t max_line, uint64_t max_bytes, char *err,
                           size_t errlen)
{
    if (climb_lines_open(r, path, max_line, max_bytes, err, errlen) != 0)
        return -1;
    unsigned char magic[2] = {0, 0};
    if (fread(magic, 1, 2, r->f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        snprintf(err, errlen, "%s: a gzip'd file: unpack it first (gunzip)", path);
        climb_lines_close(r);
        return -1;
    }
    rewind(r->f);
    return 0;
}

void climb_lines_close(climb_lines *r)
{
    if (r->f)
        fclose(r->f);
    free(r->buf);
    r->f = NULL;
    r->buf = NULL;
}

const char *climb_skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

const char *climb_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void climb_printable(const char *s, size_t n, char *buf, size_t len)
{
    if (!len)
        return;
    size_t o = 0;
    for (size_t i = 0; i < n && s[i] && o + 1 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    buf[o] = '\0';
}

int climb_read_file(const char *path, size_t max, const char *what, unsigned char **data, size_t *n, char *err,
                    size_t errlen)
{
    *data = NULL;
    *n = 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(err, errlen, "%s: %lld bytes: larger than any %s", path, (long long)st.st_size, what);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    const size_t size = (size_t)st.st_size;
    unsigned char *d = (unsigned char *)malloc(size ? size : 1);
    if (!d) {
        fclose(f);
        snprintf(err, errlen, "%s: out of host memory for %zu bytes", path, size);
        return -1;
    }
    const size_t got = fread(d, 1, size, f);
    const int bad = ferror(f);
    fclose(f);
    if (bad || got != size) {
        free(d);
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    *data = d;
    *n = size;
    return 0;
}
