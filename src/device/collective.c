/* The schedules of collective.h. */
#include <stdint.h>

#include "collective.h"

void climb_chunk_of(size_t count, int n, int i, size_t *off, size_t *len)
{
    const size_t q = count / (size_t)n, r = count % (size_t)n, ui = (size_t)i;
    *off = ui * q + (ui < r ? ui : r); /* at most count: never wraps */
    *len = q + (ui < r ? 1 : 0);
}

int climb_chunk_holding(size_t count, int n, size_t p)
{
    for (int q = 0; q < n; q++) {
        size_t off, len;
        climb_chunk_of(count, n, q, &off, &len);
        if (p >= off && p < off + len)
            return q;
    }
    return n - 1;
}

void climb_summa_grid(int P, int *gr, int *gc)
{
    int rows = 1;
    for (int d = 1; d * d <= P; d++)
        if (P % d == 0)
            rows = d;
    *gr = rows;
    *gc = P / rows;
}

int climb_summa_panels(size_t k, int gr, int gc, size_t *p)
{
    int n = 0;
    for (size_t at = 0; at < k;) {
        p[n++] = at;
        size_t off, len, end = k;
        climb_chunk_of(k, gc, climb_chunk_holding(k, gc, at), &off, &len);
        end = off + len < end ? off + len : end;
        climb_chunk_of(k, gr, climb_chunk_holding(k, gr, at), &off, &len);
        end = off + len < end ? off + len : end;
        at = end;
    }
    p[n] = k;
    return n;
}

int climb_slab_of(size_t nz, int n, int i, climb_slab *s)
{
    if (n < 1 || n > CLIMB_MAX_RANKS || i < 0 || i >= n || nz < (size_t)n)
        return -1;
    size_t off, len;
    climb_chunk_of(nz, n, i, &off, &len);
    s->z0 = off;
    s->z1 = off + len;
    s->below = i > 0;
    s->above = i < n - 1;
    s->planes = s->below + len + s->above;
    return 0;
}

static int ring_ok(int n, int rank, int phase, int step)
{
    return n >= 1 && n <= CLIMB_MAX_RANKS && rank >= 0 && rank < n && (phase == CLIMB_REDUCE_SCATTER ||
                                                                         phase == CLIMB_ALL_GATHER) &&
           step >= 0 && step < n - 1;
}

/* Reduce-scatter: at step s rank r sends chunk (r - s) mod n, the one it has summed s + 1 ranks' parts of; so after
 * n - 1 steps it has received, and completed, chunk (r + 1) mod n. All-gather: at step s it passes on chunk
 * (r + 1 - s) mod n, the complete chunk it owns first and then each one it has just received. */
int climb_ring_send(int n, int rank, int phase, int step)
{
    if (!ring_ok(n, rank, phase, step))
        return -1;
    const int c = phase == CLIMB_REDUCE_SCATTER ? rank - step : rank + 1 - step;
    return ((c % n) + n) % n;
}

int climb_ring_recv(int n, int rank, int phase, int step)
{
    return ring_ok(n, rank, phase, step) ? climb_ring_send(n, (rank + n - 1) % n, phase, step) : -1;
}

int climb_ring_owned(int n, int rank)
{
    return n >= 1 && n <= CLIMB_MAX_RANKS && rank >= 0 && rank < n ? (rank + 1) % n : -1;
}

int climb_rotation_to(int n, int rank, int step)
{
    return n >= 1 && n <= CLIMB_MAX_RANKS && rank >= 0 && rank < n && step >= 0 && step < n ? (rank + step) % n : -1;
}

void climb_vec4_split(const void *const *ptrs, int count, size_t n, size_t *head, size_t *n4)
{
    *head = *n4 = 0;
    if (count < 1)
        return;
    const uintptr_t mis = (uintptr_t)ptrs[0] & 15;
    int same = mis % 4 == 0;
    for (int q = 1; q < count && same; q++)
        same = ((uintptr_t)ptrs[q] & 15) == mis;
    if (same) {
        *head = ((16 - mis) & 15) / 4;
        if (*head > n)
            *head = n;
        *n4 = (n - *head) / 4;
    }
}

int climb_log2_exact(int n)
{
    if (n < 1 || (n & (n - 1)) != 0)
        return -1;
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

int climb_halving(int n, int rank, int phase, int step, climb_halving_step *out)
{
    const int lg = climb_log2_exact(n);
    if (lg < 0 || n > CLIMB_MAX_RANKS || rank < 0 || rank >= n || step < 0 || step >= lg ||
        (phase != CLIMB_REDUCE_SCATTER && phase != CLIMB_ALL_GATHER))
        return -1;
    if (phase == CLIMB_REDUCE_SCATTER) {
        /* distance d = n / 2^(step+1); the rank holds the 2d chunks from lo (its rank with the bits below 2d
         * cleared); the lower rank of a pair keeps the lower half */
        const int d = n >> (step + 1), lo = rank & ~(2 * d - 1), upper = (rank & d) != 0;
        out->partner = rank ^ d;
        out->recv_lo = upper ? lo + d : lo; /* what it keeps, and the partner's part of it comes in */
        out->recv_hi = out->recv_lo + d;
        out->send_lo = upper ? lo : lo + d;
        out->send_hi = out->send_lo + d;
    } else {
        /* distance d = 2^step: the rank holds the d chunks of its block and receives its partner's */
        const int d = 1 << step;
        out->partner = rank ^ d;
        out->send_lo = rank & ~(d - 1);
        out->send_hi = out->send_lo + d;
        out->recv_lo = out->partner & ~(d - 1);
        out->recv_hi = out->recv_lo + d;
    }
    return 0;
}

double climb_busbw_factor(climb_coll c, int n)
{
    if (n < 1)
        return 0.0;
    switch (c) {
    case CLIMB_COLL_ALL_REDUCE: return 2.0 * (n - 1) / n;
    case CLIMB_COLL_ALL_GATHER:
    case CLIMB_COLL_REDUCE_SCATTER: return (double)(n - 1) / n;
    case CLIMB_COLL_PEER_COPY: return 1.0;
    }
    return 0.0;
}
