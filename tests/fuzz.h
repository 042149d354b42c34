/* Mutations for the parsers' fuzz runs (test_cpu_text's input files, test_cpu_json_fuzz's wisdom files): a good
 * file with a few random edits. CLIMB_FUZZ_SEED picks the seed, to reproduce a run. */
#ifndef CLIMB_TESTS_FUZZ_H
#define CLIMB_TESTS_FUZZ_H

#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

static inline uint64_t fuzz_seed(void)
{
    const char *s = getenv("CLIMB_FUZZ_SEED");
    return s ? strtoull(s, NULL, 10) : 20261122;
}

/* 1 to 4 edits of text[0..*n) (room for cap bytes): a byte changed (one time in four to any byte, else to one of
 * `alphabet`), a run of up to 8 bytes deleted, a run of up to 16 repeated, or the text cut. */
static inline void fuzz_mutate(climb_rng *r, char *text, size_t *n, size_t cap, const char *alphabet)
{
    const int64_t alen = (int64_t)strlen(alphabet);
    int edits = 1 + (int)climb_rng_range(r, 0, 3);
    for (int e = 0; e < edits && *n > 0; e++) {
        size_t at = (size_t)climb_rng_range(r, 0, (int64_t)*n - 1), k;
        switch (climb_rng_range(r, 0, 3)) {
        case 0:
            text[at] = climb_rng_range(r, 0, 3) == 0 ? (char)climb_rng_range(r, 0, 255)
                                                     : alphabet[climb_rng_range(r, 0, alen - 1)];
            break;
        case 1:
            k = (size_t)climb_rng_range(r, 1, 8);
            if (at + k > *n)
                k = *n - at;
            memmove(text + at, text + at + k, *n - at - k);
            *n -= k;
            break;
        case 2:
            k = (size_t)climb_rng_range(r, 1, 16);
            if (at + k > *n)
                k = *n - at;
            if (*n + k <= cap) {
                memmove(text + at + k, text + at, *n - at);
                *n += k;
            }
            break;
        default:
            *n = at;
        }
    }
}

/* The lines of text[0..n): one more than its newlines. */
static inline int fuzz_lines(const char *text, size_t n)
{
    int lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    return lines;
}

#endif
