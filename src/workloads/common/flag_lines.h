/* The arithmetic of a one-shot all-reduce whose GPUs meet inside the kernel (allreduce's one_shot_flags): each GPU
 * stores its elements into every other GPU's workspace as 8-byte lines, the call's flag in the high half and the
 * element's bits in the low, and waits for the lines of its partners in its own workspace. The kernel and the CPU
 * model of the protocol in test_cpu_allreduce both use these (C and CUDA alike).
 *
 * The flag of a call is the last call's plus one (0 is the cleared workspace's, never a flag); two sets of
 * lines alternate by the flag's parity, so a GPU one call ahead of a partner writes the set the partner is not
 * reading; it cannot be two calls ahead, since the call between needs that partner's lines. That holds only for
 * calls of one element or more: a call of none waits for nobody, so one is never launched (a GPU could then run
 * two calls ahead and overwrite lines its partner still reads, as the CPU model found). */
#ifndef CLIMB_WORKLOADS_COMMON_FLAG_LINES_H
#define CLIMB_WORKLOADS_COMMON_FLAG_LINES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CLIMB_FLAG_HD __host__ __device__ __forceinline__
#else
#define CLIMB_FLAG_HD static inline
#endif

/* The flag of the call after the one whose flag was `epoch` (0 before the first call): never 0, and of the other
 * parity (past 2^32 - 1 comes 2). */
CLIMB_FLAG_HD uint32_t climb_flag_of(uint32_t epoch) { return epoch + 1 == 0 ? 2u : epoch + 1; }

/* Where, in a workspace of 2 x P x cap lines, rank `from`'s element i of a call with `flag` lands. */
CLIMB_FLAG_HD size_t climb_flag_slot(uint32_t flag, int P, int from, size_t cap, size_t i)
{
    return ((size_t)(flag & 1u) * (size_t)P + (size_t)from) * cap + i;
}

CLIMB_FLAG_HD uint64_t climb_flag_line(uint32_t flag, uint32_t bits) { return ((uint64_t)flag << 32) | bits; }
CLIMB_FLAG_HD uint32_t climb_flag_line_flag(uint64_t line) { return (uint32_t)(line >> 32); }
CLIMB_FLAG_HD uint32_t climb_flag_line_bits(uint64_t line) { return (uint32_t)line; }

/* The all-reduce's best rung takes the flags for arrays below this many bytes, built in (`climb tune allreduce`
 * measures it); the C API's communicator holds a workspace for exactly those, so the value lives here, where the
 * workload and the communicator both read it. The flags take arrays up to CLIMB_FLAG_MAX_BYTES in any case. */
#define CLIMB_FLAGS_BELOW ((size_t)1 << 20)
#define CLIMB_FLAG_MAX_BYTES ((size_t)1 << 20)

/* A GPU's state: the last call's flag, the blocks done with the call, whether a wait gave up (4 words). */
#define CLIMB_FLAG_STATE_BYTES 16

/* The bytes of a GPU's lines for P GPUs and arrays up to cap elements (at least one): two sets of P arrays. */
CLIMB_FLAG_HD size_t climb_flag_lines_bytes(int P, size_t cap) { return 2 * (size_t)P * (cap ? cap : 1) * 8; }

/* The most elements of es bytes that the built-in crossover sends to the flags. */
CLIMB_FLAG_HD size_t climb_flag_cap(size_t es)
{
    const size_t below = CLIMB_FLAGS_BELOW < CLIMB_FLAG_MAX_BYTES + 1 ? CLIMB_FLAGS_BELOW : CLIMB_FLAG_MAX_BYTES + 1;
    return below ? (below - 1) / es : 0;
}

#endif
