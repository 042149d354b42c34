/*
 * peer.cu - bytes from one GPU to another: through the host, by the driver without and with peer access, by a copy
 * engine over NVLink, by kernels that load or store across it, and NCCL's send and receive beside them.
 *
 * From van Oosten, Introduction to CUDA 5.0 (GPUDirect: data moved from one GPU to another without the host's
 * memory). See docs/peer.md.
 *
 * A case spans GPUs (--gpus, --devices) and moves `bytes` bytes from its GPU `from` to its GPU `to` (the options
 * are positions in the case's set), or both ways at once (direction=both: bytes each way, 2 x bytes counted). Every
 * rung moves the same bytes; each arrives checked byte for byte. Counted: the bytes that reach the other GPU (items,
 * in GB/s = 10^9 bytes/s), as p2pBandwidthLatencyTest counts them.
 *
 * Order of this file: the copy kernel, the case, the rungs' runs, the registry table, the harness glue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../base/rng.h"
#include "../device/device.h"
#include "../device/nccl.h"
#include "../core/workload.cuh"
#include "common/coll_exec.h"
#include "peer.h"

/* ---------------------------------------------------------------- options */

static const char *const PEER_DIRECTIONS[] = {"one", "both", NULL};
enum { OPT_FROM, OPT_TO, OPT_DIRECTION, OPT_CHUNK };
static constexpr climb_option PEER_OPTIONS[] = {
    {.name = "from", .kind = CLIMB_OPT_INT, .meaning = "the sending GPU: its position in the case's GPUs (0: the first)",
     .def = "0", .min = 0, .max = CLIMB_MAX_DEVICES - 1},
    {.name = "to", .kind = CLIMB_OPT_INT, .meaning = "the receiving GPU: its position in the case's GPUs", .def = "1",
     .min = 0, .max = CLIMB_MAX_DEVICES - 1},
    {.name = "direction", .kind = CLIMB_OPT_CHOICE,
     .meaning = "one: from sends to to; both: each sends to the other at once, bytes each way", .def = "all",
     .choices = PEER_DIRECTIONS},
    {.name = "chunk", .kind = CLIMB_OPT_INT, .meaning = "bytes per piece of the pipelined staging rung",
     .def = "4194304", .min = 4096, .max = 1073741824},
};
CLIMB_OPTION_AT(PEER_OPTIONS, OPT_FROM, "from");
CLIMB_OPTION_AT(PEER_OPTIONS, OPT_TO, "to");
CLIMB_OPTION_AT(PEER_OPTIONS, OPT_DIRECTION, "direction");
CLIMB_OPTION_AT(PEER_OPTIONS, OPT_CHUNK, "chunk");

/* ---------------------------------------------------------------- policy */

/* The best rung stores with a kernel below this many bytes, where a copy engine's start-up is most of the time,
 * and hands larger copies to the copy engine (which leaves the SMs free). `climb tune peer` chose 1 MiB on two
 * H200s (668830b; docs/peer.md). */
#define PEER_KERNEL_BELOW ((size_t)1 << 20)

extern "C" int climb_peer_best_uses_kernel(size_t bytes) { return bytes < PEER_KERNEL_BELOW; }

/* At most this many pieces: a smaller chunk is raised to fit. */
#define PEER_MAX_PIECES 1024

extern "C" size_t climb_peer_piece(size_t bytes, size_t chunk)
{
    const size_t least = (bytes + PEER_MAX_PIECES - 1) / PEER_MAX_PIECES;
    return chunk > least ? chunk : least > 0 ? least : 1;
}

/* ---------------------------------------------------------------- the copy kernel */

/* A grid-strided copy of n bytes, 16 at a time, the last n % 16 one at a time. Launched on the sending GPU it
 * stores across the link (every store a posted write, nothing waits for it); on the receiving GPU it loads across
 * it (each load a round trip, so many in flight: four 16-byte loads a thread before the stores). */
__global__ void __launch_bounds__(256) peer_copy_kernel(const unsigned char *__restrict__ src,
                                                        unsigned char *__restrict__ dst, size_t n)
{
    const size_t n16 = n / 16, step = (size_t)gridDim.x * blockDim.x;
    const uint4 *s = (const uint4 *)src;
    uint4 *d = (uint4 *)dst;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * step < n16; i += 4 * step) {
        const uint4 a = s[i], b = s[i + step], c = s[i + 2 * step], e = s[i + 3 * step];
        d[i] = a;
        d[i + step] = b;
        d[i + 2 * step] = c;
        d[i + 3 * step] = e;
    }
    for (; i < n16; i += step)
        d[i] = s[i];
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n % 16)
        dst[16 * n16 + t] = src[16 * n16 + t];
}

static unsigned copy_blocks(size_t n, int sms)
{
    size_t blocks = (n / 16 + 255) / 256, cap = (size_t)(sms > 0 ? sms : 1) * 8;
    return (unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

/* The best rung's copy, for the C API too: the push kernel (on the sender, which must be current, with peer access
 * to the receiver) below PEER_KERNEL_BELOW bytes where both ends are 16-byte aligned, else the copy engine. */
static cudaError_t best_copy(void *dst, const void *src, size_t bytes, int access, int sms,
                             cudaStream_t s, size_t kernel_below)
{
    if (bytes == 0)
        return cudaSuccess;
    if (access && bytes < kernel_below && ((uintptr_t)dst | (uintptr_t)src) % 16 == 0) {
        peer_copy_kernel<<<copy_blocks(bytes, sms), 256, 0, s>>>((const unsigned char *)src, (unsigned char *)dst,
                                                                 bytes);
        return cudaGetLastError();
    }
    return climb_copy_across(dst, src, bytes, s);
}

extern "C" cudaError_t climb_peer_copy_async(void *dst, const void *src, size_t bytes, int access, int sms,
                                             cudaStream_t s)
{
    return best_copy(dst, src, bytes, access, sms, s, PEER_KERNEL_BELOW);
}

/* ---------------------------------------------------------------- the case */

enum { FWD = 0, BACK = 1 }; /* from -> to, and to -> from */

struct climb_case {
    climb_case_params p;
    size_t n;                    /* bytes each way */
    int both;
    size_t chunk;
    const char *bad;             /* the pair is not two GPUs of the case: every rung refuses, this says why */
    char bad_buf[160];
    int dev[2];                  /* the ordinals of from and to */
    int home;                    /* the run's device: current again after every hook */
    int access[2];               /* cudaDeviceCanAccessPeer from -> to, to -> from */
    unsigned char *h_sent[2];    /* the bytes each way sends (host), from the seed */
    unsigned char *h_check;      /* a download to check against */
    unsigned char *src[2], *dst[2]; /* direction d: src[d] on its sender, dst[d] on its receiver */
    unsigned char *pageable, *pinned[2]; /* staging buffers, made by prepare */
    cudaStream_t st[2][2];       /* st[d][0] on direction d's sender, st[d][1] on its receiver */
    cudaEvent_t fork[2], done[2][2]; /* fork[0] on the run's device, fork[1] on from's (where bench times) */
    cudaEvent_t *piece_ev[2];    /* the pipelined rung's: a piece's download done */
    int kernel_below;            /* the best rung's crossover, bytes (tuned; PEER_KERNEL_BELOW built in) */
    int n_piece_ev;
#if CLIMB_HAVE_NCCL
    ncclComm_t comm[2];          /* the pair's communicator (rank 0: from), made by prepare of the vendor rung */
#endif
};

static int sender(const climb_case *c, int d) { return c->dev[d == FWD ? 0 : 1]; }
static int receiver(const climb_case *c, int d) { return c->dev[d == FWD ? 1 : 0]; }
static int ways(const climb_case *c) { return c->both ? 2 : 1; }

/* Byte values 0..254: the poison, 0xFF, is never a right answer. */
static void fill_bytes(climb_rng *r, unsigned char *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (unsigned char)(climb_rng_next(r) % 255);
}

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

/* ---------------------------------------------------------------- the rungs' runs */

typedef int (*peer_run_fn)(climb_case *c, int d, cudaStream_t s);

/* The streams a rung issues to: each direction's sender's (k = 0), its receiver's (k = 1). Only those join the
 * timer: a stream on the other GPU that waits and records for nothing adds a cross-GPU wait (microseconds) to a
 * transfer of a few bytes. */
enum { ON_SENDER = 1, ON_RECEIVER = 2 };

/* The direction streams of `used` wait for what s has issued (the timer's start), and s for all they issue. s is
 * on the run's device (climb check) or on from's (climb bench: peer_timer_device); an event is recorded on its own
 * device's streams only. */
static int fork_from(climb_case *c, cudaStream_t s, int used)
{
    if (!used)
        return 0;
    int sd;
    if (s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread) /* the current device's */
        CLIMB_CHECK(cudaGetDevice(&sd));
    else
        CLIMB_CHECK(cudaStreamGetDevice(s, &sd));
    if (sd != c->home && sd != c->dev[0]) {
        fprintf(stderr, "climb: peer: a stream of GPU %d, neither the run's (%d) nor the sender's (%d)\n", sd, c->home,
                c->dev[0]);
        return -1;
    }
    const cudaEvent_t fork = c->fork[sd == c->home ? 0 : 1];
    CLIMB_CHECK(cudaEventRecord(fork, s));
    for (int d = 0; d < ways(c); d++)
        for (int k = 0; k < 2; k++)
            if (used & (1 << k))
                CLIMB_CHECK(cudaStreamWaitEvent(c->st[d][k], fork, 0));
    return 0;
}

static int join_to(climb_case *c, cudaStream_t s, int used)
{
    for (int d = 0; d < ways(c); d++)
        for (int k = 0; k < 2; k++) {
            if (!(used & (1 << k)))
                continue;
            CLIMB_CHECK(cudaEventRecord(c->done[d][k], c->st[d][k]));
            CLIMB_CHECK(cudaStreamWaitEvent(s, c->done[d][k], 0));
        }
    return 0;
}

/* staged_pageable: down into malloc'd host memory and up again, each a synchronous cudaMemcpy (the driver stages
 * pageable memory through its own pinned buffer); both ways one after the other, as the host does them. */
static int run_pageable(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
    ON(sender(c, d));
    CLIMB_CHECK(cudaMemcpy(c->pageable, c->src[d], c->n, cudaMemcpyDeviceToHost));
    ON(receiver(c, d));
    CLIMB_CHECK(cudaMemcpy(c->dst[d], c->pageable, c->n, cudaMemcpyHostToDevice));
    return 0;
}

/* staged_pinned: down into page-locked memory and up again, asynchronous, the upload waiting for the download. */
static int run_pinned(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
    ON(sender(c, d));
    CLIMB_CHECK(cudaMemcpyAsync(c->pinned[d], c->src[d], c->n, cudaMemcpyDeviceToHost, c->st[d][0]));
    CLIMB_CHECK(cudaEventRecord(c->done[d][0], c->st[d][0]));
    ON(receiver(c, d));
    CLIMB_CHECK(cudaStreamWaitEvent(c->st[d][1], c->done[d][0], 0));
    CLIMB_CHECK(cudaMemcpyAsync(c->dst[d], c->pinned[d], c->n, cudaMemcpyHostToDevice, c->st[d][1]));
    return 0;
}

/* staged_pipelined: the same in pieces, each piece's upload waiting for its own download only: the two copy
 * engines (down on the sender, up on the receiver) work at once. */
static int run_pipelined(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
    const size_t piece = climb_peer_piece(c->n, c->chunk);
    int k = 0;
    for (size_t off = 0; off < c->n; off += piece, k++) {
        const size_t len = c->n - off < piece ? c->n - off : piece;
        ON(sender(c, d));
        CLIMB_CHECK(cudaMemcpyAsync(c->pinned[d] + off, c->src[d] + off, len, cudaMemcpyDeviceToHost, c->st[d][0]));
        CLIMB_CHECK(cudaEventRecord(c->piece_ev[d][k], c->st[d][0]));
        ON(receiver(c, d));
        CLIMB_CHECK(cudaStreamWaitEvent(c->st[d][1], c->piece_ev[d][k], 0));
        CLIMB_CHECK(cudaMemcpyAsync(c->dst[d] + off, c->pinned[d] + off, len, cudaMemcpyHostToDevice, c->st[d][1]));
    }
    return 0;
}

/* memcpy_peer (and memcpy_peer_no_access, the same call with peer access off: the driver stages it through the
 * host): cudaMemcpyPeerAsync on the sender's stream. */
static int run_memcpy_peer(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
    ON(sender(c, d));
    CLIMB_CHECK(cudaMemcpyPeerAsync(c->dst[d], receiver(c, d), c->src[d], sender(c, d), c->n, c->st[d][0]));
    return 0;
}

/* The SM count of GPU `dev` of the case. */
static int sms_of(const climb_case *c, int dev)
{
    for (int i = 0; i < c->p.n_devices; i++)
        if (c->p.devices[i] == dev)
            return c->p.devs[i].sms;
    return c->p.devs[0].sms;
}

static int launch_copy(climb_case *c, int d, int on_sender)
{
    const int dev = on_sender ? sender(c, d) : receiver(c, d);
    ON(dev);
    peer_copy_kernel<<<copy_blocks(c->n, sms_of(c, dev)), 256, 0, c->st[d][on_sender ? 0 : 1]>>>(c->src[d],
                                                                                                c->dst[d], c->n);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

/* kernel_pull: the receiver's kernel loads the sender's memory. kernel_push: the sender's kernel stores into the
 * receiver's. */
static int run_pull(climb_case *c, int d, cudaStream_t s) { return (void)s, launch_copy(c, d, 0); }
static int run_push(climb_case *c, int d, cudaStream_t s) { return (void)s, launch_copy(c, d, 1); }

/* best: the push kernel below PEER_KERNEL_BELOW bytes, the copy engine from there (climb_peer_copy_async, as the
 * C API's climb_comm_peer_copy). */
static int run_best(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
    const int from = sender(c, d);
    ON(from);
    CLIMB_CHECK(best_copy(c->dst[d], c->src[d], c->n, 1, sms_of(c, from), c->st[d][0],
                          (size_t)c->kernel_below));
    return 0;
}

/* vendor: NCCL's send and receive on a communicator of the two GPUs, both ways inside one group for direction
 * both. */
static int run_nccl(climb_case *c, int d, cudaStream_t s)
{
    (void)s;
#if CLIMB_HAVE_NCCL
    if (d != FWD)
        return 0; /* the group below holds both directions */
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc)
        return -1;
    ncclResult_t r = nc->group_start();
    for (int k = 0; k < ways(c) && r == ncclSuccess; k++) { /* k: rank 0 (from) sends, rank 1 receives; and back */
        r = nc->send(c->src[k], c->n, ncclUint8, 1 - k, c->comm[k], c->st[k][0]);
        if (r == ncclSuccess)
            r = nc->recv(c->dst[k], c->n, ncclUint8, k, c->comm[1 - k], c->st[k][1]);
    }
    const ncclResult_t end = nc->group_end();
    if (r != ncclSuccess || end != ncclSuccess) {
        fprintf(stderr, "climb: peer: NCCL send/receive: %s\n", nc->error_string(r != ncclSuccess ? r : end));
        return -1;
    }
    return 0;
#else
    (void)c;
    (void)d;
    return -1;
#endif
}

static int k_copy(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)peer_copy_kernel, "peer_copy_kernel", 256, 0);
}

static const char *refuses_no_access(const climb_case *c)
{
    if (c->access[FWD] && (!c->both || c->access[BACK]))
        return NULL;
    return "no peer access between these GPUs (cudaDeviceCanAccessPeer): a kernel cannot reach the other's memory";
}

static const char *refuses_without_nccl(const climb_case *c) { return (void)c, climb_nccl_refusal(); }

typedef enum { ACCESS_ANY, ACCESS_ON, ACCESS_OFF } peer_access;

typedef struct peer_rung {
    climb_rung_info info;
    peer_run_fn run;
    peer_access access; /* the peer access the rung runs with (prepare sets it) */
    int staging;        /* 1: pageable memory, 2: pinned memory, both directions' (made by prepare) */
    int host_sync;      /* 1: synchronous copies: the run waits for s first, so that they start after the timer */
    int streams;        /* ON_SENDER | ON_RECEIVER: the streams it issues to (none: synchronous copies) */
} peer_rung;

static const peer_rung PEER_RUNGS[] = {
    {.info = {.name = "nccl_send_recv", .idea = "vendor: ncclSend and ncclRecv on a communicator of the two GPUs, "
                                                "in one group (both ways at once for direction=both)",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_without_nccl},
     /* access on, as NCCL leaves it: the no-access rung must not have taken it from NCCL's communicator */
     .run = run_nccl, .access = ACCESS_ON, .streams = ON_SENDER | ON_RECEIVER},
    {.info = {.name = "staged_pageable", .idea = "the textbook way without GPUDirect: down into malloc'd host memory "
                                                 "with cudaMemcpy, then up into the other GPU",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels, .host_part = 1},
     .run = run_pageable, .staging = 1, .host_sync = 1},
    {.info = {.name = "staged_pinned", .idea = "through page-locked host memory, asynchronous: the upload waits for "
                                               "the download on the GPU, not on the host",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_pinned, .staging = 2, .streams = ON_SENDER | ON_RECEIVER},
    {.info = {.name = "staged_pipelined", .idea = "the same in pieces of `chunk` bytes: the sender's download and the "
                                                  "receiver's upload run at once",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_pipelined, .staging = 2, .streams = ON_SENDER | ON_RECEIVER},
    {.info = {.name = "memcpy_peer_no_access", .idea = "cudaMemcpyPeerAsync with peer access off: the driver stages "
                                                       "the copy through the host itself",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_memcpy_peer, .access = ACCESS_OFF, .streams = ON_SENDER},
    {.info = {.name = "memcpy_peer", .idea = "GPUDirect peer to peer: peer access on, a copy engine moves the bytes "
                                             "over NVLink, no host memory",
              .needs = "peer access", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels,
              .refuses = refuses_no_access},
     .run = run_memcpy_peer, .access = ACCESS_ON, .streams = ON_SENDER},
    {.info = {.name = "kernel_pull", .idea = "the receiver's kernel loads the sender's memory over NVLink (16-byte "
                                             "loads, four in flight a thread)",
              .needs = "peer access", .kind = CLIMB_RUNG_LADDER, .kernels = k_copy, .refuses = refuses_no_access},
     .run = run_pull, .access = ACCESS_ON, .streams = ON_RECEIVER},
    {.info = {.name = "kernel_push", .idea = "the sender's kernel stores into the receiver's memory: posted writes, "
                                             "nothing waits for a round trip",
              .needs = "peer access", .kind = CLIMB_RUNG_LADDER, .kernels = k_copy, .refuses = refuses_no_access},
     .run = run_push, .access = ACCESS_ON, .streams = ON_SENDER},
    {.info = {.name = "peer_best", .idea = "the push kernel for small copies, where a copy engine's start is most of "
                                           "the time; the copy engine for the rest",
              .needs = "peer access", .kind = CLIMB_RUNG_BEST, .kernels = k_copy, .refuses = refuses_no_access},
     .run = run_best, .access = ACCESS_ON, .streams = ON_SENDER},
};
#define PEER_N_RUNGS CLIMB_COUNT(PEER_RUNGS)

static const climb_rung_info *peer_rung_info(int i) { return &PEER_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

/* The best rung's one tunable: the copy size below which the sender's kernel stores it. `climb tune peer` times
 * the best rung over its tune sizes (1 KiB to 256 MiB) with each value and keeps the one of least geometric-mean time relative to
 * each size's fastest: the crossover between a kernel's launch and a copy engine's start, measured. */
static const int PEER_CROSSOVERS[] = {4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};
static const climb_tunable PEER_TUNABLES[] = {
    {.name = "kernel_below", .meaning = "bytes below which the sender's kernel stores the copy",
     .values = PEER_CROSSOVERS, .n_values = CLIMB_COUNT(PEER_CROSSOVERS)},
};

static const int PEER_BUILTIN[] = {(int)PEER_KERNEL_BELOW};
static const climb_tuning PEER_TUNING = {
    .params = PEER_TUNABLES,
    .n_params = CLIMB_COUNT(PEER_TUNABLES),
    .builtin = PEER_BUILTIN,
    .builtin_why = "built-in: 1 MiB, as climb tune chose on two H200s",
};

static void peer_set_tuning(climb_case *c, const int *v) { c->kernel_below = v[0]; }

/* ---------------------------------------------------------------- harness glue */

/* Peer access between the pair, on or off, both ways (enabling what is on already, or disabling what is off, is
 * no error). */
static int set_access(climb_case *c, int on)
{
    for (int k = 0; k < 2; k++) {
        if (!on || c->access[k])
            CLIMB_CHECK(climb_peer_access(c->dev[k], c->dev[1 - k], on));
    }
    return 0;
}

static void peer_fini(climb_case *c)
{
    for (int d = 0; d < 2; d++) {
        if (c->bad)
            break;
        cudaSetDevice(sender(c, d));
        cudaFree(c->src[d]);
        cudaSetDevice(receiver(c, d));
        cudaFree(c->dst[d]);
        cudaFreeHost(c->pinned[d]);
        for (int k = 0; c->piece_ev[d] && k < c->n_piece_ev; k++)
            cudaEventDestroy(c->piece_ev[d][k]);
        free(c->piece_ev[d]);
        for (int k = 0; k < 2; k++) {
            cudaSetDevice(k ? receiver(c, d) : sender(c, d));
            if (c->st[d][k])
                cudaStreamDestroy(c->st[d][k]);
            if (c->done[d][k])
                cudaEventDestroy(c->done[d][k]);
        }
    }
    cudaSetDevice(c->home);
    for (int k = 0; k < 2; k++)
        if (c->fork[k] && cudaSetDevice(k ? c->dev[0] : c->home) == cudaSuccess)
            cudaEventDestroy(c->fork[k]);
    free(c->pageable);
    cudaSetDevice(c->home);
}

/* The pair, its buffers on each GPU (one byte at the least), the streams and events; a pair that is not two GPUs
 * of the case is left for every rung to refuse. */
static int peer_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->both = c->p.opts[OPT_DIRECTION].choice == 1;
    c->chunk = (size_t)c->p.opts[OPT_CHUNK].i;
    c->home = c->p.dev->ordinal;
    c->kernel_below = (int)PEER_KERNEL_BELOW; /* until the harness sets the tuned value */
    const long long from = c->p.opts[OPT_FROM].i, to = c->p.opts[OPT_TO].i, n = c->p.n_devices;
    if (from >= n || to >= n) {
        snprintf(c->bad_buf, sizeof c->bad_buf, "%s = %lld, and the case spans %lld GPUs (positions 0 to %lld)",
                 from >= n ? "from" : "to", from >= n ? from : to, n, n - 1);
        c->bad = c->bad_buf;
        return 0;
    }
    if (from == to) {
        c->bad = "from and to are the same GPU (its own copy is what climb bench bandwidth's device_copy times)";
        return 0;
    }
    c->dev[0] = c->p.devices[from];
    c->dev[1] = c->p.devices[to];
    CLIMB_CHECK(cudaDeviceCanAccessPeer(&c->access[FWD], c->dev[0], c->dev[1]));
    CLIMB_CHECK(cudaDeviceCanAccessPeer(&c->access[BACK], c->dev[1], c->dev[0]));
    const size_t bytes = c->n ? c->n : 1;
    void *alloc;
    for (int d = 0; d < 2; d++) {
        ON(sender(c, d));
        if (climb_device_alloc_offset(bytes, 0, &alloc, (void **)&c->src[d], "a sender's bytes") != 0)
            return -1;
        ON(receiver(c, d));
        if (climb_device_alloc_offset(bytes, 0, &alloc, (void **)&c->dst[d], "a receiver's buffer") != 0)
            return -1;
        for (int k = 0; k < 2; k++) {
            ON(k ? receiver(c, d) : sender(c, d));
            CLIMB_CHECK(cudaStreamCreateWithFlags(&c->st[d][k], cudaStreamNonBlocking));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->done[d][k], cudaEventDisableTiming));
        }
    }
    ON(c->home);
    CLIMB_CHECK(cudaEventCreateWithFlags(&c->fork[0], cudaEventDisableTiming));
    ON(c->dev[0]);
    CLIMB_CHECK(cudaEventCreateWithFlags(&c->fork[1], cudaEventDisableTiming));
    ON(c->home);
    return 0;
}

/* The bytes each way, and on their senders. */
static int peer_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    fill_bytes(&rng, c->h_sent[FWD], c->n);
    fill_bytes(&rng, c->h_sent[BACK], c->n);
    if (c->bad)
        return 0;
    for (int d = 0; d < 2; d++) {
        ON(sender(c, d));
        CLIMB_CHECK(cudaMemcpy(c->src[d], c->h_sent[d], c->n, cudaMemcpyHostToDevice));
    }
    ON(c->home);
    return 0;
}

static size_t peer_bytes(const climb_case *c) { return c->n ? c->n : 1; }

static const climb_buffer PEER_BUFFERS[] = {
    {.name = "the bytes sent from to to", .flags = CLIMB_BUF_HOST, .bytes = peer_bytes,
     .host_at = offsetof(climb_case, h_sent[FWD])},
    {.name = "the bytes sent back", .flags = CLIMB_BUF_HOST, .bytes = peer_bytes,
     .host_at = offsetof(climb_case, h_sent[BACK])},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = peer_bytes,
     .host_at = offsetof(climb_case, h_check)},
};

static int peer_empty(const climb_case *c) { return c->n == 0; }

static const char *peer_describe(const climb_case *c)
{
    static char buf[200];
    if (c->bad)
        snprintf(buf, sizeof buf, "random bytes 0-254");
    else
        snprintf(buf, sizeof buf, "random bytes 0-254; GPU %d %s GPU %d", c->dev[0], c->both ? "<->" : "->",
                 c->dev[1]);
    return buf;
}

static int peer_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "the bytes sent, every byte");
    return 0;
}

static const char *peer_refuses(const climb_case *c, int rung)
{
    (void)rung;
    return c->bad;
}

/* The rung's peer access, its staging buffers (made once a case), the pipelined rung's events, NCCL's
 * communicator; untimed. */
static int peer_prepare(climb_case *c, int rung)
{
    const peer_rung *r = &PEER_RUNGS[rung];
    if (r->access != ACCESS_ANY && set_access(c, r->access == ACCESS_ON) != 0)
        return -1;
    if (r->staging == 1 && !c->pageable) {
        if (climb_host_memory_refuses(c->n + 16, "a pageable staging buffer"))
            return -1;
        c->pageable = (unsigned char *)malloc(c->n + 16);
        if (!c->pageable)
            return climb_host_oom("the pageable staging buffer (%zu bytes)", c->n + 16);
    }
    for (int d = 0; r->staging == 2 && d < ways(c); d++)
        if (!c->pinned[d] && cudaHostAlloc((void **)&c->pinned[d], c->n + 16, cudaHostAllocPortable) != cudaSuccess) {
            fprintf(stderr, "climb: peer: cannot page-lock %zu bytes of staging: %s\n", c->n + 16,
                    cudaGetErrorString(cudaGetLastError()));
            return -1;
        }
    if (r->run == run_pipelined && !c->piece_ev[FWD]) {
        const size_t piece = climb_peer_piece(c->n, c->chunk);
        c->n_piece_ev = (int)((c->n + piece - 1) / piece);
        for (int d = 0; d < 2; d++) {
            c->piece_ev[d] = (cudaEvent_t *)calloc((size_t)c->n_piece_ev + 1, sizeof(cudaEvent_t));
            if (!c->piece_ev[d])
                return climb_host_oom("the pipelined rung's events");
            ON(sender(c, d));
            for (int k = 0; k < c->n_piece_ev; k++)
                CLIMB_CHECK(cudaEventCreateWithFlags(&c->piece_ev[d][k], cudaEventDisableTiming));
        }
    }
#if CLIMB_HAVE_NCCL
    if (r->run == run_nccl) {
        char why[300];
        const climb_nccl *nc = climb_nccl_get(why, sizeof why);
        const int devs[2] = {c->dev[0], c->dev[1]};
        const ncclResult_t e = nc ? nc->comm_init_all(c->comm, 2, devs) : ncclSystemError;
        if (e != ncclSuccess) {
            fprintf(stderr, "climb: peer: NCCL's communicator of GPUs %d and %d: %s\n", devs[0], devs[1],
                    nc ? nc->error_string(e) : why);
            return -1;
        }
    }
#endif
    ON(c->home);
    return 0;
}

static void peer_release(climb_case *c, int rung)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (PEER_RUNGS[rung].run == run_nccl && nc && c->comm[0]) {
        nc->comm_destroy(c->comm[0]);
        nc->comm_destroy(c->comm[1]);
        c->comm[0] = c->comm[1] = NULL;
    }
#else
    (void)rung;
#endif
    cudaSetDevice(c->home);
}

/* Both directions issued before either is waited for, between the fork from s and the join back to it. */
static int peer_run(climb_case *c, int rung, cudaStream_t s)
{
    const peer_rung *r = &PEER_RUNGS[rung];
    if (r->host_sync)
        CLIMB_CHECK(cudaStreamSynchronize(s));
    int rc = fork_from(c, s, r->streams);
    for (int d = 0; rc == 0 && d < ways(c); d++)
        rc = r->run(c, d, s);
    cudaSetDevice(c->home);
    return rc ? rc : join_to(c, s, r->streams);
}

/* 0xFF on every receiving buffer, done when this returns: the memset runs on the receiver's legacy stream, which
 * the case's non-blocking streams do not wait for (a rung on the sender's alone would race it). */
static int peer_poison(climb_case *c)
{
    for (int d = 0; !c->bad && d < 2; d++) {
        ON(receiver(c, d));
        CLIMB_CHECK(cudaMemset(c->dst[d], 0xFF, c->n ? c->n : 1));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    ON(c->home);
    return 0;
}

/* Every byte that arrived against the bytes sent, each way the case moves them. */
static int peer_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (int d = 0; d < ways(c); d++) {
        ON(receiver(c, d));
        CLIMB_CHECK(cudaMemcpy(c->h_check, c->dst[d], c->n, cudaMemcpyDeviceToHost));
        if (memcmp(c->h_check, c->h_sent[d], c->n) == 0) {
            k.checked += c->n;
            continue;
        }
        for (size_t i = 0; i < c->n; i++)
            climb_compare_exact(&k, c->h_check[i], c->h_sent[d][i], "%s[%zu]", d == FWD ? "on to" : "on from", i);
    }
    ON(c->home);
    return climb_compare_end(&k);
}

/* The bytes that reach the other GPU: bytes, or twice that both ways. */
static void peer_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->n * ways(c);
    out->link_bytes = (double)c->n; /* both ways, n in each direction at once */
}

/* 4 bytes (latency) to 1 GiB by factors of 4. */
static const climb_shape PEER_BENCH_SHAPES[] = {
    CLIMB_SHAPE1(4),        CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22), CLIMB_SHAPE1(1u << 24),
    CLIMB_SHAPE1(1u << 26), CLIMB_SHAPE1(1u << 28), CLIMB_SHAPE1(1u << 30)};
/* The sizes `climb tune` times the crossover's candidates over: 1 KiB to 256 MiB, around every candidate. */
static const climb_shape PEER_TUNE_SHAPES[] = {
    CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22), CLIMB_SHAPE1(1u << 24),
    CLIMB_SHAPE1(1u << 26), CLIMB_SHAPE1(1u << 28)};
static const climb_shape PEER_MAIN_SHAPES[] = {CLIMB_SHAPE1(4), CLIMB_SHAPE1(1u << 28)};
static const climb_shape PEER_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),     CLIMB_SHAPE1(1),      CLIMB_SHAPE1(15),
                                                CLIMB_SHAPE1(16),    CLIMB_SHAPE1(17),     CLIMB_SHAPE1(4095),
                                                CLIMB_SHAPE1(65535), CLIMB_SHAPE1(65537),  CLIMB_SHAPE1(1000003),
                                                CLIMB_SHAPE1(9000001)};
static const climb_shape PEER_QUICK_SHAPES[] = {CLIMB_SHAPE1(17), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};

/* Timed on from's GPU (both ways too: its stream is the first direction's sender's): a 4-byte transfer from GPU 1
 * to GPU 2 timed from GPU 0's stream would carry two waits across GPUs that are not the transfer's. */
static int peer_timer_device(const climb_case *c) { return c->bad ? -1 : c->dev[0]; }

static const climb_sweep PEER_SWEEPS[] = {
    {.name = "sizes", .title = "GPU to GPU: GB/s against transfer size", .args = NULL, .x = "bytes", .log_x = 1},
    /* every ordered pair of the run's GPUs (up to eight; the positions past the run's are refused, and said) */
    {.name = "pairs", .title = "GPU to GPU: 256 MiB one way by the best rung, every ordered pair (a line a sender)",
     .args = "--set from=0,1,2,3,4,5,6,7 --set to=0,1,2,3,4,5,6,7 --set direction=one --size 2^28 --rung peer_best",
     .x = "to", .log_x = 0},
    {.name = "pair_latency", .title = "GPU to GPU: 4 bytes one way by the best rung, every ordered pair (a line a "
                                      "sender)",
     .args = "--set from=0,1,2,3,4,5,6,7 --set to=0,1,2,3,4,5,6,7 --set direction=one --size 4 --rung peer_best",
     .x = "to", .log_x = 0},
};

extern "C" const climb_workload climb_peer_workload = {
    .name = "peer",
    .title = "GPU to GPU transfers: staged through the host, the copy engine with and without peer access, "
             "kernels across NVLink",
    .sources = "van Oosten, Introduction to CUDA 5.0: GPUDirect (transfers from one GPU to another without the "
               "host's memory)",
    .dims = {"bytes"},
    .types = CLIMB_TYPE_BIT(CLIMB_U8),
    .min_devices = 2,
    .max_devices = CLIMB_MAX_DEVICES,
    .options = PEER_OPTIONS,
    .n_options = CLIMB_COUNT(PEER_OPTIONS),
    .bytes_counted = "none in device memory; items are the bytes that reach the other GPU (bytes, 2 x bytes both "
                     "ways)",
    .items_unit = "bytes",
    .items_rate = "GB/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = PEER_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(PEER_BENCH_SHAPES),
    .check_shapes = PEER_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(PEER_CHECK_SHAPES),
    .quick_shapes = PEER_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(PEER_QUICK_SHAPES),
    .main_shapes = PEER_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(PEER_MAIN_SHAPES),
    .tune_shapes = PEER_TUNE_SHAPES,
    .n_tune_shapes = CLIMB_COUNT(PEER_TUNE_SHAPES),
    .check_max_offset = 0,
    .n_rungs = PEER_N_RUNGS,
    .rung = peer_rung_info,
    .sweeps = PEER_SWEEPS,
    .n_sweeps = CLIMB_COUNT(PEER_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = PEER_BUFFERS,
    .n_buffers = CLIMB_COUNT(PEER_BUFFERS),
    .init = peer_init,
    .fill = peer_fill,
    .fini = peer_fini,
    .describe = peer_describe,
    .reference = peer_reference,
    .refuses = peer_refuses,
    .prepare = peer_prepare,
    .run = peer_run,
    .empty = peer_empty,
    .poison = peer_poison,
    .verify = peer_verify,
    .counts = peer_counts,
    .timer_device = peer_timer_device,
    .release = peer_release,
    .tuning = &PEER_TUNING,
    .set_tuning = peer_set_tuning,
};
