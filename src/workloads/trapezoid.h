/* Trapezoidal rule: the parts of src/workloads/trapezoid.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_TRAPEZOID_H
#define CLIMB_WORKLOADS_TRAPEZOID_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_trapezoid_workload;

/* The trapezoidal rule for f(x) = x^2 + 1 over [a, b] with n trapezoids, in exact arithmetic: for a quadratic the
 * rule's error is exactly (b - a) h^2 f'' / 12 = (b - a)^3 / (6 n^2), so T_n = (b^3 - a^3) / 3 + (b - a) +
 * (b - a)^3 / (6 n^2). Computed in long double. */
double climb_trap_exact(double a, double b, size_t n);
/* The integral itself, (b^3 - a^3) / 3 + (b - a): 24 for [-3, 3]. */
double climb_trap_integral(double a, double b);
/* The rule summed on the CPU in long double, term by term (a check of climb_trap_exact). */
double climb_trap_cpu(double a, double b, size_t n);
/* What a computed T_n may differ from the exact one by, at unit roundoff u (2^-24 for f32, 2^-53 for f64), when
 * the sum of the n - 1 inner terms is a tree of height `depth` (docs/trapezoid.md derives it). */
double climb_trap_tol(double u, double a, double b, size_t n, double depth);

/* The value the last run of a case left (in the case's type, widened): for the tests' table of errors. 0 or -1. */
int climb_trap_result(climb_case *c, double *value);

#ifdef __cplusplus
}
#endif

#endif
