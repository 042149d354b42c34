/* The occupancy calculator behind climb_occupancy() and `climb occupancy`: a table of the physical limits
 * of every compute capability, and the allocation rules that turn a kernel's block size, registers and
 * shared memory into resident blocks per SM. The rules follow the CUDA occupancy calculator sheet (Harris's and
 * Introduction to CUDA 5.0's) for CC 1.x-6.x and the runtime's own model (cuda_occupancy.h in the toolkit) from 7.0 on;
 * docs/occupancy.md works through them. */
#include "climb_occupancy.h"

#include <limits.h>
#include <stddef.h>

#define KB 1024
/* Shared-memory configurations (carveouts) from CC 7.0 on; a 0-byte carveout is a valid choice. */
#define CFG_VOLTA 6, {0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 96 * KB}
#define CFG_GA100 8, {0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB}
#define CFG_GA10X 6, {0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB}
#define CFG_228K 10, {0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB, 196 * KB, 228 * KB}

/* cc, family, threads/warp, warps/SM, threads/SM, blocks/SM, threads/block, regs/SM, regs/block, regs/thread,
 * reg unit, per warp, warp granularity, smem/SM, smem unit, smem/block, opt-in, reserved, configs, note. */
static const climb_occ_arch ARCHS[] = {
    {1, 0, "Tesla G80", 32, 24, 768, 8, 512, 8192, 8192, 124, 256, 0, 2, 16 * KB, 512, 16 * KB, 16 * KB, 0, 1, {16 * KB}, ""},
    {1, 1, "Tesla G8x/G9x", 32, 24, 768, 8, 512, 8192, 8192, 124, 256, 0, 2, 16 * KB, 512, 16 * KB, 16 * KB, 0, 1, {16 * KB}, ""},
    {1, 2, "Tesla GT21x", 32, 32, 1024, 8, 512, 16384, 16384, 124, 512, 0, 2, 16 * KB, 512, 16 * KB, 16 * KB, 0, 1, {16 * KB}, ""},
    {1, 3, "Tesla GT200", 32, 32, 1024, 8, 512, 16384, 16384, 124, 512, 0, 2, 16 * KB, 512, 16 * KB, 16 * KB, 0, 1, {16 * KB}, ""},
    {2, 0, "Fermi GF100", 32, 48, 1536, 8, 1024, 32768, 32768, 63, 64, 1, 2, 48 * KB, 128, 48 * KB, 48 * KB, 0, 2, {16 * KB, 48 * KB}, ""},
    {2, 1, "Fermi GF10x", 32, 48, 1536, 8, 1024, 32768, 32768, 63, 64, 1, 2, 48 * KB, 128, 48 * KB, 48 * KB, 0, 2, {16 * KB, 48 * KB}, ""},
    {3, 0, "Kepler GK10x", 32, 64, 2048, 16, 1024, 65536, 65536, 63, 256, 1, 4, 48 * KB, 256, 48 * KB, 48 * KB, 0, 3, {16 * KB, 32 * KB, 48 * KB}, ""},
    {3, 2, "Kepler GK20A", 32, 64, 2048, 16, 1024, 65536, 32768, 255, 256, 1, 4, 48 * KB, 256, 48 * KB, 48 * KB, 0, 3, {16 * KB, 32 * KB, 48 * KB}, ""},
    {3, 5, "Kepler GK11x", 32, 64, 2048, 16, 1024, 65536, 65536, 255, 256, 1, 4, 48 * KB, 256, 48 * KB, 48 * KB, 0, 3, {16 * KB, 32 * KB, 48 * KB}, ""},
    {3, 7, "Kepler GK210", 32, 64, 2048, 16, 1024, 131072, 65536, 255, 256, 1, 4, 112 * KB, 256, 48 * KB, 48 * KB, 0, 3, {80 * KB, 96 * KB, 112 * KB}, ""},
    {5, 0, "Maxwell GM10x", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 64 * KB, 256, 48 * KB, 48 * KB, 0, 1, {64 * KB}, ""},
    {5, 2, "Maxwell GM20x", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 96 * KB, 256, 48 * KB, 48 * KB, 0, 1, {96 * KB}, ""},
    {5, 3, "Maxwell GM20B", 32, 64, 2048, 32, 1024, 65536, 32768, 255, 256, 1, 4, 64 * KB, 256, 48 * KB, 48 * KB, 0, 1, {64 * KB}, ""},
    {6, 0, "Pascal GP100", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 2, 64 * KB, 256, 48 * KB, 48 * KB, 0, 1, {64 * KB}, ""},
    {6, 1, "Pascal GP10x", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 96 * KB, 256, 48 * KB, 48 * KB, 0, 1, {96 * KB}, ""},
    {6, 2, "Pascal GP10B", 32, 64, 2048, 32, 1024, 65536, 32768, 255, 256, 1, 4, 64 * KB, 256, 48 * KB, 48 * KB, 0, 1, {64 * KB}, ""},
    {7, 0, "Volta GV100", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 96 * KB, 256, 48 * KB, 96 * KB, 0, CFG_VOLTA, ""},
    {7, 2, "Volta GV10B", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 96 * KB, 256, 48 * KB, 96 * KB, 0, CFG_VOLTA, ""},
    {7, 5, "Turing", 32, 32, 1024, 16, 1024, 65536, 65536, 255, 256, 1, 4, 64 * KB, 256, 48 * KB, 64 * KB, 0, 2, {32 * KB, 64 * KB}, ""},
    {8, 0, "Ampere GA100", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 164 * KB, 128, 48 * KB, 163 * KB, KB, CFG_GA100, ""},
    {8, 6, "Ampere GA10x", 32, 48, 1536, 16, 1024, 65536, 65536, 255, 256, 1, 4, 100 * KB, 128, 48 * KB, 99 * KB, KB, CFG_GA10X, ""},
    {8, 7, "Ampere GA10B", 32, 48, 1536, 16, 1024, 65536, 65536, 255, 256, 1, 4, 164 * KB, 128, 48 * KB, 163 * KB, KB, CFG_GA100, ""},
    {8, 8, "Ampere (sm_88)", 32, 48, 1536, 16, 1024, 65536, 65536, 255, 256, 1, 4, 100 * KB, 128, 48 * KB, 99 * KB, KB, CFG_GA10X,
     "block limit and shared-memory sizes from cuda_occupancy.h (CUDA 13.0); warp limit assumed as CC 8.6"},
    {8, 9, "Ada", 32, 48, 1536, 24, 1024, 65536, 65536, 255, 256, 1, 4, 100 * KB, 128, 48 * KB, 99 * KB, KB, CFG_GA10X, ""},
    {9, 0, "Hopper", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 228 * KB, 128, 48 * KB, 227 * KB, KB, CFG_228K, ""},
    {10, 0, "Blackwell B200", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 228 * KB, 128, 48 * KB, 227 * KB, KB, CFG_228K, ""},
    {10, 3, "Blackwell B300", 32, 64, 2048, 32, 1024, 65536, 65536, 255, 256, 1, 4, 228 * KB, 128, 48 * KB, 227 * KB, KB, CFG_228K, ""},
    {11, 0, "Blackwell Thor", 32, 48, 1536, 24, 1024, 65536, 65536, 255, 256, 1, 4, 228 * KB, 128, 48 * KB, 227 * KB, KB, CFG_228K,
     "CC 10.1 before CUDA 13; warp limit as published for 10.1"},
    {12, 0, "Blackwell GB20x", 32, 48, 1536, 24, 1024, 65536, 65536, 255, 256, 1, 4, 100 * KB, 128, 48 * KB, 99 * KB, KB, CFG_GA10X, ""},
    {12, 1, "Blackwell GB10", 32, 48, 1536, 24, 1024, 65536, 65536, 255, 256, 1, 4, 100 * KB, 128, 48 * KB, 99 * KB, KB, CFG_GA10X, ""},
};
#define N_ARCHS ((int)(sizeof ARCHS / sizeof ARCHS[0]))

int climb_occ_arch_count(void) { return N_ARCHS; }

const climb_occ_arch *climb_occ_arch_at(int i) { return i >= 0 && i < N_ARCHS ? &ARCHS[i] : NULL; }

const climb_occ_arch *climb_occ_arch_find(int major, int minor)
{
    for (int i = 0; i < N_ARCHS; i++)
        if (ARCHS[i].cc_major == major && ARCHS[i].cc_minor == minor)
            return &ARCHS[i];
    return NULL;
}

const char *climb_occ_refusal_string(climb_occ_refusal r)
{
    switch (r) {
    case CLIMB_OCC_FITS: return "fits";
    case CLIMB_OCC_BLOCK_TOO_LARGE: return "more threads per block than the architecture allows";
    case CLIMB_OCC_REGS_PER_THREAD: return "more registers per thread than the architecture allows";
    case CLIMB_OCC_REGS_PER_BLOCK: return "the block needs more registers than one block may have";
    case CLIMB_OCC_SMEM_PER_BLOCK: return "the block needs more shared memory than one block may have (opt-in included)";
    }
    return "unknown";
}

static long round_up(long x, long unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }

/* Registers: per block on CC 1.x (the block's warps, rounded to the warp granularity, times registers per
 * warp, rounded to the unit); per warp from CC 2.0 (registers per warp rounded to the unit). Per warp,
 * the register file is split into `warp_alloc_granularity` parts (the SM's schedulers), so the warps that
 * fit are counted per part. */
static int regs_limit(const climb_occ_arch *a, int regs, int warps, climb_occ_result *r)
{
    if (regs == 0) {
        r->regs_per_block = 0;
        return INT_MAX;
    }
    if (regs > a->max_regs_per_thread) {
        r->refusal = CLIMB_OCC_REGS_PER_THREAD;
        return 0;
    }
    const int g = a->warp_alloc_granularity;
    if (!a->reg_alloc_per_warp) {
        long per_block = round_up(round_up(warps, g) * (long)regs * a->threads_per_warp, a->reg_alloc_unit);
        r->regs_per_block = (int)per_block;
        if (per_block > a->max_regs_per_block) {
            r->refusal = CLIMB_OCC_REGS_PER_BLOCK;
            return 0;
        }
        return (int)(a->regs_per_sm / per_block);
    }
    long per_warp = round_up((long)regs * a->threads_per_warp, a->reg_alloc_unit);
    r->regs_per_block = (int)(per_warp * warps);
    /* The launch check counts the block's warps rounded up to the granularity. */
    if (per_warp * round_up(warps, g) > a->max_regs_per_block) {
        r->refusal = CLIMB_OCC_REGS_PER_BLOCK;
        return 0;
    }
    long warps_fit = (a->regs_per_sm / g / per_warp) * g;
    return (int)(warps_fit / warps);
}

static int smem_limit(const climb_occ_arch *a, size_t smem, size_t config, climb_occ_result *r)
{
    size_t need = smem + (size_t)a->smem_reserved_per_block;
    size_t alloc = (size_t)round_up((long)need, a->smem_alloc_unit);
    r->smem_per_block = alloc;
    r->smem_per_sm = config;
    if (smem > (size_t)a->smem_per_block_optin || alloc > (size_t)a->smem_per_block_optin + a->smem_reserved_per_block) {
        r->refusal = CLIMB_OCC_SMEM_PER_BLOCK;
        return 0;
    }
    if (alloc > config) /* the driver picks the smallest configuration that holds one block */
        for (int i = 0; i < a->n_smem_configs; i++)
            if ((size_t)a->smem_configs[i] >= alloc) {
                config = (size_t)a->smem_configs[i];
                break;
            }
    r->smem_per_sm = config;
    if (alloc == 0)
        return INT_MAX;
    return (int)(config / alloc);
}

static int min_int(int a, int b) { return a < b ? a : b; }

climb_status climb_occupancy(const climb_occ_input *in, climb_occ_result *out)
{
    if (!in || !out)
        return CLIMB_STATUS_INVALID_VALUE;
    const climb_occ_arch *a = climb_occ_arch_find(in->cc_major, in->cc_minor);
    if (!a || in->threads_per_block < 1 || in->regs_per_thread < 0 || in->smem_per_block > (size_t)INT_MAX)
        return CLIMB_STATUS_INVALID_VALUE;
    size_t config = (size_t)a->smem_configs[a->n_smem_configs - 1];
    if (in->smem_config) {
        int ok = 0;
        for (int i = 0; i < a->n_smem_configs; i++)
            ok |= (size_t)a->smem_configs[i] == in->smem_config;
        if (!ok)
            return CLIMB_STATUS_INVALID_VALUE;
        config = in->smem_config;
    }
    climb_occ_result r = {0};
    r.smem_per_sm = config;
    /* In 64 bits: a block of INT_MAX threads is a question the calculator answers, not an overflow. */
    const long long warps64 = ((long long)in->threads_per_block + a->threads_per_warp - 1) / a->threads_per_warp;
    if (in->threads_per_block > a->max_threads_per_block) {
        r.refusal = CLIMB_OCC_BLOCK_TOO_LARGE;
        r.warps_per_block = (int)warps64;
        *out = r;
        return CLIMB_STATUS_SUCCESS;
    }
    const int warps = (int)warps64;
    r.warps_per_block = warps;
    r.blocks_by_warps = a->max_warps_per_sm / warps;
    r.blocks_by_block_limit = a->max_blocks_per_sm;
    r.blocks_by_regs = regs_limit(a, in->regs_per_thread, warps, &r);
    r.blocks_by_smem = smem_limit(a, in->smem_per_block, config, &r);
    if (r.refusal == CLIMB_OCC_FITS) {
        int b = min_int(min_int(r.blocks_by_warps, r.blocks_by_block_limit), min_int(r.blocks_by_regs, r.blocks_by_smem));
        r.active_blocks = b;
        r.active_warps = b * warps;
        r.active_threads = b * in->threads_per_block;
        r.occupancy = (double)r.active_warps / a->max_warps_per_sm;
        r.limited_by = (r.blocks_by_warps == b ? CLIMB_OCC_LIMIT_WARPS : 0u) |
                       (r.blocks_by_block_limit == b ? CLIMB_OCC_LIMIT_BLOCKS : 0u) |
                       (r.blocks_by_regs == b ? CLIMB_OCC_LIMIT_REGISTERS : 0u) |
                       (r.blocks_by_smem == b ? CLIMB_OCC_LIMIT_SHARED_MEMORY : 0u);
    } else {
        r.limited_by = r.refusal == CLIMB_OCC_SMEM_PER_BLOCK ? CLIMB_OCC_LIMIT_SHARED_MEMORY : CLIMB_OCC_LIMIT_REGISTERS;
    }
    *out = r;
    return CLIMB_STATUS_SUCCESS;
}
