/* CPU: the scan's references on arrays small enough to write down, i32 wrap-around, and the f32 tolerance: it
 * holds for the worst summation order a rung could take (a sequential float scan, height i), yet catches an
 * element lost from the sum where the outputs are still small enough to show it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workloads/scan/scan.h"
#include "testing.h"

static void test_small(void)
{
    const int32_t x[5] = {3, -1, 4, 1, INT32_MAX};
    int32_t inc[5], exc[5];
    climb_scan_ref_i32(x, 5, 0, inc);
    climb_scan_ref_i32(x, 5, 1, exc);
    const int32_t want_inc[5] = {3, 2, 6, 7, (int32_t)(7u + (uint32_t)INT32_MAX)}; /* the last wraps */
    const int32_t want_exc[5] = {0, 3, 2, 6, 7};
    EXPECT(memcmp(inc, want_inc, sizeof inc) == 0);
    EXPECT(memcmp(exc, want_exc, sizeof exc) == 0);
    EXPECT(inc[4] < 0);

    const float f[4] = {0.5f, -2.0f, 1.25f, 3.0f};
    double fi[4], fe[4];
    float ai[4], ae[4];
    climb_scan_ref_f32(f, 4, 0, fi, ai);
    climb_scan_ref_f32(f, 4, 1, fe, ae);
    const double want_fi[4] = {0.5, -1.5, -0.25, 2.75}, want_fe[4] = {0, 0.5, -1.5, -0.25};
    const float want_ai[4] = {0.5f, 2.5f, 3.75f, 6.75f}, want_ae[4] = {0, 0.5f, 2.5f, 3.75f};
    for (int i = 0; i < 4; i++) {
        EXPECT(fi[i] == want_fi[i] && fe[i] == want_fe[i]);
        EXPECT(ai[i] == want_ai[i] && ae[i] == want_ae[i]);
    }
    climb_scan_ref_i32(x, 0, 0, inc); /* n == 0 writes nothing and does not crash */
}

/* A float scan in the worst order (one running sum, height i + 1 at output i) stays inside the tolerance the
 * verify step gives a rung chained one element a link; a lost element is caught where it shows. */
static void test_tolerance(void)
{
    const size_t n = 200000;
    float *x = malloc(n * sizeof *x), *abs_prefix = malloc(n * sizeof *abs_prefix);
    double *ref = malloc(n * sizeof *ref);
    EXPECT(x && abs_prefix && ref);
    if (!x || !abs_prefix || !ref)
        return;
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    climb_rng_fill_f32(&rng, x, n, -1.0f, 1.0f);
    climb_scan_ref_f32(x, n, 0, ref, abs_prefix);
    float run = 0;
    size_t outside = 0, caught = 0, checked = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        run += x[i];
        const double tol = climb_scan_tol_f32(abs_prefix[i], climb_scan_depth(i, 1));
        const double err = fabs((double)run - ref[i]);
        outside += !(err <= tol);
        if (tol > 0 && err / tol > worst)
            worst = err / tol;
        /* Drop x[i] from out[i] where |x[i]| >= 0.25 and the output is early enough to show it. */
        if (i < 1000 && fabsf(x[i]) >= 0.25f) {
            const double lost = fabs((double)(run - x[i]) - ref[i]);
            checked++;
            caught += lost > climb_scan_tol_f32(abs_prefix[i], climb_scan_depth(i, 0));
        }
    }
    EXPECT_MSG(outside == 0, "%zu outputs of a sequential float scan outside the tolerance", outside);
    EXPECT_MSG(checked > 500 && caught == checked, "a lost element caught %zu times of %zu", caught, checked);
    printf("sequential float scan of %zu: worst error %.3g of the tolerance\n", n, worst);

    /* The bound grows with the depth and the sum, and saturates instead of overflowing. */
    EXPECT(climb_scan_tol_f32(100, 10) < climb_scan_tol_f32(100, 1000));
    EXPECT(climb_scan_tol_f32(100, 10) < climb_scan_tol_f32(200, 10));
    EXPECT(climb_scan_tol_f32(1, 1e12) >= 1);
    EXPECT(climb_scan_depth(5000, 4096) > climb_scan_depth(5000, 0));
    EXPECT(climb_scan_depth(10, 0) == climb_scan_depth(1u << 30, 0));
    free(x);
    free(abs_prefix);
    free(ref);
}

int main(void)
{
    test_small();
    test_tolerance();
    EXPECT(climb_scan_epochs() > 1000000u);
    return test_finish("test_cpu_scan");
}
