/* CPU tests of the 7-point stencil's reference: each weight applied to its own neighbour (distinct weights and a
 * grid whose values tell the neighbours apart), boundaries copied, the tolerance, and the workload's table. */
#include <math.h>
#include <string.h>

#include "workloads/stencil.h"
#include "testing.h"

int main(void)
{
    /* 4 x 3 x 3: the one interior point is (x, y, z) = (1..2, 1, 1); value = x + 10 y + 100 z */
    const size_t nx = 4, ny = 3, nz = 3;
    double in[36], out[36];
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++)
                in[(z * ny + y) * nx + x] = (double)x + 10.0 * y + 100.0 * z;
    const float c[7] = {1, 2, 3, 5, 7, 11, 13};
    climb_stencil_ref_step(in, out, nx, ny, nz, c);
    const size_t p = (1 * ny + 1) * nx + 1; /* (1, 1, 1): value 111 */
    EXPECT(out[p] == 1 * 111.0 + 2 * 110.0 + 3 * 112.0 + 5 * 101.0 + 7 * 121.0 + 11 * 11.0 + 13 * 211.0);
    EXPECT(out[p + 1] == 1 * 112.0 + 2 * 111.0 + 3 * 113.0 + 5 * 102.0 + 7 * 122.0 + 11 * 12.0 + 13 * 212.0);
    /* every boundary point copied */
    int copied = 1;
    for (size_t i = 0; i < 36; i++)
        if (i != p && i != p + 1)
            copied &= out[i] == in[i];
    EXPECT(copied);
    /* a grid with no interior (a side of 2) is copied whole; one point too */
    double two_in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, two_out[8];
    climb_stencil_ref_step(two_in, two_out, 2, 2, 2, c);
    EXPECT(memcmp(two_in, two_out, sizeof two_in) == 0);
    /* the tolerance: linear in the steps and the magnitude */
    EXPECT(climb_stencil_tolerance(1, 1.0) == 9.1 * 0x1p-24);
    EXPECT(climb_stencil_tolerance(4, 2.0) == 8 * climb_stencil_tolerance(1, 1.0));
    const climb_workload *w = &climb_stencil_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(w) >= 0 && climb_bound_rung(w) == 0);
    return test_finish("test_cpu_stencil");
}
