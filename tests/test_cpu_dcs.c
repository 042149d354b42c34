/* CPU tests of direct Coulomb summation's reference: hand-worked potentials (two atoms, a 3-4-5 triangle), the
 * exclusion (an atom on a point, one just inside, one on the boundary: counted in the tolerance), the tolerance's
 * terms, and the workload's table. */
#include <math.h>
#include <string.h>

#include "workloads/dcs.h"
#include "testing.h"

int main(void)
{
    climb_dcs_lattice l = {4, 3, 2, 1.0f, {0, 0, 0}, 0.5f};
    /* atom 1 at (3, 4, 0) with q 2: 5 Å from point (0, 0, 0); atom 2 at (0, 0, 1) with q -1: 1 Å from it */
    const float atoms[8] = {3, 4, 0, 2, 0, 0, 1, -1};
    double tol;
    const double v = climb_dcs_ref_at(&l, atoms, 2, 0, 0, 0, &tol);
    EXPECT(fabs(v - (2.0 / 5 - 1.0)) < 1e-15);
    EXPECT(tol > 0 && tol < 1e-5);
    /* point (0, 0, 1) is on atom 2: it adds nothing; atom 1 is sqrt(9 + 16 + 1) away */
    EXPECT(fabs(climb_dcs_ref_at(&l, atoms, 2, 0, 0, 1, NULL) - 2.0 / sqrt(26.0)) < 1e-15);
    /* exclusion 1 Å: atom 2 at exactly 1 Å from (0, 0, 0) may be counted or not: its term is in the tolerance */
    l.exclusion = 1.0f;
    const double w = climb_dcs_ref_at(&l, atoms, 2, 0, 0, 0, &tol);
    EXPECT(fabs(w - 2.0 / 5) < 1e-15 && tol >= 1.0);
    /* an atom well inside the exclusion adds nothing and nothing to the tolerance beyond rounding */
    l.exclusion = 2.0f;
    EXPECT(fabs(climb_dcs_ref_at(&l, atoms, 2, 0, 0, 0, &tol) - 2.0 / 5) < 1e-15 && tol < 1e-5);
    /* no atoms: 0, within 0 */
    EXPECT(climb_dcs_ref_at(&l, atoms, 0, 1, 1, 1, &tol) == 0 && tol == 0);
    /* the origin and spacing place the points */
    climb_dcs_lattice m = {2, 2, 2, 0.5f, {-1, 2, 3}, 0.1f};
    const float one[4] = {-0.5f, 2.5f, 3.0f, 4.0f}; /* point (1, 1, 0) */
    EXPECT(climb_dcs_ref_at(&m, one, 1, 1, 1, 0, NULL) == 0);
    EXPECT(fabs(climb_dcs_ref_at(&m, one, 1, 0, 0, 0, NULL) - 4.0 / sqrt(0.5)) < 1e-12);

    const climb_workload *wl = &climb_dcs_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(wl, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(wl) >= 0 && wl->save != NULL && wl->extra_ceiling == CLIMB_CEIL_SFU);

    /* the points a thread fitted to a row's width, the tuned value or fewer: computed points times (7 + 4 / P), the
     * tuned value on a tie */
    EXPECT(climb_dcs_fit_points(165, 4) == 2); /* 192 x 9 = 1728 against 256 x 8 = 2048 */
    EXPECT(climb_dcs_fit_points(165, 8) == 2); /* against 256 x 7.5 = 1920 too */
    EXPECT(climb_dcs_fit_points(97, 4) == 4);  /* 128 x 8 = 1024 against 128 x 9 */
    EXPECT(climb_dcs_fit_points(114, 4) == 4 && climb_dcs_fit_points(100, 2) == 2); /* never more than tuned */
    EXPECT(climb_dcs_fit_points(256, 4) == 4 && climb_dcs_fit_points(256, 8) == 8); /* whole rows: as tuned */
    EXPECT(climb_dcs_fit_points(64, 4) == 2); /* 64 x 9 = 576 against 128 x 8 */
    EXPECT(climb_dcs_fit_points(1, 4) == 2 && climb_dcs_fit_points(0, 4) == 4); /* nothing computed: a tie */
    EXPECT(climb_find_rung(wl, "fitted_points") >= 0);

    /* spread_rows's atom slices: enough to hold 2048 threads an SM, then more only where the busiest SM's share of
     * the work (cdiv(blocks s, sms) cdiv(tiles, s)) falls by 2% */
    EXPECT(climb_dcs_slices(4096, 63, 132, 64) == 3);   /* 2 fill the GPU; 3: 94 x 21 = 1974 against 63 x 32 = 2016 */
    EXPECT(climb_dcs_slices(3470, 26, 132, 64) == 2);   /* 53 x 13 = 689; 3 give 79 x 9 = 711 */
    EXPECT(climb_dcs_slices(100000, 100, 132, 128) == 1); /* 4: 3031 x 25 = 75775, not 2% below 758 x 100 */
    EXPECT(climb_dcs_slices(1, 1000, 132, 64) == 1000); /* a block: every tile its own slice */
    EXPECT(climb_dcs_slices(1, 100000, 132, 64) == 4224); /* 132 x 2048 threads in blocks of 64 */
    EXPECT(climb_dcs_slices(1, 200000, 1, 64) == 32 && climb_dcs_slices(1, 1u << 20, 132, 64) == 4224);
    EXPECT(climb_dcs_slices(5, 1, 132, 64) == 1 && climb_dcs_slices(0, 5, 132, 64) == 1);
    EXPECT(climb_dcs_slices(7, 70000, 10000, 1) == 65535); /* at most 65535 (the grid's y) */
    EXPECT(climb_find_rung(wl, "spread_rows") == climb_best_rung(wl));
    return test_finish("test_cpu_dcs");
}
