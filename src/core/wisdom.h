/* Wisdom files: the tuned parameters `climb tune` found, saved per workload and keyed by GPU name, compute
 * capability, driver version and climb version, read back by `climb bench` and the C API. Reading never
 * prints: the outcome and a message (file:line: what is wrong, for a bad file) go back to the caller. */
#ifndef CLIMB_CORE_WISDOM_H
#define CLIMB_CORE_WISDOM_H

#include <stddef.h>

#include "device.h"
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
} climb_wisdom_key;

typedef enum climb_wisdom_outcome {
    CLIMB_WISDOM_USED = 0,   /* values came from the file */
    CLIMB_WISDOM_ABSENT,     /* there is no file: the defaults, nothing to warn about */
    CLIMB_WISDOM_NO_ENTRY,   /* the file holds nothing for this workload: the defaults */
    CLIMB_WISDOM_FOREIGN,    /* entries for this workload, none for this GPU: warning, the defaults */
    CLIMB_WISDOM_STALE,      /* an entry for this GPU from another driver or climb version: warning, the defaults */
    CLIMB_WISDOM_CORRUPT     /* unreadable, not JSON, the wrong shape, or values that are not candidates: warning */
} climb_wisdom_outcome;

/* 1 for the outcomes that deserve a warning (foreign, stale, corrupt). */
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

/* The values tn's rung runs with on dev: the wisdom for `workload` in `path` (NULL: the default file) when
 * it matches dev (CLIMB_WISDOM_USED: values set, the same for every case); else the built-in defaults, which
 * may depend on the case: values get those of `example` (a case the line describes them by). `msg` gets the
 * lookup's own message (a corrupt file's starts "path:line: "); `line` one sentence on where the values come
 * from and, if a file was not used, why. The key is dev's name, CC and driver and this build's climb version. */
climb_wisdom_outcome climb_wisdom_resolve(const char *path, const char *workload, const climb_tuning *tn,
                                          const climb_device_info *dev, const climb_tuning_key *example, int *values,
                                          char *msg, size_t msglen, char *line, size_t linelen);

/* Saves values as the wisdom for (workload, key's GPU and CC), replacing an entry for the same workload,
 * GPU and CC and keeping every other entry. Creates the file's folder. A corrupt existing file is moved
 * to path.bad first (msg says so). `tuned` is a date; `speedup` the winner's gain over the defaults.
 * 0, or -1 with msg saying why. */
int climb_wisdom_store(const char *path, const char *workload, const climb_tuning *tn, const climb_wisdom_key *key,
                       const int *values, const char *tuned, double speedup, char *msg, size_t msglen);
/* Removes the entry for (workload, key's GPU and CC), keeping every other one (the built-in defaults won and
 * they vary by case, so no one set of values is wisdom). Nothing to do when there is no file. 0, or -1 with msg. */
int climb_wisdom_forget(const char *path, const char *workload, const climb_wisdom_key *key, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
