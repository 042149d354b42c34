/* GPU: device facts, the measured ceilings, and the timer, checked against each other: a timed read of
 * a buffer must take about as long as its bytes over the measured read ceiling. */
#include <dlfcn.h>
#include <math.h>
#include <string.h>

#include "device/device.h"
#include "device/timing.h"
#include "testing.h"

typedef struct {
    void *buf;
    size_t bytes;
    unsigned *sink;
} read_ctx;

static int run_read(void *p, cudaStream_t s)
{
    read_ctx *c = (read_ctx *)p;
    return climb_launch_read_pass(c->buf, c->bytes, c->sink, s) == cudaSuccess ? 0 : -1;
}

static int befores;
static int count_before(void *p, cudaStream_t s)
{
    (void)p;
    (void)s;
    befores++;
    return 0;
}

int main(void)
{
    test_require_gpu();
    climb_device_info d;
    EXPECT(climb_device_query(0, &d) == 0);
    EXPECT(strlen(d.name) > 0);
    EXPECT(d.cc_major >= 5 && d.sms > 0 && d.l2_bytes > 0 && d.regs_per_sm > 0 && d.smem_per_sm > 0);
    EXPECT(d.sm_clock_khz > 100000 && d.mem_clock_khz > 100000 && d.bus_width_bits >= 64);
    EXPECT(d.peak_bw_gbs > 50 && d.peak_ffma_gflops > 100);
    EXPECT(d.driver_version > 0 && d.runtime_version > 0);

    EXPECT(climb_measure_ceilings(&d, 0) == 0);
    EXPECT(d.measured == 1 && d.sfu_gops == 0); /* the SFU ceiling only when a workload names it */
    EXPECT(climb_measure_ceilings(&d, CLIMB_MEASURE_SFU) == 0);
    printf("copy %.0f GB/s, read %.0f GB/s, write %.0f GB/s, FFMA %.0f GFLOP/s, DFMA %.0f GFLOP/s, SFU %.0f Gop/s, "
           "launch %.2f us; theoretical %.0f GB/s, %.0f GFLOP/s\n",
           d.copy_gbs, d.read_gbs, d.write_gbs, d.ffma_gflops, d.dfma_gflops, d.sfu_gops, d.launch_us, d.peak_bw_gbs,
           d.peak_ffma_gflops);
    EXPECT(d.measured == 1);
    EXPECT(d.write_gbs > 0.3 * d.peak_bw_gbs && d.write_gbs < 1.2 * d.peak_bw_gbs);
    EXPECT(d.dfma_gflops > 0.005 * d.peak_ffma_gflops && d.dfma_gflops <= 0.6 * d.peak_ffma_gflops);
    /* MUFU: a quarter of the FP32 lanes or less per clock, at least one per SM per clock. */
    EXPECT(d.sfu_gops > d.sms * (d.sm_clock_khz / 1e6) * 0.5 && d.sfu_gops < 0.3 * d.peak_ffma_gflops);
    /* Measured ceilings sit under the theoretical peaks (5% slack for clock reporting) and not absurdly low. */
    EXPECT(d.copy_gbs > 0.3 * d.peak_bw_gbs && d.copy_gbs < 1.05 * d.peak_bw_gbs);
    EXPECT(d.read_gbs > 0.3 * d.peak_bw_gbs && d.read_gbs < 1.05 * d.peak_bw_gbs);
    EXPECT(d.ffma_gflops > 0.3 * d.peak_ffma_gflops && d.ffma_gflops < 1.05 * d.peak_ffma_gflops);
    EXPECT(d.launch_us > 0.5 && d.launch_us < 100);
    /* NVML: where the driver's library is there, it answers for this device, clocks within their maxima */
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    EXPECT((climb_device_nvml(&d) == 0) == (nvml != NULL) && d.nvml.read == (nvml != NULL));
    if (nvml) {
        dlclose(nvml);
        EXPECT(d.nvml.sm_mhz > 0 && (d.nvml.sm_max_mhz < 0 || d.nvml.sm_mhz <= d.nvml.sm_max_mhz));
        EXPECT(d.nvml.mem_mhz > 0 && d.nvml.reasons_known);
        char line[600];
        climb_nvml_line(&d.nvml, line, sizeof line);
        printf("%s\n", line);
    }

    /* The timer on a 1 GiB read, cold and batched: both near bytes / read ceiling. */
    climb_timer t;
    EXPECT(climb_timer_init(&t, (size_t)d.l2_bytes) == 0);
    EXPECT(t.flush_bytes >= 2 * (size_t)d.l2_bytes);
    read_ctx c = {NULL, (size_t)1 << 30, NULL};
    EXPECT(cudaMalloc(&c.buf, c.bytes) == cudaSuccess);
    EXPECT(cudaMalloc((void **)&c.sink, 4) == cudaSuccess);
    EXPECT(cudaMemset(c.buf, 3, c.bytes) == cudaSuccess);
    double expect_us = c.bytes / (d.read_gbs * 1e9) * 1e6;
    for (int batch = 0; batch <= 1; batch++) {
        climb_timing_opts o = climb_timing_defaults();
        o.batch = batch;
        climb_timing r;
        EXPECT(climb_time(&t, run_read, NULL, &c, &o, &r) == 0);
        printf("1 GiB read, %s: median %.1f us (expected about %.1f), min %.1f, noise %.2f%%, %d samples x %d\n",
               batch ? "batch" : "cold", r.median_us, expect_us, r.min_us, r.noise_pct, r.samples, r.batch);
        EXPECT(r.samples >= o.min_samples);
        EXPECT(r.min_us <= r.median_us && r.median_us <= r.max_us);
        EXPECT(r.median_us > 0.8 * expect_us && r.median_us < 1.5 * expect_us);
        EXPECT(r.noise_pct < 10);
    }
    /* The untimed step before each run runs before every warm-up and sample; batch mode refuses it. */
    {
        climb_timing_opts o = climb_timing_defaults();
        o.min_samples = o.max_samples = 7;
        o.warmup = 2;
        climb_timing r;
        befores = 0;
        c.bytes = (size_t)1 << 20;
        EXPECT(climb_time(&t, run_read, count_before, &c, &o, &r) == 0);
        EXPECT_MSG(befores == 9 && r.samples == 7, "%d befores, %d samples", befores, r.samples);
        o.batch = 1;
        EXPECT(climb_time(&t, run_read, count_before, &c, &o, &r) == -1);
    }
    cudaFree(c.buf);
    cudaFree(c.sink);
    climb_timer_free(&t);
    return test_finish("test_gpu_harness");
}
