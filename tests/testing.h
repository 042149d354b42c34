/* Small test helpers: EXPECT records a failure and carries on, the exit code says whether any failed,
 * and GPU tests skip with CTest's skip code (77) where there is no device. */
#ifndef CLIMB_TESTS_TESTING_H
#define CLIMB_TESTS_TESTING_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

static int test_failures = 0;
static int test_checks = 0;

#define EXPECT(cond)                                                                 \
    do {                                                                             \
        test_checks++;                                                               \
        if (!(cond)) {                                                               \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
        }                                                                            \
    } while (0)

#define EXPECT_MSG(cond, ...)                                                        \
    do {                                                                             \
        test_checks++;                                                               \
        if (!(cond)) {                                                               \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)

static inline int test_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

#define TEST_SKIP_CODE 77

/* Exits with the skip code, saying why, when no CUDA device can be used. */
static inline void test_require_gpu(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("SKIP: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "none present");
        exit(TEST_SKIP_CODE);
    }
}

#endif
