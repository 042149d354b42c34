/* The C API of SGEMM: climb_sgemm over the rung marked best (tuned), with the transposed operands' instances. */
#include <limits.h>
#include <string.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/sgemm/sgemm.h"

climb_status climb_sgemm(climb_handle h, climb_operation transa, climb_operation transb, size_t m, size_t n, size_t k,
                         float alpha, const float *A, size_t lda, const float *B, size_t ldb, float beta, float *C,
                         size_t ldc)
{
    if (!h || (transa != CLIMB_OP_N && transa != CLIMB_OP_T) || (transb != CLIMB_OP_N && transb != CLIMB_OP_T))
        return CLIMB_STATUS_INVALID_VALUE;
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        return CLIMB_STATUS_INVALID_VALUE;
    /* stored shapes: A is m x k, or k x m transposed; B is k x n, or n x k */
    const size_t a_rows = transa == CLIMB_OP_N ? m : k, a_cols = transa == CLIMB_OP_N ? k : m;
    const size_t b_rows = transb == CLIMB_OP_N ? k : n, b_cols = transb == CLIMB_OP_N ? n : k;
    if (lda < a_cols || ldb < b_cols || ldc < n)
        return CLIMB_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CLIMB_STATUS_SUCCESS; /* no output; nothing is touched */
    /* BLAS: with alpha 0 (or k 0) A and B are not read, C = beta C */
    const size_t kk = alpha == 0.0f ? 0 : k;
    if (!climb_gemm_spans_ok(A, a_rows, a_cols, lda, B, b_rows, b_cols, ldb, sizeof(float), C, m, n, ldc, kk))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(C, sizeof(float)) ||
        (kk && (!climb_device_reachable(A, sizeof(float)) || !climb_device_reachable(B, sizeof(float)))))
        return CLIMB_STATUS_INVALID_VALUE;
    /* the tuning class: the form, as the workload's option keys it (alpha, beta and pad do not) */
    static const char *const forms[2][2] = {{"nn", "nt"}, {"tn", "tt"}};
    climb_api_key key;
    if (climb_api_key_make(&key, &climb_sgemm_workload, (climb_shape)CLIMB_SHAPE3(m, n, k), CLIMB_F32, "form",
                           forms[transa == CLIMB_OP_T][transb == CLIMB_OP_T], NULL) != 0)
        return CLIMB_STATUS_INTERNAL_ERROR;
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_sgemm_workload, &key.key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    const int ta = transa == CLIMB_OP_T, tb = transb == CLIMB_OP_T;
    const size_t need = climb_sgemm_workspace(call.values, ta, tb, m, n, kk, call.dev->sms);
    void *ws = NULL;
    size_t ws_bytes = 0;
    if (need) {
        const cudaError_t e = climb_call_workspace(&call, need, 0, &ws, &ws_bytes);
        if (e != cudaSuccess)
            return climb_call_end(&call, e);
    }
    return climb_call_end(&call, climb_sgemm_best(call.values, ta, tb, m, n, kk, alpha, kk ? A : NULL, lda ? lda : 1,
                                                  kk ? B : NULL, ldb ? ldb : 1, beta, C, ldc, ws, ws_bytes,
                                                  call.dev->sms, call.stream));
}
