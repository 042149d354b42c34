/* Point quadtrees on the host: generated points, Morton codes, the CPU build and the check (quadtree.h). */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"

void climb_qt_points(uint64_t seed, int dist, float *x, float *y, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    double cx[8], cy[8], sigma[8];
    for (int k = 0; k < 8; k++) {
        cx[k] = climb_rng_double(&r, 0.1, 0.9);
        cy[k] = climb_rng_double(&r, 0.1, 0.9);
        sigma[k] = climb_rng_double(&r, 0.01, 0.05);
    }
    const float same_x = climb_rng_float(&r, 0, 1), same_y = climb_rng_float(&r, 0, 1);
    for (size_t i = 0; i < n; i++) {
        if (dist == CLIMB_QT_SAME) {
            x[i] = same_x;
            y[i] = same_y;
        } else if (dist == CLIMB_QT_CLUSTERED) {
            const int k = (int)(climb_rng_next(&r) & 7);
            /* Box-Muller: two normal deviates from two uniform ones */
            const double u1 = climb_rng_double(&r, 0x1p-53, 1.0), u2 = climb_rng_double(&r, 0.0, 1.0);
            const double rad = sqrt(-2.0 * log(u1)), ang = 6.283185307179586 * u2;
            double px = cx[k] + sigma[k] * rad * cos(ang), py = cy[k] + sigma[k] * rad * sin(ang);
            px = px < 0 ? 0 : px > 1 ? 1 : px;
            py = py < 0 ? 0 : py > 1 ? 1 : py;
            x[i] = (float)px;
            y[i] = (float)py;
        } else {
            x[i] = climb_rng_float(&r, 0, 1);
            y[i] = climb_rng_float(&r, 0, 1);
        }
    }
}

uint32_t climb_qt_cell(float v)
{
    if (!(v > 0)) /* 0, negatives and NaN: the first cell */
        return 0;
    const double f = (double)v * (double)(1u << CLIMB_QT_BITS);
    return f >= (double)((1u << CLIMB_QT_BITS) - 1) ? (1u << CLIMB_QT_BITS) - 1 : (uint32_t)f;
}

uint32_t climb_qt_code(float x, float y)
{
    return climb_qt_spread(climb_qt_cell(x)) | (climb_qt_spread(climb_qt_cell(y)) << 1);
}

/* A code's prefix of `level` levels (2 bits a level), right-aligned. */

const char *climb_qt_params_refuse(const climb_qt_params *p)
{
    if (p->max_depth < 0 || p->max_depth > CLIMB_QT_BITS)
        return "max_depth must be 0 to 16 (the cells are 16 bits a side)";
    if (p->leaf_points < 1)
        return "leaf_points must be at least 1";
    return NULL;
}

void climb_qt_free(climb_qt *t)
{
    free(t->nodes);
    free(t->order);
    memset(t, 0, sizeof *t);
}

static int push_node(climb_qt *t, climb_qt_node nd)
{
    if (t->n_nodes == t->cap_nodes) {
        const int32_t cap = t->cap_nodes ? 2 * t->cap_nodes : 64;
        climb_qt_node *p = (climb_qt_node *)realloc(t->nodes, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        t->nodes = p;
        t->cap_nodes = cap;
    }
    t->nodes[t->n_nodes++] = nd;
    return 0;
}


int climb_qt_build_cpu(int32_t n, const float *x, const float *y, const climb_qt_params *p, climb_qt *t, char *err,
                       size_t errlen)
{
    memset(t, 0, sizeof *t);
    const char *why = climb_qt_params_refuse(p);
    if (why || n < 0) {
        snprintf(err, errlen, "%s", why ? why : "a negative number of points");
        return -1;
    }
    const size_t n1 = n ? (size_t)n : 1;
    uint32_t *code = (uint32_t *)malloc(n1 * sizeof *code), *sc = (uint32_t *)malloc(n1 * sizeof *sc);
    int32_t *tmp = (int32_t *)malloc(n1 * sizeof *tmp);
    t->order = (int32_t *)malloc(n1 * sizeof *t->order);
    if (!code || !sc || !tmp || !t->order) {
        free(code);
        free(sc);
        free(tmp);
        climb_qt_free(t);
        snprintf(err, errlen, "out of host memory for %d points", n);
        return -1;
    }
    t->n_points = n;
    for (int32_t i = 0; i < n; i++) {
        code[i] = climb_qt_code(x[i], y[i]);
        t->order[i] = i;
    }
    /* stable LSD radix sort of the indices by code, 8 bits a pass: ties stay in index order */
    int32_t *src = t->order, *dst = tmp;
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (int32_t i = 0; i < n; i++)
            count[((code[src[i]] >> shift) & 255u) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (int32_t i = 0; i < n; i++)
            dst[count[(code[src[i]] >> shift) & 255u]++] = src[i];
        int32_t *s = src;
        src = dst;
        dst = s;
    }
    /* four passes: the sorted order is back in t->order */
    for (int32_t i = 0; i < n; i++)
        sc[i] = code[t->order[i]];
    free(code);
    free(tmp);
    int rc = push_node(t, (climb_qt_node){0, 0, -1, 0, n});
    for (int32_t i = 0; rc == 0 && i < t->n_nodes; i++) {
        const climb_qt_node nd = t->nodes[i];
        if (nd.end - nd.begin <= p->leaf_points || nd.level >= p->max_depth)
            continue;
        t->nodes[i].first_child = t->n_nodes;
        int32_t at = nd.begin;
        for (uint32_t q = 0; q < 4 && rc == 0; q++) {
            const uint32_t cc = (nd.code << 2) | q;
            const int32_t stop = q == 3 ? nd.end : climb_qt_lower(sc, at, nd.end, nd.level + 1, cc + 1);
            rc = push_node(t, (climb_qt_node){cc, nd.level + 1, -1, at, stop});
            at = stop;
        }
    }
    free(sc);
    if (rc != 0) {
        climb_qt_free(t);
        snprintf(err, errlen, "out of host memory for the nodes");
        return -1;
    }
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int climb_qt_check(int32_t n, const float *x, const float *y, const climb_qt_params *p, const climb_qt *t,
                   const climb_qt *ref, char *msg, size_t msglen)
{
    msg[0] = '\0';
    if (t->n_points != n || !t->order || t->n_nodes < 1) {
        snprintf(msg, msglen, "the tree holds %d points and %d nodes (%d points given)", t->n_points, t->n_nodes, n);
        return 1;
    }
    /* every point once */
    unsigned char *seen = (unsigned char *)calloc(n ? (size_t)n : 1, 1);
    int32_t *a = (int32_t *)malloc((n ? (size_t)n : 1) * sizeof *a), *b = (int32_t *)malloc((n ? (size_t)n : 1) * sizeof *b);
    int bad = 0;
    if (!seen || !a || !b) {
        free(seen);
        free(a);
        free(b);
        return -1;
    }
    for (int32_t i = 0; i < n && !bad; i++) {
        const int32_t v = t->order[i];
        if (v < 0 || v >= n || seen[v]) {
            snprintf(msg, msglen, "order[%d] = %d: %s", i, v, v < 0 || v >= n ? "not a point" : "a point listed twice");
            bad = 1;
        } else {
            seen[v] = 1;
        }
    }
    /* the nodes, one by one: the rules, then the reference */
    for (int32_t i = 0; i < t->n_nodes && !bad; i++) {
        const climb_qt_node *nd = &t->nodes[i];
        const int32_t count = nd->end - nd->begin;
        if (nd->begin < 0 || nd->end > n || count < 0) {
            snprintf(msg, msglen, "node %d: points [%d, %d) outside [0, %d)", i, nd->begin, nd->end, n);
            bad = 1;
            break;
        }
        const int split = count > p->leaf_points && nd->level < p->max_depth;
        if (split != (nd->first_child >= 0)) {
            snprintf(msg, msglen, "node %d (level %d, %d points): %s", i, nd->level, count,
                     split ? "a leaf that should split" : "split though it should be a leaf");
            bad = 1;
            break;
        }
        if (split) {
            const int32_t c = nd->first_child;
            if (c + 4 > t->n_nodes || t->nodes[c].begin != nd->begin || t->nodes[c + 3].end != nd->end) {
                snprintf(msg, msglen, "node %d: its children do not cover its points", i);
                bad = 1;
                break;
            }
            for (int q = 0; q < 4 && !bad; q++) {
                const climb_qt_node *ch = &t->nodes[c + q];
                if (ch->level != nd->level + 1 || ch->code != ((nd->code << 2) | (uint32_t)q) ||
                    (q > 0 && ch->begin != t->nodes[c + q - 1].end)) {
                    snprintf(msg, msglen, "node %d: child %d is not its quadrant %d", i, c + q, q);
                    bad = 1;
                }
            }
        } else {
            for (int32_t j = nd->begin; j < nd->end && !bad; j++) {
                const int32_t v = t->order[j];
                if (climb_qt_prefix(climb_qt_code(x[v], y[v]), nd->level) != nd->code) {
                    snprintf(msg, msglen, "point %d (%g, %g) is in leaf %d (level %d, cell %u), not its cell", v, x[v],
                             y[v], i, nd->level, nd->code);
                    bad = 1;
                }
            }
        }
        if (!bad && ref) {
            const climb_qt_node *rn = i < ref->n_nodes ? &ref->nodes[i] : NULL;
            if (!rn || rn->code != nd->code || rn->level != nd->level || rn->first_child != nd->first_child ||
                rn->begin != nd->begin || rn->end != nd->end) {
                snprintf(msg, msglen, "node %d differs from the CPU build's (level %d, cell %u, points [%d, %d))", i,
                         nd->level, nd->code, nd->begin, nd->end);
                bad = 1;
            } else if (nd->first_child < 0 && count > 0) {
                memcpy(a, t->order + nd->begin, (size_t)count * sizeof *a);
                memcpy(b, ref->order + nd->begin, (size_t)count * sizeof *b);
                qsort(a, (size_t)count, sizeof *a, cmp_i32);
                qsort(b, (size_t)count, sizeof *b, cmp_i32);
                if (memcmp(a, b, (size_t)count * sizeof *a) != 0) {
                    snprintf(msg, msglen, "leaf %d holds other points than the CPU build's", i);
                    bad = 1;
                }
            }
        }
    }
    if (!bad && ref && ref->n_nodes != t->n_nodes) {
        snprintf(msg, msglen, "%d nodes, the CPU build has %d", t->n_nodes, ref->n_nodes);
        bad = 1;
    }
    free(seen);
    free(a);
    free(b);
    return bad;
}
