/* Host <-> device transfers: the parts of src/workloads/bandwidth.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_BANDWIDTH_H
#define CLIMB_WORKLOADS_BANDWIDTH_H

#include <stddef.h>
#include <stdint.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_bandwidth_workload;

/* The directions (the `direction` option's choices, in order). */
typedef enum climb_bw_direction { CLIMB_BW_H2D = 0, CLIMB_BW_D2H = 1, CLIMB_BW_BIDIR = 2 } climb_bw_direction;

/* The overlap rungs' kernel, word by word: `work` rounds of x = x * 1664525 + 1013904223 (mod 2^32). The closed
 * form the CPU checks with: the composition of `work` rounds is x -> a x + b; climb_bw_rounds gives (a, b). */
void climb_bw_rounds(unsigned work, uint32_t *a, uint32_t *b);

#ifdef __cplusplus
}
#endif

#endif
