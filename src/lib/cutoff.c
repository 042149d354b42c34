/* The C API of cutoff Coulomb summation: climb_coulomb_cutoff_f32 over the rung marked best. */
#include <math.h>

#include "handle.h"
#include "../workloads/cutoff/cutoff.h"

climb_status climb_coulomb_cutoff_f32(climb_handle h, const float *d_atoms, size_t n_atoms,
                                      const climb_lattice_desc *lattice, float cutoff, float *d_out)
{
    size_t points = 0;
    if (!h || climb_lattice_args(lattice, CLIMB_CUTOFF_MAX_YZ, n_atoms, &points) != CLIMB_STATUS_SUCCESS ||
        !isfinite(cutoff) || !(cutoff > lattice->exclusion))
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_lattice_desc *d = lattice;
    climb_cutoff_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]}, cutoff,
                              d->exclusion};
    /* the bins over the lattice and a cutoff beyond it: at most 2^28 (0 bytes when more) */
    const size_t ws_bytes = climb_cutoff_best_workspace(&l, n_atoms);
    if (ws_bytes == 0)
        return CLIMB_STATUS_INVALID_VALUE;
    if (points == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty lattice: nothing is touched */
    if (climb_lattice_arrays(d_atoms, n_atoms, d_out, points) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_INVALID_VALUE;
    climb_tuning_key key = {CLIMB_SHAPE4(d->nx, d->ny, d->nz, n_atoms), CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_cutoff_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_cutoff_tuning tn;
    climb_cutoff_set_tuning(&tn, call.values);
    void *ws = NULL;
    size_t have = 0;
    cudaError_t e = climb_call_workspace(&call, ws_bytes, 0, &ws, &have);
    if (e == cudaSuccess)
        e = climb_cutoff_best(&tn, &l, d_atoms, n_atoms, d_out, ws, call.stream);
    return climb_call_end(&call, e);
}
