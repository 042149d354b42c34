/* Quadratic Bezier curves on the host: generated sets, curvature, point counts, reference points (bezier.h). */
#include "reference.h"

#include <math.h>

#include "../../base/rng.h"

void climb_bezier_generate(uint64_t seed, int set, climb_bezier *c, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        climb_bezier *b = &c[i];
        const double x0 = climb_rng_double(&r, 0, 1), y0 = climb_rng_double(&r, 0, 1);
        const double x2 = climb_rng_double(&r, 0, 1), y2 = climb_rng_double(&r, 0, 1);
        double off; /* the control point's distance from the chord's middle, in chords, across the chord */
        const double along = 0.5;
        if (set == CLIMB_BEZIER_STRAIGHT)
            off = 0; /* the chord's middle: the measure counts a control point off it along the chord too */
        else if (set == CLIMB_BEZIER_SKEWED) {
            off = climb_rng_next(&r) % 100 == 0 ? 4.0 : 0.01;
        } else {
            off = climb_rng_double(&r, 0, 1);
        }
        const double dx = x2 - x0, dy = y2 - y0;
        b->x[0] = (float)x0;
        b->y[0] = (float)y0;
        b->x[2] = (float)x2;
        b->y[2] = (float)y2;
        b->x[1] = (float)(x0 + along * dx - off * dy); /* (-dy, dx): across the chord */
        b->y[1] = (float)(y0 + along * dy + off * dx);
    }
}

double climb_bezier_curvature(const climb_bezier *b)
{
    const double cx = 0.5 * ((double)b->x[0] + b->x[2]), cy = 0.5 * ((double)b->y[0] + b->y[2]);
    const double off = hypot((double)b->x[1] - cx, (double)b->y[1] - cy);
    const double chord = hypot((double)b->x[2] - b->x[0], (double)b->y[2] - b->y[0]);
    if (chord == 0)
        return off == 0 ? 0 : HUGE_VAL;
    return off / chord;
}

int climb_bezier_count(double curvature, int max_points)
{
    if (max_points < CLIMB_BEZIER_MIN_POINTS)
        max_points = CLIMB_BEZIER_MIN_POINTS;
    const double k = 16.0 * curvature;
    if (!(k < (double)max_points)) /* NaN and infinity included */
        return max_points;
    const int c = (int)floor(k);
    return c < CLIMB_BEZIER_MIN_POINTS ? CLIMB_BEZIER_MIN_POINTS : c;
}

int climb_bezier_count_ok(const climb_bezier *b, int max_points, int count)
{
    const double cur = climb_bezier_curvature(b), k = 16.0 * cur;
    const int want = climb_bezier_count(cur, max_points);
    if (count == want)
        return 1;
    const double near = floor(k + 0.5);
    if (fabs(k - near) > 1e-5 * (near > 1 ? near : 1))
        return 0;
    /* at a boundary: the count of a curvature just below it or just above */
    const double eps = 2e-5 * (near > 1 ? near : 1) / 16.0;
    return count == climb_bezier_count(cur - eps, max_points) || count == climb_bezier_count(cur + eps, max_points);
}

void climb_bezier_point(const climb_bezier *b, int i, int count, double *x, double *y)
{
    const double t = count > 1 ? (double)i / (count - 1) : 0, s = 1 - t;
    *x = s * s * b->x[0] + 2 * s * t * b->x[1] + t * t * b->x[2];
    *y = s * s * b->y[0] + 2 * s * t * b->y[1] + t * t * b->y[2];
}

double climb_bezier_tolerance(const climb_bezier *b)
{
    const double mx = fabs(b->x[0]) + 2 * fabs(b->x[1]) + fabs(b->x[2]);
    const double my = fabs(b->y[0]) + 2 * fabs(b->y[1]) + fabs(b->y[2]);
    return ldexp(mx > my ? mx : my, -20);
}
