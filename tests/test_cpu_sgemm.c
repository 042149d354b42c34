/* CPU tests of SGEMM's reference row (alpha, beta, leading dimensions), its tolerance (it catches one lost
 * product), the workload's table, and the split-K plans (how much workspace each shape takes). */
#include <math.h>
#include <string.h>

#include "core/rng.h"
#include "workloads/sgemm.h"
#include "testing.h"

int main(void)
{
    /* A 2 x 3 (lda 4), B 3 x 2 (ldb 3), C0 row: [1 2; 3 4; 5 6] etc. */
    const float a[8] = {1, 2, 3, -7, 4, 5, 6, -7}, b[9] = {1, 0, -7, 0, 1, -7, 1, 1, -7}, c0[2] = {10, 20};
    double out[2], mag[2];
    climb_sgemm_ref_row(a, 4, b, 3, c0, 2, 3, 2.0f, 0.5f, 1, out, mag);
    /* row 1 of A B = [4 + 6, 5 + 6] = [10, 11]; 2 x that + 0.5 x [10, 20] = [25, 32] */
    EXPECT(out[0] == 25 && out[1] == 32);
    EXPECT(mag[0] == 2 * 10 + 5 && mag[1] == 2 * 11 + 10);
    climb_sgemm_ref_row(a, 4, b, 3, c0, 2, 3, 1.0f, 0.0f, 0, out, mag); /* beta 0: C0 not used */
    EXPECT(out[0] == 1 + 3 && out[1] == 2 + 3);
    climb_sgemm_ref_row(a, 4, b, 3, c0, 2, 0, 1.0f, 0.0f, 0, out, mag); /* k = 0: zeros */
    EXPECT(out[0] == 0 && out[1] == 0 && mag[0] == 0);
    /* The tolerance catches a typical product lost from a 300-long dot product of [-1, 1) values (the longest k of
     * the check shapes, where indexing errors are hunted). It is a worst-case bound, so at k = 4096 it is about 0.25
     * on these inputs and would let a typical product go: docs/sgemm.md says so. */
    climb_rng r;
    climb_rng_seed(&r, 8);
    double s = 0, m = 0, typical = 0;
    for (int p = 0; p < 300; p++) {
        const double t = climb_rng_double(&r, -1, 1) * climb_rng_double(&r, -1, 1);
        s += t;
        m += fabs(t);
        if (p == 100)
            typical = fabs(t);
    }
    const double tol = climb_sgemm_tolerance(300, m);
    EXPECT_MSG(typical > tol, "a product of %g is within the tolerance %g", typical, tol);
    EXPECT(fabs((double)(float)s - s) <= tol); /* f32 rounding of the result is within it */
    const climb_workload *w = &climb_sgemm_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);

    /* Split-K plans (132 SMs, the built-in 128 x 128 x 16 tiles, 8 x 16 a thread): full outputs do not split */
    int v[CLIMB_MAX_TUNABLES];
    climb_tuning_key key = {CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_F32, NULL};
    w->tuning->defaults(NULL, &key, v);
    EXPECT(v[0] == 128 && v[1] == 128 && v[2] == 16 && v[3] == 16 && v[4] == 8);
    EXPECT(climb_sgemm_workspace(v, 0, 0, 4096, 4096, 4096, 132) == 0);
    EXPECT(climb_sgemm_workspace(v, 0, 0, 16384, 16384, 64, 132) == 0);
    EXPECT(climb_sgemm_workspace(v, 0, 0, 300, 300, 100, 132) == 0); /* k too short to split */
    /* 64 x 64: one 64 x 64 tile; a wave is 132 x 8 of them; k / 128 = 512 splits of 128 */
    EXPECT(climb_sgemm_workspace(v, 0, 0, 64, 64, 65536, 132) == (size_t)512 * 64 * 64 * 4);
    /* 1024^3: 64 big tiles fill less than 3/4 of a wave (264), so 256 tiles of 64 x 64; 1056 / 256 = 4 splits */
    EXPECT(climb_sgemm_workspace(v, 0, 0, 1024, 1024, 1024, 132) == (size_t)4 * 1024 * 1024 * 4);
    /* transposed forms: 128 x 128 tiles, 2 blocks an SM: one tile, 264 splits asked, chunks of 256 -> 256 */
    EXPECT(climb_sgemm_workspace(v, 1, 0, 64, 64, 65536, 132) == (size_t)256 * 64 * 64 * 4);
    EXPECT(climb_sgemm_workspace(v, 1, 1, 4096, 4096, 4096, 132) == 0);
    /* every candidate tile shape has an instance (an unknown set falls back to 128 x 128 x 8) */
    for (long i = 0; i < climb_tuning_count(w->tuning); i++) {
        climb_tuning_values(w->tuning, i, v);
        EXPECT(climb_sgemm_workspace(v, 0, 0, 4096, 4096, 4096, 132) == 0);
    }
    return test_finish("test_cpu_sgemm");
}
