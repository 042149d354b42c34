/* Host memory: the one out-of-memory message, and the check made before a large allocation. */
#ifndef CLIMB_BASE_HOST_H
#define CLIMB_BASE_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one message for a host allocation that failed: "climb: out of host memory for WHAT" (WHAT from fmt, "the
 * case" when fmt is ""). Returns -1, for `return climb_host_oom(...)`. */
int climb_host_oom(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 (after printing why) if `bytes` of host memory for `what` are more than half of this machine's
 * physical memory. Checked before allocating, because with memory overcommit a huge malloc succeeds
 * and the process is killed only when the pages are touched. */
int climb_host_memory_refuses(size_t bytes, const char *what);

#ifdef __cplusplus
}
#endif

#endif
