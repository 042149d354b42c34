/* CPU: the all-reduce workload's table, as every collective's is checked (collective_tests.h: counted as
 * nccl-tests' bus bytes, 2(P-1)/P of an array), its tree marked as taking a power of two of GPUs, and the best
 * rung's built-in choice between one shot and two. The schedules its tree and ring follow are run on simulated
 * ranks in test_cpu_collectives. And the flag rung's protocol (src/workloads/common/flag_lines.h) on threads: each
 * simulated GPU runs its blocks as threads, calls one after another with nothing between the GPUs (one may run
 * ahead of another), arrays of changing lengths (never empty: see flag_lines.h); every call's sum right on every
 * GPU, and no wait that never ends. The fused two shots' meeting protocol the same way (model_meet): each GPU's
 * input written and its output read between calls by its stream, in place and apart. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "device/collective.h"
#include "workloads/allreduce.h"
#include "workloads/common/flag_lines.h"
#include "collective_tests.h"
#include "testing.h"

enum { MP = 8, MBLOCKS = 3, MCALLS = 40, MCAP = 97 }; /* up to 8 GPUs, the largest machine the ladders are for */

/* The calls a model runs: each call's length (the same on every GPU, as a program's calls are), input on each GPU and
 * output on each GPU as read after the call. */
typedef struct model_calls {
    size_t n[MCALLS];
    int32_t in[MCALLS][MP][MCAP];
    int32_t out[MCALLS][MP][MCAP];
} model_calls;

/* Lengths 1..MCAP (a call of no elements launches nothing) and inputs, from the seed. */
static void calls_draw(model_calls *k, int P, uint64_t seed)
{
    climb_rng rng;
    climb_rng_seed(&rng, seed);
    for (int c = 0; c < MCALLS; c++) {
        k->n[c] = 1 + (size_t)(climb_rng_next(&rng) % MCAP);
        for (int q = 0; q < P; q++)
            climb_rng_fill_i32(&rng, k->in[c][q], MCAP, -1000, 1000);
    }
}

/* The outputs not equal to the sum over the GPUs' inputs. */
static int calls_wrong(const model_calls *k, int P)
{
    int wrong = 0;
    for (int c = 0; c < MCALLS; c++)
        for (size_t i = 0; i < k->n[c]; i++) {
            int32_t want = 0;
            for (int q = 0; q < P; q++)
                want += k->in[c][q][i];
            for (int q = 0; q < P; q++)
                wrong += k->out[c][q][i] != want;
        }
    return wrong;
}

/* A simulated block: its model, GPU, index and the seed of its random yields. */
typedef struct model_block {
    void *m;
    int gpu, block;
    unsigned seed;
} model_block;

/* Every block of P GPUs run as a thread of fn, until all end. */
static void run_blocks(void *m, int P, void *(*fn)(void *), uint64_t seed)
{
    pthread_t th[MP * MBLOCKS];
    model_block blocks[MP * MBLOCKS];
    for (int q = 0; q < P; q++)
        for (int k = 0; k < MBLOCKS; k++) {
            blocks[q * MBLOCKS + k] = (model_block){m, q, k, (unsigned)(seed + 31u * (unsigned)(q * MBLOCKS + k))};
            pthread_create(&th[q * MBLOCKS + k], NULL, fn, &blocks[q * MBLOCKS + k]);
        }
    for (int t = 0; t < P * MBLOCKS; t++)
        pthread_join(th[t], NULL);
}

/* A simulated GPU: its workspace (two sets of MP x MCAP lines), its state, its blocks' meeting point between calls
 * (a kernel ends before the next starts on one stream). */
typedef struct model_gpu {
    _Atomic uint64_t lines[2 * MP * MCAP];
    _Atomic uint32_t epoch, done;
    pthread_barrier_t kernel_end;
} model_gpu;

typedef struct model {
    int P;
    model_gpu gpu[MP];
    model_calls k;
    _Atomic int stuck;
} model;

/* One block of one GPU through every call, as ar_flag_kernel runs it (one thread a block: elements block,
 * block + MBLOCKS, ...); a random yield here and there puts the GPUs out of step. */
static void *model_run(void *arg)
{
    model_block *b = arg;
    model *m = b->m;
    model_gpu *g = &m->gpu[b->gpu];
    for (int call = 0; call < MCALLS; call++) {
        const uint32_t flag = climb_flag_of(atomic_load(&g->epoch));
        const size_t n = m->k.n[call]; /* (the last block moves the epoch on, after every block has read it) */
        for (size_t i = (size_t)b->block; i < n; i += MBLOCKS)
            for (int q = 0; q < m->P; q++)
                if (q != b->gpu)
                    atomic_store(&m->gpu[q].lines[climb_flag_slot(flag, m->P, b->gpu, MCAP, i)],
                                 climb_flag_line(flag, (uint32_t)m->k.in[call][b->gpu][i]));
        if (rand_r(&b->seed) % 3 == 0)
            sched_yield();
        for (size_t i = (size_t)b->block; i < n; i += MBLOCKS) {
            int32_t sum = 0;
            for (int q = 0; q < m->P; q++) {
                int32_t x = m->k.in[call][b->gpu][i];
                if (q != b->gpu) {
                    uint64_t line;
                    long spins = 0;
                    /* a wait far past any schedule's delay never ends: said, and every wait after it gives up, so
                     * that the threads finish and the test fails rather than hangs */
                    while (climb_flag_line_flag(line = atomic_load(&g->lines[climb_flag_slot(flag, m->P, q, MCAP, i)])) !=
                               flag &&
                           !atomic_load(&m->stuck)) {
                        if (++spins > 50000000L) {
                            fprintf(stderr, "model: GPU %d block %d call %d element %zu from GPU %d: flag %u, line's %u\n",
                                    b->gpu, b->block, call, i, q, flag, climb_flag_line_flag(line));
                            atomic_store(&m->stuck, 1);
                        }
                        if (spins % 64 == 0)
                            sched_yield();
                    }
                    x = (int32_t)climb_flag_line_bits(line);
                }
                sum += x;
            }
            m->k.out[call][b->gpu][i] = sum;
        }
        if (atomic_fetch_add(&g->done, 1) == MBLOCKS - 1) {
            atomic_store(&g->done, 0);
            atomic_store(&g->epoch, flag);
        }
        pthread_barrier_wait(&g->kernel_end); /* the kernel ends; the next call's starts */
    }
    return NULL;
}

/* P simulated GPUs through MCALLS calls of lengths 1..MCAP; 0 when every sum was right. */
static int model_flags(int P, uint64_t seed)
{
    model *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->P = P;
    calls_draw(&m->k, P, seed);
    for (int q = 0; q < P; q++)
        pthread_barrier_init(&m->gpu[q].kernel_end, NULL, MBLOCKS);
    run_blocks(m, P, model_run, seed);
    const int wrong = atomic_load(&m->stuck) ? 1 : calls_wrong(&m->k, P);
    for (int q = 0; q < P; q++)
        pthread_barrier_destroy(&m->gpu[q].kernel_end);
    free(m);
    return wrong;
}

/* The fused two shots (allreduce's two_shot_fused): a simulated GPU's persistent input and output (one array in
 * place), its meeting points bar[phase][from][block], its flag state, and its stream's two points between calls:
 * the kernel's start (the input written) and its end (the output read out). */
typedef struct meet_gpu {
    _Atomic int32_t in[MCAP], out[MCAP];
    _Atomic uint32_t bar[2][MP][MBLOCKS];
    _Atomic uint32_t epoch, done;
    pthread_barrier_t kernel_start, kernel_end;
} meet_gpu;

typedef struct meet_model {
    int P, in_place;
    meet_gpu gpu[MP];
    model_calls k; /* the outputs: each GPU's after each call, as its stream read it */
    _Atomic int stuck;
} meet_model;

static _Atomic int32_t *meet_src(meet_model *m, int q) { return m->in_place ? m->gpu[q].out : m->gpu[q].in; }

/* As ar_meet: tell block b of every other GPU, then wait for block b of every other GPU. */
static void meet_at(model_block *b, int phase, uint32_t flag)
{
    meet_model *m = b->m;
    for (int q = 0; q < m->P; q++)
        if (q != b->gpu)
            atomic_store(&m->gpu[q].bar[phase][b->gpu][b->block], flag);
    for (int q = 0; q < m->P; q++) {
        long spins = 0;
        while (q != b->gpu && atomic_load(&m->gpu[b->gpu].bar[phase][q][b->block]) != flag &&
               !atomic_load(&m->stuck)) {
            if (++spins > 50000000L) {
                fprintf(stderr, "meet model: GPU %d block %d phase %d waits for GPU %d\n", b->gpu, b->block, phase, q);
                atomic_store(&m->stuck, 1);
            }
            if (spins % 64 == 0)
                sched_yield();
        }
    }
}

/* One block of one GPU through every call, as ar_two_shot_fused_kernel runs it (one thread a block: the chunk's
 * elements block, block + MBLOCKS, ...), with its GPU's stream around the kernels: block 0 writes the input before
 * and reads the output after. */
static void *meet_run(void *arg)
{
    model_block *b = arg;
    meet_model *m = b->m;
    meet_gpu *g = &m->gpu[b->gpu];
    for (int call = 0; call < MCALLS; call++) {
        const size_t n = m->k.n[call];
        if (b->block == 0)
            for (size_t i = 0; i < n; i++)
                atomic_store_explicit(&meet_src(m, b->gpu)[i], m->k.in[call][b->gpu][i], memory_order_relaxed);
        pthread_barrier_wait(&g->kernel_start);
        const uint32_t flag = climb_flag_of(atomic_load(&g->epoch));
        meet_at(b, 0, flag);
        if (rand_r(&b->seed) % 3 == 0)
            sched_yield();
        size_t off, len;
        climb_chunk_of(n, m->P, b->gpu, &off, &len);
        for (size_t i = off + (size_t)b->block; i < off + len; i += MBLOCKS) {
            int32_t sum = 0;
            for (int q = 0; q < m->P; q++)
                sum += atomic_load_explicit(&meet_src(m, q)[i], memory_order_relaxed);
            for (int k = 1; k <= m->P; k++)
                atomic_store_explicit(&m->gpu[(b->gpu + k) % m->P].out[i], sum, memory_order_relaxed);
        }
        if (rand_r(&b->seed) % 3 == 0)
            sched_yield();
        meet_at(b, 1, flag);
        if (atomic_fetch_add(&g->done, 1) == MBLOCKS - 1) {
            atomic_store(&g->done, 0);
            atomic_store(&g->epoch, flag);
        }
        pthread_barrier_wait(&g->kernel_end);
        if (b->block == 0)
            for (size_t i = 0; i < n; i++)
                m->k.out[call][b->gpu][i] = atomic_load_explicit(&g->out[i], memory_order_relaxed);
    }
    return NULL;
}

/* P simulated GPUs through MCALLS fused calls of lengths 1..MCAP (fewer elements than GPUs too); 0 when every sum
 * was right on every GPU. */
static int model_meet(int P, int in_place, uint64_t seed)
{
    meet_model *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    m->P = P;
    m->in_place = in_place;
    calls_draw(&m->k, P, seed);
    for (int q = 0; q < P; q++) {
        pthread_barrier_init(&m->gpu[q].kernel_start, NULL, MBLOCKS);
        pthread_barrier_init(&m->gpu[q].kernel_end, NULL, MBLOCKS);
    }
    run_blocks(m, P, meet_run, seed);
    const int wrong = atomic_load(&m->stuck) ? 1 : calls_wrong(&m->k, P);
    for (int q = 0; q < P; q++) {
        pthread_barrier_destroy(&m->gpu[q].kernel_start);
        pthread_barrier_destroy(&m->gpu[q].kernel_end);
    }
    free(m);
    return wrong;
}

int main(void)
{
    const climb_workload *w = &climb_allreduce_workload;
    EXPECT(test_collective_table(w, "2(P-1)/P") == 0);
    int tree = -1;
    for (int r = 0; r < w->n_rungs; r++)
        if (strcmp(w->rung(r)->name, "tree") == 0)
            tree = r;
    EXPECT(tree > 0 && strstr(w->rung(tree)->needs, "power-of-two"));
    /* the best rung's built-in ways: the flags below 1 MiB (in place too), one shot below 4 MiB (apart; the fused
     * two shots in place), the fused two shots below 64 MiB, two shots from there; the flag workspace of the C API
     * holds exactly the arrays the flags take */
    EXPECT(climb_allreduce_best_way(4, 0) == CLIMB_ALLREDUCE_FLAGS && climb_allreduce_best_way(4, 1) == CLIMB_ALLREDUCE_FLAGS);
    EXPECT(climb_allreduce_best_way(((size_t)1 << 20) - 1, 0) == CLIMB_ALLREDUCE_FLAGS &&
           climb_allreduce_best_way(((size_t)1 << 20) - 1, 1) == CLIMB_ALLREDUCE_FLAGS);
    EXPECT(climb_allreduce_best_way((size_t)1 << 20, 0) == CLIMB_ALLREDUCE_ONE_SHOT &&
           climb_allreduce_best_way((size_t)1 << 20, 1) == CLIMB_ALLREDUCE_FUSED);
    EXPECT(climb_allreduce_best_way(((size_t)4 << 20) - 1, 0) == CLIMB_ALLREDUCE_ONE_SHOT);
    EXPECT(climb_allreduce_best_way((size_t)4 << 20, 0) == CLIMB_ALLREDUCE_FUSED &&
           climb_allreduce_best_way((size_t)4 << 20, 1) == CLIMB_ALLREDUCE_FUSED);
    EXPECT(climb_allreduce_best_way(((size_t)64 << 20) - 1, 0) == CLIMB_ALLREDUCE_FUSED &&
           climb_allreduce_best_way(((size_t)64 << 20) - 1, 1) == CLIMB_ALLREDUCE_FUSED);
    EXPECT(climb_allreduce_best_way((size_t)64 << 20, 0) == CLIMB_ALLREDUCE_TWO_SHOTS &&
           climb_allreduce_best_way((size_t)64 << 20, 1) == CLIMB_ALLREDUCE_TWO_SHOTS);
    EXPECT(climb_allreduce_best_way((size_t)1 << 30, 1) == CLIMB_ALLREDUCE_TWO_SHOTS);
    /* the meeting points: two phases of P ranks' blocks, a uint each */
    EXPECT(climb_allreduce_meet_bytes(4) == 2 * 4 * CLIMB_ALLREDUCE_MEET_BLOCKS * sizeof(unsigned));
    EXPECT(climb_flag_cap(4) == ((size_t)1 << 18) - 1 && climb_flag_cap(4) * 4 < ((size_t)1 << 20));
    EXPECT(climb_allreduce_best_way(climb_flag_cap(4) * 4, 0) == CLIMB_ALLREDUCE_FLAGS &&
           climb_allreduce_best_way((climb_flag_cap(4) + 1) * 4, 0) != CLIMB_ALLREDUCE_FLAGS);
    EXPECT(climb_flag_lines_bytes(4, 10) == 2 * 4 * 10 * 8 && climb_flag_lines_bytes(2, 0) == 32);
    /* the flags: never 0, parity alternating, past the wrap too; the two sets apart */
    EXPECT(climb_flag_of(0) == 1 && climb_flag_of(1) == 2 && climb_flag_of(41) == 42);
    EXPECT(climb_flag_of(UINT32_MAX) == 2 && (climb_flag_of(UINT32_MAX) & 1) != (UINT32_MAX & 1));
    EXPECT(climb_flag_slot(1, 4, 0, 10, 0) == 40 && climb_flag_slot(2, 4, 3, 10, 9) == 39);
    EXPECT(climb_flag_line_flag(climb_flag_line(7, 0xDEADBEEFu)) == 7 &&
           climb_flag_line_bits(climb_flag_line(7, 0xDEADBEEFu)) == 0xDEADBEEFu);
    for (int P = 2; P <= MP; P++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            EXPECT_MSG(model_flags(P, seed * 977 + (uint64_t)P) == 0, "the flag protocol on %d GPUs, seed %llu", P,
                       (unsigned long long)seed);
    /* the fused two shots: the blocks a GPU, the same on every rank, one a 1024 elements of the largest chunk, at
     * most four an SM of the smallest GPU and CLIMB_ALLREDUCE_MEET_BLOCKS, at least one */
    EXPECT(climb_allreduce_meet_blocks(0, 4, 132) == 1 && climb_allreduce_meet_blocks(1, 8, 132) == 1);
    EXPECT(climb_allreduce_meet_blocks(4 * 1024, 4, 132) == 1 && climb_allreduce_meet_blocks(4 * 1024 + 1, 4, 132) == 2);
    EXPECT(climb_allreduce_meet_blocks((size_t)1 << 28, 4, 132) == 528 &&
           climb_allreduce_meet_blocks((size_t)1 << 28, 4, 1000) == CLIMB_ALLREDUCE_MEET_BLOCKS);
    EXPECT(climb_allreduce_meet_blocks(5 * 4 * 1024, 5, 132) == 4 && climb_allreduce_meet_blocks(5 * 4 * 1024 + 1, 5, 132) == 5);
    EXPECT(climb_allreduce_meet_blocks((size_t)1 << 20, 3, 0) == 1);
    for (int P = 2; P <= MP; P++)
        for (int in_place = 0; in_place < 2; in_place++)
            EXPECT_MSG(model_meet(P, in_place, 4099u * (uint64_t)P + (uint64_t)in_place) == 0,
                       "the fused two shots' meetings on %d GPUs%s", P, in_place ? ", in place" : "");
    return test_finish("test_cpu_allreduce");
}
