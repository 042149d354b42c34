/* Matrix addition: the parts of src/workloads/matadd.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_MATADD_H
#define CLIMB_WORKLOADS_MATADD_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_matadd_workload;

/* CPU reference: c = a + b element by element in type t (f32 or f64), rows x cols, rows ld elements apart;
 * c's padding is not written. */
void climb_matadd_ref(climb_dtype t, const void *a, const void *b, void *c, size_t rows, size_t cols, size_t ld);

#ifdef __cplusplus
}
#endif

#endif
