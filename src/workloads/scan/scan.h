/* Prefix scan (sum): the parts of src/workloads/scan/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_SCAN_H
#define CLIMB_WORKLOADS_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_scan_workload;

/* CPU references. i32: exact, wrapped modulo 2^32 as the GPU's adds are. f32: in double; abs_prefix (if not NULL)
 * gets, for each output, the sum of |x_j| over the inputs it includes (the scale of its tolerance).
 * exclusive: out[i] = x[0] + ... + x[i-1] (out[0] = 0); else out[i] = x[0] + ... + x[i]. */
void climb_scan_ref_i32(const int32_t *x, size_t n, int exclusive, int32_t *out);
void climb_scan_ref_f32(const float *x, size_t n, int exclusive, double *out, float *abs_prefix);

/* The f32 tolerance of an output whose inputs' absolute values sum to abs_prefix and which passes through at most
 * `depth` additions on its way (see climb_scan_depth): gamma(depth) x abs_prefix, gamma(d) = d u / (1 - d u),
 * u = 2^-24 (Higham's bound for any summation tree of that height), plus the one rounding of the output. */
double climb_scan_tol_f32(double abs_prefix, double depth);
/* The most additions any input passes through to reach output i, for a scan that chains tiles of `chain_tile`
 * elements one after another (0: not chained, only trees and a bounded hierarchy). */
double climb_scan_depth(size_t i, size_t chain_tile);

/* The best rung's tunable parameters, in the order of climb_scan_workload.tuning->params. */
typedef struct climb_scan_tuning {
    int block;   /* threads per block */
    int items;   /* elements per thread: a tile is block x items */
} climb_scan_tuning;

void climb_scan_set_tuning(climb_scan_tuning *t, const int *values);

/* The most elements the best rung takes: its tiles (1024 elements at the least, in every candidate) number below
 * 2^31, a grid's limit, up to 2^41 elements; 2^40 leaves room and no GPU holds such an array. */
#define CLIMB_SCAN_MAX_N ((size_t)1 << 40)

/* The best rung (single-pass decoupled look-back) for the library face (src/lib/scan.c): out = scan(in) on s;
 * out == in allowed; n up to CLIMB_SCAN_MAX_N, any alignment. The workspace (climb_scan_best_workspace bytes for n) must be zeroed
 * once when allocated; each call leaves it ready for the next (no reset between calls), whatever the tuning. */
size_t climb_scan_best_workspace(const climb_scan_tuning *t, size_t n);
cudaError_t climb_scan_best(const climb_scan_tuning *t, climb_dtype type, int exclusive, const void *in, void *out,
                            size_t n, void *ws, size_t ws_bytes, cudaStream_t s);
/* The kernel climb_scan_best launches for this tuning and type (aligned: both arrays 16-byte aligned), for the
 * occupancy listings of rungs that call it; NULL for a tuning or type it does not take. */
const void *climb_scan_best_kernel(const climb_scan_tuning *t, climb_dtype type, int aligned);
/* For the tests: sets the call counter in a best-rung workspace, to reach the wrap of its tile flags' epochs. */
cudaError_t climb_scan_best_set_epoch(void *ws, uint32_t epoch);
/* The epoch after which the counter wraps (and the workspace's flags are cleared by the wrapping call). */
uint32_t climb_scan_epochs(void);

#ifdef __cplusplus
}
#endif

#endif
