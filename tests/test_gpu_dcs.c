/* GPU: every Coulomb summation rung over the edge cases (empty lattices and atom lists, one point, lines, planes,
 * rows that are no multiple of a block span, more atoms than a constant-memory chunk), random atoms (some outside
 * the lattice), a water box and atoms on lattice points, misaligned lattices, every point checked against the CPU;
 * proof that an output nobody wrote fails; a PQR file in, an OpenDX map out and read back; the C API. */
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
#include "io/molecule.h"
#include "workloads/dcs.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct dcs_job {
    api_job base;
    size_t atoms;
    climb_lattice_desc lattice;
} dcs_job;

static int dcs_sizes(api_job *b)
{
    const dcs_job *j = (const dcs_job *)b;
    b->a_bytes = j->atoms * 16;
    b->out_bytes = j->lattice.nx * j->lattice.ny * j->lattice.nz * 4;
    return 0;
}

/* Atoms (x y z q) around the lattice; q in [-1, 20). */
static int dcs_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const dcs_job *j = (const dcs_job *)b;
    climb_rng_fill_f32(r, b->h_a, j->atoms * 4, -1.0f, 20.0f);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status dcs_call(api_job *b, climb_handle h)
{
    const dcs_job *j = (const dcs_job *)b;
    return climb_coulomb_dcs_f32(h, b->d_a, j->atoms, &j->lattice, b->d_out);
}

static void dcs_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const dcs_job *j = (const dcs_job *)b;
    const climb_lattice_desc *d = &j->lattice;
    climb_dcs_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]}, d->exclusion};
    for (size_t i = 0; i < d->nx * d->ny * d->nz; i++) {
        double tol;
        const double want = climb_dcs_ref_at(&l, b->h_a, j->atoms, i % d->nx, (i / d->nx) % d->ny, i / (d->nx * d->ny),
                                             &tol);
        if (!(fabs(((const float *)got)[i] - want) <= tol))
            api_mismatch_note(m, i, ((const float *)got)[i], want);
    }
}

static const api_job_ops dcs_ops = {.sizes = dcs_sizes, .fill = dcs_fill, .call = dcs_call, .check = dcs_check};

static api_job *dcs_job_of(size_t nx, size_t ny, size_t nz, size_t atoms)
{
    dcs_job *j = api_job_new(sizeof *j, &dcs_ops);
    if (!j)
        return NULL;
    j->atoms = atoms;
    j->lattice = (climb_lattice_desc){nx, ny, nz, 0.7f, {0.5f, -0.5f, 1.0f}, 1.0f};
    snprintf(j->base.label, sizeof j->base.label, "climb_coulomb_dcs_f32 %zux%zux%zu %zu atoms", nx, ny, nz, atoms);
    return &j->base;
}

static int dcs_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = dcs_job_of(17, 9 + (size_t)id, 3, 300);
        return 1;
    }
    out[0] = dcs_job_of(33, 20, 5, 1000);
    out[1] = dcs_job_of(129, 3, 2, 77);
    return 2;
}

const api_workload api_workload_dcs = {.name = "dcs", .jobs = dcs_jobs};

static const climb_workload *w = &climb_dcs_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *atoms, const char *exclusion)
{
    climb_opt_plan p;
    test_plan(&p, w, "atoms", atoms, "exclusion", exclusion, NULL);
    char what[80];
    snprintf(what, sizeof what, "atoms=%s exclusion=%s", atoms, exclusion);
    test_check_plan(w, &dev, &p, seed, 0, what);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE4(37, 5, 3, 100), "V(0, 0, 0)");
    climb_opt_plan_free(&p, NULL);
}

/* A PQR in, the best rung's map out as OpenDX (bench --output), read back and compared with the CPU. */
static void test_files(void)
{
    char dir[] = "/tmp/climb_dcs_XXXXXX", in[300], out[300], err[400], desc[300];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(in, sizeof in, "%s/m.pqr", dir);
    snprintf(out, sizeof out, "%s/v.dx", dir);
    test_write_text(in, "REMARK three atoms\nATOM      1  O   HOH     1       0.000   0.000   0.000  -0.834  1.520\n"
                        "ATOM      2  H1  HOH     1       0.957   0.000   0.000   0.417  1.000\n"
                        "HETATM    3  H2  HOH A   1      -0.240   0.927   2.000   0.417  1.000\nEND\n");
    climb_opt_plan p;
    test_plan(&p, w, NULL);
    climb_opt_value *v = test_plan_input(&p, w, "input", in, desc, sizeof desc);
    EXPECT(v && v->shape.ndims == 4 && v->shape.d[3] == 3);
    test_bench_output(w, &dev, &p, out, 0);
    climb_dx_grid g;
    float *map = NULL;
    EXPECT_MSG(climb_dx_read(out, &g, &map, err, sizeof err) == 0, "%s", err);
    const climb_atoms *a = v ? (const climb_atoms *)v->data : NULL;
    if (map && a) {
        EXPECT(g.n[0] == v->shape.d[0] && g.n[1] == v->shape.d[1] && g.n[2] == v->shape.d[2] && g.delta[0] == 0.5);
        climb_dcs_lattice l = {g.n[0], g.n[1], g.n[2], 0.5f, {(float)g.origin[0], (float)g.origin[1], (float)g.origin[2]}, 1.0f};
        size_t bad = 0;
        for (size_t kk = 0; kk < g.n[2]; kk++)
            for (size_t j = 0; j < g.n[1]; j++)
                for (size_t i = 0; i < g.n[0]; i++) {
                    double tol;
                    const double want = climb_dcs_ref_at(&l, a->xyzq, a->n, i, j, kk, &tol);
                    /* the file holds %e: 7 significant digits */
                    bad += !(fabs(map[(kk * g.n[1] + j) * g.n[0] + i] - want) <= tol + 1e-6 * fabs(want) + 1e-30);
                }
        EXPECT_MSG(bad == 0, "%zu points of the OpenDX map differ from the CPU", bad);
    }
    free(map);
    climb_opt_plan_free(&p, w->unload);
    unlink(in);
    unlink(out);
    rmdir(dir);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    const size_t n = 5000;
    float *ha = malloc(n * 16), *d_atoms, *d_out;
    for (size_t a = 0; a < n; a++) {
        ha[4 * a] = climb_rng_float(&r, -5, 40);
        ha[4 * a + 1] = climb_rng_float(&r, -5, 30);
        ha[4 * a + 2] = climb_rng_float(&r, -5, 10);
        ha[4 * a + 3] = climb_rng_float(&r, -1, 1);
    }
    const climb_lattice_desc lat = {77, 61, 9, 0.45f, {-1.0f, 0.5f, 2.0f}, 1.0f};
    const size_t pts = lat.nx * lat.ny * lat.nz;
    float *hv = malloc(pts * 4);
    EXPECT(cudaMalloc((void **)&d_atoms, n * 16) == cudaSuccess && cudaMalloc((void **)&d_out, pts * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(d_atoms, ha, n * 16, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemset(d_out, 0xFF, pts * 4) == cudaSuccess);
    EXPECT(climb_coulomb_dcs_f32(h, d_atoms, n, &lat, d_out) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(hv, d_out, pts * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    climb_dcs_lattice l = {lat.nx, lat.ny, lat.nz, lat.spacing, {lat.origin[0], lat.origin[1], lat.origin[2]}, lat.exclusion};
    size_t bad = 0;
    for (size_t p = 0; p < pts; p += 7) {
        double tol;
        const double want = climb_dcs_ref_at(&l, ha, n, p % lat.nx, (p / lat.nx) % lat.ny, p / (lat.nx * lat.ny), &tol);
        bad += !(fabs(hv[p] - want) <= tol);
    }
    EXPECT_MSG(bad == 0, "climb_coulomb_dcs_f32: %zu wrong", bad);
    climb_lattice_desc badl = lat;
    badl.exclusion = 0;
    EXPECT(climb_coulomb_dcs_f32(h, d_atoms, n, &badl, d_out) == CLIMB_STATUS_INVALID_VALUE);
    badl = lat;
    badl.spacing = -1;
    EXPECT(climb_coulomb_dcs_f32(h, d_atoms, n, &badl, d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_coulomb_dcs_f32(h, d_atoms, n, NULL, d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_coulomb_dcs_f32(h, ha, n, &lat, d_out) == CLIMB_STATUS_INVALID_VALUE); /* host atoms */
    EXPECT(climb_coulomb_dcs_f32(h, d_atoms, n, &lat, d_atoms + 4) == CLIMB_STATUS_INVALID_VALUE); /* overlap */
    badl = lat;
    badl.nz = 0;
    EXPECT(climb_coulomb_dcs_f32(h, NULL, 0, &badl, NULL) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    free(ha);
    free(hv);
    cudaFree(d_atoms);
    cudaFree(d_out);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "random", "1");
    test_check(fresh + 1, "water", "0.5");
    test_check(fresh + 2, "on_points", "0.001");
    test_check(fresh + 3, "on_points", "1");
    test_files();
    test_api();
    EXPECT(api_test_workload(&api_workload_dcs) == 0);
    return test_finish("test_gpu_dcs");
}
