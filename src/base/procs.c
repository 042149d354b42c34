#include "procs.h"
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int climb_procs_check(const climb_procs *p, int v, const char *what)
{
    if (p && v < 0) {
        fprintf(stderr, "climb: rank %d: %s failed; ending every process\n", p->rank, what);
        fflush(stderr);
        p->abort(p->ctx);
    }
    return v;
}

int climb_procs_bcast(const climb_procs *p, void *buf, size_t bytes, int root)
{
    if (root < 0 || root >= p->size || bytes > ((size_t)1 << 40) / (size_t)p->size) {
        fprintf(stderr, "climb: a broadcast from rank %d of %d processes (%zu bytes) is out of range\n", root, p->size,
                bytes);
        return -1;
    }
    char *all = malloc(bytes * (size_t)p->size + 1);
    if (!all)
        return climb_host_oom("a broadcast among %d processes", p->size);
    const int rc = p->allgather(p->ctx, buf, all, bytes);
    if (rc == 0)
        memcpy(buf, all + (size_t)root * bytes, bytes);
    free(all);
    return rc;
}

int climb_procs_max(const climb_procs *p, double *v, int n)
{
    enum { MAX_N = 16 };
    if (n < 0 || n > MAX_N) {
        fprintf(stderr, "climb: %d values to combine among processes (at most %d)\n", n, MAX_N);
        return -1;
    }
    double *all = malloc(sizeof *all * (size_t)MAX_N * (size_t)p->size);
    if (!all)
        return climb_host_oom("values of %d processes", p->size);
    int rc = p->allgather(p->ctx, v, all, sizeof *v * (size_t)n);
    for (int q = 0; rc == 0 && q < p->size; q++)
        for (int i = 0; i < n; i++)
            if (all[(size_t)q * (size_t)n + (size_t)i] > v[i])
                v[i] = all[(size_t)q * (size_t)n + (size_t)i];
    free(all);
    return rc;
}

int climb_procs_any(const climb_procs *p, int flag)
{
    double v = flag != 0;
    return climb_procs_max(p, &v, 1) != 0 ? -1 : v > 0;
}

/* How bad a verdict is: -1 worst, then 1, then 2, then 0. */
static int severity(int v) { return v < 0 ? 3 : v == 1 ? 2 : v == 2 ? 1 : 0; }

int climb_procs_verdict(const climb_procs *p, int v, char *msg, size_t len)
{
    enum { MSG = 512 };
    typedef struct {
        int v;
        char msg[MSG];
    } said;
    said mine, *all = malloc(sizeof *all * (size_t)p->size);
    if (!all)
        return climb_host_oom("the verdicts of %d processes", p->size);
    memset(&mine, 0, sizeof mine);
    mine.v = v;
    if (msg && len)
        snprintf(mine.msg, sizeof mine.msg, "%s", msg);
    if (p->allgather(p->ctx, &mine, all, sizeof mine) != 0) {
        free(all);
        return -1;
    }
    int worst = 0;
    for (int q = 1; q < p->size; q++)
        if (severity(all[q].v) > severity(all[worst].v))
            worst = q;
    const int out = all[worst].v;
    if (msg && len && out != 0 && worst != p->rank)
        snprintf(msg, len, "rank %d: %s", worst, all[worst].msg);
    else if (msg && len && out == 0)
        msg[0] = '\0';
    free(all);
    return out;
}

uint64_t climb_procs_hash(const void *data, size_t n)
{
    const unsigned char *b = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
