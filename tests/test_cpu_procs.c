/* CPU: what several processes of one case agree on (src/base/procs.h), with threads standing in for the processes
 * (an all-gather through shared memory and a barrier): a broadcast from every root, the largest values, "any", the
 * verdict of a step (the worst of all, with the message of the lowest rank that had it, named), the hash that tells
 * whether processes hold the same bits, and the check that ends every process on an error of one. Each thread keeps
 * what it saw; the main thread checks it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/procs.h"
#include "testing.h"

enum { MAXP = 8, SLOT = 4096 };

typedef struct world {
    int size;
    pthread_barrier_t bar;
    unsigned char slots[MAXP][SLOT];
    int aborted[MAXP];
} world;

typedef struct self {
    world *w;
    int rank;
} self;

static int t_barrier(void *ctx) { return pthread_barrier_wait(&((self *)ctx)->w->bar), 0; }

/* Each writes its part into its slot, all meet, each copies every slot, all meet again (the slots free). */
static int t_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    self *s = ctx;
    if (bytes > SLOT)
        return -1;
    memcpy(s->w->slots[s->rank], mine, bytes);
    t_barrier(ctx);
    for (int q = 0; q < s->w->size; q++)
        memcpy((char *)all + (size_t)q * bytes, s->w->slots[q], bytes);
    t_barrier(ctx);
    return 0;
}

static void t_abort(void *ctx) { ((self *)ctx)->w->aborted[((self *)ctx)->rank] = 1; }

typedef struct seen {
    uint64_t bcast[MAXP];  /* from each root */
    double max[3];
    int any_none, any_one;
    int v_right, v_wrong, v_error, v_untimed;
    char m_right[300], m_wrong[300], m_error[300], m_untimed[300];
    int check_ok, check_bad;
} seen;

typedef struct job {
    self s;
    climb_procs p;
    seen out;
} job;

static void *run(void *arg)
{
    job *j = arg;
    const climb_procs *p = &j->p;
    const int r = p->rank;
    for (int root = 0; root < p->size; root++) {
        uint64_t v = 1000u + (uint64_t)r; /* every rank offers its own; root's must win */
        climb_procs_bcast(p, &v, sizeof v, root);
        j->out.bcast[root] = v;
    }
    double m[3] = {(double)r, -(double)r, r == 1 ? 7.5 : 0.25};
    climb_procs_max(p, m, 3);
    memcpy(j->out.max, m, sizeof m);
    j->out.any_none = climb_procs_any(p, 0);
    j->out.any_one = climb_procs_any(p, r == p->size - 1);
    /* all right */
    snprintf(j->out.m_right, sizeof j->out.m_right, "stale");
    j->out.v_right = climb_procs_verdict(p, 0, j->out.m_right, sizeof j->out.m_right);
    /* rank 2 wrong, the rest right */
    snprintf(j->out.m_wrong, sizeof j->out.m_wrong, "%s", r == 2 ? "GPU 2's sum[7] is 3, expected 4" : "");
    j->out.v_wrong = climb_procs_verdict(p, r == 2 ? 1 : 0, j->out.m_wrong, sizeof j->out.m_wrong);
    /* ranks 1 and 3 an error, rank 2 wrong: the error of rank 1 wins */
    const int ve = r == 1 || r == 3 ? -1 : r == 2 ? 1 : 0;
    snprintf(j->out.m_error, sizeof j->out.m_error, "%s", r == 1 ? "CUDA error one" : r == 3 ? "CUDA error three"
                                                          : r == 2 ? "wrong" : "");
    j->out.v_error = climb_procs_verdict(p, ve, j->out.m_error, sizeof j->out.m_error);
    /* rank 0 over the budget (2), the others right: 2 for all */
    snprintf(j->out.m_untimed, sizeof j->out.m_untimed, "%s", r == 0 ? "not timed: 3 s" : "");
    j->out.v_untimed = climb_procs_verdict(p, r == 0 ? 2 : 0, j->out.m_untimed, sizeof j->out.m_untimed);
    j->out.check_ok = climb_procs_check(p, 0, "nothing");
    j->out.check_bad = r == 3 ? climb_procs_check(p, -1, "a test step") : 0;
    return NULL;
}

static void world_run(int size, job *jobs, world *w)
{
    memset(w, 0, sizeof *w);
    w->size = size;
    pthread_barrier_init(&w->bar, NULL, (unsigned)size);
    pthread_t th[MAXP];
    for (int r = 0; r < size; r++) {
        memset(&jobs[r], 0, sizeof jobs[r]);
        jobs[r].s = (self){w, r};
        jobs[r].p = (climb_procs){.rank = r, .size = size, .one_node = 1, .ctx = &jobs[r].s,
                                  .allgather = t_allgather, .barrier = t_barrier, .abort = t_abort};
        pthread_create(&th[r], NULL, run, &jobs[r]);
    }
    for (int r = 0; r < size; r++)
        pthread_join(th[r], NULL);
    pthread_barrier_destroy(&w->bar);
}

int main(void)
{
    static world w;
    static job jobs[MAXP];
    const int size = 4;
    world_run(size, jobs, &w);
    for (int r = 0; r < size; r++) {
        const seen *s = &jobs[r].out;
        for (int root = 0; root < size; root++)
            EXPECT_MSG(s->bcast[root] == 1000u + (uint64_t)root, "rank %d from root %d: %llu", r, root,
                       (unsigned long long)s->bcast[root]);
        EXPECT(s->max[0] == size - 1 && s->max[1] == 0 && s->max[2] == 7.5);
        EXPECT(s->any_none == 0 && s->any_one == 1);
        EXPECT(s->v_right == 0 && s->m_right[0] == '\0');
        EXPECT(s->v_wrong == 1);
        if (r == 2)
            EXPECT_MSG(strcmp(s->m_wrong, "GPU 2's sum[7] is 3, expected 4") == 0, "rank 2 keeps its own: %s", s->m_wrong);
        else
            EXPECT_MSG(strcmp(s->m_wrong, "rank 2: GPU 2's sum[7] is 3, expected 4") == 0, "rank %d: %s", r, s->m_wrong);
        EXPECT(s->v_error == -1);
        if (r == 1)
            EXPECT(strcmp(s->m_error, "CUDA error one") == 0);
        else
            EXPECT_MSG(strcmp(s->m_error, "rank 1: CUDA error one") == 0, "rank %d: %s", r, s->m_error);
        EXPECT(s->v_untimed == 2);
        EXPECT(r == 0 ? strcmp(s->m_untimed, "not timed: 3 s") == 0 : strcmp(s->m_untimed, "rank 0: not timed: 3 s") == 0);
        EXPECT(s->check_ok == 0);
        EXPECT(w.aborted[r] == (r == 3)); /* the error of one ended every process, from that one */
    }
    EXPECT(jobs[3].out.check_bad == -1);
    /* a check without processes is the value itself */
    EXPECT(climb_procs_check(NULL, -1, "x") == -1 && climb_procs_check(NULL, 1, "x") == 1);
    /* a broadcast from a rank that is not there is refused */
    climb_procs lone = {.rank = 0, .size = 2, .allgather = t_allgather};
    uint64_t v = 0;
    EXPECT(climb_procs_bcast(&lone, &v, sizeof v, 2) == -1 && climb_procs_bcast(&lone, &v, sizeof v, -1) == -1);
    /* too many values to combine */
    double many[17] = {0};
    EXPECT(climb_procs_max(&lone, many, 17) == -1);
    /* FNV-1a, 64 bits: the published values */
    EXPECT(climb_procs_hash("", 0) == 0xcbf29ce484222325ull);
    EXPECT(climb_procs_hash("a", 1) == 0xaf63dc4c8601ec8cull);
    EXPECT(climb_procs_hash("foobar", 6) == 0x85944171f73967e8ull);
    return test_finish("test_cpu_procs");
}
