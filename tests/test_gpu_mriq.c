/* GPU: every MRI-Q rung over the edge cases (no samples, no voxels, one, odd sizes, more samples than a constant
 * chunk, fewer voxels than a block), spiral and random trajectories, misaligned outputs, every voxel checked against
 * the CPU (the MUFU rungs with their own tolerance); proof that an output nobody wrote fails; each rung's measured
 * error in its note; Parboil's 32^3 dataset through --input and through the C API against Parboil's output; the
 * C API's argument checks. */
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
#include "io/parboil.h"
#include "workloads/mriq.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* kx ky kz phi_r phi_i (samples each), then x y z (voxels each) in h_a; Qr then Qi out. */
typedef struct mriq_job {
    api_job base;
    size_t samples, voxels;
} mriq_job;

static int mriq_sizes(api_job *b)
{
    const mriq_job *j = (const mriq_job *)b;
    b->a_bytes = (5 * j->samples + 3 * j->voxels) * 4;
    b->out_bytes = 2 * j->voxels * 4;
    return 0;
}

/* k in [-8, 8)^3, phi in [-1, 1)^2, voxels in [-0.5, 0.5)^3 */
static int mriq_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const mriq_job *j = (const mriq_job *)b;
    float *a = b->h_a;
    climb_rng_fill_f32(r, a, 3 * j->samples, -8.0f, 8.0f);
    climb_rng_fill_f32(r, a + 3 * j->samples, 2 * j->samples, -1.0f, 1.0f);
    climb_rng_fill_f32(r, a + 5 * j->samples, 3 * j->voxels, -0.5f, 0.5f);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status mriq_call(api_job *b, climb_handle h)
{
    const mriq_job *j = (const mriq_job *)b;
    const float *k = b->d_a, *x = (const float *)b->d_a + 5 * j->samples;
    const size_t K = j->samples, X = j->voxels;
    return climb_mriq_f32(h, K, k, k + K, k + 2 * K, k + 3 * K, k + 4 * K, X, x, x + X, x + 2 * X, b->d_out,
                          (float *)b->d_out + X);
}

static void mriq_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const mriq_job *j = (const mriq_job *)b;
    const float *a = b->h_a, *x = a + 5 * j->samples;
    const size_t K = j->samples, X = j->voxels;
    const climb_mriq_kspace ks = {K, a, a + K, a + 2 * K, a + 3 * K, a + 4 * K};
    for (size_t v = 0; v < X; v++) {
        double qr, qi, tol;
        climb_mriq_ref_at(&ks, x[v], x[X + v], x[2 * X + v], 1, &qr, &qi, &tol, NULL);
        const float gr = ((const float *)got)[v], gi = ((const float *)got)[X + v];
        if (!(fabs(gr - qr) <= tol))
            api_mismatch_note(m, v, gr, qr);
        if (!(fabs(gi - qi) <= tol))
            api_mismatch_note(m, X + v, gi, qi);
    }
}

static const api_job_ops mriq_ops = {.sizes = mriq_sizes, .fill = mriq_fill, .call = mriq_call, .check = mriq_check};

static api_job *mriq_job_of(size_t samples, size_t voxels)
{
    mriq_job *j = api_job_new(sizeof *j, &mriq_ops);
    if (!j)
        return NULL;
    j->samples = samples;
    j->voxels = voxels;
    snprintf(j->base.label, sizeof j->base.label, "climb_mriq_f32 %zu samples %zu voxels", samples, voxels);
    return &j->base;
}

static int mriq_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = mriq_job_of(500 + (size_t)id, 700);
        return 1;
    }
    out[0] = mriq_job_of(3000, 5000);
    out[1] = mriq_job_of(1, 1);
    return 2;
}

const api_workload api_workload_mriq = {.name = "mriq", .jobs = mriq_jobs};

static const climb_workload *w = &climb_mriq_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *traj)
{
    climb_opt_plan p;
    test_plan(&p, w, "trajectory", traj, NULL);
    char what[80];
    snprintf(what, sizeof what, "trajectory=%s", traj);
    test_check_plan(w, &dev, &p, seed, 0, what);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE2(300, 1000), "Q[0]");
    climb_opt_plan_free(&p, NULL);
}

/* Each rung's note gives its largest error; the MUFU rungs' is larger than the accurate ones' but within 2^-16 of
 * sum |phi|^2 here. */
static void test_notes(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "trajectory", "random", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    climb_case_key k = {CLIMB_F32, (climb_shape)CLIMB_SHAPE2(2000, 4096), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    char msg[400];
    for (int r = 0; r < w->n_rungs; r++) {
        EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_run(w, oc.c, r, 0) == 0 && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s: %s", w->rung(r)->name, msg);
        const char *note = w->rung_note(oc.c, r);
        const char *at = note ? strstr(note, "largest error ") : NULL;
        const double err = at ? atof(at + 14) : -1;
        EXPECT_MSG(at && err > 0 && err < 0x1p-16, "%s: %s", w->rung(r)->name, note ? note : "(none)");
        printf("%s: %s\n", w->rung(r)->name, note ? note : "");
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

/* Parboil's 32^3 dataset: every rung through --input against the CPU; the C API against Parboil's own output, each
 * voxel within 2^-16 of sum |phi|^2 (Parboil's output is itself within 10^-5 of the double Q: test_cpu_parboil). */
static void test_parboil(void)
{
    const char *base = CLIMB_SOURCE_DIR "/../shared/data/parboil/mri-q/32_32_32_dataset";
    char in_path[400], out_path[400], err[400], desc[300];
    snprintf(in_path, sizeof in_path, "%s.bin", base);
    snprintf(out_path, sizeof out_path, "%s.out", base);
    if (access(in_path, R_OK) != 0 || access(out_path, R_OK) != 0) {
        printf("the data folder is not there: Parboil's MRI-Q dataset was not run\n");
        return;
    }
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    climb_opt_value *v = test_plan_input(&p, w, "input", in_path, desc, sizeof desc);
    EXPECT(v && v->shape.d[0] == 3072 && v->shape.d[1] == 32768);
    test_bench_output(w, &dev, &p, NULL, 1);
    climb_opt_plan_free(&p, w->unload);

    climb_mriq_input in;
    size_t n;
    float *qr = NULL, *qi = NULL;
    EXPECT_MSG(climb_mriq_read(in_path, &in, err, sizeof err) == 0, "%s", err);
    EXPECT_MSG(climb_mriq_read_output(out_path, &n, &qr, &qi, err, sizeof err) == 0, "%s", err);
    if (!in.kx || !qr || n != in.x) {
        EXPECT_MSG(0, "Parboil's files could not be read");
        return;
    }
    float *d, *gr = malloc(n * 4), *gi = malloc(n * 4);
    const size_t K = in.k, X = in.x;
    EXPECT(cudaMalloc((void **)&d, (5 * K + 5 * X) * 4) == cudaSuccess);
    const float *hk[5] = {in.kx, in.ky, in.kz, in.phi_r, in.phi_i}, *hx[3] = {in.x_, in.y_, in.z_};
    for (int a = 0; a < 5; a++)
        EXPECT(cudaMemcpy(d + a * K, hk[a], K * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    float *dx = d + 5 * K;
    for (int a = 0; a < 3; a++)
        EXPECT(cudaMemcpy(dx + a * X, hx[a], X * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_mriq_f32(h, K, d, d + K, d + 2 * K, d + 3 * K, d + 4 * K, X, dx, dx + X, dx + 2 * X, dx + 3 * X,
                          dx + 4 * X) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(gr, dx + 3 * X, X * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(gi, dx + 4 * X, X * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    double phi = 0, worst = 0;
    for (size_t k = 0; k < K; k++)
        phi += (double)in.phi_r[k] * in.phi_r[k] + (double)in.phi_i[k] * in.phi_i[k];
    for (size_t i = 0; i < X; i++)
        worst = fmax(worst, fmax(fabs(gr[i] - qr[i]), fabs(gi[i] - qi[i])) / phi);
    printf("climb_mriq_f32 on Parboil's 32^3 dataset: the largest difference from Parboil's output is %.3g of sum "
           "|phi|^2\n", worst);
    EXPECT_MSG(worst <= 0x1p-16, "%g of sum |phi|^2 from Parboil's output", worst);

    /* argument checks */
    EXPECT(climb_mriq_f32(h, K, d, d + K, d + 2 * K, d + 3 * K, d + 4 * K, X, dx, dx + X, dx + 2 * X, dx + 3 * X,
                          dx + 3 * X + 5) == CLIMB_STATUS_INVALID_VALUE); /* Qr and Qi overlap */
    EXPECT(climb_mriq_f32(h, K, in.kx, d + K, d + 2 * K, d + 3 * K, d + 4 * K, X, dx, dx + X, dx + 2 * X, dx + 3 * X,
                          dx + 4 * X) == CLIMB_STATUS_INVALID_VALUE); /* host memory */
    EXPECT(climb_mriq_f32(h, K, d, d + K, d + 2 * K, d + 3 * K, d + 4 * K, 0, NULL, NULL, NULL, NULL, NULL) ==
           CLIMB_STATUS_SUCCESS);
    /* no samples: Q is 0 */
    EXPECT(climb_mriq_f32(h, 0, NULL, NULL, NULL, NULL, NULL, X, dx, dx + X, dx + 2 * X, dx + 3 * X, dx + 4 * X) ==
           CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(gr, dx + 3 * X, X * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    size_t nonzero = 0;
    for (size_t i = 0; i < X; i++)
        nonzero += gr[i] != 0;
    EXPECT_MSG(nonzero == 0, "no samples: %zu voxels not 0", nonzero);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d);
    free(gr);
    free(gi);
    free(qr);
    free(qi);
    climb_mriq_free(&in);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "spiral");
    test_check(fresh + 1, "random");
    test_notes();
    test_parboil();
    EXPECT(api_test_workload(&api_workload_mriq) == 0);
    return test_finish("test_gpu_mriq");
}
