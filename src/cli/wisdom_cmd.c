/* climb wisdom show|check [FILE]: what a wisdom file holds, and whether each entry could be used, without a GPU. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../core/wisdom.h"

static const char *const WISDOM_USAGE =
    "usage: climb wisdom show [FILE]\n"
    "       climb wisdom check [FILE]\n"
    "\n"
    "Reads a wisdom file (default: $CLIMB_WISDOM, else $XDG_CONFIG_HOME/climb/wisdom.json, else\n"
    "~/.config/climb/wisdom.json) with no GPU. show prints each entry: workload, GPU, compute capability, driver,\n"
    "climb version, parameters, when it was tuned. check also checks each entry on its own: a workload of this\n"
    "climb, exactly its parameters, values that are candidates on a device of the entry's compute capability.\n"
    "Whether an entry matches this machine's GPU, driver and climb version, climb bench says when it runs.\n"
    "\n"
    "Exit status: 0 the file was read (show) or every entry is valid (check); 1 no file, a file that is not a\n"
    "wisdom file, or (check) an entry that is not valid; 2 bad usage.\n";

typedef struct {
    int check, n, bad;
} wisdom_ctx;

static void each_entry(const climb_wisdom_entry *e, void *p)
{
    wisdom_ctx *c = (wisdom_ctx *)p;
    c->n++;
    c->bad += e->problem[0] != '\0';
    if (c->check) {
        if (e->problem[0])
            printf("%s\n", e->problem);
        return;
    }
    printf("%-10s %-24s %-4s %-6ld %-8s %s%s%s", e->workload, e->gpu, e->cc, e->driver, e->climb,
           e->cls[0] ? e->cls : "", e->cls[0] ? ": " : "", e->params);
    if (e->tuned[0])
        printf("  tuned %s", e->tuned);
    if (!isnan(e->speedup))
        printf(", %.3fx the defaults", e->speedup);
    printf("%s\n", e->problem[0] ? "  (not valid: see climb wisdom check)" : "");
}

/* An option where the file goes: named twice in the message, which usage_error (one argument) cannot format. */
static int usage_msg_wisdom(const char *opt)
{
    char msg[600];
    snprintf(msg, sizeof msg, "wisdom: unknown option '%s' (a file named so: write ./%s)", opt, opt);
    return usage_error(WISDOM_USAGE, "%s", msg);
}

int cmd_wisdom(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            fputs(WISDOM_USAGE, stdout);
            return 0;
        }
    if (argc < 2)
        return usage_error(WISDOM_USAGE, "wisdom: show or check?%s", "");
    const char *verb = argv[1];
    if (strcmp(verb, "show") != 0 && strcmp(verb, "check") != 0)
        return usage_error(WISDOM_USAGE, "wisdom: '%s' is not show or check", verb);
    if (argc > 3)
        return usage_error(WISDOM_USAGE, "wisdom: one file at most; '%s' is extra", argv[3]);
    if (argc == 3 && argv[2][0] == '-' && argv[2][1] != '\0')
        return usage_msg_wisdom(argv[2]);
    char path[4096];
    if (argc == 3) {
        snprintf(path, sizeof path, "%s", argv[2]);
    } else if (climb_wisdom_default_path(path, sizeof path) != 0) {
        fprintf(stderr, "climb: no wisdom file named, and no default (CLIMB_WISDOM, XDG_CONFIG_HOME and HOME are unset)\n");
        return EXIT_USAGE;
    }
    wisdom_ctx c = {strcmp(verb, "check") == 0, 0, 0};
    char msg[800];
    int r = climb_wisdom_each(path, each_entry, &c, msg, sizeof msg);
    if (r != 0) {
        fprintf(stderr, "climb: %s\n", msg);
        return EXIT_FAILED;
    }
    if (c.check && c.bad) {
        printf("%s: %d entr%s, %d not valid\n", path, c.n, c.n == 1 ? "y" : "ies", c.bad);
        return EXIT_FAILED;
    }
    printf("%s: %d entr%s%s\n", path, c.n, c.n == 1 ? "y" : "ies", c.check ? ", all valid" : "");
    return 0;
}
