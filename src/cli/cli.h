/* Helpers shared by the command files of the climb CLI. */
#ifndef CLIMB_CLI_H
#define CLIMB_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "../device/device.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* Prints "climb: <fmt with arg> (see 'climb help CMD')" to stderr, one line (CMD from the usage's first line);
 * returns EXIT_USAGE. */
int usage_error(const char *usage, const char *fmt, const char *arg);
int is_help(const char *a);
/* A decimal count or 2^K. 0 or -1. */
int parse_size(const char *s, size_t *out);
int parse_int(const char *s, int lo, int hi, int *out);
/* Opens device `ordinal` (facts, and the ceilings when measure, the CLIMB_MEASURE_* ones in extra too).
 * 0, or -1 after printing why. */
int open_device(int ordinal, climb_device_info *d, int measure, unsigned extra);

int cmd_occupancy(int argc, char **argv);
int cmd_wisdom(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* The whole CLI: what main() runs. A test build registers its test workload first, then calls this. */
int climb_cli_main(int argc, char **argv);

#endif
