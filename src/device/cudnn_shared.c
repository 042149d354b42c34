/* The process's one cuDNN handle (see cudnn_shared.h). */
#ifdef CLIMB_HAVE_CUDNN
#include <pthread.h>
#include <stdio.h>

#include "cudnn_shared.h"

int climb_cudnn_ok(cudnnStatus_t st, const char *who, const char *what)
{
    if (st == CUDNN_STATUS_SUCCESS)
        return 0;
    fprintf(stderr, "climb: %s: %s: %s\n", who, what, cudnnGetErrorString(st));
    return -1;
}

int climb_cudnn_shared(cudnnHandle_t *out, const char *who)
{
    static cudnnHandle_t shared = NULL;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (!shared && climb_cudnn_ok(cudnnCreate(&shared), who, "cudnnCreate") != 0) {
        shared = NULL;
        rc = -1;
    }
    *out = shared;
    pthread_mutex_unlock(&lock);
    return rc;
}
#else
typedef int climb_cudnn_shared_unused; /* ISO C wants something in a translation unit */
#endif
