/* MRI-Q: the parts of src/workloads/mriq.cu that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_MRIQ_H
#define CLIMB_WORKLOADS_MRIQ_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_mriq_workload;

/* The k-space samples: k of them, each at (kx, ky, kz) (cycles per field of view) with the complex value
 * (phi_r, phi_i). */
typedef struct climb_mriq_kspace {
    size_t k;
    const float *kx, *ky, *kz, *phi_r, *phi_i;
} climb_mriq_kspace;

/* Q at voxel (x, y, z) in double: Qr + i Qi = sum over the samples of |phi|^2 (cos + i sin)(2 pi k . x), from the
 * float inputs. tol (may be NULL) gets what a float computation may be off by, in each of Qr and Qi:
 *   sum |phi|^2 (c 2^-24 A + e) + 1.01 (k + 8) 2^-24 sum |phi|^2 + 2^-22 sum |phi|^2,
 * A = 2 pi (|kx x| + |ky y| + |kz z|) the phase's magnitude, whose float rounding moves the angle; c = 6 and
 * e = 2^-22 with the accurate sinf and cosf (2 ulp); c = 8 and e = 2^-20 with the hardware's __sinf and __cosf
 * (MUFU: the argument scaled by 1 / 2 pi, then 2^-21.4 absolute). mag (may be NULL) gets sum |phi|^2. */
void climb_mriq_ref_at(const climb_mriq_kspace *ks, float x, float y, float z, int sfu, double *qr, double *qi,
                       double *tol, double *mag);

/* The best rung's tunable parameters, in the order of climb_mriq_workload.tuning->params. */
typedef struct climb_mriq_tuning {
    int voxels;      /* voxels a thread, a block's width apart */
    int block;       /* threads a block (the samples a shared tile holds) */
} climb_mriq_tuning;

void climb_mriq_set_tuning(climb_mriq_tuning *t, const int *values);

/* The rung marked best, for the library face: qr, qi (voxels floats each) = Q of the samples at the voxels (x, y,
 * z: voxels floats each), on stream s, with ws (16 k bytes, 16-byte aligned) for the samples as (kx, ky, kz,
 * |phi|^2). Device memory throughout; capturable. */
cudaError_t climb_mriq_best(const climb_mriq_tuning *t, const climb_mriq_kspace *ks, const float *x, const float *y,
                            const float *z, size_t voxels, float *qr, float *qi, void *ws, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
