/* GPU: every convolution rung over the edge shapes (empty, 1 x 1, a row, a column, smaller than a tile, tiles'
 * edges), masks of radius 1 to 4 in 2-D and 1-D, misaligned inputs, every element checked against the CPU; proof
 * that an output nobody wrote fails; a PGM file filtered and written back (--output); the C API (padded rows, every
 * radius, refusals that leave no CUDA error behind). */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "climb.h"
#include "core/harness.h"
#include "base/rng.h"
#include "device/device.h"
#include "io/pgm.h"
#include "workloads/conv/conv.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct conv_job {
    api_job base;
    size_t rows, cols;
    int radius;
} conv_job;

static int conv_sizes(api_job *b)
{
    const conv_job *j = (const conv_job *)b;
    b->a_bytes = b->out_bytes = j->rows * j->cols * 4;
    b->b_bytes = CLIMB_CONV_MAX_TAPS * 4;
    return 0;
}

/* The mask, in host memory, drawn once: a captured graph keeps the one it was captured with. */
static int conv_once(api_job *b)
{
    const conv_job *j = (const conv_job *)b;
    climb_rng mr;
    climb_rng_seed(&mr, (uint64_t)j->rows * 31 + j->cols);
    climb_rng_fill_f32(&mr, b->h_b, CLIMB_CONV_MAX_TAPS, -1.0f, 1.0f);
    return 0;
}

static int conv_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const conv_job *j = (const conv_job *)b;
    climb_rng_fill_f32(r, b->h_a, j->rows * j->cols, 0.0f, 1.0f);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status conv_call(api_job *b, climb_handle h)
{
    const conv_job *j = (const conv_job *)b;
    return climb_conv2d_f32(h, j->rows, j->cols, b->d_a, j->cols, b->h_b, j->radius, b->d_out, j->cols);
}

static void conv_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const conv_job *j = (const conv_job *)b;
    double *row = malloc(j->cols * 8 + 8), *mag = malloc(j->cols * 8 + 8);
    const int taps = (2 * j->radius + 1) * (2 * j->radius + 1);
    for (size_t r = 0; row && mag && r < j->rows; r++) {
        climb_conv_ref_row(b->h_a, j->cols, j->rows, j->cols, b->h_b, j->radius, j->radius, r, row, mag);
        for (size_t c = 0; c < j->cols; c++) {
            const float g = ((const float *)got)[r * j->cols + c];
            if (!(fabs(g - row[c]) <= climb_conv_tolerance(taps, mag[c])))
                api_mismatch_note(m, r * j->cols + c, g, row[c]);
        }
    }
    if (!row || !mag)
        api_mismatch_note(m, 0, 0, 1);
    free(row);
    free(mag);
}

static const api_job_ops conv_ops = {
    .sizes = conv_sizes, .once = conv_once, .fill = conv_fill, .call = conv_call, .check = conv_check};

static api_job *conv_job_of(size_t rows, size_t cols, int radius)
{
    conv_job *j = api_job_new(sizeof *j, &conv_ops);
    if (!j)
        return NULL;
    j->rows = rows;
    j->cols = cols;
    j->radius = radius;
    snprintf(j->base.label, sizeof j->base.label, "climb_conv2d_f32 %zux%zu radius %d", rows, cols, radius);
    return &j->base;
}

static int conv_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = conv_job_of(65, 129, 1 + id % 4);
        return 1;
    }
    out[0] = conv_job_of(1001, 3001, 2);
    out[1] = conv_job_of(37, 513, 4);
    return 2;
}

const api_workload api_workload_conv = {.name = "conv", .jobs = conv_jobs};

static const climb_workload *w = &climb_conv_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *dims, const char *mask)
{
    climb_opt_plan p;
    test_plan(&p, w, "dims", dims, "radius", "1,2,3,4", "mask", mask, NULL);
    char what[80];
    snprintf(what, sizeof what, "dims=%s mask=%s", dims, mask);
    test_check_plan(w, &dev, &p, seed, 0, what);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "radius", "3", NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE2(100, 37), "out[0][0]");
    climb_opt_plan_free(&p, NULL);
}

/* A P2 image filtered by `climb bench --output`'s path: the best rung's output written as a PGM, read back and
 * compared with the CPU's filtered image (clamped to [0, 1], scaled to 255, rounded). */
static void test_file_output(void)
{
    char dir[] = "/tmp/climb_conv_XXXXXX", in[300], out[300], err[300], desc[300];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(in, sizeof in, "%s/in.pgm", dir);
    snprintf(out, sizeof out, "%s/out.pgm", dir);
    /* 37 x 23 pixels, maxval 200, a comment between rows */
    FILE *f = fopen(in, "w");
    EXPECT(f != NULL);
    if (!f)
        return;
    fprintf(f, "P2\n# test image\n37 23\n200\n");
    climb_rng r;
    climb_rng_seed(&r, 99);
    for (int i = 0; i < 23; i++) {
        for (int j = 0; j < 37; j++)
            fprintf(f, "%d ", (int)climb_rng_range(&r, 0, 200));
        fprintf(f, "\n%s", i == 11 ? "# halfway\n" : "");
    }
    fclose(f);
    climb_opt_plan p;
    test_plan(&p, w, "radius", "2", "mask", "gauss", NULL);
    climb_opt_value *v = test_plan_input(&p, w, "input", in, desc, sizeof desc);
    EXPECT_MSG(strstr(desc, "37 x 23 pixels (P2, maxval 200)") != NULL, "%s", desc);
    test_bench_output(w, &dev, &p, out, 1);
    climb_pgm got;
    EXPECT_MSG(climb_pgm_read(out, &got, err, sizeof err) == 0, "%s", err);
    const climb_pgm *src = v ? (const climb_pgm *)v->data : NULL;
    if (got.pixels && src) {
        EXPECT(got.rows == 23 && got.cols == 37 && got.maxval == 255);
        /* the Gaussian of radius 2 the workload makes: sigma 1, weights adding to 1 */
        float m[25];
        double sum = 0;
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++)
                sum += m[a * 5 + b] = (float)exp(-((a - 2) * (a - 2) + (b - 2) * (b - 2)) / 2.0);
        for (int q = 0; q < 25; q++)
            m[q] = (float)(m[q] / sum);
        double row[37];
        int bad = 0;
        for (size_t i = 0; i < 23; i++) {
            climb_conv_ref_row(src->pixels, 37, 23, 37, m, 2, 2, i, row, NULL);
            for (size_t j = 0; j < 37; j++) {
                const double c = row[j] < 0 ? 0 : row[j] > 1 ? 1 : row[j];
                bad += fabs(got.pixels[i * 37 + j] * 255 - c * 255) > 0.5001;
            }
        }
        EXPECT_MSG(bad == 0, "%d pixels of the written image differ from the CPU's", bad);
    }
    climb_pgm_free(&got);
    climb_opt_plan_free(&p, w->unload);
    unlink(in);
    unlink(out);
    rmdir(dir);
}

/* climb_conv2d_f32 on padded rows at every radius, and its refusals. */
static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    const size_t shapes[][2] = {{1, 1}, {3, 700}, {513, 257}, {1001, 3001}};
    for (int si = 0; si < 4; si++)
        for (int radius = 1; radius <= 4; radius++) {
            const size_t rows = shapes[si][0], cols = shapes[si][1], ld_in = cols + 3, ld_out = cols + 5;
            float *h_in = malloc(rows * ld_in * 4), *h_out = malloc(rows * ld_out * 4), mask[81];
            float *d_in, *d_out;
            climb_rng_fill_f32(&r, h_in, rows * ld_in, 0.0f, 1.0f);
            climb_rng_fill_f32(&r, mask, 81, -1.0f, 1.0f);
            EXPECT(cudaMalloc((void **)&d_in, rows * ld_in * 4) == cudaSuccess);
            EXPECT(cudaMalloc((void **)&d_out, rows * ld_out * 4) == cudaSuccess);
            EXPECT(cudaMemcpy(d_in, h_in, rows * ld_in * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(cudaMemset(d_out, 0xFF, rows * ld_out * 4) == cudaSuccess);
            EXPECT(climb_conv2d_f32(h, rows, cols, d_in, ld_in, mask, radius, d_out, ld_out) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaMemcpy(h_out, d_out, rows * ld_out * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            double *want = malloc(cols * 8), *mag = malloc(cols * 8);
            size_t bad = 0;
            const int taps = (2 * radius + 1) * (2 * radius + 1);
            for (size_t i = 0; i < rows; i++) {
                climb_conv_ref_row(h_in, ld_in, rows, cols, mask, radius, radius, i, want, mag);
                for (size_t j = 0; j < cols; j++)
                    bad += !(fabs(h_out[i * ld_out + j] - want[j]) <= climb_conv_tolerance(taps, mag[j]));
                for (size_t j = cols; j < ld_out; j++) /* the padding is not written */
                    bad += !isnan(h_out[i * ld_out + j]);
            }
            EXPECT_MSG(bad == 0, "climb_conv2d_f32 %zux%zu radius %d: %zu wrong", rows, cols, radius, bad);
            free(want);
            free(mag);
            free(h_in);
            free(h_out);
            cudaFree(d_in);
            cudaFree(d_out);
        }
    /* refusals: no CUDA error left behind */
    float *d;
    float mask[81] = {0};
    EXPECT(cudaMalloc((void **)&d, 1 << 20) == cudaSuccess);
    EXPECT(climb_conv2d_f32(h, 10, 10, d, 10, mask, 0, d + 1000, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv2d_f32(h, 10, 10, d, 10, mask, 5, d + 1000, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv2d_f32(h, 10, 10, d, 10, NULL, 1, d + 1000, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv2d_f32(h, 10, 10, d, 9, mask, 1, d + 1000, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv2d_f32(h, 10, 10, d, 10, mask, 1, d + 50, 10) == CLIMB_STATUS_INVALID_VALUE); /* overlap */
    EXPECT(climb_conv2d_f32(h, 10, 10, mask, 10, mask, 1, d, 10) == CLIMB_STATUS_INVALID_VALUE);  /* host input */
    EXPECT(climb_conv2d_f32(NULL, 10, 10, d, 10, mask, 1, d + 1000, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_conv2d_f32(h, 0, 10, NULL, 10, mask, 1, NULL, 10) == CLIMB_STATUS_SUCCESS); /* empty: no pointer read */
    EXPECT(climb_conv2d_f32(h, 0, 10, NULL, 0, mask, 1, NULL, 0) == CLIMB_STATUS_INVALID_VALUE); /* ld checked first */
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    cudaFree(d);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "2", "random");
    test_check(fresh + 1, "1", "random");
    test_check(fresh + 2, "2", "edges");
    test_file_output();
    test_api();
    EXPECT(api_test_workload(&api_workload_conv) == 0);
    return test_finish("test_gpu_conv");
}
