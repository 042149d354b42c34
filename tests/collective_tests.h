/* What the tests of the collectives across GPUs (allreduce, allgather, reducescatter) share, in one place:
 *  - test_collective_table (CPU): the table valid, vendor first, one best, spanning 2 or more GPUs, i32 and f32,
 *    counted in nccl-tests' bus bytes, the kernels that cross links refused without peer access; it prints what
 *    failed and returns the number of failed checks (a test counts it with EXPECT(... == 0), as api_jobs.h's do);
 *  - test_collective_gpu (GPU, skipped below two GPUs): on every GPU here, every rung of i32 and f32 poisoned (an
 *    unwritten output fails) and then right after a run, the run's device current again after each; climb check
 *    over the edge sizes with a fixed and a fresh seed; on three GPUs where there are three or more (a rung that
 *    needs a power of two of them refuses, saying why); it returns the test's exit code. */
#ifndef CLIMB_TESTS_COLLECTIVE_TESTS_H
#define CLIMB_TESTS_COLLECTIVE_TESTS_H

#include <stddef.h>

#include "core/workload.h"

int test_collective_table(const climb_workload *w, const char *bytes_formula);
int test_collective_gpu(const climb_workload *w, size_t n, const char *name);

#endif
