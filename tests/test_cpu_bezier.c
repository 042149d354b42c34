/* CPU: Bezier curvature and point counts on hand-worked curves (straight, curvature 0.5, 1 and past the maximum, a
 * loop), the count's boundaries and the tolerance at them, the reference points (the end points exactly, the
 * middle), the float evaluation within the stated tolerance, and the generated sets' promised shapes (uniform
 * curvature, 1% very curved, straight). */
#include <math.h>
#include <stdlib.h>

#include <string.h>

#include "workloads/bezier/reference.h"
#include "core/harness.h"
#include "workloads/bezier/bezier.h"
#include "base/rng.h"
#include "testing.h"

static climb_bezier curve(float x0, float y0, float x1, float y1, float x2, float y2)
{
    climb_bezier b = {{x0, x1, x2}, {y0, y1, y2}};
    return b;
}

static void test_counts(void)
{
    const climb_bezier flat = curve(0, 0, 0.5f, 0, 1, 0), along = curve(0, 0, 0.3f, 0, 1, 0), half = curve(0, 0, 0.5f, 0.5f, 1, 0);
    const climb_bezier one = curve(0, 0, 0.5f, 1, 1, 0), steep = curve(0, 0, 0.5f, 3, 1, 0);
    EXPECT(climb_bezier_curvature(&flat) == 0 && climb_bezier_count(0, 32) == CLIMB_BEZIER_MIN_POINTS);
    EXPECT(fabs(climb_bezier_curvature(&along) - 0.2) < 1e-7); /* off the middle along the chord counts too */
    EXPECT(climb_bezier_curvature(&half) == 0.5 && climb_bezier_count(0.5, 32) == 8);
    EXPECT(climb_bezier_curvature(&one) == 1 && climb_bezier_count(1, 32) == 16);
    EXPECT(climb_bezier_count(climb_bezier_curvature(&steep), 32) == 32);
    EXPECT(climb_bezier_count(HUGE_VAL, 32) == 32 && climb_bezier_count(NAN, 20) == 20);
    EXPECT(climb_bezier_count(0.4, 2) == CLIMB_BEZIER_MIN_POINTS); /* a maximum below the minimum: the minimum */
    const climb_bezier loop = curve(0.2f, 0.2f, 0.7f, 0.4f, 0.2f, 0.2f), dot = curve(0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0.2f);
    EXPECT(climb_bezier_curvature(&loop) == HUGE_VAL && climb_bezier_curvature(&dot) == 0);
    /* 16 x 0.3125 = 5 exactly: a boundary, where 4 or 5 is right; 16 x 0.4 = 6.4: only 6 */
    const climb_bezier edge = curve(0, 0, 0.5f, 0.3125f, 1, 0), mid = curve(0, 0, 0.5f, 0.4f, 1, 0);
    EXPECT(climb_bezier_count_ok(&edge, 32, 5) && climb_bezier_count_ok(&edge, 32, 4));
    EXPECT(!climb_bezier_count_ok(&edge, 32, 6));
    EXPECT(climb_bezier_count_ok(&mid, 32, 6) && !climb_bezier_count_ok(&mid, 32, 5) &&
           !climb_bezier_count_ok(&mid, 32, 7));
}

static void test_points(void)
{
    const climb_bezier b = curve(0.1f, 0.2f, 0.9f, 0.7f, 0.4f, 0.3f);
    double x, y;
    climb_bezier_point(&b, 0, 9, &x, &y);
    EXPECT(x == (double)b.x[0] && y == (double)b.y[0]);
    climb_bezier_point(&b, 8, 9, &x, &y);
    EXPECT(x == (double)b.x[2] && y == (double)b.y[2]);
    const climb_bezier h = curve(0, 0, 0.5f, 0.5f, 1, 0);
    climb_bezier_point(&h, 2, 5, &x, &y); /* t = 1/2: (1/4) P0 + (1/2) P1 + (1/4) P2 */
    EXPECT(fabs(x - 0.5) < 1e-15 && fabs(y - 0.25) < 1e-15);
    /* the float evaluation a kernel does stays within the tolerance, on every point of random curves */
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    int bad = 0, points = 0;
    for (int k = 0; k < 2000; k++) {
        climb_bezier c;
        for (int j = 0; j < 3; j++) {
            c.x[j] = climb_rng_float(&r, -100, 100);
            c.y[j] = climb_rng_float(&r, -100, 100);
        }
        const int count = 2 + (int)(climb_rng_next(&r) % 63);
        const double tol = climb_bezier_tolerance(&c);
        for (int i = 0; i < count; i++, points++) {
            const float t = (float)i / (float)(count - 1), s = 1.0f - t;
            const float fx = s * s * c.x[0] + 2.0f * s * t * c.x[1] + t * t * c.x[2];
            const float fy = s * s * c.y[0] + 2.0f * s * t * c.y[1] + t * t * c.y[2];
            climb_bezier_point(&c, i, count, &x, &y);
            bad += !(fabs(fx - x) <= tol && fabs(fy - y) <= tol);
        }
    }
    EXPECT_MSG(bad == 0, "%d of %d float points outside the tolerance", bad, points);
}

static void test_sets(void)
{
    const size_t n = 100000;
    climb_bezier *c = malloc(n * sizeof *c);
    EXPECT(c != NULL);
    if (!c)
        return;
    const uint64_t seed = climb_fresh_seed();
    climb_bezier_generate(seed, CLIMB_BEZIER_STRAIGHT, c, n);
    int curved = 0;
    for (size_t i = 0; i < n; i++)
        curved += climb_bezier_count(climb_bezier_curvature(&c[i]), 32) != CLIMB_BEZIER_MIN_POINTS;
    EXPECT_MSG(curved == 0, "%d straight curves with more points than the fewest", curved);
    climb_bezier_generate(seed, CLIMB_BEZIER_SKEWED, c, n);
    size_t most = 0, fewest = 0;
    for (size_t i = 0; i < n; i++) {
        const int k = climb_bezier_count(climb_bezier_curvature(&c[i]), 32);
        most += k == 32;
        fewest += k == CLIMB_BEZIER_MIN_POINTS;
    }
    EXPECT_MSG(most > n / 200 && most < n / 50 && most + fewest == n, "%zu at the maximum, %zu at the minimum", most,
               fewest);
    climb_bezier_generate(seed, CLIMB_BEZIER_UNIFORM, c, n);
    double sum = 0;
    int over = 0;
    for (size_t i = 0; i < n; i++) {
        const double k = climb_bezier_curvature(&c[i]);
        sum += k;
        over += k > 1.001;
    }
    EXPECT_MSG(fabs(sum / n - 0.5) < 0.01 && over == 0, "mean curvature %g, %d over 1", sum / n, over);
    free(c);
}

/* The workload's table: the size rule (curves x max_points within 32-bit offsets) refuses before any GPU work, the
 * ladder's order (the best rung last, the dynamic-parallelism rung before it), the options' defaults. */
static void test_table(void)
{
    const climb_workload *w = &climb_bezier_workload;
    climb_opt_value o[2];
    memset(o, 0, sizeof o);
    o[1].i = 32;
    const climb_shape fits = CLIMB_SHAPE1(((size_t)1 << 26) - 1), over = CLIMB_SHAPE1((size_t)1 << 26);
    EXPECT(w->case_refuses(&fits, CLIMB_F32, o) == NULL);
    EXPECT(w->case_refuses(&over, CLIMB_F32, o) != NULL && strstr(w->case_refuses(&over, CLIMB_F32, o), "2^31"));
    o[1].i = 4096;
    const climb_shape big = CLIMB_SHAPE1((size_t)1 << 19);
    EXPECT(w->case_refuses(&big, CLIMB_F32, o) != NULL);
    EXPECT(w->n_rungs == 4 && climb_best_rung(w) == 3 && strcmp(w->rung(2)->name, "dynamic_parallelism") == 0);
    EXPECT(strcmp(w->options[1].name, "max_points") == 0 && strcmp(w->options[1].def, "32") == 0 &&
           w->options[1].min == CLIMB_BEZIER_MIN_POINTS);
}

int main(void)
{
    test_table();
    test_counts();
    test_points();
    test_sets();
    return test_finish("test_cpu_bezier");
}
