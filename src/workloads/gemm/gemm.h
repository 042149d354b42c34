/* GEMM on the tensor cores: the parts of src/workloads/gemm/ that the tests and the C API use (bounds.c: the
 * roundings the tensor cores' input formats make, the inputs, and each precision's error bound). */
#ifndef CLIMB_WORKLOADS_GEMM_H
#define CLIMB_WORKLOADS_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include "../../base/rng.h"
#include "../../core/workload.h"

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

extern const climb_workload climb_gemm_workload;

/* The precision families, as the workload's `precision` option names them. */
typedef enum climb_gemm_precision {
    CLIMB_GEMM_PREC_BF16 = 0,   /* BF16 inputs, FP32 accumulation */
    CLIMB_GEMM_PREC_TF32 = 1,   /* FP32 inputs rounded to TF32, FP32 accumulation */
    CLIMB_GEMM_PREC_3XTF32 = 2  /* FP32 inputs as two TF32 terms each, three products, FP32 accumulation */
} climb_gemm_precision;

/* x rounded to BF16 (8 bits of significand), to nearest even, as its 16 bits; a NaN stays a NaN. */
uint16_t climb_bf16_bits(float x);
/* The FP32 value of BF16 bits (exact). */
float climb_bf16_float(uint16_t b);
/* x rounded to TF32 (11 bits of significand), to nearest with ties away from zero (PTX's cvt.rna.tf32.f32): an
 * FP32 whose low 13 bits are zero; infinities and NaNs as they are. */
float climb_tf32_round(float x);

/* n inputs into x: uniform in [-1, 1] with all 24 bits of the significand random ("uniform"), or that times 2^e with e a uniform integer in [-12, 12]
 * ("spread": 25 binades, so that small terms meet large ones). For BF16, each rounded to BF16, its bits into b16
 * (else b16 may be NULL). */
void climb_gemm_fill(climb_rng *r, climb_gemm_precision p, int spread, float *x, uint16_t *b16, size_t n);

/* The bound on |computed - exact| of one element of C = alpha A B + beta C0 as a multiple of
 * mag = |alpha| sum_p |a b| + |beta c0|, for a sum of k products in precision p (docs/gemm.md derives each): the
 * inputs' rounding to the multiplier's format, the products dropped (3xTF32's small times small), and FP32 adds
 * that may truncate (2^-23 each) with the tensor core's alignment of a group of products costing as much again. */
double climb_gemm_bound(climb_gemm_precision p, size_t k);

/* The wgmma kernels (sm_90a), by the rung that introduces each: cp.async loads; TMA loads; TMA with warp
 * specialisation (a block a tile); the same kernel persistent (a block an SM, looping over tiles); persistent in
 * clusters of two blocks sharing B's tile by TMA multicast (BF16 and TF32); persistent with TF32's B^T made inside
 * the kernel by CLIMB_GEMM_TRB_BLOCKS of its blocks while the others multiply (where B is k x n with 16-byte rows
 * on 16-byte boundaries; else, and for BF16 and 3xTF32, it runs as CLIMB_GEMM_WG_PERSISTENT). */
enum {
    CLIMB_GEMM_WG_CPASYNC = 1,
    CLIMB_GEMM_WG_TMA = 2,
    CLIMB_GEMM_WG_WS = 3,
    CLIMB_GEMM_WG_PERSISTENT = 4,
    CLIMB_GEMM_WG_CLUSTERS = 5,
    CLIMB_GEMM_WG_OVERLAP = 6
};
#define CLIMB_GEMM_TRB_BLOCKS 4
/* The overlapping kernel's order for an m x n C on a GPU of `sms` SMs: the multiplying blocks (sms -
 * CLIMB_GEMM_TRB_BLOCKS at the most, no more than the 128 x 256 tiles) go down groups of *group tile rows (a
 * quarter of their number, at most the tile rows), so that a wave spans *band tile columns; the transposing blocks
 * make B^T's panels band after band of as many columns. */
void climb_gemm_trb_order(size_t m, size_t n, int sms, int *group, int *band);
/* Panel p of that order, of tn tile columns by kt stages, bands of `band` columns: its tile column *c and stage
 * *kb (a band's stages in turn, each across the band's columns). */
void climb_gemm_trb_panel(int p, int tn, int kt, int band, int *c, int *kb);
/* The transposing blocks' path on the host, panel by panel through a ring stage as the kernel lays it out (its
 * zero fill, its swizzle, its stores): bt (n rows of ldbt >= k rounded up to 4) = B^T rounded to TF32, for B k x n
 * (rows ldb apart, a multiple of 4); *conflicts counts the warps' shared-memory reads that would not fall on 32
 * banks. 0, or -1 out of memory. */
int climb_gemm_trb_emulate(const float *b, size_t ldb, int k, int n, float *bt, size_t ldbt, int *conflicts);

/* The best path's tunable parameters, in the order of climb_gemm_workload.tuning->params (`climb tune gemm`; the
 * wisdom keeps them per precision and per shape class: "few" where the 128 x 256 tiles are fewer than half the SMs,
 * else "many"). kernel: the wgmma kernel an sm_90 GPU runs, CLIMB_GEMM_WG_TMA (128 x 128 tiles, a tile a block),
 * CLIMB_GEMM_WG_WS (128 x 256 tiles, a tile a block), CLIMB_GEMM_WG_PERSISTENT (128 x 256 tiles, a block an SM) or
 * CLIMB_GEMM_WG_OVERLAP (the same with TF32's B^T made inside it; its blocks' order its own, not group's);
 * 3xTF32 has 128 x 128 tiles in both of its kernels and no tma one (TMA then means WS). group: the tile rows a
 * group of the blocks' order spans (1 to 16). */
typedef struct climb_gemm_tuning {
    int kernel;
    int group;
} climb_gemm_tuning;
void climb_gemm_set_tuning(climb_gemm_tuning *t, const int *values);
/* The built-in values for an m x n C in `precision` on a GPU of `sms` SMs: the kernel climb_gemm_wg_pick's rule
 * chooses (below), group 8. */
void climb_gemm_default_tuning(int precision, size_t m, size_t n, int sms, climb_gemm_tuning *t);

/* The workspace bytes climb_gemm_wg_async needs for the kernel `kind`: B^T (n rows of k rounded up to 16 bytes)
 * unless the kernel reads B where it is (where B's rows are 16-byte chunks on 16-byte boundaries: BF16 given as B^T
 * (tb) or as stored on the TMA kernels), and a copy of A where its rows are not 16-byte chunks on 16-byte boundaries
 * or A is TF32 on the cp.async and tma kernels (rounded to TF32: wgmma would truncate FP32's low bits; the
 * warp-specialised kernels round it in registers); for 3xTF32 B^T always, twice (its big and small parts), and
 * A's copy as for BF16, and the sums and counts of its split of k (climb_gemm_w3_ksplit, on `sms` SMs); 256 bytes
 * of alignment slack each. 0 where a product wraps. */
size_t climb_gemm_wg_workspace(int precision, int kind, size_t m, size_t n, size_t k, const void *a, size_t lda,
                               const void *b, size_t ldb, int tb, int sms);
/* 3xTF32's kernel splits each tile's k into this many slices (1 to CLIMB_GEMM_W3_MAX_SPLIT) on a GPU of sms SMs,
 * where its 128 x 128 tiles fill at most half the SMs (the slices add no wave); the slices' sums (64 KiB a tile's
 * slice) go into the workspace. */
#define CLIMB_GEMM_W3_MAX_SPLIT 4
int climb_gemm_w3_ksplit(size_t m, size_t n, size_t k, int sms);
/* C = alpha A B + beta C (row-major, A m x k, B k x n, or with tb B given as B^T, n x k, rows ldb apart; in the
 * precision's input format: BF16 bits or FP32) by the wgmma kernel `kind` on a GPU of `sms` SMs, its blocks'
 * order in groups of `group` tile rows (1 to 16): the operands made ready in ws (ws_bytes >=
 * climb_gemm_wg_workspace), then the kernel, on stream s. Any alignment, any sizes below 2^31.
 * cudaErrorInvalidValue for 3xTF32 but with kind WS or PERSISTENT, a size past 2^31 - 1, a group out of range, too
 * small a workspace; else the launches' error. The caller checks the GPU is sm_90. */
cudaError_t climb_gemm_wg_async(int precision, int kind, size_t m, size_t n, size_t k, float alpha, const void *a,
                                size_t lda, const void *b, size_t ldb, int tb, float beta, float *c, size_t ldc,
                                void *ws, size_t ws_bytes, int sms, int group, cudaStream_t s);

/* The wgmma kernel the best path takes for an m x n C in `precision` on a GPU of `sms` SMs: tn's kernel where tn
 * is given (3xTF32's TMA as WS), else the rule that follows. BF16 and TF32: the
 * persistent kernel's 128 x 256 tiles, unless they are fewer than half the SMs; then the tma rung's 128 x 128 tiles,
 * twice as many (on an H200, 1024^3 BF16: 18.8 us against 27.9; where the big tiles fill more than half the SMs, as
 * at 1000 x 3000 x 500, they won). 3xTF32: the warp-specialised kernel at every shape, the one 3xTF32 kernel of the
 * three with 128 x 256 tiles that beat the persistent one (on an H100 at 0084b89: 9.41 ms against 9.62 at 8192^3,
 * 73.9 us against 78.0 at 1000 x 3000 x 500, level elsewhere) and 1.9x to 2.4x the pipelined kernel at every shape
 * measured, 1024^3 included. */
int climb_gemm_wg_pick(int precision, size_t m, size_t n, int sms, const climb_gemm_tuning *tn);

/* The best path, the C API's (src/lib/gemm.c) and the gemm_best rung's, on the current device: a wgmma kernel
 * (climb_gemm_wg_pick) on an sm_90 GPU; else the pipelined kernel where A and B are 16-byte aligned with leading
 * dimensions whole 16-byte chunks (climb_gemm_tc_aligned); else mma_sync, which takes any. B is k x n, or with tb
 * B^T (n x k): the wgmma kernels read BF16's B^T where it is, and make it for TF32 and 3xTF32 as they make B's
 * transpose; elsewhere it is transposed back into the workspace first. climb_gemm_tc_workspace gives the bytes of
 * workspace the path needs (0 off Hopper unless tb): cudaSuccess, cudaErrorInvalidValue where the size wraps, or
 * the error of a device that cannot be asked. climb_gemm_tc_async runs it: k = 0 gives C = beta C (A and B not
 * read); cudaErrorInvalidValue past 2^31 - 1 in a size or in the 128 x 128 tiles, or for too small a workspace;
 * else the launches' error. tn: the tuned values (NULL: the built-in ones); both calls must be given the same. */
int climb_gemm_tc_aligned(int precision, const void *a, size_t lda, const void *b, size_t ldb);
cudaError_t climb_gemm_tc_workspace(int precision, size_t m, size_t n, size_t k, const void *a, size_t lda,
                                    const void *b, size_t ldb, int tb, const climb_gemm_tuning *tn, size_t *bytes);
cudaError_t climb_gemm_tc_async(int precision, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                                const void *b, size_t ldb, int tb, float beta, float *c, size_t ldc, void *ws,
                                size_t ws_bytes, const climb_gemm_tuning *tn, cudaStream_t s);
/* dst (cols x rows, rows ldd apart) = the transpose of src (rows x cols, rows ld apart), esize 2 or 4 bytes an
 * element. */
cudaError_t climb_gemm_pack_async(size_t esize, size_t rows, size_t cols, const void *src, size_t ld, void *dst,
                                  size_t ldd, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
