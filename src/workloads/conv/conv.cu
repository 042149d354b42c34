/*
 * conv.cu - 1-D and 2-D convolution of a single-channel f32 image with a (2r+1) x (2r+1) mask (r = 1..4), zero
 * ghost cells: the tiling ladder of Hwu, Kirk and El Hajj, "Programming Massively Parallel Processors" (PMPP,
 * the convolution chapter), against cuDNN and the copy bound.
 *
 *   out[i][j] = sum over a in [0, 2ry], b in [0, 2rx] of M[a][b] in[i + a - ry][j + b - rx]
 *
 * (the book's cross-correlation form; in is 0 outside the image). dims=1 is the same ladder in one dimension: ry =
 * 0, each row convolved on its own.
 *
 * The ladder: basic (mask and input from global memory); the mask in constant memory; tiling strategy 1 (a block
 * is an input tile, its edge threads load and idle); strategy 2 (a block is an output tile, its input tile with
 * halo loaded in several passes); strategy 3 (only the tile itself in shared memory, the halo read through the
 * caches); and the best rung: register blocking (a thread computes a column of outputs, reading each input row of
 * its window once from shared memory for all of them), the mask passed by value in the kernel's parameters (a
 * constant bank, so each FMA takes its weight as an operand and concurrent calls with different masks cannot race
 * on one __constant__ symbol). Every kernel walks a 1-D grid of tiles, so any image size fits.
 *
 * Bytes counted: the image read once and the output written once (rows x cols floats each): the least a run
 * moves, which the device copy bound moves too. Flops: 2 (2rx + 1)(2ry + 1) per output (ghost-cell products
 * included, as cuDNN's direct algorithms do them). See docs/conv.md.
 *
 * Order of this file: CPU reference, masks, kernels, launchers, cuDNN, the registry table, the harness glue.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "../../base/check.h"
#include "../../device/cudnn_shared.h"
#include "../../device/device.h"
#include "../../io/pgm.h"
#include "../../io/text.h"
#include "conv.h"
#include "../../base/checked.h"

/* ---------------------------------------------------------------- CPU reference */

extern "C" void climb_conv_ref_row(const float *in, size_t ld, size_t rows, size_t cols, const float *mask, int rx,
                                   int ry, size_t i, double *out, double *abs)
{
    const int mw = 2 * rx + 1;
    for (size_t j = 0; j < cols; j++) {
        out[j] = 0;
        if (abs)
            abs[j] = 0;
    }
    for (int a = 0; a <= 2 * ry; a++) {
        const long long y = (long long)i + a - ry;
        if (y < 0 || y >= (long long)rows)
            continue;
        const float *row = in + (size_t)y * ld;
        for (int b = 0; b <= 2 * rx; b++) {
            const double m = mask[a * mw + b];
            /* out[j] += m row[j + b - rx] for the j whose input is inside the row */
            const long long shift = b - rx;
            const size_t j0 = shift < 0 ? (size_t)(-shift) : 0;
            const size_t j1 = shift > 0 ? (cols > (size_t)shift ? cols - (size_t)shift : 0) : cols;
            for (size_t j = j0; j < j1; j++)
                out[j] += m * row[(long long)j + shift];
            if (abs)
                for (size_t j = j0; j < j1; j++)
                    abs[j] += fabs(m * row[(long long)j + shift]);
        }
    }
}

extern "C" double climb_conv_tolerance(int taps, double abs_sum) { return (taps + 2) * 0x1p-24 * abs_sum; }

/* ---------------------------------------------------------------- masks .. kernels (kernels.cuh) */

#include "kernels.cuh"

/* ---------------------------------------------------------------- launchers */

/* f(integral_constant<RX>, integral_constant<RY>) for the radii the ladder takes: rx 1..4, ry 0 (1-D) or rx. */
template <typename F> static cudaError_t conv_radii(int rx, int ry, F &&f)
{
    using std::integral_constant;
#define CONV_RADII(a, b)                                                                                     \
    if (rx == a && ry == b)                                                                                  \
        return f(integral_constant<int, a>(), integral_constant<int, b>());
    CONV_RADII(1, 0) CONV_RADII(2, 0) CONV_RADII(3, 0) CONV_RADII(4, 0)
    CONV_RADII(1, 1) CONV_RADII(2, 2) CONV_RADII(3, 3) CONV_RADII(4, 4)
#undef CONV_RADII
    return cudaErrorInvalidValue;
}

/* The best rung's grid keeps at least this many blocks per SM where the image has that many tiles: a block walks
 * fewer tiles on a small image rather than leave SMs idle. (8 a SM cost 12% on 1920^2 against 3.6: fewer, longer
 * walks hide more of their loads.) */
#define CONV_MIN_BLOCKS_PER_SM 2

/* The best rung's tuned shapes. */
static const int CONV_OUTPUTS[] = {4, 8, 16};
static const int CONV_ROWS[] = {4, 8};
static const int CONV_TILES[] = {1, 2, 4, 8, 16};

template <typename F> static cudaError_t conv_best_shape(const climb_conv_tuning *t, F &&f)
{
    using std::integral_constant;
#define CONV_SHAPE(o, r)                                                                                     \
    if (t->outputs == o && t->rows == r)                                                                     \
        return f(integral_constant<int, o>(), integral_constant<int, r>());
    CONV_SHAPE(4, 4) CONV_SHAPE(4, 8) CONV_SHAPE(8, 4) CONV_SHAPE(8, 8) CONV_SHAPE(16, 4) CONV_SHAPE(16, 8)
#undef CONV_SHAPE
    return cudaErrorInvalidValue;
}

extern "C" void climb_conv_set_tuning(climb_conv_tuning *t, const int *values)
{
    t->outputs = values[0];
    t->rows = values[1];
    t->tiles = values[2];
}

static size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }
static size_t at_least_1(size_t n) { return n ? n : 1; }

/* A 1-D grid of tiles: refused (cudaErrorInvalidConfiguration) past 2^31 - 1 blocks, which no image of 2^31
 * pixels reaches. */
static cudaError_t tile_grid(size_t rows, size_t cols, size_t tw, size_t th, unsigned *blocks, int *tiles_x)
{
    const size_t tx = cdiv(cols, tw), n = tx * cdiv(rows, th);
    if (n > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    *blocks = (unsigned)n;
    *tiles_x = (int)tx;
    return cudaSuccess;
}

extern "C" int climb_conv_fits(size_t rows, size_t cols)
{
    size_t blocks;
    return rows <= INT32_MAX && cols <= INT32_MAX && climb_mul_fits(cdiv(rows, 16), cdiv(cols, CONV_BEST_X), &blocks) &&
           blocks <= 0x7fffffffu;
}

extern "C" cudaError_t climb_conv_best(const climb_conv_tuning *t, size_t rows, size_t cols, const float *in,
                                       size_t ld_in, const float *mask, int rx, int ry, float *out, size_t ld_out,
                                       cudaStream_t s)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    if (rows > INT32_MAX || cols > INT32_MAX)
        return cudaErrorInvalidValue;
    conv_taps m;
    memset(&m, 0, sizeof m);
    memcpy(m.w, mask, sizeof(float) * (size_t)(2 * rx + 1) * (2 * ry + 1));
    return conv_radii(rx, ry, [&](auto RXc, auto RYc) {
        return conv_best_shape(t, [&](auto OYc, auto BYc) {
            constexpr int RX = decltype(RXc)::value, RY = decltype(RYc)::value;
            constexpr int OY = decltype(OYc)::value, BY = decltype(BYc)::value;
            /* a block walks `tiles` tiles down its column; fewer on a small image, so that the grid keeps at least
             * CONV_MIN_BLOCKS_PER_SM blocks a SM where the image has that many tiles */
            const size_t th = (size_t)BY * OY, tiles_y = cdiv(rows, th);
            int per_block = t->tiles, sms = 0;
            if (climb_current_sms(&sms) != cudaSuccess)
                sms = 0; /* unknown: no floor */
            while (per_block > 1 &&
                   cdiv(cols, CONV_BEST_X) * cdiv(tiles_y, (size_t)per_block) < (size_t)CONV_MIN_BLOCKS_PER_SM * sms)
                per_block /= 2;
            unsigned blocks;
            int tiles_x;
            cudaError_t e = tile_grid(cdiv(rows, th * per_block), cols, CONV_BEST_X, 1, &blocks, &tiles_x);
            if (e != cudaSuccess)
                return e;
            const int vec = (uintptr_t)in % 16 == 0 && ld_in % 4 == 0;
            conv_register_kernel<RX, RY, OY, BY><<<blocks, dim3(CONV_BEST_X, BY), 0, s>>>(
                in, ld_in, out, ld_out, (int)rows, (int)cols, tiles_x, (int)tiles_y, per_block, vec, m);
            return cudaGetLastError();
        });
    });
}

struct climb_case {
    climb_case_params p;
    size_t rows, cols, ld;
    int rx, ry, taps, mask_kind;
    const climb_pgm *image;          /* the loaded file, or NULL: random pixels */
    float *h_in, *d_in;              /* rows x ld */
    float *h_out, *d_out;            /* rows x ld, and verify's download */
    float *d_mask;
    float mask[CLIMB_CONV_MAX_TAPS];
    double mask_abs, in_max;         /* sum |mask|, max |in|: the tolerance's scale */
    climb_ref_mode mode;
    float *ref;                      /* the full reference (CPU or the vendor's), or NULL: sample rows only */
    double tol, vendor_tol;          /* |rung - exact| allowed; the vendor's when its algorithm is FFT or Winograd */
    size_t *rows_s, n_rows_s;        /* SAMPLES and VENDOR: the rows checked on the CPU */
    double *row_ref;                 /* their values (n_rows_s x cols) */
    climb_conv_tuning tn;
#ifdef CLIMB_HAVE_CUDNN
    climb_cudnn_conv dnn;            /* the vendor rung's plan, while it is prepared */
#endif
};

/* The ladder rungs' launches: kernel K over tiles tw x th, block bx x by. */
#define CONV_LAUNCHER(fname, kernel, tw, th, bx, by, ...)                                                    \
    static cudaError_t fname(climb_case *c, cudaStream_t s)                                                  \
    {                                                                                                        \
        return conv_radii(c->rx, c->ry, [&](auto RXc, auto RYc) {                                            \
            constexpr int RX = decltype(RXc)::value, RY = decltype(RYc)::value;                               \
            (void)RX;                                                                                        \
            (void)RY;                                                                                        \
            unsigned blocks;                                                                                 \
            int tiles_x;                                                                                     \
            cudaError_t e = tile_grid(c->rows, c->cols, tw, th, &blocks, &tiles_x);                          \
            if (e != cudaSuccess)                                                                            \
                return e;                                                                                    \
            kernel<RX, RY><<<blocks, dim3(bx, by), 0, s>>>(c->d_in, c->ld, c->d_out, c->ld, (int)c->rows,    \
                                                           (int)c->cols, tiles_x __VA_ARGS__);               \
            return cudaGetLastError();                                                                       \
        });                                                                                                  \
    }
CONV_LAUNCHER(launch_basic, conv_basic_kernel, CONV_SMALL_X, CONV_SMALL_Y, CONV_SMALL_X, CONV_SMALL_Y, , c->d_mask)
CONV_LAUNCHER(launch_const, conv_const_kernel, CONV_SMALL_X, CONV_SMALL_Y, CONV_SMALL_X, CONV_SMALL_Y)
CONV_LAUNCHER(launch_tile_in, conv_tile_in_kernel, CONV_IN_TILE - 2 * RX, CONV_IN_TILE - 2 * RY, CONV_IN_TILE,
              CONV_IN_TILE)
CONV_LAUNCHER(launch_tile_out, conv_tile_out_kernel, CONV_OUT_X, CONV_OUT_Y, CONV_OUT_X, CONV_OUT_Y)
CONV_LAUNCHER(launch_cached_halo, conv_cached_halo_kernel, CONV_OUT_X, CONV_OUT_Y, CONV_OUT_X, CONV_OUT_Y)

static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    return climb_conv_best(&c->tn, c->rows, c->cols, c->d_in, c->ld, c->mask, c->rx, c->ry, c->d_out, c->ld, s);
}

/* The bound: the image copied to the output, device to device (rows x cols floats read and written). */
static cudaError_t launch_copy(climb_case *c, cudaStream_t s)
{
    return cudaMemcpyAsync(c->d_out, c->d_in, c->rows * c->ld * sizeof(float), cudaMemcpyDeviceToDevice, s);
}

/* ---------------------------------------------------------------- cuDNN */

#ifdef CLIMB_HAVE_CUDNN
/* One image, one channel, one filter: NCHW 1 x 1 x rows x cols with row stride ld, the mask a 1 x 1 x (2ry + 1) x
 * (2rx + 1) filter, padding ry and rx (zero ghost cells), cross-correlation (the book's form), FMA math. */
static int dnn_prepare(climb_case *c)
{
    if (c->dnn.ready || c->rows == 0 || c->cols == 0)
        return 0; /* nothing to plan for an empty image: its run does nothing */
    const int r = (int)c->rows, q = (int)c->cols, ld = (int)c->ld;
    const int xd[4] = {1, 1, r, q}, st[4] = {r * ld, r * ld, ld, 1}, wd[4] = {1, 1, 2 * c->ry + 1, 2 * c->rx + 1};
    return climb_cudnn_conv_plan(&c->dnn, xd, st, wd, xd, st, c->ry, c->rx, 1, 1, "conv cuDNN");
}

static cudaError_t launch_cudnn(climb_case *c, cudaStream_t s)
{
    return climb_cudnn_conv_run(&c->dnn, c->d_in, c->d_mask, c->d_out, s, "conv cuDNN");
}
#endif

/* ---------------------------------------------------------------- the registry */

#define CONV_KERNELS_FN(fname, kernel, threads)                                                              \
    static int fname(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)      \
    {                                                                                                        \
        int n = 0;                                                                                           \
        n = climb_kernel_at(o, max, n, (const void *)kernel<1, 0>, threads, 0, "%s<1, 0>", #kernel);        \
        n = climb_kernel_at(o, max, n, (const void *)kernel<4, 0>, threads, 0, "%s<4, 0>", #kernel);        \
        n = climb_kernel_at(o, max, n, (const void *)kernel<1, 1>, threads, 0, "%s<1, 1>", #kernel);        \
        n = climb_kernel_at(o, max, n, (const void *)kernel<2, 2>, threads, 0, "%s<2, 2>", #kernel);        \
        n = climb_kernel_at(o, max, n, (const void *)kernel<4, 4>, threads, 0, "%s<4, 4>", #kernel);        \
        return n;                                                                                            \
    }
CONV_KERNELS_FN(k_basic, conv_basic_kernel, CONV_SMALL_X *CONV_SMALL_Y)
CONV_KERNELS_FN(k_const, conv_const_kernel, CONV_SMALL_X *CONV_SMALL_Y)
CONV_KERNELS_FN(k_tile_in, conv_tile_in_kernel, CONV_IN_TILE *CONV_IN_TILE)
CONV_KERNELS_FN(k_tile_out, conv_tile_out_kernel, CONV_OUT_X *CONV_OUT_Y)
CONV_KERNELS_FN(k_cached_halo, conv_cached_halo_kernel, CONV_OUT_X *CONV_OUT_Y)

/* The best rung's kernel for its tuned shape, at radius 1 and 4 in 1-D and 2-D. */
static int k_best(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_conv_tuning tn;
    climb_conv_set_tuning(&tn, tuning);
    int n = 0;
    const int radii[4][2] = {{1, 0}, {4, 0}, {2, 2}, {4, 4}};
    for (int k = 0; k < 4; k++)
        conv_radii(radii[k][0], radii[k][1], [&](auto RXc, auto RYc) {
            return conv_best_shape(&tn, [&](auto OYc, auto BYc) {
                constexpr int RX = decltype(RXc)::value, RY = decltype(RYc)::value;
                constexpr int OY = decltype(OYc)::value, BY = decltype(BYc)::value;
                n = climb_kernel_at(o, max, n, (const void *)conv_register_kernel<RX, RY, OY, BY>, CONV_BEST_X * BY, 0,
                                    "conv_register_kernel<%d, %d, %d, %d>", RX, RY, OY, BY);
                return cudaSuccess;
            });
        });
    return n;
}

/* The vendor's rule: cuDNN's tensors hold fewer than 2^31 elements. */
static const char *refuses_cudnn(const climb_case *c)
{
    return c->rows * c->ld >= ((size_t)1 << 31) ? "cuDNN's tensors hold fewer than 2^31 elements" : NULL;
}

typedef struct conv_rung {
    climb_rung_info info;
    int const_mask;           /* 1: its kernels read the mask from constant memory (prepare puts it there) */
} conv_rung;

static const conv_rung CONV_RUNGS[] = {
#ifdef CLIMB_HAVE_CUDNN
    {.info = {.name = "cudnn", .idea = "vendor: cudnnConvolutionForward, FP32 FMA math, the fastest algorithm "
                                       "cudnnFindConvolutionForwardAlgorithm finds",
              .needs = "fewer than 2^31 pixels", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL, .launch = launch_cudnn,
              .refuses = refuses_cudnn}},
#endif
    {.info = {.name = "device_copy", .idea = "bound: cudaMemcpyAsync of the image to the output (read once, "
                                             "written once)",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = NULL, .launch = launch_copy}},
    {.info = {.name = "basic", .idea = "PMPP's basic kernel: a thread per output, mask and input from global "
                                       "memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_basic, .launch = launch_basic}},
    {.info = {.name = "const_mask", .idea = "the mask in constant memory: one broadcast weight per tap for a warp",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_const, .launch = launch_const},
     .const_mask = 1},
    {.info = {.name = "tile_input", .idea = "strategy 1: a block is a 32 x 32 input tile in shared memory; the halo "
                                            "threads load and idle",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tile_in, .launch = launch_tile_in},
     .const_mask = 1},
    {.info = {.name = "tile_output", .idea = "strategy 2: a block is a 32 x 16 output tile; the input tile and halo "
                                             "loaded in several passes",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tile_out, .launch = launch_tile_out},
     .const_mask = 1},
    {.info = {.name = "tile_cached_halo", .idea = "strategy 3: only the tile in shared memory, the halo read "
                                                  "through L1 and L2",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_cached_halo, .launch = launch_cached_halo},
     .const_mask = 1},
    {.info = {.name = "register_blocked", .idea = "a thread computes a column of outputs from one pass over its "
                                                  "window's rows; the mask as FMA operands from the parameter bank",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best, .launch = launch_best}},
};

static const climb_rung_info *conv_rung_info(int i) { return &CONV_RUNGS[i].info; }
static int is_vendor(int rung) { return CONV_RUNGS[rung].info.kind == CLIMB_RUNG_VENDOR; }

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_RADIUS, OPT_DIMS, OPT_MASK, OPT_INPUT };
static const char *const CONV_MASKS[] = {"random", "gauss", "edges", NULL};
static constexpr climb_option CONV_OPTIONS[] = {
    {.name = "radius", .kind = CLIMB_OPT_INT, .meaning = "mask radius r: a (2r+1) x (2r+1) mask (2r+1 taps in 1-D)",
     .def = "1,2,3,4", .min = 1, .max = CLIMB_CONV_MAX_RADIUS, .keys_tuning = 1},
    {.name = "dims", .kind = CLIMB_OPT_INT, .meaning = "2: the 2-D convolution; 1: each row convolved on its own "
                                                       "(a 1-D mask)",
     .def = "2", .min = 1, .max = 2, .keys_tuning = 1},
    {.name = "mask", .kind = CLIMB_OPT_CHOICE,
     .meaning = "the weights: random in [-1, 1), a Gaussian blur, or an edge detector (taps - 1 at the centre, -1 "
                "around)",
     .def = "random", .choices = CONV_MASKS},
    {.name = "input", .kind = CLIMB_OPT_FILE, .meaning = "a grayscale PGM (P5 or P2) to filter instead of random "
                                                         "pixels; its size is the shape",
     .def = ""},
};
CLIMB_OPTION_AT(CONV_OPTIONS, OPT_RADIUS, "radius");
CLIMB_OPTION_AT(CONV_OPTIONS, OPT_DIMS, "dims");
CLIMB_OPTION_AT(CONV_OPTIONS, OPT_MASK, "mask");
CLIMB_OPTION_AT(CONV_OPTIONS, OPT_INPUT, "input");

static const climb_tunable CONV_TUNABLES[] = {
    {.name = "outputs", .meaning = "outputs a thread computes down a column (register blocking)",
     .values = CONV_OUTPUTS, .n_values = CLIMB_COUNT(CONV_OUTPUTS)},
    {.name = "rows", .meaning = "rows of 32 threads per block", .values = CONV_ROWS, .n_values = CLIMB_COUNT(CONV_ROWS)},
    {.name = "tiles", .meaning = "output tiles a block walks down its column (the next one's loads in flight)",
     .values = CONV_TILES, .n_values = CLIMB_COUNT(CONV_TILES)},
};

static const char *conv_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    (void)k;
    values[0] = 8;
    values[1] = 4;
    values[2] = 8;
    return "built-in: 8 outputs a thread, 4 rows of threads (a 32 x 32 output tile), 8 tiles a block";
}

static const climb_tuning CONV_TUNING = {.params = CONV_TUNABLES, .n_params = CLIMB_COUNT(CONV_TUNABLES),
                                         .candidates = NULL, .n_candidates = 0, .defaults = conv_defaults,
                                         .rejects = NULL};

/* ---------------------------------------------------------------- harness glue */

static int conv_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                     size_t errlen)
{
    climb_pgm *img = (climb_pgm *)calloc(1, sizeof *img);
    if (!img) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return -1;
    }
    if (climb_pgm_read(path, img, err, errlen) != 0) {
        free(img);
        return -1;
    }
    *data = img;
    *shape = (climb_shape)CLIMB_SHAPE2(img->rows, img->cols);
    snprintf(desc, desclen, "%s: %zu x %zu pixels (P%c, maxval %u)", climb_base_name(path), img->cols, img->rows,
             img->plain ? '2' : '5', img->maxval);
    return 0;
}

/* A dry run's look at the image: its header. */
static int conv_peek(const char *path, climb_shape *shape, char *desc, size_t desclen, char *err, size_t errlen)
{
    climb_pgm img;
    if (climb_pgm_peek(path, &img, err, errlen) != 0)
        return -1;
    *shape = (climb_shape)CLIMB_SHAPE2(img.rows, img.cols);
    snprintf(desc, desclen, "%s: %zu x %zu pixels (P%c, maxval %u)", climb_base_name(path), img.cols, img.rows,
             img.plain ? '2' : '5', img.maxval);
    return 0;
}

static void conv_unload(void *data)
{
    climb_pgm *img = (climb_pgm *)data;
    if (img)
        climb_pgm_free(img);
    free(img);
}

static void conv_release(climb_case *c, int rung)
{
#ifdef CLIMB_HAVE_CUDNN
    if (is_vendor(rung))
        climb_cudnn_conv_release(&c->dnn);
#else
    (void)c;
    (void)rung;
#endif
}

static void conv_fini(climb_case *c)
{
#ifdef CLIMB_HAVE_CUDNN
    climb_cudnn_conv_release(&c->dnn);
#endif
    free(c->ref);
    free(c->rows_s);
    free(c->row_ref);
}

static int conv_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->rows = p->shape.d[0];
    c->cols = p->shape.d[1];
    c->ld = c->cols;
    c->rx = (int)p->opts[OPT_RADIUS].i;
    c->ry = p->opts[OPT_DIMS].i == 1 ? 0 : c->rx;
    c->taps = (2 * c->rx + 1) * (2 * c->ry + 1);
    c->mask_kind = p->opts[OPT_MASK].choice;
    c->image = (const climb_pgm *)p->opts[OPT_INPUT].data;
    c->tn.outputs = 8;
    c->tn.rows = 4;
    c->tn.tiles = 8;
    return 0;
}

static int conv_fill(climb_case *c)
{
    const size_t n = c->rows * c->ld;
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    make_mask(c->mask_kind, c->rx, c->ry, &rng, c->mask);
    if (c->image)
        memcpy(c->h_in, c->image->pixels, n * sizeof(float));
    else
        climb_rng_fill_f32(&rng, c->h_in, n, 0.0f, 1.0f); /* pixel intensities */
    c->in_max = 0;
    for (size_t k = 0; k < n; k++)
        if (fabs(c->h_in[k]) > c->in_max)
            c->in_max = fabs(c->h_in[k]);
    c->mask_abs = 0;
    for (int k = 0; k < c->taps; k++)
        c->mask_abs += fabs(c->mask[k]);
    c->tol = climb_conv_tolerance(c->taps, c->mask_abs * c->in_max);
    c->vendor_tol = c->tol;
    CLIMB_CHECK(cudaMemcpy(c->d_mask, c->mask, sizeof c->mask, cudaMemcpyHostToDevice));
    return 0;
}

static size_t image_bytes(const climb_case *c) { return at_least_1(c->rows * c->ld) * sizeof(float); }
static size_t mask_bytes(const climb_case *c) { return sizeof c->mask; }

/* The output's poison is all ones: a NaN, which no sum of finite products becomes. */
static const climb_buffer CONV_BUFFERS[] = {
    {.name = "the image", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = image_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "the output", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = image_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out),
     .poison = 0xFF},
    {.name = "the mask", .flags = CLIMB_BUF_DEVICE, .bytes = mask_bytes, .device_at = offsetof(climb_case, d_mask)},
};

static int conv_empty(const climb_case *c) { return c->rows == 0 || c->cols == 0; }

static const char *conv_describe(const climb_case *c)
{
    static const char *const what[3][2] = {
        {"random pixels in [0, 1), random weights in [-1, 1)", "the file's pixels / maxval, random weights in [-1, 1)"},
        {"random pixels in [0, 1), a Gaussian blur", "the file's pixels / maxval, a Gaussian blur"},
        {"random pixels in [0, 1), an edge detector", "the file's pixels / maxval, an edge detector"}};
    return what[c->mask_kind][c->image != NULL];
}

/* The CPU rows a SAMPLES or VENDOR reference checks. */
#define CONV_CPU_ROWS 48

static int conv_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    const size_t rows = c->rows, cols = c->cols;
    double *line = (double *)malloc((cols ? cols : 1) * sizeof(double));
    if (!line)
        return climb_host_oom("the conv reference");
    if (mode == CLIMB_REF_CPU) {
        c->ref = (float *)malloc(at_least_1(rows * cols) * sizeof(float));
        if (!c->ref) {
            free(line);
            return climb_host_oom("the conv reference");
        }
        for (size_t i = 0; i < rows; i++) {
            climb_conv_ref_row(c->h_in, c->ld, rows, cols, c->mask, c->rx, c->ry, i, line, NULL);
            for (size_t j = 0; j < cols; j++)
                c->ref[i * cols + j] = (float)line[j];
        }
        free(line);
        snprintf(desc, desclen, "CPU, double; |error| <= (taps + 2) 2^-24 sum|M| max|in| = %.3g", c->tol);
        return 0;
    }
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0xc0417ULL);
    c->rows_s = climb_rng_samples(&rng, rows, CONV_CPU_ROWS, &c->n_rows_s);
    c->row_ref = (double *)malloc(at_least_1(c->n_rows_s * cols) * sizeof(double));
    if (!c->rows_s || !c->row_ref) {
        free(line);
        return climb_host_oom("the conv reference");
    }
    for (size_t r = 0; r < c->n_rows_s; r++)
        climb_conv_ref_row(c->h_in, c->ld, rows, cols, c->mask, c->rx, c->ry, c->rows_s[r], c->row_ref + r * cols,
                           NULL);
    free(line);
    if (mode == CLIMB_REF_SAMPLES) {
        snprintf(desc, desclen, "CPU, %zu random rows in double, within %.3g", c->n_rows_s, c->tol);
        return 0;
    }
    /* VENDOR: the vendor's output (downloaded by the harness) checked on the sample rows, then adopted for every
     * element. */
    for (size_t r = 0; r < c->n_rows_s; r++)
        for (size_t j = 0; j < cols; j++) {
            const double got = c->h_out[c->rows_s[r] * cols + j], want = c->row_ref[r * cols + j];
            if (!(fabs(got - want) <= c->vendor_tol)) {
                snprintf(desc, desclen, "the vendor's out[%zu][%zu] = %.9g, CPU %.9g (allowed %.3g)", c->rows_s[r], j,
                         got, want, c->vendor_tol);
                return 1;
            }
        }
    c->ref = (float *)malloc(at_least_1(rows * cols) * sizeof(float));
    if (!c->ref)
        return climb_host_oom("the conv reference");
    memcpy(c->ref, c->h_out, rows * cols * sizeof(float));
    snprintf(desc, desclen, "the vendor's output (%zu CPU rows agree within %.3g), within %.3g; the CPU rows checked "
                            "too", c->n_rows_s, c->vendor_tol, c->tol + c->vendor_tol);
    return 0;
}

static double conv_ref_cost(const climb_case *c) { return (double)c->rows * (double)c->cols * c->taps; }

static const char *conv_refuses(const climb_case *c, int rung)
{
    if (c->rows > INT32_MAX || c->cols > INT32_MAX)
        return "rows and cols below 2^31";
    (void)rung; /* a row's own rules are its refuses */
    return NULL;
}

static int conv_prepare(climb_case *c, int rung)
{
    if (CONV_RUNGS[rung].const_mask)
        CLIMB_CHECK(cudaMemcpyToSymbol(conv_const_mask, c->mask, sizeof c->mask));
#ifdef CLIMB_HAVE_CUDNN
    if (is_vendor(rung)) {
        if (dnn_prepare(c) != 0)
            return -1;
        if (climb_cudnn_conv_indirect(&c->dnn) && c->vendor_tol < 64 * c->tol)
            c->vendor_tol = 64 * c->tol;
    }
#endif
    return 0;
}

static int conv_setup(const climb_case *c, int rung, climb_setup *out)
{
#ifdef CLIMB_HAVE_CUDNN
    if (is_vendor(rung)) {
        out->bytes = (double)c->dnn.ws_bytes;
        out->ms = 0;
        return 1;
    }
#else
    (void)c;
    (void)rung;
    (void)out;
#endif
    return 0;
}

/* The output (downloaded by the harness): the copy bound reproduces the input; a rung the reference (a vendor's own
 * output held to its algorithm's tolerance; against an adopted vendor output both tolerances add up); and the CPU
 * rows, whatever the reference (SAMPLES: they are the reference). */
static int conv_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const size_t rows = c->rows, cols = c->cols;
    const int bound = CONV_RUNGS[rung].info.kind == CLIMB_RUNG_BOUND;
    double tol = is_vendor(rung) ? c->vendor_tol : c->tol;
    if (c->mode == CLIMB_REF_VENDOR && !is_vendor(rung))
        tol += c->vendor_tol;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t i = 0; i < rows && (bound || c->ref); i++)
        for (size_t j = 0; j < cols; j++)
            climb_compare_close(&k, c->h_out[i * cols + j], bound ? c->h_in[i * c->ld + j] : c->ref[i * cols + j],
                                bound ? 0 : tol, "out[%zu][%zu]", i, j);
    const double allowed = is_vendor(rung) ? c->vendor_tol : c->tol;
    for (size_t r = 0; !bound && r < c->n_rows_s; r++)
        for (size_t j = 0; j < cols; j++)
            climb_compare_close(&k, c->h_out[c->rows_s[r] * cols + j], c->row_ref[r * cols + j], allowed,
                                "out[%zu][%zu] against the CPU", c->rows_s[r], j);
    return climb_compare_end(&k);
}

static void conv_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double px = (double)c->rows * (double)c->cols;
    out->bytes_read = 4 * px;
    out->bytes_written = 4 * px;
    out->flops = 2.0 * c->taps * px;
}

/* The filtered image, as the input's kind of file: a PGM, each value clamped to [0, 1] (a Gaussian's output stays
 * there; an edge detector's negative side goes to black). */
static int conv_save(climb_case *c, int rung, const char *path, char *err, size_t errlen)
{
    if (c->rows == 0 || c->cols == 0) {
        snprintf(err, errlen, "%s: an empty image", path);
        return -1;
    }
    char comment[200];
    snprintf(comment, sizeof comment, "climb conv %s: %s mask, radius %d, %s", CONV_RUNGS[rung].info.name,
             CONV_MASKS[c->mask_kind], c->rx, c->ry ? "2-D" : "1-D (rows)");
    return climb_pgm_write(path, c->h_out, c->rows, c->cols, c->cols, comment, err, errlen);
}

static void conv_set_tuning(climb_case *c, const int *values) { climb_conv_set_tuning(&c->tn, values); }

/* climb's images: 8192^2, 4096^2 and an odd 1001 x 3001. */
static const climb_shape CONV_BENCH_SHAPES[] = {CLIMB_SHAPE2(8192, 8192), CLIMB_SHAPE2(4096, 4096),
                                                CLIMB_SHAPE2(1001, 3001)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape CONV_MAIN_SHAPES[] = {CLIMB_SHAPE2(4096, 4096)};
/* Empty, one pixel, a row, a column, smaller than every tile, tiles' edges and one past them. */
static const climb_shape CONV_CHECK_SHAPES[] = {
    CLIMB_SHAPE2(0, 0),   CLIMB_SHAPE2(0, 5),   CLIMB_SHAPE2(5, 0),    CLIMB_SHAPE2(1, 1),   CLIMB_SHAPE2(1, 300),
    CLIMB_SHAPE2(300, 1), CLIMB_SHAPE2(3, 5),   CLIMB_SHAPE2(7, 9),    CLIMB_SHAPE2(31, 33), CLIMB_SHAPE2(65, 63),
    CLIMB_SHAPE2(129, 97), CLIMB_SHAPE2(257, 1001)};
static const climb_shape CONV_QUICK_SHAPES[] = {CLIMB_SHAPE2(1, 1), CLIMB_SHAPE2(31, 33), CLIMB_SHAPE2(129, 97)};

static const climb_sweep CONV_SWEEPS[] = {
    {.name = "radius", .title = "2-D convolution f32: GB/s against the mask radius (3 x 3 to 9 x 9)", .args = NULL,
     .x = "radius", .log_x = 0},
    {.name = "rows1d", .title = "1-D convolution of each row f32: GB/s against the mask radius (3 to 9 taps)",
     .args = "--set dims=1", .x = "radius", .log_x = 0},
    {.name = "images", .title = "photographs and test images (the data folder's images/), Gaussian blur: GB/s "
                                "against the width",
     .args = "--set mask=gauss --input {data}/images/boat_256_ascii.pgm --input {data}/images/cameraman.pgm "
             "--input {data}/images/cuda_teapot_1024.pgm --input {data}/images/resolution_test_1920.pgm",
     .x = "cols", .log_x = 1},
};

extern "C" const climb_workload climb_conv_workload = {
    .name = "conv",
    .title = "1-D and 2-D convolution with a (2r+1)^2 mask, zero ghost cells (f32)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, convolution (basic, constant "
                "memory, tiling strategies 1-3)",
    .dims = {"rows", "cols"},
    .shape_format = "{rows}x{cols}",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = CONV_OPTIONS,
    .n_options = CLIMB_COUNT(CONV_OPTIONS),
    .bytes_counted = "read: the image (rows x cols floats) once; written: the output (rows x cols floats)",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = CONV_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(CONV_BENCH_SHAPES),
    .check_shapes = CONV_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(CONV_CHECK_SHAPES),
    .quick_shapes = CONV_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(CONV_QUICK_SHAPES),
    .main_shapes = CONV_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(CONV_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(CONV_RUNGS),
    .rung = conv_rung_info,
    .sweeps = CONV_SWEEPS,
    .n_sweeps = CLIMB_COUNT(CONV_SWEEPS),
    .load = conv_load,
    .unload = conv_unload,
    .peek = conv_peek,
    .case_size = sizeof(climb_case),
    .buffers = CONV_BUFFERS,
    .n_buffers = CLIMB_COUNT(CONV_BUFFERS),
    .init = conv_init,
    .fill = conv_fill,
    .fini = conv_fini,
    .describe = conv_describe,
    .reference = conv_reference,
    .ref_cost = conv_ref_cost,
    .ref_cost_limit = 2.0e9,
    .refuses = conv_refuses,
    .prepare = conv_prepare,
    .setup = conv_setup,
    .empty = conv_empty,
    .verify = conv_verify,
    .counts = conv_counts,
    .rung_counts = NULL,
    .release = conv_release,
    .save = conv_save,
    .tuning = &CONV_TUNING,
    .set_tuning = conv_set_tuning,
};
