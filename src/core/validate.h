/* Checking results against a CPU reference: every element, a stated tolerance, the first mismatches
 * described in a message. */
#ifndef CLIMB_CORE_VALIDATE_H
#define CLIMB_CORE_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many mismatches a message lists before "... and N more". */
#define CLIMB_MAX_LISTED_MISMATCHES 5

/* Exact comparison of n elements of type t (an integer type; floats compare bit for bit). Returns the number
 * of mismatching elements (0: all equal) and, if any, a message naming the first few. */
size_t climb_verify_exact(climb_dtype t, const void *got, const void *want, size_t n, char *msg, size_t msglen);

/* got holds n elements of float type t; |got[i] - want[i]| <= tol[i] for every i (tol == NULL: tol_scalar for
 * all). NaN or Inf in got fails unless want is the same non-finite value. Returns the number of mismatches and
 * a message. */
size_t climb_verify_close(climb_dtype t, const void *got, const double *want, const double *tol, double tol_scalar,
                          size_t n, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
