#include "rng.h"

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

uint64_t climb_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    return splitmix64(&x) & 0xFFFFFFFFFFFFull; /* 48 bits: short enough to type back in */
}
