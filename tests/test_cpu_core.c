/* CPU tests of the shared harness pieces: random inputs, timing statistics, validation, names, slugs,
 * per-case seeds, registry look-ups and rung selection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "device/timing.h"
#include "core/validate.h"
#include "core/workload.h"
#include "workloads/histogram/histogram.h"
#include "testing.h"

static void test_rng(void)
{
    climb_rng a, b, c;
    climb_rng_seed(&a, 42);
    climb_rng_seed(&b, 42);
    climb_rng_seed(&c, 43);
    int same = 1, differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = climb_rng_next(&a), y = climb_rng_next(&b), z = climb_rng_next(&c);
        same &= x == y;
        differ += x != z;
    }
    EXPECT(same);
    EXPECT(differ > 990);

    /* Inclusive ends are both reached and never passed. */
    int seen_lo = 0, seen_hi = 0, out = 0;
    for (int i = 0; i < 10000; i++) {
        int32_t v = climb_rng_int(&a, -3, 3);
        seen_lo |= v == -3;
        seen_hi |= v == 3;
        out |= v < -3 || v > 3;
    }
    EXPECT(seen_lo && seen_hi && !out);
    int32_t full_min = 0, full_max = 0;
    for (int i = 0; i < 100000; i++) {
        int32_t v = climb_rng_int(&a, INT32_MIN, INT32_MAX);
        full_min = v < full_min ? v : full_min;
        full_max = v > full_max ? v : full_max;
    }
    EXPECT(full_min < -2000000000 && full_max > 2000000000);

    /* Floats fill [lo, hi) with a mean near the middle and are not all the same. */
    float xs[10000];
    climb_rng_fill_f32(&a, xs, 10000, -1.0f, 1.0f);
    double mean = 0;
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
        mean += xs[i];
        bad |= !(xs[i] >= -1.0f && xs[i] < 1.0f);
    }
    mean /= 10000;
    EXPECT(!bad);
    EXPECT(fabs(mean) < 0.05);
    EXPECT(xs[0] != xs[1]);
    /* Fresh seeds are 48 bits (short enough to type back in) and not all the same. */
    uint64_t s0 = climb_fresh_seed(), s_or = 0;
    int varied = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t si = climb_fresh_seed();
        s_or |= si;
        varied |= si != s0;
    }
    EXPECT((s_or >> 48) == 0);
    EXPECT(varied);

    /* Reference samples: every element in order when few, else that many indices inside the output. */
    size_t count;
    size_t *all = climb_rng_samples(&a, 5, 4096, &count);
    EXPECT(all && count == 5 && all[0] == 0 && all[4] == 4);
    free(all);
    size_t *some = climb_rng_samples(&a, 1000000, 4096, &count);
    int inside = some != NULL, spread = 0;
    for (size_t k = 0; some && k < count; k++) {
        inside &= some[k] < 1000000;
        spread |= some[k] >= 500000;
    }
    EXPECT(count == 4096 && inside && spread);
    free(some);
    size_t *none = climb_rng_samples(&a, 0, 4096, &count);
    EXPECT(none && count == 0);
    free(none);
}

static void test_stats(void)
{
    double x[] = {3, 1, 2, 5, 4};
    climb_timing t;
    climb_timing_stats(x, 5, &t);
    EXPECT(t.median_us == 3 && t.min_us == 1 && t.max_us == 5 && t.mean_us == 3);
    EXPECT(fabs(t.noise_pct - 100.0 * sqrt(2.5) / 3.0) < 1e-9);
    EXPECT(t.samples == 5);
    double y[] = {10, 40, 20, 30};
    climb_timing_stats(y, 4, &t);
    EXPECT(t.median_us == 25);
    climb_timing_stats(y, 0, &t);
    EXPECT(isnan(t.median_us));
    climb_timing_opts o = climb_timing_defaults();
    EXPECT(o.warmup > 0 && o.min_samples >= 10 && o.max_samples >= o.min_samples && !o.batch);
}

/* The one comparer: labels formatted only for the mismatches told, the first five, the count of what was checked. */
static void test_compare(void)
{
    char msg[600];
    climb_compare k;
    climb_compare_begin(&k, msg, sizeof msg);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            climb_compare_close(&k, i * 10 + j + (i == 1 && j == 2 ? 0.5 : 0.0), i * 10 + j, 0.25, "C[%d][%d]", i, j);
    EXPECT(climb_compare_end(&k) == 1);
    EXPECT_MSG(strstr(msg, "C[1][2] = 12.5, expected 12 (tolerance 0.25)") && strstr(msg, "(1 of 12 elements wrong)"),
               "%s", msg);
    climb_compare_begin(&k, msg, sizeof msg);
    EXPECT(climb_compare_close(&k, NAN, NAN, 0, "nan") == 1 && climb_compare_close(&k, INFINITY, INFINITY, 0, "inf") == 1);
    EXPECT(climb_compare_close(&k, NAN, 1.0, 1e30, "q[%d]", 7) == 0); /* NaN is never close to a number */
    EXPECT(climb_compare_close(&k, 1.0, NAN, 1e30, "q[%d]", 8) == 0);
    for (int i = 0; i < 10; i++)
        EXPECT(climb_compare_exact(&k, i, i == 3 || i > 5 ? i + 1 : i, "level of vertex %d", i) == (i != 3 && i <= 5));
    EXPECT(climb_compare_check(&k, 1, "never told %d", 1) == 1);
    EXPECT(climb_compare_check(&k, 0, "the padding C[%d][%d] was written", 2, 9) == 0);
    EXPECT(climb_compare_end(&k) == 1);
    EXPECT_MSG(strstr(msg, "q[7] = nan, expected 1") && strstr(msg, "level of vertex 3 = 3, expected 4") &&
                   strstr(msg, "and 3 more") && strstr(msg, "(8 of 16 elements wrong)") && !strstr(msg, "padding"),
               "%s", msg);
    climb_compare_begin(&k, msg, sizeof msg);
    EXPECT(climb_compare_end(&k) == 0 && msg[0] == '\0');
    /* long mismatches in a short message: the count still ends it */
    char shortmsg[200];
    climb_compare_begin(&k, shortmsg, sizeof shortmsg);
    for (int i = 0; i < 20000; i++)
        climb_compare_close(&k, NAN, -1.0 / 3, 1e-7, "y[%d] of a label long enough to fill the message", i);
    EXPECT(climb_compare_end(&k) == 1);
    EXPECT_MSG(strstr(shortmsg, "y[0] of a") && strstr(shortmsg, "(20000 of 20000 elements wrong)") &&
                   strlen(shortmsg) < sizeof shortmsg,
               "%s", shortmsg);
    char tiny[10];
    climb_compare_begin(&k, tiny, sizeof tiny);
    climb_compare_exact(&k, 1, 2, "a very long label %s", "indeed");
    EXPECT(climb_compare_end(&k) == 1 && strlen(tiny) < sizeof tiny);
}

static void test_validate(void)
{
    char msg[512];
    int32_t want[8] = {1, 2, 7, 4, 5, 6, 7, 8}, got[8] = {1, 2, 5, 4, 5, 6, 7, 8};
    EXPECT(climb_verify_exact(CLIMB_I32, want, want, 8, msg, sizeof msg) == 0);
    EXPECT(climb_verify_exact(CLIMB_I32, got, want, 8, msg, sizeof msg) == 1);
    EXPECT_MSG(strstr(msg, "[2] = 5, expected 7") != NULL, "message was '%s'", msg);
    EXPECT(strstr(msg, "1 of 8") != NULL);
    int32_t zeros[8] = {0};
    EXPECT(climb_verify_exact(CLIMB_I32, zeros, want, 8, msg, sizeof msg) == 8);
    EXPECT_MSG(strstr(msg, "and 3 more") != NULL, "message was '%s'", msg);
    /* A tiny buffer truncates but never overflows. */
    char tiny[8];
    EXPECT(climb_verify_exact(CLIMB_I32, zeros, want, 8, tiny, sizeof tiny) == 8);
    EXPECT(strlen(tiny) < sizeof tiny);
    /* Signed values print signed, unsigned ones unsigned; u8 compares one byte per element. */
    int32_t neg = -3, negw = -4;
    EXPECT(climb_verify_exact(CLIMB_I32, &neg, &negw, 1, msg, sizeof msg) == 1 && strstr(msg, "= -3, expected -4"));
    uint32_t big = 4000000000u, bigw = 4000000001u;
    EXPECT(climb_verify_exact(CLIMB_U32, &big, &bigw, 1, msg, sizeof msg) == 1 && strstr(msg, "= 4000000000, expected"));
    uint8_t b8[4] = {1, 2, 255, 4}, w8[4] = {1, 2, 255, 5};
    EXPECT(climb_verify_exact(CLIMB_U8, b8, w8, 3, msg, sizeof msg) == 0);
    EXPECT(climb_verify_exact(CLIMB_U8, b8, w8, 4, msg, sizeof msg) == 1 && strstr(msg, "[3] = 4, expected 5"));

    double wf[3] = {1.0, -2.0, 3.0};
    float gf[3] = {1.0f, -2.0f, 3.0f};
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, NULL, 1e-6, 3, msg, sizeof msg) == 0);
    gf[1] = -2.001f;
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, NULL, 1e-2, 3, msg, sizeof msg) == 0);
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, NULL, 1e-4, 3, msg, sizeof msg) == 1);
    double tol[3] = {0, 1e-2, 0};
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, tol, 0, 3, msg, sizeof msg) == 0);
    gf[1] = nanf("");
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, NULL, 1e9, 3, msg, sizeof msg) == 1); /* NaN never passes */
    gf[1] = INFINITY;
    EXPECT(climb_verify_close(CLIMB_F32, gf, wf, NULL, 1e30, 3, msg, sizeof msg) == 1);
    double wn[1] = {NAN};
    float gn[1] = {NAN};
    EXPECT(climb_verify_close(CLIMB_F32, gn, wn, NULL, 0, 1, msg, sizeof msg) == 0);
    /* f64 reads doubles: a difference below float precision is seen. */
    double gd[2] = {1.0, 1.0 + 1e-12}, wd[2] = {1.0, 1.0};
    EXPECT(climb_verify_close(CLIMB_F64, gd, wd, NULL, 1e-13, 2, msg, sizeof msg) == 1);
    EXPECT(climb_verify_close(CLIMB_F64, gd, wd, NULL, 1e-11, 2, msg, sizeof msg) == 0);
}

static void test_fill(void)
{
    /* Every type in the list fills within its range, and integer fills reach both ends of a small range. */
    climb_rng r;
    climb_rng_seed(&r, 5);
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        unsigned char buf[8 * 1000];
        double lo, hi;
        climb_dtype_full_range((climb_dtype)t, &lo, &hi);
        climb_rng_fill(&r, (climb_dtype)t, buf, 1000, lo, hi);
        int varied = memcmp(buf, buf + climb_dtype_size((climb_dtype)t), climb_dtype_size((climb_dtype)t)) != 0;
        EXPECT_MSG(varied, "%s fill is constant", climb_dtype_name((climb_dtype)t));
    }
    uint8_t u8[2000];
    climb_rng_fill(&r, CLIMB_U8, u8, 2000, 0, 255);
    int seen0 = 0, seen255 = 0;
    for (int i = 0; i < 2000; i++) {
        seen0 |= u8[i] == 0;
        seen255 |= u8[i] == 255;
    }
    EXPECT(seen0 && seen255);
    climb_rng_fill(&r, CLIMB_U8, u8, 2000, -50, 1000); /* clamped to the type */
    uint32_t u32[1000];
    climb_rng_fill(&r, CLIMB_U32, u32, 1000, 0, 4294967295.0);
    uint32_t mx = 0;
    for (int i = 0; i < 1000; i++)
        mx = u32[i] > mx ? u32[i] : mx;
    EXPECT(mx > 4000000000u);
    double d[1000];
    climb_rng_fill(&r, CLIMB_F64, d, 1000, -2, 2);
    int in = 1, fine = 0;
    for (int i = 0; i < 1000; i++) {
        in &= d[i] >= -2 && d[i] < 2;
        fine |= (float)d[i] != d[i]; /* more than 24 bits of mantissa */
    }
    EXPECT(in && fine);
    double lo, hi;
    climb_dtype_full_range(CLIMB_I32, &lo, &hi);
    EXPECT(lo == -2147483648.0 && hi == 2147483647.0);
    climb_dtype_full_range(CLIMB_U8, &lo, &hi);
    EXPECT(lo == 0 && hi == 255);
    climb_dtype_full_range(CLIMB_F32, &lo, &hi);
    EXPECT(lo == -1 && hi == 1);
    EXPECT(climb_rng_range(&r, 5, 5) == 5);
}

static void test_shapes(void)
{
    climb_shape s;
    char err[200], lbl[64];
    EXPECT(climb_shape_parse("2^28", &s, err, sizeof err) == 0 && s.ndims == 1 && s.d[0] == ((size_t)1 << 28));
    EXPECT(climb_shape_parse("4096x4096", &s, err, sizeof err) == 0 && s.ndims == 2 && s.d[0] == 4096 && s.d[1] == 4096);
    EXPECT(climb_shape_parse("4097x4097x4097", &s, err, sizeof err) == 0 && s.ndims == 3 && s.d[2] == 4097);
    EXPECT(climb_shape_parse("2^10x3x2^2x5", &s, err, sizeof err) == 0 && s.ndims == 4 && s.d[0] == 1024 && s.d[2] == 4);
    EXPECT(climb_shape_elems(&s) == 1024 * 3 * 4 * 5);
    EXPECT(climb_shape_parse("0x5", &s, err, sizeof err) == 0 && climb_shape_elems(&s) == 0);
    EXPECT(climb_shape_parse("64x64x56x56x64x3x3", &s, err, sizeof err) == 0 && s.ndims == 7 && s.d[6] == 3);
    EXPECT(climb_shape_parse("1x2x3x4x5x6x7x8", &s, err, sizeof err) == 0 && s.ndims == CLIMB_MAX_DIMS);
    const char *bad[] = {"", "x", "4096x", "x4096", "abc", "-5", "2^x", "2^99", "1x2x3x4x5x6x7x8x9", "12a", "4096 x 4096",
                         "4294967296x4294967296", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        EXPECT_MSG(climb_shape_parse(bad[i], &s, err, sizeof err) == -1 && strstr(err, "'"), "'%s' parsed", bad[i]);
    climb_shape_parse("4096x4096", &s, err, sizeof err);
    climb_shape_label(&s, lbl, sizeof lbl);
    EXPECT(strcmp(lbl, "4096x4096") == 0);
    climb_shape one = CLIMB_SHAPE1((size_t)1 << 22), other = CLIMB_SHAPE1(1025), two = CLIMB_SHAPE2(1001, 3001);
    climb_shape_label(&one, lbl, sizeof lbl);
    EXPECT(strcmp(lbl, "2^22") == 0);
    climb_shape_label(&other, lbl, sizeof lbl);
    EXPECT(strcmp(lbl, "1025") == 0);
    climb_shape_label(&two, lbl, sizeof lbl);
    EXPECT(strcmp(lbl, "1001x3001") == 0);
    EXPECT(climb_shape_equal(&one, &one) && !climb_shape_equal(&one, &other) && !climb_shape_equal(&one, &two));
}

/* Shapes of more than four dims and a workload's own label format (a CNN layer's seven sizes). */
static void test_many_dims(void)
{
    climb_workload w = {.name = "layer", .dims = {"N", "C", "H", "W", "K", "R", "S"},
                        .shape_format = "N{N} C{C} {H}x{W} K{K} {R}x{S}"};
    const climb_shape s = CLIMB_SHAPEN(7, 64, 64, 56, 56, 64, 3, 3);
    char lbl[128], msg[2000];
    EXPECT(climb_workload_ndims(&w) == 7);
    climb_case_label(&w, &s, lbl, sizeof lbl);
    EXPECT_MSG(strcmp(lbl, "N64 C64 56x56 K64 3x3") == 0, "%s", lbl);
    climb_case_label(&w, &s, lbl, 8); /* cut, still terminated */
    EXPECT(strlen(lbl) == 7 && strncmp(lbl, "N64 C64", 7) == 0);
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(!strstr(msg, "shape_format"), "%s", msg);
    /* a format that leaves a dim out, names no dim, or has a stray brace is a problem of the table */
    const char *bad[][2] = {{"N{N} C{C} {H}x{W} K{K} {R}", "leaves out dim S"},
                            {"N{N} C{C} {H}x{W} K{K} {R}x{S} {Q}", "names no dim"},
                            {"N{N} C{C} {H}x{W} K{K} {R}x{S}}", "closes nothing"},
                            {"N{N C{C} {H}x{W} K{K} {R}x{S}", "names no dim"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w.shape_format = bad[i][0];
        climb_workload_validate(&w, msg, sizeof msg);
        EXPECT_MSG(strstr(msg, bad[i][1]) != NULL, "%s: %s", bad[i][0], msg);
    }
    /* without a format: the dims and the sizes */
    w.shape_format = NULL;
    climb_case_label(&w, &s, lbl, sizeof lbl);
    EXPECT_MSG(strcmp(lbl, "N,C,H,W,K,R,S=64x64x56x56x64x3x3") == 0, "%s", lbl);
}

/* The shapes a run takes when none are named: check's sweep or quick shapes, bench's list or the quick run's main
 * size class (falling back to the bench list), and the table rule that main_shapes and its count go together. */
static void test_default_shapes(void)
{
    const climb_shape bench[] = {CLIMB_SHAPE1(10), CLIMB_SHAPE1(20)}, check[] = {CLIMB_SHAPE1(0), CLIMB_SHAPE1(1),
                                                                                CLIMB_SHAPE1(3)};
    const climb_shape quick[] = {CLIMB_SHAPE1(7)}, main_[] = {CLIMB_SHAPE1(15)}, two[] = {CLIMB_SHAPE2(1, 2)};
    climb_workload w = {.name = "w", .dims = {"n"}, .bench_shapes = bench, .n_bench_shapes = 2, .check_shapes = check,
                        .n_check_shapes = 3, .quick_shapes = quick, .n_quick_shapes = 1};
    int n = -1;
    EXPECT(climb_default_shapes(&w, 0, 0, &n) == bench && n == 2);
    EXPECT(climb_default_shapes(&w, 0, 1, &n) == bench && n == 2); /* no main class: the bench list */
    EXPECT(climb_default_shapes(&w, 1, 0, &n) == check && n == 3);
    EXPECT(climb_default_shapes(&w, 1, 1, &n) == quick && n == 1);
    char msg[2000];
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(!strstr(msg, "main_shapes"), "%s", msg);
    w.main_shapes = main_;
    w.n_main_shapes = 1;
    EXPECT(climb_default_shapes(&w, 0, 1, &n) == main_ && n == 1);
    EXPECT(climb_default_shapes(&w, 0, 0, &n) == bench && n == 2);
    EXPECT(climb_default_shapes(&w, 1, 1, &n) == quick && n == 1); /* check --quick is the quick shapes still */
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(!strstr(msg, "main_shapes"), "%s", msg);
    w.n_main_shapes = 0;
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "main_shapes and n_main_shapes go together"), "%s", msg);
    w.main_shapes = two;
    w.n_main_shapes = 1;
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "main_shapes[0] has 2 sizes"), "%s", msg);
    w.types = CLIMB_TYPE_BIT(CLIMB_U32); /* bench_types: a subset of types */
    w.bench_types = CLIMB_TYPE_BIT(CLIMB_U32);
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(!strstr(msg, "bench_types"), "%s", msg);
    w.bench_types = CLIMB_TYPE_BIT(CLIMB_U64);
    climb_workload_validate(&w, msg, sizeof msg);
    EXPECT_MSG(strstr(msg, "bench_types must be a subset of types"), "%s", msg);
}

/* When sampling stops: at the minimum without a noise target; with one, when the noise is under it, when its
 * estimate holds steady above it, or at the time limit; never before the minimum samples and GPU time. */
static void test_sampler(void)
{
    climb_timing_opts o = climb_timing_defaults();
    o.min_gpu_s = 0;
    climb_sampler s;
    int why = -1, n = 0;
#define FEED(expr, elapsed)                                                                                          \
    do {                                                                                                             \
        memset(&s, 0, sizeof s);                                                                                     \
        why = -1;                                                                                                    \
        for (n = 0; n < 100000 && why < 0; n++)                                                                      \
            why = climb_sampler_add(&s, &o, (expr), 1e-5, (elapsed));                                               \
    } while (0)
    FEED(10.0, 0.0);
    EXPECT(why == CLIMB_STOP_ENOUGH && n == o.min_samples);
    o.max_noise_pct = 0.5;
    FEED(10.0, 0.0);
    EXPECT(why == CLIMB_STOP_NOISE && n == o.min_samples);
    FEED(n % 2 ? 9.0 : 11.0, 0.0); /* a 10% spread: the estimate settles there */
    EXPECT_MSG(why == CLIMB_STOP_STEADY && n % CLIMB_SAMPLER_EVERY == 0 &&
                   n >= CLIMB_SAMPLER_EVERY * CLIMB_SAMPLER_HIST,
               "why %d after %d samples", why, n);
    FEED(n % 2 ? 9.0 : 11.0, n >= 40 ? 2.0 : 0.0); /* the time limit first */
    EXPECT_MSG(why == CLIMB_STOP_TIME && n == 41, "why %d after %d samples", why, n);
    FEED(n < 30 ? (n % 2 ? 5.0 : 15.0) : 10.0, 0.0); /* noisy at first, then steady at 10: the noise falls under 0.5% */
    EXPECT_MSG(why == CLIMB_STOP_NOISE || why == CLIMB_STOP_STEADY, "why %d after %d samples", why, n);
    o.min_gpu_s = 0.5; /* 1e-5 s a sample: 50000 samples before the GPU time is enough */
    o.max_noise_pct = 0;
    FEED(10.0, 0.0);
    EXPECT_MSG(why == CLIMB_STOP_ENOUGH && n >= 49999 && n <= 50001, "why %d after %d samples", why, n);
#undef FEED
}

/* The size classes of `bench --size-class`: S the smallest bench shape by elements, L the largest, M the quick
 * run's main sizes (the bench list without them); a bench's shapes: the class first, then --quick, then the list. */
static void test_size_classes(void)
{
    const climb_shape bench[] = {CLIMB_SHAPE2(64, 64), CLIMB_SHAPE2(8, 8), CLIMB_SHAPE2(100, 1000),
                                 CLIMB_SHAPE2(1000, 100)};
    const climb_shape main_[] = {CLIMB_SHAPE2(32, 32), CLIMB_SHAPE2(16, 64)};
    climb_workload w = {.name = "w", .dims = {"r", "c"}, .bench_shapes = bench, .n_bench_shapes = 4};
    int n = -1;
    EXPECT(climb_size_class_shapes(&w, 'S', &n) == &bench[1] && n == 1);
    EXPECT(climb_size_class_shapes(&w, 'L', &n) == &bench[2] && n == 1); /* the first of two largest */
    EXPECT(climb_size_class_shapes(&w, 'M', &n) == bench && n == 4);
    EXPECT(climb_size_class_shapes(&w, 'X', &n) == NULL && n == 0);
    w.main_shapes = main_;
    w.n_main_shapes = 2;
    EXPECT(climb_size_class_shapes(&w, 'M', &n) == main_ && n == 2);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    EXPECT(climb_bench_shapes(&w, &o, &n) == bench && n == 4);
    o.quick = 1;
    EXPECT(climb_bench_shapes(&w, &o, &n) == main_ && n == 2);
    o.size_class = 'S';
    EXPECT(climb_bench_shapes(&w, &o, &n) == &bench[1] && n == 1);
    w.n_bench_shapes = 0;
    EXPECT(climb_size_class_shapes(&w, 'L', &n) == NULL && n == 0);
}

/* The progress bar: on a terminal a line redrawn in place with the share done and, once a step has finished, the
 * time left; elsewhere a plain line a step; a break ends the bar's line once. */
static void test_progress(void)
{
    char path[] = "/tmp/climb-progress-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT(fd >= 0);
    if (fd < 0)
        return;
    fflush(stderr);
    const int saved = dup(2);
    dup2(fd, 2);
    climb_progress tty = {4, 0, climb_wall_s(), 1, 0}, plain = {3, 0, climb_wall_s(), 0, 0};
    climb_progress_step(&tty, "case a rung x");
    climb_progress_step(&tty, "case a rung y");
    climb_progress_break(&tty);
    climb_progress_break(&tty); /* once */
    climb_progress_step(&plain, "case b rung z");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[2048] = "";
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[got] = '\0';
    if (f)
        fclose(f);
    close(fd);
    EXPECT_MSG(strstr(buf, "\r\033[K[....................]   0% 1/4 0:00  case a rung x"), "%s", buf);
    EXPECT_MSG(strstr(buf, "\r\033[K[#####...............]  25% 2/4 0:00, about 0:00 left  case a rung y\n[1/3]"),
               "%s", buf);
    EXPECT_MSG(strstr(buf, "[1/3] case b rung z\n"), "%s", buf);
    EXPECT(tty.done == 2 && plain.done == 1 && !tty.shown);
    /* the last step done: the bar shown full as it ends (to stdout's null device, unlike the above) */
    climb_progress full = {1, 0, climb_wall_s(), 1, 0};
    fflush(stderr);
    const int saved2 = dup(2), fd2 = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    dup2(fd2, 2);
    climb_progress_step(&full, "the one step");
    climb_progress_break(&full);
    fflush(stderr);
    dup2(saved2, 2);
    close(saved2);
    close(fd2);
    f = fopen(path, "r");
    got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[got] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    EXPECT_MSG(strstr(buf, "\r\033[K[####################] 100% 1/1 0:00\n"), "%s", buf);
}

/* The GPU tests' skip rule (testing.h): no device or no driver skips; a query that fails with a driver present
 * fails the test. */
static void test_skip_rule(void)
{
    char buf[160];
    EXPECT(test_no_gpu_reason(cudaSuccess, 0, buf, sizeof buf) != NULL);
    EXPECT(test_no_gpu_reason(cudaSuccess, 1, buf, sizeof buf) == NULL);
    EXPECT(test_no_gpu_reason(cudaErrorNoDevice, 0, buf, sizeof buf) != NULL);
    EXPECT(test_no_gpu_reason(cudaErrorInitializationError, 0, buf, sizeof buf) == NULL);
    EXPECT(test_no_gpu_reason(cudaErrorDevicesUnavailable, 0, buf, sizeof buf) == NULL);
    EXPECT(test_no_gpu_reason(cudaErrorUnknown, 0, buf, sizeof buf) == NULL);
    /* an old driver skips only where there is no driver library at all */
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    EXPECT((test_no_gpu_reason(cudaErrorInsufficientDriver, 0, buf, sizeof buf) != NULL) == (lib == NULL));
    if (lib)
        dlclose(lib);
}

static void test_names(void)
{
    climb_dtype t;
    EXPECT(climb_dtype_parse("i32", &t) == 0 && t == CLIMB_I32);
    EXPECT(climb_dtype_parse("f32", &t) == 0 && t == CLIMB_F32);
    EXPECT(climb_dtype_parse("f64", &t) == 0 && t == CLIMB_F64);
    EXPECT(climb_dtype_parse("u8", &t) == 0 && t == CLIMB_U8);
    EXPECT(climb_dtype_parse("u32", &t) == 0 && t == CLIMB_U32);
    EXPECT(climb_dtype_parse("f16", &t) == -1);
    EXPECT(climb_dtype_parse("", &t) == -1);
    EXPECT(climb_dtype_size(CLIMB_I32) == 4 && climb_dtype_size(CLIMB_F32) == 4 && climb_dtype_size(CLIMB_U8) == 1 &&
           climb_dtype_size(CLIMB_F64) == 8 && climb_dtype_size(CLIMB_U32) == 4);
    EXPECT(climb_dtype_kind_of(CLIMB_U8) == CLIMB_KIND_UINT && climb_dtype_kind_of(CLIMB_I32) == CLIMB_KIND_SINT &&
           climb_dtype_kind_of(CLIMB_F64) == CLIMB_KIND_FLOAT);
    /* Every type's name parses back to it: the CLI's list comes from the same table. */
    for (int k = 0; k < CLIMB_NTYPES; k++)
        EXPECT(climb_dtype_parse(climb_dtype_name((climb_dtype)k), &t) == 0 && (int)t == k);
    char list[128];
    climb_dtype_list(CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32), list, sizeof list);
    EXPECT(strcmp(list, "i32, f32") == 0);
    climb_dtype_list((1u << CLIMB_NTYPES) - 1, list, sizeof list);
    EXPECT(strcmp(list, "u8, i32, u32, u64, f32, f64") == 0);
    EXPECT(strcmp(climb_ceiling_name(CLIMB_CEIL_SFU), "sfu") == 0);
    EXPECT(strcmp(climb_ceiling_name(CLIMB_CEIL_TENSOR), "tensor") == 0);
    EXPECT(strcmp(climb_ref_mode_name(CLIMB_REF_VENDOR), "vendor") == 0);
    EXPECT(strcmp(climb_rung_kind_name(CLIMB_RUNG_BEST), "best") == 0);

    char lbl[32];
    climb_size_label(lbl, sizeof lbl, (size_t)1 << 22);
    EXPECT(strcmp(lbl, "2^22") == 0);
    climb_size_label(lbl, sizeof lbl, 1025);
    EXPECT(strcmp(lbl, "1025") == 0);
    climb_size_label(lbl, sizeof lbl, 1);
    EXPECT(strcmp(lbl, "1") == 0);

    char slug[64];
    climb_device_slug("NVIDIA H100 80GB HBM3", slug, sizeof slug);
    EXPECT_MSG(strcmp(slug, "h100-80gb-hbm3") == 0, "slug was '%s'", slug);
    climb_device_slug("NVIDIA H200", slug, sizeof slug);
    EXPECT(strcmp(slug, "h200") == 0);
    climb_device_slug("Tesla V100-SXM2-16GB", slug, sizeof slug);
    EXPECT(strcmp(slug, "tesla-v100-sxm2-16gb") == 0);
    climb_device_slug("  ", slug, sizeof slug);
    EXPECT(strcmp(slug, "unknown") == 0);

    EXPECT(climb_fp32_lanes_per_sm(9, 0) == 128);
    EXPECT(climb_fp32_lanes_per_sm(8, 0) == 64);
    EXPECT(climb_fp32_lanes_per_sm(8, 6) == 128);
    EXPECT(climb_fp32_lanes_per_sm(7, 0) == 64);
    EXPECT(climb_fp32_lanes_per_sm(1, 0) == 0);

    /* Host memory guard: a modest buffer passes, one beyond any machine is refused (with a message). */
    EXPECT(climb_host_memory_refuses((size_t)1 << 20, "a test buffer") == 0);
    EXPECT(climb_host_memory_refuses((size_t)1 << 50, "a test buffer") == 1);
}

static void test_selection(void)
{
    climb_case_key a = {CLIMB_I32, CLIMB_SHAPE1(100), 0}, b = a;
    uint64_t base = climb_case_seed(1, &a, 0);
    b.type = CLIMB_F32;
    EXPECT(climb_case_seed(1, &b, 0) != base);
    b = a;
    b.shape.d[0] = 101;
    EXPECT(climb_case_seed(1, &b, 0) != base);
    b = a;
    b.combo = 1;
    EXPECT(climb_case_seed(1, &b, 0) != base);
    b = a;
    b.shape = (climb_shape)CLIMB_SHAPE2(100, 1);
    EXPECT(climb_case_seed(1, &b, 0) != base);
    EXPECT(climb_case_seed(1, &a, 1) != base);
    EXPECT(climb_case_seed(2, &a, 0) != base);
    EXPECT(climb_case_seed(1, &a, 0) == base);

    const climb_workload *w = climb_find_workload("reduce");
    EXPECT(w != NULL);
    EXPECT(climb_find_workload("nosuch") == NULL);
    if (!w)
        return;
    int v = climb_vendor_rung(w);
    EXPECT(v >= 0 && climb_find_rung(w, w->rung(v)->name) == v);
    EXPECT(climb_find_rung(w, "nosuch") == -1);

    climb_run_opts o;
    memset(&o, 0, sizeof o);
    int sel[64];
    EXPECT(climb_select_rungs(w, &o, sel) == w->n_rungs);
    const char *names[2] = {w->rung(climb_best_rung(w))->name, w->rung(v)->name};
    o.rungs = names;
    o.n_rungs = 2;
    EXPECT(climb_select_rungs(w, &o, sel) == 2);
    EXPECT(sel[v] && sel[climb_best_rung(w)]);
    const char *none[1] = {"not_in_this_workload"};
    o.rungs = none;
    o.n_rungs = 1;
    EXPECT(climb_select_rungs(w, &o, sel) == 0);

    EXPECT(climb_select_types(w, &o) == w->types);
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    EXPECT(climb_select_types(w, &o) == CLIMB_TYPE_BIT(CLIMB_F32));
    o.types = CLIMB_TYPE_BIT(CLIMB_U8);
    EXPECT(climb_select_types(w, &o) == 0);
    { /* bench_types: what bench and tune run with no --type; check runs every type; --type wins */
        climb_workload bw = *w;
        bw.types = CLIMB_TYPE_BIT(CLIMB_U32) | CLIMB_TYPE_BIT(CLIMB_U64) | CLIMB_TYPE_BIT(CLIMB_F32);
        bw.bench_types = CLIMB_TYPE_BIT(CLIMB_U32);
        climb_run_opts bo;
        memset(&bo, 0, sizeof bo);
        EXPECT(climb_select_types(&bw, &bo) == bw.types);
        bo.bench_types = 1;
        EXPECT(climb_select_types(&bw, &bo) == CLIMB_TYPE_BIT(CLIMB_U32));
        bo.types = CLIMB_TYPE_BIT(CLIMB_U64) | CLIMB_TYPE_BIT(CLIMB_I32);
        EXPECT(climb_select_types(&bw, &bo) == CLIMB_TYPE_BIT(CLIMB_U64));
        bw.bench_types = 0;
        bo.types = 0;
        EXPECT(climb_select_types(&bw, &bo) == bw.types);
    }

    /* The cases of a run: types x shapes, the run's sizes or the workload's. */
    memset(&o, 0, sizeof o);
    climb_opt_plan plan;
    char err[200];
    EXPECT(climb_opt_plan_init(&plan, w->options, w->n_options, err, sizeof err) == 0);
    climb_case_key *keys;
    int n = climb_cases(w, &o, &plan, w->bench_shapes, w->n_bench_shapes, &keys);
    EXPECT(n == 2 * w->n_bench_shapes && keys[0].type == CLIMB_I32 && keys[n - 1].type == CLIMB_F32);
    free(keys);
    climb_shape mine[3] = {CLIMB_SHAPE1(5), CLIMB_SHAPE1(6), CLIMB_SHAPE1(7)};
    o.shapes = mine;
    o.n_shapes = 3;
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    n = climb_cases(w, &o, &plan, w->bench_shapes, w->n_bench_shapes, &keys);
    EXPECT(n == 3 && keys[2].shape.d[0] == 7 && keys[0].type == CLIMB_F32);
    free(keys);
    climb_opt_plan_free(&plan, NULL);

    /* A generator's option (histogram's dist) runs its first value only when a file is named: one case, not
     * one per distribution; without a file, every value. */
    const climb_workload *hw = &climb_histogram_workload;
    memset(&o, 0, sizeof o);
    EXPECT(climb_opt_plan_init(&plan, hw->options, hw->n_options, err, sizeof err) == 0);
    const int dist = climb_opt_find(hw->options, hw->n_options, "dist");
    const int input = climb_opt_find(hw->options, hw->n_options, "input");
    EXPECT(dist >= 0 && input >= 0 && hw->options[dist].generator && !hw->options[input].generator);
    n = climb_cases(hw, &o, &plan, hw->bench_shapes, hw->n_bench_shapes, &keys);
    EXPECT(n == 5 * hw->n_bench_shapes); /* dist=all: five distributions */
    free(keys);
    char dir[] = "/tmp/climb_core_XXXXXX", path[128], desc[200];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/bytes.txt", dir);
    test_write_text(path, "some bytes to count\n");
    EXPECT(climb_opt_plan_set(&plan, input, path, 0, err, sizeof err) == 0);
    climb_opt_value *fv = &plan.values[input][0];
    EXPECT(hw->load(fv->text, &fv->data, &fv->shape, desc, sizeof desc, err, sizeof err) == 0);
    n = climb_cases(hw, &o, &plan, hw->bench_shapes, hw->n_bench_shapes, &keys);
    EXPECT_MSG(n == 1 && keys[0].shape.d[0] == 20, "%d cases", n);
    free(keys);
    climb_opt_plan_free(&plan, hw->unload);
    unlink(path);
    rmdir(dir);
}

/* Which builds hold code a GPU runs: machine code of its major version up to its minor, PTX up to its
 * capability, arch-specific entries for their own capability alone. */
static void test_archs(void)
{
    const char *fallback = "80-real;86-real;89-real;90";
    EXPECT(climb_archs_cover(fallback, 8, 0) && climb_archs_cover(fallback, 8, 6) && climb_archs_cover(fallback, 8, 7));
    EXPECT(climb_archs_cover(fallback, 8, 9) && climb_archs_cover(fallback, 9, 0));
    EXPECT(climb_archs_cover(fallback, 10, 0) && climb_archs_cover(fallback, 12, 0)); /* PTX of sm_90 */
    EXPECT(!climb_archs_cover(fallback, 7, 5));
    EXPECT(climb_archs_cover("90", 9, 0) && climb_archs_cover("90", 12, 1) && !climb_archs_cover("90", 8, 9));
    EXPECT(climb_archs_cover("90-real", 9, 0) && !climb_archs_cover("90-real", 10, 0));
    EXPECT(!climb_archs_cover("86-real", 8, 0) && climb_archs_cover("80-real", 8, 6));
    EXPECT(climb_archs_cover("90a-real", 9, 0) && !climb_archs_cover("90a-real", 10, 0));
    EXPECT(climb_archs_cover("75-virtual", 8, 0) && !climb_archs_cover("80-virtual", 7, 5));
    EXPECT(climb_archs_cover("80;90", 9, 0) && !climb_archs_cover("", 9, 0) && !climb_archs_cover("native", 9, 0));
}

int main(void)
{
    test_archs();
    test_rng();
    test_stats();
    test_validate();
    test_compare();
    test_fill();
    test_shapes();
    test_many_dims();
    test_default_shapes();
    test_size_classes();
    test_sampler();
    test_progress();
    test_skip_rule();
    test_names();
    test_selection();
    return test_finish("test_cpu_core");
}
