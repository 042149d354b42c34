/* CPU: the bandwidth workload's table, and the closed form its verification uses for the overlap kernel's
 * arithmetic (work rounds of x = A x + B mod 2^32 as one a x + b), against the rounds done one by one. */
#include <string.h>

#include "base/rng.h"
#include "workloads/bandwidth.h"
#include "testing.h"

static void test_rounds(void)
{
    climb_rng r;
    climb_rng_seed(&r, 11);
    const unsigned works[] = {0, 1, 2, 3, 7, 64, 512, 1000, 65536};
    for (size_t k = 0; k < sizeof works / sizeof works[0]; k++) {
        uint32_t a, b;
        climb_bw_rounds(works[k], &a, &b);
        for (int t = 0; t < 50; t++) {
            uint32_t x = (uint32_t)climb_rng_next(&r), y = x;
            for (unsigned i = 0; i < works[k]; i++)
                y = y * 1664525u + 1013904223u;
            EXPECT_MSG(a * x + b == y, "work %u x %u", works[k], x);
        }
    }
}

static void test_table(void)
{
    const climb_workload *w = &climb_bandwidth_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_bound_rung(w) == 1 && climb_first_ladder_rung(w) == 2);
    EXPECT(strcmp(w->rung(climb_best_rung(w))->name, "pinned") == 0);
    EXPECT(w->items_unit && strcmp(w->items_rate, "GB/s") == 0);
    const climb_sweep *s = climb_find_sweep(w, "sizes");
    EXPECT(s && s->args == NULL && s->log_x && strcmp(s->x, "bytes") == 0);
    EXPECT(w->bench_shapes[0].d[0] == 1024 && w->bench_shapes[w->n_bench_shapes - 1].d[0] == 1u << 30);
}

int main(void)
{
    test_rounds();
    test_table();
    return test_finish("test_cpu_bandwidth");
}
