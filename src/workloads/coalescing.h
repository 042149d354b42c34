/* The coalescing lab: the parts of src/workloads/coalescing.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_COALESCING_H
#define CLIMB_WORKLOADS_COALESCING_H

#include <stddef.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_coalescing_workload;

/* The access patterns (the `pattern` option's choices, in order). */
typedef enum climb_coal_pattern {
    CLIMB_COAL_COALESCED = 0, /* thread t takes item t */
    CLIMB_COAL_IDLE = 1,      /* every fourth lane of a warp sits out; the others take consecutive items */
    CLIMB_COAL_MISALIGNED = 2,/* thread t takes item t, the arrays start `offset` words past a 256-byte boundary */
    CLIMB_COAL_PERMUTED = 3,  /* the items of a warp's 32 taken in a scrambled order */
    CLIMB_COAL_STRIDED = 4    /* neighbouring threads take items `stride` apart */
} climb_coal_pattern;

/* How many threads pattern p needs for m items (a whole number of 32-thread groups for idle and permuted). */
size_t climb_coal_threads(int p, size_t m, unsigned stride);
/* The item thread `gid` takes under pattern p, or (size_t)-1 when it takes none. The same function the kernels
 * use: the tests check it is a one-to-one map onto [0, m). */
size_t climb_coal_item(int p, size_t gid, size_t m, unsigned stride);

#ifdef __cplusplus
}
#endif

#endif
