/* GPU: every BFS rung over the edge sizes for every generated graph kind (R-MAT, 2-D grid, random directed) from
 * fresh seeds, each vertex's level checked from poisoned levels; every rung on the real graphs of the data folder
 * (skipped where it is absent); every rung on a broom (paths around a hub of 5,000 leaves: the small-level rungs'
 * entries, overflow and exits); the bound rung's own check; proof that levels nobody wrote fail; the C API (directed
 * and symmetric, isolated sources, bad arguments refused, no error left behind); the plan for directed graphs (the
 * in-edges built on the device: searches against the CPU, captured and replayed, a validated plan refusing an
 * invalid graph, an empty graph's plan, a plan made short of memory: by atomics); both device transposes against
 * the CPU's. */
#include <stdint.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "io/graph.h"
#include "workloads/bfs/bfs.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* A generated graph, drawn once: its row pointers in h_a (and d_a), its columns in h_b; each fill shuffles the
 * order within rows (the same levels) and copies the columns in; the levels out. */
typedef struct bfs_job {
    api_job base;
    int symmetric; /* climb_bfs_symmetric, else climb_bfs */
    int graph;     /* CLIMB_GEN_* */
    int32_t n, source;
    climb_csr g;   /* from sizes until once */
} bfs_job;

static int bfs_sizes(api_job *b)
{
    bfs_job *j = (bfs_job *)b;
    climb_sparse_gen sg = {j->graph, (int64_t)j->n, (int64_t)j->n, 0, 8, 0, 20261124, 0};
    char err[200];
    if (climb_sparse_generate(&sg, &j->g, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", b->label, err);
        return -1;
    }
    b->a_bytes = ((size_t)j->n + 1) * 4;
    b->b_bytes = (size_t)j->g.nnz * 4;
    b->out_bytes = (size_t)j->n * 4;
    j->source = climb_bfs_default_source(j->n, j->g.row_ptr, j->g.col_idx, 7);
    return 0;
}

static int bfs_once(api_job *b)
{
    bfs_job *j = (bfs_job *)b;
    memcpy(b->h_a, j->g.row_ptr, b->a_bytes);
    memcpy(b->h_b, j->g.col_idx, b->b_bytes);
    climb_csr_free(&j->g);
    return cudaMemcpy(b->d_a, b->h_a, b->a_bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
}

static void bfs_release(api_job *b)
{
    climb_csr_free(&((bfs_job *)b)->g);
}

/* The rows' orders shuffled; the levels poisoned with a level no vertex has. */
static int bfs_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const bfs_job *j = (const bfs_job *)b;
    const int32_t *rp = b->h_a;
    int32_t *ci = b->h_b;
    for (int32_t v = 0; v < j->n; v++)
        for (int32_t e = rp[v + 1] - 1; e > rp[v]; e--) {
            const int32_t o = rp[v] + (int32_t)(climb_rng_next(r) % (uint64_t)(e - rp[v] + 1)), t = ci[e];
            ci[e] = ci[o];
            ci[o] = t;
        }
    return api_job_send(b, s, API_SEND_B | API_POISON_OUT, 0x7f);
}

static climb_status bfs_call(api_job *b, climb_handle h)
{
    const bfs_job *j = (const bfs_job *)b;
    return j->symmetric ? climb_bfs_symmetric(h, j->n, b->d_a, b->d_b, j->source, b->d_out)
                        : climb_bfs(h, j->n, b->d_a, b->d_b, j->source, b->d_out);
}

static void bfs_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const bfs_job *j = (const bfs_job *)b;
    int32_t *want = malloc((size_t)j->n * 4 + 4);
    if (!want) {
        api_mismatch_note(m, 0, 0, 1);
        return;
    }
    climb_bfs_ref(j->n, b->h_a, b->h_b, j->source, want, NULL, NULL);
    for (int32_t v = 0; v < j->n; v++)
        if (((const int32_t *)got)[v] != want[v])
            api_mismatch_note(m, (size_t)v, ((const int32_t *)got)[v], want[v]);
    free(want);
}

static const api_job_ops bfs_ops = {.sizes = bfs_sizes,
                                    .once = bfs_once,
                                    .fill = bfs_fill,
                                    .call = bfs_call,
                                    .check = bfs_check,
                                    .release = bfs_release};

static api_job *bfs_job_of(int symmetric, int graph, int32_t n)
{
    bfs_job *j = api_job_new(sizeof *j, &bfs_ops);
    if (!j)
        return NULL;
    j->symmetric = symmetric;
    j->graph = graph;
    j->n = n;
    snprintf(j->base.label, sizeof j->base.label, "climb_bfs%s %s n=%d", symmetric ? "_symmetric" : "",
             climb_sparse_gen_name(graph), (int)n);
    return &j->base;
}

static int bfs_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 4)
        return -1;
    if (set == API_THREAD) {
        out[0] = bfs_job_of(id % 2, id % 2 ? CLIMB_GEN_RMAT : CLIMB_GEN_RANDOM, 5003 + id);
        return 1;
    }
    out[0] = bfs_job_of(1, CLIMB_GEN_RMAT, 100000);
    out[1] = bfs_job_of(0, CLIMB_GEN_RANDOM, 30011);
    out[2] = bfs_job_of(1, CLIMB_GEN_GRID2D, 4097);
    out[3] = bfs_job_of(0, CLIMB_GEN_GRID2D, 1);
    return 4;
}

const api_workload api_workload_bfs = {.name = "bfs", .jobs = bfs_jobs};

#ifndef CLIMB_SOURCE_DIR
#define CLIMB_SOURCE_DIR "."
#endif

static const climb_workload *w = &climb_bfs_workload;
static climb_device_info dev;

static void check_plan(climb_opt_plan *p, uint64_t seed, const char *what, const climb_shape *shapes, int n_shapes)
{
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = p;
    o.shapes = shapes;
    o.n_shapes = n_shapes;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 0, "%s: %ld runs, %d failures, %ld refused", what,
               cr.runs, cr.failures, cr.refused);
    printf("%s: %ld runs, seed %" PRIu64 "\n", what, cr.runs, seed);
    climb_check_result_free(&cr);
}

static void test_generated(uint64_t seed)
{
    climb_opt_plan p;
    test_plan(&p, w, "graph", "all", "edge_factor", "1,16", NULL);
    check_plan(&p, seed, "generated graphs, every check size", NULL, 0);
    climb_opt_plan_free(&p, NULL);
    /* a source given: vertex 0, which a random directed graph may leave nearly alone */
    test_plan(&p, w, "graph", "random,grid2d", "source", "0", NULL);
    const climb_shape s[] = {CLIMB_SHAPE1(1000), CLIMB_SHAPE1(100003)};
    check_plan(&p, seed + 1, "source 0", s, 2);
    climb_opt_plan_free(&p, NULL);
}

/* Every rung on each real graph present in the data folder. */
static void test_real(uint64_t seed)
{
    const char *files[] = {"matrices/wiki-Vote.mtx", "matrices/email-Enron.mtx", "matrices/delaunay_n16.mtx",
                           "matrices/bcsstk13.mtx",  "matrices/west0067.mtx",    "graphs/rome99.gr"};
    const char *dir = getenv("CLIMB_DATA");
    char path[600];
    int tried = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir && dir[0] ? dir : CLIMB_SOURCE_DIR "/../shared/data", files[i]);
        if (access(path, R_OK) != 0)
            continue;
        climb_opt_plan p;
        test_plan(&p, w, "input", path, "graph", "rmat", NULL);
        const climb_shape one[1] = {CLIMB_SHAPE1(1)}; /* the file gives the shape: one case */
        check_plan(&p, seed, files[i], one, 1);
        climb_opt_plan_free(&p, NULL);
        tried++;
    }
    printf("real graphs: %d checked%s\n", tried, tried ? "" : " (no data folder: skipped)");
}

/* Every rung on a graph built to walk the small-level rungs' edges from source 0: a path of 100 levels (the small
 * levels, one block's or the cluster's), a hub that discovers 5,000 leaves in one small level (past the cluster's
 * 2,048 entries a block and the block's 4,096: the overflow to the global queue), the leaves' level on the grid, the
 * 5,000 leaves' edges into one vertex, and a second path of 100 levels (the small levels again, after the grid).
 * Written as a symmetric Matrix Market file (undirected: the bottom-up steps may take the big levels). */
static void test_small_level_edges(uint64_t seed)
{
    char path[] = "/tmp/climb_bfs_broomXXXXXX";
    const int fd = mkstemp(path);
    EXPECT(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    EXPECT(f != NULL);
    if (!f)
        return;
    const int path_len = 100, leaves = 5000, n = 2 * path_len + leaves; /* 1-based: path 1..100, leaves, path */
    const int hub = path_len, sink = path_len + leaves + 1;
    fprintf(f, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d %d\n", n, n,
            2 * (path_len - 1) + 2 * leaves);
    for (int v = 1; v < path_len; v++)
        fprintf(f, "%d %d\n", v + 1, v);
    for (int l = 1; l <= leaves; l++)
        fprintf(f, "%d %d\n%d %d\n", hub + l, hub, sink, hub + l);
    for (int v = sink; v < n; v++)
        fprintf(f, "%d %d\n", v + 1, v);
    EXPECT(fclose(f) == 0);
    climb_opt_plan p;
    test_plan(&p, w, "input", path, "graph", "rmat", "source", "0", NULL);
    const climb_shape one[1] = {CLIMB_SHAPE1(1)};
    check_plan(&p, seed, "a broom: paths around a hub of 5,000 leaves", one, 1);
    climb_opt_plan_free(&p, NULL);
    unlink(path);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "graph", "rmat", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    climb_case_key k = {CLIMB_I32, CLIMB_SHAPE1(5000), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    const int best = climb_best_rung(w);
    char msg[400];
    EXPECT(climb_case_poison(w, oc.c) == 0);
    EXPECT(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 1 && strstr(msg, "level of vertex"));
    EXPECT(climb_case_poison(w, oc.c) == 0);
    EXPECT(climb_case_verify(w, oc.c, climb_bound_rung(w), msg, sizeof msg) == 1 && strstr(msg, "degree of vertex"));
    EXPECT(climb_case_prepare(w, oc.c, best) == 0 && climb_case_run(w, oc.c, best, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT_MSG(climb_case_verify(w, oc.c, best, msg, sizeof msg) == 0, "%s", msg);
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

/* Levels from d_lv against the CPU's along the out-edges of (rp, ci): the number of vertices wrong. */
static int levels_wrong(int32_t n, const int32_t *rp, const int32_t *ci, int32_t src, const int32_t *d_lv)
{
    int32_t *want = malloc((size_t)n * 4), *got = malloc((size_t)n * 4);
    int bad = n;
    if (want && got && cudaMemcpy(got, d_lv, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess) {
        climb_bfs_ref(n, rp, ci, src, want, NULL, NULL);
        bad = 0;
        for (int32_t v = 0; v < n; v++)
            bad += got[v] != want[v];
    }
    free(want);
    free(got);
    return bad;
}

/* One plan over a graph on the device: made (validated or not; symmetric where it is), its bytes, searches from
 * three sources against the CPU (the levels poisoned first), one search captured in a graph on a fresh handle's
 * stream and replayed, bad arguments refused. */
static void check_bfs_plan(climb_handle h, int32_t n, const int32_t *rp, const int32_t *ci, int32_t m, int sym,
                       unsigned flags, uint64_t seed, const char *what)
{
    int32_t *d_rp, *d_ci, *d_lv;
    EXPECT(cudaMalloc((void **)&d_rp, ((size_t)n + 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_ci, (size_t)m * 4 + 4) == cudaSuccess &&
           cudaMalloc((void **)&d_lv, (size_t)n * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(d_rp, rp, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(d_ci, ci, (size_t)m * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const unsigned f = flags | (sym ? CLIMB_BFS_SYMMETRIC : 0u);
    climb_bfs_plan plan = NULL;
    const climb_status st = climb_bfs_plan_create(h, n, m, d_rp, d_ci, f, &plan);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS && plan, "plan %s: %s", what, climb_status_string(st));
    size_t bytes = 1;
    EXPECT(climb_bfs_plan_bytes(plan, &bytes) == CLIMB_STATUS_SUCCESS &&
           bytes == (sym ? 0 : ((size_t)n + 1 + (size_t)m) * 4));
    const int32_t sources[] = {0, n - 1, climb_bfs_default_source(n, rp, ci, seed)};
    for (int si = 0; si < 3 && plan; si++) {
        EXPECT(cudaMemset(d_lv, 0x7f, (size_t)n * 4) == cudaSuccess);
        EXPECT(climb_bfs_plan_run(h, plan, sources[si], d_lv) == CLIMB_STATUS_SUCCESS);
        const int bad = levels_wrong(n, rp, ci, sources[si], d_lv);
        EXPECT_MSG(bad == 0, "plan %s n=%d source %d: %d wrong", what, n, sources[si], bad);
    }
    /* captured on a fresh handle's stream (its first call), replayed twice */
    climb_handle h2;
    cudaStream_t s;
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_create(&h2, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h2, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemset(d_lv, 0x7f, (size_t)n * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(climb_bfs_plan_run(h2, plan, sources[2], d_lv) == CLIMB_STATUS_SUCCESS);
    climb_bfs_plan unmade = NULL; /* a plan is not made inside a capture */
    EXPECT(climb_bfs_plan_create(h2, n, m, d_rp, d_ci, f, &unmade) == CLIMB_STATUS_CAPTURE_UNSUPPORTED && !unmade);
    EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
    EXPECT(g && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
    for (int r = 0; r < 2 && ge; r++)
        EXPECT(cudaGraphLaunch(ge, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT_MSG(levels_wrong(n, rp, ci, sources[2], d_lv) == 0, "plan %s: the captured search", what);
    if (ge)
        cudaGraphExecDestroy(ge);
    if (g)
        cudaGraphDestroy(g);
    EXPECT(climb_destroy(h2) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
    /* refused: a source out of range, levels over the row pointers, no plan */
    EXPECT(climb_bfs_plan_run(h, plan, n, d_lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_bfs_plan_run(h, plan, -1, d_lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_bfs_plan_run(h, plan, 0, d_rp) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_bfs_plan_run(h, NULL, 0, d_lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_bfs_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_rp);
    cudaFree(d_ci);
    cudaFree(d_lv);
}

static void test_api(uint64_t seed)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const int kinds[] = {CLIMB_GEN_RMAT, CLIMB_GEN_GRID2D, CLIMB_GEN_RANDOM, CLIMB_GEN_RMAT};
    for (int k = 0; k < 4; k++) /* the last: R-MAT directed */
        for (int sz = 0; sz < 2; sz++) {
            const int32_t n = sz ? 200003 : 1000;
            climb_sparse_gen sg = {kinds[k], n, n, 0, 8, 0, seed + (uint64_t)k, k == 3};
            climb_csr g;
            char err[300];
            EXPECT_MSG(climb_sparse_generate(&sg, &g, NULL, err, sizeof err) == 0, "%s", err);
            int32_t *d_rp, *d_ci, *d_lv, *want = malloc((size_t)n * 4), *got = malloc((size_t)n * 4);
            EXPECT(cudaMalloc((void **)&d_rp, ((size_t)n + 1) * 4) == cudaSuccess &&
                   cudaMalloc((void **)&d_ci, (size_t)g.nnz * 4 + 4) == cudaSuccess &&
                   cudaMalloc((void **)&d_lv, (size_t)n * 4) == cudaSuccess);
            EXPECT(cudaMemcpy(d_rp, g.row_ptr, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
                   cudaMemcpy(d_ci, g.col_idx, (size_t)g.nnz * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            const int sym = climb_bfs_is_symmetric(n, g.row_ptr, g.col_idx);
            const int32_t sources[] = {0, n - 1, climb_bfs_default_source(n, g.row_ptr, g.col_idx, seed)};
            for (int si = 0; si < 3; si++)
                for (int mode = 0; mode < 1 + sym; mode++) {
                    EXPECT(cudaMemset(d_lv, 0x7f, (size_t)n * 4) == cudaSuccess);
                    const climb_status st = mode ? climb_bfs_symmetric(h, n, d_rp, d_ci, sources[si], d_lv)
                                                 : climb_bfs(h, n, d_rp, d_ci, sources[si], d_lv);
                    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s", climb_status_string(st));
                    EXPECT(cudaMemcpy(got, d_lv, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
                    climb_bfs_ref(n, g.row_ptr, g.col_idx, sources[si], want, NULL, NULL);
                    int bad = 0;
                    for (int32_t v = 0; v < n; v++)
                        bad += got[v] != want[v];
                    EXPECT_MSG(bad == 0, "api kind %d n=%d source %d %s: %d wrong", k, n, sources[si],
                               mode ? "symmetric" : "directed", bad);
                }
            /* the plan on the same graph (validated on the larger), and said symmetric where it is */
            char what[64];
            snprintf(what, sizeof what, "kind %d%s", k, sym ? " symmetric" : " directed");
            check_bfs_plan(h, n, g.row_ptr, g.col_idx, (int32_t)g.nnz, 0, sz ? CLIMB_BFS_VALIDATE : 0u, seed, what);
            if (sym) /* no transpose kept */
                check_bfs_plan(h, n, g.row_ptr, g.col_idx, (int32_t)g.nnz, 1, 0u, seed, what);
            /* bad arguments */
            EXPECT(climb_bfs(h, n, d_rp, d_ci, n, d_lv) == CLIMB_STATUS_INVALID_VALUE);
            EXPECT(climb_bfs(h, n, d_rp, d_ci, -1, d_lv) == CLIMB_STATUS_INVALID_VALUE);
            EXPECT(climb_bfs(h, -5, d_rp, d_ci, 0, d_lv) == CLIMB_STATUS_INVALID_VALUE);
            EXPECT(climb_bfs(h, n, g.row_ptr, d_ci, 0, d_lv) == CLIMB_STATUS_INVALID_VALUE); /* host memory */
            EXPECT(climb_bfs(NULL, n, d_rp, d_ci, 0, d_lv) == CLIMB_STATUS_INVALID_VALUE);
            EXPECT(climb_bfs(h, 0, NULL, NULL, 0, NULL) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaGetLastError() == cudaSuccess);
            cudaFree(d_rp);
            cudaFree(d_ci);
            cudaFree(d_lv);
            free(want);
            free(got);
            climb_csr_free(&g);
        }
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

/* A CSR by hand: rows unsorted, repeated edges, self-loops, two components; both API functions against the CPU. */
static void test_api_messy(void)
{
    /* 0: 2 1 1 0 | 1: 0 1 3 | 2: 0 | 3: 1 3 | 4: 5 | 5: 4 4 */
    const int32_t rp[] = {0, 4, 7, 8, 10, 11, 13};
    const int32_t ci[] = {2, 1, 1, 0, 0, 1, 3, 0, 1, 3, 5, 4, 4};
    const int32_t n = 6;
    int32_t *d_rp, *d_ci, *d_lv, got[6], want[6];
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMalloc((void **)&d_rp, sizeof rp) == cudaSuccess && cudaMalloc((void **)&d_ci, sizeof ci) == cudaSuccess &&
           cudaMalloc((void **)&d_lv, sizeof got) == cudaSuccess);
    EXPECT(cudaMemcpy(d_rp, rp, sizeof rp, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(d_ci, ci, sizeof ci, cudaMemcpyHostToDevice) == cudaSuccess);
    for (int32_t src = 0; src < n; src++)
        for (int sym = 0; sym < 2; sym++) {
            EXPECT(cudaMemset(d_lv, 0x7f, sizeof got) == cudaSuccess);
            const climb_status st = sym ? climb_bfs_symmetric(h, n, d_rp, d_ci, src, d_lv) : climb_bfs(h, n, d_rp, d_ci, src, d_lv);
            EXPECT(st == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaMemcpy(got, d_lv, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
            climb_bfs_ref(n, rp, ci, src, want, NULL, NULL);
            EXPECT_MSG(memcmp(got, want, sizeof got) == 0, "messy CSR, source %d, %s", src, sym ? "symmetric" : "directed");
        }
    cudaFree(d_rp);
    cudaFree(d_ci);
    cudaFree(d_lv);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Both device transposes (climb_bfs_transpose: atomics; climb_bfs_transpose_sorted: a stable sort by destination)
 * of one n-vertex CSR against the CPU's: the in-row pointers exactly, each in-row's sources as a multiset (the
 * sorted one's in ascending order, as it states), from poisoned outputs. */
static void check_transposes(int32_t n, const int32_t *rp, const int32_t *ci, const char *what)
{
    const int32_t m = rp[n];
    int32_t *want_rp = calloc((size_t)n + 1, 4), *want_ci = malloc((size_t)(m > 0 ? m : 1) * 4);
    int32_t *got_rp = malloc(((size_t)n + 1) * 4), *got_ci = malloc((size_t)(m > 0 ? m : 1) * 4);
    int32_t *fill = calloc((size_t)n + 1, 4);
    if (!want_rp || !want_ci || !got_rp || !got_ci || !fill) {
        EXPECT(0);
        free(want_rp), free(want_ci), free(got_rp), free(got_ci), free(fill);
        return;
    }
    for (int32_t e = 0; e < m; e++)
        want_rp[ci[e] + 1]++;
    for (int32_t v = 0; v < n; v++)
        want_rp[v + 1] += want_rp[v];
    for (int32_t u = 0; u < n; u++) /* sources in ascending order within each in-row */
        for (int32_t e = rp[u]; e < rp[u + 1]; e++)
            want_ci[want_rp[ci[e]] + fill[ci[e]]++] = u;
    int32_t *d_rp, *d_ci, *d_in_rp, *d_in_ci;
    void *ws;
    const size_t ws_bytes = climb_bfs_transpose_workspace(n), ws2 = climb_bfs_transpose_sorted_workspace(m);
    EXPECT(cudaMalloc((void **)&d_rp, ((size_t)n + 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_ci, (size_t)(m > 0 ? m : 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_in_rp, ((size_t)n + 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_in_ci, (size_t)(m > 0 ? m : 1) * 4) == cudaSuccess &&
           cudaMalloc(&ws, ws_bytes > ws2 ? ws_bytes : ws2) == cudaSuccess);
    EXPECT(cudaMemcpy(d_rp, rp, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(d_ci, ci, (size_t)m * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    for (int way = 0; way < 2; way++) {
        EXPECT(cudaMemset(d_in_rp, 0xA5, ((size_t)n + 1) * 4) == cudaSuccess &&
               cudaMemset(d_in_ci, 0xA5, (size_t)(m > 0 ? m : 1) * 4) == cudaSuccess);
        const cudaError_t e = way ? climb_bfs_transpose_sorted(n, m, d_rp, d_ci, d_in_rp, d_in_ci, ws, ws2, dev.sms, 0)
                                  : climb_bfs_transpose(n, m, d_rp, d_ci, d_in_rp, d_in_ci, ws, ws_bytes, dev.sms, 0);
        EXPECT_MSG(e == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess, "%s: the %s transpose failed", what,
                   way ? "sorted" : "atomic");
        EXPECT(cudaMemcpy(got_rp, d_in_rp, ((size_t)n + 1) * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
               cudaMemcpy(got_ci, d_in_ci, (size_t)m * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(memcmp(got_rp, want_rp, ((size_t)n + 1) * 4) == 0, "%s: the %s transpose's in-row pointers", what,
                   way ? "sorted" : "atomic");
        if (!way) /* the atomic one's in-rows in no particular order */
            for (int32_t v = 0; v < n && got_rp[v] <= got_rp[v + 1] && got_rp[v + 1] <= m; v++)
                qsort(got_ci + got_rp[v], (size_t)(got_rp[v + 1] - got_rp[v]), 4, cmp_i32);
        EXPECT_MSG(memcmp(got_ci, want_ci, (size_t)m * 4) == 0, "%s: the %s transpose's in-rows", what,
                   way ? "sorted" : "atomic");
    }
    cudaFree(d_rp);
    cudaFree(d_ci);
    cudaFree(d_in_rp);
    cudaFree(d_in_ci);
    cudaFree(ws);
    free(want_rp), free(want_ci), free(got_rp), free(got_ci), free(fill);
}

/* The transposes on the messy CSR (unsorted rows, repeats, self-loops, a vertex with no edges), a graph of no edges,
 * and generated ones: R-MAT as drawn (hubs: many edges to a few vertices), random directed, a 2-D grid. */
static void test_transposes(uint64_t seed)
{
    const int32_t rp[] = {0, 4, 7, 8, 10, 11, 13, 13};
    const int32_t ci[] = {2, 1, 1, 0, 0, 1, 3, 0, 1, 3, 5, 4, 4};
    check_transposes(7, rp, ci, "messy");
    const int32_t rp0[] = {0, 0, 0, 0};
    check_transposes(3, rp0, ci, "no edges");
    const struct {
        int kind, directed;
        int64_t n;
    } gens[] = {{CLIMB_GEN_RMAT, 1, 1 << 14}, {CLIMB_GEN_RANDOM, 0, 30011}, {CLIMB_GEN_GRID2D, 0, 4096}};
    for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++) {
        climb_sparse_gen sg = {gens[i].kind, gens[i].n, gens[i].n, 0, 16, 0, seed + i, gens[i].directed};
        climb_csr g;
        char err[200];
        if (climb_sparse_generate(&sg, &g, NULL, err, sizeof err) != 0) {
            EXPECT_MSG(0, "%s", err);
            continue;
        }
        check_transposes((int32_t)g.rows, g.row_ptr, g.col_idx, climb_sparse_gen_name(gens[i].kind));
        climb_csr_free(&g);
    }
}

/* The plan (climb_bfs_plan_*) beyond test_api's generated graphs: a messy CSR (rows unsorted, repeated edges,
 * self-loops, two components, a vertex with no edges); an invalid graph refused by a validated plan; an empty
 * graph's plan. */
static void test_api_plan(uint64_t seed)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    /* 0: 2 1 1 0 | 1: 0 1 3 | 2: 0 | 3: 1 3 | 4: 5 | 5: 4 4 | 6: (none) */
    const int32_t rp[] = {0, 4, 7, 8, 10, 11, 13, 13};
    const int32_t ci[] = {2, 1, 1, 0, 0, 1, 3, 0, 1, 3, 5, 4, 4};
    check_bfs_plan(h, 7, rp, ci, 13, 0, CLIMB_BFS_VALIDATE, seed, "messy");
    /* an invalid graph (a column past the vertices): refused by a validated plan, nothing made */
    const int32_t bad_ci[] = {2, 1, 1, 0, 0, 1, 3, 0, 1, 3, 5, 4, 7};
    int32_t *d_rp, *d_ci;
    EXPECT(cudaMalloc((void **)&d_rp, sizeof rp) == cudaSuccess && cudaMalloc((void **)&d_ci, sizeof bad_ci) == cudaSuccess);
    EXPECT(cudaMemcpy(d_rp, rp, sizeof rp, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(d_ci, bad_ci, sizeof bad_ci, cudaMemcpyHostToDevice) == cudaSuccess);
    climb_bfs_plan plan = (climb_bfs_plan)&plan;
    EXPECT(climb_bfs_plan_create(h, 7, 13, d_rp, d_ci, CLIMB_BFS_VALIDATE, &plan) == CLIMB_STATUS_INVALID_MATRIX &&
           plan == NULL);
    /* an empty graph: a plan whose runs do nothing */
    EXPECT(climb_bfs_plan_create(h, 0, 0, NULL, NULL, 0, &plan) == CLIMB_STATUS_SUCCESS && plan);
    EXPECT(climb_bfs_plan_run(h, plan, 0, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_bfs_plan_destroy(plan) == CLIMB_STATUS_SUCCESS && climb_bfs_plan_destroy(NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaGetLastError() == cudaSuccess);
    cudaFree(d_rp);
    cudaFree(d_ci);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

/* A plan made where the device has too little free memory for the sort (about 16 bytes an edge): the in-rows are
 * built by atomics in the handle's workspace instead, and searches through it are right. The memory is taken up to
 * a margin under the sort's need first; the test says so and does nothing more where that cannot be arranged. */
static void test_api_plan_short_memory(uint64_t seed)
{
    const int32_t n = 1 << 16, deg = 64, m = n * deg;
    int32_t *rp = malloc(((size_t)n + 1) * 4), *ci = malloc((size_t)m * 4);
    climb_rng r;
    climb_rng_seed(&r, seed);
    EXPECT(rp && ci);
    if (!rp || !ci)
        return;
    for (int32_t u = 0; u <= n; u++)
        rp[u] = u * deg;
    for (int32_t e = 0; e < m; e++)
        ci[e] = climb_rng_int(&r, 0, n - 1);
    climb_handle h;
    int32_t *d_rp = NULL, *d_ci = NULL, *d_lv = NULL;
    void *hog = NULL;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMalloc((void **)&d_rp, ((size_t)n + 1) * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_ci, (size_t)m * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_lv, (size_t)n * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(d_rp, rp, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(d_ci, ci, (size_t)m * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    /* left free: the plan's in-edges and 24 MiB (the atomics' workspace and the search's fit there), under the
     * sort's 64 MiB and more */
    const size_t sort_bytes = climb_bfs_transpose_sorted_workspace(m), keep = ((size_t)n + 1 + (size_t)m) * 4;
    const size_t margin = keep + ((size_t)24 << 20);
    size_t free_b = 0, total_b = 0;
    EXPECT(cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && sort_bytes > ((size_t)40 << 20));
    for (size_t take = free_b > margin ? free_b - margin : 0; take > 0 && !hog; take -= (size_t)64 << 20) {
        if (cudaMalloc(&hog, take) != cudaSuccess) {
            (void)cudaGetLastError();
            hog = NULL;
        }
        if (take <= (size_t)64 << 20)
            break;
    }
    size_t left = 0;
    if (hog && cudaMemGetInfo(&left, &total_b) == cudaSuccess && left >= keep && left < keep + sort_bytes) {
        climb_bfs_plan plan = NULL;
        const climb_status st = climb_bfs_plan_create(h, n, m, d_rp, d_ci, 0, &plan);
        EXPECT_MSG(st == CLIMB_STATUS_SUCCESS && plan, "a plan in %zu free bytes: %s", left, climb_status_string(st));
        EXPECT(cudaGetLastError() == cudaSuccess);
        for (int k = 0; k < 2 && plan; k++) {
            const int32_t src = k == 0 ? 0 : climb_rng_int(&r, 0, n - 1);
            EXPECT(cudaMemset(d_lv, 0x7f, (size_t)n * 4) == cudaSuccess);
            EXPECT(climb_bfs_plan_run(h, plan, src, d_lv) == CLIMB_STATUS_SUCCESS);
            const int bad = levels_wrong(n, rp, ci, src, d_lv);
            EXPECT_MSG(bad == 0, "a plan made short of memory, source %d: %d wrong", src, bad);
        }
        EXPECT(climb_bfs_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
        printf("a plan made with %zu bytes free (the sort needs %zu): its searches right\n", left, sort_bytes);
    } else {
        printf("the short-memory plan not tried: could not leave between %zu and %zu bytes free (%zu left)\n", keep,
               keep + sort_bytes, left);
    }
    if (hog)
        cudaFree(hog);
    cudaFree(d_rp);
    cudaFree(d_ci);
    cudaFree(d_lv);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    free(rp);
    free(ci);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    const uint64_t fresh = climb_fresh_seed();
    test_poisoned();
    test_api(fresh);
    test_api_messy();
    test_api_plan(fresh);
    test_api_plan_short_memory(fresh);
    test_transposes(fresh);
    test_generated(fresh);
    test_real(fresh);
    test_small_level_edges(fresh);
    EXPECT(api_test_workload(&api_workload_bfs) == 0);
    return test_finish("test_gpu_bfs");
}
