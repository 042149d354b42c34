/* The arithmetic of collectives across GPUs, on the host: how an array is cut into chunks, and which chunk each
 * rank sends and receives at each step of the ring and of recursive halving and doubling. The all-reduce ladder's
 * rungs and the C API's calls follow these schedules; test_cpu_collectives runs them on host arrays.
 *
 * Ring (Patarasuk and Yuan's bandwidth-optimal all-reduce, as NCCL's ring does it): n - 1 reduce-scatter steps,
 * then n - 1 all-gather steps; at each step every rank sends one chunk to the next rank and receives one from the
 * previous. Recursive halving and doubling (Rabenseifner; Thakur, Rabenseifner and Gropp): log2 n steps each way,
 * every rank exchanging half of what it still holds with a partner at distance n/2, n/4, ..., then doubling back;
 * it takes a power-of-two number of ranks. */
#ifndef CLIMB_DEVICE_COLLECTIVE_H
#define CLIMB_DEVICE_COLLECTIVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs a collective spans (a node's: 8 today, room for 64). */
#define CLIMB_MAX_RANKS 64

/* Chunk i of count elements cut into n: the first count % n chunks one element longer than the rest; *off its first
 * element. Every element in exactly one chunk; n in 1..CLIMB_MAX_RANKS, i in 0..n-1. */
void climb_chunk_of(size_t count, int n, int i, size_t *off, size_t *len);

enum { CLIMB_REDUCE_SCATTER = 0, CLIMB_ALL_GATHER = 1 };

/* The ring, n ranks, phase CLIMB_REDUCE_SCATTER or CLIMB_ALL_GATHER, step 0..n-2: the chunk rank `rank` sends to
 * rank (rank + 1) % n, and the chunk it receives from rank (rank + n - 1) % n (added into its own copy in the
 * reduce-scatter, copied in the all-gather). After the reduce-scatter rank r holds the whole sum of chunk
 * climb_ring_owned(n, r). -1 for arguments out of range. */
int climb_ring_send(int n, int rank, int phase, int step);
int climb_ring_recv(int n, int rank, int phase, int step);
int climb_ring_owned(int n, int rank);

/* The all-to-all rotation: at step k (0..n-1) rank `rank` sends to rank (rank + k) % n, so that at every step
 * each rank receives from exactly one other and every link into a GPU is used once (step 0 is the rank's own
 * piece). Rank order for all would have every GPU send to rank 0 first, then all to rank 1: every sender in one
 * GPU's incoming link at a time. -1 for arguments out of range. */
int climb_rotation_to(int n, int rank, int step);

/* How n elements of 4 bytes at `count` pointers split for 16-byte accesses (the kernels that sum and store across
 * GPUs): where every pointer stands at the same offset from a 16-byte boundary, *head elements one by one until
 * they all reach one, then *n4 vectors of four, the rest one by one again; otherwise no vectors (*head = *n4 = 0). */
void climb_vec4_split(const void *const *ptrs, int count, size_t n, size_t *head, size_t *n4);

/* One step of recursive halving (CLIMB_REDUCE_SCATTER, distances n/2 down to 1) or doubling (CLIMB_ALL_GATHER,
 * distances 1 up to n/2), in chunks: the partner; the chunks [send_lo, send_hi) sent to it; the chunks
 * [recv_lo, recv_hi) received from it (halving: added into the rank's own, which it keeps; doubling: copied).
 * After the halving rank r holds the sum of chunk r. */
typedef struct climb_halving_step {
    int partner, send_lo, send_hi, recv_lo, recv_hi;
} climb_halving_step;

/* log2 n where n is a power of two (1 gives 0), else -1. */
int climb_log2_exact(int n);
/* The step (0 .. log2 n - 1) of a phase: 0, or -1 where n is not a power of two or an argument is out of range. */
int climb_halving(int n, int rank, int phase, int step, climb_halving_step *out);

/* nccl-tests' bus bandwidth: algorithm bandwidth (the bytes of the collective's "size" over the time) times
 * 2(n-1)/n for all-reduce, (n-1)/n for all-gather and reduce-scatter (their size being the whole gathered array),
 * 1 for a copy between two GPUs; what a link carries in the best schedule, so comparable across GPU counts. */
typedef enum { CLIMB_COLL_ALL_REDUCE, CLIMB_COLL_ALL_GATHER, CLIMB_COLL_REDUCE_SCATTER, CLIMB_COLL_PEER_COPY } climb_coll;
double climb_busbw_factor(climb_coll c, int n);

/* The chunk of count elements cut into n (climb_chunk_of) that holds element p (the last where p is past them). */
int climb_chunk_holding(size_t count, int n, size_t p);

/* SUMMA's grid of P GPUs (van de Geijn and Watts): gr rows, the largest divisor of P not above its square root, by
 * gc = P / gr columns, rank r at row r / gc, column r % gc. A's columns are split over the grid's columns and B's
 * rows over its rows, each as climb_chunk_of splits k. */
void climb_summa_grid(int P, int *gr, int *gc);
/* The panels of k for that split: [p[t], p[t + 1]) for t below the count returned (0 for k = 0), cut wherever A's
 * columns change grid column or B's rows change grid row, so that each panel of A lies on one GPU of each grid row
 * and each panel of B on one GPU of each grid column. p holds gr + gc + 1 entries at the least. */
int climb_summa_panels(size_t k, int gr, int gc, size_t *p);

/* A grid of nz planes split along z over n GPUs, one slab a rank (the stencil across GPUs): rank i owns the planes
 * climb_chunk_of gives it, [z0, z1), and holds them with a halo plane on each side that has a neighbour, a copy of
 * the neighbour's nearest owned plane that the exchange after each step refreshes. Local plane k is global plane
 * z0 - below + k. A step computes every owned plane (local [below, below + z1 - z0)) from the planes around it; then
 * rank i's first owned plane goes to rank i - 1's top halo (local planes - 1 there) and its last to rank i + 1's
 * bottom halo (local 0 there). */
typedef struct climb_slab {
    size_t z0, z1;       /* the owned global planes */
    size_t below, above; /* halo planes held below and above: 1 where that neighbour exists, else 0 */
    size_t planes;       /* local planes: below + (z1 - z0) + above */
} climb_slab;

/* Rank i's slab of nz planes over n ranks: 0, or -1 where a rank would own no plane (nz < n) or the arguments are
 * out of range (n in 1..CLIMB_MAX_RANKS, i in 0..n-1). */
int climb_slab_of(size_t nz, int n, int i, climb_slab *s);
/* Local plane indices of rank i's slab: the first owned plane (what goes down to rank i - 1), the last owned
 * (what goes up to rank i + 1), the bottom halo (from rank i - 1) and the top halo (from rank i + 1). */
static inline size_t climb_slab_first(const climb_slab *s) { return s->below; }
static inline size_t climb_slab_last(const climb_slab *s) { return s->below + (s->z1 - s->z0) - 1; }
static inline size_t climb_slab_top_halo(const climb_slab *s) { return s->planes - 1; }

/* ---- a sort's exact split of keys spread over P ranks into P slices of the sorted order ----
 *
 * Each rank holds some keys (by their codes: unsigned integers of key_bits bits whose order is the keys' order); the
 * global order of equal keys is the input's, rank 0's keys first, each rank's in its own order (a stable sort).
 * Output r is to hold positions [end[r - 1], end[r]) of the sorted order, end[r] the sum of out_count[0 .. r].
 * The split is found by the keys' most significant digits, as an MSB radix partition (Ilic, Tolovski and Rabl's RMG
 * sort) but exact: a round histograms one digit of the keys of every range still open (a range of keys with equal
 * upper digits that straddles a cut between two outputs: at most P - 1 of them), every rank its own keys; the
 * counts place each cut in a bucket of the next digit, which closes it where the cut falls on the bucket's edge and
 * opens a narrower range where it falls inside. After the last digit a cut inside a bucket is among equal keys, and
 * is split by rank: the first t[s] of rank s's keys equal to v go below it. So a heavy key (half the keys one value)
 * is shared among as many outputs as it fills, in input order, and no output gets more than its count. */
typedef struct climb_keycut {
    unsigned long long v; /* the cut's key code */
    int end;              /* 1: past every key (a cut at the end: nothing above it) */
    size_t t[CLIMB_MAX_RANKS]; /* how many of rank s's keys equal to v go below the cut */
} climb_keycut;

typedef struct climb_keysplit {
    int P, key_bits, digit_bits, depth;      /* depth: the digits resolved so far (rounds fed) */
    size_t end[CLIMB_MAX_RANKS];             /* output r's end in the sorted order */
    int n_open;                              /* ranges open for the next round */
    unsigned long long open_prefix[CLIMB_MAX_RANKS]; /* each's upper depth digits (the key's code >> the digits below) */
    size_t open_start[CLIMB_MAX_RANKS], open_count[CLIMB_MAX_RANKS]; /* its first position, its keys */
    int at[CLIMB_MAX_RANKS];                 /* cut r (the end of output r, r < P - 1): its open range, or -1 placed */
    climb_keycut cut[CLIMB_MAX_RANKS];
} climb_keysplit;

/* Starts a split of P ranks' keys (key_bits 1..64, digits of digit_bits 1..16) into outputs of out_count[0 .. P)
 * keys. 0, or -1 for arguments out of range or counts whose sum overflows. */
int climb_keysplit_init(climb_keysplit *s, int P, int key_bits, int digit_bits, const size_t *out_count);
/* The next round's digit: bits [*shift, *shift + *width) of the code; returns the ranges open (0: the split is
 * done). Open range o holds the keys whose code >> (*shift + *width) is open_prefix[o] (every key at depth 0). */
int climb_keysplit_round(const climb_keysplit *s, int *shift, int *width);
/* Feeds the round's counts: hist[(o * P + r) * 2^width + d], rank r's keys of open range o whose digit is d. 0, or
 * -1 where the counts disagree with the split so far (a range's total not what the round before counted). */
int climb_keysplit_feed(climb_keysplit *s, const size_t *hist);
/* The output of a key of rank r with code `code`, the eq-th (from 0) of rank r's keys equal to it: the cuts below
 * it. Only keys equal to a cut's v with a t[r] above 0 need eq (climb_keysplit_ties says which). */
int climb_keysplit_dest(const climb_keysplit *s, unsigned long long code, int r, size_t eq);
/* 1 when keys of code `code` from rank r are split between outputs (their eq matters). */
int climb_keysplit_ties(const climb_keysplit *s, unsigned long long code, int r);
/* Rank r's tie values: the codes of its keys that are split between outputs (a cut's v with t[r] above 0), each
 * once, ascending, into ties (P - 1 at the most); returns how many. */
int climb_keysplit_tie_values(const climb_keysplit *s, int r, unsigned long long *ties);
/* Rank r's keys partitioned stably by class: class d (0 .. P - 1) the keys bound for output d that are no tie,
 * class P + j the keys equal to tie value j, with class_count[0 .. P + ties) keys each, in class order. The pieces
 * that go out: piece i is len[i] keys from position from[i] to output dest[i] (a class whole, or a tie's keys cut
 * at its cuts' t[r]); empty ones left out. Returns the pieces (3P - 2 at the most: P classes, and a tie's keys in
 * one piece more than its cuts). */
int climb_keysplit_class_pieces(const climb_keysplit *s, int r, const size_t *class_count, int *dest, size_t *from,
                                size_t *len);

/* ---- a graph's vertices split over P ranks for a BFS across GPUs (a 1-D partition) ----
 * Rank r owns the vertices [v0, v1) and their edges; the frontier and visited sets are bitmaps of 32-vertex words
 * that every rank holds whole, each rank writing its own words alone, so the ranges are cut at whole words: the
 * ceil(nv / 32) words split as climb_chunk_of splits them (the first ranks a word more), the last range ending at
 * nv. A rank may own no vertex (fewer words than ranks). */
void climb_vertex_range(long long nv, int P, int r, long long *v0, long long *v1);
/* The rank that owns vertex v (0 <= v < nv), in O(1). */
int climb_vertex_owner(long long nv, int P, long long v);

#ifdef __cplusplus
}
#endif

#endif
