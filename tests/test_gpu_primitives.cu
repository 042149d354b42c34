/* GPU: the shared device primitives (src/device/device_primitives.cuh) against the CPU, each tested once here:
 * warp and block sum, max and min, inclusive and exclusive scans of sum and max, over int, unsigned, float and
 * double and block sizes 32 to 1024, on fresh random inputs, outputs poisoned first. Integer sums wrap; float
 * sums are within a bound of sum |x| times the tree depth's rounding. climb_last_block: exactly one block of a grid
 * sees itself last, and it sees every other block's slot. */
#include <limits>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_primitives.cuh"
#include "base/rng.h"
#include "testing.h"

enum { OP_WARP_SUM, OP_WARP_MAX, OP_WARP_MIN, OP_WARP_INC, OP_WARP_EXC, OP_BLOCK_SUM, OP_BLOCK_MAX, OP_BLOCK_MIN,
       OP_BLOCK_INC, OP_BLOCK_EXC, OP_BLOCK_INC_MAX, OP_BLOCK_EXC_MAX, N_OPS };
static const char *const OP_NAMES[] = {"warp sum", "warp max", "warp min", "warp inclusive scan",
                                       "warp exclusive scan", "block sum", "block max", "block min",
                                       "block inclusive scan", "block exclusive scan", "block inclusive max-scan",
                                       "block exclusive max-scan"};

/* Each thread writes what the primitive gave it (reductions: the result where it is defined: every lane of a warp
 * for warp ops, thread 0 for block ops; the total of a block scan goes to out[blockDim.x]). */
template <typename T, unsigned BLOCK> __global__ void primitives_kernel(const T *in, T *out, int op)
{
    __shared__ T scratch[BLOCK / 32 + 1];
    const unsigned tid = threadIdx.x;
    T v = in[blockIdx.x * BLOCK + tid], r = v, total = T(0);
    T *o = out + blockIdx.x * (BLOCK + 1);
    switch (op) {
    case OP_WARP_SUM: r = climb_warp_sum(v); break;
    case OP_WARP_MAX: r = climb_warp_max(v); break;
    case OP_WARP_MIN: r = climb_warp_min(v); break;
    case OP_WARP_INC: r = climb_warp_inclusive_scan<climb_op_sum>(v); break;
    case OP_WARP_EXC: r = climb_warp_exclusive_scan<climb_op_sum>(v); break;
    case OP_BLOCK_SUM: r = climb_block_sum<BLOCK>(v, scratch); break;
    case OP_BLOCK_MAX: r = climb_block_max<BLOCK>(v, scratch); break;
    case OP_BLOCK_MIN: r = climb_block_min<BLOCK>(v, scratch); break;
    case OP_BLOCK_INC: r = climb_block_inclusive_scan<climb_op_sum, BLOCK>(v, scratch, &total); break;
    case OP_BLOCK_EXC: r = climb_block_exclusive_scan<climb_op_sum, BLOCK>(v, scratch, &total); break;
    case OP_BLOCK_INC_MAX: r = climb_block_inclusive_scan<climb_op_max, BLOCK>(v, scratch, &total); break;
    case OP_BLOCK_EXC_MAX: r = climb_block_exclusive_scan<climb_op_max, BLOCK>(v, scratch, &total); break;
    }
    const int block_reduce = op == OP_BLOCK_SUM || op == OP_BLOCK_MAX || op == OP_BLOCK_MIN;
    if (!block_reduce || tid == 0)
        o[tid] = r;
    if (op >= OP_BLOCK_INC && tid == BLOCK - 1)
        o[BLOCK] = total;
}

static int checks_failed;

template <typename T> static double as_d(T x) { return (double)x; }

/* What thread i of a block (or lane i of its warp) must hold, and how close (0: exact). */
template <typename T> static T expect_of(const T *x, unsigned block, unsigned i, int op, T *total)
{
    unsigned w0 = (op <= OP_WARP_EXC) ? i / 32 * 32 : 0, w1 = (op <= OP_WARP_EXC) ? w0 + 32 : block;
    T acc = 0, mx = x[w0], mn = x[w0];
    /* Integer sums wrap as the GPU's do: accumulate in the type (unsigned wraps; int via uint64). */
    uint64_t iacc = 0;
    double dacc = 0;
    for (unsigned k = w0; k < w1; k++) {
        mx = x[k] > mx ? x[k] : mx;
        mn = x[k] < mn ? x[k] : mn;
    }
    unsigned upto = op == OP_WARP_INC || op == OP_BLOCK_INC || op == OP_BLOCK_INC_MAX ? i + 1
                    : op == OP_WARP_EXC || op == OP_BLOCK_EXC || op == OP_BLOCK_EXC_MAX ? i
                                                                                         : w1;
    T smax = x[w0];
    for (unsigned k = w0; k < upto; k++) {
        iacc += (uint64_t)(int64_t)x[k];
        dacc += (double)x[k];
        smax = x[k] > smax ? x[k] : smax;
    }
    if (T(0.5) != T(0))
        acc = (T)dacc;
    else
        acc = (T)iacc;
    if (total) {
        uint64_t ti = 0;
        double td = 0;
        T tm = x[0];
        for (unsigned k = 0; k < block; k++) {
            ti += (uint64_t)(int64_t)x[k];
            td += (double)x[k];
            tm = x[k] > tm ? x[k] : tm;
        }
        *total = op == OP_BLOCK_INC_MAX || op == OP_BLOCK_EXC_MAX ? tm : (T(0.5) != T(0) ? (T)td : (T)ti);
    }
    switch (op) {
    case OP_WARP_MAX: case OP_BLOCK_MAX: return mx;
    case OP_WARP_MIN: case OP_BLOCK_MIN: return mn;
    case OP_BLOCK_INC_MAX: return smax;
    case OP_BLOCK_EXC_MAX: return i == 0 ? std::numeric_limits<T>::lowest() : smax;
    default: return acc;
    }
}

template <typename T, unsigned BLOCK> static void run_type(const char *tname, climb_dtype dt)
{
    const unsigned blocks = 7;
    const size_t n = (size_t)blocks * BLOCK, nout = (size_t)blocks * (BLOCK + 1);
    T *hx = (T *)malloc(n * sizeof(T)), *hy = (T *)malloc(nout * sizeof(T));
    T *dx, *dy;
    EXPECT(cudaMalloc(&dx, n * sizeof(T)) == cudaSuccess && cudaMalloc(&dy, nout * sizeof(T)) == cudaSuccess);
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    double lo, hi;
    climb_dtype_full_range(dt, &lo, &hi);
    if (T(0.5) != T(0))
        lo = -100, hi = 100;
    for (int op = 0; op < N_OPS; op++) {
        climb_rng_fill(&rng, dt, hx, n, lo, hi);
        EXPECT(cudaMemcpy(dx, hx, n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(dy, 0xA5, nout * sizeof(T)) == cudaSuccess);
        primitives_kernel<T, BLOCK><<<blocks, BLOCK>>>(dx, dy, op);
        EXPECT(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT(cudaMemcpy(hy, dy, nout * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
        int bad = 0;
        for (unsigned b = 0; b < blocks && !bad; b++) {
            const T *x = hx + (size_t)b * BLOCK, *y = hy + (size_t)b * (BLOCK + 1);
            double abs_sum = 0;
            for (unsigned k = 0; k < BLOCK; k++)
                abs_sum += fabs(as_d(x[k]));
            const int block_reduce = op == OP_BLOCK_SUM || op == OP_BLOCK_MAX || op == OP_BLOCK_MIN;
            for (unsigned i = 0; i < (block_reduce ? 1u : BLOCK) && !bad; i++) {
                T total;
                T want = expect_of(x, BLOCK, i, op, op >= OP_BLOCK_INC ? &total : NULL);
                /* Float sums in tree order: within 32 rounding steps of sum |x| (float) or exactly for ints. */
                double tol = T(0.5) != T(0) ? 64 * abs_sum * (sizeof(T) == 4 ? 1.2e-7 : 2.3e-16) : 0;
                if (!(fabs(as_d(y[i]) - as_d(want)) <= tol)) {
                    fprintf(stderr, "%s %s block %u: thread %u got %.17g, expected %.17g\n", OP_NAMES[op], tname,
                            BLOCK, i, as_d(y[i]), as_d(want));
                    bad = 1;
                }
                if (op >= OP_BLOCK_INC && i == 0 && !(fabs(as_d(y[BLOCK]) - as_d(total)) <= tol)) {
                    fprintf(stderr, "%s %s block %u: total %.17g, expected %.17g\n", OP_NAMES[op], tname, BLOCK,
                            as_d(y[BLOCK]), as_d(total));
                    bad = 1;
                }
            }
        }
        EXPECT_MSG(!bad, "%s %s block %u", OP_NAMES[op], tname, BLOCK);
        checks_failed += bad;
    }
    cudaFree(dx);
    cudaFree(dy);
    free(hx);
    free(hy);
}

template <unsigned BLOCK> static void run_block()
{
    run_type<int, BLOCK>("int", CLIMB_I32);
    run_type<unsigned, BLOCK>("unsigned", CLIMB_U32);
    run_type<float, BLOCK>("float", CLIMB_F32);
    run_type<double, BLOCK>("double", CLIMB_F64);
}

/* Each block writes its slot, then the last one adds every slot and counts itself. */
__global__ void last_block_kernel(unsigned long long *slots, unsigned *ticket, unsigned long long *sum,
                                  unsigned *lasts)
{
    if (threadIdx.x == 0)
        slots[blockIdx.x] = blockIdx.x + 1ull;
    if (!climb_last_block(ticket))
        return;
    if (threadIdx.x == 0) {
        unsigned long long s = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            s += *(volatile unsigned long long *)&slots[b];
        *sum = s;
        atomicAdd(lasts, 1u);
        *ticket = 0;
    }
}

static void test_last_block(void)
{
    const unsigned grids[] = {1, 2, 131, 4096, 65535};
    unsigned long long *slots, *sum;
    unsigned *ticket, *lasts;
    EXPECT(cudaMalloc((void **)&slots, 65535 * 8) == cudaSuccess && cudaMalloc((void **)&sum, 8) == cudaSuccess);
    EXPECT(cudaMalloc((void **)&ticket, 4) == cudaSuccess && cudaMalloc((void **)&lasts, 4) == cudaSuccess);
    EXPECT(cudaMemset(ticket, 0, 4) == cudaSuccess);
    for (int k = 0; k < 5; k++)
        for (int rep = 0; rep < 3; rep++) {
            const unsigned g = grids[k];
            EXPECT(cudaMemset(slots, 0, 65535 * 8) == cudaSuccess && cudaMemset(lasts, 0, 4) == cudaSuccess);
            last_block_kernel<<<g, 128>>>(slots, ticket, sum, lasts);
            EXPECT(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
            unsigned long long got = 0;
            unsigned n_last = 0, left = 1;
            EXPECT(cudaMemcpy(&got, sum, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT(cudaMemcpy(&n_last, lasts, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT(cudaMemcpy(&left, ticket, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            EXPECT_MSG(n_last == 1 && got == (unsigned long long)g * (g + 1) / 2 && left == 0,
                       "grid %u: %u last blocks, sum %llu, ticket left at %u", g, n_last, got, left);
        }
    cudaFree(slots);
    cudaFree(sum);
    cudaFree(ticket);
    cudaFree(lasts);
}

/* Look-back: each block takes a tile by ticket, its aggregate from agg[tile], and writes the exclusive prefix the
 * primitive returns; a ladder of launches over one workspace, never reset between them. */
__global__ void lookback_kernel(const int *agg, int *prefix, char *ws, unsigned capacity)
{
    __shared__ unsigned s_tile, s_epoch;
    climb_lookback_hdr *h = (climb_lookback_hdr *)ws;
    unsigned long long *status = (unsigned long long *)(ws + CLIMB_LOOKBACK_HDR);
    if (threadIdx.x == 0)
        climb_lookback_ticket(h, gridDim.x, &s_tile, &s_epoch);
    __syncthreads();
    if (threadIdx.x < 32) {
        const int p = climb_lookback_prefix<int>(status, s_tile, s_epoch + 1, agg[s_tile]);
        if (threadIdx.x == 0)
            prefix[s_tile] = p;
    }
    climb_lookback_finish<64>(h, status, capacity, s_epoch, gridDim.x);
}

static void test_lookback(void)
{
    const unsigned tiles_max = 20000;
    int *agg, *prefix, *h_agg = (int *)malloc(tiles_max * 4), *h_got = (int *)malloc(tiles_max * 4);
    char *ws;
    const size_t ws_bytes = CLIMB_LOOKBACK_HDR + 8 * (size_t)tiles_max;
    EXPECT(cudaMalloc((void **)&agg, tiles_max * 4) == cudaSuccess && cudaMalloc((void **)&prefix, tiles_max * 4) ==
           cudaSuccess && cudaMalloc((void **)&ws, ws_bytes) == cudaSuccess);
    EXPECT(cudaMemset(ws, 0, ws_bytes) == cudaSuccess);
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    /* grids of 1, 2, 33 and up to 20000 tiles, one after another on one workspace; then across the epoch's wrap */
    const unsigned grids[] = {1, 2, 33, 20000, 7, 4096, 20000, 5, 20000};
    for (int k = 0; k < 9; k++) {
        const unsigned g = grids[k];
        if (k == 6) { /* the next launch is the last epoch: its last block clears every status word */
            const unsigned long long word = (unsigned long long)(CLIMB_LOOKBACK_EPOCHS - 1) << 32;
            EXPECT(cudaMemcpy(ws, &word, 8, cudaMemcpyHostToDevice) == cudaSuccess);
        }
        climb_rng_fill_i32(&r, h_agg, g, INT32_MIN, INT32_MAX);
        EXPECT(cudaMemcpy(agg, h_agg, g * 4, cudaMemcpyHostToDevice) == cudaSuccess);
        EXPECT(cudaMemset(prefix, 0xFF, tiles_max * 4) == cudaSuccess);
        lookback_kernel<<<g, 64>>>(agg, prefix, ws, tiles_max);
        EXPECT(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
        EXPECT(cudaMemcpy(h_got, prefix, g * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
        uint32_t run = 0;
        unsigned bad = 0;
        for (unsigned t = 0; t < g; t++) {
            bad += (uint32_t)h_got[t] != run;
            run += (uint32_t)h_agg[t];
        }
        unsigned long long hdr = 0;
        EXPECT(cudaMemcpy(&hdr, ws, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
        EXPECT_MSG(bad == 0, "look-back over %u tiles (launch %d): %u prefixes wrong", g, k, bad);
        EXPECT_MSG((unsigned)hdr == 0, "the ticket is left at %u", (unsigned)hdr);
        if (k == 6)
            EXPECT_MSG(hdr >> 32 == 0, "the epoch after the wrap is %llu", hdr >> 32);
    }
    cudaFree(agg);
    cudaFree(prefix);
    cudaFree(ws);
    free(h_agg);
    free(h_got);
}

/* Merge path against a sequential merge of the row ends with 0 .. nnz - 1, on the host and on the device. */
__global__ void merge_path_kernel(const int *e, int rows, int nnz, int *out)
{
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d <= rows + nnz)
        out[d] = climb_merge_path_search(e, rows, nnz, d);
}

static void test_merge_path(int on_gpu)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    for (int trial = 0; trial < 200; trial++) {
        const int rows = (int)climb_rng_range(&r, 0, trial < 100 ? 40 : 3000);
        int *e = (int *)malloc(sizeof(int) * (size_t)(rows + 1));
        int nnz = 0;
        for (int i = 0; i < rows; i++) { /* empty rows, short ones and a few long ones */
            nnz += climb_rng_range(&r, 0, 9) == 0 ? (int)climb_rng_range(&r, 50, 400) : (int)climb_rng_range(&r, 0, 3);
            e[i] = nnz;
        }
        /* the sequential merge: want[d] = row ends among the first d merged items */
        int *want = (int *)malloc(sizeof(int) * (size_t)(rows + nnz + 1)), a = 0, b = 0;
        for (int d = 0; d <= rows + nnz; d++) {
            want[d] = a;
            if (d == rows + nnz)
                break;
            if (a < rows && (b >= nnz || e[a] <= b))
                a++;
            else
                b++;
        }
        int bad = 0;
        for (int d = 0; d <= rows + nnz; d++)
            bad += climb_merge_path_search(e, rows, nnz, d) != want[d];
        EXPECT_MSG(bad == 0, "host merge path, %d rows, %d nonzeros: %d diagonals wrong", rows, nnz, bad);
        if (on_gpu && rows > 0) {
            int *de, *dout, *got = (int *)malloc(sizeof(int) * (size_t)(rows + nnz + 1));
            EXPECT(cudaMalloc((void **)&de, sizeof(int) * (size_t)rows) == cudaSuccess &&
                   cudaMalloc((void **)&dout, sizeof(int) * (size_t)(rows + nnz + 1)) == cudaSuccess);
            EXPECT(cudaMemcpy(de, e, sizeof(int) * (size_t)rows, cudaMemcpyHostToDevice) == cudaSuccess);
            merge_path_kernel<<<(rows + nnz + 1 + 255) / 256, 256>>>(de, rows, nnz, dout);
            EXPECT(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT(cudaMemcpy(got, dout, sizeof(int) * (size_t)(rows + nnz + 1), cudaMemcpyDeviceToHost) ==
                   cudaSuccess);
            bad = 0;
            for (int d = 0; d <= rows + nnz; d++)
                bad += got[d] != want[d];
            EXPECT_MSG(bad == 0, "device merge path, %d rows: %d diagonals wrong", rows, bad);
            cudaFree(de);
            cudaFree(dout);
            free(got);
        }
        free(e);
        free(want);
    }
}

/* The run of 32 that holds item k (climb_run_of32, climb_warp_run_of) against a walk over the runs, on the host and
 * on the device: runs of random lengths, many of them empty (the empty ones must never be named), every item and
 * the items past the total (31). */
struct host_ends {
    const int *e;
    int operator()(int i) const { return e[i]; }
};

__global__ void run_of_kernel(const int *len, int total, int *out)
{
    const int lane = threadIdx.x & 31;
    const int inc = climb_warp_inclusive_scan<climb_op_sum>(len[lane]);
    for (int k0 = 0; k0 < total + 32; k0 += 32) { /* every lane of the warp calls it, past the total too */
        const int b = climb_warp_run_of(inc, k0 + lane);
        if (k0 + lane < total + 32)
            out[k0 + lane] = b;
    }
}

static void test_run_of(int on_gpu)
{
    climb_rng r;
    climb_rng_seed(&r, climb_fresh_seed());
    for (int trial = 0; trial < 300; trial++) {
        int len[32], end[32], total = 0;
        for (int i = 0; i < 32; i++) { /* empty runs, short ones, long ones */
            const int kind = (int)climb_rng_range(&r, 0, 3);
            len[i] = kind == 0 ? 0 : kind == 1 ? (int)climb_rng_range(&r, 1, 4) : (int)climb_rng_range(&r, 5, 200);
            if (trial == 0) /* every run empty but the last */
                len[i] = i == 31 ? 7 : 0;
            if (trial == 1) /* only the first */
                len[i] = i == 0 ? 9 : 0;
            total += len[i];
            end[i] = total;
        }
        int *want = (int *)malloc(sizeof(int) * (size_t)(total + 32)), bad = 0;
        for (int i = 0, k = 0; i < 32; i++)
            for (int j = 0; j < len[i]; j++)
                want[k++] = i;
        for (int k = total; k < total + 32; k++)
            want[k] = 31;
        const host_ends he = {end};
        for (int k = 0; k < total + 32; k++)
            bad += climb_run_of32(he, k) != want[k];
        EXPECT_MSG(bad == 0, "host run search, %d items: %d wrong", total, bad);
        if (on_gpu) {
            int *dlen, *dout, *got = (int *)malloc(sizeof(int) * (size_t)(total + 32));
            EXPECT(cudaMalloc((void **)&dlen, sizeof len) == cudaSuccess &&
                   cudaMalloc((void **)&dout, sizeof(int) * (size_t)(total + 32)) == cudaSuccess);
            EXPECT(cudaMemcpy(dlen, len, sizeof len, cudaMemcpyHostToDevice) == cudaSuccess);
            EXPECT(cudaMemset(dout, 0xFF, sizeof(int) * (size_t)(total + 32)) == cudaSuccess);
            run_of_kernel<<<1, 32>>>(dlen, total, dout);
            EXPECT(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
            EXPECT(cudaMemcpy(got, dout, sizeof(int) * (size_t)(total + 32), cudaMemcpyDeviceToHost) == cudaSuccess);
            bad = 0;
            for (int k = 0; k < total + 32; k++)
                bad += got[k] != want[k];
            EXPECT_MSG(bad == 0, "warp run search, %d items: %d wrong", total, bad);
            cudaFree(dlen);
            cudaFree(dout);
            free(got);
        }
        free(want);
    }
}

extern "C" int main(void) /* C linkage: climb-tests calls it from C as climb_test_main_test_gpu_primitives */
{
    test_merge_path(0); /* the host halves run where there is no GPU too, and their failure is a failure there */
    test_run_of(0);
    if (test_failures)
        return test_finish("test_gpu_primitives");
    test_require_gpu();
    test_merge_path(1);
    test_run_of(1);
    test_lookback();
    test_last_block();
    run_block<32>();
    run_block<64>();
    run_block<96>();
    run_block<256>();
    run_block<1024>();
    /* The test can fail: a wrong expectation is caught (a sum checked as if it were a max). */
    {
        int x[32];
        for (int i = 0; i < 32; i++)
            x[i] = i;
        EXPECT(expect_of<int>(x, 32, 0, OP_WARP_SUM, NULL) == 496 && expect_of<int>(x, 32, 0, OP_WARP_MAX, NULL) == 31);
    }
    printf("primitives: %d op/type/block combinations wrong\n", checks_failed);
    return test_finish("test_gpu_primitives");
}
