/* PGM reader and writer (see pgm.h). The whole file is read into memory first (P5 is binary, so the line reader,
 * which refuses NUL bytes, does not apply), then the header is parsed token by token with the line counted for
 * messages. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgm.h"
#include "text.h"
#include "../base/checked.h"

/* The largest file read: a 2^28-pixel P2 with five characters a pixel is 1.3 GB; beyond that is not an image. */
#define PGM_MAX_FILE ((size_t)3 << 30)

typedef struct pgm_cursor {
    const char *name;
    const unsigned char *p, *end;
    long line;
    char *err;
    size_t errlen;
} pgm_cursor;

static int fail(pgm_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(pgm_cursor *c, const char *fmt, ...)
{
    int k = snprintf(c->err, c->errlen, "%s:%ld: ", c->name, c->line);
    if (k < 0 || (size_t)k >= c->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_space(unsigned char b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'; }

/* Skips whitespace and comments ('#' to the end of the line), counting lines. */
static void skip_space(pgm_cursor *c)
{
    while (c->p < c->end) {
        if (*c->p == '#') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else if (is_space(*c->p)) {
            c->line += *c->p == '\n';
            c->p++;
        } else {
            break;
        }
    }
}

/* A decimal number in [lo, hi]; `what` names it in messages. */
static int read_number(pgm_cursor *c, const char *what, unsigned long lo, unsigned long hi, unsigned long *out)
{
    skip_space(c);
    if (c->p >= c->end)
        return fail(c, "the file ends before the %s", what);
    if (*c->p < '0' || *c->p > '9') {
        char shown = (*c->p >= 32 && *c->p < 127) ? (char)*c->p : '?';
        return fail(c, "the %s: expected a number, found '%c'", what, shown);
    }
    unsigned long v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        v = v * 10 + (unsigned long)(*c->p - '0');
        if (v > hi)
            return fail(c, "the %s is over %lu", what, hi);
        c->p++;
    }
    if (c->p < c->end && !is_space(*c->p) && *c->p != '#')
        return fail(c, "the %s is followed by '%c', not a space", what, (*c->p >= 32 && *c->p < 127) ? *c->p : '?');
    if (v < lo)
        return fail(c, "the %s is %lu, below %lu", what, v, lo);
    *out = v;
    return 0;
}

/* header_only: stops after the header (img->pixels NULL): what a dry run needs. */
static int pgm_parse(const char *name, const unsigned char *data, size_t n, climb_pgm *img, int header_only, char *err,
                     size_t errlen)
{
    memset(img, 0, sizeof *img);
    pgm_cursor c = {name, data, data + n, 1, err, errlen};
    if (n < 2 || data[0] != 'P' || (data[1] != '2' && data[1] != '5'))
        return fail(&c, "not a PGM: it must start with P5 (binary) or P2 (plain)%s",
                    n >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6' ? " (this is another Netpbm kind: "
                                                                                    "only grayscale PGM is read)"
                                                                                  : "");
    const int plain = data[1] == '2';
    c.p += 2;
    if (c.p < c.end && !is_space(*c.p) && *c.p != '#')
        return fail(&c, "the magic number P%c is not followed by a space", data[1]);
    unsigned long cols, rows, maxval;
    if (read_number(&c, "width", 1, CLIMB_PGM_MAX_SIDE, &cols) || read_number(&c, "height", 1, CLIMB_PGM_MAX_SIDE, &rows) ||
        read_number(&c, "maxval", 1, 65535, &maxval))
        return -1;
    size_t pixels;
    if (!climb_mul_fits(rows, cols, &pixels) || pixels > CLIMB_PGM_MAX_PIXELS)
        return fail(&c, "%lu x %lu pixels: more than the 2^28 accepted", cols, rows);
    if (header_only) {
        img->rows = rows;
        img->cols = cols;
        img->maxval = (unsigned)maxval;
        img->plain = plain;
        return 0;
    }
    float *px = (float *)malloc(pixels * sizeof(float));
    if (!px) {
        snprintf(err, errlen, "%s: out of host memory for %lu x %lu pixels", name, cols, rows);
        return -1;
    }
    const float scale = 1.0f / (float)maxval;
    if (plain) {
        for (size_t i = 0; i < pixels; i++) {
            unsigned long v;
            char what[80];
            snprintf(what, sizeof what, "pixel %zu of %zu (row %zu, column %zu)", i + 1, pixels, i / cols + 1,
                     i % cols + 1);
            if (read_number(&c, what, 0, maxval, &v)) {
                free(px);
                return -1;
            }
            px[i] = (float)v * scale;
        }
    } else {
        /* Exactly one whitespace byte after maxval, then the raster. */
        if (c.p >= c.end || !is_space(*c.p)) {
            free(px);
            return fail(&c, "the maxval must be followed by one whitespace byte and the raster");
        }
        c.line += *c.p == '\n';
        c.p++;
        const size_t bpp = maxval > 255 ? 2 : 1, have = (size_t)(c.end - c.p);
        if (have < pixels * bpp) {
            free(px);
            return fail(&c, "the raster is cut short: %zu bytes, %zu needed for %lu x %lu pixels of %zu byte%s", have,
                        pixels * bpp, cols, rows, bpp, bpp == 1 ? "" : "s");
        }
        for (size_t i = 0; i < pixels; i++) {
            const unsigned v = bpp == 1 ? c.p[i] : (unsigned)c.p[2 * i] << 8 | c.p[2 * i + 1];
            if (v > maxval) {
                free(px);
                return fail(&c, "pixel %zu (row %zu, column %zu) is %u, over the maxval %lu", i + 1, i / cols + 1,
                            i % cols + 1, v, maxval);
            }
            px[i] = (float)v * scale;
        }
        /* Netpbm allows several images in one file; a second one is not read. */
    }
    img->rows = rows;
    img->cols = cols;
    img->maxval = (unsigned)maxval;
    img->plain = plain;
    img->pixels = px;
    return 0;
}

int climb_pgm_parse(const char *name, const unsigned char *data, size_t n, climb_pgm *img, char *err, size_t errlen)
{
    return pgm_parse(name, data, n, img, 0, err, errlen);
}

int climb_pgm_peek(const char *path, climb_pgm *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f) /* the full reader's message */
        return climb_pgm_read(path, img, err, errlen);
    unsigned char head[65536];
    const size_t n = fread(head, 1, sizeof head, f);
    const int whole = fgetc(f) == EOF;
    fclose(f);
    if (pgm_parse(path, head, n, img, 1, err, errlen) == 0)
        return 0;
    if (whole)
        return -1;
    /* a header longer than 64 KB (comments): the whole file, as the reader reads it */
    int rc = climb_pgm_read(path, img, err, errlen);
    climb_pgm_free(img);
    return rc;
}

int climb_pgm_read(const char *path, climb_pgm *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    unsigned char *data;
    size_t n;
    if (climb_read_file(path, PGM_MAX_FILE, "image accepted", &data, &n, err, errlen) != 0)
        return -1;
    int rc = climb_pgm_parse(path, data, n, img, err, errlen);
    free(data);
    return rc;
}

void climb_pgm_free(climb_pgm *img)
{
    free(img->pixels);
    img->pixels = NULL;
}

int climb_pgm_write(const char *path, const float *v, size_t rows, size_t cols, size_t ld, const char *comment,
                    char *err, size_t errlen)
{
    if (rows == 0 || cols == 0) {
        snprintf(err, errlen, "%s: an image of %zu x %zu pixels cannot be written as a PGM", path, cols, rows);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "P5\n");
    if (comment && comment[0]) {
        fputs("# ", f);
        for (const char *s = comment; *s; s++)
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
        fputc('\n', f);
    }
    fprintf(f, "%zu %zu\n255\n", cols, rows);
    unsigned char *line = (unsigned char *)malloc(cols);
    int bad = !line;
    for (size_t i = 0; i < rows && !bad; i++) {
        for (size_t j = 0; j < cols; j++) {
            const float x = v[i * ld + j];
            const float c = x > 0 ? (x < 1 ? x : 1) : 0; /* NaN goes to 0 */
            line[j] = (unsigned char)(c * 255.0f + 0.5f);
        }
        bad = fwrite(line, 1, cols, f) != cols;
    }
    free(line);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: write error", path);
        return -1;
    }
    return 0;
}
