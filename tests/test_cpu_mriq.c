/* CPU tests of MRI-Q's reference: hand-worked phases (a quarter turn, a half turn, two samples), the tolerance's
 * terms (it grows with the phase's magnitude, and the MUFU's is wider), no samples, and the workload's table. */
#include <math.h>
#include <string.h>

#include "workloads/mriq.h"
#include "testing.h"

int main(void)
{
    /* sample 1 at k = (1, 0, 0), phi = 3 + 4i (|phi|^2 25); sample 2 at k = (0, 2, 0), phi = 1 */
    const float kx[2] = {1, 0}, ky[2] = {0, 2}, kz[2] = {0, 0}, pr[2] = {3, 1}, pi[2] = {4, 0};
    climb_mriq_kspace one = {1, kx, ky, kz, pr, pi}, two = {2, kx, ky, kz, pr, pi};
    double qr, qi, tol, mag;
    /* x = 0.25: a quarter turn, Q = 25 i */
    climb_mriq_ref_at(&one, 0.25f, 0.7f, -3.0f, 0, &qr, &qi, &tol, &mag);
    EXPECT(fabs(qr) < 1e-12 && fabs(qi - 25) < 1e-12 && mag == 25);
    EXPECT(tol > 0 && tol < 25 * 1e-5);
    /* y = 0.25 for sample 2: 2 k y = half a turn: -1; x = 0.5 for sample 1: half a turn: -25 */
    climb_mriq_ref_at(&two, 0.5f, 0.25f, 0.0f, 0, &qr, &qi, &tol, &mag);
    EXPECT(fabs(qr + 26) < 1e-12 && fabs(qi) < 1e-12 && mag == 26);
    /* the tolerance grows with the phase, and the MUFU's is wider than sincosf's */
    double tol_far, tol_sfu;
    climb_mriq_ref_at(&two, 50.5f, 0.25f, 0.0f, 0, &qr, &qi, &tol_far, NULL);
    climb_mriq_ref_at(&two, 0.5f, 0.25f, 0.0f, 1, &qr, &qi, &tol_sfu, NULL);
    EXPECT(tol_far > 10 * tol && tol_sfu > tol);
    EXPECT(fabs(qr + 26) < 1e-12);
    /* no samples: 0 within 0 */
    climb_mriq_kspace none = {0, kx, ky, kz, pr, pi};
    climb_mriq_ref_at(&none, 1, 2, 3, 1, &qr, &qi, &tol, &mag);
    EXPECT(qr == 0 && qi == 0 && tol == 0 && mag == 0);

    const climb_workload *wl = &climb_mriq_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(wl, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(wl) >= 0 && wl->rung_counts && wl->rung_note && wl->extra_ceiling == CLIMB_CEIL_SFU);
    return test_finish("test_cpu_mriq");
}
