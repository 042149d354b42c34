/* GPU, two GPUs or more (skipped below): the C API across GPUs on every GPU here (up to eight). The all-reduce,
 * f32 and i32, apart and in place, over the edge sizes and both sides of each change of way (flags, one shot, the
 * fused two shots, two): every
 * element of every rank's poisoned output against a CPU sum (i32 exact; f32 within 1e-5 of the sum of magnitudes,
 * accumulated in double) and the same bits on every rank, each call right after the poison on the legacy stream
 * (the communicator's streams until set); captured into a graph from rank 0's stream (set to one of the test's own)
 * and replayed three times (in place: each replay sums the last one's sums); twelve calls back to back with no
 * wait, lengths changing across the flag kernel's range (arrays below 1 MiB) and past it into the fused two shots',
 * every output checked after;
 * the all-gather (bit for bit) and the reduce-scatter (i32, exact) on both sides of their kernels' size; the peer
 * copy each way, aligned and not, every byte; the stencil across the GPUs' slabs, several steps and from a graph,
 * against the CPU's steps; SGEMM with the operands spread over the GPUs, directly and from a graph, against the
 * CPU's product; the sort across the GPUs (keys and pairs, uniform and few distinct keys, uneven shares, a rank with
 * none, in place), directly and from a graph, every key and value against a stable sort on the CPU; BFS across the
 * GPUs' vertex ranges on R-MAT graphs (undirected, and directed with their in-edges) and a deep grid, every level
 * against the CPU's, and its refusal inside a capture. After each call: no CUDA error left behind. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "base/rng.h"
#include "io/graph.h"
#include "workloads/bfs/bfs.h"
#include "workloads/sgemm/sgemm.h"
#include "workloads/stencil.h"
#include "testing.h"

static int P;
static climb_comm comm;
static int devs[8];

static void *dev_alloc(int r, size_t bytes)
{
    void *p = NULL;
    EXPECT(cudaSetDevice(devs[r]) == cudaSuccess && cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess);
    return p;
}

static void sync_all(void)
{
    for (int r = 0; r < P; r++) {
        cudaStream_t s;
        EXPECT(climb_comm_get_stream(comm, r, &s) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
    }
}

/* One all-reduce of n elements (f32 when f, else i32), in place or apart, called directly or from a graph. */
static void check_allreduce(size_t n, int f, int in_place, int graph, uint64_t seed)
{
    const size_t bytes = n * 4;
    void *in[8], *out[8];
    int32_t *h = malloc((bytes ? bytes : 4) * (size_t)P), *got = malloc(bytes ? bytes : 4);
    double *ref = calloc(n ? n : 1, sizeof *ref), *mag = calloc(n ? n : 1, sizeof *mag);
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    for (int r = 0; r < P; r++) {
        for (size_t i = 0; i < n; i++) {
            int32_t v = (int32_t)(climb_rng_next(&rng) % 2000001) - 1000000;
            if (f) {
                const float x = (float)v / 1000.0f;
                memcpy(&h[(size_t)r * n + i], &x, 4);
                ref[i] += x;
                mag[i] += fabs(x);
            } else {
                h[(size_t)r * n + i] = v;
                ref[i] += v;
            }
        }
        in[r] = dev_alloc(r, bytes);
        out[r] = in_place ? in[r] : dev_alloc(r, bytes);
        EXPECT(cudaMemcpy(in[r], h + (size_t)r * n, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
        if (!in_place)
            EXPECT(cudaMemset(out[r], 0xFF, bytes ? bytes : 1) == cudaSuccess);
    }
    /* A graph replayed `replays` times in place sums the last replay's sums: P^(replays - 1) times the sum (exact
     * in i32: |sum| <= 8 x 10^6, times at most 64). */
    const int replays = 3;
    if (graph && in_place)
        for (size_t i = 0; i < n; i++)
            for (int k = 1; k < replays; k++)
                ref[i] *= P, mag[i] *= P;
    climb_status st;
    if (graph) {
        /* The legacy streams the communicator starts on cannot be captured: streams of the test's own, which do
         * not follow the legacy stream's uploads and poison (so those are waited for first), then 0 again. */
        cudaStream_t s0, own[8];
        cudaGraph_t g = NULL;
        cudaGraphExec_t ge = NULL;
        for (int r = 0; r < P; r++) {
            EXPECT(cudaSetDevice(devs[r]) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
                   cudaStreamCreateWithFlags(&own[r], cudaStreamNonBlocking) == cudaSuccess);
            EXPECT(climb_comm_set_stream(comm, r, own[r]) == CLIMB_STATUS_SUCCESS);
        }
        EXPECT(climb_comm_get_stream(comm, 0, &s0) == CLIMB_STATUS_SUCCESS && s0 == own[0]);
        EXPECT(cudaSetDevice(devs[0]) == cudaSuccess &&
               cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal) == cudaSuccess);
        st = f ? climb_comm_allreduce_sum_f32(comm, (const float *const *)in, (float *const *)out, n)
               : climb_comm_allreduce_sum_i32(comm, (const int32_t *const *)in, (int32_t *const *)out, n);
        EXPECT(cudaSetDevice(devs[0]) == cudaSuccess && cudaStreamEndCapture(s0, &g) == cudaSuccess);
        EXPECT(g && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
        /* replayed: each replay a call of its own (small arrays: the flag kernel's next flag) */
        for (int k = 0; k < replays && ge; k++)
            EXPECT(cudaGraphLaunch(ge, s0) == cudaSuccess);
        EXPECT(ge && cudaStreamSynchronize(s0) == cudaSuccess);
        if (ge)
            cudaGraphExecDestroy(ge);
        if (g)
            cudaGraphDestroy(g);
        sync_all();
        for (int r = 0; r < P; r++) {
            EXPECT(climb_comm_set_stream(comm, r, 0) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaSetDevice(devs[r]) == cudaSuccess && cudaStreamDestroy(own[r]) == cudaSuccess);
        }
    } else {
        st = f ? climb_comm_allreduce_sum_f32(comm, (const float *const *)in, (float *const *)out, n)
               : climb_comm_allreduce_sum_i32(comm, (const int32_t *const *)in, (int32_t *const *)out, n);
    }
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s n=%zu %s%s: %s", f ? "f32" : "i32", n, in_place ? "in place" : "apart",
               graph ? ", graph" : "", climb_status_string(st));
    EXPECT(cudaGetLastError() == cudaSuccess);
    sync_all();
    int32_t *first = malloc(bytes ? bytes : 4);
    for (int r = 0; r < P && n; r++) {
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got, out[r], bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            int ok;
            if (f) {
                float x;
                memcpy(&x, &got[i], 4);
                ok = fabs((double)x - ref[i]) <= 1e-5 * mag[i] + 1e-6;
            } else {
                ok = got[i] == (int32_t)ref[i];
            }
            bad += !ok;
        }
        EXPECT_MSG(bad == 0, "%s n=%zu rank %d: %zu wrong", f ? "f32" : "i32", n, r, bad);
        if (r == 0)
            memcpy(first, got, bytes);
        else
            EXPECT_MSG(memcmp(first, got, bytes) == 0, "rank %d's bits differ from rank 0's", r);
    }
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(in[r]);
        if (!in_place)
            cudaFree(out[r]);
    }
    free(first);
    free(h);
    free(got);
    free(ref);
    free(mag);
}

/* Calls back to back with no wait between them, each on arrays of its own with inputs of its own, lengths
 * changing across the flag kernel's range and past it, into the fused two shots' (whose state the flag kernel
 * shares), apart and in place (i32, exact): a GPU a call ahead of another must never take or overwrite lines of the
 * wrong call, nor meet a partner of another call. Then every output of every call checked. */
static void check_allreduce_burst(uint64_t seed)
{
    enum { CALLS = 12 };
    const size_t lens[CALLS] = {1, 65535, 3, 4096, 262143, 1u << 20, 262144, 1000, (1u << 20) + 5, 65535, 300001, 7};
    int32_t *h[CALLS];
    double *ref[CALLS];
    void *in[CALLS][8], *out[CALLS][8];
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    for (int k = 0; k < CALLS; k++) {
        const size_t n = lens[k];
        h[k] = malloc(n * 4 * (size_t)P);
        ref[k] = calloc(n, sizeof *ref[k]);
        for (int r = 0; r < P; r++) {
            for (size_t i = 0; i < n; i++) {
                const int32_t v = (int32_t)(climb_rng_next(&rng) % 2000001) - 1000000;
                h[k][(size_t)r * n + i] = v;
                ref[k][i] += v;
            }
            in[k][r] = dev_alloc(r, n * 4);
            out[k][r] = k % 3 == 2 ? in[k][r] : dev_alloc(r, n * 4);
            EXPECT(cudaMemcpy(in[k][r], h[k] + (size_t)r * n, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            if (out[k][r] != in[k][r])
                EXPECT(cudaMemset(out[k][r], 0xFF, n * 4) == cudaSuccess);
        }
    }
    sync_all();
    for (int k = 0; k < CALLS; k++)
        EXPECT_MSG(climb_comm_allreduce_sum_i32(comm, (const int32_t *const *)in[k], (int32_t *const *)out[k],
                                                lens[k]) == CLIMB_STATUS_SUCCESS,
                   "burst call %d (n=%zu)", k, lens[k]);
    sync_all();
    EXPECT(cudaGetLastError() == cudaSuccess);
    for (int k = 0; k < CALLS; k++) {
        const size_t n = lens[k];
        int32_t *got = malloc(n * 4);
        for (int r = 0; r < P; r++) {
            EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
                   cudaMemcpy(got, out[k][r], n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            size_t bad = 0;
            for (size_t i = 0; i < n; i++)
                bad += got[i] != (int32_t)ref[k][i];
            EXPECT_MSG(bad == 0, "burst call %d (n=%zu%s) rank %d: %zu wrong", k, n, k % 3 == 2 ? ", in place" : "",
                       r, bad);
            cudaFree(in[k][r]);
            if (out[k][r] != in[k][r])
                cudaFree(out[k][r]);
        }
        free(got);
        free(h[k]);
        free(ref[k]);
    }
}

/* All-gather (f32 bits or i32; compared bit for bit) and reduce-scatter (i32, exact) of n elements a piece. */
static void check_gather_scatter(size_t n, int gather, uint64_t seed)
{
    const size_t in_n = gather ? n : n * (size_t)P, out_n = gather ? n * (size_t)P : n;
    void *in[8], *out[8];
    int32_t *h = malloc(4 * (in_n ? in_n : 1) * (size_t)P), *got = malloc(4 * (out_n ? out_n : 1));
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    climb_rng_fill_i32(&rng, h, in_n * (size_t)P, -(1 << 20), 1 << 20);
    for (int r = 0; r < P; r++) {
        in[r] = dev_alloc(r, 4 * in_n);
        out[r] = dev_alloc(r, 4 * out_n);
        EXPECT(cudaMemcpy(in[r], h + (size_t)r * in_n, 4 * in_n, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(out[r], 0xFF, out_n ? 4 * out_n : 1) == cudaSuccess);
    }
    const climb_status st =
        gather ? climb_comm_allgather_f32(comm, (const float *const *)in, (float *const *)out, n)
               : climb_comm_reducescatter_sum_i32(comm, (const int32_t *const *)in, (int32_t *const *)out, n);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s n=%zu: %s", gather ? "all-gather" : "reduce-scatter", n,
               climb_status_string(st));
    EXPECT(cudaGetLastError() == cudaSuccess);
    sync_all();
    for (int r = 0; r < P && n; r++) {
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got, out[r], 4 * out_n, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t bad = 0;
        for (size_t i = 0; i < out_n; i++) {
            int64_t want = 0;
            if (gather)
                want = h[i]; /* rank q's piece at q x n: the host array is the pieces in rank order */
            else
                for (int q = 0; q < P; q++)
                    want += h[(size_t)q * in_n + (size_t)r * n + i];
            bad += got[i] != (int32_t)want;
        }
        EXPECT_MSG(bad == 0, "%s n=%zu rank %d: %zu wrong", gather ? "all-gather" : "reduce-scatter", n, r, bad);
    }
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(in[r]);
        cudaFree(out[r]);
    }
    free(h);
    free(got);
}

static void check_peer_copy(int from, int to, size_t bytes, size_t shift)
{
    unsigned char *src = dev_alloc(from, bytes + 16), *dst = dev_alloc(to, bytes + 16);
    unsigned char *h = malloc(bytes + 16), *got = malloc(bytes + 16);
    for (size_t i = 0; i < bytes + 16; i++)
        h[i] = (unsigned char)((i * 7 + bytes) % 251);
    EXPECT(cudaSetDevice(devs[from]) == cudaSuccess && cudaMemcpy(src, h, bytes + 16, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaSetDevice(devs[to]) == cudaSuccess && cudaMemset(dst, 0xFF, bytes + 16) == cudaSuccess);
    const climb_status st = climb_comm_peer_copy(comm, to, dst + shift, from, src + shift, bytes);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%d -> %d, %zu bytes: %s", from, to, bytes, climb_status_string(st));
    EXPECT(cudaGetLastError() == cudaSuccess);
    sync_all();
    EXPECT(cudaSetDevice(devs[to]) == cudaSuccess && cudaMemcpy(got, dst, bytes + 16, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (size_t i = 0; i < bytes + 16; i++)
        bad += got[i] != (i >= shift && i < shift + bytes ? h[i] : 0xFF);
    EXPECT_MSG(bad == 0, "%d -> %d, %zu bytes at +%zu: %zu bytes wrong", from, to, bytes, shift, bad);
    cudaSetDevice(devs[from]);
    cudaFree(src);
    cudaSetDevice(devs[to]);
    cudaFree(dst);
    free(h);
    free(got);
}

/* A capture of calls on streams of the test's own (the legacy streams the communicator starts on cannot be
 * captured), begun on rank 0's; capture_replay ends it, replays the graph `replays` times, waits, and puts the
 * communicator back on the legacy streams. */
static void capture_begin(cudaStream_t own[8])
{
    for (int r = 0; r < P; r++) {
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaStreamCreateWithFlags(&own[r], cudaStreamNonBlocking) == cudaSuccess);
        EXPECT(climb_comm_set_stream(comm, r, own[r]) == CLIMB_STATUS_SUCCESS);
    }
    EXPECT(cudaSetDevice(devs[0]) == cudaSuccess &&
           cudaStreamBeginCapture(own[0], cudaStreamCaptureModeGlobal) == cudaSuccess);
}

static void capture_replay(cudaStream_t own[8], int replays)
{
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    EXPECT(cudaSetDevice(devs[0]) == cudaSuccess && cudaStreamEndCapture(own[0], &g) == cudaSuccess);
    EXPECT(g && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
    for (int k = 0; k < replays && ge; k++)
        EXPECT(cudaGraphLaunch(ge, own[0]) == cudaSuccess);
    EXPECT(ge && cudaStreamSynchronize(own[0]) == cudaSuccess);
    if (ge)
        cudaGraphExecDestroy(ge);
    if (g)
        cudaGraphDestroy(g);
    for (int r = 0; r < P; r++) {
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess && cudaStreamSynchronize(own[r]) == cudaSuccess);
        EXPECT(climb_comm_set_stream(comm, r, NULL) == CLIMB_STATUS_SUCCESS);
        cudaStreamDestroy(own[r]);
    }
}

/* The stencil across the communicator's GPUs: an nx x ny x nz grid's slabs (climb_comm_stencil_slab) filled from a
 * random grid, `steps` calls ping-ponging (the first one's halos from the grid, the others' as the call before left
 * them), the outputs poisoned first; the owned planes assembled against the CPU's steps (within the stencil's
 * tolerance). With graph, the steps are captured into one graph on streams of the test's own and replayed once. */
static void check_stencil(size_t nx, size_t ny, size_t nz, int steps, int graph, uint64_t seed)
{
    const size_t plane = nx * ny, n = plane * nz;
    const float w[7] = {0.3f, 0.12f, -0.1f, 0.11f, 0.13f, -0.09f, 0.15f};
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    float *h = malloc(n * sizeof *h), *got = malloc(n * sizeof *got);
    double *ref = malloc(n * sizeof *ref), *tmp = malloc(n * sizeof *tmp);
    climb_rng_fill_f32(&rng, h, n, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
        ref[i] = h[i];
    for (int k = 0; k < steps; k++) {
        climb_stencil_ref_step(ref, tmp, nx, ny, nz, w);
        memcpy(ref, tmp, n * sizeof *ref);
    }
    float *a[8], *b[8];
    size_t z0[8], z1[8], planes[8];
    for (int r = 0; r < P; r++) {
        EXPECT(climb_comm_stencil_slab(comm, nz, r, &z0[r], &z1[r], &planes[r]) == CLIMB_STATUS_SUCCESS);
        a[r] = dev_alloc(r, planes[r] * plane * sizeof(float));
        b[r] = dev_alloc(r, planes[r] * plane * sizeof(float));
        const size_t below = r > 0;
        EXPECT(cudaMemcpy(a[r], h + (z0[r] - below) * plane, planes[r] * plane * sizeof(float),
                          cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(b[r], 0xFF, planes[r] * plane * sizeof(float)) == cudaSuccess);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    }
    cudaStream_t own[8];
    if (graph)
        capture_begin(own);
    for (int k = 0; k < steps; k++) {
        float **src = k % 2 ? b : a, **dst = k % 2 ? a : b;
        EXPECT_MSG(climb_comm_stencil7_f32(comm, nx, ny, nz, w, (const float *const *)src, dst) ==
                       CLIMB_STATUS_SUCCESS, "stencil %zux%zux%zu step %d", nx, ny, nz, k);
    }
    if (graph)
        capture_replay(own, 1);
    sync_all();
    EXPECT(cudaGetLastError() == cudaSuccess);
    float **last = steps % 2 ? b : a;
    for (int r = 0; r < P; r++) {
        const size_t below = r > 0;
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got + z0[r] * plane, last[r] + below * plane, (z1[r] - z0[r]) * plane * sizeof(float),
                          cudaMemcpyDeviceToHost) == cudaSuccess);
    }
    const double tol = climb_stencil_tolerance(steps, 1.0);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !(fabs(got[i] - ref[i]) <= tol);
    EXPECT_MSG(bad == 0, "stencil %zux%zux%zu, %d steps%s over %d GPUs: %zu points wrong", nx, ny, nz, steps,
               graph ? " (graph)" : "", P, bad);
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(a[r]);
        cudaFree(b[r]);
    }
    free(h);
    free(got);
    free(ref);
    free(tmp);
}

/* SGEMM across the communicator's GPUs: A, B random, each rank's rows of A and C and its piece of B
 * (climb_comm_sgemm_split) uploaded, C poisoned; every element against the CPU's product in double within
 * climb_sgemm_tolerance. With graph, the call is captured on streams of the test's own and replayed twice. */
static void check_sgemm(size_t m, size_t n, size_t k, int graph, uint64_t seed)
{
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    float *h_a = malloc(m * k * 4 + 4), *h_b = malloc(k * n * 4 + 4), *got = malloc(m * n * 4);
    double *want = malloc(n * sizeof(double)), *mag = malloc(n * sizeof(double));
    climb_rng_fill_f32(&rng, h_a, m * k, -1.0f, 1.0f);
    climb_rng_fill_f32(&rng, h_b, k * n, -1.0f, 1.0f);
    float *a[8], *b[8], *c[8];
    size_t m0[8], m1[8], k0[8], k1[8];
    for (int r = 0; r < P; r++) {
        EXPECT(climb_comm_sgemm_split(comm, m, k, r, &m0[r], &m1[r], &k0[r], &k1[r]) == CLIMB_STATUS_SUCCESS);
        a[r] = dev_alloc(r, (m1[r] - m0[r]) * k * 4);
        b[r] = dev_alloc(r, (k1[r] - k0[r]) * n * 4);
        c[r] = dev_alloc(r, (m1[r] - m0[r]) * n * 4);
        EXPECT(cudaMemcpy(a[r], h_a + m0[r] * k, (m1[r] - m0[r]) * k * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemcpy(b[r], h_b + k0[r] * n, (k1[r] - k0[r]) * n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(c[r], 0xFF, (m1[r] - m0[r]) * n * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
    }
    cudaStream_t own[8];
    if (graph)
        capture_begin(own);
    const climb_status st = climb_comm_sgemm_f32(comm, m, n, k, (const float *const *)a, (const float *const *)b, c);
    if (graph)
        capture_replay(own, 2);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "sgemm %zux%zux%zu%s: %s", m, n, k, graph ? " (graph)" : "",
               climb_status_string(st));
    sync_all();
    EXPECT(cudaGetLastError() == cudaSuccess);
    for (int r = 0; r < P; r++)
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got + m0[r] * n, c[r], (m1[r] - m0[r]) * n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (size_t i = 0; i < m; i++) {
        climb_sgemm_ref_row(h_a, k ? k : 1, 0, h_b, n, 0, NULL, n, k, 1.0f, 0.0f, i, want, mag);
        for (size_t j = 0; j < n; j++)
            bad += !(fabs(got[i * n + j] - want[j]) <= climb_sgemm_tolerance(k, mag[j]));
    }
    EXPECT_MSG(bad == 0, "sgemm %zux%zux%zu%s over %d GPUs: %zu elements wrong", m, n, k, graph ? " (graph)" : "", P,
               bad);
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(a[r]);
        cudaFree(b[r]);
        cudaFree(c[r]);
    }
    free(h_a);
    free(h_b);
    free(got);
    free(want);
    free(mag);
}

/* The stable order of n keys (and their values), on the CPU: by key, then by place. */
typedef struct {
    uint32_t k, v;
    size_t at;
} sort_item;
static int sort_item_cmp(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    return x->k != y->k ? (x->k < y->k ? -1 : 1) : (x->at < y->at ? -1 : x->at > y->at);
}

/* Sort across the communicator's GPUs: rank r holds cnt[r] keys (uniform, or few: 5 values, so that runs of equal
 * keys straddle every cut), with values (pairs); outputs poisoned (or the inputs themselves: in_place); every rank's
 * output against its share of the CPU's stable order, keys and values. With graph, captured on the test's own
 * streams and replayed once (the inputs are not changed apart from in place, which a graph is not given). */
static void check_sort(const size_t *cnt, int few, int pairs, int in_place, int graph, uint64_t seed)
{
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    size_t n = 0, off[8];
    for (int r = 0; r < P; r++) {
        off[r] = n;
        n += cnt[r];
    }
    sort_item *want = malloc((n ? n : 1) * sizeof *want);
    uint32_t *h_k = malloc((n ? n : 1) * 4), *h_v = malloc((n ? n : 1) * 4), *got = malloc((n ? n : 1) * 4);
    for (size_t i = 0; i < n; i++) {
        h_k[i] = few ? (uint32_t)(climb_rng_next(&rng) % 5) * 0x33333333u : (uint32_t)climb_rng_next(&rng);
        h_v[i] = (uint32_t)i;
        want[i] = (sort_item){h_k[i], h_v[i], i};
    }
    qsort(want, n, sizeof *want, sort_item_cmp);
    uint32_t *ik[8], *iv[8], *ok[8], *ov[8];
    for (int r = 0; r < P; r++) {
        ik[r] = dev_alloc(r, cnt[r] * 4);
        iv[r] = dev_alloc(r, cnt[r] * 4);
        ok[r] = in_place ? ik[r] : dev_alloc(r, cnt[r] * 4);
        ov[r] = in_place ? iv[r] : dev_alloc(r, cnt[r] * 4);
        EXPECT(cudaMemcpy(ik[r], h_k + off[r], cnt[r] * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
               cudaMemcpy(iv[r], h_v + off[r], cnt[r] * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        if (!in_place)
            EXPECT(cudaMemset(ok[r], 0xFF, cnt[r] * 4) == cudaSuccess && cudaMemset(ov[r], 0xFF, cnt[r] * 4) == cudaSuccess);
        EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    }
    cudaStream_t own[8];
    if (graph)
        capture_begin(own);
    const climb_status st = pairs ? climb_comm_sort_pairs_u32(comm, cnt, (const uint32_t *const *)ik,
                                                              (const uint32_t *const *)iv, ok, ov)
                                  : climb_comm_sort_u32(comm, cnt, (const uint32_t *const *)ik, ok);
    if (graph)
        capture_replay(own, 1);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "sort of %zu %s%s: %s", n, pairs ? "pairs" : "keys", graph ? " (graph)" : "",
               climb_status_string(st));
    sync_all();
    EXPECT(cudaGetLastError() == cudaSuccess);
    size_t bad = 0;
    for (int r = 0; r < P; r++) {
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got + off[r], ok[r], cnt[r] * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        for (size_t i = off[r]; i < off[r] + cnt[r]; i++)
            bad += got[i] != want[i].k;
        if (pairs) {
            EXPECT(cudaMemcpy(got + off[r], ov[r], cnt[r] * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            for (size_t i = off[r]; i < off[r] + cnt[r]; i++)
                bad += got[i] != want[i].v;
        }
    }
    EXPECT_MSG(bad == 0, "sort of %zu %s (%s%s%s) over %d GPUs: %zu wrong", n, pairs ? "pairs" : "keys",
               few ? "few" : "uniform", in_place ? ", in place" : "", graph ? ", graph" : "", P, bad);
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(ik[r]);
        cudaFree(iv[r]);
        if (!in_place) {
            cudaFree(ok[r]);
            cudaFree(ov[r]);
        }
    }
    free(want);
    free(h_k);
    free(h_v);
    free(got);
}

/* BFS across the communicator's GPUs: a generated graph (kind CLIMB_GEN_RMAT, directed or not, or CLIMB_GEN_GRID2D)
 * of n vertices, each rank's rows (climb_comm_bfs_range) of its out-edges (and, directed, of its in-edges: the
 * transpose made here) uploaded, levels poisoned; every level against climb_bfs_ref. */
static void check_bfs(int kind, int directed, int32_t n, uint64_t seed)
{
    climb_csr g;
    memset(&g, 0, sizeof g);
    char err[300];
    const climb_sparse_gen sg = {kind, n, n, 0, 16, 0, seed, directed};
    EXPECT_MSG(climb_sparse_generate(&sg, &g, NULL, err, sizeof err) == 0, "%s", err);
    if (!g.row_ptr)
        return;
    const int32_t m = g.row_ptr[n];
    int32_t *trp = calloc((size_t)n + 1, 4), *tci = malloc((size_t)(m ? m : 1) * 4), *fill = calloc((size_t)n, 4);
    for (int32_t e = 0; e < m; e++)
        trp[g.col_idx[e] + 1]++;
    for (int32_t v = 0; v < n; v++)
        trp[v + 1] += trp[v];
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; e++) {
            const int32_t t = g.col_idx[e];
            tci[trp[t] + fill[t]++] = u;
        }
    int32_t *want = malloc((size_t)n * 4), *got = malloc((size_t)n * 4), *rows = malloc(((size_t)n + 1) * 4);
    int32_t source = 0; /* the first vertex with an out-edge */
    while (source < n - 1 && g.row_ptr[source + 1] == g.row_ptr[source])
        source++;
    climb_bfs_ref(n, g.row_ptr, g.col_idx, source, want, NULL, NULL);
    int32_t v0[8], v1[8], ne[8], ni[8];
    int32_t *rp[8], *ci[8], *irp[8], *ici[8], *lv[8];
    for (int r = 0; r < P; r++) {
        EXPECT(climb_comm_bfs_range(comm, n, r, &v0[r], &v1[r]) == CLIMB_STATUS_SUCCESS);
        const int32_t nl = v1[r] - v0[r];
        ne[r] = g.row_ptr[v1[r]] - g.row_ptr[v0[r]];
        ni[r] = trp[v1[r]] - trp[v0[r]];
        rp[r] = dev_alloc(r, ((size_t)nl + 1) * 4);
        ci[r] = dev_alloc(r, (size_t)ne[r] * 4);
        irp[r] = dev_alloc(r, ((size_t)nl + 1) * 4);
        ici[r] = dev_alloc(r, (size_t)ni[r] * 4);
        lv[r] = dev_alloc(r, (size_t)nl * 4);
        for (int32_t v = 0; v <= nl; v++)
            rows[v] = g.row_ptr[v0[r] + v] - g.row_ptr[v0[r]];
        EXPECT(cudaMemcpy(rp[r], rows, ((size_t)nl + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        for (int32_t v = 0; v <= nl; v++)
            rows[v] = trp[v0[r] + v] - trp[v0[r]];
        EXPECT(cudaMemcpy(irp[r], rows, ((size_t)nl + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemcpy(ci[r], g.col_idx + g.row_ptr[v0[r]], (size_t)ne[r] * 4, cudaMemcpyHostToDevice) ==
               cudaSuccess);
        EXPECT(cudaMemcpy(ici[r], tci + trp[v0[r]], (size_t)ni[r] * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(lv[r], 0x5A, (size_t)nl * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
    }
    const climb_status st =
        directed ? climb_comm_bfs(comm, n, ne, (const int32_t *const *)rp, (const int32_t *const *)ci, ni,
                                  (const int32_t *const *)irp, (const int32_t *const *)ici, source, lv)
                 : climb_comm_bfs(comm, n, ne, (const int32_t *const *)rp, (const int32_t *const *)ci, NULL, NULL,
                                  NULL, source, lv);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "bfs on %d vertices: %s", n, climb_status_string(st));
    sync_all();
    EXPECT(cudaGetLastError() == cudaSuccess);
    for (int r = 0; r < P; r++)
        EXPECT(cudaSetDevice(devs[r]) == cudaSuccess &&
               cudaMemcpy(got + v0[r], lv[r], (size_t)(v1[r] - v0[r]) * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (int32_t v = 0; v < n; v++)
        bad += got[v] != want[v];
    EXPECT_MSG(bad == 0, "bfs (%s%s, %d vertices) over %d GPUs: %zu levels wrong",
               kind == CLIMB_GEN_GRID2D ? "grid" : "rmat", directed ? ", directed" : "", n, P, bad);
    if (!directed && kind == CLIMB_GEN_RMAT) { /* inside a capture: refused, nothing left behind */
        cudaStream_t own[8];
        capture_begin(own);
        EXPECT(climb_comm_bfs(comm, n, ne, (const int32_t *const *)rp, (const int32_t *const *)ci, NULL, NULL, NULL,
                              source, lv) == CLIMB_STATUS_CAPTURE_UNSUPPORTED);
        capture_replay(own, 0);
        EXPECT(cudaGetLastError() == cudaSuccess);
    }
    for (int r = 0; r < P; r++) {
        cudaSetDevice(devs[r]);
        cudaFree(rp[r]);
        cudaFree(ci[r]);
        cudaFree(irp[r]);
        cudaFree(ici[r]);
        cudaFree(lv[r]);
    }
    climb_csr_free(&g);
    free(trp);
    free(tci);
    free(fill);
    free(want);
    free(got);
    free(rows);
}

int main(void)
{
    const int n = test_require_gpus(2);
    P = n < 8 ? n : 8;
    for (int r = 0; r < P; r++)
        devs[r] = P - 1 - r; /* rank order unlike ordinal order */
    const climb_status st = climb_comm_create(&comm, P, devs);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s", climb_status_string(st));
    if (st != CLIMB_STATUS_SUCCESS)
        return test_finish("test_gpu_comm");
    for (int r = 0; r < P; r++) { /* each GPU's legacy stream until set: the poison just before needs no wait */
        cudaStream_t s = (cudaStream_t)1;
        EXPECT(climb_comm_get_stream(comm, r, &s) == CLIMB_STATUS_SUCCESS && s == 0);
    }
    /* elements: the flags below 1 MiB (2^18), one shot below 4 MiB (apart), the fused two shots below 64 MiB, two
     * shots from there */
    const size_t sizes[] = {0,       1,        3,        1000,           65535,           262143,
                            262144,  1048575,  1u << 20, (1u << 20) + 7, (16u << 20) - 1, 16u << 20};
    uint64_t seed = climb_fresh_seed();
    printf("test_gpu_comm: %d GPUs, seed %llu\n", P, (unsigned long long)seed);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int f = 0; f < 2; f++)
            for (int in_place = 0; in_place < 2; in_place++)
                check_allreduce(sizes[i], f, in_place, 0, seed++);
    check_allreduce(1000, 1, 0, 1, seed++);
    check_allreduce(65535, 0, 1, 1, seed++);
    check_allreduce_burst(seed++);
    check_allreduce((1u << 20) + 7, 0, 1, 1, seed++);
    /* the kernels of both; past their crossovers (the all-gather's 16 MiB a piece, the reduce-scatter's 128 MiB: the
     * copy engines, and the reduce-scatter's workspace) on up to four GPUs (the host copy is up to P^2 pieces) */
    const size_t pieces[] = {0, 1, 1000, 65535, 70001, (1u << 20) + 3};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        check_gather_scatter(pieces[i], 1, seed++);
        check_gather_scatter(pieces[i], 0, seed++);
    }
    if (P <= 4) {
        check_gather_scatter((4u << 20) + 1, 1, seed++);
        check_gather_scatter((16u << 20) + 1, 0, seed++);
        check_gather_scatter((32u << 20) + 1, 0, seed++);
    }
    const size_t bytes[] = {1, 15, 16, 4096, 65537, (1u << 20) - 16, 1u << 20, 1u << 22}; /* both sides of 1 MiB */
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
        check_peer_copy(0, 1, bytes[i], 0);
        check_peer_copy(1, 0, bytes[i], 3);
        check_peer_copy(0, 0, bytes[i], 1);
    }
    /* the stencil: a plane a GPU (nz = P), uneven slabs, odd and aligned rows; 1 to 4 steps; from a graph */
    check_stencil(5, 4, (size_t)P, 3, 0, seed++);
    check_stencil(33, 17, (size_t)P * 3 + 1, 4, 0, seed++);
    check_stencil(64, 8, 35, 1, 0, seed++);
    check_stencil(130, 25, 33, 2, 1, seed++);
    /* SGEMM: fewer rows and pieces than GPUs, odd sizes, k 0, a product past the tiles; from a graph */
    check_sgemm(3, 5, 2, 0, seed++);
    check_sgemm(130, 257, 129, 0, seed++);
    check_sgemm(64, 40, 0, 0, seed++);
    check_sgemm(1000, 300, 500, 0, seed++);
    check_sgemm(257, 130, 513, 1, seed++);
    /* sort: uneven shares, a rank with none, a share past a radix tile; uniform and few keys; in place; a graph */
    {
        size_t cnt[8], big[8];
        for (int r = 0; r < P; r++) {
            cnt[r] = r == 1 ? 0 : 1000 + 37 * (size_t)r;
            big[r] = ((size_t)1 << 20) + 7 * (size_t)r;
        }
        for (int pairs = 0; pairs < 2; pairs++)
            for (int few = 0; few < 2; few++) {
                check_sort(cnt, few, pairs, 0, 0, seed++);
                check_sort(big, few, pairs, pairs, 0, seed++);
            }
        check_sort(big, 0, 1, 0, 1, seed++);
        check_sort(cnt, 1, 0, 0, 1, seed++);
    }
    /* BFS: R-MAT undirected and directed, a graph of fewer words than ranks, a deep grid */
    check_bfs(CLIMB_GEN_RMAT, 0, 1000, seed++);
    check_bfs(CLIMB_GEN_RMAT, 0, 1 << 16, seed++);
    check_bfs(CLIMB_GEN_RMAT, 1, (1 << 16) + 5, seed++);
    check_bfs(CLIMB_GEN_RMAT, 0, 40, seed++);
    check_bfs(CLIMB_GEN_GRID2D, 0, 300 * 300, seed++);
    EXPECT(climb_comm_destroy(comm) == CLIMB_STATUS_SUCCESS);
    return test_finish("test_gpu_comm");
}
