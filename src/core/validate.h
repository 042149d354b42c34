/* Checking results against a CPU reference: every element, a stated tolerance, the first mismatches
 * described in a message. */
#ifndef CLIMB_CORE_VALIDATE_H
#define CLIMB_CORE_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How many mismatches a message lists before "... and N more". */
#define CLIMB_MAX_LISTED_MISMATCHES 5

/* Exact comparison. Returns the number of mismatching elements (0: all equal) and, if any, a message. */
size_t climb_verify_i32(const int32_t *got, const int32_t *want, size_t n, char *msg, size_t msglen);

/* |got[i] - want[i]| <= tol[i] for every i (tol == NULL: tol_scalar for all). NaN or Inf in got fails
 * unless want is the same non-finite value. Returns the number of mismatches and a message. */
size_t climb_verify_f32(const float *got, const double *want, const double *tol, double tol_scalar, size_t n,
                        char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
