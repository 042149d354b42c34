/* The schedules of collective.h. */
#include <stdint.h>
#include <string.h>

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

/* ---- the key split ---- */

/* The digit of depth d (0: the top one): its lowest bit and its width (the last digit may be narrower). */
static void keysplit_digit(const climb_keysplit *s, int d, int *shift, int *width)
{
    const int top = s->key_bits - d * s->digit_bits;
    *width = top < s->digit_bits ? top : s->digit_bits;
    *shift = top - *width;
}

static int keysplit_digits(const climb_keysplit *s) { return (s->key_bits + s->digit_bits - 1) / s->digit_bits; }

int climb_keysplit_init(climb_keysplit *s, int P, int key_bits, int digit_bits, const size_t *out_count)
{
    if (!s || !out_count || P < 1 || P > CLIMB_MAX_RANKS || key_bits < 1 || key_bits > 64 || digit_bits < 1 ||
        digit_bits > 16)
        return -1;
    memset(s, 0, sizeof *s);
    s->P = P;
    s->key_bits = key_bits;
    s->digit_bits = digit_bits;
    size_t n = 0;
    for (int r = 0; r < P; r++) {
        if (out_count[r] > SIZE_MAX - n)
            return -1;
        n += out_count[r];
        s->end[r] = n;
    }
    /* cut r is the end of output r: at 0 everything is above it, at n nothing; any other is inside the one range */
    for (int r = 0; r + 1 < P; r++) {
        s->at[r] = -1;
        if (s->end[r] == n)
            s->cut[r].end = 1;
        else if (s->end[r] > 0)
            s->at[r] = 0;
    }
    for (int r = 0; r + 1 < P; r++)
        if (s->at[r] == 0)
            s->n_open = 1;
    s->open_count[0] = n;
    return 0;
}

int climb_keysplit_round(const climb_keysplit *s, int *shift, int *width)
{
    keysplit_digit(s, s->depth, shift, width);
    return s->n_open;
}

int climb_keysplit_feed(climb_keysplit *s, const size_t *hist)
{
    if (!s->n_open)
        return 0;
    int shift, width;
    keysplit_digit(s, s->depth, &shift, &width);
    const size_t B = (size_t)1 << width;
    const int last = s->depth + 1 == keysplit_digits(s), P = s->P;
    /* every open range's counts must add up to its keys (an overflow reads as a disagreement too) */
    for (int o = 0; o < s->n_open; o++) {
        size_t total = 0;
        for (int r = 0; r < P; r++)
            for (size_t d = 0; d < B; d++) {
                const size_t h = hist[((size_t)o * P + r) * B + d];
                if (h > SIZE_MAX - total)
                    return -1;
                total += h;
            }
        if (total != s->open_count[o])
            return -1;
    }
    int n_next = 0;
    unsigned long long next_prefix[CLIMB_MAX_RANKS];
    size_t next_start[CLIMB_MAX_RANKS], next_count[CLIMB_MAX_RANKS];
    for (int o = 0; o < s->n_open; o++) {
        size_t lo = s->open_start[o];
        for (size_t d = 0; d < B; d++) {
            size_t c = 0;
            for (int r = 0; r < P; r++)
                c += hist[((size_t)o * P + r) * B + d];
            const unsigned long long bucket = ((s->open_prefix[o] << width) | d), code = bucket << shift;
            int opened = -1;
            for (int k = 0; k + 1 < P; k++) {
                if (s->at[k] != o)
                    continue;
                const size_t e = s->end[k];
                if (e == lo && c > 0) { /* on the bucket's lower edge: its keys and all after are above */
                    s->at[k] = -1;
                    s->cut[k].v = code;
                } else if (e > lo && e < lo + c) { /* inside the bucket */
                    if (last) {                     /* among equal keys: split by rank, in input order */
                        s->at[k] = -1;
                        s->cut[k].v = code;
                        size_t need = e - lo;
                        for (int r = 0; r < P; r++) {
                            const size_t h = hist[((size_t)o * P + r) * B + d];
                            s->cut[k].t[r] = h < need ? h : need;
                            need -= s->cut[k].t[r];
                        }
                    } else {
                        if (opened < 0) {
                            opened = n_next++;
                            next_prefix[opened] = bucket;
                            next_start[opened] = lo;
                            next_count[opened] = c;
                        }
                        s->at[k] = CLIMB_MAX_RANKS + opened; /* moved to the next round's range (renumbered below) */
                    }
                }
            }
            lo += c;
        }
    }
    for (int k = 0; k + 1 < P; k++)
        if (s->at[k] >= 0 && s->at[k] < CLIMB_MAX_RANKS)
            return -1; /* a cut inside a range but in none of its buckets: the counts were wrong */
        else if (s->at[k] >= CLIMB_MAX_RANKS)
            s->at[k] -= CLIMB_MAX_RANKS;
    s->n_open = n_next;
    for (int o = 0; o < n_next; o++) {
        s->open_prefix[o] = next_prefix[o];
        s->open_start[o] = next_start[o];
        s->open_count[o] = next_count[o];
    }
    s->depth++;
    return 0;
}

int climb_keysplit_dest(const climb_keysplit *s, unsigned long long code, int r, size_t eq)
{
    int below = 0;
    for (int k = 0; k + 1 < s->P; k++) {
        const climb_keycut *c = &s->cut[k];
        below += !c->end && (code > c->v || (code == c->v && eq >= c->t[r]));
    }
    return below;
}

int climb_keysplit_ties(const climb_keysplit *s, unsigned long long code, int r)
{
    for (int k = 0; k + 1 < s->P; k++)
        if (!s->cut[k].end && s->cut[k].v == code && s->cut[k].t[r] > 0)
            return 1;
    return 0;
}

int climb_keysplit_tie_values(const climb_keysplit *s, int r, unsigned long long *ties)
{
    int n = 0;
    for (int k = 0; k + 1 < s->P; k++) {
        const climb_keycut *c = &s->cut[k];
        if (!c->end && c->t[r] > 0 && (n == 0 || ties[n - 1] != c->v))
            ties[n++] = c->v;
    }
    return n;
}

int climb_keysplit_class_pieces(const climb_keysplit *s, int r, const size_t *class_count, int *dest, size_t *from,
                                size_t *len)
{
    unsigned long long ties[CLIMB_MAX_RANKS];
    const int n_ties = climb_keysplit_tie_values(s, r, ties), P = s->P;
    int n = 0;
    size_t at = 0;
#define KS_PIECE(d_, f_, l_)                                                                                           \
    do {                                                                                                               \
        if ((l_) > 0) {                                                                                                \
            dest[n] = (d_);                                                                                            \
            from[n] = (f_);                                                                                            \
            len[n++] = (l_);                                                                                           \
        }                                                                                                              \
    } while (0)
    for (int d = 0; d < P; d++) {
        KS_PIECE(d, at, class_count[d]);
        at += class_count[d];
    }
    for (int j = 0; j < n_ties; j++) {
        const size_t m = class_count[P + j];
        int d = 0; /* the tie's first keys go above every cut below its value */
        for (int k = 0; k + 1 < P; k++)
            d += !s->cut[k].end && s->cut[k].v < ties[j];
        size_t done = 0;
        for (int k = 0; k + 1 < P; k++)
            if (!s->cut[k].end && s->cut[k].v == ties[j]) {
                const size_t upto = s->cut[k].t[r] < m ? s->cut[k].t[r] : m;
                KS_PIECE(d, at + done, upto - done);
                done = upto;
                d++;
            }
        KS_PIECE(d, at + done, m - done);
        at += m;
    }
#undef KS_PIECE
    return n;
}

void climb_vertex_range(long long nv, int P, int r, long long *v0, long long *v1)
{
    size_t off, len;
    climb_chunk_of(nv > 0 ? (size_t)((nv + 31) / 32) : 0, P, r, &off, &len);
    *v0 = (long long)off * 32;
    *v1 = (long long)(off + len) * 32;
    if (*v0 > nv)
        *v0 = nv;
    if (*v1 > nv)
        *v1 = nv;
}

int climb_vertex_owner(long long nv, int P, long long v)
{
    const long long words = (nv + 31) / 32, q = words / P, rem = words % P, w = v / 32;
    /* the first rem ranks hold q + 1 words, the rest q */
    return w < rem * (q + 1) ? (int)(w / (q + 1)) : (int)(rem + (w - rem * (q + 1)) / q);
}
