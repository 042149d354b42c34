/* Cutoff summation on the host: the bins around a lattice, an atom's bin, and the CPU reference (cells of the
 * cutoff's side, every atom within the cutoff in double) with its tolerance (docs/cutoff.md, "Verification"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.cuh"

extern "C" int climb_cutoff_bins_of(const climb_cutoff_lattice *l, climb_cutoff_bins *b, char *err, size_t errlen)
{
    b->side = (float)CLIMB_CUTOFF_BIN * l->h;
    b->inv_side = 1.0f / b->side;
    const double m = ceil((double)l->cutoff / b->side);
    const double nb[3] = {(double)cdiv(l->nx, CLIMB_CUTOFF_BIN) + 2 * m, (double)cdiv(l->ny, CLIMB_CUTOFF_BIN) + 2 * m,
                          (double)cdiv(l->nz, CLIMB_CUTOFF_BIN) + 2 * m};
    if (m > 4096 || nb[0] * nb[1] * nb[2] > (double)(1 << 28)) {
        snprintf(err, errlen, "the bins around the lattice would be %.3g (cutoff %g Å over bins of %g Å, %.0f of them "
                              "beyond each side): at most 2^28; raise the spacing or lower the cutoff",
                 nb[0] * nb[1] * nb[2], l->cutoff, b->side, m);
        return -1;
    }
    b->margin = (int)m;
    b->bx = (int)nb[0];
    b->by = (int)nb[1];
    b->bz = (int)nb[2];
    b->count = (size_t)b->bx * b->by * b->bz;
    return 0;
}

extern "C" int64_t climb_cutoff_bin_of(const climb_cutoff_lattice *l, const climb_cutoff_bins *b, const float *xyzq)
{
    const cut_grid g = grid_of(l, b);
    return cut_bin(g, xyzq[0], xyzq[1], xyzq[2], xyzq[3]);
}

/* ---------------------------------------------------------------- CPU reference */

extern "C" int climb_cutoff_cells_build(climb_cutoff_cells *cc, const climb_cutoff_lattice *l, const float *xyzq,
                                        size_t n)
{
    memset(cc, 0, sizeof *cc);
    cc->side = l->cutoff;
    const double ext[3] = {l->h * (double)(l->nx ? l->nx - 1 : 0), l->h * (double)(l->ny ? l->ny - 1 : 0),
                           l->h * (double)(l->nz ? l->nz - 1 : 0)};
    size_t cells = 1;
    for (int d = 0; d < 3; d++) {
        cc->lo[d] = l->origin[d] - l->cutoff;
        cc->n[d] = (size_t)floor((ext[d] + 2.0 * l->cutoff) / cc->side) + 1;
        cells *= cc->n[d];
    }
    size_t *cell_of = (size_t *)malloc((n ? n : 1) * sizeof(size_t));
    cc->start = (size_t *)calloc(cells + 1, sizeof(size_t));
    if (!cell_of || !cc->start) {
        free(cell_of);
        climb_cutoff_cells_free(cc);
        return climb_host_oom("the cutoff reference's cells");
    }
    size_t kept = 0;
    for (size_t a = 0; a < n; a++) {
        const float *p = xyzq + 4 * a;
        cell_of[a] = SIZE_MAX;
        if (p[3] == 0)
            continue;
        size_t idx[3];
        int inside = 1;
        for (int d = 0; d < 3; d++) {
            const double f = floor((p[d] - cc->lo[d]) / cc->side);
            inside &= f >= 0 && f < (double)cc->n[d];
            idx[d] = inside ? (size_t)f : 0;
        }
        if (!inside)
            continue;
        cell_of[a] = (idx[2] * cc->n[1] + idx[1]) * cc->n[0] + idx[0];
        cc->start[cell_of[a] + 1]++;
        kept++;
    }
    for (size_t i = 0; i < cells; i++)
        cc->start[i + 1] += cc->start[i];
    cc->xyzq = (float *)malloc((kept ? kept : 1) * 4 * sizeof(float));
    size_t *fill = (size_t *)malloc((cells ? cells : 1) * sizeof(size_t));
    if (!cc->xyzq || !fill) {
        free(cell_of);
        free(fill);
        climb_cutoff_cells_free(cc);
        return climb_host_oom("the cutoff reference's cells");
    }
    memcpy(fill, cc->start, cells * sizeof(size_t));
    for (size_t a = 0; a < n; a++)
        if (cell_of[a] != SIZE_MAX)
            memcpy(cc->xyzq + 4 * fill[cell_of[a]]++, xyzq + 4 * a, 4 * sizeof(float));
    free(fill);
    free(cell_of);
    return 0;
}

extern "C" void climb_cutoff_cells_free(climb_cutoff_cells *cc)
{
    free(cc->start);
    free(cc->xyzq);
    memset(cc, 0, sizeof *cc);
}

extern "C" void climb_cutoff_ref_at(const climb_cutoff_cells *cc, const climb_cutoff_lattice *l, size_t i, size_t j,
                                    size_t k, climb_cutoff_ref *out)
{
    memset(out, 0, sizeof *out);
    const double p[3] = {l->origin[0] + (double)l->h * (double)i, l->origin[1] + (double)l->h * (double)j,
                         l->origin[2] + (double)l->h * (double)k};
    const double c2 = (double)l->cutoff * l->cutoff, e2 = (double)l->exclusion * l->exclusion;
    const double coord = 4 * 0x1p-24 * (fabs(p[0]) + fabs(p[1]) + fabs(p[2]) + 1e-30);
    size_t lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        const double f = floor((p[d] - cc->lo[d]) / cc->side);
        lo[d] = f < 1 ? 0 : (size_t)f - 1;
        hi[d] = f + 1 >= (double)cc->n[d] - 1 ? cc->n[d] - 1 : (size_t)f + 1;
    }
    double sum = 0, mag = 0, rel = 0, deriv = 0, slack = 0;
    for (size_t z = lo[2]; z <= hi[2]; z++)
        for (size_t y = lo[1]; y <= hi[1]; y++) {
            const size_t row = (z * cc->n[1] + y) * cc->n[0];
            for (size_t a = cc->start[row + lo[0]]; a < cc->start[row + hi[0] + 1]; a++) {
                const float *at = cc->xyzq + 4 * a;
                const double dx = p[0] - at[0], dy = p[1] - at[1], dz = p[2] - at[2];
                const double r2 = dx * dx + dy * dy + dz * dz, q = at[3];
                if (fabs(r2 - e2) <= 1e-5 * e2)
                    out->maybe_zero = 1;
                else if (r2 < e2)
                    out->zero = 1;
                if (r2 >= c2 * (1 + 1e-5))
                    continue;
                const double r = sqrt(r2), s = 1 - r2 / c2, t = q / r * s * s;
                if (r2 > c2 * (1 - 1e-5)) { /* on the cutoff: counted or not by a float computation */
                    slack += fabs(q) / r * 4e-10;
                    continue;
                }
                out->within++;
                if (r2 < e2 * (1 - 1e-5))
                    continue;
                sum += t;
                mag += fabs(t);
                rel += fabs(q) * s / r;
                deriv += fabs(q) * (1 / r2 + 4 / c2);
            }
        }
    out->v = sum;
    out->tol = 1.01 * ((double)out->within + 8) * 0x1p-24 * mag + 16 * 0x1p-24 * rel + coord * deriv + slack;
}

extern "C" int climb_cutoff_ref_ok(const climb_cutoff_ref *r, float v)
{
    if (r->zero)
        return v == 0.0f;
    return (r->maybe_zero && v == 0.0f) || fabs((double)v - r->v) <= r->tol;
}

