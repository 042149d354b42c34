/*
 * cutoff.cu - cutoff Coulomb summation: the electrostatic potential of N atoms on a 3-D lattice with a cutoff radius
 * and a smoothing function, f32, the cutoff ladder of the Coulomb chapter of Hwu, Kirk and El Hajj, "Programming
 * Massively Parallel Processors" (PMPP), in Parboil cutcp's form:
 *
 *   V(p) = sum over atoms a with r = |p - a| < c of q_a / r (1 - r^2 / c^2)^2,   and V(p) = 0 where an atom of
 *   nonzero charge is nearer to p than the exclusion distance (Parboil zeroes those points).
 *
 * Only the atoms within c of a point count: a few hundred to a few thousand, against all N for direct summation.
 * The ladder is about finding them:
 *   direct          every atom for every point with the cutoff test: the O(N M) baseline (dcs's best loop);
 *   cpu_bins        the book's scheme: the host sorts the atoms into bins of a fixed capacity (dummy atoms fill the
 *                   rest) and keeps the atoms that do not fit in an overflow list it sums itself while the GPU runs;
 *                   a thread block per bin-sized region of the lattice reads the neighbouring bins, listed once in
 *                   constant memory as offsets, through shared memory;
 *   gpu_bins        the same bins built on the GPU with atomics (a bin's count read before the atomic, so a full
 *                   bin costs no atomic), the overflow list read back for the host;
 *   scan_bins       binning by a scan: counts, offsets by a prefix sum, scatter: every atom in its bin, no capacity,
 *                   no dummy atoms, no overflow, nothing on the host; a bin row of neighbours (a pencil along x) is
 *                   one contiguous range of atoms;
 *   pencils_cylinder (best) the pencils concatenated in tiles of a block's width, the cylinder test (dx^2 + dy^2,
 *                   shared by a thread's points along z, checked before any of them), tuned points a thread.
 * Bins are cubes of 8 lattice points a side, one thread block's region. The share of the atoms a rung examines that
 * are within the cutoff (the book's 34%) is in each report's notes.
 *
 * Counted per case: the items are N x points atom-point pairs (the pairs direct summation evaluates, so the items
 * rate compares with dcs's); each rung's special-function work (one rsqrt) and 14 flops are per pair it examines
 * (the pairs within the cutoff for the case's least). See docs/cutoff.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../core/workload.cuh"
#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../io/molecule.h"
#include "../../io/parboil.h"
#include "../../io/text.h"
#include "cutoff.h"
#include "../common/lattice.h"
#include "../../base/checked.h"

#include "kernels.cuh"

/* ---------------------------------------------------------------- the best rung, for the library face */

static const int CUT_POINTS[] = {2, 4, 8};

extern "C" void climb_cutoff_set_tuning(climb_cutoff_tuning *t, const int *values) { t->points = values[0]; }

static int lattice_fits(const climb_cutoff_lattice *l, size_t n)
{
    return l->nx <= INT32_MAX && cdiv(l->ny, CLIMB_CUTOFF_BIN) <= 65535 && cdiv(l->nz, CLIMB_CUTOFF_BIN) <= 65535 &&
           n <= INT32_MAX;
}

extern "C" cudaError_t climb_cutoff_best(const climb_cutoff_tuning *t, const climb_cutoff_lattice *l,
                                         const float *d_atoms, size_t n, float *out, void *ws, cudaStream_t s)
{
    if (l->nx == 0 || l->ny == 0 || l->nz == 0)
        return cudaSuccess;
    climb_cutoff_bins b;
    char err[200];
    if (!lattice_fits(l, n) || climb_cutoff_bins_of(l, &b, err, sizeof err) != 0)
        return cudaErrorInvalidValue;
    const cut_grid g = grid_of(l, &b);
    cut_ws w = {NULL, NULL, NULL, NULL};
    ws_layout(b.count, n, ws, &w);
    cudaError_t e = scan_binning(g, b.count, (const float4 *)d_atoms, n, w, s);
    return e != cudaSuccess ? e : launch_pencils(t->points, true, g, l, w, out, s);
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_cutoff_lattice l;
    climb_cutoff_bins b;
    int bins_ok;
    char bins_err[200];
    cut_grid g;
    size_t points, n;
    float *h_atoms, *d_atoms;       /* 4 n: x, y, z, q (16-byte aligned: float4 loads) */
    float *h_out, *d_out;           /* the lattice, the offset's elements past its allocation */
    double lo[3], hi[3];            /* the atoms' box */
    /* the reference */
    climb_ref_mode mode;
    climb_cutoff_ref *ref;
    size_t *samples, n_samples;
    double within;                  /* pairs within the cutoff, over every point (estimated from the samples) */
    /* the host's binning: every atom's bin (-1 dropped), counts and offsets */
    int64_t *h_bin;
    int *h_counts, *h_start;
    double pencil_examined;         /* pairs the pencil rungs examine */
    int n_nbr, *h_nbr;              /* the neighbour offsets of the capacity rungs */
    long n_nbr_all;                 /* how many there are (more than CUT_MAX_NBR: a capacity rung refuses) */
    /* the capacity rungs */
    int cap;
    float4 *h_bins, *h_ovf_atoms;   /* page-locked */
    float *h_ovf;                   /* page-locked: the CPU's sums over the overflow atoms, every point */
    int *h_novf, *h_fill;           /* page-locked */
    float4 *d_bins, *d_ovf_atoms;
    float *d_ovf;
    int *d_fill, *d_novf;
    cudaStream_t aux;
    cudaEvent_t binned;
    double cpu_examined[8];        /* per rung: the pairs the host examined in its last run */
    size_t n_ovf[8];
    int ran_cap[8];
    /* the scan-binning rungs */
    void *d_ws;
    cut_ws ws;
    climb_cutoff_tuning tn;
};

typedef cudaError_t (*cut_launch_fn)(climb_case *c, cudaStream_t s);
static int refused_grid(const climb_case *c, size_t rows, char *buf, size_t len);

/* The host's binning of the case's atoms, once: each atom's bin, the bins' counts and offsets. */
static int host_bins(climb_case *c)
{
    if (c->h_bin)
        return 0;
    c->h_bin = (int64_t *)malloc((c->n ? c->n : 1) * sizeof(int64_t));
    c->h_counts = (int *)calloc(c->b.count, sizeof(int));
    c->h_start = (int *)calloc(c->b.count + 1, sizeof(int));
    if (!c->h_bin || !c->h_counts || !c->h_start)
        return climb_host_oom("the cutoff bins");
    for (size_t a = 0; a < c->n; a++) {
        const float *p = c->h_atoms + 4 * a;
        c->h_bin[a] = cut_bin(c->g, p[0], p[1], p[2], p[3]);
        if (c->h_bin[a] >= 0)
            c->h_counts[c->h_bin[a]]++;
    }
    for (size_t i = 0; i < c->b.count; i++)
        c->h_start[i + 1] = c->h_start[i] + c->h_counts[i];
    return 0;
}

/* The smallest capacity that holds 95% of the binned atoms in their bins (the book's rule), at most 128 (a tile). */
static int capacity_rule(const int *counts, size_t nb)
{
    int most = 0;
    double total = 0;
    for (size_t i = 0; i < nb; i++) {
        most = counts[i] > most ? counts[i] : most;
        total += counts[i];
    }
    for (int cap = 1; cap < 128 && cap < most; cap++) {
        double held = 0;
        for (size_t i = 0; i < nb; i++)
            held += counts[i] < cap ? counts[i] : cap;
        if (held >= 0.95 * total)
            return cap;
    }
    return most < 1 ? 1 : most > 128 ? 128 : most;
}

/* Lattice points of region (rx, ry, rz) that are on the lattice. */
static double region_points(const climb_case *c, size_t rx, size_t ry, size_t rz)
{
    const size_t B = CLIMB_CUTOFF_BIN;
    return (double)(c->l.nx - rx * B < B ? c->l.nx - rx * B : B) * (double)(c->l.ny - ry * B < B ? c->l.ny - ry * B : B) *
           (double)(c->l.nz - rz * B < B ? c->l.nz - rz * B : B);
}

/* The neighbour bins of a region (offsets from its own bin, into out when not NULL, at most max): those whose
 * nearest point is within the cutoff of the region's. How many there are; past max, counting stops there + 1. */
static long neighbours(const climb_cutoff_bins *b, float c2, int *out, long max)
{
    const int m = b->margin;
    if (m > 16) /* a ball of radius m - 1 bins holds more than 8192 of them: no list of such length is used */
        return max + 1;
    long n = 0;
    for (int dz = -m; dz <= m; dz++)
        for (int dy = -m; dy <= m; dy++)
            for (int dx = -m; dx <= m; dx++) {
                const double gx = (abs(dx) > 1 ? abs(dx) - 1 : 0) * (double)b->side;
                const double gy = (abs(dy) > 1 ? abs(dy) - 1 : 0) * (double)b->side;
                const double gz = (abs(dz) > 1 ? abs(dz) - 1 : 0) * (double)b->side;
                if (gx * gx + gy * gy + gz * gz < (double)c2) {
                    if (n == max)
                        return max + 1;
                    if (out)
                        out[n] = (dz * b->by + dy) * b->bx + dx;
                    n++;
                }
            }
    return n;
}

/* The neighbour list of the capacity rungs. */
static int neighbour_list(climb_case *c)
{
    if (c->h_nbr)
        return 0;
    c->h_nbr = (int *)malloc(CUT_MAX_NBR * sizeof(int));
    if (!c->h_nbr)
        return climb_host_oom("the neighbour list");
    c->n_nbr = (int)neighbours(&c->b, c->g.c2, c->h_nbr, CUT_MAX_NBR);
    return 0;
}

/* The CPU's part of the capacity rungs: the overflow atoms' terms at every point within the cutoff (their cube of
 * points, then the test), NaN where one is inside the exclusion distance. The pairs it examined. */
static double cpu_overflow(climb_case *c, const float4 *atoms, size_t n)
{
    const climb_cutoff_lattice *l = &c->l;
    memset(c->h_ovf, 0, c->points * sizeof(float));
    double examined = 0;
    const float h = l->h, cut = l->cutoff;
    for (size_t a = 0; a < n; a++) {
        const float4 at = atoms[a];
        long lo[3], hi[3];
        const float pos[3] = {at.x, at.y, at.z};
        const size_t dim[3] = {l->nx, l->ny, l->nz};
        int empty = 0;
        for (int d = 0; d < 3; d++) {
            lo[d] = (long)ceilf((pos[d] - cut - l->origin[d]) / h);
            hi[d] = (long)floorf((pos[d] + cut - l->origin[d]) / h);
            lo[d] = lo[d] < 0 ? 0 : lo[d];
            hi[d] = hi[d] > (long)dim[d] - 1 ? (long)dim[d] - 1 : hi[d];
            empty |= lo[d] > hi[d];
        }
        if (empty)
            continue;
        examined += (double)(hi[0] - lo[0] + 1) * (double)(hi[1] - lo[1] + 1) * (double)(hi[2] - lo[2] + 1);
        for (long k = lo[2]; k <= hi[2]; k++) {
            const float dz = l->origin[2] + h * (float)k - at.z;
            for (long j = lo[1]; j <= hi[1]; j++) {
                const float dy = l->origin[1] + h * (float)j - at.y, dyz = dy * dy + dz * dz;
                if (dyz >= c->g.c2)
                    continue;
                float *row = c->h_ovf + ((size_t)k * l->ny + (size_t)j) * l->nx;
                for (long i = lo[0]; i <= hi[0]; i++) {
                    const float dx = l->origin[0] + h * (float)i - at.x, r2 = dx * dx + dyz;
                    if (r2 < c->g.e2)
                        row[i] = NAN;
                    else if (r2 < c->g.c2) {
                        const float s = 1.0f - r2 * c->g.inv_c2;
                        row[i] += at.w / sqrtf(r2) * s * s;
                    }
                }
            }
        }
    }
    return examined;
}

/* The capacity rungs' end: the CPU's overflow sums (if any) copied in and added, excluded points set to 0. */
static cudaError_t finish_capacity(climb_case *c, size_t n_ovf, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    if (n_ovf)
        e = cudaMemcpyAsync(c->d_ovf, c->h_ovf, c->points * sizeof(float), cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess)
        return e;
    cut_combine_kernel<<<(unsigned)cdiv(c->points, 256), 256, 0, s>>>(c->d_out, n_ovf ? c->d_ovf : NULL, c->points);
    return cudaGetLastError();
}

static cudaError_t launch_direct(climb_case *c, cudaStream_t s)
{
    cut_direct_kernel<<<dim3((unsigned)cdiv(c->l.nx, 32 * CUT_DIRECT_P), (unsigned)cdiv(c->l.ny, CUT_DIRECT_ROWS),
                             (unsigned)c->l.nz),
                        dim3(32, CUT_DIRECT_ROWS), 0, s>>>((const float4 *)c->d_atoms, (int)c->n, c->d_out, c->g);
    return cudaGetLastError();
}

static int rung_index(cut_launch_fn f);

/* cpu_bins: the host bins the atoms (capacity by the 95% rule, dummy atoms in the free slots, the rest on the
 * overflow list), copies the bins and the neighbour list over, launches, and sums the overflow list while the
 * GPU runs. */
static cudaError_t launch_cpu_bins(climb_case *c, cudaStream_t s)
{
    const size_t nb = c->b.count;
    int *count = c->h_fill;
    memset(count, 0, nb * sizeof(int));
    for (size_t a = 0; a < c->n; a++) {
        const float *p = c->h_atoms + 4 * a;
        const int64_t b = cut_bin(c->g, p[0], p[1], p[2], p[3]);
        c->h_bin[a] = b;
        if (b >= 0)
            count[b]++;
    }
    const int cap = capacity_rule(count, nb);
    if (cap != c->cap)
        return cudaErrorInvalidValue; /* prepare sized the bins for this case's capacity */
    memset(count, 0, nb * sizeof(int));
    const float4 dummy = make_float4(1e18f, 1e18f, 1e18f, 0.0f);
    for (size_t i = 0; i < nb * (size_t)cap; i++)
        c->h_bins[i] = dummy;
    size_t n_ovf = 0;
    for (size_t a = 0; a < c->n; a++) {
        const int64_t b = c->h_bin[a];
        if (b < 0)
            continue;
        const float *p = c->h_atoms + 4 * a;
        const float4 at = make_float4(p[0], p[1], p[2], p[3]);
        if (count[b] < cap)
            c->h_bins[(size_t)b * cap + count[b]++] = at;
        else
            c->h_ovf_atoms[n_ovf++] = at;
    }
    cudaError_t e = cudaMemcpyAsync(c->d_bins, c->h_bins, nb * cap * sizeof(float4), cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess)
        e = cudaMemcpyToSymbolAsync(cut_nbr, c->h_nbr, c->n_nbr * sizeof(int), 0, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess)
        return e;
    cut_capacity_kernel<<<regions_of(&c->l), CUT_CAP_THREADS, 0, s>>>(c->d_bins, cap, c->n_nbr, c->d_out, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return e;
    const int r = rung_index(launch_cpu_bins);
    c->cpu_examined[r] = cpu_overflow(c, c->h_ovf_atoms, n_ovf);
    c->n_ovf[r] = n_ovf;
    c->ran_cap[r] = cap;
    return finish_capacity(c, n_ovf, s);
}

/* gpu_bins: counts on the GPU and read back for the capacity (the 95% rule), the bins filled by atomics, the
 * overflow list read back (on a second stream, while the potential kernel runs) and summed by the host. */
static cudaError_t launch_gpu_bins(climb_case *c, cudaStream_t s)
{
    const size_t nb = c->b.count;
    const float4 *atoms = (const float4 *)c->d_atoms;
    cudaError_t e = cudaMemsetAsync(c->d_fill, 0, nb * sizeof(int), s);
    if (e != cudaSuccess)
        return e;
    if (c->n)
        cut_count_kernel<<<(unsigned)cdiv(c->n, 256), 256, 0, s>>>(atoms, (int)c->n, c->d_fill, NULL, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess ||
        (e = cudaMemcpyAsync(c->h_fill, c->d_fill, nb * sizeof(int), cudaMemcpyDeviceToHost, s)) != cudaSuccess ||
        (e = cudaStreamSynchronize(s)) != cudaSuccess)
        return e;
    const int cap = capacity_rule(c->h_fill, nb);
    if (cap != c->cap)
        return cudaErrorInvalidValue;
    const size_t slots = nb * (size_t)cap;
    cut_dummy_kernel<<<(unsigned)cdiv(slots, 256), 256, 0, s>>>(c->d_bins, slots);
    if ((e = cudaMemsetAsync(c->d_fill, 0, nb * sizeof(int), s)) != cudaSuccess ||
        (e = cudaMemsetAsync(c->d_novf, 0, sizeof(int), s)) != cudaSuccess)
        return e;
    if (c->n)
        cut_bin_capacity_kernel<<<(unsigned)cdiv(c->n, 256), 256, 0, s>>>(atoms, (int)c->n, c->d_fill, c->d_bins, cap,
                                                                         c->d_ovf_atoms, c->d_novf, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaEventRecord(c->binned, s)) != cudaSuccess ||
        (e = cudaMemcpyToSymbolAsync(cut_nbr, c->h_nbr, c->n_nbr * sizeof(int), 0, cudaMemcpyHostToDevice, s)) !=
            cudaSuccess)
        return e;
    cut_capacity_kernel<<<regions_of(&c->l), CUT_CAP_THREADS, 0, s>>>(c->d_bins, cap, c->n_nbr, c->d_out, c->g);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaStreamWaitEvent(c->aux, c->binned, 0)) != cudaSuccess ||
        (e = cudaMemcpyAsync(c->h_novf, c->d_novf, sizeof(int), cudaMemcpyDeviceToHost, c->aux)) != cudaSuccess ||
        (e = cudaStreamSynchronize(c->aux)) != cudaSuccess)
        return e;
    const size_t n_ovf = (size_t)*c->h_novf;
    if (n_ovf > c->n)
        return cudaErrorUnknown;
    if (n_ovf && ((e = cudaMemcpyAsync(c->h_ovf_atoms, c->d_ovf_atoms, n_ovf * sizeof(float4), cudaMemcpyDeviceToHost,
                                       c->aux)) != cudaSuccess ||
                  (e = cudaStreamSynchronize(c->aux)) != cudaSuccess))
        return e;
    const int r = rung_index(launch_gpu_bins);
    c->cpu_examined[r] = cpu_overflow(c, c->h_ovf_atoms, n_ovf);
    c->n_ovf[r] = n_ovf;
    c->ran_cap[r] = cap;
    return finish_capacity(c, n_ovf, s);
}

static cudaError_t launch_scan_bins(climb_case *c, cudaStream_t s)
{
    cudaError_t e = scan_binning(c->g, c->b.count, (const float4 *)c->d_atoms, c->n, c->ws, s);
    return e != cudaSuccess ? e : launch_pencils(4, false, c->g, &c->l, c->ws, c->d_out, s);
}

static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    return climb_cutoff_best(&c->tn, &c->l, c->d_atoms, c->n, c->d_out, c->d_ws, s);
}

/* ---------------------------------------------------------------- the registry */

static int k_direct(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)cut_direct_kernel, "cut_direct_kernel", 32 * CUT_DIRECT_ROWS, 0);
}
static int k_cpu_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_capacity_kernel, CUT_CAP_THREADS, 0, "cut_capacity_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_combine_kernel, 256, 0, "cut_combine_kernel");
}
static int k_gpu_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_count_kernel, 256, 0, "cut_count_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_dummy_kernel, 256, 0, "cut_dummy_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_bin_capacity_kernel, 256, 0, "cut_bin_capacity_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_capacity_kernel, CUT_CAP_THREADS, 0, "cut_capacity_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_combine_kernel, 256, 0, "cut_combine_kernel");
}
static int k_binning(climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)cut_count_kernel, 256, 0, "cut_count_kernel");
    n = climb_kernel_at(o, max, n, (const void *)cut_scan_kernel, CUT_SCAN_THREADS, 0, "cut_scan_kernel");
    return climb_kernel_at(o, max, n, (const void *)cut_scatter_kernel, 256, 0, "cut_scatter_kernel");
}
static int k_scan_bins(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = k_binning(o, max);
    return climb_kernel_at(o, max, n, (const void *)cut_pencil_kernel<4, false>, 128, 0, "cut_pencil_kernel<4, false>");
}
static int k_best(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_cutoff_tuning t;
    climb_cutoff_set_tuning(&t, tuning);
    const int n = k_binning(o, max);
    const void *f = t.points == 2 ? (const void *)cut_pencil_kernel<2, true>
                    : t.points == 4 ? (const void *)cut_pencil_kernel<4, true>
                    : t.points == 8 ? (const void *)cut_pencil_kernel<8, true>
                                    : NULL;
    return climb_kernel_at(o, max, n, f, 64 * (8 / (t.points ? t.points : 1)), 0, "cut_pencil_kernel<%d, true>",
                           t.points);
}

/* How a rung bins the atoms: not at all, in bins of a fixed capacity with an overflow list, or by a scan. */
enum { CUT_NO_BINS, CUT_CAPACITY, CUT_SCAN };

/* The rows' own rules: the grid's y holds the lattice's rows in the rung's row blocks (a block of 4 rows for direct,
 * a bin's 8 for the others) and its z the planes; the capacity rungs' neighbour offsets fit constant memory. */
static const char *refuses_direct(const climb_case *c)
{
    static char buf[120];
    return refused_grid(c, CUT_DIRECT_ROWS, buf, sizeof buf) ? buf : NULL;
}
static const char *refuses_binned(const climb_case *c)
{
    static char buf[120];
    return refused_grid(c, CLIMB_CUTOFF_BIN, buf, sizeof buf) ? buf : NULL;
}
static const char *refuses_capacity(const climb_case *c)
{
    static char buf[300];
    if (refused_grid(c, CLIMB_CUTOFF_BIN, buf, sizeof buf))
        return buf;
    if (c->n_nbr_all <= CUT_MAX_NBR)
        return NULL;
    snprintf(buf, sizeof buf, "more than %d neighbour bins (cutoff %g Å over bins of %g Å): constant memory holds %d "
                              "offsets", CUT_MAX_NBR, c->l.cutoff, c->b.side, CUT_MAX_NBR);
    return buf;
}

typedef struct cut_rung {
    climb_rung_info info;
    int binning;                  /* CUT_NO_BINS, CUT_CAPACITY or CUT_SCAN */
} cut_rung;

static const cut_rung CUT_RUNGS[] = {
    {.info = {.name = "direct", .idea = "every atom for every point with the cutoff test (dcs's best loop): the "
                                        "O(N M) baseline",
              .needs = "nx below 2^31, ny and nz below 65536", .kind = CLIMB_RUNG_LADDER, .kernels = k_direct,
              .launch = launch_direct, .refuses = refuses_direct},
     .binning = CUT_NO_BINS},
    {.info = {.name = "cpu_bins", .idea = "the book's scheme: bins of a fixed capacity built on the host, neighbour "
                                          "offsets in constant memory, the overflow list summed by the host",
              .needs = "at most 8192 neighbour bins (cutoff up to about 12 bin sides)", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_cpu_bins, .host_part = 1, .launch = launch_cpu_bins, .refuses = refuses_capacity},
     .binning = CUT_CAPACITY},
    {.info = {.name = "gpu_bins", .idea = "the same bins built on the GPU with atomics; the overflow list read back "
                                          "for the host",
              .needs = "at most 8192 neighbour bins (cutoff up to about 12 bin sides)", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_gpu_bins, .host_part = 1, .launch = launch_gpu_bins, .refuses = refuses_capacity},
     .binning = CUT_CAPACITY},
    {.info = {.name = "scan_bins", .idea = "binning by a scan (counts, offsets, scatter): no capacity, no dummy "
                                           "atoms, no overflow; a row of neighbour bins is one range of atoms",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_scan_bins, .launch = launch_scan_bins,
              .refuses = refuses_binned},
     .binning = CUT_SCAN},
    {.info = {.name = "pencils_cylinder", .idea = "the rows of neighbour bins read as one list in tiles, the cylinder "
                                                  "test shared by a thread's points along z, tuned points a thread",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best, .launch = launch_best,
              .refuses = refuses_binned},
     .binning = CUT_SCAN},
};

static_assert(sizeof CUT_RUNGS / sizeof CUT_RUNGS[0] <= 8, "the case keeps 8 rungs' overflow figures");

static const climb_rung_info *cut_rung_info(int i) { return &CUT_RUNGS[i].info; }

/* The row whose launch is f: where a launcher keeps figures of its own run for the row's note. */
static int rung_index(cut_launch_fn f)
{
    for (int r = 0; r < CLIMB_COUNT(CUT_RUNGS); r++)
        if (CUT_RUNGS[r].info.launch == f)
            return r;
    return 0;
}

static int is_capacity(int rung) { return CUT_RUNGS[rung].binning == CUT_CAPACITY; }
static int is_scan(int rung) { return CUT_RUNGS[rung].binning == CUT_SCAN; }

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_SPACING, OPT_CUTOFF, OPT_EXCLUSION, OPT_ATOMS, OPT_INPUT };
static const char *const CUT_ATOMS[] = {"water", "random", "on_points", NULL};
static constexpr climb_option CUT_OPTIONS[] = {
    {.name = "spacing", .kind = CLIMB_OPT_FLOAT, .meaning = "the lattice spacing h, in Å (bins are 8 h a side)",
     .def = "0.5", .min = 0.01, .max = 100},
    {.name = "cutoff", .kind = CLIMB_OPT_FLOAT, .meaning = "the cutoff radius, in Å (Parboil's 12)", .def = "12",
     .min = 0.01, .max = 1000},
    {.name = "exclusion", .kind = CLIMB_OPT_FLOAT,
     .meaning = "a point any charged atom is nearer to than this (Å) is set to 0 (Parboil's 1 Å; at least 0.001, and "
                "below the cutoff)",
     .def = "1", .min = 0.001, .max = 100},
    {.name = "atoms", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated atoms: a water box (TIP3P-like molecules 3.1 Å apart, centred on the lattice, as far as "
                "the atoms go); random in the lattice's box and 20% beyond it, charges in [-1, 1); or random atoms "
                "moved onto lattice points",
     .def = "water", .choices = CUT_ATOMS, .generator = 1},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a PQR molecule; the lattice is Parboil cutcp's (0.5 Å points from 0.5 Å below its atoms' box to "
                "0.5 Å above) and the atom count comes from it",
     .def = ""},
};
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_SPACING, "spacing");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_CUTOFF, "cutoff");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_EXCLUSION, "exclusion");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_ATOMS, "atoms");
CLIMB_OPTION_AT(CUT_OPTIONS, OPT_INPUT, "input");

static const climb_tunable CUT_TUNABLES[] = {
    {.name = "points", .meaning = "lattice points a thread computes along z (a block: 8 x 8 x 8 / points threads)",
     .values = CUT_POINTS, .n_values = CLIMB_COUNT(CUT_POINTS)},
};

static const char *cut_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    (void)k;
    values[0] = 4;
    return "built-in: 4 points a thread along z, 128 threads a block (the book's choice)";
}

static const climb_tuning CUT_TUNING = {.params = CUT_TUNABLES, .n_params = CLIMB_COUNT(CUT_TUNABLES),
                                        .candidates = NULL, .n_candidates = 0, .defaults = cut_defaults,
                                        .rejects = NULL};

/* ---------------------------------------------------------------- harness glue */

#define CUT_FILE_SPACING 0.5
#define CUT_FILE_PADDING 0.5

static int cut_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                    size_t errlen)
{
    climb_atoms *a = climb_pqr_load(path, err, errlen);
    if (!a)
        return -1;
    double origin[3];
    size_t n[3];
    climb_cutcp_lattice(a->lo, a->hi, CUT_FILE_SPACING, CUT_FILE_PADDING, origin, n);
    *data = a;
    *shape = (climb_shape)CLIMB_SHAPE4(n[0], n[1], n[2], a->n);
    snprintf(desc, desclen, "%s: %zu atoms, box %.1f x %.1f x %.1f Å", climb_base_name(path), a->n, a->hi[0] - a->lo[0],
             a->hi[1] - a->lo[1], a->hi[2] - a->lo[2]);
    return 0;
}

static void cut_release_all(climb_case *c)
{
    cudaFreeHost(c->h_bins);
    cudaFreeHost(c->h_ovf_atoms);
    cudaFreeHost(c->h_ovf);
    cudaFreeHost(c->h_novf);
    cudaFreeHost(c->h_fill);
    cudaFree(c->d_bins);
    cudaFree(c->d_ovf_atoms);
    cudaFree(c->d_ovf);
    cudaFree(c->d_fill);
    cudaFree(c->d_novf);
    cudaFree(c->d_ws);
    if (c->aux)
        cudaStreamDestroy(c->aux);
    if (c->binned)
        cudaEventDestroy(c->binned);
    c->h_bins = c->h_ovf_atoms = NULL;
    c->h_ovf = NULL;
    c->h_novf = c->h_fill = NULL;
    c->d_bins = c->d_ovf_atoms = NULL;
    c->d_ovf = NULL;
    c->d_fill = c->d_novf = NULL;
    c->d_ws = NULL;
    c->aux = NULL;
    c->binned = NULL;
}

static void cut_fini(climb_case *c)
{
    cut_release_all(c);
    free(c->ref);
    free(c->samples);
    free(c->h_bin);
    free(c->h_counts);
    free(c->h_start);
    free(c->h_nbr);
}

static int cut_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    const climb_atoms *file = (const climb_atoms *)p->opts[OPT_INPUT].data;
    size_t n[3];
    if (climb_lattice_sizes(p, file, "cutoff", n, &c->n, &c->points) != 0)
        return -1;
    c->l.nx = n[0];
    c->l.ny = n[1];
    c->l.nz = n[2];
    c->l.h = (float)p->opts[OPT_SPACING].f;
    c->l.cutoff = (float)p->opts[OPT_CUTOFF].f;
    c->l.exclusion = (float)p->opts[OPT_EXCLUSION].f;
    c->tn.points = 4;
    for (int d = 0; d < 3; d++)
        c->l.origin[d] = file ? (float)(file->lo[d] - CUT_FILE_PADDING) : 0.0f;
    c->bins_ok = climb_cutoff_bins_of(&c->l, &c->b, c->bins_err, sizeof c->bins_err) == 0;
    if (c->bins_ok) {
        c->g = grid_of(&c->l, &c->b);
        c->n_nbr_all = neighbours(&c->b, c->g.c2, NULL, CUT_MAX_NBR);
    }
    return 0;
}

static int cut_fill(climb_case *c)
{
    const climb_atoms *file = (const climb_atoms *)c->p.opts[OPT_INPUT].data;
    if (file) {
        memcpy(c->h_atoms, file->xyzq, c->n * 4 * sizeof(float));
    } else {
        static const int kinds[] = {CLIMB_ATOMS_WATER, CLIMB_ATOMS_RANDOM, CLIMB_ATOMS_ON_POINTS}; /* CUT_ATOMS */
        climb_rng rng;
        climb_rng_seed(&rng, c->p.seed);
        const double lo[3] = {0, 0, 0};
        const double ext[3] = {c->l.h * (double)(c->l.nx ? c->l.nx - 1 : 0), c->l.h * (double)(c->l.ny ? c->l.ny - 1 : 0),
                               c->l.h * (double)(c->l.nz ? c->l.nz - 1 : 0)};
        climb_atoms_generate(kinds[c->p.opts[OPT_ATOMS].choice], c->n, lo, ext, c->l.h, &rng, c->h_atoms);
    }
    for (int d = 0; d < 3; d++) {
        c->lo[d] = c->n ? INFINITY : 0;
        c->hi[d] = c->n ? -INFINITY : 0;
    }
    for (size_t a = 0; a < c->n; a++)
        for (int d = 0; d < 3; d++) {
            c->lo[d] = fmin(c->lo[d], c->h_atoms[4 * a + d]);
            c->hi[d] = fmax(c->hi[d], c->h_atoms[4 * a + d]);
        }
    return 0;
}

/* At least one element each, so that a kernel's pointer is never NULL. */
static size_t atom_bytes(const climb_case *c) { return (c->n ? c->n : 1) * 4 * sizeof(float); }
static size_t lattice_bytes(const climb_case *c) { return (c->points ? c->points : 1) * sizeof(float); }

static const climb_buffer CUT_BUFFERS[] = {
    {.name = "atoms", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = atom_bytes,
     .host_at = offsetof(climb_case, h_atoms), .device_at = offsetof(climb_case, d_atoms)},
    {.name = "lattice", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET,
     .bytes = lattice_bytes, .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out),
     .poison = 0xFF},
};

static int cut_empty(const climb_case *c) { return c->points == 0; }

static const char *cut_describe(const climb_case *c)
{
    static char buf[300];
    snprintf(buf, sizeof buf,
             "%zu atoms (box %.1f x %.1f x %.1f Å) on a %zu x %zu x %zu lattice of %g Å from (%.2f, %.2f, %.2f), "
             "cutoff %g Å, exclusion %g Å",
             c->n, c->hi[0] - c->lo[0], c->hi[1] - c->lo[1], c->hi[2] - c->lo[2], c->l.nx, c->l.ny, c->l.nz, c->l.h,
             c->l.origin[0], c->l.origin[1], c->l.origin[2], c->l.cutoff, c->l.exclusion);
    return buf;
}

#define CUT_SAMPLES 4096

static void point_of(const climb_case *c, size_t idx, size_t *i, size_t *j, size_t *k)
{
    climb_grid_point(idx, c->l.nx, c->l.ny, i, j, k);
}

static int cut_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    if (climb_ref_points(mode, c->p.seed ^ 0xc07ULL, c->points, CUT_SAMPLES, &c->samples, &c->n_samples) != 0)
        return -1;
    c->ref = (climb_cutoff_ref *)malloc((c->n_samples ? c->n_samples : 1) * sizeof *c->ref);
    if (!c->ref)
        return climb_host_oom("the cutoff reference");
    climb_cutoff_cells cc;
    if (c->points && climb_cutoff_cells_build(&cc, &c->l, c->h_atoms, c->n) != 0)
        return -1;
    double within = 0;
    for (size_t s = 0; s < c->n_samples; s++) {
        size_t i, j, k;
        point_of(c, c->samples ? c->samples[s] : s, &i, &j, &k);
        climb_cutoff_ref_at(&cc, &c->l, i, j, k, &c->ref[s]);
        within += (double)c->ref[s].within;
    }
    if (c->points)
        climb_cutoff_cells_free(&cc);
    c->within = c->n_samples ? within * (double)c->points / (double)c->n_samples : 0;
    snprintf(desc, desclen, "CPU, %s in double from cells of the cutoff's side; each within 1.01 (within + 8) 2^-24 "
                            "sum |term| + 16 2^-24 sum |q| s / r and the coordinates' rounding; 0 exactly where a "
                            "charged atom is inside the exclusion distance",
             c->samples ? "4096 random points" : "every point");
    return 0;
}

/* The CPU reference visits the atoms in 27 cells of the cutoff's side around each point. */
static double cut_ref_cost(const climb_case *c)
{
    const double c3 = 27.0 * (double)c->l.cutoff * c->l.cutoff * c->l.cutoff;
    double vol = 1;
    for (int d = 0; d < 3; d++)
        vol *= fmax(c->hi[d] - c->lo[d], (double)c->l.cutoff);
    return (double)c->points * fmin((double)c->n, (double)c->n * c3 / fmax(vol, c3) + 1);
}

/* The case's own rules, for every rung. */
static const char *cut_refuses(const climb_case *c, int rung)
{
    (void)rung; /* a row's own rules are its refuses */
    if (!(c->l.exclusion < c->l.cutoff))
        return "the exclusion distance must be below the cutoff";
    if (!c->bins_ok)
        return c->bins_err;
    return NULL;
}

static int refused_grid(const climb_case *c, size_t rows, char *buf, size_t len)
{
    if (c->l.nz <= 65535 && c->l.ny <= 65535 * rows)
        return 0;
    snprintf(buf, len, "nz at most 65535 and ny at most 65535 x %zu (the grid's z and y)", rows);
    return 1;
}

static int cut_prepare(climb_case *c, int rung)
{
    if (is_capacity(rung)) {
        if (host_bins(c) != 0 || neighbour_list(c) != 0)
            return -1;
        if (c->n_nbr > CUT_MAX_NBR) {
            fprintf(stderr, "climb: cutoff: %d neighbour bins, more than constant memory's %d\n", c->n_nbr, CUT_MAX_NBR);
            return -1;
        }
        if (!c->d_bins) {
            c->cap = capacity_rule(c->h_counts, c->b.count);
            const size_t slots = c->b.count * (size_t)c->cap, pts = c->points ? c->points : 1;
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_bins, slots * sizeof(float4)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_ovf_atoms, (c->n ? c->n : 1) * sizeof(float4)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_ovf, pts * sizeof(float)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_novf, sizeof(int)));
            CLIMB_CHECK(cudaMallocHost((void **)&c->h_fill, c->b.count * sizeof(int)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_bins, slots * sizeof(float4)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_ovf_atoms, (c->n ? c->n : 1) * sizeof(float4)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_ovf, pts * sizeof(float)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_fill, c->b.count * sizeof(int)));
            CLIMB_CHECK(cudaMalloc((void **)&c->d_novf, sizeof(int)));
            CLIMB_CHECK(cudaStreamCreateWithFlags(&c->aux, cudaStreamNonBlocking));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->binned, cudaEventDisableTiming));
        }
    }
    if (is_scan(rung) && !c->d_ws) {
        CLIMB_CHECK(cudaMalloc(&c->d_ws, ws_layout(c->b.count, c->n, NULL, NULL)));
        ws_layout(c->b.count, c->n, c->d_ws, &c->ws);
    }
    return 0;
}

static int cut_setup(const climb_case *c, int rung, climb_setup *out)
{
    if (is_capacity(rung)) {
        out->bytes = (double)c->b.count * c->cap * sizeof(float4) + (double)c->n * sizeof(float4) +
                     (double)c->points * sizeof(float) + (double)c->b.count * sizeof(int);
        return 1;
    }
    if (is_scan(rung)) {
        out->bytes = (double)ws_layout(c->b.count, c->n, NULL, NULL);
        return 1;
    }
    return 0;
}

static void cut_release(climb_case *c, int rung)
{
    (void)rung;
    cut_release_all(c);
}

/* The lattice (downloaded by the harness) at every point, or the samples: within each one's tolerance, or exactly
 * 0 where an atom is inside the exclusion distance (climb_cutoff_ref_ok). */
static int cut_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    return climb_lattice_verify(c->h_out, c->samples, c->points ? c->n_samples : 0, c->l.nx, c->l.ny,
                                [&](size_t s, float v, double *want) {
                                    *want = c->ref[s].zero ? 0.0 : c->ref[s].v;
                                    return climb_cutoff_ref_ok(&c->ref[s], v);
                                },
                                msg, msglen);
}

#define CUT_FLOPS 14.0

static void cut_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->points * (double)c->n;
    out->special_ops = c->within;
    out->flops = CUT_FLOPS * c->within;
    out->bytes_read = 16.0 * (double)c->n;
    out->bytes_written = 4.0 * (double)c->points;
}

/* The pairs the pencil rungs examine: every region's points times the atoms of its pencils. */
static double pencil_pairs(climb_case *c)
{
    if (c->pencil_examined > 0 || host_bins(c) != 0)
        return c->pencil_examined;
    const size_t B = CLIMB_CUTOFF_BIN, w = 2 * (size_t)c->b.margin + 1;
    double pairs = 0;
    for (size_t rz = 0; rz < cdiv(c->l.nz, B); rz++)
        for (size_t ry = 0; ry < cdiv(c->l.ny, B); ry++)
            for (size_t rx = 0; rx < cdiv(c->l.nx, B); rx++) {
                double atoms = 0;
                for (size_t p = 0; p < w * w; p++) {
                    int64_t lo, hi;
                    if (cut_pencil(c->g, (int)rx, (int)ry, (int)rz, (int)p, &lo, &hi))
                        atoms += c->h_start[hi + 1] - c->h_start[lo];
                }
                pairs += atoms * region_points(c, rx, ry, rz);
            }
    c->pencil_examined = pairs;
    return pairs;
}

/* What each rung examines: direct every pair; the capacity rungs every slot of the neighbour bins (dummy atoms
 * too) for each point plus the host's pairs of the last run; the pencil rungs their pencils' atoms. */
static int cut_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    climb_case *m = (climb_case *)c;
    cut_counts(c, out);
    double examined;
    if (CUT_RUNGS[rung].binning == CUT_NO_BINS)
        examined = (double)c->points * (double)c->n;
    else if (is_capacity(rung))
        examined = (double)c->points * c->n_nbr * c->ran_cap[rung] + c->cpu_examined[rung];
    else if (c->bins_ok)
        examined = pencil_pairs(m);
    else
        return 0;
    out->special_ops = examined;
    out->flops = CUT_FLOPS * examined;
    return 1;
}

static const char *cut_rung_note(climb_case *c, int rung)
{
    static char buf[300];
    climb_counts k;
    if (cut_rung_counts(c, rung, &k) != 1 || k.special_ops <= 0)
        return NULL;
    int n = snprintf(buf, sizeof buf, "%.3g atom-point pairs examined, %.1f%% of them within the cutoff%s",
                     k.special_ops, 100.0 * c->within / k.special_ops,
                     c->samples ? " (that share from the reference's 4096 sampled points)" : "");
    if (is_capacity(rung) && n > 0 && (size_t)n < sizeof buf) {
        double binned = 0;
        for (size_t i = 0; i < c->b.count; i++)
            binned += c->h_counts[i];
        snprintf(buf + n, sizeof buf - n, "; bins of %d atoms, %zu of the %.0f binned atoms (%.1f%%) on the host's "
                                          "overflow list",
                 c->ran_cap[rung], c->n_ovf[rung], binned, binned > 0 ? 100.0 * (double)c->n_ovf[rung] / binned : 0.0);
    }
    return buf;
}

/* The potential map as an OpenDX file. */
static int cut_save(climb_case *c, int rung, const char *path, char *err, size_t errlen)
{
    char comment[300];
    snprintf(comment, sizeof comment,
             "climb cutoff %s: Coulomb potential sum q / r (1 - r^2 / c^2)^2 (e/A), %zu atoms, cutoff %g A, "
             "exclusion %g A",
             CUT_RUNGS[rung].info.name, c->n, c->l.cutoff, c->l.exclusion);
    const size_t n[3] = {c->l.nx, c->l.ny, c->l.nz};
    return climb_lattice_save(path, n, c->l.origin, c->l.h, c->h_out, comment, err, errlen);
}

static void cut_set_tuning(climb_case *c, const int *values) { climb_cutoff_set_tuning(&c->tn, values); }

/* nx ny nz atoms. The goal's case: 1M atoms of a water box (217 Å a side) and a 64 Å cube of the lattice inside it;
 * a lattice over a whole 100k-atom box; a small box with a lattice that is no multiple of a region. */
static const climb_shape CUT_BENCH_SHAPES[] = {CLIMB_SHAPE4(128, 128, 128, 1000000),
                                               CLIMB_SHAPE4(200, 200, 200, 100000),
                                               CLIMB_SHAPE4(101, 77, 45, 20000)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape CUT_MAIN_SHAPES[] = {CLIMB_SHAPE4(128, 128, 128, 100000)};
/* Empty lattices and atom lists, one point, a lattice smaller than the cutoff, lines, planes, odd sizes. */
static const climb_shape CUT_CHECK_SHAPES[] = {
    CLIMB_SHAPE4(0, 0, 0, 5),   CLIMB_SHAPE4(5, 5, 5, 0),     CLIMB_SHAPE4(1, 1, 1, 1),    CLIMB_SHAPE4(1, 1, 1, 37),
    CLIMB_SHAPE4(7, 3, 2, 11),  CLIMB_SHAPE4(300, 1, 1, 500), CLIMB_SHAPE4(1, 40, 30, 900), CLIMB_SHAPE4(33, 17, 9, 2570),
    CLIMB_SHAPE4(70, 9, 20, 9001), CLIMB_SHAPE4(65, 66, 17, 30000)};
static const climb_shape CUT_QUICK_SHAPES[] = {CLIMB_SHAPE4(7, 3, 2, 11), CLIMB_SHAPE4(33, 17, 9, 2570)};

static const climb_sweep CUT_SWEEPS[] = {
    {.name = "molecules", .title = "Cutoff potential of the data folder's molecules (Parboil's lattice, 12 Å): atom-point "
                                   "pairs/s against the atoms",
     .args = "--input {data}/pqr/1d7h-min.pqr --input {data}/pqr/mache.pqr --input {data}/parboil/cutcp/watbox.sl40.pqr",
     .x = "atoms", .log_x = 1},
    {.name = "cutoff", .title = "The 1M-atom water box on a 128^3 lattice: pairs/s against the cutoff radius",
     .args = "--size 128x128x128x1000000 --set cutoff=4,8,12,16", .x = "cutoff", .log_x = 0},
};

/* The host memory a case needs at the least (the lattice and the atoms), for the harness's check before anything is allocated. */
static double cutoff_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 4.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2] + 16.0 * (double)s->d[3];
}

extern "C" const climb_workload climb_cutoff_workload = {
    .name = "cutoff",
    .title = "Cutoff Coulomb summation on a 3-D lattice, Parboil cutcp's potential (f32)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, cutoff summation (bins, "
                "neighbour lists in constant memory, a CPU overflow list, parallel and scan binning, the cylinder "
                "test)",
    .dims = {"nx", "ny", "nz", "atoms"},
    .shape_format = "{nx}x{ny}x{nz}, {atoms} atoms",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = CUT_OPTIONS,
    .n_options = CLIMB_COUNT(CUT_OPTIONS),
    .bytes_counted = "read: the atoms (16 bytes each) once; written: the lattice (4 bytes a point)",
    .items_unit = "atom-point pairs",
    .items_rate = "Gpair/s",
    .extra_ceiling = CLIMB_CEIL_SFU,
    .bench_shapes = CUT_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(CUT_BENCH_SHAPES),
    .check_shapes = CUT_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(CUT_CHECK_SHAPES),
    .quick_shapes = CUT_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(CUT_QUICK_SHAPES),
    .main_shapes = CUT_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(CUT_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(CUT_RUNGS),
    .rung = cut_rung_info,
    .sweeps = CUT_SWEEPS,
    .n_sweeps = CLIMB_COUNT(CUT_SWEEPS),
    .load = cut_load,
    .unload = climb_pqr_unload,
    .case_size = sizeof(climb_case),
    .buffers = CUT_BUFFERS,
    .n_buffers = CLIMB_COUNT(CUT_BUFFERS),
    .init = cut_init,
    .fill = cut_fill,
    .fini = cut_fini,
    .describe = cut_describe,
    .reference = cut_reference,
    .ref_cost = cut_ref_cost,
    .ref_cost_limit = 2e8,
    .case_bytes = cutoff_case_bytes,
    .refuses = cut_refuses,
    .prepare = cut_prepare,
    .setup = cut_setup,
    .empty = cut_empty,
    .verify = cut_verify,
    .counts = cut_counts,
    .rung_counts = cut_rung_counts,
    .rung_note = cut_rung_note,
    .release = cut_release,
    .save = cut_save,
    .tuning = &CUT_TUNING,
    .set_tuning = cut_set_tuning,
};
