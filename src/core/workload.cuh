/* Helpers for workload files written in CUDA C++ (src/workloads/<name>.cu).
 *
 * climb_ctype<CLIMB_F32>::type is float: the C type of each element type in the list in types.h.
 * climb_typed<MASK>(t, other, f): f(T()) with T the C type of t, for the types in MASK (CLIMB_TYPE_BIT bits),
 * `other` for any other type: the one typed dispatch of every workload, instead of hand-written
 * `t == CLIMB_I32 ? f<int> : f<float>` choices (only the types in MASK are instantiated).
 * CLIMB_OPTION_AT(table, index, "text") checks at compile time that an option table (which must be constexpr)
 * holds option "text" at index: C++ has no array designators, so a table written in the order of its index
 * enum is checked against it instead. */
#ifndef CLIMB_CORE_WORKLOAD_CUH
#define CLIMB_CORE_WORKLOAD_CUH

#include "../base/types.h"
#include "validate.h"
#include "workload.h"

template <climb_dtype T> struct climb_ctype;
#define CLIMB_X_CTYPE(id, name, bytes, kind, ctype)                                                          \
    template <> struct climb_ctype<CLIMB_##id> {                                                             \
        typedef ctype type;                                                                                  \
        static_assert(sizeof(ctype) == bytes, "the size in CLIMB_DTYPES matches the C type");                \
    };
CLIMB_DTYPES(CLIMB_X_CTYPE)
#undef CLIMB_X_CTYPE

/* The typed dispatch: f is called with a value of the C type of t (its type is what matters: write f as a generic
 * lambda, [&](auto x) { typedef decltype(x) T; return launch<T>(...); }). MASK names the types the caller
 * instantiates; t outside it gives `other` (cudaErrorInvalidValue, -1, NULL: what the caller returns for a type it
 * does not take). */
#define CLIMB_X_TYPED_CASE(id, name, bytes, kind, ctype)                                                     \
    case CLIMB_##id:                                                                                         \
        if constexpr (((MASK) >> CLIMB_##id) & 1u)                                                           \
            return f(ctype());                                                                               \
        else                                                                                                 \
            return other;
template <unsigned MASK, typename R, typename F> static inline R climb_typed(climb_dtype t, R other, F &&f)
{
    switch (t) {
        CLIMB_DTYPES(CLIMB_X_TYPED_CASE)
    default: return other;
    }
}
#undef CLIMB_X_TYPED_CASE

/* The usual masks. */
#define CLIMB_TYPES_I32_F32 (CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32))
#define CLIMB_TYPES_F32_F64 (CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_F64))

constexpr bool climb_same_name(const char *a, const char *b)
{
    return *a == *b && (*a == '\0' || climb_same_name(a + 1, b + 1));
}

#define CLIMB_OPTION_AT(table, index, text)                                                                  \
    static_assert(climb_same_name((table)[index].name, text), "option " text " is not at " #index)

#endif
