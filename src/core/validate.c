#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void append(char *msg, size_t msglen, size_t *used, const char *fmt, size_t i, double a, double b,
                   double c)
{
    if (!msg || *used + 1 >= msglen)
        return;
    if (*used > 0) {
        int k = snprintf(msg + *used, msglen - *used, "; ");
        if (k > 0)
            *used += (size_t)k;
        if (*used + 1 >= msglen)
            return;
    }
    int k = snprintf(msg + *used, msglen - *used, fmt, i, a, b, c);
    if (k > 0)
        *used += (size_t)k;
    if (*used >= msglen)
        *used = msglen - 1;
}

static void finish(char *msg, size_t msglen, size_t used, size_t bad, size_t n)
{
    if (!msg || msglen == 0)
        return;
    if (bad > CLIMB_MAX_LISTED_MISMATCHES && used < msglen)
        snprintf(msg + used, msglen - used, "; and %zu more", bad - CLIMB_MAX_LISTED_MISMATCHES);
    used = strlen(msg);
    if (bad && used < msglen)
        snprintf(msg + used, msglen - used, " (%zu of %zu elements wrong)", bad, n);
}

size_t climb_verify_i32(const int32_t *got, const int32_t *want, size_t n, char *msg, size_t msglen)
{
    size_t bad = 0, used = 0;
    if (msg && msglen)
        msg[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i])
            continue;
        if (bad < CLIMB_MAX_LISTED_MISMATCHES)
            append(msg, msglen, &used, "[%zu] = %.0f, expected %.0f (diff %.0f)", i, (double)got[i],
                   (double)want[i], (double)((int64_t)got[i] - want[i]));
        bad++;
    }
    finish(msg, msglen, used, bad, n);
    return bad;
}

size_t climb_verify_f32(const float *got, const double *want, const double *tol, double tol_scalar, size_t n,
                        char *msg, size_t msglen)
{
    size_t bad = 0, used = 0;
    if (msg && msglen)
        msg[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        double g = got[i], w = want[i], t = tol ? tol[i] : tol_scalar;
        int ok;
        if (!isfinite(w))
            ok = (isnan(w) && isnan(g)) || g == w;
        else
            ok = isfinite(g) && fabs(g - w) <= t;
        if (ok)
            continue;
        if (bad < CLIMB_MAX_LISTED_MISMATCHES)
            append(msg, msglen, &used, "[%zu] = %.9g, expected %.9g (tolerance %.3g)", i, g, w, t);
        bad++;
    }
    finish(msg, msglen, used, bad, n);
    return bad;
}
