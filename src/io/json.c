#include "json.h"

#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct {
    const char *s, *end;
    int line;
    char *err;
    size_t errlen;
    int failed;
} parser;

static void fail_at(parser *p, int line, const char *what)
{
    if (!p->failed)
        snprintf(p->err, p->errlen, "line %d: %s", line, what);
    p->failed = 1;
}

static void fail(parser *p, const char *what) { fail_at(p, p->line, what); }

/* The length of the UTF-8 sequence starting at s (at most n bytes), or 0 if it is not valid UTF-8: no overlong
 * forms, no surrogates, nothing above U+10FFFF, no lone continuation bytes, no truncated sequences. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t k;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        k = 3;
        if (c == 0xe0)
            lo = 0xa0; /* overlong */
        if (c == 0xed)
            hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 4;
        if (c == 0xf0)
            lo = 0x90; /* overlong */
        if (c == 0xf4)
            hi = 0x8f; /* above U+10FFFF */
    } else {
        return 0;
    }
    if (n < k || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return k;
}

static void skip_ws(parser *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) {
        if (*p->s == '\n')
            p->line++;
        p->s++;
    }
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0)
        return 0;
    p->s += n;
    return 1;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* A string starting at the opening quote; returns a malloc'd UTF-8 copy. */
static char *parse_string(parser *p)
{
    p->s++; /* the quote */
    size_t cap = 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fail(p, "out of memory");
        return NULL;
    }
    for (;;) {
        if (p->s >= p->end) {
            fail(p, "unterminated string");
            break;
        }
        unsigned char c = (unsigned char)*p->s++;
        if (c == '"') {
            buf[n] = '\0';
            return buf;
        }
        if (c < 0x20) {
            fail(p, c == '\n' ? "line break inside a string" : "control character inside a string");
            break;
        }
        char tmp[4];
        size_t k = 1;
        tmp[0] = (char)c;
        if (c >= 0x80) {
            /* A multi-byte character: copied whole once its bytes are valid UTF-8. */
            k = utf8_length((const unsigned char *)p->s - 1, (size_t)(p->end - p->s) + 1);
            if (k == 0) {
                fail(p, "invalid UTF-8 in a string");
                break;
            }
            memcpy(tmp, p->s - 1, k);
            p->s += k - 1;
        } else if (c == '\\') {
            if (p->s >= p->end) {
                fail(p, "unterminated string");
                break;
            }
            char e = *p->s++;
            switch (e) {
            case '"': case '\\': case '/': tmp[0] = e; break;
            case 'b': tmp[0] = '\b'; break;
            case 'f': tmp[0] = '\f'; break;
            case 'n': tmp[0] = '\n'; break;
            case 'r': tmp[0] = '\r'; break;
            case 't': tmp[0] = '\t'; break;
            case 'u': {
                unsigned u;
                if (p->end - p->s < 4 || hex4(p->s, &u) != 0) {
                    fail(p, "bad \\u escape in a string");
                    goto out;
                }
                p->s += 4;
                if (u == 0 || (u >= 0xd800 && u <= 0xdfff)) {
                    fail(p, "\\u escape of NUL or a surrogate in a string is not accepted");
                    goto out;
                }
                if (u < 0x80) {
                    tmp[0] = (char)u;
                } else if (u < 0x800) {
                    tmp[0] = (char)(0xc0 | (u >> 6));
                    tmp[1] = (char)(0x80 | (u & 0x3f));
                    k = 2;
                } else {
                    tmp[0] = (char)(0xe0 | (u >> 12));
                    tmp[1] = (char)(0x80 | ((u >> 6) & 0x3f));
                    tmp[2] = (char)(0x80 | (u & 0x3f));
                    k = 3;
                }
                break;
            }
            default: fail(p, "unknown escape in a string"); goto out;
            }
        }
        if (n + k + 1 > cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                fail(p, "out of memory");
                break;
            }
            buf = nb;
        }
        memcpy(buf + n, tmp, k);
        n += k;
    }
out:
    free(buf);
    return NULL;
}

static void parse_value(parser *p, climb_json *v, int depth);

/* Keys of an object sorted (by key, then position) so that equal keys are neighbours: n log n, where comparing every
 * pair took seconds on a large file. The error names the line of the later of two equal keys. */
typedef struct {
    const char *key;
    int index;
} key_at;

static int by_key(const void *a, const void *b)
{
    const key_at *x = (const key_at *)a, *y = (const key_at *)b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void check_duplicates(parser *p, const climb_json *v)
{
    if (v->n < 2)
        return;
    key_at *order = malloc(sizeof *order * (size_t)v->n);
    if (!order) {
        fail(p, "out of memory");
        return;
    }
    for (int i = 0; i < v->n; i++)
        order[i] = (key_at){v->keys[i], i};
    qsort(order, (size_t)v->n, sizeof *order, by_key);
    int dup = -1;
    for (int i = 1; i < v->n; i++)
        if (strcmp(order[i].key, order[i - 1].key) == 0 && (dup < 0 || order[i].index < dup))
            dup = order[i].index;
    if (dup >= 0)
        fail_at(p, v->items[dup].line, "duplicate key");
    free(order);
}

static int grow(parser *p, climb_json *v, int *cap, int with_keys)
{
    if (v->n < *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 4;
    climb_json *ni = realloc(v->items, (size_t)nc * sizeof *ni);
    if (ni)
        v->items = ni;
    char **nk = NULL;
    if (with_keys) {
        nk = realloc(v->keys, (size_t)nc * sizeof *nk);
        if (nk)
            v->keys = nk;
    }
    if (!ni || (with_keys && !nk)) {
        fail(p, "out of memory");
        return -1;
    }
    *cap = nc;
    return 0;
}

static int digits(parser *p)
{
    int n = 0;
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
        p->s++, n++;
    return n;
}

/* JSON's number grammar exactly (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), read in the C locale whatever the
 * process's locale is (a host program may have set one with a decimal comma). */
static void parse_number(parser *p, climb_json *v)
{
    const char *start = p->s;
    if (p->s < p->end && *p->s == '-')
        p->s++;
    if (p->s >= p->end || *p->s < '0' || *p->s > '9') {
        fail(p, "expected a value");
        return;
    }
    if (*p->s == '0' && p->s + 1 < p->end && p->s[1] >= '0' && p->s[1] <= '9') {
        fail(p, "a number may not start with 0");
        return;
    }
    digits(p);
    int ok = 1;
    if (p->s < p->end && *p->s == '.') {
        p->s++;
        ok &= digits(p) > 0;
    }
    if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
        p->s++;
        if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
            p->s++;
        ok &= digits(p) > 0;
    }
    char buf[64];
    size_t n = (size_t)(p->s - start);
    if (!ok || (p->s < p->end && (*p->s == '.' || *p->s == 'e' || *p->s == 'E' || *p->s == '+' || *p->s == '-'))) {
        fail(p, "malformed number");
        return;
    }
    if (n >= sizeof buf) {
        fail(p, "number too long");
        return;
    }
    memcpy(buf, start, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    double d = climb_strtod_c(buf, &end);
    if (*end || (errno == ERANGE && fabs(d) > 1.0) || !isfinite(d)) {
        fail(p, "malformed number");
        return;
    }
    v->type = CLIMB_JSON_NUMBER;
    v->number = d;
}

static void parse_value(parser *p, climb_json *v, int depth)
{
    memset(v, 0, sizeof *v);
    skip_ws(p);
    v->line = p->line;
    if (depth > JSON_MAX_DEPTH) {
        fail(p, "nested too deeply");
        return;
    }
    if (p->s >= p->end) {
        fail(p, "unexpected end of file");
        return;
    }
    char c = *p->s;
    if (c == '{' || c == '[') {
        int obj = c == '{', cap = 0;
        v->type = obj ? CLIMB_JSON_OBJECT : CLIMB_JSON_ARRAY;
        p->s++;
        skip_ws(p);
        if (p->s < p->end && *p->s == (obj ? '}' : ']')) {
            p->s++;
            return;
        }
        for (;;) {
            if (grow(p, v, &cap, obj) != 0)
                return;
            if (obj) {
                skip_ws(p);
                if (p->s >= p->end || *p->s != '"') {
                    fail(p, "expected a quoted key");
                    return;
                }
                char *k = parse_string(p);
                if (!k)
                    return;
                v->keys[v->n] = k;
                skip_ws(p);
                if (p->s >= p->end || *p->s != ':') {
                    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
                    v->n++;
                    fail(p, "expected ':' after a key");
                    return;
                }
                p->s++;
            }
            parse_value(p, &v->items[v->n], depth + 1);
            v->n++;
            if (p->failed)
                return;
            skip_ws(p);
            if (p->s < p->end && *p->s == ',') {
                p->s++;
                continue;
            }
            if (p->s < p->end && *p->s == (obj ? '}' : ']')) {
                p->s++;
                if (obj)
                    check_duplicates(p, v);
                return;
            }
            fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
            return;
        }
    }
    if (c == '"') {
        v->string = parse_string(p);
        if (v->string)
            v->type = CLIMB_JSON_STRING;
        return;
    }
    if (literal(p, "true")) {
        v->type = CLIMB_JSON_BOOL;
        v->number = 1;
        return;
    }
    if (literal(p, "false")) {
        v->type = CLIMB_JSON_BOOL;
        return;
    }
    if (literal(p, "null"))
        return;
    parse_number(p, v);
}

static void free_inner(climb_json *v)
{
    for (int i = 0; i < v->n; i++) {
        free_inner(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

void climb_json_free(climb_json *v)
{
    if (!v)
        return;
    free_inner(v);
    free(v);
}

climb_json *climb_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    char dummy[8];
    parser p = {text, text + len, 1, err ? err : dummy, err ? errlen : sizeof dummy, 0};
    p.err[0] = '\0';
    if (memchr(text, '\0', len)) {
        /* A NUL byte: find its line for the message. */
        const char *z = memchr(text, '\0', len);
        for (const char *q = text; q < z; q++)
            p.line += *q == '\n';
        fail(&p, "NUL byte in the file");
        return NULL;
    }
    climb_json *v = calloc(1, sizeof *v);
    if (!v) {
        fail(&p, "out of memory");
        return NULL;
    }
    parse_value(&p, v, 0);
    if (!p.failed) {
        skip_ws(&p);
        if (p.s != p.end)
            fail(&p, "unexpected text after the JSON value");
    }
    if (p.failed) {
        climb_json_free(v);
        return NULL;
    }
    return v;
}

const climb_json *climb_json_get(const climb_json *v, const char *key)
{
    if (!v || v->type != CLIMB_JSON_OBJECT)
        return NULL;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

int climb_json_int(const climb_json *v, long lo, long hi, long *out)
{
    if (!v || v->type != CLIMB_JSON_NUMBER || v->number != floor(v->number) || v->number < (double)lo ||
        v->number > (double)hi)
        return 0;
    *out = (long)v->number;
    return 1;
}

static void write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

void climb_json_write_string(FILE *f, const char *s) { write_string(f, s); }

void climb_json_write(FILE *f, const climb_json *v, int indent)
{
    switch (v->type) {
    case CLIMB_JSON_NULL: fputs("null", f); return;
    case CLIMB_JSON_BOOL: fputs(v->number != 0 ? "true" : "false", f); return;
    case CLIMB_JSON_NUMBER:
        if (v->number == floor(v->number) && fabs(v->number) < 1e15)
            fprintf(f, "%.0f", v->number);
        else
            fprintf(f, "%.17g", v->number);
        return;
    case CLIMB_JSON_STRING: write_string(f, v->string); return;
    case CLIMB_JSON_ARRAY:
    case CLIMB_JSON_OBJECT: {
        int obj = v->type == CLIMB_JSON_OBJECT;
        fputc(obj ? '{' : '[', f);
        for (int i = 0; i < v->n; i++) {
            fprintf(f, "%s\n%*s", i ? "," : "", indent + 2, "");
            if (obj) {
                write_string(f, v->keys[i]);
                fputs(": ", f);
            }
            climb_json_write(f, &v->items[i], indent + 2);
        }
        if (v->n)
            fprintf(f, "\n%*s", indent, "");
        fputc(obj ? '}' : ']', f);
        return;
    }
    }
}
