/* The C API of the tensor-core GEMM: climb_gemm_ex over the rung marked best (climb_gemm_tc_async: a wgmma kernel on
 * an sm_90 GPU, climb_gemm_wg_pick's; elsewhere pipelined on 16-byte rows, mma_sync on others), a transposed A
 * first copied transposed into the handle's workspace, a transposed B handed down as B^T (which the wgmma kernels
 * read where it is in BF16); FP32 mode is climb_sgemm. */
#include <limits.h>
#include <string.h>

#include "handle.h"
#include "../base/checked.h"
#include "../workloads/gemm/gemm.h"

/* The workload's precision of a tensor-core mode, and its option value's name (the tuning key). */
static int precision_of(climb_gemm_compute c)
{
    return c == CLIMB_GEMM_BF16 ? CLIMB_GEMM_PREC_BF16 : c == CLIMB_GEMM_TF32 ? CLIMB_GEMM_PREC_TF32 : CLIMB_GEMM_PREC_3XTF32;
}
static const char *precision_name(climb_gemm_compute c)
{
    return c == CLIMB_GEMM_BF16 ? "bf16" : c == CLIMB_GEMM_TF32 ? "tf32" : "3xtf32";
}

/* A packed operand's row: cols elements rounded up to whole 16-byte chunks; 0 when that wraps. */
static size_t packed_ld(size_t cols, size_t esize)
{
    const size_t ch = 16 / esize;
    return cols > SIZE_MAX - ch ? 0 : (cols + ch - 1) / ch * ch;
}

climb_status climb_gemm_ex(climb_handle h, climb_gemm_compute compute, climb_operation transa, climb_operation transb,
                           size_t m, size_t n, size_t k, float alpha, const void *A, size_t lda, const void *B,
                           size_t ldb, float beta, float *C, size_t ldc)
{
    if (compute == CLIMB_GEMM_FP32)
        return climb_sgemm(h, transa, transb, m, n, k, alpha, (const float *)A, lda, (const float *)B, ldb, beta, C,
                           ldc);
    if (!h || (compute != CLIMB_GEMM_3XTF32 && compute != CLIMB_GEMM_TF32 && compute != CLIMB_GEMM_BF16) ||
        (transa != CLIMB_OP_N && transa != CLIMB_OP_T) || (transb != CLIMB_OP_N && transb != CLIMB_OP_T))
        return CLIMB_STATUS_INVALID_VALUE;
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        return CLIMB_STATUS_INVALID_VALUE;
    const size_t esize = compute == CLIMB_GEMM_BF16 ? 2 : 4;
    const int ta = transa == CLIMB_OP_T, tb = transb == CLIMB_OP_T;
    /* stored shapes: A is m x k, or k x m transposed; B is k x n, or n x k */
    const size_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
    if (lda < a_cols || ldb < b_cols || ldc < n)
        return CLIMB_STATUS_INVALID_VALUE;
    /* the kernels' tiles of 128 x 128 number below 2^31 */
    size_t tiles;
    if (!climb_mul_fits((m + 127) / 128, (n + 127) / 128, &tiles) || tiles > INT_MAX)
        return CLIMB_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return CLIMB_STATUS_SUCCESS; /* no output; nothing is touched */
    /* BLAS: with alpha 0 (or k 0) A and B are not read, C = beta C */
    const size_t kk = alpha == 0.0f ? 0 : k;
    if (!climb_gemm_spans_ok(A, a_rows, a_cols, lda, B, b_rows, b_cols, ldb, esize, C, m, n, ldc, kk))
        return CLIMB_STATUS_INVALID_VALUE;
    /* the workspace of a transposed A, padded rows (op(A), m x k); then (once the call has begun) the kernel's (B^T
     * or B and A made ready), each 256-byte aligned */
    const size_t lpa = packed_ld(kk, esize);
    size_t pa = 0, need = 0, kw = 0;
    if (kk && ta && (!climb_mul3_fits(m, lpa, esize, &pa) || !climb_add_fits(pa, 256, &pa)))
        return CLIMB_STATUS_INVALID_VALUE;
    need = pa;
    if (!climb_device_reachable(C, sizeof(float)) ||
        (kk && (!climb_device_reachable(A, esize) || !climb_device_reachable(B, esize))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_api_key key;
    if (climb_api_key_make(&key, &climb_gemm_workload, (climb_shape)CLIMB_SHAPE3(m, n, k), CLIMB_F32, "precision",
                           precision_name(compute), NULL) != 0)
        return CLIMB_STATUS_INTERNAL_ERROR;
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_gemm_workload, &key.key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_gemm_tuning tn; /* the wisdom's kernel and group for this precision and shape class, else the built-in */
    climb_gemm_set_tuning(&tn, call.values);
    const void *opa = kk ? A : NULL, *opb = kk ? B : NULL;
    size_t la = lda ? lda : 1, lb = ldb ? ldb : 1;
    cudaError_t e = cudaSuccess;
    /* the kernel's workspace, sized for op(A) as the kernel will see it (packed: 16-byte rows on a 256-byte
     * boundary; or as given) and B as given (sizes below 2^31 cannot wrap it; a device that cannot be asked is an
     * error of the call) */
    e = climb_gemm_tc_workspace(precision_of(compute), m, n, kk, ta ? NULL : A, ta ? lpa : la, opb, lb, tb, &tn,
                                &kw);
    if (e == cudaSuccess && kw && (!climb_add_fits(kw, 256, &kw) || !climb_add_fits(need, kw, &need)))
        e = cudaErrorInvalidValue;
    void *kws = NULL;
    if (e == cudaSuccess && need) {
        void *ws = NULL;
        size_t ws_bytes = 0;
        e = climb_call_workspace(&call, need, 0, &ws, &ws_bytes);
        /* each piece 256-byte aligned in the workspace */
        unsigned char *p = (unsigned char *)(((uintptr_t)ws + 255) / 256 * 256);
        if (e == cudaSuccess && ta && kk) {
            e = climb_gemm_pack_async(esize, kk, m, A, lda, p, lpa, call.stream); /* k x m -> m x k */
            opa = p;
            la = lpa;
            p += (pa - 256 + 255) / 256 * 256;
        }
        kws = p;
    }
    if (e == cudaSuccess)
        e = climb_gemm_tc_async(precision_of(compute), m, n, kk, alpha, opa, la, opb, lb, tb, beta, C, ldc, kws,
                                kw ? kw - 256 : 0, &tn, call.stream);
    return climb_call_end(&call, e);
}
