/* CPU: the trapezoidal rule's closed form against a long-double sum, the integral over Pacheco's interval (24),
 * and the rounding bound: it holds for a float sum in the worst order (one running sum) and catches a lost warp's
 * worth of trapezoids in double. */
#include <math.h>
#include <stdlib.h>

#include "workloads/trapezoid.h"
#include "testing.h"

int main(void)
{
    EXPECT(climb_trap_integral(-3, 3) == 24);
    EXPECT(fabs(climb_trap_integral(0, 1) - 4.0 / 3) < 1e-15);
    const size_t sizes[] = {1, 2, 3, 10, 1000, 100003};
    const double ab[][2] = {{-3, 3}, {0, 1}, {2, -5}, {-1000, 7}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t j = 0; j < sizeof ab / sizeof ab[0]; j++) {
            const double e = climb_trap_exact(ab[j][0], ab[j][1], sizes[k]);
            const double s = climb_trap_cpu(ab[j][0], ab[j][1], sizes[k]);
            EXPECT_MSG(fabs(e - s) <= 1e-12 * fabs(e), "n %zu [%g, %g]: %.17g vs %.17g", sizes[k], ab[j][0],
                       ab[j][1], e, s);
        }
    /* One trapezoid over [-3, 3]: 6 (10 + 10) / 2 = 60. */
    EXPECT(climb_trap_exact(-3, 3, 1) == 60);

    /* A float sum in one running total (height n) stays inside the bound for that height. */
    const size_t n = 1 << 20;
    const float a = -3, b = 3, h = (b - a) / (float)n;
    float s = ((a * a + 1) + (b * b + 1)) / 2;
    for (size_t i = 1; i < n; i++) {
        const float x = a + (float)i * h;
        s += x * x + 1;
    }
    const double got = (double)(s * h), u32 = 1.0 / 16777216.0, u64 = 1.0 / 9007199254740992.0;
    const double tol = climb_trap_tol(u32, a, b, n, (double)n);
    EXPECT_MSG(fabs(got - climb_trap_exact(a, b, n)) <= tol, "sequential f32: %.9g, tolerance %.3g", got, tol);
    printf("sequential f32 sum of 2^20 trapezoids: %.9g, error %.3g against 24, bound %.3g\n", got, got - 24, tol);
    /* In double, a lost warp of trapezoids (32 h f ~ 32 x 6 / 2^20 x 1..10) is far outside a tree's bound. */
    const double lost = 32 * (6.0 / n) * 1.0;
    EXPECT(lost > 1000 * climb_trap_tol(u64, -3, 3, n, 64 + n / 256));
    EXPECT(climb_trap_tol(u32, -3, 3, n, 1e12) >= 24); /* saturates rather than overflowing */
    return test_finish("test_cpu_trapezoid");
}
