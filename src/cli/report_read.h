/* Reading climb's JSON reports back (climb compare, climb report): the file parsed, checked to be a report, and
 * the accessors both commands use on its rows. No GPU needed. */
#ifndef CLIMB_CLI_REPORT_READ_H
#define CLIMB_CLI_REPORT_READ_H

#include <stddef.h>

#include "../io/json.h"

typedef struct climb_report_file {
    climb_json *root;
    const climb_json *results;   /* the rows (an array) */
    const climb_json *device;    /* NULL where the report has none */
    const climb_json *workloads; /* the registry entries (an array), NULL where absent */
    const char *gpu, *timing, *sweep, *commit, *date, *command;
} climb_report_file;

typedef enum climb_report_read_status {
    CLIMB_REPORT_OK = 0,
    CLIMB_REPORT_UNREADABLE = -1, /* the file could not be read or is not JSON: err is "path:line N: why" */
    CLIMB_REPORT_NOT_REPORT = -2, /* JSON, but not a climb bench report of format 2 (a wisdom file, a device list,
                                     a tune report): err says what it is */
} climb_report_read_status;

/* Reads and checks path. On OK, *out holds the tree (free with climb_report_file_free). */
climb_report_read_status climb_report_file_read(const char *path, climb_report_file *out, char *err, size_t errlen);
void climb_report_file_free(climb_report_file *r);

/* 1 when a and b are the same text, or both NULL. */
int climb_same_text(const char *a, const char *b);
/* A string member, or NULL when missing or not a string. */
const char *climb_jstr(const climb_json *o, const char *key);
/* A report's registry entry's texts the ladder comes from ("sources"; "seed_ref" in format 2), or NULL. */
const char *climb_report_sources(const climb_json *reg);
/* A number member, or NaN when missing, null or not a number. */
double climb_jnum(const climb_json *o, const char *key);
/* "name=value ..." of a row's options, in the file's order, an input file by its last part (so that runs from
 * different folders match); unset file options and null values left out. */
void climb_row_options_text(const climb_json *opts, char *out, size_t len);
/* The row's case and rung as one key, "workload|rung|type|shape|options" (options only when there are some). */
void climb_row_key(const climb_json *row, int with_rung, char *out, size_t len);

#endif
