/* GPU: every Bezier rung over the check sizes (0, 1, a few, around a warp, a scan block and a flat tile, several
 * tiles) for every curve set and three maxima (4: every curve at the minimum; 32, the default; 100, not a multiple
 * of a warp), each count, offset and point checked from poisoned outputs; every rung's poisoned output fails; the
 * dynamic-parallelism rung's refusal past its curve limit; the C API against the CPU, and its refusals. */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"

#include "base/rng.h"
#include "device/device.h"
#include "core/harness.h"
#include "workloads/bezier/bezier.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* n curves in h_a; counts, offsets, then the points one after another in d_out. */
typedef struct bezier_job {
    api_job base;
    size_t n;
    int max_points;
} bezier_job;

static int bezier_sizes(api_job *b)
{
    const bezier_job *j = (const bezier_job *)b;
    b->a_bytes = j->n * sizeof(climb_bezier);
    b->out_bytes = j->n * 8 + j->n * (size_t)j->max_points * 8;
    return 0;
}

static int bezier_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const bezier_job *j = (const bezier_job *)b;
    climb_bezier_generate(climb_rng_next(r), (int)(climb_rng_next(r) % 3), b->h_a, j->n);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status bezier_call(api_job *b, climb_handle h)
{
    const bezier_job *j = (const bezier_job *)b;
    int32_t *o = b->d_out;
    return climb_bezier_tessellate(h, j->n, b->d_a, j->max_points, o, o + j->n, (float *)(o + 2 * j->n));
}

/* Each count within the boundary rule, the offsets their scan, every point within tolerance. */
static void bezier_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const bezier_job *j = (const bezier_job *)b;
    const climb_bezier *c = b->h_a;
    const int32_t *counts = got, *offsets = counts + j->n;
    const float *pts = (const float *)(offsets + j->n);
    long long at = 0;
    for (size_t i = 0; i < j->n; i++) {
        if (!climb_bezier_count_ok(&c[i], j->max_points, counts[i]) || offsets[i] != at) {
            api_mismatch_note(m, i, counts[i], climb_bezier_count(climb_bezier_curvature(&c[i]), j->max_points));
            break;
        }
        const double tol = climb_bezier_tolerance(&c[i]);
        for (int k = 0; k < counts[i]; k++) {
            double x, y;
            climb_bezier_point(&c[i], k, counts[i], &x, &y);
            const float *p = pts + 2 * (size_t)(at + k);
            if (!(fabs(p[0] - x) <= tol && fabs(p[1] - y) <= tol))
                api_mismatch_note(m, 2 * j->n + 2 * (size_t)(at + k), p[0], x);
        }
        at += counts[i];
    }
}

static const api_job_ops bezier_ops = {
    .sizes = bezier_sizes, .fill = bezier_fill, .call = bezier_call, .check = bezier_check};

static api_job *bezier_job_of(size_t n, int max_points)
{
    bezier_job *j = api_job_new(sizeof *j, &bezier_ops);
    if (!j)
        return NULL;
    j->n = n;
    j->max_points = max_points;
    snprintf(j->base.label, sizeof j->base.label, "climb_bezier_tessellate n=%zu max_points=%d", n, max_points);
    return &j->base;
}

static int bezier_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 3)
        return -1;
    if (set == API_THREAD) {
        out[0] = bezier_job_of(10007 + (size_t)id, 16 + id);
        return 1;
    }
    out[0] = bezier_job_of(300007, 32);
    out[1] = bezier_job_of(1, 4);
    out[2] = bezier_job_of(4099, 100);
    return 3;
}

const api_workload api_workload_bezier = {.name = "bezier", .jobs = bezier_jobs};

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
    EXPECT(api_test_workload(&api_workload_bezier) == 0);
    return test_finish("test_gpu_bezier");
}
