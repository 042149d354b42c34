/* CPU tests of the tensor-core GEMM's host side: BF16 rounding (to nearest even, carries, NaN), TF32 rounding (to
 * nearest, ties away, as cvt.rna), the 3xTF32 split (exact first remainder, what is lost within 2^-22), the inputs
 * (BF16 values exact, the spread's binades), each precision's bound against emulated dot products (the bound
 * holds, and is not so loose that a lost product passes at the check shapes' k), and the workload's table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "core/options.h"
#include "workloads/gemm/gemm.h"
#include "testing.h"

static float f_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}
static uint32_t u_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* A dot product of k terms as the tensor core computes it in precision p, emulated: the inputs as the multiplier
 * sees them, each product exact in double, summed in FP32 with truncation toward zero (the worst the bound
 * allows per add). */
static float trunc_add(float s, double t)
{
    const double exact = (double)s + t;
    float r = (float)exact;
    if (fabs((double)r) > fabs(exact)) /* rounded away from zero: step one ulp back toward it */
        r = nextafterf(r, 0.0f);
    return r;
}
static float emulated_dot(climb_gemm_precision p, const float *a, const float *b, int k)
{
    float s = 0;
    for (int i = 0; i < k; i++) {
        if (p == CLIMB_GEMM_PREC_BF16) {
            s = trunc_add(s, (double)a[i] * b[i]);
        } else if (p == CLIMB_GEMM_PREC_TF32) {
            s = trunc_add(s, (double)climb_tf32_round(a[i]) * climb_tf32_round(b[i]));
        } else {
            const float ab = climb_tf32_round(a[i]), as = climb_tf32_round(a[i] - ab);
            const float bb = climb_tf32_round(b[i]), bs = climb_tf32_round(b[i] - bb);
            s = trunc_add(s, (double)as * bb);
            s = trunc_add(s, (double)ab * bs);
            s = trunc_add(s, (double)ab * bb);
        }
    }
    return s;
}

/* The overlapped transpose's order: a wave of the multiplying blocks about four tile columns wide; the panels
 * numbered band by band, stage by stage across a band, each (column, stage) once. */
static void test_trb_order(void)
{
    static const struct { size_t m, n; int sms, group, band; } o[] = {
        {4096, 4096, 132, 32, 4},  /* 512 tiles: 128 multiplying blocks, 32 rows x 4 columns a wave */
        {8192, 8192, 132, 32, 4},  {6144, 3072, 132, 32, 4},
        {1000, 3000, 132, 8, 12},  /* 8 x 12 = 96 tiles: one wave over every column */
        {100, 100, 132, 1, 1},     {4096, 4096, 114, 28, 4}, /* 110 blocks: 28 rows, the wave 3.9 columns */
        {300, 20000, 132, 3, 43}}; /* 3 x 79 tiles: every row, a wave of 128 blocks 43 columns wide */
    for (size_t i = 0; i < sizeof o / sizeof o[0]; i++) {
        int g = 0, b = 0;
        climb_gemm_trb_order(o[i].m, o[i].n, o[i].sms, &g, &b);
        EXPECT_MSG(g == o[i].group && b == o[i].band, "%zu x %zu on %d SMs: group %d band %d", o[i].m, o[i].n,
                   o[i].sms, g, b);
    }
    static const int shapes[][3] = {{1, 1, 1}, {16, 128, 4}, {12, 10, 4}, {13, 7, 5}, {3, 2, 1}, {5, 9, 12}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int tn = shapes[s][0], kt = shapes[s][1], band = shapes[s][2];
        static unsigned char seen[16 * 128];
        memset(seen, 0, sizeof seen);
        int bad = 0, prev_c = -1, prev_kb = -1;
        for (int p = 0; p < tn * kt; p++) {
            int c = -1, kb = -1;
            climb_gemm_trb_panel(p, tn, kt, band, &c, &kb);
            if (c < 0 || c >= tn || kb < 0 || kb >= kt || seen[c * kt + kb]++)
                bad++;
            else if (p > 0 && (c / band < prev_c / band ||                             /* bands in order */
                               (c / band == prev_c / band && (kb < prev_kb ||        /* stages in turn */
                                                              (kb == prev_kb && c <= prev_c)))))
                bad++;
            prev_c = c;
            prev_kb = kb;
        }
        EXPECT_MSG(bad == 0, "panels of %d x %d, bands of %d: %d out of order or repeated", tn, kt, band, bad);
    }
    /* the transposing blocks' data path: every value of B^T (rounded to TF32) and nothing past its rows or the k
     * of a row rounded up to 4; the padding of a partial chunk (n mod 4) and of a partial stage (k mod 32) zeros */
    static const int dims[][2] = {{301, 2301}, {32, 256}, {1, 1}, {70, 515}, {33, 4}};
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
        const int k = dims[d][0], n = dims[d][1];
        const size_t ldb = ((size_t)n + 3) / 4 * 4 + 4, ldbt = ((size_t)k + 3) / 4 * 4;
        float *b = malloc((size_t)k * ldb * sizeof *b), *bt = malloc((size_t)n * ldbt * sizeof *bt);
        EXPECT(b && bt);
        if (!b || !bt) {
            free(b);
            free(bt);
            continue;
        }
        climb_rng r;
        climb_rng_seed(&r, 77 + d);
        climb_rng_fill_f32(&r, b, (size_t)k * ldb, -1.0f, 1.0f);
        for (size_t i = 0; i < (size_t)n * ldbt; i++)
            bt[i] = NAN;
        int conflicts = -1;
        EXPECT(climb_gemm_trb_emulate(b, ldb, k, n, bt, ldbt, &conflicts) == 0);
        long wrong = 0, pad = 0;
        for (int nn = 0; nn < n; nn++)
            for (size_t kk = 0; kk < ldbt; kk++) {
                const float v = bt[(size_t)nn * ldbt + kk];
                if (kk < (size_t)k)
                    wrong += !(v == climb_tf32_round(b[kk * ldb + (size_t)nn]));
                else
                    pad += !(v == 0.0f);
            }
        EXPECT_MSG(wrong == 0 && pad == 0 && conflicts == 0, "k %d n %d: %ld values wrong, %ld padding values not "
                   "zero, %d warp reads in conflict", k, n, wrong, pad, conflicts);
        free(b);
        free(bt);
    }
}

/* What the terms of a split buy (docs/gemm.md, "Two terms or three"): C = A B over 64 x 64 x 2048 inputs, uniform
 * and spread, each product of TF32 values exact in FP64 and summed there, so that only the terms kept differ: TF32
 * (big big), the two 2-term forms (big big plus one cross product) and 3xTF32 (both cross products). The largest
 * error over |A| |B|: a 2-term form keeps the other operand's rounding, so it stays within a small factor of
 * TF32's (here above a quarter of it), where 3xTF32 falls below a thousandth of it. */
static void test_terms(void)
{
    enum { M = 64, N = 64, K = 2048 };
    static float a[M * K], b[K * N];
    static float ab[M * K], as[M * K], bb[K * N], bs[K * N];
    for (int spread = 0; spread < 2; spread++) {
        climb_rng r;
        climb_rng_seed(&r, 300 + (uint64_t)spread);
        climb_gemm_fill(&r, CLIMB_GEMM_PREC_3XTF32, spread, a, NULL, (size_t)M * K);
        climb_gemm_fill(&r, CLIMB_GEMM_PREC_3XTF32, spread, b, NULL, (size_t)K * N);
        for (int i = 0; i < M * K; i++) {
            ab[i] = climb_tf32_round(a[i]);
            as[i] = climb_tf32_round(a[i] - ab[i]);
        }
        for (int i = 0; i < K * N; i++) {
            bb[i] = climb_tf32_round(b[i]);
            bs[i] = climb_tf32_round(b[i] - bb[i]);
        }
        double worst[4] = {0, 0, 0, 0}; /* tf32, big big + small big, big big + big small, 3xtf32 */
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double exact = 0, mag = 0, t[4] = {0, 0, 0, 0};
                for (int p = 0; p < K; p++) {
                    const size_t x = (size_t)i * K + (size_t)p, y = (size_t)p * N + (size_t)j;
                    const double bigbig = (double)ab[x] * bb[y], sb = (double)as[x] * bb[y], bsm = (double)ab[x] * bs[y];
                    exact += (double)a[x] * b[y];
                    mag += fabs((double)a[x] * b[y]);
                    t[0] += bigbig;
                    t[1] += bigbig + sb;
                    t[2] += bigbig + bsm;
                    t[3] += bigbig + sb + bsm;
                }
                for (int q = 0; q < 4; q++)
                    if (fabs(t[q] - exact) / mag > worst[q])
                        worst[q] = fabs(t[q] - exact) / mag;
            }
        printf("%s inputs, largest error over |A| |B|: tf32 %.3g, big big + small big %.3g, big big + big small "
               "%.3g, 3xtf32 %.3g\n", spread ? "spread" : "uniform", worst[0], worst[1], worst[2], worst[3]);
        EXPECT_MSG(worst[0] > 0 && worst[1] > 0.25 * worst[0] && worst[2] > 0.25 * worst[0] &&
                       worst[3] < 1e-3 * worst[0],
                   "%s: tf32 %.3g, 2-term %.3g and %.3g, 3xtf32 %.3g", spread ? "spread" : "uniform", worst[0],
                   worst[1], worst[2], worst[3]);
    }
}

int main(void)
{
    /* BF16: exact values stay, halfway cases go to even, a carry runs into the exponent, NaN stays NaN */
    EXPECT(climb_bf16_bits(1.0f) == 0x3f80 && climb_bf16_float(0x3f80) == 1.0f);
    EXPECT(climb_bf16_bits(f_of(0x3f808000u)) == 0x3f80);  /* 1 + 2^-8: halfway, to even (down) */
    EXPECT(climb_bf16_bits(f_of(0x3f818000u)) == 0x3f82);  /* 1 + 3 2^-8: halfway, to even (up) */
    EXPECT(climb_bf16_bits(f_of(0x3f808001u)) == 0x3f81);  /* just past halfway: up */
    EXPECT(climb_bf16_bits(f_of(0x3fffffffu)) == 0x4000);  /* 2 - 2^-23: carries into the exponent, 2 */
    EXPECT(climb_bf16_bits(-1.5f) == 0xbfc0);
    EXPECT(isnan(climb_bf16_float(climb_bf16_bits(f_of(0x7f800001u))))); /* a NaN whose payload is in the low bits */
    EXPECT(isinf(climb_bf16_float(climb_bf16_bits(INFINITY))));

    /* TF32: 10 fraction bits kept; ties away from zero; non-finite values pass */
    EXPECT(climb_tf32_round(1.0f) == 1.0f);
    EXPECT(u_of(climb_tf32_round(f_of(0x3f801000u))) == 0x3f802000u);  /* halfway: away from zero */
    EXPECT(u_of(climb_tf32_round(f_of(0xbf801000u))) == 0xbf802000u);  /* and for a negative value */
    EXPECT(u_of(climb_tf32_round(f_of(0x3f800fffu))) == 0x3f800000u);  /* below halfway: down */
    EXPECT(isinf(climb_tf32_round(INFINITY)) && isnan(climb_tf32_round(NAN)));

    /* The 3xTF32 split over many random values: x - big is exact in FP32, and what big + small misses is at most
     * 2^-22 |x| */
    climb_rng r;
    climb_rng_seed(&r, 56);
    double worst = 0;
    for (int i = 0; i < 200000; i++) {
        /* every bit random: sign, significand, an exponent within 2^-30 to 2^30 */
        const uint32_t bits = (uint32_t)climb_rng_next(&r) & 0x807fffffu;
        const float x = f_of(bits | (uint32_t)(127 + climb_rng_int(&r, -30, 30)) << 23);
        const float big = climb_tf32_round(x), rest = x - big, small = climb_tf32_round(rest);
        EXPECT((double)rest == (double)x - (double)big);
        EXPECT((u_of(big) & 0x1fffu) == 0 && (u_of(small) & 0x1fffu) == 0);
        if (x != 0) {
            const double lost = fabs((double)x - (double)big - (double)small) / fabs((double)x);
            worst = lost > worst ? lost : worst;
        }
    }
    EXPECT_MSG(worst <= 0x1p-22, "the split loses %g of a value", worst);
    EXPECT(worst > 0x1p-26); /* and it does lose something: the test sees rounding */

    /* Inputs: BF16 values are exactly their bits' values; the spread reaches many binades */
    float x[4096];
    uint16_t b16[4096];
    climb_gemm_fill(&r, CLIMB_GEMM_PREC_BF16, 1, x, b16, 4096);
    int lo = 0, hi = 0;
    for (int i = 0; i < 4096; i++) {
        EXPECT(x[i] == climb_bf16_float(b16[i]) && climb_bf16_bits(x[i]) == b16[i]);
        lo += x[i] != 0 && fabsf(x[i]) < 0x1p-10f;
        hi += fabsf(x[i]) > 0x1p9f;
    }
    EXPECT_MSG(lo > 50 && hi > 50, "spread: %d values below 2^-10, %d above 2^9", lo, hi);
    climb_gemm_fill(&r, CLIMB_GEMM_PREC_TF32, 0, x, NULL, 4096);
    for (int i = 0; i < 4096; i++)
        EXPECT(x[i] >= -1.0f && x[i] <= 1.0f);

    /* Each bound holds for emulated dot products (uniform and spread inputs, several k), and is tight enough
     * that one typical product lost at k = 300 fails it */
    for (int p = 0; p < 3; p++) {
        const climb_gemm_precision pr = (climb_gemm_precision)p;
        double seen = 0;
        for (int t = 0; t < 400; t++) {
            const int k = t % 4 == 0 ? 1 : t % 4 == 1 ? 17 : t % 4 == 2 ? 300 : 2000, spread = t % 2;
            static float a[2000], b[2000];
            climb_gemm_fill(&r, pr, spread, a, NULL, (size_t)k);
            climb_gemm_fill(&r, pr, spread, b, NULL, (size_t)k);
            double exact = 0, mag = 0;
            for (int i = 0; i < k; i++) {
                exact += (double)a[i] * b[i];
                mag += fabs((double)a[i] * b[i]);
            }
            const double err = fabs((double)emulated_dot(pr, a, b, k) - exact), bound = climb_gemm_bound(pr, k) * mag;
            EXPECT_MSG(err <= bound, "precision %d k %d: error %g over the bound %g", p, k, err, bound);
            seen = err / bound > seen ? err / bound : seen;
        }
        printf("precision %d: the emulated error reaches %.3g of the bound\n", p, seen);
        EXPECT(seen > 0);
    }
    {
        double mag = 0;
        for (int i = 0; i < 300; i++)
            mag += fabs(climb_rng_double(&r, -1, 1) * climb_rng_double(&r, -1, 1));
        const double typical = mag / 300; /* a product of the mean magnitude */
        for (int p = 0; p < 3; p++)
            EXPECT_MSG(typical > climb_gemm_bound((climb_gemm_precision)p, 300) * mag,
                       "precision %d: a product of %g is within the bound %g", p, typical,
                       climb_gemm_bound((climb_gemm_precision)p, 300) * mag);
    }
    EXPECT(climb_gemm_bound(CLIMB_GEMM_PREC_BF16, 100) < climb_gemm_bound(CLIMB_GEMM_PREC_3XTF32, 100) &&
           climb_gemm_bound(CLIMB_GEMM_PREC_3XTF32, 100) < climb_gemm_bound(CLIMB_GEMM_PREC_TF32, 100));

    const climb_workload *w = &climb_gemm_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);

    /* the wgmma kernels' workspace: B^T (n rows of k rounded up to 16 bytes, 256-byte pieces) unless the kernel
     * reads B as stored (BF16 on the TMA kernels, B 16-byte aligned with rows whole 16-byte chunks), plus A's copy
     * where it is made (TF32: rounded; 3xTF32: split, two arrays each; BF16: only for rows that are not 16-byte
     * chunks on 16-byte boundaries), plus 256 bytes of alignment; no A copy with k = 0; 0 where a size wraps */
    {
        const void *al = (const void *)(uintptr_t)4096, *odd = (const void *)(uintptr_t)4098;
        const size_t bt = (size_t)300 * 104 * 2; /* n 300 rows of k 100 BF16 rounded up to 104: 62400 bytes */
        const size_t bt256 = (bt + 255) / 256 * 256, a256 = ((size_t)200 * 104 * 2 + 255) / 256 * 256;
        const int cp = CLIMB_GEMM_WG_CPASYNC, kinds[] = {CLIMB_GEMM_WG_TMA, CLIMB_GEMM_WG_WS, CLIMB_GEMM_WG_PERSISTENT,
                                                         CLIMB_GEMM_WG_CLUSTERS};
        /* the cp.async kernel makes B^T whatever B's alignment */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, cp, 200, 300, 100, al, 104, al, 304, 0, 132) == bt256 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, cp, 200, 300, 100, al, 100, al, 304, 0, 132) ==
               bt256 + a256 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, cp, 200, 300, 100, odd, 104, al, 304, 0, 132) ==
               bt256 + a256 + 256);
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            const int kd = kinds[i];
            /* B read as stored: no B^T */
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, kd, 200, 300, 100, al, 104, al, 304, 0, 132) == 256);
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, kd, 200, 300, 100, odd, 104, al, 304, 0, 132) ==
                   a256 + 256);
            /* B's rows not whole 16-byte chunks, or B not on a 16-byte boundary: B^T made */
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, kd, 200, 300, 100, al, 104, al, 301, 0, 132) == bt256 + 256);
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, kd, 200, 300, 100, al, 104, odd, 304, 0, 132) ==
                   bt256 + 256);
        }
        /* B given as B^T (n x k): read where it is in BF16 by every kernel, the cp.async one too, where its rows are
         * 16-byte chunks on a 16-byte boundary; else copied into 16-byte rows; TF32's always copied (rounded) */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, cp, 200, 300, 100, al, 104, al, 104, 1, 132) == 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, CLIMB_GEMM_WG_PERSISTENT, 200, 300, 100, al, 104, al, 104,
                                       1, 132) == 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, CLIMB_GEMM_WG_TMA, 200, 300, 100, al, 104, al, 100, 1, 132) ==
               bt256 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, CLIMB_GEMM_WG_TMA, 200, 300, 100, al, 100, al, 100, 1, 132) ==
               ((size_t)300 * 100 * 4 + 255) / 256 * 256 + ((size_t)200 * 100 * 4 + 255) / 256 * 256 + 256);
        const size_t bt4 = ((size_t)300 * 100 * 4 + 255) / 256 * 256, a4 = ((size_t)200 * 100 * 4 + 255) / 256 * 256;
        /* TF32: the kernels with a producer warp group round A in shared memory (no copy unless its rows are not
         * 16-byte chunks on 16-byte boundaries); the cp.async and tma kernels copy it rounded */
        for (int kd = CLIMB_GEMM_WG_CPASYNC; kd <= CLIMB_GEMM_WG_CLUSTERS; kd++) {
            const int in_kernel = kd == CLIMB_GEMM_WG_WS || kd == CLIMB_GEMM_WG_PERSISTENT || kd == CLIMB_GEMM_WG_CLUSTERS;
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, kd, 200, 300, 100, al, 100, al, 304, 0, 132) ==
                   bt4 + (in_kernel ? 0 : a4) + 256);
            EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, kd, 200, 300, 100, al, 102, al, 304, 0, 132) ==
                   bt4 + a4 + 256); /* rows of 102 floats: copied */
        }
        /* 3xTF32: B^T split in the workspace before the kernel into two arrays (big and small parts), whether B comes
         * as B^T or not; A read where it is (split in the kernel's registers), copied as it is only where its rows
         * are not 16-byte chunks on 16-byte boundaries */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_WS, 200, 300, 100, al, 100, al, 304, 0, 132) ==
               2 * bt4 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_PERSISTENT, 200, 300, 100, odd, 100, al,
                                       304, 0, 132) == 2 * bt4 + a4 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_WS, 200, 300, 100, al, 102, al, 100, 1, 132) ==
               2 * bt4 + a4 + 256); /* rows of 102 floats: copied */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_WS, 200, 300, 100, al, 100, al, 100, 1, 132) ==
               2 * bt4 + 256);
        /* k = 0: nothing of A is read or split; B^T's rows one 16-byte chunk, twice */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_WS, 200, 300, 0, NULL, 1, NULL, 1, 0, 132) ==
               2 * (((size_t)300 * 4 * 4 + 255) / 256 * 256) + 256);
        /* k = 0: A is not read, so not copied; B^T's rows one 16-byte chunk */
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, CLIMB_GEMM_WG_TMA, 200, 300, 0, NULL, 1, NULL, 1, 0, 132) ==
               ((size_t)300 * 4 * 4 + 255) / 256 * 256 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, cp, 5, SIZE_MAX / 4, 100, al, 104, al, 104, 0, 132) == 0);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_BF16, CLIMB_GEMM_WG_TMA, 5, SIZE_MAX / 4, 100, al, 104, al,
                                       104, 0, 132) == 0);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, CLIMB_GEMM_WG_TMA, 5, 7, SIZE_MAX - 2, al, 104, al,
                                       104, 0, 132) == 0);
    }

    /* 3xTF32's split of k: the most slices (each at least 4 stages of 32) whose units take no more waves of the
     * SMs than the tiles alone */
    EXPECT(climb_gemm_w3_ksplit(1024, 1024, 1024, 132) == 2);  /* 64 tiles: 128 units in one wave, 192 in two */
    EXPECT(climb_gemm_w3_ksplit(1000, 3000, 500, 132) == 1);   /* 192 tiles, two waves: 384 units take three */
    EXPECT(climb_gemm_w3_ksplit(4096, 4096, 4096, 132) == 1);
    EXPECT(climb_gemm_w3_ksplit(8192, 8192, 8192, 132) == 1);
    EXPECT(climb_gemm_w3_ksplit(6144, 3072, 1536, 132) == 1);
    EXPECT(climb_gemm_w3_ksplit(1024, 1152, 1024, 132) == 1);  /* 72 tiles: 144 units take two waves */
    EXPECT(climb_gemm_w3_ksplit(128, 128, 4096, 132) == 4);    /* one tile, 128 stages */
    EXPECT(climb_gemm_w3_ksplit(128, 128, 4096, 2) == 2);      /* 2 SMs: 2 units in one wave, 3 in two */
    EXPECT(climb_gemm_w3_ksplit(257, 1101, 1001, 132) == 4);   /* 27 tiles, 32 stages: 108 units */
    EXPECT(climb_gemm_w3_ksplit(700, 901, 777, 132) == 2);     /* 48 tiles, 25 stages: 96 units; 144 take two */
    EXPECT(climb_gemm_w3_ksplit(128, 128, 480, 132) == 3);     /* 15 stages: slices of 5 (4 of 4 need 16) */
    EXPECT(climb_gemm_w3_ksplit(1024, 1024, 224, 132) == 1);   /* 7 stages: no slice of 4 for a split */
    EXPECT(climb_gemm_w3_ksplit(1024, 1024, 256, 132) == 2);   /* 8 stages: two slices of 4 */
    EXPECT(climb_gemm_w3_ksplit(0, 1024, 4096, 132) == 1);
    EXPECT(climb_gemm_w3_ksplit(1024, 1024, 4096, 0) == 1);
    EXPECT(climb_gemm_w3_ksplit((size_t)1 << 32, 128, 4096, 132) == 1);
    for (size_t m = 1; m <= 4096; m = m * 3 + 1)
        for (size_t k = 0; k <= 9000; k = k * 2 + 33) {
            const int ks = climb_gemm_w3_ksplit(m, 777, k, 132);
            EXPECT(ks >= 1 && ks <= CLIMB_GEMM_W3_MAX_SPLIT && (ks == 1 || (k + 31) / 32 >= 4 * (size_t)ks));
        }
    { /* a split's sums (64 KiB a tile's slice) and counts (two a tile, in 256-byte steps) after the split B^T */
        const size_t bt = ((size_t)1024 * 1024 * 4 + 255) / 256 * 256;
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_3XTF32, CLIMB_GEMM_WG_WS, 1024, 1024, 1024,
                                       (const void *)(uintptr_t)4096, 1024, (const void *)(uintptr_t)4096, 1024, 0,
                                       132) == 2 * bt + (size_t)64 * 2 * 65536 + 512 + 256);
        EXPECT(climb_gemm_wg_workspace(CLIMB_GEMM_PREC_TF32, CLIMB_GEMM_WG_WS, 1024, 1024, 1024,
                                       (const void *)(uintptr_t)4096, 1024, (const void *)(uintptr_t)4096, 1024, 0,
                                       132) == bt + 256); /* TF32 does not split */
    }

    /* the best path's wgmma kernel: 128 x 256 tiles unless fewer than half the SMs, then 128 x 128 */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1024, 1024, 132, NULL) == CLIMB_GEMM_WG_TMA);         /* 32 big tiles */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1000, 3000, 132, NULL) == CLIMB_GEMM_WG_PERSISTENT);  /* 8 x 12 = 96 */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 8192, 8192, 132, NULL) == CLIMB_GEMM_WG_PERSISTENT);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1024, 2048, 132, NULL) == CLIMB_GEMM_WG_TMA);         /* 8 x 8 = 64 < 66 */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1152, 2048, 132, NULL) == CLIMB_GEMM_WG_PERSISTENT);  /* 9 x 8 = 72 */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1024, 1792, 132, NULL) == CLIMB_GEMM_WG_TMA);         /* 8 x 7 = 56 */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_TF32, 1024, 1024, 132, NULL) == CLIMB_GEMM_WG_TMA);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_TF32, 8192, 8192, 132, NULL) == CLIMB_GEMM_WG_PERSISTENT);
    /* 3xTF32: the warp-specialised kernel, the one with split operands, at every shape */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 1024, 1024, 132, NULL) == CLIMB_GEMM_WG_WS);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 8192, 8192, 132, NULL) == CLIMB_GEMM_WG_WS);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 1, 1, 132, NULL) == CLIMB_GEMM_WG_WS);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1, 1, 132, NULL) == CLIMB_GEMM_WG_TMA && climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1, 1, 1, NULL) == CLIMB_GEMM_WG_PERSISTENT);
    /* tuned: the tuning's kernel wherever it is one of the three (3xTF32 has no tma kernel: WS), else the rule */
    climb_gemm_tuning tn = {CLIMB_GEMM_WG_TMA, 4};
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 8192, 8192, 132, &tn) == CLIMB_GEMM_WG_TMA);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 8192, 8192, 132, &tn) == CLIMB_GEMM_WG_WS);
    tn.kernel = CLIMB_GEMM_WG_PERSISTENT;
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 1024, 1024, 132, &tn) == CLIMB_GEMM_WG_PERSISTENT);
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 1024, 1024, 132, &tn) == CLIMB_GEMM_WG_PERSISTENT);
    tn.kernel = CLIMB_GEMM_WG_WS;
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_TF32, 1024, 1024, 132, &tn) == CLIMB_GEMM_WG_WS);
    tn.kernel = CLIMB_GEMM_WG_CLUSTERS; /* not a value the tuning has: the rule */
    EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_TF32, 1024, 1024, 132, &tn) == CLIMB_GEMM_WG_TMA);
    /* the built-in values are the rule's kernel and groups of 8; set_tuning reads the table's order */
    climb_gemm_default_tuning(CLIMB_GEMM_PREC_BF16, 1024, 1024, 132, &tn);
    EXPECT(tn.kernel == CLIMB_GEMM_WG_TMA && tn.group == 8);
    climb_gemm_default_tuning(CLIMB_GEMM_PREC_TF32, 4096, 4096, 132, &tn);
    EXPECT(tn.kernel == CLIMB_GEMM_WG_PERSISTENT && tn.group == 8);
    climb_gemm_default_tuning(CLIMB_GEMM_PREC_3XTF32, 4096, 4096, 132, &tn);
    EXPECT(tn.kernel == CLIMB_GEMM_WG_WS && tn.group == 8);
    const climb_tuning *tu = climb_gemm_workload.tuning;
    EXPECT(tu && tu->n_params == 2 && strcmp(tu->params[0].name, "kernel") == 0 &&
           strcmp(tu->params[1].name, "group") == 0);
    const int vals[2] = {CLIMB_GEMM_WG_WS, 16};
    climb_gemm_set_tuning(&tn, vals);
    EXPECT(tn.kernel == CLIMB_GEMM_WG_WS && tn.group == 16);
    /* the tuning class: the precision, then few or many 128 x 256 tiles against half the SMs */
    {
        climb_device_info dev;
        memset(&dev, 0, sizeof dev);
        dev.sms = 132;
        const climb_workload *w = &climb_gemm_workload;
        climb_opt_plan plan;
        char err[200], cls[128];
        EXPECT(climb_opt_plan_init(&plan, w->options, w->n_options, err, sizeof err) == 0);
        EXPECT(climb_opt_plan_set(&plan, climb_opt_find(w->options, w->n_options, "precision"), "3xtf32", 0, err,
                                  sizeof err) == 0);
        climb_opt_value opts[16];
        EXPECT(w->n_options <= 16 && climb_opt_plan_combos(&plan) == 1);
        climb_opt_plan_combo(&plan, 0, opts);
        climb_tuning_key k = {CLIMB_SHAPE3(1024, 1024, 1024), CLIMB_F32, opts};
        climb_tuning_class(w, &k, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, "precision=3xtf32,few") == 0, "%s", cls);
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_defaults(tu, &dev, &k, v);
        EXPECT(v[0] == CLIMB_GEMM_WG_WS && v[1] == 8);
        climb_tuning_key kb = {CLIMB_SHAPE3(1152, 2048, 64), CLIMB_F32, NULL}; /* the default precision, bf16 */
        climb_tuning_class(w, &kb, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, "precision=bf16,many") == 0, "%s", cls);
        climb_tuning_defaults(tu, &dev, &kb, v);
        EXPECT(v[0] == CLIMB_GEMM_WG_PERSISTENT && v[1] == 8);
        kb.shape = (climb_shape)CLIMB_SHAPE3(1024, 1792, 64); /* 8 x 7 = 56 tiles of 128 x 256 */
        climb_tuning_class(w, &kb, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, "precision=bf16,few") == 0, "%s", cls);
        climb_tuning_defaults(tu, &dev, &kb, v);
        EXPECT(v[0] == CLIMB_GEMM_WG_TMA && v[1] == 8);
        climb_opt_plan_free(&plan, NULL);
        EXPECT(climb_tuning_count(tu) == 16); /* three kernels at five groups, the overlapping one once */
        climb_tuning_values(tu, 15, v);
        EXPECT(v[0] == CLIMB_GEMM_WG_OVERLAP && v[1] == 8);
        /* the overlapping kernel is TF32's: the other precisions run the persistent one */
        const climb_gemm_tuning ov = {CLIMB_GEMM_WG_OVERLAP, 8};
        EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_TF32, 4096, 4096, 132, &ov) == CLIMB_GEMM_WG_OVERLAP);
        EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_BF16, 4096, 4096, 132, &ov) == CLIMB_GEMM_WG_PERSISTENT);
        EXPECT(climb_gemm_wg_pick(CLIMB_GEMM_PREC_3XTF32, 4096, 4096, 132, &ov) == CLIMB_GEMM_WG_PERSISTENT);
    }
    test_trb_order();
    test_terms();
    return test_finish("test_cpu_gemm");
}
