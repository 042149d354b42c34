/* GPU: the C API of every workload together (docs/graphs.md); each workload's own captures and threads are in its
 * test (tests/api_jobs.h), from the jobs it declares, which this test runs all at once.
 *
 * capture: every workload's captures (a fresh handle's first call captured, replayed with new input, then eager):
 *          what the compute-sanitizer run takes (test_gpu_graphs_sanitized.sh).
 * threads: eight threads, each with its own handle and stream, 200 calls each mixing every workload's calls,
 *          every result checked; what the calls share (an SpMV plan) made on the main thread's handle.
 * errors:  a call of each workload into a capture the caller broke fails with the capture's error and leaves none
 *          behind, and the handle works after it; climb_destroy refuses a capturing stream and leaves the capture
 *          valid.
 * devices: a handle made and used from a thread whose current device was never set; the caller's current device
 *          unchanged by calls on a handle of another device (run where there are two GPUs).
 *
 *   test_gpu_graphs [capture|all|--probe]   (--probe: exit 0 where there is a GPU, 77 where not)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "base/rng.h"
#include "api_jobs.h"
#include "testing.h"

/* Every workload whose test declares its C API's jobs (tests/CMakeLists.txt lists them). */
#define API_WORKLOAD(w) extern const api_workload api_workload_##w;
#include "api_workloads.h"
#undef API_WORKLOAD
static const api_workload *const workloads[] = {
#define API_WORKLOAD(w) &api_workload_##w,
#include "api_workloads.h"
#undef API_WORKLOAD
};
static const int n_workloads = (int)(sizeof workloads / sizeof workloads[0]);

/* The first of w's jobs for thread `id`, set up (NULL with a failed check; shared as w's jobs need it). */
static api_job *first_job(const api_workload *w, int id, void *shared)
{
    api_job *jobs[64];
    const int n = w->jobs(API_THREAD, id, shared, jobs, 64);
    EXPECT_MSG(n > 0, "%s: no jobs", w->name);
    for (int i = 1; i < n; i++)
        api_job_free(jobs[i]);
    if (n <= 0)
        return NULL;
    if (api_job_setup(jobs[0]) != 0) {
        EXPECT_MSG(0, "%s: setup", jobs[0] ? jobs[0]->label : w->name);
        api_job_free(jobs[0]);
        return NULL;
    }
    return jobs[0];
}

/* ---------------------------------------------------------------- errors */

/* A capture the caller breaks (a wait on the capturing stream is illegal): each workload's call into it fails with
 * the capture's error and leaves none behind; the same handle's next call, eager, is right. */
static void broken_capture(const api_workload *w, climb_rng *r)
{
    cudaStream_t s;
    climb_handle h;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    void *shared = w->shared_make ? w->shared_make(API_THREAD, h, r) : NULL;
    EXPECT_MSG(!w->shared_make || shared, "%s: what its jobs share", w->name);
    api_job *j = !w->shared_make || shared ? first_job(w, 0, shared) : NULL;
    if (j && api_job_fill(j, r, s) == 0) {
        EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
        EXPECT(cudaStreamSynchronize(s) != cudaSuccess); /* invalidates the capture */
        const climb_status st = j->ops->call(j, h);
        EXPECT_MSG(st != CLIMB_STATUS_SUCCESS, "%s into a broken capture: %s", j->label, climb_status_string(st));
        EXPECT_MSG(climb_last_cuda_error(h) == cudaErrorStreamCaptureInvalidated, "%s into a broken capture: %s",
                   j->label, cudaGetErrorName(climb_last_cuda_error(h)));
        EXPECT_MSG(cudaPeekAtLastError() == cudaSuccess, "%s: left behind: %s", j->label,
                   cudaGetErrorName(cudaPeekAtLastError()));
        cudaGraph_t g = NULL;
        EXPECT(cudaStreamEndCapture(s, &g) != cudaSuccess); /* the caller's own error, left unread on purpose */
        if (g)
            cudaGraphDestroy(g);
        EXPECT(api_job_fill(j, r, s) == 0 && j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
        EXPECT_MSG(api_job_check(j, s, "the failed handle, next call"), "%s", j->label);
        EXPECT(climb_last_cuda_error(h) == cudaSuccess);
    }
    api_job_free(j);
    if (shared)
        w->shared_free(shared);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
    cudaGetLastError();
}

static void test_errors(climb_rng *r)
{
    for (int i = 0; i < n_workloads; i++)
        broken_capture(workloads[i], r);
    printf("errors: %d workloads' calls into a broken capture\n", n_workloads);

    /* What waits for the GPU refuses a capturing stream, and the capture stays valid; what launches nothing is
     * allowed. The first workload's first call captured beside them, then launched. */
    cudaStream_t s;
    climb_handle h;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS && climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    const api_workload *w = workloads[0];
    void *shared = w->shared_make ? w->shared_make(API_THREAD, h, r) : NULL;
    api_job *j = !w->shared_make || shared ? first_job(w, 0, shared) : NULL;
    EXPECT(j != NULL);
    if (j && api_job_fill(j, r, s) == 0) {
        EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
        EXPECT(climb_destroy(h) == CLIMB_STATUS_CAPTURE_UNSUPPORTED);
        EXPECT(climb_load_wisdom(h, NULL) == CLIMB_STATUS_SUCCESS); /* launches nothing: allowed */
        EXPECT(j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
        cudaGraph_t g = NULL;
        EXPECT(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
        cudaGraphExec_t ex = NULL;
        EXPECT(g && cudaGraphInstantiate(&ex, g, 0) == cudaSuccess);
        if (ex) {
            EXPECT(api_replay(j, ex, s, r, 1, "after refusals inside the capture:") == 0);
            cudaGraphExecDestroy(ex);
        }
        if (g)
            cudaGraphDestroy(g);
    }
    api_job_free(j);
    if (shared)
        w->shared_free(shared);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
}

/* ---------------------------------------------------------------- devices */

typedef struct fresh_thread {
    uint64_t seed;
    int ok, device_after;
} fresh_thread;

/* A thread that never set its current device: a handle on device 0, each workload's call (those that share
 * nothing made beforehand), checked. */
static void *fresh(void *arg)
{
    fresh_thread *f = arg;
    climb_rng r;
    climb_rng_seed(&r, f->seed);
    climb_handle h;
    f->ok = climb_create(&h, 0) == CLIMB_STATUS_SUCCESS;
    for (int i = 0; i < n_workloads && f->ok; i++) {
        if (workloads[i]->shared_make)
            continue;
        api_job *j = first_job(workloads[i], 0, NULL);
        f->ok = j && api_job_fill(j, &r, 0) == 0 && j->ops->call(j, h) == CLIMB_STATUS_SUCCESS &&
                api_job_check(j, 0, "a thread with no device set");
        api_job_free(j);
    }
    f->ok = f->ok && climb_destroy(h) == CLIMB_STATUS_SUCCESS;
    cudaGetDevice(&f->device_after);
    return NULL;
}

static void test_devices(climb_rng *r)
{
    fresh_thread f = {.seed = climb_rng_next(r), .device_after = -1};
    pthread_t t;
    EXPECT(pthread_create(&t, NULL, fresh, &f) == 0 && pthread_join(t, NULL) == 0);
    EXPECT(f.ok);
    EXPECT(f.device_after == 0);

    int count = 0;
    EXPECT(cudaGetDeviceCount(&count) == cudaSuccess);
    if (count < 2) {
        printf("devices: one GPU; a handle on another device than the current one is not run here\n");
        return;
    }
    /* Device 0 current, a handle on the last device, the buffers there: each call runs there, device 0 stays. */
    const int dev = count - 1;
    climb_handle h;
    EXPECT(climb_create(&h, dev) == CLIMB_STATUS_SUCCESS);
    for (int i = 0; i < n_workloads; i++) {
        if (workloads[i]->shared_make)
            continue;
        EXPECT(cudaSetDevice(dev) == cudaSuccess);
        api_job *j = first_job(workloads[i], 0, NULL);
        EXPECT(j && api_job_fill(j, r, 0) == 0);
        EXPECT(cudaSetDevice(0) == cudaSuccess);
        EXPECT(j && j->ops->call(j, h) == CLIMB_STATUS_SUCCESS);
        int cur = -1;
        EXPECT(cudaGetDevice(&cur) == cudaSuccess && cur == 0);
        EXPECT(cudaSetDevice(dev) == cudaSuccess);
        EXPECT(j && api_job_check(j, 0, "a handle on another device"));
        api_job_free(j);
        EXPECT(cudaSetDevice(0) == cudaSuccess);
    }
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    printf("devices: a handle on device %d used with device 0 current\n", dev);
}

int main(int argc, char **argv)
{
    test_require_gpu();
    if (argc > 1 && strcmp(argv[1], "--probe") == 0)
        return 0; /* a GPU is there (for the sanitizer script) */
    const int capture_only = argc > 1 && strcmp(argv[1], "capture") == 0;
    if (argc > 1 && !capture_only && strcmp(argv[1], "all") != 0) {
        fprintf(stderr, "usage: test_gpu_graphs [capture|all]\n");
        return 2;
    }
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1); /* the built-in defaults, whatever is here */
    climb_rng r;
    const uint64_t seed = climb_fresh_seed();
    printf("seed %llu; %d workloads declare their C API's jobs\n", (unsigned long long)seed, n_workloads);
    climb_rng_seed(&r, seed);
    EXPECT(n_workloads > 0);
    if (capture_only) {
        for (int i = 0; i < n_workloads; i++)
            EXPECT(api_test_captures(workloads[i], &r) == 0);
    } else {
        EXPECT(api_test_threads(workloads, n_workloads, 200, &r) == 0);
        test_errors(&r);
        test_devices(&r);
    }
    return test_finish("test_gpu_graphs");
}
