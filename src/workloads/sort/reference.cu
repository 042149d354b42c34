/* Merge sort on the host: the CPU reference (a stable LSD radix sort) and the generated inputs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../device/device_primitives.cuh"
#include "sort.h"

typedef uint32_t u32;

extern "C" int climb_sort_co_rank(int k, const uint32_t *a, int m, const uint32_t *b, int n)
{
    return climb_co_rank(k, a, m, b, n);
}

/* LSD radix sort, 11 bits a pass (three passes): stable at every pass, so stable overall. */
extern "C" void climb_sort_ref(uint32_t *keys, uint32_t *vals, size_t n, uint32_t *tmp)
{
    u32 *src_k = keys, *src_v = vals, *dst_k = tmp, *dst_v = vals ? tmp + n : NULL;
    for (int shift = 0; shift < 32; shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < n; i++)
            count[((src_k[i] >> shift) & 2047u) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) {
            const size_t at = count[(src_k[i] >> shift) & 2047u]++;
            dst_k[at] = src_k[i];
            if (vals)
                dst_v[at] = src_v[i];
        }
        u32 *t = src_k;
        src_k = dst_k;
        dst_k = t;
        t = src_v;
        src_v = dst_v;
        dst_v = t;
    }
    /* three passes: the result is in tmp */
    memcpy(keys, src_k, n * sizeof *keys);
    if (vals)
        memcpy(vals, src_v, n * sizeof *vals);
}

extern "C" void climb_sort_generate(uint64_t seed, int dist, uint32_t *keys, uint32_t *vals, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    const double stratum = n ? 4294967296.0 / (double)n : 0;
    u32 few[16];
    for (int i = 0; i < 16; i++)
        few[i] = (u32)climb_rng_next(&r);
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = climb_rng_next(&r);
        switch (dist) {
        case CLIMB_SORT_SORTED:
        case CLIMB_SORT_NEARLY:
        case CLIMB_SORT_REVERSE: {
            const size_t at = dist == CLIMB_SORT_REVERSE ? n - 1 - i : i;
            const double lo = (double)i * stratum;
            double v = lo + (double)(x >> 11) * 0x1p-53 * stratum;
            if (v > 4294967295.0)
                v = 4294967295.0;
            keys[at] = (u32)v;
            break;
        }
        case CLIMB_SORT_FEW: keys[i] = few[x & 15]; break;
        case CLIMB_SORT_NARROW: keys[i] = (u32)(x >> 48); break;
        default: keys[i] = (u32)(x >> 32); break;
        }
    }
    if (dist == CLIMB_SORT_NEARLY)
        for (size_t s = 0; s < n / 100; s++) {
            const size_t a = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1), b = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1);
            const u32 t = keys[a];
            keys[a] = keys[b];
            keys[b] = t;
        }
    if (vals)
        for (size_t i = 0; i < n; i++)
            vals[i] = (u32)climb_rng_next(&r);
}

