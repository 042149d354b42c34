/* Timing like nvbench: CUDA events around each sample, warm-up first, samples until the GPU time and
 * count are enough for a stable median, L2 flushed (with a read pass over a buffer twice its size)
 * before every sample in the default cold mode; batch mode times back-to-back launches instead. */
#ifndef CLIMB_DEVICE_TIMING_H
#define CLIMB_DEVICE_TIMING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct climb_timing {
    double median_us, min_us, max_us, mean_us;
    double noise_pct;     /* relative standard deviation of the samples, in % */
    int samples;
    int batch;            /* launches per sample (1 in cold mode) */
    int wall;             /* 1: timed by the host's clock (a rung with a host part), not by events */
    int stop;             /* why sampling stopped (climb_timing_stop) */
    double prepare_ms;    /* the rung's prepare (climb_measure_rung): wall milliseconds, its device work included */
} climb_timing;

/* Why sampling stopped. */
typedef enum climb_timing_stop {
    CLIMB_STOP_ENOUGH = 0,    /* min_samples and min_gpu_s reached (no noise target) */
    CLIMB_STOP_NOISE,         /* the noise target reached */
    CLIMB_STOP_STEADY,        /* the noise estimate stopped moving above the target: more samples would not lower it */
    CLIMB_STOP_TIME,          /* max_wall_s passed */
    CLIMB_STOP_CAP,           /* max_samples taken */
} climb_timing_stop;

typedef struct climb_timing_opts {
    int warmup;           /* untimed runs before sampling */
    int min_samples;
    int max_samples;
    double min_gpu_s;     /* after min_samples, sample until this much GPU time has been measured */
    double max_wall_s;    /* ...or until this much wall time has passed */
    double max_noise_pct; /* > 0: after min_samples and min_gpu_s, sample on until the samples' noise (relative
                             standard deviation, %) is at most this, or its estimate holds steady above it (the
                             spread is the kernel's, not the sample count's), or max_wall_s has passed (nvbench's
                             --max-noise, its convergence test and --timeout); 0: no noise target */
    int batch;            /* 0: cold, one launch per sample after an L2 flush; 1: back-to-back launches */
    int no_flush;         /* cold without the flush: each sample from an idle GPU (climb_workload.cold_no_flush) */
    int wall;             /* 1: each sample is the host's monotonic clock around one run and a wait for the stream
                             (for runs that wait for the host inside: the host's work is part of their time);
                             cold only */
    double budget_s;      /* > 0: a rung whose first (verified) run takes longer than this is not sampled; its row
                             is refused with the time it took (`climb bench all`'s quick run); 0: no budget */
    /* NULL: a batch sample is `reps` calls of the run; else one call of many(ctx, stream, reps), the runs back to
     * back as one (climb_workload.run_batch) */
    int (*many)(void *ctx, cudaStream_t stream, int reps);
    const struct climb_procs *procs; /* NULL: one process; else every process times the same runs together: each
                             sample starts after every process is ready (its stream idle, a barrier), and is the
                             longest of the processes' times, on which all take the same decisions */
} climb_timing_opts;

/* When sampling stops: the running sums of the samples and the noise estimates of the last checks. */
enum { CLIMB_SAMPLER_HIST = 6, CLIMB_SAMPLER_EVERY = 50 };
typedef struct climb_sampler {
    int n, n_hist;
    double sum, sum2, gpu_s;
    double hist[CLIMB_SAMPLER_HIST]; /* the noise every CLIMB_SAMPLER_EVERY samples past the minimum */
} climb_sampler;

/* Adds one sample (its time per run, the GPU time it took, the seconds since sampling began): -1 to go on, or a
 * climb_timing_stop. max_samples is the caller's. Zero the sampler first. */
int climb_sampler_add(climb_sampler *s, const climb_timing_opts *o, double sample_us, double gpu_s, double elapsed_s);

/* Defaults: 3 warm-ups, 20..2000 samples, 0.05 s of GPU time, at most 1 s of wall time, cold. */
climb_timing_opts climb_timing_defaults(void);

/* One run of the code under test on `stream`: 0, or -1 after printing why. */
typedef int (*climb_run_fn)(void *ctx, cudaStream_t stream);

typedef struct climb_timer {
    int device;           /* the CUDA device of its stream, events and buffers (current at init) */
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *flush;          /* device buffer read before each cold sample */
    size_t flush_bytes;
    unsigned *flush_sink;
} climb_timer;

/* A timer on the current device. 0, or -1 after printing why (free it still). */
int climb_timer_init(climb_timer *t, size_t l2_bytes);
/* Frees it from whichever device is current (and leaves that one current). */
void climb_timer_free(climb_timer *t);
/* Evicts the timer's device's L2 by reading the flush buffer on the timer's stream (from whichever device is
 * current, which it leaves current). */
int climb_timer_flush(climb_timer *t);
/* Times fn. `before` (NULL: none) runs before every run of fn, warm-ups included, outside the timed region and
 * before the L2 flush: it restores operands a run changes. Batch mode cannot keep it out of the time, so
 * batch with a `before` is refused (-1, printed). 0, or -1 after printing why. */
int climb_time(climb_timer *t, climb_run_fn fn, climb_run_fn before, void *ctx, const climb_timing_opts *o,
               climb_timing *out);

/* Seconds on the monotonic clock (for host-side durations: a rung's set-up, the sampling budget). */
double climb_wall_s(void);

/* Median, min, max, mean and noise of n samples in microseconds (sorts x). */
void climb_timing_stats(double *x, int n, climb_timing *out);

/* Launches a kernel that keeps stream s busy for about `ns` nanoseconds: launches the host enqueues behind it in
 * that time run back to back, so that an event recorded after it times the GPU's work and not the host's launch
 * rate (what the cold samples' L2 flush does for the bench). */
cudaError_t climb_launch_gate(unsigned ns, cudaStream_t s);

/* Launches a read of `bytes` at `buf` (multiple of 16 B, 16-B aligned) that the compiler cannot drop. */
cudaError_t climb_launch_read_pass(const void *buf, size_t bytes, unsigned *sink, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
