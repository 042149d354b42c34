/* Wisdom files: the tuned parameters `climb tune` found, saved per workload and keyed by GPU name, compute
 * capability, driver version and climb version, read back by `climb bench` and the C API. Reading never
 * prints: the outcome and a message (file:line: what is wrong, for a bad file) go back to the caller. */
#ifndef CLIMB_CORE_WISDOM_H
#define CLIMB_CORE_WISDOM_H

#include <stddef.h>

#include "../device/device.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLIMB_WISDOM_FORMAT "climb wisdom 1"
#define CLIMB_WISDOM_MAX_BYTES (1 << 20)

typedef struct climb_wisdom_key {
    const char *gpu;            /* the device name */
    int cc_major, cc_minor;
    int driver;                 /* cudaDriverGetVersion, e.g. 13000 */
    const char *climb_version;  /* "0.1.0" */
    const char *cls;            /* the tuning class ("radius=2"; climb_tuning_class); NULL or "" for none */
} climb_wisdom_key;

typedef enum climb_wisdom_outcome {
    CLIMB_WISDOM_USED = 0,   /* values came from the file */
    CLIMB_WISDOM_ABSENT,     /* there is no file: the defaults, nothing to warn about */
    CLIMB_WISDOM_NO_ENTRY,   /* the file holds nothing for this workload: the defaults */
    CLIMB_WISDOM_FOREIGN,    /* entries for this workload, none for this GPU: warning, the defaults */
    CLIMB_WISDOM_STALE,      /* an entry for this GPU from another driver or climb version: warning, the defaults */
    CLIMB_WISDOM_CORRUPT,    /* unreadable, not a regular file, not JSON, the wrong shape, or values that are not
                                candidates: warning, the defaults */
    CLIMB_WISDOM_MISSING     /* a file the user named (not the default one) is not there: warning, the defaults */
} climb_wisdom_outcome;

/* 1 for the outcomes that deserve a warning (foreign, stale, corrupt, missing). */
int climb_wisdom_warns(climb_wisdom_outcome o);

/* The default wisdom file: $CLIMB_WISDOM if set, else $XDG_CONFIG_HOME/climb/wisdom.json, else
 * $HOME/.config/climb/wisdom.json. 0, or -1 when none of those variables is set. */
int climb_wisdom_default_path(char *buf, size_t len);

/* Looks up `workload` for `key` in the file at `path`. On CLIMB_WISDOM_USED, values[0..tn->n_params) are
 * set, and they are a candidate climb_tuning_check accepts on dev; otherwise values are untouched. `msg` says
 * what happened in one line (a corrupt file's message starts "path:line: "). */
climb_wisdom_outcome climb_wisdom_lookup(const char *path, const char *workload, const climb_tuning *tn,
                                         const climb_wisdom_key *key, const climb_device_info *dev, int *values,
                                         char *msg, size_t msglen);

/* The values tn's rung runs with on dev: the wisdom for `workload` in `path` (NULL: the default file) for the
 * tuning class of example->opts (climb_tuning_class; "" for a workload without classes) when it matches dev (CLIMB_WISDOM_USED: values set, the same for every case); else the built-in defaults, which
 * may depend on the case: values get those of `example` (a case the line describes them by). `msg` gets the
 * lookup's own message (a corrupt file's starts "path:line: "); `line` one sentence on where the values come
 * from and, if a file was not used, why. The key is dev's name, CC and driver and this build's climb version. */
climb_wisdom_outcome climb_wisdom_resolve(const char *path, const char *workload, const climb_tuning *tn,
                                          const climb_device_info *dev, const climb_tuning_key *example, int *values,
                                          char *msg, size_t msglen, char *line, size_t linelen);

/* One entry of a wisdom file, as `climb wisdom show|check` lists it (strings in printable ASCII). */
typedef struct climb_wisdom_entry {
    int line;
    char workload[64], gpu[256], cc[16], climb[32], tuned[64];
    long driver;
    double speedup;             /* speedup_vs_defaults; NAN if the entry has none */
    char params[300];           /* "block=512 blocks_per_sm=4 vecs=4", as the file has them */
    char cls[128];              /* the entry's tuning class ("radius=2"), "" for none */
    char problem[400];          /* "" when valid; else "path:line: what is wrong" */
} climb_wisdom_entry;

/* Reads every entry of the file at `path` and checks each on its own, without a GPU: a workload of this climb
 * with tunable parameters, exactly its parameters, together a candidate on a device of the entry's compute
 * capability (from the occupancy calculator's table). Calls `each` once per entry. 0; 1 when there is no file;
 * -1 when it cannot be read or is not a wisdom file (msg "path:line: what is wrong"). */
int climb_wisdom_each(const char *path, void (*each)(const climb_wisdom_entry *e, void *ctx), void *ctx, char *msg,
                      size_t msglen);

/* Saves values as the wisdom for (workload, key's GPU, CC and class), replacing an entry for the same workload,
 * GPU, CC and class and keeping every other entry. Creates the file's folder. A corrupt existing file is moved
 * to path.bad first (msg says so); a folder, a FIFO or a dangling symbolic link is refused and left alone; a
 * symbolic link to a file has that file rewritten. `tuned` is a date; `speedup` the winner's gain over the defaults.
 * 0, or -1 with msg saying why. */
int climb_wisdom_store(const char *path, const char *workload, const climb_tuning *tn, const climb_wisdom_key *key,
                       const int *values, const char *tuned, double speedup, char *msg, size_t msglen);
/* Removes the entry for (workload, key's GPU, CC and class), keeping every other one (the built-in defaults won and
 * they vary by case, so no one set of values is wisdom). Nothing to do when there is no file. 0, or -1 with msg. */
int climb_wisdom_forget(const char *path, const char *workload, const climb_wisdom_key *key, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
