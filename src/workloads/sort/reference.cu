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

/* LSD radix sort of n unsigned keys of `bits` bits, 11 bits a pass, vals (NULL: none) carried along: stable at every
 * pass, so stable overall. tmp_k and tmp_v (n each) are the passes' second buffers; the result ends in keys, vals. */
template <typename K> static void lsd_radix(K *keys, u32 *vals, size_t n, int bits, K *tmp_k, u32 *tmp_v)
{
    K *src_k = keys, *dst_k = tmp_k;
    u32 *src_v = vals, *dst_v = vals ? tmp_v : NULL;
    for (int shift = 0; shift < bits; shift += 11) {
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
        K *tk = src_k;
        src_k = dst_k;
        dst_k = tk;
        u32 *tv = src_v;
        src_v = dst_v;
        dst_v = tv;
    }
    if (src_k != keys) { /* an odd number of passes: the result is in tmp */
        memcpy(keys, src_k, n * sizeof *keys);
        if (vals)
            memcpy(vals, src_v, n * sizeof *vals);
    }
}

extern "C" void climb_sort_ref(uint32_t *keys, uint32_t *vals, size_t n, uint32_t *tmp)
{
    lsd_radix<u32>(keys, vals, n, 32, tmp, tmp + n);
}

/* The codes of n keys of K's width by the distribution (see climb_sort_generate in sort.h), the values after them.
 * SORTED: stratum i of n over K's range, one code drawn in it. */
static u32 sorted_code(u32, size_t i, size_t n, uint64_t x)
{
    const double stratum = 4294967296.0 / (double)n, lo = (double)i * stratum;
    double v = lo + (double)(x >> 11) * 0x1p-53 * stratum;
    return v > 4294967295.0 ? 0xFFFFFFFFu : (u32)v;
}

static uint64_t sorted_code(uint64_t, size_t i, size_t n, uint64_t x)
{
    const unsigned __int128 span = (unsigned __int128)1 << 64, lo = span * i / n, hi = span * (i + 1) / n;
    return (uint64_t)(lo + (unsigned __int128)x % (hi - lo));
}

template <typename K> static void generate_codes(uint64_t seed, int dist, K *keys, uint32_t *vals, size_t n)
{
    climb_rng r;
    climb_rng_seed(&r, seed);
    K few[16];
    for (int i = 0; i < 16; i++)
        few[i] = (K)climb_rng_next(&r);
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = climb_rng_next(&r);
        switch (dist) {
        case CLIMB_SORT_SORTED:
        case CLIMB_SORT_NEARLY:
        case CLIMB_SORT_REVERSE: keys[dist == CLIMB_SORT_REVERSE ? n - 1 - i : i] = sorted_code(K(), i, n, x); break;
        case CLIMB_SORT_FEW: keys[i] = few[x & 15]; break;
        case CLIMB_SORT_NARROW: keys[i] = (K)(x >> 48); break;
        default: keys[i] = (K)(x >> (64 - 8 * sizeof(K))); break; /* the high bits */
        }
    }
    if (dist == CLIMB_SORT_NEARLY)
        for (size_t s = 0; s < n / 100; s++) {
            const size_t a = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1), b = (size_t)climb_rng_range(&r, 0, (int64_t)n - 1);
            const K t = keys[a];
            keys[a] = keys[b];
            keys[b] = t;
        }
    if (vals)
        for (size_t i = 0; i < n; i++)
            vals[i] = (u32)climb_rng_next(&r);
}

extern "C" void climb_sort_generate(uint64_t seed, int dist, uint32_t *keys, uint32_t *vals, size_t n)
{
    generate_codes<u32>(seed, dist, keys, vals, n);
}

/* ---- every key type (u32, i32, f32, u64): their codes, the generated inputs, the reference ---- */

extern "C" uint64_t climb_sort_code(climb_dtype t, const void *keys, size_t i)
{
    switch (t) {
    case CLIMB_I32: return ((const u32 *)keys)[i] ^ 0x80000000u;
    case CLIMB_F32: {
        const u32 x = ((const u32 *)keys)[i];
        return (x & 0x80000000u) ? (u32)~x : x ^ 0x80000000u;
    }
    case CLIMB_U64: return ((const uint64_t *)keys)[i];
    default: return ((const u32 *)keys)[i];
    }
}

/* The key whose code is c. */
static void put_code(climb_dtype t, void *keys, size_t i, uint64_t c)
{
    const u32 c32 = (u32)c;
    switch (t) {
    case CLIMB_I32: ((u32 *)keys)[i] = c32 ^ 0x80000000u; break;
    case CLIMB_F32: ((u32 *)keys)[i] = (c32 & 0x80000000u) ? c32 ^ 0x80000000u : ~c32; break;
    case CLIMB_U64: ((uint64_t *)keys)[i] = c; break;
    default: ((u32 *)keys)[i] = c32; break;
    }
}

extern "C" void climb_sort_generate_typed(uint64_t seed, int dist, climb_dtype t, void *keys, uint32_t *vals, size_t n)
{
    if (t == CLIMB_U64) {
        generate_codes<uint64_t>(seed, dist, (uint64_t *)keys, vals, n);
        return;
    }
    /* 32-bit keys: the u32 generator's values are the codes; narrow's upper half is that of the code of 0 (so i32
     * keys 0 .. 65535, f32 keys +0 and the smallest positive subnormals) */
    climb_sort_generate(seed, dist, (u32 *)keys, vals, n);
    if (t == CLIMB_U32)
        return;
    for (size_t i = 0; i < n; i++) {
        u32 c = ((u32 *)keys)[i];
        if (dist == CLIMB_SORT_NARROW)
            c |= 0x80000000u;
        put_code(t, keys, i, c);
    }
}

extern "C" int climb_sort_ref_typed(climb_dtype t, void *keys, uint32_t *vals, size_t n)
{
    if (t == CLIMB_U32) { /* the u32 reference itself */
        u32 *tmp = (u32 *)malloc((n ? n : 1) * 4 * 2);
        if (!tmp)
            return -1;
        climb_sort_ref((u32 *)keys, vals, n, tmp);
        free(tmp);
        return 0;
    }
    /* every key's code and index, sorted stably by the code (LSD, 11 bits a pass), then keys and values gathered */
    const size_t es = t == CLIMB_U64 ? 8 : 4, m = n ? n : 1;
    const int bits = (int)es * 8;
    uint64_t *code = (uint64_t *)malloc(m * 8 * 2);
    u32 *idx = (u32 *)malloc(m * 4 * 2);
    void *kept = malloc(m * es);
    u32 *vkept = vals ? (u32 *)malloc(m * 4) : NULL;
    if (!code || !idx || !kept || (vals && !vkept)) {
        free(code);
        free(idx);
        free(kept);
        free(vkept);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        code[i] = climb_sort_code(t, keys, i);
        idx[i] = (u32)i;
    }
    lsd_radix<uint64_t>(code, idx, n, bits, code + m, idx + m);
    memcpy(kept, keys, n * es);
    if (vals)
        memcpy(vkept, vals, n * 4);
    for (size_t i = 0; i < n; i++) {
        memcpy((char *)keys + i * es, (const char *)kept + (size_t)idx[i] * es, es);
        if (vals)
            vals[i] = vkept[idx[i]];
    }
    free(code);
    free(idx);
    free(kept);
    free(vkept);
    return 0;
}
