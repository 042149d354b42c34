/* The test workload, `affine`: y = alpha x + beta over a rows x cols matrix. Compiled into the tests only (never
 * into libclimb or the climb command); tests register it with climb_register_workload. It exists to exercise
 * what the contract carries and reduce does not use: two dims, the u8/u32/f64 types, options of every kind (a
 * sweep by default), a text input file, a rung that changes its operand (reset, no batch), a costly reference
 * (the vendor's output plus CPU spot checks), an extra ceiling (SFU), a tuned rung with seven parameters from an
 * explicit candidate list and case-dependent defaults, several kernels per rung, two vendor rungs (one only with
 * cuDNN), and a dynamic-parallelism rung built as relocatable device code. See docs/architecture.md. */
#ifndef CLIMB_TESTS_AFFINE_H
#define CLIMB_TESTS_AFFINE_H

#include "core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_affine_workload;

/* Above this many elements a case's reference is the vendor's output with CPU spot checks. */
#define AFFINE_REF_LIMIT ((double)(1 << 21))
/* affine_host_blocks's first prepare of a case sleeps this long: a one-time cost the harness's set-up figure must
 * leave out (it times a second prepare). */
#define AFFINE_FIRST_PREPARE_MS 100

#ifdef __cplusplus
}
#endif

#endif
