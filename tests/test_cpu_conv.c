/* CPU tests of the convolution: the reference against hand-worked outputs (ghost cells, 1-D rows, a mask that is
 * not symmetric, so a flipped mask shows), the tolerance, the PGM reader (P2 with comments, P5 of one and two bytes a
 * pixel, every error worded "file:line: ..." and a fuzz run that must never crash) and writer (round trip), and the
 * workload's table. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/pgm.h"
#include "workloads/conv/conv.h"
#include "fuzz.h"
#include "testing.h"

static void test_reference(void)
{
    /* 3 x 4 image, 3 x 3 mask with distinct weights */
    const float in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float m[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    double out[4], abs[4];
    /* row 0: the row above is ghost (0). out[0][0] = m[1][1] 1 + m[1][2] 2 + m[2][1] 5 + m[2][2] 6 */
    climb_conv_ref_row(in, 4, 3, 4, m, 1, 1, 0, out, abs);
    EXPECT(out[0] == 5 * 1 + 6 * 2 + 8 * 5 + 9 * 6);
    EXPECT(out[3] == 4 * 3 + 5 * 4 + 7 * 7 + 8 * 8);
    EXPECT(abs[0] == out[0]);
    /* row 1, column 1: every tap inside */
    climb_conv_ref_row(in, 4, 3, 4, m, 1, 1, 1, out, NULL);
    double want = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            want += m[a * 3 + b] * in[a * 4 + b];
    EXPECT(out[1] == want);
    /* a padded row (ld 6): the padding is never read */
    float padded[18];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 6; j++)
            padded[i * 6 + j] = j < 4 ? in[i * 4 + j] : 1e30f;
    double out2[4];
    climb_conv_ref_row(padded, 6, 3, 4, m, 1, 1, 1, out2, NULL);
    EXPECT(out2[1] == want && fabs(out2[3]) < 1e6);
    /* 1-D (ry = 0): each row on its own, 3 taps */
    const float m1[3] = {-1, 0.5f, 2};
    climb_conv_ref_row(in, 4, 3, 4, m1, 1, 0, 2, out, abs);
    EXPECT(out[0] == 0.5 * 9 + 2 * 10);
    EXPECT(out[1] == -1 * 9 + 0.5 * 10 + 2 * 11);
    EXPECT(out[3] == -1 * 11 + 0.5 * 12);
    EXPECT(abs[1] == 9 + 5 + 22);
    /* a 1 x 1 image with radius 4: only the centre tap */
    float one = 3, m9[81];
    for (int k = 0; k < 81; k++)
        m9[k] = (float)(k + 1);
    climb_conv_ref_row(&one, 1, 1, 1, m9, 4, 4, 0, out, NULL);
    EXPECT(out[0] == 3.0 * 41);
    /* the tolerance grows with the taps and the magnitudes */
    EXPECT(climb_conv_tolerance(9, 1.0) == 11 * 0x1p-24);
    EXPECT(climb_conv_tolerance(81, 2.0) > climb_conv_tolerance(9, 2.0));
}

static int parse(const char *text, size_t n, climb_pgm *img, char *err, size_t len)
{
    return climb_pgm_parse("t.pgm", (const unsigned char *)text, n, img, err, len);
}

static void expect_error(const char *text, size_t n, const char *where, const char *what)
{
    climb_pgm img;
    char err[300] = "";
    EXPECT_MSG(parse(text, n, &img, err, sizeof err) == -1 && strncmp(err, where, strlen(where)) == 0 &&
                   strstr(err, what),
               "'%.*s': got '%s', wanted '%s... %s'", (int)(n < 40 ? n : 40), text, err, where, what);
    EXPECT(img.pixels == NULL);
}

static void test_pgm(void)
{
    climb_pgm img;
    char err[300];
    /* P2 with comments in the header and between pixels, maxval 15 */
    const char *p2 = "P2\n# a comment\n3 2 # width height\n15\n0 15 5\n# between rows\n10 1 15\n";
    EXPECT_MSG(parse(p2, strlen(p2), &img, err, sizeof err) == 0, "%s", err);
    EXPECT(img.rows == 2 && img.cols == 3 && img.maxval == 15 && img.plain == 1);
    EXPECT(img.pixels && img.pixels[0] == 0 && img.pixels[1] == 1 && fabsf(img.pixels[2] - 5.0f / 15) < 1e-7f &&
           img.pixels[5] == 1);
    climb_pgm_free(&img);
    /* P5, one byte a pixel, a comment */
    const char p5[] = "P5\n#c\n2 2\n255\n\x00\xff\x80\x01";
    EXPECT_MSG(parse(p5, sizeof p5 - 1, &img, err, sizeof err) == 0, "%s", err);
    EXPECT(img.rows == 2 && img.cols == 2 && img.plain == 0 && img.pixels[1] == 1.0f &&
           fabsf(img.pixels[2] - 128.0f / 255) < 1e-7f);
    climb_pgm_free(&img);
    /* P5, two bytes a pixel, most significant first */
    const char p16[] = "P5 2 1 1000 \x03\xe8\x01\xf4";
    EXPECT_MSG(parse(p16, sizeof p16 - 1, &img, err, sizeof err) == 0, "%s", err);
    EXPECT(img.maxval == 1000 && img.pixels[0] == 1.0f && img.pixels[1] == 0.5f);
    climb_pgm_free(&img);
    /* errors, each with its line */
    expect_error("P6\n1 1\n255\n", 11, "t.pgm:1:", "only grayscale PGM");
    expect_error("hello", 5, "t.pgm:1:", "not a PGM");
    expect_error("P2\n3 x 2\n", 8, "t.pgm:2:", "height: expected a number");
    expect_error("P2\n0 2\n", 7, "t.pgm:2:", "width is 0");
    expect_error("P2\n2 2\n70000\n", 13, "t.pgm:3:", "maxval is over 65535");
    expect_error("P2\n2 2\n255\n1 2\n3", 16, "t.pgm:5:", "ends before the pixel 4 of 4");
    expect_error("P2\n2 1\n9\n1 10\n", 14, "t.pgm:4:", "over 9");
    expect_error("P2\n2 1\n9\n1 2x\n", 14, "t.pgm:4:", "followed by 'x'");
    expect_error("P5\n2 2\n255\nab", 13, "t.pgm:4:", "raster is cut short");
    expect_error("P5\n2 1\n100\n\x01\xff", 13, "t.pgm:4:", "over the maxval 100");
    expect_error("P2\n2000000 1\n", 13, "t.pgm:2:", "width is over");
    expect_error("P2\n1048576 1048576\n255\n", 23, "t.pgm:3:", "more than the 2^28");
    expect_error("P5\n2 1\n255", 10, "t.pgm:3:", "followed by one whitespace");
    /* a file that is not there, and a folder */
    EXPECT(climb_pgm_read("/nonexistent/x.pgm", &img, err, sizeof err) == -1 && strstr(err, "/nonexistent/x.pgm: "));
    EXPECT(climb_pgm_read("/tmp", &img, err, sizeof err) == -1 && strstr(err, "not a regular file"));
    /* write and read back: values clamped to [0, 1] and scaled to 0..255, the padding skipped */
    char path[] = "/tmp/climb_pgm_XXXXXX";
    const int fd = mkstemp(path);
    EXPECT(fd >= 0);
    if (fd >= 0)
        close(fd);
    const float v[8] = {0, 0.5f, 1, 9, -3, 0.25f, NAN, 7};
    EXPECT_MSG(climb_pgm_write(path, v, 2, 3, 4, "a\ncomment", err, sizeof err) == 0, "%s", err);
    EXPECT_MSG(climb_pgm_read(path, &img, err, sizeof err) == 0, "%s", err);
    EXPECT(img.rows == 2 && img.cols == 3 && img.maxval == 255 && img.plain == 0);
    if (img.pixels) {
        EXPECT(img.pixels[0] == 0 && img.pixels[1] == 128.0f / 255 && img.pixels[2] == 1 && img.pixels[3] == 0 &&
               img.pixels[4] == 64.0f / 255 && img.pixels[5] == 0);
        EXPECT(img.pixels[4] == 64.0f / 255);
    }
    climb_pgm_free(&img);
    /* the dry run's peek: the header alone, the same checks (a raster cut short is the read's to find) */
    EXPECT_MSG(climb_pgm_peek(path, &img, err, sizeof err) == 0 && img.rows == 2 && img.cols == 3 && !img.pixels,
               "%s", err);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs("P5\n3 2\n255\n\x01", f); /* the raster cut short */
        fclose(f);
    }
    EXPECT(climb_pgm_peek(path, &img, err, sizeof err) == 0 && img.rows == 2);
    EXPECT(climb_pgm_read(path, &img, err, sizeof err) == -1 && strstr(err, "cut short"));
    f = fopen(path, "wb");
    if (f) {
        fputs("P5\n3 x\n255\n", f);
        fclose(f);
    }
    char err2[300];
    EXPECT(climb_pgm_peek(path, &img, err, sizeof err) == -1 && climb_pgm_read(path, &img, err2, sizeof err2) == -1 &&
           strcmp(err, err2) == 0);
    EXPECT(climb_pgm_peek("/nonexistent/x.pgm", &img, err, sizeof err) == -1 && strstr(err, "/nonexistent/x.pgm: "));
    EXPECT(climb_pgm_write(path, v, 0, 3, 3, "", err, sizeof err) == -1);
    EXPECT(climb_pgm_write("/nonexistent/dir/x.pgm", v, 1, 1, 1, "", err, sizeof err) == -1 &&
           strstr(err, "/nonexistent/dir/x.pgm: "));
    unlink(path);
}

/* Random edits of good files: every outcome a success or a "t.pgm:N: " error, never a crash (ASan in CI). */
static void test_fuzz(void)
{
    climb_rng r;
    climb_rng_seed(&r, fuzz_seed());
    const char *good[] = {"P2\n# comment\n4 3\n255\n0 1 2 3\n4 5 6 7\n8 9 10 255\n",
                          "P5\n4 2\n255\n\x01\x02\x03\x04\x05\x06\x07\x08", "P5 2 2 65535\n\x01\x02\x03\x04\x05\x06\x07\x08"};
    const size_t lens[] = {strlen(good[0]), 19, 21};
    int ok = 0, errors = 0;
    for (int it = 0; it < 20000; it++) {
        const int g = it % 3;
        char text[256];
        size_t n = lens[g];
        memcpy(text, good[g], n);
        fuzz_mutate(&r, text, &n, sizeof text, "P25 \n#0123456789\t");
        climb_pgm img;
        char err[300] = "";
        if (parse(text, n, &img, err, sizeof err) == 0) {
            ok++;
            EXPECT(img.rows >= 1 && img.cols >= 1 && img.pixels);
            for (size_t k = 0; k < img.rows * img.cols; k++)
                if (!(img.pixels[k] >= 0 && img.pixels[k] <= 1)) {
                    EXPECT_MSG(0, "pixel %zu = %g", k, img.pixels[k]);
                    break;
                }
            climb_pgm_free(&img);
        } else {
            errors++;
            EXPECT_MSG(strncmp(err, "t.pgm:", 6) == 0 && err[6] >= '1' && err[6] <= '9', "%s", err);
        }
    }
    printf("fuzz: %d parsed, %d refused\n", ok, errors);
    EXPECT(ok > 0 && errors > 0);
}

int main(void)
{
    test_reference();
    test_pgm();
    test_fuzz();
    const climb_workload *w = &climb_conv_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(w) >= 0 && climb_bound_rung(w) >= 0 && w->save != NULL);
    return test_finish("test_cpu_conv");
}
