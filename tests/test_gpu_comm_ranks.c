/* GPU, two GPUs or more (skipped below): the rank form of the C API across GPUs, one process a GPU. The test starts
 * two copies of this program (posix_spawn), hands them the id rank 0's communicator is made from (as MPI_Bcast
 * would), and each, on its own GPU, checks: the all-reduce (f32 values that sum exactly; in place too, and captured
 * into a graph), the all-gather and the reduce-scatter (i32, exact) against closed forms, every element of a
 * poisoned output; the stencil's steps over the ranks' slabs and SGEMM over their rows against the CPU; the sort
 * (pairs over uneven shares with runs of equal keys across the cuts; keys in place from a graph) against a stable
 * order made here; a peer copy
 * that names another process's GPU refused; no CUDA error left. Then a rank alone
 * (its partner never starts) gives up after CLIMB_COMM_TIMEOUT=3 seconds with CLIMB_STATUS_LAUNCH_FAILED instead of
 * hanging. The parent fails if a child does, or does not finish within two minutes. */
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "climb.h"
#include "base/rng.h"
#include "io/graph.h"
#include "workloads/bfs/bfs.h"
#include "workloads/sgemm/sgemm.h"
#include "workloads/stencil.h"
#include "testing.h"

extern char **environ;

static const size_t N = (1u << 18) + 3;

static void *upload(const void *h, size_t bytes)
{
    void *d = NULL;
    EXPECT(cudaMalloc(&d, bytes) == cudaSuccess && cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    return d;
}

/* The id from the hex the parent passed. */
static climb_comm_id id_of(const char *hex)
{
    climb_comm_id id;
    memset(&id, 0, sizeof id);
    for (size_t i = 0; i < sizeof id.bytes && hex[2 * i] && hex[2 * i + 1]; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        id.bytes[i] = (char)v;
    }
    return id;
}

/* The hex of an id, for a child's command line. */
static void hex_of(const climb_comm_id *id, char *hex)
{
    for (size_t i = 0; i < sizeof id->bytes; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)id->bytes[i]);
}

/* qsort's order of places by their keys (sort_keys), ties by place: the stable order. */
static const uint32_t *sort_keys;
static int by_key_then_place(const void *a, const void *b)
{
    const size_t i = *(const size_t *)a, j = *(const size_t *)b;
    return sort_keys[i] != sort_keys[j] ? (sort_keys[i] < sort_keys[j] ? -1 : 1) : (i < j ? -1 : i > j);
}

static int child(int rank, int nranks, const char *hex)
{
    const climb_comm_id id = id_of(hex);
    EXPECT(cudaSetDevice(rank) == cudaSuccess);
    climb_comm c = NULL;
    const climb_status st = climb_comm_init_rank(&c, nranks, id, rank, rank);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "rank %d: %s", rank, climb_status_string(st));
    if (!c)
        return test_finish("test_gpu_comm_ranks (child)");
    int size = 0, nr = 0, me = -1;
    EXPECT(climb_comm_size(c, &size) == CLIMB_STATUS_SUCCESS && size == 1);
    EXPECT(climb_comm_ranks(c, &nr, &me) == CLIMB_STATUS_SUCCESS && nr == nranks && me == rank);
    cudaStream_t s;
    EXPECT(climb_comm_get_stream(c, 0, &s) == CLIMB_STATUS_SUCCESS);

    /* all-reduce: x[i] = (i % 1000) (rank + 1) / 8, sums exact in f32 */
    const size_t n = N, all = N * (size_t)nranks;
    float *hf = malloc(4 * n);
    int32_t *hi = malloc(4 * all), *got = malloc(4 * all);
    for (size_t i = 0; i < n; i++)
        hf[i] = (float)((i % 1000) * (size_t)(rank + 1)) / 8.0f;
    const double ranks_sum = nranks * (nranks + 1) / 2.0;
    for (int pass = 0; pass < 3; pass++) { /* apart, in place, from a graph */
        float *din = upload(hf, 4 * n), *dout = pass == 1 ? din : NULL;
        if (!dout) {
            EXPECT(cudaMalloc((void **)&dout, 4 * n) == cudaSuccess);
            EXPECT(cudaMemset(dout, 0xFF, 4 * n) == cudaSuccess);
        }
        const float *in1[1] = {din};
        float *out1[1] = {dout};
        if (pass == 2) { /* on a stream of the test's own (the legacy one cannot be captured), then 0 again */
            cudaGraph_t g = NULL;
            cudaGraphExec_t ge = NULL;
            EXPECT(cudaDeviceSynchronize() == cudaSuccess &&
                   cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
            EXPECT(climb_comm_set_stream(c, 0, s) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
            EXPECT(climb_comm_allreduce_sum_f32(c, in1, out1, n) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess);
            EXPECT(ge && cudaGraphLaunch(ge, s) == cudaSuccess);
            EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
            if (ge)
                cudaGraphExecDestroy(ge);
            if (g)
                cudaGraphDestroy(g);
            EXPECT(climb_comm_set_stream(c, 0, 0) == CLIMB_STATUS_SUCCESS && cudaStreamDestroy(s) == cudaSuccess);
            s = 0;
        } else {
            EXPECT(climb_comm_allreduce_sum_f32(c, in1, out1, n) == CLIMB_STATUS_SUCCESS);
        }
        EXPECT(cudaGetLastError() == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
        EXPECT(cudaMemcpy(got, dout, 4 * n, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            float x;
            memcpy(&x, &got[i], 4);
            bad += (double)x != (double)(i % 1000) * ranks_sum / 8.0;
        }
        EXPECT_MSG(bad == 0, "rank %d all-reduce pass %d: %zu wrong", rank, pass, bad);
        if (dout != din)
            cudaFree(dout);
        cudaFree(din);
    }

    /* all-gather: rank q's piece is q x 1000003 + i */
    for (size_t i = 0; i < n; i++)
        hi[i] = (int32_t)((size_t)rank * 1000003u + i);
    int32_t *din = upload(hi, 4 * n), *dout = NULL;
    EXPECT(cudaMalloc((void **)&dout, 4 * all) == cudaSuccess && cudaMemset(dout, 0xFF, 4 * all) == cudaSuccess);
    const int32_t *gin[1] = {din};
    int32_t *gout[1] = {dout};
    EXPECT(climb_comm_allgather_i32(c, gin, gout, n) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess &&
           cudaMemcpy(got, dout, 4 * all, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t bad = 0;
    for (size_t j = 0; j < all; j++)
        bad += got[j] != (int32_t)((j / n) * 1000003u + j % n);
    EXPECT_MSG(bad == 0, "rank %d all-gather: %zu wrong", rank, bad);
    cudaFree(din);
    cudaFree(dout);

    /* reduce-scatter: every rank's array is rank + j; piece r of the sum is sum(q) + nranks (r n + i) */
    for (size_t j = 0; j < all; j++)
        hi[j] = (int32_t)((size_t)rank + j);
    din = upload(hi, 4 * all);
    EXPECT(cudaMalloc((void **)&dout, 4 * n) == cudaSuccess && cudaMemset(dout, 0xFF, 4 * n) == cudaSuccess);
    gin[0] = din;
    gout[0] = dout;
    EXPECT(climb_comm_reducescatter_sum_i32(c, gin, gout, n) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess && cudaMemcpy(got, dout, 4 * n, cudaMemcpyDeviceToHost) == cudaSuccess);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += got[i] != (int32_t)((int64_t)(ranks_sum - nranks) + (int64_t)nranks * (int64_t)((size_t)rank * n + i));
    EXPECT_MSG(bad == 0, "rank %d reduce-scatter: %zu wrong", rank, bad);

    /* the stencil, 3 steps of a 33 x 17 x (3 nranks + 1) grid drawn alike in every process: this rank's slab (its
     * halos from the grid for the first step, from NCCL after), its owned planes against the CPU's steps */
    {
        const size_t nx = 33, ny = 17, nz = 3 * (size_t)nranks + 1, plane = nx * ny, total = plane * nz;
        const float wts[7] = {0.3f, 0.12f, -0.1f, 0.11f, 0.13f, -0.09f, 0.15f};
        float *grid = malloc(total * 4), *mine = malloc(total * 4);
        double *ref = malloc(total * 8), *tmp = malloc(total * 8);
        climb_rng rng;
        climb_rng_seed(&rng, 20261128);
        climb_rng_fill_f32(&rng, grid, total, -1.0f, 1.0f);
        for (size_t i = 0; i < total; i++)
            ref[i] = grid[i];
        for (int k = 0; k < 3; k++) {
            climb_stencil_ref_step(ref, tmp, nx, ny, nz, wts);
            memcpy(ref, tmp, total * 8);
        }
        size_t z0, z1, planes;
        EXPECT(climb_comm_stencil_slab(c, nz, rank, &z0, &z1, &planes) == CLIMB_STATUS_SUCCESS);
        const size_t below = rank > 0;
        float *sa = upload(grid + (z0 - below) * plane, planes * plane * 4), *sb = NULL;
        EXPECT(cudaMalloc((void **)&sb, planes * plane * 4) == cudaSuccess &&
               cudaMemset(sb, 0xFF, planes * plane * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        for (int k = 0; k < 3; k++) {
            const float *in1[1] = {k % 2 ? sb : sa};
            float *out1[1] = {k % 2 ? sa : sb};
            EXPECT(climb_comm_stencil7_f32(c, nx, ny, nz, wts, in1, out1) == CLIMB_STATUS_SUCCESS);
        }
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess && cudaGetLastError() == cudaSuccess);
        EXPECT(cudaMemcpy(mine, sb + below * plane, (z1 - z0) * plane * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t wrong = 0;
        for (size_t i = 0; i < (z1 - z0) * plane; i++)
            wrong += !(fabs(mine[i] - ref[z0 * plane + i]) <= climb_stencil_tolerance(3, 1.0));
        EXPECT_MSG(wrong == 0, "rank %d stencil: %zu points wrong", rank, wrong);
        cudaFree(sa);
        cudaFree(sb);
        free(grid);
        free(mine);
        free(ref);
        free(tmp);
    }

    /* SGEMM, 130 x 257 x 129 drawn alike in every process: this rank's rows of A and C and its piece of B, its rows
     * of C against the CPU's */
    {
        const size_t m = 130, nn = 257, k = 129;
        float *ha = malloc(m * k * 4), *hb = malloc(k * nn * 4), *hc = malloc(m * nn * 4);
        double *want = malloc(nn * 8), *mag = malloc(nn * 8);
        climb_rng rng;
        climb_rng_seed(&rng, 20261129);
        climb_rng_fill_f32(&rng, ha, m * k, -1.0f, 1.0f);
        climb_rng_fill_f32(&rng, hb, k * nn, -1.0f, 1.0f);
        size_t m0, m1, k0, k1;
        EXPECT(climb_comm_sgemm_split(c, m, k, rank, &m0, &m1, &k0, &k1) == CLIMB_STATUS_SUCCESS);
        float *da = upload(ha + m0 * k, (m1 - m0) * k * 4), *db = upload(hb + k0 * nn, (k1 - k0) * nn * 4), *dc = NULL;
        EXPECT(cudaMalloc((void **)&dc, (m1 - m0) * nn * 4 + 4) == cudaSuccess &&
               cudaMemset(dc, 0xFF, (m1 - m0) * nn * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        const float *a1[1] = {da}, *b1[1] = {db};
        float *c1[1] = {dc};
        EXPECT(climb_comm_sgemm_f32(c, m, nn, k, a1, b1, c1) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess && cudaGetLastError() == cudaSuccess);
        EXPECT(cudaMemcpy(hc, dc, (m1 - m0) * nn * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t wrong = 0;
        for (size_t i = m0; i < m1; i++) {
            climb_sgemm_ref_row(ha, k, 0, hb, nn, 0, NULL, nn, k, 1.0f, 0.0f, i, want, mag);
            for (size_t j = 0; j < nn; j++)
                wrong += !(fabs(hc[(i - m0) * nn + j] - want[j]) <= climb_sgemm_tolerance(k, mag[j]));
        }
        EXPECT_MSG(wrong == 0, "rank %d sgemm: %zu elements wrong", rank, wrong);
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
        free(ha);
        free(hb);
        free(hc);
        free(want);
        free(mag);
    }

    /* sort, pairs, every rank's keys drawn from one seed (five values: runs across every cut), rank r holding
     * 3000 + 1001 r of them; then keys alone in place from a graph (every key to rank 0 and back) */
    for (int pass = 0; pass < 2; pass++) {
        size_t counts[8], off[8], total = 0;
        for (int q = 0; q < nranks && q < 8; q++) {
            counts[q] = 3000 + 1001 * (size_t)q;
            off[q] = total;
            total += counts[q];
        }
        uint32_t *hk = malloc(total * 4), *hv = malloc(total * 4), *got_k = malloc(total * 4), *got_v = malloc(total * 4);
        climb_rng rng;
        climb_rng_seed(&rng, 20261207 + (uint64_t)pass);
        for (size_t i = 0; i < total; i++) {
            hk[i] = pass ? (uint32_t)climb_rng_next(&rng) : (uint32_t)(climb_rng_next(&rng) % 5) * 0x30000001u;
            hv[i] = (uint32_t)i;
        }
        /* the stable order: by key, then by place */
        size_t *idx = malloc(total * sizeof *idx);
        for (size_t i = 0; i < total; i++)
            idx[i] = i;
        sort_keys = hk;
        qsort(idx, total, sizeof *idx, by_key_then_place);
        const size_t mine = counts[rank];
        uint32_t *dk = upload(hk + off[rank], mine * 4), *dv = upload(hv + off[rank], mine * 4), *ok = NULL, *ov = NULL;
        EXPECT(cudaMalloc((void **)&ok, mine * 4 + 4) == cudaSuccess && cudaMalloc((void **)&ov, mine * 4 + 4) == cudaSuccess &&
               cudaMemset(ok, 0xFF, mine * 4) == cudaSuccess && cudaMemset(ov, 0xFF, mine * 4) == cudaSuccess &&
               cudaDeviceSynchronize() == cudaSuccess);
        const uint32_t *ik[1] = {dk}, *iv[1] = {dv};
        uint32_t *okk[1] = {ok}, *ovv[1] = {ov}, *same[1] = {dk};
        climb_status sst;
        if (pass == 0) {
            sst = climb_comm_sort_pairs_u32(c, counts, ik, iv, okk, ovv);
        } else {
            cudaStream_t own;
            cudaGraph_t g = NULL;
            cudaGraphExec_t ge = NULL;
            EXPECT(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) == cudaSuccess &&
                   climb_comm_set_stream(c, 0, own) == CLIMB_STATUS_SUCCESS &&
                   cudaStreamBeginCapture(own, cudaStreamCaptureModeGlobal) == cudaSuccess);
            sst = climb_comm_sort_u32(c, counts, ik, same);
            EXPECT(cudaStreamEndCapture(own, &g) == cudaSuccess && g && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess &&
                   cudaGraphLaunch(ge, own) == cudaSuccess && cudaStreamSynchronize(own) == cudaSuccess);
            if (ge)
                cudaGraphExecDestroy(ge);
            if (g)
                cudaGraphDestroy(g);
            EXPECT(climb_comm_set_stream(c, 0, NULL) == CLIMB_STATUS_SUCCESS);
            cudaStreamDestroy(own);
        }
        EXPECT_MSG(sst == CLIMB_STATUS_SUCCESS, "rank %d sort (pass %d): %s", rank, pass, climb_status_string(sst));
        EXPECT(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
        EXPECT(cudaMemcpy(got_k, pass ? dk : okk[0], mine * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        if (pass == 0)
            EXPECT(cudaMemcpy(got_v, ov, mine * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t wrong = 0;
        for (size_t i = 0; i < mine; i++)
            wrong += got_k[i] != hk[idx[off[rank] + i]] || (pass == 0 && got_v[i] != (uint32_t)idx[off[rank] + i]);
        EXPECT_MSG(wrong == 0, "rank %d sort (pass %d): %zu wrong", rank, pass, wrong);
        cudaFree(dk);
        cudaFree(dv);
        cudaFree(okk[0]);
        cudaFree(ov);
        free(hk);
        free(hv);
        free(got_k);
        free(got_v);
        free(idx);
    }

    /* BFS over an R-MAT graph every rank draws alike (undirected, then directed with its in-edges), each rank its
     * vertices' rows; every level of this rank's against the CPU's */
    for (int directed = 0; directed < 2; directed++) {
        climb_csr g;
        memset(&g, 0, sizeof g);
        char err[300];
        const int32_t nv = (1 << 14) + 3;
        const climb_sparse_gen sg = {CLIMB_GEN_RMAT, nv, nv, 0, 16, 0, 20261207, directed};
        EXPECT_MSG(climb_sparse_generate(&sg, &g, NULL, err, sizeof err) == 0, "%s", err);
        if (!g.row_ptr)
            break;
        const int32_t m = g.row_ptr[nv];
        int32_t *trp = calloc((size_t)nv + 1, 4), *tci = malloc((size_t)m * 4 + 4), *fill = calloc((size_t)nv, 4);
        for (int32_t e = 0; e < m; e++)
            trp[g.col_idx[e] + 1]++;
        for (int32_t v = 0; v < nv; v++)
            trp[v + 1] += trp[v];
        for (int32_t u = 0; u < nv; u++)
            for (int32_t e = g.row_ptr[u]; e < g.row_ptr[u + 1]; e++)
                tci[trp[g.col_idx[e]] + fill[g.col_idx[e]]++] = u;
        int32_t *want = malloc((size_t)nv * 4), *rows = malloc(((size_t)nv + 1) * 4), *got_l = malloc((size_t)nv * 4);
        const int32_t source = 1;
        climb_bfs_ref(nv, g.row_ptr, g.col_idx, source, want, NULL, NULL);
        int32_t ne[8], ni[8], v0 = 0, v1 = 0;
        for (int q = 0; q < nranks && q < 8; q++) {
            int32_t a, b;
            EXPECT(climb_comm_bfs_range(c, nv, q, &a, &b) == CLIMB_STATUS_SUCCESS);
            ne[q] = g.row_ptr[b] - g.row_ptr[a];
            ni[q] = trp[b] - trp[a];
            if (q == rank) {
                v0 = a;
                v1 = b;
            }
        }
        const int32_t nl = v1 - v0;
        for (int32_t v = 0; v <= nl; v++)
            rows[v] = g.row_ptr[v0 + v] - g.row_ptr[v0];
        int32_t *drp = upload(rows, ((size_t)nl + 1) * 4), *dci = upload(g.col_idx + g.row_ptr[v0], (size_t)ne[rank] * 4);
        for (int32_t v = 0; v <= nl; v++)
            rows[v] = trp[v0 + v] - trp[v0];
        int32_t *dirp = upload(rows, ((size_t)nl + 1) * 4), *dici = upload(tci + trp[v0], (size_t)ni[rank] * 4);
        int32_t *dl = NULL;
        EXPECT(cudaMalloc((void **)&dl, (size_t)nl * 4 + 4) == cudaSuccess &&
               cudaMemset(dl, 0x5A, (size_t)nl * 4) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        const int32_t *r1[1] = {drp}, *c1[1] = {dci}, *ir1[1] = {dirp}, *ic1[1] = {dici};
        int32_t *l1[1] = {dl};
        const climb_status bst = directed ? climb_comm_bfs(c, nv, ne, r1, c1, ni, ir1, ic1, source, l1)
                                          : climb_comm_bfs(c, nv, ne, r1, c1, NULL, NULL, NULL, source, l1);
        EXPECT_MSG(bst == CLIMB_STATUS_SUCCESS, "rank %d bfs: %s", rank, climb_status_string(bst));
        EXPECT(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
        EXPECT(cudaMemcpy(got_l, dl, (size_t)nl * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t wrong = 0;
        for (int32_t v = 0; v < nl; v++)
            wrong += got_l[v] != want[v0 + v];
        EXPECT_MSG(wrong == 0, "rank %d bfs (%s): %zu levels wrong", rank, directed ? "directed" : "undirected", wrong);
        cudaFree(drp);
        cudaFree(dci);
        cudaFree(dirp);
        cudaFree(dici);
        cudaFree(dl);
        climb_csr_free(&g);
        free(trp);
        free(tci);
        free(fill);
        free(want);
        free(rows);
        free(got_l);
    }

    /* a copy naming another process's GPU */
    EXPECT(climb_comm_peer_copy(c, 1, dout, 0, din, 64) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(cudaGetLastError() == cudaSuccess);
    cudaFree(din);
    cudaFree(dout);
    free(hf);
    free(hi);
    free(got);
    EXPECT(climb_comm_destroy(c) == CLIMB_STATUS_SUCCESS);
    return test_finish("test_gpu_comm_ranks (child)");
}

/* A rank whose partner never comes: climb_comm_init_rank returns, failed, within the timeout (3 s here) and a
 * margin. */
static int alone(const char *hex)
{
    const climb_comm_id id = id_of(hex);
    climb_comm c = NULL;
    const time_t t0 = time(NULL);
    const climb_status st = climb_comm_init_rank(&c, 2, id, 0, 0);
    const long took = (long)(time(NULL) - t0);
    EXPECT_MSG(st == CLIMB_STATUS_LAUNCH_FAILED && c == NULL, "alone: %s", climb_status_string(st));
    EXPECT_MSG(took >= 2 && took <= 60, "alone: gave up after %ld s", took);
    EXPECT(cudaGetLastError() == cudaSuccess);
    return test_finish("test_gpu_comm_ranks (alone)");
}

static pid_t spawn(char **args, char **env)
{
    pid_t pid = -1;
    EXPECT(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, env) == 0);
    return pid;
}

/* The child's exit, or a kill after `until`. 1 when it exited 0. */
static int reap(pid_t pid, time_t until, const char *who)
{
    int status = -1;
    pid_t done = 0;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && time(NULL) < until)
        usleep(100000);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    EXPECT_MSG(done == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s %d", who,
               done == 0 ? "did not finish in time" : "exit", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return done == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "child") == 0)
        return child(atoi(argv[2]), atoi(argv[3]), argv[4]);
    if (argc == 3 && strcmp(argv[1], "alone") == 0)
        return alone(argv[2]);
    test_require_gpus(2);
    climb_comm_id id;
    const climb_status st = climb_comm_get_id(&id);
    EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "climb_comm_get_id: %s (NCCL is needed here)", climb_status_string(st));
    if (st != CLIMB_STATUS_SUCCESS)
        return test_finish("test_gpu_comm_ranks");
    char hex[2 * sizeof id.bytes + 1];
    hex_of(&id, hex);
    const int nranks = 2;
    pid_t pid[2];
    for (int r = 0; r < nranks; r++) {
        char rank[16], count[16];
        snprintf(rank, sizeof rank, "%d", r);
        snprintf(count, sizeof count, "%d", nranks);
        char *args[] = {(char *)"climb-tests", (char *)"test_gpu_comm_ranks", (char *)"child", rank, count, hex, NULL};
        pid[r] = spawn(args, environ);
    }
    const time_t until = time(NULL) + 120;
    for (int r = 0; r < nranks; r++) {
        char who[32];
        snprintf(who, sizeof who, "rank %d", r);
        if (!reap(pid[r], until, who) && r == 0 && pid[1] > 0)
            kill(pid[1], SIGKILL); /* rank 0 failed: its partner would wait for it */
    }
    /* alone: a fresh id, its partner never started, a 3-second timeout in its environment */
    EXPECT(climb_comm_get_id(&id) == CLIMB_STATUS_SUCCESS);
    hex_of(&id, hex);
    setenv("CLIMB_COMM_TIMEOUT", "3", 1);
    char *args[] = {(char *)"climb-tests", (char *)"test_gpu_comm_ranks", (char *)"alone", hex, NULL};
    reap(spawn(args, environ), time(NULL) + 90, "a rank alone");
    return test_finish("test_gpu_comm_ranks");
}
