/* Reading text that users write: numbers parsed the same way in every locale, and a line reader for input
 * files (Matrix Market, PQR, edge lists, plain text) that counts lines, enforces size limits and words every
 * error as "file:line: what is wrong". Every parser of a workload's input file is built on these, so each
 * one gets the same limits and the same kind of messages, and none of them crashes on a bad file. */
#ifndef CLIMB_IO_TEXT_H
#define CLIMB_IO_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- numbers ---- */

/* A decimal integer token at *s ("-12", "+7"; no other base). On success advances *s past it: 0. Not a number
 * or out of range [lo, hi]: -1 (*s unchanged). */
int climb_scan_int(const char **s, long long lo, long long hi, long long *out);
/* A floating-point token at *s, in the C locale whatever the process's locale ("1.5", "-2e-3"). NaN, infinity
 * and hexadecimal floats are refused. 0 or -1 as above. */
int climb_scan_double(const char **s, double *out);
/* strtod in the C locale, whatever the process's locale (for grammars checked by the caller, such as JSON's). */
double climb_strtod_c(const char *s, char **end);
/* The whole of s is one number (no leading or trailing space): 0, else -1. */
int climb_parse_int(const char *s, long long lo, long long hi, long long *out);
int climb_parse_double(const char *s, double *out);

/* ---- line reader ---- */

typedef struct climb_lines {
    char path[1024];
    FILE *f;
    long line;            /* number of the line last returned, from 1 */
    char *buf;
    size_t cap;
    size_t max_line;      /* longest line accepted, in bytes */
    uint64_t max_bytes;   /* largest file accepted */
    uint64_t bytes;       /* read so far */
} climb_lines;

/* Opens `path` for reading line by line. A path that is not a regular file (a folder, a FIFO) is refused
 * before it is opened for reading. 0, or -1 with err ("path: what is wrong"). */
int climb_lines_open(climb_lines *r, const char *path, size_t max_line, uint64_t max_bytes, char *err, size_t errlen);
/* The next line, without its '\n' (and a '\r' before it), NUL-terminated in the reader's buffer: 1; 0 at the
 * end of the file; -1 with err ("path:line: ...") for a line over max_line, a file over max_bytes, a NUL
 * byte, or a read error. */
int climb_lines_next(climb_lines *r, char **line, size_t *len, char *err, size_t errlen);
void climb_lines_close(climb_lines *r);
/* Opens `path` as climb_lines_open does, and refuses a gzip'd file ("path: a gzip'd file: unpack it first") before
 * any line is read: the readers of text formats that people often keep compressed (Matrix Market, graphs). */
int climb_lines_open_plain(climb_lines *r, const char *path, size_t max_line, uint64_t max_bytes, char *err,
                           size_t errlen);
/* Writes "path:line: " followed by the formatted message into err; returns -1 (for `return climb_lines_fail(...)`). */
int climb_lines_fail(const climb_lines *r, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- whole files ---- */

/* Reads the regular file `path` whole into *data (malloc'd, at least 1 byte; free it) and its length into *n, for
 * the binary formats the line reader does not take (PGM's P5, Parboil's files). A file over max bytes is refused
 * as "larger than any <what>". 0, or -1 with err ("path: what is wrong"). */
int climb_read_file(const char *path, size_t max, const char *what, unsigned char **data, size_t *n, char *err,
                    size_t errlen);

/* Skips spaces and tabs. */
const char *climb_skip_blanks(const char *s);
/* The file name without its folders, for descriptions ("cant.mtx"). */
const char *climb_base_name(const char *path);
/* Copies s into buf (len bytes), replacing bytes that are not printable ASCII by '?' and cutting at len-1:
 * for quoting a token of a bad file in a message without echoing raw bytes. */
void climb_printable(const char *s, size_t n, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
