/* PQR molecules and OpenDX maps (see molecule.h), on the line reader of text.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "molecule.h"
#include "text.h"
#include "../base/rng.h"
#include "../base/checked.h"

#define MOL_MAX_LINE 4096
#define MOL_MAX_BYTES ((uint64_t)64 << 30)

void climb_atoms_free(climb_atoms *a)
{
    free(a->xyzq);
    free(a->radius);
    memset(a, 0, sizeof *a);
}

/* 1 when the line's record name (its first word) is ATOM or HETATM. */
static int is_atom_record(const char *s)
{
    s = climb_skip_blanks(s);
    const size_t k = strcspn(s, " \t");
    return (k == 4 && strncmp(s, "ATOM", 4) == 0) || (k == 6 && strncmp(s, "HETATM", 6) == 0);
}

static int grow(climb_atoms *a, size_t *cap)
{
    const size_t c = *cap ? 2 * *cap : 1024;
    float *q = (float *)realloc(a->xyzq, c * 4 * sizeof(float)), *r;
    if (!q)
        return -1;
    a->xyzq = q;
    if (!(r = (float *)realloc(a->radius, c * sizeof(float))))
        return -1;
    a->radius = r;
    *cap = c;
    return 0;
}

int climb_pqr_read(const char *path, climb_atoms *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    climb_lines r;
    if (climb_lines_open_plain(&r, path, MOL_MAX_LINE, MOL_MAX_BYTES, err, errlen) != 0)
        return -1;
    size_t cap = 0;
    char *line;
    size_t len;
    int rc;
    static const char *const what[5] = {"x", "y", "z", "charge", "radius"};
    while ((rc = climb_lines_next(&r, &line, &len, err, errlen)) == 1) {
        if (!is_atom_record(line))
            continue;
        /* the last five fields: find where each starts, from the end */
        const char *f[5];
        const char *end = line + len;
        int got = 0;
        while (got < 5) {
            while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
            const char *b = end;
            while (b > line && b[-1] != ' ' && b[-1] != '\t')
                b--;
            if (b == end)
                break;
            f[4 - got++] = b;
            end = b;
        }
        /* the record name, serial, atom name, residue name and number (and maybe a chain) before them: whitespace
         * alone cannot tell a missing field, so a record of fewer than 10 fields is refused */
        int fields = 0;
        for (const char *t = climb_skip_blanks(line); *t; t = climb_skip_blanks(t + strcspn(t, " \t")))
            fields++;
        if (got < 5 || fields < 10) {
            rc = climb_lines_fail(&r, err, errlen, "an ATOM/HETATM record has at least 10 fields (record, serial, atom, "
                                                   "residue, residue number, then x y z charge radius as the last five); "
                                                   "this has %d", fields);
            break;
        }
        double v[5];
        for (int k = 0; k < 5 && rc == 1; k++) {
            const char *s = f[k];
            if (climb_scan_double(&s, &v[k]) != 0 || (*s != '\0' && *s != ' ' && *s != '\t')) {
                char tok[40];
                climb_printable(f[k], strcspn(f[k], " \t"), tok, sizeof tok);
                rc = climb_lines_fail(&r, err, errlen, "the %s is '%s', not a number", what[k], tok);
            } else if (fabs(v[k]) > 1e6) {
                rc = climb_lines_fail(&r, err, errlen, "the %s is %g: out of range (|value| <= 1e6)", what[k], v[k]);
            } else if (k == 4 && v[k] < 0) {
                rc = climb_lines_fail(&r, err, errlen, "the radius is %g, below 0", v[k]);
            }
        }
        if (rc != 1)
            break;
        if (a->n == CLIMB_PQR_MAX_ATOMS) {
            rc = climb_lines_fail(&r, err, errlen, "more than %zu atoms", CLIMB_PQR_MAX_ATOMS);
            break;
        }
        if (a->n == cap && grow(a, &cap) != 0) {
            snprintf(err, errlen, "%s: out of host memory at %zu atoms", path, a->n);
            rc = -1;
            break;
        }
        for (int k = 0; k < 4; k++)
            a->xyzq[4 * a->n + k] = (float)v[k];
        a->radius[a->n] = (float)v[4];
        for (int k = 0; k < 3; k++) {
            if (a->n == 0 || v[k] < a->lo[k])
                a->lo[k] = v[k];
            if (a->n == 0 || v[k] > a->hi[k])
                a->hi[k] = v[k];
        }
        a->n++;
    }
    climb_lines_close(&r);
    if (rc != 0) {
        climb_atoms_free(a);
        return -1;
    }
    return 0;
}

/* ---- OpenDX ---- */

int climb_dx_write(const char *path, const climb_dx_grid *g, const float *v, const char *comment, char *err,
                   size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (comment && comment[0]) {
        fputs("# ", f);
        for (const char *s = comment; *s; s++) {
            fputc(*s, f);
            if (*s == '\n')
                fputs("# ", f);
        }
        fputc('\n', f);
    }
    const size_t items = g->n[0] * g->n[1] * g->n[2];
    fprintf(f, "object 1 class gridpositions counts %zu %zu %zu\n", g->n[0], g->n[1], g->n[2]);
    fprintf(f, "origin %e %e %e\n", g->origin[0], g->origin[1], g->origin[2]);
    fprintf(f, "delta %e %e %e\n", g->delta[0], 0.0, 0.0);
    fprintf(f, "delta %e %e %e\n", 0.0, g->delta[1], 0.0);
    fprintf(f, "delta %e %e %e\n", 0.0, 0.0, g->delta[2]);
    fprintf(f, "object 2 class gridconnections counts %zu %zu %zu\n", g->n[0], g->n[1], g->n[2]);
    fprintf(f, "object 3 class array type double rank 0 items %zu data follows\n", items);
    size_t m = 0;
    for (size_t i = 0; i < g->n[0]; i++)
        for (size_t j = 0; j < g->n[1]; j++)
            for (size_t k = 0; k < g->n[2]; k++) {
                fprintf(f, "%e%c", (double)v[(k * g->n[1] + j) * g->n[0] + i], ++m % 3 == 0 ? '\n' : ' ');
            }
    if (m % 3)
        fputc('\n', f);
    fputs("attribute \"dep\" string \"positions\"\n"
          "object \"regular positions regular connections\" class field\n"
          "component \"positions\" value 1\ncomponent \"connections\" value 2\ncomponent \"data\" value 3\n",
          f);
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: write error", path);
        return -1;
    }
    return 0;
}

/* The next line that is not a comment or blank: 1, 0 at the end, -1 on a read error (err set). */
static int dx_next(climb_lines *r, char **line, char *err, size_t errlen)
{
    size_t len;
    int rc;
    while ((rc = climb_lines_next(r, line, &len, err, errlen)) == 1) {
        const char *s = climb_skip_blanks(*line);
        if (*s != '#' && *s != '\0')
            return 1;
    }
    return rc;
}

/* A line that starts with `head` and then holds exactly n numbers: 0, or -1 with err. */
static int dx_numbers(climb_lines *r, const char *line, const char *head, double *out, int n, char *err, size_t errlen)
{
    const char *s = climb_skip_blanks(line);
    const size_t hl = strlen(head);
    if (strncmp(s, head, hl) != 0)
        return climb_lines_fail(r, err, errlen, "expected '%s'", head);
    s += hl;
    for (int k = 0; k < n; k++) {
        s = climb_skip_blanks(s);
        if (climb_scan_double(&s, &out[k]) != 0)
            return climb_lines_fail(r, err, errlen, "'%s' needs %d numbers", head, n);
    }
    if (*climb_skip_blanks(s) != '\0')
        return climb_lines_fail(r, err, errlen, "'%s' is followed by more than %d numbers", head, n);
    return 0;
}

int climb_dx_read(const char *path, climb_dx_grid *g, float **v, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    *v = NULL;
    climb_lines r;
    if (climb_lines_open_plain(&r, path, MOL_MAX_LINE, MOL_MAX_BYTES, err, errlen) != 0)
        return -1;
    char *line;
    double c[3], d[3][3];
    int rc = 0;
#define DX_LINE()                                                                                            \
    do {                                                                                                     \
        int got = dx_next(&r, &line, err, errlen);                                                           \
        if (got != 1) {                                                                                      \
            if (got == 0)                                                                                    \
                climb_lines_fail(&r, err, errlen, "the file ends inside the header");                        \
            rc = -1;                                                                                         \
            goto done;                                                                                       \
        }                                                                                                    \
    } while (0)
    DX_LINE();
    if (dx_numbers(&r, line, "object 1 class gridpositions counts", c, 3, err, errlen) != 0) {
        rc = -1;
        goto done;
    }
    for (int k = 0; k < 3; k++) {
        if (!(c[k] >= 1 && c[k] <= 1 << 20 && c[k] == floor(c[k]))) {
            rc = climb_lines_fail(&r, err, errlen, "count %g: not a whole number from 1 to 2^20", c[k]);
            goto done;
        }
        g->n[k] = (size_t)c[k];
    }
    DX_LINE();
    if (dx_numbers(&r, line, "origin", g->origin, 3, err, errlen) != 0) {
        rc = -1;
        goto done;
    }
    for (int k = 0; k < 3; k++) {
        DX_LINE();
        if (dx_numbers(&r, line, "delta", d[k], 3, err, errlen) != 0) {
            rc = -1;
            goto done;
        }
        for (int m = 0; m < 3; m++)
            if ((m == k) != (d[k][m] != 0)) {
                rc = climb_lines_fail(&r, err, errlen, "delta %d: only axis-aligned grids are read (the %s value %s 0)",
                                      k + 1, m == 0 ? "x" : m == 1 ? "y" : "z", m == k ? "is" : "is not");
                goto done;
            }
        g->delta[k] = d[k][k];
    }
    DX_LINE(); /* object 2: the connections */
    if (strncmp(climb_skip_blanks(line), "object 2 class gridconnections", 30) != 0) {
        rc = climb_lines_fail(&r, err, errlen, "expected 'object 2 class gridconnections'");
        goto done;
    }
    DX_LINE();
    {
        const char *s = strstr(line, "items");
        long long items;
        if (strncmp(climb_skip_blanks(line), "object 3 class array", 20) != 0 || !s) {
            rc = climb_lines_fail(&r, err, errlen, "expected 'object 3 class array ... items N data follows'");
            goto done;
        }
        s = climb_skip_blanks(s + 5);
        size_t want = 0; /* each count at most 2^20: the product fits, but it is checked like every other */
        if (!climb_mul3_fits(g->n[0], g->n[1], g->n[2], &want) || climb_scan_int(&s, 0, 1LL << 40, &items) != 0 ||
            (size_t)items != want) {
            rc = climb_lines_fail(&r, err, errlen, "the item count is not %zu x %zu x %zu = %zu", g->n[0], g->n[1],
                                  g->n[2], want);
            goto done;
        }
        if (!(*v = (float *)malloc(want * sizeof(float)))) {
            snprintf(err, errlen, "%s: out of host memory for %zu values", path, want);
            rc = -1;
            goto done;
        }
        size_t m = 0;
        while (m < want) {
            DX_LINE();
            const char *p = line;
            for (p = climb_skip_blanks(p); *p && m < want; p = climb_skip_blanks(p)) {
                double x;
                if (climb_scan_double(&p, &x) != 0 || fabs(x) > 3.4e38) {
                    rc = climb_lines_fail(&r, err, errlen, "value %zu of %zu is not a float", m + 1, want);
                    goto done;
                }
                /* the file runs z fastest, then y, then x */
                const size_t k = m % g->n[2], j = (m / g->n[2]) % g->n[1], i = m / (g->n[2] * g->n[1]);
                (*v)[(k * g->n[1] + j) * g->n[0] + i] = (float)x;
                m++;
            }
            if (*p) {
                rc = climb_lines_fail(&r, err, errlen, "more than the %zu values the header counts", want);
                goto done;
            }
        }
    }
#undef DX_LINE
done:
    climb_lines_close(&r);
    if (rc != 0) {
        free(*v);
        *v = NULL;
        return -1;
    }
    return 0;
}

void climb_atoms_generate(int kind, size_t n, const double lo[3], const double ext[3], double h, struct climb_rng *r,
                          float *xyzq)
{
    const size_t side = (size_t)ceil(cbrt((double)(n + 2) / 3));
    for (size_t a = 0; a < n; a++) {
        float *p = xyzq + 4 * a;
        if (kind == CLIMB_ATOMS_WATER) { /* molecule a / 3, O then H along x and H along y */
            const size_t mol = a / 3, at = a % 3;
            const size_t cell[3] = {mol % side, (mol / side) % side, mol / (side * side)};
            for (int d = 0; d < 3; d++) {
                const double start = lo[d] + ext[d] / 2 - 3.1 * (double)(side - 1) / 2;
                p[d] = (float)(start + 3.1 * (double)cell[d] + (at == 1 && d == 0 ? 0.96 : 0) +
                               (at == 2 && d == 1 ? 0.96 : 0));
            }
            p[3] = at == 0 ? -0.834f : 0.417f;
        } else {
            for (int d = 0; d < 3; d++) {
                const double u = climb_rng_double(r, -0.2, 1.2) * ext[d];
                p[d] = (float)(lo[d] + (kind == CLIMB_ATOMS_ON_POINTS ? h * floor(u / h + 0.5) : u));
            }
            p[3] = climb_rng_float(r, -1, 1);
        }
    }
}

climb_atoms *climb_pqr_load(const char *path, char *err, size_t errlen)
{
    climb_atoms *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return NULL;
    }
    if (climb_pqr_read(path, a, err, errlen) != 0) {
        free(a);
        return NULL;
    }
    return a;
}

void climb_pqr_unload(void *atoms)
{
    climb_atoms *a = atoms;
    if (a)
        climb_atoms_free(a);
    free(a);
}
