/* Device sets (device_set.h). */
#include "device_set.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int climb_device_set_first(int n, int available, climb_device_set *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > CLIMB_MAX_DEVICES) {
        snprintf(why, len, "%d GPUs: a case spans 1 to %d", n, CLIMB_MAX_DEVICES);
        return -1;
    }
    if (available >= 0 && n > available) {
        snprintf(why, len, "%d GPUs asked for, %d here", n, available);
        return -1;
    }
    out->n = n;
    for (int i = 0; i < n; i++)
        out->id[i] = i;
    return 0;
}

/* A decimal ordinal at *s (digits only): its value, *s moved past it; -1 if there is none, -2 if it has more than
 * four digits (no ordinal has: never wraps). */
static long ordinal_at(const char **s)
{
    long v = 0;
    int k = 0;
    while (isdigit((unsigned char)**s)) {
        if (++k > 4)
            return -2;
        v = v * 10 + (**s - '0');
        (*s)++;
    }
    return k ? v : -1;
}

static int parse(const char *list, int available, climb_device_set *out, char *why, size_t len)
{
    if (!list || !*list) {
        snprintf(why, len, "an empty list of devices");
        return -1;
    }
    const char *s = list;
    for (int item = 1;; item++) {
        long a = ordinal_at(&s), b = a;
        if (a >= 0 && *s == '-') {
            s++;
            b = ordinal_at(&s);
        }
        if (a == -2 || b == -2) {
            snprintf(why, len, "'%s': item %d has an ordinal of more than four digits", list, item);
            return -1;
        }
        if (a < 0 || b < 0 || (*s != ',' && *s != '\0')) {
            snprintf(why, len, "'%s': item %d is not an ordinal or a range like 0-3", list, item);
            return -1;
        }
        if (b < a) {
            snprintf(why, len, "'%s': the range of item %d runs backwards", list, item);
            return -1;
        }
        for (long d = a; d <= b; d++) {
            if (available >= 0 && d >= available) {
                snprintf(why, len, "'%s': device %ld is not here (%d GPU%s: 0 to %d)", list, d, available,
                         available == 1 ? "" : "s", available - 1);
                return -1;
            }
            for (int i = 0; i < out->n; i++)
                if (out->id[i] == d) {
                    snprintf(why, len, "'%s': device %ld is listed twice", list, d);
                    return -1;
                }
            if (out->n == CLIMB_MAX_DEVICES) {
                snprintf(why, len, "'%s': more than %d devices", list, CLIMB_MAX_DEVICES);
                return -1;
            }
            out->id[out->n++] = (int)d;
        }
        if (*s == '\0')
            return 0;
        if (*++s == '\0') { /* past the comma */
            snprintf(why, len, "'%s': nothing after the last comma", list);
            return -1;
        }
    }
}

int climb_device_set_parse(const char *list, int available, climb_device_set *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    if (parse(list, available, out, why, len) == 0)
        return 0;
    memset(out, 0, sizeof *out); /* a refused list gives no devices */
    return -1;
}

void climb_device_set_format(const climb_device_set *s, char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < s->n && at + 1 < len; i++) {
        const int w = snprintf(buf + at, len - at, "%s%d", i ? "," : "", s->id[i]);
        if (w < 0 || (size_t)w >= len - at)
            break;
        at += (size_t)w;
    }
}
