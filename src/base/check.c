#include "check.h"

#include <stdio.h>

int climb_cuda_failed(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess)
        return 0;
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorName(err),
            cudaGetErrorString(err));
    return 1;
}
