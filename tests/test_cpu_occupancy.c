/* The occupancy calculator against the texts' worked examples (Harris's G80 sheet, Introduction to CUDA 5.0's CC 3.5
 * sheet and its exercises Q2-Q5), plus the allocation rules one at a time and the table's consistency. */
#include <limits.h>
#include <string.h>

#include "climb.h"
#include "testing.h"

static climb_occ_result occ(int major, int minor, int threads, int regs, size_t smem)
{
    climb_occ_input in = {major, minor, threads, regs, smem, 0};
    climb_occ_result r;
    memset(&r, 0xab, sizeof r);
    climb_status s = climb_occupancy(&in, &r);
    EXPECT_MSG(s == CLIMB_STATUS_SUCCESS, "cc %d.%d threads %d regs %d smem %zu", major, minor, threads, regs, smem);
    return r;
}

/* The most registers per thread that still give `blocks` blocks of `threads` on cc (shared memory not limiting). */
static int max_regs_for(int major, int minor, int threads, int blocks)
{
    int best = 0;
    for (int regs = 1; regs <= 255; regs++) {
        climb_occ_input in = {major, minor, threads, regs, 0, 0};
        climb_occ_result r;
        if (climb_occupancy(&in, &r) == CLIMB_STATUS_SUCCESS && r.active_blocks >= blocks)
            best = regs;
    }
    return best;
}

/* The most shared memory per block that still gives `blocks` blocks (registers not limiting). */
static size_t max_smem_for(int major, int minor, int threads, int blocks)
{
    size_t best = 0;
    for (size_t smem = 0; smem <= 256 * 1024; smem += 4) {
        climb_occ_input in = {major, minor, threads, 0, smem, 0};
        climb_occ_result r;
        if (climb_occupancy(&in, &r) == CLIMB_STATUS_SUCCESS && r.active_blocks >= blocks)
            best = smem;
    }
    return best;
}

int main(void)
{
    /* Harris, the G80 sheet: 192 threads, 20 registers, 68 B -> 384 threads, 12 warps, 2 blocks, 50%,
     * limited by registers; per block 6 warps, 3840 registers, 512 B; limits 4 (warps), 2, 32. */
    climb_occ_result g = occ(1, 0, 192, 20, 68);
    EXPECT(g.active_threads == 384);
    EXPECT(g.active_warps == 12);
    EXPECT(g.active_blocks == 2);
    EXPECT(g.occupancy == 0.5);
    EXPECT(g.limited_by == CLIMB_OCC_LIMIT_REGISTERS);
    EXPECT(g.warps_per_block == 6 && g.regs_per_block == 3840 && g.smem_per_block == 512);
    EXPECT(g.blocks_by_warps == 4 && g.blocks_by_block_limit == 8 && g.blocks_by_regs == 2 && g.blocks_by_smem == 32);
    EXPECT(occ(1, 0, 192, 0, 0).blocks_by_regs == INT_MAX && occ(1, 0, 192, 0, 0).blocks_by_smem == INT_MAX);
    EXPECT(g.refusal == CLIMB_OCC_FITS);

    /* Introduction to CUDA 5.0, the CC 3.5 sheet: 256 threads, 32 registers, 4096 B -> 2048 threads, 64 warps, 8 blocks,
     * 100%; limits 8 (warps), 8 (registers), 12 (shared memory). */
    climb_occ_result k = occ(3, 5, 256, 32, 4096);
    EXPECT(k.active_threads == 2048 && k.active_warps == 64 && k.active_blocks == 8 && k.occupancy == 1.0);
    EXPECT(k.blocks_by_warps == 8 && k.blocks_by_regs == 8 && k.blocks_by_smem == 12 && k.blocks_by_block_limit == 16);
    EXPECT(k.limited_by == (CLIMB_OCC_LIMIT_WARPS | CLIMB_OCC_LIMIT_REGISTERS));
    EXPECT(k.regs_per_block == 8192 && k.smem_per_block == 4096);

    /* Q2: 16x16 blocks on CC 1.3 / 2.0 / 3.0 -> 4 / 6 / 8 blocks, 100%. */
    const int q2_cc[3][2] = {{1, 3}, {2, 0}, {3, 0}};
    const int q2_blocks[3] = {4, 6, 8};
    for (int i = 0; i < 3; i++) {
        climb_occ_result r = occ(q2_cc[i][0], q2_cc[i][1], 256, 0, 0);
        EXPECT_MSG(r.active_blocks == q2_blocks[i] && r.occupancy == 1.0, "Q2 cc %d.%d: %d blocks, %.2f", q2_cc[i][0],
                   q2_cc[i][1], r.active_blocks, r.occupancy);
    }
    /* Q3: the most shared memory per 256-thread block at 100% -> 4096 / 8192 / 6144 B. */
    const size_t q3[3] = {4096, 8192, 6144};
    for (int i = 0; i < 3; i++) {
        size_t m = max_smem_for(q2_cc[i][0], q2_cc[i][1], 256, q2_blocks[i]);
        EXPECT_MSG(m == q3[i], "Q3 cc %d.%d: %zu B", q2_cc[i][0], q2_cc[i][1], m);
    }
    /* Q4: 1024-thread blocks on CC 3.0 -> 2 blocks, still 100%, and up to 24576 B of shared memory each. */
    climb_occ_result q4 = occ(3, 0, 1024, 0, 0);
    EXPECT(q4.active_blocks == 2 && q4.occupancy == 1.0 && q4.limited_by == CLIMB_OCC_LIMIT_WARPS);
    EXPECT(max_smem_for(3, 0, 1024, 2) == 24576);
    /* ... whereas CC 1.3 cannot launch 1024 threads at all, and CC 2.0 holds one such block (66.7%). */
    EXPECT(occ(1, 3, 1024, 0, 0).refusal == CLIMB_OCC_BLOCK_TOO_LARGE);
    EXPECT(occ(1, 3, 1024, 0, 0).active_blocks == 0);
    climb_occ_result f = occ(2, 0, 1024, 0, 0);
    EXPECT(f.active_blocks == 1 && f.active_warps == 32);
    /* Q5: registers per thread at 100% with 256-thread blocks -> 16 (CC 1.3: 512-register units per block),
     * 20 (CC 2.0: 64-register units per warp), 32 (CC 3.0: 256-register units per warp); and 32 again for
     * Q4's 1024-thread blocks on CC 3.0. */
    EXPECT_MSG(max_regs_for(1, 3, 256, 4) == 16, "Q5 cc 1.3: %d", max_regs_for(1, 3, 256, 4));
    EXPECT_MSG(max_regs_for(2, 0, 256, 6) == 20, "Q5 cc 2.0: %d", max_regs_for(2, 0, 256, 6));
    EXPECT_MSG(max_regs_for(3, 0, 256, 8) == 32, "Q5 cc 3.0: %d", max_regs_for(3, 0, 256, 8));
    EXPECT_MSG(max_regs_for(3, 0, 1024, 2) == 32, "Q5 (Q4) cc 3.0: %d", max_regs_for(3, 0, 1024, 2));
    /* One register more drops each to fewer blocks: 17 on 1.3 -> 3 blocks (4352 -> 4608 per block). */
    EXPECT(occ(1, 3, 256, 17, 0).active_blocks == 3);
    EXPECT(occ(2, 0, 256, 21, 0).active_blocks == 5);
    EXPECT(occ(3, 0, 256, 33, 0).active_blocks == 6); /* 1280 per warp: 12 warps per part, 48 per SM */

    /* Introduction to CUDA 5.0's text: 16x16 blocks of 32 registers on CC 1.3 -> 2 blocks (8192 registers each). */
    climb_occ_result t = occ(1, 3, 256, 32, 0);
    EXPECT(t.active_blocks == 2 && t.regs_per_block == 8192 && t.limited_by == CLIMB_OCC_LIMIT_REGISTERS);
    /* ... and a block using all 16 KB of shared memory on CC 1.x -> 1 block, 25% with 16x16 threads. */
    climb_occ_result s1 = occ(1, 3, 256, 0, 16384);
    EXPECT(s1.active_blocks == 1 && s1.occupancy == 0.25 && s1.limited_by == CLIMB_OCC_LIMIT_SHARED_MEMORY);

    /* Rules one at a time. Warp granularity per register-file part: 40 registers on CC 9.0 is 1280 per
     * warp; 16384/1280 = 12 warps per part, 48 per SM, not 65536/1280 = 51. */
    climb_occ_result h = occ(9, 0, 32, 40, 0);
    EXPECT(h.blocks_by_regs == 48);
    /* The launch check rounds a block's warps up to the granularity: 255 registers x 8 warps = 65280 fit,
     * but 255 x 7 warps counts as 8 warps too; 255 x 9 warps cannot launch. */
    EXPECT(occ(9, 0, 256, 255, 0).active_blocks == 1);
    EXPECT(occ(9, 0, 224, 255, 0).active_blocks == 1);
    EXPECT(occ(9, 0, 288, 255, 0).refusal == CLIMB_OCC_REGS_PER_BLOCK);
    EXPECT(occ(9, 0, 1024, 65, 0).refusal == CLIMB_OCC_REGS_PER_BLOCK);
    EXPECT(occ(9, 0, 1024, 64, 0).active_blocks == 1);
    EXPECT(occ(3, 0, 64, 64, 0).refusal == CLIMB_OCC_REGS_PER_THREAD);
    EXPECT(occ(9, 0, 1025, 0, 0).refusal == CLIMB_OCC_BLOCK_TOO_LARGE);
    /* CC 8.0 on reserves 1 KB per block: 0 B of shared memory still costs 1 KB, and 227 KB fits once. */
    climb_occ_result z = occ(9, 0, 32, 0, 0);
    EXPECT(z.smem_per_block == 1024 && z.blocks_by_smem == 228 && z.active_blocks == 32);
    EXPECT(z.limited_by == CLIMB_OCC_LIMIT_BLOCKS);
    EXPECT(occ(9, 0, 128, 0, 227 * 1024).active_blocks == 1);
    EXPECT(occ(9, 0, 128, 0, 227 * 1024 + 1).refusal == CLIMB_OCC_SMEM_PER_BLOCK);
    EXPECT(occ(9, 0, 128, 0, 100).smem_per_block == 1152); /* 1124 rounded to 128 */
    /* Shared-memory configuration: 32 KB holds three 10 KB blocks (+1 KB reserved each); a 40 KB block on
     * an 8 KB configuration makes the driver take 64 KB. */
    climb_occ_input ci = {9, 0, 64, 0, 10 * 1024, 32 * 1024};
    climb_occ_result cr;
    EXPECT(climb_occupancy(&ci, &cr) == CLIMB_STATUS_SUCCESS && cr.blocks_by_smem == 2 && cr.smem_per_sm == 32 * 1024);
    ci.smem_per_block = 40 * 1024;
    ci.smem_config = 8 * 1024;
    EXPECT(climb_occupancy(&ci, &cr) == CLIMB_STATUS_SUCCESS && cr.smem_per_sm == 64 * 1024 && cr.blocks_by_smem == 1);
    ci.smem_config = 48 * 1024; /* not a CC 9.0 configuration */
    EXPECT(climb_occupancy(&ci, &cr) == CLIMB_STATUS_INVALID_VALUE);
    /* Kepler's 16 KB configuration: 4096-B blocks -> 4. */
    climb_occ_input kc = {3, 5, 64, 0, 4096, 16 * 1024};
    EXPECT(climb_occupancy(&kc, &cr) == CLIMB_STATUS_SUCCESS && cr.blocks_by_smem == 4);

    /* Bad input. */
    climb_occ_input bad = {4, 0, 256, 0, 0, 0};
    EXPECT(climb_occupancy(&bad, &cr) == CLIMB_STATUS_INVALID_VALUE); /* there is no CC 4.0 */
    bad.cc_major = 9;
    bad.threads_per_block = 0;
    EXPECT(climb_occupancy(&bad, &cr) == CLIMB_STATUS_INVALID_VALUE);
    bad.threads_per_block = 32;
    bad.regs_per_thread = -1;
    EXPECT(climb_occupancy(&bad, &cr) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_occupancy(NULL, &cr) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_occupancy(&ci, NULL) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(strlen(climb_occ_refusal_string(CLIMB_OCC_SMEM_PER_BLOCK)) > 10);

    /* The table: 1.0 first, ordered, self-consistent, and every CC the CUDA 13 toolkit can target present. */
    int n = climb_occ_arch_count();
    EXPECT(n >= 30);
    EXPECT(climb_occ_arch_at(0)->cc_major == 1 && climb_occ_arch_at(0)->cc_minor == 0);
    EXPECT(climb_occ_arch_at(n) == NULL && climb_occ_arch_at(-1) == NULL);
    for (int i = 0; i < n; i++) {
        const climb_occ_arch *a = climb_occ_arch_at(i);
        EXPECT(climb_occ_arch_find(a->cc_major, a->cc_minor) == a);
        if (i > 0) {
            const climb_occ_arch *p = climb_occ_arch_at(i - 1);
            EXPECT(a->cc_major * 10 + a->cc_minor > p->cc_major * 10 + p->cc_minor);
        }
        EXPECT(a->max_threads_per_sm == a->max_warps_per_sm * a->threads_per_warp);
        EXPECT(a->n_smem_configs >= 1 && a->n_smem_configs <= 10);
        EXPECT(a->smem_configs[a->n_smem_configs - 1] == a->smem_per_sm);
        for (int c = 1; c < a->n_smem_configs; c++)
            EXPECT(a->smem_configs[c] > a->smem_configs[c - 1]);
        EXPECT(a->smem_per_block_optin >= a->smem_per_block && a->smem_per_block_optin <= a->smem_per_sm);
        EXPECT(a->max_regs_per_block <= a->regs_per_sm);
        EXPECT(a->family && a->note);
        /* A full SM of the largest block is reachable when nothing else limits. */
        climb_occ_result r = occ(a->cc_major, a->cc_minor, a->max_threads_per_block, 0, 0);
        EXPECT(r.active_blocks >= 1);
    }
    const int toolkit[][2] = {{7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 8}, {8, 9}, {9, 0}, {10, 0}, {10, 3}, {11, 0}, {12, 0}, {12, 1}};
    for (size_t i = 0; i < sizeof toolkit / sizeof toolkit[0]; i++)
        EXPECT_MSG(climb_occ_arch_find(toolkit[i][0], toolkit[i][1]) != NULL, "cc %d.%d", toolkit[i][0], toolkit[i][1]);
    const climb_occ_arch *hop = climb_occ_arch_find(9, 0);
    EXPECT(hop->max_warps_per_sm == 64 && hop->max_blocks_per_sm == 32 && hop->smem_per_sm == 233472 &&
           hop->smem_reserved_per_block == 1024 && hop->smem_per_block_optin == 232448);
    /* extreme inputs are answered without overflow (UBSan sees any signed overflow in the CI's
     * sanitizer build), and a block too large to launch still gets its warp count right. */
    {
        climb_occ_input big = {9, 0, INT_MAX, 32, 0, 0};
        climb_occ_result r;
        EXPECT(climb_occupancy(&big, &r) == CLIMB_STATUS_SUCCESS);
        EXPECT_MSG(r.refusal == CLIMB_OCC_BLOCK_TOO_LARGE && r.active_blocks == 0 && r.warps_per_block == 67108864,
                   "refusal %d, %d warps", r.refusal, r.warps_per_block);
        climb_occ_input regs = {9, 0, 1024, INT_MAX, 0, 0};
        EXPECT(climb_occupancy(&regs, &r) == CLIMB_STATUS_SUCCESS && r.refusal == CLIMB_OCC_REGS_PER_THREAD);
        climb_occ_input smem = {9, 0, 1024, 32, (size_t)INT_MAX, 0};
        EXPECT(climb_occupancy(&smem, &r) == CLIMB_STATUS_SUCCESS && r.refusal == CLIMB_OCC_SMEM_PER_BLOCK);
        climb_occ_input g80 = {1, 0, INT_MAX - 5, 124, 0, 0};
        EXPECT(climb_occupancy(&g80, &r) == CLIMB_STATUS_SUCCESS && r.refusal == CLIMB_OCC_BLOCK_TOO_LARGE);
    }
    return test_finish("test_cpu_occupancy");
}
