/* GPU: every Bezier rung over the check sizes (0, 1, a few, around a warp, a scan block and a flat tile, several
 * tiles) for every curve set and three maxima (4: every curve at the minimum; 32, the default; 100, not a multiple
 * of a warp), each count, offset and point checked from poisoned outputs; every rung's poisoned output fails; the
 * dynamic-parallelism rung's refusal past its curve limit; the C API against the CPU, and its refusals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"

#include "base/rng.h"
#include "device/device.h"
#include "core/harness.h"
#include "workloads/bezier/bezier.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_bezier_workload;
static climb_device_info dev;

/* The C API: fresh curves of every set and several maxima against the CPU (counts within the boundary rule,
 * offsets the scan, every point within the tolerance), n = 0, bad arguments refused with no error left behind. */
static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const size_t max_n = 300007;
    const int max_p = 100;
    climb_bezier *c = malloc(max_n * sizeof *c);
    int32_t *counts = malloc(max_n * 4), *offsets = malloc(max_n * 4);
    float *pts = malloc(max_n * (size_t)max_p * 8);
    climb_bezier_curve *d_c;
    int32_t *d_counts, *d_offsets;
    float *d_pts;
    EXPECT(c && counts && offsets && pts);
    EXPECT(cudaMalloc((void **)&d_c, max_n * sizeof *c) == cudaSuccess &&
           cudaMalloc((void **)&d_counts, max_n * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_offsets, max_n * 4) == cudaSuccess &&
           cudaMalloc((void **)&d_pts, max_n * (size_t)max_p * 8) == cudaSuccess);
    const size_t sizes[] = {1, 2, 255, 257, 4099, max_n};
    const int maxima[] = {4, 32, 100};
    const uint64_t seed = climb_fresh_seed();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int set = 0; set < 3; set++) {
            const size_t n = sizes[si];
            const int maxp = maxima[(si + (size_t)set) % 3];
            climb_bezier_generate(seed + si * 3 + (uint64_t)set, set, c, n);
            EXPECT(cudaMemcpy(d_c, c, n * sizeof *c, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(cudaMemset(d_pts, 0xff, n * (size_t)maxp * 8) == cudaSuccess);
            const climb_status st = climb_bezier_tessellate(h, n, d_c, maxp, d_counts, d_offsets, d_pts);
            EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "n=%zu set=%d: %s", n, set, climb_status_string(st));
            EXPECT(cudaMemcpy(counts, d_counts, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
                   cudaMemcpy(offsets, d_offsets, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
                   cudaMemcpy(pts, d_pts, n * (size_t)maxp * 8, cudaMemcpyDeviceToHost) == cudaSuccess);
            size_t bad = 0;
            long long at = 0;
            for (size_t i = 0; i < n && !bad; i++) {
                if (!climb_bezier_count_ok(&c[i], maxp, counts[i]) || offsets[i] != at) {
                    bad++;
                    break;
                }
                const double tol = climb_bezier_tolerance(&c[i]);
                for (int j = 0; j < counts[i]; j++) {
                    double x, y;
                    climb_bezier_point(&c[i], j, counts[i], &x, &y);
                    const float *p = pts + 2 * (size_t)(at + j);
                    bad += !(fabs(p[0] - x) <= tol && fabs(p[1] - y) <= tol);
                }
                at += counts[i];
            }
            EXPECT_MSG(bad == 0, "api n=%zu set=%d max_points=%d: wrong", n, set, maxp);
        }
    EXPECT(climb_bezier_tessellate(h, 0, NULL, 32, NULL, NULL, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_bezier_tessellate(h, 10, d_c, 3, d_counts, d_offsets, d_pts) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_bezier_tessellate(h, 10, d_c, 4097, d_counts, d_offsets, d_pts) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_bezier_tessellate(h, (size_t)1 << 26, d_c, 32, d_counts, d_offsets, d_pts) ==
           CLIMB_STATUS_INVALID_VALUE); /* 2^31 points */
    EXPECT(climb_bezier_tessellate(h, 10, (climb_bezier_curve *)c, 32, d_counts, d_offsets, d_pts) ==
           CLIMB_STATUS_INVALID_VALUE); /* host memory */
    EXPECT(climb_bezier_tessellate(h, 10, d_c, 32, d_counts, d_offsets, d_pts + 1) ==
           CLIMB_STATUS_INVALID_VALUE); /* points not 8-byte aligned */
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_bezier_tessellate(h, 10, d_c, 32, d_counts, d_offsets, d_pts) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_c);
    cudaFree(d_counts);
    cudaFree(d_offsets);
    cudaFree(d_pts);
    free(c);
    free(counts);
    free(offsets);
    free(pts);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_api();
    {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "skewed", NULL);
        test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE1(5000), "curve 0");
        climb_opt_plan_free(&p, NULL);
    }
    const uint64_t fresh = climb_fresh_seed();
    const char *maxima[] = {"4", "32", "100"};
    for (int m = 0; m < 3; m++) {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "all", "max_points", maxima[m], NULL);
        char what[60];
        snprintf(what, sizeof what, "curves=all max_points=%s", maxima[m]);
        test_check_plan(w, &dev, &p, fresh + (uint64_t)m, 0, what);
        climb_opt_plan_free(&p, NULL);
    }
    /* past the dynamic-parallelism rung's limit it refuses, and the others still run */
    {
        climb_opt_plan p;
        test_plan(&p, w, "curves", "straight", "max_points", "4", NULL);
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = fresh;
        o.options = &p;
        const climb_shape big[] = {CLIMB_SHAPE1(CLIMB_BEZIER_DP_MAX_CURVES + 1)};
        o.shapes = big;
        o.n_shapes = 1;
        climb_check_result cr;
        EXPECT(climb_check(w, &o, &dev, &cr) == 0);
        EXPECT_MSG(cr.failures == 0 && cr.refused == 1 && cr.runs > 0,
                   "past the limit: %ld runs, %d failures, %ld refused", cr.runs, cr.failures, cr.refused);
        climb_check_result_free(&cr);
        climb_opt_plan_free(&p, NULL);
    }
    return test_finish("test_gpu_bezier");
}
