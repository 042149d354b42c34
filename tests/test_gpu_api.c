/* GPU: the C API against the CPU reference for many n and alignments, on a stream of the caller's, with
 * repeatable f32 results and clear refusals of bad pointers. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "climb.h"
#include "base/rng.h"
#include "workloads/reduce/reduce.h"
#include "testing.h"

static const size_t SIZES[] = {0, 1, 3, 4, 5, 255, 1000, 4097, 65537, ((size_t)1 << 20) + 3, ((size_t)1 << 24) + 1};
#define MAX_N (((size_t)1 << 24) + 1 + 3)

/* The API's sums against the CPU reference over SIZES (the first `n_sizes`) x 4 offsets. */
static void check_sums(climb_handle h, cudaStream_t s, int32_t *hi, float *hf, void *d_in, void *d_out, int n_sizes,
                       const char *label)
{
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    for (int k = 0; k < n_sizes; k++) {
        size_t n = SIZES[k];
        for (unsigned off = 0; off < 4; off++) {
            /* i32: exact, full-range values. */
            climb_rng_fill_i32(&rng, hi, n, INT32_MIN, INT32_MAX);
            int32_t *di = (int32_t *)d_in + off;
            EXPECT(cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            int32_t want = climb_reduce_ref_i32(hi, n), got = ~want;
            EXPECT(cudaMemcpy(d_out, &got, 4, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(climb_reduce_sum_i32(h, di, n, (int32_t *)d_out) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
            EXPECT(cudaMemcpy(&got, d_out, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(got == want, "%s: i32 n=%zu offset=%u: got %d, expected %d", label, n, off, got, want);

            /* f32: within the stated tolerance, and bit-identical when repeated. */
            climb_rng_fill_f32(&rng, hf, n, -1.0f, 1.0f);
            float *df = (float *)d_in + off;
            EXPECT(cudaMemcpy(df, hf, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            double abs_sum, wantf = climb_reduce_ref_f32(hf, n, &abs_sum);
            float a = nanf(""), b = nanf("");
            EXPECT(cudaMemcpy(d_out, &a, 4, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(climb_reduce_sum_f32(h, df, n, (float *)d_out) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaMemcpyAsync(&a, d_out, 4, cudaMemcpyDeviceToHost, s) == cudaSuccess);
            EXPECT(climb_reduce_sum_f32(h, df, n, (float *)d_out) == CLIMB_STATUS_SUCCESS);
            EXPECT(cudaMemcpyAsync(&b, d_out, 4, cudaMemcpyDeviceToHost, s) == cudaSuccess);
            EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
            EXPECT_MSG(fabs(a - wantf) <= climb_reduce_tol_f32(n, abs_sum), "%s: f32 n=%zu offset=%u: got %.9g, expected %.9g",
                       label, n, off, a, wantf);
            EXPECT_MSG(memcmp(&a, &b, 4) == 0, "%s: f32 n=%zu offset=%u: %.9g then %.9g", label, n, off, a, b);
        }
    }
}

int main(void)
{
    test_require_gpu();
    /* The default wisdom file must not be one the machine happens to have. */
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1);
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    char line[800];
    int from = -1;
    EXPECT(climb_get_tuning(h, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS);
    EXPECT_MSG(from == 0 && strstr(line, "no wisdom file at /nonexistent/climb-test/wisdom.json"), "%s", line);
    EXPECT(climb_get_tuning(h, "nosuch", line, sizeof line, &from) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(NULL, "reduce", line, sizeof line, &from) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(h, "reduce", line, 0, &from) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_load_wisdom(NULL, NULL) == CLIMB_STATUS_INVALID_VALUE);
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    cudaStream_t got_s;
    EXPECT(climb_get_stream(h, &got_s) == CLIMB_STATUS_SUCCESS && got_s == s);

    int32_t *hi = malloc(MAX_N * sizeof *hi);
    float *hf = malloc(MAX_N * sizeof *hf);
    void *d_in, *d_out;
    EXPECT(cudaMalloc(&d_in, MAX_N * 4) == cudaSuccess);
    EXPECT(cudaMalloc(&d_out, 16) == cudaSuccess);
    const int all = (int)(sizeof SIZES / sizeof SIZES[0]);
    check_sums(h, s, hi, hf, d_in, d_out, all, "defaults");

    /* A wisdom file for this GPU with values unlike the defaults: the handle uses them, and says so. */
    struct cudaDeviceProp p;
    int driver = 0;
    EXPECT(cudaGetDeviceProperties(&p, 0) == cudaSuccess && cudaDriverGetVersion(&driver) == cudaSuccess);
    char dir[] = "/tmp/climb_api_wisdom_XXXXXX", path[128], text[1024];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/w.json", dir);
    snprintf(text, sizeof text,
             "{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"reduce\", \"gpu\": \"%s\", "
             "\"cc\": \"%d.%d\", \"driver\": %d, \"climb\": \"%d.%d.%d\", "
             "\"params\": {\"block\": 128, \"blocks_per_sm\": 2, \"vecs\": 1}}]}\n",
             p.name, p.major, p.minor, driver, CLIMB_VERSION_MAJOR, CLIMB_VERSION_MINOR, CLIMB_VERSION_PATCH);
    test_write_text(path, text);
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_get_tuning(h, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS);
    EXPECT_MSG(from == 1 && strstr(line, "block=128 blocks_per_sm=2 vecs=1") && strstr(line, path), "%s", line);
    check_sums(h, s, hi, hf, d_in, d_out, all, "wisdom 128/2/1");

    /* Corrupt and foreign files: the defaults, the reason in the tuning line, results still right. */
    test_write_text(path, "{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"reduce\",\n");
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_get_tuning(h, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS);
    EXPECT_MSG(from == 0 && strstr(line, "wisdom not used") && strstr(line, path), "%s", line);
    check_sums(h, s, hi, hf, d_in, d_out, 8, "corrupt wisdom");
    char foreign[1024];
    snprintf(foreign, sizeof foreign, "%s", text);
    char *g = strstr(foreign, p.name);
    if (g)
        memcpy(g, "X", 1);
    test_write_text(path, foreign);
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_get_tuning(h, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS);
    EXPECT_MSG(from == 0 && strstr(line, "wisdom not used") && strstr(line, "not this"), "%s", line);
    check_sums(h, s, hi, hf, d_in, d_out, 8, "foreign wisdom");
    /* A file named explicitly that is missing: the call succeeds, the tuning line says why no wisdom was used. */
    EXPECT(climb_load_wisdom(h, "/nonexistent/climb-test/named.json") == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_get_tuning(h, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS);
    EXPECT_MSG(from == 0 && strstr(line, "wisdom not used: no wisdom file at /nonexistent/climb-test/named.json"), "%s",
               line);
    /* And the file named by CLIMB_WISDOM is what a new handle reads. */
    test_write_text(path, text);
    setenv("CLIMB_WISDOM", path, 1);
    climb_handle h2;
    EXPECT(climb_create(&h2, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_get_tuning(h2, "reduce", line, sizeof line, &from) == CLIMB_STATUS_SUCCESS && from == 1);
    EXPECT(climb_destroy(h2) == CLIMB_STATUS_SUCCESS);
    remove(path);
    rmdir(dir);

    /* n = 0 writes the identity even with no input pointer. */
    int32_t z = 12345;
    EXPECT(cudaMemcpy(d_out, &z, 4, cudaMemcpyHostToDevice) == cudaSuccess);
    EXPECT(climb_reduce_sum_i32(h, NULL, 0, (int32_t *)d_out) == CLIMB_STATUS_SUCCESS);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaMemcpy(&z, d_out, 4, cudaMemcpyDeviceToHost) == cudaSuccess && z == 0);

    /* Refusals: NULL output, NULL input with n > 0, pageable host memory, a misaligned element pointer. */
    EXPECT(climb_reduce_sum_i32(h, (int32_t *)d_in, 10, NULL) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_reduce_sum_i32(h, NULL, 10, (int32_t *)d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_reduce_sum_i32(h, hi, 10, (int32_t *)d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_reduce_sum_f32(h, (float *)((char *)d_in + 2), 10, (float *)d_out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_last_cuda_error(h) == cudaSuccess);

    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    free(hi);
    free(hf);
    return test_finish("test_gpu_api");
}
