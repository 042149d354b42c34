/* CPU tests of the reduction workload: the references (exact i32 wrap-around, double accumulation for
 * f32), the tolerance, and the registry table that the CLI, tests, docs and reports read. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workloads/reduce/reduce.h"
#include "testing.h"

static void test_reference_i32(void)
{
    int32_t a[] = {1, 2, 3};
    EXPECT(climb_reduce_ref_i32(a, 3) == 6);
    EXPECT(climb_reduce_ref_i32(a, 0) == 0);
    int32_t b[] = {INT32_MAX, 1};
    EXPECT(climb_reduce_ref_i32(b, 2) == INT32_MIN); /* wraps like the GPU's 32-bit add */
    int32_t c[] = {INT32_MIN, -1};
    EXPECT(climb_reduce_ref_i32(c, 2) == INT32_MAX);
    /* Against a plain 32-bit unsigned accumulation on random full-range values. */
    enum { N = 100003 };
    int32_t *x = malloc(N * sizeof *x);
    climb_rng r;
    climb_rng_seed(&r, 99);
    climb_rng_fill_i32(&r, x, N, INT32_MIN, INT32_MAX);
    uint32_t u = 0;
    for (int i = 0; i < N; i++)
        u += (uint32_t)x[i];
    EXPECT(climb_reduce_ref_i32(x, N) == (int32_t)u);
    /* One changed element changes the sum: what makes full-range inputs a sharp check. */
    x[N / 2] ^= 1;
    EXPECT(climb_reduce_ref_i32(x, N) != (int32_t)u);
    free(x);
}

static void test_reference_f32(void)
{
    /* 2^24 + 1 ones: a float accumulator stalls at 2^24, the double reference does not. */
    size_t n = (1u << 24) + 1;
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = 1.0f;
    double abs_sum;
    EXPECT(climb_reduce_ref_f32(x, n, &abs_sum) == (double)n);
    EXPECT(abs_sum == (double)n);
    float f = 0;
    for (size_t i = 0; i < n; i++)
        f += x[i];
    EXPECT(f == 16777216.0f); /* the stall the reference avoids */
    free(x);

    float y[] = {0.5f, -1.25f, 2.0f};
    EXPECT(climb_reduce_ref_f32(y, 3, &abs_sum) == 1.25);
    EXPECT(abs_sum == 3.75);
    EXPECT(climb_reduce_ref_f32(y, 0, NULL) == 0.0);

    /* Tolerance scales with sum |x| and is tight enough to see one lost element at small sizes. */
    EXPECT(fabs(climb_reduce_tol_f32(1000, 500.0) - (5e-4 + 1e-6)) < 1e-12);
    EXPECT(climb_reduce_tol_f32(1025, 512.0) < 0.01);
}

static void test_registry(void)
{
    const climb_workload *w = &climb_reduce_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(strcmp(w->name, "reduce") == 0 && climb_workload_ndims(w) == 1);
    /* The vendor first, the best marked, Harris's figures on the rungs the text has (kernels 1-7). */
    EXPECT(w->rung(0)->kind == CLIMB_RUNG_VENDOR && w->rung(0)->kernels == NULL);
    int best = climb_best_rung(w), published = 0;
    EXPECT(best > 0 && w->rung(best)->kind == CLIMB_RUNG_BEST);
    for (int i = 1; i < w->n_rungs; i++) {
        EXPECT(w->rung(i)->kind != CLIMB_RUNG_VENDOR);
        EXPECT(strncmp(w->rung(i)->name, "reduce_", 7) == 0);
        published += w->rung(i)->published_us > 0 && w->rung(i)->published_rate > 0;
    }
    EXPECT(published == 7);
    EXPECT(w->published && w->published->type == CLIMB_I32 && w->published->shape.d[0] == ((size_t)1 << 22));
    EXPECT(w->types == (CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32)));
    EXPECT(w->n_bench_shapes == 2 && w->bench_shapes[0].d[0] == (size_t)1 << 22 &&
           w->bench_shapes[1].d[0] == (size_t)1 << 28);
    /* The sweep holds 0, 1, odd sizes, non-multiples of every block's tile, and a multi-level size. */
    int has0 = 0, has1 = 0, odd_big = 0, beyond = 0;
    for (int i = 0; i < w->n_check_shapes; i++) {
        size_t s = w->check_shapes[i].d[0];
        has0 |= s == 0;
        has1 |= s == 1;
        odd_big |= s > 2048 && (s % 2) == 1;
        beyond |= s > ((size_t)1 << 22);
    }
    EXPECT(has0 && has1 && odd_big && beyond);
    EXPECT(w->check_max_offset >= 3 && w->n_quick_shapes >= 2);
    EXPECT(w->n_options == 0 && w->extra_ceiling == CLIMB_CEIL_NONE && w->modifies == NULL);
}


/* reduce's tuning policy (moved here from the wisdom test: the policy is the workload's own) */
static void test_reduce_policy(void)
{
    const climb_workload *w = &climb_reduce_workload;
    const climb_tuning *tn = w->tuning;
    EXPECT(tn && tn->n_params == 3 && !tn->candidates);
    EXPECT(climb_best_rung(w) >= 0 && w->rung(climb_best_rung(w))->kind == CLIMB_RUNG_BEST);
    int v[3];
    char buf[200];
    climb_tuning_key key = {CLIMB_SHAPE1(1 << 22), CLIMB_I32, NULL};
    climb_device_info h200 = test_device("NVIDIA H200", 9, 0, 2048, 13000);
    EXPECT(strstr(tn->defaults(&h200, &key, v), "CC 9.x") != NULL);
    EXPECT(v[0] == 512 && v[1] == 4 && v[2] == 4);
    EXPECT(climb_tuning_check(tn, &h200, v, buf, sizeof buf) == NULL);
    /* The same defaults for every case: reduce's policy does not depend on n or type. */
    int u[3];
    climb_tuning_key other = {CLIMB_SHAPE1(1000), CLIMB_F32, NULL};
    tn->defaults(&h200, &other, u);
    EXPECT(memcmp(u, v, sizeof v) == 0);
    climb_device_info ada = test_device("NVIDIA L4", 8, 9, 1536, 13000);
    tn->defaults(&ada, &key, v);
    EXPECT(v[0] == 512 && v[1] == 3 && v[2] == 4); /* 1536 threads: 3 blocks of 512 */
    EXPECT(climb_tuning_check(tn, &ada, v, buf, sizeof buf) == NULL);
    int wave2[3] = {256, 8, 4};
    EXPECT(climb_tuning_check(tn, &ada, wave2, buf, sizeof buf) != NULL &&
           climb_tuning_check(tn, &h200, wave2, buf, sizeof buf) == NULL);
    /* Values that are not candidates are refused with the list the message is made from. */
    int odd[3] = {300, 1, 4};
    const char *why = climb_tuning_check(tn, &h200, odd, buf, sizeof buf);
    EXPECT_MSG(why && strcmp(why, "block is not one of 128, 256, 512, 1024") == 0, "%s", why ? why : "NULL");
    int odd_vecs[3] = {256, 1, 3};
    why = climb_tuning_check(tn, &h200, odd_vecs, buf, sizeof buf);
    EXPECT_MSG(why && strcmp(why, "vecs is not one of 1, 2, 4, 8") == 0, "%s", why ? why : "NULL");
    /* Every default is a candidate on the device it is for, across the calculator's architectures. */
    int count = 0, valid = 0;
    for (int t = 1024; t <= 2048; t += 512) {
        climb_device_info d = test_device("x", 8, 0, t, 13000);
        tn->defaults(&d, &key, v);
        count++;
        valid += climb_tuning_check(tn, &d, v, buf, sizeof buf) == NULL;
    }
    EXPECT(count == valid);
    /* The enumeration the tuner and the tests use: every combination once, first parameter slowest. */
    EXPECT(climb_tuning_count(tn) == 4 * 8 * 4);
    climb_tuning_values(tn, 0, v);
    EXPECT(v[0] == 128 && v[1] == 1 && v[2] == 1);
    climb_tuning_values(tn, 1, v);
    EXPECT(v[0] == 128 && v[1] == 1 && v[2] == 2);
    climb_tuning_values(tn, climb_tuning_count(tn) - 1, v);
    EXPECT(v[0] == 1024 && v[1] == 16 && v[2] == 8);
    int w3[3] = {512, 4, 4};
    climb_tuning_format(tn, w3, buf, sizeof buf);
    EXPECT(strcmp(buf, "block=512 blocks_per_sm=4 vecs=4") == 0);
}


int main(void)
{
    test_reference_i32();
    test_reference_f32();
    test_registry();
    test_reduce_policy();
    return test_finish("test_cpu_reduce");
}
