/* SGEMM's tuned instances, split-K plans and their launch (src/workloads/sgemm/): the bench's rungs and the C API. */
#ifndef CLIMB_WORKLOADS_SGEMM_PLAN_CUH
#define CLIMB_WORKLOADS_SGEMM_PLAN_CUH

#include "kernels.cuh"

typedef void (*sgemm_db_fn)(sgemm_args g);
typedef struct sgemm_instance {
    int bm, bn, bk, tn;   /* tile of C and of k a block works on; columns of C a thread computes (8 rows each) */
    int unroll;           /* steps of k the compiler unrolls in the multiply loop */
    sgemm_db_fn fn;
    const char *name;
    int staged_rows;      /* rows of the operands staged in shared memory (STAGED: A and B^T) */
    int stages;           /* k-tiles of each operand in shared memory (S) */
} sgemm_instance;

/* The tile shapes `climb tune sgemm` tries for the tuned rung, each listed once: the instance tables and the
 * candidate list come from it. A thread computes 8 x tn outputs: 8 x 8 keeps 16 warps an SM (128 registers),
 * 8 x 16 needs about 200 registers and runs 8 warps an SM, with 6 shared loads for 128 FFMAs instead of 4 for
 * 64. All fit 48 KB of shared memory double-buffered; A B^T's stages add (BM + BN) BK floats, which the launch asks
 * for (sgemm_allow_smem). */
#define SGEMM_TUNE_LIST(X) X(64, 64, 8, 8, 8) X(128, 128, 8, 8, 8) X(128, 128, 16, 8, 16) X(128, 128, 16, 16, 8) \
    X(128, 256, 8, 16, 8) X(128, 256, 16, 16, 16) X(256, 128, 16, 16, 16)
#define SGEMM_CANDIDATE(bm, bn, bk, tn, u) bm, bn, bk, tn, u,
static const int SGEMM_TUNE_CANDIDATES[] = {SGEMM_TUNE_LIST(SGEMM_CANDIDATE)};
#define SGEMM_N_TILES ((int)(sizeof SGEMM_TUNE_CANDIDATES / sizeof SGEMM_TUNE_CANDIDATES[0] / 5))

/* The operand forms, numbered transa + 2 transb: A B, A^T B, A B^T, A^T B^T. Every tile shape has an instance for
 * each: the loaders swap roles (an operand with k along its rows goes through registers and is stored k-major,
 * one with k down its columns is copied by cp.async), so each form fills the same shared tiles and runs the same
 * multiply loop. */
#define SGEMM_FORMS 4
static const char *const SGEMM_FORM_NAMES[] = {"nn", "tn", "nt", "tt", NULL};

/* The built-in tiles: 128 x 128 x 16 with 8 x 16 a thread and 8 steps unrolled, the fastest on an H100 in A B, A^T
 * B and A^T B^T; in A B^T, where both operands are transposed into shared memory, 8 x 8 a thread and 16 steps
 * unrolled (3200 us at 4096^3 against 3460 with 8 x 16; docs/sgemm.md). Whatever the tile, the plan splits the
 * tiles past the last full wave, or takes 64 x 64 tiles, where its model says so. */
static void sgemm_form_defaults(int form, int *v)
{
    const int nt = form == 2;
    v[0] = 128;
    v[1] = 128;
    v[2] = 16;
    v[3] = nt ? 8 : 16;
    v[4] = nt ? 16 : 8;
}

#define SGEMM_INSTANCE(ta, tb, label, st, bm, bn, bk, tn, u)                                                     \
    {bm, bn, bk, tn, u, sgemm_db_kernel<bm, bn, bk, 2, tn / 4, u, true, ta, tb, !(ta) && (tb), st>,                \
     "sgemm_db_kernel<" #bm ", " #bn ", " #bk ", 8 x " #tn ", unroll " #u ", warp" label ">",                      \
     !(ta) && (tb) ? (bm) + (bn) : 0, st},
/* A^T B, where both operands come by cp.async, keeps a ring of 4 k-tiles (climb_gemm_mainloop_ring); the forms
 * with an operand through registers keep 2 (a ring spilled there and lost 5%; docs/sgemm.md) */
#define SGEMM_INSTANCE_NN(bm, bn, bk, tn, u) SGEMM_INSTANCE(false, false, "", 2, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_TN(bm, bn, bk, tn, u) SGEMM_INSTANCE(true, false, ", A^T, ring of 4", 4, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_NT(bm, bn, bk, tn, u) SGEMM_INSTANCE(false, true, ", B^T, staged", 2, bm, bn, bk, tn, u)
#define SGEMM_INSTANCE_TT(bm, bn, bk, tn, u) SGEMM_INSTANCE(true, true, ", A^T, B^T", 2, bm, bn, bk, tn, u)
static const sgemm_instance SGEMM_TUNED[SGEMM_FORMS][SGEMM_N_TILES] = {
    {SGEMM_TUNE_LIST(SGEMM_INSTANCE_NN)}, {SGEMM_TUNE_LIST(SGEMM_INSTANCE_TN)},
    {SGEMM_TUNE_LIST(SGEMM_INSTANCE_NT)}, {SGEMM_TUNE_LIST(SGEMM_INSTANCE_TT)}};

/* the instance small outputs may take: the first (64 x 64) of the form */
#define SGEMM_SMALL(form) (&SGEMM_TUNED[form][0])

static const sgemm_instance SGEMM_DOUBLE_BUFFER = {128, 128, 8, 8, 8,
                                                   sgemm_db_kernel<128, 128, 8, 2, 2, 8, false, false, false, false>,
                                                   "sgemm_db_kernel<128, 128, 8, 8 x 8, thread>", 0, 2};
/* warp_tiled is the built-in list's 128 x 128 x 8 instance */
#define SGEMM_WARP_TILED (&SGEMM_TUNED[0][1])

static const sgemm_instance *sgemm_tuned_instance(const int *v, int form)
{
    for (int i = 0; i < SGEMM_N_TILES; i++) {
        const sgemm_instance *in = &SGEMM_TUNED[form][i];
        if (in->bm == v[0] && in->bn == v[1] && in->bk == v[2] && in->tn == v[3] && in->unroll == v[4])
            return in;
    }
    return NULL;
}

static int sgemm_threads(const sgemm_instance *in) { return CLIMB_GEMM_NT(in->bm, in->bn, 2, in->tn / 4); }
/* `stages` k-tiles of A and of B, rows padded by 4 floats, and the stages of staged operands: the kernel's dynamic
 * shared memory. */
static size_t sgemm_smem_bytes(const sgemm_instance *in)
{
    return ((size_t)in->stages * in->bk * (in->bm + 4 + in->bn + 4) + (size_t)in->staged_rows * in->bk) * sizeof(float);
}
/* Lets an instance use more than 48 KB of dynamic shared memory (idempotent; needed before a launch and before
 * the runtime is asked for its occupancy). */
static cudaError_t sgemm_allow_smem(const sgemm_instance *in)
{
    const size_t b = sgemm_smem_bytes(in);
    return b <= 48 * 1024 ? cudaSuccess
                          : cudaFuncSetAttribute((const void *)in->fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)b);
}
static int sgemm_per_sm(const sgemm_instance *in) { return CLIMB_GEMM_PER_SM(in->bm, in->bn, 2, in->tn / 4); }

/* ---- plans: which tiles run whole and which are split along k, chosen by a model of the GPU's time ----
 *
 * A grid of whole tiles loses to wave quantisation: 1089 tiles of 4097^2 on 264 block slots (132 SMs x 2) run as
 * 4 full waves and a fifth with one tile in eight slots; 128 tiles of a tall 16384 x 128 output leave half the
 * slots empty. The plan runs the tiles of the full waves whole (data-parallel) and splits each remaining tile into
 * `splits` chunks of k, the splits of all of them one block each, in the same grid; a second pass adds each split
 * tile's partial sums in order (deterministic) into C, launched early (programmatic dependent launch, sm_90 on) so
 * that its launch overlaps the first kernel's last blocks. With no full wave that is split-K; with no remainder,
 * the plain grid. (Stream-K (Osama, Merrill, Cecka, Garland and Kalra, "Stream-K: Work-centric Parallel Decomposition
 * for Dense Matrix-Matrix Multiplication on the GPU", 2023) divides the remainder's k-iterations evenly over the
 * slots instead and fixes up partial tiles; this is its "data-parallel + split-K" hybrid.)
 *
 * The model: the busiest SM's share, in multiply-adds. Blocks are spread evenly, per_sm resident at a time; an SM
 * reaches its FFMA rate with SGEMM_SAT_OUTPUTS accumulators a thread times its warps resident (8 warps of the
 * 8 x 16 tile, 16 of 8 x 8, but 8 for the 2-warp blocks of the 64 x 64 tile, whose barriers the other blocks of
 * the SM hide), and a fraction of it with fewer (a last round of one 4-warp block per SM of the 8 x 16 tile runs
 * at about half speed). A block costs its tile times its k plus SGEMM_BLOCK_K (the first
 * tile's unhidden load and the epilogue); the split tiles' partial sums cost their bytes twice (written, read) at
 * SGEMM_MACS_PER_BYTE, and the second pass a launch. The 64 x 64 instance of small outputs runs at SGEMM_SMALL_EFF
 * of the tuned tile's rate. A split plan is taken only when it saves SGEMM_SPLIT_GAIN of the whole-tile plan's
 * estimate. docs/sgemm.md gives the numbers the constants come from. */
#define SGEMM_SAT_OUTPUTS 1024     /* 8 warps of 128 outputs a thread: the 8 x 16 tile's FFMAs hide its shared loads */
#define SGEMM_SAT_SMALL_BLOCKS 8   /* warps, for blocks of 2 warps (64 x 64): measured, docs/sgemm.md */
#define SGEMM_BLOCK_K 32           /* a block's fixed cost, in k steps (an estimate) */
#define SGEMM_MACS_PER_BYTE 0.0625 /* an H100 SM's FFMA rate over the GPU's copy bandwidth: ~170 G/s / ~2.8 TB/s */
#define SGEMM_LAUNCH_MACS 4.0e5    /* a launch, ~2.5 us, at ~170 G multiply-adds a second an SM */
#define SGEMM_SMALL_EFF 0.85       /* 64 x 64 over 128 x 128 x 16 at 4096^3 in tune.md at f334924: 3132 / 3687 us */
#define SGEMM_SPLIT_GAIN 0.97      /* a split plan must save 3% of the estimate: the model is no better than that */
/* Each split covers at least this much of k: below it the second pass costs more than the split buys. (128 before
 * the second pass was launched early; at 64, 512^3 splits 8 ways instead of 4: 23.8 -> 21.0 us, and 19.5 with the
 * early launch; docs/sgemm.md.) */
#define SGEMM_SPLIT_MIN_K 64
/* At most this many splits a tile (the second pass adds them one after another). */
#define SGEMM_MAX_SPLITS 512

typedef struct sgemm_plan {
    const sgemm_instance *in;
    size_t tiles;        /* output tiles */
    size_t dp_tiles;     /* tiles 0 .. dp_tiles - 1 run whole */
    size_t sk_tiles;     /* the rest, each split into `splits` chunks of kchunk (a multiple of bk) */
    int splits, kchunk;
    size_t blocks;       /* dp_tiles + sk_tiles x splits */
    size_t ws_bytes;     /* the split tiles' partial sums */
    double cost;         /* the model's estimate: the busiest SM's multiply-adds */
} sgemm_plan;

/* The busiest SM's time for `blocks` blocks of `macs` multiply-adds each, in multiply-adds at the SM's full rate;
 * `sat` warps resident reach that rate. */
static double sgemm_sm_time(size_t blocks, int sms, int per_sm, int warps, int sat, double macs)
{
    if (!blocks)
        return 0;
    const size_t mine = (blocks + sms - 1) / sms, rounds = mine / per_sm, rest = mine % per_sm;
    const double full_rate = per_sm * warps >= sat ? 1.0 : (double)per_sm * warps / sat;
    const double rest_rate = (double)rest * warps >= sat ? 1.0 : (double)rest * warps / sat;
    return (double)rounds * per_sm * macs / full_rate + (rest ? (double)rest * macs / rest_rate : 0.0);
}

/* Fills pl's grid for sk of the tiles split `splits` ways (0: none) and returns the model's estimate. */
static double sgemm_plan_cost(sgemm_plan *pl, size_t sk, int splits, size_t k, int sms, double eff)
{
    const sgemm_instance *in = pl->in;
    const size_t bk = (size_t)in->bk, tile = (size_t)in->bm * in->bn;
    const int per_sm = sgemm_per_sm(in), warps = sgemm_threads(in) / 32;
    const int sat = warps <= 2 ? SGEMM_SAT_SMALL_BLOCKS : SGEMM_SAT_OUTPUTS / (8 * in->tn);
    pl->dp_tiles = pl->tiles - sk;
    pl->sk_tiles = sk;
    pl->splits = 1;
    pl->kchunk = (int)(k > 0 ? (k + bk - 1) / bk * bk : bk);
    if (sk && splits > 1) {
        const size_t chunk = ((k + splits - 1) / splits + bk - 1) / bk * bk;
        pl->kchunk = (int)chunk;
        pl->splits = (int)((k + chunk - 1) / chunk);
    }
    if (pl->splits == 1) { /* nothing split after all: every tile whole */
        pl->dp_tiles = pl->tiles;
        pl->sk_tiles = 0;
    }
    pl->blocks = pl->dp_tiles + pl->sk_tiles * pl->splits;
    pl->ws_bytes = pl->sk_tiles * pl->splits * tile * sizeof(float);
    double t = (sgemm_sm_time(pl->dp_tiles, sms, per_sm, warps, sat, (double)tile * (k + SGEMM_BLOCK_K)) +
                sgemm_sm_time(pl->sk_tiles * pl->splits, sms, per_sm, warps, sat,
                              (double)tile * (pl->kchunk + SGEMM_BLOCK_K))) / eff;
    if (pl->sk_tiles)
        t += (2.0 * pl->ws_bytes + 8.0 * pl->sk_tiles * tile) * SGEMM_MACS_PER_BYTE + SGEMM_LAUNCH_MACS;
    return t;
}

/* Instance in's best plan for m x n x k on `sms` SMs: every tile whole, or the tiles past the last full wave split
 * into the number of chunks the model likes best. */
static sgemm_plan sgemm_plan_for(const sgemm_instance *in, size_t m, size_t n, size_t k, int sms, double eff)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    pl.cost = sgemm_plan_cost(&pl, 0, 1, k, sms, eff);
    const size_t wave = (size_t)sms * sgemm_per_sm(in), rest = pl.tiles % wave;
    size_t most = k / SGEMM_SPLIT_MIN_K;
    if (most > SGEMM_MAX_SPLITS)
        most = SGEMM_MAX_SPLITS;
    sgemm_plan best = pl;
    for (size_t s = 2; rest && s <= most; s++) {
        sgemm_plan q = pl;
        q.cost = sgemm_plan_cost(&q, rest, (int)s, k, sms, eff);
        if (q.splits > 1 && q.cost < best.cost)
            best = q;
    }
    return best.cost < SGEMM_SPLIT_GAIN * pl.cost ? best : pl;
}

/* The tuned rung's plan: instance `in`'s, or that of `small` (the 64 x 64 instance, when in is another) where the
 * model says it is faster. */
static sgemm_plan sgemm_make_plan(const sgemm_instance *in, const sgemm_instance *small, size_t m, size_t n, size_t k,
                                  int sms)
{
    sgemm_plan pl = sgemm_plan_for(in, m, n, k, sms, 1.0);
    if (small && small != in) {
        const sgemm_plan q = sgemm_plan_for(small, m, n, k, sms, SGEMM_SMALL_EFF);
        if (q.cost < pl.cost)
            pl = q;
    }
    return pl;
}

/* One block a tile, each whole: the ladder rungs before tuned. */
static sgemm_plan sgemm_plain_plan(const sgemm_instance *in, size_t m, size_t n, size_t k)
{
    sgemm_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.in = in;
    pl.tiles = ((m + in->bm - 1) / in->bm) * ((n + in->bn - 1) / in->bn);
    pl.dp_tiles = pl.blocks = pl.tiles;
    pl.splits = 1;
    pl.kchunk = (int)(k > 0 ? k : 1);
    return pl;
}

/* Runs plan pl: every block, then the split tiles' sums. ws holds pl->ws_bytes. */
static cudaError_t sgemm_launch_plan(const sgemm_plan *pl, sgemm_args g, float *ws, int sms, cudaStream_t s)
{
    if (g.m == 0 || g.n == 0)
        return cudaSuccess;
    g.kchunk = pl->kchunk;
    g.ws = ws;
    g.dp_tiles = (int)pl->dp_tiles;
    g.sk_tiles = (int)pl->sk_tiles;
    cudaError_t e = sgemm_allow_smem(pl->in);
    if (e != cudaSuccess)
        return e;
    pl->in->fn<<<(unsigned)pl->blocks, sgemm_threads(pl->in), sgemm_smem_bytes(pl->in), s>>>(g);
    e = cudaGetLastError();
    if (e != cudaSuccess || !pl->sk_tiles)
        return e;
    const int slices = sgemm_reduce_slices(pl->splits), per = SGEMM_REDUCE_THREADS / slices;
    const size_t elems = pl->sk_tiles * pl->in->bm * pl->in->bn;
    size_t blocks = (elems + per - 1) / per;
    if (blocks > (size_t)sms * 8)
        blocks = (size_t)sms * 8;
    /* launched early on sm_90 and later (programmatic dependent launch): its launch overlaps the split kernel's
     * last blocks, and each of its blocks waits for that kernel's sums before reading them */
    int pdl = 0;
    e = climb_current_device_pdl(&pdl);
    if (e != cudaSuccess)
        return e;
    int splits = pl->splits, bm = pl->in->bm, bn = pl->in->bn, sl = slices;
    void *args[] = {&g, &splits, &bm, &bn, &sl};
    return climb_launch_ex((const void *)sgemm_split_reduce_kernel, (unsigned)blocks, SGEMM_REDUCE_THREADS, 0, s, args,
                           pdl);
}

/* The C API's plan: the tuned tile shape (the built-in one where the values name none) in the operands' form. */
static sgemm_plan sgemm_api_plan(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k, int sms)
{
    const int form = (transa != 0) + 2 * (transb != 0);
    const sgemm_instance *in = tuning ? sgemm_tuned_instance(tuning, form) : NULL;
    if (!in) {
        int dflt[5];
        sgemm_form_defaults(form, dflt);
        in = sgemm_tuned_instance(dflt, form);
    }
    return sgemm_make_plan(in, SGEMM_SMALL(form), m, n, k, sms);
}

extern "C" size_t climb_sgemm_workspace(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        int sms)
{
    return sgemm_api_plan(tuning, transa, transb, m, n, k, sms).ws_bytes;
}

extern "C" int climb_sgemm_plan_describe(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                         int sms, climb_sgemm_plan_info *out)
{
    const sgemm_plan pl = sgemm_api_plan(tuning, transa, transb, m, n, k, sms);
    out->bm = pl.in->bm;
    out->bn = pl.in->bn;
    out->tiles = pl.tiles;
    out->dp_tiles = pl.dp_tiles;
    out->sk_tiles = pl.sk_tiles;
    out->splits = pl.splits;
    out->kchunk = pl.kchunk;
    out->ws_bytes = pl.ws_bytes;
    return 0;
}

extern "C" cudaError_t climb_sgemm_best(const int *tuning, int transa, int transb, size_t m, size_t n, size_t k,
                                        float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                                        float beta, float *c, size_t ldc, void *ws, size_t ws_bytes, int sms,
                                        cudaStream_t s)
{
    const sgemm_plan pl = sgemm_api_plan(tuning, transa, transb, m, n, k, sms);
    if (pl.ws_bytes > ws_bytes)
        return cudaErrorInvalidValue;
    sgemm_args g = {(int)m, (int)n, (int)k, (int)lda, (int)ldb, (int)ldc, alpha, beta, a, b, c, NULL, 0, 0, 0};
    return sgemm_launch_plan(&pl, g, (float *)ws, sms, s);
}

#endif
