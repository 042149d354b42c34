/* GEMM on the tensor cores, on the host: the input formats' roundings, the inputs, and each precision's error
 * bound (src/workloads/gemm/gemm.h; docs/gemm.md). */
#include <math.h>
#include <string.h>

#include "gemm.h"

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

uint16_t climb_bf16_bits(float x)
{
    const uint32_t u = bits_of(x);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) /* NaN: keep it one (a quiet bit set) */
        return (uint16_t)(u >> 16 | 0x0040u);
    /* to nearest, ties to even: add 0x7fff plus the kept part's lowest bit, then drop 16 bits (a carry into the
     * exponent is the right result, up to infinity) */
    return (uint16_t)((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
}

float climb_bf16_float(uint16_t b) { return float_of((uint32_t)b << 16); }

float climb_tf32_round(float x)
{
    const uint32_t u = bits_of(x);
    if ((u & 0x7f800000u) == 0x7f800000u)
        return x;
    /* ties away from zero: add half of the dropped part's weight to the magnitude's bits, then drop 13 bits */
    return float_of((u + 0x1000u) & 0xffffe000u);
}

void climb_gemm_fill(climb_rng *r, climb_gemm_precision p, int spread, float *x, uint16_t *b16, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* a double rounded to FP32: every bit of the significand random (climb_rng_float's values are multiples
         * of 2^-23, whose TF32 splits would all be exact) */
        float v = (float)climb_rng_double(r, -1, 1);
        if (spread)
            v = ldexpf(v, (int)climb_rng_int(r, -12, 12));
        if (p == CLIMB_GEMM_PREC_BF16) {
            const uint16_t b = climb_bf16_bits(v);
            x[i] = climb_bf16_float(b);
            if (b16)
                b16[i] = b;
        } else {
            x[i] = v;
        }
    }
}

double climb_gemm_bound(climb_gemm_precision p, size_t k)
{
    /* the FP32 adds: k - 1 of them over a product each (and alpha's product and beta's add: k + 2 in all), each
     * losing at most 2^-23 of what it adds up to when it truncates, twice that with the tensor core's alignment */
    const double adds = ((double)k + 2) * 0x1p-22;
    switch (p) {
    case CLIMB_GEMM_PREC_BF16:
        return adds; /* BF16 products are exact in FP32 */
    case CLIMB_GEMM_PREC_TF32:
        /* each input rounded to TF32 errs by at most 2^-11 of itself: a product by 2^-10 + 2^-22 of itself */
        return 0x1p-10 + 0x1p-22 + adds;
    case CLIMB_GEMM_PREC_3XTF32:
        /* each input as big + small errs by at most 2^-22 of itself (small's rounding); small times small, also
         * at most 2^-22 of the product, is left out; three adds a product */
        return 3 * 0x1p-22 + 3 * adds;
    }
    return 0;
}
