/*
 * climb_occupancy.h - climb's occupancy calculator: pure host code, no GPU and no handle. climb.h includes it; it may
 * be included alone. C11.
 */
#ifndef CLIMB_OCCUPANCY_H
#define CLIMB_OCCUPANCY_H

#include <stddef.h>

#include "climb_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Occupancy calculator: how many blocks of a kernel one SM holds at once, and what limits it, from the
 * compute capability, the block size, the registers per thread and the shared memory per block. It
 * applies each architecture's allocation rules (register allocation unit and whether registers are
 * allocated per block or per warp, warp allocation granularity, shared-memory allocation unit, the
 * shared memory the driver reserves per block from CC 8.0 on). Pure host code: no GPU is needed.
 */

/* The physical limits of one compute capability (what the CUDA occupancy calculator's sheet lists). */
typedef struct climb_occ_arch {
    int cc_major, cc_minor;
    const char *family;            /* "Tesla G80", "Fermi", ..., "Blackwell" */
    int threads_per_warp;
    int max_warps_per_sm;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_threads_per_block;
    int regs_per_sm;               /* 32-bit registers */
    int max_regs_per_block;
    int max_regs_per_thread;
    int reg_alloc_unit;            /* registers are handed out in multiples of this */
    int reg_alloc_per_warp;        /* 1: per warp (CC 2.0 on); 0: per block (CC 1.x) */
    int warp_alloc_granularity;    /* warps are counted in multiples of this for register allocation */
    int smem_per_sm;               /* bytes, the largest shared-memory configuration */
    int smem_alloc_unit;           /* bytes */
    int smem_per_block;            /* bytes a block may use without opting in */
    int smem_per_block_optin;      /* bytes a block may use after opting in (cudaFuncSetAttribute) */
    int smem_reserved_per_block;   /* bytes the driver keeps per block (CC 8.0 on) */
    int n_smem_configs;
    int smem_configs[10];          /* the shared-memory sizes per SM that can be selected, bytes, ascending */
    const char *note;              /* where a figure is less certain than the rest, else "" */
} climb_occ_arch;

/* Every compute capability the calculator knows, from 1.0 up, in order. */
CLIMB_API int climb_occ_arch_count(void);
CLIMB_API const climb_occ_arch *climb_occ_arch_at(int index);
/* NULL when the calculator does not know cc_major.cc_minor. */
CLIMB_API const climb_occ_arch *climb_occ_arch_find(int cc_major, int cc_minor);

typedef struct climb_occ_input {
    int cc_major, cc_minor;
    int threads_per_block;         /* 1 or more */
    int regs_per_thread;           /* 0: do not limit by registers */
    size_t smem_per_block;         /* static + dynamic shared memory of one block, bytes, without the reservation */
    size_t smem_config;            /* shared memory per SM to assume, one of the arch's configs; 0: the largest.
                                      From CC 7.0 on, as the driver does, a block that needs more than the
                                      config gets the smallest config that holds it. */
} climb_occ_input;

/* Bits of climb_occ_result.limited_by: every limit that binds at the result. */
enum {
    CLIMB_OCC_LIMIT_WARPS = 1,          /* max warps (threads) per SM */
    CLIMB_OCC_LIMIT_BLOCKS = 2,         /* max blocks per SM */
    CLIMB_OCC_LIMIT_REGISTERS = 4,
    CLIMB_OCC_LIMIT_SHARED_MEMORY = 8
};

/* Why not one block fits (active_blocks == 0), or CLIMB_OCC_FITS. */
typedef enum climb_occ_refusal {
    CLIMB_OCC_FITS = 0,
    CLIMB_OCC_BLOCK_TOO_LARGE = 1,      /* more threads than a block may have */
    CLIMB_OCC_REGS_PER_THREAD = 2,      /* more registers per thread than the architecture allows */
    CLIMB_OCC_REGS_PER_BLOCK = 3,       /* the block's registers exceed the per-block (or per-SM) limit */
    CLIMB_OCC_SMEM_PER_BLOCK = 4        /* the block's shared memory exceeds the per-block (opt-in) limit */
} climb_occ_refusal;

typedef struct climb_occ_result {
    int active_threads;            /* per SM */
    int active_warps;
    int active_blocks;
    double occupancy;              /* active warps / max warps per SM, 0 to 1 */
    unsigned limited_by;           /* CLIMB_OCC_LIMIT_* bits */
    climb_occ_refusal refusal;
    /* Blocks per SM each limit alone allows; INT_MAX where a resource is not used (0 registers given,
     * or no shared memory on an architecture without a per-block reservation). */
    int blocks_by_warps;
    int blocks_by_block_limit;
    int blocks_by_regs;
    int blocks_by_smem;
    /* What one block is allocated. */
    int warps_per_block;
    int regs_per_block;
    size_t smem_per_block;         /* rounded to the allocation unit, reservation included */
    size_t smem_per_sm;            /* the shared-memory configuration the figures assume */
} climb_occ_result;

/* CLIMB_STATUS_INVALID_VALUE for NULL pointers, an unknown compute capability, threads_per_block < 1,
 * regs_per_thread < 0, or a smem_config that is not one of the architecture's configurations. A launch
 * that cannot fit is not an error: active_blocks is 0 and `refusal` says why. */
CLIMB_API climb_status climb_occupancy(const climb_occ_input *in, climb_occ_result *out);

/* "registers per thread over the architecture's limit", ...; never NULL. */
CLIMB_API const char *climb_occ_refusal_string(climb_occ_refusal r);

#ifdef __cplusplus
}
#endif

#endif
