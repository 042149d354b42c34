/* Winograd's F(2 x 2, 3 x 3), F(4 x 4, 3 x 3) and F(2 x 2, 5 x 5) on the CPU: the transforms, a layer, the error bound (winograd.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "winograd.h"

int climb_winograd_init(climb_winograd *w, int m, int r)
{
    memset(w, 0, sizeof *w);
    /* the points 0, 1, -1, 2, -2, infinity: one B^T (the inverse Vandermonde's, scaled into G) for every F(m, r)
     * with m + r = 7 */
    static const double bt6[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                                     {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
    if (m == 2 && r == 3) {
        static const double bt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
        static const double g[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
        static const double at[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
        for (int i = 0; i < 4; i++) {
            memcpy(w->bt[i], bt[i], sizeof bt[i]);
            memcpy(w->g[i], g[i], sizeof g[i]);
        }
        for (int i = 0; i < 2; i++)
            memcpy(w->at[i], at[i], sizeof at[i]);
    } else if (m == 4 && r == 3) {
        static const double g[6][3] = {{1.0 / 4, 0, 0},          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                       {-1.0 / 6, 1.0 / 6, -1.0 / 6}, {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                       {1.0 / 24, -1.0 / 12, 1.0 / 6}, {0, 0, 1}};
        static const double at[4][6] = {
            {1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
        for (int i = 0; i < 6; i++) {
            memcpy(w->bt[i], bt6[i], sizeof bt6[i]);
            memcpy(w->g[i], g[i], sizeof g[i]);
        }
        for (int i = 0; i < 4; i++)
            memcpy(w->at[i], at[i], sizeof at[i]);
    } else if (m == 2 && r == 5) {
        /* G's row of point p: its scale (1/4, -1/6, -1/6, 1/24, 1/24, as F(4 x 4, 3 x 3)'s) times 1 p p^2 p^3 p^4;
         * infinity's row picks the filter's last tap; A^T: 1 p (and infinity's 1 in the last row) */
        static const double g[6][5] = {{1.0 / 4, 0, 0, 0, 0},
                                       {-1.0 / 6, -1.0 / 6, -1.0 / 6, -1.0 / 6, -1.0 / 6},
                                       {-1.0 / 6, 1.0 / 6, -1.0 / 6, 1.0 / 6, -1.0 / 6},
                                       {1.0 / 24, 1.0 / 12, 1.0 / 6, 1.0 / 3, 2.0 / 3},
                                       {1.0 / 24, -1.0 / 12, 1.0 / 6, -1.0 / 3, 2.0 / 3},
                                       {0, 0, 0, 0, 1}};
        static const double at[2][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 1}};
        for (int i = 0; i < 6; i++) {
            memcpy(w->bt[i], bt6[i], sizeof bt6[i]);
            memcpy(w->g[i], g[i], sizeof g[i]);
        }
        for (int i = 0; i < 2; i++)
            memcpy(w->at[i], at[i], sizeof at[i]);
    } else {
        return -1;
    }
    w->m = m;
    w->r = r;
    w->alpha = m + r - 1;
    return 0;
}

/* out (rows x cols2) = L (rows x inner, double coefficients taken as f32) times in (inner x cols2, f32), each sum
 * left to right over the nonzero coefficients; then out2 (rows x rows2) = out times R^T (R rows2 x cols2). */
static void sandwich(const double *L, int ld_l, int rows, int inner, const float *in, int cols, const double *R,
                     int ld_r, int rows2, float *out)
{
    float t[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0;
            for (int k = 0; k < inner; k++)
                if (L[i * ld_l + k] != 0)
                    s += (float)L[i * ld_l + k] * in[k * cols + j];
            t[i * cols + j] = s;
        }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < rows2; j++) {
            float s = 0;
            for (int k = 0; k < cols; k++)
                if (R[j * ld_r + k] != 0)
                    s += t[i * cols + k] * (float)R[j * ld_r + k];
            out[i * rows2 + j] = s;
        }
}

void climb_winograd_filter_f32(const climb_winograd *w, const float *g, float *u)
{
    sandwich(&w->g[0][0], CLIMB_WINOGRAD_MAX_R, w->alpha, w->r, g, w->r, &w->g[0][0], CLIMB_WINOGRAD_MAX_R, w->alpha,
             u);
}

void climb_winograd_input_f32(const climb_winograd *w, const float *d, float *v)
{
    sandwich(&w->bt[0][0], CLIMB_WINOGRAD_MAX_ALPHA, w->alpha, w->alpha, d, w->alpha, &w->bt[0][0],
             CLIMB_WINOGRAD_MAX_ALPHA, w->alpha, v);
}

void climb_winograd_output_f32(const climb_winograd *w, const float *mm, float *y)
{
    sandwich(&w->at[0][0], CLIMB_WINOGRAD_MAX_ALPHA, w->m, w->alpha, mm, w->alpha, &w->at[0][0],
             CLIMB_WINOGRAD_MAX_ALPHA, w->m, y);
}

static int takes(const climb_winograd *w, const climb_cnn_layer *l)
{
    return l->r == w->r && l->s == w->r && l->stride_h == 1 && l->stride_w == 1;
}

/* The alpha x alpha input tile of image n, channel c whose outputs start at (p0, q0): zeros outside the image. */
static void input_tile(const climb_winograd *w, const climb_cnn_layer *l, const float *x, int n, int c, int p0,
                       int q0, float *d)
{
    for (int i = 0; i < w->alpha; i++)
        for (int j = 0; j < w->alpha; j++) {
            const int y = p0 - l->pad_h + i, z = q0 - l->pad_w + j;
            d[i * w->alpha + j] = y >= 0 && y < l->h && z >= 0 && z < l->w
                                      ? x[(((size_t)n * l->c + c) * l->h + y) * l->w + z]
                                      : 0.0f;
        }
}

int climb_winograd_layer_f32(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             float *y)
{
    if (!takes(w, l))
        return -1;
    const int a2 = w->alpha * w->alpha, m = w->m;
    float *u = malloc(((size_t)l->k * l->c + 1) * a2 * sizeof *u), *v = malloc(((size_t)l->c + 1) * a2 * sizeof *v);
    if (!u || !v) {
        free(u);
        free(v);
        return -1;
    }
    for (int k = 0; k < l->k; k++)
        for (int c = 0; c < l->c; c++)
            climb_winograd_filter_f32(w, wt + ((size_t)k * l->c + c) * w->r * w->r, u + ((size_t)k * l->c + c) * a2);
    for (int n = 0; n < l->n; n++)
        for (int p0 = 0; p0 < l->p; p0 += m)
            for (int q0 = 0; q0 < l->q; q0 += m) {
                float d[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA];
                for (int c = 0; c < l->c; c++) {
                    input_tile(w, l, x, n, c, p0, q0, d);
                    climb_winograd_input_f32(w, d, v + (size_t)c * a2);
                }
                for (int k = 0; k < l->k; k++) {
                    float mm[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA] = {0}, t[16];
                    for (int c = 0; c < l->c; c++)
                        for (int e = 0; e < a2; e++)
                            mm[e] += u[((size_t)k * l->c + c) * a2 + e] * v[(size_t)c * a2 + e];
                    climb_winograd_output_f32(w, mm, t);
                    for (int i = 0; i < m && p0 + i < l->p; i++)
                        for (int j = 0; j < m && q0 + j < l->q; j++)
                            y[(((size_t)n * l->k + k) * l->p + p0 + i) * l->q + q0 + j] = t[i * m + j];
                }
            }
    free(u);
    free(v);
    return 0;
}

double climb_winograd_abs_at(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             int n, int k, int p, int q)
{
    const int m = w->m, al = w->alpha, p0 = p - p % m, q0 = q - q % m, i0 = p % m, j0 = q % m;
    double sum = 0;
    for (int c = 0; c < l->c; c++) {
        float d[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA];
        input_tile(w, l, x, n, c, p0, q0, d);
        const int rr = w->r;
        const float *g = wt + ((size_t)k * l->c + c) * rr * rr;
        for (int a = 0; a < al; a++)
            for (int b = 0; b < al; b++) {
                if (w->at[i0][a] == 0 || w->at[j0][b] == 0)
                    continue;
                double uf = 0, vd = 0; /* (|G||g||G^T|)[a][b] and (|B^T||d||B|)[a][b] */
                for (int r = 0; r < rr; r++)
                    for (int s = 0; s < rr; s++)
                        uf += fabs(w->g[a][r]) * fabs((double)g[r * rr + s]) * fabs(w->g[b][s]);
                for (int r = 0; r < al; r++)
                    for (int s = 0; s < al; s++)
                        vd += fabs(w->bt[a][r]) * fabs((double)d[r * al + s]) * fabs(w->bt[b][s]);
                sum += fabs(w->at[i0][a]) * fabs(w->at[j0][b]) * uf * vd;
            }
    }
    return sum;
}

double climb_winograd_tolerance(const climb_winograd *w, const climb_cnn_layer *l, double abs_sum)
{
    const double K = 4.0 * w->alpha + l->c + 2.0 * w->r + 3;
    return 1.01 * K * ldexp(1.0, -24) * abs_sum;
}

int climb_winograd_abs_layer(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             double *abs_sum)
{
    if (!takes(w, l))
        return -1;
    const int al = w->alpha, a2 = al * al, m = w->m;
    double *ua = malloc(((size_t)l->k * l->c + 1) * a2 * sizeof *ua), *va = malloc(((size_t)l->c + 1) * a2 * sizeof *va);
    if (!ua || !va) {
        free(ua);
        free(va);
        return -1;
    }
    for (int k = 0; k < l->k; k++) /* |G| |g| |G^T| of every filter */
        for (int c = 0; c < l->c; c++) {
            const int rr = w->r;
            const float *g = wt + ((size_t)k * l->c + c) * rr * rr;
            for (int a = 0; a < al; a++)
                for (int b = 0; b < al; b++) {
                    double s = 0;
                    for (int r = 0; r < rr; r++)
                        for (int t = 0; t < rr; t++)
                            s += fabs(w->g[a][r]) * fabs((double)g[r * rr + t]) * fabs(w->g[b][t]);
                    ua[((size_t)k * l->c + c) * a2 + a * al + b] = s;
                }
        }
    for (int n = 0; n < l->n; n++)
        for (int p0 = 0; p0 < l->p; p0 += m)
            for (int q0 = 0; q0 < l->q; q0 += m) {
                for (int c = 0; c < l->c; c++) { /* |B^T| |d| |B| of every channel's tile */
                    float d[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA];
                    double t[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA];
                    input_tile(w, l, x, n, c, p0, q0, d);
                    for (int a = 0; a < al; a++)
                        for (int s = 0; s < al; s++) {
                            double v = 0;
                            for (int r = 0; r < al; r++)
                                v += fabs(w->bt[a][r]) * fabs((double)d[r * al + s]);
                            t[a * al + s] = v;
                        }
                    for (int a = 0; a < al; a++)
                        for (int b = 0; b < al; b++) {
                            double v = 0;
                            for (int s = 0; s < al; s++)
                                v += t[a * al + s] * fabs(w->bt[b][s]);
                            va[(size_t)c * a2 + a * al + b] = v;
                        }
                }
                for (int k = 0; k < l->k; k++) {
                    double mm[CLIMB_WINOGRAD_MAX_ALPHA * CLIMB_WINOGRAD_MAX_ALPHA] = {0};
                    for (int c = 0; c < l->c; c++)
                        for (int e = 0; e < a2; e++)
                            mm[e] += ua[((size_t)k * l->c + c) * a2 + e] * va[(size_t)c * a2 + e];
                    for (int i = 0; i < m && p0 + i < l->p; i++)
                        for (int j = 0; j < m && q0 + j < l->q; j++) {
                            double s = 0;
                            for (int a = 0; a < al; a++)
                                for (int b = 0; b < al; b++)
                                    s += fabs(w->at[i][a]) * fabs(w->at[j][b]) * mm[a * al + b];
                            abs_sum[(((size_t)n * l->k + k) * l->p + p0 + i) * l->q + q0 + j] = s;
                        }
                }
            }
    free(ua);
    free(va);
    return 0;
}
