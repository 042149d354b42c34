/* The process's one cuBLAS handle (see cublas_shared.h). */
#include <stdio.h>

#include "cublas_shared.h"

int climb_cublas_shared(cublasHandle_t *out, const char *who)
{
    static cublasHandle_t shared = NULL;
    if (!shared) {
        cublasStatus_t st = cublasCreate(&shared);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "climb: %s: cublasCreate: %s\n", who, cublasGetStatusString(st));
            shared = NULL;
            return -1;
        }
    }
    *out = shared;
    return 0;
}
