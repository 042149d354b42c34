/*
 * streams.cu - many small kernels: what issuing them costs, and how many run at once. K chains of `chain` kernels
 * each (a chain's kernels depend on each other: each starts from its predecessor's output; the chains are
 * independent), every kernel a few blocks of bounded arithmetic. The rungs issue the same kernels in different
 * ways: all on one stream (one hardware queue, as Fermi had), a stream a chain issued depth-first and
 * breadth-first from one host thread, a host thread a chain, a CUDA graph of the K chains, and, as the bound, one
 * launch that does every kernel's work.
 *
 * From van Oosten, Introduction to CUDA 5.0 (Hyper-Q: Fermi's one hardware work queue made kernels of different
 * streams wait on each other, "false dependencies"; Kepler's 32 queues let them run at once, "up to 32x" for
 * programs made of many streams). See docs/streams.md.
 *
 * The work: each thread runs x = 1664525 x + 1013904223 (mod 2^32) `iters` times from its start value, one
 * dependent multiply-add after another (a fixed time, no memory traffic); the CPU reference jumps ahead in
 * O(log iters) (climb_streams_lcg). `iters` comes from the option `us` by timing the kernel alone on the GPU (two
 * lengths, so that the launch's fixed cost cancels), or from `iters` directly. Every kernel also counts itself
 * (a counter poisoned to -1) and the case counts its runs since the poison: verify checks every thread's value and
 * that every kernel ran exactly once a run, after one run as after the timing's thousands.
 *
 * Layout: start values x0[chain i][block b][thread t]; outputs out[i][j][b][t] for kernel j of chain i; counters
 * count[i][j]. Kernel j of chain i reads out[i][j-1] (x0 for j = 0) and writes out[i][j].
 *
 * Order of this file: CPU reference, kernels, launchers (one per rung), the registry table, the harness glue.
 */
#include <pthread.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../base/host.h"
#include "../../base/rng.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../core/validate.h"
#include "../../core/workload.cuh"
#include "kernels.cuh"
#include "streams.h"

/* ---------------------------------------------------------------- CPU reference */

/* Brown's jump-ahead: the map x -> A x + C applied `steps` times, composed from its powers of two. */
extern "C" uint32_t climb_streams_lcg(uint32_t x, uint64_t steps)
{
    uint32_t mult = 1, plus = 0, cur_mult = ST_A, cur_plus = ST_C;
    while (steps) {
        if (steps & 1) {
            mult *= cur_mult;
            plus = plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        steps >>= 1;
    }
    return mult * x + plus;
}

extern "C" unsigned climb_streams_iters(double us, double t1_us, double t4_us, unsigned base)
{
    if (!(t4_us > t1_us) || base == 0)
        return 0;
    const double per = (t4_us - t1_us) / (3.0 * base); /* µs an iteration */
    const double n = us / per;
    return n < 1 ? 1 : n > CLIMB_STREAMS_MAX_ITERS ? CLIMB_STREAMS_MAX_ITERS : (unsigned)llround(n);
}

/* ---------------------------------------------------------------- kernels */

/* One kernel's work: every thread steps its value `iters` times from in[] to out[] (this kernel's blocks x threads
 * elements); the first thread counts the kernel. */
__global__ void st_work_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, unsigned *count,
                               unsigned iters)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = st_steps(in[i], iters);
    if (i == 0)
        atomicAdd(count, 1u);
}

/* The same work in a chain launched with programmatic dependent launch: it lets the chain's next kernel start
 * launching at once (its blocks wait, resident, in climb_grid_dependency_wait), and waits there itself for its
 * predecessor to finish before it reads that kernel's output. Launched without the attribute it runs as
 * st_work_kernel. */
__global__ void st_work_pdl_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, unsigned *count,
                                   unsigned iters)
{
    climb_grid_dependents_launch();
    climb_grid_dependency_wait();
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = st_steps(in[i], iters);
    if (i == 0)
        atomicAdd(count, 1u);
}

/* The bound: one launch of K x blocks blocks; block B does block B % blocks of every kernel of chain B / blocks, in
 * the chain's order (a chain's kernels depend on each other; the chains run side by side). The same work, with no
 * launch between kernels and no queue. */
__global__ void st_all_kernel(const uint32_t *__restrict__ x0, uint32_t *__restrict__ out, unsigned *count,
                              unsigned iters, unsigned chain, unsigned blocks)
{
    const size_t per = (size_t)blocks * blockDim.x;
    const size_t i = blockIdx.x / blocks, b = blockIdx.x % blocks, e = b * blockDim.x + threadIdx.x;
    uint32_t x = x0[i * per + e];
    for (unsigned j = 0; j < chain; j++) {
        x = st_steps(x, iters);
        out[(i * chain + j) * per + e] = x;
        if (e == 0)
            atomicAdd(&count[i * chain + j], 1u);
    }
}

/* ---------------------------------------------------------------- the case */

#define ST_MAX_K 1024       /* chains a case: the streams, events and threads the rungs make stay bounded */
#define ST_MAX_THREADS 128  /* host threads of the threads rung */

struct st_pool; /* the threads rung's host threads */

struct climb_case {
    climb_case_params p;
    size_t K, chain, blocks, threads, per; /* per: elements a kernel (blocks x threads) */
    unsigned iters;                        /* each thread's steps a kernel */
    double kernel_us;                      /* a kernel alone, as timed when iters came from `us` (0: from iters) */
    uint32_t *h_x0, *d_x0, *h_out, *d_out, *ref;
    unsigned *h_count, *d_count;
    unsigned runs;                         /* runs since the last poison: each kernel's count must be this */
    cudaStream_t *st;                      /* a stream a chain (the streams, threads and graph rungs) */
    cudaEvent_t fork, *done;
    cudaGraph_t graph[2];                  /* the graph rungs': [0] plain, [1] with programmatic dependent launch */
    cudaGraphExec_t exec[2];
    struct st_pool *pool;
    char desc[300];
};

static size_t out_bytes(const climb_case *c) { return c->K * c->chain * c->per * sizeof(uint32_t); }
static size_t x0_bytes(const climb_case *c) { return c->K * c->per * sizeof(uint32_t); }
static size_t count_bytes(const climb_case *c) { return c->K * c->chain * sizeof(unsigned); }

/* Kernel j of chain i on stream s; with pdl, kernels after a chain's first by programmatic dependent launch. */
static cudaError_t launch_kernel(climb_case *c, size_t i, size_t j, cudaStream_t s, int pdl)
{
    const uint32_t *in = j == 0 ? c->d_x0 + i * c->per : c->d_out + (i * c->chain + j - 1) * c->per;
    uint32_t *out = c->d_out + (i * c->chain + j) * c->per;
    unsigned *count = c->d_count + i * c->chain + j;
    if (pdl) {
        unsigned iters = c->iters;
        void *args[] = {(void *)&in, (void *)&out, (void *)&count, (void *)&iters};
        return climb_launch_ex((const void *)st_work_pdl_kernel, (unsigned)c->blocks, (unsigned)c->threads, 0, s, args,
                               j > 0);
    }
    st_work_kernel<<<(unsigned)c->blocks, (unsigned)c->threads, 0, s>>>(in, out, count, c->iters);
    return cudaGetLastError();
}

static cudaError_t launch_one(climb_case *c, size_t i, size_t j, cudaStream_t s) { return launch_kernel(c, i, j, s, 0); }

/* Chain i's kernels on s, one after another. */
static cudaError_t launch_chain(climb_case *c, size_t i, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (size_t j = 0; j < c->chain && e == cudaSuccess; j++)
        e = launch_one(c, i, j, s);
    return e;
}

/* Every chain's stream waits for s's work so far. */
static cudaError_t fork_from(climb_case *c, cudaStream_t s)
{
    cudaError_t e = cudaEventRecord(c->fork, s);
    for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
        e = cudaStreamWaitEvent(c->st[i], c->fork, 0);
    return e;
}

/* s waits for every chain's stream. */
static cudaError_t join_into(climb_case *c, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
        if ((e = cudaEventRecord(c->done[i], c->st[i])) == cudaSuccess)
            e = cudaStreamWaitEvent(s, c->done[i], 0);
    return e;
}

/* ---------------------------------------------------------------- launchers, one per rung */

/* one_stream: every kernel on the timed stream, chain after chain: one queue, nothing overlaps. */
static cudaError_t run_one_stream(climb_case *c, cudaStream_t s)
{
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
        e = launch_chain(c, i, s);
    return e;
}

/* depth_first: a stream a chain, one host thread issuing chain 0 whole, then chain 1, ... */
static cudaError_t run_depth_first(climb_case *c, cudaStream_t s)
{
    cudaError_t e = fork_from(c, s);
    for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
        e = launch_chain(c, i, c->st[i]);
    return e == cudaSuccess ? join_into(c, s) : e;
}

/* breadth_first: a stream a chain, one host thread issuing every chain's first kernel, then every chain's second...
 * (with pdl: the graph_pdl rung's capture) */
static cudaError_t breadth_first(climb_case *c, cudaStream_t s, int pdl)
{
    cudaError_t e = fork_from(c, s);
    for (size_t j = 0; j < c->chain && e == cudaSuccess; j++)
        for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
            e = launch_kernel(c, i, j, c->st[i], pdl);
    return e == cudaSuccess ? join_into(c, s) : e;
}

static cudaError_t run_breadth_first(climb_case *c, cudaStream_t s) { return breadth_first(c, s, 0); }

/* threads: a host thread a chain (as many processes or threads sharing a GPU, Hyper-Q's case), each issuing its
 * chain on its own stream after the fork; the timed stream waits for every one. */
struct st_pool {
    climb_case *c;
    pthread_t *tid;
    size_t n;                 /* threads started */
    pthread_mutex_t mu;
    pthread_cond_t go, idle;
    unsigned long generation; /* a run: bumped by the caller, seen by every thread */
    size_t busy;              /* threads still issuing this run */
    cudaError_t err;          /* the first error of this run */
    int quit;
    int device;
};

struct st_slot {
    struct st_pool *pool;
    size_t i;
};

static void *pool_thread(void *arg)
{
    struct st_slot *slot = (struct st_slot *)arg;
    struct st_pool *pl = slot->pool;
    const size_t i = slot->i;
    free(slot);
    cudaSetDevice(pl->device);
    unsigned long seen = 0;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (!pl->quit && pl->generation == seen)
            pthread_cond_wait(&pl->go, &pl->mu);
        if (pl->quit)
            break;
        seen = pl->generation;
        pthread_mutex_unlock(&pl->mu);
        climb_case *c = pl->c;
        cudaError_t e = cudaStreamWaitEvent(c->st[i], c->fork, 0);
        if (e == cudaSuccess)
            e = launch_chain(c, i, c->st[i]);
        if (e == cudaSuccess)
            e = cudaEventRecord(c->done[i], c->st[i]);
        pthread_mutex_lock(&pl->mu);
        if (e != cudaSuccess && pl->err == cudaSuccess)
            pl->err = e;
        if (--pl->busy == 0)
            pthread_cond_signal(&pl->idle);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

static void pool_stop(struct st_pool *pl)
{
    if (!pl)
        return;
    pthread_mutex_lock(&pl->mu);
    pl->quit = 1;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    for (size_t k = 0; k < pl->n; k++)
        pthread_join(pl->tid[k], NULL);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->idle);
    free(pl->tid);
    free(pl);
}

static int pool_start(climb_case *c)
{
    struct st_pool *pl = (struct st_pool *)calloc(1, sizeof *pl);
    if (!pl || !(pl->tid = (pthread_t *)calloc(c->K ? c->K : 1, sizeof *pl->tid))) {
        free(pl);
        return climb_host_oom("%zu host threads", c->K);
    }
    pl->c = c;
    pl->device = c->p.dev ? c->p.dev->ordinal : 0;
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->go, NULL);
    pthread_cond_init(&pl->idle, NULL);
    for (size_t i = 0; i < c->K; i++) {
        struct st_slot *slot = (struct st_slot *)malloc(sizeof *slot);
        if (slot) {
            slot->pool = pl;
            slot->i = i;
        }
        if (!slot || pthread_create(&pl->tid[i], NULL, pool_thread, slot) != 0) {
            free(slot);
            fprintf(stderr, "climb: streams: cannot start host thread %zu of %zu\n", i + 1, c->K);
            pool_stop(pl);
            return -1;
        }
        pl->n++;
    }
    c->pool = pl;
    return 0;
}

static cudaError_t run_threads(climb_case *c, cudaStream_t s)
{
    struct st_pool *pl = c->pool;
    cudaError_t e = cudaEventRecord(c->fork, s);
    if (e != cudaSuccess)
        return e;
    pthread_mutex_lock(&pl->mu);
    pl->err = cudaSuccess;
    pl->busy = pl->n;
    pl->generation++;
    pthread_cond_broadcast(&pl->go);
    while (pl->busy)
        pthread_cond_wait(&pl->idle, &pl->mu);
    e = pl->err;
    pthread_mutex_unlock(&pl->mu);
    for (size_t i = 0; i < c->K && e == cudaSuccess; i++)
        e = cudaStreamWaitEvent(s, c->done[i], 0);
    return e;
}

/* graph: the K chains captured once as one CUDA graph (K parallel branches of `chain` kernel nodes), launched as one:
 * the launch cost is paid once for all K x chain kernels. */
static cudaError_t run_graph(climb_case *c, cudaStream_t s) { return cudaGraphLaunch(c->exec[0], s); }

/* graph_pdl: the same graph with each chain's kernels after its first as programmatic dependent launches (the
 * graph's edges within a chain programmatic): a kernel's successor is launched while it runs and waits, resident,
 * for its end. Nothing to gain for independent kernels (chain 1: the same graph). */
static cudaError_t run_graph_pdl(climb_case *c, cudaStream_t s) { return cudaGraphLaunch(c->exec[1], s); }

/* device_launch: one kernel launches the chains from the device (launch.rdc.cu). */
static cudaError_t run_device(climb_case *c, cudaStream_t s)
{
    const st_dev_args a = {c->d_x0,          c->d_out,           c->d_count,         c->iters,
                           (unsigned)c->chain, (unsigned)c->blocks, (unsigned)c->threads, (unsigned)c->K};
    return st_launch_from_device(&a, s);
}

/* bound: one launch doing every kernel's work. */
static cudaError_t run_all(climb_case *c, cudaStream_t s)
{
    st_all_kernel<<<(unsigned)(c->K * c->blocks), (unsigned)c->threads, 0, s>>>(
        c->d_x0, c->d_out, c->d_count, c->iters, (unsigned)c->chain, (unsigned)c->blocks);
    return cudaGetLastError();
}

/* ---------------------------------------------------------------- the registry table */

static int k_work(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)st_work_kernel, "st_work_kernel", 64, 0);
}
static int k_all(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)st_all_kernel, "st_all_kernel", 64, 0);
}

static int k_pdl(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)st_work_pdl_kernel, "st_work_pdl_kernel", 64, 0);
}
static int k_device(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return st_device_kernels(out, max);
}

static const char *refuses_threads(const climb_case *c)
{
    return c->K > ST_MAX_THREADS ? "a host thread a chain: at most 128 chains" : NULL;
}

static const climb_rung_info ST_RUNGS[] = {
    {.name = "one_launch", .idea = "one launch does every kernel's work: no launches between kernels, no queues",
     .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = k_all, .launch = run_all},
    {.name = "one_stream", .idea = "every kernel on one stream: one queue, each kernel waits for the one before (Fermi's single work queue)",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_work, .launch = run_one_stream},
    {.name = "streams_depth_first", .idea = "a stream a chain, one host thread issuing each chain whole before the next",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_work, .launch = run_depth_first},
    {.name = "streams_breadth_first", .idea = "a stream a chain, one host thread issuing every chain's first kernel, then every chain's second",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_work, .launch = run_breadth_first},
    {.name = "threads", .idea = "a host thread and a stream a chain (many threads or processes sharing a GPU, Hyper-Q's case)",
     .needs = "at most 128 chains", .kind = CLIMB_RUNG_LADDER, .kernels = k_work, .launch = run_threads,
     .refuses = refuses_threads},
    {.name = "device_launch", .idea = "one kernel launches the chains from the device, each chain's next kernel a tail "
                                       "launch of the one before: no host launch a kernel, no stream a chain",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_device, .device_launches = 1, .launch = run_device},
    {.name = "graph", .idea = "the chains captured once as one CUDA graph of parallel branches, launched as one",
     .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_work, .launch = run_graph},
    {.name = "graph_pdl", .idea = "the graph, each chain's next kernel a programmatic dependent launch: launched "
                                  "while the one before runs, it waits resident for its end",
     .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_pdl, .launch = run_graph_pdl},
};

static const climb_rung_info *st_rung_info(int i) { return &ST_RUNGS[i]; }

/* ---------------------------------------------------------------- options */

enum { OPT_US, OPT_ITERS, OPT_CHAIN, OPT_BLOCKS, OPT_THREADS, OPT_CONNECTIONS };
static constexpr climb_option ST_OPTIONS[] = {
    {.name = "us", .kind = CLIMB_OPT_INT,
     .meaning = "the work of one kernel, in microseconds of it running alone on the GPU (timed when the case is made)",
     .def = "10", .min = 1, .max = 100000},
    {.name = "iters", .kind = CLIMB_OPT_INT,
     .meaning = "the work of one kernel in steps a thread, in place of us (0: from us)", .def = "0", .min = 0,
     .max = CLIMB_STREAMS_MAX_ITERS},
    {.name = "chain", .kind = CLIMB_OPT_INT,
     .meaning = "kernels a chain, each starting from the one before's output (1: K independent kernels)", .def = "1",
     .min = 1, .max = 64},
    {.name = "blocks", .kind = CLIMB_OPT_INT, .meaning = "blocks a kernel", .def = "1", .min = 1, .max = 1024},
    {.name = "threads", .kind = CLIMB_OPT_INT, .meaning = "threads a block", .def = "64", .min = 32, .max = 1024},
    {.name = "connections", .kind = CLIMB_OPT_INT,
     .meaning = "the connections (hardware work queues) the process opens to the GPU, CUDA_DEVICE_MAX_CONNECTIONS "
                "(0: as the process has it, the driver's 8 when unset); another value runs in a process of its own",
     .def = "0", .min = 0, .max = 32, .env = "CUDA_DEVICE_MAX_CONNECTIONS"},
};
CLIMB_OPTION_AT(ST_OPTIONS, OPT_US, "us");
CLIMB_OPTION_AT(ST_OPTIONS, OPT_ITERS, "iters");
CLIMB_OPTION_AT(ST_OPTIONS, OPT_CHAIN, "chain");
CLIMB_OPTION_AT(ST_OPTIONS, OPT_BLOCKS, "blocks");
CLIMB_OPTION_AT(ST_OPTIONS, OPT_THREADS, "threads");
CLIMB_OPTION_AT(ST_OPTIONS, OPT_CONNECTIONS, "connections");

/* ---------------------------------------------------------------- harness glue */

static int st_init(climb_case *c)
{
    c->K = c->p.shape.d[0];
    c->chain = (size_t)c->p.opts[OPT_CHAIN].i;
    c->blocks = (size_t)c->p.opts[OPT_BLOCKS].i;
    c->threads = (size_t)c->p.opts[OPT_THREADS].i;
    c->per = c->blocks * c->threads;
    return 0;
}

/* The kernel alone, `iters` steps, best of five (event to event, after a warm-up), in µs; -1 on a CUDA error
 * (printed). */
static double time_alone(climb_case *c, unsigned iters, uint32_t *in, uint32_t *out, unsigned *count)
{
    cudaEvent_t ev[2];
    CLIMB_CHECK(cudaEventCreate(&ev[0]));
    if (CLIMB_FAILED(cudaEventCreate(&ev[1]))) {
        cudaEventDestroy(ev[0]);
        return -1;
    }
    double best = -1;
    for (int k = 0; k < 6; k++) {
        float ms = 0;
        int bad = CLIMB_FAILED(cudaEventRecord(ev[0]));
        if (!bad) {
            st_work_kernel<<<(unsigned)c->blocks, (unsigned)c->threads>>>(in, out, count, iters);
            bad = CLIMB_FAILED(cudaGetLastError()) || CLIMB_FAILED(cudaEventRecord(ev[1])) ||
                  CLIMB_FAILED(cudaEventSynchronize(ev[1])) || CLIMB_FAILED(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        }
        if (bad) {
            best = -1;
            break;
        }
        if (k > 0 && (best < 0 || 1000.0 * ms < best)) /* the first is a warm-up */
            best = 1000.0 * ms;
    }
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    return best;
}

/* The steps a kernel's threads run: the option `iters`, else calibrated to `us` on this GPU. */
static int calibrate(climb_case *c)
{
    if (c->p.opts[OPT_ITERS].i > 0) {
        c->iters = (unsigned)c->p.opts[OPT_ITERS].i;
        return 0;
    }
    void *alloc = NULL;
    uint32_t *buf = NULL;
    unsigned *count = NULL;
    const size_t n = c->per;
    if (climb_device_alloc_offset((n * 2 + 1) * sizeof(uint32_t), 0, &alloc, (void **)&buf, "the calibration's arrays"))
        return -1;
    count = (unsigned *)(buf + 2 * n);
    int rc = -1;
    if (!CLIMB_FAILED(cudaMemset(buf, 0x5A, (n * 2 + 1) * sizeof(uint32_t)))) {
        /* Two lengths, 16 times longer each try while the time does not grow with them: a launch's cost and its
         * noise can hide short kernels (a sanitizer makes them milliseconds). */
        unsigned it = 0, base = 1u << 14;
        double t1 = 0, t4 = 0;
        for (int tries = 0; tries < 3 && it == 0 && t1 >= 0 && t4 >= 0; tries++, base <<= 4) {
            t1 = time_alone(c, base, buf, buf + n, count);
            t4 = t1 < 0 ? -1 : time_alone(c, 4 * base, buf, buf + n, count);
            /* 4 times the steps must at least double the time, or the noise decides */
            it = t1 < 0 || t4 < 2 * t1 ? 0 : climb_streams_iters((double)c->p.opts[OPT_US].i, t1, t4, base);
        }
        if (t1 >= 0 && t4 >= 0 && it == 0)
            fprintf(stderr, "climb: streams: the kernel's time did not grow with its steps (%.2f us at %u, %.2f at %u)\n",
                    t1, base >> 4, t4, 4 * (base >> 4));
        if (it) {
            c->iters = it;
            c->kernel_us = time_alone(c, it, buf, buf + n, count);
            rc = c->kernel_us < 0 ? -1 : 0;
        }
    }
    cudaFree(alloc);
    return rc;
}

/* Start values from the seed; the steps; the reference (each chain's values stepped `iters` times a kernel). */
static int st_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    for (size_t k = 0; k < c->K * c->per; k++)
        c->h_x0[k] = (uint32_t)climb_rng_next(&rng);
    if (c->K && calibrate(c))
        return -1;
    for (size_t i = 0; i < c->K; i++)
        for (size_t e = 0; e < c->per; e++) {
            uint32_t x = c->h_x0[i * c->per + e];
            for (size_t j = 0; j < c->chain; j++) {
                x = climb_streams_lcg(x, c->iters);
                c->ref[(i * c->chain + j) * c->per + e] = x;
            }
        }
    /* the case's line in the report: its shape, the steps, a kernel alone, and a launch's cost on this GPU */
    const double launch = c->p.dev ? c->p.dev->launch_us : 0;
    char alone[64] = "", cost[64] = "";
    if (c->kernel_us > 0)
        snprintf(alone, sizeof alone, ", %.1f us a kernel alone", c->kernel_us);
    if (launch > 0)
        snprintf(cost, sizeof cost, "; a launch %.2f us (climb devices)", launch);
    const char *conn = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    snprintf(c->desc, sizeof c->desc,
             "%zu chain%s of %zu kernel%s, %zu x %zu threads a kernel, %u steps a thread%s%s; "
             "CUDA_DEVICE_MAX_CONNECTIONS %s",
             c->K, c->K == 1 ? "" : "s", c->chain, c->chain == 1 ? "" : "s", c->blocks, c->threads, c->iters, alone,
             cost, conn && *conn ? conn : "unset");
    return 0;
}

static const climb_buffer ST_BUFFERS[] = {
    {.name = "the start values", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = x0_bytes,
     .host_at = offsetof(climb_case, h_x0), .device_at = offsetof(climb_case, d_x0)},
    {.name = "the kernels' values", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = out_bytes,
     .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out), .poison = 0xFF},
    {.name = "the kernels' counts", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = count_bytes,
     .host_at = offsetof(climb_case, h_count), .device_at = offsetof(climb_case, d_count), .poison = 0xFF},
    {.name = "the reference", .flags = CLIMB_BUF_HOST, .bytes = out_bytes, .host_at = offsetof(climb_case, ref)},
};

static int st_empty(const climb_case *c) { return c->K == 0; }

/* The outputs' poison, and the run count back to 0. */
static int st_poison(climb_case *c)
{
    c->runs = 0;
    if (c->K == 0)
        return 0;
    CLIMB_CHECK(cudaMemset(c->d_out, 0xFF, out_bytes(c)));
    CLIMB_CHECK(cudaMemset(c->d_count, 0xFF, count_bytes(c)));
    return 0;
}

/* One run of the rung, counted (the counters add up over runs; verify expects one count a run). */
static int st_run(climb_case *c, int rung, cudaStream_t s)
{
    CLIMB_CHECK(ST_RUNGS[rung].launch(c, s));
    c->runs++;
    return 0;
}

static const char *st_describe(const climb_case *c) { return c->desc; }

static int st_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c, (void)mode;
    snprintf(desc, desclen, "CPU, every thread's value by jumping ahead in its recurrence: exact");
    return 0;
}

/* The streams, events, threads and graph a rung needs, made once a case (untimed). */
static int need_streams(climb_case *c)
{
    if (c->st)
        return 0;
    c->st = (cudaStream_t *)calloc(c->K, sizeof *c->st);
    c->done = (cudaEvent_t *)calloc(c->K, sizeof *c->done);
    if (!c->st || !c->done)
        return climb_host_oom("%zu streams", c->K);
    CLIMB_CHECK(cudaEventCreateWithFlags(&c->fork, cudaEventDisableTiming));
    for (size_t i = 0; i < c->K; i++) {
        CLIMB_CHECK(cudaStreamCreateWithFlags(&c->st[i], cudaStreamNonBlocking));
        CLIMB_CHECK(cudaEventCreateWithFlags(&c->done[i], cudaEventDisableTiming));
    }
    return 0;
}

/* The graph rungs' graph (k 0: plain, 1: with programmatic dependent launch), captured from the breadth-first
 * issue on a stream of its own. */
static int make_graph(climb_case *c, int k)
{
    cudaStream_t cs;
    CLIMB_CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    cudaError_t e = cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal);
    if (e == cudaSuccess) {
        cudaError_t r = breadth_first(c, cs, k);
        e = cudaStreamEndCapture(cs, &c->graph[k]);
        if (r != cudaSuccess)
            e = r;
    }
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&c->exec[k], c->graph[k], 0);
    cudaStreamDestroy(cs);
    CLIMB_CHECK(e);
    return 0;
}

static int st_prepare(climb_case *c, int rung)
{
    const climb_rung_info *r = &ST_RUNGS[rung];
    if (c->K == 0 || r->launch == run_one_stream || r->launch == run_all)
        return 0;
    if (r->launch == run_device) { /* K fire-and-forget launches and K x (chain - 1) tail launches pending at most */
        CLIMB_CHECK(climb_reserve_device_launches(c->K * c->chain));
        return 0;
    }
    if (need_streams(c))
        return -1;
    if (r->launch == run_threads && !c->pool)
        return pool_start(c);
    if (r->launch == run_graph && !c->exec[0])
        return make_graph(c, 0);
    if (r->launch == run_graph_pdl && !c->exec[1])
        return make_graph(c, 1);
    return 0;
}

static void st_fini(climb_case *c)
{
    pool_stop(c->pool);
    for (int k = 0; k < 2; k++) {
        if (c->exec[k])
            cudaGraphExecDestroy(c->exec[k]);
        if (c->graph[k])
            cudaGraphDestroy(c->graph[k]);
    }
    for (size_t i = 0; c->st && i < c->K; i++) {
        if (c->st[i])
            cudaStreamDestroy(c->st[i]);
        if (c->done[i])
            cudaEventDestroy(c->done[i]);
    }
    if (c->fork)
        cudaEventDestroy(c->fork);
    free(c->st);
    free(c->done);
}

/* Every thread's value of every kernel exactly, and every kernel counted once for each run since the poison. */
static int st_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    const unsigned expect = c->runs ? c->runs : 1; /* checked with no run since the poison: one was due */
    for (size_t i = 0; i < c->K; i++)
        for (size_t j = 0; j < c->chain; j++) {
            const unsigned runs = c->h_count[i * c->chain + j] + 1u; /* poisoned to -1 */
            climb_compare_check(&k, runs == expect, "kernel %zu of chain %zu ran %u times, not %u (once a run)", j, i,
                                runs, expect);
            for (size_t e = 0; e < c->per; e++) {
                const size_t at = (i * c->chain + j) * c->per + e;
                climb_compare_exact(&k, c->h_out[at], c->ref[at], "chain %zu kernel %zu value[%zu]", i, j, e);
            }
        }
    return climb_compare_end(&k);
}

/* Items: the kernels (K x chain). No bytes: a few KiB move, and no ceiling of memory or flops bounds a run. */
static void st_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->K * (double)c->chain;
}

static const char *st_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    if (s->d[0] > ST_MAX_K)
        return "at most 1024 chains (each rung makes a stream and an event a chain)";
    if ((double)opts[OPT_BLOCKS].i * (double)opts[OPT_THREADS].i * (double)opts[OPT_CHAIN].i > (double)(1u << 24))
        return "blocks x threads x chain must be at most 2^24 (the values a chain keeps)";
    return NULL;
}

static double st_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    const double per = (double)opts[OPT_BLOCKS].i * (double)opts[OPT_THREADS].i;
    return (double)s->d[0] * per * 4.0 * (1.0 + 2.0 * (double)opts[OPT_CHAIN].i);
}

/* K = 1 (one kernel: what a launch and its wait cost), 8, 32, 64 and 128 chains. */
static const climb_shape ST_BENCH_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(8), CLIMB_SHAPE1(32), CLIMB_SHAPE1(64),
                                              CLIMB_SHAPE1(128)};
static const climb_shape ST_MAIN_SHAPES[] = {CLIMB_SHAPE1(32)};
static const climb_shape ST_CHECK_SHAPES[] = {CLIMB_SHAPE1(0), CLIMB_SHAPE1(1), CLIMB_SHAPE1(2), CLIMB_SHAPE1(3),
                                              CLIMB_SHAPE1(7), CLIMB_SHAPE1(33), CLIMB_SHAPE1(129)};
static const climb_shape ST_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(7)};

static const climb_sweep ST_SWEEPS[] = {
    {.name = "kernels", .title = "kernels a second against the chains (K), 10 us kernels", .args = NULL, .x = "k",
     .log_x = 1},
    {.name = "work", .title = "kernels a second against the work of a kernel, 32 chains",
     .args = "--size 32 --set us=10,30,100,300", .x = "us", .log_x = 1},
    {.name = "chain", .title = "kernels a second against the kernels a chain, 32 chains of 10 us kernels",
     .args = "--size 32 --set chain=1,2,4,8", .x = "chain", .log_x = 1},
    {.name = "connections", .title = "kernels a second against the connections (CUDA_DEVICE_MAX_CONNECTIONS), 64 "
                                     "chains of 10 us kernels",
     .args = "--size 64 --set connections=1,2,4,8,16,32", .x = "connections", .log_x = 1},
};

extern "C" const climb_workload climb_streams_workload = {
    .name = "streams",
    .title = "Many small kernels: one stream, many streams, many host threads, a graph, one launch (Hyper-Q)",
    .sources = "van Oosten, Introduction to CUDA 5.0: Hyper-Q (Fermi's one hardware work queue and its false "
               "dependencies between streams; Kepler's 32 queues)",
    .dims = {"k"},
    .types = CLIMB_TYPE_BIT(CLIMB_U32),
    .options = ST_OPTIONS,
    .n_options = CLIMB_COUNT(ST_OPTIONS),
    .bytes_counted = "none: a run moves a few KiB (the start values, every kernel's values), and no memory or "
                     "flop ceiling bounds it; the rate is kernels a second, the reference the one-launch bound",
    .items_unit = "kernels",
    .items_rate = "M kernels/s",
    .items_rate_scale = 1e6,
    .extra_ceiling = CLIMB_CEIL_NONE,
    .cold_no_flush = 1,
    .bench_shapes = ST_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(ST_BENCH_SHAPES),
    .check_shapes = ST_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(ST_CHECK_SHAPES),
    .quick_shapes = ST_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(ST_QUICK_SHAPES),
    .main_shapes = ST_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(ST_MAIN_SHAPES),
    .n_rungs = CLIMB_COUNT(ST_RUNGS),
    .rung = st_rung_info,
    .sweeps = ST_SWEEPS,
    .n_sweeps = CLIMB_COUNT(ST_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = ST_BUFFERS,
    .n_buffers = CLIMB_COUNT(ST_BUFFERS),
    .init = st_init,
    .fill = st_fill,
    .fini = st_fini,
    .describe = st_describe,
    .reference = st_reference,
    .case_bytes = st_case_bytes,
    .case_refuses = st_case_refuses,
    .prepare = st_prepare,
    .run = st_run,
    .empty = st_empty,
    .poison = st_poison,
    .verify = st_verify,
    .counts = st_counts,
};
