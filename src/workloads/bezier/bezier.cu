/*
 * bezier.cu - adaptive tessellation of quadratic Bezier curves, as a ladder: the data-dependent parallelism that
 * dynamic parallelism was introduced for, and what replaces it.
 *
 * From Kirk and Hwu, Programming Massively Parallel Processors, the dynamic-parallelism chapter's Bezier
 * example) and Introduction to CUDA 5.0 (CUDA 5 introducing dynamic parallelism), after Adinets, "Adaptive Parallel Computation
 * with CUDA Dynamic Parallelism" (NVIDIA, 2014): each curve's curvature decides its point count (floor(16
 * curvature), clamped to [4, max_points]; src/workloads/bezier/reference.h). Rungs: every curve at the maximum count (balanced,
 * wasteful); a block per curve with its own count (the book's version: imbalanced); a parent thread per curve that
 * launches a child grid of its points into a pool placed by a scan (dynamic parallelism); and the best rung, with
 * no device launch: the counts and their scan in one kernel, then one flat launch over all the points, each block
 * finding the curves its points belong to. See docs/bezier.md and docs/dynamic-parallelism.md.
 *
 * The output: counts[i], offsets[i] (where curve i's points start) and the points (x, y as float2). The first two
 * rungs keep the book's layout, max_points slots a curve (offsets[i] = i max_points); the others pack the points
 * (offsets the exclusive scan of the counts).
 *
 * The kernels all rungs share are in kernels.cuh; the dynamic-parallelism rung's, which launch from the device, in
 * launch.rdc.cu, the one file compiled as relocatable device code (a module that holds device launches is one the
 * sanitizer's racecheck and synccheck refuse to load).
 *
 * Order of this file: kernels, launchers, the registry table, options, the harness glue.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "../../base/check.h"
#include "../../device/device.h"
#include "../../core/workload.cuh"
#include "bezier.h"
#include "kernels.cuh"

/* ---------------------------------------------------------------- kernels (the rest: kernels.cuh) */

/* --- the best rung's flat launch: the points 0 .. total - 1 in tiles of BEZ_TILE over a grid that stays; a tile's
 * first two warps find the curves that own its first and last point (a warp's search of the offsets), the block
 * stages those curves (at most BEZ_WINDOW: every curve has 4 points or more), and each thread computes 4 points,
 * each finding its curve by a binary search of the staged offsets. The stores are coalesced float2s. */
__global__ void __launch_bounds__(BEZ_BLOCK)
    bez_flat_kernel(const climb_bezier *__restrict__ curves, int n, const int *offsets, const int *total_p,
                    float2 *pts)
{
    __shared__ int s_off[BEZ_WINDOW + 1];
    __shared__ climb_bezier s_curve[BEZ_WINDOW];
    __shared__ int s_first, s_last;
    climb_grid_dependency_wait();
    const int total = *total_p, warp = threadIdx.x >> 5;
    for (long long k0 = (long long)blockIdx.x * BEZ_TILE; k0 < total; k0 += (long long)gridDim.x * BEZ_TILE) {
        const int k1 = (int)min(k0 + BEZ_TILE, (long long)total);
        if (warp < 2) {
            const int at = climb_warp_search_le(offsets, n, warp == 0 ? (int)k0 : k1 - 1);
            if ((threadIdx.x & 31) == 0)
                (warp == 0 ? s_first : s_last) = at;
        }
        __syncthreads();
        const int first = s_first, w = s_last - first + 1;
        for (int j = threadIdx.x; j <= w; j += BEZ_BLOCK) {
            s_off[j] = first + j < n ? offsets[first + j] : total; /* one past: the last curve's end */
            if (j < w)
                s_curve[j] = curves[first + j];
        }
        __syncthreads();
#pragma unroll
        for (int it = 0; it < BEZ_ITEMS; it++) {
            const int k = (int)k0 + it * BEZ_BLOCK + (int)threadIdx.x;
            if (k < k1) {
                int lo = 0, hi = w - 1; /* the last staged curve that starts at or before k */
                while (lo < hi) {
                    const int mid = (lo + hi + 1) >> 1;
                    if (s_off[mid] <= k)
                        lo = mid;
                    else
                        hi = mid - 1;
                }
                pts[k] = bez_point(s_curve[lo], k - s_off[lo], s_off[lo + 1] - s_off[lo]);
            }
        }
        __syncthreads(); /* the staged curves are read until here */
    }
}

/* ---------------------------------------------------------------- launchers */


static cudaError_t launch_max(const bez_args *a)
{
    if (a->n > 0)
        bez_block_kernel<true><<<a->n, BEZ_WARP, 0, a->s>>>(a->curves, a->maxp, a->counts, a->offsets, a->pts);
    return cudaGetLastError();
}

static cudaError_t launch_block(const bez_args *a)
{
    if (a->n > 0)
        bez_block_kernel<false><<<a->n, BEZ_WARP, 0, a->s>>>(a->curves, a->maxp, a->counts, a->offsets, a->pts);
    return cudaGetLastError();
}

static cudaError_t launch_flat(const bez_args *a)
{
    if (a->n == 0)
        return cudaSuccess;
    bez_scan_kernel<false><<<bez_tiles(a->n), BEZ_BLOCK, 0, a->s>>>(a->curves, a->n, a->maxp, a->counts,
                                                                   a->offsets, a->total, a->pts, a->ws, a->capacity,
                                                                   a->failed);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    /* enough tiles for the output at its largest, but no more than the device holds at once */
    const long long most = ((long long)a->n * a->maxp + BEZ_TILE - 1) / BEZ_TILE;
    const long long fit = (long long)a->sms * BEZ_FLAT_PER_SM;
    const climb_bezier *curves = a->curves;
    int n = a->n;
    const int *offsets = a->offsets, *total = a->total;
    float2 *pts = a->pts;
    void *args[] = {(void *)&curves, (void *)&n, (void *)&offsets, (void *)&total, (void *)&pts};
    return climb_launch_ex((const void *)bez_flat_kernel, (unsigned)(most < fit ? most : fit), BEZ_BLOCK, 0, a->s,
                           args, a->cc_major >= 9);
}

/* ---------------------------------------------------------------- the library face */

/* The best rung's workspace: the total's word, then the look-back's header and a status word a tile (zeroed once,
 * kept zeroed by the scan itself). */
extern "C" size_t climb_bezier_best_workspace(int32_t n)
{
    const size_t tiles = n > 0 ? bez_tiles(n) : 1;
    return 16 + CLIMB_LOOKBACK_HDR + tiles * 8;
}

extern "C" cudaError_t climb_bezier_best(int32_t n, int32_t max_points, const climb_bezier *curves, int32_t *counts,
                                         int32_t *offsets, float *points, void *ws, size_t ws_bytes, int sms,
                                         int cc_major, cudaStream_t s)
{
    if (n < 0 || max_points < CLIMB_BEZIER_MIN_POINTS || ws_bytes < climb_bezier_best_workspace(n) ||
        (double)n * max_points > (double)CLIMB_BEZIER_MAX_OUTPUT)
        return cudaErrorInvalidValue;
    char *w = (char *)ws;
    const bez_args a = {n,      max_points, curves, counts, offsets, (int *)w, NULL, (float2 *)points, w + 16,
                        (unsigned)((ws_bytes - 16 - CLIMB_LOOKBACK_HDR) / 8), sms, cc_major, s};
    return launch_flat(&a);
}

/* ---------------------------------------------------------------- the registry */

typedef cudaError_t (*bez_launch_fn)(const bez_args *a);

static int k_max(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)bez_block_kernel<true>, "bez_block_kernel<true>", BEZ_WARP, 0);
}
static int k_block(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)bez_block_kernel<false>, "bez_block_kernel<false>", BEZ_WARP, 0);
}
static int k_dp(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return bez_dp_kernels(o, max);
}
static int k_flat(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)bez_scan_kernel<false>, BEZ_BLOCK, 0,
                                  "bez_scan_kernel<false>");
    return climb_kernel_at(o, max, n, (const void *)bez_flat_kernel, BEZ_BLOCK, 0, "bez_flat_kernel");
}

/* The rows' launches take the launchers' arguments, not the case: the run hook makes those and calls them. */
typedef struct bez_rung {
    climb_rung_info info;
    bez_launch_fn launch;
    int packed;    /* 1: the points packed by the scan; 0: max_points slots a curve */
    int every_max; /* 1: every curve gets max_points points, whatever its curvature */
} bez_rung;

struct climb_case;
static const char *refuses_dp(const climb_case *c);

static const bez_rung BEZ_RUNGS[] = {
    {.info = {.name = "max_points", .idea = "a block of 32 threads a curve, every curve at max_points points: "
                                            "balanced, and as many points for a straight curve as the most curved",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_max},
     .launch = launch_max, .packed = 0, .every_max = 1},
    {.info = {.name = "block_per_curve", .idea = "the book's version: a block of 32 threads a curve, each curve's own "
                                                 "count from its curvature: no wasted points, blocks of unequal work",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_block},
     .launch = launch_block, .packed = 0},
    {.info = {.name = "dynamic_parallelism", .idea = "a parent thread a curve: its count, its place in a pool by a "
                                                     "one-pass scan, then a child grid of its points launched from "
                                                     "the device (fire-and-forget stream)",
              .needs = "up to 2^16 curves", .kind = CLIMB_RUNG_LADDER, .kernels = k_dp, .device_launches = 1,
              .refuses = refuses_dp},
     .launch = bez_launch_dp, .packed = 1},
    {.info = {.name = "flat_scan", .idea = "no device launch: the counts and their scan in one pass, then one flat "
                                           "launch over all the points (a programmatic dependent launch), each tile "
                                           "finding its curves by a search of the offsets",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_flat},
     .launch = launch_flat, .packed = 1},
};
#define BEZ_N_RUNGS CLIMB_COUNT(BEZ_RUNGS)
static const climb_rung_info *bez_rung_info(int i) { return &BEZ_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

enum { OPT_CURVES, OPT_MAX_POINTS };
static const char *const BEZ_SETS[] = {"uniform", "skewed", "straight", NULL};
static constexpr climb_option BEZ_OPTIONS[] = {
    {.name = "curves", .kind = CLIMB_OPT_CHOICE,
     .meaning = "the curve set: uniform (curvatures spread from 0 to 1: 4 to 16 points), skewed (1 curve in 100 very "
                "curved, max_points points; the rest nearly straight, 4: the imbalance), straight (4 points each)",
     .def = "all", .choices = BEZ_SETS, .generator = 1},
    {.name = "max_points", .kind = CLIMB_OPT_INT,
     .meaning = "the most points a curve gets (the book's MAX_TESS_POINTS)", .def = "32",
     .min = CLIMB_BEZIER_MIN_POINTS, .max = CLIMB_BEZIER_MAX_POINTS},
};
CLIMB_OPTION_AT(BEZ_OPTIONS, OPT_CURVES, "curves");
CLIMB_OPTION_AT(BEZ_OPTIONS, OPT_MAX_POINTS, "max_points");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    int n, maxp, set;
    long long total;              /* the reference's points (the items) */
    climb_bezier *curves, *d_curves;
    int *got_counts, *d_counts, *got_offsets, *d_offsets;  /* each curve's count and first point */
    float2 *got_pts, *d_pts;      /* max_points slots a curve */
    int *got_failed, *d_failed;   /* set by a device launch that fails */
    int *d_total;
    char *d_ws;
    unsigned capacity;
    char desc[300], note[160];
};

/* The device-launching rung: a launch a curve, all pending at once (2^20 failed on an H100). */
static const char *refuses_dp(const climb_case *c)
{
    if ((size_t)c->n > CLIMB_BEZIER_DP_MAX_CURVES)
        return "more than 2^16 curves: a device launch a curve, all pending at once (2^20 failed on an H100)";
    return NULL;
}

static const char *bez_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    if (opts && (double)s->d[0] * (double)opts[OPT_MAX_POINTS].i > (double)CLIMB_BEZIER_MAX_OUTPUT)
        return "curves x max_points passes 2^31 - 1 points (the offsets are 32-bit)";
    return NULL;
}

/* Host memory: the curves, the counts and offsets read back, the points read back (max_points slots a curve). */
static double bez_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    return (double)s->d[0] * (24.0 + 8.0 + 8.0 * (opts ? (double)opts[OPT_MAX_POINTS].i : 32.0));
}

static int bez_init(climb_case *c)
{
    const char *why = bez_case_refuses(&c->p.shape, c->p.type, c->p.opts);
    if (why) {
        fprintf(stderr, "climb: bezier: %s\n", why);
        return -1;
    }
    c->n = (int)c->p.shape.d[0];
    c->maxp = (int)c->p.opts[OPT_MAX_POINTS].i;
    c->set = c->p.opts[OPT_CURVES].choice;
    c->capacity = c->n ? (unsigned)((c->n + BEZ_BLOCK - 1) / BEZ_BLOCK) : 1;
    return 0;
}

/* The curves, and what the reference says of them: the points in all, the fewest and most a curve. */
static int bez_fill(climb_case *c)
{
    climb_bezier_generate(c->p.seed, c->set, c->curves, (size_t)c->n);
    int most = 0, fewest = c->maxp;
    for (int i = 0; i < c->n; i++) {
        const int k = climb_bezier_count(climb_bezier_curvature(&c->curves[i]), c->maxp);
        c->total += k;
        most = k > most ? k : most;
        fewest = k < fewest ? k : fewest;
    }
    snprintf(c->desc, sizeof c->desc, "%s curves: %lld points (%.2f a curve, %d to %d; max_points %d)",
             BEZ_SETS[c->set], c->total, c->n ? (double)c->total / c->n : 0.0, c->n ? fewest : 0, most, c->maxp);
    return 0;
}

static size_t n1(const climb_case *c) { return c->n ? (size_t)c->n : 1; }
static size_t curves_bytes(const climb_case *c) { return n1(c) * sizeof(climb_bezier); }
static size_t ints_bytes(const climb_case *c) { return n1(c) * sizeof(int); }
static size_t pts_bytes(const climb_case *c) { return n1(c) * (size_t)c->maxp * sizeof(float2); }
static size_t word_bytes(const climb_case *c) { return (void)c, sizeof(int); }
static size_t ws_bytes(const climb_case *c) { return CLIMB_LOOKBACK_HDR + (size_t)c->capacity * 8; }

#define BEZ_IO (CLIMB_BUF_HOST | CLIMB_BUF_DEVICE)
/* The counts, offsets and points poisoned with all ones (-1, -1 and NaN); the failure flag cleared (a device launch
 * that fails sets it again). */
static const climb_buffer BEZ_BUFFERS[] = {
    {.name = "curves", .flags = BEZ_IO | CLIMB_BUF_INPUT, .bytes = curves_bytes,
     .host_at = offsetof(climb_case, curves), .device_at = offsetof(climb_case, d_curves)},
    {.name = "counts", .flags = BEZ_IO | CLIMB_BUF_OUTPUT, .bytes = ints_bytes,
     .host_at = offsetof(climb_case, got_counts), .device_at = offsetof(climb_case, d_counts), .poison = 0xff},
    {.name = "offsets", .flags = BEZ_IO | CLIMB_BUF_OUTPUT, .bytes = ints_bytes,
     .host_at = offsetof(climb_case, got_offsets), .device_at = offsetof(climb_case, d_offsets), .poison = 0xff},
    {.name = "points", .flags = BEZ_IO | CLIMB_BUF_OUTPUT, .bytes = pts_bytes,
     .host_at = offsetof(climb_case, got_pts), .device_at = offsetof(climb_case, d_pts), .poison = 0xff},
    {.name = "failure flag", .flags = BEZ_IO | CLIMB_BUF_OUTPUT | CLIMB_BUF_ZERO, .bytes = word_bytes,
     .host_at = offsetof(climb_case, got_failed), .device_at = offsetof(climb_case, d_failed), .poison = 0},
    {.name = "total", .flags = CLIMB_BUF_DEVICE, .bytes = word_bytes, .device_at = offsetof(climb_case, d_total)},
    {.name = "scan's look-back", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_ZERO, .bytes = ws_bytes,
     .device_at = offsetof(climb_case, d_ws)},
};
#undef BEZ_IO

static int bez_empty(const climb_case *c) { return c->n == 0; }

static const char *bez_describe(const climb_case *c) { return c->desc; }

static int bez_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "every curve's count (its neighbour where 16 x the curvature is within 1e-5 of a whole "
                            "number) and every point against the CPU in double, within 2^-20 (|P0| + 2|P1| + |P2|)");
    return 0;
}

/* The device launches pending at once: one a curve. The runtime's fixed pool holds 2048 unless told more; past it,
 * launches go to a slower virtualised pool. Sized to the curves before the runs (untimed). */
static int bez_prepare(climb_case *c, int rung)
{
    if (!BEZ_RUNGS[rung].info.device_launches || c->n == 0)
        return 0;
    CLIMB_CHECK(climb_reserve_device_launches((size_t)c->n));
    return 0;
}

static int bez_run(climb_case *c, int rung, cudaStream_t s)
{
    const bez_args a = {c->n,        c->maxp,  c->d_curves, c->d_counts, c->d_offsets, c->d_total,
                        c->d_failed, c->d_pts, c->d_ws,     c->capacity, c->p.dev ? c->p.dev->sms : 1,
                        c->p.dev ? c->p.dev->cc_major : 0, s};
    CLIMB_CHECK(BEZ_RUNGS[rung].launch(&a));
    return 0;
}

/* The counts and the layout first (they say where the points are), then every point. */
static int bez_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const bez_rung *r = &BEZ_RUNGS[rung];
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (!climb_compare_check(&k, c->n == 0 || !*c->got_failed, "a device-side launch failed"))
        return climb_compare_end(&k);
    long long at = 0;
    for (int i = 0; i < c->n; i++) {
        const int got = c->got_counts[i];
        const double curv = climb_bezier_curvature(&c->curves[i]);
        const int ok = r->every_max ? got == c->maxp : climb_bezier_count_ok(&c->curves[i], c->maxp, got);
        climb_compare_check(&k, ok && got >= CLIMB_BEZIER_MIN_POINTS && got <= c->maxp,
                            "curve %d: %d points, expected %d (curvature %.9g)", i, got,
                            r->every_max ? c->maxp : climb_bezier_count(curv, c->maxp), curv);
        const long long want = r->packed ? at : (long long)i * c->maxp;
        climb_compare_check(&k, c->got_offsets[i] == want, "curve %d starts at point %d, expected %lld (%s)", i,
                            c->got_offsets[i], want,
                            r->packed ? "the exclusive scan of the counts" : "max_points slots a curve");
        at += got >= 0 && got <= c->maxp ? got : 0;
    }
    if (k.bad)
        return climb_compare_end(&k);
    for (int i = 0; i < c->n; i++) {
        const climb_bezier *b = &c->curves[i];
        const double tol = climb_bezier_tolerance(b);
        const int n = c->got_counts[i];
        const float2 *p = c->got_pts + c->got_offsets[i];
        for (int j = 0; j < n; j++) {
            double x, y;
            climb_bezier_point(b, j, n, &x, &y);
            const double e = fmax(fabs(p[j].x - x), fabs(p[j].y - y));
            climb_compare_check(&k, e <= tol, "curve %d point %d = (%.9g, %.9g), expected (%.9g, %.9g) within %.3g",
                                i, j, p[j].x, p[j].y, x, y, tol); /* NaN fails */
        }
    }
    return climb_compare_end(&k);
}

/* Read: the curves (24 bytes each); written: the points (8 bytes each), a count and an offset a curve. */
static void bez_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = 24.0 * c->n;
    out->bytes_written = 8.0 * (double)c->total + 8.0 * c->n;
    out->items = (double)c->total;
}

/* max_points writes max_points points a curve; the items stay the points the case asks for. */
static int bez_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (!BEZ_RUNGS[rung].every_max)
        return 0;
    bez_counts(c, out);
    out->bytes_written = 8.0 * (double)c->n * c->maxp + 8.0 * c->n;
    return 1;
}

static const char *bez_rung_note(climb_case *c, int rung)
{
    if (!BEZ_RUNGS[rung].info.device_launches || c->n == 0)
        return NULL;
    snprintf(c->note, sizeof c->note, "%d device launches a run (a child grid a curve) from %u parent blocks", c->n,
             c->capacity);
    return c->note;
}

static const climb_shape BEZ_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 16), CLIMB_SHAPE1((size_t)1 << 20)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape BEZ_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20)};
/* Empty, one curve, a few, around a warp, a scan block and a flat tile, several tiles. */
static const climb_shape BEZ_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),   CLIMB_SHAPE1(1),    CLIMB_SHAPE1(2),
                                               CLIMB_SHAPE1(3),   CLIMB_SHAPE1(31),   CLIMB_SHAPE1(33),
                                               CLIMB_SHAPE1(255), CLIMB_SHAPE1(257),  CLIMB_SHAPE1(1000),
                                               CLIMB_SHAPE1(4099), CLIMB_SHAPE1(65536)};
static const climb_shape BEZ_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(257), CLIMB_SHAPE1(4099)};

static const climb_sweep BEZ_SWEEPS[] = {
    {.name = "curves",
     .title = "Bezier tessellation of skewed curves: points per second against the number of curves",
     .args = "--set curves=skewed --size 2^10 --size 2^12 --size 2^14 --size 2^16 --size 2^18 --size 2^20",
     .x = "curves",
     .log_x = 1},
};

extern "C" const climb_workload climb_bezier_workload = {
    .name = "bezier",
    .title = "Adaptive tessellation of quadratic Bezier curves (dynamic parallelism and what replaces it)",
    .sources = "Kirk and Hwu, Programming Massively Parallel Processors, and Introduction to CUDA 5.0 (dynamic "
                "parallelism, the Bezier example); Adinets, Adaptive Parallel Computation with CUDA Dynamic "
                "Parallelism",
    .command = NULL,
    .dims = {"curves"},
    .shape_format = "{curves} curves",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = BEZ_OPTIONS,
    .n_options = CLIMB_COUNT(BEZ_OPTIONS),
    .bytes_counted = "read: the curves (24 bytes each); written: the points (8 bytes each), a count and an offset a "
                     "curve (max_points: its max_points points a curve)",
    .items_unit = "points",
    .items_rate = "Gpoints/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = BEZ_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(BEZ_BENCH_SHAPES),
    .check_shapes = BEZ_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(BEZ_CHECK_SHAPES),
    .quick_shapes = BEZ_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(BEZ_QUICK_SHAPES),
    .main_shapes = BEZ_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(BEZ_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = BEZ_N_RUNGS,
    .rung = bez_rung_info,
    .published = NULL,
    .sweeps = BEZ_SWEEPS,
    .n_sweeps = CLIMB_COUNT(BEZ_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .peek = NULL,
    .case_size = sizeof(climb_case),
    .buffers = BEZ_BUFFERS,
    .n_buffers = CLIMB_COUNT(BEZ_BUFFERS),
    .init = bez_init,
    .fill = bez_fill,
    .fini = NULL,
    .create = NULL,
    .describe = bez_describe,
    .reference = bez_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = bez_case_bytes,
    .case_refuses = bez_case_refuses,
    .refuses = NULL,
    .prepare = bez_prepare,
    .setup = NULL,
    .modifies = NULL,
    .reset = NULL,
    .run = bez_run,
    .empty = bez_empty,
    .poison = NULL,
    .verify = bez_verify,
    .counts = bez_counts,
    .rung_counts = bez_rung_counts,
    .rung_note = bez_rung_note,
    .release = NULL,
    .save = NULL,
    .destroy = NULL,
    .tuning = NULL,
    .set_tuning = NULL,
};
