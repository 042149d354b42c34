/* The 7-point stencil across GPUs: the parts of src/workloads/stencil_gpus.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_STENCIL_GPUS_H
#define CLIMB_WORKLOADS_STENCIL_GPUS_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#include "../core/workload.h"
#ifdef __cplusplus
extern "C" {
#endif
extern const climb_workload climb_stencil_gpus_workload;
/* One step of rank `rank`'s slab of an nx x ny x nz grid split over nranks (climb_slab_of): every plane it owns, in
 * out, from in (its halos as they are), on stream s of the slab's GPU (current), with the stencil's built-in tile.
 * The same bits as climb_stencil_best on the whole grid. cudaSuccess, or the launch's error. */
cudaError_t climb_stencil_gpus_owned_async(size_t nx, size_t ny, size_t nz, int nranks, int rank, const float c[7],
                                           const float *in, float *out, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
