/* The C API of cutoff Coulomb summation: climb_coulomb_cutoff_f32 over the rung marked best. */
#include <math.h>
#include <stdint.h>

#include "handle.h"
#include "../workloads/cutoff.h"

climb_status climb_coulomb_cutoff_f32(climb_handle h, const float *d_atoms, size_t n_atoms,
                                      const climb_lattice_desc *lattice, float cutoff, float *d_out)
{
    if (!h || !lattice)
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_lattice_desc *d = lattice;
    if (!(d->spacing > 0) || !(d->exclusion >= 1e-3f) || !(cutoff > d->exclusion) || !isfinite(cutoff) ||
        !isfinite(d->spacing) || !isfinite(d->exclusion) || !isfinite(d->origin[0]) || !isfinite(d->origin[1]) ||
        !isfinite(d->origin[2]))
        return CLIMB_STATUS_INVALID_VALUE;
    const size_t points = d->nx * d->ny * d->nz;
    if (points == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty lattice: nothing is touched */
    climb_cutoff_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]}, cutoff,
                              d->exclusion};
    const size_t ws_bytes = climb_cutoff_best_workspace(&l, n_atoms);
    if (ws_bytes == 0 || d->nx > 0x7fffffffu || (d->ny + 7) / 8 > 65535 || (d->nz + 7) / 8 > 65535 ||
        n_atoms > 0x7fffffffu || !climb_device_reachable(d_out, sizeof(float)) ||
        (n_atoms && !climb_device_reachable(d_atoms, 16)))
        return CLIMB_STATUS_INVALID_VALUE;
    const char *a0 = (const char *)d_atoms, *o0 = (const char *)d_out;
    if (n_atoms && a0 < o0 + points * sizeof(float) && o0 < a0 + n_atoms * 16)
        return CLIMB_STATUS_INVALID_VALUE; /* the lattice must not overlap the atoms */
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
