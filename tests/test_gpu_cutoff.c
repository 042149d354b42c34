/* GPU: every cutoff summation rung over the edge cases (empty lattices and atom lists, one point, a lattice smaller
 * than the cutoff, lines, planes, odd sizes), a water box, random atoms (many outside the lattice) and atoms on
 * lattice points, cutoffs from 2 to 40 Å, misaligned lattices, every point checked against the CPU; proof that an
 * output nobody wrote fails; each rung's note (pairs examined, the share within the cutoff, the overflow); a PQR
 * file in, an OpenDX map out and read back; Parboil's cutcp reference lattice; the C API. */
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
#include "io/parboil.h"
#include "workloads/cutoff/cutoff.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

typedef struct cutoff_job {
    api_job base;
    size_t atoms;
    climb_lattice_desc lattice;
    float cutoff;
} cutoff_job;

static int cutoff_sizes(api_job *b)
{
    const cutoff_job *j = (const cutoff_job *)b;
    b->a_bytes = j->atoms * 16;
    b->out_bytes = j->lattice.nx * j->lattice.ny * j->lattice.nz * 4;
    return 0;
}

/* Atoms (x y z q) in and around the lattice, some beyond the cutoff; q in [-1, 1). */
static int cutoff_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const cutoff_job *j = (const cutoff_job *)b;
    for (size_t a = 0; a < j->atoms; a++)
        for (int d = 0; d < 4; d++)
            ((float *)b->h_a)[4 * a + d] = d == 3 ? climb_rng_float(r, -1, 1) : climb_rng_float(r, -15, 40);
    return api_job_send(b, s, API_SEND_A | API_POISON_OUT, 0xFF);
}

static climb_status cutoff_call(api_job *b, climb_handle h)
{
    const cutoff_job *j = (const cutoff_job *)b;
    return climb_coulomb_cutoff_f32(h, b->d_a, j->atoms, &j->lattice, j->cutoff, b->d_out);
}

static void cutoff_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    (void)s;
    const cutoff_job *j = (const cutoff_job *)b;
    const climb_lattice_desc *d = &j->lattice;
    climb_cutoff_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]},
                              j->cutoff, d->exclusion};
    climb_cutoff_cells cc;
    if (climb_cutoff_cells_build(&cc, &l, b->h_a, j->atoms) != 0) {
        api_mismatch_note(m, 0, 0, 1);
        return;
    }
    for (size_t i = 0; i < d->nx * d->ny * d->nz; i++) {
        climb_cutoff_ref ref;
        climb_cutoff_ref_at(&cc, &l, i % d->nx, (i / d->nx) % d->ny, i / (d->nx * d->ny), &ref);
        if (!climb_cutoff_ref_ok(&ref, ((const float *)got)[i]))
            api_mismatch_note(m, i, ((const float *)got)[i], ref.zero ? 0.0 : ref.v);
    }
    climb_cutoff_cells_free(&cc);
}

static const api_job_ops cutoff_ops = {
    .sizes = cutoff_sizes, .fill = cutoff_fill, .call = cutoff_call, .check = cutoff_check};

static api_job *cutoff_job_of(size_t nx, size_t ny, size_t nz, size_t atoms, float cutoff)
{
    cutoff_job *j = api_job_new(sizeof *j, &cutoff_ops);
    if (!j)
        return NULL;
    j->atoms = atoms;
    j->lattice = (climb_lattice_desc){nx, ny, nz, 0.6f, {0.5f, -0.5f, 1.0f}, 1.0f};
    j->cutoff = cutoff;
    snprintf(j->base.label, sizeof j->base.label, "climb_coulomb_cutoff_f32 %zux%zux%zu %zu atoms cutoff %g", nx, ny,
             nz, atoms, cutoff);
    return &j->base;
}

static int cutoff_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    if (cap < 2)
        return -1;
    if (set == API_THREAD) {
        out[0] = cutoff_job_of(21, 9 + (size_t)id, 5, 3000, 6.0f);
        return 1;
    }
    out[0] = cutoff_job_of(40, 33, 17, 20000, 8.0f);
    out[1] = cutoff_job_of(9, 3, 2, 50, 12.0f);
    return 2;
}

const api_workload api_workload_cutoff = {.name = "cutoff", .jobs = cutoff_jobs};

static const climb_workload *w = &climb_cutoff_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *atoms, const char *spacing, const char *cutoff, const char *exclusion,
                       int allow_refused)
{
    climb_opt_plan p;
    test_plan(&p, w, "atoms", atoms, "spacing", spacing, "cutoff", cutoff, "exclusion", exclusion, NULL);
    char what[120];
    snprintf(what, sizeof what, "atoms=%s spacing=%s cutoff=%s exclusion=%s", atoms, spacing, cutoff, exclusion);
    test_check_plan(w, &dev, &p, seed, allow_refused, what);
    climb_opt_plan_free(&p, NULL);
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "atoms", "random", NULL);
    test_poison_every_rung(w, &dev, &p, (climb_shape)CLIMB_SHAPE4(37, 9, 11, 3000), "V(0, 0, 0)");
    climb_opt_plan_free(&p, NULL);
}

/* Each rung's note after a run: pairs examined and the share within; the capacity rungs' overflow. A dense random
 * box overflows its bins (the capacity holds 95% of the atoms). */
static void test_notes(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "atoms", "random", "cutoff", "5", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    climb_case_key k = {CLIMB_F32, (climb_shape)CLIMB_SHAPE4(40, 40, 40, 20000), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    char msg[400];
    for (int r = 0; r < w->n_rungs; r++) {
        EXPECT(climb_case_poison(w, oc.c) == 0 && climb_case_prepare(w, oc.c, r) == 0 && climb_case_run(w, oc.c, r, 0) == 0 &&
               cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s: %s", w->rung(r)->name, msg);
        const char *note = w->rung_note(oc.c, r);
        climb_counts own, cs;
        w->counts(oc.c, &cs);
        EXPECT(w->rung_counts(oc.c, r, &own) == 1 && own.special_ops >= cs.special_ops && cs.special_ops > 0);
        EXPECT_MSG(note && strstr(note, "within the cutoff"), "%s: %s", w->rung(r)->name, note ? note : "(none)");
        if (strstr(w->rung(r)->name, "bins") && strcmp(w->rung(r)->name, "scan_bins") != 0)
            EXPECT_MSG(note && strstr(note, "overflow list") && !strstr(note, " 0 of the"), "%s", note);
        if (note)
            printf("%s: %s\n", w->rung(r)->name, note);
        climb_case_release(w, oc.c, r);
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
}

/* A PQR in, the best rung's map out as OpenDX (bench --output), read back and compared with the CPU. */
static void test_files(void)
{
    char dir[] = "/tmp/climb_cutoff_XXXXXX", in[300], out[300], err[400], desc[300];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(in, sizeof in, "%s/m.pqr", dir);
    snprintf(out, sizeof out, "%s/v.dx", dir);
    test_write_text(in, "REMARK three atoms\nATOM      1  O   HOH     1       0.000   0.000   0.000  -0.834  1.520\n"
                        "ATOM      2  H1  HOH     1       0.957   0.000   0.000   0.417  1.000\n"
                        "HETATM    3  H2  HOH A   1      -0.240   5.927   2.000   0.417  1.000\nEND\n");
    climb_opt_plan p;
    test_plan(&p, w, "cutoff", "4", NULL);
    climb_opt_value *v = test_plan_input(&p, w, "input", in, desc, sizeof desc);
    EXPECT(v && v->shape.ndims == 4 && v->shape.d[3] == 3);
    test_bench_output(w, &dev, &p, out, 1);
    climb_dx_grid g;
    float *map = NULL;
    EXPECT_MSG(climb_dx_read(out, &g, &map, err, sizeof err) == 0, "%s", err);
    const climb_atoms *a = v ? (const climb_atoms *)v->data : NULL;
    if (map && a) {
        EXPECT(g.n[0] == v->shape.d[0] && g.n[1] == v->shape.d[1] && g.n[2] == v->shape.d[2] && g.delta[0] == 0.5);
        climb_cutoff_lattice l = {g.n[0], g.n[1], g.n[2], 0.5f,
                                  {(float)g.origin[0], (float)g.origin[1], (float)g.origin[2]}, 4.0f, 1.0f};
        climb_cutoff_cells cc;
        EXPECT(climb_cutoff_cells_build(&cc, &l, a->xyzq, a->n) == 0);
        size_t bad = 0, zeros = 0;
        for (size_t kk = 0; kk < g.n[2]; kk++)
            for (size_t j = 0; j < g.n[1]; j++)
                for (size_t i = 0; i < g.n[0]; i++) {
                    climb_cutoff_ref r;
                    climb_cutoff_ref_at(&cc, &l, i, j, kk, &r);
                    r.tol += 1e-6 * fabs(r.v) + 1e-30; /* the file holds %e: 7 significant digits */
                    const float got = map[(kk * g.n[1] + j) * g.n[0] + i];
                    zeros += got == 0;
                    bad += !climb_cutoff_ref_ok(&r, got);
                }
        EXPECT_MSG(bad == 0 && zeros > 0, "%zu points of the OpenDX map differ from the CPU (%zu zeros)", bad, zeros);
        climb_cutoff_cells_free(&cc);
    }
    free(map);
    climb_opt_plan_free(&p, w->unload);
    unlink(in);
    unlink(out);
    rmdir(dir);
}

/* Parboil's cutcp reference for its water box (lattice 0.5 Å from 0.5 Å below the atoms, cutoff 12 Å, exclusion
 * 1 Å): the C API's first and last planes within 10^-4 of the largest |V| of each point of them, and the sum of
 * |V| over the lattice within 10^-4 of Parboil's. */
static void test_parboil(void)
{
    const char *base = CLIMB_SOURCE_DIR "/../shared/data/parboil/cutcp/watbox.sl40";
    char pqr[400], ref[400], err[400];
    snprintf(pqr, sizeof pqr, "%s.pqr", base);
    snprintf(ref, sizeof ref, "%s.lattice.dat", base);
    if (access(pqr, R_OK) != 0 || access(ref, R_OK) != 0) {
        printf("the data folder is not there: Parboil's cutcp reference was not compared\n");
        return;
    }
    climb_atoms a;
    double sum;
    size_t plane;
    float *first = NULL, *last = NULL;
    EXPECT_MSG(climb_pqr_read(pqr, &a, err, sizeof err) == 0, "%s", err);
    EXPECT_MSG(climb_cutcp_read_reference(ref, &sum, &plane, &first, &last, err, sizeof err) == 0, "%s", err);
    double origin[3];
    size_t n[3];
    climb_cutcp_lattice(a.lo, a.hi, 0.5, 0.5, origin, n);
    const size_t pts = n[0] * n[1] * n[2];
    climb_handle h;
    float *d_atoms, *d_out, *v = malloc(pts * 4);
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMalloc((void **)&d_atoms, a.n * 16) == cudaSuccess && cudaMalloc((void **)&d_out, pts * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(d_atoms, a.xyzq, a.n * 16, cudaMemcpyHostToDevice) == cudaSuccess);
    const climb_lattice_desc lat = {n[0], n[1], n[2], 0.5f, {(float)origin[0], (float)origin[1], (float)origin[2]}, 1.0f};
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, a.n, &lat, 12.0f, d_out) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(v, d_out, pts * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    if (first && last && plane == n[0] * n[1]) {
        double worst = 0, scale = 0, abs_sum = 0;
        for (size_t i = 0; i < pts; i++)
            abs_sum += fabs(v[i]);
        for (size_t i = 0; i < plane; i++) {
            worst = fmax(worst, fmax(fabs(v[i] - first[i]), fabs(v[pts - plane + i] - last[i])));
            scale = fmax(scale, fmax(fabs(first[i]), fabs(last[i])));
        }
        printf("Parboil's cutcp: %zu x %zu x %zu points, planes within %.3g (largest |V| %.3g), sum |V| %.7g against "
               "Parboil's %.7g\n", n[0], n[1], n[2], worst, scale, abs_sum, sum);
        EXPECT_MSG(worst <= 1e-4 * scale, "the planes differ from Parboil's by %g (scale %g)", worst, scale);
        EXPECT_MSG(fabs(abs_sum - sum) <= 1e-4 * sum, "sum |V| %.9g, Parboil's %.9g", abs_sum, sum);
    } else {
        EXPECT_MSG(0, "Parboil's plane holds %zu points, the lattice's %zu", plane, n[0] * n[1]);
    }
    free(v);
    free(first);
    free(last);
    cudaFree(d_atoms);
    cudaFree(d_out);
    climb_atoms_free(&a);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    const size_t n = 20000;
    float *ha = malloc(n * 16), *d_atoms, *d_out;
    for (size_t a = 0; a < n; a++) {
        ha[4 * a] = climb_rng_float(&r, -15, 50);
        ha[4 * a + 1] = climb_rng_float(&r, -15, 45);
        ha[4 * a + 2] = climb_rng_float(&r, -15, 20);
        ha[4 * a + 3] = climb_rng_float(&r, -1, 1);
    }
    const climb_lattice_desc lat = {77, 61, 9, 0.45f, {-1.0f, 0.5f, 2.0f}, 1.0f};
    const float cutoff = 7.5f;
    const size_t pts = lat.nx * lat.ny * lat.nz;
    float *hv = malloc(pts * 4);
    EXPECT(cudaMalloc((void **)&d_atoms, n * 16) == cudaSuccess && cudaMalloc((void **)&d_out, pts * 4) == cudaSuccess);
    EXPECT(cudaMemcpy(d_atoms, ha, n * 16, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(cudaMemset(d_out, 0xFF, pts * 4) == cudaSuccess);
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, &lat, cutoff, d_out) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(hv, d_out, pts * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    climb_cutoff_lattice l = {lat.nx, lat.ny, lat.nz, lat.spacing, {lat.origin[0], lat.origin[1], lat.origin[2]}, cutoff,
                              lat.exclusion};
    climb_cutoff_cells cc;
    EXPECT(climb_cutoff_cells_build(&cc, &l, ha, n) == 0);
    size_t bad = 0;
    for (size_t p = 0; p < pts; p++) {
        climb_cutoff_ref ref;
        climb_cutoff_ref_at(&cc, &l, p % lat.nx, (p / lat.nx) % lat.ny, p / (lat.nx * lat.ny), &ref);
        bad += !climb_cutoff_ref_ok(&ref, hv[p]);
    }
    climb_cutoff_cells_free(&cc);
    EXPECT_MSG(bad == 0, "climb_coulomb_cutoff_f32: %zu wrong", bad);
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, &lat, 1.0f, d_out) == CLIMB_STATUS_INVALID_VALUE); /* = exclusion */
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, &lat, NAN, d_out) == CLIMB_STATUS_INVALID_VALUE);
    climb_lattice_desc badl = lat;
    badl.spacing = 0.001f; /* cutoff 7.5 over bins of 0.008 Å: too many bins */
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, &badl, cutoff, d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, NULL, cutoff, d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_coulomb_cutoff_f32(h, ha, n, &lat, cutoff, d_out) == CLIMB_STATUS_INVALID_VALUE); /* host atoms */
    EXPECT(climb_coulomb_cutoff_f32(h, d_atoms, n, &lat, cutoff, d_atoms + 4) == CLIMB_STATUS_INVALID_VALUE);
    badl = lat;
    badl.nz = 0;
    EXPECT(climb_coulomb_cutoff_f32(h, NULL, 0, &badl, cutoff, NULL) == CLIMB_STATUS_SUCCESS);
    /* no atoms: every point 0 */
    EXPECT(cudaMemset(d_out, 0xFF, pts * 4) == cudaSuccess);
    EXPECT(climb_coulomb_cutoff_f32(h, NULL, 0, &lat, cutoff, d_out) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaMemcpy(hv, d_out, pts * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    bad = 0;
    for (size_t p = 0; p < pts; p++)
        bad += hv[p] != 0;
    EXPECT_MSG(bad == 0, "no atoms: %zu points not 0", bad);
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
    test_check(fresh, "water", "0.5", "12", "1", 0);
    test_check(fresh + 1, "random", "0.3", "4", "0.5", 0);
    test_check(fresh + 2, "on_points", "0.5", "3", "0.001", 0);
    test_check(fresh + 3, "random", "0.2", "2", "1", 0);
    test_check(fresh + 4, "water", "0.5", "40", "1", 0);   /* a cutoff larger than every check lattice */
    test_check(fresh + 5, "random", "0.5", "80", "1", 1);  /* past constant memory's neighbour list: refused there */
    test_notes();
    test_files();
    test_parboil();
    test_api();
    EXPECT(api_test_workload(&api_workload_cutoff) == 0);
    return test_finish("test_gpu_cutoff");
}
