/* CPU tests of SGEMM's reference row (alpha, beta, leading dimensions, transposed operands), its tolerance (it
 * catches one lost product), the workload's table, and the plans (which tiles split along k, into how many chunks,
 * with how much workspace) over the bench's shapes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "workloads/sgemm/sgemm.h"
#include "testing.h"

int main(void)
{
    /* A 2 x 3 (lda 4), B 3 x 2 (ldb 3), C0 row: [1 2; 3 4; 5 6] etc. */
    const float a[8] = {1, 2, 3, -7, 4, 5, 6, -7}, b[9] = {1, 0, -7, 0, 1, -7, 1, 1, -7}, c0[2] = {10, 20};
    double out[2], mag[2];
    climb_sgemm_ref_row(a, 4, 0, b, 3, 0, c0, 2, 3, 2.0f, 0.5f, 1, out, mag);
    /* row 1 of A B = [4 + 6, 5 + 6] = [10, 11]; 2 x that + 0.5 x [10, 20] = [25, 32] */
    EXPECT(out[0] == 25 && out[1] == 32);
    EXPECT(mag[0] == 2 * 10 + 5 && mag[1] == 2 * 11 + 10);
    climb_sgemm_ref_row(a, 4, 0, b, 3, 0, c0, 2, 3, 1.0f, 0.0f, 0, out, mag); /* beta 0: C0 not used */
    EXPECT(out[0] == 1 + 3 && out[1] == 2 + 3);
    climb_sgemm_ref_row(a, 4, 0, b, 3, 0, c0, 2, 0, 1.0f, 0.0f, 0, out, mag); /* k = 0: zeros */
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

    /* Transposed operands read by the reference: A^T stored 3 x 2 (lda 2), B^T stored 2 x 3 (ldb 3) */
    const float at[6] = {1, 4, 2, 5, 3, 6}, bt[6] = {1, 0, 1, 0, 1, 1};
    const float an[6] = {1, 2, 3, 4, 5, 6}, bn[6] = {1, 0, 0, 1, 1, 1};
    double o2[2], m2[2];
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            climb_sgemm_ref_row(ta ? at : an, ta ? 2 : 3, ta, tb ? bt : bn, tb ? 3 : 2, tb, c0, 2, 3, 1.0f, 0.0f, 1,
                                o2, m2);
            /* row 1 of [1 2 3; 4 5 6] [1 0; 0 1; 1 1] = [4 + 6, 5 + 6] */
            EXPECT_MSG(o2[0] == 10 && o2[1] == 11, "ta %d tb %d: %g %g", ta, tb, o2[0], o2[1]);
        }

    /* Plans on 132 SMs with the built-in 128 x 128 x 16 tiles, 8 x 16 a thread (2 blocks an SM: a wave of 264) */
    int v[CLIMB_MAX_TUNABLES];
    climb_tuning_key key = {CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_F32, NULL};
    w->tuning->defaults(NULL, &key, v);
    EXPECT(v[0] == 128 && v[1] == 128 && v[2] == 16 && v[3] == 16 && v[4] == 8);
    static const size_t shapes[][3] = {{512, 512, 512},     {1024, 1024, 1024},  {4096, 4096, 4096},
                                       {8192, 8192, 8192},  {4097, 4097, 4097},  {1000, 3000, 500},
                                       {16384, 16384, 64},  {64, 64, 65536},     {6144, 3072, 1536},
                                       {512, 512, 32768},   {16384, 128, 16384}, {128, 16384, 16384},
                                       {300, 300, 100},     {2176, 2176, 1024}};
    climb_sgemm_plan_info pi[sizeof shapes / sizeof shapes[0]];
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        climb_sgemm_plan_info *p = &pi[i];
        EXPECT(climb_sgemm_plan_describe(v, 0, 0, m, n, k, 132, p) == 0);
        printf("%zux%zux%zu: %dx%d tiles %zu, %zu whole, %zu split %d ways (k %d each), workspace %zu B\n", m, n, k,
               p->bm, p->bn, p->tiles, p->dp_tiles, p->sk_tiles, p->splits, p->kchunk, p->ws_bytes);
        /* every plan covers every tile once, whole or in splits that cover k, with the workspace they need */
        EXPECT(p->tiles == ((m + p->bm - 1) / p->bm) * ((n + p->bn - 1) / p->bn));
        EXPECT(p->dp_tiles + p->sk_tiles == p->tiles);
        EXPECT(p->sk_tiles ? p->splits > 1 && (size_t)p->kchunk * (p->splits - 1) < k &&
                                 (size_t)p->kchunk * p->splits >= k && p->kchunk % 16 == 0
                           : p->splits == 1);
        EXPECT(p->ws_bytes == p->sk_tiles * p->splits * (size_t)p->bm * p->bn * 4);
        EXPECT(climb_sgemm_workspace(v, 0, 0, m, n, k, 132) == p->ws_bytes);
        /* a split tile gets at least 64 of k a split; the whole tiles are full waves of 264 (or every tile) */
        EXPECT(!p->sk_tiles || p->kchunk >= 64);
        EXPECT(!p->sk_tiles || p->dp_tiles % (p->bm == 128 ? 264 : 132 * 8) == 0);
    }
    /* full waves do not split: 4096^3 (1024 tiles, 3.9 waves), 8192^3, and k = 64 (too short) */
    EXPECT(pi[2].sk_tiles == 0 && pi[2].bm == 128 && pi[3].sk_tiles == 0 && pi[6].sk_tiles == 0);
    /* 4097^3: 1089 tiles = 4 waves + 33: the 33 split, the rest whole */
    EXPECT(pi[4].bm == 128 && pi[4].dp_tiles == 1056 && pi[4].sk_tiles == 33 && pi[4].splits >= 4);
    /* 1000 x 3000 x 500: k too short to split; 192 large tiles (two blocks on 60 SMs, one on the rest) against 752
     * small ones, six 2-warp blocks an SM, past the 8 warps such blocks need: the small ones, whole */
    EXPECT(pi[5].bm == 64 && pi[5].sk_tiles == 0);
    /* 512^3: 64 small tiles split 8 ways (64 of k each): 512 blocks, four 2-warp blocks an SM, where 16 large tiles
     * split as finely make 128 blocks of four times the work each, one an SM: the small ones */
    EXPECT(pi[0].bm == 64 && pi[0].sk_tiles == 64 && pi[0].splits == 8);
    /* tall, wide and long k: few tiles, split along k, the large tile kept */
    EXPECT(pi[10].bm == 128 && pi[10].dp_tiles == 0 && pi[10].splits >= 2);
    EXPECT(pi[11].bm == 128 && pi[11].dp_tiles == 0 && pi[11].splits >= 2);
    EXPECT(pi[9].dp_tiles == 0 && pi[9].splits >= 8);
    /* one small output tile and a long k: hundreds of splits, capped at 512 (SGEMM_MAX_SPLITS) */
    EXPECT(pi[7].bm == 64 && pi[7].tiles == 1 && pi[7].splits == 512);
    EXPECT(pi[12].sk_tiles == 0); /* k too short to split */
    /* the built-in tiles per form: A B^T (both operands transposed into shared memory) takes 8 x 8 a thread; the
     * form keys the tuning, as the C API's key gives it */
    climb_opt_value ov[4];
    memset(ov, 0, sizeof ov);
    const char *const fnames[] = {"nn", "tn", "nt", "tt"};
    for (int f = 0; f < 4; f++) {
        ov[3].text = (char *)fnames[f];
        ov[3].choice = f;
        climb_tuning_key fk = {CLIMB_SHAPE3(4096, 4096, 4096), CLIMB_F32, ov};
        int fv[CLIMB_MAX_TUNABLES];
        w->tuning->defaults(NULL, &fk, fv);
        EXPECT(fv[0] == 128 && fv[1] == 128 && fv[2] == 16 && fv[3] == (f == 2 ? 8 : 16) && fv[4] == (f == 2 ? 16 : 8));
        char cls[64];
        climb_tuning_class(w, &fk, NULL, cls, sizeof cls);
        char want[64];
        snprintf(want, sizeof want, "form=%s", fnames[f]);
        EXPECT_MSG(strcmp(cls, want) == 0, "%s", cls);
        climb_sgemm_plan_info q;
        EXPECT(climb_sgemm_plan_describe(NULL, f & 1, f >> 1, 4096, 4096, 4096, 132, &q) == 0 && q.bm == 128);
    }
    /* A B^T's 8 x 8 tile needs 16 warps an SM to reach its rate: one 8-warp block an SM is half of it, so a tall
     * product splits there too (and 4097^3's fifth wave) */
    {
        climb_sgemm_plan_info q;
        EXPECT(climb_sgemm_plan_describe(NULL, 0, 1, 16384, 128, 16384, 132, &q) == 0);
        printf("A B^T 16384x128x16384: %zu split %d ways\n", q.sk_tiles, q.splits);
        EXPECT(q.bm == 128 && q.dp_tiles == 0 && q.splits >= 2);
        EXPECT(climb_sgemm_plan_describe(NULL, 0, 1, 4097, 4097, 4097, 132, &q) == 0);
        EXPECT(q.dp_tiles == 1056 && q.sk_tiles == 33);
    }
    /* every form plans alike (the same tiles), and every candidate tile shape has an instance in each */
    for (int f = 1; f < 4; f++) {
        climb_sgemm_plan_info q;
        EXPECT(climb_sgemm_plan_describe(v, f & 1, f >> 1, 4097, 4097, 4097, 132, &q) == 0);
        EXPECT(q.bm == pi[4].bm && q.sk_tiles == pi[4].sk_tiles && q.splits == pi[4].splits);
    }
    for (long i = 0; i < climb_tuning_count(w->tuning); i++) {
        climb_tuning_values(w->tuning, i, v);
        for (int f = 0; f < 4; f++) {
            climb_sgemm_plan_info q;
            EXPECT(climb_sgemm_plan_describe(v, f & 1, f >> 1, 4096, 4096, 4096, 132, &q) == 0);
            EXPECT(q.bm == v[0] && q.bn == v[1]);
        }
    }
    return test_finish("test_cpu_sgemm");
}
