/* What the two Coulomb summations (dcs, cutoff) share of their cases: a lattice of points and a set of atoms, from
 * the case's shape (nx, ny, nz, atoms) or a PQR file, and the potential written out as OpenDX. */
#ifndef CLIMB_WORKLOADS_COMMON_LATTICE_H
#define CLIMB_WORKLOADS_COMMON_LATTICE_H

#include <stdint.h>
#include <stdio.h>

#include "../../base/checked.h"
#include "../../core/validate.h"
#include "../../core/workload.h"
#include "../../io/molecule.h"

/* n[0..2] the lattice's points along x, y and z (the shape's first three sizes), *atoms the atoms (a file's, else the
 * shape's fourth size) and *points their product. -1 (said, naming the workload) past 2^31 atoms or points along x,
 * or points past size_t. */
static inline int climb_lattice_sizes(const climb_case_params *p, const climb_atoms *file, const char *workload,
                                      size_t n[3], size_t *atoms, size_t *points)
{
    n[0] = p->shape.d[0];
    n[1] = p->shape.d[1];
    n[2] = p->shape.d[2];
    *atoms = file ? file->n : p->shape.d[3];
    if (*atoms > INT32_MAX || n[0] > INT32_MAX || !climb_mul3_fits(n[0], n[1], n[2], points)) {
        fprintf(stderr, "climb: %s: more than 2^31 atoms or points along x, or points past size_t\n", workload);
        return -1;
    }
    return 0;
}

/* The potential v on the lattice (n points a side, from origin, spacing h) as an OpenDX file at path, with a comment;
 * an empty lattice is refused. 0, or -1 with err. */
static inline int climb_lattice_save(const char *path, const size_t n[3], const float origin[3], float h, const float *v,
                                     const char *comment, char *err, size_t errlen)
{
    if (n[0] == 0 || n[1] == 0 || n[2] == 0) {
        snprintf(err, errlen, "%s: an empty lattice", path);
        return -1;
    }
    const climb_dx_grid g = {{n[0], n[1], n[2]}, {origin[0], origin[1], origin[2]}, {h, h, h}};
    return climb_dx_write(path, &g, v, comment, err, errlen);
}

#ifdef __cplusplus
/* The potential v at the reference's points (samples[s], or s where every point is checked; count of them) by the
 * workload's rule: ok(s, value, &expected) says whether v's point s is right and what it should be; a wrong one is
 * told as V(i, j, k). 1 when any was wrong (msg says which), else 0. */
template <typename F>
static inline int climb_lattice_verify(const float *v, const size_t *samples, size_t count, size_t nx, size_t ny, F ok,
                                       char *msg, size_t msglen)
{
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t s = 0; s < count; s++) {
        const size_t idx = samples ? samples[s] : s;
        double want = 0;
        size_t i = 0, j = 0, z = 0;
        const int right = ok(s, v[idx], &want);
        if (!right)
            climb_grid_point(idx, nx, ny, &i, &j, &z);
        climb_compare_check(&k, right, "V(%zu, %zu, %zu) = %.9g, expected %.9g", i, j, z, v[idx], want);
    }
    return climb_compare_end(&k);
}
#endif

#endif
