/* The counting shim of cuda_shim.h: a __wrap_ function for each CUDA runtime function the library calls. */
#include "cuda_shim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

static climb_shim_mode mode = CLIMB_SHIM_PASS;
static long n_calls, n_work, n_launches;
static char call_log[2048];
static int log_entries;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    uintptr_t begin, end;
    int device;
} fake[16];
static int n_fake;
static _Thread_local cudaError_t offline_error; /* offline: the runtime's last-error state, as it keeps it */

void climb_shim_set_mode(climb_shim_mode m) { mode = m; }

void climb_shim_reset(void)
{
    __atomic_store_n(&n_calls, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&n_work, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&n_launches, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&log_lock);
    call_log[0] = '\0';
    log_entries = 0;
    pthread_mutex_unlock(&log_lock);
}

long climb_shim_calls(void) { return __atomic_load_n(&n_calls, __ATOMIC_SEQ_CST); }
long climb_shim_work_calls(void) { return __atomic_load_n(&n_work, __ATOMIC_SEQ_CST); }
long climb_shim_launches(void) { return __atomic_load_n(&n_launches, __ATOMIC_SEQ_CST); }
const char *climb_shim_log(void) { return call_log; }

void climb_shim_fake_device(const void *base, size_t bytes) { climb_shim_fake_device_on(base, bytes, 0); }

void climb_shim_fake_device_on(const void *base, size_t bytes, int device)
{
    if (n_fake < 16) {
        fake[n_fake].begin = (uintptr_t)base;
        fake[n_fake].end = (uintptr_t)base + bytes;
        fake[n_fake].device = device;
        n_fake++;
    } else {
        fprintf(stderr, "cuda_shim: more than 16 fake device regions\n");
    }
}

void climb_shim_forget_devices(void) { n_fake = 0; }

enum { QUERY, WORK, LAUNCH };

/* Counts a call; 1 when it is to go to the runtime. */
static int count(const char *name, int kind)
{
    __atomic_add_fetch(&n_calls, 1, __ATOMIC_SEQ_CST);
    if (kind != QUERY)
        __atomic_add_fetch(&n_work, 1, __ATOMIC_SEQ_CST);
    if (kind == LAUNCH)
        __atomic_add_fetch(&n_launches, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&log_lock);
    if (log_entries < 60) {
        const size_t used = strlen(call_log);
        snprintf(call_log + used, sizeof call_log - used, "%s%s", used ? " " : "", name);
        log_entries++;
    }
    pthread_mutex_unlock(&log_lock);
    return mode == CLIMB_SHIM_PASS;
}

/* A wrapped function: counted, then the runtime's (pass) or `offline` (offline). */
#define SHIM(kind, name, offline, params, args)                                                                 \
    cudaError_t __real_##name params;                                                                          \
    cudaError_t __wrap_##name params;                                                                          \
    cudaError_t __wrap_##name params                                                                           \
    {                                                                                                          \
        if (count(#name, kind))                                                                                \
            return __real_##name args;                                                                         \
        offline;                                                                                               \
    }

#define NODEV return offline_error = cudaErrorNoDevice

SHIM(QUERY, cudaPointerGetAttributes,
     {
         memset(a, 0, sizeof *a);
         a->type = cudaMemoryTypeUnregistered;
         a->device = -2;
         for (int i = 0; i < n_fake; i++)
             if ((uintptr_t)p >= fake[i].begin && (uintptr_t)p < fake[i].end) {
                 a->type = cudaMemoryTypeDevice;
                 a->device = fake[i].device;
                 a->devicePointer = (void *)p;
             }
         return cudaSuccess;
     },
     (struct cudaPointerAttributes * a, const void *p), (a, p))
SHIM(QUERY, cudaGetLastError,
     {
         const cudaError_t e = offline_error;
         offline_error = cudaSuccess;
         return e;
     },
     (void), ())
SHIM(QUERY, cudaPeekAtLastError, return offline_error, (void), ())
SHIM(WORK, cudaGetDevice,
     {
         *d = 0;
         return cudaSuccess;
     },
     (int *d), (d))
SHIM(WORK, cudaSetDevice, return d == 0 ? cudaSuccess : cudaErrorInvalidDevice, (int d), (d))
SHIM(WORK, cudaStreamIsCapturing,
     {
         *st = cudaStreamCaptureStatusNone;
         return cudaSuccess;
     },
     (cudaStream_t s, enum cudaStreamCaptureStatus * st), (s, st))
SHIM(WORK, cudaThreadExchangeStreamCaptureMode, return cudaSuccess, (enum cudaStreamCaptureMode * m), (m))
SHIM(WORK, cudaGetDeviceCount, NODEV, (int *n), (n))
SHIM(WORK, cudaGetDeviceProperties, NODEV, (struct cudaDeviceProp * p, int d), (p, d))
SHIM(WORK, cudaDeviceGetAttribute, NODEV, (int *v, enum cudaDeviceAttr a, int d), (v, a, d))
SHIM(WORK, cudaDeviceGetLimit, NODEV, (size_t * v, enum cudaLimit l), (v, l))
SHIM(WORK, cudaDeviceSetLimit, NODEV, (enum cudaLimit l, size_t v), (l, v))
SHIM(WORK, cudaDeviceGetPCIBusId, NODEV, (char *id, int len, int d), (id, len, d))
SHIM(WORK, cudaDeviceSynchronize, NODEV, (void), ())
SHIM(WORK, cudaEventCreate, NODEV, (cudaEvent_t * e), (e))
SHIM(WORK, cudaEventCreateWithFlags, NODEV, (cudaEvent_t * e, unsigned f), (e, f))
SHIM(WORK, cudaEventDestroy, NODEV, (cudaEvent_t e), (e))
SHIM(WORK, cudaEventElapsedTime, NODEV, (float *ms, cudaEvent_t a, cudaEvent_t b), (ms, a, b))
SHIM(WORK, cudaEventRecord, NODEV, (cudaEvent_t e, cudaStream_t s), (e, s))
SHIM(WORK, cudaEventSynchronize, NODEV, (cudaEvent_t e), (e))
SHIM(WORK, cudaStreamCreateWithFlags, NODEV, (cudaStream_t * s, unsigned f), (s, f))
SHIM(WORK, cudaStreamDestroy, NODEV, (cudaStream_t s), (s))
SHIM(WORK, cudaStreamSynchronize, NODEV, (cudaStream_t s), (s))
SHIM(WORK, cudaStreamGetDevice, NODEV, (cudaStream_t s, int *d), (s, d))
SHIM(WORK, cudaStreamWaitEvent, NODEV, (cudaStream_t s, cudaEvent_t e, unsigned f), (s, e, f))
SHIM(WORK, cudaStreamBeginCapture, NODEV, (cudaStream_t s, enum cudaStreamCaptureMode m), (s, m))
SHIM(WORK, cudaStreamEndCapture, NODEV, (cudaStream_t s, cudaGraph_t * g), (s, g))
SHIM(WORK, cudaGraphInstantiate, NODEV, (cudaGraphExec_t * x, cudaGraph_t g, unsigned long long f), (x, g, f))
SHIM(WORK, cudaGraphDestroy, NODEV, (cudaGraph_t g), (g))
SHIM(WORK, cudaGraphExecDestroy, NODEV, (cudaGraphExec_t x), (x))
SHIM(WORK, cudaIpcGetEventHandle, NODEV, (cudaIpcEventHandle_t * h, cudaEvent_t e), (h, e))
SHIM(WORK, cudaIpcOpenEventHandle, NODEV, (cudaEvent_t * e, cudaIpcEventHandle_t h), (e, h))
SHIM(WORK, cudaIpcGetMemHandle, NODEV, (cudaIpcMemHandle_t * h, void *p), (h, p))
SHIM(WORK, cudaIpcOpenMemHandle, NODEV, (void **p, cudaIpcMemHandle_t h, unsigned f), (p, h, f))
SHIM(WORK, cudaIpcCloseMemHandle, NODEV, (void *p), (p))
SHIM(WORK, cudaDeviceCanAccessPeer, NODEV, (int *can, int d, int peer), (can, d, peer))
SHIM(WORK, cudaDeviceGetP2PAttribute, NODEV, (int *v, enum cudaDeviceP2PAttr a, int d, int peer), (v, a, d, peer))
SHIM(WORK, cudaDeviceEnablePeerAccess, return cudaSuccess, (int peer, unsigned f), (peer, f))
SHIM(WORK, cudaDeviceDisablePeerAccess, return cudaSuccess, (int peer), (peer))
SHIM(WORK, cudaFuncGetAttributes, NODEV, (struct cudaFuncAttributes * a, const void *f), (a, f))
SHIM(WORK, cudaFuncSetAttribute, NODEV, (const void *f, enum cudaFuncAttribute a, int v), (f, a, v))
SHIM(WORK, cudaGetDriverEntryPointByVersion, NODEV,
     (const char *sym, void **fn, unsigned int v, unsigned long long f, enum cudaDriverEntryPointQueryResult *q),
     (sym, fn, v, f, q))
SHIM(WORK, cudaOccupancyMaxActiveBlocksPerMultiprocessor, NODEV, (int *n, const void *f, int b, size_t sm),
     (n, f, b, sm))
SHIM(WORK, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, NODEV,
     (int *n, const void *f, int b, size_t sm, unsigned fl), (n, f, b, sm, fl))
SHIM(WORK, cudaOccupancyMaxActiveClusters, NODEV, (int *n, const void *f, const cudaLaunchConfig_t *c), (n, f, c))
SHIM(LAUNCH, cudaGraphLaunch, NODEV, (cudaGraphExec_t x, cudaStream_t s), (x, s))
SHIM(LAUNCH, cudaMalloc, NODEV, (void **p, size_t n), (p, n))
SHIM(LAUNCH, cudaMallocHost, NODEV, (void **p, size_t n), (p, n))
SHIM(LAUNCH, cudaHostAlloc, NODEV, (void **p, size_t n, unsigned f), (p, n, f))
SHIM(LAUNCH, cudaFree, NODEV, (void *p), (p))
SHIM(LAUNCH, cudaFreeHost, NODEV, (void *p), (p))
SHIM(LAUNCH, cudaMemcpy, NODEV, (void *d, const void *s, size_t n, enum cudaMemcpyKind k), (d, s, n, k))
SHIM(LAUNCH, cudaMemcpyAsync, NODEV, (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st),
     (d, s, n, k, st))
SHIM(LAUNCH, cudaMemcpyPeerAsync, NODEV, (void *d, int dd, const void *s, int sd, size_t n, cudaStream_t st),
     (d, dd, s, sd, n, st))
SHIM(LAUNCH, cudaMemcpy2D, NODEV,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k),
     (d, dp, s, sp, w, h, k))
SHIM(LAUNCH, cudaMemcpy2DAsync, NODEV,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k, cudaStream_t st),
     (d, dp, s, sp, w, h, k, st))
SHIM(LAUNCH, cudaMemcpyToSymbol, NODEV, (const void *sym, const void *s, size_t n, size_t o, enum cudaMemcpyKind k),
     (sym, s, n, o, k))
SHIM(LAUNCH, cudaMemcpyToSymbolAsync, NODEV,
     (const void *sym, const void *s, size_t n, size_t o, enum cudaMemcpyKind k, cudaStream_t st),
     (sym, s, n, o, k, st))
SHIM(LAUNCH, cudaMemset, NODEV, (void *p, int v, size_t n), (p, v, n))
SHIM(LAUNCH, cudaMemsetAsync, NODEV, (void *p, int v, size_t n, cudaStream_t s), (p, v, n, s))
SHIM(LAUNCH, cudaLaunchKernel, NODEV, (const void *f, dim3 g, dim3 b, void **a, size_t sm, cudaStream_t s),
     (f, g, b, a, sm, s))
SHIM(LAUNCH, cudaLaunchKernelExC, NODEV, (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
/* what a <<<...>>> launch compiles to (CUDA 12.x on) */
SHIM(LAUNCH, __cudaLaunchKernel, NODEV, (cudaKernel_t k, dim3 g, dim3 b, void **a, size_t sm, cudaStream_t s),
     (k, g, b, a, sm, s))
