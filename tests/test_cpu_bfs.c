/* CPU: the BFS reference on hand-made graphs (a path, a star, disconnected parts, self-loops and repeated edges, a
 * directed cycle, an empty graph, one vertex), the default source (a vertex of the largest component), the symmetry
 * check, the file reader of the workload (Matrix Market, SNAP edge lists undirected and directed, DIMACS; a
 * rectangular matrix and a bad line refused with file:line), and the size and source rules the dry run applies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/graph.h"
#include "workloads/bfs/bfs.h"
#include "testing.h"

static void csr_of(int32_t n, int64_t ne, const int32_t *src, const int32_t *dst, int sym, climb_csr *g)
{
    char err[200];
    EXPECT_MSG(climb_csr_from_edges(n, n, ne, src, dst, NULL, sym, 1, g, NULL, err, sizeof err) == 0, "%s", err);
}

static void test_reference(void)
{
    /* 0 - 1 - 2 - 3, 4 - 5 apart, 6 alone, a self-loop on 2 and 1 - 2 twice */
    const int32_t s[] = {0, 1, 2, 4, 2, 1}, d[] = {1, 2, 3, 5, 2, 2};
    climb_csr g;
    csr_of(7, 6, s, d, 1, &g);
    int32_t level[7], frontier[8], depth;
    EXPECT(climb_bfs_ref(7, g.row_ptr, g.col_idx, 0, level, frontier, &depth) == 4);
    const int32_t want[] = {0, 1, 2, 3, -1, -1, -1};
    EXPECT(memcmp(level, want, sizeof want) == 0 && depth == 4);
    EXPECT(frontier[0] == 0 && frontier[1] == 1 && frontier[3] == 3);
    EXPECT(climb_bfs_ref(7, g.row_ptr, g.col_idx, 5, level, NULL, &depth) == 2 && level[4] == 1 && depth == 2);
    EXPECT(climb_bfs_ref(7, g.row_ptr, g.col_idx, 6, level, NULL, &depth) == 1 && depth == 1 && level[0] == -1);
    EXPECT(climb_bfs_ref(7, g.row_ptr, g.col_idx, 7, level, NULL, &depth) == 0 && depth == 0); /* no such vertex */
    EXPECT(climb_bfs_is_symmetric(7, g.row_ptr, g.col_idx) == 1);
    /* the largest component is {0, 1, 2, 3}: the seed picks one of them */
    for (uint64_t seed = 0; seed < 8; seed++) {
        const int32_t src = climb_bfs_default_source(7, g.row_ptr, g.col_idx, seed);
        EXPECT(src >= 0 && src <= 3 && src == (int32_t)(seed % 4));
    }
    EXPECT(climb_bfs_default_source(0, g.row_ptr, g.col_idx, 1) == -1);
    climb_csr_free(&g);

    /* directed: 0 -> 1 -> 2 -> 0 and 3 -> 0; from 0, 3 is not reached */
    const int32_t ds[] = {0, 1, 2, 3}, dd[] = {1, 2, 0, 0};
    csr_of(4, 4, ds, dd, 0, &g);
    EXPECT(climb_bfs_ref(4, g.row_ptr, g.col_idx, 0, level, NULL, &depth) == 3 && level[3] == -1 && level[2] == 2);
    EXPECT(climb_bfs_ref(4, g.row_ptr, g.col_idx, 3, level, NULL, &depth) == 4 && level[2] == 3 && depth == 4);
    EXPECT(climb_bfs_is_symmetric(4, g.row_ptr, g.col_idx) == 0);
    climb_csr_free(&g);

    /* one vertex, no edge */
    const int32_t one_rp[] = {0, 0};
    EXPECT(climb_bfs_ref(1, one_rp, NULL, 0, level, NULL, &depth) == 1 && level[0] == 0 && depth == 1);
    EXPECT(climb_bfs_default_source(1, one_rp, NULL, 99) == 0);
}

/* The default source has out-edges: in a directed graph the component's vertices without any are passed over. And
 * R-MAT's undirected and directed graphs of one seed take one source (from the edges as drawn), which has
 * out-edges in both, so that a directed search and the symmetric one are a pair. */
static void test_sources(void)
{
    /* 0 -> 1 -> 2, 3 -> 1, 4 alone: the component {0, 1, 2, 3}; 2 has no out-edge, so 0, 1 and 3 are the picks */
    const int32_t s[] = {0, 1, 3}, d[] = {1, 2, 1};
    climb_csr g;
    csr_of(5, 3, s, d, 0, &g);
    const int32_t picks[] = {0, 1, 3};
    for (uint64_t seed = 0; seed < 9; seed++) {
        const int32_t src = climb_bfs_default_source(5, g.row_ptr, g.col_idx, seed);
        EXPECT_MSG(src == picks[seed % 3], "seed %llu: source %d", (unsigned long long)seed, src);
    }
    climb_csr_free(&g);

    /* a cycle 1 -> 2 -> ... -> 8 -> 1 with 1 -> 0 -> 9: from 0 only {0, 9} (under a quarter of the 10); the seeds
     * whose first pick is 0 (seed mod 9 candidates = 0) go on to a vertex of the cycle, which reaches all 10 */
    const int32_t cs[] = {1, 2, 3, 4, 5, 6, 7, 8, 1, 0}, cd[] = {2, 3, 4, 5, 6, 7, 8, 1, 0, 9};
    csr_of(10, 10, cs, cd, 0, &g);
    for (uint64_t seed = 0; seed < 40; seed += 9) {
        const int32_t src = climb_bfs_default_source(10, g.row_ptr, g.col_idx, seed);
        int32_t lv[10];
        EXPECT_MSG(src >= 1 && src <= 8 && climb_bfs_ref(10, g.row_ptr, g.col_idx, src, lv, NULL, NULL) == 10,
                   "seed %llu: source %d", (unsigned long long)seed, src);
    }
    EXPECT(climb_bfs_default_source(10, g.row_ptr, g.col_idx, 1) == 1); /* a first pick that reaches all stays */
    climb_csr_free(&g);

    char err[300];
    for (uint64_t seed = 1; seed < 4; seed++) {
        climb_sparse_gen sg = {CLIMB_GEN_RMAT, 1 << 12, 1 << 12, 0, 16, 0, seed * 7919, 0};
        climb_csr und, dir;
        memset(&und, 0, sizeof und);
        memset(&dir, 0, sizeof dir);
        EXPECT_MSG(climb_sparse_generate(&sg, &und, NULL, err, sizeof err) == 0, "%s", err);
        const int32_t su = climb_bfs_drawn_source(&sg, err, sizeof err);
        sg.directed = 1;
        EXPECT_MSG(climb_sparse_generate(&sg, &dir, NULL, err, sizeof err) == 0, "%s", err);
        const int32_t sd = climb_bfs_drawn_source(&sg, err, sizeof err);
        const int32_t own = climb_bfs_default_source(dir.rows, dir.row_ptr, dir.col_idx, sg.seed);
        EXPECT_MSG(su >= 0 && su == sd && sd == own, "seed %llu: sources %d, %d, %d", (unsigned long long)sg.seed,
                   su, sd, own);
        if (su >= 0 && su < dir.rows) {
            EXPECT(dir.row_ptr[su + 1] > dir.row_ptr[su] && und.row_ptr[su + 1] > und.row_ptr[su]);
            /* the directed search reaches part of what the symmetric one reaches, from the same vertex */
            int32_t *lu = (int32_t *)malloc((size_t)und.rows * sizeof *lu),
                    *ld = (int32_t *)malloc((size_t)dir.rows * sizeof *ld);
            EXPECT(lu && ld);
            if (lu && ld) {
                const int32_t ru = climb_bfs_ref(und.rows, und.row_ptr, und.col_idx, su, lu, NULL, NULL),
                              rd = climb_bfs_ref(dir.rows, dir.row_ptr, dir.col_idx, sd, ld, NULL, NULL);
                EXPECT_MSG(rd > 1 && rd <= ru, "reached %d directed, %d symmetric", rd, ru);
                /* and much of the component: R-MAT's giant strongly connected component holds a good share */
                EXPECT_MSG((int64_t)rd * 4 >= ru, "reached %d directed of the component's %d", rd, ru);
            }
            free(lu);
            free(ld);
        }
        climb_csr_free(&und);
        climb_csr_free(&dir);
    }
}

static const char *write_tmp(const char *name, const char *text)
{
    static char path[4][256];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, 256, "/tmp/climb-test-bfs-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "w");
    EXPECT(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return p;
}

static void test_files(void)
{
    const climb_workload *w = &climb_bfs_workload;
    void *data = NULL;
    climb_shape shape;
    char desc[300], err[400];
    /* an undirected SNAP list: stored both ways */
    const char *snap = write_tmp("u.txt", "# Undirected graph\n# Nodes: 4 Edges: 3\n0 1\n1 2\n2 3\n");
    EXPECT_MSG(w->load(snap, &data, &shape, desc, sizeof desc, err, sizeof err) == 0, "%s", err);
    EXPECT(shape.d[0] == 4 && strstr(desc, "6 edges stored") && strstr(desc, "undirected"));
    w->unload(data);
    /* a directed one: as stored */
    const char *dir = write_tmp("d.txt", "# Directed graph\n0 1\n1 2\n2 3\n");
    EXPECT_MSG(w->load(dir, &data, &shape, desc, sizeof desc, err, sizeof err) == 0, "%s", err);
    EXPECT(strstr(desc, "3 edges stored") && strstr(desc, "directed"));
    w->unload(data);
    /* DIMACS */
    const char *gr = write_tmp("r.gr", "c road\np sp 3 2\na 1 2 5\na 2 3 7\n");
    EXPECT_MSG(w->load(gr, &data, &shape, desc, sizeof desc, err, sizeof err) == 0, "%s", err);
    EXPECT(shape.d[0] == 3 && strstr(desc, "DIMACS"));
    w->unload(data);
    /* Matrix Market, symmetric pattern: mirrored */
    const char *mtx = write_tmp("s.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
    EXPECT_MSG(w->load(mtx, &data, &shape, desc, sizeof desc, err, sizeof err) == 0, "%s", err);
    EXPECT(shape.d[0] == 3 && strstr(desc, "4 edges stored") && strstr(desc, "undirected"));
    w->unload(data);
    /* refused: a rectangular matrix, a bad edge line (file:line), a missing file */
    const char *rect = write_tmp("x.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 4\n");
    EXPECT(w->load(rect, &data, &shape, desc, sizeof desc, err, sizeof err) == -1 && strstr(err, "square"));
    const char *bad = write_tmp("b.txt", "0 1\n1 x\n");
    EXPECT(w->load(bad, &data, &shape, desc, sizeof desc, err, sizeof err) == -1 && strstr(err, ":2:"));
    EXPECT(w->load("/nonexistent/g.txt", &data, &shape, desc, sizeof desc, err, sizeof err) == -1 &&
           strstr(err, "cannot read"));
    unlink(snap);
    unlink(dir);
    unlink(gr);
    unlink(mtx);
    unlink(rect);
    unlink(bad);
}

static void test_table(void)
{
    const climb_workload *w = &climb_bfs_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    const climb_shape big = CLIMB_SHAPE1((size_t)1 << 31), ten = CLIMB_SHAPE1(10);
    EXPECT(w->case_refuses(&big, CLIMB_I32, NULL) != NULL && w->case_refuses(&ten, CLIMB_I32, NULL) == NULL);
    climb_opt_value opts[4];
    memset(opts, 0, sizeof opts);
    opts[2].i = 10; /* source 10 of 10 vertices */
    EXPECT(w->case_refuses(&ten, CLIMB_I32, opts) != NULL);
    opts[2].i = 9;
    EXPECT(w->case_refuses(&ten, CLIMB_I32, opts) == NULL);
}

int main(void)
{
    test_reference();
    test_sources();
    test_files();
    test_table();
    return test_finish("test_cpu_bfs");
}
