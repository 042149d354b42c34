/* GPU: every stencil rung over the edge grids (empty, a point, lines, planes, smaller than a tile, tiles' edges),
 * 1 and 3 time steps (the ping-pong), misaligned grids, every point checked against the CPU in double; proof that
 * an output nobody wrote fails; the C API (every grid of the sweep, refusals that leave no CUDA error); a step by
 * ranges of planes equal to the whole step, bit for bit, each range writing its planes alone. */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "core/harness.h"
#include "base/rng.h"
#include "device/device.h"
#include "workloads/stencil.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct stencil_job {
    api_job base;
    size_t nx, ny, nz;
} stencil_job;

static int stencil_sizes(api_job *b)
{
    const stencil_job *j = (const stencil_job *)b;
    b->a_bytes = b->out_bytes = j->nx * j->ny * j->nz * 4;
    b->b_bytes = 7 * 4;
    return 0;
}

/* The weights, in host memory, drawn once: a captured graph keeps the ones it was captured with. */
static int stencil_once(api_job *b)
{
    const stencil_job *j = (const stencil_job *)b;
    climb_rng mr;
    climb_rng_seed(&mr, (uint64_t)j->nx * 31 + j->ny);
    climb_rng_fill_f32(&mr, b->h_b, 7, -0.14f, 0.14f);
    return 0;
}

static int stencil_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const stencil_job *j = (const stencil_job *)b;
    climb_rng_fill_f32(r, b->h_a, j->nx * j->ny * j->nz, -1.0f, 1.0f);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status stencil_call(api_job *b, climb_handle h)
{
    const stencil_job *j = (const stencil_job *)b;
    return climb_stencil7_f32(h, j->nx, j->ny, j->nz, b->h_b, b->d_a, b->d_out);
}

static void stencil_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const stencil_job *j = (const stencil_job *)b;
    const size_t n = j->nx * j->ny * j->nz;
    double *in = calloc(n + 1, 8), *want = calloc(n + 1, 8);
    if (in && want) {
        for (size_t i = 0; i < n; i++)
            in[i] = ((const float *)b->h_a)[i];
        climb_stencil_ref_step(in, want, j->nx, j->ny, j->nz, b->h_b);
        for (size_t i = 0; i < n; i++)
            if (!(fabs(((const float *)got)[i] - want[i]) <= climb_stencil_tolerance(1, 1.0)))
                api_mismatch_note(m, i, ((const float *)got)[i], want[i]);
    } else
        api_mismatch_note(m, 0, 0, 1);
    free(in);
    free(want);
}

static const api_job_ops stencil_ops = {
    .sizes = stencil_sizes, .once = stencil_once, .fill = stencil_fill, .call = stencil_call, .check = stencil_check};

static api_job *stencil_job_of(size_t nx, size_t ny, size_t nz)
{
    stencil_job *j = api_job_new(sizeof *j, &stencil_ops);
    if (!j)
        return NULL;
    j->nx = nx;
    j->ny = ny;
    j->nz = nz;
    snprintf(j->base.label, sizeof j->base.label, "climb_stencil7_f32 %zux%zux%zu", nx, ny, nz);
    return &j->base;
}

static int stencil_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = stencil_job_of(40, 33, 9 + (size_t)id);
        return 1;
    }
    out[0] = stencil_job_of(130, 250, 33);
    out[1] = stencil_job_of(31, 7, 5);
    return 2;
}

const api_workload api_workload_stencil = {.name = "stencil", .jobs = stencil_jobs};

static const climb_workload *w = &climb_stencil_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *steps)
{
    climb_opt_plan p;
    test_plan(&p, w, "steps", steps, NULL);
    char what[60];
    /* every rung but rows_async takes every shape; rows_async refuses rows over 1024 points (its ring's three rows
     * in 48 KiB) and must run the rest right */
    const char *takes_all[32], *rows_only[] = {"rows_async"};
    int n = 0;
    for (int r = 0; r < w->n_rungs && n < 32; r++)
        if (strcmp(w->rung(r)->name, "rows_async") != 0)
            takes_all[n++] = w->rung(r)->name;
    EXPECT(n == w->n_rungs - 1);
    snprintf(what, sizeof what, "steps=%s", steps);
    test_check_rungs(w, &dev, &p, seed, takes_all, n, NULL, 0, what);
    snprintf(what, sizeof what, "steps=%s, rows_async", steps);
    test_check_rungs(w, &dev, &p, seed, rows_only, 1, NULL, 1, what);
    /* the marches with the planes a block chosen to fill whole waves (tuning planes 0), rows of 8 */
    const int wave[3] = {8, 0, 1};
    snprintf(what, sizeof what, "steps=%s, wave-filling planes", steps);
    test_check_rungs(w, &dev, &p, seed, takes_all, n, wave, 0, what);
    test_check_rungs(w, &dev, &p, seed, rows_only, 1, wave, 1, what);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "steps", "2", NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE3(37, 20, 9), "out[0][0][0]");
    climb_opt_plan_free(&p, NULL);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    const size_t grids[][3] = {{1, 1, 1}, {3, 3, 3}, {100, 1, 7}, {33, 17, 65}, {130, 250, 33}};
    for (int g = 0; g < 5; g++) {
        const size_t nx = grids[g][0], ny = grids[g][1], nz = grids[g][2], n = nx * ny * nz;
        float *h_in = malloc(n * 4), *h_out = malloc(n * 4), c[7];
        double *din = malloc(n * 8), *want = malloc(n * 8);
        float *d_in, *d_out;
        climb_rng_fill_f32(&r, h_in, n, -1.0f, 1.0f);
        climb_rng_fill_f32(&r, c, 7, -0.14f, 0.14f);
        for (size_t i = 0; i < n; i++)
            din[i] = h_in[i];
        climb_stencil_ref_step(din, want, nx, ny, nz, c);
        EXPECT(cudaMalloc((void **)&d_in, n * 4) == cudaSuccess && cudaMalloc((void **)&d_out, n * 4) == cudaSuccess);
        EXPECT(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(d_out, 0xFF, n * 4) == cudaSuccess);
        EXPECT(climb_stencil7_f32(h, nx, ny, nz, c, d_in, d_out) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += !(fabs(h_out[i] - want[i]) <= climb_stencil_tolerance(1, 1.0));
        EXPECT_MSG(bad == 0, "climb_stencil7_f32 %zux%zux%zu: %zu wrong", nx, ny, nz, bad);
        free(h_in);
        free(h_out);
        free(din);
        free(want);
        cudaFree(d_in);
        cudaFree(d_out);
    }
    float *d, c[7] = {0};
    EXPECT(cudaMalloc((void **)&d, 1 << 20) == cudaSuccess);
    EXPECT(climb_stencil7_f32(h, 10, 10, 10, NULL, d, d + 1000) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_stencil7_f32(h, 10, 10, 10, c, d, d + 500) == CLIMB_STATUS_INVALID_VALUE); /* overlap */
    EXPECT(climb_stencil7_f32(h, 10, 10, 10, c, c, d) == CLIMB_STATUS_INVALID_VALUE);       /* host input */
    EXPECT(climb_stencil7_f32(NULL, 10, 10, 10, c, d, d + 1000) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_stencil7_f32(h, 10, 0, 10, c, NULL, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    cudaFree(d);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

/* climb_stencil_best_range: a grid stepped as three ranges of planes on two streams at once (an edge plane, the
 * interior, the other edge) equals the whole step bit for bit, every tuning and vector width (nx 64 aligned and 61
 * not); a range writes no plane outside it (the rest of a poisoned output stays poisoned). */
static void test_range(void)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    const size_t dims[][3] = {{64, 9, 13}, {61, 7, 5}, {33, 4, 3}};
    /* rows, planes (0: filling whole waves), order (1: z fastest) */
    const int tunings[][3] = {{4, 8, 0}, {8, 16, 1}, {16, 128, 1}, {4, 0, 0}};
    cudaStream_t s2;
    EXPECT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking) == cudaSuccess);
    for (int g = 0; g < 3; g++)
        for (int t = 0; t < 4; t++) {
            const size_t nx = dims[g][0], ny = dims[g][1], nz = dims[g][2], n = nx * ny * nz, sz = nx * ny;
            climb_stencil_tuning tn;
            climb_stencil_set_tuning(&tn, tunings[t]);
            float *h_in = malloc(n * 4), *whole = malloc(n * 4), *parts = malloc(n * 4), c[7];
            float *d_in, *d_a, *d_b;
            climb_rng_fill_f32(&r, h_in, n, -1.0f, 1.0f);
            climb_rng_fill_f32(&r, c, 7, -0.14f, 0.14f);
            EXPECT(cudaMalloc((void **)&d_in, n * 4) == cudaSuccess && cudaMalloc((void **)&d_a, n * 4) == cudaSuccess &&
                   cudaMalloc((void **)&d_b, n * 4) == cudaSuccess);
            EXPECT(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(cudaMemset(d_a, 0xFF, n * 4) == cudaSuccess && cudaMemset(d_b, 0xFF, n * 4) == cudaSuccess);
            EXPECT(climb_stencil_best(&tn, nx, ny, nz, c, d_in, d_a, 0) == cudaSuccess);
            /* the interior [2, nz - 1) alone first: planes 0, 1 and nz - 1 must stay poisoned */
            EXPECT(climb_stencil_best_range(&tn, nx, ny, nz, 2, nz - 1, c, d_in, d_b, s2) == cudaSuccess);
            EXPECT(cudaStreamSynchronize(s2) == cudaSuccess);
            EXPECT(cudaMemcpy(parts, d_b, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            size_t touched = 0;
            for (size_t i = 0; i < n; i++)
                if (i < 2 * sz || i >= (nz - 1) * sz)
                    touched += memcmp(&parts[i], &(uint32_t){0xFFFFFFFFu}, 4) != 0;
            EXPECT_MSG(touched == 0, "range [2, %zu) of %zux%zux%zu wrote %zu points outside it", nz - 1, nx, ny, nz,
                       touched);
            /* then the edges, [0, 2) and [nz - 1, nz), on the other stream while nothing else runs */
            EXPECT(climb_stencil_best_range(&tn, nx, ny, nz, 0, 2, c, d_in, d_b, 0) == cudaSuccess);
            EXPECT(climb_stencil_best_range(&tn, nx, ny, nz, nz - 1, nz, c, d_in, d_b, s2) == cudaSuccess);
            EXPECT(cudaDeviceSynchronize() == cudaSuccess);
            EXPECT(cudaMemcpy(whole, d_a, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
                   cudaMemcpy(parts, d_b, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(memcmp(whole, parts, n * 4) == 0, "%zux%zux%zu rows %d planes %d order %d: the ranges differ from "
                       "the whole step", nx, ny, nz, tunings[t][0], tunings[t][1], tunings[t][2]);
            free(h_in);
            free(whole);
            free(parts);
            cudaFree(d_in);
            cudaFree(d_a);
            cudaFree(d_b);
        }
    EXPECT(climb_stencil_best_range(&(climb_stencil_tuning){4, 8, 0}, 8, 8, 8, 3, 9, (float[7]){0}, NULL, NULL, 0) ==
           cudaErrorInvalidValue); /* past nz */
    EXPECT(cudaStreamDestroy(s2) == cudaSuccess && cudaGetLastError() == cudaSuccess);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "1");
    test_check(fresh + 1, "3");
    test_api();
    test_range();
    EXPECT(api_test_workload(&api_workload_stencil) == 0);
    return test_finish("test_gpu_stencil");
}
