/*
 * climb.h - the C face of climb: the best rung of each workload behind a cuBLAS-style handle.
 *
 * Every call is asynchronous on the handle's stream, takes device pointers, and returns a climb_status.
 * The library never prints and never exits. A handle owns the workspace its calls need, so there is no
 * two-phase temporary-storage query; use one handle per stream that runs calls concurrently.
 *
 * CUDA graphs (docs/graphs.md). Every call that launches work on the handle's stream can be captured into a CUDA
 * graph (cudaStreamBeginCapture on that stream, any capture mode), a handle's first call included: no call
 * waits for the stream, allocates on it, or touches the legacy stream. Where a call needs more workspace than
 * the handle holds, it allocates it at once with cudaMalloc, outside the graph (this thread's capture mode is
 * switched to relaxed for that allocation alone, so no capture is invalidated), and zeroes it on a stream of the
 * handle's own before returning. A graph captured from a handle uses that handle's workspace: keep the handle
 * alive while the graph may be launched, and order the graph's launches with the handle's other calls as you
 * would order the calls themselves (one stream, or events). An outgrown workspace is kept until climb_destroy,
 * so a graph captured earlier stays valid when a later call needs a larger one (each growth at least doubles, so
 * the kept ones add up to less than the current one). Not capturable, and refused with
 * CLIMB_STATUS_CAPTURE_UNSUPPORTED while the handle's stream is capturing: climb_spmv_plan_create (it reads its
 * analysis back), climb_quadtree_build (it reads each level's size back), climb_bfs_csr with CLIMB_BFS_VALIDATE (it
 * reads the graph check's verdict back), climb_bfs_plan_create (it waits for the in-edges it builds),
 * climb_conv_plan_create (it waits for the filters' transform) and climb_destroy (it waits for the stream).
 * climb_create, climb_load_wisdom, climb_spmv_plan_destroy, climb_bfs_plan_destroy and climb_conv_plan_destroy
 * launch nothing and may be called during a capture.
 *
 * Errors. A call starts by clearing the runtime's last-error state (cudaGetLastError), so an error an earlier,
 * unrelated CUDA call left there never fails a climb call (and is not reported afterwards either: check your own
 * launches before calling climb), and returns with that state clear: a failed call leaves no error for the
 * caller's next CUDA call. climb_last_cuda_error(handle) says which CUDA error the failed call met. The one
 * exception is the runtime's own: after a kernel faults (an illegal address, say) the context is broken and every
 * later CUDA call in the process fails, climb's included.
 *
 * Arguments. Every call checks its arguments before it does anything on the GPU, in this order, and refuses a bad one
 * with CLIMB_STATUS_INVALID_VALUE having written nothing and made no allocation, launch or other CUDA call but the one
 * named in step 4:
 *  1. the handle (NULL), then every scalar argument: sizes against the limits the call states (each limit is exact:
 *     the value stated passes, the next is refused), options, flags and descriptors; every product of sizes is
 *     checked, and one that would wrap (size_t, or a 32-bit count the call names) is refused;
 *  2. an empty problem (a size 0 where the call says it does nothing) returns CLIMB_STATUS_SUCCESS here: its
 *     pointers are not looked at and may be NULL;
 *  3. each array's extent from its pointer and sizes (its byte count and its end must not wrap the address space)
 *     and the overlaps the call forbids (an output over an input or over another output);
 *  4. each pointer: memory the handle's device can reach (device, managed, or mapped host memory), aligned as the
 *     call states. This asks the runtime (cudaPointerGetAttributes), the one CUDA call a refused call may make.
 * climb checks where each array starts, not how long it is: an array shorter than its sizes say is undefined
 * behaviour, as in cuBLAS.
 *
 * Threads. Different handles may be used from different host threads at once (each thread its own handle, and
 * each handle its own stream where calls run concurrently). One handle must not be used by two threads at once
 * (its workspace and tuning are not locked). An SpMV plan is read-only once made: it may be used at the same time
 * by any handles on its device, from any threads. Wisdom files are only read, by each handle on its own. A
 * handle may be on another device than the calling thread's current one: each call makes the handle's device
 * current for its duration and puts the caller's back.
 *
 * C11. Link with -lclimb (pkg-config climb).
 */
#ifndef CLIMB_H
#define CLIMB_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "climb_base.h"
#include "climb_occupancy.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct climb_context *climb_handle;

/* Library version as MAJOR*10000 + MINOR*100 + PATCH. */
CLIMB_API int climb_version(void);

/* A fixed English description of a status; never NULL. */
CLIMB_API const char *climb_status_string(climb_status status);

/* Creates a handle bound to CUDA device `device`, on the default stream. It makes a non-blocking stream of its
 * own (to zero new workspaces) and no workspace yet; the calling thread's current device may be any. */
CLIMB_API climb_status climb_create(climb_handle *handle, int device);

/* Frees the handle and its workspaces, the outgrown ones too. Waits for the handle's stream first, so
 * CLIMB_STATUS_CAPTURE_UNSUPPORTED (and the handle left as it was) while that stream is capturing. Graphs
 * captured from the handle must not be launched after it. NULL is accepted. */
CLIMB_API climb_status climb_destroy(climb_handle handle);

/* Later calls on this handle are issued on `stream` (0: the legacy default stream). The handle's workspace goes
 * with it: work of this handle still in flight on the old stream must be finished, or ordered before the new
 * stream's (an event), before the next call. */
CLIMB_API climb_status climb_set_stream(climb_handle handle, cudaStream_t stream);
CLIMB_API climb_status climb_get_stream(climb_handle handle, cudaStream_t *stream);

/* The CUDA error the handle's last call met: behind a CLIMB_STATUS_LAUNCH_FAILED or ALLOC_FAILED (a launch into
 * a capture the caller invalidated, say, gives cudaErrorStreamCaptureInvalidated); cudaSuccess after a call
 * that met none. */
CLIMB_API cudaError_t climb_last_cuda_error(climb_handle handle);

/*
 * Tuned parameters. A handle runs each workload's best rung with the parameters `climb tune` saved in a
 * wisdom file for this GPU, compute capability, driver and climb version, and otherwise with built-in
 * per-architecture defaults. A handle reads the default file when a workload is first used (or its tuning is
 * asked for): $CLIMB_WISDOM if set, else $XDG_CONFIG_HOME/climb/wisdom.json, else
 * $HOME/.config/climb/wisdom.json. A missing, foreign, stale or
 * corrupt file never fails a call and never changes a result: the defaults are used and
 * climb_get_tuning says why.
 */

/* Reads the tuned parameters again from `path` (NULL: the default file), for every workload. Does not wait for
 * the stream (calls in flight keep their workspaces). Fails only for a NULL handle or a path of 4096 bytes or
 * more. A named file that is missing (or a dangling symbolic link), like a foreign, stale, corrupt or
 * non-regular one, is not a failure of this call: the defaults are used, and climb_get_tuning's line for each
 * workload says why ("wisdom not used: no wisdom file at PATH") with *from_wisdom 0. */
CLIMB_API climb_status climb_load_wisdom(climb_handle handle, const char *path);

/* One line on where `workload`'s (e.g. "reduce") parameters come from and what they are; *from_wisdom (if not
 * NULL) is 1 when a wisdom file supplied them (then for every call; otherwise each call runs with the built-in
 * defaults for its own size and type). A workload tuned by class (sgemm by form, transpose by type and size)
 * keeps one wisdom entry a class: the line is that of its first benchmark case's class, and each call uses
 * its own class's entry where the file has one. INVALID_VALUE for a NULL handle or buffer, an unknown workload,
 * or len 0; a line longer than len is cut. */
CLIMB_API climb_status climb_get_tuning(climb_handle handle, const char *workload, char *buf, size_t len,
                                        int *from_wisdom);

/*
 * Sum reduction: *d_out = d_in[0] + ... + d_in[n-1].
 * n == 0 writes 0 (d_in is not looked at). Any n and any element alignment of d_in are handled; d_out must not lie
 * inside d_in (INVALID_VALUE). i32 sums wrap modulo 2^32.
 * The f32 order of additions is fixed for a given n, device and library version, so results repeat.
 * Capturable; the workspace (a few kilobytes, zeroed) is made on the handle's first reduction.
 */
CLIMB_API climb_status climb_reduce_sum_i32(climb_handle handle, const int32_t *d_in, size_t n, int32_t *d_out);
CLIMB_API climb_status climb_reduce_sum_f32(climb_handle handle, const float *d_in, size_t n, float *d_out);

/*
 * Prefix sum: inclusive d_out[i] = d_in[0] + ... + d_in[i]; exclusive d_out[i] = d_in[0] + ... + d_in[i-1], d_out[0] = 0.
 * In place (d_out == d_in) is allowed; arrays that overlap otherwise are INVALID_VALUE. n == 0 does nothing; n up to
 * 2^40 (a grid's limit on the tiles; INVALID_VALUE past it). Any element alignment (16-byte aligned arrays are the
 * fast case). i32 sums wrap modulo 2^32. One pass over
 * the data (decoupled look-back); the f32 order of additions depends on the timing of the GPU's blocks, so f32
 * results may differ in the last bits from call to call (within the bound docs/scan.md derives). Capturable; the
 * workspace (8 bytes a tile of the input, zeroed once) grows with the largest n seen.
 */
CLIMB_API climb_status climb_scan_inclusive_i32(climb_handle handle, const int32_t *d_in, size_t n, int32_t *d_out);
CLIMB_API climb_status climb_scan_inclusive_f32(climb_handle handle, const float *d_in, size_t n, float *d_out);
CLIMB_API climb_status climb_scan_exclusive_i32(climb_handle handle, const int32_t *d_in, size_t n, int32_t *d_out);
CLIMB_API climb_status climb_scan_exclusive_f32(climb_handle handle, const float *d_in, size_t n, float *d_out);

/*
 * Byte histogram: d_counts[k] = the number of bytes of d_in[0 .. n) whose bin is k, bin = byte x bins / 256, for
 * k < bins (bins 1 to 256; 256: one bin per byte value). The counts are overwritten, not added to. n below
 * 2^32 - 1 (the counts are 32-bit), any alignment; n == 0 writes zeros (d_in is not looked at); the counts must not
 * overlap the input (INVALID_VALUE). Capturable; no workspace.
 */
CLIMB_API climb_status climb_histogram_u8(climb_handle handle, const uint8_t *d_in, size_t n, unsigned bins,
                                          uint32_t *d_counts);

/*
 * Sparse matrix-vector product, y = alpha A x + beta y, with A in CSR on the device: rows x cols, nnz nonzeros,
 * 32-bit row pointers (rows + 1, from 0 to nnz), column indices (0-based) and values. Analyse once, run many:
 * climb_spmv_plan_create looks at the row lengths on the device (it synchronises the handle's stream, so it is
 * not capturable: CLIMB_STATUS_CAPTURE_UNSUPPORTED while that stream is capturing; make plans before) and
 * keeps what the best rung needs (climb_spmv_plan_bytes says how much: lists of the long rows, row blocks, each
 * nonzero's row, or a JDS copy of the matrix); the plan refers to the caller's arrays, which must stay alive and unchanged until
 * climb_spmv_plan_destroy. Any shape with rows and cols at most 2^31 - 2 (the rows + 1 row pointers are counted in
 * an int), empty rows and rows = 0 included; columns need not be sorted; flags other than those below are
 * INVALID_VALUE.
 *
 * With CLIMB_SPMV_VALIDATE in flags the plan first checks the matrix on the device: row_ptr[0] = 0,
 * row_ptr[rows] = nnz, row pointers never decreasing, every column index in [0, cols); a matrix that fails
 * gives CLIMB_STATUS_INVALID_MATRIX and no plan. It reads the row pointers and columns once (about a run's
 * time, plus a synchronisation). Without it an invalid matrix is undefined behaviour (out-of-range reads).
 *
 * The plan chooses how to run by trial (inspector-executor): the rules' choice and the other ways the row lengths
 * admit (lanes a row with the long rows a warp or a block each, a JDS copy of the whole matrix or in windows of
 * rows, row blocks, COO) are each built and run on the matrix itself, once or twice, into scratch vectors the plan
 * allocates and frees, and the fastest is kept. Measured on an H100 (docs/spmv.md): 13 to 20 multiplies' time on
 * generated matrices of 4096000 rows, and 2.5 to 5 ms on matrices of under 1M nonzeros (hundreds of their short
 * multiplies). A process's first plan of each type also loads the kernels the trial may launch (CUDA loads a
 * kernel at its first launch), before the trial is timed: loading the first path's kernels alone took 5 ms on an
 * H100.
 * CLIMB_SPMV_NO_TRIAL in flags (or CLIMB_SPMV_NO_TRIAL=1 in the environment) takes the rules' choice untimed,
 * which is faster to plan and may run slower.
 *
 * climb_spmv: y is not read when beta is 0 (NaN there is overwritten); y must not overlap x or the plan's matrix
 * arrays (INVALID_VALUE). The f32 and f64 faces take plans made
 * for their type (else INVALID_VALUE), on the device the plan was made on. Rows are summed in an order that
 * depends on the plan, so results may differ in the last bits from a sequential sum (docs/spmv.md bounds it).
 * climb_spmv is capturable and needs no workspace; a plan may be used by any handle on its device, from any
 * thread, at the same time (it is only read).
 */
typedef struct climb_spmv_plan_s *climb_spmv_plan;
#define CLIMB_SPMV_VALIDATE 1u
#define CLIMB_SPMV_NO_TRIAL 2u

CLIMB_API climb_status climb_spmv_plan_create(climb_handle handle, int rows, int cols, int nnz,
                                              const int32_t *d_row_ptr, const int32_t *d_col_idx, const float *d_val,
                                              unsigned flags, climb_spmv_plan *plan);
CLIMB_API climb_status climb_spmv_plan_create_f64(climb_handle handle, int rows, int cols, int nnz,
                                                  const int32_t *d_row_ptr, const int32_t *d_col_idx,
                                                  const double *d_val, unsigned flags, climb_spmv_plan *plan);
/* Device bytes the plan keeps beside the caller's matrix. */
CLIMB_API climb_status climb_spmv_plan_bytes(climb_spmv_plan plan, size_t *bytes);
CLIMB_API climb_status climb_spmv(climb_handle handle, climb_spmv_plan plan, float alpha, const float *d_x,
                                  float beta, float *d_y);
CLIMB_API climb_status climb_spmv_f64(climb_handle handle, climb_spmv_plan plan, double alpha, const double *d_x,
                                      double beta, double *d_y);
/* Frees the plan (NULL is accepted). Does not wait for calls in flight: synchronise the stream first. */
CLIMB_API climb_status climb_spmv_plan_destroy(climb_spmv_plan plan);

/*
 * Matrix transpose: d_out = d_in^T. d_in is rows x cols, row-major, its rows ld_in elements apart (ld_in >= cols);
 * d_out is cols x rows, row-major, its rows ld_out elements apart (ld_out >= rows). out[j * ld_out + i] =
 * in[i * ld_in + j] for i < rows, j < cols; the padding of d_out (columns rows .. ld_out - 1) is not written.
 * rows or cols 0 does nothing. Any element alignment. ceil(rows / 32) x ceil(cols / 32) must be below 2^31 (the
 * smallest tile's grid). The matrices must not overlap (no in-place transpose): INVALID_VALUE if they do, or if a
 * leading dimension is too small. Capturable; no workspace.
 */
CLIMB_API climb_status climb_transpose_f32(climb_handle handle, size_t rows, size_t cols, const float *d_in,
                                           size_t ld_in, float *d_out, size_t ld_out);
CLIMB_API climb_status climb_transpose_f64(climb_handle handle, size_t rows, size_t cols, const double *d_in,
                                           size_t ld_in, double *d_out, size_t ld_out);

/*
 * 2-D convolution: d_out = d_in convolved with a (2 radius + 1) x (2 radius + 1) mask, zero outside the image
 * (ghost cells), in the cross-correlation form: out[i][j] = sum over a, b in [0, 2 radius] of
 * mask[a (2 radius + 1) + b] in[i + a - radius][j + b - radius]. d_in and d_out are rows x cols, row-major, rows
 * ld_in and ld_out >= cols elements apart (padding not written). radius 1 to 4 (3 x 3 to 9 x 9). mask is in HOST
 * memory, read during the call and passed to the kernel by value: a graph captured with one mask keeps those
 * weights. rows or cols 0 does nothing; rows and cols below 2^31 and ceil(rows / 16) x ceil(cols / 32) below 2^31
 * (the smallest block tile's grid); any element alignment. The images must not overlap (INVALID_VALUE). FP32 FMAs: each output is within (taps + 2) 2^-24 sum |mask| |in| of the exact value.
 * Runs the tuned best rung (docs/conv.md). Capturable; no workspace.
 */
CLIMB_API climb_status climb_conv2d_f32(climb_handle handle, size_t rows, size_t cols, const float *d_in,
                                        size_t ld_in, const float *mask, int radius, float *d_out, size_t ld_out);

/*
 * 7-point 3-D stencil, one step: d_out = the stencil of d_in on an nx x ny x nz grid of floats (x fastest, then
 * y, then z; no padding). At every interior point out[z][y][x] = c[0] in[z][y][x] + c[1] in[z][y][x-1] +
 * c[2] in[z][y][x+1] + c[3] in[z][y-1][x] + c[4] in[z][y+1][x] + c[5] in[z-1][y][x] + c[6] in[z+1][y][x]; a boundary
 * point (an index 0 or n - 1) is copied (out = in), so steps can ping-pong between two grids. coeffs is 7 floats in
 * HOST memory, read during the call and passed to the kernel by value (a captured graph keeps them). Each size below
 * 2^31 and ceil(nx / 32) x ceil(ny / 4) x ceil(nz / 8) below 2^31 (the smallest block tile's grid); a size 0 does
 * nothing; the grids must not overlap (INVALID_VALUE). FP32: each point within 9 2^-24
 * sum |c_k in_k| of the exact step. Runs the tuned best rung (docs/stencil.md). Capturable; no workspace.
 */
CLIMB_API climb_status climb_stencil7_f32(climb_handle handle, size_t nx, size_t ny, size_t nz, const float coeffs[7],
                                          const float *d_in, float *d_out);

/*
 * One convolutional layer forward, FP32, NCHW: d_y[n][k][p][q] = sum over c, r, s of
 * d_x[n][c][p stride_h - pad_h + r][q stride_w - pad_w + s] d_w[k][c][r][s], the input zero outside the image (the
 * cross-correlation cuDNN computes). d_x is n x c x h x w, d_w k x c x r x s, d_y n x k x p x q, each dense (no
 * padding between rows), with p = (h + 2 pad_h - r) / stride_h + 1 and q = (w + 2 pad_w - s) / stride_w + 1 (0 when
 * the padded image is smaller than the filter): climb_conv_output_size computes them. r, s and the strides at least
 * 1, pads and the other sizes at least 0; x, w, y, c r s and n p q below 2^30 elements, and the padded sizes h + 2
 * pad_h and w + 2 pad_w below 2^30 (the kernels index in 32 bits; else INVALID_VALUE, from climb_conv_output_size
 * too). An empty output does nothing. y must not overlap x or w. FFMA (no TF32). Runs the best rung (docs/cnn.md):
 * on 3 x 3 layers of stride 1 with c and k at least 16 (k below 4194241), Winograd's F(2 x 2, 3 x 3) (2.25x fewer
 * multiplications; where its blocks are few, the channels split and their parts added in any order),
 * each output within 1.01 (c + 25) 2^-24 16 max|x| sum|w_k| of the exact value (max|x| over the input, sum|w_k|
 * over filter k), in the handle's workspace (the transformed filters, 16384 ceil(c / 16) ceil(k / 64) floats);
 * on 5 x 5 layers of stride 1 with c and k at least 16 (k below 2097121), Winograd's F(2 x 2, 5 x 5) (2.78x fewer
 * multiplications), each output within 1.01 (c + 37) 2^-24 861 max|x| sum|w_k| of the exact value, in the handle's
 * workspace (36 ceil(c / 8) 8 ceil(k / 32) 32 floats);
 * elsewhere an implicit GEMM, each output within 1.01 (c r s + 2) 2^-24 sum |w x|: where c is a multiple of 8 or
 * at least 64 (and r s 8 ceil(c / 8) below 2^30), over the filters permuted in the handle's workspace (r s ceil(c / 8) 8 ceil(k / 4) 4 floats; where
 * its blocks are few, the reduction split and its parts added in any order), else reading d_w as it lies, no
 * workspace. Capturable.
 */
typedef struct climb_conv_layer_desc {
    int n, c, h, w;                   /* x: n images of c maps of h x w */
    int k, r, s;                      /* w: k filters of c x r x s */
    int stride_h, stride_w;
    int pad_h, pad_w;                 /* zeros on each side */
} climb_conv_layer_desc;

CLIMB_API climb_status climb_conv_output_size(const climb_conv_layer_desc *layer, int *p, int *q);
CLIMB_API climb_status climb_conv_forward_f32(climb_handle handle, const climb_conv_layer_desc *layer,
                                              const float *d_x, const float *d_w, float *d_y);

/*
 * A conv plan, for a layer whose weights run again (inference): climb_conv_plan_create(handle, layer, d_w, &plan)
 * checks the layer as climb_conv_forward_f32 does and, where that call uses workspace (Winograd's path or the
 * permuted filters), transforms d_w once into device memory the plan owns (climb_conv_plan_bytes says how much; 0
 * where the call reads d_w as it lies). It waits
 * for the transform, so it is not capturable (CLIMB_STATUS_CAPTURE_UNSUPPORTED while the handle's stream
 * captures). climb_conv_forward_plan_f32(handle, plan, d_x, d_y) then computes the layer as climb_conv_forward_f32
 * with d_w would, with the same kernels, bounds and refusals, but without the filters' transform and without
 * workspace; capturable; on the plan's device only (else INVALID_VALUE). d_w must stay alive and unchanged while
 * the plan lives (a plan of 0 bytes reads it at each run), and y must overlap neither x nor d_w. A plan may
 * be used by any handle on its device, from any thread; climb_conv_plan_destroy frees it (NULL: nothing).
 */
typedef struct climb_conv_plan_s *climb_conv_plan;
CLIMB_API climb_status climb_conv_plan_create(climb_handle handle, const climb_conv_layer_desc *layer,
                                              const float *d_w, climb_conv_plan *plan);
CLIMB_API climb_status climb_conv_plan_bytes(climb_conv_plan plan, size_t *bytes);
CLIMB_API climb_status climb_conv_forward_plan_f32(climb_handle handle, climb_conv_plan plan, const float *d_x,
                                                   float *d_y);
CLIMB_API climb_status climb_conv_plan_destroy(climb_conv_plan plan);

/*
 * Direct Coulomb summation: d_out[(k ny + j) nx + i] = sum over the atoms of q / r, the potential (e/Å, no Coulomb
 * constant) at lattice point origin + spacing (i, j, k). d_atoms holds n_atoms x, y, z, q as 4 floats each (device
 * memory, 16-byte aligned); an atom nearer to a point than `exclusion` (at least 0.001 Å; Parboil uses 1 Å) adds
 * nothing there (the atom is skipped at that point: dcs's meaning of the field). nx and n_atoms below 2^31, ny and
 * nz below 65536; an empty lattice does nothing; the lattice must not overlap the atoms (INVALID_VALUE). FP32 with
 * the hardware rsqrt: each point within 1.01 (n_atoms + 8) 2^-24 sum |q / r| of the exact sum at the point's float
 * coordinates, which are themselves within 4 2^-24 of their magnitude of the exact origin + spacing (i, j, k): that
 * moves the exact sum by up to 4 2^-24 |p| sum |q| / r^2 more (|p| the point's largest coordinate). Runs the tuned
 * best rung (docs/dcs.md). Capturable; no workspace.
 */
typedef struct climb_lattice_desc {
    size_t nx, ny, nz;
    float spacing;                    /* Å */
    float origin[3];                  /* Å: point (0, 0, 0) */
    float exclusion;                  /* Å. The two calls read it apart: climb_coulomb_dcs_f32 skips an atom nearer
                                         than this to a point; climb_coulomb_cutoff_f32 writes 0 at a point any
                                         charged atom is nearer to than this (Parboil's rule) */
} climb_lattice_desc;

CLIMB_API climb_status climb_coulomb_dcs_f32(climb_handle handle, const float *d_atoms, size_t n_atoms,
                                             const climb_lattice_desc *lattice, float *d_out);

/*
 * Cutoff Coulomb summation, Parboil cutcp's potential: d_out[(k ny + j) nx + i] = the sum over the atoms nearer than
 * `cutoff` to lattice point p of q / r (1 - r^2 / cutoff^2)^2, and 0 at a point any atom of nonzero charge is nearer
 * to than the lattice's `exclusion` (Parboil zeroes those points; 0.001 <= exclusion < cutoff: cutoff's meaning of
 * the field). Atoms as for climb_coulomb_dcs_f32; any number of them may lie outside the lattice. nx and n_atoms
 * below 2^31, ny and nz at most 524280 (65535 blocks of 8 points: a grid's limit), at most 2^28 bins of 8 spacings a
 * side over the lattice and a cutoff beyond it (INVALID_VALUE otherwise, checked for an empty lattice too). The
 * atoms are binned on the device by a scan (workspace: about 20 bytes an atom and 8 a bin, kept by the handle), then
 * each block of 8 x 8 x 8 points reads its neighbour bins. With a term's smoothing s = (1 - r^2 / cutoff^2)^2, and
 * `within` the atoms nearer than the cutoff, each point is within 1.01 (within + 8) 2^-24 sum |term| +
 * 16 2^-24 sum |q| s / r of the exact sum at the point's float coordinates, which are within 4 2^-24 of their
 * magnitude of the exact point: that moves the exact sum by up to 4 2^-24 |p| sum |q| (1 / r^2 + 4 / cutoff^2) more
 * (|p| the point's largest coordinate); an atom within 10^-5 Å of the cutoff may be counted or not. Runs the tuned
 * best rung (docs/cutoff.md). Capturable, as a handle's first call too.
 */
CLIMB_API climb_status climb_coulomb_cutoff_f32(climb_handle handle, const float *d_atoms, size_t n_atoms,
                                                const climb_lattice_desc *lattice, float cutoff, float *d_out);

/*
 * MRI-Q (Parboil's): for each voxel v at (d_x[v], d_y[v], d_z[v]) in field-of-view units,
 *   d_qr[v] + i d_qi[v] = sum over the samples k of |phi_k|^2 (cos + i sin)(2 pi (kx_k x + ky_k y + kz_k z)),
 * the samples' k-space positions d_kx, d_ky, d_kz (cycles per field of view) and values d_phi_r + i d_phi_i, each
 * `samples` floats; every pointer device memory, 4-byte aligned. Below 2^31 samples and voxels; no voxels does
 * nothing; Qr and Qi must not overlap each other or any input (INVALID_VALUE). FP32 with the hardware's __sinf and
 * __cosf: each of Qr and Qi within sum over k of |phi_k|^2 (8 2^-24 A_k + 2^-20) + (1.01 (samples + 8) 2^-24 +
 * 2^-22) sum over k of |phi_k|^2 of the exact value, A_k the magnitude of sample k's phase at the voxel,
 * 2 pi (|kx_k x| + |ky_k y| + |kz_k z|) (docs/mriq.md gives the error measured). Workspace: 16 bytes a
 * sample, kept by the handle. Runs the tuned best rung. Capturable, as a handle's first call too.
 */
CLIMB_API climb_status climb_mriq_f32(climb_handle handle, size_t samples, const float *d_kx, const float *d_ky,
                                      const float *d_kz, const float *d_phi_r, const float *d_phi_i, size_t voxels,
                                      const float *d_x, const float *d_y, const float *d_z, float *d_qr, float *d_qi);

/*
 * Merge sort, stable, in place: d_keys[0 .. n) in nondecreasing order; with pairs, d_vals[i] moves with d_keys[i],
 * and values of equal keys keep their order. n up to 2^31 - 1; n == 0 does nothing (the pointers are not touched).
 * Both arrays device memory, 4-byte aligned, not overlapping (INVALID_VALUE). Workspace: 4 bytes a key (8 with
 * values), kept by the handle and grown with the largest n seen. Runs the tuned best rung (docs/sort.md).
 * Capturable, as a handle's first call too.
 */
CLIMB_API climb_status climb_sort_u32(climb_handle handle, uint32_t *d_keys, size_t n);
CLIMB_API climb_status climb_sort_pairs_u32(climb_handle handle, uint32_t *d_keys, uint32_t *d_vals, size_t n);

/*
 * The same for other key types, by LSD radix sort (Onesweep below 2^30 keys; docs/sort.md), stable, in place, values
 * u32. i32 keys in signed order; f32 keys in the order of their bits with the sign and exponent made unsigned (the
 * order of CUB's radix sort): -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN, so -0 and +0 are distinct and ordered
 * and NaNs go to the ends by their sign; u64 keys as unsigned 64-bit integers. n up to 2^31 - 1; n == 0 does nothing.
 * Keys aligned to their size, values to 4 bytes, device memory, not overlapping (INVALID_VALUE). Workspace: the size
 * of the keys (and values) again, and the look-back words (about 0.45 bytes a key), kept by the handle. Capturable,
 * as a handle's first call too.
 */
CLIMB_API climb_status climb_sort_i32(climb_handle handle, int32_t *d_keys, size_t n);
CLIMB_API climb_status climb_sort_f32(climb_handle handle, float *d_keys, size_t n);
CLIMB_API climb_status climb_sort_u64(climb_handle handle, uint64_t *d_keys, size_t n);
CLIMB_API climb_status climb_sort_pairs_i32(climb_handle handle, int32_t *d_keys, uint32_t *d_vals, size_t n);
CLIMB_API climb_status climb_sort_pairs_f32(climb_handle handle, float *d_keys, uint32_t *d_vals, size_t n);
CLIMB_API climb_status climb_sort_pairs_u64(climb_handle handle, uint64_t *d_keys, uint32_t *d_vals, size_t n);

/*
 * Adaptive tessellation of quadratic Bezier curves, B(t) = (1 - t)^2 P0 + 2 (1 - t) t P1 + t^2 P2: each curve gets
 * floor(16 curvature) points clamped to [4, max_points], the curvature being the distance of the control point P1
 * from the chord's middle over the chord's length, at t = i / (count - 1). The count is computed in float from the
 * curve's coordinates: it is floor(16 curvature), clamped, except where 16 curvature lies within
 * 2^-17 (1 + curvature) (1 + M / chord) of a whole number (M the largest coordinate's magnitude), where it may be
 * the count on the other side of that number. d_curves: n curves on the device (x of P0,
 * P1, P2, then y of P0, P1, P2: 24 bytes each, 4-byte aligned). Out: d_counts[i], d_offsets[i] (the exclusive scan
 * of the counts: curve i's points start at point d_offsets[i]) and d_points, the points packed in curve order as x, y
 * pairs (8-byte aligned, room for n x max_points points; the total is d_offsets[n - 1] + d_counts[n - 1]). One scan
 * and one flat launch over the points, no device launch and no host round trip: capturable, as a handle's first
 * call too. max_points outside [4, 4096] or n x max_points past 2^31 - 1 is INVALID_VALUE (n == 0 included); then
 * n == 0 does nothing (the pointers are not looked at); the three outputs must not overlap each other or the curves,
 * and memory the device cannot reach is INVALID_VALUE.
 */
typedef struct climb_bezier_curve {
    float x[3], y[3];
} climb_bezier_curve;
CLIMB_API climb_status climb_bezier_tessellate(climb_handle handle, size_t n, const climb_bezier_curve *d_curves,
                                               int max_points, int32_t *d_counts, int32_t *d_offsets,
                                               float *d_points);

/*
 * Point quadtree: the tree of n points (x, y on the device, float, in the unit square: outside it a coordinate
 * falls in the nearest edge cell) with Morton codes sorted once and a level at a time found by searches of the
 * sorted order. A node splits while it holds more than params->leaf_points points (at least 1) and its level is
 * below params->max_depth (0 to 16; the root is level 0); a split makes all four children, empty ones too.
 * Coordinates are quantised to 16 bits a side; a node's code is its cell prefix (2 bits a level, x in the even
 * bits), its children are four consecutive nodes in Z order (child q = 2 ybit + xbit), the nodes are stored level
 * by level, and every node's points are order[begin .. end): the points sorted by their cell at max_depth (the top
 * 2 max_depth bits of the 32-bit code), points of one cell in index order. The tree owns its device
 * memory until climb_quadtree_free, is complete when the call returns, and does not refer to d_x or d_y after it.
 * The build reads each level's size back (it waits for the handle's stream): not capturable
 * (CLIMB_STATUS_CAPTURE_UNSUPPORTED while the stream is capturing). n == 0 gives a tree of one empty leaf (d_x and
 * d_y are not looked at and may be NULL). Bad parameters, n past 2^31 - 1, a node bound past 2^31 - 1 (raise
 * leaf_points or lower max_depth) or memory the device cannot reach is INVALID_VALUE. *tree is set to NULL first,
 * and stays NULL unless the call succeeds.
 */
typedef struct climb_quadtree_params {
    int max_depth;
    int leaf_points;
} climb_quadtree_params;
typedef struct climb_quadtree_node {
    uint32_t code;       /* the node's cell prefix, right-aligned */
    int32_t level;
    int32_t first_child; /* its first child's index (four consecutive), -1 for a leaf */
    int32_t begin, end;  /* its points: order[begin .. end) */
} climb_quadtree_node;
typedef struct climb_quadtree_s *climb_quadtree;
CLIMB_API climb_status climb_quadtree_build(climb_handle handle, size_t n, const float *d_x, const float *d_y,
                                            const climb_quadtree_params *params, climb_quadtree *tree);
/* The tree's nodes (device memory, n_nodes of them) and its order (device memory, one index a point). */
CLIMB_API climb_status climb_quadtree_nodes(climb_quadtree tree, const climb_quadtree_node **d_nodes,
                                            int32_t *n_nodes);
CLIMB_API climb_status climb_quadtree_order(climb_quadtree tree, const int32_t **d_order, size_t *n_points);
/* Frees the tree (NULL: nothing). Work that still uses it must have finished. */
CLIMB_API climb_status climb_quadtree_free(climb_quadtree tree);

/*
 * Breadth-first search: d_levels[v] = the number of edges on a shortest path from `source` to v, -1 where v is not
 * reached, over the graph of n_vertices vertices in CSR on the device: 32-bit row pointers (n_vertices + 1, from 0)
 * and column indices (rows need not be sorted; self-loops and repeated edges are harmless). climb_bfs follows the
 * out-edges as stored (a directed graph): top-down steps only. climb_bfs_symmetric is for an undirected graph with
 * both directions stored (it is not checked): it also takes bottom-up steps, which look for parents along the
 * in-edges, while the frontier is large (direction-optimising BFS; much faster on social and power-law graphs).
 * Cooperative kernels, a grid-wide barrier a level (on sm_90 and later the small levels of deep graphs run in a
 * thread-block cluster, a cluster barrier a level): no host round trip, capturable, as a handle's first call too.
 * Workspace: about 20.5 bytes a vertex, kept by the handle. A negative count is INVALID_VALUE; n_vertices == 0
 * does nothing (source and the pointers are not looked at); a source outside [0, n_vertices), levels that overlap
 * the row pointers, or memory the device cannot reach is INVALID_VALUE.
 *
 * The graph is not checked: like cuSPARSE, these calls trust row_ptr and col_idx. A corrupt graph is undefined
 * behaviour: row pointers past the column array, or decreasing, make the kernel read outside it, and a column
 * outside [0, n_vertices) makes it read and write outside the levels and the workspace. Either may fault, after
 * the call has returned SUCCESS: the context is then lost (cudaErrorIllegalAddress at the next synchronisation,
 * and from every later CUDA call of the process), or leave wrong levels behind.
 *
 * climb_bfs_csr takes the column array's length too (n_edges: row_ptr[n_vertices] of a valid graph) and flags:
 * CLIMB_BFS_SYMMETRIC runs climb_bfs_symmetric's search, and CLIMB_BFS_VALIDATE first checks the graph on the device
 * (row_ptr[0] = 0, row_ptr[n_vertices] = n_edges, row pointers never decreasing, every column in [0, n_vertices);
 * it reads them once and waits for the handle's stream, so a validated call is not capturable:
 * CLIMB_STATUS_CAPTURE_UNSUPPORTED while the stream is capturing). A graph that fails is
 * CLIMB_STATUS_INVALID_MATRIX, with nothing written and the context intact. The symmetry CLIMB_BFS_SYMMETRIC assumes
 * is not checked. Without CLIMB_BFS_VALIDATE, climb_bfs_csr is climb_bfs or climb_bfs_symmetric (capturable). Other
 * flags, or n_edges below 0, are INVALID_VALUE.
 */
#define CLIMB_BFS_SYMMETRIC 1u
#define CLIMB_BFS_VALIDATE 2u
CLIMB_API climb_status climb_bfs(climb_handle handle, int32_t n_vertices, const int32_t *d_row_ptr,
                                 const int32_t *d_col_idx, int32_t source, int32_t *d_levels);
CLIMB_API climb_status climb_bfs_symmetric(climb_handle handle, int32_t n_vertices, const int32_t *d_row_ptr,
                                           const int32_t *d_col_idx, int32_t source, int32_t *d_levels);
CLIMB_API climb_status climb_bfs_csr(climb_handle handle, int32_t n_vertices, int32_t n_edges,
                                     const int32_t *d_row_ptr, const int32_t *d_col_idx, int32_t source,
                                     unsigned flags, int32_t *d_levels);

/*
 * Breadth-first search over a directed graph with direction-optimising steps: build once, search many. A plan
 * keeps the graph's in-edges (its transpose, built on the device: the edges sorted stably by target, each in-row in
 * the order of its sources), so that bottom-up steps can look for parents on any graph; climb_bfs_plan_run then
 * searches from any source as climb_bfs_symmetric does on an undirected one. The same CSR as climb_bfs, with its
 * edge count n_edges (row_ptr[n_vertices]). flags: CLIMB_BFS_VALIDATE checks the graph first, as climb_bfs_csr does
 * (INVALID_MATRIX, no plan); CLIMB_BFS_SYMMETRIC says the graph is undirected, both directions stored (not
 * checked): the plan then keeps no transpose. Other flags are INVALID_VALUE.
 *
 * climb_bfs_plan_create allocates device memory (the sort's, about 16 bytes an edge, only while it runs: where
 * that much is not free, it builds the in-rows by atomics instead, slower, in no particular order within a row, in
 * 8 bytes a vertex of the handle's workspace), runs on the handle's stream and waits for it (the plan is ready
 * for any stream when it returns); it is not capturable (CLIMB_STATUS_CAPTURE_UNSUPPORTED while the stream is
 * capturing; make plans before). The plan refers to the
 * caller's arrays, which must stay alive and unchanged until climb_bfs_plan_destroy; climb_bfs_plan_bytes says
 * what it keeps beside them ((n_vertices + 1 + n_edges) x 4 bytes, 0 for a symmetric graph). climb_bfs_plan_run is
 * capturable, on the device the plan was made on, with the handle's workspace (as climb_bfs); the levels must not
 * overlap the graph's arrays or the plan's. n_vertices == 0 makes a plan whose runs do nothing. A plan may be used
 * by any handle on its device, from any thread, at the same time (it is only read).
 */
typedef struct climb_bfs_plan_s *climb_bfs_plan;
CLIMB_API climb_status climb_bfs_plan_create(climb_handle handle, int32_t n_vertices, int32_t n_edges,
                                             const int32_t *d_row_ptr, const int32_t *d_col_idx, unsigned flags,
                                             climb_bfs_plan *plan);
/* Device bytes the plan keeps beside the caller's graph. */
CLIMB_API climb_status climb_bfs_plan_bytes(climb_bfs_plan plan, size_t *bytes);
CLIMB_API climb_status climb_bfs_plan_run(climb_handle handle, climb_bfs_plan plan, int32_t source,
                                          int32_t *d_levels);
/* Frees the plan (NULL is accepted). Does not wait for calls in flight: synchronise the stream first. */
CLIMB_API climb_status climb_bfs_plan_destroy(climb_bfs_plan plan);

/*
 * SGEMM: C = alpha op(A) op(B) + beta C in FP32 (FFMA, no TF32), every matrix row-major. op(A) is m x k, op(B) is
 * k x n, C is m x n with rows ldc >= n apart. With CLIMB_OP_N, A is stored m x k (lda >= k) and B k x n
 * (ldb >= n); with CLIMB_OP_T, A is stored k x m (lda >= m) and B n x k (ldb >= k). Sizes and leading dimensions
 * below 2^31; any alignment (16-byte aligned rows with leading dimensions a multiple of 4 are fastest).
 * Every form runs the tuned best rung (docs/sgemm.md) with the handle's wisdom for that form, the operand loaders
 * swapped for transposed operands. As in BLAS: m or n 0 does nothing; with alpha 0 or k 0, A and B are not read and C = beta C;
 * with beta 0, C is not read (NaN there is overwritten). C must not overlap A or B (INVALID_VALUE). Results may
 * differ from a sequential sum in the last bits: each element is within (k + 2) 2^-24 (|alpha| sum |a b| +
 * |beta c|) of the exact value. Products whose tiles leave part of a wave idle (few tiles, long k, a last partial
 * wave) split those tiles along k and use the handle's workspace for their partial sums (splits x tiles x 128 x
 * 128 floats at the most). Capturable, a call that grows the workspace too.
 */
typedef enum climb_operation {
    CLIMB_OP_N = 0,   /* the operand as stored */
    CLIMB_OP_T = 1    /* its transpose */
} climb_operation;

CLIMB_API climb_status climb_sgemm(climb_handle handle, climb_operation transa, climb_operation transb, size_t m,
                                   size_t n, size_t k, float alpha, const float *d_a, size_t lda, const float *d_b,
                                   size_t ldb, float beta, float *d_c, size_t ldc);

/*
 * GEMM with a compute mode: C = alpha op(A) op(B) + beta C, every matrix row-major, shapes and leading dimensions as
 * climb_sgemm's, C FP32, accumulation in FP32. The mode says the inputs' format and what multiplies them:
 *   CLIMB_GEMM_FP32     FP32 A and B (const float *), FFMA on the CUDA cores: climb_sgemm itself;
 *   CLIMB_GEMM_3XTF32   FP32 A and B on the tensor cores, each value as two TF32 terms and three products summed:
 *                       FP32-class accuracy (each element within (3 (k + 2) + 3) 2^-22 (|alpha| sum|a b| +
 *                       |beta c|) of the exact value);
 *   CLIMB_GEMM_TF32     FP32 A and B rounded to TF32 (11 bits of significand) as they are multiplied: within
 *                       (2^-10 + (k + 3) 2^-22) (|alpha| sum|a b| + |beta c|);
 *   CLIMB_GEMM_BF16     BF16 A and B (uint16_t bits, as __nv_bfloat16 stores them): within (k + 2) 2^-22
 *                       (|alpha| sum|a b| + |beta c|) of the exact product of those values.
 * The tensor-core modes run climb's best tensor-core kernel (docs/gemm.md) on operands that are 16-byte aligned
 * with leading dimensions of whole 16-byte chunks (8 BF16 or 4 FP32 elements), and a slower one that takes any
 * other; a transposed operand is first copied transposed into the handle's workspace (op(A) m x k, op(B) k x n,
 * rows padded to 16 bytes), so any form takes the fast kernel. As in BLAS: m or n 0 does nothing; with alpha 0 or
 * k 0, A and B are not read and C = beta C; with beta 0, C is not read. C must not overlap A or B
 * (INVALID_VALUE); sizes and leading dimensions below 2^31. Capturable, as the first call on a handle too.
 */
typedef enum climb_gemm_compute {
    CLIMB_GEMM_FP32 = 0,
    CLIMB_GEMM_3XTF32 = 1,
    CLIMB_GEMM_TF32 = 2,
    CLIMB_GEMM_BF16 = 3
} climb_gemm_compute;

CLIMB_API climb_status climb_gemm_ex(climb_handle handle, climb_gemm_compute compute, climb_operation transa,
                                     climb_operation transb, size_t m, size_t n, size_t k, float alpha,
                                     const void *d_a, size_t lda, const void *d_b, size_t ldb, float beta, float *d_c,
                                     size_t ldc);

/*
 * Across GPUs: a communicator of several GPUs driven by one process (one host thread at a time), one stream a GPU.
 *
 * climb_comm_create(&comm, ndev, devices) makes a communicator of the ndev GPUs listed (ordinals, each once, 1 to
 * CLIMB_COMM_MAX_DEVICES), its rank r being devices[r]. It turns peer access on between every pair that has it (as
 * cudaDeviceEnablePeerAccess; for the life of the process, as CUDA keeps it). Its calls run on each GPU's legacy
 * default stream, as a handle's, so they follow the caller's cudaMemset and cudaMemcpy on those GPUs;
 * climb_comm_set_stream(comm, r, s) puts rank r's part on the caller's stream s (0: the legacy stream again). A
 * device that does not exist is CLIMB_STATUS_INVALID_DEVICE; a list with a device twice, or an ndev out of range,
 * INVALID_VALUE.
 *
 * climb_comm_allreduce_sum_{f32,i32}(comm, d_in, d_out, n): d_in[r] and d_out[r] are n elements on rank r's GPU;
 * every d_out[r] receives the elementwise sum over all ranks, the same bits on every rank (f32: summed in rank
 * order, in f32). In place (d_in[r] == d_out[r] for every r) or apart; a partial overlap is refused. It needs peer
 * access between every pair of the communicator's GPUs: without it CLIMB_STATUS_NOT_SUPPORTED. Arrays below 1 MiB
 * are summed by one kernel a GPU whose GPUs meet inside it: each stores its array into the others' memory as
 * lines that carry a flag of the call and sums what arrives, into a workspace of 2 x P x 2 MiB a GPU that
 * climb_comm_create allocates (where every pair has peer access); arrays below 4 MiB apart in one shot (each GPU
 * loads every array); arrays below 64 MiB (from 1 MiB in place) in two shots in one kernel a GPU, whose blocks meet
 * their partners on the other GPUs before and after (each GPU sums a chunk by loads and stores each sum into every
 * output; meeting points of 2 x P x 4 KiB a GPU, allocated with the flags' workspace); larger arrays in two shots
 * as two kernels with a step between the GPUs. A GPU whose partners' kernels do not come within 10 s stops with a
 * sticky CUDA error (a trap: the context is lost) rather than wait for ever. n is at most 2^60 / 4.
 *
 * climb_comm_allgather_{f32,i32}(comm, d_in, d_out, n): d_in[r] is n elements on rank r's GPU, d_out[r] P x n;
 * every d_out[r] receives d_in[0], d_in[1], ..., d_in[P-1] in rank order, bit for bit. No in-place form: an output
 * over any input is refused. A kernel that loads every other GPU's piece for small pieces where every pair has peer
 * access, the copy engines (every GPU's piece pushed to every other at once) otherwise; no workspace.
 *
 * climb_comm_reducescatter_sum_{f32,i32}(comm, d_in, d_out, n): d_in[r] is P x n elements on rank r's GPU, d_out[r]
 * n; d_out[r] receives the sum over the ranks of their r-th n elements (f32 in rank order). No in-place form. A
 * kernel that loads and sums its piece from every GPU for small pieces where every pair has peer access; otherwise
 * the copy engines move each piece to its owner, into a workspace of P x n x 4 bytes a GPU that the communicator
 * owns (allocated at the first call that needs it, outside any capture, kept until climb_comm_destroy), and each
 * GPU sums locally. For both, P x n x 4 bytes is under 2^60.
 *
 * climb_comm_stencil7_f32(comm, nx, ny, nz, coeffs, d_in, d_out): one step of climb_stencil7_f32's stencil on an
 * nx x ny x nz grid split along z over the communicator's ranks, a slab a rank: climb_comm_stencil_slab(comm, nz,
 * rank, &z0, &z1, &planes) says that rank `rank` owns the global planes [z0, z1) (the first nz mod nranks ranks one
 * more than the rest) and holds them in `planes` planes of nx x ny floats: a halo plane below them where rank - 1
 * exists, the owned planes, a halo plane above them where rank + 1 exists. d_in[r] and d_out[r] are rank r's slab
 * on its GPU (one pointer each in the rank form, this process's rank). The call computes every owned plane of
 * d_out[r] from d_in[r], whose halos must hold the neighbours' nearest planes (as the previous call leaves them in
 * its d_out, or as the caller filled them), the same bits as climb_stencil7_f32 on the whole grid; then it copies
 * each rank's first owned plane into rank - 1's top halo and its last into rank + 1's bottom halo, in d_out, so
 * that d_out is ready to be the next call's d_in. nz below the number of ranks, a slab's arrays overlapping each
 * other or on another GPU: INVALID_VALUE; sizes as climb_stencil7_f32's; an empty grid does nothing. The copies
 * are the copy engines' (over NVLink with peer access, staged by the driver without it); in the rank form,
 * NCCL's send and receive. Capturable as the collectives are; no workspace.
 *
 * climb_comm_sgemm_f32(comm, m, n, k, d_a, d_b, d_c): C = A B (row-major f32, A m x k, B k x n) with the operands
 * spread over the communicator's ranks: climb_comm_sgemm_split(comm, m, k, rank, &m0, &m1, &k0, &k1) says that rank
 * `rank` holds rows [m0, m1) of A (d_a[r], (m1 - m0) x k, rows k apart) and of C (d_c[r], (m1 - m0) x n, rows n
 * apart) and rows [k0, k1) of B, its piece (d_b[r], (k1 - k0) x n), each split as evenly as it goes (the first ranks
 * a row more). Every rank's rows of C are written; no input is changed. One process driving one or two GPUs: each
 * rank multiplies its rows of A by its own piece, then by the other rank's piece as it arrives (copied by the copy
 * engines into the communicator's workspace, 2 x the largest piece plus SGEMM's split-K space a GPU, under the
 * product before), accumulating in f32; driving three or more: every piece pushed by the copy engines into every
 * rank's workspace (the whole of B, k x n floats, plus SGEMM's split-K space a GPU), a step between the GPUs, then
 * each rank's rows (faster there: docs/sgemm_gpus.md); one process a GPU: every piece gathered into the workspace
 * (k x n floats) by NCCL's send and receive, then the rank's rows. Each element within 1.01 (k + 2) 2^-24 sum |a b| of the exact
 * product, as climb_sgemm's. m, n and k below 2^31; C overlapping an input of its rank, or an array on another GPU:
 * INVALID_VALUE; m or n 0 does nothing. Capturable as the collectives are (the workspace grows outside a capture).
 *
 * climb_comm_sort_u32(comm, counts, d_in, d_out) and climb_comm_sort_pairs_u32(comm, counts, d_keys_in,
 * d_vals_in, d_keys_out, d_vals_out): rank r holds counts[r] u32 keys (each with a u32 value) in d_in[r] on its
 * GPU; the call sorts them all stably (equal keys in rank order, then in their order on the rank) and leaves rank r
 * with counts[r] of the result in d_out[r], rank 0 the smallest, rank 1 the next, and so on. counts has an entry
 * for every rank of the communicator; a rank's output may be its input (in place) and no other array may overlap;
 * each count at most 2^31 - 1 (the radix sort's limit on one GPU). The split is exact: rounds of 8-bit digit
 * counts, each rank counting its own keys and the host placing the cuts between rounds (the call waits for the
 * ranks then), a run of equal keys across a cut shared between the ranks in order, so that heavy keys do not
 * overload one GPU; each rank then partitions its keys by destination (one radix pass), every piece goes to its
 * rank by the copy engines, and each rank sorts what it received. Workspace (the communicator's, on every rank): 2
 * words a key of the largest share (4 for pairs), the radix sort's, and a few KiB of counters. Inside a capture
 * (rank 0's stream capturing) the host cannot wait, so every key is gathered into rank 0's workspace, sorted there
 * and each share copied back (room for every key on every rank's workspace; more than 2^31 - 1 keys in all:
 * CLIMB_STATUS_NOT_SUPPORTED). The rank form (one process a GPU: counts as above, one pointer each for this rank):
 * the same split, each round's counts all-gathered by NCCL so that every rank places the same cuts, and the pieces
 * exchanged by NCCL's send and receive; inside a capture every key goes to rank 0 by NCCL, is sorted there and
 * comes back.
 *
 * climb_comm_bfs(comm, n_vertices, n_edges, d_row_ptr, d_col_idx, n_in_edges, d_in_row_ptr, d_in_col_idx, source,
 * d_levels): breadth-first search levels (as climb_bfs: -1 where unreached) over a graph whose vertices are split
 * over the communicator's ranks: climb_comm_bfs_range(comm, n_vertices, rank, &v0, &v1) says that rank `rank` owns
 * the vertices [v0, v1) (whole 32-vertex words, split as evenly as they go; a rank may own none) and holds on its
 * GPU their out-edges as a CSR of its own rows, d_row_ptr[r] (v1 - v0 + 1 offsets from 0 to n_edges[r]) and
 * d_col_idx[r] (n_edges[r] global vertex ids), and d_levels[r] (v1 - v0 levels). n_edges (and n_in_edges) have an
 * entry for every rank. A directed graph also gives each rank its vertices' in-edges alike (n_in_edges, d_in_row_ptr,
 * d_in_col_idx), for the bottom-up steps; NULL for all three means the graph is undirected (both directions stored;
 * not checked). Each level is a step on every GPU (top-down: each rank scans its frontier's out-edges and marks the
 * targets, each owner gathers the marks of its words over the links; bottom-up: each rank looks for a parent of its
 * unvisited vertices among their in-edges), then the frontier's bitmap is all-gathered; the host reads each level's
 * counts and chooses the next direction by Beamer's rule, so the call waits for the ranks every level and is not
 * capturable (CLIMB_STATUS_CAPTURE_UNSUPPORTED while rank 0's stream is capturing). The graph is not checked: as
 * climb_bfs's, bad row offsets or columns make the kernels read or write outside the arrays. Workspace (the
 * communicator's): four bitmaps of n_vertices bits a rank. n_vertices 0 does nothing; a source outside [0,
 * n_vertices), a negative count, levels over the graph's arrays, an array on another GPU: INVALID_VALUE. The rank form
 * (one pointer each for this rank; the counts every rank's): the same levels, what crosses between the ranks by
 * NCCL (each owner receiving the other ranks' marks on its words, the frontier's words sent to every rank, the
 * level's counts all-gathered); its workspace holds also a copy of every other rank's marks on this rank's words.
 *
 * climb_comm_peer_copy(comm, to, d_dst, from, d_src, bytes): bytes from rank `from`'s GPU to rank `to`'s (from may
 * equal to): a kernel on the sender for small aligned copies where peer access is on, the copy engine otherwise
 * (over NVLink with peer access, staged by the driver without it). d_dst and d_src must not overlap.
 *
 * Ordering. A collective starts after the work issued so far on every rank's stream and every rank's stream waits
 * for its end, so that an input is not written again while another GPU still reads it; a peer copy starts after
 * both ranks' streams and both wait for it. Capture (on streams set by climb_comm_set_stream: the legacy stream
 * cannot be captured): begin it on rank 0's stream (for a peer copy, the receiver's);
 * the call joins the other ranks' streams to the capture through events and back, and the graph holds the whole
 * call (the other streams are not left waiting on it while capturing). Arguments are checked as above (1 to 4),
 * each pointer against its own rank's device, and a refused or failed call launches nothing more and leaves no
 * CUDA error behind; climb_comm_last_cuda_error says which CUDA error a failed call met. climb_comm_destroy waits
 * for every rank's stream (not while one is capturing: CLIMB_STATUS_CAPTURE_UNSUPPORTED).
 */
#define CLIMB_COMM_MAX_DEVICES 64
typedef struct climb_comm_s *climb_comm;
CLIMB_API climb_status climb_comm_create(climb_comm *comm, int ndev, const int *devices);
/*
 * One process a GPU (MPI or any launcher): rank 0 calls climb_comm_get_id and hands the id to every rank (as
 * NCCL's unique id: MPI_Bcast of its bytes, a file, ...); each rank calls climb_comm_init_rank(&comm, nranks, id,
 * rank, device) with its own GPU, together (it waits for all). Such a communicator drives one GPU (climb_comm_size
 * says 1: each call takes arrays of one pointer, this rank's) and runs its collectives through NCCL, which climb
 * opens at run time (NCCL_NVLS_ENABLE=0 set first): climb's kernels reach only the memory of GPUs in their own
 * process. Without NCCL, CLIMB_STATUS_NOT_SUPPORTED. climb_comm_peer_copy names this process's GPUs only (its one:
 * rank argument 0), as a process's pointers mean nothing in another. climb_comm_ranks gives nranks and this process's rank (the
 * single-process form: ndev and 0). climb_comm_init_rank waits for the other ranks at most $CLIMB_COMM_TIMEOUT
 * seconds (300 by default), then aborts its NCCL communicator and returns CLIMB_STATUS_LAUNCH_FAILED, as it does
 * when a call cannot be enqueued in that time. A rank that dies during a collective leaves the others' GPUs
 * waiting inside NCCL's kernels: the launcher's abort is the remedy; climb_comm_destroy on a rank whose call failed
 * aborts its NCCL communicator rather than waiting.
 */
typedef struct climb_comm_id {
    char bytes[128];
} climb_comm_id;
CLIMB_API climb_status climb_comm_get_id(climb_comm_id *id);
CLIMB_API climb_status climb_comm_init_rank(climb_comm *comm, int nranks, climb_comm_id id, int rank, int device);
CLIMB_API climb_status climb_comm_ranks(climb_comm comm, int *nranks, int *rank);
CLIMB_API climb_status climb_comm_destroy(climb_comm comm);
CLIMB_API climb_status climb_comm_size(climb_comm comm, int *ndev);
CLIMB_API climb_status climb_comm_set_stream(climb_comm comm, int rank, cudaStream_t stream);
CLIMB_API climb_status climb_comm_get_stream(climb_comm comm, int rank, cudaStream_t *stream);
CLIMB_API cudaError_t climb_comm_last_cuda_error(climb_comm comm);
CLIMB_API climb_status climb_comm_allreduce_sum_f32(climb_comm comm, const float *const *d_in, float *const *d_out,
                                                    size_t n);
CLIMB_API climb_status climb_comm_allreduce_sum_i32(climb_comm comm, const int32_t *const *d_in,
                                                    int32_t *const *d_out, size_t n);
CLIMB_API climb_status climb_comm_allgather_f32(climb_comm comm, const float *const *d_in, float *const *d_out,
                                                size_t n);
CLIMB_API climb_status climb_comm_allgather_i32(climb_comm comm, const int32_t *const *d_in, int32_t *const *d_out,
                                                size_t n);
CLIMB_API climb_status climb_comm_reducescatter_sum_f32(climb_comm comm, const float *const *d_in,
                                                        float *const *d_out, size_t n);
CLIMB_API climb_status climb_comm_reducescatter_sum_i32(climb_comm comm, const int32_t *const *d_in,
                                                        int32_t *const *d_out, size_t n);
CLIMB_API climb_status climb_comm_peer_copy(climb_comm comm, int to, void *d_dst, int from, const void *d_src,
                                            size_t bytes);
CLIMB_API climb_status climb_comm_stencil_slab(climb_comm comm, size_t nz, int rank, size_t *z0, size_t *z1,
                                               size_t *planes);
CLIMB_API climb_status climb_comm_stencil7_f32(climb_comm comm, size_t nx, size_t ny, size_t nz,
                                               const float coeffs[7], const float *const *d_in, float *const *d_out);
CLIMB_API climb_status climb_comm_sgemm_split(climb_comm comm, size_t m, size_t k, int rank, size_t *m0, size_t *m1,
                                              size_t *k0, size_t *k1);
CLIMB_API climb_status climb_comm_sgemm_f32(climb_comm comm, size_t m, size_t n, size_t k, const float *const *d_a,
                                            const float *const *d_b, float *const *d_c);
CLIMB_API climb_status climb_comm_sort_u32(climb_comm comm, const size_t *counts, const uint32_t *const *d_in,
                                           uint32_t *const *d_out);
CLIMB_API climb_status climb_comm_sort_pairs_u32(climb_comm comm, const size_t *counts,
                                                 const uint32_t *const *d_keys_in, const uint32_t *const *d_vals_in,
                                                 uint32_t *const *d_keys_out, uint32_t *const *d_vals_out);
CLIMB_API climb_status climb_comm_bfs_range(climb_comm comm, int32_t n_vertices, int rank, int32_t *v0,
                                            int32_t *v1);
CLIMB_API climb_status climb_comm_bfs(climb_comm comm, int32_t n_vertices, const int32_t *n_edges,
                                      const int32_t *const *d_row_ptr, const int32_t *const *d_col_idx,
                                      const int32_t *n_in_edges, const int32_t *const *d_in_row_ptr,
                                      const int32_t *const *d_in_col_idx, int32_t source, int32_t *const *d_levels);

/* The occupancy calculator (climb_occupancy and its tables) is declared in climb_occupancy.h, included above. */

#ifdef __cplusplus
}
#endif

#endif /* CLIMB_H */
