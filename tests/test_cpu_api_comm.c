/* CPU: the argument checks of the C API across GPUs (climb_comm_*), on an offline communicator of two GPUs
 * (climb_comm_offline) with the runtime answered by the counting shim (tests/cuda_shim.h; the addresses are made up
 * and never read). Each refusal has its exact status and makes no runtime call but pointer queries; a call that
 * passes goes on to its first piece of work, which fails offline with CLIMB_STATUS_NO_DEVICE and leaves no error
 * behind. */
#include <stdint.h>
#include <string.h>

#include "climb.h"
#include "lib/comm.h"
#include "cuda_shim.h"
#include "testing.h"

#define A0 ((float *)(uintptr_t)0x10000000u) /* device 0 */
#define B0 ((float *)(uintptr_t)0x18000000u)
#define A1 ((float *)(uintptr_t)0x20000000u) /* device 1 */
#define B1 ((float *)(uintptr_t)0x28000000u)

static void mark(void) { climb_shim_reset(); }

/* No runtime call but pointer and error-state queries since mark(). */
#define NOTHING_DONE() EXPECT_MSG(climb_shim_work_calls() == 0, "calls: %s", climb_shim_log())

static void test_create(void)
{
    const int two[2] = {0, 1}, twice[2] = {1, 1}, neg[2] = {0, -1};
    climb_comm c = (climb_comm)(uintptr_t)1;
    mark();
    EXPECT(climb_comm_create(NULL, 2, two) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_create(&c, 2, NULL) == CLIMB_STATUS_INVALID_VALUE && c == NULL);
    EXPECT(climb_comm_create(&c, 0, two) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_create(&c, CLIMB_COMM_MAX_DEVICES + 1, two) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_create(&c, 2, twice) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_create(&c, 2, neg) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* A good list goes on to the runtime: offline there is no device. */
    EXPECT(climb_comm_create(&c, 2, two) == CLIMB_STATUS_NO_DEVICE && c == NULL);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_destroy(NULL) == CLIMB_STATUS_SUCCESS);
}

/* The rank form's checks: the id's pointer, then nranks, rank and device, then the runtime (offline: no device). */
static void test_ranks(void)
{
    climb_comm_id id;
    memset(&id, 0, sizeof id);
    climb_comm c = (climb_comm)(uintptr_t)1;
    mark();
    EXPECT(climb_comm_get_id(NULL) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_init_rank(NULL, 2, id, 0, 0) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_init_rank(&c, 0, id, 0, 0) == CLIMB_STATUS_INVALID_VALUE && c == NULL);
    EXPECT(climb_comm_init_rank(&c, 2, id, 2, 0) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_init_rank(&c, 2, id, -1, 0) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_init_rank(&c, 2, id, 1, -1) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    EXPECT(climb_comm_init_rank(&c, 2, id, 1, 0) == CLIMB_STATUS_NO_DEVICE && c == NULL);
    int nranks = 0, rank = -1;
    EXPECT(climb_comm_ranks(NULL, &nranks, &rank) == CLIMB_STATUS_INVALID_VALUE);
}

static void test_allreduce(climb_comm c, climb_comm no_access)
{
    const float *in[2] = {A0, A1};
    float *out[2] = {B0, B1}, *same[2] = {A0, A1}, *mixed[2] = {A0, B1};
    const float *in_wrong[2] = {A0, A0 + 1024};
    const size_t n = 1000;
    mark();
    EXPECT(climb_comm_allreduce_sum_f32(NULL, in, out, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allreduce_sum_f32(c, in, out, ((size_t)1 << 58) + 1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allreduce_sum_f32(c, NULL, NULL, 0) == CLIMB_STATUS_SUCCESS); /* empty: nothing looked at */
    EXPECT(climb_comm_allreduce_sum_f32(c, NULL, out, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allreduce_sum_f32(c, in, NULL, n) == CLIMB_STATUS_INVALID_VALUE);
    /* an output over another rank's input, over its own input in part, or in place on one rank alone */
    float *over[2] = {(float *)A1 + 10, B1};
    EXPECT(climb_comm_allreduce_sum_f32(c, in, over, n) == CLIMB_STATUS_INVALID_VALUE);
    float *part[2] = {(float *)A0 + 1, B1};
    EXPECT(climb_comm_allreduce_sum_f32(c, in, part, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allreduce_sum_f32(c, in, mixed, n) == CLIMB_STATUS_INVALID_VALUE);
    /* an extent that wraps the address space */
    const float *wrap[2] = {(const float *)(UINTPTR_MAX - 64), A1};
    EXPECT(climb_comm_allreduce_sum_f32(c, wrap, out, n) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* pointers: rank 1's input on device 0; misaligned; host memory */
    EXPECT(climb_comm_allreduce_sum_f32(c, in_wrong, out, n) == CLIMB_STATUS_INVALID_VALUE);
    const float *odd[2] = {(const float *)((uintptr_t)A0 + 2), A1};
    EXPECT(climb_comm_allreduce_sum_f32(c, odd, out, n) == CLIMB_STATUS_INVALID_VALUE);
    static float host[1000];
    const float *h[2] = {host, A1};
    EXPECT(climb_comm_allreduce_sum_f32(c, h, out, n) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays without peer access between the pair: not supported, still nothing done */
    EXPECT(climb_comm_allreduce_sum_f32(no_access, in, out, n) == CLIMB_STATUS_NOT_SUPPORTED);
    NOTHING_DONE();
    /* the right arrays, apart and in place, f32 and i32: on to the first piece of work */
    EXPECT(climb_comm_allreduce_sum_f32(c, in, out, n) == CLIMB_STATUS_NO_DEVICE);
    EXPECT(climb_shim_work_calls() > 0 && climb_shim_launches() == 0);
    EXPECT(climb_comm_last_cuda_error(c) == cudaErrorNoDevice && cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_allreduce_sum_f32(c, (const float *const *)same, same, n) == CLIMB_STATUS_NO_DEVICE);
    EXPECT(climb_comm_allreduce_sum_i32(c, (const int32_t *const *)in, (int32_t *const *)out, n) ==
           CLIMB_STATUS_NO_DEVICE);
}

static void test_gather_scatter(climb_comm c, climb_comm no_access)
{
    const float *in[2] = {A0, A1};
    float *out[2] = {B0, B1}, *same[2] = {A0, A1};
    const size_t n = 1000;
    mark();
    EXPECT(climb_comm_allgather_f32(NULL, in, out, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allgather_f32(c, in, out, ((size_t)1 << 57) + 1) == CLIMB_STATUS_INVALID_VALUE); /* x 2 GPUs */
    EXPECT(climb_comm_reducescatter_sum_f32(c, in, out, ((size_t)1 << 57) + 1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_allgather_f32(c, NULL, NULL, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_comm_reducescatter_sum_i32(c, NULL, NULL, 0) == CLIMB_STATUS_SUCCESS);
    /* no in-place form; an output over another rank's input (the gathered array is 2n long) */
    EXPECT(climb_comm_allgather_f32(c, in, same, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_reducescatter_sum_f32(c, in, same, n) == CLIMB_STATUS_INVALID_VALUE);
    float *over[2] = {B0, (float *)A1 - 1500};
    EXPECT(climb_comm_allgather_f32(c, in, over, n) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* pointers on the wrong GPU */
    const float *swapped[2] = {A1, A0};
    EXPECT(climb_comm_allgather_f32(c, swapped, out, n) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_reducescatter_sum_f32(c, swapped, out, n) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays go on to the work; without peer access too (the copy engines need none) */
    EXPECT(climb_comm_allgather_f32(c, in, out, n) == CLIMB_STATUS_NO_DEVICE && cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_allgather_i32(no_access, (const int32_t *const *)in, (int32_t *const *)out, n) ==
           CLIMB_STATUS_NO_DEVICE);
    EXPECT(climb_comm_reducescatter_sum_f32(c, in, out, n) == CLIMB_STATUS_NO_DEVICE);
    EXPECT(climb_comm_reducescatter_sum_i32(no_access, (const int32_t *const *)in, (int32_t *const *)out, n) ==
           CLIMB_STATUS_NO_DEVICE); /* its workspace allocation is the first work */
    EXPECT(cudaGetLastError() == cudaSuccess);
}

static void test_peer_copy(climb_comm c)
{
    mark();
    EXPECT(climb_comm_peer_copy(NULL, 1, B1, 0, A0, 64) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_peer_copy(c, 2, B1, 0, A0, 64) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_peer_copy(c, 1, B1, -1, A0, 64) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_peer_copy(c, 1, NULL, 0, NULL, 0) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_comm_peer_copy(c, 0, (char *)A0 + 8, 0, A0, 64) == CLIMB_STATUS_INVALID_VALUE); /* overlap */
    NOTHING_DONE();
    EXPECT(climb_comm_peer_copy(c, 1, B0, 0, A0, 64) == CLIMB_STATUS_INVALID_VALUE); /* dst on rank 0's GPU */
    EXPECT(climb_comm_peer_copy(c, 1, B1, 0, A1, 64) == CLIMB_STATUS_INVALID_VALUE); /* src on rank 1's GPU */
    NOTHING_DONE();
    /* On to the work, which starts on the receiver's GPU: offline only device 0 can be made current. */
    EXPECT(climb_comm_peer_copy(c, 1, B1, 0, A0, 64) == CLIMB_STATUS_INVALID_DEVICE);
    EXPECT(climb_shim_work_calls() > 0 && climb_shim_launches() == 0 && cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_peer_copy(c, 0, B0, 1, A1, 64) == CLIMB_STATUS_NO_DEVICE); /* to rank 0: device 0 first */
}

static void test_stencil(climb_comm c)
{
    /* 40 x 10 x 9 over two ranks: rank 0 owns planes [0, 5) in 6 (a halo above), rank 1 [5, 9) in 5 (a halo below) */
    size_t z0 = 9, z1 = 9, planes = 0;
    EXPECT(climb_comm_stencil_slab(c, 9, 0, &z0, &z1, &planes) == CLIMB_STATUS_SUCCESS && z0 == 0 && z1 == 5 &&
           planes == 6);
    EXPECT(climb_comm_stencil_slab(c, 9, 1, &z0, &z1, &planes) == CLIMB_STATUS_SUCCESS && z0 == 5 && z1 == 9 &&
           planes == 5);
    EXPECT(climb_comm_stencil_slab(c, 1, 0, &z0, &z1, &planes) == CLIMB_STATUS_INVALID_VALUE); /* a plane, 2 ranks */
    EXPECT(climb_comm_stencil_slab(c, 9, 2, &z0, &z1, &planes) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil_slab(NULL, 9, 0, &z0, &z1, &planes) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil_slab(c, 9, 0, NULL, &z1, &planes) == CLIMB_STATUS_INVALID_VALUE);
    const float w[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    const float *in[2] = {A0, A1};
    float *out[2] = {B0, B1};
    mark();
    EXPECT(climb_comm_stencil7_f32(NULL, 40, 10, 9, w, in, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, NULL, in, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 1, w, in, out) == CLIMB_STATUS_INVALID_VALUE); /* fewer planes */
    EXPECT(climb_comm_stencil7_f32(c, (size_t)1 << 31, 10, 9, w, in, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, NULL, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_stencil7_f32(c, 40, 0, 9, w, NULL, NULL) == CLIMB_STATUS_SUCCESS); /* empty */
    /* rank 0's slab is 6 planes of 400 floats: an output 2000 floats on from its input overlaps it */
    float *over[2] = {(float *)A0 + 2000, B1};
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, in, over) == CLIMB_STATUS_INVALID_VALUE);
    float *apart[2] = {(float *)A0 + 2400, B1}; /* just past it: fine as far as overlap goes */
    const float *swapped[2] = {A1, A0};
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, swapped, out) == CLIMB_STATUS_INVALID_VALUE);
    float *misaligned[2] = {(float *)((char *)B0 + 2), B1};
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, in, misaligned) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays go on to the work */
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, in, apart) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_stencil7_f32(c, 40, 10, 9, w, in, out) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
}

static void test_sgemm(climb_comm c)
{
    /* 10 x 8 x 6 over two ranks: rank 0 rows [0, 5) of A and C and rows [0, 3) of B; rank 1 [5, 10) and [3, 6) */
    size_t m0 = 9, m1 = 9, k0 = 9, k1 = 9;
    EXPECT(climb_comm_sgemm_split(c, 10, 6, 0, &m0, &m1, &k0, &k1) == CLIMB_STATUS_SUCCESS && m0 == 0 && m1 == 5 &&
           k0 == 0 && k1 == 3);
    EXPECT(climb_comm_sgemm_split(c, 10, 6, 1, &m0, &m1, &k0, &k1) == CLIMB_STATUS_SUCCESS && m0 == 5 && m1 == 10 &&
           k0 == 3 && k1 == 6);
    EXPECT(climb_comm_sgemm_split(c, 1, 1, 1, &m0, &m1, &k0, &k1) == CLIMB_STATUS_SUCCESS && m0 == 1 && m1 == 1 &&
           k0 == 1 && k1 == 1); /* fewer rows than ranks: the last holds none */
    EXPECT(climb_comm_sgemm_split(c, 10, 6, 2, &m0, &m1, &k0, &k1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sgemm_split(NULL, 10, 6, 0, &m0, &m1, &k0, &k1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sgemm_split(c, 10, 6, 0, NULL, &m1, &k0, &k1) == CLIMB_STATUS_INVALID_VALUE);
    const float *a[2] = {A0, A1}, *b[2] = {(const float *)A0 + 4096, (const float *)A1 + 4096};
    float *out[2] = {B0, B1};
    mark();
    EXPECT(climb_comm_sgemm_f32(NULL, 10, 8, 6, a, b, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sgemm_f32(c, (size_t)1 << 31, 8, 6, a, b, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 6, NULL, b, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sgemm_f32(c, 0, 8, 6, NULL, NULL, NULL) == CLIMB_STATUS_SUCCESS); /* no product */
    EXPECT(climb_comm_sgemm_f32(c, 10, 0, 6, NULL, NULL, NULL) == CLIMB_STATUS_SUCCESS);
    /* rank 0's C (5 x 8) over its A (5 x 6, 30 floats): overlapping at 20 floats on, apart at 30 */
    float *over[2] = {(float *)A0 + 20, B1}, *apart[2] = {(float *)A0 + 30, B1};
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 6, a, b, over) == CLIMB_STATUS_INVALID_VALUE);
    const float *swapped[2] = {A1, A0};
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 6, swapped, b, out) == CLIMB_STATUS_INVALID_VALUE);
    float *misaligned[2] = {(float *)((char *)B0 + 1), B1};
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 6, a, b, misaligned) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays go on to the work (the workspace's allocation first) */
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 6, a, b, apart) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_sgemm_f32(c, 10, 8, 0, a, b, out) == CLIMB_STATUS_NO_DEVICE); /* k 0: C = 0, still work */
}

/* Sort across GPUs: counts (every rank's) first, then the arrays rank by rank; in place allowed, other overlaps not. */
static void test_sort(climb_comm c)
{
    const uint32_t *in[2] = {(const uint32_t *)A0, (const uint32_t *)A1};
    uint32_t *out[2] = {(uint32_t *)B0, (uint32_t *)B1}, *same[2] = {(uint32_t *)A0, (uint32_t *)A1};
    const uint32_t *vin[2] = {(const uint32_t *)A0 + 4096, (const uint32_t *)A1 + 4096};
    uint32_t *vout[2] = {(uint32_t *)B0 + 4096, (uint32_t *)B1 + 4096};
    const size_t counts[2] = {10, 7}, none[2] = {0, 0}, big[2] = {(size_t)1 << 31, 1}, one_empty[2] = {10, 0};
    mark();
    EXPECT(climb_comm_sort_u32(NULL, counts, in, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sort_u32(c, NULL, in, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sort_u32(c, big, in, out) == CLIMB_STATUS_INVALID_VALUE); /* past one GPU's radix sort */
    EXPECT(climb_comm_sort_u32(c, none, NULL, NULL) == CLIMB_STATUS_SUCCESS);   /* nothing to sort */
    EXPECT(climb_comm_sort_u32(c, counts, NULL, out) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sort_u32(c, counts, in, NULL) == CLIMB_STATUS_INVALID_VALUE);
    uint32_t *over[2] = {(uint32_t *)A0 + 5, (uint32_t *)B1}; /* rank 0's output 5 words into its input */
    EXPECT(climb_comm_sort_u32(c, counts, in, over) == CLIMB_STATUS_INVALID_VALUE);
    const uint32_t *swapped[2] = {(const uint32_t *)A1, (const uint32_t *)A0};
    EXPECT(climb_comm_sort_u32(c, counts, swapped, out) == CLIMB_STATUS_INVALID_VALUE);
    uint32_t *misaligned[2] = {(uint32_t *)((char *)B0 + 2), (uint32_t *)B1};
    EXPECT(climb_comm_sort_u32(c, counts, in, misaligned) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sort_pairs_u32(c, counts, in, NULL, out, vout) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_sort_pairs_u32(c, counts, in, vin, out, NULL) == CLIMB_STATUS_INVALID_VALUE);
    const uint32_t *vover[2] = {(const uint32_t *)A0 + 8, (const uint32_t *)A1 + 4096}; /* values over the keys */
    EXPECT(climb_comm_sort_pairs_u32(c, counts, in, vover, out, vout) == CLIMB_STATUS_INVALID_VALUE);
    uint32_t *vkeys[2] = {(uint32_t *)B0 + 3, (uint32_t *)B1 + 4096}; /* values out over the keys out */
    EXPECT(climb_comm_sort_pairs_u32(c, counts, in, vin, out, vkeys) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays go on to the work (the workspace's allocation first): apart, in place, a rank with none */
    EXPECT(climb_comm_sort_u32(c, counts, in, out) == CLIMB_STATUS_NO_DEVICE && cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_sort_u32(c, counts, in, same) == CLIMB_STATUS_NO_DEVICE && cudaGetLastError() == cudaSuccess);
    const uint32_t *half[2] = {(const uint32_t *)A0, NULL};
    uint32_t *half_out[2] = {(uint32_t *)B0, NULL};
    EXPECT(climb_comm_sort_u32(c, one_empty, half, half_out) == CLIMB_STATUS_NO_DEVICE);
    EXPECT(climb_comm_sort_pairs_u32(c, counts, in, vin, out, vout) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
}

/* BFS across GPUs: 100 vertices over two ranks, [0, 64) and [64, 100) (whole words); rank 0 holds 65 row offsets
 * and 300 columns, rank 1 37 and 200. */
static void test_bfs(climb_comm c)
{
    int32_t v0 = -1, v1 = -1;
    EXPECT(climb_comm_bfs_range(c, 100, 0, &v0, &v1) == CLIMB_STATUS_SUCCESS && v0 == 0 && v1 == 64);
    EXPECT(climb_comm_bfs_range(c, 100, 1, &v0, &v1) == CLIMB_STATUS_SUCCESS && v0 == 64 && v1 == 100);
    EXPECT(climb_comm_bfs_range(c, 20, 1, &v0, &v1) == CLIMB_STATUS_SUCCESS && v0 == 20 && v1 == 20); /* none */
    EXPECT(climb_comm_bfs_range(c, 100, 2, &v0, &v1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs_range(c, -1, 0, &v0, &v1) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs_range(NULL, 100, 0, &v0, &v1) == CLIMB_STATUS_INVALID_VALUE);
    const int32_t edges[2] = {300, 200}, neg[2] = {300, -1};
    const int32_t *rp[2] = {(const int32_t *)A0, (const int32_t *)A1};
    const int32_t *ci[2] = {(const int32_t *)A0 + 1024, (const int32_t *)A1 + 1024};
    const int32_t *irp[2] = {(const int32_t *)A0 + 4096, (const int32_t *)A1 + 4096};
    const int32_t *ici[2] = {(const int32_t *)A0 + 8192, (const int32_t *)A1 + 8192};
    int32_t *lv[2] = {(int32_t *)B0, (int32_t *)B1};
    mark();
    EXPECT(climb_comm_bfs(NULL, 100, edges, rp, ci, NULL, NULL, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, -1, edges, rp, ci, NULL, NULL, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL) == CLIMB_STATUS_SUCCESS); /* no vertex */
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, 100, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, -1, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, NULL, rp, ci, NULL, NULL, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, neg, rp, ci, NULL, NULL, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, 0, NULL) == CLIMB_STATUS_INVALID_VALUE);
    /* the in-edges all three or none */
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, edges, irp, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, irp, ici, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    /* rank 0's levels (64) over its columns (300 from A0 + 1024): at A0 + 1200 they overlap */
    int32_t *over[2] = {(int32_t *)A0 + 1200, (int32_t *)B1};
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, 0, over) == CLIMB_STATUS_INVALID_VALUE);
    int32_t *over_in[2] = {(int32_t *)A0 + 8200, (int32_t *)B1}; /* over its in-columns */
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, edges, irp, ici, 0, over_in) == CLIMB_STATUS_INVALID_VALUE);
    const int32_t *swapped[2] = {(const int32_t *)A1, (const int32_t *)A0};
    EXPECT(climb_comm_bfs(c, 100, edges, swapped, ci, NULL, NULL, NULL, 0, lv) == CLIMB_STATUS_INVALID_VALUE);
    int32_t *misaligned[2] = {(int32_t *)((char *)B0 + 2), (int32_t *)B1};
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, 0, misaligned) == CLIMB_STATUS_INVALID_VALUE);
    NOTHING_DONE();
    /* the right arrays go on to the work (the workspace's allocation first): undirected, directed */
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, NULL, NULL, NULL, 70, lv) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, edges, irp, ici, 0, over) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_bfs(c, 100, edges, rp, ci, edges, irp, ici, 0, lv) == CLIMB_STATUS_NO_DEVICE &&
           cudaGetLastError() == cudaSuccess);
}

static void test_streams(climb_comm c)
{
    cudaStream_t s = (cudaStream_t)(uintptr_t)0x1234, got = NULL;
    int n = 0;
    EXPECT(climb_comm_size(c, &n) == CLIMB_STATUS_SUCCESS && n == 2 && climb_comm_size(c, NULL) != 0);
    int nranks = 0, rank = -1;
    EXPECT(climb_comm_ranks(c, &nranks, &rank) == CLIMB_STATUS_SUCCESS && nranks == 2 && rank == 0);
    EXPECT(climb_comm_set_stream(c, 2, s) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_set_stream(c, -1, s) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_comm_set_stream(c, 1, s) == CLIMB_STATUS_SUCCESS);
    EXPECT(climb_comm_get_stream(c, 1, &got) == CLIMB_STATUS_SUCCESS && got == s);
    EXPECT(climb_comm_get_stream(c, 0, &got) == CLIMB_STATUS_SUCCESS && got == NULL); /* the legacy stream */
    EXPECT(climb_comm_set_stream(c, 1, NULL) == CLIMB_STATUS_SUCCESS);                 /* back to it */
    EXPECT(climb_comm_get_stream(c, 1, &got) == CLIMB_STATUS_SUCCESS && got == NULL);
    EXPECT(climb_comm_get_stream(c, 0, NULL) == CLIMB_STATUS_INVALID_VALUE);
}

int main(void)
{
    climb_shim_set_mode(CLIMB_SHIM_OFFLINE);
    climb_shim_forget_devices();
    climb_shim_fake_device_on(A0, (size_t)1 << 26, 0);
    climb_shim_fake_device_on(B0, (size_t)1 << 26, 0);
    climb_shim_fake_device_on(A1, (size_t)1 << 26, 1);
    climb_shim_fake_device_on(B1, (size_t)1 << 26, 1);
    test_create();
    test_ranks();
    const int two[2] = {0, 1};
    climb_comm c = NULL, apart = NULL;
    EXPECT(climb_comm_offline(&c, 2, two, 1) == CLIMB_STATUS_SUCCESS && c != NULL);
    EXPECT(climb_comm_offline(&apart, 2, two, 0) == CLIMB_STATUS_SUCCESS && apart != NULL);
    if (c && apart) {
        test_allreduce(c, apart);
        test_gather_scatter(c, apart);
        test_peer_copy(c);
        test_stencil(c);
        test_sgemm(c);
        test_sort(c);
        test_bfs(c);
        test_streams(c);
    }
    EXPECT(climb_comm_destroy(c) == CLIMB_STATUS_SUCCESS && climb_comm_destroy(apart) == CLIMB_STATUS_SUCCESS);
    climb_shim_forget_devices();
    climb_shim_set_mode(CLIMB_SHIM_PASS);
    return test_finish("test_cpu_api_comm");
}
