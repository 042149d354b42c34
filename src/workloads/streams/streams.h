/* Many small kernels: the parts of src/workloads/streams.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_STREAMS_H
#define CLIMB_WORKLOADS_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_streams_workload;

/* The work of one thread of one kernel: x after `steps` steps of x = 1664525 x + 1013904223 (mod 2^32), the
 * recurrence the kernels run one step at a time; here by squaring, in O(log steps). */
uint32_t climb_streams_lcg(uint32_t x, uint64_t steps);

/* The iterations a thread runs for a kernel of `us` microseconds, from two timed kernels of `base` and 4 x `base`
 * iterations (t1_us, t4_us: the slope is the cost of an iteration, the launch's fixed cost cancels): at least 1,
 * at most CLIMB_STREAMS_MAX_ITERS; 0 when the timings make no slope (t4_us <= t1_us). */
#define CLIMB_STREAMS_MAX_ITERS (1u << 30)
unsigned climb_streams_iters(double us, double t1_us, double t4_us, unsigned base);

#ifdef __cplusplus
}
#endif

#endif
