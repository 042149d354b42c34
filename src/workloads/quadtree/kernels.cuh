/* The quadtree ladder's shared definitions (src/workloads/quadtree/): included by quadtree.cu (the table and the
 * rungs without device launches) and launch.rdc.cu (the dynamic-parallelism rung, relocatable device code). */
#ifndef CLIMB_WORKLOADS_QUADTREE_KERNELS_CUH
#define CLIMB_WORKLOADS_QUADTREE_KERNELS_CUH

#include <cuda_runtime.h>

#include "reference.h"
#include "../../core/workload.h"

#define QT_BLOCK 256

/* The host's cell and code (quadtree.h), in float: v 2^16 is exact, so the cells are the same. */
__device__ __forceinline__ uint32_t qt_cell(float v)
{
    if (!(v > 0.0f))
        return 0;
    const float f = v * 65536.0f;
    return f >= 65535.0f ? 65535u : (uint32_t)f;
}

__device__ __forceinline__ uint32_t qt_prefix(uint32_t code, int level) { return climb_qt_prefix(code, level); }

/* The dynamic-parallelism rung's buffers (allocated by its prepare): the nodes as the recursion makes them, their
 * sort keys and the sorted copies, the recursion's node counter and failure flag, CUB's scratch. */
typedef struct qt_dp_space {
    climb_qt_node *tnodes;
    unsigned long long *keys, *keys_out;
    int *vals, *perm, *inv;
    int *counter, *failed;
    void *tmp;
    size_t tmp_bytes;
    int cap;
} qt_dp_space;

typedef struct qt_args {
    int n;
    climb_qt_params prm;
    const float *x, *y;
    climb_qt_node *nodes; /* cap of them */
    int *order;
    int cap;
    /* workspace */
    uint32_t *code, *sc;
    int *idx, *pnode, *flag, *rank, *qcount;
    int *tally;           /* split_scan's per-tile tallies and the levels' starts (qt_tally_ints) */
    void *tmp;
    size_t tmp_bytes;
    int *h_int;           /* pinned: a level's splitting nodes read back */
    /* the CPU build's host buffers */
    float *h_x, *h_y;
    qt_dp_space dp;       /* the dynamic-parallelism rung's (launch.rdc.cu) */
    int sms;
    cudaStream_t s;
    int built;            /* out: the nodes built */
    int levels;           /* out: the levels the host loop took */
} qt_args;

static inline unsigned qt_grid(long long n, int sms)
{
    const long long g = (n + QT_BLOCK - 1) / QT_BLOCK, most = 8LL * sms;
    return (unsigned)(g < 1 ? 1 : g < most ? g : most);
}

/* quadtree.cu: the codes and identity indices (pnode NULL: not set), and the root. */
cudaError_t qt_launch_codes(qt_args *a, int *idx, int *pnode, climb_qt_node *root_at);
/* launch.rdc.cu: the dynamic-parallelism rung, its buffers' sizes and its kernels' list. */
cudaError_t qt_launch_dp(qt_args *a);
size_t qt_dp_cub_bytes(int cap);
int qt_dp_kernels(climb_kernel_desc *o, int max);

#endif
