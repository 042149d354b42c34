/* Error checking for the harness (CLI, tests, benchmarks). The library face (src/lib) maps errors to
 * climb_status instead and never prints. */
#ifndef CLIMB_BASE_CHECK_H
#define CLIMB_BASE_CHECK_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 on cudaSuccess; otherwise prints "file:line: call failed: cudaErrorName (description)" to stderr
 * and returns 1. */
int climb_cuda_failed(cudaError_t err, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

/* Runs a CUDA call; on failure prints where and what, and makes the enclosing function return -1. */
#define CLIMB_FAILED(call) climb_cuda_failed((call), #call, __FILE__, __LINE__)
#define CLIMB_CHECK(call)            \
    do {                             \
        if (CLIMB_FAILED(call))      \
            return -1;               \
    } while (0)


#endif
