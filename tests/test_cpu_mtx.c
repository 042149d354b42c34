/* CPU: the Matrix Market reader. Good files of every field and symmetry give the CSR written down here (mirrored
 * entries, duplicates summed, empty rows, columns sorted); each kind of malformed file gives its exact
 * "file:line: what is wrong"; and a fuzz run of mutated files never crashes, every failure is worded
 * "path:line: ..." or "path: ...", and every success is a consistent CSR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/mtx.h"
#include "fuzz.h"
#include "testing.h"

static char dir[64];

static const char *write_file(const char *name, const char *text, size_t n)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    EXPECT(f != NULL);
    if (f) {
        fwrite(text, 1, n, f);
        fclose(f);
    }
    return path;
}

static int read_text(const char *text, climb_csr *m, climb_mtx_info *info, char *err, size_t errlen)
{
    const char *path = write_file("m.mtx", text, strlen(text));
    return climb_mtx_read(path, m, info, err, errlen);
}

/* The CSR of m equals the one written down (dense, rows x cols, 0 = absent). */
static void expect_dense(const climb_csr *m, int rows, int cols, const double *dense, const char *label)
{
    EXPECT_MSG(m->rows == rows && m->cols == cols, "%s: %d x %d", label, m->rows, m->cols);
    EXPECT_MSG(climb_csr_check(m) == NULL, "%s: %s", label, climb_csr_check(m));
    int nnz = 0;
    for (int i = 0; i < rows * cols; i++)
        nnz += dense[i] != 0;
    EXPECT_MSG(m->nnz == nnz, "%s: nnz %d, expected %d", label, m->nnz, nnz);
    if (m->rows != rows || m->cols != cols || climb_csr_check(m))
        return;
    for (int i = 0; i < rows; i++)
        for (int k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++)
            EXPECT_MSG(dense[i * cols + m->col_idx[k]] == m->val[k], "%s: (%d, %d) = %g", label, i, m->col_idx[k],
                       m->val[k]);
}

static void test_good(void)
{
    climb_csr m;
    climb_mtx_info info;
    char err[300];
    /* General, comments and blank lines, a duplicate, an empty row (row 2) and an empty last row (row 4). */
    EXPECT_MSG(read_text("%%MatrixMarket matrix coordinate real general\n% a comment\n%\n\n4 3 5\n"
                         "3 3 -1.5\n1 2 2e0\n1 1 1\n% between entries\n3 1 4.25\n1 2 0.5\n",
                         &m, &info, err, sizeof err) == 0, "%s", err);
    const double a[12] = {1, 2.5, 0, 0, 0, 0, 4.25, 0, -1.5, 0, 0, 0};
    expect_dense(&m, 4, 3, a, "general");
    EXPECT(info.entries == 5 && info.duplicates == 1 && info.field == CLIMB_MTX_REAL);
    climb_csr_free(&m);

    /* Symmetric, integer: the lower triangle mirrored, the diagonal once. */
    EXPECT_MSG(read_text("%%MatrixMarket matrix coordinate integer symmetric\n3 3 4\n1 1 5\n2 1 -2\n3 2 7\n3 3 1\n",
                         &m, &info, err, sizeof err) == 0, "%s", err);
    const double s[9] = {5, -2, 0, -2, 0, 7, 0, 7, 1};
    expect_dense(&m, 3, 3, s, "symmetric");
    EXPECT(info.symmetry == CLIMB_MTX_SYMMETRIC && info.field == CLIMB_MTX_INTEGER);
    climb_csr_free(&m);

    /* Skew-symmetric: mirrored with the sign changed. */
    EXPECT_MSG(read_text("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 3\n3 1 -1\n", &m, &info,
                         err, sizeof err) == 0, "%s", err);
    const double k[9] = {0, -3, 1, 3, 0, 0, -1, 0, 0};
    expect_dense(&m, 3, 3, k, "skew");
    climb_csr_free(&m);

    /* Pattern, upper-case header words (the format's words are case-insensitive), a 1 x 1 matrix. */
    EXPECT_MSG(read_text("%%MatrixMarket MATRIX Coordinate Pattern General\n1 1 1\n1 1\n", &m, &info, err,
                         sizeof err) == 0, "%s", err);
    const double p[1] = {1};
    expect_dense(&m, 1, 1, p, "pattern 1x1");
    climb_csr_free(&m);

    /* No entries at all; a dense row; CRLF line ends. */
    EXPECT(read_text("%%MatrixMarket matrix coordinate real general\r\n2 5 0\r\n", &m, &info, err, sizeof err) == 0);
    EXPECT(m.nnz == 0 && m.rows == 2 && m.row_ptr[2] == 0 && climb_csr_check(&m) == NULL);
    climb_csr_free(&m);
    EXPECT(read_text("%%MatrixMarket matrix coordinate real general\n2 4 4\n2 4 4\n2 2 2\n2 1 1\n2 3 3\n", &m, &info,
                     err, sizeof err) == 0);
    const double d[8] = {0, 0, 0, 0, 1, 2, 3, 4};
    expect_dense(&m, 2, 4, d, "dense row");
    climb_csr_free(&m);
}

/* Each malformed file and the message it must give (matched as a substring, with the path and line). */
static void test_bad(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", "m.mtx:1: the file is empty"},
        {"%%MatrixMarket matrix coordinate real general\n", ":1: the file ends before its size line"},
        {"MatrixMarket matrix coordinate real general\n1 1 0\n", ":1: not a Matrix Market header"},
        {"%%MatrixMarket matrix coordinate real\n1 1 0\n", ":1: the header has 4 of its 5 words"},
        {"%%MatrixMarket matrix array real general\n1 1\n1\n", ":1: the dense 'array' format is not read"},
        {"%%MatrixMarket matrix coordinate complex general\n1 1 0\n", ":1: field 'complex'"},
        {"%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", ":1: symmetry 'hermitian'"},
        {"%%MatrixMarket vector coordinate real general\n1 1 0\n", ":1: object 'vector'"},
        {"%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", ":1: unexpected 'extra' after the header"},
        {"%%MatrixMarket matrix coordinate real general\n2 2\n", ":2: the line ends before its entry count"},
        {"%%MatrixMarket matrix coordinate real general\n2 x 1\n1 1 1\n", ":2: column count 'x' is not a whole number"},
        {"%%MatrixMarket matrix coordinate real general\n0 2 1\n", ":2: row count 0 is out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 -1\n", ":2: entry count -1 is out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1 9\n1 1 1\n", ":2: unexpected '9' after the size line"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", ":2: a symmetric matrix must be square"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1000000\n1 1 1\n", ":2: 1000000 entries promised"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 2\n", ":4: the file ends after 2 of its 3"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", ":4: more entries than the 1 the"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", ":3: row index 3 is out of range (1 to 2)"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", ":3: column index 0 is out of range"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n", ":3: value 'abc' is not a finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", ":3: value 'nan' is not a finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 inf\n", ":3: value 'inf' is not a finite"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", ":3: the line ends before its value"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 2\n", ":3: unexpected '2' after the entry"},
        {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", ":3: value '1.5' is not a whole"},
        {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", ":3: unexpected '1' after the entry"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1.0 1 1\n", ":3: row index '1.0' is not a whole"},
        {"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", ":3: entry (1, 2) is above the diagonal"},
        {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1\n", ":3: entry (2, 2) is on the diag"},
        {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2", ":4: the line ends before its value"},
        /* a number too large is said so, not "not a whole number" */
        {"%%MatrixMarket matrix coordinate real general\n99999999999999999999 2 1\n1 1 1\n",
         ":2: row count 99999999999999999999 is too large"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        climb_csr m;
        char err[300] = "";
        const int rc = read_text(cases[c].text, &m, NULL, err, sizeof err);
        EXPECT_MSG(rc == -1 && strstr(err, cases[c].want) && strstr(err, dir), "case %zu: rc %d, '%s' lacks '%s'", c,
                   rc, err, cases[c].want);
        EXPECT(m.row_ptr == NULL && m.nnz == 0);
    }
    /* A UTF-8 byte-order mark before the header is skipped. */
    {
        climb_csr b;
        char e[300];
        EXPECT_MSG(read_text("\xEF\xBB\xBF%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n", &b, NULL, e,
                             sizeof e) == 0 && b.nnz == 1,
                   "%s", e);
        climb_csr_free(&b);
    }
    /* A gzip'd file, a missing one and a folder: refused with the path. */
    climb_csr m;
    char err[300];
    const char gz[] = "\x1f\x8b\x08\x00rest";
    const char *path = write_file("m.mtx.gz", gz, sizeof gz - 1);
    EXPECT(climb_mtx_read(path, &m, NULL, err, sizeof err) == -1 && strstr(err, "a gzip'd file: unpack it first"));
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.mtx", dir);
    EXPECT(climb_mtx_read(missing, &m, NULL, err, sizeof err) == -1 && strstr(err, "none.mtx"));
    EXPECT(climb_mtx_read(dir, &m, NULL, err, sizeof err) == -1 && strstr(err, "not a regular file"));
}

/* Mutated versions of a good file: the reader returns, with a well-formed message or a consistent matrix. */
static void test_fuzz(void)
{
    static const char good[] = "%%MatrixMarket matrix coordinate real symmetric\n% comment line\n6 6 9\n1 1 4.5\n"
                               "2 1 -1\n2 2 4\n3 2 -1e-3\n3 3 4\n4 1 2.5\n5 5 1\n6 4 7\n6 6 3\n";
    char text[1024];
    climb_rng r;
    const uint64_t seed = fuzz_seed();
    climb_rng_seed(&r, seed);
    int runs = 0, loaded = 0, bad_form = 0;
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s/f.mtx:", dir);
    for (; runs < 3000; runs++) {
        size_t n = sizeof good - 1;
        memcpy(text, good, n);
        fuzz_mutate(&r, text, &n, sizeof text, "0123456789 .-e\n%abcmrxyzSGPI");
        const char *path = write_file("f.mtx", text, n);
        climb_csr m;
        char err[300] = "", perr[300] = "";
        /* the dry run's peek at the same file: never a crash, a worded message, and where the whole file reads, the
         * same sizes */
        int32_t prow = -1, pcol = -1;
        climb_mtx_info pinfo;
        const int peeked = climb_mtx_peek(path, &prow, &pcol, &pinfo, perr, sizeof perr) == 0;
        if (!peeked && (strncmp(perr, prefix, strlen(prefix)) != 0 || strlen(perr) < strlen(prefix) + 5)) {
            bad_form++;
            fprintf(stderr, "fuzz run %d: badly formed peek message '%s'\n", runs, perr);
        }
        if (climb_mtx_read(path, &m, NULL, err, sizeof err) == 0) {
            loaded++;
            const char *why = climb_csr_check(&m);
            EXPECT_MSG(why == NULL, "fuzz run %d: loaded an inconsistent matrix: %s", runs, why);
            EXPECT_MSG(peeked && prow == m.rows && pcol == m.cols, "fuzz run %d: the peek disagrees with the read", runs);
            climb_csr_free(&m);
        } else if (strncmp(err, prefix, strlen(prefix)) != 0 || strlen(err) < strlen(prefix) + 5) {
            bad_form++;
            fprintf(stderr, "fuzz run %d: badly formed message '%s'\n", runs, err);
        }
    }
    printf("fuzz: %d mutated files (seed %llu), %d loaded, %d messages badly formed\n", runs,
           (unsigned long long)seed, loaded, bad_form);
    EXPECT(bad_form == 0);
    EXPECT(loaded > 0 && loaded < runs); /* the mutations reach both outcomes */
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/climb_mtx_test_XXXXXX");
    EXPECT(mkdtemp(dir) != NULL);
    test_good();
    test_bad();
    test_fuzz();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    EXPECT(system(cmd) == 0);
    return test_finish("test_cpu_mtx");
}
