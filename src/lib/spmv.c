/* The C API of the sparse matrix-vector product: an analyse-once, run-many plan over the rung marked best. */
#include <stdlib.h>

#include "handle.h"
#include "../base/checked.h"
#include "../device/csr_check.h"
#include "../workloads/spmv/spmv.h"

struct climb_spmv_plan_s {
    int device;               /* the handle's device when the plan was made */
    climb_spmv_plan_dev p;
    climb_span rp, ci, va;    /* where the caller's row pointers, columns and values lie: y must not overlap them */
};

static climb_status plan_create(climb_handle h, int rows, int cols, int nnz, const int32_t *d_row_ptr,
                                const int32_t *d_col_idx, const void *d_val, int f64, unsigned flags,
                                climb_spmv_plan *plan)
{
    if (plan)
        *plan = NULL;
    if (!h || !plan || rows < 0 || cols < 0 || nnz < 0 || rows > CLIMB_SPMV_MAX_DIM || cols > CLIMB_SPMV_MAX_DIM ||
        (flags & ~(CLIMB_SPMV_VALIDATE | CLIMB_SPMV_NO_TRIAL)) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_span rp, ci, va;
    if (!climb_span_of(d_row_ptr, (size_t)rows + 1, 4, &rp) || !climb_span_of(d_col_idx, (size_t)nnz, 4, &ci) ||
        !climb_span_of(d_val, (size_t)nnz, f64 ? 8 : 4, &va))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_row_ptr, 4) ||
        (nnz > 0 && (!climb_device_reachable(d_col_idx, 4) || !climb_device_reachable(d_val, f64 ? 8 : 4))))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE2((size_t)rows, (size_t)cols), f64 ? CLIMB_F64 : CLIMB_F32, NULL};
    climb_call call;
    /* The analysis reads its results back (it waits for the stream): never inside a capture. */
    climb_status st = climb_call_begin_waiting(h, &climb_spmv_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    struct climb_spmv_plan_s *pl = calloc(1, sizeof *pl);
    if (!pl)
        return climb_call_end(&call, cudaErrorMemoryAllocation);
    /* its allocations must not invalidate a capture another stream or thread has in progress */
    const enum cudaStreamCaptureMode mode = climb_relaxed_begin();
    pl->device = call.dev->ordinal;
    pl->rp = rp;
    pl->ci = ci;
    pl->va = va;
    climb_spmv_plan_dev *p = &pl->p;
    p->rows = rows;
    p->cols = cols;
    p->nnz = nnz;
    p->row_ptr = d_row_ptr;
    p->col_idx = d_col_idx;
    p->val = d_val;
    p->f64 = f64;
    p->sms = call.dev->sms;
    p->no_trial = (flags & CLIMB_SPMV_NO_TRIAL) != 0;
    cudaError_t e = cudaSuccess;
    if (flags & CLIMB_SPMV_VALIDATE) {
        unsigned bad = 0;
        e = climb_csr_check_device(rows, cols, nnz, d_row_ptr, d_col_idx, &bad, call.stream);
        if (e == cudaSuccess && bad) {
            climb_relaxed_end(mode);
            free(pl);
            climb_call_end(&call, cudaSuccess);
            return CLIMB_STATUS_INVALID_MATRIX;
        }
    }
    if (e == cudaSuccess)
        e = climb_spmv_plan_build(p, call.stream);
    if (e != cudaSuccess)
        climb_spmv_plan_free(p);
    climb_relaxed_end(mode);
    if (e != cudaSuccess) {
        free(pl);
        return climb_call_end(&call, e);
    }
    *plan = pl;
    return climb_call_end(&call, cudaSuccess);
}

climb_status climb_spmv_plan_create(climb_handle h, int rows, int cols, int nnz, const int32_t *d_row_ptr,
                                    const int32_t *d_col_idx, const float *d_val, unsigned flags,
                                    climb_spmv_plan *plan)
{
    return plan_create(h, rows, cols, nnz, d_row_ptr, d_col_idx, d_val, 0, flags, plan);
}

climb_status climb_spmv_plan_create_f64(climb_handle h, int rows, int cols, int nnz, const int32_t *d_row_ptr,
                                        const int32_t *d_col_idx, const double *d_val, unsigned flags,
                                        climb_spmv_plan *plan)
{
    return plan_create(h, rows, cols, nnz, d_row_ptr, d_col_idx, d_val, 1, flags, plan);
}

climb_status climb_spmv_plan_bytes(climb_spmv_plan plan, size_t *bytes)
{
    if (!plan || !bytes)
        return CLIMB_STATUS_INVALID_VALUE;
    *bytes = plan->p.bytes;
    return CLIMB_STATUS_SUCCESS;
}

static climb_status run(climb_handle h, climb_spmv_plan plan, int f64, double alpha, const void *d_x, double beta,
                        void *d_y)
{
    if (!h || !plan || plan->p.f64 != f64)
        return CLIMB_STATUS_INVALID_VALUE;
    const size_t each = f64 ? 8 : 4;
    const climb_spmv_plan_dev *p = &plan->p;
    /* y is written: it must not overlap x or the matrix */
    climb_span x, y;
    if (!climb_span_of(d_x, (size_t)p->cols, each, &x) || !climb_span_of(d_y, (size_t)p->rows, each, &y) ||
        climb_spans_overlap(y, x) || climb_spans_overlap(y, plan->rp) || climb_spans_overlap(y, plan->ci) ||
        climb_spans_overlap(y, plan->va))
        return CLIMB_STATUS_INVALID_VALUE;
    if ((p->cols > 0 && !climb_device_reachable(d_x, each)) || (p->rows > 0 && !climb_device_reachable(d_y, each)))
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE2((size_t)plan->p.rows, (size_t)plan->p.cols), f64 ? CLIMB_F64 : CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_spmv_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    if (call.dev->ordinal != plan->device) {
        climb_call_end(&call, cudaSuccess);
        return CLIMB_STATUS_INVALID_VALUE;
    }
    return climb_call_end(&call, climb_spmv_plan_run(&plan->p, alpha, d_x, beta, d_y, call.stream));
}

climb_status climb_spmv(climb_handle h, climb_spmv_plan plan, float alpha, const float *d_x, float beta, float *d_y)
{
    return run(h, plan, 0, alpha, d_x, beta, d_y);
}

climb_status climb_spmv_f64(climb_handle h, climb_spmv_plan plan, double alpha, const double *d_x, double beta,
                            double *d_y)
{
    return run(h, plan, 1, alpha, d_x, beta, d_y);
}

static void plan_release(void *p) { climb_spmv_plan_free(&((struct climb_spmv_plan_s *)p)->p); }

climb_status climb_spmv_plan_destroy(climb_spmv_plan plan)
{
    if (!plan)
        return CLIMB_STATUS_SUCCESS;
    climb_release_on_device(plan->device, plan_release, plan);
    free(plan);
    return CLIMB_STATUS_SUCCESS;
}
