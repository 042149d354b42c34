/* CPU tests of the convolutional layer: the output sizes (padding, strides, a filter larger than the image), the
 * layers refused, the reference against a hand-worked output (two maps, a stride, the padding skipped), the
 * tolerance, and the workload's table; Winograd's transforms and their error bound. */
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "workloads/cnn/cnn.h"
#include "workloads/cnn/winograd.h"
#include "testing.h"

/* Winograd's F(2 x 2, 3 x 3) and F(4 x 4, 3 x 3): in one dimension, exact in double against the correlation; on
 * layers (odd sizes, padding 0 and 1, sizes not a multiple of the tile), the f32 layer within the stated bound of
 * the exact convolution at every output. Prints the largest error over the bound and how much larger the bound's W
 * is than the direct convolution's sum |w x|: the error's growth with the tile. */
static void test_winograd(void)
{
    climb_winograd w;
    EXPECT(climb_winograd_init(&w, 3, 3) == -1 && climb_winograd_init(&w, 6, 3) == -1);
    EXPECT(climb_winograd_init(&w, 4, 5) == -1 && climb_winograd_init(&w, 2, 7) == -1);
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    static const int pairs[][2] = {{2, 3}, {4, 3}, {2, 5}};
    for (int v = 0; v < 3; v++) {
        const int m = pairs[v][0], rr = pairs[v][1];
        EXPECT(climb_winograd_init(&w, m, rr) == 0 && w.alpha == m + rr - 1 && w.r == rr);
        /* 1-D: y_i = sum_j g_j d_(i + j) = A^T [(G g) . (B^T d)] */
        double worst1 = 0;
        for (int it = 0; it < 200; it++) {
            double g[5], d[6], gg[6] = {0}, bd[6] = {0};
            for (int j = 0; j < rr; j++)
                g[j] = climb_rng_double(&rng, -1, 1);
            for (int j = 0; j < w.alpha; j++)
                d[j] = climb_rng_double(&rng, -1, 1);
            for (int a = 0; a < w.alpha; a++)
                for (int j = 0; j < rr; j++)
                    gg[a] += w.g[a][j] * g[j];
            for (int a = 0; a < w.alpha; a++)
                for (int j = 0; j < w.alpha; j++)
                    bd[a] += w.bt[a][j] * d[j];
            for (int i = 0; i < m; i++) {
                double y = 0, want = 0;
                for (int a = 0; a < w.alpha; a++)
                    y += w.at[i][a] * gg[a] * bd[a];
                for (int j = 0; j < rr; j++)
                    want += g[j] * d[i + j];
                worst1 = fmax(worst1, fabs(y - want));
            }
        }
        EXPECT_MSG(worst1 < 1e-12, "F(%d, %d) in one dimension: off by %g", m, rr, worst1);
        /* n c h w k r s stride_h stride_w pad_h pad_w: odd sizes, no padding, 64 channels, a layer smaller than a tile */
        const climb_cnn_layer shapes[] = {
            {2, 5, 9, 11, 3, rr, rr, 1, 1, rr / 2, rr / 2, 0, 0}, {1, 3, 7, 6, 2, rr, rr, 1, 1, 0, 0, 0, 0},
            {1, 64, 14, 14, 4, rr, rr, 1, 1, rr / 2, rr / 2, 0, 0}, {1, 1, rr, rr, 1, rr, rr, 1, 1, 0, 0, 0, 0},
            {1, 2, 6, 9, 3, rr, rr, 1, 1, 1, 2, 0, 0}};
        double worst = 0, growth = 0, ulps = 0; /* ulps: the error in units of 2^-24 sum |w x| */
        for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
            climb_cnn_layer l = shapes[t];
            EXPECT(climb_cnn_layer_check(&l) == 0);
            const size_t nx = (size_t)l.n * l.c * l.h * l.w, nw = (size_t)l.k * l.c * rr * rr;
            const size_t ny = (size_t)l.n * l.k * l.p * l.q;
            float *x = malloc(nx * sizeof *x), *wt = malloc(nw * sizeof *wt), *y = malloc(ny * sizeof *y);
            double *wl = malloc(ny * sizeof *wl);
            if (!x || !wt || !y || !wl) {
                free(x), free(wt), free(y), free(wl);
                EXPECT(0);
                continue;
            }
            for (size_t i = 0; i < nx; i++)
                x[i] = (float)climb_rng_double(&rng, -1, 1);
            for (size_t i = 0; i < nw; i++)
                wt[i] = (float)climb_rng_double(&rng, -1, 1);
            EXPECT(climb_winograd_layer_f32(&w, &l, x, wt, y) == 0 && climb_winograd_abs_layer(&w, &l, x, wt, wl) == 0);
            /* climb.h's bounds for F(2 x 2, r x r): W <= 16 max|x| sum|w_k| at r = 3 (|B^T| |d| |B| <= 4 max|x|; the
             * rows of |A^T| |G| are 2 1 1 and 1 1 2, so |A^T| |G| |g| |G^T| |A| <= 4 sum|g|), 861 max|x| sum|w_k|
             * at r = 5 (the largest over the output's 2 x 2 places of sum over i, j of |A^T|_ai |A^T|_bj b_i b_j
             * G_i G_j, b_i the sum of |B^T|'s row i and G_i the largest of |G|'s: 7744 / 9) */
            const double api_c = rr == 3 ? 16 : 861;
            double xmax = 0;
            for (size_t i = 0; i < nx; i++)
                xmax = fmax(xmax, fabs(x[i]));
            int past_api = 0;
            int bad = 0, abs_differs = 0;
            for (int n = 0; n < l.n; n++)
                for (int k = 0; k < l.k; k++)
                    for (int p = 0; p < l.p; p++)
                        for (int q = 0; q < l.q; q++) {
                            double direct = 0;
                            const double want = climb_cnn_ref_at(&l, x, wt, n, k, p, q, &direct);
                            const double W = climb_winograd_abs_at(&w, &l, x, wt, n, k, p, q);
                            abs_differs += !(fabs(W - wl[(((size_t)n * l.k + k) * l.p + p) * l.q + q]) <= 1e-12 * W);
                            if (m == 2) {
                                double wk = 0;
                                for (size_t i = 0; i < (size_t)l.c * rr * rr; i++)
                                    wk += fabs(wt[(size_t)k * l.c * rr * rr + i]);
                                past_api += !(W <= api_c * xmax * wk);
                            }
                            const double tol = climb_winograd_tolerance(&w, &l, W);
                            const double err = fabs(y[(((size_t)n * l.k + k) * l.p + p) * l.q + q] - want);
                            bad += !(err <= tol);
                            worst = fmax(worst, err / tol);
                            growth = fmax(growth, direct > 0 ? W / direct : 0);
                            ulps = fmax(ulps, direct > 0 ? err / (direct * ldexp(1.0, -24)) : 0);
                        }
            EXPECT_MSG(bad == 0, "F(%dx%d, %dx%d) on %dx%dx%dx%d, k %d, pad %d: %d outputs past the bound", m, m, rr, rr,
                       l.n, l.c, l.h, l.w, l.k, l.pad_h, bad);
            EXPECT_MSG(abs_differs == 0, "the whole layer's W differs from the output's at %d outputs", abs_differs);
            EXPECT_MSG(past_api == 0, "W past climb.h's %g max|x| sum|w_k| at %d outputs", api_c, past_api);
            free(x);
            free(wt);
            free(y);
            free(wl);
        }
        /* a bound that holds, and the error not trivially zero (a wrong transform is far outside it) */
        EXPECT(worst > 0 && worst <= 1);
        printf("F(%dx%d, %dx%d): largest error %.3g of the bound, %.1f units of 2^-24 sum |w x|; the bound's W up to "
               "%.1fx the direct sum |w x|\n", m, m, rr, rr, worst, ulps, growth);
    }
    const climb_cnn_layer strided = {1, 1, 8, 8, 1, 3, 3, 2, 2, 0, 0, 0, 0};
    climb_cnn_layer l5 = {1, 1, 8, 8, 1, 5, 5, 1, 1, 0, 0, 0, 0};
    climb_cnn_layer ls = strided;
    EXPECT(climb_cnn_layer_check(&ls) == 0 && climb_cnn_layer_check(&l5) == 0);
    float one[64 * 25] = {0}, out[64] = {0};
    EXPECT(climb_winograd_init(&w, 4, 3) == 0);
    EXPECT(climb_winograd_layer_f32(&w, &ls, one, one, out) == -1 && climb_winograd_layer_f32(&w, &l5, one, one, out) == -1);
    climb_cnn_layer l3 = {1, 1, 8, 8, 1, 3, 3, 1, 1, 0, 0, 0, 0}; /* F(2 x 2, 5 x 5) takes 5 x 5 layers only */
    EXPECT(climb_cnn_layer_check(&l3) == 0 && climb_winograd_init(&w, 2, 5) == 0);
    EXPECT(climb_winograd_layer_f32(&w, &l3, one, one, out) == -1 && climb_winograd_layer_f32(&w, &l5, one, one, out) == 0);
}

/* The best rung's choice as climb.h states it: Winograd on 3 x 3 layers of stride 1 with C and K at least 16 and K
 * below 4194241, its workspace 16384 ceil(C / 16) ceil(K / 64) floats; F(2 x 2, 5 x 5) on such 5 x 5 layers with K
 * below 2097121, its workspace 36 ceil(C / 8) 8 ceil(K / 32) 32 floats; elsewhere the filter-major implicit GEMM
 * where C is a multiple of 8 or at least 64 (and R S C, C so padded, below 2^30), its workspace the permuted filters
 * (R S ceil(C / 8) 8 ceil(K / 4) 4 floats); none for the rest (the channel-major implicit GEMM). */
static void test_best_choice(void)
{
    enum { IGEMM, WINOGRAD, WINOGRAD5, RSC };
    const struct {
        climb_cnn_layer l;
        int path;
    } cases[] = {
        {{2, 20, 13, 15, 70, 3, 3, 1, 1, 1, 2, 0, 0}, WINOGRAD}, {{1, 16, 8, 8, 16, 3, 3, 1, 1, 0, 0, 0, 0}, WINOGRAD},
        {{2, 15, 13, 15, 70, 3, 3, 1, 1, 1, 1, 0, 0}, IGEMM},    {{2, 20, 13, 15, 15, 3, 3, 1, 1, 1, 1, 0, 0}, IGEMM},
        {{2, 20, 13, 15, 70, 3, 3, 2, 2, 1, 1, 0, 0}, IGEMM},    {{2, 20, 13, 15, 70, 3, 3, 1, 2, 1, 1, 0, 0}, IGEMM},
        {{2, 20, 13, 15, 70, 5, 5, 1, 1, 2, 2, 0, 0}, WINOGRAD5}, {{2, 20, 13, 15, 15, 5, 5, 1, 1, 2, 2, 0, 0}, IGEMM},
        {{2, 20, 13, 15, 70, 5, 5, 2, 2, 2, 2, 0, 0}, IGEMM},    {{2, 16, 1, 1, 2097120, 5, 5, 1, 1, 2, 2, 0, 0}, WINOGRAD5},
        {{2, 16, 1, 1, 2097121, 5, 5, 1, 1, 2, 2, 0, 0}, RSC},    {{2, 20, 13, 15, 70, 3, 1, 1, 1, 1, 0, 0, 0}, IGEMM},
        {{1, 16, 1, 1, 4194240, 3, 3, 1, 1, 1, 1, 0, 0}, WINOGRAD},
        {{1, 16, 1, 1, 4194241, 3, 3, 1, 1, 1, 1, 0, 0}, RSC},
        {{2, 24, 13, 15, 70, 3, 3, 2, 2, 1, 1, 0, 0}, RSC},      {{2, 8, 13, 15, 7, 5, 5, 1, 1, 2, 2, 0, 0}, RSC},
        {{2, 65, 13, 15, 3, 1, 1, 2, 2, 0, 0, 0, 0}, RSC},       {{2, 63, 13, 15, 3, 1, 1, 2, 2, 0, 0, 0, 0}, IGEMM},
        {{2, 8, 13, 15, 70, 3, 3, 1, 1, 1, 1, 0, 0}, RSC},       {{2, 3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 0, 0}, IGEMM},
        {{2, 0, 13, 15, 70, 1, 1, 1, 1, 0, 0, 0, 0}, IGEMM},
        /* R S C padded to whole 8s must stay below 2^30: 64 channels of 4000 x 4000 taps do, 65 (padded to 72) not */
        {{1, 64, 4000, 4000, 1, 4000, 4000, 1, 1, 0, 0, 0, 0}, RSC}, {{1, 65, 4000, 4000, 1, 4000, 4000, 1, 1, 0, 0, 0, 0}, IGEMM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        climb_cnn_layer l = cases[i].l;
        EXPECT(climb_cnn_layer_check(&l) == 0);
        const size_t cp = (size_t)(l.c + 7) / 8 * 8, kp = (size_t)(l.k + 3) / 4 * 4;
        const size_t want = cases[i].path == WINOGRAD ? 16384 * (size_t)((l.c + 15) / 16) * ((l.k + 63) / 64) * sizeof(float)
                            : cases[i].path == WINOGRAD5 ? 36 * cp * (size_t)((l.k + 31) / 32 * 32) * sizeof(float)
                            : cases[i].path == RSC       ? (size_t)l.r * l.s * cp * kp * sizeof(float)
                                                         : 0;
        const int wg = cases[i].path == WINOGRAD || cases[i].path == WINOGRAD5;
        EXPECT_MSG(climb_cnn_best_winograd(&l) == wg && climb_cnn_best_workspace(&l) == want,
                   "layer %zu: Winograd %d, workspace %zu (want path %d, %zu)", i, climb_cnn_best_winograd(&l),
                   climb_cnn_best_workspace(&l), cases[i].path, want);
    }
}

int main(void)
{
    test_winograd();
    test_best_choice();
    climb_cnn_layer l = {64, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 56 && l.q == 56);
    l = (climb_cnn_layer){16, 3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 112 && l.q == 112);
    l = (climb_cnn_layer){1, 1, 4, 4, 1, 7, 7, 1, 1, 0, 0, 0, 0}; /* unpadded filter larger than the image */
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 0 && l.q == 0);
    l = (climb_cnn_layer){1, 1, 20, 30, 1, 3, 3, 3, 2, 1, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 7 && l.q == 14);
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 0, 3, 1, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* r 0 */
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 3, 3, 0, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* stride 0 */
    l = (climb_cnn_layer){1, 1, 5, 5, 1, 3, 3, 1, 1, -1, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* negative pad */
    l = (climb_cnn_layer){65536, 1, 256, 256, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == -1); /* x of 2^32 elements */

    /* two 3 x 4 maps, one 2 x 2 filter pair, stride 2, pad 1: p = (3 + 2 - 2) / 2 + 1 = 2, q = (4 + 2 - 2) / 2 + 1 = 3 */
    const float x[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, /* c = 0 */
                         -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12};
    const float w[8] = {1, 2, 3, 4, 10, 20, 30, 40};
    l = (climb_cnn_layer){1, 2, 3, 4, 1, 2, 2, 2, 2, 1, 1, 0, 0};
    EXPECT(climb_cnn_layer_check(&l) == 0 && l.p == 2 && l.q == 3);
    double abs;
    /* (p, q) = (0, 0): rows -1, 0 and columns -1, 0: only (0, 0) is inside, meeting w[.][1][1] */
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 0, 0, &abs) == 4 * 1 + 40 * -1 && abs == 44);
    /* (1, 1): rows 1, 2 and columns 1, 2, all inside */
    double want = 1 * 6 + 2 * 7 + 3 * 10 + 4 * 11 + 10 * -6 + 20 * -7 + 30 * -10 + 40 * -11;
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 1, 1, NULL) == want);
    /* (1, 2): columns 3, 4: the fourth column is padding */
    want = 1 * 8 + 3 * 12 + 10 * -8 + 30 * -12;
    EXPECT(climb_cnn_ref_at(&l, x, w, 0, 0, 1, 2, NULL) == want);
    EXPECT(climb_cnn_tolerance(&l, 1.0) == 1.01 * 10 * 0x1p-24);

    const climb_workload *wl = &climb_cnn_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(wl, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(wl) >= 0 && climb_workload_ndims(wl) == 8);
    char label[200];
    climb_case_label(wl, &wl->bench_shapes[0], label, sizeof label);
    EXPECT_MSG(strcmp(label, "N64 C64 56x56 K64 3x3 stride 1") == 0, "%s", label);
    return test_finish("test_cpu_cnn");
}
