/* Bezier tessellation: the parts of src/workloads/bezier.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_BEZIER_H
#define CLIMB_WORKLOADS_BEZIER_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "reference.h"
#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_bezier_workload;

/* The most points a case's output holds (curves x max_points): the offsets are 32-bit. */
#define CLIMB_BEZIER_MAX_OUTPUT 2147483647u
/* The most points a curve may be given (max_points). */
#define CLIMB_BEZIER_MAX_POINTS 4096
/* The most curves the dynamic-parallelism rung takes: a device launch a curve, all pending at once. 2^20 curves
 * failed on an H100 ("a device-side launch failed", the pending pool set to 2^20 + 64) at e246d9f; 65537 ran. */
#define CLIMB_BEZIER_DP_MAX_CURVES ((size_t)1 << 16)

/* The best rung for the library face (src/lib/bezier.c): n curves tessellated into counts, offsets (the exclusive
 * scan of the counts) and points (x, y pairs; room for n x max_points) on s, with no host round trip (capturable).
 * The workspace holds climb_bezier_best_workspace bytes for n and must be zeroed before its first use. */
size_t climb_bezier_best_workspace(int32_t n);
cudaError_t climb_bezier_best(int32_t n, int32_t max_points, const climb_bezier *curves, int32_t *counts,
                              int32_t *offsets, float *points, void *ws, size_t ws_bytes, int sms, int cc_major,
                              cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
