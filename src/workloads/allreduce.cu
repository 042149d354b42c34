/*
 * allreduce.cu - the sum of an array held once on every GPU of the case, every GPU receiving the whole sum: through
 * the host, gathered on one GPU and broadcast, a tree of peer copies (recursive halving and doubling), a ring
 * (reduce-scatter, then all-gather), and kernels that read and write the other GPUs' memory over NVLink directly,
 * NCCL's all-reduce beside them.
 *
 * From Pacheco, the CUDA trapezoidal rule: the GPU sum built on the tree-structured global sum of the book's MPI
 * chapter, which this ladder takes across GPUs. The ring is Patarasuk and Yuan's bandwidth-optimal all-reduce, the
 * tree Rabenseifner's halving and doubling (src/device/collective.h has the schedules). See docs/allreduce.md.
 *
 * A case is n elements (i32 or f32) on each of its GPUs (--gpus, --devices; every GPU of the case takes part).
 * Counted as nccl-tests counts it: the bus bytes, n x element size x 2(P-1)/P for P GPUs, as items in GB/s (the bus
 * bandwidth, comparable across GPU counts); the algorithm bandwidth is that over 2(P-1)/P.
 *
 * Order of this file: kernels, the case, the rungs' runs, the registry table, the harness glue.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../base/rng.h"
#include "../device/collective.h"
#include "../device/device.h"
#include "../device/nccl.h"
#include "../core/workload.cuh"
#include "common/flag_lines.h"
#include "common/gpuset.cuh"
#include "allreduce.h"

/* ---------------------------------------------------------------- policy */

/* The flag kernel takes arrays up to this many bytes a GPU: its workspace holds two sets of P arrays as 8-byte
 * lines, 32 MiB a GPU for eight GPUs at the most. */
#define AR_FLAG_MAX_BYTES CLIMB_FLAG_MAX_BYTES

/* The best rung sums arrays below AR_FLAGS_BELOW bytes with the flag kernel (its GPUs meet inside it: no step
 * between GPUs), then reads every GPU's array once from each GPU (one shot) below AR_ONE_SHOT_BELOW, where two
 * shots' second pass costs more than the reads it saves, then runs the two shots fused in one kernel below
 * AR_FUSED_BELOW (its GPUs meet inside it: no steps between the GPUs' streams), and the two shots as two kernels
 * with a step between the GPUs from there, where the fused kernel's loads and stores in one loop fall behind (5%
 * at 1 GiB on four H200s, even at 64 MiB). The first two are tuned (`climb tune allreduce`; its sizes end at 16
 * MiB); the third is built in from the bench (docs/allreduce.md keeps the figures that settle them). */
#define AR_FLAGS_BELOW CLIMB_FLAGS_BELOW /* common/flag_lines.h */
#define AR_ONE_SHOT_BELOW ((size_t)4 << 20)
#define AR_FUSED_BELOW ((size_t)64 << 20)

/* The best rung's way for arrays of `bytes` under crossovers flags_below and one_shot_below (in place: never one
 * shot, whose ranks read each other's inputs while they write their outputs); fused: 0 where the fused two shots
 * have no meeting points. */
static climb_allreduce_way ar_way(size_t bytes, size_t flags_below, size_t one_shot_below, int in_place, int fused)
{
    if (bytes < flags_below && bytes <= AR_FLAG_MAX_BYTES)
        return CLIMB_ALLREDUCE_FLAGS;
    if (bytes < one_shot_below && !in_place)
        return CLIMB_ALLREDUCE_ONE_SHOT;
    return fused && bytes < AR_FUSED_BELOW ? CLIMB_ALLREDUCE_FUSED : CLIMB_ALLREDUCE_TWO_SHOTS;
}
extern "C" climb_allreduce_way climb_allreduce_best_way(size_t bytes, int in_place)
{
    return ar_way(bytes, AR_FLAGS_BELOW, AR_ONE_SHOT_BELOW, in_place, 1);
}
/* The flag kernel: blocks of AR_FLAG_BLOCK threads, one an SM at the most (every block on
 * every GPU resident at once: a block waits for its partners on the other GPUs); a wait gives up after
 * AR_FLAG_TIMEOUT_NS (another GPU's kernel never came), leaving the output unwritten and the GPU's failed flag set
 * (the C API's calls trap instead: a CUDA error the caller sees). */
#define AR_FLAG_BLOCK 256
#define AR_FLAG_TIMEOUT_NS 10000000000ull

/* ---------------------------------------------------------------- kernels */

template <typename T> struct ar_ptrs {
    T *p[CLIMB_MAX_DEVICES];
};

/* dst[off + i] += src[off + i]: one received piece added into the rank's own (the tree's and the ring's
 * reduce-scatter steps). */
template <typename T> __global__ void __launch_bounds__(256) ar_add_kernel(T *__restrict__ dst, const T *__restrict__ src, size_t n)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        dst[i] += src[i];
}

/* The flag rung's state on each GPU: the last call's flag (0 before the first; the next is climb_flag_of it), the
 * blocks done with the call (the last one moves the epoch on, after every block has read it), and whether a wait
 * ever timed out. */
struct ar_flag_ctl {
    unsigned epoch, done, failed, pad;
};
static_assert(sizeof(ar_flag_ctl) == CLIMB_FLAG_STATE_BYTES, "common/flag_lines.h says the state's size");

/* Every rank's workspace: lines[parity][q][i] on rank r holds rank q's element i of a call whose flag has that
 * parity, as (flag << 32) | bits, cap elements a set. */
struct ar_flag_ws {
    unsigned long long *p[CLIMB_MAX_DEVICES];
};

template <typename T> __device__ __forceinline__ unsigned ar_bits(T v) { return __float_as_uint((float)v); }
template <> __device__ __forceinline__ unsigned ar_bits<int32_t>(int32_t v) { return (unsigned)v; }
template <typename T> __device__ __forceinline__ T ar_from_bits(unsigned b) { return __uint_as_float(b); }
template <> __device__ __forceinline__ int32_t ar_from_bits<int32_t>(unsigned b) { return (int32_t)b; }

__device__ __forceinline__ unsigned long long ar_globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* one shot with flags: each GPU stores its array into every other GPU's workspace as 8-byte lines that carry the
 * call's flag beside each element (one store: the element and its flag arrive together), then sums its own array
 * with the lines it waits for in its own workspace, in rank order. The GPUs meet inside the kernel, element by
 * element, so a call needs no step between GPUs before or after it (NCCL's LL protocol, in miniature): its latency
 * is one store across NVLink and the loads of local memory. Two sets of lines alternate by the flag's parity, so a
 * GPU a call ahead never overwrites lines its partner still reads (it cannot be two calls ahead: it would need
 * that partner's lines of the call between). Costs twice the bytes over the links of the plain one shot. */
template <typename T>
__global__ void __launch_bounds__(AR_FLAG_BLOCK) ar_flag_kernel(const T *__restrict__ in, T *__restrict__ out,
                                                                ar_flag_ws ws, ar_flag_ctl *ctl, int P, int self,
                                                                size_t n, size_t cap, int trap)
{
    __shared__ unsigned s_flag;
    if (threadIdx.x == 0)
        s_flag = climb_flag_of(*(volatile unsigned *)&ctl->epoch);
    __syncthreads();
    const unsigned flag = s_flag;
    const size_t step = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n; i += step) {
        const unsigned long long line = climb_flag_line(flag, ar_bits(in[i]));
        for (int q = 0; q < P; q++)
            if (q != self)
                *(volatile unsigned long long *)(ws.p[q] + climb_flag_slot(flag, P, self, cap, i)) = line;
    }
    int ok = 1;
    const unsigned long long t0 = ar_globaltimer();
    for (size_t i = first; i < n && ok; i += step) {
        T sum = T(0);
        for (int q = 0; q < P && ok; q++) {
            T x;
            if (q == self) {
                x = in[i];
            } else {
                const volatile unsigned long long *src = ws.p[self] + climb_flag_slot(flag, P, q, cap, i);
                unsigned long long line = *src;
                while (climb_flag_line_flag(line) != flag) {
                    if (ar_globaltimer() - t0 > AR_FLAG_TIMEOUT_NS) {
                        if (trap)
                            __trap();
                        ok = 0;
                        break;
                    }
                    line = *src;
                }
                x = ar_from_bits<T>(climb_flag_line_bits(line));
            }
            sum = q == 0 ? x : sum + x; /* rank order, as every other rung: the same bits on every GPU */
        }
        if (ok)
            out[i] = sum;
    }
    const int failed = __syncthreads_or(!ok);
    if (threadIdx.x == 0) {
        if (failed)
            atomicExch(&ctl->failed, 1u);
        __threadfence();
        if (atomicAdd(&ctl->done, 1u) == gridDim.x - 1) { /* the last block: every block has read the epoch */
            ctl->done = 0;
            *(volatile unsigned *)&ctl->epoch = flag;
            __threadfence();
        }
    }
}

/* The fused two shots' meeting points: on each rank, bar[(phase x P + q) x CLIMB_ALLREDUCE_MEET_BLOCKS + b] holds
 * the flag of the last call in which rank q's block b reached `phase` (0: it started, so its GPU's inputs are written
 * and its outputs free; 1: every sum the block stored has landed). Zero before the first call. */
struct ar_meet_ws {
    unsigned *p[CLIMB_MAX_DEVICES];
};

/* Block b of rank `self` at `phase` of the call with `flag`: it tells block b of every other rank, then waits until
 * block b of every other rank has told it. A partner cannot be a call ahead: it would first have to meet this block
 * at the phase after. 1, or 0 where a wait gave up (the C API traps instead). Every thread of the block calls it. */
__device__ __forceinline__ int ar_meet(const ar_meet_ws &bar, int P, int self, int phase, unsigned flag,
                                      unsigned long long t0, int trap)
{
    int ok = 1;
    const int q = (int)threadIdx.x;
    __syncthreads(); /* every thread's stores (and their fences) before any of its partners is told */
    if (q < P && q != self) {
        const size_t slot = ((size_t)phase * P + (size_t)self) * CLIMB_ALLREDUCE_MEET_BLOCKS + blockIdx.x;
        *(volatile unsigned *)(bar.p[q] + slot) = flag;
        const volatile unsigned *mine =
            bar.p[self] + ((size_t)phase * P + (size_t)q) * CLIMB_ALLREDUCE_MEET_BLOCKS + blockIdx.x;
        while (*mine != flag)
            if (ar_globaltimer() - t0 > AR_FLAG_TIMEOUT_NS) {
                if (trap)
                    __trap();
                ok = 0;
                break;
            }
    }
    return !__syncthreads_or(!ok);
}

/* The two shots in one kernel: rank self sums its chunk [off, off + len) from every rank's input by loads over
 * NVLink (in rank order: the same bits on every GPU) and stores each sum straight into every rank's output, its own
 * last. Its blocks meet their partners on the other GPUs before (every input written, every output free) and after
 * (every sum landed), so a call needs no step between the GPUs' streams, and no barrier between the shots: a rank
 * writes only its own chunk of each output, which no other rank reads (in place too). Elements [off + head,
 * off + head + 4 x n4) as 16-byte vectors (climb_vec4_split), the rest one by one. */
template <typename T>
__global__ void __launch_bounds__(AR_FLAG_BLOCK, 4) /* four blocks an SM resident: climb_allreduce_meet_blocks */
    ar_two_shot_fused_kernel(climb_gpuset_ptrs<T> in, ar_ptrs<T> out, ar_meet_ws bar, ar_flag_ctl *ctl, int P,
                             int self, size_t off, size_t len, size_t head, size_t n4, int trap)
{
    typedef typename climb_vec16<T>::type V;
    __shared__ unsigned s_flag;
    if (threadIdx.x == 0)
        s_flag = climb_flag_of(*(volatile unsigned *)&ctl->epoch);
    __syncthreads();
    const unsigned flag = s_flag;
    const unsigned long long t0 = ar_globaltimer();
    int ok = ar_meet(bar, P, self, 0, flag, t0, trap);
    if (ok) {
        const size_t step = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        const size_t at = off + head;
        for (size_t i = first; i < n4; i += step) {
            const V s = climb_gpuset_sum_at<V>(in, P, at, i);
            for (int k = 1; k <= P; k++) /* the others first, from the next rank on; its own last */
                ((V *)(out.p[(self + k) % P] + at))[i] = s;
        }
        const size_t rest = len - 4 * n4;
        for (size_t k = first; k < rest; k += step) {
            const size_t i = off + (k < head ? k : k + 4 * n4);
            const T s = climb_gpuset_sum_at<T>(in, P, 0, i);
            for (int j = 1; j <= P; j++)
                out.p[(self + j) % P][i] = s;
        }
        __threadfence_system(); /* every store landed before the block says so */
        ok = ar_meet(bar, P, self, 1, flag, t0, trap);
    }
    if (threadIdx.x == 0) {
        if (!ok)
            atomicExch(&ctl->failed, 1u);
        __threadfence();
        if (atomicAdd(&ctl->done, 1u) == gridDim.x - 1) { /* the last block: every block has read the epoch */
            ctl->done = 0;
            *(volatile unsigned *)&ctl->epoch = flag;
            __threadfence();
        }
    }
}

/* The sums over ranks (the one-shot and two-shot rungs, the gathering rung's local sum) are
 * climb_gpuset_sum_kernel: every GPU that sums the same elements in rank order gets the same bits. */

/* The two-shot rung's second shot: the rank's finished elements [off, off + n) stored into every other rank's
 * output over the link; [off + head, off + head + 4 x n4) as 16-byte vectors (climb_vec4_split), the rest one by
 * one. */
template <typename T>
__global__ void __launch_bounds__(256) ar_scatter_kernel(ar_ptrs<T> dst, int P, int self, const T *__restrict__ src,
                                                         size_t off, size_t n, size_t head, size_t n4)
{
    typedef typename climb_vec16<T>::type V;
    const size_t step = (size_t)gridDim.x * blockDim.x, first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t at = off + head;
    for (size_t i = first; i < n4; i += step) {
        const V v = ((const V *)(src + at))[i];
        for (int r = 0; r < P; r++)
            if (r != self)
                ((V *)(dst.p[r] + at))[i] = v;
    }
    const size_t rest = n - 4 * n4;
    for (size_t k = first; k < rest; k += step) {
        const size_t i = off + (k < head ? k : k + 4 * n4);
        const T v = src[i];
        for (int r = 0; r < P; r++)
            if (r != self)
                dst.p[r][i] = v;
    }
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    climb_gpuset g;                   /* the case's GPUs (ranks), a stream and an event each, NCCL's communicator */
    size_t n, es;                     /* elements an array, bytes an element */
    void *h_in;                       /* P arrays, rank after rank (host), from the seed */
    void *h_out;                      /* a download to check */
    double *ref, *mag;                /* the sum in double and the sum of magnitudes (f32's tolerance) */
    void *in[CLIMB_MAX_DEVICES], *out[CLIMB_MAX_DEVICES], *scratch[CLIMB_MAX_DEVICES]; /* on rank r's GPU */
    void *pinned;                     /* through_host: P arrays */
    int flags_below, one_shot_below;  /* the best rung's crossovers, bytes an array (tuned; AR_FLAGS_BELOW and
                                         AR_ONE_SHOT_BELOW built in) */
    void *lines[CLIMB_MAX_DEVICES];   /* the flag rung's workspace on rank r's GPU: 2 x P x n 8-byte lines */
    void *ctl[CLIMB_MAX_DEVICES];     /* its state on rank r's GPU (ar_flag_ctl), zero at the start */
    void *bar[CLIMB_MAX_DEVICES];     /* the fused two shots' meeting points on rank r's GPU (ar_meet_ws), zero */
};

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

static char *at(void *base, size_t elem, size_t es) { return (char *)base + elem * es; }
static int barrier(climb_case *c) { return climb_gpuset_barrier(&c->g); }

template <typename T> static int add_on(climb_case *c, int r, size_t off, size_t len)
{
    if (!len || !climb_gpuset_mine(&c->g, r))
        return 0;
    ON(c->g.x.devices[r]);
    ar_add_kernel<T><<<climb_gpuset_blocks(len, c->g.x.sms[r]), 256, 0, c->g.x.st[r]>>>((T *)c->out[r] + off,
                                                                         (const T *)c->scratch[r] + off, len);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

/* A copy of elements [off, off + len) from rank a's buffer to rank b's, on a's stream (a copy engine; over the link
 * where peer access is on). */
static int copy_elems(climb_case *c, int a, const void *src, int b, void *dst, size_t off, size_t len)
{
    return climb_gpuset_copy(&c->g, a, at((void *)src, off, c->es), b, at(dst, off, c->es), len * c->es);
}

/* The elements of chunks [lo, hi) of the case's P chunks. */
static void chunk_range(const climb_case *c, int lo, int hi, size_t *off, size_t *len)
{
    size_t o, l, e, m;
    climb_chunk_of(c->n, c->g.x.P, lo, &o, &l);
    climb_chunk_of(c->n, c->g.x.P, hi - 1, &e, &m);
    *off = o;
    *len = e + m - o;
}

/* ---------------------------------------------------------------- the rungs' runs */

typedef int (*ar_run_fn)(climb_case *c);

/* through_host: every array down into page-locked host memory, the sum on the CPU in rank order, and up again to
 * every GPU. With one process a GPU, each process's array reaches the others' host memory through the launcher's
 * all-gather (MPI's) between the two copies. */
template <typename T> static int run_host(climb_case *c)
{
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpyAsync(at(c->pinned, (size_t)r * c->n, c->es), c->in[r], c->n * c->es,
                                    cudaMemcpyDeviceToHost, c->g.x.st[r]));
    }
    for (int r = c->g.x.lo; r < c->g.x.hi; r++)
        CLIMB_CHECK(cudaStreamSynchronize(c->g.x.st[r]));
    if (climb_gpuset_host_allgather(&c->g, at(c->pinned, (size_t)c->g.x.lo * c->n, c->es), c->pinned,
                                    c->n * c->es) != 0)
        return -1;
    T *sum = (T *)c->pinned; /* rank 0's array becomes the sum */
    for (int r = 1; r < c->g.x.P; r++) {
        const T *x = (const T *)c->pinned + (size_t)r * c->n;
        for (size_t i = 0; i < c->n; i++)
            sum[i] += x[i];
    }
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpyAsync(c->out[r], sum, c->n * c->es, cudaMemcpyHostToDevice, c->g.x.st[r]));
    }
    return 0;
}

/* gather_broadcast: rank 0 pulls every other array into its scratch space (one array a rank, after its own),
 * sums them in one pass, and copies the sum out to every other rank. */
template <typename T> static int run_gather(climb_case *c)
{
    /* the others' arrays land in rank 0's scratch, which holds P - 1 arrays */
    climb_gpuset_ptrs<T> src;
    src.p[0] = (const T *)c->in[0];
    for (int r = 1; r < c->g.x.P; r++) {
        void *slot = at(c->scratch[0], (size_t)(r - 1) * c->n, c->es);
        src.p[r] = (const T *)slot;
        if (copy_elems(c, r, c->in[r], 0, slot, 0, c->n))
            return -1;
    }
    if (barrier(c) || climb_gpuset_sum<T>(&c->g, 0, (T *)c->out[0], src, c->n) || barrier(c))
        return -1;
    for (int r = 1; r < c->g.x.P; r++)
        if (copy_elems(c, 0, c->out[0], r, c->out[r], 0, c->n))
            return -1;
    return 0;
}

/* Every rank's output starts as its own input (the tree and the ring add into it). */
static int start_outputs(climb_case *c)
{
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpyAsync(c->out[r], c->in[r], c->n * c->es, cudaMemcpyDeviceToDevice, c->g.x.st[r]));
    }
    return 0;
}

/* tree: recursive halving (each step a peer copy of half of what a rank still holds into its partner's scratch,
 * then an add) and doubling back (each step a peer copy of the finished part into the partner's output). */
template <typename T> static int run_tree(climb_case *c)
{
    const int lg = climb_log2_exact(c->g.x.P);
    if (start_outputs(c) || barrier(c))
        return -1;
    for (int phase = CLIMB_REDUCE_SCATTER; phase <= CLIMB_ALL_GATHER; phase++)
        for (int s = 0; s < lg; s++) {
            for (int r = 0; r < c->g.x.P; r++) {
                climb_halving_step h;
                if (climb_halving(c->g.x.P, r, phase, s, &h) != 0)
                    return -1;
                size_t off, len;
                chunk_range(c, h.send_lo, h.send_hi, &off, &len);
                if (copy_elems(c, r, c->out[r], h.partner, phase == CLIMB_REDUCE_SCATTER ? c->scratch[h.partner]
                                                                                          : c->out[h.partner],
                               off, len))
                    return -1;
            }
            if (barrier(c))
                return -1;
            for (int r = 0; phase == CLIMB_REDUCE_SCATTER && r < c->g.x.P; r++) {
                climb_halving_step h;
                climb_halving(c->g.x.P, r, phase, s, &h);
                size_t off, len;
                chunk_range(c, h.recv_lo, h.recv_hi, &off, &len);
                if (add_on<T>(c, r, off, len))
                    return -1;
            }
            if (phase == CLIMB_REDUCE_SCATTER && barrier(c))
                return -1;
        }
    return 0;
}

/* ring: P - 1 reduce-scatter steps (a chunk to the next rank's scratch, added there), then P - 1 all-gather steps
 * (a finished chunk into the next rank's output); each step a peer copy by a copy engine on every rank at once. */
template <typename T> static int run_ring(climb_case *c)
{
    if (start_outputs(c) || barrier(c))
        return -1;
    for (int phase = CLIMB_REDUCE_SCATTER; phase <= CLIMB_ALL_GATHER; phase++)
        for (int s = 0; s < c->g.x.P - 1; s++) {
            for (int r = 0; r < c->g.x.P; r++) {
                const int next = (r + 1) % c->g.x.P;
                size_t off, len;
                climb_chunk_of(c->n, c->g.x.P, climb_ring_send(c->g.x.P, r, phase, s), &off, &len);
                if (copy_elems(c, r, c->out[r], next, phase == CLIMB_REDUCE_SCATTER ? c->scratch[next] : c->out[next],
                               off, len))
                    return -1;
            }
            if (barrier(c))
                return -1;
            for (int r = 0; phase == CLIMB_REDUCE_SCATTER && r < c->g.x.P; r++) {
                size_t off, len;
                climb_chunk_of(c->n, c->g.x.P, climb_ring_recv(c->g.x.P, r, phase, s), &off, &len);
                if (add_on<T>(c, r, off, len))
                    return -1;
            }
            if (phase == CLIMB_REDUCE_SCATTER && barrier(c))
                return -1;
        }
    return 0;
}

/* ---- the kernel schedules over peer access, for the rungs and the C API (climb_coll_exec) ---- */

/* out[r][off, off + len) = the sum over every rank's in, on rank r's GPU and stream. */
template <typename T>
static cudaError_t x_sum(const climb_coll_exec *x, int r, void *const *in, void *const *out, size_t off,
                         size_t len)
{
    if (!len || !climb_coll_mine(x, r))
        return cudaSuccess;
    climb_gpuset_ptrs<T> src;
    for (int q = 0; q < x->P; q++)
        src.p[q] = (const T *)in[q] + off;
    cudaError_t e = cudaSetDevice(x->devices[r]);
    if (e != cudaSuccess)
        return e;
    return climb_gpuset_sum_launch<T>((T *)out[r] + off, src, x->P, len, x->sms[r], x->st[r]);
}

/* one shot: every rank reads every rank's array over the link and sums all of it itself: one pass, no step
 * between ranks, P times the reads. Not in place: a rank's output is another's input. */
template <typename T>
static cudaError_t x_one_shot(const climb_coll_exec *x, void *const *in, void *const *out, size_t n)
{
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < x->P && e == cudaSuccess; r++)
        e = x_sum<T>(x, r, in, out, 0, n);
    return e;
}

/* two shots: rank r sums its own chunk from every rank's array (reduce-scatter by loads), then, after one
 * barrier, stores that chunk into every other rank's output (all-gather by stores). In place too: in the first
 * shot a rank writes only its own chunk, which no other rank reads, and the second starts after every read. */
template <typename T>
static cudaError_t x_two_shot(const climb_coll_exec *x, void *const *in, void *const *out, size_t n)
{
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < x->P && e == cudaSuccess; r++) {
        size_t off, len;
        climb_chunk_of(n, x->P, r, &off, &len);
        e = x_sum<T>(x, r, in, out, off, len);
    }
    if (e == cudaSuccess)
        e = climb_coll_barrier(x);
    ar_ptrs<T> dst;
    for (int q = 0; q < x->P; q++)
        dst.p[q] = (T *)out[q];
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        size_t off, len;
        climb_chunk_of(n, x->P, r, &off, &len);
        if (!len)
            continue;
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        const void *ptrs[CLIMB_MAX_DEVICES] = {0};
        for (int q = 0; q < x->P; q++)
            ptrs[q] = (const T *)out[q] + off;
        size_t head, n4;
        climb_vec4_split(ptrs, x->P, len, &head, &n4);
        ar_scatter_kernel<T><<<climb_gpuset_blocks(n4 + (len - 4 * n4), x->sms[r]), 256, 0, x->st[r]>>>(
            dst, x->P, r, (const T *)out[r], off, len, head, n4);
        e = cudaGetLastError();
    }
    return e;
}

/* The flag kernel on every rank's stream, nothing between the ranks; fl holds at least n elements. A call of no
 * elements launches nothing: it would wait for nobody, and a GPU could then run two calls ahead of a partner. */
template <typename T>
static cudaError_t x_flags(const climb_coll_exec *x, void *const *in, void *const *out, size_t n,
                           const climb_allreduce_flags *fl, int trap)
{
    if (!n)
        return cudaSuccess;
    ar_flag_ws ws;
    for (int q = 0; q < x->P; q++)
        ws.p[q] = (unsigned long long *)fl->lines[q];
    const size_t blocks = (n + AR_FLAG_BLOCK - 1) / AR_FLAG_BLOCK;
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        const unsigned grid = (unsigned)(blocks < (size_t)x->sms[r] ? blocks : (size_t)x->sms[r]);
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        ar_flag_kernel<T><<<grid, AR_FLAG_BLOCK, 0, x->st[r]>>>((const T *)in[r], (T *)out[r], ws,
                                                                (ar_flag_ctl *)fl->state[r], x->P, r, n, fl->cap,
                                                                trap);
        e = cudaGetLastError();
    }
    return e;
}

extern "C" int climb_allreduce_meet_blocks(size_t n, int P, int min_sms)
{
    size_t off, len;
    climb_chunk_of(n, P > 0 ? P : 1, 0, &off, &len); /* chunk 0 is the largest */
    size_t b = (len + 1023) / 1024;
    if (b > 4 * (size_t)(min_sms > 0 ? min_sms : 0))
        b = 4 * (size_t)(min_sms > 0 ? min_sms : 0);
    if (b > CLIMB_ALLREDUCE_MEET_BLOCKS)
        b = CLIMB_ALLREDUCE_MEET_BLOCKS;
    return b < 1 ? 1 : (int)b;
}

/* The fused two shots on every rank's stream, nothing between the ranks: bar and state, every rank's meeting points
 * and flag state (zero before the first call, kept from call to call). A call of no elements launches nothing. */
template <typename T>
static cudaError_t x_two_shot_fused(const climb_coll_exec *x, void *const *in, void *const *out, size_t n,
                                    void *const *bar, void *const *state, int trap)
{
    if (!n)
        return cudaSuccess;
    climb_gpuset_ptrs<T> src;
    ar_ptrs<T> dst;
    ar_meet_ws ws;
    int min_sms = x->sms[0];
    for (int q = 0; q < x->P; q++) {
        src.p[q] = (const T *)in[q];
        dst.p[q] = (T *)out[q];
        ws.p[q] = (unsigned *)bar[q];
        if (x->sms[q] < min_sms)
            min_sms = x->sms[q];
    }
    const unsigned grid = (unsigned)climb_allreduce_meet_blocks(n, x->P, min_sms > 0 ? min_sms : 1);
    cudaError_t e = cudaSuccess;
    for (int r = x->lo; r < x->hi && e == cudaSuccess; r++) {
        size_t off, len;
        climb_chunk_of(n, x->P, r, &off, &len);
        const void *ptrs[2 * CLIMB_MAX_DEVICES] = {0};
        for (int q = 0; q < x->P; q++) {
            ptrs[2 * q] = (const T *)in[q] + off;
            ptrs[2 * q + 1] = (const T *)out[q] + off;
        }
        size_t head, n4;
        climb_vec4_split(ptrs, 2 * x->P, len, &head, &n4);
        if ((e = cudaSetDevice(x->devices[r])) != cudaSuccess)
            break;
        ar_two_shot_fused_kernel<T><<<grid, AR_FLAG_BLOCK, 0, x->st[r]>>>(src, dst, ws, (ar_flag_ctl *)state[r],
                                                                         x->P, r, off, len, head, n4, trap);
        e = cudaGetLastError();
    }
    return e;
}

static int ar_in_place(const climb_coll_exec *x, void *const *in, void *const *out)
{
    int in_place = 1;
    for (int r = 0; r < x->P; r++)
        in_place &= in[r] == out[r];
    return in_place;
}

/* The best rung's schedule with crossovers flags_below and one_shot_below (bytes an array); without a flag
 * workspace that holds n elements, never the flags; without meeting points, never the fused two shots. */
template <typename T>
static cudaError_t x_best(const climb_coll_exec *x, void *const *in, void *const *out, size_t n,
                          const climb_allreduce_flags *fl, size_t flags_below, size_t one_shot_below, int trap)
{
    if (!fl || n > fl->cap)
        flags_below = 0;
    switch (ar_way(n * sizeof(T), flags_below, one_shot_below, ar_in_place(x, in, out), fl && fl->meet[0])) {
    case CLIMB_ALLREDUCE_FLAGS:
        return x_flags<T>(x, in, out, n, fl, trap);
    case CLIMB_ALLREDUCE_ONE_SHOT:
        return x_one_shot<T>(x, in, out, n);
    case CLIMB_ALLREDUCE_FUSED:
        return x_two_shot_fused<T>(x, in, out, n, fl->meet, fl->state, trap);
    default:
        return x_two_shot<T>(x, in, out, n);
    }
}

extern "C" cudaError_t climb_allreduce_sum_async(const climb_coll_exec *x, climb_dtype t, void *const *in,
                                                 void *const *out, size_t n, const climb_allreduce_flags *fl)
{
    return t == CLIMB_I32 ? x_best<int32_t>(x, in, out, n, fl, AR_FLAGS_BELOW, AR_ONE_SHOT_BELOW, 1)
                          : x_best<float>(x, in, out, n, fl, AR_FLAGS_BELOW, AR_ONE_SHOT_BELOW, 1);
}

template <typename T> static int run_one_shot(climb_case *c)
{
    CLIMB_CHECK(x_one_shot<T>(&c->g.x, c->in, c->out, c->n));
    return 0;
}

template <typename T> static int run_two_shot(climb_case *c)
{
    CLIMB_CHECK(x_two_shot<T>(&c->g.x, c->in, c->out, c->n));
    return 0;
}

/* two_shot_fused: the fused kernel on every rank's stream, nothing between the ranks; its flag state shared with
 * the flag rung (each call of either moves it on). */
template <typename T> static int run_two_shot_fused(climb_case *c)
{
    CLIMB_CHECK(x_two_shot_fused<T>(&c->g.x, c->in, c->out, c->n, c->bar, c->ctl, 0));
    return 0;
}

/* The case's flag workspace as the schedules take it. */
static climb_allreduce_flags ar_flags_of(const climb_case *c)
{
    climb_allreduce_flags fl;
    memset(&fl, 0, sizeof fl);
    for (int q = 0; q < c->g.x.P; q++) {
        fl.lines[q] = c->lines[q];
        fl.state[q] = c->ctl[q];
        fl.meet[q] = c->bar[q];
    }
    fl.cap = c->n * c->es <= AR_FLAG_MAX_BYTES ? c->n : 0;
    return fl;
}

/* 1 where the best rung takes a kernel whose GPUs meet inside it for this case (with its tuned crossovers): the
 * flags or the fused two shots. */
static int ar_best_meets(const climb_case *c)
{
    if (c->n == 0)
        return 0;
    const climb_allreduce_way w =
        ar_way(c->n * c->es, (size_t)c->flags_below, (size_t)c->one_shot_below, c->in[0] == c->out[0], 1);
    return w == CLIMB_ALLREDUCE_FLAGS || w == CLIMB_ALLREDUCE_FUSED;
}

/* best: the flag kernel below flags_below bytes an array, one shot below one_shot_below, the fused two shots below
 * AR_FUSED_BELOW, two shots from there (climb_allreduce_sum_async, as the C API's climb_comm_allreduce_sum, with the
 * tuned crossovers). */
template <typename T> static int run_best(climb_case *c)
{
    const climb_allreduce_flags fl = ar_flags_of(c);
    CLIMB_CHECK(x_best<T>(&c->g.x, c->in, c->out, c->n, &fl, (size_t)c->flags_below, (size_t)c->one_shot_below, 0));
    return 0;
}

/* one_shot_flags: the flag kernel on every rank's stream, nothing between the ranks. */
template <typename T> static int run_flags(climb_case *c)
{
    const climb_allreduce_flags fl = ar_flags_of(c);
    CLIMB_CHECK(x_flags<T>(&c->g.x, c->in, c->out, c->n, &fl, 0));
    return 0;
}

/* vendor: ncclAllReduce on a communicator of the case's GPUs, one call a rank in one group. */
static int run_nccl(climb_case *c)
{
    return climb_gpuset_nccl(&c->g, CLIMB_COLL_ALL_REDUCE, c->p.type, c->in, c->out, c->n, "allreduce");
}

/* Each rung's run for i32 and f32. */
#define AR_RUN(fn) {fn<int32_t>, fn<float>}

static const char *refuses_no_access(const climb_case *c) { return climb_gpuset_no_access(&c->g); }

static const char *refuses_flags(const climb_case *c)
{
    if (c->n * c->es > AR_FLAG_MAX_BYTES)
        return "arrays up to 1 MiB a GPU: its workspace holds 2 x P arrays of 8-byte lines a GPU";
    return refuses_no_access(c);
}

static const char *refuses_tree(const climb_case *c)
{
    return climb_log2_exact(c->g.x.P) < 0 ? "recursive halving and doubling takes a power-of-two number of GPUs" : NULL;
}

static const char *refuses_without_nccl(const climb_case *c) { return (void)c, climb_nccl_refusal(); }

static int k_copy_engines(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return climb_kernel_at(out, max, 0, (const void *)ar_add_kernel<float>, 256, 0, "ar_add_kernel<float>");
}

static int k_sum(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return t == CLIMB_I32 ? climb_one_kernel(out, max, (const void *)climb_gpuset_sum_kernel<int32_t>,
                                             "climb_gpuset_sum_kernel<int32_t>", 256, 0)
                          : climb_one_kernel(out, max, (const void *)climb_gpuset_sum_kernel<float>,
                                             "climb_gpuset_sum_kernel<float>", 256, 0);
}

static int k_flags(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return t == CLIMB_I32 ? climb_one_kernel(out, max, (const void *)ar_flag_kernel<int32_t>,
                                             "ar_flag_kernel<int32_t>", AR_FLAG_BLOCK, 0)
                          : climb_one_kernel(out, max, (const void *)ar_flag_kernel<float>, "ar_flag_kernel<float>",
                                             AR_FLAG_BLOCK, 0);
}

static int k_two_shot(climb_dtype t, const climb_device_info *d, const int *v, climb_kernel_desc *out, int max)
{
    int n = k_sum(t, d, v, out, max);
    return t == CLIMB_I32 ? climb_kernel_at(out, max, n, (const void *)ar_scatter_kernel<int32_t>, 256, 0,
                                            "ar_scatter_kernel<int32_t>")
                          : climb_kernel_at(out, max, n, (const void *)ar_scatter_kernel<float>, 256, 0,
                                            "ar_scatter_kernel<float>");
}

static int k_two_shot_fused(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return t == CLIMB_I32 ? climb_one_kernel(out, max, (const void *)ar_two_shot_fused_kernel<int32_t>,
                                             "ar_two_shot_fused_kernel<int32_t>", AR_FLAG_BLOCK, 0)
                          : climb_one_kernel(out, max, (const void *)ar_two_shot_fused_kernel<float>,
                                             "ar_two_shot_fused_kernel<float>", AR_FLAG_BLOCK, 0);
}

static int k_best(climb_dtype t, const climb_device_info *d, const int *v, climb_kernel_desc *out, int max)
{
    const int n = k_two_shot(t, d, v, out, max);
    return t == CLIMB_I32 ? climb_kernel_at(out, max, n, (const void *)ar_flag_kernel<int32_t>, AR_FLAG_BLOCK, 0,
                                            "ar_flag_kernel<int32_t>")
                          : climb_kernel_at(out, max, n, (const void *)ar_flag_kernel<float>, AR_FLAG_BLOCK, 0,
                                            "ar_flag_kernel<float>");
}

typedef struct ar_rung {
    climb_rung_info info;
    ar_run_fn run[2];  /* i32, f32 */
    int access;        /* 1: peer access on among all pairs (prepare) */
    int nccl, pinned;  /* its communicator, its host buffers (prepare) */
    int ordered;       /* 1: its GPUs meet inside it (NCCL, the flags): runs follow each other with nothing between */
} ar_rung;

static const ar_rung AR_RUNGS[] = {
    {.info = {.name = "nccl_all_reduce", .idea = "vendor: ncclAllReduce on a communicator of the case's GPUs, one "
                                                 "call a GPU in one group",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_without_nccl},
     .run = {run_nccl, run_nccl}, .nccl = 1, .ordered = 1},
    {.info = {.name = "through_host", .idea = "the way without GPUDirect: every array down to the host, summed by "
                                              "the CPU, the sum up to every GPU",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels, .host_part = 1},
     .run = AR_RUN(run_host), .pinned = 1},
    {.info = {.name = "gather_broadcast", .idea = "GPU 0 pulls every array by peer copies, sums them in one pass and "
                                                  "copies the sum back out: one GPU does all the work",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sum},
     .run = AR_RUN(run_gather), .access = 1},
    {.info = {.name = "tree", .idea = "recursive halving and doubling: log2 P steps each way, every GPU busy, half "
                                      "of what it holds crossing a link each step",
              .needs = "a power-of-two number of GPUs", .kind = CLIMB_RUNG_LADDER, .kernels = k_copy_engines,
              .refuses = refuses_tree},
     .run = AR_RUN(run_tree), .access = 1},
    {.info = {.name = "ring", .idea = "the ring: P - 1 reduce-scatter and P - 1 all-gather steps of one chunk a "
                                      "GPU, every link busy every step (bandwidth-optimal)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_copy_engines},
     .run = AR_RUN(run_ring), .access = 1},
    {.info = {.name = "one_shot", .idea = "every GPU loads every array over NVLink and sums all of it: one pass, no "
                                          "step between GPUs",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_sum,
              .refuses = refuses_no_access},
     .run = AR_RUN(run_one_shot), .access = 1},
    {.info = {.name = "one_shot_flags", .idea = "one shot whose GPUs meet inside the kernel: each stores its array "
                                                "into the others' memory as lines that carry the call's flag, and "
                                                "sums what arrives; no step between GPUs before or after a call",
              .needs = "peer access between every pair; arrays up to 1 MiB", .kind = CLIMB_RUNG_LADDER,
              .kernels = k_flags, .refuses = refuses_flags},
     .run = AR_RUN(run_flags), .access = 1, .ordered = 1},
    {.info = {.name = "two_shot", .idea = "each GPU sums its own chunk from every array by loads, then stores it "
                                          "into every other GPU: each byte crosses a link twice, one barrier",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_two_shot,
              .refuses = refuses_no_access},
     .run = AR_RUN(run_two_shot), .access = 1},
    {.info = {.name = "two_shot_fused", .idea = "the two shots in one kernel: each GPU sums its chunk by loads and "
                                                "stores each sum straight into every GPU's output; its blocks meet "
                                                "their partners on the other GPUs before and after (flags in each "
                                                "other's memory): no step between the GPUs' streams, none between "
                                                "the shots",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_LADDER, .kernels = k_two_shot_fused,
              .refuses = refuses_no_access},
     .run = AR_RUN(run_two_shot_fused), .access = 1, .ordered = 1},
    {.info = {.name = "allreduce_best", .idea = "the flag kernel for small arrays, then one shot, then the fused two "
                                                "shots, then two shots with a step between (tuned crossovers)",
              .needs = "peer access between every pair", .kind = CLIMB_RUNG_BEST, .kernels = k_best,
              .refuses = refuses_no_access},
     .run = AR_RUN(run_best), .access = 1},
};
#define AR_N_RUNGS CLIMB_COUNT(AR_RUNGS)

static const climb_rung_info *ar_rung_info(int i) { return &AR_RUNGS[i].info; }

/* ---------------------------------------------------------------- tuning (experiment mode) */

/* The best rung's two tunables: the array size below which it sums with the flag kernel, and below which (from
 * there) in one shot. `climb tune allreduce` times the best rung over its tune sizes (4 KiB to 16 MiB) with each
 * pair and keeps the one of least geometric-mean time relative to each size's fastest: the crossovers measured on
 * the machine's GPUs and links. The pairs: every flag crossover with every one-shot crossover at or above it (one
 * below it would leave one shot nothing: the same schedule as another pair). */
static const int AR_FLAG_CROSSOVERS[] = {0, 65536, 262144, 1048576};
static const int AR_CROSSOVERS[] = {65536, 262144, 1048576, 4194304};
static const int AR_CANDIDATES[] = {
    0,      65536,  0,       262144, 0,       1048576, 0,       4194304, 65536,   65536,   65536,   262144, 65536,
    1048576, 65536, 4194304, 262144, 262144, 262144, 1048576, 262144, 4194304, 1048576, 1048576, 1048576, 4194304,
};
static const climb_tunable AR_TUNABLES[] = {
    {.name = "flags_below", .meaning = "bytes an array below which the sum takes the flag kernel (0: never)",
     .values = AR_FLAG_CROSSOVERS, .n_values = CLIMB_COUNT(AR_FLAG_CROSSOVERS)},
    {.name = "one_shot_below", .meaning = "bytes an array below which (from there) the sum takes one shot",
     .values = AR_CROSSOVERS, .n_values = CLIMB_COUNT(AR_CROSSOVERS)},
};

static const int AR_BUILTIN[] = {(int)AR_FLAGS_BELOW, (int)AR_ONE_SHOT_BELOW};
static const climb_tuning AR_TUNING = {
    .params = AR_TUNABLES,
    .n_params = CLIMB_COUNT(AR_TUNABLES),
    .candidates = AR_CANDIDATES,
    .n_candidates = CLIMB_COUNT(AR_CANDIDATES) / 2,
    .builtin = AR_BUILTIN,
    .builtin_why = "built-in: the flags below 1 MiB, one shot below 4 MiB, two shots from there, as climb tune chose "
                   "on four H200s at fe4bf87 (climb tune allreduce measures them here)",
};

static void ar_set_tuning(climb_case *c, const int *v)
{
    c->flags_below = v[0];
    c->one_shot_below = v[1];
}

/* ---------------------------------------------------------------- harness glue */

static void ar_fini(climb_case *c)
{
    climb_gpuset_fini(&c->g);
    cudaFreeHost(c->pinned);
    free(c->ref);
    free(c->mag);
}

/* Every rank's arrays on its GPU (the scratch of rank 0 holds P - 1 arrays for the gathering rung), a stream and
 * an event each; which pairs reach each other's memory. */
static int ar_init(climb_case *c)
{
    c->n = c->p.shape.d[0];
    c->es = climb_dtype_size(c->p.type);
    c->flags_below = (int)AR_FLAGS_BELOW; /* until the harness sets the tuned values */
    c->one_shot_below = (int)AR_ONE_SHOT_BELOW;
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    c->ref = (double *)malloc(sizeof(double) * (c->n + 1));
    c->mag = (double *)malloc(sizeof(double) * (c->n + 1));
    if (!c->ref || !c->mag)
        return climb_host_oom("the CPU sum (%zu elements)", c->n);
    const size_t bytes = (c->n ? c->n : 1) * c->es;
    const size_t gathered = c->g.x.P > 2 ? bytes * (size_t)(c->g.x.P - 1) : bytes;
    if (climb_gpuset_alloc(&c->g, c->in, bytes, bytes, "a GPU's array") ||
        climb_gpuset_alloc(&c->g, c->out, bytes, bytes, "a GPU's sum") ||
        climb_gpuset_alloc(&c->g, c->scratch, bytes, gathered, "a GPU's scratch space"))
        return -1;
    /* the flag rung's lines and state, zero (no flag) at the start, where it takes the case */
    const size_t lines = c->n * c->es <= AR_FLAG_MAX_BYTES ? climb_flag_lines_bytes(c->g.x.P, c->n) : 8;
    const size_t meet = climb_allreduce_meet_bytes(c->g.x.P);
    if (climb_gpuset_alloc(&c->g, c->lines, lines, lines, "a GPU's flag lines") ||
        climb_gpuset_alloc(&c->g, c->ctl, sizeof(ar_flag_ctl), sizeof(ar_flag_ctl), "a GPU's flag state") ||
        climb_gpuset_alloc(&c->g, c->bar, meet, meet, "a GPU's meeting points"))
        return -1;
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemset(c->lines[r], 0, lines));
        CLIMB_CHECK(cudaMemset(c->ctl[r], 0, sizeof(ar_flag_ctl)));
        CLIMB_CHECK(cudaMemset(c->bar[r], 0, meet));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    ON(c->g.home);
    /* with one process a GPU, no rank's kernel may store into a workspace before its owner has cleared it */
    return c->g.x.procs ? climb_procs_check(c->g.x.procs, c->g.x.procs->barrier(c->g.x.procs->ctx), "a step") : 0;
}

/* i32: [-2^20, 2^20] (sums of 64 ranks stay exact and far from wrapping; the check is exact); f32: [-1, 1). Each
 * rank's array on its GPU; the CPU sum in double now. */
static int ar_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    const size_t total = c->n * (size_t)c->g.x.P;
    if (c->p.type == CLIMB_I32)
        climb_rng_fill_i32(&rng, (int32_t *)c->h_in, total, -(1 << 20), 1 << 20);
    else
        climb_rng_fill_f32(&rng, (float *)c->h_in, total, -1.0f, 1.0f);
    climb_gpuset_cpu_sums(c->h_in, c->p.type, c->g.x.P, c->n, c->ref, c->mag);
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpy(c->in[r], at(c->h_in, (size_t)r * c->n, c->es), c->n * c->es, cudaMemcpyHostToDevice));
    }
    ON(c->g.home);
    return 0;
}

static size_t in_bytes(const climb_case *c) { return (c->n ? c->n : 1) * c->es * (size_t)c->g.x.P; }
static size_t one_array(const climb_case *c) { return (c->n ? c->n : 1) * c->es; }

static const climb_buffer AR_BUFFERS[] = {
    {.name = "every GPU's array", .flags = CLIMB_BUF_HOST, .bytes = in_bytes, .host_at = offsetof(climb_case, h_in)},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = one_array,
     .host_at = offsetof(climb_case, h_out)},
};

static int ar_empty(const climb_case *c) { return c->n == 0; }

static const char *ar_describe(const climb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s on each of %d GPUs", c->p.type == CLIMB_I32 ? "integers in [-2^20, 2^20]"
                                                                             : "uniform in [-1, 1)", c->g.x.P);
    return buf;
}

static int ar_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)mode;
    snprintf(desc, desclen, "%s", c->p.type == CLIMB_I32 ? "the CPU sum over the GPUs, exact, on every GPU"
                                                         : "the CPU sum in double, within P x 2^-23 of the sum of "
                                                           "magnitudes, on every GPU; every GPU's sum the same bits");
    return 0;
}

/* The host's buffers, peer access among all pairs, NCCL's communicator; untimed. */
static int ar_prepare(climb_case *c, int rung)
{
    const ar_rung *r = &AR_RUNGS[rung];
    if (r->pinned && !c->pinned &&
        cudaHostAlloc(&c->pinned, (c->n ? c->n : 1) * c->es * (size_t)c->g.x.P, cudaHostAllocPortable) != cudaSuccess) {
        fprintf(stderr, "climb: allreduce: cannot page-lock %d arrays of %zu bytes: %s\n", c->g.x.P, c->n * c->es,
                cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    return climb_gpuset_prepare(&c->g, r->access, r->nccl, "allreduce");
}

static void ar_release(climb_case *c, int rung) { climb_gpuset_release(&c->g, AR_RUNGS[rung].nccl); }

/* Every rung but NCCL's and the host's reaches the other GPUs' memory. */
static const char *ar_refuses(const climb_case *c, int rung)
{
    return AR_RUNGS[rung].nccl || AR_RUNGS[rung].pinned ? NULL : climb_gpuset_other_nodes(&c->g);
}

/* Every rank's stream forked from s and joined back to it around reps runs of the rung's schedule: back to back
 * for a rung whose GPUs meet inside it, with a step between GPUs between runs for the others (the next run's
 * copies and loads wait for every GPU's part of the last). */
static int ar_run_batch(climb_case *c, int rung, cudaStream_t s, int reps)
{
    const ar_rung *r = &AR_RUNGS[rung];
    const int ordered = r->ordered || (r->info.kind == CLIMB_RUNG_BEST && ar_best_meets(c));
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    int rc = 0;
    for (int k = 0; k < reps && !rc; k++) {
        if (k > 0 && !ordered && barrier(c))
            rc = -1;
        if (!rc)
            rc = r->run[c->p.type == CLIMB_I32 ? 0 : 1](c);
    }
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, !r->nccl && !r->pinned && !ordered);
}

static int ar_run(climb_case *c, int rung, cudaStream_t s) { return ar_run_batch(c, rung, s, 1); }

static int ar_poison(climb_case *c)
{
    return climb_gpuset_poison(&c->g, c->out, c->n * c->es);
}

/* Every GPU's sum against the CPU's, every element; and every GPU's the same bits as GPU 0's (kept in ref's
 * place: the first GPU's download is compared exactly by the others). */
static int ar_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    void *first = malloc(c->n * c->es + 16);
    if (!first)
        return climb_host_oom("a GPU's sum (%zu bytes)", c->n * c->es);
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) {
        ON(c->g.x.devices[r]);
        if (cudaMemcpy(c->h_out, c->out[r], c->n * c->es, cudaMemcpyDeviceToHost) != cudaSuccess) {
            free(first);
            CLIMB_CHECK(cudaGetLastError());
        }
        for (size_t i = 0; i < c->n; i++) {
            if (c->p.type == CLIMB_I32)
                climb_compare_exact(&k, ((const int32_t *)c->h_out)[i], (long long)c->ref[i], "GPU %d's sum[%zu]",
                                    c->g.x.devices[r], i);
            else
                climb_compare_close(&k, ((const float *)c->h_out)[i], c->ref[i],
                                    c->g.x.P * 1.2e-7 * c->mag[i] + 1e-30, "GPU %d's sum[%zu]", c->g.x.devices[r], i);
        }
        if (r == c->g.x.lo)
            memcpy(first, c->h_out, c->n * c->es);
        else
            climb_compare_check(&k, memcmp(first, c->h_out, c->n * c->es) == 0,
                                "GPU %d's sum is not the same bits as GPU %d's", c->g.x.devices[r], c->g.x.devices[0]);
    }
    for (int r = c->g.x.lo; r < c->g.x.hi; r++) { /* the flag rung's waits: one that gave up says so */
        ar_flag_ctl ctl;
        ON(c->g.x.devices[r]);
        if (cudaMemcpy(&ctl, c->ctl[r], sizeof ctl, cudaMemcpyDeviceToHost) != cudaSuccess) {
            free(first);
            CLIMB_CHECK(cudaGetLastError());
        }
        climb_compare_check(&k, !ctl.failed, "GPU %d's flag kernel gave up waiting for another GPU's lines (%.0f s)",
                            c->g.x.devices[r], AR_FLAG_TIMEOUT_NS * 1e-9);
    }
    int differs = climb_gpuset_differs(&c->g, first, c->n * c->es);
    free(first);
    if (differs < 0)
        return -1;
    climb_compare_check(&k, !differs, "GPU %d's sum is not the same bits as GPU %d's", c->g.x.devices[differs],
                        c->g.x.devices[0]);
    ON(c->g.home);
    return climb_compare_end(&k);
}

/* nccl-tests' bus bytes: n x element size x 2(P-1)/P. */
static void ar_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->items = (double)c->n * (double)c->es * climb_busbw_factor(CLIMB_COLL_ALL_REDUCE, c->g.x.P);
    out->link_bytes = out->items; /* what each GPU sends, at the least, over its links */
}

/* 1 KiB to 1 GiB an array, by factors of 16 (elements of 4 bytes). */
static const climb_shape AR_BENCH_SHAPES[] = {CLIMB_SHAPE1(1u << 8),  CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 16),
                                              CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 24), CLIMB_SHAPE1(1u << 28)};
/* The sizes `climb tune` times the crossover's candidates over: 4 KiB to 16 MiB an array or piece (elements of 4
 * bytes), around every candidate. */
static const climb_shape AR_TUNE_SHAPES[] = {
    CLIMB_SHAPE1(1u << 10), CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 14), CLIMB_SHAPE1(1u << 16),
    CLIMB_SHAPE1(1u << 18), CLIMB_SHAPE1(1u << 20), CLIMB_SHAPE1(1u << 22)};
static const climb_shape AR_MAIN_SHAPES[] = {CLIMB_SHAPE1(1u << 12), CLIMB_SHAPE1(1u << 24)};
static const climb_shape AR_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),    CLIMB_SHAPE1(1),     CLIMB_SHAPE1(2),
                                              CLIMB_SHAPE1(3),    CLIMB_SHAPE1(7),     CLIMB_SHAPE1(1000),
                                              CLIMB_SHAPE1(4097), CLIMB_SHAPE1(65537), CLIMB_SHAPE1(1000003)};
static const climb_shape AR_QUICK_SHAPES[] = {CLIMB_SHAPE1(3), CLIMB_SHAPE1(65537)};

static const climb_sweep AR_SWEEPS[] = {
    {.name = "sizes", .title = "all-reduce: bus bandwidth against elements an array", .args = NULL, .x = "n",
     .log_x = 1},
};

extern "C" const climb_workload climb_allreduce_workload = {
    .name = "allreduce",
    .title = "All-reduce across GPUs: through the host, gather and broadcast, tree, ring, one and two shots over "
             "NVLink",
    .sources = "Pacheco, the CUDA trapezoidal rule (the GPU sum on the tree-structured global sum); Patarasuk and "
               "Yuan, the bandwidth-optimal all-reduce (the ring); Rabenseifner, recursive halving and doubling",
    CLIMB_COLLECTIVE_CASES,
    .processes = 1,
    .bytes_counted = "none in device memory; items are nccl-tests' bus bytes, n x element size x 2(P-1)/P",
    CLIMB_COLLECTIVE_RATE,
    .bench_shapes = AR_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(AR_BENCH_SHAPES),
    .check_shapes = AR_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(AR_CHECK_SHAPES),
    .quick_shapes = AR_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(AR_QUICK_SHAPES),
    .main_shapes = AR_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(AR_MAIN_SHAPES),
    .tune_shapes = AR_TUNE_SHAPES,
    .n_tune_shapes = CLIMB_COUNT(AR_TUNE_SHAPES),
    .check_max_offset = 0,
    .n_rungs = AR_N_RUNGS,
    .rung = ar_rung_info,
    .sweeps = AR_SWEEPS,
    .n_sweeps = CLIMB_COUNT(AR_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = AR_BUFFERS,
    .n_buffers = CLIMB_COUNT(AR_BUFFERS),
    .init = ar_init,
    .fill = ar_fill,
    .fini = ar_fini,
    .describe = ar_describe,
    .reference = ar_reference,
    .refuses = ar_refuses,
    .prepare = ar_prepare,
    .run = ar_run,
    .run_batch = ar_run_batch,
    .empty = ar_empty,
    .poison = ar_poison,
    .verify = ar_verify,
    .counts = ar_counts,
    .release = ar_release,
    .tuning = &AR_TUNING,
    .set_tuning = ar_set_tuning,
};
