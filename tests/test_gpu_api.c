/* GPU: the C API against the CPU reference for many n and alignments, on a stream of the caller's, with
 * repeatable f32 results and clear refusals of bad pointers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "core/rng.h"
#include "workloads/reduce.h"
#include "testing.h"

int main(void)
{
    test_require_gpu();
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    cudaStream_t got_s;
    EXPECT(climb_get_stream(h, &got_s) == CLIMB_STATUS_SUCCESS && got_s == s);

    const size_t sizes[] = {0, 1, 3, 4, 5, 255, 1000, 4097, 65537, ((size_t)1 << 20) + 3, ((size_t)1 << 24) + 1};
    const size_t max_n = ((size_t)1 << 24) + 1 + 3;
    int32_t *hi = malloc(max_n * sizeof *hi);
    float *hf = malloc(max_n * sizeof *hf);
    void *d_in, *d_out;
    EXPECT(cudaMalloc(&d_in, max_n * 4) == cudaSuccess);
    EXPECT(cudaMalloc(&d_out, 16) == cudaSuccess);
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
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
            EXPECT_MSG(got == want, "i32 n=%zu offset=%u: got %d, expected %d", n, off, got, want);

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
            EXPECT_MSG(fabs(a - wantf) <= climb_reduce_tol_f32(n, abs_sum), "f32 n=%zu offset=%u: got %.9g, expected %.9g",
                       n, off, a, wantf);
            EXPECT_MSG(memcmp(&a, &b, 4) == 0, "f32 n=%zu offset=%u: %.9g then %.9g", n, off, a, b);
        }
    }

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
