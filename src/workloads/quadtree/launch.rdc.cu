/*
 * launch.rdc.cu - the quadtree ladder's dynamic-parallelism rung: a node's kernel partitions its points into its
 * four children and launches the kernels of those that split, from the device; the file compiled as relocatable
 * device code (a file named *.rdc.cu; cmake/climb.cmake). See quadtree.cu.
 *
 * A node's kernel is one block: it counts its points into quadrants (shared-memory atomics), takes four node slots
 * from a counter, writes the children with their ranges, moves its points into them (from one of two index buffers
 * into the other, by depth), copies the points of the children that are leaves to the final order, and launches a
 * kernel for each child that splits into the fire-and-forget stream. The recursion numbers the nodes in the order
 * it makes them; the host then sorts them by (level, code), the canonical order, and renumbers the links.
 */
#include <cub/device/device_radix_sort.cuh>

#include "kernels.cuh"

typedef struct qt_dp_args {
    const uint32_t *code;
    int *buf0, *buf1; /* the points' indices: a node at even depth reads buf0, at odd depth buf1 */
    int *order;
    climb_qt_node *tnodes;
    int *counter, *failed;
    int cap, leaf, max_depth;
} qt_dp_args;

__global__ void __launch_bounds__(QT_BLOCK) qt_dp_node_kernel(qt_dp_args a, int node)
{
    __shared__ int cnt[4], cur[4], base;
    const climb_qt_node nd = a.tnodes[node];
    const int *in = nd.level & 1 ? a.buf1 : a.buf0;
    int *out = nd.level & 1 ? a.buf0 : a.buf1;
    const int shift = 2 * (CLIMB_QT_BITS - 1 - nd.level);
    if (threadIdx.x < 4)
        cnt[threadIdx.x] = 0;
    __syncthreads();
    for (int i = nd.begin + (int)threadIdx.x; i < nd.end; i += QT_BLOCK)
        atomicAdd(&cnt[a.code[in[i]] >> shift & 3u], 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        base = atomicAdd(a.counter, 4);
        if (base + 4 > a.cap) {
            atomicOr(a.failed, 1);
            base = -1;
        } else {
            int at = nd.begin;
            for (int q = 0; q < 4; q++) {
                const climb_qt_node ch = {nd.code << 2 | (uint32_t)q, nd.level + 1, -1, at, at + cnt[q]};
                a.tnodes[base + q] = ch;
                cur[q] = at;
                at += cnt[q];
            }
            a.tnodes[node].first_child = base;
        }
    }
    __syncthreads();
    if (base < 0)
        return;
    for (int i = nd.begin + (int)threadIdx.x; i < nd.end; i += QT_BLOCK) {
        const int p = in[i];
        out[atomicAdd(&cur[a.code[p] >> shift & 3u], 1)] = p;
    }
    __syncthreads();
    for (int q = 0; q < 4; q++) { /* the leaves' points to the final order */
        const climb_qt_node ch = a.tnodes[base + q];
        const bool split = ch.end - ch.begin > a.leaf && ch.level < a.max_depth;
        if (!split)
            for (int i = ch.begin + (int)threadIdx.x; i < ch.end; i += QT_BLOCK)
                a.order[i] = out[i];
    }
    __threadfence(); /* every thread's moves visible to the children this block launches */
    __syncthreads();
    if (threadIdx.x < 4) {
        const climb_qt_node ch = a.tnodes[base + threadIdx.x];
        if (ch.end - ch.begin > a.leaf && ch.level < a.max_depth) {
            qt_dp_node_kernel<<<1, QT_BLOCK, 0, cudaStreamFireAndForget>>>(a, base + (int)threadIdx.x);
            if (cudaGetLastError() != cudaSuccess)
                atomicOr(a.failed, 1);
        }
    }
}

__global__ void qt_dp_init_kernel(int *counter, int *failed)
{
    *counter = 1; /* the root, written by qt_root_kernel into slot 0 */
    *failed = 0;
}

/* The canonical order's keys: (level, code), and each node's old number. */
__global__ void qt_dp_keys_kernel(const climb_qt_node *t, int count, unsigned long long *keys, int *vals)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        keys[i] = (unsigned long long)t[i].level << 32 | t[i].code;
        vals[i] = i;
    }
}

__global__ void qt_dp_inverse_kernel(const int *perm, int count, int *inv)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += gridDim.x * blockDim.x)
        inv[perm[j]] = j;
}

/* node j of the canonical order: the recursion's node perm[j], its first child renumbered (four children made
 * together are four consecutive nodes of one level in Z order, so they stay consecutive). */
__global__ void qt_dp_renumber_kernel(const climb_qt_node *t, const int *perm, const int *inv, int count,
                                      climb_qt_node *nodes)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < count; j += gridDim.x * blockDim.x) {
        climb_qt_node nd = t[perm[j]];
        nd.first_child = nd.first_child >= 0 ? inv[nd.first_child] : -1;
        nodes[j] = nd;
    }
}

size_t qt_dp_cub_bytes(int cap)
{
    size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(NULL, bytes, (unsigned long long *)NULL, (unsigned long long *)NULL, (int *)NULL,
                                    (int *)NULL, cap > 0 ? cap : 1, 0, 37);
    return bytes;
}

cudaError_t qt_launch_dp(qt_args *a)
{
    const qt_dp_space *d = &a->dp;
    /* buf0: the identity (the codes' kernel), the final order its copy; the root at slot 0 of the recursion's nodes */
    cudaError_t e = qt_launch_codes(a, a->idx, NULL, d->tnodes);
    if (e == cudaSuccess && a->n > 0)
        e = cudaMemcpyAsync(a->order, a->idx, (size_t)a->n * 4, cudaMemcpyDeviceToDevice, a->s);
    if (e != cudaSuccess)
        return e;
    qt_dp_init_kernel<<<1, 1, 0, a->s>>>(d->counter, d->failed);
    const qt_dp_args da = {a->code, a->idx, a->pnode, a->order, d->tnodes, d->counter, d->failed, d->cap,
                           a->prm.leaf_points, a->prm.max_depth};
    if (a->n > a->prm.leaf_points && a->prm.max_depth > 0)
        qt_dp_node_kernel<<<1, QT_BLOCK, 0, a->s>>>(da, 0); /* complete when every node below it is */
    e = cudaGetLastError();
    /* the nodes the recursion made, and whether it failed: read back to size the renumbering */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&a->h_int[0], d->counter, 4, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&a->h_int[1], d->failed, 4, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(a->s);
    if (e != cudaSuccess)
        return e;
    const int count = a->h_int[0];
    if (a->h_int[1] || count < 1 || count > d->cap)
        return cudaErrorLaunchFailure; /* a device launch failed, or the nodes passed their bound */
    const unsigned g = qt_grid(count, a->sms);
    qt_dp_keys_kernel<<<g, QT_BLOCK, 0, a->s>>>(d->tnodes, count, d->keys, d->vals);
    size_t bytes = d->tmp_bytes;
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cub::DeviceRadixSort::SortPairs(d->tmp, bytes, d->keys, d->keys_out, d->vals, d->perm, count, 0, 37, a->s);
    if (e == cudaSuccess) {
        qt_dp_inverse_kernel<<<g, QT_BLOCK, 0, a->s>>>(d->perm, count, d->inv);
        qt_dp_renumber_kernel<<<g, QT_BLOCK, 0, a->s>>>(d->tnodes, d->perm, d->inv, count, a->nodes);
        e = cudaGetLastError();
    }
    a->built = count;
    a->levels = 0;
    return e;
}

int qt_dp_kernels(climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)qt_dp_node_kernel, QT_BLOCK, 0, "qt_dp_node_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_dp_keys_kernel, QT_BLOCK, 0, "qt_dp_keys_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_dp_inverse_kernel, QT_BLOCK, 0, "qt_dp_inverse_kernel");
    return climb_kernel_at(o, max, n, (const void *)qt_dp_renumber_kernel, QT_BLOCK, 0, "qt_dp_renumber_kernel");
}
