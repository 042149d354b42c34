/* GPU: every quadtree rung over the check sizes (0, 1, a few, around a leaf, several blocks) for uniform, clustered
 * and identical points, at the default limits and at tight ones (max_depth 3, leaf_points 1; max_depth 16, leaf_points
 * 1: the depth limit where points coincide; and depth 0), each tree compared with the CPU build node for node
 * from poisoned outputs; every rung's poisoned output fails; the C API against the CPU build (points on the nodes'
 * boundaries too), in and out of a capture. */
#include <stdlib.h>
#include <string.h>

#include "climb.h"

#include "base/rng.h"
#include "device/device.h"
#include "core/harness.h"
#include "workloads/quadtree/quadtree.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_quadtree_workload;
static climb_device_info dev;

/* The C API: trees of fresh points of every set under several limits checked against the CPU build node for
 * node; an empty tree; a build refused inside a capture, which stays valid; bad arguments refused with no error
 * left behind. */
static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const int max_n = 300007;
    float *x = malloc((size_t)max_n * 4), *y = malloc((size_t)max_n * 4), *d_x, *d_y;
    EXPECT(x && y);
    EXPECT(cudaMalloc((void **)&d_x, (size_t)max_n * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_y, (size_t)max_n * 4) == cudaSuccess);
    const int sizes[] = {0, 1, 17, 4099, max_n};
    const climb_quadtree_params limits[] = {{12, 16}, {16, 1}, {4, 3}};
    const uint64_t seed = climb_fresh_seed();
    /* the three sets, and a fourth of points on the nodes' boundaries: every coordinate a multiple of 1/16 in [0, 1]
     * (the split lines of levels 1 to 4, the square's edges, and 1, which falls in the last cell) */
    for (int si = 0; si < 5; si++)
        for (int set = 0; set < 4; set++) {
            const int n = sizes[si];
            const climb_quadtree_params qp = limits[(si + set) % 3];
            if (set < 3)
                climb_qt_points(seed + (uint64_t)(si * 4 + set), set, x, y, (size_t)n);
            else {
                climb_rng r;
                climb_rng_seed(&r, seed + (uint64_t)(si * 4 + set));
                for (int i = 0; i < n; i++) {
                    x[i] = (float)climb_rng_int(&r, 0, 16) / 16.0f;
                    y[i] = (float)climb_rng_int(&r, 0, 16) / 16.0f;
                }
            }
            if (n)
                EXPECT(cudaMemcpy(d_x, x, (size_t)n * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
                       cudaMemcpy(d_y, y, (size_t)n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            climb_quadtree tree = NULL;
            const climb_status st = climb_quadtree_build(h, (size_t)n, d_x, d_y, &qp, &tree);
            EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "n=%d set=%d: %s", n, set, climb_status_string(st));
            if (st != CLIMB_STATUS_SUCCESS)
                continue;
            const climb_quadtree_node *d_nodes;
            const int32_t *d_order;
            int32_t n_nodes = 0;
            size_t n_points = 0;
            EXPECT(climb_quadtree_nodes(tree, &d_nodes, &n_nodes) == CLIMB_STATUS_SUCCESS && n_nodes >= 1);
            EXPECT(climb_quadtree_order(tree, &d_order, &n_points) == CLIMB_STATUS_SUCCESS && n_points == (size_t)n);
            climb_qt got = {n_nodes, n_nodes, malloc((size_t)n_nodes * sizeof(climb_qt_node)), n,
                            malloc((size_t)(n ? n : 1) * 4)};
            EXPECT(cudaMemcpy(got.nodes, d_nodes, (size_t)n_nodes * sizeof(climb_qt_node), cudaMemcpyDeviceToHost) ==
                   cudaSuccess);
            if (n)
                EXPECT(cudaMemcpy(got.order, d_order, (size_t)n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            const climb_qt_params p = {qp.max_depth, qp.leaf_points};
            climb_qt ref;
            char err[200], msg[300];
            EXPECT(climb_qt_build_cpu(n, x, y, &p, &ref, err, sizeof err) == 0);
            EXPECT_MSG(climb_qt_check(n, x, y, &p, &got, &ref, msg, sizeof msg) == 0, "api n=%d set=%d: %s", n, set,
                       msg);
            climb_qt_free(&ref);
            climb_qt_free(&got);
            EXPECT(climb_quadtree_free(tree) == CLIMB_STATUS_SUCCESS);
        }
    /* inside a capture: refused, and the capture stays valid */
    {
        cudaStream_t s;
        EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
        EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
        const climb_quadtree_params qp = {12, 16};
        climb_quadtree tree = (climb_quadtree)&tree;
        EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
        EXPECT(climb_quadtree_build(h, 100, d_x, d_y, &qp, &tree) == CLIMB_STATUS_CAPTURE_UNSUPPORTED && !tree);
        cudaGraph_t g = NULL;
        EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g != NULL);
        if (g)
            cudaGraphDestroy(g);
        EXPECT(climb_set_stream(h, 0) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaStreamDestroy(s) == cudaSuccess);
    }
    const climb_quadtree_params bad = {12, 0};
    climb_quadtree tree = NULL;
    EXPECT(climb_quadtree_build(h, 10, d_x, d_y, &bad, &tree) == CLIMB_STATUS_INVALID_VALUE && !tree);
    EXPECT(climb_quadtree_build(h, 10, x, y, &limits[0], &tree) == CLIMB_STATUS_INVALID_VALUE); /* host memory */
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_quadtree_build(h, 10, d_x, d_y, &limits[0], &tree) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_quadtree_free(tree) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_x);
    cudaFree(d_y);
    free(x);
    free(y);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_api();
    {
        climb_opt_plan p;
        test_plan(&p, w, "points", "clustered", NULL);
        test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE1(5000), "the build reported");
        climb_opt_plan_free(&p, NULL);
    }
    const uint64_t fresh = climb_fresh_seed();
    const char *limits[][2] = {{"12", "16"}, {"3", "1"}, {"16", "1"}, {"0", "1"}};
    for (int k = 0; k < 4; k++) {
        climb_opt_plan p;
        test_plan(&p, w, "points", "all", "max_depth", limits[k][0], "leaf_points", limits[k][1], NULL);
        char what[80];
        snprintf(what, sizeof what, "points=all max_depth=%s leaf_points=%s", limits[k][0], limits[k][1]);
        /* depth 16 with leaves of 1 splits more than 2^16 nodes at 65537 points: the dynamic-parallelism rung
         * refuses that case (and only that rung) */
        test_check_plan(w, &dev, &p, fresh + (uint64_t)k, k == 2, what);
        climb_opt_plan_free(&p, NULL);
    }
    return test_finish("test_gpu_quadtree");
}
