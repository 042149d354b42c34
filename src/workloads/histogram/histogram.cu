/*
 * histogram.cu - byte histograms as a ladder: 256 bins over bytes (fewer with `bins`), or the letter histogram
 * of Hwu, Kirk and El Hajj's Programming Massively Parallel Processors (PMPP: a-z into 7 bins of 4 letters),
 * over generated inputs or a file the user names.
 *
 * From the ECE 408 / PMPP histogram notes): global atomics with contiguous partitioning (each thread a
 * stretch: uncoalesced) and interleaved partitioning (coalesced), privatization in shared memory, aggregation of
 * runs of equal values; the notes' advice that a private copy per subset of threads balances contention against
 * the merge (here one per warp). Past the notes: 16-byte loads and a whole-warp path for runs (wide_per_warp),
 * then, for a map that skips bytes, counters packed in registers and no atomics (packed_registers), 4 bits
 * each (packed_nibbles, the best rung). See docs/histogram.md.
 *
 * Order of this file: the bin map, CPU reference and input generators, kernels (one per rung, each with what it
 * changes), launchers, the registry table, the harness glue (file input included).
 *
 * Bytes counted: n bytes read, bins x 4 bytes written.
 */
#include <cub/device/device_histogram.cuh>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../base/rng.h"
#include "../../io/text.h"
#include "../../core/workload.cuh"
#include "histogram.h"

/* ---------------------------------------------------------------- the bin map, reference, inputs */

__host__ __device__ static inline int hist_bin(unsigned b, int map, unsigned bins)
{
    if (map == CLIMB_HIST_LETTERS) {
        const unsigned d = b - 'a';
        return d < 26 ? (int)(d >> 2) : -1;
    }
    return (int)((b * bins) >> 8);
}

extern "C" int climb_hist_bin(unsigned b, int map, unsigned bins) { return hist_bin(b & 255, map, bins); }

extern "C" void climb_hist_ref(const uint8_t *x, size_t n, int map, unsigned bins, uint64_t *counts)
{
    const unsigned nb = map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : bins;
    memset(counts, 0, nb * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        const int b = hist_bin(x[i], map, bins);
        if (b >= 0)
            counts[b]++;
    }
}

/* Letters at their frequency in English text (per 10000, a to z). */
static const int HIST_LETTER_FREQ[26] = {817, 149, 278, 425, 1270, 223, 202, 609, 697, 15, 77, 403, 241,
                                         675, 751, 193, 10,  599, 633, 906, 276, 98,  236, 15,  197, 7};

static unsigned hist_letter(climb_rng *r)
{
    unsigned u = (unsigned)(climb_rng_next(r) % 10000u);
    for (int k = 0; k < 26; k++) {
        if (u < (unsigned)HIST_LETTER_FREQ[k])
            return 'a' + k;
        u -= (unsigned)HIST_LETTER_FREQ[k];
    }
    return 'e';
}

/* A geometric count: k with probability 0.3 x 0.7^k. */
static unsigned hist_geometric(climb_rng *r)
{
    const double u = ((double)(climb_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
    const double k = floor(log(u) / log(0.7));
    return k > 255 ? 255u : (unsigned)k;
}

extern "C" void climb_hist_generate(uint64_t seed, int dist, int map, uint8_t *x, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    const int letters = map == CLIMB_HIST_LETTERS;
    switch (dist) {
    case CLIMB_HIST_CONSTANT: {
        const uint8_t v = (uint8_t)(letters ? hist_letter(&r) : climb_rng_next(&r) & 255);
        memset(x, v, n);
        break;
    }
    case CLIMB_HIST_SKEWED:
        for (size_t i = 0; i < n; i++) {
            const unsigned k = hist_geometric(&r);
            x[i] = (uint8_t)(letters ? 'a' + k % 26 : k);
        }
        break;
    case CLIMB_HIST_TEXT: {
        size_t i = 0;
        int capital = 1;
        while (i < n) {
            const unsigned len = 1 + (unsigned)(climb_rng_next(&r) % 9);
            for (unsigned k = 0; k < len && i < n; k++, capital = 0)
                x[i++] = (uint8_t)(capital ? hist_letter(&r) - 32 : hist_letter(&r));
            if (i >= n)
                break;
            const unsigned p = (unsigned)(climb_rng_next(&r) % 100);
            if (p < 6) {
                x[i++] = '.';
                capital = 1;
            } else if (p < 11) {
                x[i++] = ',';
            }
            if (i < n)
                x[i++] = p == 0 || p == 50 ? '\n' : ' ';
        }
        break;
    }
    case CLIMB_HIST_RUNS: {
        int v = (int)(climb_rng_next(&r) & 255);
        for (size_t i = 0; i < n;) {
            const double u = ((double)(climb_rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
            const double len = 1 + floor(log(u) / log(15.0 / 16.0)); /* geometric, mean 16 */
            const size_t k = len < (double)(n - i) ? (size_t)len : n - i;
            memset(x + i, letters ? (int)hist_letter(&r) : v, k);
            i += k;
            v += (int)(climb_rng_next(&r) % 17) - 8;
            v = v < 0 ? 0 : v > 255 ? 255 : v;
        }
        break;
    }
    default:
        for (size_t i = 0; i + 8 <= n; i += 8) {
            const uint64_t v = climb_rng_next(&r);
            memcpy(x + i, &v, 8);
        }
        for (size_t i = n & ~(size_t)7; i < n; i++)
            x[i] = (uint8_t)climb_rng_next(&r);
    }
}

/* ---------------------------------------------------------------- policy .. kernels (kernels.cuh) */

#include "kernels.cuh"

/* ---------------------------------------------------------------- launchers */

typedef struct hist_args {
    const uint8_t *in;
    size_t n;
    unsigned *counts;
    int map;
    unsigned bins;   /* the option's (LETTERS: 7 bins whatever it says) */
    int sms;
    void *ws;        /* the vendor's temporary storage, then its levels */
    size_t ws_bytes;
    cudaStream_t s;
} hist_args;

typedef cudaError_t (*hist_launch_fn)(const hist_args *a);

static unsigned hist_nbins(const hist_args *a)
{
    return a->map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : a->bins;
}

/* At most HIST_BLOCKS_PER_SM blocks per SM, fewer when each would get less than `per_block` bytes. */
static unsigned hist_grid(int sms, size_t n, size_t per_block)
{
    const size_t cap = (size_t)(sms > 0 ? sms : 1) * HIST_BLOCKS_PER_SM, want = (n + per_block - 1) / per_block;
    return (unsigned)(want < 1 ? 1 : want < cap ? want : cap);
}

static cudaError_t zero_counts(const hist_args *a) { return cudaMemsetAsync(a->counts, 0, hist_nbins(a) * 4, a->s); }

static cudaError_t launch_contiguous(const hist_args *a)
{
    cudaError_t e = zero_counts(a);
    if (e != cudaSuccess || a->n == 0)
        return e;
    const unsigned grid = hist_grid(a->sms, a->n, 64 * HIST_BLOCK);
    const size_t threads = (size_t)grid * HIST_BLOCK, chunk = (a->n + threads - 1) / threads;
    hist_global_contiguous_kernel<<<grid, HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map, a->bins, chunk);
    return cudaGetLastError();
}

#define HIST_GRID_STRIDE_LAUNCHER(name, kernel, per_block)                                                       \
    static cudaError_t name(const hist_args *a)                                                                \
    {                                                                                                          \
        cudaError_t e = zero_counts(a);                                                                        \
        if (e != cudaSuccess || a->n == 0)                                                                     \
            return e;                                                                                          \
        kernel<<<hist_grid(a->sms, a->n, per_block), HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map,    \
                                                                            a->bins);                         \
        return cudaGetLastError();                                                                             \
    }
HIST_GRID_STRIDE_LAUNCHER(launch_interleaved, hist_global_interleaved_kernel, 64 * HIST_BLOCK)
HIST_GRID_STRIDE_LAUNCHER(launch_shared, hist_shared_kernel<false>, 64 * HIST_BLOCK)
HIST_GRID_STRIDE_LAUNCHER(launch_aggregated, hist_shared_kernel<true>, 64 * HIST_BLOCK)
HIST_GRID_STRIDE_LAUNCHER(launch_per_warp, hist_per_warp_kernel, 64 * HIST_BLOCK)
/* wide_per_warp: the kernel of the case's map. */
static cudaError_t launch_wide(const hist_args *a)
{
    cudaError_t e = zero_counts(a);
    if (e != cudaSuccess || a->n == 0)
        return e;
    const unsigned grid = hist_grid(a->sms, a->n, 64 * HIST_BLOCK);
    if (a->map == CLIMB_HIST_BYTES && a->bins == 256)
        hist_wide_kernel<CLIMB_HIST_BYTES, 256><<<grid, HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map,
                                                                             a->bins);
    else if (a->map == CLIMB_HIST_BYTES)
        hist_wide_kernel<CLIMB_HIST_BYTES, 0><<<grid, HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map, a->bins);
    else
        hist_wide_kernel<-1, 0><<<grid, HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map, a->bins);
    return cudaGetLastError();
}
/* packed_registers: the packed counters for a map that skips bytes (letters), where
 * wide_per_warp's atomics on its few hot words cost most, once every block makes two passes or more: a block's
 * table (4096 entries written, a barrier) and its final reductions are a fixed cost that one pass does not pay
 * back (letters over text at one pass a block: 6.98 against 6.05 us at 2^20, 10.18 against 9.66 at 2^23; at two,
 * 2^24: 13.2 against 13.4). wide_per_warp for the byte map, which it counts faster at every bin count (8 bins over
 * uniform bytes, 2^24: 11.4 against 13.2 us; docs/histogram.md), and for a single pass. */
typedef void (*hist_counters_kernel)(const uint8_t *, size_t, unsigned *, int, unsigned);
static cudaError_t launch_counters(const hist_args *a, hist_counters_kernel kernel)
{
    /* The passes (64 x HIST_BLOCK bytes each, one of the kernel's loop) a block makes when the grid is the blocks
       that can run at once (HIST_PACKED_BLOCKS_PER_SM an SM); the grid then spreads them evenly, so that no block
       runs one more pass than the rest (2^24 letters: 1024 passes on a grid capped at 792 blocks left some blocks
       a second pass alone; 512 blocks of 2 passes each ran 18.7 -> 15.5 us, docs/histogram.md). */
    const unsigned want = hist_grid(a->sms, a->n, 64 * HIST_BLOCK),
                   cap = (unsigned)(a->sms > 0 ? a->sms : 1) * HIST_PACKED_BLOCKS_PER_SM,
                   passes = (want + cap - 1) / cap;
    if (a->map == CLIMB_HIST_BYTES || hist_nbins(a) > HIST_PACKED_MAX_BINS || passes < 2)
        return launch_wide(a);
    cudaError_t e = zero_counts(a);
    if (e != cudaSuccess)
        return e;
    kernel<<<(want + passes - 1) / passes, HIST_BLOCK, 0, a->s>>>(a->in, a->n, a->counts, a->map, a->bins);
    return cudaGetLastError();
}
static cudaError_t launch_packed(const hist_args *a) { return launch_counters(a, hist_packed_kernel); }
/* packed_nibbles, the best rung: the same passes and fallbacks, with 4-bit counters (hist_nibble_kernel; letters
 * at 2^29: 180.5 against 190.1 us on an H100, 149.4 against 188.2 on an H200, docs/histogram.md). */
static cudaError_t launch_nibbles(const hist_args *a) { return launch_counters(a, hist_nibble_kernel); }

extern "C" cudaError_t climb_hist_best(const uint8_t *in, size_t n, unsigned bins, unsigned *counts, int sms,
                                       cudaStream_t s)
{
    if (bins < 1 || bins > 256 || n > (size_t)UINT32_MAX)
        return cudaErrorInvalidValue;
    const hist_args a = {in, n, counts, CLIMB_HIST_BYTES, bins, sms, NULL, 0, s};
    return launch_nibbles(&a); /* the best rung (on the byte map, wide_per_warp's kernel) */
}

/* The vendor rung, CUB: HistogramEven over [0, 256) for bytes (its bin is (byte - 0) x bins / 256, the same map);
 * HistogramRange with the level list a, e, i, m, q, u, y, '{' for letters. The levels follow the temporary
 * storage in the workspace; the storage size comes from CUB's own query. */
static const int HIST_LETTER_LEVELS[CLIMB_HIST_LETTER_BINS + 1] = {'a', 'e', 'i', 'm', 'q', 'u', 'y', 'z' + 1};

static cudaError_t cub_hist(void *tmp, size_t *tmp_bytes, const hist_args *a, const int *d_levels)
{
    if (a->map == CLIMB_HIST_LETTERS)
        return cub::DeviceHistogram::HistogramRange(tmp, *tmp_bytes, a->in, a->counts, CLIMB_HIST_LETTER_BINS + 1,
                                                    d_levels, (int)a->n, a->s);
    return cub::DeviceHistogram::HistogramEven(tmp, *tmp_bytes, a->in, a->counts, (int)a->bins + 1, 0, 256, (int)a->n,
                                               a->s);
}

static size_t cub_tmp_bytes(const hist_args *a)
{
    size_t bytes = 0;
    hist_args q = *a;
    q.in = NULL;
    q.counts = NULL;
    if (cub_hist(NULL, &bytes, &q, NULL) != cudaSuccess)
        return 0;
    return (bytes + 255) / 256 * 256;
}

static cudaError_t launch_cub(const hist_args *a)
{
    size_t tmp = cub_tmp_bytes(a);
    if (tmp == 0 || a->ws_bytes < tmp + sizeof HIST_LETTER_LEVELS)
        return cudaErrorInvalidValue;
    return cub_hist(a->ws, &tmp, a, (const int *)((char *)a->ws + tmp));
}

/* ---------------------------------------------------------------- the registry */

/* Every histogram kernel runs HIST_BLOCK threads a block. */
#define k_one(f, name, o, max) climb_kernel_at(o, max, 0, f, HIST_BLOCK, 0, "%s", name)
#define HIST_KERNELS_FN(fname, kernel, kname)                                                                    \
    static int fname(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)       \
    {                                                                                                          \
        return k_one((const void *)kernel, kname, o, max);                                                     \
    }
HIST_KERNELS_FN(k_contiguous, hist_global_contiguous_kernel, "hist_global_contiguous_kernel")
HIST_KERNELS_FN(k_interleaved, hist_global_interleaved_kernel, "hist_global_interleaved_kernel")
HIST_KERNELS_FN(k_shared, hist_shared_kernel<false>, "hist_shared_kernel<false>")
HIST_KERNELS_FN(k_aggregated, hist_shared_kernel<true>, "hist_shared_kernel<true>")
HIST_KERNELS_FN(k_per_warp, hist_per_warp_kernel, "hist_per_warp_kernel")
static int k_wide(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)hist_wide_kernel<CLIMB_HIST_BYTES, 256>, HIST_BLOCK, 0,
                            "hist_wide_kernel<bytes, 256 bins>");
    n = climb_kernel_at(o, max, n, (const void *)hist_wide_kernel<CLIMB_HIST_BYTES, 0>, HIST_BLOCK, 0,
                        "hist_wide_kernel<bytes>");
    return climb_kernel_at(o, max, n, (const void *)hist_wide_kernel<-1, 0>, HIST_BLOCK, 0,
                           "hist_wide_kernel<any map>");
}
/* a packed rung's kernels: its own, and wide_per_warp's, which it falls back to */
static int k_counters(const void *kernel, const char *kname, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, kernel, HIST_BLOCK, 0, kname);
    return n + k_wide(CLIMB_U8, NULL, NULL, o + (n < max ? n : max), max > n ? max - n : 0);
}
static int k_packed(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_counters((const void *)hist_packed_kernel, "hist_packed_kernel", o, max);
}
static int k_nibbles(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_counters((const void *)hist_nibble_kernel, "hist_nibble_kernel", o, max);
}

typedef struct hist_rung {
    climb_rung_info info;
    hist_launch_fn launch;
} hist_rung;

static const hist_rung HIST_RUNGS[] = {
    {.info = {.name = "cub_histogram", .idea = "vendor: cub::DeviceHistogram::HistogramEven (HistogramRange for "
                                               "letters)",
              .needs = "", .kind = CLIMB_RUNG_VENDOR, .kernels = NULL},
     .launch = launch_cub},
    {.info = {.name = "global_contiguous", .idea = "a global atomic per byte; each thread a contiguous stretch "
                                                   "(uncoalesced)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_contiguous},
     .launch = launch_contiguous},
    {.info = {.name = "global_interleaved", .idea = "the same atomics, threads interleaved over the bytes "
                                                    "(coalesced)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_interleaved},
     .launch = launch_interleaved},
    {.info = {.name = "shared_privatized", .idea = "a copy of the bins per block in shared memory, added to the "
                                                   "global bins once",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_shared},
     .launch = launch_shared},
    {.info = {.name = "shared_aggregated", .idea = "one atomic per run of equal bins a thread sees, not one per byte",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_aggregated},
     .launch = launch_aggregated},
    {.info = {.name = "per_warp", .idea = "a copy of the bins per warp: popular bins contend within one warp only",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_per_warp},
     .launch = launch_per_warp},
    {.info = {.name = "wide_per_warp", .idea = "16-byte loads, 4 in flight; one atomic per uniform vector, one per "
                                               "warp when all 32 agree; 256 bins: the atomic's address cut "
                                               "straight from the vector",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_wide},
     .launch = launch_wide},
    {.info = {.name = "packed_registers", .idea = "for a map that skips bytes (letters): a shared table gives each "
                                                  "byte's one-hot increment to 8 byte counters packed in a "
                                                  "register, no atomics until the end (the byte map: wide_per_warp)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_packed},
     .launch = launch_packed},
    {.info = {.name = "packed_nibbles", .idea = "packed_registers with 4-bit counters: a 32-bit table entry, half "
                                                "the shared bytes a counted byte; the nibbles folded into byte "
                                                "counters every 8 bytes",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_nibbles},
     .launch = launch_nibbles},
};
#define HIST_N_RUNGS CLIMB_COUNT(HIST_RUNGS)

static const climb_rung_info *hist_rung_info(int i) { return &HIST_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

static const char *const HIST_DISTS[] = {"uniform", "constant", "skewed", "text", "runs", NULL};
static const char *const HIST_MAPS[] = {"bytes", "letters", NULL};
enum { OPT_BINS, OPT_MAP, OPT_DIST, OPT_INPUT };
static constexpr climb_option HIST_OPTIONS[] = {
    {.name = "bins", .kind = CLIMB_OPT_INT, .meaning = "bins over the byte values, map=bytes (bin = byte x bins / 256)",
     .def = "256", .min = 1, .max = 256},
    {.name = "map", .kind = CLIMB_OPT_CHOICE,
     .meaning = "bytes (every byte, `bins` bins) or letters (PMPP's: a-z into 7 bins of 4, other bytes not "
                "counted)",
     .def = "bytes", .choices = HIST_MAPS, .check_def = "all"},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated input: uniform random bytes, constant (all one value), skewed (geometric), text "
                "(English-like), runs (a photograph's scan lines: stretches of one value, drifting); not used with "
                "--input",
     .def = "all", .choices = HIST_DISTS, .generator = 1},
    {.name = "input", .kind = CLIMB_OPT_FILE, .meaning = "a file whose bytes are counted (a text for map=letters)",
     .def = ""},
};
CLIMB_OPTION_AT(HIST_OPTIONS, OPT_BINS, "bins");
CLIMB_OPTION_AT(HIST_OPTIONS, OPT_MAP, "map");
CLIMB_OPTION_AT(HIST_OPTIONS, OPT_DIST, "dist");
CLIMB_OPTION_AT(HIST_OPTIONS, OPT_INPUT, "input");

/* ---------------------------------------------------------------- the input file */

typedef struct hist_file {
    uint8_t *bytes;
    size_t n;
} hist_file;

/* The file's size, checked: what a dry run needs (peek) and what load reads first. 0, or -1 with err. */
static int hist_stat(const char *path, struct stat *st, char *err, size_t errlen)
{
    if (stat(path, st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if ((unsigned long long)st->st_size >= (unsigned long long)UINT32_MAX) {
        snprintf(err, errlen, "%s: %lld bytes: the counts are 32-bit, so at most 4294967294 bytes", path,
                 (long long)st->st_size);
        return -1;
    }
    if (st->st_size == 0) {
        snprintf(err, errlen, "%s: the file is empty: nothing to count", path);
        return -1;
    }
    return 0;
}

static int hist_peek(const char *path, climb_shape *shape, char *desc, size_t desclen, char *err, size_t errlen)
{
    struct stat st;
    if (hist_stat(path, &st, err, errlen) != 0)
        return -1;
    *shape = CLIMB_SHAPE1((size_t)st.st_size);
    snprintf(desc, desclen, "%s: %zu bytes", climb_base_name(path), (size_t)st.st_size);
    return 0;
}

static int hist_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                     size_t errlen)
{
    *data = NULL;
    struct stat st;
    if (hist_stat(path, &st, err, errlen) != 0)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    hist_file *h = (hist_file *)calloc(1, sizeof *h);
    const size_t want = (size_t)st.st_size;
    if (h)
        h->bytes = (uint8_t *)malloc(want + 1);
    if (!h || !h->bytes) {
        snprintf(err, errlen, "%s: out of host memory for %zu bytes", path, want);
        fclose(f);
        if (h)
            free(h);
        return -1;
    }
    h->n = fread(h->bytes, 1, want, f);
    const int failed = ferror(f) || fgetc(f) != EOF;
    fclose(f);
    if (failed || h->n != want) {
        snprintf(err, errlen, "%s: read %zu of %zu bytes (the file changed or could not be read)", path, h->n, want);
        free(h->bytes);
        free(h);
        return -1;
    }
    if (h->n == 0) {
        snprintf(err, errlen, "%s: the file is empty: nothing to count", path);
        free(h->bytes);
        free(h);
        return -1;
    }
    *shape = CLIMB_SHAPE1(h->n);
    snprintf(desc, desclen, "%s: %zu bytes", climb_base_name(path), h->n);
    *data = h;
    return 0;
}

static void hist_unload(void *data)
{
    hist_file *h = (hist_file *)data;
    if (h)
        free(h->bytes);
    free(h);
}

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    size_t n;
    int map, dist;
    unsigned bins, nbins;
    const hist_file *file;   /* the loaded input, or NULL */
    uint8_t *h_in, *d_in;    /* the bytes counted (the file's, or generated); the device's offset bytes in */
    uint64_t ref[256];
    unsigned *h_counts, *d_counts;
    void *d_ws;
    size_t ws_bytes;
};

static void hist_fini(climb_case *c) { cudaFree(c->d_ws); }

static int hist_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    c->map = p->opts[OPT_MAP].choice;
    c->dist = p->opts[OPT_DIST].choice;
    c->bins = (unsigned)p->opts[OPT_BINS].i;
    c->nbins = c->map == CLIMB_HIST_LETTERS ? CLIMB_HIST_LETTER_BINS : c->bins;
    c->file = (const hist_file *)p->opts[OPT_INPUT].data;
    c->n = c->file ? c->file->n : p->shape.d[0];
    if (c->n >= (size_t)UINT32_MAX) {
        fprintf(stderr, "climb: histogram n = %zu: the counts are 32-bit, so n must be below 2^32 - 1\n", c->n);
        return -1;
    }
    return 0;
}

static int hist_fill(climb_case *c)
{
    if (c->file)
        memcpy(c->h_in, c->file->bytes, c->n);
    else
        climb_hist_generate(c->p.seed, c->dist, c->map, c->h_in, c->n);
    climb_hist_ref(c->h_in, c->n, c->map, c->bins, c->ref);
    return 0;
}

static size_t input_bytes(const climb_case *c) { return c->n; }
static size_t counts_bytes(const climb_case *c) { return 256 * 4; }

/* The counts' poison is all ones: no count of fewer than 2^32 - 1 bytes. */
static const climb_buffer HIST_BUFFERS[] = {
    {.name = "the input", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET,
     .bytes = input_bytes, .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "the counts", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = counts_bytes,
     .host_at = offsetof(climb_case, h_counts), .device_at = offsetof(climb_case, d_counts), .poison = 0xFF},
};

static const char *hist_describe(const climb_case *c)
{
    static char buf[200];
    const char *what = c->file ? "the named file" : HIST_DISTS[c->dist];
    if (c->map == CLIMB_HIST_LETTERS)
        snprintf(buf, sizeof buf, "letters a-z into 7 bins of 4 over %s; input starts %u bytes past alignment", what,
                 c->p.offset);
    else
        snprintf(buf, sizeof buf, "%u bins over the byte values of %s; input starts %u bytes past alignment", c->bins,
                 what, c->p.offset);
    return buf;
}

static int hist_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode; /* the CPU count is cheap at every size */
    snprintf(desc, desclen, "CPU count, every bin, exact");
    return 0;
}

static const char *hist_refuses(const climb_case *c, int rung)
{
    (void)rung;
    if (c->file && c->dist != 0)
        return "the input is the named file: dist does not apply";
    return NULL;
}

static hist_args hist_case_args(climb_case *c, cudaStream_t s)
{
    hist_args a = {c->d_in, c->n, c->d_counts, c->map, c->bins, c->p.dev ? c->p.dev->sms : 1, c->d_ws, c->ws_bytes, s};
    return a;
}

/* The vendor's temporary storage and level list (the other rungs need no workspace). */
static int hist_prepare(climb_case *c, int rung)
{
    if (HIST_RUNGS[rung].launch != launch_cub)
        return 0;
    const hist_args a = hist_case_args(c, 0);
    const size_t tmp = cub_tmp_bytes(&a), need = tmp + sizeof HIST_LETTER_LEVELS;
    if (tmp == 0) {
        fprintf(stderr, "climb: cub_histogram could not size its temporary storage\n");
        return -1;
    }
    if (climb_grow_device_buffer(&c->d_ws, &c->ws_bytes, need) != 0)
        return -1;
    CLIMB_CHECK(cudaMemcpy((char *)c->d_ws + tmp, HIST_LETTER_LEVELS, sizeof HIST_LETTER_LEVELS,
                           cudaMemcpyHostToDevice));
    return 0;
}

static int hist_run(climb_case *c, int rung, cudaStream_t s)
{
    const hist_args a = hist_case_args(c, s);
    CLIMB_CHECK(HIST_RUNGS[rung].launch(&a));
    return 0;
}

/* The counts (downloaded by the harness), exactly. */
static int hist_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (unsigned b = 0; b < c->nbins; b++)
        climb_compare_exact(&k, c->h_counts[b], (long long)c->ref[b], "bin %u", b);
    return climb_compare_end(&k);
}

static void hist_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->n;
    out->bytes_written = (double)c->nbins * 4;
}

/* 1 MiB, and 512 MiB (the size of an earlier measurement of CUB on an H100). */
static const climb_shape HIST_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20), CLIMB_SHAPE1((size_t)1 << 29)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape HIST_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 26)};
/* 0, 1, the 16-byte vectors' head and tail, a warp's and a block's worth of vectors either side, odd sizes. */
static const climb_shape HIST_CHECK_SHAPES[] = {
    CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),       CLIMB_SHAPE1(15),     CLIMB_SHAPE1(16),
    CLIMB_SHAPE1(17),    CLIMB_SHAPE1(31),    CLIMB_SHAPE1(33),      CLIMB_SHAPE1(255),    CLIMB_SHAPE1(256),
    CLIMB_SHAPE1(257),   CLIMB_SHAPE1(511),   CLIMB_SHAPE1(2047),    CLIMB_SHAPE1(2049),   CLIMB_SHAPE1(4095),
    CLIMB_SHAPE1(4097),  CLIMB_SHAPE1(16385), CLIMB_SHAPE1(65537),   CLIMB_SHAPE1(1000003),
    CLIMB_SHAPE1((size_t)1 << 22), CLIMB_SHAPE1(((size_t)1 << 24) + 13)};
/* For the sanitizer: 1, a block's worth and a pass's worth either side, and 2^24 + 13, which the letters take
 * through the packed kernel, two passes a block on any GPU of up to 256 SMs (1025 passes, 4 blocks an SM; the
 * smaller sizes take wide_per_warp's kernel there). */
static const climb_shape HIST_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(2049), CLIMB_SHAPE1(65537),
                                                CLIMB_SHAPE1(((size_t)1 << 24) + 13)};

static const climb_sweep HIST_SWEEPS[] = {
    {.name = "bins",
     .title = "histogram of 2^26 bytes: GB/s against the number of bins (uniform and text)",
     .args = "--size 2^26 --set dist=uniform,text --set bins=1,2,4,8,16,32,64,128,256",
     .x = "bins",
     .log_x = 1},
    {.name = "letters",
     .title = "PMPP's letter histogram (a-z into 7 bins) of generated text: GB/s against n",
     .args = "--set map=letters --set dist=text --size 2^20 --size 2^23 --size 2^26 --size 2^29",
     .x = "n",
     .log_x = 1},
};

/* The host memory a case needs at the least (the bytes), for the harness's check before anything is allocated. */
static const char *histogram_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return s->d[0] >= (size_t)UINT32_MAX ? "the counts are 32-bit, so n must be below 2^32 - 1" : NULL;
}

static double histogram_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return (double)s->d[0];
}

extern "C" const climb_workload climb_histogram_workload = {
    .name = "histogram",
    .title = "Byte histogram (256 bins, fewer, or the book's 7 letter bins)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors (PMPP), histogram (atomics, "
                "contiguous and interleaved partitioning, privatization, aggregation)",
    .dims = {"n"},
    .types = CLIMB_TYPE_BIT(CLIMB_U8),
    .options = HIST_OPTIONS,
    .n_options = CLIMB_COUNT(HIST_OPTIONS),
    .bytes_counted = "read: n bytes; written: the bins' 32-bit counts",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = HIST_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(HIST_BENCH_SHAPES),
    .check_shapes = HIST_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(HIST_CHECK_SHAPES),
    .quick_shapes = HIST_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(HIST_QUICK_SHAPES),
    .main_shapes = HIST_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(HIST_MAIN_SHAPES),
    .check_max_offset = 15,
    .n_rungs = HIST_N_RUNGS,
    .rung = hist_rung_info,
    .sweeps = HIST_SWEEPS,
    .n_sweeps = CLIMB_COUNT(HIST_SWEEPS),
    .load = hist_load,
    .unload = hist_unload,
    .peek = hist_peek,
    .case_size = sizeof(climb_case),
    .buffers = HIST_BUFFERS,
    .n_buffers = CLIMB_COUNT(HIST_BUFFERS),
    .init = hist_init,
    .fill = hist_fill,
    .fini = hist_fini,
    .describe = hist_describe,
    .reference = hist_reference,
    .case_bytes = histogram_case_bytes,
    .case_refuses = histogram_case_refuses,
    .refuses = hist_refuses,
    .prepare = hist_prepare,
    .run = hist_run,
    .verify = hist_verify,
    .counts = hist_counts,
};
