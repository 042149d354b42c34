/* Bezier tessellation: the parts of src/workloads/bezier.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_BEZIER_H
#define CLIMB_WORKLOADS_BEZIER_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_bezier_workload;

/* The most points a case's output holds (curves x max_points): the offsets are 32-bit. */
#define CLIMB_BEZIER_MAX_OUTPUT 2147483647u
/* The most curves the dynamic-parallelism rung takes: a device launch a curve, all pending at once. */
#define CLIMB_BEZIER_DP_MAX_CURVES ((size_t)1 << 20)

#ifdef __cplusplus
}
#endif

#endif
