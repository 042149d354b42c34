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

/* ---- the one element-by-element comparer: every check of a workload's outputs (and the C API tests') ----
 *
 *     climb_compare k;
 *     climb_compare_begin(&k, msg, msglen);
 *     for (...) climb_compare_close(&k, got, want, tol, "C[%zu][%zu]", i, j);   // or _exact, _check
 *     return climb_compare_end(&k);                                            // 1 when any was wrong
 *
 * Each check counts one element; a mismatch is described in msg with its label (formatted only then), the first
 * CLIMB_MAX_LISTED_MISMATCHES of them, and climb_compare_end adds "; and N more" and "(N of M wrong)". A sampled
 * check is the same loop over the samples: M counts what was checked. */
typedef struct climb_compare {
    char *msg;
    size_t len, used;
    size_t checked, bad;
} climb_compare;

void climb_compare_begin(climb_compare *k, char *msg, size_t len);
/* 1 when |got - want| <= tol (a non-finite want: got the same non-finite value); else 0, and the mismatch is told
 * as "LABEL = got, expected want (tolerance tol)". */
int climb_compare_close(climb_compare *k, double got, double want, double tol, const char *label, ...)
    __attribute__((format(printf, 5, 6)));
/* 1 when got == want; else 0, told as "LABEL = got, expected want". */
int climb_compare_exact(climb_compare *k, long long got, long long want, const char *label, ...)
    __attribute__((format(printf, 4, 5)));
/* An element checked by the caller's own rule: counted; when ok is 0 a mismatch, told as WHAT ("the padding C[1][7]
 * was written", "V(1, 2, 3) = 0.5, expected 0"). Returns ok. */
int climb_compare_check(climb_compare *k, int ok, const char *what, ...) __attribute__((format(printf, 3, 4)));
/* Ends the comparison: 1 when any element was wrong (msg says which), else 0. */
int climb_compare_end(climb_compare *k);

#ifdef __cplusplus
}
#endif

#endif
