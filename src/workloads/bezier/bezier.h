/* Bezier tessellation: the parts of src/workloads/bezier.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_BEZIER_H
#define CLIMB_WORKLOADS_BEZIER_H

#include <stddef.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_bezier_workload;

/* The most points a case's output holds (curves x max_points): the offsets are 32-bit. */
#define CLIMB_BEZIER_MAX_OUTPUT 2147483647u
/* The most curves the dynamic-parallelism rung takes: a device launch a curve, all pending at once. 2^20 curves
 * failed on an H100 ("a device-side launch failed", the pending pool set to 2^20 + 64) at e246d9f; 65537 ran. */
#define CLIMB_BEZIER_DP_MAX_CURVES ((size_t)1 << 16)

#ifdef __cplusplus
}
#endif

#endif
