/* BFS across GPUs: the parts of src/workloads/bfs_gpus.cu that the tests and the C API (src/lib/bfs_gpus.c) use: the
 * workload, and the direction-optimising levels' schedule on GPUs and arrays its caller owns. */
#ifndef CLIMB_WORKLOADS_BFS_GPUS_H
#define CLIMB_WORKLOADS_BFS_GPUS_H
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "../core/workload.h"
#include "../device/collective.h"
#include "common/coll_exec.h"
#ifdef __cplusplus
extern "C" {
#endif
extern const climb_workload climb_bfs_gpus_workload;

/* The levels' state for the P ranks of x (one process driving them all). Rank r owns the vertices [v0[r], v1[r])
 * (climb_vertex_range: whole 32-vertex words) and holds on its GPU: rp[r] (v1 - v0 + 1 offsets from its first edge)
 * and ci[r] (global vertex ids), its out-edges; irp[r] and ici[r] its in-edges alike (the out-edges' arrays for a
 * symmetric graph); level[r] (v1 - v0 words); front[r][0..1],
 * visited[r], marks[r] (words 32-vertex words each, words = (n + 31) / 32); d_count[r] (2 counters). h_count: 2
 * counters on the host. m: the graph's out-edges in all; source_edges: the source's. */
typedef struct climb_bgx {
    const climb_coll_exec *x;
    int32_t n, source;
    long long m, source_edges, words;
    long long v0[CLIMB_MAX_DEVICES], v1[CLIMB_MAX_DEVICES];
    const int *rp[CLIMB_MAX_DEVICES], *ci[CLIMB_MAX_DEVICES], *irp[CLIMB_MAX_DEVICES], *ici[CLIMB_MAX_DEVICES];
    int32_t *level[CLIMB_MAX_DEVICES];
    unsigned *front[CLIMB_MAX_DEVICES][2], *visited[CLIMB_MAX_DEVICES], *marks[CLIMB_MAX_DEVICES];
    unsigned long long *d_count[CLIMB_MAX_DEVICES], *h_count;
    int depth;        /* the levels the last search ran */
    cudaError_t err;  /* a failed search's CUDA error, and what failed */
    const char *why;
} climb_bgx;

/* The marks an owner ORs on its words: n arrays, array q's word w at marks[q][w - off[q]] (every rank's whole
 * marks by peer access with off 0, or copies of the owner's words brought to it, off its first word). */
typedef struct climb_bgx_marks {
    const unsigned *marks[CLIMB_MAX_DEVICES];
    long long off[CLIMB_MAX_DEVICES];
    int n;
} climb_bgx_marks;

/* What crosses between the ranks in a search, for the ranks [x->lo, x->hi) a process drives: marks (after every
 * rank's top-down marks: what rank r's owner step reads), frontier (every rank's words of front[.][nx] to every
 * rank), counts (the level's two counters of every rank summed). Each 0, or -1 with e->err and e->why set. */
typedef struct climb_bgx_ops {
    void *ctx;
    int (*marks)(void *ctx, climb_bgx *e, int r, climb_bgx_marks *out);
    int (*frontier)(void *ctx, climb_bgx *e, int nx);
    int (*counts)(void *ctx, climb_bgx *e, unsigned long long sum[2]);
} climb_bgx_ops;

/* climb_bgx_levels for the ranks [x->lo, x->hi), with ops for what crosses between ranks (NULL: one process driving
 * every rank, by the copy engines and peer access: climb_bgx_levels). */
int climb_bgx_search(climb_bgx *e, int td_only, const climb_bgx_ops *ops);

/* Every rank's levels from the source (-1 where unreached), direction-optimising by Beamer's rule (td_only: top-down
 * every level), on the ranks' streams after the work issued there so far; the host reads each level's counts (it
 * waits for the ranks every level: not capturable). 0, or -1 with e->err and e->why set. */
int climb_bgx_levels(climb_bgx *e, int td_only);
#ifdef __cplusplus
}
#endif
#endif
