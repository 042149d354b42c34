/* A matrix the SpMV tests share (test_cpu_spmv, test_gpu_spmv): 1000 x 1000 with nonzeros only in rows 300 .. 399
 * (r % 5 each, columns r .. r + 4) and row 999 (100, every tenth column), so that of the windows of 256 rows the
 * first and the third hold no nonzero, the second rows of 0 to 4 (20 of each length) and the last one long row. The
 * caller's arrays hold it (rp 1001 entries, ci and v 600). */
#ifndef CLIMB_TESTS_SPMV_FIXTURE_H
#define CLIMB_TESTS_SPMV_FIXTURE_H

#include "io/mtx.h"

static inline climb_csr spmv_fixture_empty_windows(int32_t rp[1001], int32_t ci[600], double v[600])
{
    int32_t n = 0;
    for (int32_t r = 0; r < 1000; r++) {
        rp[r] = n;
        const int32_t len = r >= 300 && r < 400 ? r % 5 : r == 999 ? 100 : 0;
        for (int32_t k = 0; k < len; k++, n++) {
            ci[n] = r == 999 ? 10 * k : r + k;
            v[n] = 0.25 * (k + 1) - r * 1e-3;
        }
    }
    rp[1000] = n;
    climb_csr m = {.rows = 1000, .cols = 1000, .nnz = n, .row_ptr = rp, .col_idx = ci, .val = v};
    return m;
}

#endif
