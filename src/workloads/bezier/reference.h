/* Quadratic Bezier curves on the host, the bezier ladder's reference: the generated curve sets, each curve's point
 * count from its curvature, the reference points and the check a GPU tessellation must pass. Host code (C).
 *
 * A curve is B(t) = (1 - t)^2 P0 + 2 (1 - t) t P1 + t^2 P2, t in [0, 1]. Its curvature, as the adaptive
 * tessellation example of dynamic parallelism measures it (Adinets, "Adaptive Parallel Computation with CUDA Dynamic
 * Parallelism", NVIDIA, 2014), is the distance of the control point P1 from the chord's middle over the chord's
 * length; its point count is floor(16 curvature) clamped to [4, max_points], the points at t = i / (count - 1). */
#ifndef CLIMB_WORKLOADS_BEZIER_REFERENCE_H
#define CLIMB_WORKLOADS_BEZIER_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct climb_bezier {
    float x[3], y[3];   /* P0, P1 (the control point), P2 */
} climb_bezier;

#define CLIMB_BEZIER_MIN_POINTS 4

/* Curve sets: UNIFORM, end points uniform in the unit square and the control point off the chord's middle by a
 * uniform fraction (0 to 1) of the chord, across it: curvatures spread from 0 to 1; SKEWED, 1 curve in 100 very
 * curved (the control point 4 chords off) and the rest nearly straight (1/100 of a chord): the load imbalance;
 * STRAIGHT, the control point at the chord's middle: curvature 0, the fewest points (a control point elsewhere on
 * the chord draws a straight segment too, but the measure counts its distance from the middle). */
enum { CLIMB_BEZIER_UNIFORM = 0, CLIMB_BEZIER_SKEWED = 1, CLIMB_BEZIER_STRAIGHT = 2 };
void climb_bezier_generate(uint64_t seed, int set, climb_bezier *c, size_t n);

/* The curvature in double: |P1 - (P0 + P2) / 2| / |P2 - P0|; a curve whose end points meet has curvature 0 if its
 * control point meets them too, else the largest (it is a loop). */
double climb_bezier_curvature(const climb_bezier *b);
/* The point count for a curvature: floor(16 curvature) clamped to [4, max_points] (max_points at least 4). */
int climb_bezier_count(double curvature, int max_points);
/* 1 when `count` is the curve's count, or its neighbour where 16 x the curvature lies within 10^-5 of a whole number
 * (a float computation on the GPU may round across it). */
int climb_bezier_count_ok(const climb_bezier *b, int max_points, int count);

/* Point i of count (0 <= i < count, count >= 2) in double. */
void climb_bezier_point(const climb_bezier *b, int i, int count, double *x, double *y);
/* What a float evaluation may be off by, in each coordinate: 2^-20 (|P0| + 2 |P1| + |P2|) of the curve's
 * coordinates, covering the rounding of t = i / (count - 1) and of the products and sums (a few ulps each). */
double climb_bezier_tolerance(const climb_bezier *b);

#ifdef __cplusplus
}
#endif

#endif
