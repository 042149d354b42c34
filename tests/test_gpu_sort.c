/* GPU: every sort rung over the edge sizes (0, 1, 2, odd, every tile's edges, several passes) with misaligned
 * inputs, for keys and pairs and every key distribution, each key and value checked from poisoned outputs (the
 * values check stability); the i32, f32 and u64 keys on the radix and CUB rungs; proof that outputs nobody wrote fail;
 * every tuning candidate of the best rung; the C API in place (keys and pairs of every key type, stability, n = 0,
 * bad arguments refused, a failed call leaves no error behind). */
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "device/device.h"
#include "core/harness.h"
#include "base/rng.h"
#include "workloads/sort/sort.h"
#include "test_plan.h"
#include "api_jobs.h"
#include "testing.h"

/* ---------------------------------------------------------------- the C API's jobs */

/* In place: the keys are sorted in d_out (copied there from h_a), the values in d_b (from h_b). Keys of type t:
 * u32 by climb_sort_u32 (the merge sort), the others by their radix calls. */
typedef struct sort_job {
    api_job base;
    int pairs; /* else keys alone */
    climb_dtype t;
    size_t n;
} sort_job;

static size_t key_size(const sort_job *j) { return climb_dtype_size(j->t); }

static int sort_sizes(api_job *b)
{
    const sort_job *j = (const sort_job *)b;
    b->a_bytes = b->out_bytes = j->n * key_size(j);
    b->b_bytes = j->pairs ? j->n * 4 : 0;
    return 0;
}

/* Keys from 1000 values (many ties: the values' order checks stability; i32 and f32 negative too, f32 with -0 and
 * +0 both, u64 past 32 bits), values uniform. */
static int sort_fill(api_job *b, climb_rng *r, cudaStream_t s)
{
    const sort_job *j = (const sort_job *)b;
    for (size_t i = 0; i < j->n; i++) {
        const int64_t x = climb_rng_range(r, 0, 999);
        switch (j->t) {
        case CLIMB_I32: ((int32_t *)b->h_a)[i] = (int32_t)(x - 500); break;
        case CLIMB_F32: ((float *)b->h_a)[i] = x == 0 ? -0.0f : (float)(x - 500) * 0.25f; break;
        case CLIMB_U64: ((uint64_t *)b->h_a)[i] = (uint64_t)x * 0x100000001ull; break;
        default: ((uint32_t *)b->h_a)[i] = (uint32_t)x; break;
        }
    }
    climb_rng_fill_i32(r, b->h_b, b->b_bytes / 4, INT32_MIN, INT32_MAX);
    return api_job_send(b, s, API_SEND_A_TO_OUT | API_SEND_B, 0);
}

static climb_status sort_call(api_job *b, climb_handle h)
{
    const sort_job *j = (const sort_job *)b;
    uint32_t *v = j->pairs ? (uint32_t *)b->d_b : NULL;
    switch (j->t) {
    case CLIMB_I32: return v ? climb_sort_pairs_i32(h, b->d_out, v, j->n) : climb_sort_i32(h, b->d_out, j->n);
    case CLIMB_F32: return v ? climb_sort_pairs_f32(h, b->d_out, v, j->n) : climb_sort_f32(h, b->d_out, j->n);
    case CLIMB_U64: return v ? climb_sort_pairs_u64(h, b->d_out, v, j->n) : climb_sort_u64(h, b->d_out, j->n);
    default: return v ? climb_sort_pairs_u32(h, b->d_out, v, j->n) : climb_sort_u32(h, b->d_out, j->n);
    }
}

static void sort_check(const api_job *b, const void *got, cudaStream_t s, api_mismatch *m)
{
    const sort_job *j = (const sort_job *)b;
    const size_t es = key_size(j);
    char *k = malloc(j->n * es + 8);
    uint32_t *v = malloc(b->b_bytes + 4), *gv = malloc(b->b_bytes + 4);
    if (!k || !v || !gv ||
        (j->pairs && (cudaMemcpyAsync(gv, b->d_b, b->b_bytes, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
                      cudaStreamSynchronize(s) != cudaSuccess))) {
        api_mismatch_note(m, 0, 0, 1);
    } else {
        memcpy(k, b->h_a, j->n * es);
        memcpy(v, b->h_b, b->b_bytes);
        if (climb_sort_ref_typed(j->t, k, j->pairs ? v : NULL, j->n) != 0) {
            api_mismatch_note(m, 0, 0, 1);
        } else {
            for (size_t i = 0; i < j->n; i++) {
                if (memcmp((const char *)got + i * es, k + i * es, es) != 0)
                    api_mismatch_note(m, i, (double)climb_sort_code(j->t, got, i), (double)climb_sort_code(j->t, k, i));
                if (j->pairs && gv[i] != v[i])
                    api_mismatch_note(m, j->n + i, gv[i], v[i]);
            }
        }
    }
    free(k);
    free(v);
    free(gv);
}

static const api_job_ops sort_ops = {.sizes = sort_sizes, .fill = sort_fill, .call = sort_call, .check = sort_check};

static api_job *sort_job_of(int pairs, climb_dtype t, size_t n)
{
    sort_job *j = api_job_new(sizeof *j, &sort_ops);
    if (!j)
        return NULL;
    j->pairs = pairs;
    j->t = t;
    j->n = n;
    snprintf(j->base.label, sizeof j->base.label, "climb_sort_%s%s n=%zu", pairs ? "pairs_" : "", climb_dtype_name(t),
             n);
    return &j->base;
}

static int sort_jobs(int set, int id, void *shared, api_job **out, int cap)
{
    (void)shared;
    static const climb_dtype types[] = {CLIMB_U32, CLIMB_I32, CLIMB_F32, CLIMB_U64};
    if (cap < (set == API_THREAD ? 1 : 10))
        return -1;
    if (set == API_THREAD) {
        out[0] = sort_job_of(id % 2, types[(id / 2) % 4], 20011 + (size_t)id);
        return 1;
    }
    out[0] = sort_job_of(0, CLIMB_U32, ((size_t)1 << 20) + 7);
    out[1] = sort_job_of(1, CLIMB_U32, 1000003);
    out[2] = sort_job_of(1, CLIMB_U32, 2);
    out[3] = sort_job_of(0, CLIMB_U32, 1);
    out[4] = sort_job_of(1, CLIMB_I32, 1000003);
    out[5] = sort_job_of(0, CLIMB_F32, ((size_t)1 << 20) + 7);
    out[6] = sort_job_of(1, CLIMB_F32, 3);
    out[7] = sort_job_of(1, CLIMB_U64, 1000003);
    out[8] = sort_job_of(0, CLIMB_U64, 1);
    out[9] = sort_job_of(0, CLIMB_I32, 2305);
    return 10;
}

const api_workload api_workload_sort = {.name = "sort", .jobs = sort_jobs};

static const climb_workload *w = &climb_sort_workload;
static climb_device_info dev;

/* climb check over the check sizes: u32 keys on every rung, or (types != u32) the other key types on the rungs that
 * take them, the radix rungs and CUB's (the merge rungs refuse them, and are not asked). */
static void test_check(uint64_t seed, unsigned types, const char *what, const char *dist, const int *tuning)
{
    climb_opt_plan p;
    test_plan(&p, w, "what", what, "dist", dist, NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.options = &p;
    o.tuning = tuning;
    o.types = types;
    static const char *typed_rungs[] = {"cub_radix_sort",   "cub_merge_sort",   "radix_bit_split", "radix_local_sort",
                                        "radix_wide_digits", "radix_match_rank", "radix_onesweep",
                                        "radix_onesweep_early", "radix_onesweep_wide"};
    if (types != CLIMB_TYPE_BIT(CLIMB_U32)) {
        o.rungs = typed_rungs;
        o.n_rungs = (int)(sizeof typed_rungs / sizeof *typed_rungs);
    }
    climb_check_result cr;
    EXPECT(climb_check(w, &o, &dev, &cr) == 0);
    EXPECT_MSG(cr.runs > 0 && cr.failures == 0 && cr.refused == 0, "what %s dist %s: %ld runs, %d failures, %ld refused",
               what, dist, cr.runs, cr.failures, cr.refused);
    printf("what=%s dist=%s tuning=%s: %ld runs, seed %" PRIu64 "\n", what, dist, tuning ? "set" : "default", cr.runs,
           seed);
    climb_check_result_free(&cr);
    climb_opt_plan_free(&p, NULL);
}

/* The best rung for every tuning candidate (the merge path's tiles, the two radix sorts), on a few sizes around the
 * merge's tiles and past the size classes' boundary. */
static void test_candidates(uint64_t seed)
{
    const climb_tuning *tn = w->tuning;
    for (long i = 0; i < climb_tuning_count(tn); i++) {
        int v[CLIMB_MAX_TUNABLES];
        climb_tuning_values(tn, i, v);
        char buf[200];
        if (climb_tuning_check(tn, &dev, v, buf, sizeof buf))
            continue;
        climb_opt_plan p;
        test_plan(&p, w, "what", "keys,pairs", "dist", "uniform,few", NULL);
        const char *only[] = {"tuned"}; /* the best rung: the merge path at this tile, or a radix sort */
        const size_t tile = (size_t)v[0] * v[1];
        const climb_shape sizes[] = {CLIMB_SHAPE1(tile - 1), CLIMB_SHAPE1(tile + 1), CLIMB_SHAPE1(5 * tile + 7),
                                     CLIMB_SHAPE1(300001), CLIMB_SHAPE1(((size_t)1 << 22) + 3)};
        climb_run_opts o;
        memset(&o, 0, sizeof o);
        o.seed = seed + (uint64_t)i;
        o.options = &p;
        o.tuning = v;
        o.rungs = only;
        o.n_rungs = 1;
        o.shapes = sizes;
        o.n_shapes = 5;
        climb_check_result cr;
        EXPECT(climb_check(w, &o, &dev, &cr) == 0);
        EXPECT_MSG(cr.runs > 0 && cr.failures == 0, "candidate %d x %d: %d failures", v[0], v[1], cr.failures);
        climb_check_result_free(&cr);
        climb_opt_plan_free(&p, NULL);
    }
}

static void test_poisoned(void)
{
    climb_opt_plan p;
    test_plan(&p, w, "what", "pairs", "dist", "few", NULL);
    test_poison_best(w, &dev, &p, (climb_case_key){CLIMB_U32, CLIMB_SHAPE1(100001), 0}, 9, "key[0]");
    climb_opt_plan_free(&p, NULL);
}

static void test_api(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const size_t max_n = (1 << 22) + 13;
    uint32_t *k = malloc(max_n * 4), *v = malloc(max_n * 4), *ik = malloc(max_n * 4), *gk = malloc(max_n * 4),
             *gv = malloc(max_n * 4), *tmp = malloc(max_n * 8), *d_k, *d_v;
    EXPECT(k && v && ik && gk && gv && tmp);
    EXPECT(cudaMalloc((void **)&d_k, max_n * 4 + 16) == cudaSuccess &&
           cudaMalloc((void **)&d_v, max_n * 4 + 16) == cudaSuccess);
    const size_t sizes[] = {1, 2, 17, 3841, 65537, 1000003, max_n};
    const uint64_t seed = climb_fresh_seed();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int pairs = 0; pairs < 2; pairs++) {
            const size_t n = sizes[s];
            const unsigned off = (unsigned)(s % 3); /* 4-byte aligned, not 16 */
            const int dist = (int)((s + (size_t)pairs) % 6);
            climb_sort_generate(seed + s, dist, k, pairs ? v : NULL, n);
            memcpy(ik, k, n * 4);
            EXPECT(cudaMemcpy(d_k + off, k, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            if (pairs)
                EXPECT(cudaMemcpy(d_v + off, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
            const climb_status st = pairs ? climb_sort_pairs_u32(h, d_k + off, d_v + off, n) : climb_sort_u32(h, d_k + off, n);
            EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "n=%zu pairs=%d: %s", n, pairs, climb_status_string(st));
            EXPECT(cudaMemcpy(gk, d_k + off, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            if (pairs)
                EXPECT(cudaMemcpy(gv, d_v + off, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            climb_sort_ref(k, pairs ? v : NULL, n, tmp);
            size_t bad = 0;
            for (size_t i = 0; i < n; i++)
                bad += gk[i] != k[i] || (pairs && gv[i] != v[i]);
            EXPECT_MSG(bad == 0, "api n=%zu pairs=%d dist=%d: %zu wrong", n, pairs, dist, bad);
        }
    /* all keys equal: a stable sort moves nothing, so the values stay in their input order */
    {
        const size_t n = 100003;
        for (size_t i = 0; i < n; i++) {
            k[i] = 7u;
            v[i] = (uint32_t)i;
        }
        EXPECT(cudaMemcpy(d_k, k, n * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
               cudaMemcpy(d_v, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(climb_sort_pairs_u32(h, d_k, d_v, n) == CLIMB_STATUS_SUCCESS);
        EXPECT(cudaMemcpy(gk, d_k, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
               cudaMemcpy(gv, d_v, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        size_t moved = 0;
        for (size_t i = 0; i < n; i++)
            moved += gk[i] != 7u || gv[i] != (uint32_t)i;
        EXPECT_MSG(moved == 0, "all keys equal: %zu elements moved", moved);
    }
    /* n = 0 touches nothing; bad arguments are refused and leave no CUDA error for the next call */
    EXPECT(climb_sort_u32(h, NULL, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_sort_pairs_u32(h, NULL, NULL, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_sort_u32(h, k, 10) == CLIMB_STATUS_INVALID_VALUE);            /* host memory */
    EXPECT(climb_sort_u32(h, (uint32_t *)((char *)d_k + 2), 10) == CLIMB_STATUS_INVALID_VALUE); /* misaligned */
    EXPECT(climb_sort_pairs_u32(h, d_k, d_k + 5, 10) == CLIMB_STATUS_INVALID_VALUE);           /* overlap */
    EXPECT(climb_sort_pairs_u32(h, d_k, NULL, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sort_u32(h, d_k, (size_t)1 << 31) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_sort_u32(NULL, d_k, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_sort_u32(h, d_k, 3) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_k);
    cudaFree(d_v);
    free(k);
    free(v);
    free(ik);
    free(gk);
    free(gv);
    free(tmp);
}

/* The other key types through their calls, in place, every distribution over sizes past Onesweep's tiles, keys
 * misaligned by whole elements; a misaligned u64 array is refused and leaves no error behind. */
static void test_api_typed(void)
{
    climb_handle h;
    EXPECT(climb_create(&h, 0) == CLIMB_STATUS_SUCCESS);
    const size_t max_n = 1000003, sizes[] = {1, 2, 17, 2305, 65537, max_n};
    const climb_dtype types[] = {CLIMB_I32, CLIMB_F32, CLIMB_U64};
    char *k = malloc(max_n * 8), *gk = malloc(max_n * 8), *d_k = NULL;
    uint32_t *v = malloc(max_n * 4), *gv = malloc(max_n * 4), *d_v = NULL;
    EXPECT(k && gk && v && gv);
    EXPECT(cudaMalloc((void **)&d_k, max_n * 8 + 32) == cudaSuccess &&
           cudaMalloc((void **)&d_v, max_n * 4 + 16) == cudaSuccess);
    const uint64_t seed = climb_fresh_seed();
    for (int ti = 0; ti < 3; ti++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (int pairs = 0; pairs < 2; pairs++) {
                const climb_dtype t = types[ti];
                const size_t n = sizes[si], es = climb_dtype_size(t), off = si % 3;
                const int dist = (int)((si + (size_t)pairs + (size_t)ti) % 6);
                climb_sort_generate_typed(seed + si * 8 + (size_t)ti * 2 + (size_t)pairs, dist, t, k, v, n);
                char *dk = d_k + off * es;
                EXPECT(cudaMemcpy(dk, k, n * es, cudaMemcpyHostToDevice) == cudaSuccess);
                if (pairs)
                    EXPECT(cudaMemcpy(d_v, v, n * 4, cudaMemcpyHostToDevice) == cudaSuccess);
                climb_status st;
                if (t == CLIMB_I32)
                    st = pairs ? climb_sort_pairs_i32(h, (int32_t *)dk, d_v, n) : climb_sort_i32(h, (int32_t *)dk, n);
                else if (t == CLIMB_F32)
                    st = pairs ? climb_sort_pairs_f32(h, (float *)dk, d_v, n) : climb_sort_f32(h, (float *)dk, n);
                else
                    st = pairs ? climb_sort_pairs_u64(h, (uint64_t *)dk, d_v, n) : climb_sort_u64(h, (uint64_t *)dk, n);
                EXPECT_MSG(st == CLIMB_STATUS_SUCCESS, "%s n=%zu pairs=%d: %s", climb_dtype_name(t), n, pairs,
                           climb_status_string(st));
                EXPECT(cudaMemcpy(gk, dk, n * es, cudaMemcpyDeviceToHost) == cudaSuccess);
                if (pairs)
                    EXPECT(cudaMemcpy(gv, d_v, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
                EXPECT(climb_sort_ref_typed(t, k, pairs ? v : NULL, n) == 0);
                size_t bad = 0;
                for (size_t i = 0; i < n; i++)
                    bad += memcmp(gk + i * es, k + i * es, es) != 0 || (pairs && gv[i] != v[i]);
                EXPECT_MSG(bad == 0, "api %s n=%zu pairs=%d dist=%d: %zu wrong", climb_dtype_name(t), n, pairs, dist,
                           bad);
            }
    EXPECT(climb_sort_u64(h, (uint64_t *)(d_k + 4), 10) == CLIMB_STATUS_INVALID_VALUE); /* misaligned */
    EXPECT(climb_sort_pairs_f32(h, (float *)d_k, (uint32_t *)d_k + 5, 10) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_sort_u64(h, (uint64_t *)d_k, 3) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_SUCCESS);
    cudaFree(d_k);
    cudaFree(d_v);
    free(k);
    free(gk);
    free(v);
    free(gv);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_poisoned();
    test_api();
    test_api_typed();
    const uint64_t fresh = climb_fresh_seed();
    const unsigned u32 = CLIMB_TYPE_BIT(CLIMB_U32),
                   others = CLIMB_TYPE_BIT(CLIMB_I32) | CLIMB_TYPE_BIT(CLIMB_F32) | CLIMB_TYPE_BIT(CLIMB_U64);
    test_check(20261124, u32, "keys,pairs", "uniform", NULL);
    test_check(fresh, u32, "keys,pairs", "sorted,reverse,few,nearly,narrow", NULL);
    test_check(fresh + 1, others, "keys,pairs", "uniform,few,narrow", NULL);
    test_candidates(fresh);
    EXPECT(api_test_workload(&api_workload_sort) == 0);
    return test_finish("test_gpu_sort");
}
