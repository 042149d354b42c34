/* CPU: the schedules of collectives across GPUs (src/device/collective.h) run on host arrays, one per simulated
 * rank: the chunks cover an array exactly; the ring's reduce-scatter and all-gather leave every rank with the whole
 * sum for 1 to 9 ranks and 64, for counts that do not divide, are smaller than the ranks, or are empty; recursive
 * halving and doubling do the same for powers of two and refuse other counts; every step's arguments checked; the
 * bus bandwidth factors are nccl-tests'; the key split of a sort across GPUs (every key of 600 random splits, 1 to 8
 * ranks and 64, 32- and 64-bit keys, digits of 1 to 16 bits, uniform, few-valued, equal, narrow and heavy keys,
 * uneven and empty outputs, at the output its stable place says, each output exactly full, and again through each
 * rank's stable partition by class and its pieces; its refusals); a BFS's vertex ranges (whole bitmap words) and
 * their owners. Device sets (--gpus, --devices) and their refusals; the NVLinks of a pair from NVML's links. And NCCL, where its library opens here: NCCL_NVLS_ENABLE is 0 once it is
 * opened, whatever it was; a library that is not there is a clear refusal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "device/collective.h"
#include "device/device.h"
#include "device/device_set.h"
#include "device/nccl.h"
#include "testing.h"

/* Every element of each rank's array against the sum over ranks of what the ranks started with. */
static int all_hold_sum(int n, size_t count, int64_t *const *buf, const int64_t *want)
{
    for (int r = 0; r < n; r++)
        for (size_t i = 0; i < count; i++)
            if (buf[r][i] != want[i])
                return 0;
    return 1;
}

/* Rank r's chunk c is the whole sum. */
static int chunk_done(int n, size_t count, const int64_t *b, int c, const int64_t *want)
{
    size_t off, len;
    climb_chunk_of(count, n, c, &off, &len);
    return memcmp(b + off, want + off, len * sizeof *b) == 0;
}

/* The ring on n simulated ranks: each step's sends taken from the state before it, as the GPUs' copies are; after
 * the reduce-scatter each rank's owned chunk must be complete. */
static int ring_allreduce(int n, size_t count, int64_t **buf, int64_t *stage, const int64_t *want)
{
    for (int phase = CLIMB_REDUCE_SCATTER; phase <= CLIMB_ALL_GATHER; phase++)
        for (int s = 0; s < n - 1; s++) {
            for (int r = 0; r < n; r++) { /* rank r's send lands at rank r + 1: staged first */
                const int c = climb_ring_send(n, r, phase, s);
                if (c < 0 || climb_ring_recv(n, (r + 1) % n, phase, s) != c)
                    return 0;
                size_t off, len;
                climb_chunk_of(count, n, c, &off, &len);
                memcpy(stage + (size_t)((r + 1) % n) * count + off, buf[r] + off, len * sizeof(int64_t));
            }
            for (int r = 0; r < n; r++) {
                size_t off, len;
                climb_chunk_of(count, n, climb_ring_recv(n, r, phase, s), &off, &len);
                for (size_t i = off; i < off + len; i++)
                    buf[r][i] = phase == CLIMB_REDUCE_SCATTER ? buf[r][i] + stage[(size_t)r * count + i]
                                                              : stage[(size_t)r * count + i];
            }
            if (phase == CLIMB_REDUCE_SCATTER && s == n - 2)
                for (int r = 0; r < n; r++)
                    if (!chunk_done(n, count, buf[r], climb_ring_owned(n, r), want))
                        return 0;
        }
    return 1;
}

static int halving_allreduce(int n, size_t count, int64_t **buf, int64_t *stage, const int64_t *want)
{
    const int lg = climb_log2_exact(n);
    for (int phase = CLIMB_REDUCE_SCATTER; phase <= CLIMB_ALL_GATHER; phase++)
        for (int s = 0; s < lg; s++) {
            climb_halving_step st[CLIMB_MAX_RANKS];
            for (int r = 0; r < n; r++) {
                if (climb_halving(n, r, phase, s, &st[r]) != 0)
                    return 0;
                const int p = st[r].partner;
                size_t lo, hi, len;
                climb_chunk_of(count, n, st[r].send_lo, &lo, &len);
                climb_chunk_of(count, n, st[r].send_hi - 1, &hi, &len);
                hi += len;
                memcpy(stage + (size_t)p * count + lo, buf[r] + lo, (hi - lo) * sizeof(int64_t));
            }
            for (int r = 0; r < n; r++) {
                climb_halving_step ps;
                climb_halving(n, st[r].partner, phase, s, &ps);
                if (ps.partner != r || ps.send_lo != st[r].recv_lo || ps.send_hi != st[r].recv_hi)
                    return 0; /* what the partner sends is what this rank receives */
                size_t lo, hi, len;
                climb_chunk_of(count, n, st[r].recv_lo, &lo, &len);
                climb_chunk_of(count, n, st[r].recv_hi - 1, &hi, &len);
                hi += len;
                for (size_t i = lo; i < hi; i++)
                    buf[r][i] = phase == CLIMB_REDUCE_SCATTER ? buf[r][i] + stage[(size_t)r * count + i]
                                                              : stage[(size_t)r * count + i];
            }
            if (phase == CLIMB_REDUCE_SCATTER && s == lg - 1)
                for (int r = 0; r < n; r++)
                    if (!chunk_done(n, count, buf[r], r, want))
                        return 0;
        }
    return 1;
}

static void test_schedules(climb_rng *rng)
{
    const int ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
        const int n = ns[a];
        const size_t counts[] = {0, 1, (size_t)n - 1 + (n == 1), (size_t)n, (size_t)n + 1, 1000, 4099};
        for (size_t b = 0; b < sizeof counts / sizeof counts[0]; b++) {
            const size_t count = counts[b];
            /* the chunks: in order, back to back, covering [0, count) */
            size_t at = 0;
            for (int i = 0; i < n; i++) {
                size_t off, len;
                climb_chunk_of(count, n, i, &off, &len);
                EXPECT_MSG(off == at && len <= count / n + 1 && len >= count / n, "n %d count %zu chunk %d", n, count,
                           i);
                at = off + len;
            }
            EXPECT(at == count);
            int64_t *buf[CLIMB_MAX_RANKS], *want = calloc(count + 1, 8), *stage = calloc((size_t)n * count + 1, 8);
            for (int kind = 0; kind < 2; kind++) {
                if (kind == 1 && climb_log2_exact(n) < 0)
                    continue;
                memset(want, 0, (count + 1) * 8);
                for (int r = 0; r < n; r++) {
                    buf[r] = malloc((count + 1) * 8);
                    for (size_t i = 0; i < count; i++) {
                        buf[r][i] = (int64_t)climb_rng_range(rng, -1000000, 1000000);
                        want[i] += buf[r][i];
                    }
                }
                const int ran = kind == 0 ? ring_allreduce(n, count, buf, stage, want)
                                          : halving_allreduce(n, count, buf, stage, want);
                EXPECT_MSG(ran && all_hold_sum(n, count, buf, want), "%s, %d ranks, %zu elements",
                           kind ? "halving and doubling" : "ring", n, count);
                for (int r = 0; r < n; r++)
                    free(buf[r]);
            }
            free(want);
            free(stage);
        }
    }
    /* After the ring's reduce-scatter each rank owns a different chunk; after halving, rank r owns chunk r. */
    for (int n = 1; n <= 9; n++) {
        unsigned seen = 0;
        for (int r = 0; r < n; r++)
            seen |= 1u << climb_ring_owned(n, r);
        EXPECT(seen == (1u << n) - 1);
    }
    /* Arguments out of range: refused, never a chunk. */
    climb_halving_step st;
    EXPECT(climb_ring_send(4, 4, CLIMB_REDUCE_SCATTER, 0) == -1 && climb_ring_send(4, 0, 2, 0) == -1);
    EXPECT(climb_ring_send(4, 0, CLIMB_ALL_GATHER, 3) == -1 && climb_ring_recv(0, 0, 0, 0) == -1);
    EXPECT(climb_ring_send(1, 0, CLIMB_REDUCE_SCATTER, 0) == -1); /* one rank: no steps */
    EXPECT(climb_ring_owned(CLIMB_MAX_RANKS + 1, 0) == -1 && climb_ring_owned(3, -1) == -1);
    EXPECT(climb_halving(6, 0, CLIMB_REDUCE_SCATTER, 0, &st) == -1); /* not a power of two */
    EXPECT(climb_halving(8, 0, CLIMB_REDUCE_SCATTER, 3, &st) == -1 && climb_halving(8, 8, CLIMB_ALL_GATHER, 0, &st) == -1);
    EXPECT(climb_halving(128, 0, CLIMB_ALL_GATHER, 0, &st) == -1);
    EXPECT(climb_log2_exact(1) == 0 && climb_log2_exact(64) == 6 && climb_log2_exact(0) == -1 &&
           climb_log2_exact(12) == -1 && climb_log2_exact(-8) == -1);
    /* nccl-tests' factors */
    EXPECT(climb_busbw_factor(CLIMB_COLL_ALL_REDUCE, 4) == 1.5 && climb_busbw_factor(CLIMB_COLL_ALL_REDUCE, 2) == 1.0);
    EXPECT(climb_busbw_factor(CLIMB_COLL_ALL_GATHER, 4) == 0.75 && climb_busbw_factor(CLIMB_COLL_REDUCE_SCATTER, 8) == 0.875);
    EXPECT(climb_busbw_factor(CLIMB_COLL_ALL_REDUCE, 1) == 0.0 && climb_busbw_factor(CLIMB_COLL_PEER_COPY, 2) == 1.0);
    /* a chunk of the largest count: no wrap */
    size_t off, len;
    climb_chunk_of(SIZE_MAX, 7, 6, &off, &len);
    EXPECT(off + len == SIZE_MAX && len == SIZE_MAX / 7 + (6 < (int)(SIZE_MAX % 7)));
}

/* --gpus N and --devices LIST: what they give, and every refusal with its reason. */
static void test_device_sets(void)
{
    climb_device_set s;
    char why[200], buf[64];
    EXPECT(climb_device_set_first(2, 4, &s, why, sizeof why) == 0 && s.n == 2 && s.id[0] == 0 && s.id[1] == 1);
    EXPECT(climb_device_set_first(4, -1, &s, why, sizeof why) == 0 && s.n == 4); /* the count not known yet */
    EXPECT(climb_device_set_first(5, 4, &s, why, sizeof why) == -1 && strstr(why, "5 GPUs asked for, 4 here"));
    EXPECT(climb_device_set_first(0, 4, &s, why, sizeof why) == -1 && strstr(why, "1 to 64"));
    EXPECT(climb_device_set_first(65, -1, &s, why, sizeof why) == -1 && s.n == 0);
    EXPECT(climb_device_set_parse("0,2", 4, &s, why, sizeof why) == 0 && s.n == 2 && s.id[1] == 2);
    EXPECT(climb_device_set_parse("3,0-1", 4, &s, why, sizeof why) == 0 && s.n == 3 && s.id[0] == 3 && s.id[2] == 1);
    climb_device_set_format(&s, buf, sizeof buf);
    EXPECT(strcmp(buf, "3,0,1") == 0);
    EXPECT(climb_device_set_parse("0-63", -1, &s, why, sizeof why) == 0 && s.n == 64);
    static const struct {
        const char *list, *why;
    } bad[] = {
        {"", "an empty list"},           {"0,0", "device 0 is listed twice"},  {"0-2,1", "device 1 is listed twice"},
        {"4", "device 4 is not here (4 GPUs: 0 to 3)"},                         {"a", "item 1 is not an ordinal"},
        {"0,", "nothing after the last comma"},                                  {",0", "item 1 is not an ordinal"},
        {"2-1", "item 1 runs backwards"}, {"1-", "item 1 is not an ordinal"},    {"0;1", "item 1 is not an ordinal"},
        {"-1", "item 1 is not an ordinal"}, {"0,99999", "item 2 has an ordinal of more than four digits"},
        {"4294967296", "more than four digits"},                                 {"0 ,1", "item 1 is not an ordinal"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int rc = climb_device_set_parse(bad[i].list, 4, &s, why, sizeof why);
        EXPECT_MSG(rc == -1 && strstr(why, bad[i].why) && s.n == 0, "'%s': %d, %s", bad[i].list, rc, why);
    }
    EXPECT(climb_device_set_parse("0-64", -1, &s, why, sizeof why) == -1 && strstr(why, "more than 64 devices"));
}

static void test_nccl(void)
{
    setenv("NCCL_NVLS_ENABLE", "1", 1);
    EXPECT(climb_nccl_forbid_multicast() == 0);
    EXPECT(getenv("NCCL_NVLS_ENABLE") && strcmp(getenv("NCCL_NVLS_ENABLE"), "0") == 0);
#if CLIMB_HAVE_NCCL
    char why[600];
    climb_nccl missing;
    setenv("NCCL_NVLS_ENABLE", "1", 1);
    EXPECT(climb_nccl_open("/nonexistent/libnccl.so.2", &missing, why, sizeof why) == -1);
    EXPECT_MSG(strstr(why, "NCCL could not be opened") && strstr(why, "/nonexistent/libnccl.so.2"), "%s", why);
    EXPECT(strcmp(getenv("NCCL_NVLS_ENABLE"), "0") == 0); /* set before any attempt */
    setenv("NCCL_NVLS_ENABLE", "1", 1);
    const climb_nccl *nc = climb_nccl_get(why, sizeof why);
    EXPECT(strcmp(getenv("NCCL_NVLS_ENABLE"), "0") == 0);
    if (nc) {
        printf("NCCL %d.%d.%d from %s\n", nc->version / 10000, nc->version / 100 % 100, nc->version % 100, nc->path);
        EXPECT(nc->version >= 20000 && nc->all_reduce && nc->comm_init_all && nc->error_string);
        EXPECT(nc->error_string(ncclInvalidArgument) != NULL);
    } else
        printf("note: no NCCL library here (%s); the refusal is all that is checked\n", why);
#else
    printf("note: built without nccl.h; NCCL's loader is not built\n");
#endif
}

/* The NVLinks of a pair from each GPU's links: straight to each other (and to a third GPU besides), through
 * NVSwitches, none, and unknown. */
static void test_nvlinks(void)
{
    climb_nvlinks a = {.read = 1, .n = 3, .self = 0x100, .remote_type = {0, 0, 0}, .remote = {0x200, 0x200, 0x300}};
    climb_nvlinks b = {.read = 1, .n = 2, .self = 0x200, .remote_type = {0, 0}, .remote = {0x100, 0x100}};
    climb_nvlinks c = {.read = 1, .n = 1, .self = 0x300, .remote_type = {0}, .remote = {0x100}};
    int links = 0, sw = 0;
    climb_nvlink_pair(&a, &b, &links, &sw);
    EXPECT(links == 2 && sw == 0);
    climb_nvlink_pair(&b, &c, &links, &sw);
    EXPECT(links == 0 && sw == 0); /* joined only through a: no NVLink of their own */
    climb_nvlinks s1 = {.read = 1, .self = 0x400}, s2 = {.read = 1, .self = 0x500};
    for (int l = 0; l < 18; l++) {
        s1.remote_type[s1.n] = 2;
        s1.remote[s1.n++] = 0x9000 + (unsigned long long)(l % 4);
        if (l < 12) {
            s2.remote_type[s2.n] = 2;
            s2.remote[s2.n++] = 0x9000 + (unsigned long long)(l % 4);
        }
    }
    climb_nvlink_pair(&s1, &s2, &links, &sw);
    EXPECT(links == 12 && sw == 1); /* the fewer switch links: 12 */
    climb_nvlink_pair(&s1, &c, &links, &sw);
    EXPECT(links == 0 && sw == 0); /* c has no switch links */
    climb_nvlinks none = {.read = 1, .self = 0x600}, unread = {0};
    climb_nvlink_pair(&none, &a, &links, &sw);
    EXPECT(links == 0 && sw == 0);
    climb_nvlink_pair(&a, &unread, &links, &sw);
    EXPECT(links == -1 && sw == -1);
}

/* The rotation: at every step each rank sends to one rank and receives from one (a permutation), step 0 to itself,
 * and over the n steps every rank sends to every rank exactly once; out of range is -1. */
static void test_rotation(void)
{
    for (int n = 1; n <= CLIMB_MAX_RANKS; n++) {
        unsigned char sent[CLIMB_MAX_RANKS][CLIMB_MAX_RANKS];
        memset(sent, 0, sizeof sent);
        for (int k = 0; k < n; k++) {
            unsigned char got[CLIMB_MAX_RANKS];
            memset(got, 0, sizeof got);
            for (int r = 0; r < n; r++) {
                const int q = climb_rotation_to(n, r, k);
                EXPECT_MSG(q >= 0 && q < n && !got[q] && (k > 0 || q == r), "n=%d step %d rank %d: to %d", n, k, r, q);
                if (q < 0 || q >= n)
                    return;
                got[q] = 1;
                sent[r][q]++;
            }
        }
        for (int r = 0; r < n; r++)
            for (int q = 0; q < n; q++)
                EXPECT_MSG(sent[r][q] == 1, "n=%d: rank %d sent to %d %d times", n, r, q, sent[r][q]);
    }
    EXPECT(climb_rotation_to(4, 0, 4) == -1 && climb_rotation_to(4, 4, 0) == -1 && climb_rotation_to(0, 0, 0) == -1);
    EXPECT(climb_rotation_to(4, 3, 1) == 0 && climb_rotation_to(4, 1, 3) == 0);
}

/* The 16-byte split: every element exactly once (head one by one, n4 vectors, the rest one by one), the vectors
 * 16-byte aligned at every pointer, the head shorter than a vector; pointers at different offsets, or not 4-byte
 * aligned, take no vectors. */
static void test_vec4_split(void)
{
    static _Alignas(16) char base[4][256];
    for (int mis = 0; mis < 16; mis += 4)
        for (size_t n = 0; n <= 21; n++) {
            const void *p[4];
            for (int q = 0; q < 4; q++)
                p[q] = base[q] + mis;
            size_t head, n4;
            climb_vec4_split(p, 4, n, &head, &n4);
            EXPECT_MSG(head <= 3 && head + 4 * n4 <= n, "mis %d n %zu: head %zu n4 %zu", mis, n, head, n4);
            for (int q = 0; q < 4 && n4; q++)
                EXPECT_MSG(((uintptr_t)((const char *)p[q] + 4 * head) & 15) == 0, "mis %d n %zu: pointer %d", mis, n, q);
            if (n >= head + 4) /* as many vectors as fit after the head */
                EXPECT_MSG(n - head - 4 * n4 < 4, "mis %d n %zu: %zu left over", mis, n, n - head - 4 * n4);
            EXPECT_MSG(head == (n < (size_t)((16 - mis) & 15) / 4 ? n : (size_t)((16 - mis) & 15) / 4),
                       "mis %d n %zu: head %zu", mis, n, head);
        }
    const void *apart[2] = {base[0], base[1] + 4}, *odd[2] = {base[0] + 2, base[1] + 2};
    size_t head = 9, n4 = 9;
    climb_vec4_split(apart, 2, 100, &head, &n4);
    EXPECT(head == 0 && n4 == 0);
    climb_vec4_split(odd, 2, 100, &head, &n4);
    EXPECT(head == 0 && n4 == 0);
    climb_vec4_split(apart, 0, 100, &head, &n4);
    EXPECT(head == 0 && n4 == 0);
    const void *one[1] = {base[0] + 12};
    climb_vec4_split(one, 1, 100, &head, &n4);
    EXPECT(head == 1 && n4 == 24);
}

/* ---- the key split: simulated ranks' keys, histograms counted on the host, every key's output checked ---- */

typedef struct {
    unsigned long long code;
    int rank;
    size_t index; /* in the global input order: rank 0's keys first */
} ks_key;

static int by_code_then_index(const void *a, const void *b)
{
    const ks_key *x = a, *y = b;
    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static unsigned long long ks_draw(climb_rng *rng, int dist, int bits)
{
    const unsigned long long mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    const unsigned long long u = climb_rng_next(rng) & mask;
    switch (dist) {
    case 1: return (u % 3) * (mask / 3);                              /* three values */
    case 2: return mask / 5;                                          /* all equal */
    case 3: return u & 0xFFFF;                                        /* narrow: the upper digits all zero */
    case 4: return climb_rng_next(rng) % 2 ? mask / 7 : u;            /* half the keys one value */
    case 5: return u % 2 ? mask : 0;                                  /* the two extremes */
    }
    return u;
}

/* One split: P ranks with counts[r] keys each (drawn by dist), outputs of out[r] keys; digit bits d. Returns 0 when
 * every output got exactly its count and every key went to the output holding its place in the stable order. */
static int ks_case(climb_rng *rng, int P, int bits, int d, int dist, const size_t *counts, const size_t *out)
{
    size_t n = 0, start[CLIMB_MAX_RANKS + 1];
    for (int r = 0; r < P; r++) {
        start[r] = n;
        n += counts[r];
    }
    start[P] = n;
    ks_key *keys = calloc(n + 1, sizeof *keys), *sorted = calloc(n + 1, sizeof *sorted);
    size_t *eq = calloc(n + 1, sizeof *eq), *got = calloc((size_t)P, sizeof *got);
    climb_keysplit *s = calloc(1, sizeof *s);
    int bad = !keys || !sorted || !eq || !got || !s;
    for (size_t i = 0; !bad && i < n; i++) {
        keys[i].code = ks_draw(rng, dist, bits);
        keys[i].index = i;
    }
    for (int r = 0; !bad && r < P; r++)
        for (size_t i = start[r]; i < start[r + 1]; i++)
            keys[i].rank = r;
    bad = bad || climb_keysplit_init(s, P, bits, d, out) != 0;
    /* side: the keys of the second round's open ranges (sort_gpus keeps them aside there and counts the later rounds
     * over them alone): every later round's counts over them must equal the counts over every key */
    size_t *side = calloc(n + 1, sizeof *side), n_side = 0;
    bad = bad || !side;
    int rounds = 0, shift, width, open;
    while (!bad && (open = climb_keysplit_round(s, &shift, &width)) > 0) {
        const size_t B = (size_t)1 << width;
        size_t *hist = calloc((size_t)open * P * B, sizeof *hist), *hist_side = calloc((size_t)open * P * B, sizeof *hist);
        if (!hist || !hist_side) {
            free(hist);
            free(hist_side);
            bad = 1;
            break;
        }
        const int above = shift + width;
        for (size_t i = 0; i < n; i++) {
            int o = 0;
            if (above < bits) /* an open range is the keys of its upper digits */
                while (o < open && (keys[i].code >> above) != s->open_prefix[o])
                    o++;
            if (o < open) {
                hist[((size_t)o * P + keys[i].rank) * B + ((keys[i].code >> shift) & (B - 1))]++;
                if (rounds == 1)
                    side[n_side++] = i;
            }
        }
        if (rounds >= 2) {
            for (size_t j = 0; j < n_side; j++) {
                const ks_key *k = &keys[side[j]];
                int o = 0;
                if (above < bits)
                    while (o < open && (k->code >> above) != s->open_prefix[o])
                        o++;
                if (o < open)
                    hist_side[((size_t)o * P + k->rank) * B + ((k->code >> shift) & (B - 1))]++;
            }
            bad = memcmp(hist, hist_side, (size_t)open * P * B * sizeof *hist) != 0;
        }
        bad = bad || climb_keysplit_feed(s, hist) != 0;
        free(hist);
        free(hist_side);
        rounds++;
        bad = bad || rounds > bits; /* a round a digit at the most */
    }
    /* eq: how many keys of the same rank and code come before a key */
    for (size_t i = 0; !bad && i < n; i++)
        for (size_t j = start[keys[i].rank]; j < i; j++)
            eq[i] += keys[j].code == keys[i].code;
    memcpy(sorted, keys, n * sizeof *keys);
    if (!bad && n)
        qsort(sorted, n, sizeof *sorted, by_code_then_index);
    for (size_t p = 0; !bad && p < n; p++) {
        const ks_key *k = &sorted[p];
        int want = 0; /* the output holding place p: the first whose end is past it */
        while (s->end[want] <= p)
            want++;
        const int dest = climb_keysplit_dest(s, k->code, k->rank, eq[k->index]);
        if (dest != want) {
            printf("  key %llu of rank %d (eq %zu) at place %zu: output %d, want %d\n", k->code, k->rank,
                   eq[k->index], p, dest, want);
            bad = 1;
        }
        if (dest >= 0 && dest < P)
            got[dest]++;
        if (!climb_keysplit_ties(s, k->code, k->rank) &&
            climb_keysplit_dest(s, k->code, k->rank, 0) != dest) { /* eq needed only where ties() says so */
            printf("  key %llu of rank %d: its output depends on eq, and ties() says not\n", k->code, k->rank);
            bad = 1;
        }
    }
    for (int r = 0; !bad && r < P; r++)
        bad = got[r] != out[r];
    /* each rank's keys partitioned stably by class (output, or tie value), as a GPU does, then sent by the pieces
     * climb_keysplit_class_pieces gives: every key must reach the output its place says */
    for (int r = 0; !bad && r < P; r++) {
        unsigned long long ties[CLIMB_MAX_RANKS];
        const int n_ties = climb_keysplit_tie_values(s, r, ties);
        for (int j = 1; j < n_ties; j++)
            bad |= ties[j] <= ties[j - 1];
        size_t count[2 * CLIMB_MAX_RANKS] = {0}, from[3 * CLIMB_MAX_RANKS], len[3 * CLIMB_MAX_RANKS], at = 0;
        int dest[3 * CLIMB_MAX_RANKS];
        size_t *order = calloc(counts[r] + 1, sizeof *order), *cls = calloc(counts[r] + 1, sizeof *cls);
        if (!order || !cls) {
            free(order);
            free(cls);
            bad = 1;
            break;
        }
        for (size_t i = start[r]; i < start[r + 1]; i++) {
            int q = -1;
            for (int j = 0; j < n_ties; j++)
                q = keys[i].code == ties[j] ? P + j : q;
            cls[i - start[r]] = q >= 0 ? (size_t)q : (size_t)climb_keysplit_dest(s, keys[i].code, r, 0);
            count[cls[i - start[r]]]++;
        }
        for (int q = 0; q < P + n_ties; q++) /* the stable partition: class by class, input order within */
            for (size_t i = 0; i < counts[r]; i++)
                if (cls[i] == (size_t)q)
                    order[at++] = start[r] + i;
        const int n_pieces = climb_keysplit_class_pieces(s, r, count, dest, from, len);
        size_t covered = 0;
        for (int i = 0; i < n_pieces && !bad; i++) {
            bad |= from[i] != covered || len[i] == 0 || dest[i] < 0 || dest[i] >= P;
            for (size_t j = from[i]; j < from[i] + len[i] && !bad; j++) {
                const ks_key *k = &keys[order[j]];
                bad |= climb_keysplit_dest(s, k->code, r, eq[k->index]) != dest[i];
            }
            covered += len[i];
        }
        bad |= covered != counts[r] || n_pieces > 3 * P - 2;
        if (bad)
            printf("  rank %d's class pieces send a key to the wrong output (%d pieces)\n", r, n_pieces);
        free(order);
        free(cls);
    }
    free(keys);
    free(sorted);
    free(eq);
    free(got);
    free(s);
    free(side);
    return bad ? -1 : 0;
}

static void test_keysplit(climb_rng *rng)
{
    static const int digits[] = {1, 3, 8, 11, 16};
    static const char *const dists[] = {"uniform", "three values", "all equal", "narrow", "half one value", "extremes"};
    int cases = 0, failed = 0;
    for (int it = 0; it < 600; it++) {
        const int P = it % 50 == 49 ? CLIMB_MAX_RANKS : 1 + (int)(climb_rng_next(rng) % 8);
        const int bits = it % 3 == 2 ? 64 : 32, d = digits[climb_rng_next(rng) % 5], dist = (int)(climb_rng_next(rng) % 6);
        size_t counts[CLIMB_MAX_RANKS], out[CLIMB_MAX_RANKS], n = 0;
        for (int r = 0; r < P; r++) {
            counts[r] = climb_rng_next(rng) % 5 == 0 ? 0 : climb_rng_next(rng) % (P > 8 ? 20 : 300);
            n += counts[r];
        }
        if (it % 2) { /* the outputs as the inputs */
            memcpy(out, counts, sizeof counts);
        } else { /* uneven outputs, some empty */
            size_t left = n;
            for (int r = 0; r < P; r++) {
                out[r] = r + 1 == P ? left : (climb_rng_next(rng) % 4 == 0 ? 0 : climb_rng_next(rng) % (left + 1));
                left -= out[r];
            }
        }
        cases++;
        if (ks_case(rng, P, bits, d, dist, counts, out) != 0) {
            printf("  the split of %zu keys (%s, %d bits, %d-bit digits) over %d ranks went wrong\n", n, dists[dist],
                   bits, d, P);
            failed++;
        }
    }
    EXPECT(failed == 0);
    printf("key split: %d cases, %d wrong\n", cases, failed);

    /* refusals: arguments out of range, counts that disagree with the split so far */
    climb_keysplit s;
    const size_t two[2] = {3, 4};
    EXPECT(climb_keysplit_init(&s, 0, 32, 8, two) == -1);
    EXPECT(climb_keysplit_init(&s, CLIMB_MAX_RANKS + 1, 32, 8, two) == -1);
    EXPECT(climb_keysplit_init(&s, 2, 0, 8, two) == -1 && climb_keysplit_init(&s, 2, 65, 8, two) == -1);
    EXPECT(climb_keysplit_init(&s, 2, 32, 0, two) == -1 && climb_keysplit_init(&s, 2, 32, 17, two) == -1);
    const size_t huge[2] = {SIZE_MAX, 1};
    EXPECT(climb_keysplit_init(&s, 2, 32, 8, huge) == -1);
    EXPECT(climb_keysplit_init(&s, 2, 32, 8, two) == 0);
    int shift, width;
    EXPECT(climb_keysplit_round(&s, &shift, &width) == 1 && shift == 24 && width == 8);
    size_t *hist = calloc(2 * 256, sizeof *hist);
    if (hist) {
        hist[5] = 3;
        hist[256 + 9] = 3; /* 6 keys where 7 were said */
        EXPECT(climb_keysplit_feed(&s, hist) == -1);
        hist[256 + 9] = 4; /* the right total: rank 0's three keys in bucket 5, rank 1's four in 9; the cut at 3 */
        EXPECT(climb_keysplit_feed(&s, hist) == 0);
        EXPECT(climb_keysplit_round(&s, &shift, &width) == 0 && s.cut[0].v == 9ull << 24 && !s.cut[0].end);
        EXPECT(climb_keysplit_dest(&s, 5ull << 24, 0, 0) == 0 && climb_keysplit_dest(&s, 9ull << 24, 1, 0) == 1);
        free(hist);
    }
    /* a cut at the very end: nothing above it */
    const size_t all_first[2] = {7, 0};
    EXPECT(climb_keysplit_init(&s, 2, 32, 8, all_first) == 0 && s.n_open == 0 && s.cut[0].end == 1);
    EXPECT(climb_keysplit_dest(&s, ~0u, 1, 100) == 0);
}

/* The vertex ranges of a BFS across GPUs: whole 32-vertex words a rank, every vertex owned once, in order, the
 * owner in O(1) equal to the range that holds it; vertex counts that divide by nothing, fewer words than ranks. */
static void test_vertex_ranges(void)
{
    const long long counts[] = {0, 1, 31, 32, 33, 100, 1000, 4097, 65537, 1000003};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (int P = 1; P <= 9; P++) {
            const long long nv = counts[i];
            long long next = 0;
            int bad = 0;
            for (int r = 0; r < P; r++) {
                long long v0, v1;
                climb_vertex_range(nv, P, r, &v0, &v1);
                bad |= v0 != next || v1 < v0 || (v0 % 32 != 0 && v0 != nv) || (v1 % 32 != 0 && v1 != nv);
                for (long long v = v0; v < v1; v += v1 - v0 > 200 ? 97 : 1)
                    bad |= climb_vertex_owner(nv, P, v) != r;
                if (v1 > v0)
                    bad |= climb_vertex_owner(nv, P, v1 - 1) != r;
                next = v1;
            }
            EXPECT_MSG(!bad && next == nv, "%lld vertices over %d ranks", nv, P);
        }
}

int main(void)
{
    test_nvlinks();
    test_rotation();
    test_vec4_split();
    climb_rng rng;
    const uint64_t seed = climb_fresh_seed();
    printf("seed %llu\n", (unsigned long long)seed);
    climb_rng_seed(&rng, seed);
    test_schedules(&rng);
    test_device_sets();
    test_nccl();
    test_keysplit(&rng);
    test_vertex_ranges();
    return test_finish("test_cpu_collectives");
}
