/* NCCL opened at run time (nccl.h says why and what). */
#include "nccl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int climb_nccl_forbid_multicast(void) { return setenv("NCCL_NVLS_ENABLE", "0", 1) == 0 ? 0 : -1; }

#if !CLIMB_HAVE_NCCL
const char *climb_nccl_refusal(void) { return "climb was built without nccl.h (NCCL's header): no NCCL rung"; }
#endif

#if CLIMB_HAVE_NCCL
#include <dlfcn.h>
#include <pthread.h>

int climb_nccl_open(const char *path, climb_nccl *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    if (climb_nccl_forbid_multicast() != 0) {
        snprintf(why, len, "could not set NCCL_NVLS_ENABLE=0 in the environment, so NCCL is not opened");
        return -1;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, len, "NCCL could not be opened: %s", e ? e : path);
        return -1;
    }
    ncclResult_t (*get_version)(int *) = NULL;
    static const struct {
        const char *name;
        size_t at;
    } fns[] = {
#define FN(sym, field) {sym, offsetof(climb_nccl, field)}
        FN("ncclGetUniqueId", get_unique_id),   FN("ncclCommInitRank", comm_init_rank),
        FN("ncclCommInitRankConfig", comm_init_rank_config),
        FN("ncclCommInitAll", comm_init_all),   FN("ncclCommDestroy", comm_destroy),
        FN("ncclCommAbort", comm_abort),        FN("ncclCommGetAsyncError", comm_get_async_error),
        FN("ncclGetErrorString", error_string), FN("ncclAllReduce", all_reduce),
        FN("ncclAllGather", all_gather),        FN("ncclReduceScatter", reduce_scatter),
        FN("ncclSend", send),                   FN("ncclRecv", recv),
        FN("ncclGroupStart", group_start),      FN("ncclGroupEnd", group_end),
#undef FN
    };
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        void *f = dlsym(lib, fns[i].name);
        if (!f) {
            snprintf(why, len, "%s has no %s: an NCCL older than climb needs", path, fns[i].name);
            dlclose(lib);
            memset(out, 0, sizeof *out);
            return -1;
        }
        memcpy((char *)out + fns[i].at, &f, sizeof f);
    }
    *(void **)&get_version = dlsym(lib, "ncclGetVersion");
    if (!get_version || get_version(&out->version) != ncclSuccess) {
        snprintf(why, len, "%s: ncclGetVersion failed", path);
        dlclose(lib);
        memset(out, 0, sizeof *out);
        return -1;
    }
    snprintf(out->path, sizeof out->path, "%s", path);
    return 0; /* the library stays open for the process's life */
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static climb_nccl loaded;
static int load_failed;
static char load_why[1024];

static void load(void)
{
    const char *env = getenv("CLIMB_NCCL_LIBRARY");
    if (env && *env) {
        load_failed = climb_nccl_open(env, &loaded, load_why, sizeof load_why) != 0;
        return;
    }
    if (climb_nccl_open("libnccl.so.2", &loaded, load_why, sizeof load_why) == 0)
        return;
#ifdef CLIMB_CUDA_LIBDIR
    char first[400], beside[600];
    memcpy(first, load_why, sizeof first - 1); /* the first try's reason, cut to fit */
    first[sizeof first - 1] = '\0';
    snprintf(beside, sizeof beside, "%s/libnccl.so.2", CLIMB_CUDA_LIBDIR);
    if (climb_nccl_open(beside, &loaded, load_why, sizeof load_why) == 0)
        return;
    snprintf(load_why, sizeof load_why, "%s (and not beside the CUDA toolkit, in %s)", first, CLIMB_CUDA_LIBDIR);
#endif
    load_failed = 1;
}

const climb_nccl *climb_nccl_get(char *why, size_t len)
{
    pthread_once(&once, load);
    if (load_failed) {
        snprintf(why, len, "%s", load_why);
        return NULL;
    }
    return &loaded;
}
#endif

#if CLIMB_HAVE_NCCL
const char *climb_nccl_refusal(void)
{
    static char why[1100];
    char w[1024];
    if (climb_nccl_get(w, sizeof w))
        return NULL;
    snprintf(why, sizeof why, "no NCCL here: %s", w);
    return why;
}
#endif
