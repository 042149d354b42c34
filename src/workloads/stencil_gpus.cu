/*
 * stencil_gpus.cu - the 7-point stencil of stencil.cu with its grid split along z over the case's GPUs: one slab a
 * GPU, held with a halo plane toward each neighbour (climb_slab_of, src/device/collective.h), `steps` time steps,
 * the halos refreshed after every step. The ladder: the whole grid on one GPU (the one-GPU best kernel: the row the
 * others are sped up from); halos through the host; halos by peer copies after each step; the slab's two edge planes
 * first and their copies under the interior's step; NCCL's send and receive for the halos beside them.
 *
 * Every rung steps with the one-GPU best kernel on ranges of planes (climb_stencil_best_range), so every rung's grid
 * is the same bits as the one-GPU step's: the check is exact where the reference is another rung's output.
 *
 * The split: `split=strong` takes the shape as the whole grid; `split=weak` as each GPU's share, the grid being
 * nx x ny x (nz x GPUs) (weak scaling: the work grows with the GPUs).
 *
 * Sources: Hwu, Kirk and El Hajj, Programming Massively Parallel Processors (the 7-point stencil); van Oosten,
 * Introduction to CUDA 5.0 (GPUDirect: transfers from one GPU to another without the host). See docs/stencil.md.
 *
 * Counted for the busiest GPU (the slab with the most planes): per step its slab read once and written once, its
 * halo planes sent over the links; items are the grid's point updates, nx ny nz a step.
 *
 * Order of this file: the case, the schedules, the registry table, the harness glue.
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
#include "common/stencil7.cuh"
#include "stencil.h"
#include "stencil_gpus.h"

/* ---------------------------------------------------------------- the case */

enum { SPLIT_STRONG = 0, SPLIT_WEAK = 1 };

struct climb_case {
    climb_case_params p;
    climb_gpuset g;
    size_t nx, ny, nz, sz, n;  /* the whole grid; sz = nx ny, a plane */
    int steps, split;
    float c[7];
    float *h_in;               /* the whole grid (host), from the seed */
    float *h_out;              /* a download to check: the largest slab, or the whole grid for one_gpu */
    double max_abs, tol;
    climb_ref_mode mode;
    double *ref_d;             /* CPU: the whole grid after the steps, in double */
    float *ref;                /* VENDOR: the adopted grid */
    size_t *samples;           /* SAMPLES and VENDOR: flat indices of the points checked, with their CPU values */
    double *sample_ref;
    size_t n_samples;
    const char *bad;           /* the grid does not split over the case's GPUs: every rung refuses, this says why */
    char bad_buf[160];
    climb_slab sl[CLIMB_MAX_DEVICES];
    float *init[CLIMB_MAX_DEVICES], *out[CLIMB_MAX_DEVICES], *tmp[CLIMB_MAX_DEVICES]; /* a slab with its halos */
    float *one_in, *one_out, *one_tmp; /* one_gpu: the whole grid on rank 0's GPU (made by prepare) */
    float *pinned;             /* through_host: a plane for each halo, made by prepare */
    cudaStream_t edge[CLIMB_MAX_DEVICES];          /* overlap: each rank's second stream (edge planes, copies) */
    cudaEvent_t e_done[CLIMB_MAX_DEVICES][2];      /* a rank's copies of a step done (the step's parity) */
    cudaEvent_t m_done[CLIMB_MAX_DEVICES][2];      /* overlap: a rank's interior of a step done */
    cudaGraphExec_t graph;     /* graph: the overlapped steps captured once (made by prepare) */
    climb_stencil_tuning tn;
};

#define ON(d) CLIMB_CHECK(cudaSetDevice(d))

static size_t plane_bytes(const climb_case *c) { return c->sz * sizeof(float); }
static size_t slab_bytes(const climb_case *c, int r) { return c->sl[r].planes * plane_bytes(c); }
static int ranks(const climb_case *c) { return c->g.x.P; }

/* The grid a step k (0-based) reads and writes on rank r: the input first, then out and tmp in turn so that the last
 * step lands in out. */
static const float *src_of(const climb_case *c, int r, int k)
{
    if (k == 0)
        return c->init[r];
    return ((c->steps - k) % 2) ? c->tmp[r] : c->out[r];
}
static float *dst_of(const climb_case *c, int r, int k) { return ((c->steps - k) % 2) ? c->out[r] : c->tmp[r]; }

static float *plane(float *base, const climb_case *c, size_t k) { return base + k * c->sz; }

/* ---------------------------------------------------------------- the plane kernel */

/* One plane of a step from the three planes it reads, each wherever it lives (a neighbour's over NVLink): out =
 * the stencil of `here` with `below` and `above` as its z neighbours, or here itself at an x or y boundary and on a
 * plane of the grid's boundary (edge != 0). The point is st_point, the one-GPU kernels' own, so it rounds alike. */
#define SG_PLANE_X 32
#define SG_PLANE_Y 8
__global__ void __launch_bounds__(SG_PLANE_X *SG_PLANE_Y)
    sg_plane_kernel(const float *__restrict__ below, const float *__restrict__ here, const float *__restrict__ above,
                    float *__restrict__ out, int nx, int ny, int edge, const stencil_coef k)
{
    const int x = (int)(blockIdx.x * SG_PLANE_X + threadIdx.x), y = (int)(blockIdx.y * SG_PLANE_Y + threadIdx.y);
    if (x >= nx || y >= ny)
        return;
    const size_t p = (size_t)y * nx + x;
    const float h = here[p];
    if (edge || x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[p] = h;
        return;
    }
    out[p] = st_point(k, h, here[p - 1], here[p + 1], here[p - nx], here[p + nx], below[p], above[p]);
}

/* ---------------------------------------------------------------- the schedules */

/* Rank r's owned planes of step k, [a, b) of its local slab, on stream s (the one-GPU kernel on a range: the halos
 * are read, not written). */
static int step_range(climb_case *c, int r, int k, size_t a, size_t b, cudaStream_t s)
{
    if (a >= b)
        return 0;
    CLIMB_CHECK(climb_stencil_best_range(&c->tn, c->nx, c->ny, c->sl[r].planes, a, b, c->c, src_of(c, r, k),
                                         dst_of(c, r, k), s));
    return 0;
}
static int step_owned(climb_case *c, int r, int k, cudaStream_t s)
{
    return step_range(c, r, k, climb_slab_first(&c->sl[r]), climb_slab_last(&c->sl[r]) + 1, s);
}

/* Rank r's halo copies of step k on stream s: its first owned plane into rank r - 1's top halo, its last into rank
 * r + 1's bottom halo (a copy engine: over NVLink with peer access, staged by the driver without). */
static int send_halos(climb_case *c, int r, int k, cudaStream_t s)
{
    float *d = dst_of(c, r, k);
    if (r > 0)
        CLIMB_CHECK(climb_copy_across(plane(dst_of(c, r - 1, k), c, climb_slab_top_halo(&c->sl[r - 1])),
                                      plane(d, c, climb_slab_first(&c->sl[r])), plane_bytes(c), s));
    if (r < ranks(c) - 1)
        CLIMB_CHECK(climb_copy_across(dst_of(c, r + 1, k), plane(d, c, climb_slab_last(&c->sl[r])), plane_bytes(c), s));
    return 0;
}

/* Stream s of rank r waits for its neighbours' events ev[q][parity] (and, with self, its own). */
static int wait_neighbours(climb_case *c, int r, cudaEvent_t (*ev)[2], int parity, int self, cudaStream_t s)
{
    for (int q = r - 1; q <= r + 1; q++)
        if (q >= 0 && q < ranks(c) && (q != r || self))
            CLIMB_CHECK(cudaStreamWaitEvent(s, ev[q][parity], 0));
    return 0;
}

/* one_gpu: the whole grid on rank 0's GPU, every step the one-GPU best kernel. */
static int run_one_gpu(climb_case *c)
{
    ON(c->g.x.devices[0]);
    const float *src = c->one_in;
    float *dst = (c->steps % 2) ? c->one_out : c->one_tmp;
    for (int k = 0; k < c->steps; k++) {
        CLIMB_CHECK(climb_stencil_best(&c->tn, c->nx, c->ny, c->nz, c->c, src, dst, c->g.x.st[0]));
        src = dst;
        dst = dst == c->one_out ? c->one_tmp : c->one_out;
    }
    return 0;
}

/* through_host: each step on every GPU, then the edge planes down into page-locked host memory, the host waiting
 * for them, and up into the neighbours' halos: every halo crosses PCIe twice, and the GPUs idle meanwhile. */
static int run_host(climb_case *c)
{
    const int P = ranks(c);
    for (int k = 0; k < c->steps; k++) {
        for (int r = 0; r < P; r++) {
            ON(c->g.x.devices[r]);
            if (step_owned(c, r, k, c->g.x.st[r]))
                return -1;
            float *d = dst_of(c, r, k);
            /* pinned plane 2r: rank r's first owned plane (for r - 1); 2r + 1: its last (for r + 1) */
            if (r > 0)
                CLIMB_CHECK(cudaMemcpyAsync(c->pinned + 2 * (size_t)r * c->sz, plane(d, c, climb_slab_first(&c->sl[r])),
                                            plane_bytes(c), cudaMemcpyDeviceToHost, c->g.x.st[r]));
            if (r < P - 1)
                CLIMB_CHECK(cudaMemcpyAsync(c->pinned + (2 * (size_t)r + 1) * c->sz,
                                            plane(d, c, climb_slab_last(&c->sl[r])), plane_bytes(c),
                                            cudaMemcpyDeviceToHost, c->g.x.st[r]));
        }
        for (int r = 0; r < P; r++)
            CLIMB_CHECK(cudaStreamSynchronize(c->g.x.st[r]));
        for (int r = 0; r < P; r++) {
            ON(c->g.x.devices[r]);
            float *d = dst_of(c, r, k);
            if (r > 0) /* the bottom halo from rank r - 1's last plane */
                CLIMB_CHECK(cudaMemcpyAsync(d, c->pinned + (2 * (size_t)(r - 1) + 1) * c->sz, plane_bytes(c),
                                            cudaMemcpyHostToDevice, c->g.x.st[r]));
            if (r < P - 1) /* the top halo from rank r + 1's first plane */
                CLIMB_CHECK(cudaMemcpyAsync(plane(d, c, climb_slab_top_halo(&c->sl[r])),
                                            c->pinned + 2 * (size_t)(r + 1) * c->sz, plane_bytes(c),
                                            cudaMemcpyHostToDevice, c->g.x.st[r]));
        }
        /* the next step's downloads overwrite these planes: the uploads first */
        for (int r = 0; r < P; r++)
            CLIMB_CHECK(cudaStreamSynchronize(c->g.x.st[r]));
    }
    return 0;
}

/* peer_copies: each step on every GPU, then its edge planes copied into the neighbours' halos on its own stream. A
 * step waits for the neighbours' copies of the step before (its halos written, and their reads of the grid it is
 * about to write done: a neighbour's copies come after its step). Events by the step's parity, so a wait never
 * names the event of a step issued after it. */
static int run_peer(climb_case *c)
{
    const int P = ranks(c);
    for (int k = 0; k < c->steps; k++)
        for (int r = 0; r < P; r++) {
            ON(c->g.x.devices[r]);
            cudaStream_t s = c->g.x.st[r];
            if ((k > 0 && wait_neighbours(c, r, c->e_done, (k - 1) % 2, 0, s)) || step_owned(c, r, k, s) ||
                send_halos(c, r, k, s))
                return -1;
            CLIMB_CHECK(cudaEventRecord(c->e_done[r][k % 2], s));
        }
    return 0;
}

/* The grid of rank q at step k's source (what rank r's edge kernel reads across the link). */
static const float *src_plane(const climb_case *c, int q, int k, size_t local)
{
    return src_of(c, q, k) + local * c->sz;
}

/* One edge plane of rank r at step k by the plane kernel: its z neighbours from the neighbouring GPU's memory where
 * they are across the slab's edge. */
static int edge_plane(climb_case *c, int r, int k, size_t local, cudaStream_t s)
{
    const climb_slab *sl = &c->sl[r];
    const int P = ranks(c);
    const size_t zg = sl->z0 + (local - sl->below); /* the plane's global index */
    const size_t first = climb_slab_first(sl), last = climb_slab_last(sl);
    /* across the slab's edge the neighbour's nearest owned plane; at the grid's boundary (edge: copied) nothing */
    const float *here = src_plane(c, r, k, local);
    const float *below = local > first ? src_plane(c, r, k, local - 1)
                         : r > 0       ? src_plane(c, r - 1, k, climb_slab_last(&c->sl[r - 1]))
                                       : here;
    const float *above = local < last ? src_plane(c, r, k, local + 1)
                         : r < P - 1  ? src_plane(c, r + 1, k, climb_slab_first(&c->sl[r + 1]))
                                      : here;
    stencil_coef kc;
    memcpy(kc.c, c->c, sizeof kc.c);
    const dim3 grid((unsigned)((c->nx + SG_PLANE_X - 1) / SG_PLANE_X), (unsigned)((c->ny + SG_PLANE_Y - 1) / SG_PLANE_Y));
    sg_plane_kernel<<<grid, dim3(SG_PLANE_X, SG_PLANE_Y), 0, s>>>(below, here, above, dst_of(c, r, k) + local * c->sz,
                                                                  (int)c->nx, (int)c->ny, zg == 0 || zg + 1 == c->nz,
                                                                  kc);
    CLIMB_CHECK(cudaGetLastError());
    return 0;
}

/* The edges-first schedule (overlap, and with direct the rung without halos): on each GPU the planes next to a
 * neighbour first, on a stream of their own, then (overlap) their copies into the neighbours' halos, or (direct)
 * computed by the plane kernel, which loads the neighbour's nearest plane over NVLink as it computes; the interior
 * on the main stream meanwhile. The edge stream of step k waits for the neighbours' edges of step k - 1 (its halos
 * or the planes it loads are written, and the neighbours have read the planes it is about to overwrite) and for
 * this GPU's interior of step k - 1 (which read those planes); the interior waits for this GPU's edges of step
 * k - 1 (which it reads). */
static int edges_first(climb_case *c, int direct)
{
    const int P = ranks(c);
    for (int r = 0; r < P; r++) { /* the edge streams start where the main streams do (after the fork) */
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaEventRecord(c->m_done[r][1], c->g.x.st[r]));
        CLIMB_CHECK(cudaStreamWaitEvent(c->edge[r], c->m_done[r][1], 0));
    }
    for (int k = 0; k < c->steps; k++)
        for (int r = 0; r < P; r++) {
            ON(c->g.x.devices[r]);
            const climb_slab *sl = &c->sl[r];
            const size_t first = climb_slab_first(sl), last = climb_slab_last(sl);
            /* the interior: the owned planes but those next to a neighbour */
            const size_t lo = r > 0 ? first + 1 : first, hi = r < P - 1 ? last : last + 1;
            cudaStream_t e = c->edge[r], m = c->g.x.st[r];
            if (k > 0 && (wait_neighbours(c, r, c->e_done, (k - 1) % 2, 1, e) ||
                          cudaStreamWaitEvent(e, c->m_done[r][(k - 1) % 2], 0) != cudaSuccess))
                return -1;
            /* the first plane where there is a neighbour below, the last where there is one above (once, where they
             * are one plane) */
            const int want_first = r > 0, want_last = r < P - 1 && !(want_first && last == first);
            if (direct) {
                if ((want_first && edge_plane(c, r, k, first, e)) || (want_last && edge_plane(c, r, k, last, e)))
                    return -1;
            } else if ((want_first && step_range(c, r, k, first, first + 1, e)) ||
                       (want_last && step_range(c, r, k, last, last + 1, e)) || send_halos(c, r, k, e)) {
                return -1;
            }
            CLIMB_CHECK(cudaEventRecord(c->e_done[r][k % 2], e));
            if (k > 0)
                CLIMB_CHECK(cudaStreamWaitEvent(m, c->e_done[r][(k - 1) % 2], 0));
            if (lo < hi && step_range(c, r, k, lo, hi, m))
                return -1;
            CLIMB_CHECK(cudaEventRecord(c->m_done[r][k % 2], m));
        }
    /* the main streams take in the last edges (the join waits for the main streams) */
    for (int r = 0; r < P; r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaStreamWaitEvent(c->g.x.st[r], c->e_done[r][(c->steps - 1) % 2], 0));
    }
    return 0;
}
static int run_overlap(climb_case *c) { return edges_first(c, 0); }
static int run_direct(climb_case *c) { return edges_first(c, 1); }

/* graph: the overlapped steps captured once into one CUDA graph (every GPU's launches, copies and waits, made by
 * prepare), launched on rank 0's stream: one launch a run instead of a few a step on every GPU. */
static int run_graph(climb_case *c)
{
    ON(c->g.x.devices[0]);
    CLIMB_CHECK(cudaGraphLaunch(c->graph, c->g.x.st[0]));
    return 0;
}

/* The capture of run_overlap (direct: of run_direct) from rank 0's stream: the other ranks' streams join it through
 * events and rejoin it at the end. */
static int make_graph(climb_case *c, int direct)
{
    const int P = ranks(c);
    ON(c->g.x.devices[0]);
    cudaStream_t s0 = c->g.x.st[0];
    CLIMB_CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeRelaxed));
    int rc = cudaEventRecord(c->g.x.ev[0], s0) == cudaSuccess ? 0 : -1;
    for (int r = 1; r < P && !rc; r++)
        rc = cudaStreamWaitEvent(c->g.x.st[r], c->g.x.ev[0], 0) == cudaSuccess ? 0 : -1;
    if (!rc)
        rc = direct ? run_direct(c) : run_overlap(c);
    for (int r = 1; r < P && !rc; r++)
        rc = cudaSetDevice(c->g.x.devices[r]) == cudaSuccess && cudaEventRecord(c->g.x.ev[r], c->g.x.st[r]) == cudaSuccess &&
                     cudaStreamWaitEvent(s0, c->g.x.ev[r], 0) == cudaSuccess
                 ? 0
                 : -1;
    cudaSetDevice(c->g.x.devices[0]);
    cudaGraph_t g = NULL;
    const cudaError_t e = cudaStreamEndCapture(s0, &g);
    if (rc || e != cudaSuccess) {
        fprintf(stderr, "climb: stencil_gpus: capturing the steps: %s\n", cudaGetErrorString(e != cudaSuccess ? e : cudaGetLastError()));
        if (g)
            cudaGraphDestroy(g);
        cudaGetLastError();
        return -1;
    }
    const cudaError_t ie = cudaGraphInstantiate(&c->graph, g, 0);
    cudaGraphDestroy(g);
    CLIMB_CHECK(ie);
    return 0;
}

/* nccl_halos: each step on every GPU, then NCCL's send and receive of the halos in one group a step (NCCL orders a
 * receive after the work on its stream, and a rank's next step after its receives). */
static int run_nccl(climb_case *c)
{
#if CLIMB_HAVE_NCCL
    char why[300];
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    if (!nc) {
        fprintf(stderr, "climb: stencil_gpus: %s\n", why);
        return -1;
    }
    const int P = ranks(c);
    for (int k = 0; k < c->steps; k++) {
        for (int r = 0; r < P; r++) {
            ON(c->g.x.devices[r]);
            if (step_owned(c, r, k, c->g.x.st[r]))
                return -1;
        }
        ncclResult_t e = nc->group_start();
        for (int r = 0; r < P && e == ncclSuccess; r++) {
            float *d = dst_of(c, r, k);
            const climb_slab *sl = &c->sl[r];
            cudaStream_t s = c->g.x.st[r];
            if (r > 0 && e == ncclSuccess)
                e = nc->send(plane(d, c, climb_slab_first(sl)), c->sz, ncclFloat32, r - 1, c->g.comm[r], s);
            if (r > 0 && e == ncclSuccess)
                e = nc->recv(d, c->sz, ncclFloat32, r - 1, c->g.comm[r], s);
            if (r < P - 1 && e == ncclSuccess)
                e = nc->send(plane(d, c, climb_slab_last(sl)), c->sz, ncclFloat32, r + 1, c->g.comm[r], s);
            if (r < P - 1 && e == ncclSuccess)
                e = nc->recv(plane(d, c, climb_slab_top_halo(sl)), c->sz, ncclFloat32, r + 1, c->g.comm[r], s);
        }
        const ncclResult_t end = nc->group_end();
        if (e != ncclSuccess || end != ncclSuccess) {
            fprintf(stderr, "climb: stencil_gpus: NCCL's halo exchange: %s\n",
                    nc->error_string(e != ncclSuccess ? e : end));
            return -1;
        }
    }
    return 0;
#else
    (void)c;
    return -1;
#endif
}

/* The one-GPU kernel's tuning every rank steps with: rows, planes, order (climb_stencil_tuning's fields). */
static const int SG_STEP_TUNING[3] = {4, 8, 0};

extern "C" cudaError_t climb_stencil_gpus_owned_async(size_t nx, size_t ny, size_t nz, int nranks, int rank,
                                                      const float c[7], const float *in, float *out, cudaStream_t s)
{
    climb_slab sl;
    if (climb_slab_of(nz, nranks, rank, &sl) != 0)
        return cudaErrorInvalidValue;
    climb_stencil_tuning tn;
    climb_stencil_set_tuning(&tn, SG_STEP_TUNING);
    return climb_stencil_best_range(&tn, nx, ny, sl.planes, climb_slab_first(&sl), climb_slab_last(&sl) + 1, c, in,
                                    out, s);
}

/* ---------------------------------------------------------------- the registry table */

typedef struct sg_rung {
    climb_rung_info info;
    int (*run)(climb_case *c);
    int one;     /* the whole grid on one GPU */
    int pinned;  /* needs the page-locked halo planes */
    int nccl;    /* needs NCCL's communicator */
    int edge;    /* needs each rank's second stream */
    int access;  /* its kernels read the neighbours' memory: peer access between neighbours */
    int graph;   /* runs a captured graph: 1 of the overlapped steps; 2 of the direct steps where every neighbour
                    reaches the other's memory, else of the overlapped steps */
} sg_rung;

/* The kernels every rank steps with: the one-GPU best rung's, at the tuning the ranks use (not this workload's
 * values, which are not the stencil's: zeros made blocks of no threads in climb occupancy). */
static int k_step(climb_dtype, const climb_device_info *d, const int *, climb_kernel_desc *out, int max)
{
    return climb_stencil_workload.rung(climb_best_rung(&climb_stencil_workload))->kernels(CLIMB_F32, d, SG_STEP_TUNING,
                                                                                          out, max);
}

static const char *refuses_without_nccl(const climb_case *c) { return (void)c, climb_nccl_refusal(); }

/* Every neighbouring pair must reach the other's memory. */
static const char *refuses_no_access(const climb_case *c)
{
    for (int r = 0; r + 1 < ranks(c); r++) {
        int a = 0, b = 0;
        if (cudaDeviceCanAccessPeer(&a, c->g.x.devices[r], c->g.x.devices[r + 1]) != cudaSuccess ||
            cudaDeviceCanAccessPeer(&b, c->g.x.devices[r + 1], c->g.x.devices[r]) != cudaSuccess || !a || !b) {
            cudaGetLastError();
            return "needs peer access between neighbouring GPUs (its kernels load the neighbour's plane)";
        }
    }
    return NULL;
}

static int k_plane(climb_dtype t, const climb_device_info *d, const int *tuning, climb_kernel_desc *out, int max)
{
    const int n = k_step(t, d, tuning, out, max);
    return climb_kernel_at(out, max, n, (const void *)sg_plane_kernel, SG_PLANE_X * SG_PLANE_Y, 0, "sg_plane_kernel");
}

static const sg_rung SG_RUNGS[] = {
    {.info = {.name = "nccl_halos", .idea = "vendor: each GPU's step, then the halos by ncclSend and ncclRecv in one "
                                            "group a step",
              .needs = "NCCL at run time", .kind = CLIMB_RUNG_VENDOR, .refuses = refuses_without_nccl},
     .run = run_nccl, .nccl = 1},
    {.info = {.name = "one_gpu", .idea = "the whole grid on one GPU, every step the one-GPU best kernel: what the "
                                         "others are sped up from",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_step},
     .run = run_one_gpu, .one = 1},
    {.info = {.name = "through_host", .idea = "a slab a GPU; after each step the edge planes down to the host and up "
                                              "into the neighbours' halos, the host waiting between",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_step, .host_part = 1},
     .run = run_host, .pinned = 1},
    {.info = {.name = "peer_copies", .idea = "the halos by peer copies (copy engines over NVLink) after each step, "
                                             "each GPU waiting for its neighbours alone",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_step},
     .run = run_peer},
    {.info = {.name = "overlap", .idea = "the edge planes first on a stream of their own, their copies under the "
                                         "interior's step",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_step},
     .run = run_overlap, .edge = 1},
    {.info = {.name = "graph", .idea = "the overlapped steps captured once into one CUDA graph across the GPUs: one "
                                       "launch a run, not a few a step on every GPU from one host thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_step},
     .run = run_graph, .edge = 1, .graph = 1},
    {.info = {.name = "direct", .idea = "no halos: the edge planes' kernel loads the neighbour's nearest plane over "
                                        "NVLink as it computes, under the interior's step",
              .needs = "peer access between neighbouring GPUs", .kind = CLIMB_RUNG_LADDER, .kernels = k_plane,
              .refuses = refuses_no_access},
     .run = run_direct, .edge = 1, .access = 1},
    {.info = {.name = "stencil_gpus_best", .idea = "the direct steps (the neighbours' planes loaded over NVLink) "
                                                   "captured as one CUDA graph; the overlapped steps' graph where "
                                                   "neighbouring GPUs cannot reach each other's memory",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_plane},
     .run = run_graph, .edge = 1, .graph = 2},
};
#define SG_N_RUNGS CLIMB_COUNT(SG_RUNGS)

static const climb_rung_info *sg_rung_info(int i) { return &SG_RUNGS[i].info; }

/* ---------------------------------------------------------------- harness glue */

enum { OPT_STEPS, OPT_SPLIT };
static const char *const SG_SPLITS[] = {"strong", "weak", NULL};
static constexpr climb_option SG_OPTIONS[] = {
    {.name = "steps", .kind = CLIMB_OPT_INT, .meaning = "time steps a run takes (halos refreshed after each)",
     .def = "100", .min = 1, .max = 1000},
    {.name = "split", .kind = CLIMB_OPT_CHOICE, .meaning = "strong: the shape is the whole grid; weak: each GPU's "
                                                           "share (the grid is nx x ny x (nz x GPUs))",
     .def = "strong", .choices = SG_SPLITS},
};
CLIMB_OPTION_AT(SG_OPTIONS, OPT_STEPS, "steps");
CLIMB_OPTION_AT(SG_OPTIONS, OPT_SPLIT, "split");

static void sg_fini(climb_case *c)
{
    for (int r = 0; r < ranks(c); r++) {
        cudaSetDevice(c->g.x.devices[r]);
        if (c->edge[r])
            cudaStreamDestroy(c->edge[r]);
        for (int k = 0; k < 2; k++) {
            if (c->e_done[r][k])
                cudaEventDestroy(c->e_done[r][k]);
            if (c->m_done[r][k])
                cudaEventDestroy(c->m_done[r][k]);
        }
    }
    cudaSetDevice(c->g.x.devices[0]);
    if (c->graph)
        cudaGraphExecDestroy(c->graph);
    cudaFree(c->one_in);
    cudaFree(c->one_out);
    cudaFree(c->one_tmp);
    cudaFreeHost(c->pinned);
    climb_gpuset_fini(&c->g);
    free(c->ref);
    free(c->ref_d);
    free(c->samples);
    free(c->sample_ref);
}

/* The grid's sizes (weak: nz times the GPUs), every rank's slab and its three grids on its GPU, the events. */
static int sg_init(climb_case *c)
{
    if (climb_gpuset_init(&c->g, &c->p))
        return -1;
    c->steps = (int)c->p.opts[OPT_STEPS].i;
    c->split = c->p.opts[OPT_SPLIT].choice;
    c->nx = c->p.shape.d[0];
    c->ny = c->p.shape.d[1];
    c->nz = c->p.shape.d[2];
    climb_stencil_set_tuning(&c->tn, SG_STEP_TUNING);
    const int P = ranks(c);
    if (c->split == SPLIT_WEAK && !climb_mul_fits(c->nz, (size_t)P, &c->nz)) {
        fprintf(stderr, "climb: stencil_gpus: %zu planes x %d GPUs overflow size_t\n", c->p.shape.d[2], P);
        return -1;
    }
    size_t bytes;
    if (!climb_mul_fits(c->nx, c->ny, &c->sz) || !climb_mul_fits(c->sz, c->nz, &c->n) ||
        !climb_mul_fits(c->n, 2 * sizeof(double), &bytes)) {
        fprintf(stderr, "climb: stencil_gpus %zu x %zu x %zu: more points than size_t counts\n", c->nx, c->ny, c->nz);
        return -1;
    }
    if (c->n == 0)
        return 0;
    if (c->nx > INT32_MAX || c->ny > INT32_MAX || c->nz > INT32_MAX || !climb_stencil_fits(c->nx, c->ny, c->nz)) {
        snprintf(c->bad_buf, sizeof c->bad_buf, "a grid of %zu x %zu x %zu is past what the stencil kernel launches "
                 "(each side below 2^31)", c->nx, c->ny, c->nz);
        c->bad = c->bad_buf;
        return 0;
    }
    if (c->nz < (size_t)P) {
        snprintf(c->bad_buf, sizeof c->bad_buf, "%zu planes over %d GPUs: a slab takes one plane at the least",
                 c->nz, P);
        c->bad = c->bad_buf;
        return 0;
    }
    for (int r = 0; r < P; r++) {
        if (climb_slab_of(c->nz, P, r, &c->sl[r]) != 0)
            return -1;
        ON(c->g.x.devices[r]);
        for (int k = 0; k < 2; k++) {
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->e_done[r][k], cudaEventDisableTiming));
            CLIMB_CHECK(cudaEventCreateWithFlags(&c->m_done[r][k], cudaEventDisableTiming));
        }
        CLIMB_CHECK(cudaStreamCreateWithFlags(&c->edge[r], cudaStreamNonBlocking));
    }
    /* every rank's three grids at the largest slab's size (the slabs differ by a plane at the most) */
    size_t most = 0;
    for (int r = 0; r < P; r++)
        most = slab_bytes(c, r) > most ? slab_bytes(c, r) : most;
    void *in_p[CLIMB_MAX_DEVICES], *out_p[CLIMB_MAX_DEVICES], *tmp_p[CLIMB_MAX_DEVICES];
    if (climb_gpuset_alloc(&c->g, in_p, most, most, "a GPU's slab") ||
        climb_gpuset_alloc(&c->g, out_p, most, most, "a GPU's stepped slab") ||
        climb_gpuset_alloc(&c->g, tmp_p, most, most, "a GPU's other slab"))
        return -1;
    for (int r = 0; r < P; r++) {
        c->init[r] = (float *)in_p[r];
        c->out[r] = (float *)out_p[r];
        c->tmp[r] = (float *)tmp_p[r];
    }
    ON(c->g.home);
    return 0;
}

/* The inputs as stencil's (climb_stencil_draw); every rank's slab with its halos. */
static int sg_fill(climb_case *c)
{
    c->max_abs = climb_stencil_draw(c->p.seed, c->c, c->h_in, c->n);
    c->tol = climb_stencil_tolerance(c->steps, c->max_abs);
    if (c->bad || c->n == 0)
        return 0;
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemcpy(c->init[r], c->h_in + (c->sl[r].z0 - c->sl[r].below) * c->sz, slab_bytes(c, r),
                               cudaMemcpyHostToDevice));
    }
    ON(c->g.home);
    return 0;
}

static size_t grid_bytes(const climb_case *c) { return (c->n ? c->n : 1) * sizeof(float); }

static const climb_buffer SG_BUFFERS[] = {
    {.name = "the grid", .flags = CLIMB_BUF_HOST, .bytes = grid_bytes, .host_at = offsetof(climb_case, h_in)},
    {.name = "the download checked", .flags = CLIMB_BUF_HOST, .bytes = grid_bytes,
     .host_at = offsetof(climb_case, h_out)},
};

static int sg_empty(const climb_case *c) { return c->n == 0; }

static const char *sg_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "random values in [-1, 1), random weights scaled to sum |c| = 1; a %zu x %zu x %zu "
             "grid in %d slabs along z", c->nx, c->ny, c->nz, ranks(c));
    return buf;
}

/* The whole grid's CPU steps cost a point update each. */
static double sg_ref_cost(const climb_case *c) { return (double)c->n * c->steps; }

/* The output of `rung` (the one GPU's grid, or the slabs' owned planes) into h_out, the whole grid in order. */
static int download(climb_case *c, int rung)
{
    if (c->bad || c->n == 0)
        return 0;
    if (SG_RUNGS[rung].one) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemcpy(c->h_out, c->one_out, c->n * sizeof(float), cudaMemcpyDeviceToHost));
    } else {
        for (int r = 0; r < ranks(c); r++) {
            const climb_slab *sl = &c->sl[r];
            ON(c->g.x.devices[r]);
            CLIMB_CHECK(cudaMemcpy(c->h_out + sl->z0 * c->sz, plane(c->out[r], c, climb_slab_first(sl)),
                                   (sl->z1 - sl->z0) * plane_bytes(c), cudaMemcpyDeviceToHost));
        }
    }
    ON(c->g.home);
    return 0;
}

/* Up to this many points checked on the CPU where the whole grid's steps would take too long. */
#define SG_SAMPLES 6

static int sg_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    if (c->bad || c->n == 0) {
        snprintf(desc, desclen, "none: %s", c->bad ? c->bad : "an empty grid");
        return 0;
    }
    if (mode == CLIMB_REF_CPU) {
        double *g = (double *)malloc(c->n * sizeof(double)), *t = (double *)malloc(c->n * sizeof(double));
        if (!g || !t) {
            free(g);
            free(t);
            return climb_host_oom("the stencil_gpus reference");
        }
        for (size_t i = 0; i < c->n; i++)
            g[i] = c->h_in[i];
        for (int k = 0; k < c->steps; k++) {
            climb_stencil_ref_step(g, t, c->nx, c->ny, c->nz, c->c);
            double *x = g;
            g = t;
            t = x;
        }
        c->ref_d = g;
        free(t);
        snprintf(desc, desclen, "CPU, double, %d step%s, every point; |error| <= steps 9.1 2^-24 max|in| = %.3g",
                 c->steps, c->steps == 1 ? "" : "s", c->tol);
        return 0;
    }
    /* SAMPLES or VENDOR: a few points from their boxes alone (climb_stencil_ref_point), the corners among them */
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x57e9c11ULL);
    c->samples = (size_t *)malloc(SG_SAMPLES * sizeof(size_t));
    c->sample_ref = (double *)malloc(SG_SAMPLES * sizeof(double));
    if (!c->samples || !c->sample_ref)
        return climb_host_oom("the stencil_gpus reference");
    c->n_samples = SG_SAMPLES;
    for (size_t k = 0; k < SG_SAMPLES; k++) {
        size_t i = k == 0 ? 0 : k == 1 ? c->n - 1 : climb_rng_next(&rng) % c->n;
        c->samples[k] = i;
        const size_t x = i % c->nx, y = (i / c->nx) % c->ny, z = i / c->sz;
        c->sample_ref[k] = climb_stencil_ref_point(c->h_in, c->nx, c->ny, c->nz, c->c, c->steps, x, y, z);
        if (isnan(c->sample_ref[k]))
            return climb_host_oom("a point's box of the stencil_gpus reference");
    }
    if (mode == CLIMB_REF_SAMPLES) {
        snprintf(desc, desclen, "CPU, double, %zu points from their boxes alone, within %.3g", c->n_samples, c->tol);
        return 0;
    }
    /* VENDOR: the vendor rung's grid checked at the points, then adopted for every point (every rung steps with
     * the same kernel: the same bits) */
    for (int r = 0; r < SG_N_RUNGS; r++)
        if (SG_RUNGS[r].info.kind == CLIMB_RUNG_VENDOR && download(c, r))
            return -1;
    for (size_t k = 0; k < c->n_samples; k++)
        if (!(fabs(c->h_out[c->samples[k]] - c->sample_ref[k]) <= c->tol)) {
            snprintf(desc, desclen, "the vendor rung's point %zu is %.9g, its box's value %.9g (tolerance %.3g)",
                     c->samples[k], c->h_out[c->samples[k]], c->sample_ref[k], c->tol);
            return 1;
        }
    c->ref = (float *)malloc(c->n * sizeof(float));
    if (!c->ref)
        return climb_host_oom("the stencil_gpus reference");
    memcpy(c->ref, c->h_out, c->n * sizeof(float));
    snprintf(desc, desclen, "nccl_halos's grid, %zu points of it within %.3g of the CPU's (double, from their boxes "
             "alone); then every point, bit for bit", c->n_samples, c->tol);
    return 0;
}

static const char *sg_refuses(const climb_case *c, int rung)
{
    (void)rung;
    return c->bad;
}

static int sg_prepare(climb_case *c, int rung)
{
    const sg_rung *r = &SG_RUNGS[rung];
    if (c->bad || c->n == 0)
        return 0;
    if (r->one && !c->one_in) {
        ON(c->g.x.devices[0]);
        if (cudaMalloc((void **)&c->one_in, c->n * sizeof(float)) != cudaSuccess ||
            cudaMalloc((void **)&c->one_out, c->n * sizeof(float)) != cudaSuccess ||
            cudaMalloc((void **)&c->one_tmp, c->n * sizeof(float)) != cudaSuccess) {
            cudaGetLastError();
            fprintf(stderr, "climb: stencil_gpus: the whole grid three times (%zu bytes each) does not fit GPU %d\n",
                    c->n * sizeof(float), c->g.x.devices[0]);
            return -1;
        }
        CLIMB_CHECK(cudaMemcpy(c->one_in, c->h_in, c->n * sizeof(float), cudaMemcpyHostToDevice));
    }
    if (r->pinned && !c->pinned &&
        cudaHostAlloc((void **)&c->pinned, 2 * (size_t)ranks(c) * plane_bytes(c), cudaHostAllocPortable) != cudaSuccess) {
        fprintf(stderr, "climb: stencil_gpus: cannot page-lock %d planes of %zu bytes: %s\n", 2 * ranks(c),
                plane_bytes(c), cudaGetErrorString(cudaGetLastError()));
        return -1;
    }
    if (climb_gpuset_prepare(&c->g, !r->one, r->nccl, "stencil_gpus"))
        return -1;
    return r->graph && !c->graph ? make_graph(c, r->graph == 2 && !refuses_no_access(c)) : 0;
}

/* The whole grid's copies of one_gpu go once another rung runs (three grids on one GPU). */
static void sg_release(climb_case *c, int rung)
{
    if (SG_RUNGS[rung].graph && c->graph) {
        cudaSetDevice(c->g.x.devices[0]);
        cudaGraphExecDestroy(c->graph);
        c->graph = NULL;
    }
    if (SG_RUNGS[rung].one) {
        cudaSetDevice(c->g.x.devices[0]);
        cudaFree(c->one_in);
        cudaFree(c->one_out);
        cudaFree(c->one_tmp);
        c->one_in = c->one_out = c->one_tmp = NULL;
    }
    climb_gpuset_release(&c->g, SG_RUNGS[rung].nccl);
}

static int sg_run(climb_case *c, int rung, cudaStream_t s)
{
    if (climb_gpuset_fork(&c->g, s))
        return -1;
    const int rc = SG_RUNGS[rung].run(c);
    cudaSetDevice(c->g.home);
    return rc ? rc : climb_gpuset_join(&c->g, s, 0);
}

/* Every grid a run writes, all ones (a NaN no step of finite values makes), done when this returns. */
static int sg_poison(climb_case *c)
{
    if (c->bad || c->n == 0)
        return 0;
    for (int r = 0; r < ranks(c); r++) {
        ON(c->g.x.devices[r]);
        CLIMB_CHECK(cudaMemset(c->out[r], 0xFF, slab_bytes(c, r)));
        CLIMB_CHECK(cudaMemset(c->tmp[r], 0xFF, slab_bytes(c, r)));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    if (c->one_out) {
        ON(c->g.x.devices[0]);
        CLIMB_CHECK(cudaMemset(c->one_out, 0xFF, c->n * sizeof(float)));
        CLIMB_CHECK(cudaMemset(c->one_tmp, 0xFF, c->n * sizeof(float)));
        CLIMB_CHECK(cudaDeviceSynchronize());
    }
    ON(c->g.home);
    return 0;
}

/* The whole grid after the steps, every point: against the CPU's within the tolerance, or the adopted grid bit for
 * bit; at the sample points alone in SAMPLES mode. */
static int sg_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    if (download(c, rung))
        return -1;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (c->mode == CLIMB_REF_SAMPLES) {
        for (size_t q = 0; q < c->n_samples; q++)
            climb_compare_close(&k, c->h_out[c->samples[q]], c->sample_ref[q], c->tol, "point %zu", c->samples[q]);
        return climb_compare_end(&k);
    }
    const int exact = c->mode == CLIMB_REF_VENDOR;
    for (size_t i = 0; i < c->n; i++) {
        const size_t x = i % c->nx, y = (i / c->nx) % c->ny, z = i / c->sz;
        if (exact) {
            uint32_t got, want;
            memcpy(&got, &c->h_out[i], 4);
            memcpy(&want, &c->ref[i], 4);
            climb_compare_exact(&k, got, want, "out[%zu][%zu][%zu]", z, y, x);
        } else {
            climb_compare_close(&k, c->h_out[i], c->ref_d[i], c->tol, "out[%zu][%zu][%zu]", z, y, x);
        }
    }
    return climb_compare_end(&k);
}

/* The busiest GPU (the slab with the most planes, rank 0's): its slab read and written once a step, its halo
 * planes sent; items are the grid's point updates. */
static void sg_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const int P = ranks(c);
    const double steps = c->steps;
    out->items = (double)c->n * steps;
    if (c->bad || c->n == 0)
        return;
    const double own = (double)(c->sl[0].z1 - c->sl[0].z0), plane_b = (double)plane_bytes(c);
    out->bytes_read = own * plane_b * steps;
    out->bytes_written = own * plane_b * steps;
    const double inner = c->nx > 2 && c->ny > 2 ? (double)(c->nx - 2) * (c->ny - 2) : 0;
    out->flops = 13 * inner * own * steps;
    out->link_bytes = (P > 2 ? 2 : P > 1 ? 1 : 0) * plane_b * steps;
}

/* one_gpu's own: the whole grid on one GPU, nothing over the links. */
static int sg_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (!SG_RUNGS[rung].one || c->bad)
        return 0;
    memset(out, 0, sizeof *out);
    const double steps = c->steps;
    out->items = (double)c->n * steps;
    out->bytes_read = out->bytes_written = (double)c->n * sizeof(float) * steps;
    const double inner = c->nx > 2 && c->ny > 2 && c->nz > 2 ? (double)(c->nx - 2) * (c->ny - 2) * (c->nz - 2) : 0;
    out->flops = 13 * inner * steps;
    return 1;
}

/* 512^3 and 1024 x 1024 x 512, 100 steps by default (the whole grid: strong scaling; --set split=weak makes each a
 * GPU's share). */
static const climb_shape SG_BENCH_SHAPES[] = {CLIMB_SHAPE3(512, 512, 512), CLIMB_SHAPE3(1024, 1024, 512)};
static const climb_shape SG_MAIN_SHAPES[] = {CLIMB_SHAPE3(512, 512, 512)};
/* Empty, a point a GPU, a plane a GPU, uneven slabs, odd and aligned rows, more planes than tiles. */
static const climb_shape SG_CHECK_SHAPES[] = {
    CLIMB_SHAPE3(0, 0, 0),   CLIMB_SHAPE3(4, 4, 0),    CLIMB_SHAPE3(1, 1, 1),   CLIMB_SHAPE3(3, 3, 3),
    CLIMB_SHAPE3(5, 7, 8),   CLIMB_SHAPE3(33, 17, 9),  CLIMB_SHAPE3(64, 8, 35), CLIMB_SHAPE3(130, 25, 33),
    CLIMB_SHAPE3(31, 30, 70)};
static const climb_shape SG_QUICK_SHAPES[] = {CLIMB_SHAPE3(3, 3, 3), CLIMB_SHAPE3(33, 17, 9)};

/* The host memory a case needs at the least: the grid, its download and the reference (double while it is made). */
static double sg_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 16.0 * (double)s->d[0] * (double)s->d[1] * (double)s->d[2];
}

extern "C" const climb_workload climb_stencil_gpus_workload = {
    .name = "stencil_gpus",
    .title = "7-point 3-D stencil across GPUs: a slab a GPU, halos through the host, by peer copies, under the "
             "interior's step, by NCCL",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, stencil; van Oosten, Introduction "
               "to CUDA 5.0: GPUDirect (transfers between GPUs without the host)",
    .dims = {"nx", "ny", "nz"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .min_devices = 1,
    .max_devices = CLIMB_MAX_DEVICES,
    .options = SG_OPTIONS,
    .n_options = CLIMB_COUNT(SG_OPTIONS),
    .bytes_counted = "the busiest GPU's slab read and written once a step (one_gpu: the whole grid); its halo planes "
                     "over the links",
    .items_unit = "point updates",
    .items_rate = "G updates/s",
    .bench_shapes = SG_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(SG_BENCH_SHAPES),
    .check_shapes = SG_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(SG_CHECK_SHAPES),
    .quick_shapes = SG_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(SG_QUICK_SHAPES),
    .main_shapes = SG_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(SG_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = SG_N_RUNGS,
    .rung = sg_rung_info,
    .weak_scaling = "--set split=weak --size 512x512x512",
    .case_size = sizeof(climb_case),
    .buffers = SG_BUFFERS,
    .n_buffers = CLIMB_COUNT(SG_BUFFERS),
    .init = sg_init,
    .fill = sg_fill,
    .fini = sg_fini,
    .describe = sg_describe,
    .reference = sg_reference,
    .ref_cost = sg_ref_cost,
    .ref_cost_limit = 2.0e9,
    .case_bytes = sg_case_bytes,
    .refuses = sg_refuses,
    .prepare = sg_prepare,
    .run = sg_run,
    .empty = sg_empty,
    .poison = sg_poison,
    .verify = sg_verify,
    .counts = sg_counts,
    .rung_counts = sg_rung_counts,
    .release = sg_release,
};
