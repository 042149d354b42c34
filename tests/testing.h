/* Small test helpers: EXPECT records a failure and carries on, the exit code says whether any failed,
 * and GPU tests skip with CTest's skip code (77) where there is no device. */
#ifndef CLIMB_TESTS_TESTING_H
#define CLIMB_TESTS_TESTING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Writes text to path (a failure counts as a failed check). */
static inline void test_write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    EXPECT(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Reads up to len-1 bytes of path into buf, NUL-terminated; returns the count (0 if unreadable). */
static inline size_t test_read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return n;
}

/* A locale whose decimal point is a comma (de_DE.UTF-8): the system's, or one built with localedef into a folder
 * of its own (found through LOCPATH; removed by test_locale_done). NULL only where neither is possible, with a
 * note; a test that needs it then checks nothing more and says so. */
#include <locale.h>
static char test_locale_dir[64];
static inline locale_t test_decimal_comma_locale(void)
{
    locale_t de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
    if (!de && system("command -v localedef >/dev/null 2>&1") == 0) {
        char cmd[300];
        snprintf(test_locale_dir, sizeof test_locale_dir, "/tmp/climb_locale_XXXXXX");
        if (mkdtemp(test_locale_dir)) {
            snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", test_locale_dir);
            int rc = system(cmd);
            setenv("LOCPATH", test_locale_dir, 1);
            de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
            if (!de)
                fprintf(stderr, "localedef exited %d and the de_DE locale could not be loaded\n", rc);
        }
    }
    if (!de)
        printf("note: no de_DE locale and no localedef here: the decimal-comma case is not checked\n");
    return de;
}
static inline void test_locale_done(locale_t de)
{
    if (de)
        freelocale(de);
    if (test_locale_dir[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_locale_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", test_locale_dir);
        test_locale_dir[0] = '\0';
    }
}

#define TEST_SKIP_CODE 77

/* A device as the tuning policies and the wisdom see it (no GPU needed): a name, a compute capability, the threads an
 * SM holds and a driver version; 132 SMs. */
#include "device/device.h"
static inline climb_device_info test_device(const char *name, int major, int minor, int threads_per_sm, int driver)
{
    climb_device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.cc_major = major;
    d.cc_minor = minor;
    d.sms = 132;
    d.max_threads_per_sm = threads_per_sm;
    d.driver_version = driver;
    return d;
}

/* Why there is no CUDA device to test on, when that is the whole story: NULL when a device is there, or when the
 * device query failed in a way that means a broken machine rather than an absent GPU. No device at all
 * (cudaErrorNoDevice, or a count of 0) and no driver at all (libcuda cannot be loaded) are absent GPUs; any other
 * error (a driver that loads but does not answer, a driver older than the runtime, a device in a bad state) is a
 * broken machine, and a GPU test must fail there rather than pass by skipping. */
#include <dlfcn.h>
static inline const char *test_no_gpu_reason(cudaError_t e, int count, char *buf, size_t len)
{
    if (e == cudaSuccess)
        return count == 0 ? "no CUDA device present" : NULL; /* the CLI's words (climb_device_count) */
    if (e == cudaErrorNoDevice) {
        snprintf(buf, len, "no CUDA device (%s)", cudaGetErrorString(e));
        return buf;
    }
    if (e == cudaErrorInsufficientDriver) {
        void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
        if (!lib) {
            snprintf(buf, len, "no NVIDIA driver found (libcuda.so.1 could not be loaded)");
            return buf;
        }
        dlclose(lib);
    }
    return NULL;
}

/* Exits with the skip code, saying why, when there is no CUDA device; fails (exit 1) when the query fails on a
 * machine that has a driver: a broken GPU machine must not pass its GPU tests by skipping them. */
static inline void test_require_gpu(void)
{
    int n = 0;
    char why[160];
    cudaError_t e = cudaGetDeviceCount(&n);
    const char *skip = test_no_gpu_reason(e, n, why, sizeof why);
    if (skip) {
        printf("SKIP: %s\n", skip);
        exit(TEST_SKIP_CODE);
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "FAIL: the CUDA device query failed on a machine with a CUDA driver: %s (%s)\n",
                cudaGetErrorName(e), cudaGetErrorString(e));
        exit(1);
    }
}

/* test_require_gpu, then the skip code, said ("needs 2 GPUs, 1 here": scripts/gpu-run.sh allows that skip), where
 * there are fewer than n GPUs. Returns the count. */
static inline int test_require_gpus(int n)
{
    test_require_gpu();
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        count = 0;
    if (count < n) {
        printf("SKIP: needs %d GPUs, %d here\n", n, count);
        exit(TEST_SKIP_CODE);
    }
    return count;
}

#endif
