/* GPU: every histogram rung over the edge sizes with misaligned inputs (0 to 15 bytes), for every input
 * distribution, both maps and 1, 7, 8, 9, 100 and 256 bins, each count checked exactly from poisoned counts; the
 * letters again as GPUs of 1 and 3 SMs would run them (the best rung's packed kernel on more sizes); proof that
 * counts nobody wrote fail; the C API (any alignment, n = 0 writes zeros, bad arguments refused). */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/histogram/histogram.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct hist_job {
    api_job base;
    size_t n;
    unsigned bins;
} hist_job;

static int hist_sizes(api_job *b)
{
    const hist_job *j = (const hist_job *)b;
    b->a_bytes = j->n;
    b->out_bytes = (size_t)j->bins * 4;
    return 0;
}

static int hist_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const hist_job *j = (const hist_job *)b;
    for (size_t i = 0; i < j->n; i++)
        ((uint8_t *)b->h_a)[i] = (uint8_t)climb_rng_next(r);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status hist_call(api_job *b, climb_handle h)
{
    const hist_job *j = (const hist_job *)b;
    return climb_histogram_u8(h, b->d_a, j->n, j->bins, b->d_out);
}

static void hist_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const hist_job *j = (const hist_job *)b;
    uint64_t want[256];
    climb_hist_ref(b->h_a, j->n, CLIMB_HIST_BYTES, j->bins, want);
    for (unsigned k = 0; k < j->bins; k++)
        if (((const uint32_t *)got)[k] != want[k])
            api_mismatch_note(m, k, ((const uint32_t *)got)[k], (double)want[k]);
}

static const api_job_ops hist_ops = {.sizes = hist_sizes, .fill = hist_fill, .call = hist_call, .check = hist_check};

static api_job *hist_job_of(size_t n, unsigned bins)
{
    hist_job *j = api_job_new(sizeof *j, &hist_ops);
    if (!j)
        return NULL;
    j->n = n;
    j->bins = bins;
    snprintf(j->base.label, sizeof j->base.label, "climb_histogram_u8 n=%zu bins=%u", n, bins);
    return &j->base;
}

static int hist_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    (void)id;
    if (cap < 2)
        return -1;
    out[0] = set == API_CAPTURE ? hist_job_of(((size_t)1 << 22) + 1, 256) : hist_job_of(50001, 256);
    out[1] = set == API_CAPTURE ? hist_job_of(999999, 7) : hist_job_of(4097, 13);
    return 2;
}

const api_workload api_workload_histogram = {.name = "histogram", .jobs = hist_jobs};

static const climb_workload *w = &climb_histogram_workload;
static climb_device_info dev;

static void plan(climb_opt_plan *p, const char *bins, const char *map, const char *dist)
{
    test_plan(p, w, "bins", bins, "map", map, "dist", dist, NULL);
}

static void test_check_on(const climb_device_info *d, uint64_t seed, const char *bins, const char *map)
{
    climb_opt_plan p;
    plan(&p, bins, map, "all");
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    climb_check_result cr;
    EXPECT(climb_check(w, &o, d, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 0,
               "bins %s map %s, %d SMs: %ld runs, %d failures, %ld refused", bins, map, d->sms, cr.runs, cr.failures,
               cr.refused);
    printf("bins=%s map=%s, %d SMs: %ld runs, seed %" PRIu64 "\n", bins, map, d->sms, cr.runs, seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

static void test_check(uint64_t seed, const char *bins, const char *map) { test_check_on(&dev, seed, bins, map); }

/* The best rung counts letters with its packed kernel only where every block makes two passes or more: on this
 * GPU only the largest edge size does. On GPUs of 1 and 3 SMs the sizes from 65537 up take it, with one to
 * hundreds of passes a block spread over the grid. */
static void test_small_gpus(uint64_t seed)
{
    static const int sms[] = {1, 3};
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++) {
        climb_device_info small = dev;
        small.sms = sms[i];
        test_check_on(&small, seed, "256", "letters");
    }
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    plan(&p, "256", "bytes", "text");
    test_poison_best(w, &dev, &p, (climb_case_key){CLIMB_U8, CLIMB_SHAPE1(100001), 0}, 9, "of 256 elements wrong");
    climb_opt_plan_free(&p, NULL);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const size_t max_n = (1 << 22) + 64;
    uint8_t *x = malloc(max_n), *d_in;
    uint32_t *d_counts, got[256];
    uint64_t want[256];
    EXPECT(cudaMalloc((void **)&d_in, max_n) == cudaSuccess && cudaMalloc((void **)&d_counts, 1024) == cudaSuccess);
    const size_t sizes[] = {1, 15, 17, 1000, 65537, 1 << 22};
    const unsigned bins[] = {1, 3, 200, 256};
    const uint64_t seed = climb_fresh_seed();
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (unsigned off = 0; off < 16; off += 5)
            for (size_t j = 0; j < sizeof bins / sizeof bins[0]; j++) {
                const size_t n = sizes[k];
                climb_hist_generate(seed + k, (int)(j % 4), CLIMB_HIST_BYTES, x, n);
                EXPECT(cudaMemcpy(d_in + off, x, n, cudaMemcpyHostToDevice) == cudaSuccess);
                EXPECT(cudaMemset(d_counts, 0x5A, 1024) == cudaSuccess);
                EXPECT(climb_histogram_u8(h, d_in + off, n, bins[j], d_counts) == CLIMB_STATUS_SUCCESS);
                EXPECT(cudaMemcpy(got, d_counts, 1024, cudaMemcpyDeviceToHost) == cudaSuccess);
                climb_hist_ref(x, n, CLIMB_HIST_BYTES, bins[j], want);
                int bad = 0;
                for (unsigned b = 0; b < bins[j]; b++)
                    bad += got[b] != want[b];
                EXPECT_MSG(bad == 0, "api n=%zu offset=%u bins=%u: %d bins wrong", n, off, bins[j], bad);
                if (bins[j] < 256)
                    EXPECT(got[bins[j]] == 0x5A5A5A5Au); /* nothing past the bins is written */
            }
    EXPECT(cudaMemset(d_counts, 0x5A, 1024) == cudaSuccess);
    EXPECT(climb_histogram_u8(h, NULL, 0, 10, d_counts) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(got, d_counts, 1024, cudaMemcpyDeviceToHost) == cudaSuccess);
    EXPECT(got[0] == 0 && got[9] == 0 && got[10] == 0x5A5A5A5Au);
    EXPECT(climb_histogram_u8(h, d_in, 10, 0, d_counts) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_histogram_u8(h, d_in, 10, 257, d_counts) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_histogram_u8(h, x, 10, 256, d_counts) == CLIMB_STATUS_INVALID_VALUE); /* host input */
    EXPECT(climb_histogram_u8(NULL, d_in, 10, 256, d_counts) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_in);
    cudaFree(d_counts);
    free(x);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    test_api();
    const uint64_t fresh = climb_fresh_seed();
    test_check(20261122, "256", "bytes");
    test_check(fresh, "1,7,8,9,100", "bytes"); /* 8 bins and fewer: the packed rungs run wide_per_warp here */
    test_check(fresh, "256", "letters");
    test_small_gpus(fresh);
    EXPECT(api_test_workload(&api_workload_histogram) == 0);
    return test_finish("test_gpu_histogram");
}
