/* The JSON reader (with line numbers in its errors), the wisdom file round trip, and every way a wisdom
 * file can be wrong: absent, foreign, stale, corrupt, truncated, values that are not candidates. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/json.h"
#include "base/build_info.h"
#include "core/wisdom.h"
#include "workloads/reduce/reduce.h"
#include "workloads/transpose.h"
#include "testing.h"

static char dir[256];

static void expect_json_error(const char *text, const char *want)
{
    char err[200];
    climb_json *v = climb_json_parse(text, strlen(text), err, sizeof err);
    EXPECT_MSG(v == NULL && strstr(err, want) != NULL, "parsing [%s]: wanted '%s', got '%s'", text, want, v ? "(parsed)" : err);
    climb_json_free(v);
}

static void test_json(void)
{
    const char *ok = "{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\n\"],\n \"b\": {\"c\": 0}}";
    char err[200];
    climb_json *v = climb_json_parse(ok, strlen(ok), err, sizeof err);
    EXPECT(v != NULL);
    if (v) {
        const climb_json *a = climb_json_get(v, "a");
        EXPECT(a && a->type == CLIMB_JSON_ARRAY && a->n == 6);
        EXPECT(a->items[1].number == -2500.0 && a->items[2].type == CLIMB_JSON_BOOL && a->items[2].number == 1);
        EXPECT(strcmp(a->items[5].string, "x\xc3\xa9\n") == 0);
        long x;
        EXPECT(climb_json_int(&a->items[0], 0, 10, &x) && x == 1);
        EXPECT(climb_json_int(&a->items[1], -10000, 10000, &x) && x == -2500);
        EXPECT(!climb_json_int(&a->items[1], 0, 10000, &x)); /* out of range */
        EXPECT(!climb_json_int(&a->items[5], 0, 10, &x));    /* not a number */
        EXPECT(climb_json_get(v, "b")->line == 2);
        EXPECT(climb_json_get(v, "zz") == NULL && climb_json_get(a, "a") == NULL);
        /* Round trip through the writer. */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        climb_json_write(m, v, 0);
        fclose(m);
        climb_json *w = climb_json_parse(buf, len, err, sizeof err);
        EXPECT(w && climb_json_get(w, "a")->n == 6 && strcmp(climb_json_get(w, "a")->items[5].string, "x\xc3\xa9\n") == 0);
        climb_json_free(w);
        free(buf);
    }
    climb_json_free(v);
    expect_json_error("", "line 1: unexpected end of file");
    expect_json_error("{\n\"a\": 1,\n}", "line 3: expected a quoted key");
    expect_json_error("{\"a\": 1 \"b\": 2}", "line 1: expected ',' or '}'");
    expect_json_error("[1, 2", "line 1: expected ',' or ']'");
    expect_json_error("{\"a\": 1, \"a\": 2}", "duplicate key");
    expect_json_error("\n\n\"abc", "line 3: unterminated string");
    expect_json_error("\"a\\qb\"", "unknown escape");
    expect_json_error("[01]", "may not start with 0");
    expect_json_error("[1.]", "malformed number");
    expect_json_error("[1e999]", "malformed number");
    expect_json_error("{} x", "unexpected text after");
    expect_json_error("[tru]", "expected a value");
    expect_json_error("{\"a\" 1}", "expected ':'");
    expect_json_error("\"\\u0000\"", "NUL");
    char deep[200];
    memset(deep, '[', 100);
    deep[100] = '\0';
    expect_json_error(deep, "nested too deeply");
    char nul[] = "{\n\"a\": \"x\0y\"}";
    climb_json *n = climb_json_parse(nul, sizeof nul - 1, err, sizeof err);
    EXPECT(n == NULL && strstr(err, "line 2: NUL byte") != NULL);
}

/* The fixture: a workload of this test's own, with three tunable parameters and one device rule, registered
 * under the name "wfix" (the wisdom is keyed by name). Changing a real workload's tuning changes nothing here. */
static const int FIX_BLOCKS[] = {128, 256, 512, 1024}, FIX_PER_SM[] = {1, 2, 3, 4, 6, 8, 12, 16},
                 FIX_VECS[] = {1, 2, 4, 8, 1 << 30, INT_MAX}; /* the last two: values past 10^9 read back too */
static const climb_tunable FIX_PARAMS[] = {
    {.name = "block", .meaning = "threads per block", .values = FIX_BLOCKS, .n_values = 4},
    {.name = "blocks_per_sm", .meaning = "blocks per SM", .values = FIX_PER_SM, .n_values = 8},
    {.name = "vecs", .meaning = "loads in flight", .values = FIX_VECS, .n_values = 6},
};
static const char *fix_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *v)
{
    (void)k;
    v[0] = 512;
    v[1] = dev->max_threads_per_sm / 512;
    v[2] = 4;
    return "the fixture's rule";
}
static const char *fix_rejects(const climb_device_info *dev, const int *v)
{
    return v[0] * v[1] > dev->max_threads_per_sm
               ? "block x blocks_per_sm is more threads than one SM holds at once (a second wave of blocks)"
               : NULL;
}
static const climb_tuning FIX_TUNING = {.params = FIX_PARAMS, .n_params = 3, .defaults = fix_defaults,
                                        .rejects = fix_rejects};
static climb_workload fix_w;

static void register_fixture(void)
{
    fix_w = climb_reduce_workload; /* its dims, types and hooks; the name and the tuning are the fixture's */
    fix_w.name = "wfix";
    fix_w.tuning = &FIX_TUNING;
    EXPECT(climb_register_workload(&fix_w) == 0);
}

static climb_wisdom_outcome look(const char *path, const climb_wisdom_key *k, const climb_device_info *d, int *v,
                                 char *msg)
{
    return climb_wisdom_lookup(path, "wfix", &FIX_TUNING, k, d, v, msg, 600);
}

static void test_wisdom(void)
{
    const climb_tuning *tn = &FIX_TUNING;
    char path[400], msg[600];
    snprintf(path, sizeof path, "%s/nested/folder/wisdom.json", dir);
    climb_device_info h200 = test_device("NVIDIA H200", 9, 0, 2048, 13000);
    climb_wisdom_key key = {"NVIDIA H200", 9, 0, 13000, "0.1.0", NULL};
    int v[3] = {-1, -1, -1};

    EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_ABSENT && v[0] == -1);
    EXPECT(!climb_wisdom_warns(CLIMB_WISDOM_ABSENT) && climb_wisdom_warns(CLIMB_WISDOM_CORRUPT));

    /* Store creates the folders; lookup reads the values back. */
    int tuned[3] = {256, 8, 2};
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, tuned, "2026-11-22T00:00:00Z", 1.05, msg, sizeof msg) == 0);
    EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_USED);
    EXPECT_MSG(v[0] == 256 && v[1] == 8 && v[2] == 2, "%d %d %d", v[0], v[1], v[2]);
    EXPECT(strstr(msg, "block=256 blocks_per_sm=8 vecs=2") != NULL);

    /* A second GPU's entry is kept beside it; storing the same key again replaces, not appends. */
    climb_wisdom_key h100 = {"NVIDIA H100 80GB HBM3", 9, 0, 13000, "0.1.0", NULL};
    climb_device_info h100d = test_device("NVIDIA H100 80GB HBM3", 9, 0, 2048, 13000);
    int other[3] = {1024, 2, 8};
    EXPECT(climb_wisdom_store(path, "wfix", tn, &h100, other, "2026-11-22T01:00:00Z", 1.0, msg, sizeof msg) == 0);
    int again[3] = {512, 4, 4};
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, again, "2026-11-22T02:00:00Z", 1.0, msg, sizeof msg) == 0);
    EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 512 && v[1] == 4 && v[2] == 4);
    EXPECT(look(path, &h100, &h100d, v, msg) == CLIMB_WISDOM_USED && v[0] == 1024 && v[2] == 8);
    {
        char text[4096];
        test_read_text(path, text, sizeof text);
        int entries = 0;
        for (const char *q = text; (q = strstr(q, "\"workload\"")) != NULL; q++)
            entries++;
        EXPECT_MSG(entries == 2, "%d entries", entries);
    }

    /* Foreign: only other GPUs. Stale: same GPU, other driver or climb version. Other workload: no entry. */
    climb_wisdom_key l4 = {"NVIDIA L4", 8, 9, 13000, "0.1.0", NULL};
    climb_device_info l4d = test_device("NVIDIA L4", 8, 9, 1536, 13000);
    v[0] = -1;
    EXPECT(look(path, &l4, &l4d, v, msg) == CLIMB_WISDOM_FOREIGN && v[0] == -1);
    EXPECT(strstr(msg, "not this NVIDIA L4") != NULL);
    climb_wisdom_key newdrv = key;
    newdrv.driver = 13010;
    EXPECT(look(path, &newdrv, &h200, v, msg) == CLIMB_WISDOM_STALE && strstr(msg, "driver 13000") != NULL);
    climb_wisdom_key newver = key;
    newver.climb_version = "0.2.0";
    EXPECT(look(path, &newver, &h200, v, msg) == CLIMB_WISDOM_STALE && v[0] == -1);
    EXPECT(climb_wisdom_lookup(path, "transpose", tn, &key, &h200, v, msg, sizeof msg) == CLIMB_WISDOM_NO_ENTRY);

    /* Corrupt files: each gives CORRUPT, a "path:line:" message, and leaves the values alone. */
    char bad[400];
    snprintf(bad, sizeof bad, "%s/bad.json", dir);
    struct { const char *text, *want; } cases[] = {
        {"", ":1: unexpected end of file"},
        {"{\n  \"format\": \"climb wisdom 1\",\n  \"entries\": [\n    {\"workload\": \"wfix\"", ":4: expected ',' or '}'"},
        {"[1, 2]", ":1: a wisdom file is one JSON object"},
        {"{\"format\": \"climb wisdom 9\", \"entries\": []}", "\"format\" must be"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": {}}", "\"entries\" must be an array"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [3]}", "an entry must be an object"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\"}]}",
         "no \"cc\" string"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [\n{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": \"13000\", \"climb\": \"0.1.0\", \"params\": {}}]}", ":2: entry's \"driver\" must be"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": 13000, \"climb\": \"0.1.0\",\n\"params\": {\"block\": 300, \"blocks_per_sm\": 4, \"vecs\": 4}}]}",
         ":2: the wfix wisdom is not a valid candidate: block is not one of"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": 13000, \"climb\": \"0.1.0\", \"params\": {\"block\": 1024, \"blocks_per_sm\": 16, \"vecs\": 4}}]}",
         "more threads than one SM holds"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": 13000, \"climb\": \"0.1.0\", \"params\": {\"block\": 512, \"vecs\": 4}}]}", "wants 3 parameters"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": 13000, \"climb\": \"0.1.0\", \"params\": {\"block\": 512.5, \"blocks_per_sm\": 4, \"vecs\": 4}}]}",
         "\"block\" is not an integer"},
        {"{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"NVIDIA H200\", \"cc\": \"9.0\", "
         "\"driver\": 13000, \"climb\": \"0.1.0\", \"params\": {\"block\": 512, \"blocks\": 4, \"vecs\": 4}}]}",
         "\"blocks_per_sm\" is missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_text(bad, cases[i].text);
        v[0] = -7;
        climb_wisdom_outcome o = look(bad, &key, &h200, v, msg);
        EXPECT_MSG(o == CLIMB_WISDOM_CORRUPT && v[0] == -7 && strncmp(msg, bad, strlen(bad)) == 0 &&
                       strstr(msg, cases[i].want) != NULL,
                   "case %zu: outcome %d, msg '%s', wanted '%s'", i, (int)o, msg, cases[i].want);
    }
    /* Every truncation of a good file is either refused as corrupt or (cut at the end) still complete. */
    {
        char text[4096];
        size_t n = test_read_text(path, text, sizeof text);
        int wrong = 0;
        for (size_t cut = 0; cut < n; cut++) {
            char t[4096];
            memcpy(t, text, cut);
            t[cut] = '\0';
            test_write_text(bad, t);
            climb_wisdom_outcome o = look(bad, &key, &h200, v, msg);
            int complete = strspn(text + cut, " \n") == n - cut;
            wrong += complete ? o != CLIMB_WISDOM_USED : o != CLIMB_WISDOM_CORRUPT;
        }
        EXPECT_MSG(wrong == 0, "%d truncations misjudged", wrong);
    }
    /* The largest values an int holds go to the file and come back (a crossover of 1 GiB did not, once). */
    {
        char big[420];
        snprintf(big, sizeof big, "%s/big.json", dir);
        int large[3] = {512, 2, INT_MAX}, got[3] = {0, 0, 0};
        EXPECT(climb_wisdom_store(big, "wfix", tn, &key, large, "t", 1.0, msg, sizeof msg) == 0);
        EXPECT_MSG(look(big, &key, &h200, got, msg) == CLIMB_WISDOM_USED && got[2] == INT_MAX, "%s", msg);
        large[2] = 1 << 30;
        EXPECT(climb_wisdom_store(big, "wfix", tn, &key, large, "t", 1.0, msg, sizeof msg) == 0);
        EXPECT_MSG(look(big, &key, &h200, got, msg) == CLIMB_WISDOM_USED && got[2] == 1 << 30, "%s", msg);
        test_write_text(big, "{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": "
                             "\"NVIDIA H200\", \"cc\": \"9.0\", \"driver\": 13000, \"climb\": \"0.1.0\", \"params\": "
                             "{\"block\": 512, \"blocks_per_sm\": 2, \"vecs\": 2147483648}}]}");
        EXPECT(look(big, &key, &h200, got, msg) == CLIMB_WISDOM_CORRUPT && strstr(msg, "not an integer an int holds"));
    }
    /* Storing over a corrupt file moves it aside to .bad and writes a good one. */
    test_write_text(bad, "{ not json");
    EXPECT(climb_wisdom_store(bad, "wfix", tn, &key, tuned, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(strstr(msg, ".bad") != NULL);
    EXPECT(look(bad, &key, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 256);
    char moved[420];
    snprintf(moved, sizeof moved, "%s.bad", bad);
    EXPECT(access(moved, F_OK) == 0);
    /* Forgetting an entry keeps the others; forgetting in a missing file is nothing to do. */
    {
        climb_wisdom_key h100 = {"NVIDIA H100", 9, 0, 13000, "0.1.0", NULL};
        int other[3] = {512, 2, 4};
        EXPECT(climb_wisdom_store(bad, "wfix", tn, &h100, other, "t", 1.0, msg, sizeof msg) == 0);
        EXPECT(climb_wisdom_forget(bad, "wfix", &key, msg, sizeof msg) == 0);
        EXPECT(look(bad, &key, &h200, v, msg) == CLIMB_WISDOM_FOREIGN);
        climb_device_info h100d = test_device("NVIDIA H100", 9, 0, 2048, 13000);
        EXPECT(look(bad, &h100, &h100d, v, msg) == CLIMB_WISDOM_USED && v[1] == 2);
        char missing[420];
        snprintf(missing, sizeof missing, "%s/none/w.json", dir);
        EXPECT(climb_wisdom_forget(missing, "wfix", &key, msg, sizeof msg) == 0 && access(missing, F_OK) != 0);
    }
    /* A folder where the file should be cannot be read. */
    EXPECT(look(dir, &key, &h200, v, msg) == CLIMB_WISDOM_CORRUPT);

    /* The default path: CLIMB_WISDOM, then XDG_CONFIG_HOME, then HOME. */
    char p[512];
    setenv("CLIMB_WISDOM", "/x/w.json", 1);
    EXPECT(climb_wisdom_default_path(p, sizeof p) == 0 && strcmp(p, "/x/w.json") == 0);
    unsetenv("CLIMB_WISDOM");
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    EXPECT(climb_wisdom_default_path(p, sizeof p) == 0 && strcmp(p, "/cfg/climb/wisdom.json") == 0);
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/u", 1);
    EXPECT(climb_wisdom_default_path(p, sizeof p) == 0 && strcmp(p, "/home/u/.config/climb/wisdom.json") == 0);
    setenv("XDG_CONFIG_HOME", "relative/cfg", 1); /* invalid by the XDG spec: ignored */
    EXPECT(climb_wisdom_default_path(p, sizeof p) == 0 && strcmp(p, "/home/u/.config/climb/wisdom.json") == 0);
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    EXPECT(climb_wisdom_default_path(p, sizeof p) == -1);
}

/* The text of a valid wisdom file with one wfix entry for the H200 of device(). */
static void wisdom_text(char *buf, size_t len, const char *gpu)
{
    snprintf(buf, len,
             "{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": \"%s\", \"cc\": \"9.0\", "
             "\"driver\": 13000, \"climb\": \"0.1.0\", \"params\": {\"block\": 256, \"blocks_per_sm\": 8, \"vecs\": 2}, "
             "\"speedup_vs_defaults\": 1.5}]}\n", gpu);
}

static int printable_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            return 0;
    return 1;
}

/* what a user's file system and locale can do to a wisdom file. */
static void test_hardening(void)
{
    const climb_tuning *tn = &FIX_TUNING;
    climb_device_info h200 = test_device("NVIDIA H200", 9, 0, 2048, 13000);
    climb_wisdom_key key = {"NVIDIA H200", 9, 0, 13000, "0.1.0", NULL};
    char path[400], msg[800], text[1200], bad[420];
    int v[3], tuned[3] = {256, 8, 2};
    struct stat st;

    /* 1. A folder named as the wisdom file: refused with a clear message, left as it was (not moved to .bad). */
    snprintf(path, sizeof path, "%s/cfgdir", dir);
    EXPECT(mkdir(path, 0755) == 0);
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, tuned, "t", 1.0, msg, sizeof msg) == -1);
    EXPECT_MSG(strstr(msg, "not a regular file") != NULL, "%s", msg);
    snprintf(bad, sizeof bad, "%s.bad", path);
    EXPECT(stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(bad, F_OK) != 0);
    EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_CORRUPT && strstr(msg, "not a regular file"));

    /* 2. A FIFO is refused before it is opened: reading it would block for ever (the alarm fails the test). */
    snprintf(path, sizeof path, "%s/fifo.json", dir);
    EXPECT(mkfifo(path, 0600) == 0);
    alarm(20);
    EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_CORRUPT && strstr(msg, "not a regular file"));
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, tuned, "t", 1.0, msg, sizeof msg) == -1);
    alarm(0);
    EXPECT(stat(path, &st) == 0 && S_ISFIFO(st.st_mode));

    /* 3. Saving through a symbolic link writes the file it points to; the link stays a link. A dangling link is
     * refused, and the message says so. */
    char target[400];
    snprintf(target, sizeof target, "%s/real-wisdom.json", dir);
    snprintf(path, sizeof path, "%s/link.json", dir);
    wisdom_text(text, sizeof text, "NVIDIA H100");
    test_write_text(target, text);
    EXPECT(symlink(target, path) == 0);
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, tuned, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    EXPECT(look(target, &key, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 256);
    snprintf(path, sizeof path, "%s/dangling.json", dir);
    EXPECT(symlink("/nonexistent/climb/w.json", path) == 0);
    EXPECT(climb_wisdom_store(path, "wfix", tn, &key, tuned, "t", 1.0, msg, sizeof msg) == -1);
    EXPECT_MSG(strstr(msg, "symbolic link") != NULL, "%s", msg);
    EXPECT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));

    /* 4. A host program under a decimal-comma locale reads the files climb writes. */
    locale_t de = test_decimal_comma_locale();
    EXPECT(de != NULL || system("command -v localedef >/dev/null 2>&1") != 0);
    if (de) {
        locale_t old = uselocale(de);
        char err[200];
        climb_json *j = climb_json_parse("[1.5, -2e3]", 11, err, sizeof err);
        EXPECT_MSG(j && j->items[0].number == 1.5 && j->items[1].number == -2000, "%s", j ? "" : err);
        climb_json_free(j);
        EXPECT(look(target, &key, &h200, v, msg) == CLIMB_WISDOM_USED);
        uselocale(old);
        test_locale_done(de);
    }

    /* 5. A 1 MiB file of 110,000 keys with a duplicate at the end is refused in well under a second. */
    {
        size_t cap = 1 << 20, n = 0;
        char *big = malloc(cap + 1);
        n += (size_t)snprintf(big, cap, "{\"format\": \"climb wisdom 1\", \"entries\": [], \"x\": {");
        int keys = 0;
        while (n + 40 < cap) {
            n += (size_t)snprintf(big + n, cap - n, "%s\"%x\":0", keys ? "," : "", keys);
            keys++;
        }
        n += (size_t)snprintf(big + n, cap - n, ",\"0\":1}}");
        snprintf(path, sizeof path, "%s/keys.json", dir);
        FILE *f = fopen(path, "w");
        fwrite(big, 1, n, f);
        fclose(f);
        free(big);
        clock_t t0 = clock();
        EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_CORRUPT && strstr(msg, "duplicate key"));
        double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("%d keys, %zu bytes: refused in %.3f s of CPU time\n", keys, n, s);
        EXPECT(keys > 100000 && s < 1.0);
    }

    /* 6. Exactly 1 MiB is allowed; one byte more is not. */
    {
        wisdom_text(text, sizeof text, "NVIDIA H200");
        size_t cap = (size_t)CLIMB_WISDOM_MAX_BYTES + 1;
        char *pad = malloc(cap);
        size_t t = strlen(text);
        memcpy(pad, text, t);
        memset(pad + t, ' ', cap - t);
        snprintf(path, sizeof path, "%s/mib.json", dir);
        for (int extra = 0; extra <= 1; extra++) {
            FILE *f = fopen(path, "w");
            fwrite(pad, 1, (size_t)CLIMB_WISDOM_MAX_BYTES + (size_t)extra, f);
            fclose(f);
            climb_wisdom_outcome o = look(path, &key, &h200, v, msg);
            if (extra)
                EXPECT_MSG(o == CLIMB_WISDOM_CORRUPT && strstr(msg, "larger than 1048576 bytes"), "%s", msg);
            else
                EXPECT_MSG(o == CLIMB_WISDOM_USED, "%s", msg);
        }
        free(pad);
    }

    /* 7. Invalid UTF-8 in a string is refused, and no message echoes raw bytes. */
    {
        const char *seqs[] = {"\xff", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc3", "\x80",
                              "\xe2\x82"};
        for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
            char gpu[64];
            snprintf(gpu, sizeof gpu, "NVIDIA %sH200", seqs[i]);
            wisdom_text(text, sizeof text, gpu);
            char err[200];
            climb_json *j = climb_json_parse(text, strlen(text), err, sizeof err);
            EXPECT_MSG(j == NULL && strstr(err, "invalid UTF-8"), "sequence %zu: %s", i, j ? "accepted" : err);
            climb_json_free(j);
            snprintf(path, sizeof path, "%s/utf8.json", dir);
            test_write_text(path, text);
            EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_CORRUPT && printable_ascii(msg));
        }
        wisdom_text(text, sizeof text, "NVIDIA H200 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"); /* é € 😀: valid */
        char err[200];
        climb_json *j = climb_json_parse(text, strlen(text), err, sizeof err);
        EXPECT_MSG(j != NULL, "%s", err);
        climb_json_free(j);
        /* A control character from an escape is not echoed either. */
        wisdom_text(text, sizeof text, "Evil\\u001b[2JGPU");
        test_write_text(path, text);
        EXPECT(look(path, &key, &h200, v, msg) == CLIMB_WISDOM_FOREIGN && printable_ascii(msg));
    }

    /* 8. A file named explicitly that is not there is a warning; the default file's absence is not. A dangling
     * link named explicitly says it is one. */
    snprintf(path, sizeof path, "%s/typo.json", dir);
    char line[900];
    climb_tuning_key ex = {CLIMB_SHAPE1(1 << 22), CLIMB_I32, NULL};
    climb_wisdom_outcome o = climb_wisdom_resolve(path, "wfix", tn, &h200, &ex, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(climb_wisdom_warns(o) && strstr(msg, "no wisdom file at") && strstr(msg, "typo.json"), "%d %s", o, msg);
    snprintf(path, sizeof path, "%s/dangling.json", dir);
    o = climb_wisdom_resolve(path, "wfix", tn, &h200, &ex, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(climb_wisdom_warns(o) && strstr(msg, "symbolic link"), "%d %s", o, msg);
    setenv("CLIMB_WISDOM", "/nonexistent/climb/default-wisdom.json", 1);
    o = climb_wisdom_resolve(NULL, "wfix", tn, &h200, &ex, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(o == CLIMB_WISDOM_ABSENT && !climb_wisdom_warns(o), "%d %s", o, msg);
    unsetenv("CLIMB_WISDOM");
    /* The line says where values come from once, in plain words. */
    o = climb_wisdom_resolve(target, "wfix", tn, &h200, &ex, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(o == CLIMB_WISDOM_USED && !strstr(line, "wisdom from") && strstr(line, "real-wisdom.json:"), "%s", line);
}

/* Tuning classes (contract v3): one entry per class of the same workload and GPU, each found by its class alone,
 * replaced and forgotten alone; an entry without a class is the class "". */
static void test_classes(void)
{
    const climb_tuning *tn = &FIX_TUNING; /* any parameters: the classes are the wisdom's */
    char path[400], msg[600];
    snprintf(path, sizeof path, "%s/classes.json", dir);
    climb_device_info h200 = test_device("NVIDIA H200", 9, 0, 2048, 13000);
    climb_wisdom_key r1 = {"NVIDIA H200", 9, 0, 13000, "0.1.0", "radius=1"}, r2 = r1, none = r1;
    r2.cls = "radius=2";
    none.cls = NULL;
    int a[3] = {256, 8, 2}, b[3] = {512, 4, 4}, c[3] = {128, 2, 1}, v[3];
    EXPECT(climb_wisdom_store(path, "wfix", tn, &r1, a, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(climb_wisdom_store(path, "wfix", tn, &r2, b, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(look(path, &r1, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 256);
    EXPECT_MSG(strstr(msg, "for radius=1") != NULL, "%s", msg);
    EXPECT(look(path, &r2, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 512);
    v[0] = -1;
    EXPECT(look(path, &none, &h200, v, msg) == CLIMB_WISDOM_NO_ENTRY && v[0] == -1);
    climb_wisdom_key r3 = r1;
    r3.cls = "radius=3";
    EXPECT(look(path, &r3, &h200, v, msg) == CLIMB_WISDOM_NO_ENTRY && strstr(msg, "wfix radius=3") != NULL);
    EXPECT(climb_wisdom_store(path, "wfix", tn, &none, c, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(look(path, &none, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 128);
    /* replacing one class keeps the others; forgetting one forgets it alone */
    EXPECT(climb_wisdom_store(path, "wfix", tn, &r2, c, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(look(path, &r2, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 128);
    EXPECT(look(path, &r1, &h200, v, msg) == CLIMB_WISDOM_USED && v[0] == 256);
    EXPECT(climb_wisdom_forget(path, "wfix", &r1, msg, sizeof msg) == 0);
    EXPECT(look(path, &r1, &h200, v, msg) == CLIMB_WISDOM_NO_ENTRY);
    EXPECT(look(path, &r2, &h200, v, msg) == CLIMB_WISDOM_USED && look(path, &none, &h200, v, msg) == CLIMB_WISDOM_USED);
    char text[8192];
    test_read_text(path, text, sizeof text);
    EXPECT(strstr(text, "\"class\": \"radius=2\"") != NULL && strstr(text, "radius=1") == NULL);
    /* a class that is not a string makes the file corrupt, with its line */
    test_write_text(path, "{\"format\": \"climb wisdom 1\", \"entries\": [{\"workload\": \"wfix\", \"gpu\": "
                          "\"NVIDIA H200\", \"cc\": \"9.0\", \"driver\": 13000, \"climb\": \"0.1.0\",\n \"class\": 2, "
                          "\"params\": {\"block\": 256, \"blocks_per_sm\": 8, \"vecs\": 2}}]}\n");
    EXPECT(look(path, &r1, &h200, v, msg) == CLIMB_WISDOM_CORRUPT);
    EXPECT_MSG(strstr(msg, ":2: entry's \"class\" must be a string") != NULL, "%s", msg);
}

/* Classes from the shape (the transpose's type and size against the L2): each case resolves its own class's entry,
 * a class without one gets its own built-in defaults, and the same matrix falls in another class on a GPU with
 * another L2. */
static void test_shape_classes(void)
{
    const climb_workload *w = &climb_transpose_workload;
    const climb_tuning *tn = w->tuning;
    char path[400], msg[600], line[900];
    snprintf(path, sizeof path, "%s/transpose.json", dir);
    climb_device_info h100 = test_device("NVIDIA H100 80GB HBM3", 9, 0, 2048, 13000);
    h100.l2_bytes = 50 << 20;
    climb_wisdom_key large = {h100.name, 9, 0, 13000, climb_build_version, "f32,large"}, small = large;
    small.cls = "f32,small";
    int big[4] = {64, 16, 2, 1}, little[4] = {32, 4, 4, 1}, v[4];
    EXPECT(climb_wisdom_store(path, w->name, tn, &large, big, "t", 1.0, msg, sizeof msg) == 0);
    EXPECT(climb_wisdom_store(path, w->name, tn, &small, little, "t", 1.0, msg, sizeof msg) == 0);
    climb_tuning_key k8192 = {CLIMB_SHAPE2(8192, 8192), CLIMB_F32, NULL}, k4096 = {CLIMB_SHAPE2(4096, 4096), CLIMB_F32, NULL},
                     f64 = {CLIMB_SHAPE2(8192, 8192), CLIMB_F64, NULL};
    climb_wisdom_outcome o = climb_wisdom_resolve(path, w->name, tn, &h100, &k8192, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(o == CLIMB_WISDOM_USED && v[0] == 64 && v[1] == 16 && v[2] == 2 && v[3] == 1, "%d %s", o, line);
    EXPECT_MSG(strstr(line, "f32,large") != NULL, "%s", line);
    o = climb_wisdom_resolve(path, w->name, tn, &h100, &k4096, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(o == CLIMB_WISDOM_USED && v[0] == 32 && v[1] == 4 && v[2] == 4, "%d %s", o, line);
    o = climb_wisdom_resolve(path, w->name, tn, &h100, &f64, v, msg, sizeof msg, line, sizeof line);
    EXPECT_MSG(o == CLIMB_WISDOM_NO_ENTRY && v[0] == 32 && v[1] == 8 && v[2] == 1 && v[3] == 0, "%d %s", o, line);
    EXPECT_MSG(strstr(msg, "f64,large") != NULL, "%s", msg);
    /* 5600 x 5600 f32 (251 MB) is large on the H100 (200 MiB line), small with a 60 MiB L2 */
    climb_tuning_key mid = {CLIMB_SHAPE2(5600, 5600), CLIMB_F32, NULL};
    o = climb_wisdom_resolve(path, w->name, tn, &h100, &mid, v, msg, sizeof msg, line, sizeof line);
    EXPECT(o == CLIMB_WISDOM_USED && v[0] == 64);
    h100.l2_bytes = 60 << 20;
    o = climb_wisdom_resolve(path, w->name, tn, &h100, &mid, v, msg, sizeof msg, line, sizeof line);
    EXPECT(o == CLIMB_WISDOM_USED && v[0] == 32 && v[1] == 4);
}

int main(void)
{
    register_fixture();
    snprintf(dir, sizeof dir, "/tmp/climb_wisdom_test_XXXXXX");
    EXPECT(mkdtemp(dir) != NULL);
    test_json();
    test_wisdom();
    test_classes();
    test_shape_classes();
    test_hardening();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    EXPECT(system(cmd) == 0);
    return test_finish("test_cpu_wisdom");
}
