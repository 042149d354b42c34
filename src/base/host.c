#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

int climb_host_oom(const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "climb: out of host memory for %s\n", what[0] ? what : "the case");
    return -1;
}

int climb_host_memory_refuses(size_t bytes, const char *what)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 0; /* unknown: let malloc decide */
    size_t total = (size_t)pages * (size_t)page;
    if (bytes <= total / 2)
        return 0;
    fprintf(stderr, "climb: %s need %.1f GB of host memory; this machine has %.1f GB (at most half is used)\n", what,
            bytes / 1e9, total / 1e9);
    return 1;
}
