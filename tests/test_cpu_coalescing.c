/* CPU: the coalescing lab's access patterns, the same functions its kernels run. Each pattern gives every item
 * of [0, m) to exactly one thread, for sizes around warps and tails and every stride; the shapes the patterns
 * are meant to have (idle lanes, scrambled warps, neighbours a stride apart) hold; the table is consistent. */
#include <stdlib.h>
#include <string.h>

#include "workloads/coalescing.h"
#include "testing.h"

/* Every item of [0, m) taken once by the pattern's threads, and no thread past them takes one. */
static void one_to_one(int p, size_t m, unsigned stride)
{
    const size_t threads = climb_coal_threads(p, m, stride);
    unsigned char *seen = calloc(m + 1, 1);
    size_t taken = 0, twice = 0;
    for (size_t g = 0; g < threads + 64; g++) {
        size_t i = climb_coal_item(p, g, m, stride);
        if (i == (size_t)-1)
            continue;
        EXPECT_MSG(g < threads && i < m, "pattern %d m %zu stride %u: thread %zu takes %zu of %zu threads", p, m,
                   stride, g, i, threads);
        if (i >= m || g >= threads)
            continue;
        twice += seen[i]++ != 0;
        taken++;
    }
    EXPECT_MSG(taken == m && twice == 0, "pattern %d m %zu stride %u: %zu taken, %zu twice", p, m, stride, taken,
               twice);
    free(seen);
}

static void test_bijections(void)
{
    const size_t sizes[] = {0, 1, 2, 3, 23, 24, 25, 31, 32, 33, 95, 96, 97, 767, 768, 769, 1000, 4099, 65537};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int p = CLIMB_COAL_COALESCED; p <= CLIMB_COAL_STRIDED; p++)
            for (unsigned s = 1; s <= (p == CLIMB_COAL_STRIDED ? 32u : 1u); s++)
                one_to_one(p, sizes[k], s);
}

static void test_shapes(void)
{
    const size_t m = 1 << 12;
    /* idle: lanes 3, 7, ..., 31 take nothing; the others take 24 consecutive items a warp */
    for (size_t g = 0; g < 64; g++) {
        size_t i = climb_coal_item(CLIMB_COAL_IDLE, g, m, 1);
        if ((g & 3) == 3)
            EXPECT(i == (size_t)-1);
        else
            EXPECT(i == (g / 32) * 24 + (g % 32) - (g % 32) / 4);
    }
    /* permuted: a warp takes its own 32 items, not in lane order */
    int in_order = 0;
    for (size_t g = 32; g < 64; g++) {
        size_t i = climb_coal_item(CLIMB_COAL_PERMUTED, g, m, 1);
        EXPECT(i >= 32 && i < 64);
        in_order += i == g;
    }
    EXPECT(in_order < 4);
    /* strided: neighbours are `stride` items apart; misaligned and coalesced are the identity */
    for (unsigned s = 1; s <= 32; s++)
        EXPECT(climb_coal_item(CLIMB_COAL_STRIDED, 6, m, s) - climb_coal_item(CLIMB_COAL_STRIDED, 5, m, s) == s);
    EXPECT(climb_coal_item(CLIMB_COAL_MISALIGNED, 77, m, 1) == 77 && climb_coal_item(CLIMB_COAL_COALESCED, 77, m, 1) == 77);
    EXPECT(climb_coal_threads(CLIMB_COAL_IDLE, 24, 1) == 32 && climb_coal_threads(CLIMB_COAL_IDLE, 25, 1) == 64);
    EXPECT(climb_coal_threads(CLIMB_COAL_STRIDED, 10, 4) == 12);
}

static void test_table(void)
{
    const climb_workload *w = &climb_coalescing_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_bound_rung(w) == 0 && climb_vendor_rung(w) == -1 && climb_first_ladder_rung(w) == 1);
    EXPECT(climb_find_sweep(w, "offset") && climb_find_sweep(w, "stride"));
    const int k = climb_opt_find(w->options, w->n_options, "pattern");
    EXPECT(k >= 0);
    const climb_option *pat = &w->options[k < 0 ? 0 : k];
    EXPECT(pat->kind == CLIMB_OPT_CHOICE && strcmp(pat->choices[CLIMB_COAL_STRIDED], "strided") == 0 &&
           strcmp(pat->choices[CLIMB_COAL_IDLE], "idle") == 0);
}

int main(void)
{
    test_bijections();
    test_shapes();
    test_table();
    return test_finish("test_cpu_coalescing");
}
