/*
 * quadtree.cu - point quadtree construction, as a ladder.
 *
 * From Kirk and Hwu, Programming Massively Parallel Processors, the dynamic-parallelism chapter's quadtree; the
 * UIUC ECE 508 lecture on it): a fluid-dynamics code rebuilds a quadtree of its particles every step; before
 * dynamic parallelism the tree was built on the CPU and shipped over PCIe, after it the GPU builds it in place.
 * Rungs: the CPU build (points down, tree up: the baseline the book says GPUs replaced); a level-by-level build
 * from the host (each level: which nodes split, their points counted into quadrants and moved, a launch each and one
 * read-back of the level's size); Morton codes sorted once (CUB's radix sort) so that every node's points are a range
 * of the sorted order, after which a level needs only a search of each splitting node's range for its children's
 * bounds: no point moves after the sort; and the best rung, which finds every level's splitting nodes at once from
 * the sorted codes, with one read-back in all. See docs/quadtree.md.
 *
 * The tree is the canonical one of reference.h (level order, Z order, a split makes four children): every rung's
 * nodes are compared with the CPU build's exactly, and each leaf's points as a set.
 *
 * Bytes counted: the points read once (x, y), and each point's index read and written once for every level whose
 * node splits (the "point moved once per level" bound), the order and the nodes written once. Items: points.
 *
 * The folder: levels.cuh the host-driven and sorted-code rungs' kernels, kernels.cuh and launch.rdc.cu the
 * device-launching rung's, reference.c the CPU build and its check; this file the launchers, the registry table,
 * options and the harness glue.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/check.h"
#include "../../device/device.h"
#include "../../device/device_primitives.cuh"
#include "../../core/workload.cuh"
#include "quadtree.h"
#include "kernels.cuh"
#include "levels.cuh"

extern "C" int64_t climb_qt_node_bound(int64_t n, const climb_qt_params *p)
{
    if (climb_qt_params_refuse(p) || n < 0)
        return 0;
    int64_t splits = 0, level_most = 1; /* 4^level */
    const int64_t per_level = n / ((int64_t)p->leaf_points + 1);
    for (int l = 0; l < p->max_depth; l++) {
        splits += level_most < per_level ? level_most : per_level;
        if (level_most < ((int64_t)1 << 40))
            level_most *= 4;
        if (1 + 4 * splits > 0x7fffffff)
            return 0;
    }
    return 1 + 4 * splits;
}

/* ---------------------------------------------------------------- launchers */

/* The scan of a level's flags into ranks, and the number of its splitting nodes read back (the level's one round
 * trip). */
static cudaError_t qt_level_splits(qt_args *a, int lo, int count, int *splits)
{
    qt_split_kernel<<<(count + QT_BLOCK - 1) / QT_BLOCK, QT_BLOCK, 0, a->s>>>(a->nodes, lo, count, a->prm.leaf_points,
                                                                          a->prm.max_depth, a->flag);
    cudaError_t e = cudaGetLastError();
    size_t bytes = a->tmp_bytes;
    if (e == cudaSuccess)
        e = cub::DeviceScan::ExclusiveSum(a->tmp, bytes, a->flag, a->rank, count, a->s);
    /* the total: the last rank plus the last flag */
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&a->h_int[0], a->rank + count - 1, 4, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&a->h_int[1], a->flag + count - 1, 4, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(a->s);
    *splits = a->h_int[0] + a->h_int[1];
    return e;
}

/* The levels, from the root down: MORTON, children by a search of the sorted codes; else by counts and a move of the
 * points. */
static cudaError_t qt_levels(qt_args *a, int morton)
{
    int lo = 0, hi = 1, level = 0;
    cudaError_t e = cudaSuccess;
    for (; e == cudaSuccess && hi > lo; level++) {
        const int count = hi - lo;
        int splits = 0;
        e = qt_level_splits(a, lo, count, &splits);
        if (e != cudaSuccess || splits == 0)
            break;
        if ((long long)hi + 4LL * splits > a->cap)
            return cudaErrorInvalidValue; /* past the bound: cannot happen for a tree of these rules */
        const unsigned g = qt_grid(a->n, a->sms), gn = (count + QT_BLOCK - 1) / QT_BLOCK;
        if (morton) {
            qt_children_kernel<<<gn, QT_BLOCK, 0, a->s>>>(a->nodes, lo, count, hi, a->flag, a->rank, NULL, a->sc);
            e = cudaGetLastError();
        } else {
            e = cudaMemsetAsync(a->qcount, 0, 16 * (size_t)splits, a->s);
            if (e == cudaSuccess) {
                qt_count_kernel<<<g, QT_BLOCK, 0, a->s>>>(a->code, a->pnode, a->n, lo, count, level, a->flag, a->rank,
                                                           a->qcount);
                qt_children_kernel<<<gn, QT_BLOCK, 0, a->s>>>(a->nodes, lo, count, hi, a->flag, a->rank, a->qcount,
                                                              NULL);
                qt_move_kernel<<<g, QT_BLOCK, 0, a->s>>>(a->code, a->pnode, a->n, lo, count, hi, level, a->flag,
                                                         a->rank, a->qcount, a->order);
                e = cudaGetLastError();
            }
        }
        lo = hi;
        hi += 4 * splits;
    }
    a->built = hi;
    a->levels = level;
    return e;
}

static cudaError_t launch_cpu(qt_args *a)
{
    cudaError_t e = cudaSuccess;
    if (a->n > 0) {
        e = cudaMemcpyAsync(a->h_x, a->x, (size_t)a->n * 4, cudaMemcpyDeviceToHost, a->s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(a->h_y, a->y, (size_t)a->n * 4, cudaMemcpyDeviceToHost, a->s);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(a->s);
    }
    if (e != cudaSuccess)
        return e;
    climb_qt t;
    char err[200];
    if (climb_qt_build_cpu(a->n, a->h_x, a->h_y, &a->prm, &t, err, sizeof err) != 0)
        return cudaErrorMemoryAllocation;
    if (t.n_nodes > a->cap) {
        climb_qt_free(&t);
        return cudaErrorInvalidValue;
    }
    e = cudaMemcpyAsync(a->nodes, t.nodes, (size_t)t.n_nodes * sizeof(climb_qt_node), cudaMemcpyHostToDevice, a->s);
    if (e == cudaSuccess && a->n > 0)
        e = cudaMemcpyAsync(a->order, t.order, (size_t)a->n * 4, cudaMemcpyHostToDevice, a->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(a->s); /* the host's tree is freed next */
    a->built = t.n_nodes;
    a->levels = 0;
    climb_qt_free(&t);
    return e;
}

cudaError_t qt_launch_codes(qt_args *a, int *idx, int *pnode, climb_qt_node *root_at)
{
    qt_code_kernel<<<qt_grid(a->n, a->sms), QT_BLOCK, 0, a->s>>>(a->x, a->y, a->n, a->code, idx, pnode);
    qt_root_kernel<<<1, 1, 0, a->s>>>(root_at, a->n);
    return cudaGetLastError();
}

static cudaError_t launch_levels(qt_args *a)
{
    const cudaError_t e = qt_launch_codes(a, a->order, a->pnode, a->nodes);
    return e == cudaSuccess ? qt_levels(a, 0) : e;
}

static cudaError_t launch_morton(qt_args *a)
{
    cudaError_t e = qt_launch_codes(a, a->idx, NULL, a->nodes);
    size_t bytes = a->tmp_bytes;
    if (e == cudaSuccess && a->n > 0) /* stable: points of one code stay in index order, as the canonical tree's */
        e = cub::DeviceRadixSort::SortPairs(a->tmp, bytes, a->code, a->sc, a->idx, a->order, a->n, 0, 32, a->s);
    return e == cudaSuccess ? qt_levels(a, 1) : e;
}


/* The tiles of split_scan's tally, and its buffer's ints: a tally a level a tile, and the levels' starts. */
static int qt_tiles(int n) { return (int)(((long long)n + QT_TILE - 1) / QT_TILE); }
static size_t qt_tally_ints(int n) { return (size_t)QT_LEVELS * (size_t)qt_tiles(n) + QT_LEVELS + 1; }

/* split_scan: the codes sorted on the bits the tree uses (2 max_depth), the splitting nodes ranked in three passes,
 * the nodes written, and the node count read back: the one round trip. */
static cudaError_t launch_split_scan(qt_args *a)
{
    const int md = a->prm.max_depth, leaf = a->prm.leaf_points, tiles = qt_tiles(a->n);
    cudaError_t e = qt_launch_codes(a, md > 0 ? a->idx : a->order, NULL, a->nodes);
    size_t bytes = a->tmp_bytes;
    if (e == cudaSuccess && a->n > 0 && md > 0) /* stable: points of one cell keep their index order */
        e = cub::DeviceRadixSort::SortPairs(a->tmp, bytes, a->code, a->sc, a->idx, a->order, a->n,
                                            2 * (CLIMB_QT_BITS - md), 32, a->s);
    if (e != cudaSuccess)
        return e;
    const uint32_t *sc = md > 0 ? a->sc : a->code;
    int *start = a->tally + (size_t)QT_LEVELS * tiles, *split = a->rank;
    const unsigned g = (unsigned)(tiles < 1 ? 1 : tiles < 8 * a->sms ? tiles : 8 * a->sms);
    qt_tally_kernel<<<g, QT_BLOCK, 0, a->s>>>(sc, a->n, leaf, md, tiles, a->tally);
    qt_tally_scan_kernel<<<1, QT_LEVELS * 32, 0, a->s>>>(a->tally, tiles, start);
    qt_emit_kernel<<<g, QT_BLOCK, 0, a->s>>>(sc, a->n, leaf, md, tiles, a->tally, start, split);
    qt_nodes_kernel<<<qt_grid((a->cap - 1) / 4, a->sms), QT_BLOCK, 0, a->s>>>(sc, a->n, leaf, md, start, split,
                                                                               a->nodes);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(a->h_int, start + QT_LEVELS, 4, cudaMemcpyDeviceToHost, a->s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(a->s);
    if (e != cudaSuccess)
        return e;
    if (a->h_int[0] < 0 || 1 + 4LL * a->h_int[0] > a->cap)
        return cudaErrorInvalidValue; /* past the bound: cannot happen for a tree of these rules */
    a->built = 1 + 4 * a->h_int[0];
    a->levels = 1;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- the library face */

static size_t qt_align(size_t x) { return (x + 255) / 256 * 256; }

/* CUB's scratch for the sort of n codes and the scan of cap flags. */
static size_t qt_cub_bytes(int32_t n, int32_t cap)
{
    size_t sort_bytes = 0, scan_bytes = 0;
    cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, (uint32_t *)NULL, (uint32_t *)NULL, (int *)NULL, (int *)NULL,
                                    n > 0 ? n : 1, 0, 32);
    cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (int *)NULL, (int *)NULL, cap > 0 ? cap : 1);
    return sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
}

/* The best rung's workspace: the nodes at their bound, codes, sorted codes, indices, the splitting nodes' first points
 * (a quarter of the bound: the ranks' buffer), the tallies, CUB's scratch. 0 where the bound is refused. */
extern "C" size_t climb_qt_best_workspace(int32_t n, const climb_qt_params *p)
{
    const int64_t cap = climb_qt_node_bound(n, p);
    if (cap == 0 || n < 0)
        return 0;
    const size_t n1 = n > 0 ? (size_t)n : 1;
    return qt_align((size_t)cap * sizeof(climb_qt_node)) + 3 * qt_align(n1 * 4) + qt_align((size_t)cap * 4) +
           qt_align(qt_tally_ints(n) * 4) + qt_align(qt_cub_bytes(n, (int32_t)cap));
}

extern "C" cudaError_t climb_qt_best(int32_t n, const float *x, const float *y, const climb_qt_params *p,
                                     int32_t *order, void *ws, size_t ws_bytes, int sms, cudaStream_t s,
                                     const climb_qt_node **nodes, int32_t *built)
{
    const size_t need = climb_qt_best_workspace(n, p);
    if (need == 0 || ws_bytes < need)
        return cudaErrorInvalidValue;
    const int64_t cap = climb_qt_node_bound(n, p);
    const size_t n1 = n > 0 ? (size_t)n : 1;
    char *w = (char *)ws;
    qt_args a;
    memset(&a, 0, sizeof a);
    a.n = n;
    a.prm = *p;
    a.x = x;
    a.y = y;
    a.cap = (int)cap;
    a.nodes = (climb_qt_node *)w;
    w += qt_align((size_t)cap * sizeof(climb_qt_node));
    a.code = (uint32_t *)w;
    w += qt_align(n1 * 4);
    a.sc = (uint32_t *)w;
    w += qt_align(n1 * 4);
    a.idx = (int *)w;
    w += qt_align(n1 * 4);
    a.rank = (int *)w;
    w += qt_align((size_t)cap * 4);
    a.tally = (int *)w;
    w += qt_align(qt_tally_ints(n) * 4);
    a.tmp = w;
    a.tmp_bytes = qt_cub_bytes(n, (int32_t)cap);
    int h[2] = {0, 0};
    a.h_int = h; /* pageable: the node count's copy completes before the stream is waited for */
    a.order = order;
    a.sms = sms;
    a.s = s;
    const cudaError_t e = launch_split_scan(&a);
    *nodes = a.nodes;
    *built = a.built;
    return e;
}

/* ---------------------------------------------------------------- the registry */

typedef cudaError_t (*qt_launch_fn)(qt_args *a);

static int k_levels(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)qt_code_kernel, QT_BLOCK, 0, "qt_code_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_split_kernel, QT_BLOCK, 0, "qt_split_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_count_kernel, QT_BLOCK, 0, "qt_count_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_children_kernel, QT_BLOCK, 0, "qt_children_kernel");
    return climb_kernel_at(o, max, n, (const void *)qt_move_kernel, QT_BLOCK, 0, "qt_move_kernel");
}
static int k_dp(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return qt_dp_kernels(o, max);
}
static int k_morton(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)qt_code_kernel, QT_BLOCK, 0, "qt_code_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_split_kernel, QT_BLOCK, 0, "qt_split_kernel");
    return climb_kernel_at(o, max, n, (const void *)qt_children_kernel, QT_BLOCK, 0, "qt_children_kernel");
}
static int k_split_scan(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    int n = climb_kernel_at(o, max, 0, (const void *)qt_code_kernel, QT_BLOCK, 0, "qt_code_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_tally_kernel, QT_BLOCK, 0, "qt_tally_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_tally_scan_kernel, QT_LEVELS * 32, 0, "qt_tally_scan_kernel");
    n = climb_kernel_at(o, max, n, (const void *)qt_emit_kernel, QT_BLOCK, 0, "qt_emit_kernel");
    return climb_kernel_at(o, max, n, (const void *)qt_nodes_kernel, QT_BLOCK, 0, "qt_nodes_kernel");
}

/* The rows' launches take the launchers' arguments, not the case: the run hook makes those and calls them. What a
 * row's note says: the kernels launched from the device (device_launches), the host round trips a level, or one. */
typedef struct qt_rung {
    climb_rung_info info;
    qt_launch_fn launch;
    int on_cpu;              /* 1: the tree is built on the host (no note: nothing launched) */
    int one_round_trip;      /* 1: one read-back a build (the node count), not one a level */
} qt_rung;

/* The most splitting nodes the dynamic-parallelism rung takes: a device launch each, pending at once (bezier's
 * rung failed at 2^20 pending launches on an H100 and ran at 2^16). */
#define QT_DP_MAX_SPLITS 65536

struct climb_case;
static const char *refuses_dp(const climb_case *c);

static const qt_rung QT_RUNGS[] = {
    {.info = {.name = "cpu_build", .idea = "the points copied to the host, the tree built there (a sort by Morton "
                                           "code, then the levels) and copied back: the baseline the GPU replaced",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = climb_no_kernels, .host_part = 1},
     .launch = launch_cpu, .on_cpu = 1},
    {.info = {.name = "dynamic_parallelism", .idea = "recursive: a node's kernel (a block) partitions its points into "
                                                     "four children and launches the kernels of those that split, "
                                                     "from the device; the nodes then sorted into the canonical order",
              .needs = "at most 2^16 splitting nodes", .kind = CLIMB_RUNG_LADDER, .kernels = k_dp, .host_part = 1,
              .device_launches = 1, .refuses = refuses_dp},
     .launch = qt_launch_dp},
    {.info = {.name = "level_by_level", .idea = "a level at a time from the host: the splitting nodes scanned, their "
                                                "points counted into quadrants and moved into the children's "
                                                "ranges; one read-back a level",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_levels, .host_part = 1},
     .launch = launch_levels},
    {.info = {.name = "morton_sort", .idea = "Morton codes radix-sorted once (every node's points a range of the "
                                             "order), then a level's children found by a search of each splitting "
                                             "node's range: no point moves after the sort",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_morton, .host_part = 1},
     .launch = launch_morton},
    {.info = {.name = "split_scan", .idea = "no round trip a level: the codes sorted on the tree's 2 max_depth bits, "
                                            "then every level's splitting nodes found at once (point i starts one "
                                            "where it shares the level with point i + leaf_points but not with "
                                            "i - 1), ranked by a tally and a scan, and their children written in "
                                            "one launch; one read-back, the node count",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_split_scan, .host_part = 1},
     .launch = launch_split_scan, .one_round_trip = 1},
};
#define QT_N_RUNGS CLIMB_COUNT(QT_RUNGS)
static const climb_rung_info *qt_rung_info(int i) { return &QT_RUNGS[i].info; }

/* ---------------------------------------------------------------- options */

enum { OPT_POINTS, OPT_MAX_DEPTH, OPT_LEAF_POINTS };
static const char *const QT_SETS[] = {"uniform", "clustered", "same", NULL};
static constexpr climb_option QT_OPTIONS[] = {
    {.name = "points", .kind = CLIMB_OPT_CHOICE,
     .meaning = "the points: uniform in the unit square, clustered (8 Gaussians, sigma 0.01 to 0.05), same (every "
                "point the same: the depth limit)",
     .def = "uniform,clustered", .choices = QT_SETS, .generator = 1},
    {.name = "max_depth", .kind = CLIMB_OPT_INT, .meaning = "the deepest level (the root is level 0)", .def = "12",
     .min = 0, .max = CLIMB_QT_BITS},
    {.name = "leaf_points", .kind = CLIMB_OPT_INT, .meaning = "a node of more points than this splits", .def = "16",
     .min = 1, .max = 1 << 20},
};
CLIMB_OPTION_AT(QT_OPTIONS, OPT_POINTS, "points");
CLIMB_OPTION_AT(QT_OPTIONS, OPT_MAX_DEPTH, "max_depth");
CLIMB_OPTION_AT(QT_OPTIONS, OPT_LEAF_POINTS, "leaf_points");

/* ---------------------------------------------------------------- harness glue */

struct climb_case {
    climb_case_params p;
    int n, set;
    climb_qt_params prm;
    float *x, *y;          /* host points (also the CPU build's buffers: pinned, made by init) */
    climb_qt ref;
    double moved;          /* points moved, summed over the splitting nodes */
    int cap, built, levels, splits, depth;
    qt_dp_space dp;        /* the dynamic-parallelism rung's, from its prepare to its release */
    float *d_x, *d_y;
    climb_qt_node *d_nodes;
    int *d_order;
    uint32_t *d_code, *d_sc;
    int *d_idx, *d_pnode, *d_flag, *d_rank, *d_qcount, *d_tally, *h_int;
    void *d_tmp;
    size_t tmp_bytes;
    climb_qt_node *got_nodes;  /* the downloads of d_nodes and d_order */
    int *got_order;
    char desc[300], note[120];
};

static void qt_release(climb_case *c, int rung);

static void qt_fini(climb_case *c)
{
    for (int r = 0; r < (int)QT_N_RUNGS; r++)
        qt_release(c, r);
    climb_qt_free(&c->ref);
    cudaFreeHost(c->x);
    cudaFreeHost(c->y);
    cudaFreeHost(c->h_int);
}

/* The dynamic-parallelism rung's rule: a device launch a splitting node, all pending at once. */
static const char *refuses_dp(const climb_case *c)
{
    if (c->splits > QT_DP_MAX_SPLITS)
        return "more than 2^16 splitting nodes: a device launch each, all pending at once";
    return NULL;
}

static const char *qt_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    if (s->d[0] > 0x7fffffffu)
        return "more than 2^31 - 1 points";
    if (opts) {
        const climb_qt_params p = {(int)opts[OPT_MAX_DEPTH].i, (int)opts[OPT_LEAF_POINTS].i};
        if (climb_qt_node_bound((int64_t)s->d[0], &p) == 0)
            return "the tree's node bound passes 2^31 - 1 nodes (raise leaf_points or lower max_depth)";
    }
    return NULL;
}

/* Host memory: the points, the reference tree (its nodes at the bound), the order and nodes read back. */
static double qt_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    double nodes = 1;
    if (opts) {
        const climb_qt_params p = {(int)opts[OPT_MAX_DEPTH].i, (int)opts[OPT_LEAF_POINTS].i};
        nodes = (double)climb_qt_node_bound((int64_t)s->d[0], &p);
    }
    return (double)s->d[0] * (8 + 4 + 4 + 16) + nodes * 2 * sizeof(climb_qt_node);
}

/* The points (pinned host memory: the CPU build's copies are part of its time) and the reference tree, whose node
 * bound sizes the buffers. */
static int qt_init(climb_case *c)
{
    const climb_case_params *p = &c->p;
    const char *why = qt_case_refuses(&p->shape, p->type, p->opts);
    if (why) {
        fprintf(stderr, "climb: quadtree: %s\n", why);
        return -1;
    }
    c->n = (int)p->shape.d[0];
    c->set = p->opts[OPT_POINTS].choice;
    c->prm.max_depth = (int)p->opts[OPT_MAX_DEPTH].i;
    c->prm.leaf_points = (int)p->opts[OPT_LEAF_POINTS].i;
    c->cap = (int)climb_qt_node_bound(c->n, &c->prm);
    const size_t n1 = c->n ? (size_t)c->n : 1;
    if (cudaMallocHost((void **)&c->x, n1 * 4) != cudaSuccess || cudaMallocHost((void **)&c->y, n1 * 4) != cudaSuccess ||
        cudaMallocHost((void **)&c->h_int, 16) != cudaSuccess) {
        cudaGetLastError();
        return climb_host_oom("%d points (pinned)", c->n);
    }
    climb_qt_points(p->seed, c->set, c->x, c->y, (size_t)c->n);
    char err[200];
    if (climb_qt_build_cpu(c->n, c->x, c->y, &c->prm, &c->ref, err, sizeof err) != 0) {
        fprintf(stderr, "climb: quadtree: the reference: %s\n", err);
        return -1;
    }
    int leaves = 0, depth = 0;
    for (int i = 0; i < c->ref.n_nodes; i++) {
        const climb_qt_node *nd = &c->ref.nodes[i];
        if (nd->first_child >= 0) {
            c->moved += nd->end - nd->begin;
            c->splits++;
        } else {
            leaves++;
        }
        depth = nd->level > depth ? nd->level : depth;
    }
    c->depth = depth;
    snprintf(c->desc, sizeof c->desc, "%s points: %d nodes (%d leaves), depth %d; max_depth %d, leaf_points %d",
             QT_SETS[c->set], c->ref.n_nodes, leaves, depth, c->prm.max_depth, c->prm.leaf_points);
    c->tmp_bytes = qt_cub_bytes(c->n, c->cap);
    return 0;
}

/* The points' device copy (the host's are pinned, not declared). */
static int qt_fill(climb_case *c)
{
    if (c->n && (CLIMB_FAILED(cudaMemcpy(c->d_x, c->x, (size_t)c->n * 4, cudaMemcpyHostToDevice)) ||
                 CLIMB_FAILED(cudaMemcpy(c->d_y, c->y, (size_t)c->n * 4, cudaMemcpyHostToDevice))))
        return -1;
    return 0;
}

static size_t n_words(const climb_case *c) { return (c->n ? (size_t)c->n : 1) * 4; }
static size_t cap_words(const climb_case *c) { return (size_t)c->cap * 4; }
static size_t nodes_bytes(const climb_case *c) { return (size_t)c->cap * sizeof(climb_qt_node); }
static size_t tally_bytes(const climb_case *c) { return qt_tally_ints(c->n) * 4; }
static size_t tmp_bytes(const climb_case *c) { return c->tmp_bytes ? c->tmp_bytes : 1; }

#define QT_DEV(name_, field_, bytes_) \
    {.name = name_, .flags = CLIMB_BUF_DEVICE, .bytes = bytes_, .device_at = offsetof(climb_case, field_)}
/* The nodes and the order: poisoned all ones by qt_poison (with the build's node count). The workspace: codes, sorted
 * codes, indices, each point's node; a level's flags, ranks and quadrant counts (at most the nodes' bound); CUB's
 * scratch for the sort of n and the scan of the bound. */
static const climb_buffer QT_BUFFERS[] = {
    QT_DEV("x", d_x, n_words),
    QT_DEV("y", d_y, n_words),
    {.name = "nodes", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = nodes_bytes,
     .host_at = offsetof(climb_case, got_nodes), .device_at = offsetof(climb_case, d_nodes), .poison = 0xff},
    {.name = "order", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT, .bytes = n_words,
     .host_at = offsetof(climb_case, got_order), .device_at = offsetof(climb_case, d_order), .poison = 0xff},
    QT_DEV("codes", d_code, n_words),
    QT_DEV("sorted codes", d_sc, n_words),
    QT_DEV("indices", d_idx, n_words),
    QT_DEV("points' nodes", d_pnode, n_words),
    QT_DEV("flags", d_flag, cap_words),
    QT_DEV("ranks", d_rank, cap_words),
    QT_DEV("quadrant counts", d_qcount, cap_words),
    QT_DEV("tally", d_tally, tally_bytes),
    QT_DEV("CUB's scratch", d_tmp, tmp_bytes),
};
#undef QT_DEV

static const char *qt_describe(const climb_case *c) { return c->desc; }

static int qt_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    (void)c;
    (void)mode;
    snprintf(desc, desclen, "the CPU build: every node equal (code, level, children, range), every point in exactly "
                            "one leaf and in its cell, each leaf's points the same set");
    return 0;
}

static void qt_release(climb_case *c, int rung)
{
    if (!QT_RUNGS[rung].info.device_launches)
        return;
    qt_dp_space *d = &c->dp;
    void *dev[] = {d->tnodes, d->keys, d->keys_out, d->vals, d->perm, d->inv, d->counter, d->tmp};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        if (dev[i])
            cudaFree(dev[i]);
    memset(d, 0, sizeof *d);
}

/* The device-launching rung's buffers, at the tree's node count (the recursion stops, failed, past it), and
 * the runtime's pool of pending launches raised to its splitting nodes. */
static int qt_prepare(climb_case *c, int rung)
{
    if (!QT_RUNGS[rung].info.device_launches || c->dp.tnodes)
        return 0;
    qt_dp_space *d = &c->dp;
    d->cap = c->ref.n_nodes;
    const size_t cap = (size_t)d->cap;
    d->tmp_bytes = qt_dp_cub_bytes(d->cap);
    if (CLIMB_FAILED(cudaMalloc((void **)&d->tnodes, cap * sizeof(climb_qt_node))) ||
        CLIMB_FAILED(cudaMalloc((void **)&d->keys, cap * 8)) ||
        CLIMB_FAILED(cudaMalloc((void **)&d->keys_out, cap * 8)) ||
        CLIMB_FAILED(cudaMalloc((void **)&d->vals, cap * 4)) || CLIMB_FAILED(cudaMalloc((void **)&d->perm, cap * 4)) ||
        CLIMB_FAILED(cudaMalloc((void **)&d->inv, cap * 4)) || CLIMB_FAILED(cudaMalloc((void **)&d->counter, 8)) ||
        CLIMB_FAILED(cudaMalloc(&d->tmp, d->tmp_bytes ? d->tmp_bytes : 1))) {
        cudaGetLastError();
        qt_release(c, rung);
        fprintf(stderr, "climb: quadtree: out of device memory for the recursion's %d nodes\n", d->cap);
        return -1;
    }
    d->failed = d->counter + 1;
    CLIMB_CHECK(climb_reserve_device_launches((size_t)c->splits));
    return 0;
}

static int qt_run(climb_case *c, int rung, cudaStream_t s)
{
    qt_args a;
    memset(&a, 0, sizeof a);
    a.n = c->n;
    a.prm = c->prm;
    a.x = c->d_x;
    a.y = c->d_y;
    a.nodes = c->d_nodes;
    a.order = c->d_order;
    a.cap = c->cap;
    a.code = c->d_code;
    a.sc = c->d_sc;
    a.idx = c->d_idx;
    a.pnode = c->d_pnode;
    a.flag = c->d_flag;
    a.rank = c->d_rank;
    a.qcount = c->d_qcount;
    a.tally = c->d_tally;
    a.tmp = c->d_tmp;
    a.tmp_bytes = c->tmp_bytes;
    a.h_int = c->h_int;
    a.h_x = c->x; /* the CPU build copies the device's points here (the same values) */
    a.dp = c->dp;
    a.h_y = c->y;
    a.sms = c->p.dev ? c->p.dev->sms : 1;
    a.s = s;
    CLIMB_CHECK(QT_RUNGS[rung].launch(&a));
    c->built = a.built;
    c->levels = a.levels;
    return 0;
}

/* The declared outputs' poison, and the build's node count cleared: a verify before any run fails on it. */
static int qt_poison(climb_case *c)
{
    CLIMB_CHECK(cudaMemset(c->d_nodes, 0xff, (size_t)c->cap * sizeof(climb_qt_node)));
    CLIMB_CHECK(cudaMemset(c->d_order, 0xff, (c->n ? (size_t)c->n : 1) * 4));
    c->built = 0;
    return 0;
}

static int qt_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    (void)rung;
    msg[0] = '\0';
    if (c->built < 1 || c->built > c->cap) {
        snprintf(msg, msglen, "the build reported %d nodes (at most %d)", c->built, c->cap);
        return 1;
    }
    const climb_qt t = {c->built, c->built, c->got_nodes, c->n, c->got_order};
    const int rc = climb_qt_check(c->n, c->x, c->y, &c->prm, &t, &c->ref, msg, msglen);
    if (rc < 0)
        return climb_host_oom("the tree's check");
    return rc;
}

/* The points read once; each point's index read and written once for every splitting node it is in; the order and
 * the nodes written once. */
static void qt_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = 8.0 * c->n + 4.0 * c->moved;
    out->bytes_written = 4.0 * c->n + 4.0 * c->moved + (double)sizeof(climb_qt_node) * c->ref.n_nodes;
    out->items = c->n;
}

static const char *qt_rung_note(climb_case *c, int rung)
{
    const qt_rung *r = &QT_RUNGS[rung];
    if (r->on_cpu || c->n == 0)
        return NULL;
    if (r->info.device_launches) {
        snprintf(c->note, sizeof c->note, "%d kernels a run: the root's from the host, %d from the device",
                 c->splits ? 1 : 0, c->splits ? c->splits - 1 : 0);
        return c->note;
    }
    if (r->one_round_trip)
        snprintf(c->note, sizeof c->note, "%d levels, one host round trip (the node count)", c->depth + 1);
    else
        snprintf(c->note, sizeof c->note, "%d levels, a host round trip each", c->levels);
    return c->note;
}

static const climb_shape QT_BENCH_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 16), CLIMB_SHAPE1((size_t)1 << 20),
                                              CLIMB_SHAPE1((size_t)1 << 22)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape QT_MAIN_SHAPES[] = {CLIMB_SHAPE1((size_t)1 << 20)};
/* No point, one, a few, a leaf's worth around the default, a block, several blocks. */
static const climb_shape QT_CHECK_SHAPES[] = {CLIMB_SHAPE1(0),  CLIMB_SHAPE1(1),   CLIMB_SHAPE1(2),
                                              CLIMB_SHAPE1(3),  CLIMB_SHAPE1(16),  CLIMB_SHAPE1(17),
                                              CLIMB_SHAPE1(257), CLIMB_SHAPE1(1000), CLIMB_SHAPE1(65537)};
static const climb_shape QT_QUICK_SHAPES[] = {CLIMB_SHAPE1(1), CLIMB_SHAPE1(1000), CLIMB_SHAPE1(65537)};

static const climb_sweep QT_SWEEPS[] = {
    {.name = "sizes",
     .title = "quadtree of uniform points: points per second against the number of points (2^16 to 2^24)",
     .args = "--set points=uniform --size 2^16 --size 2^18 --size 2^20 --size 2^22 --size 2^24",
     .x = "points",
     .log_x = 1},
};

extern "C" const climb_workload climb_quadtree_workload = {
    .name = "quadtree",
    .title = "Point quadtree construction (on the CPU, level by level, and from sorted Morton codes)",
    .sources = "Kirk and Hwu, Programming Massively Parallel Processors (dynamic parallelism, the quadtree "
                "example), and the UIUC ECE 508 lecture on it",
    .command = NULL,
    .dims = {"points"},
    .shape_format = "{points} points",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = QT_OPTIONS,
    .n_options = CLIMB_COUNT(QT_OPTIONS),
    .bytes_counted = "read: the points once, and each point's index once a level its node splits; written: the same "
                     "indices, the order and the nodes (each point moved once a level)",
    .items_unit = "points",
    .items_rate = "Gpoints/s",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = QT_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(QT_BENCH_SHAPES),
    .check_shapes = QT_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(QT_CHECK_SHAPES),
    .quick_shapes = QT_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(QT_QUICK_SHAPES),
    .main_shapes = QT_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(QT_MAIN_SHAPES),
    .check_max_offset = 0,
    .n_rungs = QT_N_RUNGS,
    .rung = qt_rung_info,
    .published = NULL,
    .sweeps = QT_SWEEPS,
    .n_sweeps = CLIMB_COUNT(QT_SWEEPS),
    .load = NULL,
    .unload = NULL,
    .peek = NULL,
    .case_size = sizeof(climb_case),
    .buffers = QT_BUFFERS,
    .n_buffers = CLIMB_COUNT(QT_BUFFERS),
    .init = qt_init,
    .fill = qt_fill,
    .fini = qt_fini,
    .create = NULL,
    .describe = qt_describe,
    .reference = qt_reference,
    .ref_cost = NULL,
    .ref_cost_limit = 0,
    .case_bytes = qt_case_bytes,
    .case_refuses = qt_case_refuses,
    .refuses = NULL,
    .prepare = qt_prepare,
    .setup = NULL,
    .modifies = NULL,
    .reset = NULL,
    .run = qt_run,
    .empty = NULL,
    .poison = qt_poison,
    .verify = qt_verify,
    .counts = qt_counts,
    .rung_counts = NULL,
    .rung_note = qt_rung_note,
    .release = qt_release,
    .save = NULL,
    .destroy = NULL,
    .tuning = NULL,
    .set_tuning = NULL,
};
