/* CPU tests of cutoff Coulomb summation's reference and geometry: a hand-worked smoothed potential, the exclusion
 * (a point zeroed, an atom on the boundary), the cutoff boundary, the cell-list reference against Parboil's
 * brute-force sum over random atoms (some far outside), the bins (margin, dropped atoms, too many bins refused), and
 * the workload's table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "io/parboil.h"
#include "workloads/cutoff/cutoff.h"
#include "testing.h"

static void test_hand_worked(void)
{
    climb_cutoff_lattice l = {4, 3, 2, 1.0f, {0, 0, 0}, 10.0f, 0.5f};
    /* atom 1 at (3, 4, 0), q 2: r = 5, s = 1 - 25 / 100; atom 2 at (0, 0, 20): beyond the cutoff */
    const float atoms[8] = {3, 4, 0, 2, 0, 0, 20, -1};
    climb_cutoff_cells cc;
    EXPECT(climb_cutoff_cells_build(&cc, &l, atoms, 2) == 0);
    climb_cutoff_ref r;
    climb_cutoff_ref_at(&cc, &l, 0, 0, 0, &r);
    EXPECT(fabs(r.v - 2.0 / 5 * 0.75 * 0.75) < 1e-15 && !r.zero && !r.maybe_zero && r.within == 1);
    EXPECT(r.tol > 0 && r.tol < 1e-6);
    EXPECT(climb_cutoff_ref_ok(&r, (float)r.v) && !climb_cutoff_ref_ok(&r, (float)(r.v * 1.001)) &&
           !climb_cutoff_ref_ok(&r, 0.0f));
    climb_cutoff_cells_free(&cc);
    /* a charged atom 0.3 Å from point (1, 0, 0) (exclusion 0.5): that point is exactly 0 */
    const float near[8] = {1.3f, 0, 0, 1, 3, 4, 0, 2};
    EXPECT(climb_cutoff_cells_build(&cc, &l, near, 2) == 0);
    climb_cutoff_ref_at(&cc, &l, 1, 0, 0, &r);
    EXPECT(r.zero && climb_cutoff_ref_ok(&r, 0.0f) && !climb_cutoff_ref_ok(&r, 1e-30f));
    /* an atom on the exclusion boundary of point (2, 0, 0)... 0.7 Å away: no; of (1, 0, 0): 0.3; use (1.5, 0, 0) */
    climb_cutoff_cells_free(&cc);
    const float edge[4] = {1.5f, 0, 0, 1};
    EXPECT(climb_cutoff_cells_build(&cc, &l, edge, 1) == 0);
    climb_cutoff_ref_at(&cc, &l, 1, 0, 0, &r); /* 0.5 Å: on the boundary, either answer */
    EXPECT(!r.zero && r.maybe_zero && climb_cutoff_ref_ok(&r, 0.0f) && climb_cutoff_ref_ok(&r, (float)r.v));
    climb_cutoff_cells_free(&cc);
    /* an uncharged atom on a point excludes nothing and adds nothing */
    const float zero_q[4] = {1, 1, 1, 0};
    EXPECT(climb_cutoff_cells_build(&cc, &l, zero_q, 1) == 0);
    climb_cutoff_ref_at(&cc, &l, 1, 1, 1, &r);
    EXPECT(r.v == 0 && !r.zero && r.within == 0);
    climb_cutoff_cells_free(&cc);
    /* no atoms at all */
    EXPECT(climb_cutoff_cells_build(&cc, &l, atoms, 0) == 0);
    climb_cutoff_ref_at(&cc, &l, 3, 2, 1, &r);
    EXPECT(r.v == 0 && r.tol == 0 && !r.zero);
    climb_cutoff_cells_free(&cc);
}

/* The cells give Parboil's brute-force sum at every point, atoms far outside the lattice included. */
static void test_against_parboil(void)
{
    climb_rng g;
    climb_rng_seed(&g, climb_fresh_seed());
    const size_t n = 3000;
    float *a = malloc(n * 16);
    for (size_t i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++)
            a[4 * i + d] = climb_rng_float(&g, -30, 40);
        a[4 * i + 3] = i % 17 == 0 ? 0.0f : climb_rng_float(&g, -1, 1);
    }
    climb_cutoff_lattice l = {9, 7, 5, 0.7f, {1.0f, -2.0f, 3.0f}, 6.0f, 1.0f};
    climb_cutoff_cells cc;
    EXPECT(climb_cutoff_cells_build(&cc, &l, a, n) == 0);
    size_t bad = 0, zeros = 0;
    for (size_t k = 0; k < l.nz; k++)
        for (size_t j = 0; j < l.ny; j++)
            for (size_t i = 0; i < l.nx; i++) {
                const double p[3] = {l.origin[0] + (double)l.h * i, l.origin[1] + (double)l.h * j,
                                     l.origin[2] + (double)l.h * k};
                const double want = climb_cutcp_potential_at(a, n, p, l.cutoff, l.exclusion);
                climb_cutoff_ref r;
                climb_cutoff_ref_at(&cc, &l, i, j, k, &r);
                zeros += r.zero;
                bad += !(r.zero ? want == 0 : r.maybe_zero || fabs(r.v - want) <= r.tol);
            }
    EXPECT_MSG(bad == 0, "%zu points differ from Parboil's sum", bad);
    printf("cells against Parboil's sum: %zu points, %zu zeroed by the exclusion\n", l.nx * l.ny * l.nz, zeros);
    climb_cutoff_cells_free(&cc);
    free(a);
}

static void test_bins(void)
{
    climb_cutoff_lattice l = {17, 8, 1, 0.5f, {0, 0, 0}, 12.0f, 1.0f};
    climb_cutoff_bins b;
    char err[300];
    EXPECT(climb_cutoff_bins_of(&l, &b, err, sizeof err) == 0);
    /* bins of 4 Å, 3 beyond each side: 3 + 6 along x, 1 + 6 along y and z */
    EXPECT(b.side == 4.0f && b.margin == 3 && b.bx == 9 && b.by == 7 && b.bz == 7 && b.count == 9 * 7 * 7);
    const float in[4] = {0.1f, 0.1f, 0.1f, 1}, far[4] = {-12.5f, 0, 0, 1}, edge[4] = {-11.9f, 0, 0, 1},
                uncharged[4] = {1, 1, 0, 0};
    EXPECT(climb_cutoff_bin_of(&l, &b, in) == (3 * 7 + 3) * 9 + 3);
    EXPECT(climb_cutoff_bin_of(&l, &b, far) == -1 && climb_cutoff_bin_of(&l, &b, edge) == (3 * 7 + 3) * 9 + 0);
    EXPECT(climb_cutoff_bin_of(&l, &b, uncharged) == -1);
    const float nan_atom[4] = {NAN, 0, 0, 1};
    EXPECT(climb_cutoff_bin_of(&l, &b, nan_atom) == -1);
    climb_cutoff_lattice huge = {100000, 100000, 1000, 0.5f, {0, 0, 0}, 12.0f, 1.0f};
    EXPECT(climb_cutoff_bins_of(&huge, &b, err, sizeof err) == -1 && strstr(err, "2^28"));
    EXPECT(climb_cutoff_best_workspace(&huge, 10) == 0 && climb_cutoff_best_workspace(&l, 10) > 0);
}

int main(void)
{
    test_hand_worked();
    test_against_parboil();
    test_bins();
    const climb_workload *wl = &climb_cutoff_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(wl, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(wl) >= 0 && wl->save != NULL && wl->rung_counts && wl->rung_note &&
           wl->extra_ceiling == CLIMB_CEIL_SFU);
    return test_finish("test_cpu_cutoff");
}
