/* CPU tests of workload options: each kind's parsing and its errors, comma lists and "all", the plan of values a
 * run takes and its combinations, formatting and copies, and numbers read the same under a decimal-comma locale. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "io/text.h"
#include "testing.h"

static const char *const DISTS[] = {"uniform", "constant", "text", NULL};
static const climb_option OPTS[] = {
    {.name = "bins", .kind = CLIMB_OPT_INT, .meaning = "bins", .def = "256", .min = 1, .max = 4096},
    {.name = "alpha", .kind = CLIMB_OPT_FLOAT, .meaning = "scale", .def = "1.5", .min = -10, .max = 10},
    {.name = "dist", .kind = CLIMB_OPT_CHOICE, .meaning = "inputs", .def = "uniform,constant", .choices = DISTS},
    {.name = "input", .kind = CLIMB_OPT_FILE, .meaning = "a file", .def = ""},
};
enum { N = 4 };

static void test_parse(void)
{
    climb_opt_value v;
    char err[300];
    EXPECT(climb_opt_parse(&OPTS[0], "64", &v, err, sizeof err) == 0 && v.i == 64 && strcmp(v.text, "64") == 0);
    free(v.text);
    struct { int opt; const char *text, *want; } bad[] = {
        {0, "abc", "bins=abc: not a whole number"},
        {0, "0", "bins=0: not in 1..4096"},
        {0, "4097", "bins=4097: not in 1..4096"},
        {0, "1.5", "bins=1.5: not a whole number"},
        {0, "", "bins=: not a whole number"},
        {1, "x", "alpha=x: not a number"},
        {1, "nan", "alpha=nan: not a number"},
        {1, "inf", "alpha=inf: not a number"},
        {1, "0x10", "alpha=0x10: not a number"},
        {1, "11", "alpha=11: not in -10..10"},
        {2, "skewed", "dist=skewed: not one of uniform, constant, text (or all)"},
        {2, "\x01\xff", "dist=??: not one of"}, /* raw bytes never echoed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        EXPECT_MSG(climb_opt_parse(&OPTS[bad[i].opt], bad[i].text, &v, err, sizeof err) == -1 &&
                       strncmp(err, bad[i].want, strlen(bad[i].want)) == 0,
                   "'%s' gave '%s'", bad[i].text, err);
    }
    EXPECT(climb_opt_parse(&OPTS[1], "-2.5e0", &v, err, sizeof err) == 0 && v.f == -2.5);
    free(v.text);
    EXPECT(climb_opt_parse(&OPTS[2], "text", &v, err, sizeof err) == 0 && v.choice == 2);
    free(v.text);
    EXPECT(climb_opt_find(OPTS, N, "dist") == 2 && climb_opt_find(OPTS, N, "nosuch") == -1);
    EXPECT(strcmp(climb_opt_kind_name(CLIMB_OPT_FILE), "file") == 0);
}

static void test_plan(void)
{
    climb_opt_plan p;
    char err[300], buf[300];
    EXPECT(climb_opt_plan_init(&p, OPTS, N, err, sizeof err) == 0);
    /* The default of dist is a sweep of two; the others one each; no file. */
    EXPECT(p.count[0] == 1 && p.count[1] == 1 && p.count[2] == 2 && p.count[3] == 1);
    EXPECT(climb_opt_plan_combos(&p) == 2);
    climb_opt_value combo[N];
    climb_opt_plan_combo(&p, 1, combo);
    climb_opt_format(OPTS, N, combo, buf, sizeof buf);
    EXPECT_MSG(strcmp(buf, "bins=256 alpha=1.5 dist=constant") == 0, "%s", buf); /* no file: left out */

    /* Lists, "all", and the odometer: the last option varies fastest. */
    EXPECT(climb_opt_plan_set(&p, 0, "16,32,64", 0, err, sizeof err) == 0);
    EXPECT(climb_opt_plan_set(&p, 2, "all", 0, err, sizeof err) == 0 && p.count[2] == 3);
    EXPECT(climb_opt_plan_combos(&p) == 9);
    climb_opt_plan_combo(&p, 0, combo);
    EXPECT(combo[0].i == 16 && combo[2].choice == 0);
    climb_opt_plan_combo(&p, 1, combo);
    EXPECT(combo[0].i == 16 && combo[2].choice == 1);
    climb_opt_plan_combo(&p, 8, combo);
    EXPECT(combo[0].i == 64 && combo[2].choice == 2);
    /* A set replaces the list; errors leave a message. */
    EXPECT(climb_opt_plan_set(&p, 0, "8", 0, err, sizeof err) == 0 && p.count[0] == 1 && p.values[0][0].i == 8);
    EXPECT(climb_opt_plan_set(&p, 0, "8,,9", 0, err, sizeof err) == -1 && strstr(err, "an empty value"));
    EXPECT(climb_opt_plan_set(&p, 0, "8,8", 0, err, sizeof err) == -1 && strstr(err, "8 is listed twice"));
    EXPECT(climb_opt_plan_set(&p, 2, "uniform,nope", 0, err, sizeof err) == -1 && strstr(err, "dist=nope"));
    EXPECT(climb_opt_plan_set(&p, 0, "", 0, err, sizeof err) == -1 && strstr(err, "no value"));
    /* Files: appended one at a time (a comma may be in a file name), the first replacing "none". */
    EXPECT(climb_opt_plan_set(&p, 3, "a,b.txt", 1, err, sizeof err) == 0 && p.count[3] == 1);
    EXPECT(climb_opt_plan_set(&p, 3, "c.txt", 1, err, sizeof err) == 0 && p.count[3] == 2);
    EXPECT(climb_opt_plan_set(&p, 3, "c.txt", 1, err, sizeof err) == -1 && strstr(err, "listed twice"));
    EXPECT(climb_opt_plan_set(&p, 0, "1", 0, err, sizeof err) == 0 && climb_opt_plan_set(&p, 2, "text", 0, err, sizeof err) == 0);
    climb_opt_plan_combo(&p, 1, combo);
    climb_opt_format(OPTS, N, combo, buf, sizeof buf);
    EXPECT_MSG(strcmp(buf, "bins=1 alpha=1.5 dist=text input=c.txt") == 0, "%s", buf);

    /* Copies are deep and compare equal; a changed value compares different. */
    climb_opt_value *d = climb_opt_values_dup(N, combo);
    EXPECT(d && d[3].text != combo[3].text && strcmp(d[3].text, "c.txt") == 0 && d[3].data == NULL);
    EXPECT(climb_opt_values_equal(OPTS, N, d, combo));
    climb_opt_value other[N];
    climb_opt_plan_combo(&p, 0, other);
    EXPECT(!climb_opt_values_equal(OPTS, N, d, other));
    climb_opt_values_free(N, d);
    climb_opt_plan_free(&p, NULL);

    /* same_seed: combinations that differ only in a marked option take one seed combination (the marked option at
     * its first value); the others keep their own. bins 3 values x dist 3 (marked), the odometer's last fastest. */
    {
        climb_option marked[N];
        memcpy(marked, OPTS, sizeof marked);
        marked[2].same_seed = 1;
        climb_opt_plan q;
        EXPECT(climb_opt_plan_init(&q, marked, N, err, sizeof err) == 0);
        EXPECT(climb_opt_plan_set(&q, 0, "16,32,64", 0, err, sizeof err) == 0);
        EXPECT(climb_opt_plan_set(&q, 2, "all", 0, err, sizeof err) == 0 && climb_opt_plan_combos(&q) == 9);
        for (long i = 0; i < 9; i++)
            EXPECT_MSG(climb_opt_plan_seed_combo(&q, i) == i / 3 * 3, "combination %ld: %ld", i,
                       climb_opt_plan_seed_combo(&q, i));
        marked[2].same_seed = 0; /* unmarked: each its own */
        marked[0].same_seed = 1; /* bins marked instead: dist's digit kept, bins' zeroed */
        for (long i = 0; i < 9; i++)
            EXPECT_MSG(climb_opt_plan_seed_combo(&q, i) == i % 3, "combination %ld: %ld", i,
                       climb_opt_plan_seed_combo(&q, i));
        marked[0].same_seed = 0;
        for (long i = 0; i < 9; i++)
            EXPECT(climb_opt_plan_seed_combo(&q, i) == i);
        climb_opt_plan_free(&q, NULL);
    }

    /* A table whose default does not parse is caught when the plan is made. */
    climb_option broken = {.name = "k", .kind = CLIMB_OPT_INT, .meaning = "m", .def = "5", .min = 0, .max = 3};
    EXPECT(climb_opt_plan_init(&p, &broken, 1, err, sizeof err) == -1 && strstr(err, "k=5: not in 0..3"));
    climb_opt_plan_free(&p, NULL);
    /* No options: one combination of nothing. */
    EXPECT(climb_opt_plan_init(&p, NULL, 0, err, sizeof err) == 0 && climb_opt_plan_combos(&p) == 1);
    climb_opt_plan_free(&p, NULL);
}

/* Numbers are read the same under a locale whose decimal point is a comma. */
static void test_locale(void)
{
    locale_t de = test_decimal_comma_locale();
    EXPECT(de != NULL || system("command -v localedef >/dev/null 2>&1") != 0);
    if (!de)
        return;
    locale_t old = uselocale(de);
    EXPECT(strtod("1,5", NULL) == 1.5); /* the locale really is in force */
    double x;
    EXPECT(climb_parse_double("1.5", &x) == 0 && x == 1.5);
    EXPECT(climb_parse_double("1,5", &x) == -1);
    climb_opt_value v;
    char err[200];
    EXPECT(climb_opt_parse(&OPTS[1], "2.25", &v, err, sizeof err) == 0 && v.f == 2.25);
    free(v.text);
    uselocale(old);
    test_locale_done(de);
}

int main(void)
{
    test_parse();
    test_plan();
    test_locale();
    return test_finish("test_cpu_options");
}
