/* CPU tests of the 7-point stencil's reference: each weight applied to its own neighbour (distinct weights and a
 * grid whose values tell the neighbours apart), boundaries copied, the tolerance, and the workload's table; the
 * grid split along z over 1 to 9 simulated GPUs (slabs with halos, each step's owned planes and the halo exchange)
 * equal to the whole grid's steps, bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "device/collective.h"
#include "workloads/stencil.h"
#include "testing.h"

/* `steps` steps of an nx x ny x nz grid split over n ranks, each rank stepping its local slab (its owned planes
 * written, the halos left) and then the exchange, as the stencil across GPUs does; 1 where the assembled owned
 * planes equal the whole grid's steps exactly (the same products and sums in the same order). */
static int slabs_agree(size_t nx, size_t ny, size_t nz, int n, int steps, climb_rng *rng)
{
    const size_t sz = nx * ny, total = sz * nz;
    const float c[7] = {0.3f, 0.1f, -0.15f, 0.12f, 0.08f, -0.11f, 0.14f};
    double *whole = malloc(total * sizeof *whole), *tmp = malloc(total * sizeof *tmp);
    climb_slab sl[9];
    double *loc[9], *nxt[9];
    for (size_t i = 0; i < total; i++)
        whole[i] = climb_rng_float(rng, -1, 1);
    for (int r = 0; r < n; r++) {
        if (climb_slab_of(nz, n, r, &sl[r]) != 0)
            return 0;
        loc[r] = malloc(sl[r].planes * sz * sizeof(double));
        nxt[r] = malloc(sl[r].planes * sz * sizeof(double));
        /* the slab and its halos from the initial grid */
        memcpy(loc[r], whole + (sl[r].z0 - sl[r].below) * sz, sl[r].planes * sz * sizeof(double));
        for (size_t i = 0; i < sl[r].planes * sz; i++)
            nxt[r][i] = NAN; /* a plane nobody writes shows */
    }
    for (int k = 0; k < steps; k++) {
        climb_stencil_ref_step(whole, tmp, nx, ny, nz, c);
        memcpy(whole, tmp, total * sizeof *whole);
        for (int r = 0; r < n; r++) { /* the owned planes of the local step; the halos stay as they were */
            double *step = malloc(sl[r].planes * sz * sizeof(double));
            climb_stencil_ref_step(loc[r], step, nx, ny, sl[r].planes, c);
            const size_t a = climb_slab_first(&sl[r]), b = climb_slab_last(&sl[r]) + 1;
            memcpy(nxt[r] + a * sz, step + a * sz, (b - a) * sz * sizeof(double));
            free(step);
        }
        for (int r = 0; r < n; r++) { /* the exchange: first owned plane down, last up */
            if (r > 0)
                memcpy(nxt[r - 1] + climb_slab_top_halo(&sl[r - 1]) * sz, nxt[r] + climb_slab_first(&sl[r]) * sz,
                       sz * sizeof(double));
            if (r < n - 1)
                memcpy(nxt[r + 1], nxt[r] + climb_slab_last(&sl[r]) * sz, sz * sizeof(double));
        }
        for (int r = 0; r < n; r++) {
            double *t = loc[r];
            loc[r] = nxt[r];
            nxt[r] = t;
        }
    }
    int same = 1;
    size_t covered = 0;
    for (int r = 0; r < n; r++) {
        covered += sl[r].z1 - sl[r].z0;
        same &= r == 0 ? sl[r].z0 == 0 : sl[r].z0 == sl[r - 1].z1;
        same &= memcmp(loc[r] + sl[r].below * sz, whole + sl[r].z0 * sz, (sl[r].z1 - sl[r].z0) * sz * sizeof(double)) == 0;
        free(loc[r]);
        free(nxt[r]);
    }
    free(whole);
    free(tmp);
    return same && covered == nz;
}

int main(void)
{
    /* 4 x 3 x 3: the one interior point is (x, y, z) = (1..2, 1, 1); value = x + 10 y + 100 z */
    const size_t nx = 4, ny = 3, nz = 3;
    double in[36], out[36];
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++)
                in[(z * ny + y) * nx + x] = (double)x + 10.0 * y + 100.0 * z;
    const float c[7] = {1, 2, 3, 5, 7, 11, 13};
    climb_stencil_ref_step(in, out, nx, ny, nz, c);
    const size_t p = (1 * ny + 1) * nx + 1; /* (1, 1, 1): value 111 */
    EXPECT(out[p] == 1 * 111.0 + 2 * 110.0 + 3 * 112.0 + 5 * 101.0 + 7 * 121.0 + 11 * 11.0 + 13 * 211.0);
    EXPECT(out[p + 1] == 1 * 112.0 + 2 * 111.0 + 3 * 113.0 + 5 * 102.0 + 7 * 122.0 + 11 * 12.0 + 13 * 212.0);
    /* every boundary point copied */
    int copied = 1;
    for (size_t i = 0; i < 36; i++)
        if (i != p && i != p + 1)
            copied &= out[i] == in[i];
    EXPECT(copied);
    /* a grid with no interior (a side of 2) is copied whole; one point too */
    double two_in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, two_out[8];
    climb_stencil_ref_step(two_in, two_out, 2, 2, 2, c);
    EXPECT(memcmp(two_in, two_out, sizeof two_in) == 0);
    /* the tolerance: linear in the steps and the magnitude */
    EXPECT(climb_stencil_tolerance(1, 1.0) == 9.1 * 0x1p-24);
    EXPECT(climb_stencil_tolerance(4, 2.0) == 8 * climb_stencil_tolerance(1, 1.0));
    /* slabs: every rank count from 1 to 9 over plane counts from one a rank to uneven splits, 1 to 5 steps */
    climb_rng rng;
    climb_rng_seed(&rng, 20261128);
    const size_t nzs[] = {1, 2, 3, 5, 9, 17, 40};
    for (int n = 1; n <= 9; n++)
        for (size_t i = 0; i < sizeof nzs / sizeof nzs[0]; i++) {
            if (nzs[i] < (size_t)n)
                continue;
            const size_t nx = 3 + (size_t)n % 3, ny = 4 + i % 2;
            EXPECT_MSG(slabs_agree(nx, ny, nzs[i], n, 1 + (int)((i + (size_t)n) % 5), &rng),
                       "%zu x %zu x %zu over %d slabs", nx, ny, nzs[i], n);
        }
    /* a point's value from its box alone equals the whole grid's steps, exactly: corners, edges, the middle */
    {
        const size_t nx = 9, ny = 7, nz = 11, n = nx * ny * nz;
        const float cw[7] = {0.31f, -0.12f, 0.09f, 0.14f, -0.1f, 0.13f, -0.11f};
        float *fin = malloc(n * sizeof *fin);
        double *g = malloc(n * sizeof *g), *t = malloc(n * sizeof *t);
        climb_rng_fill_f32(&rng, fin, n, -1.0f, 1.0f);
        for (int steps = 0; steps <= 6; steps += 3) {
            for (size_t i = 0; i < n; i++)
                g[i] = fin[i];
            for (int k = 0; k < steps; k++) {
                climb_stencil_ref_step(g, t, nx, ny, nz, cw);
                memcpy(g, t, n * sizeof *g);
            }
            const size_t pts[][3] = {{0, 0, 0}, {4, 3, 5}, {8, 6, 10}, {1, 1, 1}, {7, 2, 9}, {3, 5, 0}};
            for (int q = 0; q < 6; q++) {
                const size_t x = pts[q][0], y = pts[q][1], z = pts[q][2];
                EXPECT_MSG(climb_stencil_ref_point(fin, nx, ny, nz, cw, steps, x, y, z) == g[(z * ny + y) * nx + x],
                           "point (%zu, %zu, %zu) after %d steps", x, y, z, steps);
            }
        }
        free(fin);
        free(g);
        free(t);
    }
    climb_slab sl;
    EXPECT(climb_slab_of(3, 4, 0, &sl) == -1 && climb_slab_of(10, 0, 0, &sl) == -1 && climb_slab_of(10, 2, 2, &sl) == -1);
    EXPECT(climb_slab_of(10, 3, 0, &sl) == 0 && sl.z0 == 0 && sl.z1 == 4 && sl.below == 0 && sl.above == 1 &&
           sl.planes == 5 && climb_slab_first(&sl) == 0 && climb_slab_last(&sl) == 3 && climb_slab_top_halo(&sl) == 4);
    EXPECT(climb_slab_of(10, 3, 1, &sl) == 0 && sl.z0 == 4 && sl.z1 == 7 && sl.below == 1 && sl.above == 1 &&
           sl.planes == 5 && climb_slab_first(&sl) == 1 && climb_slab_last(&sl) == 3);
    EXPECT(climb_slab_of(10, 3, 2, &sl) == 0 && sl.z0 == 7 && sl.z1 == 10 && sl.above == 0 && sl.planes == 4);
    EXPECT(climb_slab_of(5, 1, 0, &sl) == 0 && sl.below == 0 && sl.above == 0 && sl.planes == 5);
    /* the whole-rows march's rows: 2048 / nx, held to the ring in 48 KiB ((rows + 2) nx floats a stage) and to ny */
    EXPECT(climb_stencil_rows_fit(130, 250, 4) == 15 && climb_stencil_rows_fit(130, 250, 6) == 13); /* 15.7; 13.7 */
    /* the wave-filling planes: 17 row tiles of 130 x 250 x 333 over 333 planes, 528 blocks a wave: 11 planes (527
     * blocks, one wave of 12 planes read) against 16 (357 blocks, 17) or 8 (714 blocks, two waves of 9); 512 plane
     * tiles over 512 planes, 1056 a wave: 64 (4 waves of 65) against 32 (8 of 33); a grid shallower than every
     * candidate takes the smallest; one block a wave: 37 (153 blocks of 38 against 102 of 65 at 64) */
    EXPECT(climb_stencil_wave_planes(17, 333, 528) == 11 && climb_stencil_wave_planes(512, 512, 1056) == 64);
    EXPECT(climb_stencil_wave_planes(1000, 100, 1056) == 50 && climb_stencil_wave_planes(17, 333, 1) == 37);
    EXPECT(climb_stencil_wave_planes(1, 5, 100) == ST_WAVE_MIN && climb_stencil_wave_planes(0, 5, 5) == ST_WAVE_MIN &&
           climb_stencil_wave_planes(5, 0, 5) == ST_WAVE_MIN && climb_stencil_wave_planes(5, 5, 0) == ST_WAVE_MIN);
    for (size_t d = 1; d < 700; d += 37) /* always a candidate, and never more waves than the smallest march */
        for (size_t w = 1; w < 3000; w = w * 3 + 1) {
            const int p = climb_stencil_wave_planes(23, d, w);
            const size_t waves = (23 * ((d + p - 1) / p) + w - 1) / w, waves8 = (23 * ((d + 7) / 8) + w - 1) / w;
            EXPECT_MSG(p >= ST_WAVE_MIN && p <= ST_WAVE_MAX && waves <= waves8, "depth %zu, wave %zu: %d", d, w, p);
        }
    EXPECT(climb_stencil_rows_fit(256, 256, 4) == 8 && climb_stencil_rows_fit(256, 256, 6) == 6);   /* 12 - 2 > 8 */
    EXPECT(climb_stencil_rows_fit(510, 511, 4) == 4 && climb_stencil_rows_fit(510, 511, 6) == 2);   /* 6.02 - 2 */
    EXPECT(climb_stencil_rows_fit(1024, 9, 4) == 1 && climb_stencil_rows_fit(1025, 9, 4) == 0);     /* the limits */
    EXPECT(climb_stencil_rows_fit(682, 9, 6) == 1 && climb_stencil_rows_fit(683, 9, 6) == 0);
    EXPECT(climb_stencil_rows_fit(3, 3, 4) == 3 && climb_stencil_rows_fit(1, 5000, 6) == 2046);     /* ny; the ring */
    EXPECT(climb_stencil_rows_fit(0, 3, 4) == 0 && climb_stencil_rows_fit(3, 0, 4) == 0 && climb_stencil_rows_fit(3, 3, 2) == 0);
    /* the best rung's form: vectors on aligned rows; whole rows where the tile leaves over 15% of a row idle */
    EXPECT(climb_stencil_form(512, 512, 16) == 4 && climb_stencil_form(256, 256, 16) == 4);
    EXPECT(climb_stencil_form(1024, 1024, 16) == 4 && climb_stencil_form(4096, 9, 16) == 4);
    EXPECT(climb_stencil_form(510, 511, 16) == 0);  /* 4 scalar points: 512 computed, 99.6% busy */
    EXPECT(climb_stencil_form(130, 250, 16) == -1); /* 2 points: 192 computed, 68% busy; 4: 256 */
    EXPECT(climb_stencil_form(130, 250, 4) == -1 && climb_stencil_form(7, 9, 16) == -1); /* 7 of 32 */
    EXPECT(climb_stencil_form(120, 9, 16) == 4);    /* 120 of 128: 94% */
    EXPECT(climb_stencil_form(100, 9, 16) == -1);   /* 100 of 128: 78% */
    EXPECT(climb_stencil_form(512, 9, 8) == 0 && climb_stencil_form(512, 9, 4) == 1); /* misaligned pointers */
    /* the built-in tuning: the wave-filling march (planes 0) for the rows class, 8 planes a block elsewhere */
    {
        const climb_tuning *tu = climb_stencil_workload.tuning;
        climb_device_info dev;
        memset(&dev, 0, sizeof dev);
        dev.sms = 132;
        dev.l2_bytes = 50 << 20;
        char cls[64] = "";
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_key k = {CLIMB_SHAPE3(130, 250, 333), CLIMB_F32, NULL};
        climb_tuning_class(&climb_stencil_workload, &k, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, "rows") == 0, "%s", cls);
        climb_tuning_defaults(tu, &dev, &k, v);
        EXPECT(v[0] == 4 && v[1] == 0 && v[2] == 0);
        k.shape = (climb_shape)CLIMB_SHAPE3(512, 512, 512);
        climb_tuning_class(&climb_stencil_workload, &k, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, "large") == 0, "%s", cls);
        climb_tuning_defaults(tu, &dev, &k, v);
        EXPECT(v[0] == 4 && v[1] == 8 && v[2] == 0);
    }
    EXPECT(climb_stencil_form(1100, 9, 16) == 4);   /* 1100 of 1152: 95% */
    EXPECT(climb_stencil_form(2000, 9, 16) == 4 && climb_stencil_form(1030, 9, 16) == 2); /* 1030 of 1088 */
    EXPECT(climb_stencil_form(1025, 9, 4) == 1);    /* 1025 of 1056 one a thread: 97%; no whole rows past 1024 */
    const climb_workload *w = &climb_stencil_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    /* the tuning classes on a GPU of 50 MiB of L2: whole rows; else small, large or wide by bytes and plane */
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.l2_bytes = 50 << 20;
    static const struct {
        size_t nx, ny, nz;
        const char *cls;
    } classes[] = {{512, 512, 512, "large"},  {256, 256, 256, "small"},  {130, 250, 333, "rows"},
                   {510, 511, 257, "large"},  {1024, 1024, 100, "wide"}, {1024, 1024, 20, "small"},
                   {4096, 4096, 4, "wide"},   {7, 9, 11, "rows"},        {2048, 128, 128, "large"}};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        climb_tuning_key key = {CLIMB_SHAPE3(classes[i].nx, classes[i].ny, classes[i].nz), CLIMB_F32, NULL};
        char cls[64];
        climb_tuning_class(w, &key, &dev, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, classes[i].cls) == 0, "%zu x %zu x %zu: class %s, want %s", classes[i].nx, classes[i].ny,
                   classes[i].nz, cls, classes[i].cls);
    }
    dev.l2_bytes = 0; /* an L2 not known: no class from the shape */
    climb_tuning_key cube = {CLIMB_SHAPE3(512, 512, 512), CLIMB_F32, NULL};
    climb_tuning_class(w, &cube, &dev, msg, sizeof msg);
    EXPECT(msg[0] == '\0');
    EXPECT(climb_best_rung(w) >= 0 && climb_bound_rung(w) == 0);
    return test_finish("test_cpu_stencil");
}
