/* The process's one cuBLAS handle (see cublas_shared.h). */
#include <pthread.h>
#include <stdio.h>

#include "cublas_shared.h"

int climb_cublas_shared(cublasHandle_t *out, const char *who)
{
    static cublasHandle_t shared = NULL;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (!shared) {
        cublasStatus_t st = cublasCreate(&shared);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "climb: %s: cublasCreate: %s\n", who, cublasGetStatusString(st));
            shared = NULL;
            pthread_mutex_unlock(&lock);
            return -1;
        }
    }
    *out = shared;
    pthread_mutex_unlock(&lock);
    return 0;
}
