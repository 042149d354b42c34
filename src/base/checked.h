/* Size arithmetic that says when it overflows: every product or sum of sizes in climb that comes from a caller, a
 * file or the command line goes through these before it is used (an allocation, an index, a launch). Each returns 1
 * when the exact result fits its type and stores it, else 0 (the output is then unspecified). Host and device
 * compilers alike (GCC's and Clang's checked builtins). */
#ifndef CLIMB_BASE_CHECKED_H
#define CLIMB_BASE_CHECKED_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

static inline int climb_mul_fits(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline int climb_add_fits(size_t a, size_t b, size_t *out) { return !__builtin_add_overflow(a, b, out); }

/* a x b x c */
static inline int climb_mul3_fits(size_t a, size_t b, size_t c, size_t *out)
{
    size_t ab;
    return climb_mul_fits(a, b, &ab) && climb_mul_fits(ab, c, out);
}

/* The product of n factors (1 for none). */
static inline int climb_prod_fits(const size_t *f, int n, size_t *out)
{
    size_t p = 1;
    for (int i = 0; i < n; i++)
        if (!climb_mul_fits(p, f[i], &p))
            return 0;
    *out = p;
    return 1;
}

static inline int climb_mul_i64_fits(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline int climb_add_i64_fits(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }

/* A size_t that an int holds (at most INT_MAX), narrowed. */
static inline int climb_int_fits(size_t v, int *out)
{
    if (v > (size_t)INT_MAX)
        return 0;
    *out = (int)v;
    return 1;
}

/* Memory as addresses, [begin, end): where an array lies, for overlap tests done without pointer arithmetic past an
 * object (which C leaves undefined). */
typedef struct climb_span {
    uintptr_t begin, end;
} climb_span;

/* The span of `count` elements of `elem` bytes from p: 0 when the byte count or the end address wraps. */
static inline int climb_span_of(const void *p, size_t count, size_t elem, climb_span *s)
{
    size_t bytes;
    const uintptr_t b = (uintptr_t)p;
    if (!climb_mul_fits(count, elem, &bytes) || b > UINTPTR_MAX - bytes)
        return 0;
    s->begin = b;
    s->end = b + bytes;
    return 1;
}

/* The span of a row-major matrix of rows x cols elements whose rows are ld elements apart (ld >= cols): (rows - 1)
 * ld + cols elements, nothing when rows or cols is 0. 0 when it wraps. */
static inline int climb_span_matrix(const void *p, size_t rows, size_t cols, size_t ld, size_t elem, climb_span *s)
{
    size_t n = 0;
    if (rows > 0 && cols > 0 && (!climb_mul_fits(rows - 1, ld, &n) || !climb_add_fits(n, cols, &n)))
        return 0;
    return climb_span_of(p, n, elem, s);
}

/* 1 when two spans share a byte (an empty span shares none). */
static inline int climb_spans_overlap(climb_span a, climb_span b)
{
    return a.begin < a.end && b.begin < b.end && a.begin < b.end && b.begin < a.end;
}

#endif
