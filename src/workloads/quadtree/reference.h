/* Point quadtrees on the host, the quadtree ladder's reference (and its C API's rules): the generated point sets, the
 * Morton code of a point, the CPU build (the baseline), and the check a GPU build must pass. Host code.
 *
 * The tree is canonical, so that two builds can be compared node for node:
 *   - the domain is the unit square; a coordinate is quantised to 16 bits, c = min(floor(v 2^16), 2^16 - 1) (v in
 *     [0, 1]; v = 1 falls in the last cell), and a point's code interleaves the bits of its x and y cells (x in the
 *     even bits): a node at level L is a prefix of 2L bits, and a point on a split line (x = the node's middle) goes
 *     to the right (upper) child, exactly, since the middles are dyadic;
 *   - a node splits while it holds more than `leaf_points` points and its level is below `max_depth` (at most 16);
 *     a split makes all four children, empty ones included, in Z order (child q = 2 ybit + xbit);
 *   - nodes are stored level by level, each level in code order, a node's four children consecutive;
 *   - `order` lists the point indices sorted by (code, index): every node's points are the range [begin, end) of it.
 * A build that partitions otherwise (by dynamic parallelism, level by level) may order the points of a leaf
 * differently: climb_qt_check compares the nodes exactly and each leaf's points as a set. */
#ifndef CLIMB_WORKLOADS_QUADTREE_REFERENCE_H
#define CLIMB_WORKLOADS_QUADTREE_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_QT_BITS 16 /* cells a side: 2^16; the deepest level */

typedef struct climb_qt_params {
    int max_depth;      /* 0 to CLIMB_QT_BITS: the root is level 0 */
    int leaf_points;    /* a node of more points than this splits (at least 1) */
} climb_qt_params;

typedef struct climb_qt_node {
    uint32_t code;      /* the node's cell: its 2 level bits of prefix, right-aligned */
    int32_t level;
    int32_t first_child; /* index of its first child (four consecutive), -1 for a leaf */
    int32_t begin, end; /* its points: order[begin .. end) */
} climb_qt_node;

typedef struct climb_qt {
    int32_t n_nodes, cap_nodes;
    climb_qt_node *nodes;
    int32_t n_points;
    int32_t *order;
} climb_qt;

/* Point sets: UNIFORM in the unit square; CLUSTERED, a mixture of 8 Gaussians (centres uniform in [0.1, 0.9]^2,
 * sigma 0.01 to 0.05) clamped to the square; SAME, every point the same (the depth limit's case). */
enum { CLIMB_QT_UNIFORM = 0, CLIMB_QT_CLUSTERED = 1, CLIMB_QT_SAME = 2 };
void climb_qt_points(uint64_t seed, int dist, float *x, float *y, size_t n);

/* The 16 bits of v spread to the even bits of 32 (a code's x half; y's is this shifted by one). Host and device. */
#ifdef __CUDACC__
#define CLIMB_QT_HD __host__ __device__
#else
#define CLIMB_QT_HD
#endif
static inline CLIMB_QT_HD uint32_t climb_qt_spread(uint32_t v)
{
    v &= 0xffffu;
    v = (v | (v << 8)) & 0x00ff00ffu;
    v = (v | (v << 4)) & 0x0f0f0f0fu;
    v = (v | (v << 2)) & 0x33333333u;
    v = (v | (v << 1)) & 0x55555555u;
    return v;
}

/* A code's prefix at `level` (its node there), and the first position in sorted codes sc[lo .. hi) whose prefix at
 * `level` is at least want (hi if none). Host and device. */
static inline CLIMB_QT_HD uint32_t climb_qt_prefix(uint32_t code, int level)
{
    return level == 0 ? 0u : code >> (2 * (CLIMB_QT_BITS - level));
}
static inline CLIMB_QT_HD int32_t climb_qt_lower(const uint32_t *sc, int32_t lo, int32_t hi, int level, uint32_t want)
{
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (climb_qt_prefix(sc[mid], level) < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The quantised cell of a coordinate, and a point's code. */
uint32_t climb_qt_cell(float v);
uint32_t climb_qt_code(float x, float y);

/* NULL if the parameters can be built, else why not. */
const char *climb_qt_params_refuse(const climb_qt_params *p);

/* The CPU build of n points (n below 2^31): 0, or -1 with err (out of memory, bad parameters). Free with
 * climb_qt_free. */
int climb_qt_build_cpu(int32_t n, const float *x, const float *y, const climb_qt_params *p, climb_qt *t, char *err,
                       size_t errlen);
void climb_qt_free(climb_qt *t);

/* Checks a build t of the points against the rules above and against the reference ref (the CPU build of the same
 * points and parameters): the nodes equal, every point in exactly one leaf and in its cell, each leaf's points the
 * reference's as a set. 0 right; 1 wrong with msg (the first difference); -1 out of memory. */
int climb_qt_check(int32_t n, const float *x, const float *y, const climb_qt_params *p, const climb_qt *t,
                   const climb_qt *ref, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
