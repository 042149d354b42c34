/*
 * reducescatter.cu - every GPU of the case holds P x n elements; GPU r receives the sum over the GPUs of their r-th
 * n elements: through the host, a ring of peer copies and adds, every GPU's pieces pushed to their owners by the
 * copy engines and summed there, and a kernel on each GPU that loads its piece from every other GPU over NVLink and
 * sums it; NCCL's reduce-scatter beside them.
 *
 * The reduce-scatter half of the ring all-reduce (Patarasuk and Yuan; src/device/collective.h) and the first shot
 * of the two-shot all-reduce, built from the same pieces as the all-reduce ladder (src/workloads/common/gpuset.cuh).
 * See docs/reducescatter.md.
 *
 * Counted as nccl-tests counts it: the bus bytes, (P - 1) x n x element size for P GPUs (each GPU's array of P x n
 * elements times (P - 1)/P), as items in GB/s.
 *
 * Order of this file: policy, kernels, the case, the rungs' runs, the registry table, the harness glue.
 */
#include <math.h>
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
#include "reducescatter.h"

/* ---------------------------------------------------------------- policy */

/* The best rung sums with a kernel that loads every GPU's piece over NVLink below this many bytes a piece, and
 * moves the pieces by copy engines (then sums them on their owner) from there. On two H200s the kernel won at every
 * size measured, 4 KiB to 64 MiB a piece (tuned at 668830b and 285a373: 225 against 320 µs at 64 MiB;
 * docs/reducescatter.md): the copy engines' pass through a workspace and a second sum reads every byte twice. So the
 * kernel up to the largest size measured, 64 MiB included. */
#define RS_KERNEL_BELOW ((size_t)128 << 20)

extern "C" int climb_reducescatter_best_uses_kernel(size_t piece_bytes) { return piece_bytes < RS_KERNEL_BELOW; }

/* ---------------------------------------------------------------- kernels */

/* dst[i] += src[i]: a received piece added into the rank's running sum (the ring). */
template <typename T>
__global__ void __launch_bounds__(256) rs_add_kernel(T *__restrict__ dst, const T *__restrict__ src, size_t n)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        dst[i] += src[i];
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    size_t n, es;                         /* elements a piece, bytes an element */
    void *h_in;                           /* P arrays of P pieces, rank after rank (host), from the seed */
    void *h_out;                          /* a download to check */
    double *ref, *mag;                    /* every rank's piece of the sum in double, and the sum of magnitudes */
    void *in[CLIMB_MAX_DEVICES], *out[CLIMB_MAX_DEVICES]; /* on rank r's GPU: P x n and n elements */
    void *work[CLIMB_MAX_DEVICES];        /* on rank r's GPU: P x n elements (the ring's sums, the pieces received) */
    void *pinned;                         /* through_host: P x P x n elements */
    int kernel_below;                     /* the best rung's crossover, bytes a piece (tuned) */
};

static size_t piece(const climb_case *c) { return c->n * c->es; }
static size_t array_bytes(const climb_case *c) { return (c->n ? c->n : 1) * c->es * (size_t)c->g.x.P; }
static char *at(void *base, size_t bytes) { return (char *)base + bytes; }

template <typename T> static int add_on(climb_case *c, int r, size_t k, const void *src)
{
    if (!c->n || !climb_gpuset_mine(&c->g, r))
        return 0;
    CLIMB_CHECK(cudaSetDevice(c->g.x.devices[r]));
    rs_add_kernel<T><<<climb_gpuset_blocks(c->n, c->g.x.sms[r]), 256, 0, c->g.x.st[r]>>>(
        (T *)at(c->work[r], k * piece(c)), (const T *)src, c->n);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

/* ---------------------------------------------------------------- the rungs' runs */

/* through_host: every array down into page-locked host memory, the pieces summed by the CPU in rank order (into
 * rank 0's array), each GPU's piece up again. With one process a GPU, the arrays reach every process's host memory
 * through the launcher's all-gather (MPI's) between. */
template <typename T> static int run_host(climb_case *c)
{
    climb_gpuset *g = &c->g;
    const size_t total = c->n * (size_t)g->x.P;
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemcpyAsync(at(c->pinned, (size_t)r * total * c->es), c->in[r], total * c->es,
                                    cudaMemcpyDeviceToHost, g->x.st[r]));
    }
    for (int r = g->x.lo; r < g->x.hi; r++)
        CLIMB_CHECK(cudaStreamSynchronize(g->x.st[r]));
    if (climb_gpuset_host_allgather(g, at(c->pinned, (size_t)g->x.lo * total * c->es), c->pinned, total * c->es))
        return -1;
    T *sum = (T *)c->pinned;
    for (int q = 1; q < g->x.P; q++) {
        const T *x = (const T *)c->pinned + (size_t)q * total;
        for (size_t i = 0; i < total; i++)
            sum[i] += x[i];
    }
    for (int r = g->x.lo; r < g->x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(g->x.devices[r]));
        CLIMB_CHECK(cudaMemcpyAsync(c->out[r], sum + (size_t)r * c->n, piece(c), cudaMemcpyHostToDevice, g->x.st[r]));
    }
    return 0;
}

/* ring: each rank's running sums start as its own array; P - 1 steps, at step s rank r sends its running sum of
 * piece (r - s - 1) mod P to the next rank, which adds it into its own; after the last step rank r holds the whole
 * sum of piece r. One link a GPU busy each step. */
template <typename T> static int run_ring(climb_case *c)
{
    climb_gpuset *g = &c->g;
    const size_t all = piece(c) * (size_t)g->x.P;
    for (int r = 0; r < g->x.P; r++)
        if (climb_gpuset_copy(g, r, c->in[r], r, c->work[r], all))
            return -1;
    if (climb_gpuset_barrier(g))
        return -1;
    for (int s = 0; s < g->x.P - 1; s++) {
        for (int r = 0; r < g->x.P; r++) {
            const int next = (r + 1) % g->x.P, k = (((r - s - 1) % g->x.P) + g->x.P) % g->x.P;
            if (climb_gpuset_copy(g, r, at(c->work[r], (size_t)k * piece(c)), next, c->out[next], piece(c)))
                return -1; /* the next rank's output is the landing place; its sum is in work */
        }
        if (climb_gpuset_barrier(g))
            return -1;
        for (int r = 0; r < g->x.P; r++) {
            const int prev = (r + g->x.P - 1) % g->x.P, k = (((prev - s - 1) % g->x.P) + g->x.P) % g->x.P;
            if (add_on<T>(c, r, (size_t)k, c->out[r]))
                return -1;
        }
        if (climb_gpuset_barrier(g))
            return -1;
    }
    for (int r = 0; r < g->x.P; r++)
        if (climb_gpuset_copy(g, r, at(c->work[r], (size_t)r * piece(c)), r, c->out[r], piece(c)))
            return -1;
    return 0;
}

/* ---- the schedules on a climb_coll_exec, for the rungs and the C API ---- */

/* out[r] = the sum of the P pieces src.p[0..P), on rank r's stream. */
template <typename T>
static cudaError_t x_sum(const climb_coll_exec *x, int r, void *out, const climb_gpuset_ptrs<T> &src, size_t n)
{
    if (!n || !climb_coll_mine(x, r))
        return cudaSuccess;
    cudaError_t e = cudaSetDevice(x->devices[r]);
    if (e != cudaSuccess)
        return e;
    return climb_gpuset_sum_launch<T>((T *)out, src, x->P, n, x->sms[r], x->st[r]);
}

/* copy engines: every rank pushes its piece q into rank q's work space (slot r) by copy engines, in the rotation's
 * order (climb_rotation_to: every GPU receives from one other at a time), its own last; after
 * one barrier each rank sums the P pieces it received, locally. work[r]: P x n elements on rank r's GPU. */
template <typename T>
static cudaError_t x_copy_engines(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n,
                                  void *const *work)
{
    const size_t bytes = n * sizeof(T);
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess && bytes; r++) {
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        for (int k = 1; k <= x->P && e == cudaSuccess; k++) {
            const int q = climb_rotation_to(x->P, r, k % x->P);
            e = climb_coll_copy(x, r, (const char *)in[r] + (size_t)q * bytes, q, (char *)work[q] + (size_t)r * bytes,
                                bytes);
        }
    }
    if (e == cudaSuccess)
        e = climb_coll_barrier(x);
    for (int r = 0; r < x->P && e == cudaSuccess; r++) {
        climb_gpuset_ptrs<T> src;
        for (int q = 0; q < x->P; q++)
            src.p[q] = (const T *)((const char *)work[r] + (size_t)q * bytes);
        e = x_sum<T>(x, r, out[r], src, n);
    }
    return e;
}

/* the pull kernel: each rank's kernel loads its piece from every rank's array over NVLink and sums it: one launch a
 * GPU, no step between GPUs. Needs peer access between every pair. */
template <typename T>
static cudaError_t x_pull(const climb_coll_exec *x, const void *const *in, void *const *out, size_t n)
{
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < x->P && e == cudaSuccess; r++) {
        climb_gpuset_ptrs<T> src;
        for (int q = 0; q < x->P; q++)
            src.p[q] = (const T *)in[q] + (size_t)r * n;
        e = x_sum<T>(x, r, out[r], src, n);
    }
    return e;
}

extern "C" size_t climb_reducescatter_work_bytes(size_t n, int P, int access)
{
    return access && climb_reducescatter_best_uses_kernel(n * 4) ? 0 : n * 4 * (size_t)P;
}

static cudaError_t x_best(const climb_coll_exec *x, climb_dtype t, const void *const *in, void *const *out, size_t n,
                          int access, size_t kernel_below, void *const *work)
{
    if (access && n * 4 < kernel_below)
        return t == CLIMB_I32 ? x_pull<int32_t>(x, in, out, n) : x_pull<float>(x, in, out, n);
    return t == CLIMB_I32 ? x_copy_engines<int32_t>(x, in, out, n, work) : x_copy_engines<float>(x, in, out, n, work);
}

extern "C" cudaError_t climb_reducescatter_sum_async(const climb_coll_exec *x, climb_dtype t, const void *const *in,
                                                     void *const *out, size_t n, int access, void *const *work)
{
    return x_best(x, t, in, out, n, access, RS_KERNEL_BELOW, work);
}

/* copy_engines and kernel_pull, as above; best: the kernel below RS_KERNEL_BELOW bytes a piece, the copy engines
 * and a local sum from there (climb_reducescatter_sum_async, as the C API's climb_comm_reducescatter_sum). */
template <typename T> static int run_copy_engines(climb_case *c)
{
    CLIMB_CHECK(x_copy_engines<T>(&c->g.x, c->in, c->out, c->n, c->work));
    return 0;
}

template <typename T> static int run_pull(climb_case *c)
{
    CLIMB_CHECK(x_pull<T>(&c->g.x, c->in, c->out, c->n));
    return 0;
}

template <typename T> static int run_best(climb_case *c)
{
    CLIMB_CHECK(x_best(&c->g.x, c->p.type, c->in, c->out, c->n, 1, (size_t)c->kernel_below, c->work));
    return 0;
}

/* vendor: ncclReduceScatter on a communicator of the case's GPUs, one call a rank in one group. */
static int run_nccl(climb_case *c)
{
    return climb_gpuset_nccl(&c->g, CLIMB_COLL_REDUCE_SCATTER, c->p.type, c->in, c->out, c->n, "reducescatter");
}

/* Each rung's run for i32 and f32. */
#define RS_RUN(fn) {fn<int32_t>, fn<float>}

static const char *refuses_no_access(const climb_case *c) { return climb_gpuset_no_access(&c->g); }
static const char *refuses_without_nccl(const climb_case *c) { return (void)c, climb_nccl_refusal(); }

static int k_add(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return t == CLIMB_I32 ? climb_one_kernel(out, max, (const void *)rs_add_kernel<int32_t>, "rs_add_kernel<int32_t>", 256, 0)
                          : climb_one_kernel(out, max, (const void *)rs_add_kernel<float>, "rs_add_kernel<float>", 256, 0);
}

static int k_sum(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return t == CLIMB_I32 ? climb_one_kernel(out, max, (const void *)climb_gpuset_sum_kernel<int32_t>,
                                             "climb_gpuset_sum_kernel<int32_t>", 256, 0)
                          : climb_one_kernel(out, max, (const void *)climb_gpuset_sum_kernel<float>,
                                             "climb_gpuset_sum_kernel<float>", 256, 0);
}

typedef struct rs_rung {
    climb_rung_info info;
    int (*run[2])(climb_case *c); /* i32, f32 */
    int access;  /* 1: peer access on among all pairs (prepare) */
    int nccl;    /* its communicator (prepare) */
    int pinned;  /* its host buffer (prepare) */
} rs_rung;

static const rs_rung RS_RUNGS[] = {
    {.info = {.name = "nccl_reduce_scatter", .idea = "vendor: ncclReduceScatter on a communicator of the case's "
                                                     "GPUs, one call a GPU in one group",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_without_nccl},
     .run = {run_nccl, run_nccl}, .nccl = 1},
    {.info = {.name = "through_host", .idea = "the way without GPUDirect: every array down to the host, the pieces "
                                              "summed by the CPU, each GPU's piece up again",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels, .host_part = 1},
     .run = RS_RUN(run_host), .pinned = 1},
    {.info = {.name = "ring", .idea = "the ring: P - 1 steps, each GPU passing one running sum to the next by a "
                                      "copy engine and adding the one it receives (bandwidth-optimal on a ring)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_add},
     .run = RS_RUN(run_ring), .access = 1},
    {.info = {.name = "copy_engines", .idea = "every GPU pushes each piece to its owner by copy engines at once, "
                                              "then each sums the P pieces it received: one step",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sum},
     .run = RS_RUN(run_copy_engines), .access = 1},
    {.info = {.name = "kernel_pull", .idea = "each GPU's kernel loads its piece from every GPU over NVLink and sums "
                                             "it: one launch a GPU, nothing staged",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_sum,
              .refuses = refuses_no_access},
     .run = RS_RUN(run_pull), .access = 1},
    {.info = {.name = "reducescatter_best", .idea = "the kernel for small pieces, copy engines then a local sum for "
                                                    "the rest",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_BEST, .kernels = k_sum,
              .refuses = refuses_no_access},
     .run = RS_RUN(run_best), .access = 1},
};
#define RS_N_RUNGS CLIMB_COUNT(RS_RUNGS)

static const climb_rung_info *rs_rung_info(int i) { return &RS_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

/* The best rung's one tunable: the piece size below which it sums with the kernel over NVLink. `climb tune
 * reducescatter` times the best rung over its tune sizes (4 KiB to 64 MiB a piece) with each value and keeps the one of least geometric-mean time
 * relative to each size's fastest: the crossover measured on the machine's GPUs and links. */
static const int RS_CROSSOVERS[] = {16384,    65536,     262144,    1048576,   4194304,
                                    16777216, 67108864, 134217728, 1073741824};
static const climb_tunable RS_TUNABLES[] = {
    {.name = "kernel_below", .meaning = "bytes a piece below which the kernel moves the pieces",
     .values = RS_CROSSOVERS, .n_values = CLIMB_COUNT(RS_CROSSOVERS)},
};

static const int RS_BUILTIN[] = {(int)RS_KERNEL_BELOW};
static const climb_tuning RS_TUNING = {
    .params = RS_TUNABLES,
    .n_params = CLIMB_COUNT(RS_TUNABLES),
    .builtin = RS_BUILTIN,
    .builtin_why = "built-in: 128 MiB, the kernel having won at every size to 64 MiB a piece on two H200s",
};

static void rs_set_tuning(climb_case *c, const int *v) { c->kernel_below = v[0]; }

/* ---------------------------------------------------------------- harness glue */

static void rs_fini(climb_case *c)
{
    climb_gpuset_fini(&c->g);
    cudaFreeHost(c->pinned);
    free(c->ref);
    free(c->mag);
}

/* Every rank's array, piece of the sum and work space on its GPU; the GPUs' streams and events. */
static int rs_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->es = climb_dtype_size(c->p.type);
    c->kernel_below = (int)RS_KERNEL_BELOW; /* until the harness sets the tuned value */
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    size_t whole;
    if (!climb_mul_fits(array_bytes(c), (size_t)c->g.x.P, &whole)) {
        fprintf(stderr, "climb: reducescatter: %d arrays of %d pieces of %zu elements overflow size_t\n", c->g.x.P,
                c->g.x.P, c->n);
        return -1;
    }
    const size_t total = c->n * (size_t)c->g.x.P;
    c->ref = (double *)malloc(sizeof(double) * (total + 1));
    c->mag = (double *)malloc(sizeof(double) * (total + 1));
    if (!c->ref || !c->mag)
        return climb_host_oom("the CPU sums (%zu elements)", total);
    const size_t one = piece(c) ? piece(c) : c->es;
    return climb_gpuset_alloc(&c->g, c->in, array_bytes(c), array_bytes(c), "a GPU's array") ||
                   climb_gpuset_alloc(&c->g, c->out, one, one, "a GPU's piece") ||
                   climb_gpuset_alloc(&c->g, c->work, array_bytes(c), array_bytes(c), "a GPU's work space")
               ? -1
               : 0;
}

/* i32: [-2^20, 2^20] (sums of 64 GPUs exact); f32: [-1, 1). Each rank's array on its GPU; the sums in double now. */
static int rs_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    const size_t total = c->n * (size_t)c->g.x.P;
    if (c->p.type == CLIMB_I32)
        climb_rng_fill_i32(&rng, (int32_t *)c->h_in, total * (size_t)c->g.x.P, -(1 << 20), 1 << 20);
    else
        climb_rng_fill_f32(&rng, (float *)c->h_in, total * (size_t)c->g.x.P, -1.0f, 1.0f);
    climb_gpuset_cpu_sums(c->h_in, c->p.type, c->g.x.P, total, c->ref, c->mag);
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        CLIMB_CHECK(cudaSetDevice(c->g.x.devices[r]));
        CLIMB_CHECK(cudaMemcpy(c->in[r], at(c->h_in, (size_t)r * total * c->es), total * c->es, cudaMemcpyHostToDevice));
    }
    CLIMB_CHECK(cudaSetDevice(c->g.home));
    return 0;
}

static size_t all_bytes(const climb_case *c) { return array_bytes(c) * (size_t)c->g.x.P; }
static size_t piece_bytes(const climb_case *c) { return (c->n ? c->n : 1) * c->es; }

static const climb_buffer RS_BUFFERS[] = {
    {.name = "every GPU's array", .flags = CLIMB_BUF_HOST, .bytes = all_bytes, .host_at = offsetof(climb_case, h_in)},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = piece_bytes,
     .host_at = offsetof(climb_case, h_out)},
};

static int rs_empty(const climb_case *c) { return c->n == 0; }

static const char *rs_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s, %d pieces on each of %d GPUs",
             c->p.type == CLIMB_I32 ? "integers in [-2^20, 2^20]" : "uniform in [-1, 1)", c->g.x.P, c->g.x.P);
    return buf;
}

static int rs_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)mode;
    snprintf(desc, desclen, "%s", c->p.type == CLIMB_I32 ? "the CPU sum of each piece over the GPUs, exact"
                                                         : "the CPU sum of each piece in double, within P x 1.2e-7 "
                                                           "of the sum of magnitudes");
    return 0;
}

static int rs_prepare(climb_case *c, int rung)
{
    const rs_rung *r = &RS_RUNGS[rung];
    if (r->pinned && !c->pinned && cudaHostAlloc(&c->pinned, all_bytes(c), cudaHostAllocPortable) != cudaSuccess) {
        fprintf(stderr, "climb: reducescatter: cannot page-lock %zu bytes: %s\n", all_bytes(c),
                cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    return climb_gpuset_prepare(&c->g, r->access, r->nccl, "reducescatter");
}

static void rs_release(climb_case *c, int rung) { climb_gpuset_release(&c->g, RS_RUNGS[rung].nccl); }

/* Every rung but NCCL's and the host's reaches the other GPUs' memory. */
static const char *rs_refuses(const climb_case *c, int rung)
{
    return RS_RUNGS[rung].nccl || RS_RUNGS[rung].pinned ? NULL : climb_gpuset_other_nodes(&c->g);
}

static int rs_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = RS_RUNGS[rung].run[c->p.type == CLIMB_I32 ? 0 : 1](c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, !RS_RUNGS[rung].nccl && !RS_RUNGS[rung].pinned);
}

static int rs_poison(climb_case *c)
{
    return climb_gpuset_poison(&c->g, c->out, piece_bytes(c));
}

/* Every GPU's piece of the sum against the CPU's, every element. */
static int rs_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) { /* with one process a GPU, its own */
        CLIMB_CHECK(cudaSetDevice(c->g.x.devices[r]));
        CLIMB_CHECK(cudaMemcpy(c->h_out, c->out[r], piece(c), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < c->n; i++) {
            const size_t j = (size_t)r * c->n + i;
            if (c->p.type == CLIMB_I32)
                climb_compare_exact(&k, ((const int32_t *)c->h_out)[i], (long long)c->ref[j], "GPU %d's sum[%zu]",
                                    c->g.x.devices[r], i);
            else
                climb_compare_close(&k, ((const float *)c->h_out)[i], c->ref[j], c->g.x.P * 1.2e-7 * c->mag[j] + 1e-30,
                                    "GPU %d's sum[%zu]", c->g.x.devices[r], i);
        }
    }
    CLIMB_CHECK(cudaSetDevice(c->g.home));
    return climb_compare_end(&k);
}

/* nccl-tests' bus bytes: each GPU's array (P x n x element size) times (P - 1)/P. */
static void rs_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->n * (double)c->es * c->g.x.P * climb_busbw_factor(CLIMB_COLL_REDUCE_SCATTER, c->g.x.P);
    out->link_bytes = out->items; /* what each GPU sends, at the least, over its links */
}

/* 1 KiB to 64 MiB a piece, by factors of 16 (elements of 4 bytes); each GPU's array is P pieces. */
static const climb_shape RS_BENCH_SHAPES[] = {CLIMB_SHAPE1(1u << 8),  CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 16),
                                              CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 24)};
/* The sizes `climb tune` times the crossover's candidates over: 4 KiB to 64 MiB a piece (elements of 4 bytes),
 * around every candidate but the last (1 GiB: the kernel at every size timed). */
static const climb_shape RS_TUNE_SHAPES[] = {
    CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22), CLIMB_SHAPE1(1u << 24)};
static const climb_shape RS_MAIN_SHAPES[] = {CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 24)};
static const climb_shape RS_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),    CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),
                                              CLIMB_SHAPE1(3),    CLIMB_SHAPE1(7),     CLIMB_SHAPE1(1000),
                                              CLIMB_SHAPE1(4097), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
static const climb_shape RS_QUICK_SHAPES[] = {CLIMB_SHAPE1(3), CLIMB_SHAPE1(65537)};

static const climb_sweep RS_SWEEPS[] = {
    {.name = "sizes", .title = "reduce-scatter: bus bandwidth against elements a piece", .args = NULL, .x = "n",
     .log_x = 1},
};

extern "C" const climb_workload climb_reducescatter_workload = {
    .name = "reducescatter",
    .title = "Reduce-scatter across GPUs: through the host, a ring, copy engines then a local sum, a kernel over "
             "NVLink",
    .sources = "Patarasuk and Yuan, the bandwidth-optimal all-reduce (its reduce-scatter half, the ring); Pacheco, "
               "the tree-structured global sum (the collectives across a machine)",
    CLIMB_COLLECTIVE_CASES,
    .processes = 1,
    .bytes_counted = "none in device memory; items are nccl-tests' bus bytes, P x n x element size x (P-1)/P",
    CLIMB_COLLECTIVE_RATE,
    .bench_shapes = RS_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(RS_BENCH_SHAPES),
    .check_shapes = RS_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(RS_CHECK_SHAPES),
    .quick_shapes = RS_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(RS_QUICK_SHAPES),
    .main_shapes = RS_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(RS_MAIN_SHAPES),
    .tune_shapes = RS_TUNE_SHAPES,
    .n_tune_shapes = CLIMB_COUNT(RS_TUNE_SHAPES),
    .check_max_offset = 0,
    .n_rungs = RS_N_RUNGS,
    .rung = rs_rung_info,
    .sweeps = RS_SWEEPS,
    .n_sweeps = CLIMB_COUNT(RS_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = RS_BUFFERS,
    .n_buffers = CLIMB_COUNT(RS_BUFFERS),
    .init = rs_init,
    .fill = rs_fill,
    .fini = rs_fini,
    .describe = rs_describe,
    .reference = rs_reference,
    .refuses = rs_refuses,
    .prepare = rs_prepare,
    .run = rs_run,
    .empty = rs_empty,
    .poison = rs_poison,
    .verify = rs_verify,
    .counts = rs_counts,
    .release = rs_release,
    .tuning = &RS_TUNING,
    .set_tuning = rs_set_tuning,
};
