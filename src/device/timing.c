#include "timing.h"
#include "device.h"
#include "../base/check.h"
#include "../base/procs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

climb_timing_opts climb_timing_defaults(void)
{
    climb_timing_opts o;
    memset(&o, 0, sizeof o);
    o.warmup = 3;
    o.min_samples = 20;
    o.max_samples = 2000;
    o.min_gpu_s = 0.05;
    o.max_wall_s = 1.0;
    o.batch = 0;
    return o;
}

int climb_sampler_add(climb_sampler *s, const climb_timing_opts *o, double sample_us, double gpu_s, double elapsed_s)
{
    s->n++;
    s->sum += sample_us;
    s->sum2 += sample_us * sample_us;
    s->gpu_s += gpu_s;
    if (s->n < o->min_samples)
        return -1;
    if (elapsed_s >= o->max_wall_s)
        return CLIMB_STOP_TIME; /* the time limit, whatever the noise */
    if (s->gpu_s < o->min_gpu_s)
        return -1;
    if (o->max_noise_pct <= 0 || s->n < 2)
        return CLIMB_STOP_ENOUGH;
    const double mean = s->sum / s->n, var = (s->sum2 - s->n * mean * mean) / (s->n - 1);
    const double noise = mean > 0 ? 100.0 * sqrt(var > 0 ? var : 0) / mean : 0;
    if (noise <= o->max_noise_pct)
        return CLIMB_STOP_NOISE;
    if (s->n % CLIMB_SAMPLER_EVERY == 0) { /* steady: the last CLIMB_SAMPLER_HIST estimates within 5% of each other */
        s->hist[s->n_hist++ % CLIMB_SAMPLER_HIST] = noise;
        if (s->n_hist >= CLIMB_SAMPLER_HIST) {
            double lo = s->hist[0], hi = s->hist[0];
            for (int k = 1; k < CLIMB_SAMPLER_HIST; k++) {
                lo = fmin(lo, s->hist[k]);
                hi = fmax(hi, s->hist[k]);
            }
            if (hi - lo <= 0.05 * hi)
                return CLIMB_STOP_STEADY;
        }
    }
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void climb_timing_stats(double *x, int n, climb_timing *out)
{
    memset(out, 0, sizeof *out);
    out->samples = n;
    out->batch = 1;
    if (n <= 0) {
        out->median_us = out->min_us = out->max_us = out->mean_us = NAN;
        out->noise_pct = NAN;
        return;
    }
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    out->min_us = x[0];
    out->max_us = x[n - 1];
    out->median_us = (n % 2) ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    out->mean_us = sum / n;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - out->mean_us) * (x[i] - out->mean_us);
    double sd = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
    out->noise_pct = out->mean_us > 0 ? 100.0 * sd / out->mean_us : 0.0;
}

int climb_timer_init(climb_timer *t, size_t l2_bytes)
{
    memset(t, 0, sizeof *t);
    CLIMB_CHECK(cudaGetDevice(&t->device));
    CLIMB_CHECK(cudaStreamCreateWithFlags(&t->stream, cudaStreamNonBlocking));
    CLIMB_CHECK(cudaEventCreate(&t->start));
    CLIMB_CHECK(cudaEventCreate(&t->stop));
    /* Twice the L2, at least 8 MiB, a multiple of 16 B. */
    size_t bytes = 2 * l2_bytes;
    if (bytes < ((size_t)8 << 20))
        bytes = (size_t)8 << 20;
    bytes = (bytes + 15) & ~(size_t)15;
    CLIMB_CHECK(cudaMalloc(&t->flush, bytes));
    CLIMB_CHECK(cudaMemset(t->flush, 1, bytes));
    CLIMB_CHECK(cudaMalloc((void **)&t->flush_sink, sizeof(unsigned)));
    t->flush_bytes = bytes;
    return 0;
}

void climb_timer_free(climb_timer *t)
{
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess || cudaSetDevice(t->device) != cudaSuccess)
        prev = -1;
    if (t->flush)
        cudaFree(t->flush);
    if (t->flush_sink)
        cudaFree(t->flush_sink);
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    if (t->stream)
        cudaStreamDestroy(t->stream);
    if (prev >= 0)
        cudaSetDevice(prev);
    cudaGetLastError();
    memset(t, 0, sizeof *t);
}

int climb_timer_flush(climb_timer *t)
{
    int prev;
    CLIMB_CHECK(cudaGetDevice(&prev));
    if (prev != t->device)
        CLIMB_CHECK(cudaSetDevice(t->device));
    const cudaError_t e = climb_launch_read_pass(t->flush, t->flush_bytes, t->flush_sink, t->stream);
    if (prev != t->device)
        CLIMB_CHECK(cudaSetDevice(prev));
    CLIMB_CHECK(e);
    return 0;
}

double climb_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Times `reps` back-to-back runs between two events (or, with wall, one run by the host's clock, from an idle
 * stream to the end of the run's work); returns microseconds for all of them, or < 0. With several processes, each
 * starts from an idle stream after a barrier, and the sample is the longest of their times. */
static double time_once(climb_timer *t, climb_run_fn fn, climb_run_fn before, void *ctx, int reps, int flush, int wall,
                        const climb_procs *procs, int (*many)(void *, cudaStream_t, int))
{
    if (climb_procs_check(procs, (before && before(ctx, t->stream) != 0) || (flush && climb_timer_flush(t) != 0) ? -1 : 0,
                          "a sample's set-up") != 0)
        return -1;
    if (procs) {
        /* A run that fails on one process leaves the others waiting inside theirs: it ends every process. */
        if (climb_procs_check(procs, CLIMB_FAILED(cudaStreamSynchronize(t->stream)) ? -1 : 0, "a sample") < 0 ||
            procs->barrier(procs->ctx) != 0)
            return -1;
        double us = time_once(t, fn, NULL, ctx, reps, 0, wall, NULL, many);
        if (climb_procs_check(procs, us < 0 ? -1 : 0, "a timed run") < 0 || climb_procs_max(procs, &us, 1) != 0)
            return -1;
        return us;
    }
    if (wall) {
        if (CLIMB_FAILED(cudaStreamSynchronize(t->stream)))
            return -1;
        const double t0 = climb_wall_s();
        if (fn(ctx, t->stream) != 0 || CLIMB_FAILED(cudaStreamSynchronize(t->stream)))
            return -1;
        return 1e6 * (climb_wall_s() - t0);
    }
    if (CLIMB_FAILED(cudaEventRecord(t->start, t->stream)))
        return -1;
    if (many && reps > 1) {
        if (many(ctx, t->stream, reps) != 0)
            return -1;
    } else {
        for (int r = 0; r < reps; r++)
            if (fn(ctx, t->stream) != 0)
                return -1;
    }
    if (CLIMB_FAILED(cudaEventRecord(t->stop, t->stream)) ||
        CLIMB_FAILED(cudaEventSynchronize(t->stop)))
        return -1;
    float ms = 0;
    if (CLIMB_FAILED(cudaEventElapsedTime(&ms, t->start, t->stop)))
        return -1;
    return 1000.0 * ms;
}

int climb_time(climb_timer *t, climb_run_fn fn, climb_run_fn before, void *ctx, const climb_timing_opts *o,
               climb_timing *out)
{
    if (before && o->batch) {
        fprintf(stderr, "climb: batch timing cannot keep the reset of changed operands out of the time\n");
        return -1;
    }
    if (o->wall && o->batch) {
        fprintf(stderr, "climb: batch timing cannot time a run that waits for the host\n");
        return -1;
    }
    for (int i = 0; i < o->warmup; i++)
        if (climb_procs_check(o->procs, (before && before(ctx, t->stream) != 0) || fn(ctx, t->stream) != 0 ? -1 : 0,
                              "a warm-up run") != 0)
            return -1;
    CLIMB_CHECK(cudaStreamSynchronize(t->stream));

    int reps = 1;
    if (o->batch) {
        /* Enough launches per sample that the pair of events is a small part of it: about 1 ms. */
        double est = time_once(t, fn, NULL, ctx, 1, 0, 0, o->procs, NULL);
        if (est < 0)
            return -1;
        reps = est > 0 ? (int)(1000.0 / est) : 1000;
        if (reps < 1)
            reps = 1;
        if (reps > 1000)
            reps = 1000;
    }

    int cap = o->max_samples > 0 ? o->max_samples : 1;
    double *x = malloc((size_t)cap * sizeof *x);
    if (!x) {
        climb_host_oom("%d timing samples", cap);
        return -1;
    }
    int n = 0, stop = CLIMB_STOP_CAP;
    climb_sampler sm;
    memset(&sm, 0, sizeof sm);
    const double t0 = climb_wall_s();
    while (n < cap) {
        double us = time_once(t, fn, before, ctx, reps, !o->batch && !o->no_flush, o->wall, o->procs, o->many);
        if (us < 0) {
            free(x);
            return -1;
        }
        x[n++] = us / reps;
        double elapsed = climb_wall_s() - t0;
        if (o->procs && climb_procs_max(o->procs, &elapsed, 1) != 0) { /* every process stops at the same sample */
            free(x);
            return -1;
        }
        const int why = climb_sampler_add(&sm, o, us / reps, us * 1e-6, elapsed);
        if (why >= 0) {
            stop = why;
            break;
        }
    }
    climb_timing_stats(x, n, out);
    out->batch = reps;
    out->wall = o->wall;
    out->stop = stop;
    free(x);
    return 0;
}
