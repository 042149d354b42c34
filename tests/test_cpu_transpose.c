/* CPU test of the transpose's own logic: the CPU reference (padded rows, odd shapes, both element sizes, the
 * padding of out untouched) and the tuning policy (the defaults are candidates on a CC 9.0 device, the device
 * rules refuse what cannot launch, the parameters land where the launcher reads them; the tuning classes by type
 * and size against the L2, and the defaults of each). */
#include <string.h>

#include "base/rng.h"
#include "workloads/transpose.h"
#include "testing.h"

static void test_reference(void)
{
    /* A 2 x 3 matrix with rows 4 apart: out is 3 x 2 with rows 3 apart. */
    const float in[8] = {1, 2, 3, -1, 4, 5, 6, -1};
    float out[9];
    for (int i = 0; i < 9; i++)
        out[i] = 99;
    climb_transpose_ref(in, 4, out, 3, 2, 3, sizeof(float));
    const float want[9] = {1, 4, 99, 2, 5, 99, 3, 6, 99};
    EXPECT(memcmp(out, want, sizeof want) == 0);
    /* Larger and odd, doubles: every element where it belongs, across the 64 x 64 blocks. */
    climb_rng r;
    climb_rng_seed(&r, 3);
    enum { ROWS = 131, COLS = 70, LDI = 73, LDO = 140 };
    static double a[ROWS * LDI], t[COLS * LDO];
    climb_rng_fill(&r, CLIMB_F64, a, ROWS * LDI, -1, 1);
    memset(t, 0, sizeof t);
    climb_transpose_ref(a, LDI, t, LDO, ROWS, COLS, sizeof(double));
    int ok = 1;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            ok &= t[j * LDO + i] == a[i * LDI + j];
    for (int j = 0; j < COLS; j++)
        for (int i = ROWS; i < LDO; i++)
            ok &= t[j * LDO + i] == 0;
    EXPECT(ok);
    climb_transpose_ref(a, LDI, t, LDO, 0, COLS, sizeof(double)); /* empty: nothing written, no crash */
}

static void test_policy(void)
{
    const climb_tuning *tn = climb_transpose_workload.tuning;
    EXPECT(tn && tn->n_params == 4 && climb_tuning_count(tn) == 48);
    climb_device_info d;
    memset(&d, 0, sizeof d);
    d.cc_major = 9;
    d.max_threads_per_sm = 2048;
    d.l2_bytes = 50 << 20; /* an H100's: a matrix is large from 200 MiB read and written */
    const climb_dtype types[2] = {CLIMB_F32, CLIMB_F64};
    for (int cc = 8; cc <= 9; cc++)
        for (int k = 0; k < 2; k++)
            for (int big = 0; big < 2; big++) {
                d.cc_major = cc;
                int v[CLIMB_MAX_TUNABLES];
                const climb_shape large = CLIMB_SHAPE2(8192, 8192), small = CLIMB_SHAPE2(2048, 4096);
                climb_tuning_key key = {big ? large : small, types[k], NULL};
                EXPECT(tn->defaults(&d, &key, v) != NULL);
                char buf[200];
                EXPECT_MSG(climb_tuning_check(tn, &d, v, buf, sizeof buf) == NULL, "%s", buf);
                climb_transpose_tuning t;
                climb_transpose_set_tuning(&t, v);
                EXPECT(t.tile == v[0] && t.rows == v[1] && t.vec == v[2] && t.diagonal == v[3]);
                if (cc == 8) /* not measured there: 16-byte vectors, 32 x 32 tiles */
                    EXPECT(t.tile == 32 && t.rows == 8 && (size_t)t.vec * climb_dtype_size(types[k]) == 16);
                else /* the H100's measured sets: 64 x 64 tiles for a large f32 matrix alone */
                    EXPECT(t.tile == (big && types[k] == CLIMB_F32 ? 64 : 32) && t.rows == 8 && t.vec == 1 &&
                           !t.diagonal);
            }
    d.cc_major = 9;

    /* The tuning classes: type, then large or small against four times the L2 (in + out bytes). */
    const climb_workload *w = &climb_transpose_workload;
    EXPECT(climb_tuning_has_classes(w));
    static const struct {
        long rows, cols;
        climb_dtype t;
        const char *cls;
    } cases[] = {{8192, 8192, CLIMB_F32, "f32,large"}, {4096, 4096, CLIMB_F32, "f32,small"},
                 {5120, 5120, CLIMB_F32, "f32,small"}, /* 200 MiB exactly: not past the line */
                 {5120, 5121, CLIMB_F32, "f32,large"}, {4096, 4096, CLIMB_F64, "f64,large"},
                 {1001, 3001, CLIMB_F64, "f64,small"}, {0, 0, CLIMB_F32, "f32,small"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        climb_tuning_key key = {CLIMB_SHAPE2(cases[i].rows, cases[i].cols), cases[i].t, NULL};
        char cls[64];
        climb_tuning_class(w, &key, &d, cls, sizeof cls);
        EXPECT_MSG(strcmp(cls, cases[i].cls) == 0, "%ld x %ld: %s, want %s", cases[i].rows, cases[i].cols, cls,
                   cases[i].cls);
    }
    d.l2_bytes = 60 << 20; /* an H200's L2: 5600 x 5600 f32 (251 MB) is on the other side */
    climb_tuning_key h200 = {CLIMB_SHAPE2(5600, 5600), CLIMB_F32, NULL};
    char cls[64];
    climb_tuning_class(w, &h200, &d, cls, sizeof cls);
    EXPECT_MSG(strcmp(cls, "f32,small") == 0, "%s", cls);
    d.l2_bytes = 50 << 20;
    climb_tuning_class(w, &h200, &d, cls, sizeof cls);
    EXPECT_MSG(strcmp(cls, "f32,large") == 0, "%s", cls);
    int big[4] = {64, 32, 1, 0}, tall[4] = {32, 32, 1, 1}, thin[4] = {32, 4, 4, 0};
    char buf[200];
    const char *why = climb_tuning_check(tn, &d, big, buf, sizeof buf);
    EXPECT(why && strstr(why, "1024 threads"));
    EXPECT(climb_tuning_check(tn, &d, tall, buf, sizeof buf) == NULL);
    EXPECT(climb_tuning_check(tn, &d, thin, buf, sizeof buf) == NULL); /* 8 x 4: one warp */
    int rejected = 0;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_values(tn, i, v);
        rejected += climb_tuning_check(tn, &d, v, buf, sizeof buf) != NULL;
    }
    EXPECT(rejected == 2); /* 64 x 1 x 32 rows, with and without the diagonal order */
}

int main(void)
{
    test_reference();
    test_policy();
    return test_finish("test_cpu_transpose");
}
