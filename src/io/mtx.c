/* The Matrix Market reader (see mtx.h): header, comments, size line, entries, then CSR with sorted columns and
 * duplicates summed. Built on the line reader of text.h, so every message is "file:line: what is wrong". */
#include "mtx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "text.h"
#include "../base/checked.h"

#define MTX_MAX_LINE ((size_t)1 << 16)
#define MTX_MAX_BYTES ((uint64_t)1 << 42)
/* The shortest entry line, "1 1\n": a size line promising more entries than the file has room for is refused
 * before anything is allocated for them. */
#define MTX_MIN_ENTRY_BYTES 4

typedef struct mtx_entry {
    int32_t r, c;
    double v;
} mtx_entry;

typedef struct mtx_colval {
    int32_t c;
    double v;
} mtx_colval;

void climb_csr_free(climb_csr *m)
{
    if (!m)
        return;
    free(m->row_ptr);
    free(m->col_idx);
    free(m->val);
    memset(m, 0, sizeof *m);
}

const char *climb_csr_check(const climb_csr *m)
{
    if (m->rows < 0 || m->cols < 0 || m->nnz < 0)
        return "negative sizes";
    if (!m->row_ptr || (m->nnz > 0 && (!m->col_idx || !m->val)))
        return "missing arrays";
    if (m->row_ptr[0] != 0 || m->row_ptr[m->rows] != m->nnz)
        return "row pointers do not run from 0 to nnz";
    for (int32_t i = 0; i < m->rows; i++) {
        if (m->row_ptr[i + 1] < m->row_ptr[i])
            return "row pointers decrease";
        for (int32_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            if (m->col_idx[k] < 0 || m->col_idx[k] >= m->cols)
                return "a column index out of range";
            if (k > m->row_ptr[i] && m->col_idx[k] <= m->col_idx[k - 1])
                return "columns not increasing within a row";
        }
    }
    return NULL;
}

/* The next word of *s (up to a blank) into w; its length (0: none left). */
static size_t next_word(const char **s, char *w, size_t wlen)
{
    const char *p = climb_skip_blanks(*s);
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t')
        n++;
    size_t k = n < wlen - 1 ? n : wlen - 1;
    memcpy(w, p, k);
    w[k] = '\0';
    *s = p + n;
    return n;
}

/* The next line that is neither blank nor a comment ('%'): 1, 0 at the end, -1 on a read error. */
static int next_content(climb_lines *r, char **line, char *err, size_t errlen)
{
    for (;;) {
        size_t len;
        int k = climb_lines_next(r, line, &len, err, errlen);
        if (k != 1)
            return k;
        const char *p = climb_skip_blanks(*line);
        if (*p != '\0' && *p != '%')
            return 1;
    }
}

/* A token quoted for a message. */
static const char *shown(const char *s, char *buf, size_t len)
{
    const char *p = climb_skip_blanks(s);
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t')
        n++;
    climb_printable(p, n, buf, len);
    return buf;
}

static int parse_header(climb_lines *r, climb_mtx_info *info, char *err, size_t errlen)
{
    char *line;
    size_t len;
    int k = climb_lines_next(r, &line, &len, err, errlen);
    if (k == 0)
        return climb_lines_fail(r, err, errlen,
                                "the file is empty (expected '%%%%MatrixMarket matrix coordinate real general')");
    if (k < 0)
        return -1;
    const char *s = line;
    char w[5][32], q[64];
    int n = 0;
    while (n < 5 && next_word(&s, w[n], sizeof w[n]) > 0)
        n++;
    if (n == 0 || strcasecmp(w[0], "%%MatrixMarket") != 0) {
        climb_printable(line, len, q, sizeof q);
        return climb_lines_fail(r, err, errlen, "not a Matrix Market header: '%s' (expected '%%%%MatrixMarket matrix "
                                                "coordinate real|integer|pattern general|symmetric|skew-symmetric')", q);
    }
    if (n < 5)
        return climb_lines_fail(r, err, errlen, "the header has %d of its 5 words (%%%%MatrixMarket, object, format, "
                                                "field, symmetry)", n);
    if (*climb_skip_blanks(s) != '\0')
        return climb_lines_fail(r, err, errlen, "unexpected '%s' after the header's 5 words", shown(s, q, sizeof q));
    if (strcasecmp(w[1], "matrix") != 0)
        return climb_lines_fail(r, err, errlen, "object '%s': only 'matrix' is read", w[1]);
    if (strcasecmp(w[2], "array") == 0)
        return climb_lines_fail(r, err, errlen, "the dense 'array' format is not read: climb reads 'coordinate' "
                                                "(sparse) files");
    if (strcasecmp(w[2], "coordinate") != 0)
        return climb_lines_fail(r, err, errlen, "format '%s': expected 'coordinate'", w[2]);
    if (strcasecmp(w[3], "real") == 0 || strcasecmp(w[3], "double") == 0)
        info->field = CLIMB_MTX_REAL;
    else if (strcasecmp(w[3], "integer") == 0)
        info->field = CLIMB_MTX_INTEGER;
    else if (strcasecmp(w[3], "pattern") == 0)
        info->field = CLIMB_MTX_PATTERN;
    else
        return climb_lines_fail(r, err, errlen, "field '%s': climb reads real, integer and pattern values%s", w[3],
                                strcasecmp(w[3], "complex") == 0 ? " (not complex)" : "");
    if (strcasecmp(w[4], "general") == 0)
        info->symmetry = CLIMB_MTX_GENERAL;
    else if (strcasecmp(w[4], "symmetric") == 0)
        info->symmetry = CLIMB_MTX_SYMMETRIC;
    else if (strcasecmp(w[4], "skew-symmetric") == 0)
        info->symmetry = CLIMB_MTX_SKEW;
    else
        return climb_lines_fail(r, err, errlen, "symmetry '%s': climb reads general, symmetric and skew-symmetric%s",
                                w[4], strcasecmp(w[4], "hermitian") == 0 ? " (not hermitian)" : "");
    return 0;
}

/* One whole-number token of a size or entry line, in [lo, hi]; `what` names it in the message. */
static int entry_int(climb_lines *r, const char **s, long long lo, long long hi, const char *what, long long *out,
                     char *err, size_t errlen)
{
    char q[64];
    const char *p = climb_skip_blanks(*s);
    if (*p == '\0')
        return climb_lines_fail(r, err, errlen, "the line ends before its %s", what);
    long long v;
    if (climb_scan_int(&p, -(1LL << 62), 1LL << 62, &v) != 0 || (*p != '\0' && *p != ' ' && *p != '\t')) {
        /* digits alone (after a sign) are a whole number, too large to be a count or an index */
        const char *d = p + (*p == '-' || *p == '+');
        const size_t digits = strspn(d, "0123456789");
        if (digits > 0 && (d[digits] == '\0' || d[digits] == ' ' || d[digits] == '\t'))
            return climb_lines_fail(r, err, errlen, "%s %s is too large (%lld at most)", what, shown(*s, q, sizeof q),
                                    hi);
        return climb_lines_fail(r, err, errlen, "%s '%s' is not a whole number", what, shown(*s, q, sizeof q));
    }
    if (v < lo || v > hi)
        return climb_lines_fail(r, err, errlen, "%s %lld is out of range (%lld to %lld)", what, v, lo, hi);
    *out = v;
    *s = p;
    return 0;
}

static int cmp_colval(const void *a, const void *b)
{
    const int32_t x = ((const mtx_colval *)a)->c, y = ((const mtx_colval *)b)->c;
    return (x > y) - (x < y);
}

/* CSR from the entries: rows by counting, columns sorted within each row, duplicates summed. */
static int build_csr(const char *path, const mtx_entry *e, int64_t count, int32_t rows, int32_t cols, climb_csr *m,
                     int64_t *duplicates, char *err, size_t errlen)
{
    int64_t *start = (int64_t *)calloc((size_t)rows + 1, sizeof *start);
    mtx_colval *cv = (mtx_colval *)malloc((size_t)(count > 0 ? count : 1) * sizeof *cv);
    m->row_ptr = (int32_t *)malloc(((size_t)rows + 1) * sizeof *m->row_ptr);
    if (!start || !cv || !m->row_ptr) {
        free(start);
        free(cv);
        snprintf(err, errlen, "%s: out of host memory for %lld entries", path, (long long)count);
        return -1;
    }
    for (int64_t k = 0; k < count; k++)
        start[e[k].r + 1]++;
    for (int32_t i = 0; i < rows; i++)
        start[i + 1] += start[i];
    int64_t *fill = (int64_t *)malloc(((size_t)rows + 1) * sizeof *fill);
    if (!fill) {
        free(start);
        free(cv);
        snprintf(err, errlen, "%s: out of host memory for %d rows", path, rows);
        return -1;
    }
    memcpy(fill, start, ((size_t)rows + 1) * sizeof *fill);
    for (int64_t k = 0; k < count; k++) {
        cv[fill[e[k].r]].c = e[k].c;
        cv[fill[e[k].r]++].v = e[k].v;
    }
    free(fill);
    /* Sort each row, then sum runs of one column, compacting in place. */
    int64_t out = 0;
    *duplicates = 0;
    for (int32_t i = 0; i < rows; i++) {
        const int64_t a = start[i], b = start[i + 1];
        qsort(cv + a, (size_t)(b - a), sizeof *cv, cmp_colval);
        m->row_ptr[i] = (int32_t)out;
        for (int64_t k = a; k < b; k++) {
            if (out > m->row_ptr[i] && cv[out - 1].c == cv[k].c) {
                cv[out - 1].v += cv[k].v;
                (*duplicates)++;
            } else {
                cv[out++] = cv[k];
            }
        }
    }
    m->row_ptr[rows] = (int32_t)out;
    free(start);
    m->rows = rows;
    m->cols = cols;
    m->nnz = (int32_t)out;
    m->col_idx = (int32_t *)malloc((size_t)(out > 0 ? out : 1) * sizeof *m->col_idx);
    m->val = (double *)malloc((size_t)(out > 0 ? out : 1) * sizeof *m->val);
    if (!m->col_idx || !m->val) {
        free(cv);
        snprintf(err, errlen, "%s: out of host memory for %lld nonzeros", path, (long long)out);
        return -1;
    }
    for (int64_t k = 0; k < out; k++) {
        m->col_idx[k] = cv[k].c;
        m->val[k] = cv[k].v;
    }
    free(cv);
    return 0;
}

/* The banner and the size line, checked: 0, or -1 with err. */
static int read_head(climb_lines *r, long long file_bytes, climb_mtx_info *info, long long *rows, long long *cols,
                     long long *entries, char *err, size_t errlen)
{
    char *line;
    if (parse_header(r, info, err, errlen) != 0)
        return -1;
    int k = next_content(r, &line, err, errlen);
    if (k == 0)
        climb_lines_fail(r, err, errlen, "the file ends before its size line (rows columns entries)");
    if (k != 1)
        return -1;
    const char *s = line;
    char q[64];
    if (entry_int(r, &s, 1, CLIMB_MTX_MAX_DIM, "row count", rows, err, errlen) != 0 ||
        entry_int(r, &s, 1, CLIMB_MTX_MAX_DIM, "column count", cols, err, errlen) != 0 ||
        entry_int(r, &s, 0, CLIMB_MTX_MAX_NNZ, "entry count", entries, err, errlen) != 0)
        return -1;
    if (*climb_skip_blanks(s) != '\0') {
        climb_lines_fail(r, err, errlen, "unexpected '%s' after the size line's 3 numbers", shown(s, q, sizeof q));
        return -1;
    }
    if (info->symmetry != CLIMB_MTX_GENERAL && *rows != *cols) {
        climb_lines_fail(r, err, errlen, "a %s matrix must be square, this one is %lld x %lld",
                         info->symmetry == CLIMB_MTX_SKEW ? "skew-symmetric" : "symmetric", *rows, *cols);
        return -1;
    }
    if (*entries > file_bytes / MTX_MIN_ENTRY_BYTES + 1) {
        climb_lines_fail(r, err, errlen, "%lld entries promised, more than a file of %lld bytes can hold", *entries,
                         file_bytes);
        return -1;
    }
    info->entries = *entries;
    return 0;
}

int climb_mtx_peek(const char *path, int32_t *rows, int32_t *cols, climb_mtx_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    climb_lines r;
    if (climb_lines_open_plain(&r, path, MTX_MAX_LINE, MTX_MAX_BYTES, err, errlen) != 0)
        return -1;
    struct stat st;
    const long long file_bytes = stat(path, &st) == 0 ? (long long)st.st_size : (long long)MTX_MAX_BYTES;
    long long nr = 0, nc = 0, ne = 0;
    const int rc = read_head(&r, file_bytes, info, &nr, &nc, &ne, err, errlen);
    climb_lines_close(&r);
    *rows = (int32_t)nr;
    *cols = (int32_t)nc;
    return rc;
}

int climb_mtx_read(const char *path, climb_csr *m, climb_mtx_info *info, char *err, size_t errlen)
{
    climb_mtx_info own;
    if (!info)
        info = &own;
    memset(m, 0, sizeof *m);
    memset(info, 0, sizeof *info);
    climb_lines r;
    if (climb_lines_open_plain(&r, path, MTX_MAX_LINE, MTX_MAX_BYTES, err, errlen) != 0)
        return -1;
    struct stat st;
    const long long file_bytes = stat(path, &st) == 0 ? (long long)st.st_size : (long long)MTX_MAX_BYTES;
    mtx_entry *e = NULL;
    int rc = -1;
    char *line;
    long long rows = 0, cols = 0, entries = 0;
    if (read_head(&r, file_bytes, info, &rows, &cols, &entries, err, errlen) != 0)
        goto done;
    const int mirror = info->symmetry != CLIMB_MTX_GENERAL;
    size_t e_bytes = 0;
    if (climb_mul3_fits((size_t)(entries > 0 ? entries : 1), mirror ? 2 : 1, sizeof *e, &e_bytes))
        e = (mtx_entry *)malloc(e_bytes);
    if (!e) {
        snprintf(err, errlen, "%s: out of host memory for %lld entries", path, entries);
        goto done;
    }
    int64_t count = 0;
    for (long long n = 0; n < entries; n++) {
        const int k = next_content(&r, &line, err, errlen);
        if (k == 0)
            climb_lines_fail(&r, err, errlen, "the file ends after %lld of its %lld entries", n, entries);
        if (k != 1)
            goto done;
        const char *s = line;
        char q[64];
        long long i = 0, j = 0, iv = 0;
        double v = 1.0;
        if (entry_int(&r, &s, 1, rows, "row index", &i, err, errlen) != 0 ||
            entry_int(&r, &s, 1, cols, "column index", &j, err, errlen) != 0)
            goto done;
        if (info->field == CLIMB_MTX_INTEGER) {
            if (entry_int(&r, &s, -(1LL << 53), 1LL << 53, "value", &iv, err, errlen) != 0)
                goto done;
            v = (double)iv;
        } else if (info->field == CLIMB_MTX_REAL) {
            const char *p = climb_skip_blanks(s);
            if (*p == '\0') {
                climb_lines_fail(&r, err, errlen, "the line ends before its value");
                goto done;
            }
            if (climb_scan_double(&p, &v) != 0 || (*p != '\0' && *p != ' ' && *p != '\t')) {
                climb_lines_fail(&r, err, errlen, "value '%s' is not a finite number", shown(s, q, sizeof q));
                goto done;
            }
            s = p;
        }
        if (*climb_skip_blanks(s) != '\0') {
            climb_lines_fail(&r, err, errlen, "unexpected '%s' after the entry", shown(s, q, sizeof q));
            goto done;
        }
        if (info->symmetry == CLIMB_MTX_SYMMETRIC && i < j) {
            climb_lines_fail(&r, err, errlen, "entry (%lld, %lld) is above the diagonal: a symmetric file stores "
                                              "the lower triangle only", i, j);
            goto done;
        }
        if (info->symmetry == CLIMB_MTX_SKEW && i <= j) {
            climb_lines_fail(&r, err, errlen, "entry (%lld, %lld) is %s: a skew-symmetric file stores the strict "
                                              "lower triangle only", i, j, i == j ? "on the diagonal" : "above it");
            goto done;
        }
        e[count].r = (int32_t)(i - 1);
        e[count].c = (int32_t)(j - 1);
        e[count++].v = v;
        if (mirror && i != j) {
            e[count].r = (int32_t)(j - 1);
            e[count].c = (int32_t)(i - 1);
            e[count++].v = info->symmetry == CLIMB_MTX_SKEW ? -v : v;
        }
    }
    const int k = next_content(&r, &line, err, errlen);
    if (k == 1)
        climb_lines_fail(&r, err, errlen, "more entries than the %lld the size line gives", entries);
    if (k != 0)
        goto done;
    if (count > CLIMB_MTX_MAX_NNZ) {
        snprintf(err, errlen, "%s: %lld nonzeros once mirrored: more than 32-bit indices hold", path, (long long)count);
        goto done;
    }
    if (build_csr(path, e, count, (int32_t)rows, (int32_t)cols, m, &info->duplicates, err, errlen) != 0)
        goto done;
    rc = 0;
done:
    free(e);
    climb_lines_close(&r);
    if (rc != 0)
        climb_csr_free(m);
    return rc;
}
