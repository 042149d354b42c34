/* CPU: the co-rank against counting (every k of random sorted arrays with many ties, empty arrays), the reference
 * sort against insertion sort (order and stability), the generated key distributions (each has the shape its name
 * promises), the size rule the dry run applies, and the radix passes' plan (skipped passes, in place and not). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "core/workload.h"
#include "workloads/sort/sort.h"
#include "testing.h"

static int cmp_u32(const void *x, const void *y)
{
    const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* The co-rank by its definition: merge stably, count the first k outputs that came from a. */
static int co_rank_by_merging(int k, const uint32_t *a, int m, const uint32_t *b, int n)
{
    int i = 0, j = 0;
    while (i + j < k) {
        if (i < m && (j >= n || a[i] <= b[j]))
            i++;
        else
            j++;
    }
    return i;
}

static void test_co_rank(void)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    uint32_t a[64], b[64];
    int bad = 0, cases = 0;
    for (int t = 0; t < 400; t++) {
        const int m = climb_rng_int(&r, 0, 64), n = climb_rng_int(&r, 0, 64), span = climb_rng_int(&r, 1, 8);
        for (int i = 0; i < m; i++)
            a[i] = (uint32_t)climb_rng_int(&r, 0, span);
        for (int i = 0; i < n; i++)
            b[i] = (uint32_t)climb_rng_int(&r, 0, span);
        qsort(a, (size_t)m, 4, cmp_u32);
        qsort(b, (size_t)n, 4, cmp_u32);
        for (int k = 0; k <= m + n; k++, cases++)
            bad += climb_sort_co_rank(k, a, m, b, n) != co_rank_by_merging(k, a, m, b, n);
    }
    EXPECT_MSG(bad == 0, "%d of %d co-ranks wrong", bad, cases);
    /* ties go to a first: a = {5, 5}, b = {5}: the first two outputs are a's */
    const uint32_t x[] = {5, 5}, y[] = {5};
    EXPECT(climb_sort_co_rank(0, x, 2, y, 1) == 0 && climb_sort_co_rank(2, x, 2, y, 1) == 2);
    EXPECT(climb_sort_co_rank(3, x, 2, y, 1) == 2 && climb_sort_co_rank(1, y, 1, x, 2) == 1);
}

static void test_reference(void)
{
    const size_t sizes[] = {0, 1, 2, 7, 1000, 65537};
    const uint64_t seed = climb_fresh_seed();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int dist = 0; dist < 5; dist++) {
            const size_t n = sizes[s], n1 = n ? n : 1;
            uint32_t *k = malloc(n1 * 4), *v = malloc(n1 * 4), *tmp = malloc(n1 * 8), *ik = malloc(n1 * 4),
                     *iv = malloc(n1 * 4);
            EXPECT(k && v && tmp && ik && iv);
            if (!k || !v || !tmp || !ik || !iv)
                return;
            climb_sort_generate(seed + s, dist, k, v, n);
            /* the values are the input positions: stability is that equal keys keep increasing values */
            for (size_t i = 0; i < n; i++)
                v[i] = (uint32_t)i;
            memcpy(ik, k, n * 4);
            climb_sort_ref(k, v, n, tmp);
            int bad = 0;
            for (size_t i = 1; i < n; i++)
                bad += k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] > v[i]);
            for (size_t i = 0; i < n; i++)
                bad += k[i] != ik[v[i]]; /* a permutation of the input, each value with its key */
            /* insertion sort (stable) agrees for the smaller sizes */
            if (n <= 1000) {
                for (size_t i = 0; i < n; i++)
                    iv[i] = (uint32_t)i;
                for (size_t i = 1; i < n; i++)
                    for (size_t j = i; j > 0 && ik[j - 1] > ik[j]; j--) {
                        uint32_t t = ik[j];
                        ik[j] = ik[j - 1];
                        ik[j - 1] = t;
                        t = iv[j];
                        iv[j] = iv[j - 1];
                        iv[j - 1] = t;
                    }
                bad += memcmp(ik, k, n * 4) != 0 || memcmp(iv, v, n * 4) != 0;
            }
            EXPECT_MSG(bad == 0, "n=%zu dist=%d: %d wrong", n, dist, bad);
            /* keys alone */
            climb_sort_generate(seed + s, dist, k, NULL, n);
            climb_sort_ref(k, NULL, n, tmp);
            int unsorted = 0;
            for (size_t i = 1; i < n; i++)
                unsorted += k[i - 1] > k[i];
            EXPECT(unsorted == 0);
            free(k);
            free(v);
            free(tmp);
            free(ik);
            free(iv);
        }
}

/* All keys equal: the reference leaves every value where it was. */
static void test_all_equal(void)
{
    enum { N = 5000 };
    static uint32_t k[N], v[N], tmp[2 * N];
    for (uint32_t i = 0; i < N; i++) {
        k[i] = 0xdeadbeefu;
        v[i] = i;
    }
    climb_sort_ref(k, v, N, tmp);
    int moved = 0;
    for (uint32_t i = 0; i < N; i++)
        moved += k[i] != 0xdeadbeefu || v[i] != i;
    EXPECT(moved == 0);
}

static void test_generators(void)
{
    const size_t n = 100000;
    uint32_t *k = malloc(n * 4), *v = malloc(n * 4);
    EXPECT(k && v);
    if (!k || !v)
        return;
    const uint64_t seed = climb_fresh_seed();
    size_t descents = 0, ascents = 0;
    climb_sort_generate(seed, CLIMB_SORT_SORTED, k, v, n);
    for (size_t i = 1; i < n; i++)
        descents += k[i] < k[i - 1];
    EXPECT(descents == 0 && k[n - 1] > 4000000000u && k[0] < 50000u);
    climb_sort_generate(seed, CLIMB_SORT_REVERSE, k, v, n);
    for (size_t i = 1; i < n; i++)
        ascents += k[i] > k[i - 1];
    EXPECT(ascents == 0);
    climb_sort_generate(seed, CLIMB_SORT_NEARLY, k, v, n);
    descents = 0;
    for (size_t i = 1; i < n; i++)
        descents += k[i] < k[i - 1];
    EXPECT_MSG(descents > 0 && descents <= 2 * (n / 100), "%zu descents", descents); /* each swap makes two at most */
    climb_sort_generate(seed, CLIMB_SORT_FEW, k, v, n);
    qsort(k, n, 4, cmp_u32);
    size_t distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += k[i] != k[i - 1];
    EXPECT(distinct >= 12 && distinct <= 16);
    climb_sort_generate(seed, CLIMB_SORT_NARROW, k, v, n);
    size_t wide = 0;
    for (size_t i = 0; i < n; i++)
        wide += k[i] >> 16 != 0;
    qsort(k, n, 4, cmp_u32);
    distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += k[i] != k[i - 1];
    EXPECT_MSG(wide == 0 && distinct > 45000, "narrow: %zu keys past 16 bits, %zu distinct", wide, distinct);
    climb_sort_generate(seed, CLIMB_SORT_UNIFORM, k, v, n);
    size_t high = 0, same = 0;
    for (size_t i = 0; i < n; i++)
        high += k[i] >> 31;
    for (size_t i = 1; i < n; i++)
        same += v[i] == v[i - 1];
    EXPECT(high > n / 2 - n / 50 && high < n / 2 + n / 50 && same < 5);
    free(k);
    free(v);
}

/* The Onesweep rung's plan, for every set of skipped passes, in place and not, run on symbolic buffers: each pass
 * that runs reads what the last one wrote (the input first) and writes another buffer; the input is never written
 * unless it is the output; the keys end in out, by the last pass or by the final copy; the count of skipped passes
 * is right. The buffers as memory: in place, the input is out. */
static void test_radix_plan(void)
{
    for (int passes = 4; passes <= 8; passes += 4) /* 32-bit and 64-bit keys */
        for (int mask = 0; mask < (1 << passes); mask++)
            for (int in_place = 0; in_place < 2; in_place++) {
                int trivial[8], src[8], dst[8], result = -5, expect_skipped = 0;
                for (int p = 0; p < passes; p++)
                    expect_skipped += trivial[p] = (mask >> p) & 1;
                const int skipped = climb_sort_radix_plan(passes, trivial, in_place, src, dst, &result);
                EXPECT_MSG(skipped == expect_skipped, "%d passes, mask %d: %d skipped", passes, mask, skipped);
                /* memory: 0 the input, 1 out, 2 tmp; in place the input's memory is out's */
                const int mem[3] = {in_place ? 1 : 0, 1, 2};
                int cur = mem[CLIMB_SORT_BUF_IN], ran = 0;
                for (int p = 0; p < passes; p++) {
                    if (trivial[p]) {
                        EXPECT_MSG(src[p] == -1 && dst[p] == -1, "mask %d pass %d: skipped but given buffers", mask, p);
                        continue;
                    }
                    EXPECT_MSG(src[p] >= 0 && src[p] <= 2 && dst[p] >= 1 && dst[p] <= 2, "mask %d pass %d", mask, p);
                    if (src[p] < 0 || dst[p] < 1 || src[p] > 2 || dst[p] > 2)
                        continue;
                    EXPECT_MSG(mem[src[p]] == cur, "mask %d in_place %d pass %d reads not what the last pass wrote",
                               mask, in_place, p);
                    EXPECT_MSG(mem[dst[p]] != mem[src[p]], "mask %d in_place %d pass %d writes what it reads", mask,
                               in_place, p);
                    cur = mem[dst[p]];
                    ran++;
                }
                EXPECT(ran == passes - expect_skipped);
                EXPECT_MSG(result >= 0 && result <= 2 && mem[result] == cur, "mask %d in_place %d: result %d", mask,
                           in_place, result);
                /* not in place the passes' parity puts the last write in out: no copy unless nothing ran */
                if (!in_place && ran > 0)
                    EXPECT_MSG(result == CLIMB_SORT_BUF_OUT, "mask %d: ends in %d, a copy that parity avoids", mask,
                               result);
                if (in_place && ran == 0)
                    EXPECT(result == CLIMB_SORT_BUF_OUT); /* nothing to do, nothing to copy */
            }
    int t[9] = {0}, a[9], b[9], r;
    EXPECT(climb_sort_radix_plan(9, t, 0, a, b, &r) == -1);
}

/* The look-back's step: in order, up to the first inclusive word, never past a word not yet published; and a walk of
 * such steps over a random mix of published aggregates and inclusive words (some not yet published, then published
 * as the walk reads them again) sums exactly the counts back to the nearest inclusive word. */
static void test_lookback(climb_rng *r)
{
    const unsigned A = 1u << 30, I = 2u << 30;
    unsigned before = 0;
    int found = -1;
    EXPECT(climb_sort_lookback_step((const unsigned[]){A | 5, A | 7, I | 100, A | 1}, &before, &found) == 3 &&
           before == 112 && found == 1);
    before = 0;
    EXPECT(climb_sort_lookback_step((const unsigned[]){A | 5, 0, I | 100, A | 1}, &before, &found) == 1 &&
           before == 5 && found == 0);
    before = 0;
    EXPECT(climb_sort_lookback_step((const unsigned[]){0, I | 9, I | 9, I | 9}, &before, &found) == 0 && before == 0 &&
           found == 0);
    before = 3;
    EXPECT(climb_sort_lookback_step((const unsigned[]){A | 1, A | 2, A | 3, A | 4}, &before, &found) == 4 &&
           before == 13 && found == 0);
    for (int trial = 0; trial < 2000; trial++) {
        const int tiles = 1 + (int)climb_rng_range(r, 0, 40);
        unsigned words[48], final[48];
        for (int t = 0; t < tiles; t++) {
            const unsigned count = (unsigned)climb_rng_range(r, 0, 1000);
            final[t] = (t == 0 || climb_rng_range(r, 0, 3) == 0 ? I : A) | count;
            words[t] = climb_rng_range(r, 0, 4) == 0 ? 0 : final[t]; /* some not yet published */
        }
        unsigned want = 0;
        for (int t = tiles - 1; t >= 0; t--) {
            want += final[t] & ((1u << 30) - 1);
            if ((final[t] & ~((1u << 30) - 1)) == I)
                break;
        }
        unsigned got = 0;
        long long j = tiles - 1;
        int steps = 0;
        for (;;) {
            unsigned w[4];
            for (int u = 0; u < 4; u++)
                w[u] = j - u >= 0 ? words[j - u] : I;
            int f;
            const int used = climb_sort_lookback_step(w, &got, &f);
            if (f)
                break;
            if (used == 0) /* a word not yet published: its tile publishes it while the walk waits */
                words[j] = final[j];
            j -= used;
            if (++steps > 1000)
                break;
        }
        EXPECT_MSG(got == want, "trial %d: %u summed, %u expected", trial, got, want);
    }
}

/* Every key type's order and reference. The codes order the keys as numbers do (i32 as signed integers, f32 as
 * floats where both are numbers, -0 before +0, NaNs by sign at the ends); the typed reference against a sort by
 * (code, index), which is stable by construction, on every distribution and odd sizes; the generators' rules hold
 * for the codes. */
static int by_code_then_index(const void *x, const void *y)
{
    const uint64_t *a = (const uint64_t *)x, *b = (const uint64_t *)y;
    return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1];
}

static void test_key_types(uint64_t seed)
{
    /* the codes' order */
    const int32_t ints[] = {INT32_MIN, -70000, -1, 0, 1, 65535, INT32_MAX};
    for (size_t i = 0; i + 1 < sizeof ints / sizeof *ints; i++)
        EXPECT_MSG(climb_sort_code(CLIMB_I32, ints, i) < climb_sort_code(CLIMB_I32, ints, i + 1), "i32 %d", ints[i]);
    const float fl[] = {-INFINITY, -3.0e38f, -1.0f, -1e-45f, -0.0f, 0.0f, 1e-45f, 1.0f, 3.0e38f, INFINITY};
    for (size_t i = 0; i + 1 < sizeof fl / sizeof *fl; i++)
        EXPECT_MSG(climb_sort_code(CLIMB_F32, fl, i) < climb_sort_code(CLIMB_F32, fl, i + 1), "f32 %g", fl[i]);
    const float nans[] = {-NAN, NAN, -INFINITY, INFINITY};
    EXPECT(climb_sort_code(CLIMB_F32, nans, 0) < climb_sort_code(CLIMB_F32, nans, 2) &&
           climb_sort_code(CLIMB_F32, nans, 1) > climb_sort_code(CLIMB_F32, nans, 3));
    const uint64_t big[] = {0, 1, 0xFFFFFFFFull, 0x100000000ull, 0xFFFFFFFFFFFFFFFFull};
    for (size_t i = 0; i + 1 < sizeof big / sizeof *big; i++)
        EXPECT(climb_sort_code(CLIMB_U64, big, i) < climb_sort_code(CLIMB_U64, big, i + 1));

    const climb_dtype types[] = {CLIMB_U32, CLIMB_I32, CLIMB_F32, CLIMB_U64};
    const size_t sizes[] = {0, 1, 2, 17, 1000, 4097};
    for (int ti = 0; ti < 4; ti++)
        for (int dist = 0; dist <= CLIMB_SORT_NARROW; dist++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                const climb_dtype t = types[ti];
                const size_t n = sizes[si], es = t == CLIMB_U64 ? 8 : 4, m = n ? n : 1;
                void *k = malloc(m * es), *orig = malloc(m * es);
                uint32_t *v = malloc(m * 4), *ov = malloc(m * 4);
                uint64_t *pairs = malloc(m * 16);
                if (!k || !orig || !v || !ov || !pairs) {
                    EXPECT(0);
                    return;
                }
                climb_sort_generate_typed(seed + (uint64_t)(ti * 100 + dist * 10) + si, dist, t, k, v, n);
                memcpy(orig, k, n * es);
                memcpy(ov, v, n * 4);
                /* the generators' rules, on the codes */
                size_t wrong = 0;
                for (size_t i = 0; i < n; i++) {
                    const uint64_t c = climb_sort_code(t, k, i), c0 = 0x80000000u; /* i32 and f32: the code of 0 */
                    if (dist == CLIMB_SORT_SORTED && i > 0)
                        wrong += c < climb_sort_code(t, k, i - 1);
                    if (dist == CLIMB_SORT_REVERSE && i > 0)
                        wrong += c > climb_sort_code(t, k, i - 1);
                    if (dist == CLIMB_SORT_NARROW)
                        wrong += t == CLIMB_U64 ? c >= 65536 : t == CLIMB_U32 ? c >= 65536 : (c ^ c0) >= 65536;
                }
                EXPECT_MSG(wrong == 0, "%s dist %d n %zu: %zu keys against the distribution's rule",
                           climb_dtype_name(t), dist, n, wrong);
                /* the reference against (code, index) order */
                EXPECT(climb_sort_ref_typed(t, k, v, n) == 0);
                for (size_t i = 0; i < n; i++) {
                    pairs[2 * i] = climb_sort_code(t, orig, i);
                    pairs[2 * i + 1] = i;
                }
                qsort(pairs, n, 16, by_code_then_index);
                size_t bad = 0;
                for (size_t i = 0; i < n; i++) {
                    const size_t from = (size_t)pairs[2 * i + 1];
                    bad += memcmp((char *)k + i * es, (char *)orig + from * es, es) != 0 || v[i] != ov[from];
                }
                EXPECT_MSG(bad == 0, "%s dist %d n %zu: %zu keys or values out of the stable order",
                           climb_dtype_name(t), dist, n, bad);
                free(k);
                free(orig);
                free(v);
                free(ov);
                free(pairs);
            }
}

static void test_table(void)
{
    const climb_workload *w = &climb_sort_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    const climb_shape big = CLIMB_SHAPE1((size_t)1 << 31), ok = CLIMB_SHAPE1(((size_t)1 << 31) - 1);
    EXPECT(w->case_refuses(&big, CLIMB_U32, NULL) != NULL && w->case_refuses(&ok, CLIMB_U32, NULL) == NULL);
    EXPECT(climb_best_rung(w) >= 0 && climb_vendor_rung(w) == 0);
    EXPECT(strcmp(w->rung(climb_vendor_rung(w))->name, "cub_radix_sort") == 0); /* the bar: CUB's radix sort */
    EXPECT(strcmp(w->rung(climb_best_rung(w))->name, "tuned") == 0);
    /* the tuned rung's classes and built-in choices: to 2^16 keys the merge path (pairs: Onesweep at 256 x 9),
     * Onesweep at 256 x 9 to 655,360, Onesweep at its wide tile from there (keys and pairs) */
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.cc_major = 9;
    dev.smem_per_block_optin = 227 * 1024;
    climb_opt_value opts[2];
    memset(opts, 0, sizeof opts);
    const size_t ns[] = {1000, 65536, 65537, 655359, 655360, (size_t)1 << 26};
    const int cls_of[] = {0, 0, 1, 1, 2, 2};
    static const char *const cls_name[] = {"small", "medium", "large"};
    for (int pairs = 0; pairs < 2; pairs++)
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            opts[0].choice = pairs;
            opts[0].text = pairs ? "pairs" : "keys";
            const climb_tuning_key key = {CLIMB_SHAPE1(ns[i]), CLIMB_U32, opts};
            int v[CLIMB_MAX_TUNABLES];
            EXPECT(climb_tuning_defaults(w->tuning, &dev, &key, v) != NULL);
            const int cl = cls_of[i];
            EXPECT_MSG(v[2] == (cl || pairs ? CLIMB_SORT_ONESWEEP : CLIMB_SORT_MERGE), "pairs %d n %zu: algo %d",
                       pairs, ns[i], v[2]);
            if (cl == 2) /* Onesweep's wide tile, as measured */
                EXPECT(v[0] == 384 && v[1] == 23);
            if (cl == 1 || (cl == 0 && pairs)) /* its 256 x 9 tile */
                EXPECT(v[0] == 256 && v[1] == 9);
            EXPECT(w->tuning->rejects(&dev, v) == NULL);
            char cls[128];
            climb_tuning_class(w, &key, &dev, cls, sizeof cls);
            EXPECT_MSG(strstr(cls, cls_name[cl]) && strstr(cls, pairs ? "what=pairs" : "what=keys"), "class %s",
                       cls);
        }
    /* `climb tune sort` times at least one size of each class, so each gets its own winner */
    int n_tune = 0, seen[3] = {0, 0, 0};
    const climb_shape *tune = climb_tune_shapes(w, &n_tune);
    for (int i = 0; i < n_tune; i++) {
        opts[0].choice = 0;
        opts[0].text = "keys";
        const climb_tuning_key key = {tune[i], CLIMB_U32, opts};
        char cls[128];
        climb_tuning_class(w, &key, &dev, cls, sizeof cls);
        for (int c = 0; c < 3; c++)
            seen[c] += strstr(cls, cls_name[c]) != NULL;
    }
    EXPECT_MSG(seen[0] && seen[1] && seen[2], "tune sizes by class: %d small, %d medium, %d large", seen[0], seen[1],
               seen[2]);
}

int main(void)
{
    test_co_rank();
    test_reference();
    test_all_equal();
    test_generators();
    test_radix_plan();
    test_key_types(20261128);
    {
        climb_rng r;
        climb_rng_seed(&r, 20261128);
        test_lookback(&r);
    }
    test_table();
    return test_finish("test_cpu_sort");
}
