/* CPU tests of the SpMV workload's logic: the five generators (exact nonzero counts, sorted in-range columns,
 * symmetric stencils, the power law's mean and cap, rectangular cuts, seeds), the row statistics, the merge-path
 * search against a sequential merge, the row blocks' guarantees, the windowed JDS's layout, the lanes rule, the
 * Matrix Market load hook, and the option table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/mtx.h"
#include "base/rng.h"
#include "workloads/spmv/spmv.h"
#include "spmv_fixture.h"
#include "testing.h"

static int gen(int matrix, int64_t rows, int64_t cols, uint64_t seed, climb_csr *m)
{
    climb_spmv_gen g = {matrix, rows, cols, 8, 16, 4096, seed};
    char err[300];
    int rc = climb_spmv_generate(&g, m, NULL, err, sizeof err);
    EXPECT_MSG(rc == 0, "%s", err);
    if (rc == 0) {
        const char *why = climb_csr_check(m);
        EXPECT_MSG(why == NULL, "matrix %d %lldx%lld: %s", matrix, (long long)rows, (long long)cols, why);
    }
    return rc;
}

/* 1 if a(i, j) is stored. */
static int has(const climb_csr *m, int32_t i, int32_t j)
{
    for (int32_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++)
        if (m->col_idx[k] == j)
            return 1;
    return 0;
}

static void test_generators(void)
{
    climb_csr m;
    /* 10^3 grid: 7 n^3 - 6 n^2 nonzeros for the 7-point stencil, (3n - 2)^3 for the 27-point one. */
    if (gen(CLIMB_SPMV_POISSON, 1000, 1000, 1, &m) == 0) {
        EXPECT_MSG(m.nnz == 6400, "poisson nnz %d", m.nnz);
        climb_spmv_stats st;
        climb_spmv_row_stats(&m, &st);
        EXPECT(st.max == 7 && st.empty == 0 && fabs(st.mean - 6.4) < 1e-12);
        int sym = 1, diag = 1;
        for (int32_t i = 0; i < m.rows; i++) {
            diag &= has(&m, i, i);
            for (int32_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; k++)
                sym &= has(&m, m.col_idx[k], i);
        }
        EXPECT(sym && diag);
        /* an interior point (5, 5, 5) = 555: its six neighbours 1, 10 and 100 away */
        const int32_t want[] = {455, 545, 554, 555, 556, 565, 655};
        EXPECT(m.row_ptr[556] - m.row_ptr[555] == 7);
        for (int k = 0; k < 7; k++)
            EXPECT(m.col_idx[m.row_ptr[555] + k] == want[k]);
        climb_csr_free(&m);
    }
    if (gen(CLIMB_SPMV_STENCIL27, 1000, 1000, 1, &m) == 0) {
        EXPECT_MSG(m.nnz == 28 * 28 * 28, "stencil27 nnz %d", m.nnz);
        climb_csr_free(&m);
    }
    /* Elasticity: 1000 nodes on a 10^3 grid, 3 unknowns each; 28^3 pairs of neighbouring nodes, a 3 x 3 block
     * each; an interior row holds 81 columns, the 3 x 3 blocks of its node's 27 neighbours. */
    if (gen(CLIMB_SPMV_ELASTIC27, 3000, 3000, 1, &m) == 0) {
        EXPECT_MSG(m.nnz == 9 * 28 * 28 * 28, "elastic27 nnz %d", m.nnz);
        const int node = 5 + 5 * 10 + 5 * 100;
        for (int c = 0; c < 3; c++) {
            const int r = 3 * node + c, len = m.row_ptr[r + 1] - m.row_ptr[r];
            EXPECT_MSG(len == 81, "elastic27 interior row %d: %d columns", r, len);
            for (int k = 0; k < len && len == 81; k++) {
                const int nb = node + (k / 3 % 3 - 1) + (k / 9 % 3 - 1) * 10 + (k / 27 - 1) * 100;
                EXPECT(m.col_idx[m.row_ptr[r] + k] == 3 * nb + k % 3);
            }
        }
        /* a corner node: 8 neighbours, 24 columns */
        EXPECT(m.row_ptr[1] - m.row_ptr[0] == 24);
        climb_csr_free(&m);
    }
    /* A cut that ends inside a node's unknowns, and a rectangle: nothing at or past rows or cols. */
    if (gen(CLIMB_SPMV_ELASTIC27, 3001, 2000, 2, &m) == 0) {
        for (int32_t j = 0; j < m.nnz; j++)
            EXPECT(m.col_idx[j] < 2000);
        climb_csr_free(&m);
    }
    /* FEM-like: per_row 16 and band 8 make rows of 8 to 24 distinct columns within r - 16 .. r + 16, about 16 on
     * average. */
    if (gen(CLIMB_SPMV_FEM, 20000, 20000, 3, &m) == 0) {
        int32_t lo = 1 << 30, hi = 0;
        int bad = 0;
        for (int32_t r = 0; r < m.rows; r++) {
            const int32_t len = m.row_ptr[r + 1] - m.row_ptr[r];
            lo = len < lo ? len : lo;
            hi = len > hi ? len : hi;
            for (int32_t j = m.row_ptr[r]; j < m.row_ptr[r + 1]; j++)
                bad += m.col_idx[j] < r - 16 || m.col_idx[j] > r + 16;
        }
        EXPECT_MSG(lo == 8 && hi == 24, "fem row lengths %d to %d", lo, hi);
        EXPECT_MSG(bad == 0, "fem: %d columns outside the band", bad);
        EXPECT_MSG(fabs((double)m.nnz / m.rows - 16.0) < 0.2, "fem mean %.2f", (double)m.nnz / m.rows);
        climb_csr_free(&m);
    }
    /* 160^3 is what the bench runs: the grid is exactly 160 x 160 x 160. */
    {
        climb_spmv_gen g = {CLIMB_SPMV_POISSON, 4096000, 4096000, 8, 16, 4096, 3};
        int grid[3];
        char err[300];
        climb_csr big;
        EXPECT(climb_spmv_generate(&g, &big, grid, err, sizeof err) == 0);
        EXPECT(grid[0] == 160 && grid[1] == 160 && grid[2] == 160);
        EXPECT(big.nnz == 7 * 4096000 - 6 * 25600);
        climb_csr_free(&big);
    }
    /* A partial last plane and a rectangular cut: nothing at or past cols, and no row longer than 7. */
    if (gen(CLIMB_SPMV_POISSON, 1234, 500, 2, &m) == 0) {
        int ok = 1;
        for (int32_t k = 0; k < m.nnz; k++)
            ok &= m.col_idx[k] < 500;
        EXPECT(ok && m.rows == 1234 && m.cols == 500);
        climb_csr_free(&m);
    }
    /* banded, half-width 8 on 100 x 100: 17 a row less the corners' 2 x (8 + ... + 1) */
    if (gen(CLIMB_SPMV_BANDED, 100, 100, 1, &m) == 0) {
        EXPECT_MSG(m.nnz == 100 * 17 - 2 * 36, "banded nnz %d", m.nnz);
        EXPECT(m.col_idx[m.row_ptr[50]] == 42 && m.col_idx[m.row_ptr[51] - 1] == 58);
        climb_csr_free(&m);
    }
    /* random: exactly per_row distinct columns a row, or every column when there are fewer */
    if (gen(CLIMB_SPMV_RANDOM, 3000, 100000, 4, &m) == 0) {
        EXPECT(m.nnz == 3000 * 16);
        climb_csr_free(&m);
    }
    if (gen(CLIMB_SPMV_RANDOM, 50, 10, 4, &m) == 0) {
        EXPECT(m.nnz == 500 && m.col_idx[0] == 0 && m.col_idx[9] == 9);
        climb_csr_free(&m);
    }
    if (gen(CLIMB_SPMV_RANDOM, 50, 40, 4, &m) == 0) { /* 16 of 40: the shuffle path */
        EXPECT(m.nnz == 800);
        climb_csr_free(&m);
    }
    /* power law: mean near 4.66 (floor of a Pareto 1.2 tail), rows capped at max_row, heavy tail (cv >> 1) */
    if (gen(CLIMB_SPMV_POWERLAW, 1 << 18, 1 << 18, 5, &m) == 0) {
        climb_spmv_stats st;
        climb_spmv_row_stats(&m, &st);
        EXPECT_MSG(st.mean > 4.0 && st.mean < 5.4 && st.max <= 4096 && st.max > 1000 && st.cv > 3 && st.empty == 0,
                   "powerlaw mean %.2f max %d cv %.2f", st.mean, st.max, st.cv);
        climb_csr_free(&m);
    }
    /* same seed, same matrix; another seed, other values */
    climb_csr a, b;
    if (gen(CLIMB_SPMV_POWERLAW, 5000, 5000, 9, &a) == 0 && gen(CLIMB_SPMV_POWERLAW, 5000, 5000, 9, &b) == 0) {
        EXPECT(a.nnz == b.nnz && memcmp(a.col_idx, b.col_idx, (size_t)a.nnz * 4) == 0 &&
               memcmp(a.val, b.val, (size_t)a.nnz * 8) == 0);
        climb_csr_free(&b);
        if (gen(CLIMB_SPMV_POWERLAW, 5000, 5000, 10, &b) == 0) {
            EXPECT(a.nnz != b.nnz || memcmp(a.val, b.val, (size_t)a.nnz * 8) != 0);
            climb_csr_free(&b);
        }
        climb_csr_free(&a);
    }
    /* values in [-1, 1), none zero in practice */
    if (gen(CLIMB_SPMV_RANDOM, 1000, 1000, 11, &m) == 0) {
        int ok = 1;
        for (int32_t k = 0; k < m.nnz; k++)
            ok &= m.val[k] >= -1 && m.val[k] < 1 && m.val[k] != 0;
        EXPECT(ok);
        climb_csr_free(&m);
    }
    /* empty shapes */
    if (gen(CLIMB_SPMV_POISSON, 0, 0, 1, &m) == 0) {
        EXPECT(m.rows == 0 && m.nnz == 0 && m.row_ptr[0] == 0);
        climb_csr_free(&m);
    }
    if (gen(CLIMB_SPMV_POWERLAW, 7, 0, 1, &m) == 0) {
        EXPECT(m.rows == 7 && m.nnz == 0);
        climb_csr_free(&m);
    }
    /* over 32-bit indices: refused with the count, before the nonzeros are allocated */
    climb_spmv_gen g = {CLIMB_SPMV_RANDOM, 200000000, 200000000, 8, 16, 4096, 1};
    char err[300];
    EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == -1 && strstr(err, "2147483647") != NULL);
    g.rows = 3000000000LL;
    EXPECT(climb_spmv_generate(&g, &m, NULL, err, sizeof err) == -1 && strstr(err, "2147483646") != NULL);
}

/* The merged list of row ends and nonzeros walked one item at a time: how many row ends in the first d. */
static int walk(const int32_t *e, int rows, int nnz, int d)
{
    int i = 0, j = 0;
    for (int k = 0; k < d; k++) {
        if (i < rows && j < e[i])
            j++;
        else
            i++;
    }
    (void)nnz;
    return i;
}

static void test_merge_search(void)
{
    climb_rng r;
    climb_rng_seed(&r, 77);
    int bad = 0, cases = 0;
    for (int t = 0; t < 300; t++) {
        const int rows = 1 + (int)climb_rng_range(&r, 0, 60);
        int32_t e[64];
        int nnz = 0;
        for (int i = 0; i < rows; i++) {
            const int kind = (int)climb_rng_range(&r, 0, 3); /* empty rows, short, long */
            nnz += kind == 0 ? 0 : kind == 3 ? (int)climb_rng_range(&r, 10, 200) : (int)climb_rng_range(&r, 1, 9);
            e[i] = nnz;
        }
        for (int d = 0; d <= rows + nnz; d++, cases++)
            bad += climb_spmv_merge_search(e, rows, nnz, d) != walk(e, rows, nnz, d);
    }
    EXPECT_MSG(bad == 0, "%d of %d diagonals wrong", bad, cases);
}

static void test_block_flags(void)
{
    climb_csr m;
    const int budgets[] = {64, 1024};
    for (int bi = 0; bi < 2; bi++)
        for (int matrix = 0; matrix <= CLIMB_SPMV_FEM; matrix++) {
            if (gen(matrix, 20000, 20000, 3, &m) != 0)
                continue;
            const int B = budgets[bi];
            uint8_t *f = malloc((size_t)m.rows);
            climb_spmv_block_flags(m.row_ptr, m.rows, B, f);
            int ok = f[0] == 1, blocks = 0;
            for (int32_t r0 = 0; r0 < m.rows;) {
                int32_t r1 = r0 + 1;
                while (r1 < m.rows && !f[r1])
                    r1++;
                const int64_t span = (int64_t)(m.row_ptr[r1] + r1) - (m.row_ptr[r0] + r0);
                const int32_t len0 = m.row_ptr[r0 + 1] - m.row_ptr[r0];
                if (len0 > B)
                    ok &= r1 == r0 + 1; /* a long row is a block alone */
                else
                    ok &= span <= 2 * B;
                blocks++;
                r0 = r1;
            }
            EXPECT_MSG(ok && blocks > 0, "matrix %d budget %d", matrix, B);
            free(f);
            climb_csr_free(&m);
        }
}

/* The windowed JDS's layout held to its definition (spmv.h): NULL, or what is wrong. Each window's ranks are its rows,
 * longest first, ties in row order; its starts are the sums of min(length, d); every nonzero lands once, inside the
 * window's span of the CSR; and y computed the kernel's way from the scattered copy (rank i walks the diagonals while
 * it has one) equals the CSR's row-order sums bit for bit, the same products added in the same order. */
static const char *windows_check(const climb_csr *m, const int32_t *perm, const int64_t *woff, const int32_t *jd)
{
    static char why[200];
    const int W = CLIMB_SPMV_WINDOW;
    const int64_t windows = ((int64_t)m->rows + W - 1) / W, nnz = m->nnz;
    int32_t *ci = malloc(((size_t)nnz + 1) * sizeof *ci), *seen = calloc((size_t)nnz + 1, sizeof *seen);
    double *v = malloc(((size_t)nnz + 1) * sizeof *v);
    const char *bad = NULL;
#define LEN(r) (m->row_ptr[(r) + 1] - m->row_ptr[r])
#define FAIL(...) do { snprintf(why, sizeof why, __VA_ARGS__); bad = why; goto done; } while (0)
    if (woff[0] != 0)
        FAIL("woff[0] = %lld", (long long)woff[0]);
    for (int64_t w = 0; w < windows; w++) {
        const int64_t first = w * W;
        const int n = (int)(m->rows - first < W ? m->rows - first : W);
        int32_t longest = 0;
        for (int i = 0; i < n; i++) {
            const int32_t r = perm[first + i];
            if (r < first || r >= first + n)
                FAIL("window %lld rank %d: row %d is not the window's", (long long)w, i, r);
            if (i > 0 && (LEN(perm[first + i - 1]) < LEN(r) ||
                          (LEN(perm[first + i - 1]) == LEN(r) && perm[first + i - 1] >= r)))
                FAIL("window %lld ranks %d and %d out of order", (long long)w, i - 1, i);
            longest = LEN(r) > longest ? LEN(r) : longest;
        }
        if (woff[w + 1] - woff[w] != longest + 1)
            FAIL("window %lld: %lld starts for a longest row of %d", (long long)w, (long long)(woff[w + 1] - woff[w]),
                 longest);
        for (int32_t d = 0; d <= longest; d++) {
            int64_t want = 0;
            for (int i = 0; i < n; i++)
                want += LEN(perm[first + i]) < d ? LEN(perm[first + i]) : d;
            if (jd[woff[w] + d] != want)
                FAIL("window %lld diagonal %d starts at %d, not %lld", (long long)w, d, jd[woff[w] + d],
                     (long long)want);
        }
        for (int i = 0; i < n; i++) {
            const int32_t r = perm[first + i];
            for (int32_t k = 0; k < LEN(r); k++) {
                const int64_t at = m->row_ptr[first] + jd[woff[w] + k] + i;
                if (at < m->row_ptr[first] || at >= m->row_ptr[first + n] || seen[at]++)
                    FAIL("window %lld rank %d nonzero %d at %lld: outside the window or taken", (long long)w, i, k,
                         (long long)at);
                ci[at] = m->col_idx[m->row_ptr[r] + k];
                v[at] = m->val[m->row_ptr[r] + k];
            }
        }
    }
    for (int64_t w = 0; w < windows; w++) { /* the kernel's walk, one diagonal at a time */
        const int64_t first = w * W;
        const int32_t *wjd = jd + woff[w];
        const int diagonals = (int)(woff[w + 1] - woff[w]) - 1;
        for (int i = 0; i < W && first + i < m->rows; i++) {
            double got = 0, want = 0;
            for (int d = 0; d < diagonals && i < wjd[d + 1] - wjd[d]; d++) {
                const int64_t at = m->row_ptr[first] + wjd[d] + i;
                got += v[at] * (1.0 + ci[at] % 7);
            }
            const int32_t r = perm[first + i];
            for (int32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j++)
                want += m->val[j] * (1.0 + m->col_idx[j] % 7);
            if (got != want)
                FAIL("window %lld rank %d: %.17g, the CSR's %.17g", (long long)w, i, got, want);
        }
    }
done:
#undef LEN
#undef FAIL
    free(ci);
    free(seen);
    free(v);
    return bad;
}

static void test_windows_layout(void)
{
    climb_csr m;
    const int64_t shapes[][2] = {{0, 0}, {1, 1}, {255, 300}, {256, 256}, {257, 100}, {20000, 20000}};
    for (int matrix = 0; matrix <= CLIMB_SPMV_FEM; matrix++)
        for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
            if (gen(matrix, shapes[sh][0], shapes[sh][1], 11 + sh, &m) != 0)
                continue;
            int32_t *perm = malloc(((size_t)m.rows + 1) * sizeof *perm), *jd = NULL;
            int64_t *woff = malloc(((size_t)m.rows / CLIMB_SPMV_WINDOW + 2) * sizeof *woff);
            EXPECT(climb_spmv_windows_layout(m.row_ptr, m.rows, perm, woff, &jd) == 0);
            const char *why = jd ? windows_check(&m, perm, woff, jd) : "no layout";
            EXPECT_MSG(why == NULL, "matrix %d %dx%d: %s", matrix, m.rows, m.cols, why ? why : "");
            free(perm);
            free(woff);
            free(jd);
            climb_csr_free(&m);
        }
    /* rows with nothing and whole windows of empty rows (windows 0 and 2) */
    {
        int32_t rp[1001], ci[600];
        double v[600];
        climb_csr e = spmv_fixture_empty_windows(rp, ci, v);
        int32_t perm[1000], *jd = NULL;
        int64_t woff[5];
        EXPECT(climb_spmv_windows_layout(rp, 1000, perm, woff, &jd) == 0);
        const char *why = windows_check(&e, perm, woff, jd);
        EXPECT_MSG(why == NULL, "empty windows: %s", why ? why : "");
        EXPECT(woff[1] - woff[0] == 1 && woff[4] - woff[3] == 101);
        /* the check can fail: two ranks of different lengths swapped (window 1's ranks 19 and 20, its last row of 4
           and first of 3), and a start one off */
        int32_t swapped[1000];
        memcpy(swapped, perm, sizeof perm);
        const int32_t t = swapped[275];
        swapped[275] = swapped[276];
        swapped[276] = t;
        EXPECT(rp[swapped[275] + 1] - rp[swapped[275]] == 3 && rp[swapped[276] + 1] - rp[swapped[276]] == 4);
        EXPECT(windows_check(&e, swapped, woff, jd) != NULL);
        jd[woff[1] + 2]++;
        EXPECT(windows_check(&e, perm, woff, jd) != NULL);
        free(jd);
    }
}

static void test_lanes(void)
{
    EXPECT(climb_spmv_lanes(0) == 1 && climb_spmv_lanes(6.96) == 1 && climb_spmv_lanes(8) == 1);
    EXPECT(climb_spmv_lanes(8.5) == 8 && climb_spmv_lanes(26.7) == 8 && climb_spmv_lanes(64) == 8);
    EXPECT(climb_spmv_lanes(100) == 16 && climb_spmv_lanes(1000) == 32);
    /* the trial's budget: 12 runs of the fastest, at least 4 ms up to 1M nonzeros and 2 ms less 12 runs past it */
    EXPECT(climb_spmv_trial_budget_us(20000000, 96.5) == 12.0 * 96.5);
    EXPECT(climb_spmv_trial_budget_us(20000000, 50.0) == 2000.0 - 12.0 * 50.0);
    EXPECT(fabs(climb_spmv_trial_budget_us(20000000, 1000.0 / 12.0) - 1000.0) < 1e-9); /* floor meets 12 runs */
    EXPECT(climb_spmv_trial_budget_us(20000000, 0.0) == 2000.0);
    EXPECT(climb_spmv_trial_budget_us(20000000, 329.4) == 12.0 * 329.4);
    EXPECT(climb_spmv_trial_budget_us(1000001, 10.0) == 2000.0 - 120.0);
    EXPECT(climb_spmv_trial_budget_us(1000000, 10.0) == 4000.0 && climb_spmv_trial_budget_us(103689, 7.6) == 4000.0);
    EXPECT(climb_spmv_trial_budget_us(1000000, 500.0) == 6000.0);
    EXPECT(climb_spmv_long_min(1) == 32 && climb_spmv_long_min(8) == 128 && climb_spmv_long_min(32) == 512);
}

/* The tolerance catches one lost product: in f64 even in the longest power-law row, in f32 in a Poisson row. */
static void test_tolerance(void)
{
    climb_rng r;
    climb_rng_seed(&r, 3);
    for (int f64 = 0; f64 < 2; f64++) {
        const int len = f64 ? 4096 : 7;
        double s = 0, a = 0, smallest = 1e300;
        for (int k = 0; k < len; k++) {
            const double t = climb_rng_double(&r, -1, 1) * climb_rng_double(&r, -1, 1);
            s += t;
            a += fabs(t);
            smallest = fabs(t) < smallest ? fabs(t) : smallest;
        }
        const double tol = climb_spmv_tolerance(len, a, f64);
        EXPECT_MSG(smallest > tol, "%s: the smallest product %g is within the tolerance %g", f64 ? "f64" : "f32",
                   smallest, tol);
        /* and rounding the exact sum to f32 is within it */
        EXPECT(fabs((double)(float)s - s) <= climb_spmv_tolerance(len, a, 0));
    }
    EXPECT(climb_spmv_tolerance(0, 0, 0) == 0);
}

static void test_stats(void)
{
    int32_t rp[] = {0, 0, 3, 4, 4, 8};
    climb_csr m = {5, 10, 8, rp, NULL, NULL};
    climb_spmv_stats st;
    climb_spmv_row_stats(&m, &st);
    /* lengths 0 3 1 0 4: mean 1.6, var 26/5 - 2.56 = 2.64 */
    EXPECT(fabs(st.mean - 1.6) < 1e-12 && st.max == 4 && st.empty == 2 && fabs(st.cv - sqrt(2.64) / 1.6) < 1e-12);
    climb_csr e = {0, 0, 0, rp, NULL, NULL};
    climb_spmv_row_stats(&e, &st);
    EXPECT(st.mean == 0 && st.cv == 0 && st.max == 0);
}

static void test_load(void)
{
    const climb_workload *w = &climb_spmv_workload;
    char dir[] = "/tmp/climb_spmv_XXXXXX", path[128], err[300], desc[300];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/a.mtx", dir);
    test_write_text(path, "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n3 3 3\n1 1 2.5\n3 1 -1\n"
                          "2 2 4\n");
    void *data = NULL;
    climb_shape shape;
    EXPECT(w->load(path, &data, &shape, desc, sizeof desc, err, sizeof err) == 0);
    EXPECT(shape.ndims == 2 && shape.d[0] == 3 && shape.d[1] == 3);
    EXPECT_MSG(strstr(desc, "a.mtx: 3 x 3, 4 nonzeros (real, symmetric") != NULL, "%s", desc);
    w->unload(data);
    test_write_text(path, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 2.5\n4 1 1\n");
    EXPECT(w->load(path, &data, &shape, desc, sizeof desc, err, sizeof err) == -1);
    EXPECT_MSG(strstr(err, "a.mtx:4:") != NULL, "%s", err);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_generators();
    test_merge_search();
    test_block_flags();
    test_windows_layout();
    test_lanes();
    test_stats();
    test_tolerance();
    test_load();
    return test_finish("test_cpu_spmv");
}
