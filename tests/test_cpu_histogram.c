/* CPU: the histogram's bin maps (bytes with any number of bins, PMPP's letters), the reference count, and the
 * generated inputs: each has the shape its name promises (constant is one value, skewed is geometric, text is
 * letters and spaces at English frequencies). */
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workloads/histogram/histogram.h"
#include "testing.h"

static void test_maps(void)
{
    for (unsigned b = 0; b < 256; b++)
        EXPECT(climb_hist_bin(b, CLIMB_HIST_BYTES, 256) == (int)b);
    EXPECT(climb_hist_bin(255, CLIMB_HIST_BYTES, 1) == 0);
    EXPECT(climb_hist_bin(127, CLIMB_HIST_BYTES, 2) == 0 && climb_hist_bin(128, CLIMB_HIST_BYTES, 2) == 1);
    EXPECT(climb_hist_bin(255, CLIMB_HIST_BYTES, 7) == 6 && climb_hist_bin(37, CLIMB_HIST_BYTES, 7) == 1);
    /* Every bin of every count of bins is reached, in order. */
    for (unsigned bins = 1; bins <= 256; bins++) {
        int last = -1, ok = 1;
        for (unsigned b = 0; b < 256; b++) {
            const int k = climb_hist_bin(b, CLIMB_HIST_BYTES, bins);
            ok &= k == last || k == last + 1;
            last = k;
        }
        EXPECT_MSG(ok && last == (int)bins - 1, "bins %u", bins);
    }
    EXPECT(climb_hist_bin('a', CLIMB_HIST_LETTERS, 256) == 0 && climb_hist_bin('d', CLIMB_HIST_LETTERS, 256) == 0);
    EXPECT(climb_hist_bin('e', CLIMB_HIST_LETTERS, 256) == 1 && climb_hist_bin('y', CLIMB_HIST_LETTERS, 256) == 6);
    EXPECT(climb_hist_bin('z', CLIMB_HIST_LETTERS, 256) == 6);
    EXPECT(climb_hist_bin('A', CLIMB_HIST_LETTERS, 256) == -1 && climb_hist_bin('{', CLIMB_HIST_LETTERS, 256) == -1);
    EXPECT(climb_hist_bin(' ', CLIMB_HIST_LETTERS, 256) == -1 && climb_hist_bin('`', CLIMB_HIST_LETTERS, 256) == -1);

    const uint8_t text[] = "Hello, world: zebra";
    uint64_t c[256];
    climb_hist_ref(text, sizeof text - 1, CLIMB_HIST_LETTERS, 256, c);
    /* e l l o w o r l d z e b r a: a-d {d, b, a} 3, e-h {e, e} 2, i-l {l, l, l} 3, m-p {o, o} 2, q-t {r, r} 2,
     * u-x {w} 1, y-z {z} 1 */
    const uint64_t want[7] = {3, 2, 3, 2, 2, 1, 1};
    EXPECT(memcmp(c, want, sizeof want) == 0);
}

static void test_generators(void)
{
    const size_t n = 1 << 20;
    uint8_t *x = malloc(n);
    uint64_t c[256];
    EXPECT(x != NULL);
    if (!x)
        return;
    const uint64_t seed = climb_fresh_seed();

    climb_hist_generate(seed, CLIMB_HIST_CONSTANT, CLIMB_HIST_BYTES, x, n);
    climb_hist_ref(x, n, CLIMB_HIST_BYTES, 256, c);
    EXPECT(c[x[0]] == n);
    climb_hist_generate(seed, CLIMB_HIST_CONSTANT, CLIMB_HIST_LETTERS, x, n);
    EXPECT(x[0] >= 'a' && x[0] <= 'z' && x[n - 1] == x[0]);

    climb_hist_generate(seed, CLIMB_HIST_UNIFORM, CLIMB_HIST_BYTES, x, n);
    climb_hist_ref(x, n, CLIMB_HIST_BYTES, 256, c);
    for (int b = 0; b < 256; b++)
        EXPECT_MSG(c[b] > n / 256 * 9 / 10 && c[b] < n / 256 * 11 / 10, "uniform bin %d: %llu", b,
                   (unsigned long long)c[b]);

    climb_hist_generate(seed, CLIMB_HIST_SKEWED, CLIMB_HIST_BYTES, x, n);
    climb_hist_ref(x, n, CLIMB_HIST_BYTES, 256, c);
    EXPECT_MSG(c[0] > n * 28 / 100 && c[0] < n * 32 / 100, "skewed bin 0: %llu of %zu", (unsigned long long)c[0], n);
    EXPECT(c[1] > c[2] && c[2] > c[3] && c[3] > c[10] && c[40] < n / 10000);

    climb_hist_generate(seed, CLIMB_HIST_TEXT, CLIMB_HIST_BYTES, x, n);
    climb_hist_ref(x, n, CLIMB_HIST_BYTES, 256, c);
    size_t lower = 0, other = 0;
    for (int b = 0; b < 256; b++) {
        if (b >= 'a' && b <= 'z')
            lower += c[b];
        else if (!(b == ' ' || b == '.' || b == ',' || b == '\n' || (b >= 'A' && b <= 'Z')))
            other += c[b];
    }
    EXPECT(other == 0 && lower > n * 6 / 10 && c[' '] > n / 10 && c['e'] > c['z'] * 20);

    /* runs: about n / 16 stretches (a step of 0 joins two of them: 1 in 17), each a step of at most 8 from the
       last, and over a 2^20-byte line the value drifts across many bins */
    climb_hist_generate(seed, CLIMB_HIST_RUNS, CLIMB_HIST_BYTES, x, n);
    climb_hist_ref(x, n, CLIMB_HIST_BYTES, 256, c);
    size_t changes = 0, wide_steps = 0, used = 0;
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[i - 1]) {
            changes++;
            wide_steps += abs((int)x[i] - (int)x[i - 1]) > 8;
        }
    for (int b = 0; b < 256; b++)
        used += c[b] > 0;
    EXPECT_MSG(changes > n / 16 * 85 / 100 && changes < n / 16 * 105 / 100 && wide_steps == 0 && used >= 64,
               "runs: %zu changes, %zu steps over 8, %zu values", changes, wide_steps, used);
    climb_hist_generate(seed, CLIMB_HIST_RUNS, CLIMB_HIST_LETTERS, x, n);
    size_t letters = 0;
    for (size_t i = 0; i < n; i++)
        letters += x[i] >= 'a' && x[i] <= 'z';
    EXPECT(letters == n); /* only letters */
    uint8_t one[3];
    climb_hist_generate(seed, CLIMB_HIST_RUNS, CLIMB_HIST_BYTES, one, 3); /* shorter than a run: no overrun */
    free(x);
}

int main(void)
{
    test_maps();
    test_generators();
    return test_finish("test_cpu_histogram");
}
