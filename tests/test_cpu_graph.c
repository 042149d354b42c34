/* CPU: core's sparse patterns and graphs (src/io/graph.h): the generators (a 2-D grid's structure, R-MAT's
 * symmetry, skew and determinism, refusals), a CSR from an edge list (repeats, self-loops, values), the graph reader
 * on SNAP and DIMACS text, every kind of malformed line with its file:line message, a seeded fuzz of the reader,
 * and the road network in ../shared/data when it is there. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/graph.h"
#include "base/rng.h"
#include "testing.h"

static char dir[64];

/* 1 when (c, r) is stored for every stored (r, c). */
static int symmetric(const climb_csr *m)
{
    for (int32_t r = 0; r < m->rows; r++)
        for (int32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j++) {
            const int32_t c = m->col_idx[j];
            int found = 0;
            for (int32_t k = m->row_ptr[c]; k < m->row_ptr[c + 1] && !found; k++)
                found = m->col_idx[k] == r;
            if (!found)
                return 0;
        }
    return 1;
}

static void test_generators(void)
{
    char err[300];
    climb_csr m;
    int grid[3];
    /* a 10 x 10 grid: degree 2 at the corners, 3 on the edges, 4 inside; every edge both ways */
    climb_sparse_gen g = {.kind = CLIMB_GEN_GRID2D, .rows = 100, .cols = 100, .seed = 1};
    EXPECT(climb_sparse_generate(&g, &m, grid, err, sizeof err) == 0);
    EXPECT(grid[0] == 10 && grid[1] == 10 && grid[2] == 1);
    EXPECT(m.nnz == 2 * 2 * 10 * 9 && climb_csr_check(&m) == NULL && symmetric(&m));
    EXPECT(m.row_ptr[1] - m.row_ptr[0] == 2 && m.row_ptr[2] - m.row_ptr[1] == 3 && m.row_ptr[12] - m.row_ptr[11] == 4);
    climb_csr_free(&m);
    g.rows = g.cols = 97; /* the last grid row cut short */
    EXPECT(climb_sparse_generate(&g, &m, grid, err, sizeof err) == 0 && climb_csr_check(&m) == NULL && symmetric(&m));
    climb_csr_free(&m);

    /* R-MAT, Graph500's parameters: symmetric, no self-loops, sorted distinct columns, a skewed degree, the same
     * graph for the same seed and another for another */
    climb_sparse_gen rm = {.kind = CLIMB_GEN_RMAT, .rows = 4096, .cols = 4096, .per_row = 16, .seed = 42};
    climb_csr a, b, c;
    EXPECT(climb_sparse_generate(&rm, &a, NULL, err, sizeof err) == 0);
    EXPECT(climb_csr_check(&a) == NULL && symmetric(&a));
    int32_t max = 0, loops = 0;
    for (int32_t r = 0; r < a.rows; r++) {
        const int32_t d = a.row_ptr[r + 1] - a.row_ptr[r];
        max = d > max ? d : max;
        for (int32_t j = a.row_ptr[r]; j < a.row_ptr[r + 1]; j++)
            loops += a.col_idx[j] == r;
    }
    const double mean = (double)a.nnz / a.rows;
    EXPECT_MSG(loops == 0 && max > 8 * mean && mean > 10 && mean < 32, "max degree %d, mean %.1f, %d loops", max,
               mean, loops);
    /* the labels scrambled, as Graph500's generator does: unscrambled, R-MAT's A quadrant puts the hubs at the
     * smallest ids (the lowest eighth of the ids would hold about twice the mean degree); scrambled, no id range is
     * favoured */
    int64_t low = 0;
    for (int32_t r = 0; r < a.rows / 8; r++)
        low += a.row_ptr[r + 1] - a.row_ptr[r];
    const double low_mean = (double)low / (a.rows / 8);
    EXPECT_MSG(low_mean < 1.3 * mean && low_mean > 0.7 * mean, "the lowest ids' mean degree %.1f against %.1f",
               low_mean, mean);
    EXPECT(climb_sparse_generate(&rm, &b, NULL, err, sizeof err) == 0);
    EXPECT(a.nnz == b.nnz && memcmp(a.col_idx, b.col_idx, sizeof(int32_t) * (size_t)a.nnz) == 0);
    climb_csr_free(&b);
    /* directed: the same draws stored one way, so not symmetric, at most half the stored edges, and its
     * symmetrization is exactly the undirected graph of the seed */
    rm.directed = 1;
    EXPECT(climb_sparse_generate(&rm, &b, NULL, err, sizeof err) == 0 && climb_csr_check(&b) == NULL);
    EXPECT_MSG(!symmetric(&b) && b.nnz <= a.nnz && 2 * b.nnz >= a.nnz, "%d directed edges against %d", b.nnz, a.nnz);
    {
        int32_t *src = malloc(sizeof(int32_t) * (size_t)(b.nnz + 1));
        EXPECT(src != NULL);
        for (int32_t r = 0; src && r < b.rows; r++)
            for (int32_t j = b.row_ptr[r]; j < b.row_ptr[r + 1]; j++)
                src[j] = r;
        climb_csr sym;
        EXPECT(src && climb_csr_from_edges(b.rows, b.cols, b.nnz, src, b.col_idx, NULL, 1, 0, &sym, NULL, err,
                                           sizeof err) == 0);
        EXPECT(src && sym.nnz == a.nnz && memcmp(sym.row_ptr, a.row_ptr, sizeof(int32_t) * ((size_t)a.rows + 1)) == 0 &&
               memcmp(sym.col_idx, a.col_idx, sizeof(int32_t) * (size_t)a.nnz) == 0);
        if (src)
            climb_csr_free(&sym);
        free(src);
    }
    rm.directed = 0;
    rm.seed = 43;
    EXPECT(climb_sparse_generate(&rm, &c, NULL, err, sizeof err) == 0);
    EXPECT(c.nnz != a.nnz || memcmp(a.col_idx, c.col_idx, sizeof(int32_t) * (size_t)a.nnz) != 0);
    climb_csr_free(&a);
    climb_csr_free(&b);
    climb_csr_free(&c);
    rm.rows = 1000; /* not a power of two: vertices past rows are drawn again */
    rm.cols = 1000;
    EXPECT(climb_sparse_generate(&rm, &a, NULL, err, sizeof err) == 0 && a.rows == 1000 && climb_csr_check(&a) == NULL);
    climb_csr_free(&a);
    rm.cols = 999;
    EXPECT(climb_sparse_generate(&rm, &a, NULL, err, sizeof err) == -1 && strstr(err, "square"));
    rm.rows = rm.cols = (int64_t)1 << 30; /* 2^34 edges: refused before anything is drawn */
    EXPECT(climb_sparse_generate(&rm, &a, NULL, err, sizeof err) == -1 && strstr(err, "2147483647"));
    climb_sparse_gen bad = {.kind = 99, .rows = 10, .cols = 10};
    EXPECT(climb_sparse_generate(&bad, &a, NULL, err, sizeof err) == -1);
    EXPECT(strcmp(climb_sparse_gen_name(CLIMB_GEN_RMAT), "rmat") == 0 && strcmp(climb_sparse_gen_name(-1), "?") == 0);
    /* the stencils (moved here from spmv): the 7-point Poisson matrix of 4 x 4 x 4 */
    climb_sparse_gen p = {.kind = CLIMB_GEN_POISSON, .rows = 64, .cols = 64, .seed = 3};
    EXPECT(climb_sparse_generate(&p, &a, grid, err, sizeof err) == 0 && grid[0] == 4 && grid[2] == 4);
    EXPECT(a.nnz == 64 + 2 * 3 * 4 * 4 * 3 && climb_csr_check(&a) == NULL);
    climb_csr_free(&a);
}

static void test_from_edges(void)
{
    /* 0->1 twice (values 5 and 2: the smaller kept), a self-loop, 2->0 */
    const int32_t src[] = {0, 0, 1, 2, 0}, dst[] = {1, 1, 1, 0, 1};
    const double val[] = {5, 2, 9, 7, 3};
    climb_csr m;
    char err[200];
    int64_t dropped = -1;
    EXPECT(climb_csr_from_edges(3, 3, 5, src, dst, val, 0, 0, &m, &dropped, err, sizeof err) == 0);
    EXPECT(m.nnz == 2 && m.row_ptr[1] == 1 && m.col_idx[0] == 1 && m.val[0] == 2 && m.row_ptr[3] == 2 &&
           m.col_idx[1] == 0 && m.val[1] == 7);
    EXPECT_MSG(dropped == 3, "%lld dropped", (long long)dropped); /* two repeats of 0->1, the self-loop */
    climb_csr_free(&m);
    EXPECT(climb_csr_from_edges(3, 3, 5, src, dst, val, 1, 1, &m, NULL, err, sizeof err) == 0);
    EXPECT(m.nnz == 5 && symmetric(&m) && climb_csr_check(&m) == NULL); /* 0-1, 1-0, 1-1, 2-0, 0-2 */
    climb_csr_free(&m);
    EXPECT(climb_csr_from_edges(3, 4, 5, src, dst, val, 1, 0, &m, NULL, err, sizeof err) == -1);
    EXPECT(climb_csr_from_edges(0, 0, 0, NULL, NULL, NULL, 0, 0, &m, NULL, err, sizeof err) == 0 && m.nnz == 0);
    climb_csr_free(&m);
}

static int read_text(const char *text, int symmetrize, climb_csr *g, climb_graph_info *info, char *err, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/g.txt", dir);
    test_write_text(path, text);
    return climb_graph_read(path, symmetrize, g, info, err, len);
}

static void test_reader(void)
{
    climb_csr g;
    climb_graph_info info;
    char err[400];
    /* SNAP: comments, tabs, a CRLF line, a blank line, a repeat, ids with gaps */
    EXPECT(read_text("# Directed graph (each unordered pair of nodes is saved once): x.txt\n# FromNodeId\tToNodeId\n"
                     "0\t1\n1 2\r\n\n0\t1\n5 0\n",
                     0, &g, &info, err, sizeof err) == 0);
    EXPECT(info.format == CLIMB_GRAPH_SNAP && info.directed == 1 && info.edges == 4 && info.dropped == 1);
    EXPECT(g.rows == 6 && g.nnz == 3 && g.row_ptr[1] == 1 && g.col_idx[0] == 1 && g.row_ptr[6] == 3 && g.val[0] == 1.0);
    climb_csr_free(&g);
    EXPECT(read_text("0 1\n1 2\n", 1, &g, &info, err, sizeof err) == 0 && g.nnz == 4 && symmetric(&g) &&
           info.directed == 0);
    climb_csr_free(&g);
    EXPECT(read_text("# nothing but comments\n", 0, &g, &info, err, sizeof err) == 0 && g.rows == 0 && g.nnz == 0);
    climb_csr_free(&g);
    /* DIMACS: lengths kept as values, ids from 1 */
    EXPECT(read_text("c a road\np sp 3 3\nc arcs\na 1 2 10\na 2 3 20\na 3 1 5\n", 0, &g, &info, err, sizeof err) == 0);
    EXPECT(info.format == CLIMB_GRAPH_DIMACS && info.directed && g.rows == 3 && g.nnz == 3 && g.col_idx[0] == 1 &&
           g.val[0] == 10 && g.val[2] == 5);
    climb_csr_free(&g);

    const char *bad[][2] = {
        {"0 1\n2\n", ":2: an edge is two node ids"},
        {"0 1\n2 3 4\n", ":2: an edge is two node ids 'U V'; unexpected '4'"},
        {"0 x\n", ":1: the second node id is not one"},
        {"-1 2\n", ":1: '-1' is not a node id"},
        {"0 2147483646\n", ":1: the second node id is not one"},
        {"a b\n", ":1: an arc before the problem line"},
        {"p sp 2 1\na 1 3 4\n", ":2: an arc must be 'a U V LENGTH'"},
        {"p sp 2 2\na 1 2 4\n", ":2: the problem line promises 2 arcs, the file has 1"},
        {"p sp 2 1\np sp 2 1\n", ":2: a second problem line"},
        {"p xx 2 1\n", ":1: the problem line must be 'p sp NODES ARCS'"},
        {"c only comments\n", ":1: the file ends without a problem line"},
        {"p sp 2 1\nx 1 2 3\n", ":2: a DIMACS line starts with c, p or a"},
        {"p sp 2 1\na 1 2 -3\n", ":2: an arc must be"},
        {"p sp 2 1\n# hash\n", ":2: '#' is not a DIMACS line"},
        {"0 1\n1 \x01\n", ":2: the second node id is not one"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        const int rc = read_text(bad[i][0], 0, &g, &info, err, sizeof err);
        EXPECT_MSG(rc == -1 && strstr(err, bad[i][1]) && strstr(err, "g.txt:"), "case %zu: rc %d, '%s'", i, rc, err);
        climb_csr_free(&g);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/g.gz", dir);
    test_write_text(path, "\x1f\x8b\x08");
    EXPECT(climb_graph_read(path, 0, &g, NULL, err, sizeof err) == -1 && strstr(err, "gzip"));
    EXPECT(climb_graph_read(dir, 0, &g, NULL, err, sizeof err) == -1); /* a folder */
    snprintf(path, sizeof path, "%s/absent.txt", dir);
    EXPECT(climb_graph_read(path, 0, &g, NULL, err, sizeof err) == -1 && strstr(err, "absent.txt"));
}

/* Mutations of good files: every outcome is a graph that checks, or -1 with the file named; never a crash. */
static void test_fuzz(void)
{
    const char *seeds[] = {"# c\n0 1\n1 2\n2 0\n10 3\n", "p sp 4 3\na 1 2 7\na 2 3 1\na 4 1 2\n",
                           "c x\np sp 2 1\na 2 1 0\n"};
    climb_rng r;
    const uint64_t seed = climb_fresh_seed();
    climb_rng_seed(&r, seed);
    char buf[256], err[400], path[128];
    snprintf(path, sizeof path, "%s/g.txt", dir);
    int ok = 0, refused = 0, wrong = 0;
    for (int it = 0; it < 3000; it++) {
        const char *s = seeds[it % 3];
        size_t n = strlen(s);
        memcpy(buf, s, n + 1);
        for (int k = (int)climb_rng_range(&r, 1, 4); k > 0 && n > 0; k--) {
            const size_t at = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1);
            switch (climb_rng_range(&r, 0, 3)) {
            case 0: buf[at] = (char)climb_rng_range(&r, 1, 255); break;                    /* any byte */
            case 1: buf[at] = "0123456789 \t\n#-apcx"[climb_rng_range(&r, 0, 18)]; break; /* a likely one */
            case 2: n = at; buf[n] = '\0'; break;                                          /* truncated */
            default:
                if (n + 1 < sizeof buf) { /* a byte inserted */
                    memmove(buf + at + 1, buf + at, n - at + 1);
                    buf[at] = "9 \n"[climb_rng_range(&r, 0, 2)];
                    n++;
                }
            }
        }
        FILE *f = fopen(path, "wb");
        if (!f)
            continue;
        fwrite(buf, 1, n, f);
        fclose(f);
        climb_csr g;
        err[0] = '\0';
        if (climb_graph_read(path, (int)(it & 1), &g, NULL, err, sizeof err) == 0) {
            ok++;
            wrong += climb_csr_check(&g) != NULL;
            climb_csr_free(&g);
        } else {
            refused++;
            wrong += strncmp(err, path, strlen(path)) != 0;
        }
    }
    printf("fuzz (seed %llu): %d read, %d refused, %d wrong\n", (unsigned long long)seed, ok, refused, wrong);
    EXPECT(wrong == 0 && ok > 0 && refused > 0);
}

/* The road network of Rome (DIMACS), where ../shared/data is there. */
static void test_real(void)
{
    const char *path = CLIMB_SOURCE_DIR "/../shared/data/graphs/rome99.gr";
    if (access(path, R_OK) != 0) {
        printf("note: %s is not here: the real road network is not read\n", path);
        return;
    }
    climb_csr g;
    climb_graph_info info;
    char err[400];
    EXPECT_MSG(climb_graph_read(path, 0, &g, &info, err, sizeof err) == 0, "%s", err);
    EXPECT(info.format == CLIMB_GRAPH_DIMACS && info.edges == 8870 && g.rows == 3353 && climb_csr_check(&g) == NULL);
    EXPECT(g.nnz + info.dropped == 8870);
    printf("rome99.gr: %d nodes, %d arcs stored, %lld dropped (repeats, loops)\n", g.rows, g.nnz,
           (long long)info.dropped);
    climb_csr_free(&g);
    EXPECT(climb_graph_read(path, 1, &g, &info, err, sizeof err) == 0 && symmetric(&g));
    climb_csr_free(&g);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/climb_graph_XXXXXX");
    EXPECT(mkdtemp(dir) != NULL);
    test_generators();
    test_from_edges();
    test_reader();
    test_fuzz();
    test_real();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    EXPECT(system(cmd) == 0);
    return test_finish("test_cpu_graph");
}
