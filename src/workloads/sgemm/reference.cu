/* SGEMM on the host: the CPU reference, a row of C in double with each element's sum |a b|. */
#include <math.h>
#include <stddef.h>

#include "sgemm.h"

extern "C" void climb_sgemm_ref_row(const float *a, size_t lda, int ta, const float *b, size_t ldb, int tb,
                                    const float *c0_row, size_t n, size_t k, float alpha, float beta, size_t row,
                                    double *out, double *mag)
{
    for (size_t j = 0; j < n; j++) {
        out[j] = 0;
        mag[j] = 0;
    }
    for (size_t p = 0; p < k; p++) {
        const double av = ta ? a[p * lda + row] : a[row * lda + p];
        if (tb) {
            for (size_t j = 0; j < n; j++) {
                const double t = av * b[j * ldb + p];
                out[j] += t;
                mag[j] += fabs(t);
            }
        } else {
            const float *brow = b + p * ldb;
            for (size_t j = 0; j < n; j++) {
                out[j] += av * brow[j];
                mag[j] += fabs(av * brow[j]);
            }
        }
    }
    for (size_t j = 0; j < n; j++) {
        const double c = beta != 0 ? (double)beta * c0_row[j] : 0;
        out[j] = (double)alpha * out[j] + c;
        mag[j] = fabs((double)alpha) * mag[j] + fabs(c);
    }
}

extern "C" double climb_sgemm_tolerance(size_t k, double mag)
{
    return 1.01 * ((double)k + 2) * ldexp(1.0, -24) * mag;
}
