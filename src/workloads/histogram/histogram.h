/* Byte histogram: the parts of src/workloads/histogram/ that the library face and the tests use. */
#ifndef CLIMB_WORKLOADS_HISTOGRAM_H
#define CLIMB_WORKLOADS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "../../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_histogram_workload;

/* The two maps from a byte to its bin. BYTES: bin = byte x bins / 256 (bins 1 to 256: 256 is one bin per byte
 * value). LETTERS, the book's: 'a' to 'z' into 7 bins of 4 letters (a-d, e-h, ..., y-z); other bytes not counted. */
enum { CLIMB_HIST_BYTES = 0, CLIMB_HIST_LETTERS = 1 };
#define CLIMB_HIST_LETTER_BINS 7

/* The bin of byte b, or -1 when it is not counted. */
int climb_hist_bin(unsigned b, int map, unsigned bins);
/* CPU reference: counts[0 .. bins) of x[0 .. n) (bins 7 for LETTERS). */
void climb_hist_ref(const uint8_t *x, size_t n, int map, unsigned bins, uint64_t *counts);

/* The generated inputs (the dist option): uniform random bytes; all equal (one value, drawn); skewed (geometric,
 * P(k) = 0.3 x 0.7^k, so a few values take most bytes); English-like text (words of letters at English
 * frequencies, spaces, punctuation, line breaks); runs, as a photograph's scan lines are (stretches of one value,
 * geometric lengths of mean 16, each value a step of -8 to +8 from the last, held within 0..255). With LETTERS,
 * constant, skewed and runs draw letters. */
enum { CLIMB_HIST_UNIFORM = 0, CLIMB_HIST_CONSTANT = 1, CLIMB_HIST_SKEWED = 2, CLIMB_HIST_TEXT = 3, CLIMB_HIST_RUNS = 4 };
void climb_hist_generate(uint64_t seed, int dist, int map, uint8_t *x, size_t n);

/* The best rung for the library face (src/lib/histogram.c): counts[0 .. bins) = the histogram of in[0 .. n) with
 * map BYTES, on stream s (the counts are zeroed first). Any n below 2^32 and any alignment. sms: the device's. */
cudaError_t climb_hist_best(const uint8_t *in, size_t n, unsigned bins, unsigned *counts, int sms, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
