/* Argument checks that several API files share (handle.h). */
#include <math.h>

#include "handle.h"
#include "../base/checked.h"

climb_status climb_lattice_args(const climb_lattice_desc *d, size_t max_yz, size_t n_atoms, size_t *points)
{
    if (!d || !(d->spacing > 0) || !(d->exclusion >= 1e-3f) || !isfinite(d->spacing) || !isfinite(d->exclusion) ||
        !isfinite(d->origin[0]) || !isfinite(d->origin[1]) || !isfinite(d->origin[2]))
        return CLIMB_STATUS_INVALID_VALUE;
    if (d->nx > 0x7fffffffu || d->ny > max_yz || d->nz > max_yz || n_atoms > 0x7fffffffu ||
        !climb_mul3_fits(d->nx, d->ny, d->nz, points))
        return CLIMB_STATUS_INVALID_VALUE;
    return CLIMB_STATUS_SUCCESS;
}

climb_status climb_lattice_arrays(const float *d_atoms, size_t n_atoms, const float *d_out, size_t points)
{
    climb_span atoms, out;
    if (!climb_span_of(d_atoms, n_atoms, 16, &atoms) || !climb_span_of(d_out, points, sizeof(float), &out) ||
        climb_spans_overlap(atoms, out))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_device_reachable(d_out, sizeof(float)) || (n_atoms && !climb_device_reachable(d_atoms, 16)))
        return CLIMB_STATUS_INVALID_VALUE;
    return CLIMB_STATUS_SUCCESS;
}

int climb_gemm_spans_ok(const void *A, size_t a_rows, size_t a_cols, size_t lda, const void *B, size_t b_rows,
                        size_t b_cols, size_t ldb, size_t esize, const void *C, size_t m, size_t n, size_t ldc,
                        size_t kk)
{
    climb_span a, b, c;
    return climb_span_matrix(C, m, n, ldc, sizeof(float), &c) &&
           (!kk || (climb_span_matrix(A, a_rows, a_cols, lda, esize, &a) &&
                    climb_span_matrix(B, b_rows, b_cols, ldb, esize, &b) && !climb_spans_overlap(c, a) &&
                    !climb_spans_overlap(c, b)));
}
