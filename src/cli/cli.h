/* Helpers shared by the command files of the climb CLI. */
#ifndef CLIMB_CLI_H
#define CLIMB_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../device/device.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* Prints "climb: <fmt with arg> (see 'climb help CMD')" to stderr, one line (CMD from the usage's first line);
 * returns EXIT_USAGE. */
int usage_error(const char *usage, const char *fmt, const char *arg);
int is_help(const char *a);
/* Prints "climb: <message>" to stderr, one line (the message names the fix); returns EXIT_USAGE. */
int usage_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct climb_workload;
/* A workload in full, as 'climb list W' prints it. */
void print_workload(const struct climb_workload *w, FILE *f);
/* A decimal count or 2^K. 0 or -1. */
int parse_size(const char *s, size_t *out);
int parse_int(const char *s, int lo, int hi, int *out);
/* Opens device `ordinal` (facts, and the ceilings when measure, the CLIMB_MEASURE_* ones in extra too).
 * 0, or -1 after printing why. */
int open_device(int ordinal, climb_device_info *d, int measure, unsigned extra);

int cmd_list(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_wisdom(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* bench --out DIR (bench_out.c). 0 if DIR can take the reports: made (with the folders above it) when create, else
 * only checked (the folder, or the nearest one above it that exists, writable); -1 with err. */
struct climb_report;
int bench_out_check(const char *dir, int create, char *err, size_t errlen);
/* The main command's folder for a GPU: climb-bench/<gpu's slug>-<UTC yyyymmdd-hhmmss>. */
void bench_out_auto_dir(const char *gpu, char *buf, size_t len);
/* Writes DIR/bench.json, DIR/bench.md and DIR/index.html (the report page of this run beside the committed results
 * of the nearest GPU: $CLIMB_RESULTS, else the source tree's results/), then the summary and the paths to out.
 * 0, or -1 when something could not be written (said on stderr). */
int bench_out_finish(const struct climb_report *rep, const char *dir, FILE *out);

/* The whole CLI: what main() runs. A test build registers its test workload first, then calls this. */
int climb_cli_main(int argc, char **argv);

#endif
