/* Parboil's binary files (see parboil.h): the whole file read, then every count and length checked before a value
 * is copied. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parboil.h"
#include "text.h"
#include "../base/checked.h"

/* The whole file into memory (at most max bytes). 0, or -1 with err. */
static int slurp(const char *path, size_t max, unsigned char **data, size_t *n, char *err, size_t errlen)
{
    return climb_read_file(path, max, "Parboil file of the sizes read", data, n, err, errlen);
}

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* n little-endian floats at data + off into a new array; -1 (err) on NaN or infinity. */
static float *floats(const char *path, const unsigned char *data, size_t off, size_t n, const char *what, char *err,
                     size_t errlen)
{
    size_t bytes;
    float *v = climb_mul_fits(n ? n : 1, sizeof(float), &bytes) ? (float *)malloc(bytes) : NULL;
    if (!v) {
        snprintf(err, errlen, "%s: out of host memory for %s", path, what);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t b = le32(data + off + 4 * i);
        memcpy(&v[i], &b, 4);
        if (!isfinite(v[i])) {
            snprintf(err, errlen, "%s: %s[%zu] is not a finite number (at byte %zu)", path, what, i, off + 4 * i);
            free(v);
            return NULL;
        }
    }
    return v;
}

/* The counts at the head of an MRI-Q input against its length n. 0, or -1 with err. */
static int mriq_counts(const char *path, const unsigned char *d, size_t n, size_t *k, size_t *x, char *err,
                       size_t errlen)
{
    if (n < 8) {
        snprintf(err, errlen, "%s: %zu bytes: shorter than the two counts (8 bytes)", path, n);
        return -1;
    }
    const int32_t nk = (int32_t)le32(d), nx = (int32_t)le32(d + 4);
    if (nk < 0 || (size_t)nk > CLIMB_PARBOIL_MAX_COUNT || nx < 0 || (size_t)nx > CLIMB_PARBOIL_MAX_COUNT) {
        snprintf(err, errlen, "%s: the counts numK = %d and numX = %d are not both from 0 to 2^28 (at byte 0)", path, nk,
                 nx);
        return -1;
    }
    const size_t want = 8 + 4 * (5 * (size_t)nk + 3 * (size_t)nx);
    if (n != want) {
        snprintf(err, errlen, "%s: %zu bytes; numK = %d and numX = %d need %zu", path, n, nk, nx, want);
        return -1;
    }
    *k = (size_t)nk;
    *x = (size_t)nx;
    return 0;
}

int climb_mriq_peek(const char *path, size_t *k, size_t *x, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    unsigned char head[8];
    const size_t got = fread(head, 1, sizeof head, f);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    fclose(f);
    if (n < 0) {
        snprintf(err, errlen, "%s: cannot tell its length (not a regular file?)", path);
        return -1;
    }
    return mriq_counts(path, head, got < sizeof head ? got : (size_t)n, k, x, err, errlen);
}

void climb_mriq_free(climb_mriq_input *in)
{
    free(in->kx);
    free(in->ky);
    free(in->kz);
    free(in->x_);
    free(in->y_);
    free(in->z_);
    free(in->phi_r);
    free(in->phi_i);
    memset(in, 0, sizeof *in);
}

int climb_mriq_read(const char *path, climb_mriq_input *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    unsigned char *d;
    size_t n;
    if (slurp(path, 8 + 4 * 6 * CLIMB_PARBOIL_MAX_COUNT, &d, &n, err, errlen) != 0)
        return -1;
    int rc = -1;
    if (mriq_counts(path, d, n, &in->k, &in->x, err, errlen) != 0)
        goto done;
    size_t off = 8;
    float **dst[8] = {&in->kx, &in->ky, &in->kz, &in->x_, &in->y_, &in->z_, &in->phi_r, &in->phi_i};
    const char *names[8] = {"kx", "ky", "kz", "x", "y", "z", "phiR", "phiI"};
    for (int a = 0; a < 8; a++) {
        const size_t cnt = (a >= 3 && a < 6) ? in->x : in->k;
        if (!(*dst[a] = floats(path, d, off, cnt, names[a], err, errlen)))
            goto done;
        off += 4 * cnt;
    }
    rc = 0;
done:
    free(d);
    if (rc != 0)
        climb_mriq_free(in);
    return rc;
}

int climb_mriq_read_output(const char *path, size_t *count, float **qr, float **qi, char *err, size_t errlen)
{
    *qr = *qi = NULL;
    *count = 0;
    unsigned char *d;
    size_t n;
    if (slurp(path, 4 + 8 * CLIMB_PARBOIL_MAX_COUNT, &d, &n, err, errlen) != 0)
        return -1;
    int rc = -1;
    if (n < 4) {
        snprintf(err, errlen, "%s: %zu bytes: shorter than the count (4 bytes)", path, n);
        goto done;
    }
    const uint32_t x = le32(d);
    if (x > CLIMB_PARBOIL_MAX_COUNT || n != 4 + 8 * (size_t)x) {
        snprintf(err, errlen, "%s: %zu bytes; numX = %u needs %zu", path, n, x, 4 + 8 * (size_t)x);
        goto done;
    }
    if (!(*qr = floats(path, d, 4, x, "Qr", err, errlen)) || !(*qi = floats(path, d, 4 + 4 * (size_t)x, x, "Qi", err, errlen)))
        goto done;
    *count = x;
    rc = 0;
done:
    free(d);
    if (rc != 0) {
        free(*qr);
        free(*qi);
        *qr = *qi = NULL;
    }
    return rc;
}

int climb_cutcp_read_reference(const char *path, double *abs_sum, size_t *plane_size, float **first, float **last,
                               char *err, size_t errlen)
{
    *first = *last = NULL;
    unsigned char *d;
    size_t n;
    if (slurp(path, 8 + 8 * CLIMB_PARBOIL_MAX_COUNT, &d, &n, err, errlen) != 0)
        return -1;
    int rc = -1;
    if (n < 8) {
        snprintf(err, errlen, "%s: %zu bytes: shorter than the sum and the plane size (8 bytes)", path, n);
        goto done;
    }
    float sum;
    const uint32_t b = le32(d), p = le32(d + 4);
    memcpy(&sum, &b, 4);
    if (!isfinite(sum) || sum < 0) {
        snprintf(err, errlen, "%s: the sum of |potential| is %g, not a finite number >= 0 (at byte 0)", path, sum);
        goto done;
    }
    if (p > CLIMB_PARBOIL_MAX_COUNT || n != 8 + 8 * (size_t)p) {
        snprintf(err, errlen, "%s: %zu bytes; a plane of %u points needs %zu", path, n, p, 8 + 8 * (size_t)p);
        goto done;
    }
    if (!(*first = floats(path, d, 8, p, "the first plane", err, errlen)) ||
        !(*last = floats(path, d, 8 + 4 * (size_t)p, p, "the last plane", err, errlen)))
        goto done;
    *abs_sum = sum;
    *plane_size = p;
    rc = 0;
done:
    free(d);
    if (rc != 0) {
        free(*first);
        free(*last);
        *first = *last = NULL;
    }
    return rc;
}

double climb_cutcp_potential_at(const float *xyzq, size_t n, const double p[3], double cutoff, double exclusion)
{
    const double c2 = cutoff * cutoff, e2 = exclusion * exclusion;
    double v = 0;
    for (size_t a = 0; a < n; a++) {
        const double q = xyzq[4 * a + 3];
        if (q == 0)
            continue;
        const double dx = p[0] - xyzq[4 * a], dy = p[1] - xyzq[4 * a + 1], dz = p[2] - xyzq[4 * a + 2];
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < e2)
            return 0; /* Parboil zeroes a point any atom is this near */
        if (r2 < c2) {
            const double s = 1 - r2 / c2;
            v += q / sqrt(r2) * s * s;
        }
    }
    return v;
}

void climb_cutcp_lattice(const double lo[3], const double hi[3], double h, double padding, double origin[3],
                         size_t n[3])
{
    for (int d = 0; d < 3; d++) {
        origin[d] = lo[d] - padding;
        n[d] = (size_t)floor((hi[d] + padding - origin[d]) / h) + 1;
    }
}
