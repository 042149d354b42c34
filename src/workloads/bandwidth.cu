/*
 * bandwidth.cu - host <-> device transfers: what each kind of host memory, grouping and overlap buys, with the
 * device's own copy beside them. `climb bandwidth` is `climb bench bandwidth`; it replaces the CUDA samples'
 * bandwidthTest.
 *
 * From Harris ("Optimizing CUDA": device-to-host bandwidth far below device memory bandwidth, group
 * transfers, page-locked memory with cudaMallocHost for the highest cudaMemcpy rate, streams to overlap copies
 * with kernels). See docs/bandwidth.md.
 *
 * A case is `bytes` bytes moved in one direction (h2d, d2h) or in both at once (bidir: bytes each way, 2 x bytes
 * counted). Every rung moves the same bytes between a host buffer of its kind and the device; the overlap rungs
 * also run a kernel over them. Counted: the bytes that cross the bus (items, in GB/s = 10^9 bytes/s).
 *
 * Order of this file: the overlap kernel, the case, the rungs' runs, the registry table, the harness glue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/device.h"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "bandwidth.h"

/* ---------------------------------------------------------------- options */

static const char *const BW_DIRECTIONS[] = {"h2d", "d2h", "bidir", NULL};
enum { OPT_DIRECTION, OPT_CHUNK, OPT_STREAMS, OPT_WORK };
static constexpr climb_option BW_OPTIONS[] = {
    {.name = "direction", .kind = CLIMB_OPT_CHOICE,
     .meaning = "h2d: host to device; d2h: device to host; bidir: both at once, bytes each way", .def = "all",
     .choices = BW_DIRECTIONS},
    {.name = "chunk", .kind = CLIMB_OPT_INT, .meaning = "bytes per transfer of the many-small-transfers rung",
     .def = "65536", .min = 256, .max = 1073741824},
    {.name = "streams", .kind = CLIMB_OPT_INT, .meaning = "streams (and chunks) of the overlap rung", .def = "4",
     .min = 1, .max = 16},
    {.name = "work", .kind = CLIMB_OPT_INT,
     .meaning = "rounds of arithmetic per 4-byte word in the overlap rungs' kernel (how long it runs)", .def = "512",
     .min = 1, .max = 65536},
};
CLIMB_OPTION_AT(BW_OPTIONS, OPT_DIRECTION, "direction");
CLIMB_OPTION_AT(BW_OPTIONS, OPT_CHUNK, "chunk");
CLIMB_OPTION_AT(BW_OPTIONS, OPT_STREAMS, "streams");
CLIMB_OPTION_AT(BW_OPTIONS, OPT_WORK, "work");

/* ---------------------------------------------------------------- the overlap kernel */

#define BW_A 1664525u
#define BW_B 1013904223u

extern "C" void climb_bw_rounds(unsigned work, uint32_t *a, uint32_t *b)
{
    uint32_t ca = 1, cb = 0; /* x -> ca x + cb; one more round: x -> A (ca x + cb) + B */
    for (unsigned k = 0; k < work; k++) {
        ca *= BW_A;
        cb = cb * BW_A + BW_B;
    }
    *a = ca;
    *b = cb;
}

/* `work` dependent multiply-adds per word, a grid striding over the words; the last bytes (fewer than 4) are
 * copied as they are. A stand-in for real work on the data the transfer brings or takes: long enough (the work
 * option) to compare with the transfer's own time. */
__global__ void __launch_bounds__(256) bw_work_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                                                      size_t bytes, unsigned work)
{
    const size_t words = bytes / 4, step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += step) {
        uint32_t x = in[i];
        for (unsigned k = 0; k < work; k++)
            x = x * BW_A + BW_B;
        out[i] = x;
    }
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < bytes % 4)
        ((unsigned char *)out)[4 * words + t] = ((const unsigned char *)in)[4 * words + t];
}

/* ---------------------------------------------------------------- the case */

typedef enum { MEM_NONE = -1, MEM_PAGEABLE, MEM_PINNED, MEM_WC, MEM_KINDS } bw_mem;
static const char *const BW_MEM_NAMES[] = {"pageable", "pinned", "write-combined"};

struct climb_case {
    climb_case_params p;
    size_t n;                  /* bytes each way */
    int dir;
    size_t chunk;
    int streams;
    unsigned work;
    unsigned char *h_src_ref;  /* what the host sends (the h2d source, in every kind of host memory) */
    unsigned char *h_dev_ref, *d_src; /* what d_src holds (the d2h source) */
    unsigned char *h_check;    /* a download to check against */
    unsigned char *src[MEM_KINDS], *dst[MEM_KINDS]; /* host buffers of each kind, made by prepare */
    unsigned char *d_dst, *d_work; /* device: h2d destination, the kernel's output */
    cudaStream_t side[16];     /* the streams a run forks onto (bidir's second direction, the overlap chunks) */
    cudaEvent_t fork, join[16];
    int side_made;
    int last_mem;              /* the host kind of the last run, for verify */
};

/* Byte values 0..254: the poison, 0xFF, is never a right answer. */
static void fill_bytes(climb_rng *r, unsigned char *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (unsigned char)(climb_rng_next(r) % 255);
}

/* ---------------------------------------------------------------- the rungs' runs */

typedef int (*bw_run_fn)(climb_case *c, cudaStream_t s);

/* Host buffers of kind m: src to send, dst to receive. */
static int copy_h2d(climb_case *c, int m, size_t off, size_t len, cudaStream_t s)
{
    CLIMB_CHECK(cudaMemcpyAsync(c->d_dst + off, c->src[m] + off, len, cudaMemcpyHostToDevice, s));
    return 0;
}

static int copy_d2h(climb_case *c, int m, size_t off, size_t len, cudaStream_t s)
{
    CLIMB_CHECK(cudaMemcpyAsync(c->dst[m] + off, c->d_src + off, len, cudaMemcpyDeviceToHost, s));
    return 0;
}

/* Forks side stream k off s (it waits for what s has issued). */
static int fork_to(climb_case *c, cudaStream_t s, int k)
{
    CLIMB_CHECK(cudaEventRecord(c->fork, s));
    CLIMB_CHECK(cudaStreamWaitEvent(c->side[k], c->fork, 0));
    return 0;
}

/* s waits for everything side streams 0..k-1 issued. */
static int join_from(climb_case *c, cudaStream_t s, int k)
{
    for (int i = 0; i < k; i++) {
        CLIMB_CHECK(cudaEventRecord(c->join[i], c->side[i]));
        CLIMB_CHECK(cudaStreamWaitEvent(s, c->join[i], 0));
    }
    return 0;
}

/* One transfer (both at once for bidir: d2h on a side stream) from host memory of kind m, in pieces of `piece`
 * bytes (0: one piece). */
static int transfer(climb_case *c, int m, size_t piece, cudaStream_t s)
{
    c->last_mem = m;
    if (!piece)
        piece = c->n;
    cudaStream_t other = s;
    if (c->dir == CLIMB_BW_BIDIR) {
        if (fork_to(c, s, 0))
            return -1;
        other = c->side[0];
    }
    for (size_t off = 0; off < c->n; off += piece) {
        const size_t len = c->n - off < piece ? c->n - off : piece;
        if (c->dir != CLIMB_BW_D2H && copy_h2d(c, m, off, len, s))
            return -1;
        if (c->dir != CLIMB_BW_H2D && copy_d2h(c, m, off, len, other))
            return -1;
    }
    return c->dir == CLIMB_BW_BIDIR ? join_from(c, s, 1) : 0;
}

/* vendor: what cudaMemcpy itself reaches, synchronous, pinned memory (bandwidthTest's measurement). The run waits
 * for s first, so that the copy starts after the timer's start event. */
static int run_cudamemcpy(climb_case *c, cudaStream_t s)
{
    c->last_mem = MEM_PINNED;
    CLIMB_CHECK(cudaStreamSynchronize(s));
    if (c->dir == CLIMB_BW_H2D)
        CLIMB_CHECK(cudaMemcpy(c->d_dst, c->src[MEM_PINNED], c->n, cudaMemcpyHostToDevice));
    else
        CLIMB_CHECK(cudaMemcpy(c->dst[MEM_PINNED], c->d_src, c->n, cudaMemcpyDeviceToHost));
    return 0;
}

/* bound: the device's own copy of the bytes the case moves (d_src to d_dst; twice for bidir). */
static int run_device_copy(climb_case *c, cudaStream_t s)
{
    for (int k = 0; k < (c->dir == CLIMB_BW_BIDIR ? 2 : 1); k++)
        CLIMB_CHECK(cudaMemcpyAsync(c->d_dst, c->d_src, c->n, cudaMemcpyDeviceToDevice, s));
    return 0;
}

static int run_pageable_chunks(climb_case *c, cudaStream_t s) { return transfer(c, MEM_PAGEABLE, c->chunk, s); }
static int run_pageable(climb_case *c, cudaStream_t s) { return transfer(c, MEM_PAGEABLE, 0, s); }
static int run_pinned(climb_case *c, cudaStream_t s) { return transfer(c, MEM_PINNED, 0, s); }
static int run_write_combined(climb_case *c, cudaStream_t s) { return transfer(c, MEM_WC, 0, s); }

/* The kernel over bytes [off, off + len) of the case: h2d: the arrived d_dst into d_work; d2h: d_src into
 * d_work, which then goes to the host. */
static int launch_work(climb_case *c, size_t off, size_t len, cudaStream_t s)
{
    const unsigned char *in = (c->dir == CLIMB_BW_H2D ? c->d_dst : c->d_src) + off;
    size_t blocks = (len / 4 + 255) / 256, cap = (size_t)(c->p.dev->sms > 0 ? c->p.dev->sms : 1) * 8;
    blocks = blocks < 1 ? 1 : blocks > cap ? cap : blocks;
    bw_work_kernel<<<(unsigned)blocks, 256, 0, s>>>((const uint32_t *)in, (uint32_t *)(c->d_work + off), len, c->work);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

static int work_piece(climb_case *c, size_t off, size_t len, cudaStream_t s)
{
    if (c->dir == CLIMB_BW_H2D) {
        if (copy_h2d(c, MEM_PINNED, off, len, s))
            return -1;
        return launch_work(c, off, len, s);
    }
    if (launch_work(c, off, len, s))
        return -1;
    CLIMB_CHECK(cudaMemcpyAsync(c->dst[MEM_PINNED] + off, c->d_work + off, len, cudaMemcpyDeviceToHost, s));
    return 0;
}

/* copy_then_kernel: the transfer and the kernel one after the other, on one stream. */
static int run_copy_then_kernel(climb_case *c, cudaStream_t s)
{
    c->last_mem = MEM_PINNED;
    return work_piece(c, 0, c->n, s);
}

/* overlap_streams: the bytes in `streams` pieces, each on its own stream: piece k's kernel runs while piece k+1
 * crosses the bus (one copy engine per direction: the copies still queue behind each other, the kernels fill
 * the gaps). Pieces are whole 4-byte words but the last. */
static int run_overlap_streams(climb_case *c, cudaStream_t s)
{
    c->last_mem = MEM_PINNED;
    const int k = c->streams;
    const size_t piece = ((c->n + 3) / 4 + (size_t)k - 1) / (size_t)k * 4; /* at most k pieces */
    int used = 0;
    for (size_t off = 0; off < c->n && used < k; off += piece, used++) {
        if (fork_to(c, s, used) || work_piece(c, off, c->n - off < piece ? c->n - off : piece, c->side[used]))
            return -1;
    }
    return join_from(c, s, used);
}

static int k_work(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)bw_work_kernel, "bw_work_kernel", 256, 0);
}

/* The rows' own rule: the vendor's copy and the overlap rungs move one direction at a time. */
static const char *refuses_bidir(const climb_case *c)
{
    return c->dir == CLIMB_BW_BIDIR ? "one direction at a time (bidir: the ladder's rungs move both at once)" : NULL;
}

typedef struct bw_rung {
    climb_rung_info info;
    bw_run_fn run;
    bw_mem mem;     /* the host memory it moves from and to (MEM_NONE: device to device) */
    int work;       /* 1: the output is the kernel's (d_work for h2d, the pinned dst for d2h) */
} bw_rung;

static const bw_rung BW_RUNGS[] = {
    {.info = {.name = "cudamemcpy_pinned", .idea = "vendor: synchronous cudaMemcpy of page-locked memory, as "
                                                   "bandwidthTest measured it",
              .needs = "one direction (h2d or d2h)", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_bidir},
     .run = run_cudamemcpy, .mem = MEM_PINNED},
    {.info = {.name = "device_copy", .idea = "bound: cudaMemcpyAsync device to device of the same bytes: what "
                                             "device memory moves",
              .needs = "", .kind = CLIMB_RUNG_BOUND},
     .run = run_device_copy, .mem = MEM_NONE},
    {.info = {.name = "pageable_chunks", .idea = "malloc'd memory, in transfers of `chunk` bytes: the driver "
                                                 "stages each through its own pinned buffer",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_pageable_chunks, .mem = MEM_PAGEABLE},
    {.info = {.name = "pageable", .idea = "the transfers grouped into one (seed: 'one large transfer much better "
                                          "than many small ones')",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_pageable, .mem = MEM_PAGEABLE},
    {.info = {.name = "pinned", .idea = "page-locked memory (cudaMallocHost): the copy engine reads or writes it "
                                        "directly, cudaMemcpyAsync on the stream",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = climb_no_kernels},
     .run = run_pinned, .mem = MEM_PINNED},
    {.info = {.name = "write_combined", .idea = "page-locked and write-combined (cudaHostAllocWriteCombined): no "
                                                "CPU caching of the buffer",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_write_combined, .mem = MEM_WC},
    {.info = {.name = "copy_then_kernel", .idea = "the pinned transfer and a kernel over its bytes, one after the "
                                                  "other (what overlap is measured against)",
              .needs = "one direction (h2d or d2h)", .kind = CLIMB_RUNG_LADDER, .kernels = k_work,
              .refuses = refuses_bidir},
     .run = run_copy_then_kernel, .mem = MEM_PINNED, .work = 1},
    {.info = {.name = "overlap_streams", .idea = "the same in `streams` pieces on as many streams: transfers "
                                                 "overlap the kernels",
              .needs = "one direction (h2d or d2h)", .kind = CLIMB_RUNG_LADDER, .kernels = k_work,
              .refuses = refuses_bidir},
     .run = run_overlap_streams, .mem = MEM_PINNED, .work = 1},
};
#define BW_N_RUNGS CLIMB_COUNT(BW_RUNGS)

static const climb_rung_info *bw_rung_info(int i) { return &BW_RUNGS[i].info; }

/* ---------------------------------------------------------------- harness glue */

static void free_host(int m, void *p)
{
    if (!p)
        return;
    if (m == MEM_PAGEABLE)
        free(p);
    else
        cudaFreeHost(p);
}

/* The host buffers and streams the rungs' prepare made. */
static void bw_fini(climb_case *c)
{
    for (int m = 0; m < MEM_KINDS; m++) {
        free_host(m, c->src[m]);
        free_host(m, c->dst[m]);
    }
    if (c->side_made) {
        for (int k = 0; k < 16; k++) {
            cudaStreamDestroy(c->side[k]);
            cudaEventDestroy(c->join[k]);
        }
        cudaEventDestroy(c->fork);
    }
}

static int bw_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->dir = c->p.opts[OPT_DIRECTION].choice;
    c->chunk = (size_t)c->p.opts[OPT_CHUNK].i;
    c->streams = (int)c->p.opts[OPT_STREAMS].i;
    c->work = (unsigned)c->p.opts[OPT_WORK].i;
    return 0;
}

static int bw_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    fill_bytes(&rng, c->h_src_ref, c->n);
    fill_bytes(&rng, c->h_dev_ref, c->n);
    return 0;
}

static size_t bw_bytes(const climb_case *c) { return c->n ? c->n : 1; }

/* The device's buffers and the references; the host buffers of each kind of memory are the rungs' (prepare). */
static const climb_buffer BW_BUFFERS[] = {
    {.name = "the device source", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = bw_bytes,
     .host_at = offsetof(climb_case, h_dev_ref), .device_at = offsetof(climb_case, d_src)},
    {.name = "the device destination", .flags = CLIMB_BUF_DEVICE, .bytes = bw_bytes,
     .device_at = offsetof(climb_case, d_dst)},
    {.name = "the kernel's output", .flags = CLIMB_BUF_DEVICE, .bytes = bw_bytes,
     .device_at = offsetof(climb_case, d_work)},
    {.name = "the bytes sent", .flags = CLIMB_BUF_HOST, .bytes = bw_bytes, .host_at = offsetof(climb_case, h_src_ref)},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = bw_bytes,
     .host_at = offsetof(climb_case, h_check)},
};

static int bw_empty(const climb_case *c) { return c->n == 0; }

static const char *bw_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "random bytes 0-254; %s", c->dir == CLIMB_BW_BIDIR ? "both directions at once" :
                                                        c->dir == CLIMB_BW_H2D ? "host to device" : "device to host");
    return buf;
}

static int bw_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "the bytes sent, every byte (the overlap kernel's words by its closed form)");
    return 0;
}

/* The host buffers a rung uses, each once per case, untimed: the sources filled with the bytes to send. */
static int bw_prepare(climb_case *c, int rung)
{
    const int m = BW_RUNGS[rung].mem;
    const bw_run_fn r = BW_RUNGS[rung].run;
    if ((BW_RUNGS[rung].work || c->dir == CLIMB_BW_BIDIR || r == run_overlap_streams) && !c->side_made) {
        CLIMB_CHECK(cudaEventCreateWithFlags(&c->fork, cudaEventDisableTiming));
        for (int k = 0; k < 16; k++) {
            CLIMB_CHECK(cudaStreamCreateWithFlags(&c->side[k], cudaStreamNonBlocking));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->join[k], cudaEventDisableTiming));
        }
        c->side_made = 1;
    }
    if (m < 0 || c->src[m])
        return 0;
    const size_t alloc = c->n + 16;
    if (m == MEM_PAGEABLE) {
        if (climb_host_memory_refuses(2 * alloc, "pageable buffers"))
            return -1;
        c->src[m] = (unsigned char *)malloc(alloc);
        c->dst[m] = (unsigned char *)malloc(alloc);
        if (!c->src[m] || !c->dst[m]) {
            climb_host_oom("the pageable buffers (2 x %zu bytes)", alloc);
            return -1;
        }
    } else {
        const unsigned flags = m == MEM_WC ? cudaHostAllocWriteCombined : cudaHostAllocDefault;
        cudaError_t e = cudaHostAlloc((void **)&c->src[m], alloc, flags);
        if (e == cudaSuccess)
            e = cudaHostAlloc((void **)&c->dst[m], alloc, flags);
        if (e != cudaSuccess) {
            fprintf(stderr, "climb: cannot page-lock 2 x %zu bytes (%s): %s\n", alloc, BW_MEM_NAMES[m],
                    cudaGetErrorString(e));
            cudaGetLastError();
            return -1;
        }
    }
    memcpy(c->src[m], c->h_src_ref, c->n);
    return 0;
}

static int bw_run(climb_case *c, int rung, cudaStream_t s) { return BW_RUNGS[rung].run(c, s); }

/* 0xFF everywhere a run writes: device destinations and every host destination made so far. */
static int bw_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_dst, 0xFF, c->n));
    CLIMB_CHECK(cudaMemset(c->d_work, 0xFF, c->n));
    for (int m = 0; m < MEM_KINDS; m++) /* the CPU writes write-combined memory fine; reading it is slow */
        if (c->dst[m])
            memset(c->dst[m], 0xFF, c->n);
    return 0;
}

/* Byte by byte: got against want, or against the kernel's closed form of want where `work` (whole words; the
 * last bytes copied). */
static void compare(climb_compare *k, const char *what, const unsigned char *got, const unsigned char *want, size_t n,
                    int work, unsigned rounds)
{
    uint32_t a = 1, b = 0;
    if (work)
        climb_bw_rounds(rounds, &a, &b);
    const size_t words = work ? n / 4 : 0;
    for (size_t i = 0; i < words; i++) {
        uint32_t x, y;
        memcpy(&x, want + 4 * i, 4);
        memcpy(&y, got + 4 * i, 4);
        climb_compare_exact(k, y, a * x + b, "%s[%zu]", what, 4 * i);
    }
    if (memcmp(got + 4 * words, want + 4 * words, n - 4 * words) == 0) {
        k->checked += n - 4 * words;
        return;
    }
    for (size_t i = 4 * words; i < n; i++)
        climb_compare_exact(k, got[i], want[i], "%s[%zu]", what, i);
}

static int bw_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const int m = BW_RUNGS[rung].mem, work = BW_RUNGS[rung].work;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (m == MEM_NONE) {
        CLIMB_CHECK(cudaMemcpy(c->h_check, c->d_dst, c->n, cudaMemcpyDeviceToHost));
        compare(&k, "device copy", c->h_check, c->h_dev_ref, c->n, 0, 0);
    } else {
        if (c->dir != CLIMB_BW_D2H) { /* what arrived on the device (or the kernel made of it) */
            CLIMB_CHECK(cudaMemcpy(c->h_check, work ? c->d_work : c->d_dst, c->n, cudaMemcpyDeviceToHost));
            compare(&k, "device", c->h_check, c->h_src_ref, c->n, work, c->work);
        }
        if (c->dir != CLIMB_BW_H2D) { /* what arrived on the host */
            if (!climb_compare_check(&k, c->dst[m] != NULL, "no host buffer was made for this rung"))
                return climb_compare_end(&k);
            const unsigned char *got = c->dst[m];
            if (m == MEM_WC) { /* uncached for the CPU: read back through the GPU instead */
                CLIMB_CHECK(cudaMemcpy(c->d_work, c->dst[m], c->n, cudaMemcpyHostToDevice));
                CLIMB_CHECK(cudaMemcpy(c->h_check, c->d_work, c->n, cudaMemcpyDeviceToHost));
                got = c->h_check;
            }
            compare(&k, "host", got, c->h_dev_ref, c->n, work, c->work);
        }
    }
    return climb_compare_end(&k);
}

/* The bytes that cross the bus: bytes, or twice that both ways. */
static void bw_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->n * (c->dir == CLIMB_BW_BIDIR ? 2 : 1);
}

/* 1 KiB to 1 GiB by factors of 4. */
static const climb_shape BW_BENCH_SHAPES[] = {
    CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22), CLIMB_SHAPE1(1u << 24),
    CLIMB_SHAPE1(1u << 26), CLIMB_SHAPE1(1u << 28), CLIMB_SHAPE1(1u << 30)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape BW_MAIN_SHAPES[] = {CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 26)};
static const climb_shape BW_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),      CLIMB_SHAPE1(1),      CLIMB_SHAPE1(3),
                                              CLIMB_SHAPE1(4),      CLIMB_SHAPE1(255),    CLIMB_SHAPE1(1000),
                                              CLIMB_SHAPE1(4097),   CLIMB_SHAPE1(65535),  CLIMB_SHAPE1(65537),
                                              CLIMB_SHAPE1(1000003)};
static const climb_shape BW_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(4097), CLIMB_SHAPE1(65537)};

static const climb_sweep BW_SWEEPS[] = {
    {.name = "sizes", .title = "host <-> device: GB/s against transfer size", .args = NULL, .x = "bytes",
     .log_x = 1},
};

extern "C" const climb_workload climb_bandwidth_workload = {
    .name = "bandwidth",
    .title = "Host <-> device transfers: pageable, pinned, write-combined, grouped, overlapped, bidirectional",
    .sources = "Harris, Optimizing CUDA: data transfers (page-locked memory, group transfers, streams)",
    .command = "bandwidth",
    .dims = {"bytes"},
    .types = CLIMB_TYPE_BIT(CLIMB_U8),
    .options = BW_OPTIONS,
    .n_options = CLIMB_COUNT(BW_OPTIONS),
    .bytes_counted = "none in device memory; items are the bytes that cross the bus (bytes, 2 x bytes for bidir)",
    .items_unit = "bytes",
    .items_rate = "GB/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = BW_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(BW_BENCH_SHAPES),
    .check_shapes = BW_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(BW_CHECK_SHAPES),
    .quick_shapes = BW_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(BW_QUICK_SHAPES),
    .main_shapes = BW_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(BW_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = BW_N_RUNGS,
    .rung = bw_rung_info,
    .sweeps = BW_SWEEPS,
    .n_sweeps = CLIMB_COUNT(BW_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = BW_BUFFERS,
    .n_buffers = CLIMB_COUNT(BW_BUFFERS),
    .init = bw_init,
    .fill = bw_fill,
    .fini = bw_fini,
    .describe = bw_describe,
    .reference = bw_reference,
    .prepare = bw_prepare,
    .run = bw_run,
    .empty = bw_empty,
    .poison = bw_poison,
    .verify = bw_verify,
    .counts = bw_counts,
};
