/* climb-tests: every test of tests/ in one program (tests/CMakeLists.txt says why). `climb-tests NAME [ARGS...]`
 * runs the test NAME's main(), whose return value is the program's exit code (77: skipped); `climb-tests --list`
 * prints every name. The table comes from tests/CMakeLists.txt: each test's main() is compiled as
 * climb_test_main_NAME, with no arguments or with (argc, argv). */
#include <stdio.h>
#include <string.h>

#define CLIMB_TEST_ARGS_0(name) int climb_test_main_##name(void);
#define CLIMB_TEST_ARGS_1(name) int climb_test_main_##name(int argc, char **argv);
#define CLIMB_TEST(name, takes_args) CLIMB_TEST_ARGS_##takes_args(name)
#include "tests_table.h"
#undef CLIMB_TEST

/* One caller for each: a test whose main() takes no arguments is called without them. */
#define CLIMB_TEST_CALL_0(name)                                                                                      \
    static int run_##name(int argc, char **argv)                                                                     \
    {                                                                                                                \
        (void)argc;                                                                                                  \
        (void)argv;                                                                                                  \
        return climb_test_main_##name();                                                                             \
    }
#define CLIMB_TEST_CALL_1(name)                                                                                      \
    static int run_##name(int argc, char **argv) { return climb_test_main_##name(argc, argv); }
#define CLIMB_TEST(name, takes_args) CLIMB_TEST_CALL_##takes_args(name)
#include "tests_table.h"
#undef CLIMB_TEST

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} tests[] = {
#define CLIMB_TEST(name, takes_args) {#name, run_##name},
#include "tests_table.h"
#undef CLIMB_TEST
};

int main(int argc, char **argv)
{
    const size_t n = sizeof tests / sizeof tests[0];
    if (argc < 2) {
        fprintf(stderr, "usage: climb-tests NAME [ARGS...] (a test's name), or climb-tests --list\n");
        return 2;
    }
    if (strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(argv[1], tests[i].name) == 0)
            return tests[i].run(argc - 1, argv + 1); /* the test sees its own name as argv[0] */
    fprintf(stderr, "climb-tests: no test named '%s' (climb-tests --list names them)\n", argv[1]);
    return 2;
}
