/* Helpers for workload files written in CUDA C++ (src/workloads/<name>.cu).
 *
 * climb_ctype<CLIMB_F32>::type is float: the C type of each element type in the list in types.h.
 * CLIMB_OPTION_AT(table, index, "text") checks at compile time that an option table (which must be constexpr)
 * holds option "text" at index: C++ has no array designators, so a table written in the order of its index
 * enum is checked against it instead. */
#ifndef CLIMB_CORE_WORKLOAD_CUH
#define CLIMB_CORE_WORKLOAD_CUH

#include "types.h"
#include "workload.h"

template <climb_dtype T> struct climb_ctype;
#define CLIMB_X_CTYPE(id, name, bytes, kind, ctype)                                                          \
    template <> struct climb_ctype<CLIMB_##id> {                                                             \
        typedef ctype type;                                                                                  \
        static_assert(sizeof(ctype) == bytes, "the size in CLIMB_DTYPES matches the C type");                \
    };
CLIMB_DTYPES(CLIMB_X_CTYPE)
#undef CLIMB_X_CTYPE

constexpr bool climb_same_name(const char *a, const char *b)
{
    return *a == *b && (*a == '\0' || climb_same_name(a + 1, b + 1));
}

#define CLIMB_OPTION_AT(table, index, text)                                                                  \
    static_assert(climb_same_name((table)[index].name, text), "option " text " is not at " #index)

#endif
