/* Several processes running one case together, one GPU each (climb under an MPI launcher: `mpirun -np N climb
 * bench allreduce`): the two things the harness and a case ask of them, and what is built on those two. The CLI
 * fills one in from MPI (src/cli/procs_mpi.c), the tests from threads. A NULL climb_procs everywhere means one
 * process drives every GPU of a case.
 *
 * Every process makes the same calls in the same order (the harness runs the same cases, rungs and samples on
 * each); a decision that depends on what one process saw (a verdict, a time, a budget) is combined first, so that
 * every process takes the same branch and none waits for a partner that went the other way. */
#ifndef CLIMB_BASE_PROCS_H
#define CLIMB_BASE_PROCS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct climb_procs {
    int rank, size;     /* this process's rank, and how many take part (2 or more) */
    int one_node;       /* 1: every process on this node (their GPUs' memory reachable through interprocess handles) */
    void *ctx;
    /* Every process's `bytes` at `mine` into `all` (size x bytes, in rank order), on every process. 0 or -1 (said). */
    int (*allgather)(void *ctx, const void *mine, void *all, size_t bytes);
    /* Returns once every process has called it. 0 or -1 (said). */
    int (*barrier)(void *ctx);
    /* Ends every process (MPI_Abort): for a step that failed on this process alone, after which the processes no
     * longer make the same calls and the others would wait for it for ever. Does not return. */
    void (*abort)(void *ctx);
} climb_procs;

/* Where v < 0 (an error on this process alone): says so ("climb: rank K: WHAT failed; ending every process") and
 * ends every process. Returns v otherwise. NULL p: returns v. */
int climb_procs_check(const climb_procs *p, int v, const char *what);

/* root's `bytes` at buf into every process's buf. 0 or -1 (said). */
int climb_procs_bcast(const climb_procs *p, void *buf, size_t bytes, int root);
/* v[0..n) replaced by the largest over the processes, element by element (n <= 16). 0 or -1 (said). */
int climb_procs_max(const climb_procs *p, double *v, int n);
/* 1 on every process if `flag` is non-zero on any; 0 if on none; -1 (said) if they could not agree. */
int climb_procs_any(const climb_procs *p, int flag);

/* The verdict of a step every process ran (a rung's run and check): the worst of every process's v, -1 (an error)
 * worse than 1 (wrong) worse than 2 (not timed) worse than 0 (right). msg (len bytes, len <= 512) becomes the
 * message of the lowest rank with that verdict, "rank K: ..." where K is another process. Returns that verdict, or
 * -1 where the processes could not agree. */
int climb_procs_verdict(const climb_procs *p, int v, char *msg, size_t len);

/* 64-bit FNV-1a of n bytes: what processes compare to see whether their arrays hold the same bits. */
uint64_t climb_procs_hash(const void *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif
