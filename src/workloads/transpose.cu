/*
 * transpose.cu - matrix transpose (out = in^T), f32 and f64, as a ladder to the copy bound.
 *
 * From Filipovič (Filipovic, "Matrix Transposition": the naive kernel, the 32 x 32 shared tile with 32 x 8 threads,
 * the bank-conflict padding, partition camping and the diagonal block order, with GTX 280 figures for 4000 x 4000),
 * 004 (Professional CUDA C ch. 5 notes: copy kernels as the bounds, rectangular tiles, several elements per thread),
 * 000 (Harris: coalesced transpose through shared memory). See docs/transpose.md.
 *
 * Layout: `in` is rows x cols, row-major, rows `ld_in` elements apart (ld_in = cols + pad); `out` is cols x rows,
 * rows `ld_out` apart (ld_out = rows + pad). out[j][i] = in[i][j]; the padding of out is never written.
 *
 * Order of this file: CPU reference, tile order, kernels (one per rung, each with what it changes), launchers,
 * the registry table, tuning, then the harness glue (inputs, reference, poison, verify, counts).
 *
 * Every kernel walks the matrix in tiles, one block per tile, with the tile number taken from a 1-D grid (a 2-D
 * grid would cap the tiles down the rows at 65535). Bytes counted: rows x cols x element size read and written.
 */
#include <cublas_v2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/check.h"
#include "../device/cublas_shared.h"
#include "../device/device.h"
#include "../base/rng.h"
#include "../core/workload.cuh"
#include "transpose.h"
#include "../base/checked.h"

/* ---------------------------------------------------------------- options */

enum { OPT_PAD };
static constexpr climb_option TRANSPOSE_OPTIONS[] = {
    {.name = "pad", .kind = CLIMB_OPT_INT,
     .meaning = "elements of padding after each row of in and of out (ld_in = cols + pad, ld_out = rows + pad)",
     .def = "0", .min = 0, .max = 64},
};
CLIMB_OPTION_AT(TRANSPOSE_OPTIONS, OPT_PAD, "pad");

/* ---------------------------------------------------------------- CPU reference */

/* In blocks of 64 x 64, so that both the strided side and the contiguous side stay in the cache. */
extern "C" void climb_transpose_ref(const void *in, size_t ld_in, void *out, size_t ld_out, size_t rows, size_t cols,
                                    size_t es)
{
    const char *src = (const char *)in;
    char *dst = (char *)out;
    for (size_t i0 = 0; i0 < rows; i0 += 64)
        for (size_t j0 = 0; j0 < cols; j0 += 64)
            for (size_t i = i0; i < rows && i < i0 + 64; i++)
                for (size_t j = j0; j < cols && j < j0 + 64; j++)
                    memcpy(dst + (j * ld_out + i) * es, src + (i * ld_in + j) * es, es);
}

/* ---------------------------------------------------------------- tile order */

/* Which tile block b of a 1-D grid moves: row by row (b = tile column + tiles_x x tile row, as a 2-D grid is
 * dispatched), or diagonally. Diagonal order (Filipovič's cure for partition camping): the blocks that run together
 * take tiles from different tile columns, so their writes (rows of out) and reads spread over more memory
 * partitions. Blocks are numbered down the diagonals: q = b / tiles_y walks across, the tile row is b % tiles_y,
 * and the tile column is (q + tile row) % tiles_x, a one-to-one map for any tiles_x, tiles_y. */
__device__ __forceinline__ void tile_of(unsigned b, unsigned tiles_x, unsigned tiles_y, int diagonal, unsigned *tx,
                                        unsigned *ty)
{
    if (diagonal) {
        *ty = b % tiles_y;
        *tx = (b / tiles_y + *ty) % tiles_x;
    } else {
        *tx = b % tiles_x;
        *ty = b / tiles_x;
    }
}

/* ---------------------------------------------------------------- kernels */

/* Bound, copy_tiled: the same bytes copied (in to a copy of in), no transposition, with the tiled rungs' mapping:
 * 32 x 32 tiles, 32 x 8 threads, four rows each. Reads and writes are both coalesced: what the transposes would
 * reach if reordering the elements cost nothing (Filipovič's "copy within the blocks"). */
template <typename T>
__global__ void transpose_copy_tiled_kernel(const T *__restrict__ in, T *__restrict__ copy, size_t rows, size_t cols,
                                            size_t ld, unsigned tiles_x)
{
    const size_t r0 = (size_t)(blockIdx.x / tiles_x) * 32, c = (size_t)(blockIdx.x % tiles_x) * 32 + threadIdx.x;
    if (c >= cols)
        return;
    for (unsigned i = threadIdx.y; i < 32; i += 8)
        if (r0 + i < rows)
            copy[(r0 + i) * ld + c] = in[(r0 + i) * ld + c];
}

/* transpose_naive: the textbook kernel. One thread per element of in, 32 x 8 threads per block: a warp reads 32
 * consecutive elements of a row (coalesced) and writes them down a column of out, 32 rows apart (one sector per
 * element written). */
template <typename T>
__global__ void transpose_naive_kernel(const T *__restrict__ in, T *__restrict__ out, size_t rows, size_t cols,
                                       size_t ld_in, size_t ld_out, unsigned tiles_x)
{
    const size_t i = (size_t)(blockIdx.x / tiles_x) * 8 + threadIdx.y, j = (size_t)(blockIdx.x % tiles_x) * 32 + threadIdx.x;
    if (i < rows && j < cols)
        out[j * ld_out + i] = in[i * ld_in + j];
}

/* transpose_naive_out_order: the same, with the threads laid over out instead: a warp writes 32 consecutive
 * elements of a row of out (coalesced) and reads them down a column of in. Strided reads cost less than strided
 * writes: a sector read is shared through L1 and L2 by the neighbouring columns, a partly written sector is not. */
template <typename T>
__global__ void transpose_naive_out_order_kernel(const T *__restrict__ in, T *__restrict__ out, size_t rows,
                                                 size_t cols, size_t ld_in, size_t ld_out, unsigned tiles_x)
{
    const size_t j = (size_t)(blockIdx.x / tiles_x) * 8 + threadIdx.y, i = (size_t)(blockIdx.x % tiles_x) * 32 + threadIdx.x;
    if (i < rows && j < cols)
        out[j * ld_out + i] = in[i * ld_in + j];
}

/* transpose_shared_tile (PAD 0) and transpose_tile_padded (PAD 1): a 32 x 32 tile staged in shared memory, one
 * element per thread of a 32 x 32 block. A warp reads a row of the tile from in and writes a row of the
 * transposed tile to out: both coalesced. Writing out reads a column of the shared tile: with rows of 32
 * elements all 32 sit in one bank (a 32-way conflict); one element of padding per row puts them in 32 banks. */
template <typename T, int PAD>
__global__ void transpose_tile_kernel(const T *__restrict__ in, T *__restrict__ out, size_t rows, size_t cols,
                                      size_t ld_in, size_t ld_out, unsigned tiles_x)
{
    __shared__ T tile[32][32 + PAD];
    const size_t r0 = (size_t)(blockIdx.x / tiles_x) * 32, c0 = (size_t)(blockIdx.x % tiles_x) * 32;
    const unsigned x = threadIdx.x, y = threadIdx.y;
    if (r0 + y < rows && c0 + x < cols)
        tile[y][x] = in[(r0 + y) * ld_in + c0 + x];
    __syncthreads();
    if (c0 + y < cols && r0 + x < rows)
        out[(c0 + y) * ld_out + r0 + x] = tile[x][y];
}

/* transpose_rect_tile: PMPP's rectangular tile, 32 rows x 16 columns, one element per thread of a 16 x 32
 * block (512 threads instead of 1024: finer-grained blocks for the scheduler). The block reads 32 half-rows of
 * 16 elements and, renumbering its threads, writes 16 full rows of 32 elements of out. One element of padding
 * keeps the column reads conflict-free (17 is odd). */
template <typename T>
__global__ void transpose_rect_tile_kernel(const T *__restrict__ in, T *__restrict__ out, size_t rows, size_t cols,
                                           size_t ld_in, size_t ld_out, unsigned tiles_x)
{
    __shared__ T tile[32][16 + 1];
    const size_t r0 = (size_t)(blockIdx.x / tiles_x) * 32, c0 = (size_t)(blockIdx.x % tiles_x) * 16;
    const unsigned x = threadIdx.x, y = threadIdx.y;
    if (r0 + y < rows && c0 + x < cols)
        tile[y][x] = in[(r0 + y) * ld_in + c0 + x];
    __syncthreads();
    const unsigned t = y * 16 + x, oj = t / 32, oi = t % 32; /* row oj of the transposed tile, element oi */
    if (c0 + oj < cols && r0 + oi < rows)
        out[(c0 + oj) * ld_out + r0 + oi] = tile[oi][oj];
}

/* The elements one vector load or store moves: VEC elements, aligned to their size up to 16 bytes (a 32-byte
 * vector of doubles is two 16-byte accesses). */
template <typename T, int VEC> struct alignas(sizeof(T) * VEC > 16 ? 16 : sizeof(T) * VEC) transpose_vec {
    T e[VEC];
};

/* transpose_multi_element (32 x 32 tiles, 8 rows of threads, row order), transpose_diagonal (the same in diagonal
 * order) and the best rung (tile, vector, rows of threads and order tuned): a TILE x TILE tile, padded, moved by
 * a block of TILE/VEC x ROWS threads, each thread moving VEC elements of PER = TILE/ROWS rows. Several elements
 * per thread spend the index arithmetic and the barrier on more bytes (Filipovič's 32 x 8 threads per 32 x 32
 * tile), and because PER is known at compile time every load of a thread is issued before the first of them is
 * stored to shared memory: PER x VEC elements in flight per thread, where a loop storing each row as it arrives
 * waits for every load in turn. Vectors move up to 16 bytes per instruction. A full tile takes that path; the
 * tiles on the right and bottom edges check every element. The vector path needs ld_in, ld_out and both pointers
 * aligned to the vector (the launcher falls back to VEC 1 otherwise). */
template <typename T, int TILE, int VEC, int ROWS>
__global__ void __launch_bounds__(TILE / VEC * ROWS)
    transpose_tiled_kernel(const T *__restrict__ in, T *__restrict__ out, size_t rows, size_t cols, size_t ld_in,
                           size_t ld_out, unsigned tiles_x, unsigned tiles_y, int diagonal)
{
    constexpr int PER = TILE / ROWS;
    __shared__ T tile[TILE][TILE + 1];
    typedef transpose_vec<T, VEC> V;
    unsigned bx, by;
    tile_of(blockIdx.x, tiles_x, tiles_y, diagonal, &bx, &by);
    const size_t r0 = (size_t)by * TILE, c0 = (size_t)bx * TILE;
    const unsigned x = threadIdx.x * VEC, y = threadIdx.y;
    if (r0 + TILE <= rows && c0 + TILE <= cols) { /* the same branch for the whole block */
        V v[PER];
#pragma unroll
        for (int k = 0; k < PER; k++)
            v[k] = *reinterpret_cast<const V *>(in + (r0 + y + k * ROWS) * ld_in + c0 + x);
#pragma unroll
        for (int k = 0; k < PER; k++)
#pragma unroll
            for (int e = 0; e < VEC; e++)
                tile[y + k * ROWS][x + e] = v[k].e[e];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < PER; k++) {
            V w;
#pragma unroll
            for (int e = 0; e < VEC; e++)
                w.e[e] = tile[x + e][y + k * ROWS];
            *reinterpret_cast<V *>(out + (c0 + y + k * ROWS) * ld_out + r0 + x) = w;
        }
    } else {
        for (int k = 0; k < PER; k++)
            for (int e = 0; e < VEC; e++)
                if (r0 + y + k * ROWS < rows && c0 + x + e < cols)
                    tile[y + k * ROWS][x + e] = in[(r0 + y + k * ROWS) * ld_in + c0 + x + e];
        __syncthreads();
        for (int k = 0; k < PER; k++)
            for (int e = 0; e < VEC; e++)
                if (c0 + y + k * ROWS < cols && r0 + x + e < rows)
                    out[(c0 + y + k * ROWS) * ld_out + r0 + x + e] = tile[x + e][y + k * ROWS];
    }
}

/* ---------------------------------------------------------------- launchers */

struct climb_case;

static unsigned tiles(size_t n, size_t tile) { return (unsigned)((n + tile - 1) / tile); }

extern "C" int climb_transpose_fits(size_t rows, size_t cols)
{
    const size_t tx = cols / 32 + (cols % 32 != 0), ty = rows / 32 + (rows % 32 != 0);
    size_t blocks;
    return climb_mul_fits(tx, ty, &blocks) && blocks <= 0x7fffffffu;
}

/* A 1-D grid of tiles_x x tiles_y blocks; the counts are checked to fit (refuses() says when they do not). */
#define TRANSPOSE_GRID(tx, ty) dim3((unsigned)((size_t)(tx) * (ty)))

template <typename T>
static cudaError_t launch_copy_tiled(const T *in, T *copy, size_t rows, size_t cols, size_t ld, cudaStream_t s)
{
    unsigned tx = tiles(cols, 32), ty = tiles(rows, 32);
    transpose_copy_tiled_kernel<T><<<TRANSPOSE_GRID(tx, ty), dim3(32, 8), 0, s>>>(in, copy, rows, cols, ld, tx);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t launch_naive(const T *in, T *out, size_t rows, size_t cols, size_t ld_in, size_t ld_out,
                                cudaStream_t s)
{
    unsigned tx = tiles(cols, 32), ty = tiles(rows, 8);
    transpose_naive_kernel<T><<<TRANSPOSE_GRID(tx, ty), dim3(32, 8), 0, s>>>(in, out, rows, cols, ld_in, ld_out, tx);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t launch_naive_out_order(const T *in, T *out, size_t rows, size_t cols, size_t ld_in, size_t ld_out,
                                          cudaStream_t s)
{
    unsigned tx = tiles(rows, 32), ty = tiles(cols, 8);
    transpose_naive_out_order_kernel<T><<<TRANSPOSE_GRID(tx, ty), dim3(32, 8), 0, s>>>(in, out, rows, cols, ld_in,
                                                                                      ld_out, tx);
    return cudaGetLastError();
}

template <typename T, int PAD>
static cudaError_t launch_tile(const T *in, T *out, size_t rows, size_t cols, size_t ld_in, size_t ld_out,
                               cudaStream_t s)
{
    unsigned tx = tiles(cols, 32), ty = tiles(rows, 32);
    transpose_tile_kernel<T, PAD><<<TRANSPOSE_GRID(tx, ty), dim3(32, 32), 0, s>>>(in, out, rows, cols, ld_in, ld_out, tx);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t launch_rect_tile(const T *in, T *out, size_t rows, size_t cols, size_t ld_in, size_t ld_out,
                                    cudaStream_t s)
{
    unsigned tx = tiles(cols, 16), ty = tiles(rows, 32);
    transpose_rect_tile_kernel<T><<<TRANSPOSE_GRID(tx, ty), dim3(16, 32), 0, s>>>(in, out, rows, cols, ld_in, ld_out, tx);
    return cudaGetLastError();
}

/* The instance of transpose_tiled_kernel for (T, tile, vec, rows); NULL for values outside the lists and for
 * blocks of more than 1024 threads (those are not compiled). */
template <typename T, int TL, int VC, int RW> static const void *tiled_instance_of()
{
    if constexpr (TL / VC * RW <= 1024 && RW <= TL)
        return (const void *)transpose_tiled_kernel<T, TL, VC, RW>;
    else
        return NULL;
}

template <typename T> static const void *tiled_instance(int tile, int vec, int rows)
{
#define TRANSPOSE_INSTANCE(TL, VC, RW)                                                                        \
    if (tile == TL && vec == VC && rows == RW)                                                                \
        return tiled_instance_of<T, TL, VC, RW>();
#define TRANSPOSE_ROWS(TL, VC)                                                                                \
    TRANSPOSE_INSTANCE(TL, VC, 4) TRANSPOSE_INSTANCE(TL, VC, 8) TRANSPOSE_INSTANCE(TL, VC, 16)                \
    TRANSPOSE_INSTANCE(TL, VC, 32)
    TRANSPOSE_ROWS(32, 1) TRANSPOSE_ROWS(32, 2) TRANSPOSE_ROWS(32, 4)
    TRANSPOSE_ROWS(64, 1) TRANSPOSE_ROWS(64, 2) TRANSPOSE_ROWS(64, 4)
#undef TRANSPOSE_ROWS
#undef TRANSPOSE_INSTANCE
    return NULL;
}

/* The vector width the matrices allow: vec when both pointers and both leading dimensions are aligned to it,
 * else 1. */
static int usable_vec(int vec, size_t es, const void *in, size_t ld_in, const void *out, size_t ld_out)
{
    const size_t align = (size_t)vec * es > 16 ? 16 : (size_t)vec * es;
    if (vec > 1 && ((uintptr_t)in % align || (uintptr_t)out % align || ld_in % (size_t)vec || ld_out % (size_t)vec))
        return 1;
    return vec;
}

template <typename T>
static cudaError_t launch_tiled(const climb_transpose_tuning *t, const T *in, T *out, size_t rows, size_t cols,
                                size_t ld_in, size_t ld_out, cudaStream_t s)
{
    const int vec = usable_vec(t->vec, sizeof(T), in, ld_in, out, ld_out);
    if (t->tile < 1 || tiled_instance<T>(t->tile, t->vec, t->rows) == NULL)
        return cudaErrorInvalidValue;
    /* Without vectors a row of the tile takes vec times the threads: fewer rows of them keep the block launchable. */
    const int trows = vec == t->vec || t->tile * t->rows <= 1024 ? t->rows : 1024 / t->tile;
    const void *f = tiled_instance<T>(t->tile, vec, trows);
    if (!f)
        return cudaErrorInvalidValue;
    if (!climb_transpose_fits(rows, cols))
        return cudaErrorInvalidConfiguration;
    unsigned tx = tiles(cols, (size_t)t->tile), ty = tiles(rows, (size_t)t->tile);
    int diagonal = t->diagonal;
    void *args[] = {(void *)&in, (void *)&out, (void *)&rows, (void *)&cols, (void *)&ld_in, (void *)&ld_out,
                    (void *)&tx, (void *)&ty, (void *)&diagonal};
    return cudaLaunchKernel(f, TRANSPOSE_GRID(tx, ty), dim3((unsigned)(t->tile / vec), (unsigned)trows), args, 0, s);
}

extern "C" void climb_transpose_set_tuning(climb_transpose_tuning *t, const int *v)
{
    t->tile = v[0];
    t->rows = v[1];
    t->vec = v[2];
    t->diagonal = v[3];
}

/* ---------------------------------------------------------------- the case */

struct climb_case {
    climb_case_params p;
    size_t rows, cols, ld_in, ld_out, es;
    void *h_in, *d_in;        /* rows x ld_in, as uploaded (padding holds a marker) */
    void *h_out, *d_out;      /* cols x ld_out: the transpose, and verify's download */
    void *h_copy, *d_copy;    /* rows x ld_in: a bound rung's copy, and its download */
    /* The reference: CPU (every element of out, dense cols x rows), vendor (the vendor's output, adopted after
     * spot checks, also dense) or samples (the dense indices checked, against in). */
    climb_ref_mode ref_mode;
    void *ref;                /* cols x rows, dense; NULL for SAMPLES */
    size_t *samples;
    size_t n_samples;
    climb_transpose_tuning tune;
    cublasHandle_t cublas;    /* the process's one cuBLAS handle (made once: creating one costs far more than a run) */
};

/* ---------------------------------------------------------------- the rungs */

typedef struct transpose_rung {
    climb_rung_info info;
    int copies;               /* a bound rung that copies in to d_copy instead of transposing */
} transpose_rung;

/* Returns what the statement returns with T the C type of the case's element type (core's typed dispatch). */
#define TRANSPOSE_TYPED(c, ...)                                                                               \
    return climb_typed<CLIMB_TYPES_F32_F64>((c)->p.type, cudaErrorInvalidValue, [&](auto transpose_x) {       \
        typedef decltype(transpose_x) T;                                                                      \
        __VA_ARGS__;                                                                                          \
    })

#define TRANSPOSE_ARGS(c) (const T *)(c)->d_in, (T *)(c)->d_out, (c)->rows, (c)->cols, (c)->ld_in, (c)->ld_out

static cudaError_t run_cublas(climb_case *c, cudaStream_t s)
{
    /* cuBLAS is column-major: in (rows x cols row-major, ld_in) is its cols x rows matrix A with lda = ld_in, out
     * its rows x cols matrix C with ldc = ld_out, and C = 1 op(A) + 0 op(B) with op(A) = A^T. B is A again
     * (transposed, scaled by 0): a valid operand that is never in the way. */
    const int m = (int)c->rows, n = (int)c->cols, lda = (int)c->ld_in, ldc = (int)c->ld_out;
    cublasStatus_t st = cublasSetStream(c->cublas, s);
    if (st == CUBLAS_STATUS_SUCCESS) {
        if (c->p.type == CLIMB_F32) {
            const float one = 1, zero = 0;
            st = cublasSgeam(c->cublas, CUBLAS_OP_T, CUBLAS_OP_T, m, n, &one, (const float *)c->d_in, lda, &zero,
                             (const float *)c->d_in, lda, (float *)c->d_out, ldc);
        } else {
            const double one = 1, zero = 0;
            st = cublasDgeam(c->cublas, CUBLAS_OP_T, CUBLAS_OP_T, m, n, &one, (const double *)c->d_in, lda, &zero,
                             (const double *)c->d_in, lda, (double *)c->d_out, ldc);
        }
    }
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "climb: transpose cuBLAS geam: %s\n", cublasGetStatusString(st));
        return cudaErrorUnknown;
    }
    return cudaGetLastError();
}

/* One linear copy when the rows are not padded (the fastest the runtime has); a pitched copy when they are. */
static cudaError_t run_memcpy(climb_case *c, cudaStream_t s)
{
    if (c->ld_in == c->cols)
        return cudaMemcpyAsync(c->d_copy, c->d_in, c->rows * c->cols * c->es, cudaMemcpyDeviceToDevice, s);
    return cudaMemcpy2DAsync(c->d_copy, c->ld_in * c->es, c->d_in, c->ld_in * c->es, c->cols * c->es, c->rows,
                             cudaMemcpyDeviceToDevice, s);
}

static cudaError_t run_copy_tiled(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_copy_tiled<T>((const T *)c->d_in, (T *)c->d_copy, c->rows, c->cols, c->ld_in, s));
}

static cudaError_t run_naive(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_naive<T>(TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_naive_out_order(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_naive_out_order<T>(TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_shared_tile(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_tile<T, 0>(TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_tile_padded(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_tile<T, 1>(TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_rect_tile(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_rect_tile<T>(TRANSPOSE_ARGS(c), s));
}

/* The fixed shapes of the two rungs between the rectangular tile and the best. */
static const climb_transpose_tuning MULTI_ELEMENT = {32, 8, 1, 0}, DIAGONAL = {32, 8, 1, 1};

static cudaError_t run_multi_element(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_tiled<T>(&MULTI_ELEMENT, TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_diagonal(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_tiled<T>(&DIAGONAL, TRANSPOSE_ARGS(c), s));
}

static cudaError_t run_best(climb_case *c, cudaStream_t s)
{
    TRANSPOSE_TYPED(c, return launch_tiled<T>(&c->tune, TRANSPOSE_ARGS(c), s));
}

/* ---- what each rung launches, for climb occupancy --kernel ---- */


#define TRANSPOSE_KERNELS(fname, kname, threads, ...)                                                         \
    template <typename T> static const void *fname##_of() { return (const void *)(__VA_ARGS__); }            \
    static int fname(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)  \
    {                                                                                                         \
        const void *f = climb_typed<CLIMB_TYPES_F32_F64>(t, (const void *)NULL, [](auto x) {                  \
            return fname##_of<decltype(x)>();                                                                 \
        });                                                                                                   \
        return climb_kernel_at(out, max, 0, f, threads, 0, "%s<%s>", kname, climb_dtype_name(t));             \
    }
TRANSPOSE_KERNELS(k_copy_tiled, "transpose_copy_tiled_kernel", 256, transpose_copy_tiled_kernel<T>)
TRANSPOSE_KERNELS(k_naive, "transpose_naive_kernel", 256, transpose_naive_kernel<T>)
TRANSPOSE_KERNELS(k_naive_out_order, "transpose_naive_out_order_kernel", 256, transpose_naive_out_order_kernel<T>)
TRANSPOSE_KERNELS(k_shared_tile, "transpose_tile_kernel<pad 0>", 1024, transpose_tile_kernel<T, 0>)
TRANSPOSE_KERNELS(k_tile_padded, "transpose_tile_kernel<pad 1>", 1024, transpose_tile_kernel<T, 1>)
TRANSPOSE_KERNELS(k_rect_tile, "transpose_rect_tile_kernel", 512, transpose_rect_tile_kernel<T>)

/* The tiled rungs: the instance their tile and vector select (the widest: an aligned case's). */
static int tiled_kernels(const climb_transpose_tuning *tn, climb_dtype t, climb_kernel_desc *out, int max)
{
    const void *f = climb_typed<CLIMB_TYPES_F32_F64>(t, (const void *)NULL, [&](auto x) {
        return (const void *)tiled_instance<decltype(x)>(tn->tile, tn->vec, tn->rows);
    });
    if (!f)
        return 0;
    if (max >= 1) {
        memset(out, 0, sizeof *out);
        snprintf(out->name, sizeof out->name, "transpose_tiled_kernel<%s, %d, %d, %d>", climb_dtype_name(t), tn->tile,
                 tn->vec, tn->rows);
        out->func = f;
        out->block_threads = tn->tile / tn->vec * tn->rows;
    }
    return 1;
}

static int k_multi_element(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return tiled_kernels(&MULTI_ELEMENT, t, out, max);
}

static int k_diagonal(climb_dtype t, const climb_device_info *, const int *, climb_kernel_desc *out, int max)
{
    return tiled_kernels(&DIAGONAL, t, out, max);
}

static int k_best(climb_dtype t, const climb_device_info *, const int *tuning, climb_kernel_desc *out, int max)
{
    climb_transpose_tuning tn;
    climb_transpose_set_tuning(&tn, tuning);
    return tiled_kernels(&tn, t, out, max);
}

/* The ladder, in order: the vendor, the two bounds, Harris's and Filipovič's steps, the best. The GTX 280 figures
 * are Filipovič's for 4000 x 4000 floats (GB/s; its copy within 32 x 32 tiles is the tiled copy bound). */
static const transpose_rung TRANSPOSE_RUNGS[] = {
    {.info = {.name = "transpose_cublas_geam", .idea = "vendor: cublasSgeam / cublasDgeam with op(A) = A^T",
              .needs = "rows, cols and leading dimensions below 2^31", .kind = CLIMB_RUNG_VENDOR, .launch = run_cublas}},
    {.info = {.name = "copy_memcpy", .idea = "bound: cudaMemcpyAsync of the same bytes, in to a copy of in "
                                             "(cudaMemcpy2DAsync when rows are padded)",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .launch = run_memcpy},
     .copies = 1},
    {.info = {.name = "copy_tiled", .idea = "bound: the tiled rungs' mapping, copying instead of transposing",
              .needs = "", .kind = CLIMB_RUNG_BOUND, .kernels = k_copy_tiled, .published_rate = 94.9, .launch = run_copy_tiled},
     .copies = 1},
    {.info = {.name = "transpose_naive", .idea = "one thread per element: coalesced reads, writes 32 rows apart",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive, .published_rate = 5.3, .launch = run_naive}},
    {.info = {.name = "transpose_naive_out_order", .idea = "threads laid over out: coalesced writes, strided reads",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_naive_out_order, .launch = run_naive_out_order}},
    {.info = {.name = "transpose_shared_tile", .idea = "32 x 32 tile in shared memory: both sides coalesced, "
                                                       "32-way bank conflicts on the column reads",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_shared_tile, .launch = run_shared_tile}},
    {.info = {.name = "transpose_tile_padded", .idea = "one element of padding per tile row: no bank conflicts",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_tile_padded, .launch = run_tile_padded}},
    {.info = {.name = "transpose_rect_tile", .idea = "32 x 16 rectangular tile, 512 threads a block",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_rect_tile, .launch = run_rect_tile}},
    {.info = {.name = "transpose_multi_element", .idea = "32 x 8 threads per 32 x 32 tile: four elements a thread",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_multi_element, .published_rate = 93.4, .launch = run_multi_element}},
    {.info = {.name = "transpose_diagonal", .idea = "tiles in diagonal order (against partition camping)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_diagonal, .published_rate = 80, .launch = run_diagonal}},
    {.info = {.name = "transpose_vectorized", .idea = "16-byte loads and stores; tile, threads and order tuned",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best, .launch = run_best}},
};
#define TRANSPOSE_N_RUNGS CLIMB_COUNT(TRANSPOSE_RUNGS)

static const climb_published TRANSPOSE_PUBLISHED = {
    .source = "Filipovic, GPU Hardware Performance, 'Matrix Transposition'",
    .gpu = "GTX 280",
    .type = CLIMB_F32,
    .shape = CLIMB_SHAPE2(4000, 4000),
    .rate_unit = "GB/s",
};

static const climb_rung_info *transpose_rung_info(int i) { return &TRANSPOSE_RUNGS[i].info; }

extern "C" cudaError_t climb_transpose_best(const climb_transpose_tuning *t, climb_dtype type, const void *in,
                                            size_t ld_in, void *out, size_t ld_out, size_t rows, size_t cols,
                                            cudaStream_t s)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    return climb_typed<CLIMB_TYPES_F32_F64>(type, cudaErrorInvalidValue, [&](auto x) {
        typedef decltype(x) T;
        return launch_tiled<T>(t, (const T *)in, (T *)out, rows, cols, ld_in, ld_out, s);
    });
}

/* ---------------------------------------------------------------- tuning (experiment mode) */

/* The values of tile, rows and vec are also the instances tiled_instance() compiles: a value added here needs its
 * instances there (test_gpu_occupancy fails for a candidate without a kernel). */
static const int TILES[] = {32, 64}, ROWS[] = {4, 8, 16, 32}, VECS[] = {1, 2, 4}, ORDERS[] = {0, 1};
static const climb_tunable TRANSPOSE_TUNABLES[] = {
    {.name = "tile", .meaning = "tile edge in elements", .values = TILES, .n_values = CLIMB_COUNT(TILES)},
    {.name = "rows", .meaning = "rows of threads per block", .values = ROWS, .n_values = CLIMB_COUNT(ROWS)},
    {.name = "vec", .meaning = "elements per global load and store", .values = VECS, .n_values = CLIMB_COUNT(VECS)},
    {.name = "diagonal", .meaning = "1: tiles in diagonal order", .values = ORDERS, .n_values = CLIMB_COUNT(ORDERS)},
};

/* A matrix is large, for its tuning class, when its bytes read and written pass four times the L2. */
static int transpose_large(const climb_device_info *dev, const climb_tuning_key *k)
{
    const double bytes = 2.0 * (double)k->shape.d[0] * (double)k->shape.d[1] * (double)climb_dtype_size(k->type);
    return dev->l2_bytes > 0 && bytes > 4.0 * dev->l2_bytes;
}

/* The tuning classes: the element type, and large against small (transpose_large). The fastest set is not the
 * same for all (docs/transpose.md: on the H100, 64 x 64 tiles with 8 rows of threads are 3.5-5% faster than
 * 32 x 32 on f32 matrices of 268 MB, 537 MB read and written, and 1-6% slower on those of 64 MB, 128 MB read and
 * written, and less). The line between those sizes is a choice: four times the L2 lies between them on the H100
 * (200 MiB) and the H200 (240 MiB), and `climb tune transpose` picks each class's values on the GPU itself, so the
 * line only decides which cases share a set. */
static void transpose_class(const climb_device_info *dev, const climb_tuning_key *k, char *buf, size_t len)
{
    snprintf(buf, len, "%s,%s", climb_dtype_name(k->type), transpose_large(dev, k) ? "large" : "small");
}

/* Built-in values, used where no wisdom file matches the device. CC 9.x: what `climb tune` measured fastest on an
 * H100 (docs/transpose.md): 32 x 32 tiles, 8 rows of threads, one element an access, row order; 64 x 64 tiles for
 * a large f32 matrix. Elsewhere a first guess from the texts' shape: 32 x 32, 8 rows, 16-byte vectors. */
static const char *transpose_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    v[1] = 8;
    v[3] = 0;
    if (dev && dev->cc_major == 9) {
        const int big = k->type == CLIMB_F32 && transpose_large(dev, k);
        v[0] = big ? 64 : 32;
        v[2] = 1;
        return big ? "built-in CC 9.x policy for a large f32 matrix (measured on an H100)"
                   : "built-in CC 9.x policy (measured on an H100)";
    }
    v[0] = 32;
    v[2] = k->type == CLIMB_F64 ? 2 : 4;
    return "built-in default (not measured on this architecture: 32 x 32 tiles, 8 rows of threads, 16-byte vectors)";
}

static const char *transpose_rejects(const climb_device_info *dev, const int *v)
{
    (void)dev;
    const int threads = v[0] / v[2] * v[1];
    if (threads > 1024)
        return "more than 1024 threads per block";
    if (v[1] > v[0])
        return "more rows of threads than the tile has";
    return NULL;
}

static const climb_tuning TRANSPOSE_TUNING = {
    .params = TRANSPOSE_TUNABLES,
    .n_params = CLIMB_COUNT(TRANSPOSE_TUNABLES),
    .candidates = NULL, /* every combination */
    .n_candidates = 0,
    .defaults = transpose_defaults,
    .rejects = transpose_rejects,
    .shape_class = transpose_class,
    .shape_class_meaning = "the element type, and large (more bytes read and written than 4 x the L2) or small",
};

/* ---------------------------------------------------------------- harness glue */

static void transpose_fini(climb_case *c)
{
    free(c->ref);
    free(c->samples);
}

/* A padding element's value: never part of a result, so reading it where an element belongs shows. */
#define TRANSPOSE_PAD_MARK 7777.0

static int transpose_init(climb_case *c)
{
    c->rows = c->p.shape.d[0];
    c->cols = c->p.shape.d[1];
    c->ld_in = c->cols + (size_t)c->p.opts[OPT_PAD].i;
    c->ld_out = c->rows + (size_t)c->p.opts[OPT_PAD].i;
    c->es = climb_dtype_size(c->p.type);
    return 0;
}

/* Values in [-1000, 1000): every element distinct with overwhelming odds, so a misplaced one shows. */
static int transpose_fill(climb_case *c)
{
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed);
    for (size_t i = 0; i < c->rows; i++) {
        char *row = (char *)c->h_in + i * c->ld_in * c->es;
        climb_rng_fill(&rng, c->p.type, row, c->cols, -1000, 1000);
        for (size_t j = c->cols; j < c->ld_in; j++) {
            if (c->p.type == CLIMB_F32)
                ((float *)row)[j] = (float)TRANSPOSE_PAD_MARK;
            else
                ((double *)row)[j] = TRANSPOSE_PAD_MARK;
        }
    }
    return 0;
}

static size_t in_bytes(const climb_case *c) { return c->rows * c->ld_in * c->es; }
static size_t out_bytes(const climb_case *c) { return c->cols * c->ld_out * c->es; }

/* The outputs' poison is all ones: a NaN in f32 and f64, which no finite input can become. The copy's host copy is
 * downloaded by verify itself, for the copying rungs alone. */
static const climb_buffer TRANSPOSE_BUFFERS[] = {
    {.name = "in", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT | CLIMB_BUF_OFFSET, .bytes = in_bytes,
     .host_at = offsetof(climb_case, h_in), .device_at = offsetof(climb_case, d_in)},
    {.name = "out", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = out_bytes,
     .host_at = offsetof(climb_case, h_out), .device_at = offsetof(climb_case, d_out), .poison = 0xFF},
    {.name = "the copy", .flags = CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = in_bytes,
     .device_at = offsetof(climb_case, d_copy), .poison = 0xFF},
    {.name = "the copy's download", .flags = CLIMB_BUF_HOST, .bytes = in_bytes, .host_at = offsetof(climb_case, h_copy)},
};

static int transpose_empty(const climb_case *c) { return c->rows == 0 || c->cols == 0; }

static const char *transpose_describe(const climb_case *c)
{
    return c->ld_in == c->cols ? "in uniform random in [-1000, 1000)"
                               : "in uniform random in [-1000, 1000); rows padded (ld_in = cols + pad, ld_out = rows + pad)";
}

/* Element bits as a double, for messages. */
static double value_at(const climb_case *c, const void *base, size_t i)
{
    return c->es == 4 ? ((const float *)base)[i] : ((const double *)base)[i];
}

#define TRANSPOSE_SPOT_CHECKS 64
#define TRANSPOSE_SAMPLES 4096

static int download(climb_case *c, void *dst, const void *src, size_t elems)
{
    CLIMB_CHECK(cudaMemcpy(dst, src, elems * c->es, cudaMemcpyDeviceToHost));
    return 0;
}

static int transpose_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    const size_t n = c->rows * c->cols;
    c->ref_mode = mode;
    climb_rng rng;
    climb_rng_seed(&rng, c->p.seed ^ 0x27d4eb2fu);
    if (mode == CLIMB_REF_SAMPLES) {
        c->samples = climb_rng_samples(&rng, n, TRANSPOSE_SAMPLES, &c->n_samples);
        if (!c->samples)
            return -1;
        snprintf(desc, desclen, "CPU, %zu random elements of out, bit for bit", c->n_samples);
        return 0;
    }
    c->ref = malloc(n * c->es + 1);
    if (!c->ref) {
        climb_host_oom("the transpose reference");
        return -1;
    }
    if (mode == CLIMB_REF_CPU) {
        climb_transpose_ref(c->h_in, c->ld_in, c->ref, c->rows, c->rows, c->cols, c->es);
        snprintf(desc, desclen, "CPU transpose, every element, bit for bit");
        return 0;
    }
    /* The vendor's output is in out (downloaded by the harness): spot-check it against in, then adopt all of it. */
    for (int k = 0; k < TRANSPOSE_SPOT_CHECKS && n > 0; k++) {
        size_t d = (size_t)climb_rng_range(&rng, 0, (int64_t)n - 1), j = d / c->rows, i = d % c->rows;
        const char *got = (const char *)c->h_out + (j * c->ld_out + i) * c->es;
        const char *want = (const char *)c->h_in + (i * c->ld_in + j) * c->es;
        if (memcmp(got, want, c->es) != 0) {
            snprintf(desc, desclen, "the vendor's out[%zu][%zu] = %.9g, in[%zu][%zu] = %.9g", j, i,
                     value_at(c, c->h_out, j * c->ld_out + i), i, j, value_at(c, c->h_in, i * c->ld_in + j));
            return 1;
        }
    }
    for (size_t j = 0; j < c->cols; j++)
        memcpy((char *)c->ref + j * c->rows * c->es, (const char *)c->h_out + j * c->ld_out * c->es, c->rows * c->es);
    snprintf(desc, desclen, "%s's output, %d elements spot-checked on the CPU, bit for bit",
             TRANSPOSE_RUNGS[climb_vendor_rung(&climb_transpose_workload)].info.name, TRANSPOSE_SPOT_CHECKS);
    return 0;
}

/* Every rung takes every shape whose tiles fit a 1-D grid (2^31 - 1 blocks; counted here with 8 x 16 tiles, smaller
 * than any rung's); cuBLAS takes int sizes. */
static const char *transpose_refuses(const climb_case *c, int rung)
{
    if (TRANSPOSE_RUNGS[rung].info.launch == run_cublas &&
        (c->rows > (size_t)INT32_MAX || c->cols > (size_t)INT32_MAX || c->ld_in > (size_t)INT32_MAX ||
         c->ld_out > (size_t)INT32_MAX))
        return "cuBLAS takes sizes and leading dimensions below 2^31";
    if ((size_t)tiles(c->rows, 8) * tiles(c->cols, 16) > (size_t)INT32_MAX ||
        (size_t)tiles(c->cols, 8) * tiles(c->rows, 32) > (size_t)INT32_MAX)
        return "more tiles than a 1-D grid holds (2^31 - 1)";
    return NULL;
}

static int transpose_prepare(climb_case *c, int rung)
{
    if (TRANSPOSE_RUNGS[rung].info.launch == run_cublas && !c->cublas)
        return climb_cublas_shared(&c->cublas, "transpose");
    return 0;
}

/* One element, bit for bit: got at its place against want. */
static void same(climb_compare *k, const climb_case *c, const char *what, size_t r, size_t col, const char *got,
                 const char *want)
{
    climb_compare_check(k, memcmp(got, want, c->es) == 0, "%s[%zu][%zu] = %.9g, expected %.9g", what, r, col,
                        value_at(c, got, 0), value_at(c, want, 0));
}

/* A copying bound against in; out (downloaded by the harness) against the reference, or against in at the samples. */
static int transpose_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    if (TRANSPOSE_RUNGS[rung].copies) {
        if (download(c, c->h_copy, c->d_copy, c->rows * c->ld_in) != 0)
            return -1;
        for (size_t i = 0; i < c->rows; i++)
            for (size_t j = 0; j < c->cols; j++)
                same(&k, c, "copy", i, j, (const char *)c->h_copy + (i * c->ld_in + j) * c->es,
                     (const char *)c->h_in + (i * c->ld_in + j) * c->es);
    } else if (c->ref_mode == CLIMB_REF_SAMPLES) {
        for (size_t s = 0; s < c->n_samples; s++) {
            const size_t d = c->samples[s], j = d / c->rows, i = d % c->rows;
            same(&k, c, "out", j, i, (const char *)c->h_out + (j * c->ld_out + i) * c->es,
                 (const char *)c->h_in + (i * c->ld_in + j) * c->es);
        }
    } else {
        for (size_t j = 0; j < c->cols; j++)
            for (size_t i = 0; i < c->rows; i++)
                same(&k, c, "out", j, i, (const char *)c->h_out + (j * c->ld_out + i) * c->es,
                     (const char *)c->ref + (j * c->rows + i) * c->es);
    }
    return climb_compare_end(&k);
}

static void transpose_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    out->bytes_read = (double)c->rows * (double)c->cols * (double)c->es;
    out->bytes_written = out->bytes_read;
}

static void transpose_set_tuning(climb_case *c, const int *values) { climb_transpose_set_tuning(&c->tune, values); }

static const climb_shape TRANSPOSE_BENCH_SHAPES[] = {CLIMB_SHAPE2(4000, 4000), CLIMB_SHAPE2(4096, 4096),
                                                     CLIMB_SHAPE2(8192, 8192), CLIMB_SHAPE2(1024, 2048),
                                                     CLIMB_SHAPE2(1001, 3001)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape TRANSPOSE_MAIN_SHAPES[] = {CLIMB_SHAPE2(4096, 4096)};
static const climb_shape TRANSPOSE_CHECK_SHAPES[] = {
    CLIMB_SHAPE2(0, 0),   CLIMB_SHAPE2(0, 7),     CLIMB_SHAPE2(7, 0),    CLIMB_SHAPE2(1, 1),     CLIMB_SHAPE2(1, 1000),
    CLIMB_SHAPE2(1000, 1), CLIMB_SHAPE2(33, 31),  CLIMB_SHAPE2(31, 33),  CLIMB_SHAPE2(64, 64),   CLIMB_SHAPE2(65, 63),
    CLIMB_SHAPE2(129, 257), CLIMB_SHAPE2(250, 100), CLIMB_SHAPE2(1001, 3001)};
/* Filipovič found partition camping on the GTX 280 at sizes that are multiples of 512 (and, less, 256 and 128):
 * the tiles of a column of out then all start in the same memory partition. Square f32 sizes from 3968 to 4224,
 * 32 apart, against the copy of the same bytes, show whether Hopper's address hashing still has it. */
static const climb_sweep TRANSPOSE_SWEEPS[] = {
    {.name = "camping",
     .title = "partition camping: f32 transposes of n x n, n from 3968 to 4224",
     .args = "--type f32 --size 3968x3968 --size 4000x4000 --size 4032x4032 --size 4064x4064 --size 4096x4096 "
             "--size 4128x4128 --size 4160x4160 --size 4192x4192 --size 4224x4224 --rung copy_memcpy "
             "--rung transpose_tile_padded --rung transpose_multi_element --rung transpose_diagonal "
             "--rung transpose_vectorized",
     .x = "rows",
     .log_x = 0},
};

static const climb_shape TRANSPOSE_QUICK_SHAPES[] = {CLIMB_SHAPE2(1, 1), CLIMB_SHAPE2(33, 31), CLIMB_SHAPE2(129, 257)};

/* The host memory a case needs at the least (input and output), for the harness's check before anything is allocated. */
static double transpose_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 2.0 * (double)s->d[0] * (double)s->d[1] * (double)climb_dtype_size(t);
}

extern "C" const climb_workload climb_transpose_workload = {
    .name = "transpose",
    .title = "Matrix transpose (out = in^T, row-major, pitched)",
    .sources = "Filipovic, GPU Hardware Performance: Matrix Transposition; the UIUC ECE 408 notes: transpose (after "
                "Professional CUDA C, ch. 5); Harris, Optimizing CUDA: transpose",
    .dims = {"rows", "cols"},
    .types = CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64),
    .options = TRANSPOSE_OPTIONS,
    .n_options = CLIMB_COUNT(TRANSPOSE_OPTIONS),
    .bytes_counted = "rows x cols x element size read from in and written to out (not the padding)",
    .extra_ceiling = CLIMB_CEIL_NONE,
    .bench_shapes = TRANSPOSE_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(TRANSPOSE_BENCH_SHAPES),
    .check_shapes = TRANSPOSE_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(TRANSPOSE_CHECK_SHAPES),
    .quick_shapes = TRANSPOSE_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(TRANSPOSE_QUICK_SHAPES),
    .main_shapes = TRANSPOSE_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(TRANSPOSE_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = TRANSPOSE_N_RUNGS,
    .rung = transpose_rung_info,
    .published = &TRANSPOSE_PUBLISHED,
    .sweeps = TRANSPOSE_SWEEPS,
    .n_sweeps = CLIMB_COUNT(TRANSPOSE_SWEEPS),
    .case_size = sizeof(climb_case),
    .buffers = TRANSPOSE_BUFFERS,
    .n_buffers = CLIMB_COUNT(TRANSPOSE_BUFFERS),
    .init = transpose_init,
    .fill = transpose_fill,
    .fini = transpose_fini,
    .describe = transpose_describe,
    .reference = transpose_reference,
    .case_bytes = transpose_case_bytes,
    .refuses = transpose_refuses,
    .prepare = transpose_prepare,
    .empty = transpose_empty,
    .verify = transpose_verify,
    .counts = transpose_counts,
    .tuning = &TRANSPOSE_TUNING,
    .set_tuning = transpose_set_tuning,
};
