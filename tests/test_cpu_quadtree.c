/* CPU: the quadtree's cells and Morton codes (a point on a split line goes right, v = 1 to the last cell), the CPU
 * build on hand-worked sets (its nodes counted by hand), the depth limit (all points the same), empty and single-point
 * sets, generated uniform and clustered sets checked against themselves, and the check catching a tree that is wrong
 * (a point in another leaf, a point listed twice, a node's range moved, a leaf that should split). */
#include <stdlib.h>
#include <string.h>

#include "workloads/quadtree/reference.h"
#include "base/rng.h"
#include "workloads/quadtree/quadtree.h"
#include "testing.h"

static void test_codes(void)
{
    EXPECT(climb_qt_cell(0.0f) == 0 && climb_qt_cell(1.0f) == 65535 && climb_qt_cell(0.5f) == 32768);
    EXPECT(climb_qt_cell(0.49999997f) == 32767 && climb_qt_cell(-1.0f) == 0 && climb_qt_cell(2.0f) == 65535);
    const float one = 1.0f / 65536;
    EXPECT(climb_qt_code(one, 0) == 1 && climb_qt_code(0, one) == 2 && climb_qt_code(one, one) == 3);
    /* the first split: x in bit 30, y in bit 31 */
    EXPECT(climb_qt_code(0.5f, 0.0f) == 0x40000000u && climb_qt_code(0.0f, 0.5f) == 0x80000000u);
    climb_qt_params p = {17, 1};
    EXPECT(climb_qt_params_refuse(&p) != NULL);
    p.max_depth = 16;
    p.leaf_points = 0;
    EXPECT(climb_qt_params_refuse(&p) != NULL);
    p.leaf_points = 1;
    EXPECT(climb_qt_params_refuse(&p) == NULL);
}

static void test_hand(void)
{
    /* root splits; quadrant 3 holds two points, split twice more until they part (at level 3) */
    const float x[] = {0.1f, 0.6f, 0.1f, 0.6f, 0.7f}, y[] = {0.1f, 0.1f, 0.6f, 0.6f, 0.7f};
    const climb_qt_params p = {3, 1};
    climb_qt t;
    char err[200], msg[300];
    EXPECT_MSG(climb_qt_build_cpu(5, x, y, &p, &t, err, sizeof err) == 0, "%s", err);
    EXPECT_MSG(t.n_nodes == 13, "%d nodes", t.n_nodes);
    EXPECT(t.nodes[0].first_child == 1 && t.nodes[4].first_child == 5 && t.nodes[5].first_child == 9);
    EXPECT(t.nodes[1].end - t.nodes[1].begin == 1 && t.nodes[4].end - t.nodes[4].begin == 2);
    EXPECT(t.order[t.nodes[9].begin] == 3 && t.order[t.nodes[12].begin] == 4); /* (0.6, 0.6) low, (0.7, 0.7) high */
    EXPECT_MSG(climb_qt_check(5, x, y, &p, &t, &t, msg, sizeof msg) == 0, "%s", msg);
    /* the same points with max_depth 2: the last pair stays in one leaf */
    const climb_qt_params p2 = {2, 1};
    climb_qt t2;
    EXPECT(climb_qt_build_cpu(5, x, y, &p2, &t2, err, sizeof err) == 0 && t2.n_nodes == 9);
    EXPECT(t2.nodes[5].end - t2.nodes[5].begin == 2 && t2.nodes[5].first_child == -1);
    climb_qt_free(&t2);
    climb_qt_free(&t);
    /* a point on both split lines goes to the upper right */
    const float bx[] = {0.5f, 0.2f}, by[] = {0.5f, 0.2f};
    EXPECT(climb_qt_build_cpu(2, bx, by, &p, &t, err, sizeof err) == 0);
    EXPECT(t.nodes[4].end - t.nodes[4].begin == 1 && t.order[t.nodes[4].begin] == 0);
    climb_qt_free(&t);
    /* no point: a root leaf; one point: the same */
    EXPECT(climb_qt_build_cpu(0, x, y, &p, &t, err, sizeof err) == 0 && t.n_nodes == 1 && t.nodes[0].end == 0);
    EXPECT(climb_qt_check(0, x, y, &p, &t, &t, msg, sizeof msg) == 0);
    climb_qt_free(&t);
    EXPECT(climb_qt_build_cpu(1, x, y, &p, &t, err, sizeof err) == 0 && t.n_nodes == 1 && t.order[0] == 0);
    climb_qt_free(&t);
    const climb_qt_params bad = {3, 0};
    EXPECT(climb_qt_build_cpu(5, x, y, &bad, &t, err, sizeof err) == -1 && strstr(err, "leaf_points"));
}

/* All points the same: one chain of splits down to max_depth, the last leaf holding them all. */
static void test_depth_limit(void)
{
    enum { N = 1000 };
    static float x[N], y[N];
    climb_qt_points(5, CLIMB_QT_SAME, x, y, N);
    const climb_qt_params p = {16, 8};
    climb_qt t;
    char err[200], msg[300];
    EXPECT(climb_qt_build_cpu(N, x, y, &p, &t, err, sizeof err) == 0);
    EXPECT_MSG(t.n_nodes == 1 + 4 * 16, "%d nodes", t.n_nodes);
    int full = 0;
    for (int32_t i = 0; i < t.n_nodes; i++)
        full += t.nodes[i].level == 16 && t.nodes[i].end - t.nodes[i].begin == N;
    EXPECT(full == 1);
    EXPECT_MSG(climb_qt_check(N, x, y, &p, &t, &t, msg, sizeof msg) == 0, "%s", msg);
    climb_qt_free(&t);
}

static void test_generated_and_wrong(void)
{
    const int32_t n = 100000;
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    EXPECT(x && y);
    if (!x || !y)
        return;
    const uint64_t seed = climb_fresh_seed();
    for (int dist = CLIMB_QT_UNIFORM; dist <= CLIMB_QT_CLUSTERED; dist++) {
        climb_qt_points(seed, dist, x, y, (size_t)n);
        int outside = 0;
        for (int32_t i = 0; i < n; i++)
            outside += !(x[i] >= 0 && x[i] <= 1 && y[i] >= 0 && y[i] <= 1);
        EXPECT(outside == 0);
        const climb_qt_params p = {12, 32};
        climb_qt t;
        char err[200], msg[300];
        EXPECT_MSG(climb_qt_build_cpu(n, x, y, &p, &t, err, sizeof err) == 0, "%s", err);
        EXPECT_MSG(climb_qt_check(n, x, y, &p, &t, &t, msg, sizeof msg) == 0, "dist %d: %s", dist, msg);
        int32_t leaves = 0, deepest = 0;
        for (int32_t i = 0; i < t.n_nodes; i++) {
            leaves += t.nodes[i].first_child < 0;
            deepest = t.nodes[i].level > deepest ? t.nodes[i].level : deepest;
        }
        EXPECT(leaves == 3 * (t.n_nodes - 1) / 4 + 1 && deepest >= 5);
        /* a copy made wrong four ways */
        climb_qt w;
        w = t;
        w.nodes = malloc((size_t)t.n_nodes * sizeof *w.nodes);
        w.order = malloc((size_t)n * sizeof *w.order);
        EXPECT(w.nodes && w.order);
        memcpy(w.nodes, t.nodes, (size_t)t.n_nodes * sizeof *w.nodes);
        memcpy(w.order, t.order, (size_t)n * sizeof *w.order);
        /* two points of different leaves swapped: each in another cell */
        const int32_t a = t.nodes[t.n_nodes - 1].begin, b = 0;
        int32_t tmp = w.order[a];
        w.order[a] = w.order[b];
        w.order[b] = tmp;
        EXPECT(t.nodes[t.n_nodes - 1].end > a && climb_qt_check(n, x, y, &p, &w, &t, msg, sizeof msg) == 1);
        memcpy(w.order, t.order, (size_t)n * sizeof *w.order);
        w.order[5] = w.order[6]; /* a point twice */
        EXPECT(climb_qt_check(n, x, y, &p, &w, &t, msg, sizeof msg) == 1 && strstr(msg, "twice"));
        memcpy(w.order, t.order, (size_t)n * sizeof *w.order);
        w.nodes[1].end++; /* a range moved */
        EXPECT(climb_qt_check(n, x, y, &p, &w, &t, msg, sizeof msg) == 1);
        memcpy(w.nodes, t.nodes, (size_t)t.n_nodes * sizeof *w.nodes);
        w.nodes[0].first_child = -1; /* the root a leaf */
        EXPECT(climb_qt_check(n, x, y, &p, &w, &t, msg, sizeof msg) == 1 && strstr(msg, "should split"));
        climb_qt_free(&w);
        climb_qt_free(&t);
    }
    free(x);
    free(y);
}

/* The workload's node bound (hand-counted, and above real builds) and its size rule. */
static void test_bound(void)
{
    const climb_qt_params d12 = {12, 16}, d3 = {3, 16}, d16 = {16, 1};
    EXPECT(climb_qt_node_bound(0, &d12) == 1 && climb_qt_node_bound(16, &d12) == 1);
    /* 100 points, 16 a leaf: at most 100 / 17 = 5 splits a level, and 1, 4, 16 by level: 1 + 4 (1 + 4 + 5) */
    EXPECT(climb_qt_node_bound(100, &d3) == 41);
    EXPECT(climb_qt_node_bound(0x7fffffff, &d16) == 0); /* past 2^31 nodes: refused */
    const int n = 20000;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    EXPECT(x && y);
    for (int dist = 0; dist < 3; dist++) {
        const climb_qt_params ps[] = {{12, 16}, {16, 1}, {5, 3}};
        for (int k = 0; k < 3; k++) {
            climb_qt_points(77 + (uint64_t)dist, dist, x, y, n);
            climb_qt t;
            char err[100];
            EXPECT(climb_qt_build_cpu(n, x, y, &ps[k], &t, err, sizeof err) == 0);
            EXPECT_MSG(t.n_nodes <= climb_qt_node_bound(n, &ps[k]), "dist %d: %d nodes over the bound %lld", dist,
                       t.n_nodes, (long long)climb_qt_node_bound(n, &ps[k]));
            climb_qt_free(&t);
        }
    }
    free(x);
    free(y);
    const climb_workload *w = &climb_quadtree_workload;
    climb_opt_value o[3];
    memset(o, 0, sizeof o);
    o[1].i = 16;
    o[2].i = 1;
    const climb_shape big = CLIMB_SHAPE1(0x7fffffffu), fits = CLIMB_SHAPE1((size_t)1 << 22);
    EXPECT(w->case_refuses(&big, CLIMB_F32, o) != NULL && w->case_refuses(&fits, CLIMB_F32, o) == NULL);
    EXPECT(climb_best_rung(w) == w->n_rungs - 1 && w->rung(0)->host_part);
}

int main(void)
{
    test_bound();
    test_codes();
    test_hand();
    test_depth_limit();
    test_generated_and_wrong();
    return test_finish("test_cpu_quadtree");
}
