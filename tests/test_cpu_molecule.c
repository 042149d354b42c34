/* CPU tests of the molecule files: PQR records (ATOM and HETATM, a chain ID or none, other records skipped, the
 * bounding box), every malformed record worded "file:line: ...", 20000 fuzzed files that must never crash; OpenDX
 * maps written and read back (the z-fastest order, odd counts), their errors, and APBS's own map and the project's
 * molecules where ../shared/data is there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/molecule.h"
#include "fuzz.h"
#include "testing.h"

static char dir[] = "/tmp/climb_mol_XXXXXX";

static const char *path_of(const char *name)
{
    static char p[300];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void expect_pqr_error(const char *text, const char *where, const char *what)
{
    const char *p = path_of("bad.pqr");
    test_write_text(p, text);
    climb_atoms a;
    char err[400] = "", want[350];
    snprintf(want, sizeof want, "%s:%s", p, where);
    EXPECT_MSG(climb_pqr_read(p, &a, err, sizeof err) == -1 && strncmp(err, want, strlen(want)) == 0 && strstr(err, what),
               "got '%s', wanted '%s ... %s'", err, want, what);
    EXPECT(a.n == 0 && a.xyzq == NULL);
}

static void test_pqr(void)
{
    const char *p = path_of("ok.pqr");
    test_write_text(p, "REMARK a molecule\nCRYST1    0.000    0.000    0.000  90.00  90.00  90.00 P 1           1\n"
                       "ATOM      1  N   GLY     1      21.421   3.562  16.781   0.294   1.821\n"
                       "ATOM      2  OH2 TIP3 W   5     -16.332   -9.918   -4.096 -0.834 1.520\n"
                       "TER\nHETATM    3  ZN  ZN      9   1e1 -2 0.5  2 0\n\nEND\n");
    climb_atoms a;
    char err[400];
    EXPECT_MSG(climb_pqr_read(p, &a, err, sizeof err) == 0, "%s", err);
    EXPECT(a.n == 3);
    if (a.n == 3) {
        EXPECT(a.xyzq[0] == 21.421f && a.xyzq[3] == 0.294f && a.radius[0] == 1.821f);
        EXPECT(a.xyzq[4] == -16.332f && a.xyzq[7] == -0.834f); /* with a chain ID */
        EXPECT(a.xyzq[8] == 10.0f && a.xyzq[9] == -2.0f && a.xyzq[11] == 2.0f && a.radius[2] == 0.0f);
        EXPECT(a.lo[0] == -16.332 && a.hi[0] == 21.421 && a.lo[2] == -4.096 && a.hi[2] == 16.781);
    }
    climb_atoms_free(&a);
    test_write_text(p, "REMARK nothing\nEND\n");
    EXPECT(climb_pqr_read(p, &a, err, sizeof err) == 0 && a.n == 0);
    climb_atoms_free(&a);
    expect_pqr_error("REMARK\nATOM 1 N GLY 1 1.0 2.0 3.0 0.5\n", "2:", "at least 10 fields");
    expect_pqr_error("ATOM 1 N GLY 1 1.0 x 3.0 0.5 1.0\n", "1:", "the y is 'x', not a number");
    expect_pqr_error("ATOM 1 N GLY 1 1.0 2.0 3.0 0.5 -1\n", "1:", "the radius is -1, below 0");
    expect_pqr_error("\n\nHETATM 1 N GLY 1 1e9 2.0 3.0 0.5 1\n", "3:", "the x is 1e+09: out of range");
    expect_pqr_error("ATOM 1.0 2.0 3.0 0.5 1\n", "1:", "this has 6");
    expect_pqr_error("ATOM 1 N GLY 1 1.0 2.0 3.0 nan 1\n", "1:", "the charge is 'nan', not a number");
    expect_pqr_error("ATOM 1 N GLY 1 1.0 2.0 3.0-0.5 1\n", "1:", "this has 9"); /* run-together fields */
    EXPECT(climb_pqr_read(path_of("none.pqr"), &a, err, sizeof err) == -1 && strstr(err, "none.pqr"));
}

static void test_pqr_fuzz(void)
{
    climb_rng r;
    climb_rng_seed(&r, fuzz_seed());
    const char *good = "REMARK x\nATOM      1  N   GLY     1      21.421   3.562  16.781   0.294   1.821\n"
                       "HETATM    2  H1  GLY A   1      20.981   4.248  17.380   0.164   0.599\nEND\n";
    const char *p = path_of("fuzz.pqr");
    int ok = 0, bad = 0;
    for (int it = 0; it < 20000; it++) {
        char text[512];
        size_t n = strlen(good);
        memcpy(text, good, n);
        fuzz_mutate(&r, text, &n, sizeof text, "ATOMHE 0123456789.-+e\n\t");
        FILE *f = fopen(p, "wb");
        if (!f)
            break;
        fwrite(text, 1, n, f);
        fclose(f);
        climb_atoms a;
        char err[400] = "";
        if (climb_pqr_read(p, &a, err, sizeof err) == 0) {
            ok++;
            for (size_t i = 0; i < a.n; i++)
                if (!(fabsf(a.xyzq[4 * i]) <= 1e6f && a.radius[i] >= 0)) {
                    EXPECT_MSG(0, "atom %zu out of range", i);
                    break;
                }
            climb_atoms_free(&a);
        } else {
            bad++;
            EXPECT_MSG(strncmp(err, p, strlen(p)) == 0 && err[strlen(p)] == ':', "%s", err);
        }
    }
    printf("pqr fuzz: %d read, %d refused\n", ok, bad);
    EXPECT(ok > 0 && bad > 0);
}

static void test_dx(void)
{
    const char *p = path_of("map.dx");
    climb_dx_grid g = {{3, 2, 5}, {-1.5, 0, 2}, {0.5, 1, 0.25}};
    float v[30];
    for (int k = 0; k < 30; k++)
        v[k] = (float)(k * k) * 0.125f - 3;
    char err[400];
    EXPECT_MSG(climb_dx_write(p, &g, v, "climb test\nsecond line", err, sizeof err) == 0, "%s", err);
    char text[4000];
    test_read_text(p, text, sizeof text);
    EXPECT(strstr(text, "# climb test\n# second line\nobject 1 class gridpositions counts 3 2 5\n") != NULL);
    EXPECT(strstr(text, "object 3 class array type double rank 0 items 30 data follows\n") != NULL);
    /* z fastest: the first values are (0,0,0), (0,0,1), (0,0,2): v[0], v[6], v[12] */
    char first[200];
    snprintf(first, sizeof first, "data follows\n%e %e %e\n", (double)v[0], (double)v[6], (double)v[12]);
    EXPECT_MSG(strstr(text, first) != NULL, "%s", text);
    climb_dx_grid h;
    float *w = NULL;
    EXPECT_MSG(climb_dx_read(p, &h, &w, err, sizeof err) == 0, "%s", err);
    EXPECT(h.n[0] == 3 && h.n[1] == 2 && h.n[2] == 5 && h.origin[0] == -1.5 && h.delta[2] == 0.25);
    if (w)
        EXPECT(memcmp(v, w, sizeof v) == 0);
    free(w);
    /* errors */
    const char *bad[][3] = {
        {"object 1 class gridpositions counts 2 2\n", "1:", "needs 3 numbers"},
        {"# c\nobject 1 class gridpositions counts 2 2 2\norigin 0 0 0\ndelta 1 1 0\n", "4:", "axis-aligned"},
        {"object 1 class gridpositions counts 1 1 2\norigin 0 0 0\ndelta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"
         "object 2 class gridconnections counts 1 1 2\nobject 3 class array type double rank 0 items 3 data follows\n",
         "7:", "item count is not 1 x 1 x 2"},
        {"object 1 class gridpositions counts 1 1 2\norigin 0 0 0\ndelta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"
         "object 2 class gridconnections counts 1 1 2\nobject 3 class array type double rank 0 items 2 data follows\n"
         "1.0 abc\n", "8:", "value 2 of 2 is not a float"},
        {"object 1 class gridpositions counts 1 1 2\norigin 0 0 0\ndelta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"
         "object 2 class gridconnections counts 1 1 2\nobject 3 class array type double rank 0 items 2 data follows\n"
         "1.0\n", "8:", "ends inside"},
        {"object 1 class gridpositions counts 0 1 2\n", "1:", "count 0"},
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        test_write_text(p, bad[t][0]);
        char want[350];
        snprintf(want, sizeof want, "%s:%s", p, bad[t][1]);
        w = NULL;
        EXPECT_MSG(climb_dx_read(p, &h, &w, err, sizeof err) == -1 && strncmp(err, want, strlen(want)) == 0 &&
                       strstr(err, bad[t][2]) && w == NULL,
                   "case %zu: '%s'", t, err);
    }
    EXPECT(climb_dx_write("/nonexistent/x.dx", &g, v, NULL, err, sizeof err) == -1 && strstr(err, "/nonexistent/x.dx"));
}

/* The real files, where ../shared/data is there: APBS's map of 1d7h-min, and the molecules. */
static void test_real(void)
{
    const char *data = CLIMB_SOURCE_DIR "/../shared/data";
    char p[600], err[400];
    snprintf(p, sizeof p, "%s/dx/1d7h-min_pot_33.dx", data);
    if (access(p, R_OK) != 0) {
        printf("the data folder is not there: the real files were not read\n");
        return;
    }
    climb_dx_grid g;
    float *v = NULL;
    EXPECT_MSG(climb_dx_read(p, &g, &v, err, sizeof err) == 0, "%s", err);
    EXPECT(g.n[0] == 33 && g.n[1] == 33 && g.n[2] == 33 && fabs(g.delta[0] - 2.1875) < 1e-9 &&
           fabs(g.origin[0] + 9.1255) < 1e-9);
    if (v) /* the file's first values are (0,0,0), (0,0,1), (0,0,2) */
        EXPECT(fabsf(v[0] + 2.222432e-3f) < 1e-9f && fabsf(v[33 * 33] + 2.536973e-3f) < 1e-9f);
    free(v);
    const char *mols[][2] = {{"pqr/1d7h-min.pqr", "1663"}, {"pqr/mache.pqr", "8279"}, {"parboil/cutcp/watbox.sl40.pqr", "5943"}};
    for (int m = 0; m < 3; m++) {
        snprintf(p, sizeof p, "%s/%s", data, mols[m][0]);
        climb_atoms a;
        EXPECT_MSG(climb_pqr_read(p, &a, err, sizeof err) == 0, "%s", err);
        EXPECT_MSG(a.n == (size_t)atoi(mols[m][1]), "%s: %zu atoms", mols[m][0], a.n);
        climb_atoms_free(&a);
    }
}

int main(void)
{
    EXPECT(mkdtemp(dir) != NULL);
    test_pqr();
    test_pqr_fuzz();
    test_dx();
    test_real();
    const char *names[] = {"ok.pqr", "bad.pqr", "fuzz.pqr", "map.dx"};
    for (int k = 0; k < 4; k++)
        unlink(path_of(names[k]));
    rmdir(dir);
    return test_finish("test_cpu_molecule");
}
