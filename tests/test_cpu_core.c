/* CPU tests of the shared harness pieces: random inputs, timing statistics, validation, names, slugs,
 * per-case seeds, registry look-ups and rung selection. */
#include <math.h>
#include <string.h>

#include "core/device.h"
#include "core/harness.h"
#include "core/rng.h"
#include "core/timing.h"
#include "core/validate.h"
#include "core/workload.h"
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

static void test_validate(void)
{
    char msg[512];
    int32_t want[8] = {1, 2, 7, 4, 5, 6, 7, 8}, got[8] = {1, 2, 5, 4, 5, 6, 7, 8};
    EXPECT(climb_verify_i32(want, want, 8, msg, sizeof msg) == 0);
    EXPECT(climb_verify_i32(got, want, 8, msg, sizeof msg) == 1);
    EXPECT_MSG(strstr(msg, "[2] = 5, expected 7") != NULL, "message was '%s'", msg);
    EXPECT(strstr(msg, "1 of 8") != NULL);
    int32_t zeros[8] = {0};
    EXPECT(climb_verify_i32(zeros, want, 8, msg, sizeof msg) == 8);
    EXPECT_MSG(strstr(msg, "and 3 more") != NULL, "message was '%s'", msg);
    /* A tiny buffer truncates but never overflows. */
    char tiny[8];
    EXPECT(climb_verify_i32(zeros, want, 8, tiny, sizeof tiny) == 8);
    EXPECT(strlen(tiny) < sizeof tiny);

    double wf[3] = {1.0, -2.0, 3.0};
    float gf[3] = {1.0f, -2.0f, 3.0f};
    EXPECT(climb_verify_f32(gf, wf, NULL, 1e-6, 3, msg, sizeof msg) == 0);
    gf[1] = -2.001f;
    EXPECT(climb_verify_f32(gf, wf, NULL, 1e-2, 3, msg, sizeof msg) == 0);
    EXPECT(climb_verify_f32(gf, wf, NULL, 1e-4, 3, msg, sizeof msg) == 1);
    double tol[3] = {0, 1e-2, 0};
    EXPECT(climb_verify_f32(gf, wf, tol, 0, 3, msg, sizeof msg) == 0);
    gf[1] = nanf("");
    EXPECT(climb_verify_f32(gf, wf, NULL, 1e9, 3, msg, sizeof msg) == 1); /* NaN never passes */
    gf[1] = INFINITY;
    EXPECT(climb_verify_f32(gf, wf, NULL, 1e30, 3, msg, sizeof msg) == 1);
    double wn[1] = {NAN};
    float gn[1] = {NAN};
    EXPECT(climb_verify_f32(gn, wn, NULL, 0, 1, msg, sizeof msg) == 0);
}

static void test_names(void)
{
    climb_dtype t;
    EXPECT(climb_dtype_parse("i32", &t) == 0 && t == CLIMB_I32);
    EXPECT(climb_dtype_parse("f32", &t) == 0 && t == CLIMB_F32);
    EXPECT(climb_dtype_parse("f64", &t) == -1);
    EXPECT(climb_dtype_parse("", &t) == -1);
    EXPECT(climb_dtype_size(CLIMB_I32) == 4 && climb_dtype_size(CLIMB_F32) == 4);
    EXPECT(strcmp(climb_ceiling_name(CLIMB_CEIL_READ), "read") == 0);
    EXPECT(strcmp(climb_ceiling_name(CLIMB_CEIL_COPY), "copy") == 0);
    EXPECT(strcmp(climb_ceiling_name(CLIMB_CEIL_FFMA), "ffma") == 0);

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
    EXPECT(climb_case_seed(1, CLIMB_I32, 100, 0) != climb_case_seed(1, CLIMB_F32, 100, 0));
    EXPECT(climb_case_seed(1, CLIMB_I32, 100, 0) != climb_case_seed(1, CLIMB_I32, 101, 0));
    EXPECT(climb_case_seed(1, CLIMB_I32, 100, 0) != climb_case_seed(1, CLIMB_I32, 100, 1));
    EXPECT(climb_case_seed(1, CLIMB_I32, 100, 0) != climb_case_seed(2, CLIMB_I32, 100, 0));
    EXPECT(climb_case_seed(7, CLIMB_I32, 100, 3) == climb_case_seed(7, CLIMB_I32, 100, 3));

    const climb_workload *w = climb_find_workload("reduce");
    EXPECT(w != NULL);
    EXPECT(climb_find_workload("nosuch") == NULL);
    if (!w)
        return;
    EXPECT(climb_find_rung(w, "cub_device_reduce") == 0);
    EXPECT(climb_find_rung(w, "nosuch") == -1);

    climb_run_opts o;
    memset(&o, 0, sizeof o);
    int sel[64];
    EXPECT(climb_select_rungs(w, &o, sel) == w->n_rungs);
    o.rungs[o.n_rungs++] = "reduce_seq_addressing";
    o.rungs[o.n_rungs++] = "cub_device_reduce";
    EXPECT(climb_select_rungs(w, &o, sel) == 2);
    EXPECT(sel[0] && sel[climb_find_rung(w, "reduce_seq_addressing")] && !sel[1]);
    o.n_rungs = 0;
    o.rungs[o.n_rungs++] = "not_in_this_workload";
    EXPECT(climb_select_rungs(w, &o, sel) == 0);

    EXPECT(climb_select_types(w, &o) == w->types);
    o.types = CLIMB_TYPE_BIT(CLIMB_F32);
    EXPECT(climb_select_types(w, &o) == CLIMB_TYPE_BIT(CLIMB_F32));
}

int main(void)
{
    test_rng();
    test_stats();
    test_validate();
    test_names();
    test_selection();
    return test_finish("test_cpu_core");
}
