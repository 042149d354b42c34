/* A small strict JSON reader for the files climb reads back (wisdom files). Errors name the line. */
#ifndef CLIMB_IO_JSON_H
#define CLIMB_IO_JSON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_json_type {
    CLIMB_JSON_NULL, CLIMB_JSON_BOOL, CLIMB_JSON_NUMBER, CLIMB_JSON_STRING, CLIMB_JSON_ARRAY, CLIMB_JSON_OBJECT
} climb_json_type;

typedef struct climb_json {
    climb_json_type type;
    int line;                  /* where the value starts, from 1 */
    double number;             /* NUMBER; BOOL as 0 or 1 */
    char *string;              /* STRING (NUL-terminated; a \u0000 escape is refused) */
    char **keys;               /* OBJECT: n keys */
    struct climb_json *items;  /* ARRAY and OBJECT: n values */
    int n;
} climb_json;

/* Parses all of text[0..len): one value and nothing after it but white space. Returns a tree to free with
 * climb_json_free, or NULL with err = "line N: what is wrong". Nesting deeper than 64 is refused. */
climb_json *climb_json_parse(const char *text, size_t len, char *err, size_t errlen);
void climb_json_free(climb_json *v);

/* The member `key` of an object, or NULL (also when v is not an object). */
const climb_json *climb_json_get(const climb_json *v, const char *key);
/* 1 if v is a number that is an integer within [lo, hi], with *out set. */
int climb_json_int(const climb_json *v, long lo, long hi, long *out);

/* Writes v as JSON, nested values indented by 2 more than `indent`. */
void climb_json_write(FILE *f, const climb_json *v, int indent);
/* Writes s as a quoted JSON string. */
void climb_json_write_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
