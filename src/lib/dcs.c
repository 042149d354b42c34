/* The C API of direct Coulomb summation: climb_coulomb_dcs_f32 over the rung marked best (spread_rows: the tuned
 * points a thread spread over whole rows). */
#include "handle.h"
#include "../workloads/dcs.h"

climb_status climb_coulomb_dcs_f32(climb_handle h, const float *d_atoms, size_t n_atoms,
                                   const climb_lattice_desc *lattice, float *d_out)
{
    size_t points = 0;
    if (!h || climb_lattice_args(lattice, 65535, n_atoms, &points) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_INVALID_VALUE;
    if (points == 0)
        return CLIMB_STATUS_SUCCESS; /* an empty lattice: nothing is touched */
    if (climb_lattice_arrays(d_atoms, n_atoms, d_out, points) != CLIMB_STATUS_SUCCESS)
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_lattice_desc *d = lattice;
    climb_dcs_lattice l = {d->nx, d->ny, d->nz, d->spacing, {d->origin[0], d->origin[1], d->origin[2]}, d->exclusion};
    climb_tuning_key key = {CLIMB_SHAPE4(d->nx, d->ny, d->nz, n_atoms), CLIMB_F32, NULL};
    climb_call call;
    climb_status st = climb_call_begin(h, &climb_dcs_workload, &key, &call);
    if (st != CLIMB_STATUS_SUCCESS)
        return st;
    climb_dcs_tuning tn;
    climb_dcs_set_tuning(&tn, call.values);
    return climb_call_end(&call, climb_dcs_spread(&tn, &l, d_atoms, n_atoms, d_out, call.stream));
}
