/* A seeded fuzz run of the JSON reader and the wisdom file reader: a few thousand mutations of a real wisdom file
 * (bytes changed to anything, runs deleted or repeated, cuts), bounded to about 30 s. It fails on a crash or a
 * sanitizer report (the CI's second build runs it under AddressSanitizer and UndefinedBehaviorSanitizer), on a hang
 * (an alarm, and CTest's timeout), and on an answer that breaks the reader's promises: an error is "line N: ..."
 * with N within the text, and everything it accepts holds only valid UTF-8 strings. CLIMB_FUZZ_SEED reproduces a
 * run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/json.h"
#include "base/rng.h"
#include "core/wisdom.h"
#include "workloads/reduce/reduce.h"
#include "fuzz.h"
#include "testing.h"

static const char *const SEED_TEXT =
    "{\n"
    "  \"format\": \"climb wisdom 1\",\n"
    "  \"entries\": [\n"
    "    {\n"
    "      \"workload\": \"reduce\",\n"
    "      \"gpu\": \"NVIDIA H200 \\u00e9\",\n"
    "      \"cc\": \"9.0\",\n"
    "      \"driver\": 13000,\n"
    "      \"climb\": \"0.1.0\",\n"
    "      \"params\": {\"block\": 512, \"blocks_per_sm\": 4, \"vecs\": 4},\n"
    "      \"tuned\": \"2026-11-22T00:00:00Z\",\n"
    "      \"speedup_vs_defaults\": 1.0125e0, \"list\": [true, false, null, -0.5, [], {}]\n"
    "    }\n"
    "  ]\n"
    "}\n";

/* 1 if s is valid UTF-8 (the same rules as the reader: no overlongs, surrogates or code points past U+10FFFF). */
static int valid_utf8(const unsigned char *s)
{
    while (*s) {
        unsigned char c = *s;
        int k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (!k)
            return 0;
        for (int i = 1; i < k; i++)
            if ((s[i] & 0xc0) != 0x80)
                return 0;
        if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
            (c == 0xf4 && s[1] > 0x8f))
            return 0;
        s += k;
    }
    return 1;
}

static int tree_ok(const climb_json *v)
{
    if (v->type == CLIMB_JSON_STRING && !valid_utf8((const unsigned char *)v->string))
        return 0;
    for (int i = 0; i < v->n; i++) {
        if (v->keys && !valid_utf8((const unsigned char *)v->keys[i]))
            return 0;
        if (!tree_ok(&v->items[i]))
            return 0;
    }
    return 1;
}

int main(void)
{
    const uint64_t seed = fuzz_seed();
    climb_rng r;
    climb_rng_seed(&r, seed);
    char dir[] = "/tmp/climb_json_fuzz_XXXXXX", path[128];
    EXPECT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/w.json", dir);
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "NVIDIA H200 \xc3\xa9");
    dev.cc_major = 9;
    dev.max_threads_per_sm = 2048;
    climb_wisdom_key key = {dev.name, 9, 0, 13000, "0.1.0", NULL};
    const size_t n0 = strlen(SEED_TEXT);
    char text[2048], err[300], msg[800];
    int runs = 0, parsed = 0, bad = 0, used = 0;
    time_t start = time(NULL);
    alarm(90); /* a hang ends the test */
    for (; runs < 4000 && time(NULL) - start < 30; runs++) {
        size_t n = n0;
        memcpy(text, SEED_TEXT, n);
        fuzz_mutate(&r, text, &n, sizeof text - 1, "{}[]\",:\\0123456789.eE+-tfnul \n");
        int lines = fuzz_lines(text, n);
        climb_json *v = climb_json_parse(text, n, err, sizeof err);
        if (v) {
            parsed++;
            if (!tree_ok(v) && bad++ < 5)
                fprintf(stderr, "run %d (seed %llu): accepted a string that is not valid UTF-8\n", runs,
                        (unsigned long long)seed);
            climb_json_free(v);
        } else {
            int line = strncmp(err, "line ", 5) == 0 ? atoi(err + 5) : 0;
            if ((line < 1 || line > lines) && bad++ < 5)
                fprintf(stderr, "run %d (seed %llu): error '%s' for a text of %d lines\n", runs,
                        (unsigned long long)seed, err, lines);
        }
        /* The wisdom reader on the same bytes, every tenth run: an answer, never a crash. */
        if (runs % 10 == 0) {
            FILE *f = fopen(path, "wb");
            fwrite(text, 1, n, f);
            fclose(f);
            int values[3];
            climb_wisdom_outcome o =
                climb_wisdom_lookup(path, "reduce", climb_reduce_workload.tuning, &key, &dev, values, msg, sizeof msg);
            used += o == CLIMB_WISDOM_USED;
            EXPECT(o >= CLIMB_WISDOM_USED && o <= CLIMB_WISDOM_MISSING);
        }
    }
    alarm(0);
    printf("json fuzz: %d mutated files (seed %llu), %d parsed, %d used as wisdom, %d broken promises\n", runs,
           (unsigned long long)seed, parsed, used, bad);
    EXPECT(runs >= 1000 && bad == 0);
    EXPECT(parsed > 0 && parsed < runs); /* the mutations reach both outcomes */
    remove(path);
    rmdir(dir);
    return test_finish("test_cpu_json_fuzz");
}
