/* The C API as real programs use it (docs/graphs.md), for any workload: a job is one public call with its buffers,
 * its fresh input and its check against the CPU; a workload's GPU test declares its jobs (an api_workload) and runs
 * them through the helpers here, and test_gpu_graphs runs every workload's jobs together.
 *
 *   captures: a fresh handle on a non-blocking stream, its FIRST call captured into a CUDA graph, the graph
 *             instantiated and launched three times with new input copied in between, then one eager call; every
 *             element checked each time.
 *   threads:  eight threads, each with its own handle and stream, the jobs of one or more workloads in a mix
 *             that differs from thread to thread, every result checked; what the jobs share (an SpMV plan) is
 *             made on the main thread's handle.
 *   growth:   a used handle whose workspace must grow inside a capture, the graph captured before the growth
 *             launched again after it.
 *
 * The helpers print what went wrong and return the number of failed checks (0: all passed), so that a test
 * counts them with EXPECT(... == 0). tests/CMakeLists.txt finds each workload's api_workload (a test file
 * test_gpu_W.c that defines `const api_workload api_workload_W`) and lists them in api_workloads.h. */
#ifndef CLIMB_TESTS_API_JOBS_H
#define CLIMB_TESTS_API_JOBS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "climb.h"
#include "base/rng.h"

typedef struct api_job api_job;

/* The wrong elements of one check: how many, and the first (its index, what came, what was expected). */
typedef struct api_mismatch {
    size_t bad, first;
    double got, want;
} api_mismatch;

void api_mismatch_note(api_mismatch *m, size_t i, double got, double want);

typedef struct api_job_ops {
    /* The buffers' sizes set (a_bytes, b_bytes, out_bytes); 0, or -1 with a message. */
    int (*sizes)(api_job *j);
    /* Optional, once the buffers exist: what is drawn once (filters, a mask, a graph); 0 or -1. */
    int (*once)(api_job *j);
    /* New input drawn on the host and copied in, the output poisoned, on s, waited for (api_job_send does the
     * copies); 0 or -1 with a message. */
    int (*fill)(api_job *j, climb_rng *r, cudaStream_t s);
    /* The public call, on h's stream. */
    climb_status (*call)(api_job *j, climb_handle h);
    /* The output, read back into `got`, against the CPU; each wrong element noted in m. s: for any further
     * reads (a second output). */
    void (*check)(const api_job *j, const void *got, cudaStream_t s, api_mismatch *m);
    /* Optional: what `sizes` or `once` made beyond the six buffers. */
    void (*release)(api_job *j);
} api_job_ops;

/* A job's common part: a workload's job is a struct whose first member is this. */
struct api_job {
    char label[112];
    const api_job_ops *ops;
    size_t a_bytes, b_bytes, out_bytes;
    void *h_a, *h_b, *h_c0; /* host: the inputs, and the output's start where the call reads it */
    void *d_a, *d_b, *d_out;
};

/* A zeroed job of `size` bytes (the workload's struct) with its operations; NULL when out of memory. */
void *api_job_new(size_t size, const api_job_ops *ops);
/* Sizes, the six buffers (each 16 bytes over), `once`; 0, or -1 with a message. */
int api_job_setup(api_job *j);
/* Everything a job holds, and the job (NULL: nothing). */
void api_job_free(api_job *j);
int api_job_fill(api_job *j, climb_rng *r, cudaStream_t s);
/* 1 when every element is right; else 0, with the count and the first wrong element printed. */
int api_job_check(const api_job *j, cudaStream_t s, const char *when);

/* What api_job_send copies: the host input a to d_a, or to d_out (a call that works in place); b to d_b; the
 * output's start h_c0 to d_out; or the output poisoned with `poison` in every byte. Waited for. */
enum { API_SEND_A = 1, API_SEND_A_TO_OUT = 2, API_SEND_B = 4, API_SEND_C0 = 8, API_POISON_OUT = 16 };
int api_job_send(api_job *j, cudaStream_t s, unsigned what, int poison);

/* A workload's jobs. `jobs` writes up to `cap` new jobs of a set into out and returns their count (-1: out of
 * memory): API_CAPTURE, the shapes a capture must get right (large, odd, the edge cases); API_THREAD, small ones
 * for thread `id` (sizes that differ by thread). `shared` is what shared_make made for the set (NULL without
 * one), on a handle of the main thread. */
enum { API_CAPTURE, API_THREAD };
typedef struct api_workload {
    const char *name;
    int (*jobs)(int set, int id, void *shared, api_job **out, int cap);
    void *(*shared_make)(int set, climb_handle h, climb_rng *r); /* optional; NULL on failure, said */
    void (*shared_free)(void *shared);
} api_workload;

/* Captures j's call on s into a graph, instantiated in *exec; 0 when it worked. */
int api_capture(api_job *j, climb_handle h, cudaStream_t s, cudaGraphExec_t *exec);
/* Launches exec `times` times, new input before each, every output checked. */
int api_replay(api_job *j, cudaGraphExec_t exec, cudaStream_t s, climb_rng *r, int times, const char *what);
/* The first call of a fresh handle captured, replayed three times with new input, then one eager call. */
int api_first_call_captured(api_job *j, climb_rng *r);
/* Every API_CAPTURE job of w through api_first_call_captured. */
int api_test_captures(const api_workload *w, climb_rng *r);
/* Eight threads, `calls` calls each, over the API_THREAD jobs of the n workloads. */
int api_test_threads(const api_workload *const *w, int n, int calls, climb_rng *r);
/* One handle: `small` eagerly, then captured; `large` captured (its workspace grows inside the capture) and
 * replayed; the graph of `small` launched again after the growth; `small` eagerly. Frees both jobs. */
int api_test_growth(api_job *small, api_job *large, climb_rng *r);
/* A workload's captures and threads, from a fresh seed (printed), with the built-in tuning (CLIMB_WISDOM set to
 * a file that is not there): api_test_captures, then api_test_threads over w alone, 40 calls a thread. */
int api_test_workload(const api_workload *w);

#endif
