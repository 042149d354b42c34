/* Winograd's minimal filtering for the CNN layer's stride-1 filters (Lavin and Gray, Fast Algorithms for
 * Convolutional Neural Networks): F(m x m, r x r) computes an m x m tile of outputs from an alpha x alpha tile of
 * the input (alpha = m + r - 1) as Y = A^T [ sum over channels (G g G^T) . (B^T d B) ] A, alpha^2 multiplications a
 * channel where the direct convolution takes r^2 m^2: 2.25 times fewer for F(2 x 2, 3 x 3), 4 times for
 * F(4 x 4, 3 x 3), 2.78 times for F(2 x 2, 5 x 5).
 * The transforms, a CPU layer computed that way in f32 (what a GPU rung computes, to the rounding of its sums), and
 * the error bound every Winograd output is checked against. */
#ifndef CLIMB_WORKLOADS_CNN_WINOGRAD_H
#define CLIMB_WORKLOADS_CNN_WINOGRAD_H

#include "cnn.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_WINOGRAD_MAX_ALPHA 6
#define CLIMB_WINOGRAD_MAX_R 5

typedef struct climb_winograd {
    int m, r, alpha; /* outputs a tile side, the filter's side, input a tile side (m + r - 1) */
    double bt[CLIMB_WINOGRAD_MAX_ALPHA][CLIMB_WINOGRAD_MAX_ALPHA]; /* B^T, alpha x alpha */
    double g[CLIMB_WINOGRAD_MAX_ALPHA][CLIMB_WINOGRAD_MAX_R];      /* G, alpha x r */
    double at[CLIMB_WINOGRAD_MAX_ALPHA - 2][CLIMB_WINOGRAD_MAX_ALPHA]; /* A^T, m x alpha */
} climb_winograd;

/* F(m x m, r x r) for (m, r) = (2, 3) (interpolation points 0, 1, -1, infinity), (4, 3) or (2, 5) (both 0, 1, -1,
 * 2, -2, infinity: the same B^T, so the same input transform); 0, or -1 for another pair. */
int climb_winograd_init(climb_winograd *w, int m, int r);

/* The transforms of one tile in f32, as a kernel computes them (rows first, then columns, each sum left to right):
 * the filter's U = G g G^T (g r x r, u alpha x alpha), the input's V = B^T d B (d and v alpha x alpha), the
 * output's Y = A^T M A (mm alpha x alpha, y m x m). Row-major. */
void climb_winograd_filter_f32(const climb_winograd *w, const float *g, float *u);
void climb_winograd_input_f32(const climb_winograd *w, const float *d, float *v);
void climb_winograd_output_f32(const climb_winograd *w, const float *mm, float *y);

/* An r x r, stride-1 layer (any n, c, h, w, k, pad) by F(m x m, r x r) on the CPU in f32: each output tile from the
 * input tile under it (zeros outside the padded input), the channels' products summed in channel order; y is n x k
 * x p x q. 0, or -1 for a layer of another filter or stride (or host memory short). */
int climb_winograd_layer_f32(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             float *y);

/* The bound. With u = 2^-24, every Winograd output is within 1.01 K u W of the exact convolution, where
 * K = 4 alpha + C + 2 r + 3 (the rounding steps of the filter transform with G's entries rounded to f32 (2 r + 2), of the input
 * and output transforms (2 alpha each), of the products (1) and of the sum over the C channels, in any order) and
 * W = sum over channels of |A^T| (|G| |g| |G^T| . |B^T| |d| |B|) |A| at the output, the same formula in absolute
 * values (Higham's bound for sums and products, composed). climb_winograd_abs_at gives W for output (n, k, p, q). */
double climb_winograd_abs_at(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             int n, int k, int p, int q);
double climb_winograd_tolerance(const climb_winograd *w, const climb_cnn_layer *l, double abs_sum);
/* W of every output at once (n x k x p x q, as y), from the absolute transforms of each filter and of each input
 * tile: C alpha^2 operations a tile and filter, less than the direct convolution. 0, or -1 (a layer of another
 * filter or stride, or host memory short). */
int climb_winograd_abs_layer(const climb_winograd *w, const climb_cnn_layer *l, const float *x, const float *wt,
                             double *abs_sum);

#ifdef __cplusplus
}
#endif

#endif
