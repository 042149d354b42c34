/* The values a case is made of: element types and shapes.
 *
 * Element types come from ONE list, CLIMB_DTYPES: adding a type is one line there (its name, size, kind and C
 * type); the names the CLI accepts, the random fills, the exact and tolerance comparisons and the C++ type
 * mapping of the kernels (dtype.cuh) all follow from it. A shape is up to CLIMB_MAX_DIMS sizes whose names the
 * workload declares (n; rows,cols; m,n,k; nx,ny,nz). */
#ifndef CLIMB_BASE_TYPES_H
#define CLIMB_BASE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_dtype_kind { CLIMB_KIND_SINT, CLIMB_KIND_UINT, CLIMB_KIND_FLOAT } climb_dtype_kind;

/* X(ID, name, bytes, kind, C type). The order is the order runs and reports list types in. Integer kinds of
 * 1, 2, 4 or 8 bytes and float kinds of 4 or 8 bytes are handled by the generic fill and compare code. */
#define CLIMB_DTYPES(X)                                  \
    X(U8, "u8", 1, CLIMB_KIND_UINT, uint8_t)             \
    X(I32, "i32", 4, CLIMB_KIND_SINT, int32_t)           \
    X(U32, "u32", 4, CLIMB_KIND_UINT, uint32_t)          \
    X(U64, "u64", 8, CLIMB_KIND_UINT, uint64_t)          \
    X(F32, "f32", 4, CLIMB_KIND_FLOAT, float)            \
    X(F64, "f64", 8, CLIMB_KIND_FLOAT, double)

typedef enum climb_dtype {
#define CLIMB_X_ENUM(id, name, bytes, kind, ctype) CLIMB_##id,
    CLIMB_DTYPES(CLIMB_X_ENUM)
#undef CLIMB_X_ENUM
    CLIMB_NTYPES
} climb_dtype;

#define CLIMB_TYPE_BIT(t) (1u << (t))

const char *climb_dtype_name(climb_dtype t);
size_t climb_dtype_size(climb_dtype t);
climb_dtype_kind climb_dtype_kind_of(climb_dtype t);
/* "u8", "i32", ... -> 0; anything else -> -1. */
int climb_dtype_parse(const char *s, climb_dtype *out);
/* The names of the types in `mask`, comma-separated: "i32, f32". */
void climb_dtype_list(unsigned mask, char *buf, size_t len);

/* ---- shapes ---- */

/* A CNN layer is N, C, H, W, K, R, S: eight leaves room for one more (a stride or a group count). */
#define CLIMB_MAX_DIMS 8

typedef struct climb_shape {
    int ndims;                 /* 1 to CLIMB_MAX_DIMS; 0 only for "no shape" */
    size_t d[CLIMB_MAX_DIMS];  /* in the order of the workload's dims */
} climb_shape;

/* The sizes not given are 0. CLIMB_SHAPEN(n, ...) for any count up to CLIMB_MAX_DIMS. */
#define CLIMB_SHAPE1(a) {1, {(size_t)(a)}}
#define CLIMB_SHAPE2(a, b) {2, {(size_t)(a), (size_t)(b)}}
#define CLIMB_SHAPE3(a, b, c) {3, {(size_t)(a), (size_t)(b), (size_t)(c)}}
#define CLIMB_SHAPE4(a, b, c, e) {4, {(size_t)(a), (size_t)(b), (size_t)(c), (size_t)(e)}}
#define CLIMB_SHAPEN(n, ...) {(n), {__VA_ARGS__}}

/* "4096x4096", "2^28", "4097x4097x4097": sizes separated by 'x', each a decimal count or 2^K (K <= 62). The
 * product of the sizes must fit in 63 bits. 0, or -1 with err saying what is wrong. */
int climb_shape_parse(const char *text, climb_shape *out, char *err, size_t errlen);
/* The product of the sizes (elements of a dense array of this shape); 0 for an empty shape, SIZE_MAX where the
 * product would wrap. */
size_t climb_shape_elems(const climb_shape *s);
/* The point (i, j, k) at index idx of an nx x ny x nz grid stored x fastest, then y, then z. */
static inline void climb_grid_point(size_t idx, size_t nx, size_t ny, size_t *i, size_t *j, size_t *k)
{
    *i = idx % nx;
    *j = (idx / nx) % ny;
    *k = idx / nx / ny;
}
int climb_shape_equal(const climb_shape *a, const climb_shape *b);
/* One dimension: "2^22" for powers of two from 2, else decimal. Several: "4096x4096" (decimal). */
void climb_shape_label(const climb_shape *s, char *buf, size_t len);
/* A single size as people write it: "2^22" for powers of two (from 2), else the decimal count. */
void climb_size_label(char *buf, size_t len, size_t n);

#ifdef __cplusplus
}
#endif

#endif
