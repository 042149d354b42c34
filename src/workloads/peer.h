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
/* The best rung's copy of `bytes` from src (on the sending GPU, which must be current) to dst (on another), on stream
 * s of the sender: the push kernel for a small copy where `access` (the sender reaches dst's memory) and both ends
 * are 16-byte aligned, else the copy engine (climb_copy_across, which a stream capture accepts). `sms`: the
 * sender's SM count. The launch's or the copy's error. */
cudaError_t climb_peer_copy_async(void *dst, const void *src, size_t bytes, int access, int sms, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
