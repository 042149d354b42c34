/* CPU tests of Parboil's binary files: a small MRI-Q input, its output and a cutcp reference written and read back;
 * every malformed file (short, long, counts out of range, NaN) refused with the file named and no crash, including
 * every truncation of a valid file; and, where the data folder is there, Parboil's own 32^3 MRI-Q dataset, whose Q
 * computed here in double from the input read must match Parboil's output read within 10^-5 of sum |phi|^2. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/molecule.h"
#include "io/parboil.h"
#include "testing.h"

static char dir[] = "/tmp/climb_parboil_XXXXXX";

static const char *path_of(const char *name)
{
    static char p[300];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int b = 0; b < 4; b++)
        p[b] = (unsigned char)(v >> (8 * b));
}

static void putf(unsigned char *p, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put32(p, v);
}

static void write_bytes(const char *path, const unsigned char *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    EXPECT(f != NULL);
    if (f) {
        fwrite(d, 1, n, f);
        fclose(f);
    }
}

static void test_mriq_small(void)
{
    /* numK 2, numX 3: 8 + 4 (5 2 + 3 3) = 84 bytes; values 0.5 i */
    unsigned char d[84];
    put32(d, 2);
    put32(d + 4, 3);
    for (int i = 0; i < 19; i++)
        putf(d + 8 + 4 * i, 0.5f * (float)i);
    const char *p = path_of("q.bin");
    write_bytes(p, d, sizeof d);
    climb_mriq_input in;
    char err[300];
    EXPECT_MSG(climb_mriq_read(p, &in, err, sizeof err) == 0, "%s", err);
    EXPECT(in.k == 2 && in.x == 3);
    if (in.kx) /* kx[0..1] = 0, 0.5; ky 1, 1.5; kz 2, 2.5; x 3, 3.5, 4; y 4.5 .. 5.5; z 6 .. 7; phiR 7.5, 8; phiI 8.5, 9 */
        EXPECT(in.kx[1] == 0.5f && in.kz[0] == 2.0f && in.x_[2] == 4.0f && in.z_[0] == 6.0f && in.phi_r[0] == 7.5f &&
               in.phi_i[1] == 9.0f);
    climb_mriq_free(&in);
    /* the dry run's peek: the counts alone */
    size_t pk = 0, px = 0;
    char perr[300];
    EXPECT_MSG(climb_mriq_peek(p, &pk, &px, perr, sizeof perr) == 0 && pk == 2 && px == 3, "%s", perr);
    /* every truncation and one byte too many are refused, naming the file, by the read and the peek alike */
    for (size_t cut = 0; cut <= sizeof d; cut++) {
        if (cut == sizeof d)
            continue;
        write_bytes(p, d, cut);
        EXPECT_MSG(climb_mriq_read(p, &in, err, sizeof err) == -1 && strstr(err, p) && in.kx == NULL, "cut %zu: %s", cut, err);
        EXPECT_MSG(climb_mriq_peek(p, &pk, &px, perr, sizeof perr) == -1 && strcmp(perr, err) == 0,
                   "cut %zu: the peek says '%s', the read '%s'", cut, perr, err);
    }
    unsigned char more[85];
    memcpy(more, d, sizeof d);
    more[84] = 0;
    write_bytes(p, more, sizeof more);
    EXPECT(climb_mriq_read(p, &in, err, sizeof err) == -1 && strstr(err, "85 bytes; numK = 2 and numX = 3 need 84"));
    put32(d, (uint32_t)-5);
    write_bytes(p, d, sizeof d);
    EXPECT(climb_mriq_read(p, &in, err, sizeof err) == -1 && strstr(err, "numK = -5"));
    put32(d, 2);
    putf(d + 8 + 4 * 7, NAN); /* x[1] */
    write_bytes(p, d, sizeof d);
    EXPECT_MSG(climb_mriq_read(p, &in, err, sizeof err) == -1 && strstr(err, "x[1] is not a finite number (at byte 36)"),
               "%s", err);
    EXPECT(climb_mriq_read(path_of("none.bin"), &in, err, sizeof err) == -1 && strstr(err, "none.bin"));

    /* the output: numX 2, Qr 1 2, Qi 3 4 */
    unsigned char o[20];
    put32(o, 2);
    for (int i = 0; i < 4; i++)
        putf(o + 4 + 4 * i, (float)(i + 1));
    write_bytes(p, o, sizeof o);
    size_t n;
    float *qr, *qi;
    EXPECT_MSG(climb_mriq_read_output(p, &n, &qr, &qi, err, sizeof err) == 0, "%s", err);
    EXPECT(n == 2 && qr && qi && qr[1] == 2 && qi[0] == 3);
    free(qr);
    free(qi);
    write_bytes(p, o, 19);
    EXPECT(climb_mriq_read_output(p, &n, &qr, &qi, err, sizeof err) == -1 && qr == NULL);

    /* a cutcp reference: sum 12.5, a plane of 3, then two planes */
    unsigned char c[32];
    putf(c, 12.5f);
    put32(c + 4, 3);
    for (int i = 0; i < 6; i++)
        putf(c + 8 + 4 * i, (float)i - 2);
    write_bytes(p, c, sizeof c);
    double sum;
    float *first, *last;
    EXPECT_MSG(climb_cutcp_read_reference(p, &sum, &n, &first, &last, err, sizeof err) == 0, "%s", err);
    EXPECT(sum == 12.5 && n == 3 && first && last && first[0] == -2 && last[2] == 3);
    free(first);
    free(last);
    putf(c, -1);
    write_bytes(p, c, sizeof c);
    EXPECT(climb_cutcp_read_reference(p, &sum, &n, &first, &last, err, sizeof err) == -1 && strstr(err, "sum of |potential|"));
    unlink(p);
}

/* Parboil's 32^3 dataset: Q in double from the input read, against Parboil's output read. */
static void test_mriq_real(void)
{
    const char *base = CLIMB_SOURCE_DIR "/../shared/data/parboil/mri-q/32_32_32_dataset";
    char in_path[400], out_path[400], err[400];
    snprintf(in_path, sizeof in_path, "%s.bin", base);
    snprintf(out_path, sizeof out_path, "%s.out", base);
    if (access(in_path, R_OK) != 0 || access(out_path, R_OK) != 0) {
        printf("the data folder is not there: Parboil's MRI-Q dataset was not read\n");
        return;
    }
    climb_mriq_input in;
    size_t n;
    float *qr, *qi;
    EXPECT_MSG(climb_mriq_read(in_path, &in, err, sizeof err) == 0, "%s", err);
    EXPECT_MSG(climb_mriq_read_output(out_path, &n, &qr, &qi, err, sizeof err) == 0, "%s", err);
    EXPECT(in.k == 3072 && in.x == 32768 && n == in.x);
    if (in.kx && qr && n == in.x) {
        double phi = 0;
        for (size_t k = 0; k < in.k; k++)
            phi += (double)in.phi_r[k] * in.phi_r[k] + (double)in.phi_i[k] * in.phi_i[k];
        double worst = 0;
        for (size_t v = 0; v < in.x; v += 97) {
            double r = 0, i = 0;
            for (size_t k = 0; k < in.k; k++) {
                const double mag = (double)in.phi_r[k] * in.phi_r[k] + (double)in.phi_i[k] * in.phi_i[k];
                const double a = 2 * M_PI * ((double)in.kx[k] * in.x_[v] + (double)in.ky[k] * in.y_[v] +
                                             (double)in.kz[k] * in.z_[v]);
                r += mag * cos(a);
                i += mag * sin(a);
            }
            worst = fmax(worst, fmax(fabs(r - qr[v]), fabs(i - qi[v])) / phi);
        }
        printf("Parboil's MRI-Q 32^3: the largest difference from Q in double is %.3g of sum |phi|^2\n", worst);
        EXPECT_MSG(worst <= 1e-5, "Parboil's Q differs from the double Q by %g of sum |phi|^2", worst);
    }
    climb_mriq_free(&in);
    free(qr);
    free(qi);
}

/* Parboil's cutcp reference for its water box: the lattice (0.5 Å, padding 0.5 Å) and the first and last planes
 * of the potential (cutoff 12 Å, exclusion 1 Å) computed here in double from the PQR file, against the file. */
static void test_cutcp_real(void)
{
    const char *base = CLIMB_SOURCE_DIR "/../shared/data/parboil/cutcp/watbox.sl40";
    char pqr[400], ref[400], err[400];
    snprintf(pqr, sizeof pqr, "%s.pqr", base);
    snprintf(ref, sizeof ref, "%s.lattice.dat", base);
    if (access(pqr, R_OK) != 0 || access(ref, R_OK) != 0) {
        printf("the data folder is not there: Parboil's cutcp reference was not read\n");
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
    EXPECT_MSG(n[0] * n[1] == plane, "the lattice is %zu x %zu, the file's plane %zu points", n[0], n[1], plane);
    if (first && last && n[0] * n[1] == plane) {
        double worst = 0, scale = 0;
        for (int z = 0; z < 2; z++)
            for (size_t j = 0; j < n[1]; j++)
                for (size_t i = 0; i < n[0]; i++) {
                    const double p[3] = {origin[0] + 0.5 * (double)i, origin[1] + 0.5 * (double)j,
                                         origin[2] + 0.5 * (double)(z ? n[2] - 1 : 0)};
                    const double v = climb_cutcp_potential_at(a.xyzq, a.n, p, 12.0, 1.0);
                    const float got = (z ? last : first)[j * n[0] + i];
                    worst = fmax(worst, fabs(v - got));
                    scale = fmax(scale, fabs(v));
                }
        printf("Parboil's cutcp planes: the largest difference from the double potential is %.3g (largest |V| %.3g)\n",
               worst, scale);
        EXPECT_MSG(worst <= 1e-4 * scale, "Parboil's planes differ from the double potential by %g (scale %g)", worst,
                   scale);
    }
    free(first);
    free(last);
    climb_atoms_free(&a);
}

int main(void)
{
    EXPECT(mkdtemp(dir) != NULL);
    test_mriq_small();
    test_mriq_real();
    test_cutcp_real();
    rmdir(dir);
    return test_finish("test_cpu_parboil");
}
