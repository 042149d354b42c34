/* CPU tests of the matrix addition's reference: element by element in the type, the padding untouched, f32
 * rounding as the GPU's (one IEEE addition). */
#include <math.h>
#include <string.h>

#include "workloads/matadd.h"
#include "testing.h"

int main(void)
{
    /* 2 x 3 with ld 4: the fourth column is padding and must stay as it was */
    const float a[8] = {1, 2, 3, -9, 4.5f, -5, 6, -9}, b[8] = {10, 20, 30, -9, 0.25f, 5, -6, -9};
    float c[8];
    for (int k = 0; k < 8; k++)
        c[k] = 42;
    climb_matadd_ref(CLIMB_F32, a, b, c, 2, 3, 4);
    const float want[8] = {11, 22, 33, 42, 4.75f, 0, 0, 42};
    EXPECT(memcmp(c, want, sizeof c) == 0);
    /* f32 rounds each sum once: 1 + 2^-24 is 1 in f32, not in f64 */
    const float x = 1, y = 0x1p-24f;
    float z;
    climb_matadd_ref(CLIMB_F32, &x, &y, &z, 1, 1, 1);
    EXPECT(z == 1.0f);
    const double xd = 1, yd = 0x1p-24;
    double zd;
    climb_matadd_ref(CLIMB_F64, &xd, &yd, &zd, 1, 1, 1);
    EXPECT(zd == 1.0 + 0x1p-24);
    /* empty shapes write nothing */
    z = 5;
    climb_matadd_ref(CLIMB_F32, &x, &y, &z, 0, 1, 1);
    climb_matadd_ref(CLIMB_F32, &x, &y, &z, 1, 0, 1);
    EXPECT(z == 5);
    /* the workload's table */
    const climb_workload *w = &climb_matadd_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(w) >= 0 && climb_vendor_rung(w) == 0);
    return test_finish("test_cpu_matadd");
}
