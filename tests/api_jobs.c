/* The helpers of tests/api_jobs.h: a job's buffers, fill and check, and the capture, thread and growth runs. */
#include "api_jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failed check: said, and counted in *fails. */
#define FAIL_IF(fails, cond, ...)                                                                                  \
    do {                                                                                                           \
        if (cond) {                                                                                                \
            (*(fails))++;                                                                                          \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                        \
            fprintf(stderr, __VA_ARGS__);                                                                          \
            fputc('\n', stderr);                                                                                   \
        }                                                                                                          \
    } while (0)

void api_mismatch_note(api_mismatch *m, size_t i, double got, double want)
{
    if (m->bad++ == 0) {
        m->first = i;
        m->got = got;
        m->want = want;
    }
}

void *api_job_new(size_t size, const api_job_ops *ops)
{
    api_job *j = calloc(1, size);
    if (j)
        j->ops = ops;
    return j;
}

int api_job_setup(api_job *j)
{
    if (!j) {
        fprintf(stderr, "api job: out of host memory for a job\n");
        return -1;
    }
    if (j->ops->sizes(j) != 0)
        return -1;
    j->h_a = malloc(j->a_bytes + 16);
    j->h_b = malloc(j->b_bytes + 16);
    j->h_c0 = malloc(j->out_bytes + 16);
    if (!j->h_a || !j->h_b || !j->h_c0 || cudaMalloc(&j->d_a, j->a_bytes + 16) != cudaSuccess ||
        cudaMalloc(&j->d_b, j->b_bytes + 16) != cudaSuccess || cudaMalloc(&j->d_out, j->out_bytes + 16) != cudaSuccess) {
        cudaGetLastError();
        fprintf(stderr, "%s: out of memory for the test's buffers\n", j->label);
        return -1;
    }
    return j->ops->once ? j->ops->once(j) : 0;
}

void api_job_free(api_job *j)
{
    if (!j)
        return;
    if (j->ops->release)
        j->ops->release(j);
    free(j->h_a);
    free(j->h_b);
    free(j->h_c0);
    cudaFree(j->d_a);
    cudaFree(j->d_b);
    cudaFree(j->d_out);
    free(j);
}

int api_job_fill(api_job *j, climb_rng *r, cudaStream_t s)
{
    return j->ops->fill(j, r, s);
}

int api_job_send(api_job *j, cudaStream_t s, unsigned what, int poison)
{
    cudaError_t e = cudaSuccess;
    if (what & (API_SEND_A | API_SEND_A_TO_OUT))
        e = cudaMemcpyAsync(what & API_SEND_A ? j->d_a : j->d_out, j->h_a, j->a_bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess && (what & API_SEND_B))
        e = cudaMemcpyAsync(j->d_b, j->h_b, j->b_bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess && (what & API_SEND_C0))
        e = cudaMemcpyAsync(j->d_out, j->h_c0, j->out_bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess && (what & API_POISON_OUT))
        e = cudaMemsetAsync(j->d_out, poison, j->out_bytes, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess)
        fprintf(stderr, "%s: filling the input: %s\n", j->label, cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : -1;
}

int api_job_check(const api_job *j, cudaStream_t s, const char *when)
{
    void *got = malloc(j->out_bytes + 16);
    if (!got || cudaMemcpyAsync(got, j->d_out, j->out_bytes, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        fprintf(stderr, "%s %s: could not read the output back\n", j->label, when);
        free(got);
        return 0;
    }
    api_mismatch m = {0, 0, 0, 0};
    j->ops->check(j, got, s, &m);
    free(got);
    if (m.bad)
        fprintf(stderr, "%s %s: %zu wrong; the first at %zu: got %.9g, expected %.9g\n", j->label, when, m.bad,
                m.first, m.got, m.want);
    return m.bad == 0;
}

/* ---------------------------------------------------------------- capture */

int api_capture(api_job *j, climb_handle h, cudaStream_t s, cudaGraphExec_t *exec)
{
    int fails = 0;
    cudaGraph_t g = NULL;
    *exec = NULL;
    FAIL_IF(&fails, cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess, "%s: begin capture",
            j->label);
    const climb_status st = j->ops->call(j, h);
    const cudaError_t end = cudaStreamEndCapture(s, &g);
    FAIL_IF(&fails, st != CLIMB_STATUS_SUCCESS, "%s: captured call: %s (%s)", j->label, climb_status_string(st),
            cudaGetErrorName(climb_last_cuda_error(h)));
    FAIL_IF(&fails, end != cudaSuccess || !g, "%s: end of capture: %s", j->label, cudaGetErrorName(end));
    if (fails) {
        if (g)
            cudaGraphDestroy(g);
        cudaGetLastError();
        return fails;
    }
    const cudaError_t in = cudaGraphInstantiate(exec, g, 0);
    FAIL_IF(&fails, in != cudaSuccess, "%s: instantiate: %s", j->label, cudaGetErrorName(in));
    cudaGraphDestroy(g);
    if (in != cudaSuccess)
        *exec = NULL;
    return fails;
}

int api_replay(api_job *j, cudaGraphExec_t exec, cudaStream_t s, climb_rng *r, int times, const char *what)
{
    int fails = 0;
    for (int t = 0; t < times; t++) {
        char when[96];
        snprintf(when, sizeof when, "%s replay %d", what, t + 1);
        FAIL_IF(&fails, api_job_fill(j, r, s) != 0, "%s %s: fill", j->label, when);
        FAIL_IF(&fails, cudaGraphLaunch(exec, s) != cudaSuccess, "%s %s: launch", j->label, when);
        FAIL_IF(&fails, cudaStreamSynchronize(s) != cudaSuccess, "%s %s: synchronize", j->label, when);
        FAIL_IF(&fails, !api_job_check(j, s, when), "%s %s", j->label, when);
    }
    return fails;
}

int api_first_call_captured(api_job *j, climb_rng *r)
{
    int fails = 0;
    climb_handle h = NULL;
    cudaStream_t s = NULL;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess || climb_create(&h, 0) != CLIMB_STATUS_SUCCESS ||
        climb_set_stream(h, s) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "%s: no handle or stream\n", j->label);
        return 1;
    }
    FAIL_IF(&fails, api_job_fill(j, r, s) != 0, "%s: fill", j->label);
    cudaGraphExec_t exec;
    const int cf = api_capture(j, h, s, &exec);
    fails += cf;
    if (!cf && exec) {
        fails += api_replay(j, exec, s, r, 3, "first call captured:");
        cudaGraphExecDestroy(exec);
    }
    FAIL_IF(&fails, api_job_fill(j, r, s) != 0, "%s: fill", j->label);
    const climb_status st = j->ops->call(j, h);
    FAIL_IF(&fails, st != CLIMB_STATUS_SUCCESS, "%s eager after the graph: %s", j->label, climb_status_string(st));
    FAIL_IF(&fails, !api_job_check(j, s, "eager after the graph"), "%s", j->label);
    FAIL_IF(&fails, cudaPeekAtLastError() != cudaSuccess, "%s: an error left behind: %s", j->label,
            cudaGetErrorName(cudaPeekAtLastError()));
    FAIL_IF(&fails, climb_destroy(h) != CLIMB_STATUS_SUCCESS, "%s: climb_destroy", j->label);
    cudaStreamDestroy(s);
    return fails;
}

/* The shared state of w made on h (NULL where w has none); *fails counts a failure. */
static void *shared_of(const api_workload *w, int set, climb_handle h, climb_rng *r, int *fails)
{
    if (!w->shared_make)
        return NULL;
    void *sh = w->shared_make(set, h, r);
    FAIL_IF(fails, !sh, "%s: what its jobs share could not be made", w->name);
    return sh;
}

int api_test_captures(const api_workload *w, climb_rng *r)
{
    int fails = 0;
    climb_handle maker;
    if (climb_create(&maker, 0) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "%s: no handle\n", w->name);
        return 1;
    }
    void *sh = shared_of(w, API_CAPTURE, maker, r, &fails);
    api_job *jobs[64];
    const int n = fails ? 0 : w->jobs(API_CAPTURE, 0, sh, jobs, 64);
    FAIL_IF(&fails, n < 0, "%s: its capture jobs could not be made", w->name);
    for (int i = 0; i < n; i++) {
        if (api_job_setup(jobs[i]) == 0)
            fails += api_first_call_captured(jobs[i], r);
        else
            FAIL_IF(&fails, 1, "%s: setup", jobs[i] ? jobs[i]->label : w->name);
        api_job_free(jobs[i]);
    }
    if (sh)
        w->shared_free(sh);
    FAIL_IF(&fails, climb_destroy(maker) != CLIMB_STATUS_SUCCESS, "%s: climb_destroy", w->name);
    printf("captures: %s, %d calls captured as a fresh handle's first, %d failed checks\n", w->name, n, fails);
    return fails;
}

/* ---------------------------------------------------------------- threads */

#define API_THREADS 8
#define API_MAX_JOBS 256

typedef struct worker {
    int id, calls_wanted;
    const api_workload *const *w;
    void **shared;
    int n;
    uint64_t seed;
    int calls, failures;
} worker;

static void *work(void *arg)
{
    worker *wk = arg;
    climb_rng r;
    climb_rng_seed(&r, wk->seed);
    climb_handle h;
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess || climb_create(&h, 0) != CLIMB_STATUS_SUCCESS ||
        climb_set_stream(h, s) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "thread %d: no handle\n", wk->id);
        wk->failures++;
        return NULL;
    }
    api_job *jobs[API_MAX_JOBS];
    int n_jobs = 0;
    for (int i = 0; i < wk->n; i++) {
        const int k = wk->w[i]->jobs(API_THREAD, wk->id, wk->shared[i], jobs + n_jobs, API_MAX_JOBS - n_jobs);
        if (k < 0) {
            fprintf(stderr, "thread %d: %s's jobs could not be made\n", wk->id, wk->w[i]->name);
            wk->failures++;
        } else
            n_jobs += k;
    }
    for (int i = 0; i < n_jobs; i++)
        if (api_job_setup(jobs[i]) != 0)
            wk->failures++;
    for (int c = 0; c < wk->calls_wanted && !wk->failures && n_jobs > 0; c++) {
        api_job *j = jobs[(c * 7 + wk->id) % n_jobs]; /* a different mix in each thread */
        char when[48];
        snprintf(when, sizeof when, "thread %d call %d", wk->id, c);
        const climb_status st = api_job_fill(j, &r, s) == 0 ? j->ops->call(j, h) : CLIMB_STATUS_INTERNAL_ERROR;
        if (st != CLIMB_STATUS_SUCCESS) {
            fprintf(stderr, "%s %s: %s\n", j->label, when, climb_status_string(st));
            wk->failures++;
        } else if (!api_job_check(j, s, when))
            wk->failures++;
        wk->calls++;
    }
    for (int i = 0; i < n_jobs; i++)
        api_job_free(jobs[i]);
    if (climb_destroy(h) != CLIMB_STATUS_SUCCESS)
        wk->failures++;
    cudaStreamDestroy(s);
    return NULL;
}

int api_test_threads(const api_workload *const *w, int n, int calls, climb_rng *r)
{
    int fails = 0;
    climb_handle h;
    if (climb_create(&h, 0) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "threads: no handle\n");
        return 1;
    }
    void **shared = calloc((size_t)n + 1, sizeof *shared);
    FAIL_IF(&fails, !shared, "threads: out of host memory");
    for (int i = 0; shared && i < n; i++)
        shared[i] = shared_of(w[i], API_THREAD, h, r, &fails);
    worker wk[API_THREADS];
    pthread_t t[API_THREADS];
    int started = 0;
    for (int i = 0; i < API_THREADS && !fails; i++, started++) {
        wk[i] = (worker){.id = i, .calls_wanted = calls, .w = w, .shared = shared, .n = n, .seed = climb_rng_next(r)};
        if (pthread_create(&t[i], NULL, work, &wk[i]) != 0) {
            FAIL_IF(&fails, 1, "threads: pthread_create");
            break;
        }
    }
    int done = 0, failed = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        done += wk[i].calls;
        failed += wk[i].failures;
    }
    printf("threads: %d threads over %d workload%s, %d calls checked, %d failed\n", started, n, n == 1 ? "" : "s",
           done, failed);
    FAIL_IF(&fails, started == API_THREADS && done != API_THREADS * calls, "threads: %d calls made of %d", done,
            API_THREADS * calls);
    fails += failed;
    for (int i = 0; shared && i < n; i++)
        if (shared[i])
            w[i]->shared_free(shared[i]);
    free(shared);
    FAIL_IF(&fails, climb_destroy(h) != CLIMB_STATUS_SUCCESS, "threads: climb_destroy");
    return fails;
}

/* ---------------------------------------------------------------- growth */

int api_test_growth(api_job *a, api_job *b, climb_rng *r)
{
    int fails = 0;
    climb_handle h;
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess || climb_create(&h, 0) != CLIMB_STATUS_SUCCESS ||
        climb_set_stream(h, s) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "growth: no handle or stream\n");
        api_job_free(a);
        api_job_free(b);
        return 1;
    }
    if (api_job_setup(a) != 0 || api_job_setup(b) != 0) {
        FAIL_IF(&fails, 1, "growth: setup");
    } else {
        FAIL_IF(&fails, api_job_fill(a, r, s) != 0 || a->ops->call(a, h) != CLIMB_STATUS_SUCCESS, "%s: eager call",
                a->label);
        FAIL_IF(&fails, !api_job_check(a, s, "eager, before the growth"), "%s", a->label);
        cudaGraphExec_t ea = NULL, eb = NULL;
        FAIL_IF(&fails, api_job_fill(a, r, s) != 0, "%s: fill", a->label);
        if (api_capture(a, h, s, &ea) == 0 && ea)
            fails += api_replay(a, ea, s, r, 1, "captured before the growth:");
        else
            fails++;
        FAIL_IF(&fails, api_job_fill(b, r, s) != 0, "%s: fill", b->label);
        if (api_capture(b, h, s, &eb) == 0 && eb)
            fails += api_replay(b, eb, s, r, 3, "captured call that grew the workspace:");
        else
            fails++;
        if (ea)
            fails += api_replay(a, ea, s, r, 2, "graph from before the growth, launched after it:");
        FAIL_IF(&fails, api_job_fill(a, r, s) != 0 || a->ops->call(a, h) != CLIMB_STATUS_SUCCESS,
                "%s: eager after the growth", a->label);
        FAIL_IF(&fails, !api_job_check(a, s, "eager after the growth"), "%s", a->label);
        if (ea)
            cudaGraphExecDestroy(ea);
        if (eb)
            cudaGraphExecDestroy(eb);
    }
    printf("growth: %s, then %s inside a capture: %d failed checks\n", a->label, b->label, fails);
    api_job_free(a);
    api_job_free(b);
    FAIL_IF(&fails, climb_destroy(h) != CLIMB_STATUS_SUCCESS, "growth: climb_destroy");
    cudaStreamDestroy(s);
    return fails;
}

int api_test_workload(const api_workload *w)
{
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1); /* the built-in defaults, whatever is here */
    const uint64_t seed = climb_fresh_seed();
    printf("%s's C API: seed %llu\n", w->name, (unsigned long long)seed);
    climb_rng r;
    climb_rng_seed(&r, seed);
    const api_workload *one[1] = {w};
    return api_test_captures(w, &r) + api_test_threads(one, 1, 40, &r);
}
