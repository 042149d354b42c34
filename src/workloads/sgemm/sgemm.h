/* SGEMM: the parts of src/workloads/sgemm/ that the tests use. */
#ifndef CLIMB_WORKLOADS_SGEMM_H
#define CLIMB_WORKLOADS_SGEMM_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_sgemm_workload;

/* Row `row` of C = alpha op(A) op(B) + beta C0 in double: out[j], and mag[j] = |alpha| sum_p |a b| + |beta c0|
 * (the magnitude the tolerance scales with). A is row-major with rows lda apart, m x k, or k x m when ta (op(A) =
 * A^T); B likewise, k x n or n x k when tb; c0_row is that row of C0 (read only when beta != 0). */
void climb_sgemm_ref_row(const float *a, size_t lda, int ta, const float *b, size_t ldb, int tb, const float *c0_row,
                         size_t n, size_t k, float alpha, float beta, size_t row, double *out, double *mag);

/* The tolerance of an element: 1.01 (k + 2) 2^-24 mag. Any order of adding the k products errs by at most
 * (k - 1) u sum |a b| (Higham 3.1), the products by u each, alpha and beta's terms by u each: so every rung,
 * whatever its summation order (tiles, FFMA chains), is within it. */
double climb_sgemm_tolerance(size_t k, double mag);

/* SGEMM's tuning table: its built-in defaults are what other workloads multiply with (the CNN layer's im2col). */
const climb_tuning *climb_sgemm_tuning(void);

/* The best rung for the C API: C = alpha op(A) op(B) + beta C with the tuned values (bm, bn, bk, tn, unroll; NULL
 * or a set without an instance: the built-in ones) in every form, on `sms` SMs. climb_sgemm_workspace says how many bytes of ws it needs
 * (split-K's partial sums; 0 for most shapes); climb_sgemm_best returns cudaErrorInvalidValue with less. */
size_t climb_sgemm_workspace(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, int sms);
cudaError_t climb_sgemm_best(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, float alpha,
                             const float *a, size_t lda, const float *b, size_t ldb, float beta, float *c, size_t ldc,
                             void *ws, size_t ws_bytes, int sms, cudaStream_t s);

/* What the plan of a product is (for tests and docs): tiles of bm x bn, the first dp_tiles run whole, the next
 * sk_tiles split into `splits` chunks of kchunk along k, whose partial sums take ws_bytes. */
typedef struct climb_sgemm_plan_info {
    int bm, bn, splits, kchunk;
    size_t tiles, dp_tiles, sk_tiles, ws_bytes;
} climb_sgemm_plan_info;
int climb_sgemm_plan_describe(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, int sms,
                              climb_sgemm_plan_info *out);

#ifdef __cplusplus
}
#endif

#endif
