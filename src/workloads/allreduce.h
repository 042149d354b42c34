/* All-reduce across GPUs: the parts of src/workloads/allreduce.cu that the tests use. */
#ifndef CLIMB_WORKLOADS_ALLREDUCE_H
#define CLIMB_WORKLOADS_ALLREDUCE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../core/workload.h"
#include "common/coll_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_allreduce_workload;

/* The ways the best rung sums: the flag kernel (GPUs meeting inside it, small arrays), one shot (every GPU reads
 * every array), the two shots fused in one kernel (GPUs meeting inside it), two shots (each GPU sums a chunk, then
 * stores it into every other; a step between the GPUs before and between them). */
typedef enum {
    CLIMB_ALLREDUCE_FLAGS,
    CLIMB_ALLREDUCE_ONE_SHOT,
    CLIMB_ALLREDUCE_FUSED,
    CLIMB_ALLREDUCE_TWO_SHOTS
} climb_allreduce_way;

/* The best rung's way, with its built-in crossovers, for arrays of `bytes` (in place or apart). */
climb_allreduce_way climb_allreduce_best_way(size_t bytes, int in_place);

/* The workspace of the kernels whose GPUs meet inside them, on every rank's GPU, all zero before the first call and
 * then kept from call to call: the flag kernel's lines[r] of climb_flag_lines_bytes(P, cap) bytes (arrays up to cap
 * elements go through it; cap 0: none), the fused two shots' meeting points meet[r] of climb_allreduce_meet_bytes(P)
 * (NULL: none), and the state both share, state[r] of CLIMB_FLAG_STATE_BYTES (common/flag_lines.h; it counts the
 * calls). */
typedef struct climb_allreduce_flags {
    void *lines[CLIMB_MAX_DEVICES];
    void *state[CLIMB_MAX_DEVICES];
    void *meet[CLIMB_MAX_DEVICES];
    size_t cap;
} climb_allreduce_flags;

/* The best rung's schedule on x's streams: out[r] = the sum of in[0..P) (n elements of t, CLIMB_I32 or CLIMB_F32,
 * each on rank r's GPU, every pair with peer access on), the same bits on every rank. The flag kernel where
 * climb_allreduce_best_way says so and fl (NULL: none) holds n elements, the fused two shots where it says so and
 * fl has meeting points (a wait of either that gives up traps: a CUDA error), else one shot or two shots. The
 * caller orders it: every stream must have waited for every input to be written (climb_coll_barrier) and must wait
 * for every rank's stream before an input is written again. Leaves another device current. The first error. */
cudaError_t climb_allreduce_sum_async(const climb_coll_exec *x, climb_dtype t, void *const *in, void *const *out,
                                      size_t n, const climb_allreduce_flags *fl);

/* The fused two shots' blocks a GPU (allreduce's two_shot_fused): the same on every rank, as its blocks meet their
 * partners of the same index on the other GPUs, so every block of every GPU must be resident at once: at most four
 * an SM of the GPU with the fewest (min_sms; blocks of 256 threads and little else), at most
 * CLIMB_ALLREDUCE_MEET_BLOCKS, at most one a 1024 elements of the largest chunk of n over P ranks, at least 1. */
#define CLIMB_ALLREDUCE_MEET_BLOCKS 1024
int climb_allreduce_meet_blocks(size_t n, int P, int min_sms);
/* The bytes of a rank's meeting points (climb_allreduce_flags' meet) for P ranks: two phases of P ranks' blocks, a
 * 4-byte flag each (inline: the C API's communicator holds them in builds without this workload). */
static inline size_t climb_allreduce_meet_bytes(int P) { return 2 * (size_t)P * CLIMB_ALLREDUCE_MEET_BLOCKS * 4; }

#ifdef __cplusplus
}
#endif

#endif
