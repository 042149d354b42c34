/* The C API's argument checks and status strings, which need no GPU. Where a GPU is present the
 * device-ordinal checks run against it too. */
#include <string.h>

#include "climb.h"
#include "testing.h"

int main(void)
{
    EXPECT(climb_version() == CLIMB_VERSION_MAJOR * 10000 + CLIMB_VERSION_MINOR * 100 + CLIMB_VERSION_PATCH);
    for (int s = 0; s <= CLIMB_STATUS_NOT_SUPPORTED; s++) {
        const char *a = climb_status_string((climb_status)s);
        EXPECT(a != NULL && strlen(a) > 3);
        for (int t = s + 1; t <= CLIMB_STATUS_NOT_SUPPORTED; t++)
            EXPECT(strcmp(a, climb_status_string((climb_status)t)) != 0);
    }
    EXPECT(strcmp(climb_status_string((climb_status)999), "unknown status") == 0);

    EXPECT(climb_create(NULL, 0) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_destroy(NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_set_stream(NULL, 0) == CLIMB_STATUS_INVALID_VALUE);
    cudaStream_t s;
    EXPECT(climb_get_stream(NULL, &s) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_last_cuda_error(NULL) == cudaErrorInvalidValue);
    int32_t i32 = 0;
    float f32 = 0;
    EXPECT(climb_reduce_sum_i32(NULL, &i32, 1, &i32) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_reduce_sum_f32(NULL, &f32, 1, &f32) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sgemm(NULL, CLIMB_OP_N, CLIMB_OP_N, 1, 1, 1, 1, &f32, 1, &f32, 1, 0, &f32, 1) ==
           CLIMB_STATUS_INVALID_VALUE);
    for (int mode = 0; mode < 4; mode++)
        EXPECT(climb_gemm_ex(NULL, (climb_gemm_compute)mode, CLIMB_OP_N, CLIMB_OP_N, 1, 1, 1, 1, &f32, 1, &f32, 1, 0,
                             &f32, 1) == CLIMB_STATUS_INVALID_VALUE);
    climb_bezier_curve curve = {{0, 0.5f, 1}, {0, 1, 0}};
    EXPECT(climb_bezier_tessellate(NULL, 1, &curve, 32, &i32, &i32, &f32) == CLIMB_STATUS_INVALID_VALUE);
    climb_quadtree tree = (climb_quadtree)&tree;
    const climb_quadtree_params qp = {12, 16};
    EXPECT(climb_quadtree_build(NULL, 1, &f32, &f32, &qp, &tree) == CLIMB_STATUS_INVALID_VALUE && tree == NULL);
    const climb_quadtree_node *qn;
    int32_t qcount;
    const int32_t *qorder;
    size_t qpoints;
    EXPECT(climb_quadtree_nodes(NULL, &qn, &qcount) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_quadtree_order(NULL, &qorder, &qpoints) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_quadtree_free(NULL) == CLIMB_STATUS_SUCCESS);

    int n = 0;
    int have_gpu = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    climb_handle h = (climb_handle)&h; /* garbage that create must overwrite */
    if (!have_gpu) {
        EXPECT(climb_create(&h, 0) == CLIMB_STATUS_NO_DEVICE);
        EXPECT(h == NULL);
    } else {
        EXPECT(climb_create(&h, n) == CLIMB_STATUS_INVALID_DEVICE);
        EXPECT(h == NULL);
        EXPECT(climb_create(&h, -1) == CLIMB_STATUS_INVALID_DEVICE);
        EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
        EXPECT(climb_get_stream(h, NULL) == CLIMB_STATUS_INVALID_VALUE);
        /* Host stack memory is not device memory: refused, not faulted. */
        EXPECT(climb_reduce_sum_i32(h, &i32, 1, &i32) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_bezier_tessellate(h, 1, &curve, 32, &i32, &i32, &f32) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_bezier_tessellate(h, 0, NULL, 32, NULL, NULL, NULL) == CLIMB_STATUS_SUCCESS);
        const climb_quadtree_params bad_depth = {17, 16}, bad_leaf = {12, 0};
        EXPECT(climb_quadtree_build(h, 1, &f32, &f32, &qp, &tree) == CLIMB_STATUS_INVALID_VALUE); /* host memory */
        EXPECT(climb_quadtree_build(h, 0, NULL, NULL, &bad_depth, &tree) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_quadtree_build(h, 0, NULL, NULL, &bad_leaf, &tree) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_quadtree_build(h, 0, NULL, NULL, NULL, &tree) == CLIMB_STATUS_INVALID_VALUE);
        EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    }
    return test_finish("test_cpu_api");
}
