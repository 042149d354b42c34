/* A set of GPUs a case spans: `--gpus N` (the first N) or `--devices 0,2` (those, in that order), checked against
 * the devices there are. No CUDA call here: the caller passes the count it has. */
#ifndef CLIMB_DEVICE_DEVICE_SET_H
#define CLIMB_DEVICE_DEVICE_SET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs one case spans (a node's eight today, with room). */
#define CLIMB_MAX_DEVICES 64

typedef struct climb_device_set {
    int n;                         /* 0: none given (the run's one device) */
    int id[CLIMB_MAX_DEVICES];     /* ordinals, distinct, in the order given */
} climb_device_set;

/* The first n devices: 0, or -1 with why (n below 1, over CLIMB_MAX_DEVICES, or more than `available`, the
 * device count; available < 0: not known yet, not checked). */
int climb_device_set_first(int n, int available, climb_device_set *out, char *why, size_t len);
/* A list of ordinals and ranges, "0,2" or "0-3" or "1,3-4": 0, or -1 with why (not a number, a range backwards, an
 * ordinal listed twice, past `available` (when >= 0), more than CLIMB_MAX_DEVICES, an empty item). */
int climb_device_set_parse(const char *list, int available, climb_device_set *out, char *why, size_t len);
/* "0,2" into buf (len bytes). */
void climb_device_set_format(const climb_device_set *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
