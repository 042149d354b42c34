/* Workload options: the typed settings a workload declares beside its shape (bins=256, dist=uniform, radius=1,
 * alpha=1.5, source=0, input=FILE). The CLI takes them generically (--set name=value, --input FILE), lists them,
 * refuses unknown names and bad values before the GPU is touched, and every report records them.
 *
 * A value may be a comma-separated list (dist=uniform,constant; for a choice, "all" lists every choice): the
 * run then covers every combination of the listed values, one case each. */
#ifndef CLIMB_CORE_OPTIONS_H
#define CLIMB_CORE_OPTIONS_H

#include <stddef.h>

#include "../base/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum climb_opt_kind {
    CLIMB_OPT_INT = 0,      /* a whole number in [min, max] */
    CLIMB_OPT_FLOAT = 1,    /* a finite number in [min, max] */
    CLIMB_OPT_CHOICE = 2,   /* one of `choices` */
    CLIMB_OPT_FILE = 3      /* a file the workload reads its case from (--input FILE); "" for none */
} climb_opt_kind;

typedef struct climb_option {
    const char *name;               /* "bins": letters, digits and '_' */
    climb_opt_kind kind;
    const char *meaning;            /* "histogram bins" */
    const char *def;                /* the default, as it would be written after --set name=: "256", "uniform",
                                       "uniform,constant" (a sweep); "" for a FILE option */
    double min, max;                /* INT and FLOAT: the accepted range, inclusive */
    const char *const *choices;     /* CHOICE: the accepted words, NULL-terminated */
    int generator;                  /* 1: it shapes generated inputs only, so when a FILE option names a file only
                                       its first value runs (no copies of the file's case under other values), and
                                       the CLI refuses --set of it beside --input (it would have no effect) */
    const char *suffixes;           /* FILE: the endings of the files a folder given as the input stands for
                                       (".mtx"; space-separated): --input FOLDER runs each such file in it, by
                                       name; NULL: a folder is refused */
    int keys_tuning;                /* 1: the best rung's tuned parameters depend on this option's value (a stencil
                                       radius, a mask size, histogram bins): `climb tune` tunes each value class
                                       apart and the wisdom keeps one entry per class (climb_tuning_class) */
    const char *env;                /* INT only: the environment variable the value stands for, which the CUDA
                                       runtime reads once, when the process's context is made
                                       ("CUDA_DEVICE_MAX_CONNECTIONS"). 0 leaves the variable as the process has it;
                                       another value needs the variable at that value from the process's start:
                                       `climb bench` runs such cases in a climb process of their own, started with
                                       it (one a value), and adds their rows to its report; elsewhere (check, tune,
                                       a process whose variable differs) the case is refused, saying so. min 0 */
    const char *check_def;          /* not FILE: the value(s) `climb check` runs where --set names none (NULL: def),
                                       for an option whose values reach different kernels (sgemm's "all" forms), so
                                       that the check, and the sanitizer's run of it, reach every one */
    const char *tune_def;           /* not FILE: the value(s) `climb tune` runs where --set names none (NULL: def),
                                       for an option that keys the tuning whose default runs one of its values
                                       (gemm's "all" precisions), so that the tune step saves every class */
    int same_seed;                  /* 1: cases that differ only in this option's value draw their inputs from one
                                       seed (climb_opt_plan_seed_combo), so that they can be compared on the same
                                       drawn data: bfs's rmat and rmat_directed graphs, the one edge list
                                       symmetrized or as drawn, searched from the same source. Without it every
                                       combination has its own seed */
} climb_option;

/* One value of one option. */
typedef struct climb_opt_value {
    long long i;                    /* INT */
    double f;                       /* FLOAT */
    int choice;                     /* CHOICE: index into choices */
    char *text;                     /* as written: "256", "uniform", a path ("" for no file) */
    /* FILE, once the workload has loaded it: */
    void *data;                     /* what the workload's load() made of the file */
    climb_shape shape;              /* the shape the file gives (ndims 0: it leaves the shape open) */
    char *desc;                     /* "cant.mtx: 62451 x 62451, 4.0M nonzeros" */
} climb_opt_value;

const char *climb_opt_kind_name(climb_opt_kind k);
/* Index of option `name` in opts[0..n), or -1. */
int climb_opt_find(const climb_option *opts, int n, const char *name);

/* Parses one value (no list) of option o: 0, or -1 with err ("bins=abc: not a whole number"). */
int climb_opt_parse(const climb_option *o, const char *text, climb_opt_value *out, char *err, size_t errlen);

/* "bins=256 dist=uniform input=cant.mtx" (a FILE option without a file is left out); "" when there are none. */
void climb_opt_format(const climb_option *opts, int n, const climb_opt_value *v, char *buf, size_t len);
/* Deep copies of a combination's values (texts and descriptions, not the loaded data); free with
 * climb_opt_values_free. NULL when out of memory (or n == 0). */
climb_opt_value *climb_opt_values_dup(int n, const climb_opt_value *v);
void climb_opt_values_free(int n, climb_opt_value *v);
/* 1 if two combinations hold the same values. */
int climb_opt_values_equal(const climb_option *opts, int n, const climb_opt_value *a, const climb_opt_value *b);

/* The values every option takes in one run: its default unless set. */
typedef struct climb_opt_plan {
    const climb_option *opts;
    int n;
    int *count;                     /* values of option k */
    climb_opt_value **values;
} climb_opt_plan;

/* Every option at its default. 0, or -1 with err (a default that does not parse: a bug in the table). */
int climb_opt_plan_init(climb_opt_plan *p, const climb_option *opts, int n, char *err, size_t errlen);
/* Option k takes the value(s) in text: a comma-separated list (not for FILE); replaces what it had, or with
 * append (FILE only) adds one more file. 0, or -1 with err. */
int climb_opt_plan_set(climb_opt_plan *p, int k, const char *text, int append, char *err, size_t errlen);
/* How many combinations, and the i-th (the last option varies fastest); out gets shallow copies. */
long climb_opt_plan_combos(const climb_opt_plan *p);
void climb_opt_plan_combo(const climb_opt_plan *p, long i, climb_opt_value *out);
/* The combination whose seed the i-th takes: i with each same_seed option at its first value. */
long climb_opt_plan_seed_combo(const climb_opt_plan *p, long i);
/* Frees the plan; unload (may be NULL) frees the data of loaded files. */
void climb_opt_plan_free(climb_opt_plan *p, void (*unload)(void *data));

#ifdef __cplusplus
}
#endif

#endif
