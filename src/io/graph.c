/* Sparse patterns and graphs shared by the irregular workloads (graph.h). */
#include "graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/host.h"
#include "../base/rng.h"
#include "text.h"

static const char *const GEN_NAMES[CLIMB_GEN_KINDS] = {"poisson", "stencil27", "banded",    "random", "powerlaw",
                                                      "grid2d",  "rmat",      "elastic27", "fem"};

const char *climb_sparse_gen_name(int kind) { return kind >= 0 && kind < CLIMB_GEN_KINDS ? GEN_NAMES[kind] : "?"; }

static int too_large(char *err, size_t errlen, const char *what, int64_t rows, int64_t nnz)
{
    snprintf(err, errlen, "%s: %lld rows and %lld nonzeros: over the 32-bit indices' 2147483647", what,
             (long long)rows, (long long)nnz);
    return -1;
}

static void sort_ints(int32_t *a, int32_t k)
{
    for (int32_t i = 1; i < k; i++) {
        const int32_t v = a[i];
        int32_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Distinct sorted columns: k of [0, cols), uniform. Rejection for k well below cols, a partial shuffle else. */
static void distinct_columns(climb_rng *r, int32_t cols, int32_t k, int32_t *out, int32_t *scratch)
{
    if (k == 0)
        return;
    if ((int64_t)k * 4 > cols) {
        for (int32_t i = 0; i < cols; i++)
            scratch[i] = i;
        for (int32_t i = 0; i < k; i++) {
            const int32_t j = i + (int32_t)climb_rng_range(r, 0, cols - 1 - i);
            const int32_t t = scratch[i];
            scratch[i] = scratch[j];
            scratch[j] = t;
            out[i] = scratch[i];
        }
        sort_ints(out, k);
        return;
    }
    int32_t have = 0;
    while (have < k) {
        for (int32_t i = have; i < k; i++)
            out[i] = (int32_t)climb_rng_range(r, 0, cols - 1);
        sort_ints(out, k); /* k is small here: at most cols / 4, and usually tens */
        have = 1;
        for (int32_t i = 1; i < k; i++)
            if (out[i] != out[have - 1])
                out[have++] = out[i];
    }
}

static int32_t powerlaw_len(climb_rng *r, int32_t cap)
{
    const double u = 1.0 - climb_rng_double(r, 0.0, 1.0); /* (0, 1] */
    const double l = floor(pow(u, -1.0 / 1.2));
    return l >= (double)cap ? cap : (int32_t)l;
}

/* The stencils' neighbours of point r on the gx x gy x gz grid (2-D: gz 1 and no z offsets), in column order. */
static int32_t stencil_columns(int kind, int64_t r, int64_t gx, int64_t gy, int64_t gz, int32_t rows, int32_t cols,
                               int32_t *out)
{
    const int64_t x = r % gx, y = (r / gx) % gy, z = r / (gx * gy);
    const int zr = kind == CLIMB_GEN_GRID2D ? 0 : 1;
    int32_t k = 0;
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const int far = (dx != 0) + (dy != 0) + (dz != 0);
                if ((kind != CLIMB_GEN_STENCIL27 && far > 1) || (kind == CLIMB_GEN_GRID2D && far == 0))
                    continue; /* a grid graph has no self-loops; the PDE stencils keep their diagonal */
                if (x + dx < 0 || x + dx >= gx || y + dy < 0 || y + dy >= gy || z + dz < 0 || z + dz >= gz)
                    continue;
                const int64_t c = r + dx + dy * gx + dz * gx * gy;
                if (c < cols && c < rows) {
                    if (out)
                        out[k] = (int32_t)c;
                    k++;
                }
            }
    return k;
}

/* ELASTIC27: row r's columns (node r / 3's 27 neighbours, 3 components each, in column order) on the gx x gx x gz
 * grid of nodes. */
static int32_t elastic_columns(int64_t r, int64_t gx, int64_t gz, int32_t rows, int32_t cols, int32_t *out)
{
    const int64_t node = r / 3, x = node % gx, y = (node / gx) % gx, z = node / (gx * gx);
    int32_t k = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (x + dx < 0 || x + dx >= gx || y + dy < 0 || y + dy >= gx || z + dz < 0 || z + dz >= gz)
                    continue;
                const int64_t nb = node + dx + dy * gx + dz * gx * gx;
                for (int c = 0; c < 3; c++) {
                    const int64_t col = 3 * nb + c;
                    if (col < cols && col < rows) {
                        if (out)
                            out[k] = (int32_t)col;
                        k++;
                    }
                }
            }
    return k;
}

/* FEM: the window's half-width for a mean of per_row. */
static int64_t fem_half(const climb_sparse_gen *g) { return g->band > g->per_row ? g->band : g->per_row; }

static int rmat(const climb_sparse_gen *g, climb_rng *rng, climb_csr *m, char *err, size_t errlen)
{
    const int32_t n = (int32_t)g->rows;
    const int64_t edges = (int64_t)n * (g->per_row > 0 ? g->per_row : 0), stored = g->directed ? edges : edges * 2;
    if (stored > CLIMB_MTX_MAX_NNZ)
        return too_large(err, errlen, "rmat", n, stored);
    if (climb_host_memory_refuses((size_t)edges * 2 * 8 + (size_t)n * 4, "the R-MAT graph")) {
        snprintf(err, errlen, "rmat: not enough host memory for %lld edges", (long long)edges);
        return -1;
    }
    int scale = 0;
    while (((int64_t)1 << scale) < n)
        scale++;
    int32_t *src = malloc((size_t)(edges ? edges : 1) * sizeof *src), *dst = malloc((size_t)(edges ? edges : 1) * sizeof *dst);
    int32_t *perm = malloc((size_t)(n ? n : 1) * sizeof *perm);
    if (!src || !dst || !perm) {
        free(src);
        free(dst);
        free(perm);
        snprintf(err, errlen, "rmat: out of host memory for %lld edges", (long long)edges);
        return -1;
    }
    for (int64_t e = 0; e < edges; e++) {
        int64_t u, v;
        do {
            u = v = 0;
            for (int l = 0; l < scale; l++) {
                const double p = climb_rng_double(rng, 0.0, 1.0);
                const int bu = p >= 0.57 + 0.19, bv = (p >= 0.57 && p < 0.57 + 0.19) || p >= 0.57 + 0.19 + 0.19;
                u = 2 * u + bu;
                v = 2 * v + bv;
            }
        } while (u >= n || v >= n);
        src[e] = (int32_t)u;
        dst[e] = (int32_t)v;
    }
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    for (int32_t i = n - 1; i > 0; i--) { /* Fisher-Yates: the Graph500 generator's relabelling */
        const int32_t j = (int32_t)climb_rng_range(rng, 0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int64_t e = 0; e < edges; e++) {
        src[e] = perm[src[e]];
        dst[e] = perm[dst[e]];
    }
    free(perm);
    const int rc = climb_csr_from_edges(n, n, edges, src, dst, NULL, !g->directed, 0, m, NULL, err, errlen);
    free(src);
    free(dst);
    return rc;
}

int climb_sparse_generate(const climb_sparse_gen *g, climb_csr *m, int grid[3], char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    const char *name = climb_sparse_gen_name(g->kind);
    if (g->kind < 0 || g->kind >= CLIMB_GEN_KINDS) {
        snprintf(err, errlen, "no generated matrix of kind %d", g->kind);
        return -1;
    }
    if (g->rows < 0 || g->cols < 0 || g->rows > CLIMB_MTX_MAX_DIM || g->cols > CLIMB_MTX_MAX_DIM) {
        snprintf(err, errlen, "%s: %lld x %lld: rows and cols must be within 0 .. 2147483646", name,
                 (long long)g->rows, (long long)g->cols);
        return -1;
    }
    if ((g->kind == CLIMB_GEN_RMAT || g->kind == CLIMB_GEN_GRID2D) && g->rows != g->cols) {
        snprintf(err, errlen, "%s: a graph is square: %lld x %lld asked", name, (long long)g->rows, (long long)g->cols);
        return -1;
    }
    const int32_t rows = (int32_t)g->rows, cols = (int32_t)g->cols;
    climb_rng rng;
    climb_rng_seed(&rng, g->seed);
    if (g->kind == CLIMB_GEN_RMAT) {
        if (grid)
            grid[0] = grid[1] = grid[2] = 0;
        if (rmat(g, &rng, m, err, errlen) != 0)
            return -1;
        for (int32_t j = 0; j < m->nnz; j++)
            m->val[j] = climb_rng_double(&rng, -1.0, 1.0);
        return 0;
    }
    if (g->kind == CLIMB_GEN_RANDOM && (int64_t)rows * (g->per_row < cols ? g->per_row : cols) > CLIMB_MTX_MAX_NNZ)
        return too_large(err, errlen, name, rows, (int64_t)rows * (g->per_row < cols ? g->per_row : cols));
    const int plane = g->kind == CLIMB_GEN_GRID2D, elastic = g->kind == CLIMB_GEN_ELASTIC27;
    const int64_t points = elastic ? (rows + 2) / 3 : rows; /* grid points: nodes of 3 unknowns for ELASTIC27 */
    int64_t gx = (int64_t)llround(plane ? sqrt((double)points) : cbrt((double)points));
    if (gx < 1)
        gx = 1;
    const int64_t gy = plane ? (points ? (points + gx - 1) / gx : 0) : gx;
    const int64_t gz = plane ? 1 : (points ? (points + gx * gx - 1) / (gx * gx) : 0);
    if (grid) {
        grid[0] = (int)gx;
        grid[1] = (int)gy;
        grid[2] = (int)gz;
    }
    /* Row lengths first (the power law draws them; the others count their in-range columns). */
    m->rows = rows;
    m->cols = cols;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof(int32_t));
    if (!m->row_ptr) {
        snprintf(err, errlen, "out of host memory for %lld row pointers", (long long)rows + 1);
        return -1;
    }
    const int stencil = g->kind == CLIMB_GEN_POISSON || g->kind == CLIMB_GEN_STENCIL27 || plane;
    int64_t nnz = 0;
    m->row_ptr[0] = 0;
    for (int32_t r = 0; r < rows; r++) {
        int64_t len = 0;
        if (stencil) {
            len = stencil_columns(g->kind, r, gx, gy, gz, rows, cols, NULL);
        } else if (elastic) {
            len = elastic_columns(r, gx, gz, rows, cols, NULL);
        } else if (g->kind == CLIMB_GEN_FEM) {
            const int64_t h = fem_half(g), lo = r - h < 0 ? 0 : r - h, hi = r + h >= cols ? cols - 1 : r + h;
            const int64_t width = hi >= lo ? hi - lo + 1 : 0;
            len = climb_rng_int(&rng, g->per_row / 2, g->per_row + g->per_row / 2);
            len = len < width ? len : width;
        } else if (g->kind == CLIMB_GEN_BANDED) {
            const int64_t lo = r - g->band < 0 ? 0 : r - g->band, hi = r + g->band >= cols ? cols - 1 : r + g->band;
            len = hi >= lo ? hi - lo + 1 : 0;
        } else if (g->kind == CLIMB_GEN_RANDOM) {
            len = g->per_row < cols ? g->per_row : cols;
        } else {
            len = cols ? powerlaw_len(&rng, g->max_row < cols ? g->max_row : cols) : 0;
        }
        nnz += len;
        if (nnz > CLIMB_MTX_MAX_NNZ) {
            climb_csr_free(m);
            return too_large(err, errlen, name, rows, nnz);
        }
        m->row_ptr[r + 1] = (int32_t)nnz;
    }
    m->nnz = (int32_t)nnz;
    if (climb_host_memory_refuses((size_t)nnz * 12, "the sparse matrix")) {
        snprintf(err, errlen, "%s: not enough host memory for %lld nonzeros", name, (long long)nnz);
        climb_csr_free(m);
        return -1;
    }
    m->col_idx = malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
    m->val = malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
    int32_t *scratch = NULL;
    const int sparse_draw = g->kind == CLIMB_GEN_RANDOM || g->kind == CLIMB_GEN_POWERLAW;
    if (sparse_draw)
        scratch = malloc(((size_t)cols + 1) * sizeof(int32_t));
    else if (g->kind == CLIMB_GEN_FEM)
        scratch = malloc(((size_t)(2 * fem_half(g) + 1) < (size_t)cols + 1 ? (size_t)(2 * fem_half(g) + 1)
                                                                            : (size_t)cols + 1) *
                         sizeof(int32_t));
    if (!m->col_idx || !m->val || ((sparse_draw || g->kind == CLIMB_GEN_FEM) && !scratch)) {
        snprintf(err, errlen, "out of host memory for %lld nonzeros", (long long)nnz);
        free(scratch);
        climb_csr_free(m);
        return -1;
    }
    for (int32_t r = 0; r < rows; r++) {
        int32_t *out = m->col_idx + m->row_ptr[r];
        const int32_t len = m->row_ptr[r + 1] - m->row_ptr[r];
        if (stencil) {
            stencil_columns(g->kind, r, gx, gy, gz, rows, cols, out);
        } else if (elastic) {
            elastic_columns(r, gx, gz, rows, cols, out);
        } else if (g->kind == CLIMB_GEN_FEM) {
            const int64_t h = fem_half(g), lo = r - h < 0 ? 0 : r - h, hi = r + h >= cols ? cols - 1 : r + h;
            distinct_columns(&rng, (int32_t)(hi - lo + 1), len, out, scratch);
            for (int32_t k = 0; k < len; k++)
                out[k] += (int32_t)lo;
        } else if (g->kind == CLIMB_GEN_BANDED) {
            const int64_t lo = r - g->band < 0 ? 0 : r - g->band;
            for (int32_t k = 0; k < len; k++)
                out[k] = (int32_t)(lo + k);
        } else {
            distinct_columns(&rng, cols, len, out, scratch);
        }
    }
    free(scratch);
    for (int64_t j = 0; j < nnz; j++)
        m->val[j] = climb_rng_double(&rng, -1.0, 1.0);
    return 0;
}

/* ---- from an edge list ---- */

typedef struct {
    int32_t col;
    double val;
} col_val;

static int by_col_then_val(const void *a, const void *b)
{
    const col_val *x = a, *y = b;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->val < y->val ? -1 : x->val > y->val;
}

int climb_csr_from_edges(int32_t rows, int32_t cols, int64_t n, const int32_t *src, const int32_t *dst,
                         const double *val, int symmetrize, int self_loops, climb_csr *m, int64_t *dropped, char *err,
                         size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (dropped)
        *dropped = 0;
    if (symmetrize && rows != cols) {
        snprintf(err, errlen, "a %d x %d matrix cannot be made symmetric", rows, cols);
        return -1;
    }
    int64_t *count = calloc((size_t)rows + 2, sizeof *count);
    if (!count) {
        snprintf(err, errlen, "out of host memory for %lld rows", (long long)rows);
        return -1;
    }
    int64_t stored = 0, loops = 0;
    for (int64_t e = 0; e < n; e++) {
        if (src[e] == dst[e] && !self_loops) {
            loops++;
            continue;
        }
        count[src[e] + 1]++;
        stored++;
        if (symmetrize && src[e] != dst[e]) {
            count[dst[e] + 1]++;
            stored++;
        }
    }
    if (stored > CLIMB_MTX_MAX_NNZ) {
        free(count);
        snprintf(err, errlen, "%lld edges to store: over the 2147483647 that 32-bit row pointers hold (graphs past "
                 "2^31 edges need 64-bit indices, which climb does not have)", (long long)stored);
        return -1;
    }
    for (int32_t r = 0; r < rows; r++)
        count[r + 1] += count[r];
    col_val *cv = malloc((size_t)(stored ? stored : 1) * sizeof *cv);
    int64_t *at = malloc(((size_t)rows + 1) * sizeof *at);
    if (!cv || !at) {
        free(count);
        free(cv);
        free(at);
        snprintf(err, errlen, "out of host memory for %lld edges", (long long)stored);
        return -1;
    }
    memcpy(at, count, ((size_t)rows + 1) * sizeof *at);
    for (int64_t e = 0; e < n; e++) {
        if (src[e] == dst[e] && !self_loops)
            continue;
        const double v = val ? val[e] : 1.0;
        cv[at[src[e]]++] = (col_val){dst[e], v};
        if (symmetrize && src[e] != dst[e])
            cv[at[dst[e]]++] = (col_val){src[e], v};
    }
    free(at);
    m->rows = rows;
    m->cols = cols;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof(int32_t));
    m->col_idx = malloc((size_t)(stored ? stored : 1) * sizeof(int32_t));
    m->val = malloc((size_t)(stored ? stored : 1) * sizeof(double));
    if (!m->row_ptr || !m->col_idx || !m->val) {
        free(count);
        free(cv);
        climb_csr_free(m);
        snprintf(err, errlen, "out of host memory for %lld edges", (long long)stored);
        return -1;
    }
    int64_t nnz = 0, repeats = 0;
    m->row_ptr[0] = 0;
    for (int32_t r = 0; r < rows; r++) {
        col_val *row = cv + count[r];
        const int64_t len = count[r + 1] - count[r];
        qsort(row, (size_t)len, sizeof *row, by_col_then_val);
        for (int64_t k = 0; k < len; k++) {
            if (k > 0 && row[k].col == row[k - 1].col) {
                repeats++; /* the smallest value came first */
                continue;
            }
            m->col_idx[nnz] = row[k].col;
            m->val[nnz] = row[k].val;
            nnz++;
        }
        m->row_ptr[r + 1] = (int32_t)nnz;
    }
    m->nnz = (int32_t)nnz;
    free(count);
    free(cv);
    if (dropped)
        *dropped = loops + (symmetrize ? repeats / 2 + repeats % 2 : repeats);
    return 0;
}

/* ---- graph files ---- */

#define GRAPH_MAX_LINE ((size_t)1 << 12)
#define GRAPH_MAX_BYTES ((uint64_t)1 << 42)

typedef struct {
    int32_t *src, *dst;
    double *val;
    int64_t n, cap;
} edge_list;

static int push_edge(edge_list *l, int32_t u, int32_t v, double w, int weighted)
{
    if (l->n == l->cap) {
        const int64_t cap = l->cap ? 2 * l->cap : 4096;
        int32_t *s = realloc(l->src, (size_t)cap * sizeof *s);
        if (s)
            l->src = s;
        int32_t *d = realloc(l->dst, (size_t)cap * sizeof *d);
        if (d)
            l->dst = d;
        double *x = weighted ? realloc(l->val, (size_t)cap * sizeof *x) : l->val;
        if (x)
            l->val = x;
        if (!s || !d || (weighted && !x))
            return -1;
        l->cap = cap;
    }
    l->src[l->n] = u;
    l->dst[l->n] = v;
    if (weighted)
        l->val[l->n] = w;
    l->n++;
    return 0;
}

/* "'abc'": a bad token quoted in printable ASCII, cut short. */
static const char *shown(const char *s, char *buf, size_t len)
{
    size_t n = strcspn(s, " \t");
    climb_printable(s, n < 40 ? n : 40, buf, len);
    return buf;
}

int climb_graph_read(const char *path, int symmetrize, climb_csr *g, climb_graph_info *info, char *err,
                     size_t errlen)
{
    climb_graph_info own;
    if (!info)
        info = &own;
    memset(info, 0, sizeof *info);
    memset(g, 0, sizeof *g);
    climb_lines r;
    if (climb_lines_open_plain(&r, path, GRAPH_MAX_LINE, GRAPH_MAX_BYTES, err, errlen) != 0)
        return -1;
    edge_list l = {0};
    int rc = -1, format = -1; /* -1: not yet known */
    long long nodes = -1, arcs = -1, max_id = -1;
    char *line, q[64];
    size_t len;
    int k;
    while ((k = climb_lines_next(&r, &line, &len, err, errlen)) == 1) {
        const char *s = climb_skip_blanks(line);
        if (*s == '\0')
            continue;
        if (*s == '#') {
            if (format == -1 && strstr(s, "Directed graph"))
                info->directed = 1;
            if (format == CLIMB_GRAPH_DIMACS) {
                climb_lines_fail(&r, err, errlen, "'#' is not a DIMACS line (c, p or a)");
                goto done;
            }
            format = format == -1 ? -2 : format; /* comments: SNAP's */
            continue;
        }
        if (format < 0)
            format = (s[0] == 'c' || s[0] == 'p' || s[0] == 'a') && (s[1] == ' ' || s[1] == '\t' || s[1] == '\0') &&
                             format == -1
                         ? CLIMB_GRAPH_DIMACS
                         : CLIMB_GRAPH_SNAP;
        long long u, v, w = 0;
        if (format == CLIMB_GRAPH_DIMACS) {
            const char kind = *s++;
            if (kind == 'c')
                continue;
            s = climb_skip_blanks(s);
            if (kind == 'p') {
                if (nodes >= 0) {
                    climb_lines_fail(&r, err, errlen, "a second problem line");
                    goto done;
                }
                if (strncmp(s, "sp", 2) != 0 || (s[2] != ' ' && s[2] != '\t')) {
                    climb_lines_fail(&r, err, errlen, "the problem line must be 'p sp NODES ARCS'");
                    goto done;
                }
                s = climb_skip_blanks(s + 2);
                if (climb_scan_int(&s, 1, CLIMB_MTX_MAX_DIM, &nodes) != 0 || (s = climb_skip_blanks(s), 0) ||
                    climb_scan_int(&s, 0, INT64_MAX / 2, &arcs) != 0 || *climb_skip_blanks(s) != '\0') {
                    climb_lines_fail(&r, err, errlen, "the problem line must be 'p sp NODES ARCS' (NODES from 1 to "
                                     "2147483646)");
                    nodes = -1;
                    goto done;
                }
                info->directed = 1;
                continue;
            }
            if (kind != 'a') {
                climb_lines_fail(&r, err, errlen, "a DIMACS line starts with c, p or a, not '%c'", kind);
                goto done;
            }
            if (nodes < 0) {
                climb_lines_fail(&r, err, errlen, "an arc before the problem line 'p sp NODES ARCS'");
                goto done;
            }
            if (climb_scan_int(&s, 1, nodes, &u) != 0 || (s = climb_skip_blanks(s), 0) ||
                climb_scan_int(&s, 1, nodes, &v) != 0 || (s = climb_skip_blanks(s), 0) ||
                climb_scan_int(&s, 0, INT32_MAX, &w) != 0 || *climb_skip_blanks(s) != '\0') {
                climb_lines_fail(&r, err, errlen, "an arc must be 'a U V LENGTH', U and V from 1 to %lld, LENGTH a "
                                 "non-negative integer: '%s'", nodes, shown(line, q, sizeof q));
                goto done;
            }
            u--;
            v--;
        } else {
            if (climb_scan_int(&s, 0, CLIMB_MTX_MAX_DIM - 1, &u) != 0) {
                climb_lines_fail(&r, err, errlen, "'%s' is not a node id (0 to 2147483645; larger graphs need 64-bit "
                                 "indices)", shown(s, q, sizeof q));
                goto done;
            }
            s = climb_skip_blanks(s);
            if (climb_scan_int(&s, 0, CLIMB_MTX_MAX_DIM - 1, &v) != 0) {
                climb_lines_fail(&r, err, errlen, "%s", *s ? "the second node id is not one (0 to 2147483645)"
                                                           : "an edge is two node ids 'U V'; this line has one");
                goto done;
            }
            s = climb_skip_blanks(s);
            if (*s != '\0') {
                climb_lines_fail(&r, err, errlen, "an edge is two node ids 'U V'; unexpected '%s' after them",
                                 shown(s, q, sizeof q));
                goto done;
            }
            max_id = u > max_id ? u : max_id;
            max_id = v > max_id ? v : max_id;
        }
        if (l.n >= CLIMB_MTX_MAX_NNZ) {
            climb_lines_fail(&r, err, errlen, "more than 2147483647 edges: graphs past 2^31 edges need 64-bit "
                             "indices, which climb does not have");
            goto done;
        }
        if (push_edge(&l, (int32_t)u, (int32_t)v, (double)w, format == CLIMB_GRAPH_DIMACS) != 0) {
            snprintf(err, errlen, "%s: out of host memory after %lld edges", path, (long long)l.n);
            goto done;
        }
    }
    if (k < 0)
        goto done;
    if (format == CLIMB_GRAPH_DIMACS && nodes < 0) {
        climb_lines_fail(&r, err, errlen, "the file ends without a problem line 'p sp NODES ARCS'");
        goto done;
    }
    if (format == CLIMB_GRAPH_DIMACS && arcs != l.n) {
        climb_lines_fail(&r, err, errlen, "the problem line promises %lld arcs, the file has %lld", arcs,
                         (long long)l.n);
        goto done;
    }
    info->format = format == CLIMB_GRAPH_DIMACS ? CLIMB_GRAPH_DIMACS : CLIMB_GRAPH_SNAP;
    info->edges = l.n;
    {
        const int64_t n = format == CLIMB_GRAPH_DIMACS ? nodes : max_id + 1;
        if (n > CLIMB_MTX_MAX_DIM) {
            snprintf(err, errlen, "%s: %lld nodes: over the 2147483646 of 32-bit indices", path, (long long)n);
            goto done;
        }
        char e2[400];
        if (climb_csr_from_edges((int32_t)n, (int32_t)n, l.n, l.src, l.dst, l.val, symmetrize, 0, g, &info->dropped,
                                 e2, sizeof e2) != 0) {
            snprintf(err, errlen, "%s: %s", path, e2);
            goto done;
        }
    }
    rc = 0;
done:
    climb_lines_close(&r);
    free(l.src);
    free(l.dst);
    free(l.val);
    return rc;
}
