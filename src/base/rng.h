/* Seeded random numbers for inputs: xoshiro256** seeded by splitmix64. The same seed gives the same
 * inputs on every machine, so a failure can be reproduced with --seed. */
#ifndef CLIMB_BASE_RNG_H
#define CLIMB_BASE_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct climb_rng { uint64_t s[4]; } climb_rng;

void climb_rng_seed(climb_rng *r, uint64_t seed);
uint64_t climb_rng_next(climb_rng *r);
/* Uniform in [lo, hi] (inclusive). Requires lo <= hi. */
int32_t climb_rng_int(climb_rng *r, int32_t lo, int32_t hi);
/* Uniform in [lo, hi) with 24 random mantissa bits. */
float climb_rng_float(climb_rng *r, float lo, float hi);
void climb_rng_fill_i32(climb_rng *r, int32_t *x, size_t n, int32_t lo, int32_t hi);
void climb_rng_fill_f32(climb_rng *r, float *x, size_t n, float lo, float hi);
/* Uniform in [lo, hi] (inclusive), any span. Requires lo <= hi. */
int64_t climb_rng_range(climb_rng *r, int64_t lo, int64_t hi);
/* Uniform in [lo, hi) with 53 random mantissa bits. */
double climb_rng_double(climb_rng *r, double lo, double hi);
/* n elements of type t: integer types uniform in [lo, hi] (clamped to the type's range), float types uniform
 * in [lo, hi). */
void climb_rng_fill(climb_rng *r, climb_dtype t, void *x, size_t n, double lo, double hi);
/* The widest honest range for a sum check: an integer type's whole range, [-1, 1) for floats. */
void climb_dtype_full_range(climb_dtype t, double *lo, double *hi);
/* The elements a SAMPLES reference checks, for an output of n elements: all of them in order when n <= max, else
 * max indices drawn uniformly (repeats possible). A malloc'd array (free it) with its length in *count; NULL when
 * out of host memory (said on stderr). */
size_t *climb_rng_samples(climb_rng *r, size_t n, size_t max, size_t *count);
/* A seed from the clock and the process, for runs where the user gave none (it is printed). */
uint64_t climb_fresh_seed(void);

#ifdef __cplusplus
}
#endif

#endif
