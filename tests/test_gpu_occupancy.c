/* GPU: the calculator's table row for this device agrees with what the device reports, and for every kernel
 * in the registry (every workload - the test workload too - every rung and type, and every tuning candidate of
 * each best rung) the calculator's prediction equals cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "lib/occupancy_check.h"
#include "core/workload.h"
#include "workloads/affine.h"
#include "testing.h"

static int checked = 0;

/* rejected: the tuning is a candidate the policy rejects on this device; its kernel may not be compiled at all (a
 * block of more than 1024 threads), and then listing none is right. */
static void check_kernels(const climb_device_info *d, const climb_workload *w, int rung, const int *tuning,
                          int rejected)
{
    const climb_rung_info *ri = w->rung(rung);
    if (!ri->kernels) {
        EXPECT_MSG(ri->kind == CLIMB_RUNG_VENDOR || ri->kind == CLIMB_RUNG_BOUND, "%s %s lists no kernels", w->name,
                   ri->name);
        return;
    }
    for (int t = 0; t < CLIMB_NTYPES; t++) {
        if (!(w->types & CLIMB_TYPE_BIT(t)))
            continue;
        int n = ri->kernels((climb_dtype)t, d, tuning, NULL, 0); /* how many, then all of them */
        if (n == 0 && (rejected || ri->kernels == climb_no_kernels))
            continue;
        EXPECT_MSG(n > 0, "%s %s %s lists no kernels", w->name, ri->name, climb_dtype_name((climb_dtype)t));
        climb_kernel_desc *ks = calloc((size_t)(n > 0 ? n : 1), sizeof *ks);
        EXPECT(ri->kernels((climb_dtype)t, d, tuning, ks, n) == n);
        for (int k = 0; k < n; k++) {
            climb_occ_check c;
            EXPECT(ks[k].func != NULL && ks[k].block_threads > 0);
            EXPECT(climb_occupancy_check_kernel(d, &ks[k], &c) == 0);
            EXPECT_MSG(c.predicted.active_blocks == c.runtime_blocks,
                       "%s (%d threads, %d regs, %zu B): calculator %d blocks/SM, runtime %d", ks[k].name,
                       ks[k].block_threads, c.regs, c.static_smem, c.predicted.active_blocks, c.runtime_blocks);
            /* Every block the tuner may launch fits one SM; a rejected candidate's may not. */
            EXPECT(c.runtime_blocks >= 1 || (rejected && ks[k].block_threads > 1024));
            checked++;
        }
        free(ks);
    }
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_register_workload(&climb_affine_workload) == 0);
    climb_device_info d;
    EXPECT(climb_device_query(0, &d) == 0);
    char msg[1024];
    int diffs = climb_occupancy_check_device(&d, msg, sizeof msg);
    EXPECT_MSG(diffs == 0, "CC %d.%d: %s", d.cc_major, d.cc_minor, msg);

    int n_w;
    const climb_workload *const *all = climb_workloads(&n_w);
    for (int i = 0; i < n_w; i++) {
        const climb_workload *w = all[i];
        const int best = climb_best_rung(w);
        int defaults[CLIMB_MAX_TUNABLES] = {0};
        if (w->tuning) {
            climb_tuning_key key = {w->bench_shapes[0], CLIMB_F32, NULL};
            climb_tuning_defaults(w->tuning, &d, &key, defaults);
        }
        for (int r = 0; r < w->n_rungs; r++)
            check_kernels(&d, w, r, defaults, 0);
        const climb_tuning *tn = w->tuning;
        if (!tn)
            continue;
        /* Every candidate, also those the policy skips on this GPU. */
        for (long c = 0; c < climb_tuning_count(tn); c++) {
            int v[CLIMB_MAX_TUNABLES];
            climb_tuning_values(tn, c, v);
            check_kernels(&d, w, best, v, tn->rejects && tn->rejects(&d, v) != NULL);
        }
    }
    printf("%d kernels: calculator == runtime\n", checked);
    EXPECT(checked >= 2 * 8 + 2 * 4 * 4 + 8 * 4);
    return test_finish("test_gpu_occupancy");
}
