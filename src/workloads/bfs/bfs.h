/* Breadth-first search levels: the parts of src/workloads/bfs/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_BFS_H
#define CLIMB_WORKLOADS_BFS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"
#include "../../io/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_bfs_workload;

/* CPU reference: level[v] = the number of edges on a shortest path from source to v along the out-edges of the n x
 * n CSR (rp, ci), -1 where v is not reached. frontier (NULL, or room for n + 1) gets the vertices of each level;
 * *depth (if not NULL) the number of levels. Returns the vertices reached. source outside [0, n): nothing reached. */
int32_t climb_bfs_ref(int32_t n, const int32_t *rp, const int32_t *ci, int32_t source, int32_t *level,
                      int32_t *frontier, int32_t *depth);

/* The default source: a vertex of the largest (weakly) connected component with at least one out-edge, the (seed
 * mod their count)-th in vertex order (the component's root where none has one: a single vertex); the smallest
 * vertex id breaks a tie between components. Where that vertex reaches under a quarter of the component (a directed
 * graph), up to 7 more of them drawn with the seed are searched from, and the first to reach a quarter, else the
 * one reaching most, is the source (in a symmetric graph the first reaches the whole component). -1 for an empty
 * graph or where memory runs out. */
int32_t climb_bfs_default_source(int32_t n, const int32_t *rp, const int32_t *ci, uint64_t seed);
/* The default source of the R-MAT graph sg describes, directed or not: climb_bfs_default_source over its edges as
 * drawn (sg made directed), with sg's seed. The undirected graph of a seed is the symmetrization of the drawn one,
 * with the same components, so both start from one vertex, which has out-edges in both: a directed search and the
 * symmetric one of the same seed are a pair. -1 with err where the drawn graph cannot be made. */
int32_t climb_bfs_drawn_source(const climb_sparse_gen *sg, char *err, size_t errlen);

/* 1 when every edge u -> v has its v -> u (the pattern is symmetric: an undirected graph). Rows sorted. */
int climb_bfs_is_symmetric(int32_t n, const int32_t *rp, const int32_t *ci);

/* The best rung for the library face (src/lib/bfs.c): levels from source over the n x n CSR (rp, ci) on s, in
 * cooperative kernels (three on sm_90 and later, one before; no host round trip: capturable). in_rp, in_ci: the
 * in-edges (the transpose; the same arrays for a symmetric graph), or NULL for top-down steps only. The workspace holds
 * climb_bfs_best_workspace(n) bytes. sms: the device's. */
size_t climb_bfs_best_workspace(int32_t n);
cudaError_t climb_bfs_best(int32_t n, const int32_t *rp, const int32_t *ci, const int32_t *in_rp,
                           const int32_t *in_ci, int32_t source, int32_t *level, void *ws, size_t ws_bytes, int sms,
                           cudaStream_t s);

/* The in-edges of the n x n CSR (rp, ci) with m edges, built on s: in_rp (n + 1) and in_ci (m), each in-row in no
 * particular order. The workspace holds climb_bfs_transpose_workspace(n) bytes (cleared by the call itself).
 * sms: the device's (the grid's size). Rows, columns and m must describe a valid graph (not checked). */
size_t climb_bfs_transpose_workspace(int32_t n);
cudaError_t climb_bfs_transpose(int32_t n, int32_t m, const int32_t *rp, const int32_t *ci, int32_t *in_rp,
                                int32_t *in_ci, void *ws, size_t ws_bytes, int sms, cudaStream_t s);
/* The same by sorting: each edge's source found by a search of the row pointers, and the (destination, source)
 * pairs sorted stably by destination with the project's radix sort (climb_sort_radix, the columns read as its keys
 * in place), so no atomic returns a slot and no two edges contend: in_ci's in-rows come out in the order of their
 * sources, in_rp from a search of the sorted destinations. The workspace holds climb_bfs_transpose_sorted_workspace(m)
 * bytes (the sources, the sorted destinations, and the sort's second copy of both and its counts: about 16 bytes an
 * edge). */
size_t climb_bfs_transpose_sorted_workspace(int32_t m);
cudaError_t climb_bfs_transpose_sorted(int32_t n, int32_t m, const int32_t *rp, const int32_t *ci, int32_t *in_rp,
                                       int32_t *in_ci, void *ws, size_t ws_bytes, int sms, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
