/* GPU: the C API after refused calls, and breadth-first search on corrupt graphs.
 *
 * Every refused call below (a size past its limit, a product that wraps, an overlap, host memory, a misaligned
 * pointer, a bad layer or flag) must return INVALID_VALUE having launched and allocated nothing (the counting shim,
 * tests/cuda_shim.h, passing every call to the runtime), and leave the caller's stream idle and the runtime's error
 * state clean; the next valid call must then give the right result. The trial's layer with pad_h = 2^30 is among
 * them (it used to return LAUNCH_FAILED with the device left busy).
 *
 * BFS: climb_bfs_csr with CLIMB_BFS_VALIDATE refuses each corrupt graph with INVALID_MATRIX and the context intact,
 * and runs a valid one right. The same corrupt graphs run unchecked (climb_bfs) each in a child process (this
 * program again: an unchecked corrupt graph may kill the context), which must end within a time limit and say what
 * happened; the header documents it as undefined behaviour, so any ending but a hang is accepted and reported. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "climb.h"
#include "cuda_shim.h"
#include "testing.h"

/* ---- BFS's graphs ---- */

/* A ring of n vertices with chords i -> i + 7, both directions stored: 4 edges a vertex. */
static int ring_graph(int n, int32_t *rp, int32_t *ci)
{
    int e = 0;
    for (int v = 0; v < n; v++) {
        rp[v] = e;
        ci[e++] = (v + 1) % n;
        ci[e++] = (v + n - 1) % n;
        ci[e++] = (v + 7) % n;
        ci[e++] = (v + n - 7) % n;
    }
    rp[n] = e;
    return e;
}

static void bfs_ref(int n, const int32_t *rp, const int32_t *ci, int src, int32_t *lv)
{
    int32_t *q = malloc((size_t)n * sizeof *q);
    for (int v = 0; v < n; v++)
        lv[v] = -1;
    int head = 0, tail = 0;
    lv[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        const int v = q[head++];
        for (int k = rp[v]; k < rp[v + 1]; k++)
            if (lv[ci[k]] < 0) {
                lv[ci[k]] = lv[v] + 1;
                q[tail++] = ci[k];
            }
    }
    free(q);
}

enum { N = 4096, E = 4 * N };

/* Corrupt graph k of the ring (k 0..4): what is wrong, and the arrays changed in place. *edges is the column array's
 * length the caller states. */
static const char *corrupt(int k, int32_t *rp, int32_t *ci, int *edges)
{
    switch (k) {
    case 0: /* row_ptr[n] past the column array: the trial's graph */
        rp[N] = E + 1000000;
        return "row_ptr[n] past the column array";
    case 1:
        rp[N / 2] = rp[N / 2 + 1] + 5; /* a decrease */
        return "row pointers decreasing";
    case 2:
        ci[1234] = 1 << 30;
        return "a column far past n";
    case 3:
        ci[77] = -3;
        return "a negative column";
    case 4:
        *edges = E - 16; /* the stated column array is shorter than row_ptr[n] says */
        return "row_ptr[n] != n_edges";
    }
    return NULL;
}
#define N_CORRUPT 5

/* The child: corrupt graph k run by climb_bfs, unchecked; prints what the call and the next synchronisation said. */
static int child(int k)
{
    int32_t *rp = malloc((N + 1) * sizeof *rp), *ci = malloc(E * sizeof *ci);
    ring_graph(N, rp, ci);
    int edges = E;
    corrupt(k, rp, ci, &edges);
    int32_t *d_rp, *d_ci, *d_lv;
    climb_handle h;
    if (cudaMalloc((void **)&d_rp, (N + 1) * 4) != cudaSuccess || cudaMalloc((void **)&d_ci, E * 4) != cudaSuccess ||
        cudaMalloc((void **)&d_lv, N * 4) != cudaSuccess || climb_create(&h, 0) != CLIMB_STATUS_SUCCESS)
        return 3;
    cudaMemcpy(d_rp, rp, (N + 1) * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_ci, ci, E * 4, cudaMemcpyHostToDevice);
    const climb_status st = climb_bfs(h, N, d_rp, d_ci, 0, d_lv);
    const cudaError_t e = cudaDeviceSynchronize();
    printf("unchecked: climb_bfs returned %s; the next synchronisation: %s\n", climb_status_string(st),
           cudaGetErrorName(e));
    fflush(stdout);
    return 0;
}

/* Runs this test as a child for corrupt graph k; 1 when it ended by itself within the limit. */
static int run_child(const char *self, int k, char *said, size_t len)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 0;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        char arg[16];
        snprintf(arg, sizeof arg, "%d", k);
        execl(self, self, "test_gpu_api_refusals", "--corrupt", arg, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    int status = 0, waited = 0;
    for (int t = 0; t < 1200 && !waited; t++) { /* 120 s */
        waited = waitpid(pid, &status, WNOHANG) == pid;
        if (!waited)
            usleep(100000);
    }
    if (!waited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    const ssize_t n = read(fd[0], said, len - 1);
    said[n > 0 ? n : 0] = '\0';
    close(fd[0]);
    return waited && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the refusals ---- */

static climb_handle h;
static cudaStream_t s;
static int32_t *d_a, *d_b; /* 1 Mi elements each */
static int32_t *host;      /* pageable host memory */
#define M (1 << 20)

/* A refused call: INVALID_VALUE, nothing launched or allocated, the stream idle, no error left; then a valid call
 * (a reduction of known input) right. */
static void refused(climb_status st, int line, const char *text)
{
    const long launches = climb_shim_launches();
    const cudaError_t q = cudaStreamQuery(s), last = cudaGetLastError();
    test_checks++;
    if (st != CLIMB_STATUS_INVALID_VALUE || launches != 0 || q != cudaSuccess || last != cudaSuccess ||
        climb_last_cuda_error(h) != cudaSuccess) {
        test_failures++;
        fprintf(stderr, "test_gpu_api_refusals.c:%d: %s: status %s, %ld launches or allocations (%s), stream %s, last "
                        "error %s\n", line, text, climb_status_string(st), launches, climb_shim_log(),
                cudaGetErrorName(q), cudaGetErrorName(last));
    }
    int32_t sum = -1;
    EXPECT(climb_reduce_sum_i32(h, d_a, M, d_b + M - 1) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpyAsync(&sum, d_b + M - 1, 4, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT_MSG(sum == M, "line %d: the next call's sum %d, expected %d", line, sum, M);
}
#define REFUSED(call)                                                                                          \
    do {                                                                                                       \
        climb_shim_reset();                                                                                    \
        const climb_status st_ = (call);                                                                       \
        refused(st_, __LINE__, #call);                                                                         \
    } while (0)

static void refusals(void)
{
    float *fa = (float *)d_a, *fb = (float *)d_b;
    REFUSED(climb_reduce_sum_i32(h, d_a, 16, d_a + 8));
    REFUSED(climb_reduce_sum_i32(h, host, 16, d_b));
    REFUSED(climb_scan_inclusive_i32(h, d_a, 1000, d_a + 1));
    REFUSED(climb_scan_inclusive_i32(h, d_a, ((size_t)1 << 40) + 1, d_b));
    REFUSED(climb_histogram_u8(h, (const uint8_t *)d_a, 4096, 257, (uint32_t *)d_b));
    REFUSED(climb_histogram_u8(h, (const uint8_t *)d_a, 4096, 256, (uint32_t *)d_a + 512));
    REFUSED(climb_transpose_f32(h, 512, 512, fa, 512, fa + 1000, 512));
    REFUSED(climb_transpose_f32(h, (size_t)1 << 20, (size_t)1 << 20, fa, (size_t)1 << 50, fb, (size_t)1 << 20));
    const float mask[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
    REFUSED(climb_conv2d_f32(h, 512, 512, fa, 512, mask, 1, fa + 7, 512));
    REFUSED(climb_conv2d_f32(h, 512, 512, fa, 512, mask, 5, fb, 512));
    const float c7[7] = {1, 0, 0, 0, 0, 0, 0};
    REFUSED(climb_stencil7_f32(h, 64, 64, 64, c7, fa, fa + 64));
    REFUSED(climb_stencil7_f32(h, 32, (size_t)4 << 16, (size_t)8 << 15, c7, fa, fb));
    /* the trial's layer: pad_h 2^30 */
    climb_conv_layer_desc l = {1, 1, 8, 8, 1, 3, 3, 1, 1, 1 << 30, 0};
    REFUSED(climb_conv_forward_f32(h, &l, fa, fb, fb + 1024));
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    climb_conv_layer_desc l2 = {1, 2, 8, 8, 2, 3, 3, 1, 1, 1, 1};
    REFUSED(climb_conv_forward_f32(h, &l2, fa, fb, fa + 16));
    climb_lattice_desc lat = {64, 64, 64, 0.5f, {0, 0, 0}, 1.0f};
    REFUSED(climb_coulomb_dcs_f32(h, fa, 100, &lat, fa + 64));
    climb_lattice_desc wrap = {(size_t)1 << 32, (size_t)1 << 32, 1, 0.5f, {0, 0, 0}, 1.0f};
    REFUSED(climb_coulomb_dcs_f32(h, fa, 100, &wrap, fb));
    REFUSED(climb_coulomb_cutoff_f32(h, fa, 100, &wrap, 12.0f, fb));
    lat.ny = 524281;
    lat.nx = lat.nz = 8;
    REFUSED(climb_coulomb_cutoff_f32(h, fa, 100, &lat, 4.0f, fb));
    REFUSED(climb_mriq_f32(h, 16, fa, fa + 16, fa + 32, fa + 48, fa + 64, 128, fb, fb + 128, fb + 256, fb + 384,
                           fb + 400));
    REFUSED(climb_sort_pairs_u32(h, (uint32_t *)d_a, (uint32_t *)d_a + 100, 1000));
    REFUSED(climb_sort_u32(h, (uint32_t *)d_a, (size_t)1 << 31));
    REFUSED(climb_bezier_tessellate(h, 100, (const climb_bezier_curve *)d_a, 4097, d_b, d_b + 100, fb + 1000));
    REFUSED(climb_bezier_tessellate(h, 100, (const climb_bezier_curve *)d_a, 32, d_b, d_b + 50, fb + 1000));
    REFUSED(climb_bfs(h, 1000, d_a, d_b, 0, d_a + 500));
    REFUSED(climb_bfs_csr(h, 1000, 4000, d_a, d_b, 0, 8u, d_b + M / 2));
    REFUSED(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 64, 64, 64, 1.0f, fa, 64, fb, 64, 0.0f, fa + 100, 64));
    REFUSED(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 64, 64, 64, 1.0f, fa, 63, fb, 64, 0.0f, fb + 8192, 64));
    climb_spmv_plan plan = NULL;
    REFUSED(climb_spmv_plan_create(h, 100, 100, 100, d_a, d_b, fb + 200, 4u, &plan));
    EXPECT(plan == NULL);
    REFUSED(climb_spmv_plan_create(h, 100, 100, 100, host, d_b, fb + 200, 0, &plan));
    climb_quadtree tree = NULL;
    const climb_quadtree_params deep = {17, 16};
    REFUSED(climb_quadtree_build(h, 100, fa, fb, &deep, &tree));
    EXPECT(tree == NULL);
}

/* An SpMV plan's run refuses a y over x or over the matrix (a plan of the identity, made here). */
static void spmv_refusals(void)
{
    const int n = 1024;
    int32_t *rp = malloc((n + 1) * sizeof *rp), *ci = malloc(n * sizeof *ci);
    float *v = malloc(n * sizeof *v);
    for (int i = 0; i < n; i++) {
        rp[i] = i;
        ci[i] = i;
        v[i] = 2.0f;
    }
    rp[n] = n;
    int32_t *d_rp = d_b, *d_ci = d_b + 2048;
    float *d_v = (float *)d_b + 4096, *d_x = (float *)d_b + 8192, *d_y = (float *)d_b + 16384;
    EXPECT(cudaMemcpy(d_rp, rp, (n + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(d_ci, ci, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(d_v, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(d_x, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    climb_spmv_plan plan = NULL;
    EXPECT(climb_spmv_plan_create(h, n, n, n, d_rp, d_ci, d_v, CLIMB_SPMV_VALIDATE, &plan) == CLIMB_STATUS_SUCCESS);
    if (plan) {
        REFUSED(climb_spmv(h, plan, 1.0f, d_x, 0.0f, d_x + 5));
        REFUSED(climb_spmv(h, plan, 1.0f, d_x, 0.0f, d_v));
        REFUSED(climb_spmv(h, plan, 1.0f, d_x, 0.0f, (float *)d_ci + 100));
        EXPECT(climb_spmv(h, plan, 1.0f, d_x, 0.0f, d_y) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaMemcpy(v, d_y, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT(v[0] == 4.0f && v[n - 1] == 4.0f);
        EXPECT(climb_spmv_plan_destroy(plan) == CLIMB_STATUS_SUCCESS);
    }
    free(rp);
    free(ci);
    free(v);
}

static void bfs_graphs(const char *self)
{
    int32_t *rp = malloc((N + 1) * sizeof *rp), *ci = malloc(E * sizeof *ci), *lv = malloc(N * sizeof *lv),
            *want = malloc(N * sizeof *want);
    int32_t *d_rp = d_a, *d_ci = d_a + 8192, *d_lv = d_b;
    ring_graph(N, rp, ci);
    bfs_ref(N, rp, ci, 5, want);
    EXPECT(cudaMemcpy(d_rp, rp, (N + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemcpy(d_ci, ci, E * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    for (int f = 0; f < 4; f++) { /* a valid graph, validated or not, symmetric or not: right levels */
        EXPECT(cudaMemset(d_lv, 0x7f, N * 4) == cudaSuccess);
        const unsigned flags = (f & 1 ? CLIMB_BFS_VALIDATE : 0) | (f & 2 ? CLIMB_BFS_SYMMETRIC : 0);
        EXPECT(climb_bfs_csr(h, N, E, d_rp, d_ci, 5, flags, d_lv) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaMemcpyAsync(lv, d_lv, N * 4, cudaMemcpyDeviceToHost, s) == cudaSuccess);
        EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
        EXPECT_MSG(memcmp(lv, want, N * 4) == 0, "bfs_csr flags %u: wrong levels", flags);
    }
    /* validated inside a capture: refused, the capture intact */
    cudaGraph_t g = NULL;
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    EXPECT(climb_bfs_csr(h, N, E, d_rp, d_ci, 5, CLIMB_BFS_VALIDATE, d_lv) == CLIMB_STATUS_CAPTURE_UNSUPPORTED);
    EXPECT(climb_bfs_csr(h, N, E, d_rp, d_ci, 5, 0, d_lv) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g != NULL);
    if (g)
        cudaGraphDestroy(g);
    for (int k = 0; k < N_CORRUPT; k++) {
        ring_graph(N, rp, ci);
        int edges = E;
        const char *what = corrupt(k, rp, ci, &edges);
        EXPECT(cudaMemcpy(d_rp, rp, (N + 1) * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemcpy(d_ci, ci, E * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(d_lv, 0x5a, N * 4) == cudaSuccess);
        const climb_status st = climb_bfs_csr(h, N, edges, d_rp, d_ci, 0, CLIMB_BFS_VALIDATE, d_lv);
        EXPECT_MSG(st == CLIMB_STATUS_INVALID_MATRIX, "%s: validated BFS returned %s", what, climb_status_string(st));
        EXPECT_MSG(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess,
                   "%s: the context after the refusal", what);
        EXPECT(cudaMemcpy(lv, d_lv, N * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(lv[0] == 0x5a5a5a5a && lv[N - 1] == 0x5a5a5a5a, "%s: the levels were written", what);
        char said[400];
        const int ended = run_child(self, k, said, sizeof said);
        EXPECT_MSG(ended, "%s: the unchecked run's process did not end by itself within 120 s", what);
        printf("corrupt graph (%s): %s", what, said[0] ? said : "the child printed nothing (it was killed)\n");
    }
    free(rp);
    free(ci);
    free(lv);
    free(want);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--corrupt") == 0)
        return child(atoi(argv[2]));
    test_require_gpu();
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMalloc((void **)&d_a, M * 4) == cudaSuccess && cudaMalloc((void **)&d_b, M * 4) == cudaSuccess);
    host = malloc(M * 4);
    for (int i = 0; i < M; i++)
        host[i] = 1;
    EXPECT(cudaMemcpy(d_a, host, M * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    refusals();
    spmv_refusals();
    EXPECT(cudaMemcpy(d_a, host, M * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    bfs_graphs(self);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
    cudaFree(d_a);
    cudaFree(d_b);
    free(host);
    return test_finish("test_gpu_api_refusals");
}
