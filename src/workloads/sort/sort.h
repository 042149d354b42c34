/* Merge sort of u32 keys and u32 key-value pairs (stable): the parts of src/workloads/sort/ that the library
 * face and the tests use. */
#ifndef CLIMB_WORKLOADS_SORT_H
#define CLIMB_WORKLOADS_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_sort_workload;

/* The largest n a rung takes: indices are 32-bit ints in the kernels. */
#define CLIMB_SORT_MAX_N 2147483647u

/* The co-rank (Siebert and Träff; Kirk and Hwu, PMPP chapter 11): of the first k elements of the stable merge of
 * sorted a[0 .. m) and b[0 .. n) (an element of a first on a tie), how many come from a. 0 <= k <= m + n. */
int climb_sort_co_rank(int k, const uint32_t *a, int m, const uint32_t *b, int n);

/* CPU reference: keys[0 .. n) sorted stably (an LSD radix sort, 11 bits a pass), vals (NULL: keys only) carried
 * along. tmp holds 2 n words. */
void climb_sort_ref(uint32_t *keys, uint32_t *vals, size_t n, uint32_t *tmp);

/* The generated key distributions (the dist option). UNIFORM: every 32-bit value alike. SORTED: nondecreasing (n
 * strata of 2^32 / n values, one key drawn in each). REVERSE: SORTED backwards. FEW: 16 distinct values drawn
 * once, each key one of them (long runs of ties: stability is tested). NEARLY: SORTED with n / 100 random pairs of
 * positions swapped. NARROW: uniform below 2^16, the upper 16 bits zero (small ids and counts; a radix sort's upper
 * digits are the same in every key). Values (pairs) are uniform. */
enum {
    CLIMB_SORT_UNIFORM = 0,
    CLIMB_SORT_SORTED = 1,
    CLIMB_SORT_REVERSE = 2,
    CLIMB_SORT_FEW = 3,
    CLIMB_SORT_NEARLY = 4,
    CLIMB_SORT_NARROW = 5
};
void climb_sort_generate(uint64_t seed, int dist, uint32_t *keys, uint32_t *vals, size_t n);

/* Every key type (u32, i32, f32, u64; anything else is taken as u32). A key's code: an unsigned integer of the key's
 * width whose order is the keys' order, and the order every rung sorts by: u32 and u64 the key; i32 its bits with
 * the sign bit flipped; f32 its bits with the sign bit flipped when it is clear, every bit flipped when it is set
 * (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN, CUB's radix order). */
uint64_t climb_sort_code(climb_dtype t, const void *keys, size_t i);
/* n keys of type t by the distribution, as codes: u32 is climb_sort_generate's; i32 and f32 take its values as their
 * codes (narrow: codes of the upper half of the code of 0, so i32 keys 0 .. 65535 and f32 +0 and the smallest
 * subnormals; uniform f32 keys include infinities and NaNs); u64 the same rules over 2^64. vals (NULL: none)
 * uniform. */
void climb_sort_generate_typed(uint64_t seed, int dist, climb_dtype t, void *keys, uint32_t *vals, size_t n);
/* The reference for every key type: keys (and vals, NULL for none) sorted stably by their codes. 0, or -1 when the
 * host's memory is short (it allocates its scratch). */
int climb_sort_ref_typed(climb_dtype t, void *keys, uint32_t *vals, size_t n);

/* The Onesweep rung's plan of its 8-bit passes (4 for 32-bit keys, 8 for 64-bit ones; for the tests): trivial[p] != 0
 * where pass p's digit is the same in every key (skipped); in_place: the input is the output. src[p] and dst[p]: the
 * buffers pass p reads and writes (CLIMB_SORT_BUF_IN, _OUT, _TMP; -1 when skipped); *result: where the keys are after
 * the passes (copied to out when that is not out). Returns the passes skipped, or -1 for more than 8 passes. */
enum { CLIMB_SORT_BUF_IN = 0, CLIMB_SORT_BUF_OUT = 1, CLIMB_SORT_BUF_TMP = 2 };
int climb_sort_radix_plan(int passes, const int *trivial, int in_place, int *src, int *dst, int *result);

/* One step of the Onesweep rung's look-back (for the tests): words[0 .. 4) the published words of the four tiles
 * before, nearest first (a 2-bit flag, 1 aggregate or 2 inclusive, 0 not yet published; a 30-bit count). Adds the
 * counts in order to *before up to and with the first inclusive word (*found = 1), stopping before the first word not
 * yet published; returns the words used. */
int climb_sort_lookback_step(const unsigned *words, unsigned *before, int *found);

/* The best rung's tunable parameters, in the order of climb_sort_workload.tuning->params. */
enum { CLIMB_SORT_MERGE = 0, CLIMB_SORT_ONESWEEP = 1, CLIMB_SORT_MATCH_RANK = 2 }; /* the tuned rung's algorithms */
typedef struct climb_sort_tuning {
    int block;   /* the merge path: threads per block */
    int items;   /* keys per thread: a tile of block x items is sorted in a block, and merged a block at a time */
    int algo;    /* CLIMB_SORT_MERGE (block and items above), CLIMB_SORT_ONESWEEP (from 2^30 keys the match-ranked
                    radix sort, which has no 30-bit limit) or CLIMB_SORT_MATCH_RANK */
} climb_sort_tuning;

void climb_sort_set_tuning(climb_sort_tuning *t, const int *values);

/* The best rung (`tuned`) for the library face (src/lib/sort.c): u32 keys (and vals, NULL for keys only) of in sorted
 * stably into out on s by the tuning's algorithm; out == in allowed (in place), other overlaps not. Any n up to
 * CLIMB_SORT_MAX_N. The workspace holds climb_sort_best_workspace bytes for n (a second copy of the keys and values,
 * and the merge's partitions or the radix sort's counts). cc_major: the device's (from 9 the merge passes are
 * programmatic dependent launches). */
size_t climb_sort_best_workspace(const climb_sort_tuning *t, size_t n, int pairs);
cudaError_t climb_sort_best(const climb_sort_tuning *t, const uint32_t *in_keys, const uint32_t *in_vals,
                            uint32_t *out_keys, uint32_t *out_vals, size_t n, void *ws, size_t ws_bytes,
                            int cc_major, cudaStream_t s);

/* The radix path for the library face's other key types (src/lib/sort.c): keys of type t (u32, i32, f32, u64; their
 * codes' order, climb_sort_code) and vals (NULL: keys alone) of in sorted stably into out on s; out == in allowed (in
 * place), other overlaps not. Any n up to CLIMB_SORT_MAX_N: Onesweep below 2^30 keys, the match-ranked three-kernel
 * radix sort from there. The workspace holds climb_sort_radix_workspace bytes (a second copy of the keys and values,
 * the rung's counts and look-back words); it need not be zeroed. */
size_t climb_sort_radix_workspace(climb_dtype t, size_t n, int pairs);
cudaError_t climb_sort_radix(climb_dtype t, const void *in_keys, const uint32_t *in_vals, void *out_keys,
                             uint32_t *out_vals, size_t n, void *ws, size_t ws_bytes, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
