/* CPU: the sgemm_gpus workload's table (the vendor row NCCL's and cuBLAS's, the one-GPU row first of the ladder,
 * one GPU to eight, the weak-scaling run), and its host memory rule. */
#include <string.h>

#include "core/harness.h"
#include "device/collective.h"
#include "workloads/sgemm_gpus.h"
#include "testing.h"

int main(void)
{
    const climb_workload *w = &climb_sgemm_gpus_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_spans_devices(w) && w->min_devices == 1 && w->max_devices >= 8);
    EXPECT(climb_vendor_rung(w) == 0 && strcmp(w->rung(0)->name, "nccl_cublas") == 0 && w->rung(0)->refuses);
    const int best = climb_best_rung(w);
    EXPECT(best > 0 && strcmp(w->rung(best)->name, "sgemm_gpus_best") == 0);
    EXPECT(strcmp(w->rung(1)->name, "one_gpu") == 0 && w->rung(1)->kind == CLIMB_RUNG_LADDER);
    EXPECT(w->ref_cost && w->ref_cost_limit > 0 && w->rung_counts);
    /* 16384^3: A, B and the product's download on the host, 3 GiB */
    const climb_shape big = CLIMB_SHAPE3(16384, 16384, 16384);
    EXPECT(w->case_bytes(&big, CLIMB_F32, NULL) == 3.0 * 4 * 16384.0 * 16384.0);
    /* SUMMA's grid and panels: P = rows x columns, rows the largest divisor up to the square root; the panels cover
     * k in order, each inside one of A's column chunks and one of B's row chunks, at most rows + columns of them */
    const int want_rows[10] = {0, 1, 1, 1, 2, 1, 2, 1, 2, 3};
    for (int P = 1; P <= 9; P++) {
        int gr = 0, gc = 0;
        climb_summa_grid(P, &gr, &gc);
        EXPECT_MSG(gr * gc == P && gr == want_rows[P], "P=%d: %d x %d", P, gr, gc);
        const size_t ks[] = {0, 1, 2, 3, 5, 17, 100};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            size_t p[20];
            const int n = climb_summa_panels(ks[i], gr, gc, p);
            int ok = n <= gr + gc && p[0] == 0 && p[n] == ks[i] && (n > 0 || ks[i] == 0);
            for (int t = 0; t < n && ok; t++) {
                ok &= p[t + 1] > p[t];
                ok &= climb_chunk_holding(ks[i], gc, p[t]) == climb_chunk_holding(ks[i], gc, p[t + 1] - 1);
                ok &= climb_chunk_holding(ks[i], gr, p[t]) == climb_chunk_holding(ks[i], gr, p[t + 1] - 1);
            }
            EXPECT_MSG(ok, "P=%d (%d x %d), k=%zu: %d panels", P, gr, gc, ks[i], n);
        }
    }
    size_t p6[8];
    EXPECT(climb_summa_panels(6, 2, 3, p6) == 4 && p6[1] == 2 && p6[2] == 3 && p6[3] == 4 && p6[4] == 6); /* cuts at 2, 3, 4 */
    return test_finish("test_cpu_sgemm_gpus");
}
