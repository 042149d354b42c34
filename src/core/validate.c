#include "validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The room a message keeps at its end for finish's count ("; and N more (N of M elements wrong)"), where it is
 * long enough to: a mismatch that would crowd the count out is left out (only the first may be cut short). */
#define TAIL_ROOM 72

static void append(char *msg, size_t msglen, size_t *used, const char *item)
{
    const size_t room = msglen > 2 * TAIL_ROOM ? msglen - TAIL_ROOM : msglen;
    if (!msg || *used + 1 >= room)
        return;
    if (*used > 0) {
        if (*used + 2 + strlen(item) >= room)
            return;
        *used += (size_t)snprintf(msg + *used, room - *used, "; ");
    }
    int k = snprintf(msg + *used, room - *used, "%s", item);
    if (k > 0)
        *used += (size_t)k;
    if (*used >= room)
        *used = room - 1;
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

/* Element i of an integer array of type t, widened. */
static void int_at(climb_dtype t, const void *p, size_t i, int64_t *sv, uint64_t *uv)
{
    const size_t es = climb_dtype_size(t);
    uint64_t u;
    switch (es) {
    case 1: u = ((const uint8_t *)p)[i]; break;
    case 2: u = ((const uint16_t *)p)[i]; break;
    case 4: u = ((const uint32_t *)p)[i]; break;
    default: u = ((const uint64_t *)p)[i]; break;
    }
    *uv = u;
    /* Sign-extend from the type's width. */
    if (es < 8 && climb_dtype_kind_of(t) == CLIMB_KIND_SINT && (u >> (8 * es - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * es);
    *sv = (int64_t)u;
}

size_t climb_verify_exact(climb_dtype t, const void *got, const void *want, size_t n, char *msg, size_t msglen)
{
    size_t bad = 0, used = 0;
    const size_t es = climb_dtype_size(t);
    const int is_signed = climb_dtype_kind_of(t) == CLIMB_KIND_SINT;
    if (msg && msglen)
        msg[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const char *)got + i * es, (const char *)want + i * es, es) == 0)
            continue;
        if (bad < CLIMB_MAX_LISTED_MISMATCHES) {
            char item[128];
            if (climb_dtype_kind_of(t) == CLIMB_KIND_FLOAT) {
                double g = es == 4 ? ((const float *)got)[i] : ((const double *)got)[i];
                double w = es == 4 ? ((const float *)want)[i] : ((const double *)want)[i];
                snprintf(item, sizeof item, "[%zu] = %.17g, expected %.17g", i, g, w);
            } else {
                int64_t gs, ws;
                uint64_t gu, wu;
                int_at(t, got, i, &gs, &gu);
                int_at(t, want, i, &ws, &wu);
                if (is_signed)
                    snprintf(item, sizeof item, "[%zu] = %lld, expected %lld", i, (long long)gs, (long long)ws);
                else
                    snprintf(item, sizeof item, "[%zu] = %llu, expected %llu", i, (unsigned long long)gu,
                             (unsigned long long)wu);
            }
            append(msg, msglen, &used, item);
        }
        bad++;
    }
    finish(msg, msglen, used, bad, n);
    return bad;
}

size_t climb_verify_close(climb_dtype t, const void *got, const double *want, const double *tol, double tol_scalar,
                          size_t n, char *msg, size_t msglen)
{
    size_t bad = 0, used = 0;
    const int f32 = climb_dtype_size(t) == 4;
    if (msg && msglen)
        msg[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        double g = f32 ? ((const float *)got)[i] : ((const double *)got)[i], w = want[i], tl = tol ? tol[i] : tol_scalar;
        int ok;
        if (!isfinite(w))
            ok = (isnan(w) && isnan(g)) || g == w;
        else
            ok = isfinite(g) && fabs(g - w) <= tl;
        if (ok)
            continue;
        if (bad < CLIMB_MAX_LISTED_MISMATCHES) {
            char item[128];
            snprintf(item, sizeof item, "[%zu] = %.9g, expected %.9g (tolerance %.3g)", i, g, w, tl);
            append(msg, msglen, &used, item);
        }
        bad++;
    }
    finish(msg, msglen, used, bad, n);
    return bad;
}

void climb_compare_begin(climb_compare *k, char *msg, size_t len)
{
    k->msg = msg;
    k->len = len;
    k->used = 0;
    k->checked = k->bad = 0;
    if (msg && len)
        msg[0] = '\0';
}

/* A mismatch: counted, and the first few told with their label. */
static void mismatch(climb_compare *k, const char *label, va_list ap, const char *tail)
{
    if (k->bad++ >= CLIMB_MAX_LISTED_MISMATCHES)
        return;
    char item[400];
    int n = vsnprintf(item, sizeof item, label, ap);
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof item)
        snprintf(item + n, sizeof item - (size_t)n, "%s", tail);
    append(k->msg, k->len, &k->used, item);
}

int climb_compare_close(climb_compare *k, double got, double want, double tol, const char *label, ...)
{
    k->checked++;
    const int ok = isfinite(want) ? isfinite(got) && fabs(got - want) <= tol : (isnan(want) && isnan(got)) || got == want;
    if (ok)
        return 1;
    char tail[120];
    snprintf(tail, sizeof tail, " = %.9g, expected %.9g (tolerance %.3g)", got, want, tol);
    va_list ap;
    va_start(ap, label);
    mismatch(k, label, ap, tail);
    va_end(ap);
    return 0;
}

int climb_compare_exact(climb_compare *k, long long got, long long want, const char *label, ...)
{
    k->checked++;
    if (got == want)
        return 1;
    char tail[96];
    snprintf(tail, sizeof tail, " = %lld, expected %lld", got, want);
    va_list ap;
    va_start(ap, label);
    mismatch(k, label, ap, tail);
    va_end(ap);
    return 0;
}

int climb_compare_check(climb_compare *k, int ok, const char *what, ...)
{
    k->checked++;
    if (ok)
        return 1;
    va_list ap;
    va_start(ap, what);
    mismatch(k, what, ap, "");
    va_end(ap);
    return 0;
}

int climb_compare_end(climb_compare *k)
{
    finish(k->msg, k->len, k->used, k->bad, k->checked);
    return k->bad > 0;
}
