/*
 * allgather.cu - every GPU of the case holds n elements; every GPU receives all of them, GPU after GPU (rank r's
 * piece at r x n): through the host, a ring of peer copies, every GPU's piece pushed to every other by the copy
 * engines at once, and a kernel on each GPU that loads every other GPU's piece over NVLink (4 bytes a load, then
 * 16 bytes of every piece in flight at once); NCCL's all-gather beside them.
 *
 * The all-gather half of the ring all-reduce (Patarasuk and Yuan; src/device/collective.h), built from the same
 * pieces as the all-reduce ladder (src/workloads/common/gpuset.cuh). See docs/allgather.md.
 *
 * Counted as nccl-tests counts it: the bus bytes, (P - 1) x n x element size for P GPUs (the gathered array of P x n
 * elements times (P - 1)/P), as items in GB/s.
 *
 * Order of this file: policy, kernels, the case, the rungs' runs, the registry table, the harness glue.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../base/checked.h"
#include "../base/rng.h"
#include "../device/collective.h"
#include "../core/workload.cuh"
#include "common/gpuset.cuh"
#include "allgather.h"

/* ---------------------------------------------------------------- policy */

/* The best rung gathers with the wide kernel on each GPU (its 16-byte loads over NVLink, every rank's in flight; no
 * copy-engine start-ups) below this many bytes a piece, and with the copy engines (every GPU's piece pushed to every
 * other at once) from there. On four H200s the wide kernel gathered 4 MiB pieces in 59.7-60.4 us against the copy
 * engines' 72.1-94.4 us, and 64 MiB pieces in 682-697 us against their 583-616 (a run of a97fd95); the one-element
 * kernel before it lost at 4 MiB. Between them, `climb tune allgather` settles it (docs/allgather.md). */
#define AG_KERNEL_BELOW ((size_t)16 << 20)

extern "C" int climb_allgather_best_uses_kernel(size_t piece_bytes) { return piece_bytes < AG_KERNEL_BELOW; }

/* ---------------------------------------------------------------- kernels */

/* out[q x n + i] = src.p[q][i] for every rank q: one GPU gathers every piece, each load crossing a link (its own
 * piece a local copy). 4-byte elements. */
__global__ void __launch_bounds__(256) ag_gather_kernel(uint32_t *__restrict__ out, climb_gpuset_ptrs<uint32_t> src,
                                                        int P, size_t n)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (int q = 0; q < P; q++) {
        const uint32_t *__restrict__ s = src.p[q];
        uint32_t *__restrict__ d = out + (size_t)q * n;
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
            d[i] = s[i];
    }
}

/* The pull kernel with its loads in flight together: thread i copies element group i of every rank's piece, issuing
 * up to CLIMB_SUM_LOADS ranks' loads before storing any (a load over NVLink takes microseconds to come back; the
 * kernel above waits for each of its 4-byte loads in turn). Elements [head, head + 4 x n4) of every piece move as
 * 16-byte vectors (every src.p[q] + head and out + q x n + head 16-byte aligned: climb_vec4_split), the others one
 * by one. */
template <typename V>
__device__ __forceinline__ void ag_copy_all(uint32_t *__restrict__ out, const climb_gpuset_ptrs<uint32_t> &src, int P,
                                            size_t n, size_t base, size_t i)
{
    for (int q0 = 0; q0 < P; q0 += CLIMB_SUM_LOADS) {
        V v[CLIMB_SUM_LOADS];
        climb_gpuset_load_ranks<V>(src, q0, P, base, i, v);
#pragma unroll
        for (int j = 0; j < CLIMB_SUM_LOADS; j++)
            if (q0 + j < P)
                ((V *)(out + (size_t)(q0 + j) * n + base))[i] = v[j];
    }
}

__global__ void __launch_bounds__(256) ag_gather_wide_kernel(uint32_t *__restrict__ out,
                                                             climb_gpuset_ptrs<uint32_t> src, int P, size_t n,
                                                             size_t head, size_t n4)
{
    const size_t step = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n4; i += step)
        ag_copy_all<uint4>(out, src, P, n, head, i);
    const size_t rest = n - 4 * n4; /* the head, and the tail from head + 4 x n4 */
    for (size_t k = first; k < rest; k += step)
        ag_copy_all<uint32_t>(out, src, P, n, 0, k < head ? k : k + 4 * n4);
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    size_t n, es;                         /* elements a piece, bytes an element */
    void *h_in;                           /* P pieces, rank after rank (host), from the seed: the gathered array */
    void *h_out;                          /* a download to check */
    void *in[CLIMB_MAX_DEVICES], *out[CLIMB_MAX_DEVICES]; /* on rank r's GPU: n and P x n elements */
    void *pinned;                         /* through_host: P x n elements */
    int kernel_below;                     /* the best rung's crossover, bytes a piece (tuned) */
};

static size_t piece(const climb_case *c) { return c->n * c->es; }
static char *at(void *base, size_t bytes) { return (char *)base + bytes; }

/* ---------------------------------------------------------------- the rungs' runs */

/* through_host: every piece down into page-locked host memory, then the whole array up to every GPU. With one
 * process a GPU, the pieces reach every process's host memory through the launcher's all-gather (MPI's) between. */
static int run_host(climb_case *c)
{
    climb_gpuset *g = &c->g;
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemcpyAsync(at(c->pinned, (size_t)r * piece(c)), c->in[r], piece(c), cudaMemcpyDeviceToHost,
                                    g->x.st[r]));
    }
    if (g->x.procs) {
        CLIMB_CHECK(cudaStreamSynchronize(g->x.st[g->x.lo]));
        if (climb_gpuset_host_allgather(g, at(c->pinned, (size_t)g->x.lo * piece(c)), c->pinned, piece(c)))
            return -1;
    } else if (climb_gpuset_barrier(g)) {
        return -1;
    }
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemcpyAsync(c->out[r], c->pinned, piece(c) * (size_t)g->x.P, cudaMemcpyHostToDevice, g->x.st[r]));
    }
    return 0;
}

/* Each rank's own piece into its place in its own output. */
static int own_pieces(climb_case *c)
{
    for (int r = 0; r < c->g.x.P; r++)
        if (climb_gpuset_copy(&c->g, r, c->in[r], r, at(c->out[r], (size_t)r * piece(c)), piece(c)))
            return -1;
    return 0;
}

/* ring: P - 1 steps; at step s every rank passes piece (r - s) mod P, which it holds by then, to the next rank;
 * one link a GPU busy each step. */
static int run_ring(climb_case *c)
{
    climb_gpuset *g = &c->g;
    if (own_pieces(c) || climb_gpuset_barrier(g))
        return -1;
    for (int s = 0; s < g->x.P - 1; s++) {
        for (int r = 0; r < g->x.P; r++) {
            const int next = (r + 1) % g->x.P, k = ((r - s) % g->x.P + g->x.P) % g->x.P;
            if (climb_gpuset_copy(g, r, at(c->out[r], (size_t)k * piece(c)), next,
                                  at(c->out[next], (size_t)k * piece(c)), piece(c)))
                return -1;
        }
        if (climb_gpuset_barrier(g))
            return -1;
    }
    return 0;
}

/* ---- the schedules on a climb_coll_exec, for the rungs and the C API ---- */

/* copy engines: every rank pushes its piece (n 4-byte elements) into every rank's output, one copy after another
 * on its stream in the rotation's order (the k-th to rank r + k: at each moment every GPU receives from one other,
 * none from all at once), its own last; no step between ranks. */
static cudaError_t x_copy_engines(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n)
{
    const size_t bytes = n * 4;
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess && bytes; r++) {
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        for (int k = 1; k <= x->P && e == cudaSuccess; k++) {
            const int q = climb_rotation_to(x->P, r, k % x->P);
            e = climb_coll_copy(x, r, in[r], q, (char *)out[q] + (size_t)r * bytes, bytes);
        }
    }
    return e;
}

/* the pull kernels: each rank's kernel loads every rank's piece over NVLink into its output: one launch a GPU, no
 * copy engine started. Needs peer access between every pair. wide: each thread moves a 16-byte vector of every
 * rank's piece, up to CLIMB_SUM_LOADS ranks' loads in flight at once (ag_gather_wide_kernel); else 4 bytes of one
 * piece at a time (ag_gather_kernel). */
static cudaError_t x_pull(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n, bool wide)
{
    if (!n)
        return cudaSuccess;
    climb_gpuset_ptrs<uint32_t> src;
    for (int q = 0; q < x->P; q++)
        src.p[q] = (const uint32_t *)in[q];
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        if (wide) {
            const void *ptrs[2 * CLIMB_MAX_DEVICES] = {0};
            for (int q = 0; q < x->P; q++) {
                ptrs[2 * q] = in[q];
                ptrs[2 * q + 1] = (const uint32_t *)out[r] + (size_t)q * n;
            }
            size_t head, n4;
            climb_vec4_split(ptrs, 2 * x->P, n, &head, &n4);
            ag_gather_wide_kernel<<<climb_gpuset_blocks(n4 + (n - 4 * n4), x->sms[r]), 256, 0, x->st[r]>>>(
                (uint32_t *)out[r], src, x->P, n, head, n4);
        } else {
            ag_gather_kernel<<<climb_gpuset_blocks(n * (size_t)x->P, x->sms[r]), 256, 0, x->st[r]>>>(
                (uint32_t *)out[r], src, x->P, n);
        }
        e = cudaGetLastError();
    }
    return e;
}

static cudaError_t x_best(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n, int access,
                          size_t kernel_below)
{
    return access && n * 4 < kernel_below ? x_pull(x, in, out, n, true) : x_copy_engines(x, in, out, n);
}

extern "C" cudaError_t climb_allgather_async(const climb_coll_exec *x, const void *const *in, void *const *out,
                                             size_t n, int access)
{
    return x_best(x, in, out, n, access, AG_KERNEL_BELOW);
}

/* copy_engines, kernel_pull and kernel_pull_wide, as above; best: the wide kernel below AG_KERNEL_BELOW bytes a
 * piece, the copy engines from there (climb_allgather_async, as the C API's climb_comm_allgather). */
static int run_copy_engines(climb_case *c)
{
    CLIMB_CHECK(x_copy_engines(&c->g.x, c->in, c->out, c->n));
    return 0;
}

static int run_pull(climb_case *c)
{
    CLIMB_CHECK(x_pull(&c->g.x, c->in, c->out, c->n, false));
    return 0;
}

static int run_pull_wide(climb_case *c)
{
    CLIMB_CHECK(x_pull(&c->g.x, c->in, c->out, c->n, true));
    return 0;
}

static int run_best(climb_case *c)
{
    CLIMB_CHECK(x_best(&c->g.x, c->in, c->out, c->n, 1, (size_t)c->kernel_below));
    return 0;
}

/* vendor: ncclAllGather on a communicator of the case's GPUs, one call a rank in one group. */
static int run_nccl(climb_case *c)
{
    return climb_gpuset_nccl(&c->g, CLIMB_COLL_ALL_GATHER, c->p.type, c->in, c->out, c->n, "allgather");
}

static const char *refuses_no_access(const climb_case *c) { return climb_gpuset_no_access(&c->g); }
static const char *refuses_without_nccl(const climb_case *c) { return (void)c, climb_nccl_refusal(); }

static int k_gather(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)ag_gather_kernel, "ag_gather_kernel", 256, 0);
}

static int k_gather_wide(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_one_kernel(out, max, (const void *)ag_gather_wide_kernel, "ag_gather_wide_kernel", 256, 0);
}

typedef struct ag_rung {
    climb_rung_info info;
    int (*run)(climb_case *c);
    int access;  /* 1: peer access on among all pairs (prepare) */
    int nccl;    /* its communicator (prepare) */
    int pinned;  /* its host buffer (prepare) */
} ag_rung;

static const ag_rung AG_RUNGS[] = {
    {.info = {.name = "nccl_all_gather", .idea = "vendor: ncclAllGather on a communicator of the case's GPUs, one "
                                                 "call a GPU in one group",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_without_nccl},
     .run = run_nccl, .nccl = 1},
    {.info = {.name = "through_host", .idea = "the way without GPUDirect: every piece down to the host, the whole "
                                              "array up to every GPU",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_host, .pinned = 1},
    {.info = {.name = "ring", .idea = "the ring: P - 1 steps, each GPU passing one piece to the next by a copy "
                                      "engine (bandwidth-optimal on a ring of links)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_ring, .access = 1},
    {.info = {.name = "copy_engines", .idea = "every GPU pushes its piece into every other GPU at once by copy "
                                              "engines: no steps, every link busy (a switched node)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels},
     .run = run_copy_engines, .access = 1},
    {.info = {.name = "kernel_pull", .idea = "each GPU's kernel loads every other GPU's piece over NVLink: one "
                                             "launch a GPU, no copy engine to start",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_gather,
              .refuses = refuses_no_access},
     .run = run_pull, .access = 1},
    {.info = {.name = "kernel_pull_wide", .idea = "the pull kernel moving 16 bytes of every GPU's piece a thread, "
                                                  "every GPU's load in flight before any store",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_gather_wide,
              .refuses = refuses_no_access},
     .run = run_pull_wide, .access = 1},
    {.info = {.name = "allgather_best", .idea = "the wide kernel for small pieces, the copy engines for the rest",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_BEST, .kernels = k_gather_wide,
              .refuses = refuses_no_access},
     .run = run_best, .access = 1},
};
#define AG_N_RUNGS CLIMB_COUNT(AG_RUNGS)

static const climb_rung_info *ag_rung_info(int i) { return &AG_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

/* The best rung's one tunable: the piece size below which it gathers with the kernel over NVLink. `climb tune
 * allgather` times the best rung over its tune sizes (4 KiB to 256 MiB a piece) with each value and keeps the one of least geometric-mean time
 * relative to each size's fastest: the crossover measured on the machine's GPUs and links. */
static const int AG_CROSSOVERS[] = {16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864, 268435456};
static const climb_tunable AG_TUNABLES[] = {
    {.name = "kernel_below", .meaning = "bytes a piece below which the kernel moves the pieces",
     .values = AG_CROSSOVERS, .n_values = CLIMB_COUNT(AG_CROSSOVERS)},
};

static const int AG_BUILTIN[] = {(int)AG_KERNEL_BELOW};
static const climb_tuning AG_TUNING = {
    .params = AG_TUNABLES,
    .n_params = CLIMB_COUNT(AG_TUNABLES),
    .builtin = AG_BUILTIN,
    .builtin_why = "built-in: 16 MiB, between the wide kernel's lead at 4 MiB and the copy engines' at 64 MiB on four "
                   "H200s (climb tune allgather measures it here)",
};

static void ag_set_tuning(climb_case *c, const int *v) { c->kernel_below = v[0]; }

/* ---------------------------------------------------------------- harness glue */

static void ag_fini(climb_case *c)
{
    climb_gpuset_fini(&c->g);
    cudaFreeHost(c->pinned);
}

/* Every rank's piece and gathered array on its GPU; the GPUs' streams and events. */
static int ag_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->es = climb_dtype_size(c->p.type);
    c->kernel_below = (int)AG_KERNEL_BELOW; /* until the harness sets the tuned value */
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    size_t whole;
    if (!climb_mul_fits(piece(c) ? piece(c) : c->es, (size_t)c->g.x.P, &whole)) {
        fprintf(stderr, "climb: allgather: %d pieces of %zu elements overflow size_t\n", c->g.x.P, c->n);
        return -1;
    }
    const size_t one = piece(c) ? piece(c) : c->es;
    return climb_gpuset_alloc(&c->g, c->in, one, one, "a GPU's piece") ||
                   climb_gpuset_alloc(&c->g, c->out, whole, whole, "a GPU's gathered array")
               ? -1
               : 0;
}

/* Random bits (i32 over the whole range; f32 finite values of [-1, 1)): the gathered array is the pieces, exactly. */
static int ag_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    const size_t total = c->n * (size_t)c->g.x.P;
    if (c->p.type == CLIMB_I32)
        climb_rng_fill_i32(&rng, (int32_t *)c->h_in, total, INT32_MIN, INT32_MAX);
    else
        climb_rng_fill_f32(&rng, (float *)c->h_in, total, -1.0f, 1.0f);
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(c->g.x.devices[r]));
        CLIMB_CHECK(cudaMemcpy(c->in[r], at(c->h_in, (size_t)r * piece(c)), piece(c), cudaMemcpyHostToDevice));
    }
    CLIMB_CHECK(cudaSetDevice(c->g.home));
    return 0;
}

static size_t whole_bytes(const climb_case *c) { return (c->n ? c->n : 1) * c->es * (size_t)c->g.x.P; }

static const climb_buffer AG_BUFFERS[] = {
    {.name = "every GPU's piece", .flags = CLIMB_BUF_HOST, .bytes = whole_bytes, .host_at = offsetof(climb_case, h_in)},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = whole_bytes,
     .host_at = offsetof(climb_case, h_out)},
};

static int ag_empty(const climb_case *c) { return c->n == 0; }

static const char *ag_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s, a piece on each of %d GPUs",
             c->p.type == CLIMB_I32 ? "random 32-bit integers" : "uniform in [-1, 1)", c->g.x.P);
    return buf;
}

static int ag_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "every GPU's piece, bit for bit, in rank order on every GPU");
    return 0;
}

static int ag_prepare(climb_case *c, int rung)
{
    const ag_rung *r = &AG_RUNGS[rung];
    if (r->pinned && !c->pinned && cudaHostAlloc(&c->pinned, whole_bytes(c), cudaHostAllocPortable) != cudaSuccess) {
        fprintf(stderr, "climb: allgather: cannot page-lock %zu bytes: %s\n", whole_bytes(c),
                cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    return climb_gpuset_prepare(&c->g, r->access, r->nccl, "allgather");
}

static void ag_release(climb_case *c, int rung) { climb_gpuset_release(&c->g, AG_RUNGS[rung].nccl); }

/* Every rung but NCCL's and the host's reaches the other GPUs' memory. */
static const char *ag_refuses(const climb_case *c, int rung)
{
    return AG_RUNGS[rung].nccl || AG_RUNGS[rung].pinned ? NULL : climb_gpuset_other_nodes(&c->g);
}

static int ag_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = AG_RUNGS[rung].run(c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, !AG_RUNGS[rung].nccl && !AG_RUNGS[rung].pinned);
}

static int ag_poison(climb_case *c)
{
    return climb_gpuset_poison(&c->g, c->out, whole_bytes(c));
}

/* Every GPU's gathered array against the pieces, every element, bit for bit. */
static int ag_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    const size_t total = c->n * (size_t)c->g.x.P;
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) { /* with one process a GPU, its own */
        CLIMB_CHECK(cudaSetDevice(c->g.x.devices[r]));
        CLIMB_CHECK(cudaMemcpy(c->h_out, c->out[r], total * c->es, cudaMemcpyDeviceToHost));
        const uint32_t *got = (const uint32_t *)c->h_out, *want = (const uint32_t *)c->h_in;
        for (size_t i = 0; i < total; i++)
            climb_compare_exact(&k, got[i], want[i], "GPU %d's element %zu (rank %zu's piece)", c->g.x.devices[r], i,
                                i / (c->n ? c->n : 1));
    }
    CLIMB_CHECK(cudaSetDevice(c->g.home));
    return climb_compare_end(&k);
}

/* nccl-tests' bus bytes: the gathered array (P x n x element size) times (P - 1)/P. */
static void ag_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->n * (double)c->es * c->g.x.P * climb_busbw_factor(CLIMB_COLL_ALL_GATHER, c->g.x.P);
    out->link_bytes = out->items; /* what each GPU receives (and sends), at the least, over its links */
}

/* 1 KiB to 256 MiB a piece, by factors of 16 (elements of 4 bytes). */
static const climb_shape AG_BENCH_SHAPES[] = {CLIMB_SHAPE1(1u << 8), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 16),
                                              CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 24), CLIMB_SHAPE1(1u << 26)};
/* The sizes `climb tune` times the crossover's candidates over: 4 KiB to 256 MiB a piece (elements of 4 bytes),
 * around every candidate. */
static const climb_shape AG_TUNE_SHAPES[] = {
    CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22), CLIMB_SHAPE1(1u << 24),
    CLIMB_SHAPE1(1u << 26)};
static const climb_shape AG_MAIN_SHAPES[] = {CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 24)};
static const climb_shape AG_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),    CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),
                                              CLIMB_SHAPE1(3),    CLIMB_SHAPE1(7),     CLIMB_SHAPE1(1000),
                                              CLIMB_SHAPE1(4097), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
static const climb_shape AG_QUICK_SHAPES[] = {CLIMB_SHAPE1(3), CLIMB_SHAPE1(65537)};

static const climb_sweep AG_SWEEPS[] = {
    {.name = "sizes", .title = "all-gather: bus bandwidth against elements a piece", .args = NULL, .x = "n",
     .log_x = 1},
};

extern "C" const climb_workload climb_allgather_workload = {
    .name = "allgather",
    .title = "All-gather across GPUs: through the host, a ring, copy engines at once, a kernel over NVLink",
    .sources = "Patarasuk and Yuan, the bandwidth-optimal all-reduce (its all-gather half, the ring); Pacheco, the "
               "tree-structured global sum (the collectives across a machine)",
    CLIMB_COLLECTIVE_CASES,
    .processes = 1,
    .bytes_counted = "none in device memory; items are nccl-tests' bus bytes, P x n x element size x (P-1)/P",
    CLIMB_COLLECTIVE_RATE,
    .bench_shapes = AG_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(AG_BENCH_SHAPES),
    .check_shapes = AG_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(AG_CHECK_SHAPES),
    .quick_shapes = AG_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(AG_QUICK_SHAPES),
    .main_shapes = AG_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(AG_MAIN_SHAPES),
    .tune_shapes = AG_TUNE_SHAPES,
    .n_tune_shapes = CLIMB_COUNT(AG_TUNE_SHAPES),
    .check_max_offset = 0,
    .n_rungs = AG_N_RUNGS,
    .rung = ag_rung_info,
    .sweeps = AG_SWEEPS,
    .n_sweeps = CLIMB_COUNT(AG_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = AG_BUFFERS,
    .n_buffers = CLIMB_COUNT(AG_BUFFERS),
    .init = ag_init,
    .fill = ag_fill,
    .fini = ag_fini,
    .describe = ag_describe,
    .reference = ag_reference,
    .refuses = ag_refuses,
    .prepare = ag_prepare,
    .run = ag_run,
    .empty = ag_empty,
    .poison = ag_poison,
    .verify = ag_verify,
    .counts = ag_counts,
    .release = ag_release,
    .tuning = &AG_TUNING,
    .set_tuning = ag_set_tuning,
};
