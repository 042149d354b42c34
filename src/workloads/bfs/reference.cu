/* BFS on the host: the CPU reference (a queue), the default source (a vertex of the largest component with an
 * out-edge that reaches much of it; for R-MAT, of the edges as drawn) and the symmetry test. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "bfs.h"

extern "C" int32_t climb_bfs_ref(int32_t n, const int32_t *rp, const int32_t *ci, int32_t source, int32_t *level,
                                 int32_t *frontier, int32_t *depth)
{
    for (int32_t v = 0; v < n; v++)
        level[v] = -1;
    if (depth)
        *depth = 0;
    if (source < 0 || source >= n)
        return 0;
    int32_t *q = frontier ? frontier : (int32_t *)malloc((size_t)n * sizeof *q);
    if (!q)
        return -1;
    int32_t head = 0, tail = 0, levels = 0;
    q[tail++] = source;
    level[source] = 0;
    while (head < tail) {
        const int32_t v = q[head++];
        if (level[v] + 1 > levels)
            levels = level[v] + 1;
        for (int32_t e = rp[v]; e < rp[v + 1]; e++)
            if (level[ci[e]] < 0) {
                level[ci[e]] = level[v] + 1;
                q[tail++] = ci[e];
            }
    }
    if (depth)
        *depth = levels;
    if (!frontier)
        free(q);
    return tail;
}

static int32_t find_root(int32_t *parent, int32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

extern "C" int32_t climb_bfs_default_source(int32_t n, const int32_t *rp, const int32_t *ci, uint64_t seed)
{
    if (n <= 0)
        return -1;
    int32_t *parent = (int32_t *)malloc((size_t)n * sizeof *parent), *size = (int32_t *)calloc((size_t)n, sizeof *size);
    if (!parent || !size) {
        free(parent);
        free(size);
        return 0;
    }
    for (int32_t v = 0; v < n; v++)
        parent[v] = v;
    for (int32_t v = 0; v < n; v++)
        for (int32_t e = rp[v]; e < rp[v + 1]; e++) {
            const int32_t a = find_root(parent, v), b = find_root(parent, ci[e]);
            if (a != b)
                parent[a < b ? b : a] = a < b ? a : b; /* the smaller id is the root */
        }
    int32_t best = 0;
    for (int32_t v = 0; v < n; v++)
        size[find_root(parent, v)]++;
    for (int32_t v = 1; v < n; v++)
        if (size[v] > size[best])
            best = v;
    /* the candidates: the component's vertices with an out-edge (all of them in a symmetric graph of more than one
     * vertex; in a directed one, a source without out-edges would reach only itself) */
    int64_t candidates = 0;
    for (int32_t v = 0; v < n; v++)
        candidates += find_root(parent, v) == best && rp[v + 1] > rp[v];
    int32_t *cand = candidates > 0 ? (int32_t *)malloc((size_t)candidates * sizeof *cand) : NULL,
            *level = candidates > 0 ? (int32_t *)malloc((size_t)n * sizeof *level) : NULL;
    int32_t source = best;
    if (cand && level) {
        for (int32_t v = 0, k = 0; v < n; v++)
            if (find_root(parent, v) == best && rp[v + 1] > rp[v])
                cand[k++] = v;
        /* the (seed mod count)-th first; in a directed graph a vertex with out-edges may still reach few (an R-MAT
         * vertex outside the giant strongly connected component), so while the pick reaches under a quarter of the
         * component, up to SOURCE_TRIES - 1 more are drawn and the one reaching most is kept */
        enum { SOURCE_TRIES = 8 };
        climb_rng r;
        climb_rng_seed(&r, seed);
        int32_t most = -1;
        for (int t = 0; t < SOURCE_TRIES; t++) {
            const int32_t v = cand[t == 0 ? (int64_t)(seed % (uint64_t)candidates)
                                          : (int64_t)(climb_rng_next(&r) % (uint64_t)candidates)];
            const int32_t reached = climb_bfs_ref(n, rp, ci, v, level, NULL, NULL);
            if (reached > most) {
                most = reached;
                source = v;
            }
            if ((int64_t)most * 4 >= (int64_t)size[best])
                break;
        }
    } else if (candidates > 0) {
        source = -1; /* out of memory */
    }
    free(cand);
    free(level);
    free(parent);
    free(size);
    return source;
}

extern "C" int32_t climb_bfs_drawn_source(const climb_sparse_gen *sg, char *err, size_t errlen)
{
    climb_sparse_gen drawn = *sg;
    drawn.directed = 1;
    climb_csr g;
    memset(&g, 0, sizeof g);
    if (climb_sparse_generate(&drawn, &g, NULL, err, errlen) != 0)
        return -1;
    const int32_t source = climb_bfs_default_source(g.rows, g.row_ptr, g.col_idx, sg->seed);
    climb_csr_free(&g);
    return source;
}

static int has_edge(const int32_t *rp, const int32_t *ci, int32_t u, int32_t v)
{
    int32_t lo = rp[u], hi = rp[u + 1];
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (ci[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < rp[u + 1] && ci[lo] == v;
}

extern "C" int climb_bfs_is_symmetric(int32_t n, const int32_t *rp, const int32_t *ci)
{
    for (int32_t u = 0; u < n; u++)
        for (int32_t e = rp[u]; e < rp[u + 1]; e++)
            if (!has_edge(rp, ci, ci[e], u))
                return 0;
    return 1;
}
