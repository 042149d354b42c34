/* CPU tests of reading users' text: numbers (strict, locale-free), the shared line reader (line numbers, CRLF,
 * limits, NUL bytes, files that are not regular), and a workload's input parser built on it (the test workload's
 * text matrix): every malformed file gives "file:line: what is wrong", and a seeded fuzz run of mutated files
 * never crashes, never hangs and always answers in that form. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/rng.h"
#include "io/text.h"
#include "workloads/affine.h"
#include "fuzz.h"
#include "testing.h"

static char dir[256];

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static void test_numbers(void)
{
    long long i;
    double d;
    const char *s = "  -42 17";
    s = climb_skip_blanks(s);
    EXPECT(climb_scan_int(&s, -100, 100, &i) == 0 && i == -42 && *s == ' ');
    EXPECT(climb_parse_int("9223372036854775807", 0, (long long)(~0ull >> 1), &i) == 0 && i == 9223372036854775807LL);
    EXPECT(climb_parse_int("9223372036854775808", 0, (long long)(~0ull >> 1), &i) == -1); /* overflow */
    EXPECT(climb_parse_int("-9223372036854775808", -9223372036854775807LL - 1, 0, &i) == 0 && i < 0);
    EXPECT(climb_parse_int("12x", 0, 100, &i) == -1 && climb_parse_int("", 0, 1, &i) == -1);
    EXPECT(climb_parse_int("101", 0, 100, &i) == -1);
    EXPECT(climb_parse_double("1e3", &d) == 0 && d == 1000);
    EXPECT(climb_parse_double("-.5", &d) == 0 && d == -0.5);
    const char *refused[] = {"nan", "NaN", "inf", "-Infinity", "0x1p3", "1e", "1e+", ".", "-", "1e999", ""};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        EXPECT_MSG(climb_parse_double(refused[k], &d) == -1, "'%s' parsed", refused[k]);
    char buf[16];
    climb_printable("a\x01" "b\xff", 4, buf, sizeof buf);
    EXPECT(strcmp(buf, "a?b?") == 0);
    EXPECT(strcmp(climb_base_name("/x/y/m.txt"), "m.txt") == 0 && strcmp(climb_base_name("m.txt"), "m.txt") == 0);
}

static void test_lines(void)
{
    char p[300], err[400], *line;
    size_t len;
    climb_lines r;
    path_of(p, sizeof p, "lines.txt");
    test_write_text(p, "one\r\ntwo\n\nlast without newline");
    EXPECT(climb_lines_open(&r, p, 100, 1000, err, sizeof err) == 0);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1 && strcmp(line, "one") == 0 && r.line == 1);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1 && strcmp(line, "two") == 0 && r.line == 2);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1 && len == 0 && r.line == 3);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1 && strcmp(line, "last without newline") == 0);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 0 && r.line == 4);
    climb_lines_fail(&r, err, sizeof err, "value %d is odd", 3);
    EXPECT_MSG(strstr(err, "lines.txt:4: value 3 is odd") != NULL, "%s", err);
    climb_lines_close(&r);

    /* Limits: a long line, a large file (checked before reading and while reading), a NUL byte. */
    test_write_text(p, "short\nthis line is far too long\n");
    EXPECT(climb_lines_open(&r, p, 10, 1000, err, sizeof err) == 0);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == -1 && strstr(err, ":2: line longer than 10 bytes"));
    climb_lines_close(&r);
    EXPECT(climb_lines_open(&r, p, 100, 10, err, sizeof err) == -1 && strstr(err, "more than the 10"));
    FILE *f = fopen(p, "wb");
    fwrite("ab\ncd\0ef\n", 1, 9, f);
    fclose(f);
    EXPECT(climb_lines_open(&r, p, 100, 1000, err, sizeof err) == 0);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == 1);
    EXPECT(climb_lines_next(&r, &line, &len, err, sizeof err) == -1 && strstr(err, ":2: a NUL byte"));
    climb_lines_close(&r);
    /* Not there, a folder, a FIFO: refused before any read (a FIFO would block). */
    path_of(p, sizeof p, "none.txt");
    EXPECT(climb_lines_open(&r, p, 100, 1000, err, sizeof err) == -1 && strstr(err, "none.txt: cannot read"));
    EXPECT(climb_lines_open(&r, dir, 100, 1000, err, sizeof err) == -1 && strstr(err, "not a regular file"));
    path_of(p, sizeof p, "fifo");
    if (mkfifo(p, 0600) == 0)
        EXPECT(climb_lines_open(&r, p, 100, 1000, err, sizeof err) == -1 && strstr(err, "not a regular file"));
}

/* The test workload's loader on one file's text: 0 (loaded: *rows, *cols) or -1 with err. */
static int load_text(const char *text, size_t n, char *err, size_t errlen, size_t *rows, size_t *cols)
{
    char p[300];
    path_of(p, sizeof p, "m.txt");
    FILE *f = fopen(p, "wb");
    fwrite(text, 1, n, f);
    fclose(f);
    const climb_workload *w = &climb_affine_workload;
    void *data = NULL;
    climb_shape shape;
    char desc[300];
    err[0] = '\0';
    int rc = w->load(p, &data, &shape, desc, sizeof desc, err, errlen);
    if (rc == 0) {
        *rows = shape.d[0];
        *cols = shape.d[1];
        w->unload(data);
    }
    return rc;
}

static void test_loader(void)
{
    char err[400];
    size_t rows, cols;
    const char *good = "# a comment\n\n2 3\n1 2 3\n  4.5\t-6 7e1  \n";
    EXPECT(load_text(good, strlen(good), err, sizeof err, &rows, &cols) == 0 && rows == 2 && cols == 3);
    EXPECT(load_text("0 0\n", 4, err, sizeof err, &rows, &cols) == 0 && rows == 0 && cols == 0);
    struct { const char *text, *want; } bad[] = {
        {"", "m.txt:1: the file is empty"},
        {"# only a comment\n", "m.txt:1: the file is empty"},
        {"2\n", "m.txt:1: expected 'rows cols'"},
        {"2 x\n", "m.txt:1: expected 'rows cols'"},
        {"2 3 4\n", "m.txt:1: expected 'rows cols'"},
        {"-2 3\n", "m.txt:1: expected 'rows cols'"},
        {"100000 100000\n", "m.txt:1: 100000 x 100000 is more than 2^28 elements"},
        {"2 2\n1 2\n", "m.txt:2: the file ends after 1 of 2 rows"},
        {"2 2\n1 2\n3\n", "m.txt:3: row 2 has 1 numbers, expected 2"},
        {"2 2\n1 2\n3 4 5\n", "m.txt:3: row 2 has more than 2 numbers"},
        {"1 2\n1 abc\n", "m.txt:2: 'abc' is not a finite number"},
        {"1 2\n1 nan\n", "m.txt:2: 'nan' is not a finite number"},
        {"1 2\n1 1e999\n", "m.txt:2: '1e999' is not a finite number"},
        {"1 2\n1 2,5\n", "m.txt:2: '2,5' is not a finite number"},
        {"1 1\n1\n2\n", "m.txt:3: more rows than the 1 declared"},
        {"1 1\n\x80\xff\n", "m.txt:2: '?\?' is not a finite number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = load_text(bad[i].text, strlen(bad[i].text), err, sizeof err, &rows, &cols);
        const char *at = strstr(err, "m.txt:");
        EXPECT_MSG(rc == -1 && at && strncmp(at, bad[i].want, strlen(bad[i].want)) == 0, "case %zu: '%s'", i, err);
    }
}

/* Mutated good files: a byte changed, a run deleted, a run repeated, a cut. Every answer is a load or an error
 * that names the file and a line within it; the run is bounded in time. */
static void test_fuzz(void)
{
    const char *base = "# matrix\n3 4\n1 2 3 4\n-5.5 6e1 7 8\n9 10 11 12\n";
    const size_t n0 = strlen(base);
    const char alphabet[] = "0123456789 \n\t#-+.eE,xn\r";
    climb_rng r;
    uint64_t seed = fuzz_seed();
    climb_rng_seed(&r, seed);
    time_t start = time(NULL);
    int runs = 0, loaded = 0, bad_form = 0;
    char text[256], err[400];
    for (; runs < 3000 && time(NULL) - start < 20; runs++) {
        size_t n = n0;
        memcpy(text, base, n);
        fuzz_mutate(&r, text, &n, sizeof text - 1, alphabet);
        size_t lines = (size_t)fuzz_lines(text, n);
        size_t rows, cols;
        if (load_text(text, n, err, sizeof err, &rows, &cols) == 0) {
            loaded++;
            continue;
        }
        const char *at = strstr(err, "m.txt:");
        long line = at ? strtol(at + 6, NULL, 10) : 0;
        int printable = 1;
        for (const char *q = err; *q; q++)
            printable &= (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x7f;
        if (!at || line < 1 || (size_t)line > lines || !printable) {
            if (bad_form++ < 5)
                fprintf(stderr, "fuzz %d (seed %llu): '%s'\n", runs, (unsigned long long)seed, err);
        }
    }
    printf("fuzz: %d mutated files (seed %llu), %d loaded, %d errors badly formed\n", runs, (unsigned long long)seed,
           loaded, bad_form);
    EXPECT(runs >= 1000 && bad_form == 0);
    EXPECT(loaded > 0 && loaded < runs); /* the mutations reach both outcomes */
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/climb_text_test_XXXXXX");
    EXPECT(mkdtemp(dir) != NULL);
    test_numbers();
    test_lines();
    test_loader();
    test_fuzz();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    EXPECT(system(cmd) == 0);
    return test_finish("test_cpu_text");
}
