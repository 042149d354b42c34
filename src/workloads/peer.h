/* GPU to GPU transfers: the parts of src/workloads/peer.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_PEER_H
#define CLIMB_WORKLOADS_PEER_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_peer_workload;

/* 1 where the best rung stores `bytes` with a kernel (small copies), 0 where it hands them to a copy engine. */
int climb_peer_best_uses_kernel(size_t bytes);
/* The pipelined staging rung's piece for `bytes` in pieces of `chunk`: chunk, or larger so that there are at most
 * 1024 pieces; at least 1. */
size_t climb_peer_piece(size_t bytes, size_t chunk);
/* The best rung's copy of `bytes` from src (on src_dev, which must be current) to dst (on dst_dev), on stream s of
 * src_dev: the push kernel for a small copy where `access` (src_dev reaches dst_dev's memory) and both ends are
 * 16-byte aligned, else cudaMemcpyPeerAsync. The launch's or the copy's error. */
cudaError_t climb_peer_copy_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes, int access,
                                  int sms, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
