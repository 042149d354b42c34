/* A plain C program using climb: sums a million random floats and ints on the GPU and checks them.
 * Build against an installed climb:  cc reduce_sum.c $(pkg-config --cflags --libs climb) -o reduce_sum */
#include <climb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, climb_status s)
{
    fprintf(stderr, "reduce_sum: %s: %s\n", what, climb_status_string(s));
    return 1;
}

int main(void)
{
    const size_t n = 1000003;
    float *x = malloc(n * sizeof *x);
    int32_t *k = malloc(n * sizeof *k);
    if (!x || !k)
        return 1;
    double want = 0;
    int64_t want_k = 0;
    srand(1);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)rand() / RAND_MAX - 0.5f;
        k[i] = rand() % 2001 - 1000;
        want += x[i];
        want_k += k[i];
    }

    climb_handle h;
    climb_status s = climb_create(&h, 0);
    if (s != CLIMB_STATUS_SUCCESS)
        return fail("climb_create", s);
    float *d_x, *d_sum;
    int32_t *d_k, *d_sum_k;
    if (cudaMalloc((void **)&d_x, n * sizeof *x) != cudaSuccess || cudaMalloc((void **)&d_k, n * sizeof *k) != cudaSuccess ||
        cudaMalloc((void **)&d_sum, sizeof *d_sum) != cudaSuccess || cudaMalloc((void **)&d_sum_k, sizeof *d_sum_k) != cudaSuccess) {
        fprintf(stderr, "reduce_sum: out of device memory\n");
        return 1;
    }
    cudaMemcpy(d_x, x, n * sizeof *x, cudaMemcpyHostToDevice);
    cudaMemcpy(d_k, k, n * sizeof *k, cudaMemcpyHostToDevice);
    if ((s = climb_reduce_sum_f32(h, d_x, n, d_sum)) != CLIMB_STATUS_SUCCESS)
        return fail("climb_reduce_sum_f32", s);
    if ((s = climb_reduce_sum_i32(h, d_k, n, d_sum_k)) != CLIMB_STATUS_SUCCESS)
        return fail("climb_reduce_sum_i32", s);
    float got;
    int32_t got_k;
    if (cudaMemcpy(&got, d_sum, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(&got_k, d_sum_k, sizeof got_k, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "reduce_sum: copy back failed\n");
        return 1;
    }
    printf("f32 sum %.6f (double reference %.6f), i32 sum %d (reference %lld)\n", got, want, got_k, (long long)want_k);
    climb_destroy(h);
    cudaFree(d_x);
    cudaFree(d_k);
    cudaFree(d_sum);
    cudaFree(d_sum_k);
    free(x);
    free(k);
    return fabs(got - want) <= 1e-3 && got_k == want_k ? 0 : 1;
}
