/* SGEMM across GPUs: the parts of src/workloads/sgemm_gpus.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_SGEMM_GPUS_H
#define CLIMB_WORKLOADS_SGEMM_GPUS_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#include "../core/workload.h"
#include "common/coll_exec.h"
#ifdef __cplusplus
extern "C" {
#endif
extern const climb_workload climb_sgemm_gpus_workload;
/* C = A B (row-major f32, m x k times k x n) with the operands spread over x's ranks, rank r holding rows
 * [m0[r], m1[r]) of A (a[r], lda k) and of C (c[r], ldc n) and rows [k0[r], k1[r]) of B (b[r], its piece), as
 * climb_chunk_of splits m and k over x->P. The panels: each rank multiplies by its own piece first, then by each
 * other rank's as it arrives in one of its two panel buffers (panel[r][0..1], the largest piece each), copied on
 * aux[r] under the product before it; got and used are two events a rank on its GPU. ws[r] (ws_bytes) is SGEMM's
 * split-K workspace, climb_sgemm_gpus_ws_bytes. Every rank's streams wait for nothing but their own; the caller
 * orders them (x->st[r] must have waited for the inputs). Leaves another device current; the first error. */
typedef struct climb_sgemm_gpus_args {
    size_t m, n, k;
    const float *a[CLIMB_MAX_DEVICES], *b[CLIMB_MAX_DEVICES];
    float *c[CLIMB_MAX_DEVICES];
    float *panel[CLIMB_MAX_DEVICES][2];
    float *whole[CLIMB_MAX_DEVICES]; /* the gathering: the whole of B on rank r's GPU (k x n) */
    void *ws[CLIMB_MAX_DEVICES];
    size_t ws_bytes;
    cudaStream_t aux[CLIMB_MAX_DEVICES];
    cudaEvent_t got[CLIMB_MAX_DEVICES][2], used[CLIMB_MAX_DEVICES][2];
} climb_sgemm_gpus_args;
cudaError_t climb_sgemm_gpus_panels_async(const climb_coll_exec *x, const climb_sgemm_gpus_args *g);
/* The same product by gathering: every rank's piece pushed into every rank's whole[] by the copy engines (rank r's
 * j-th copy to rank r + j), a step between the GPUs (climb_coll_barrier), then each rank's rows by the whole of B.
 * panel, aux, got and used are not used. */
cudaError_t climb_sgemm_gpus_gather_async(const climb_coll_exec *x, const climb_sgemm_gpus_args *g);
/* 1 where P GPUs multiply faster by gathering than by the panels (three or more; measured, docs/sgemm_gpus.md). */
int climb_sgemm_gpus_gathers(int P);
/* The split-K workspace the panels' products may take on a GPU of `sms` SMs (the largest over the ranks' rows and
 * pieces of an m x n x k product split over P ranks). */
size_t climb_sgemm_gpus_ws_bytes(size_t m, size_t n, size_t k, int P, int sms);
/* Floats of a panel buffer: the largest piece of B, at least one. */
size_t climb_sgemm_gpus_panel_floats(size_t n, size_t k, int P);
#ifdef __cplusplus
}
#endif
#endif
