#include "rng.h"
#include "host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void climb_rng_seed(climb_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t climb_rng_next(climb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int32_t climb_rng_int(climb_rng *r, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    /* The top 32 bits times the span: bias below 2^-32 per value, which inputs do not care about. */
    uint64_t v = ((climb_rng_next(r) >> 32) * span) >> 32;
    return (int32_t)((int64_t)lo + (int64_t)v);
}

float climb_rng_float(climb_rng *r, float lo, float hi)
{
    float u = (float)(climb_rng_next(r) >> 40) * (1.0f / 16777216.0f);
    float v = lo + (hi - lo) * u;
    return v < hi ? v : lo; /* rounding can land on hi; keep the interval half-open */
}

void climb_rng_fill_i32(climb_rng *r, int32_t *x, size_t n, int32_t lo, int32_t hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = climb_rng_int(r, lo, hi);
}

void climb_rng_fill_f32(climb_rng *r, float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = climb_rng_float(r, lo, hi);
}

int64_t climb_rng_range(climb_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means all 2^64 values */
    uint64_t x = climb_rng_next(r);
    if (span == 0)
        return (int64_t)x;
    uint64_t v = (uint64_t)(((unsigned __int128)x * span) >> 64);
    return (int64_t)((uint64_t)lo + v);
}

double climb_rng_double(climb_rng *r, double lo, double hi)
{
    double u = (double)(climb_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    double v = lo + (hi - lo) * u;
    return v < hi ? v : lo;
}

void climb_dtype_full_range(climb_dtype t, double *lo, double *hi)
{
    size_t bits = 8 * climb_dtype_size(t);
    switch (climb_dtype_kind_of(t)) {
    case CLIMB_KIND_SINT:
        *lo = -ldexp(1.0, (int)bits - 1);
        *hi = ldexp(1.0, (int)bits - 1) - 1;
        break;
    case CLIMB_KIND_UINT:
        *lo = 0;
        *hi = ldexp(1.0, (int)bits) - 1;
        break;
    default:
        *lo = -1.0;
        *hi = 1.0;
    }
}

void climb_rng_fill(climb_rng *r, climb_dtype t, void *x, size_t n, double lo, double hi)
{
    const size_t es = climb_dtype_size(t);
    if (climb_dtype_kind_of(t) == CLIMB_KIND_FLOAT) {
        for (size_t i = 0; i < n; i++) {
            double v = climb_rng_double(r, lo, hi);
            if (es == 4) {
                float f = (float)v;
                ((float *)x)[i] = f < (float)hi ? f : (float)lo;
            } else {
                ((double *)x)[i] = v;
            }
        }
        return;
    }
    double tlo, thi;
    climb_dtype_full_range(t, &tlo, &thi);
    if (lo < tlo)
        lo = tlo;
    if (hi > thi)
        hi = thi;
    /* 8-byte ends are not exact doubles; the clamp keeps them in range and the cast saturates in between. */
    int64_t a = lo <= -9.2e18 ? INT64_MIN : (int64_t)lo;
    int64_t b = hi >= 9.2e18 ? INT64_MAX : (int64_t)hi;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)climb_rng_range(r, a, b);
        switch (es) {
        case 1: ((uint8_t *)x)[i] = (uint8_t)v; break;
        case 2: ((uint16_t *)x)[i] = (uint16_t)v; break;
        case 4: ((uint32_t *)x)[i] = (uint32_t)v; break;
        default: ((uint64_t *)x)[i] = v; break;
        }
    }
}

size_t *climb_rng_samples(climb_rng *r, size_t n, size_t max, size_t *count)
{
    *count = n < max ? n : max;
    size_t *s = malloc(sizeof *s * (*count + 1));
    if (!s) {
        climb_host_oom("%zu reference samples", *count);
        return NULL;
    }
    for (size_t k = 0; k < *count; k++)
        s[k] = n <= max ? k : (size_t)climb_rng_range(r, 0, (int64_t)n - 1);
    return s;
}

uint64_t climb_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    return splitmix64(&x) & 0xFFFFFFFFFFFFull; /* 48 bits: short enough to type back in */
}
