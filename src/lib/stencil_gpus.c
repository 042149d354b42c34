/* The C API of the 7-point stencil across GPUs: climb_comm_stencil7_f32, one step of a grid split along z over a
 * communicator's GPUs, and climb_comm_stencil_slab, the split (src/lib/comm.c for the communicator). */
#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../device/collective.h"
#include "../workloads/stencil.h"
#include "../workloads/stencil_gpus.h"

climb_status climb_comm_stencil_slab(climb_comm c, size_t nz, int rank, size_t *z0, size_t *z1, size_t *planes)
{
    climb_slab sl;
    if (!c || !z0 || !z1 || !planes || climb_slab_of(nz, c->nranks, rank, &sl) != 0)
        return CLIMB_STATUS_INVALID_VALUE;
    *z0 = sl.z0;
    *z1 = sl.z1;
    *planes = sl.planes;
    return CLIMB_STATUS_SUCCESS;
}

/* Rank r's (the whole communicator's rank `rank`) slab arrays: in and out non-NULL, each of planes x nx x ny floats
 * without wrapping, not overlapping each other, memory rank r's GPU reaches, 4-byte aligned. */
static int slab_arrays_ok(const struct climb_comm_s *c, int r, const float *in, const float *out, size_t elems)
{
    climb_span a, b;
    return in && out && climb_span_of(in, elems, sizeof(float), &a) && climb_span_of(out, elems, sizeof(float), &b) &&
           !climb_spans_overlap(a, b) && climb_comm_reachable(c, r, in, sizeof(float)) &&
           climb_comm_reachable(c, r, out, sizeof(float));
}

climb_status climb_comm_stencil7_f32(climb_comm c, size_t nx, size_t ny, size_t nz, const float coeffs[7],
                                     const float *const *d_in, float *const *d_out)
{
    size_t points, plane;
    if (!c || !coeffs || !climb_stencil_fits(nx, ny, nz) || !climb_mul3_fits(nx, ny, nz, &points) ||
        !climb_mul_fits(nx, ny, &plane))
        return CLIMB_STATUS_INVALID_VALUE;
    if (points == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty grid: the pointers are not looked at */
    if (nz < (size_t)c->nranks || !d_in || !d_out)
        return CLIMB_STATUS_INVALID_VALUE; /* a slab takes one plane at the least */
    climb_slab sl[CLIMB_MAX_DEVICES];
    for (int r = 0; r < c->P; r++) { /* this process's ranks: every rank, or its one */
        size_t elems;
        if (climb_slab_of(nz, c->nranks, c->rank + r, &sl[r]) != 0 || !climb_mul_fits(sl[r].planes, plane, &elems) ||
            !slab_arrays_ok(c, r, d_in[r], d_out[r], elems))
            return CLIMB_STATUS_INVALID_VALUE;
    }
    const size_t bytes = plane * sizeof(float);
    if (c->nccl) { /* one process a GPU: this rank's step, then the halos by NCCL */
        int prev = 0;
        cudaGetDevice(&prev);
        cudaGetLastError();
        cudaError_t e = cudaSetDevice(c->devices[0]);
        if (e == cudaSuccess)
            e = climb_stencil_gpus_owned_async(nx, ny, nz, c->nranks, c->rank, coeffs, d_in[0], d_out[0], c->st[0]);
        cudaSetDevice(prev);
        cudaGetLastError();
        if (e != cudaSuccess) {
            c->last = e;
            return climb_status_of_cuda(e);
        }
        const int below = c->rank > 0, above = c->rank < c->nranks - 1;
        float *o = d_out[0];
        return climb_comm_nccl_halos(c, below ? o + climb_slab_first(&sl[0]) * plane : NULL, below ? o : NULL,
                                     above ? o + climb_slab_last(&sl[0]) * plane : NULL,
                                     above ? o + climb_slab_top_halo(&sl[0]) * plane : NULL, plane);
    }
    /* one process, every GPU: each rank's step on its stream, then its first and last planes copied into its
     * neighbours' halos on the same stream (disjoint from the planes they write; their inputs are other arrays) */
    climb_comm_call call;
    cudaError_t e = climb_comm_begin(c, 0, NULL, 0, &call);
    for (int r = 0; r < c->P && e == cudaSuccess; r++) {
        if ((e = cudaSetDevice(c->devices[r])) != cudaSuccess ||
            (e = climb_stencil_gpus_owned_async(nx, ny, nz, c->P, r, coeffs, d_in[r], d_out[r], c->st[r])) !=
                cudaSuccess)
            break;
        if (r > 0)
            e = climb_copy_across(d_out[r - 1] + climb_slab_top_halo(&sl[r - 1]) * plane,
                                  d_out[r] + climb_slab_first(&sl[r]) * plane, bytes, c->st[r]);
        if (e == cudaSuccess && r < c->P - 1)
            e = climb_copy_across(d_out[r + 1], d_out[r] + climb_slab_last(&sl[r]) * plane, bytes, c->st[r]);
    }
    return climb_comm_end(&call, e);
}
