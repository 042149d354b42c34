/* NCCL, opened at run time: climb builds where nccl.h is (CLIMB_HAVE_NCCL) and runs where libnccl is absent, saying
 * so wherever a rung or a call needs it. Before NCCL is opened, and so before any NCCL call in this process,
 * NCCL_NVLS_ENABLE is set to 0: NVLink multicast (NVLS) can take a host's shared GPUs out of service, and climb never
 * uses it (nor the driver's multicast objects, nor multicast instructions). A process climb starts inherits the
 * setting. */
#ifndef CLIMB_DEVICE_NCCL_H
#define CLIMB_DEVICE_NCCL_H

#include <stddef.h>

#if CLIMB_HAVE_NCCL
#include <nccl.h> /* before extern "C": it includes C++ headers of its own when compiled as C++ */
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if CLIMB_HAVE_NCCL

/* The NCCL functions climb calls, from the library that was opened. */
typedef struct climb_nccl {
    int version; /* ncclGetVersion's code: 22809 for 2.28.9 */
    char path[256];
    ncclResult_t (*get_unique_id)(ncclUniqueId *id);
    ncclResult_t (*comm_init_rank)(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
    ncclResult_t (*comm_init_rank_config)(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank,
                                          ncclConfig_t *config);
    ncclResult_t (*comm_init_all)(ncclComm_t *comms, int ndev, const int *devlist);
    ncclResult_t (*comm_destroy)(ncclComm_t comm);
    ncclResult_t (*comm_abort)(ncclComm_t comm);
    ncclResult_t (*comm_get_async_error)(ncclComm_t comm, ncclResult_t *err);
    const char *(*error_string)(ncclResult_t r);
    ncclResult_t (*all_reduce)(const void *send, void *recv, size_t count, ncclDataType_t t, ncclRedOp_t op,
                               ncclComm_t comm, cudaStream_t s);
    ncclResult_t (*all_gather)(const void *send, void *recv, size_t count, ncclDataType_t t, ncclComm_t comm,
                               cudaStream_t s);
    ncclResult_t (*reduce_scatter)(const void *send, void *recv, size_t count, ncclDataType_t t, ncclRedOp_t op,
                                   ncclComm_t comm, cudaStream_t s);
    ncclResult_t (*send)(const void *buf, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t s);
    ncclResult_t (*recv)(void *buf, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t s);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
} climb_nccl;

/* NCCL for this process, opened once (thread-safe): the library $CLIMB_NCCL_LIBRARY names, else libnccl.so.2 by
 * the loader's search, else the one beside the CUDA toolkit climb was built with. NULL where none opens or one
 * lacks a function, with why ("libnccl.so.2: cannot open shared object file ..."). */
const climb_nccl *climb_nccl_get(char *why, size_t len);

/* Opens the library at `path` into *out (the step climb_nccl_get takes once, here for the tests): sets
 * NCCL_NVLS_ENABLE=0 first. 0, or -1 with why. */
int climb_nccl_open(const char *path, climb_nccl *out, char *why, size_t len);
#endif

/* Why an NCCL rung cannot run here ("no NCCL here: ...", or that climb was built without nccl.h), or NULL where
 * NCCL opens: a rung's refusal. */
const char *climb_nccl_refusal(void);

/* Sets NCCL_NVLS_ENABLE=0 in this process's environment, whatever it was (0, or -1 where setenv fails). */
int climb_nccl_forbid_multicast(void);

#ifdef __cplusplus
}
#endif

#endif
