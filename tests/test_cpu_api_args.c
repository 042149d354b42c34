/* The C API under hostile arguments, on the CPU: every call on a handle made without the runtime
 * (climb_handle_offline), the runtime answered by the counting shim offline (tests/cuda_shim.h: the addresses below
 * 2^44 + 2^46 are device memory, nothing else is; any work fails with cudaErrorNoDevice). Each case asserts the exact
 * status and what the call asked of the runtime:
 *  - REFUSED0: INVALID_VALUE with no runtime call at all (a size, limit, flag, product, extent or overlap: checked
 *    before any pointer is looked at; a NULL or misaligned first pointer too, refused before its query);
 *  - REFUSED: INVALID_VALUE with no call but the pointer and error-state queries (a pointer the device cannot reach,
 *    or a NULL or misaligned one after another pointer's query);
 *  - EMPTY: SUCCESS with no runtime call (an empty problem: its pointers not looked at);
 *  - ACCEPTED: the checks passed, so the call went on to its first piece of work, which failed offline:
 *    CLIMB_STATUS_NO_DEVICE. A limit is tested at its value (ACCEPTED) and one past it (REFUSED0).
 * A host arena registered as device memory must hold its pattern after every call (nothing is written from the
 * host), and the calls' host outputs (*plan, *tree, *p) must say what the header promises. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "climb.h"
#include "cuda_shim.h"
#include "lib/handle.h"
#include "testing.h"

/* Device memory as the shim answers it: [DEV_BASE, DEV_BASE + DEV_BYTES), not backed (nothing reads it). */
#define DEV_BASE ((uintptr_t)1 << 44)
#define DEV_BYTES ((uintptr_t)1 << 46)
#define D(off) ((void *)(DEV_BASE + (uintptr_t)(off)))
#define GB ((size_t)1 << 30)

static unsigned char arena[1 << 16]; /* host memory registered as device memory too: its bytes must not change */
static unsigned char host_only[64];  /* host memory the device cannot reach */

static void expect_call(climb_status st, climb_status want, int line, const char *text, int allowed)
{
    const long calls = climb_shim_calls(), work = climb_shim_work_calls();
    test_checks++;
    int ok = st == want;
    if (allowed == 0) /* REFUSED0, EMPTY: nothing at all */
        ok = ok && calls == 0;
    else if (allowed == 1) /* REFUSED: queries of pointers and of the error state only */
        ok = ok && work == 0;
    else /* ACCEPTED: it went on to work */
        ok = ok && work > 0;
    for (size_t i = 0; i < sizeof arena; i++)
        ok = ok && arena[i] == 0xA5;
    if (!ok) {
        test_failures++;
        fprintf(stderr, "test_cpu_api_args.c:%d: %s: status %d (%s), expected %d; runtime calls: %s\n", line, text,
                (int)st, climb_status_string(st), (int)want, climb_shim_log()[0] ? climb_shim_log() : "none");
    }
}

#define RUN(call, want, allowed)                                                                               \
    do {                                                                                                       \
        climb_shim_reset();                                                                                    \
        const climb_status st_ = (call);                                                                       \
        expect_call(st_, want, __LINE__, #call, allowed);                                                      \
    } while (0)
#define REFUSED0(call) RUN(call, CLIMB_STATUS_INVALID_VALUE, 0)
#define REFUSED(call) RUN(call, CLIMB_STATUS_INVALID_VALUE, 1)
#define EMPTY(call) RUN(call, CLIMB_STATUS_SUCCESS, 0)
#define ACCEPTED(call) RUN(call, CLIMB_STATUS_NO_DEVICE, 2)

static void reduce_scan_histogram(climb_handle h)
{
    int32_t *a = (int32_t *)arena;
    /* reduce: d_out must not lie in d_in; any n; n == 0 still writes d_out */
    REFUSED0(climb_reduce_sum_i32(NULL, D(0), 1, D(64)));
    REFUSED0(climb_reduce_sum_i32(h, D(0), 1, NULL));
    REFUSED0(climb_reduce_sum_i32(h, D(0), 16, D(32)));           /* out inside in */
    REFUSED0(climb_reduce_sum_f32(h, D(0), SIZE_MAX / 2, D(0)));  /* n x 4 wraps */
    REFUSED(climb_reduce_sum_f32(h, D(2), 4, D(4096)));          /* misaligned input */
    REFUSED(climb_reduce_sum_i32(h, (int32_t *)host_only, 4, D(4096)));
    REFUSED(climb_reduce_sum_i32(h, D(0), 4, (int32_t *)host_only));
    ACCEPTED(climb_reduce_sum_i32(h, D(0), (size_t)1 << 40, D((size_t)1 << 43)));
    ACCEPTED(climb_reduce_sum_f32(h, NULL, 0, D(0)));
    ACCEPTED(climb_reduce_sum_i32(h, a, 16, a + 16)); /* the arena as device memory: accepted, never written */

    /* scan: n up to 2^40; in place allowed, other overlaps not */
    const size_t top = (size_t)1 << 40;
    REFUSED0(climb_scan_inclusive_i32(h, D(0), top + 1, D((size_t)1 << 43)));
    ACCEPTED(climb_scan_inclusive_i32(h, D(0), top, D((size_t)1 << 43)));
    ACCEPTED(climb_scan_exclusive_f32(h, D(0), 1000, D(0)));     /* in place */
    REFUSED0(climb_scan_exclusive_f32(h, D(0), 1000, D(4)));     /* a partial overlap */
    REFUSED0(climb_scan_inclusive_f32(h, D(0), 1000, D(3996)));  /* the last element shared */
    ACCEPTED(climb_scan_inclusive_f32(h, D(0), 1000, D(4000)));  /* adjacent */
    REFUSED0(climb_scan_inclusive_i32(h, D(1), 10, D(4096)));
    REFUSED(climb_scan_inclusive_i32(h, (int32_t *)host_only, 10, D(4096)));
    EMPTY(climb_scan_inclusive_i32(h, NULL, 0, NULL));
    REFUSED0(climb_scan_inclusive_i32(NULL, NULL, 0, NULL));
    REFUSED0(climb_scan_inclusive_i32(h, NULL, 1, D(0)));

    /* histogram: bins 1 to 256, n below 2^32 - 1, counts apart from the input */
    REFUSED0(climb_histogram_u8(h, D(0), 100, 0, D(4096)));
    REFUSED0(climb_histogram_u8(h, D(0), 100, 257, D(4096)));
    ACCEPTED(climb_histogram_u8(h, D(0), 100, 1, D(4096)));
    ACCEPTED(climb_histogram_u8(h, D(0), 100, 256, D(4096)));
    REFUSED0(climb_histogram_u8(h, D(0), (size_t)UINT32_MAX, 256, D((size_t)1 << 40)));
    ACCEPTED(climb_histogram_u8(h, D(0), (size_t)UINT32_MAX - 1, 256, D((size_t)1 << 40)));
    REFUSED0(climb_histogram_u8(h, D(0), 100, 256, D(96)));     /* counts over the input */
    ACCEPTED(climb_histogram_u8(h, NULL, 0, 256, D(4096)));     /* n == 0 writes zeros */
    REFUSED(climb_histogram_u8(h, NULL, 1, 256, D(4096)));
    REFUSED0(climb_histogram_u8(h, D(0), 100, 256, D(4098)));   /* misaligned counts */
}

static void spmv(climb_handle h)
{
    climb_spmv_plan plan = (climb_spmv_plan)&plan;
    const int max = 2147483646;
    REFUSED0(climb_spmv_plan_create(h, -1, 4, 0, D(0), D(4096), D(8192), 0, &plan));
    EXPECT(plan == NULL); /* set to NULL first */
    plan = (climb_spmv_plan)&plan;
    REFUSED0(climb_spmv_plan_create(h, 4, 4, -1, D(0), D(4096), D(8192), 0, &plan));
    EXPECT(plan == NULL);
    REFUSED0(climb_spmv_plan_create(h, max + 1, 4, 0, D(0), D(4096), D(8192), 0, &plan));
    REFUSED0(climb_spmv_plan_create(h, 4, max + 1, 0, D(0), D(4096), D(8192), 0, &plan));
    ACCEPTED(climb_spmv_plan_create(h, max, max, 10, D(0), D(GB * 16), D(GB * 32), 0, &plan));
    EXPECT(plan == NULL);
    REFUSED0(climb_spmv_plan_create(h, 4, 4, 4, D(0), D(4096), D(8192), 4u, &plan)); /* an unknown flag */
    ACCEPTED(climb_spmv_plan_create(h, 4, 4, 4, D(0), D(4096), D(8192), CLIMB_SPMV_VALIDATE | CLIMB_SPMV_NO_TRIAL,
                                    &plan));
    REFUSED0(climb_spmv_plan_create(h, 4, 4, 4, D(0), D(4096), D(8192), 0, NULL));
    REFUSED0(climb_spmv_plan_create(h, 4, 4, 4, NULL, D(4096), D(8192), 0, &plan));
    REFUSED(climb_spmv_plan_create_f64(h, 4, 4, 4, D(0), D(4096), D(8196), 0, &plan)); /* f64 values 4-aligned */
    ACCEPTED(climb_spmv_plan_create(h, 4, 4, 0, D(0), NULL, NULL, 0, &plan)); /* no nonzeros: no columns needed */
    REFUSED(climb_spmv_plan_create(h, 4, 4, 4, (const int32_t *)host_only, D(4096), D(8192), 0, &plan));
    size_t bytes;
    REFUSED0(climb_spmv_plan_bytes(NULL, &bytes));
    REFUSED0(climb_spmv(h, NULL, 1.0f, D(0), 0.0f, D(4096)));
    EXPECT(climb_spmv_plan_destroy(NULL) == CLIMB_STATUS_SUCCESS);
}

static void dense(climb_handle h)
{
    /* transpose: ld_in >= cols, ld_out >= rows; ceil(rows / 32) ceil(cols / 32) below 2^31; no overlap */
    const size_t big = (size_t)32 * 2147483647u;
    REFUSED0(climb_transpose_f32(h, 4, 8, D(0), 7, D(4096), 4));
    REFUSED0(climb_transpose_f32(h, 4, 8, D(0), 8, D(4096), 3));
    REFUSED0(climb_transpose_f32(h, 0, 8, NULL, 7, NULL, 0));    /* a leading dimension is checked when empty too */
    EMPTY(climb_transpose_f32(h, 0, 8, NULL, 8, NULL, 0));
    EMPTY(climb_transpose_f64(h, 8, 0, NULL, 0, NULL, 8));
    ACCEPTED(climb_transpose_f32(h, big, 32, D(0), 32, D((size_t)1 << 44), big));
    REFUSED0(climb_transpose_f32(h, big + 1, 32, D(0), 32, D((size_t)1 << 44), big + 1));
    REFUSED0(climb_transpose_f32(h, (size_t)1 << 20, (size_t)1 << 20, D(0), (size_t)1 << 50, D(GB), (size_t)1 << 20));
    REFUSED0(climb_transpose_f32(h, 64, 64, D(0), 64, D(64 * 64 * 4 - 4), 64)); /* the last element shared */
    ACCEPTED(climb_transpose_f32(h, 64, 64, D(0), 64, D(64 * 64 * 4), 64));
    REFUSED0(climb_transpose_f64(h, 64, 64, D(4), 64, D(GB), 64));
    REFUSED(climb_transpose_f32(h, 4, 4, (const float *)host_only, 4, D(GB), 4));

    /* conv2d: radius 1 to 4, a host mask, ld >= cols, rows and cols below 2^31, ceil(rows/16) ceil(cols/32) < 2^31 */
    float mask[81] = {0};
    REFUSED0(climb_conv2d_f32(h, 64, 64, D(0), 64, mask, 0, D(GB), 64));
    REFUSED0(climb_conv2d_f32(h, 64, 64, D(0), 64, mask, 5, D(GB), 64));
    REFUSED0(climb_conv2d_f32(h, 64, 64, D(0), 64, NULL, 2, D(GB), 64));
    REFUSED0(climb_conv2d_f32(h, 0, 64, NULL, 64, mask, 5, NULL, 64)); /* the radius is checked when empty too */
    EMPTY(climb_conv2d_f32(h, 0, 64, NULL, 64, mask, 2, NULL, 64));
    REFUSED0(climb_conv2d_f32(h, 64, 64, D(0), 63, mask, 2, D(GB), 64));
    REFUSED0(climb_conv2d_f32(h, (size_t)1 << 31, 4, D(0), 4, mask, 2, D(GB * 64), 4));
    ACCEPTED(climb_conv2d_f32(h, 2147483647u, 480, D(0), 480, mask, 4, D(GB * 8192), 480));
    REFUSED0(climb_conv2d_f32(h, 2147483647u, 512, D(0), 512, mask, 4, D(GB * 8192), 512));
    REFUSED0(climb_conv2d_f32(h, 64, 64, D(0), 64, mask, 2, D(64 * 64 * 4 - 256), 64));
    REFUSED(climb_conv2d_f32(h, 64, 64, D(0), 64, mask, 2, D(GB + 2), 64));

    /* stencil: coeffs in host memory; each size below 2^31, ceil(nx/32) ceil(ny/4) ceil(nz/8) below 2^31 */
    const float c[7] = {0.4f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f};
    REFUSED0(climb_stencil7_f32(h, 8, 8, 8, NULL, D(0), D(GB)));
    REFUSED0(climb_stencil7_f32(h, 0, 8, 8, NULL, NULL, NULL));   /* the coefficients are checked when empty too */
    EMPTY(climb_stencil7_f32(h, 0, 8, 8, c, NULL, NULL));
    REFUSED0(climb_stencil7_f32(h, (size_t)1 << 31, 1, 1, c, D(0), D(GB * 16)));
    ACCEPTED(climb_stencil7_f32(h, 2147483647u, 1, 1, c, D(0), D(GB * 16)));
    ACCEPTED(climb_stencil7_f32(h, 32, (size_t)4 << 16, ((size_t)8 << 15) - 8, c, D(0), D(GB * 8192)));
    REFUSED0(climb_stencil7_f32(h, 32, (size_t)4 << 16, (size_t)8 << 15, c, D(0), D(GB * 8192)));
    REFUSED0(climb_stencil7_f32(h, 8, 8, 8, c, D(0), D(8 * 8 * 8 * 4 - 4)));
    REFUSED(climb_stencil7_f32(h, 8, 8, 8, c, (const float *)host_only, D(GB)));

    /* sgemm: sizes and leading dimensions below 2^31; op's shapes; C apart from A and B unless alpha is 0 */
    const size_t m31 = (size_t)1 << 31;
    REFUSED0(climb_sgemm(h, (climb_operation)2, CLIMB_OP_N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 4));
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, m31, 4, 4, 1, D(0), 4, D(GB * 64), 4, 0, D(GB * 128), 4));
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 1, D(0), 3, D(4096), 4, 0, D(GB), 4));   /* lda < k */
    REFUSED0(climb_sgemm(h, CLIMB_OP_T, CLIMB_OP_N, 8, 4, 4, 1, D(0), 7, D(4096), 4, 0, D(GB), 4));   /* lda < m */
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_T, 4, 8, 4, 1, D(0), 4, D(4096), 3, 0, D(GB), 8));   /* ldb < k */
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 3));   /* ldc < n */
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(60), 4));   /* C over A */
    ACCEPTED(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 0, D(0), 4, D(4096), 4, 0, D(60), 4));   /* alpha 0 */
    ACCEPTED(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 0, NULL, 4, NULL, 4, 1, D(60), 4));
    EMPTY(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4));
    ACCEPTED(climb_sgemm(h, CLIMB_OP_T, CLIMB_OP_T, m31 - 1, 4, 4, 1, D(0), m31 - 1, D(GB * 64), 4, 0, D(GB * 128),
                         4));
    /* an A whose end wraps the address space */
    REFUSED0(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 1024, 4, 1024, 1, (const float *)(UINTPTR_MAX - 4095), 1024,
                         D(4096), 4, 0, D(GB), 4));
    REFUSED(climb_sgemm(h, CLIMB_OP_N, CLIMB_OP_N, 4, 4, 4, 1, (const float *)host_only, 4, D(4096), 4, 0, D(GB), 4));

    /* gemm_ex: the mode; sizes and leading dimensions below 2^31 and op's shapes as sgemm's, in the mode's element
     * size (BF16: 2 bytes, so a C 2 bytes an element past A's end no longer overlaps it); the 128 x 128 tiles below
     * 2^31; the FP32 mode is climb_sgemm's own checks */
    const climb_gemm_compute BF = CLIMB_GEMM_BF16, X3 = CLIMB_GEMM_3XTF32, TF = CLIMB_GEMM_TF32;
    const climb_operation N = CLIMB_OP_N, T = CLIMB_OP_T;
    REFUSED0(climb_gemm_ex(h, (climb_gemm_compute)4, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 4));
    REFUSED0(climb_gemm_ex(h, (climb_gemm_compute)-1, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 4));
    REFUSED0(climb_gemm_ex(h, BF, (climb_operation)2, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 4));
    REFUSED0(climb_gemm_ex(h, X3, N, N, m31, 4, 4, 1, D(0), 4, D(GB * 64), 4, 0, D(GB * 128), 4));
    REFUSED0(climb_gemm_ex(h, TF, N, N, 4, 4, 4, 1, D(0), 3, D(4096), 4, 0, D(GB), 4));  /* lda < k */
    REFUSED0(climb_gemm_ex(h, BF, T, N, 8, 4, 4, 1, D(0), 7, D(4096), 4, 0, D(GB), 4));  /* lda < m */
    REFUSED0(climb_gemm_ex(h, BF, N, T, 4, 8, 4, 1, D(0), 4, D(4096), 3, 0, D(GB), 8));  /* ldb < k */
    REFUSED0(climb_gemm_ex(h, X3, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(GB), 3));  /* ldc < n */
    REFUSED0(climb_gemm_ex(h, X3, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(60), 4));  /* C over FP32 A */
    REFUSED0(climb_gemm_ex(h, BF, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(28), 4));  /* C over BF16 A */
    ACCEPTED(climb_gemm_ex(h, BF, N, N, 4, 4, 4, 1, D(0), 4, D(4096), 4, 0, D(32), 4));  /* just past it */
    ACCEPTED(climb_gemm_ex(h, TF, N, N, 4, 4, 4, 0, D(0), 4, D(4096), 4, 0, D(60), 4));  /* alpha 0: A, B unread */
    ACCEPTED(climb_gemm_ex(h, X3, T, T, 4, 4, 4, 0, NULL, 4, NULL, 4, 1, D(60), 4));
    EMPTY(climb_gemm_ex(h, BF, N, N, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4));
    EMPTY(climb_gemm_ex(h, X3, T, N, 4, 0, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4));
    ACCEPTED(climb_gemm_ex(h, BF, T, T, 300, 200, 100, 1, D(0), 300, D(GB), 100, 0.5f, D(GB * 2), 200));
    /* tiles: 2^31 - 1 rows by 2^17 columns is 2^24 x 2^10 tiles, past 2^31 */
    REFUSED0(climb_gemm_ex(h, BF, N, N, m31 - 1, (size_t)1 << 17, 4, 1, D(0), 4, D(GB * 64), (size_t)1 << 17, 0,
                           D(GB * 128), (size_t)1 << 17));
    REFUSED0(climb_gemm_ex(h, X3, N, N, 1024, 4, 1024, 1, (const float *)(UINTPTR_MAX - 4095), 1024, D(4096), 4, 0,
                           D(GB), 4));
    REFUSED(climb_gemm_ex(h, TF, N, N, 4, 4, 4, 1, host_only, 4, D(4096), 4, 0, D(GB), 4));
    /* FP32: climb_sgemm's checks (lda < k) */
    REFUSED0(climb_gemm_ex(h, CLIMB_GEMM_FP32, N, N, 4, 4, 4, 1, D(0), 3, D(4096), 4, 0, D(GB), 4));
}

static climb_conv_layer_desc layer(int n, int c, int hh, int w, int k, int r, int s, int sh, int sw, int ph, int pw)
{
    climb_conv_layer_desc d = {n, c, hh, w, k, r, s, sh, sw, ph, pw};
    return d;
}

static void cnn(climb_handle h)
{
    int p = -7, q = -7;
    climb_conv_layer_desc d = layer(2, 3, 32, 30, 8, 3, 5, 2, 1, 1, 2);
    EXPECT(climb_conv_output_size(&d, &p, &q) == CLIMB_STATUS_SUCCESS && p == 16 && q == 30);
    d = layer(1, 1, 4, 4, 1, 7, 7, 1, 1, 0, 0); /* the filter past the image: an empty output */
    EXPECT(climb_conv_output_size(&d, &p, &q) == CLIMB_STATUS_SUCCESS && p == 0 && q == 0);
    EMPTY(climb_conv_forward_f32(h, &d, NULL, NULL, NULL));
    const climb_conv_layer_desc bad[] = {
        layer(1, 1, 8, 8, 1, 3, 3, 1, 1, 1 << 30, 0),          /* the trial's pad: P would wrap */
        layer(1, 1, 8, 8, 1, 3, 3, 1, 1, (1 << 29) - 3, 0),    /* h + 2 pad_h = 2^30 + 2 */
        layer(1, 1, 8, 8, 1, 3, 3, 1, 1, -1, 0),
        layer(1, 1, 8, 8, 1, 3, 3, 1, 1, 0, INT_MIN),
        layer(1, 1, 8, 8, 1, 3, 3, 0, 1, 0, 0),
        layer(1, 1, 8, 8, 1, 3, 3, 1, -2, 0, 0),
        layer(1, 1, 8, 8, 1, 0, 3, 1, 1, 0, 0),
        layer(-1, 1, 8, 8, 1, 3, 3, 1, 1, 0, 0),
        layer(1, 1, 1, 1 << 30, 1, 1, 1, 1, 1, 0, 0),          /* x of 2^30 elements */
        layer(1 << 16, 1 << 14, 1, 1, 1, 1, 1, 1, 1, 0, 0),     /* x of 2^30 elements as n c */
        layer(1, 1 << 12, 1, 1, 1 << 18, 1, 1, 1, 1, 0, 0),     /* w of 2^30 elements */
        layer(1 << 15, 1, 1, 1, 1 << 15, 1, 1, 1, 1, 0, 0),     /* y of 2^30 elements */
        layer(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1, 1, 1, 1, 1, 0, 0), /* a product that wraps 64 bits */
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        p = q = -7;
        test_checks++;
        if (climb_conv_output_size(&bad[i], &p, &q) != CLIMB_STATUS_INVALID_VALUE || p != -7 || q != -7) {
            test_failures++;
            fprintf(stderr, "test_cpu_api_args.c: bad layer %d: climb_conv_output_size did not refuse it\n", i);
        }
        REFUSED0(climb_conv_forward_f32(h, &bad[i], D(0), D(GB), D(GB * 8)));
    }
    /* at the limits: 2^30 - 1 elements, a padded side of 2^30 - 1, a stride past the image */
    const climb_conv_layer_desc good[] = {
        layer(1, 1, 1, (1 << 30) - 1, 1, 1, 1, 1, 1, 0, 0),
        layer(1, 1, 1, 1, 1, 1, 1, 1, 1, (1 << 29) - 1, 0),
        layer(1, 1, 8, 8, 1, 3, 3, INT_MAX, INT_MAX, 0, 0),
        layer(1, 1, (1 << 29) - 1, 1, 1, 1, 1, 1 << 20, 1, (1 << 28), 0),
    };
    for (int i = 0; i < (int)(sizeof good / sizeof good[0]); i++) {
        EXPECT(climb_conv_output_size(&good[i], &p, &q) == CLIMB_STATUS_SUCCESS && p > 0 && q > 0);
        ACCEPTED(climb_conv_forward_f32(h, &good[i], D(0), D(GB * 8), D(GB * 16)));
    }
    EXPECT(climb_conv_output_size(&good[2], &p, &q) == CLIMB_STATUS_SUCCESS && p == 1 && q == 1);
    EXPECT(climb_conv_output_size(NULL, &p, &q) == CLIMB_STATUS_INVALID_VALUE);
    d = layer(1, 2, 8, 8, 2, 3, 3, 1, 1, 1, 1);
    EXPECT(climb_conv_output_size(&d, NULL, &q) == CLIMB_STATUS_INVALID_VALUE);
    REFUSED0(climb_conv_forward_f32(h, NULL, D(0), D(GB), D(GB * 8)));
    REFUSED0(climb_conv_forward_f32(h, &d, D(0), D(GB), D(0)));            /* y over x */
    REFUSED0(climb_conv_forward_f32(h, &d, D(0), D(GB), D(GB + 64)));      /* y over w */
    REFUSED0(climb_conv_forward_f32(h, &d, D(0), D(GB), NULL));
    REFUSED(climb_conv_forward_f32(h, &d, D(0), NULL, D(GB * 8))); /* no filters */
    REFUSED(climb_conv_forward_f32(h, &d, (const float *)host_only, D(GB), D(GB * 8)));
    ACCEPTED(climb_conv_forward_f32(h, &d, D(0), D(GB), D(GB * 8)));
    /* the conv plan: a layer the call takes, a place for the plan (set to NULL first), reachable filters */
    climb_conv_plan cp = (climb_conv_plan)&cp;
    REFUSED0(climb_conv_plan_create(h, &bad[0], D(GB), &cp));
    EXPECT(cp == NULL);
    REFUSED0(climb_conv_plan_create(h, NULL, D(GB), &cp));
    REFUSED0(climb_conv_plan_create(h, &d, D(GB), NULL));
    REFUSED0(climb_conv_plan_create(NULL, &d, D(GB), &cp));
    REFUSED0(climb_conv_plan_create(h, &d, D(2), &cp)); /* misaligned filters */
    REFUSED(climb_conv_plan_create(h, &d, (const float *)host_only, &cp));
    REFUSED(climb_conv_plan_create(h, &d, NULL, &cp));
    const climb_conv_layer_desc wino = layer(1, 16, 8, 8, 16, 3, 3, 1, 1, 1, 1); /* Winograd's path */
    ACCEPTED(climb_conv_plan_create(h, &wino, D(GB), &cp));
    EXPECT(cp == NULL);
    /* the implicit GEMM's path: nothing transformed, a plan without device memory, y checked against x and w */
    size_t cb = 1;
    EXPECT(climb_conv_plan_create(h, &d, D(GB), &cp) == CLIMB_STATUS_SUCCESS && cp);
    EXPECT(climb_conv_plan_bytes(cp, &cb) == CLIMB_STATUS_SUCCESS && cb == 0);
    REFUSED0(climb_conv_forward_plan_f32(h, cp, D(0), D(0)));       /* y over x */
    REFUSED0(climb_conv_forward_plan_f32(h, cp, D(0), D(GB + 64))); /* y over w */
    REFUSED0(climb_conv_forward_plan_f32(h, cp, D(0), NULL));
    REFUSED(climb_conv_forward_plan_f32(h, cp, (const float *)host_only, D(GB * 8)));
    ACCEPTED(climb_conv_forward_plan_f32(h, cp, D(0), D(GB * 8)));
    EMPTY(climb_conv_plan_destroy(cp));
    REFUSED0(climb_conv_plan_bytes(NULL, &cb));
    REFUSED0(climb_conv_forward_plan_f32(h, NULL, D(0), D(GB * 8)));
    REFUSED0(climb_conv_forward_plan_f32(NULL, NULL, D(0), D(GB * 8)));
    EMPTY(climb_conv_plan_destroy(NULL));
}

static void coulomb(climb_handle h)
{
    climb_lattice_desc l = {64, 64, 64, 0.5f, {0, 0, 0}, 1.0f};
    ACCEPTED(climb_coulomb_dcs_f32(h, D(0), 100, &l, D(GB)));
    ACCEPTED(climb_coulomb_cutoff_f32(h, D(0), 100, &l, 12.0f, D(GB)));
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, NULL, D(GB)));
    REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, NULL, 12.0f, D(GB)));
    const float bad_f[] = {0.0f, -1.0f, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        climb_lattice_desc b = l;
        b.spacing = bad_f[i];
        REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
        b = l;
        b.origin[i % 3] = i < 2 ? NAN : -INFINITY;
        REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 12.0f, D(GB)));
        REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &l, i ? bad_f[i] : 1.0f, D(GB))); /* cutoff <= exclusion */
    }
    climb_lattice_desc b = l;
    b.exclusion = 0.00099f;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    b.exclusion = 0.001f;
    ACCEPTED(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    /* dcs: nx and n_atoms below 2^31, ny and nz below 65536 */
    b = l;
    b.nx = 2147483647u;
    b.ny = b.nz = 1;
    ACCEPTED(climb_coulomb_dcs_f32(h, D(0), 2147483647u, &b, D(GB * 64)));
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 2147483648u, &b, D(GB * 64)));
    b.nx = 2147483648u;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB * 64)));
    b = l;
    b.ny = 65535;
    ACCEPTED(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    b.ny = 65536;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    b = l;
    b.nz = 65536;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    /* the trial's 2^32 x 2^32 x 1 lattice, and one whose points fit size_t but whose bytes do not */
    b = l;
    b.nx = (size_t)1 << 32;
    b.ny = (size_t)1 << 32;
    b.nz = 1;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 12.0f, D(GB)));
    b.nx = 2147483647u;
    b.ny = b.nz = 65535;
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &b, D(GB)));
    /* cutoff: ny and nz at most 524280 (the trial's 524281 .. 524287 now refused, as the header says) */
    b = l;
    b.nx = 8;
    b.nz = 8;
    b.spacing = 1.0f;
    b.ny = 524280;
    ACCEPTED(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 4.0f, D(GB)));
    b.ny = 524281;
    REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 4.0f, D(GB)));
    b.ny = 8;
    b.nz = 524288;
    REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 4.0f, D(GB)));
    /* more than 2^28 bins: refused, an empty lattice too (its description is checked first) */
    b = l;
    b.nx = 2147483647u;
    b.ny = 8;
    b.nz = 8;
    b.spacing = 1.0f;
    REFUSED0(climb_coulomb_cutoff_f32(h, D(0), 100, &b, 4.0f, D(GB * 64)));
    b.ny = 0;
    REFUSED0(climb_coulomb_cutoff_f32(h, NULL, 0, &b, 4.0f, NULL));
    b = l;
    b.nz = 0;
    EMPTY(climb_coulomb_dcs_f32(h, NULL, 100, &b, NULL));
    EMPTY(climb_coulomb_cutoff_f32(h, NULL, 100, &b, 12.0f, NULL));
    /* the lattice over the atoms; misaligned atoms; atoms in host memory */
    REFUSED0(climb_coulomb_dcs_f32(h, D(0), 100, &l, D(1024)));
    REFUSED0(climb_coulomb_cutoff_f32(h, D(GB), 100, &l, 12.0f, D(GB - 64)));
    REFUSED(climb_coulomb_dcs_f32(h, D(8), 100, &l, D(GB)));
    REFUSED(climb_coulomb_dcs_f32(h, (const float *)host_only, 1, &l, D(GB)));
    ACCEPTED(climb_coulomb_dcs_f32(h, NULL, 0, &l, D(GB))); /* no atoms: zeros */
}

static void mriq(climb_handle h)
{
    const size_t s = 1000, v = 4096;
#define K D(0), D(4096), D(8192), D(12288), D(16384)
#define XYZ D(GB), D(2 * GB), D(3 * GB)
    ACCEPTED(climb_mriq_f32(h, s, K, v, XYZ, D(4 * GB), D(5 * GB)));
    REFUSED0(climb_mriq_f32(h, (size_t)1 << 31, K, v, XYZ, D(4 * GB), D(5 * GB)));
    REFUSED0(climb_mriq_f32(h, s, K, (size_t)1 << 31, XYZ, D(40 * GB), D(50 * GB)));
    ACCEPTED(climb_mriq_f32(h, s, K, 2147483647u, D(10 * GB), D(20 * GB), D(30 * GB), D(40 * GB), D(50 * GB)));
    REFUSED0(climb_mriq_f32(h, s, K, v, XYZ, D(4 * GB), D(4 * GB + 64)));     /* Qi over Qr */
    REFUSED0(climb_mriq_f32(h, s, K, v, XYZ, D(GB + 64), D(5 * GB)));        /* Qr over x */
    REFUSED0(climb_mriq_f32(h, s, K, v, XYZ, D(4 * GB), D(12288)));          /* Qi over kz */
    REFUSED(climb_mriq_f32(h, s, K, v, XYZ, NULL, D(5 * GB)));
    REFUSED(climb_mriq_f32(h, s, K, v, D(GB + 2), D(2 * GB), D(3 * GB), D(4 * GB), D(5 * GB)));
    ACCEPTED(climb_mriq_f32(h, 0, NULL, NULL, NULL, NULL, NULL, v, XYZ, D(4 * GB), D(5 * GB)));
    REFUSED0(climb_mriq_f32(h, s, NULL, D(4096), D(8192), D(12288), D(16384), v, XYZ, D(4 * GB), D(5 * GB)));
    EMPTY(climb_mriq_f32(h, s, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL));
    REFUSED0(climb_mriq_f32(h, (size_t)1 << 31, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL));
    REFUSED(climb_mriq_f32(h, s, K, v, (const float *)host_only, D(2 * GB), D(3 * GB), D(4 * GB), D(5 * GB)));
#undef K
#undef XYZ
}

static void sort_bezier_quadtree_bfs(climb_handle h)
{
    /* sort: n up to 2^31 - 1; keys and values apart */
    REFUSED0(climb_sort_u32(h, D(0), (size_t)1 << 31));
    ACCEPTED(climb_sort_u32(h, D(0), 2147483647u));
    ACCEPTED(climb_sort_pairs_u32(h, D(0), D(GB * 8), 2147483647u));
    REFUSED0(climb_sort_pairs_u32(h, D(0), D(4092), 1024));
    REFUSED(climb_sort_pairs_u32(h, D(0), NULL, 1024));
    REFUSED0(climb_sort_u32(h, D(2), 1024));
    EMPTY(climb_sort_pairs_u32(h, NULL, NULL, 0));
    REFUSED(climb_sort_u32(h, (uint32_t *)host_only, 4));
    /* the other key types: the same limits; keys aligned to their size (u64: 8 bytes), values to 4 */
    REFUSED0(climb_sort_i32(h, D(0), (size_t)1 << 31));
    ACCEPTED(climb_sort_i32(h, D(0), 2147483647u));
    ACCEPTED(climb_sort_f32(h, D(4), 2147483647u));
    ACCEPTED(climb_sort_u64(h, D(8), 2147483647u));
    REFUSED0(climb_sort_u64(h, D(4), 1024));
    REFUSED0(climb_sort_u64(h, D(0), (size_t)1 << 31));
    ACCEPTED(climb_sort_pairs_u64(h, D(0), D(GB * 16), 2147483647u));
    REFUSED0(climb_sort_pairs_u64(h, D(0), D(8188), 1024)); /* 8 KiB of keys: the values start inside them */
    ACCEPTED(climb_sort_pairs_u64(h, D(0), D(8192), 1024));
    REFUSED0(climb_sort_pairs_f32(h, D(0), D(4092), 1024));
    REFUSED(climb_sort_pairs_i32(h, D(0), D(4098), 1024)); /* values misaligned: seen after the keys are looked up */
    REFUSED(climb_sort_pairs_i32(h, D(0), NULL, 1024));
    REFUSED0(climb_sort_f32(h, D(2), 1024));
    EMPTY(climb_sort_pairs_f32(h, NULL, NULL, 0));
    EMPTY(climb_sort_u64(h, NULL, 0));
    REFUSED(climb_sort_u64(h, (uint64_t *)host_only, 4));
    REFUSED(climb_sort_i32(NULL, D(0), 4));

    /* bezier: max_points 4 to 4096 (checked when n is 0 too), n max_points at most 2^31 - 1, outputs apart */
    const size_t n19 = (size_t)1 << 19;
    REFUSED0(climb_bezier_tessellate(h, 10, D(0), 3, D(GB), D(2 * GB), D(3 * GB)));
    REFUSED0(climb_bezier_tessellate(h, 10, D(0), 4097, D(GB), D(2 * GB), D(3 * GB)));
    REFUSED0(climb_bezier_tessellate(h, 0, NULL, 3, NULL, NULL, NULL));
    EMPTY(climb_bezier_tessellate(h, 0, NULL, 32, NULL, NULL, NULL));
    ACCEPTED(climb_bezier_tessellate(h, 10, D(0), 4, D(GB), D(2 * GB), D(3 * GB)));
    ACCEPTED(climb_bezier_tessellate(h, n19, D(0), 4095, D(GB), D(2 * GB), D(3 * GB)));
    REFUSED0(climb_bezier_tessellate(h, n19, D(0), 4096, D(GB), D(2 * GB), D(3 * GB)));
    REFUSED0(climb_bezier_tessellate(h, SIZE_MAX / 2, D(0), 4096, D(GB), D(2 * GB), D(3 * GB))); /* wraps */
    REFUSED0(climb_bezier_tessellate(h, 10, D(0), 32, D(GB), D(GB + 4), D(3 * GB)));   /* offsets over counts */
    REFUSED0(climb_bezier_tessellate(h, 10, D(0), 32, D(GB), D(2 * GB), D(0)));        /* points over curves */
    REFUSED(climb_bezier_tessellate(h, 10, D(0), 32, D(GB), D(2 * GB), D(3 * GB + 4))); /* points 4-aligned */
    REFUSED(climb_bezier_tessellate(h, 10, (const climb_bezier_curve *)host_only, 32, D(GB), D(2 * GB), D(3 * GB)));

    /* quadtree: *tree NULL first; params; n up to 2^31 - 1; n == 0 needs no points */
    climb_quadtree tree = (climb_quadtree)&tree;
    const climb_quadtree_params qp = {12, 16}, deep = {17, 16}, flat = {0, 1}, leaf0 = {12, 0}, neg = {-1, 16};
    REFUSED0(climb_quadtree_build(h, 100, D(0), D(4096), NULL, &tree));
    EXPECT(tree == NULL);
    REFUSED0(climb_quadtree_build(h, 100, D(0), D(4096), &qp, NULL));
    REFUSED0(climb_quadtree_build(h, 100, D(0), D(4096), &deep, &tree));
    REFUSED0(climb_quadtree_build(h, 100, D(0), D(4096), &leaf0, &tree));
    REFUSED0(climb_quadtree_build(h, 100, D(0), D(4096), &neg, &tree));
    REFUSED0(climb_quadtree_build(h, (size_t)1 << 31, D(0), D(GB * 8), &qp, &tree));
    ACCEPTED(climb_quadtree_build(h, 100, D(0), D(4096), &flat, &tree));
    ACCEPTED(climb_quadtree_build(h, 0, NULL, NULL, &qp, &tree));
    EXPECT(tree == NULL);
    REFUSED0(climb_quadtree_build(h, 100, NULL, D(4096), &qp, &tree));
    REFUSED(climb_quadtree_build(h, 4, (const float *)host_only, D(4096), &qp, &tree));

    /* bfs: a count at least 0; n == 0 looks at nothing else; source in range; levels apart from the graph */
    REFUSED0(climb_bfs(h, -1, D(0), D(4096), 0, D(GB)));
    EMPTY(climb_bfs(h, 0, NULL, NULL, -5, NULL));
    EMPTY(climb_bfs_symmetric(h, 0, NULL, NULL, 7, NULL));
    REFUSED0(climb_bfs(h, 10, D(0), D(4096), 10, D(GB)));
    REFUSED0(climb_bfs(h, 10, D(0), D(4096), -1, D(GB)));
    ACCEPTED(climb_bfs(h, 10, D(0), D(4096), 9, D(GB)));
    ACCEPTED(climb_bfs_symmetric(h, INT32_MAX, D(0), D(GB * 16), 0, D(GB * 32)));
    REFUSED0(climb_bfs(h, 10, D(0), D(4096), 0, D(40)));       /* levels over the row pointers */
    REFUSED(climb_bfs(h, 10, D(0), NULL, 0, D(GB)));
    REFUSED(climb_bfs(h, 10, D(0), (const int32_t *)host_only, 0, D(GB)));
    REFUSED0(climb_bfs_csr(h, 10, -1, D(0), D(4096), 0, 0, D(GB)));
    REFUSED0(climb_bfs_csr(h, 10, 30, D(0), D(4096), 0, 4u, D(GB)));                  /* an unknown flag */
    REFUSED0(climb_bfs_csr(h, 10, 30, D(0), D(4096), 0, CLIMB_BFS_VALIDATE, D(4096 + 116))); /* levels over columns */
    ACCEPTED(climb_bfs_csr(h, 10, 30, D(0), D(4096), 0, CLIMB_BFS_VALIDATE | CLIMB_BFS_SYMMETRIC, D(GB)));
    ACCEPTED(climb_bfs_csr(h, 10, 0, D(0), NULL, 0, CLIMB_BFS_VALIDATE, D(GB))); /* no edges: no column array */
    EMPTY(climb_bfs_csr(h, 0, 0, NULL, NULL, 0, CLIMB_BFS_VALIDATE, NULL));

    /* the bfs plan: counts at least 0, known flags, a place for the plan (set to NULL first), reachable arrays */
    climb_bfs_plan bp = (climb_bfs_plan)&bp;
    REFUSED0(climb_bfs_plan_create(h, -1, 0, D(0), D(4096), 0, &bp));
    EXPECT(bp == NULL);
    REFUSED0(climb_bfs_plan_create(h, 10, -1, D(0), D(4096), 0, &bp));
    REFUSED0(climb_bfs_plan_create(h, 10, 30, D(0), D(4096), 4u, &bp)); /* an unknown flag */
    REFUSED0(climb_bfs_plan_create(h, 10, 30, D(0), D(4096), 0, NULL));
    REFUSED0(climb_bfs_plan_create(NULL, 10, 30, D(0), D(4096), 0, &bp));
    ACCEPTED(climb_bfs_plan_create(h, 10, 30, D(0), D(4096), CLIMB_BFS_VALIDATE | CLIMB_BFS_SYMMETRIC, &bp));
    ACCEPTED(climb_bfs_plan_create(h, INT32_MAX, INT32_MAX, D(0), D(GB * 16), 0, &bp));
    EXPECT(bp == NULL);
    ACCEPTED(climb_bfs_plan_create(h, 10, 0, D(0), NULL, 0, &bp)); /* no edges: no column array */
    REFUSED(climb_bfs_plan_create(h, 10, 30, D(0), NULL, 0, &bp));
    REFUSED(climb_bfs_plan_create(h, 10, 30, (const int32_t *)host_only, D(4096), 0, &bp));
    REFUSED0(climb_bfs_plan_create(h, 10, 30, (const int32_t *)D(2), D(4096), 0, &bp)); /* misaligned row pointers */
    size_t bb = 0;
    REFUSED0(climb_bfs_plan_bytes(NULL, &bb));
    REFUSED0(climb_bfs_plan_run(h, NULL, 0, D(GB)));
    REFUSED0(climb_bfs_plan_run(NULL, NULL, 0, D(GB)));
    EMPTY(climb_bfs_plan_destroy(NULL));
}

static void handle_calls(climb_handle h)
{
    char buf[700], path[5000];
    int fw = -1;
    EXPECT(climb_get_tuning(h, "reduce", buf, 0, &fw) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(h, "reduce", NULL, 10, &fw) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(h, "no-such-workload", buf, sizeof buf, &fw) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(h, NULL, buf, sizeof buf, &fw) == CLIMB_STATUS_INVALID_VALUE);
    EXPECT(climb_get_tuning(h, "reduce", buf, sizeof buf, &fw) == CLIMB_STATUS_SUCCESS && fw == 0);
    memset(path, 'a', sizeof path);
    path[4096] = '\0';
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_INVALID_VALUE); /* 4096 bytes */
    path[4095] = '\0';
    EXPECT(climb_load_wisdom(h, path) == CLIMB_STATUS_SUCCESS);       /* 4095: a missing file, the defaults */
    EXPECT(climb_get_tuning(h, "sgemm", buf, sizeof buf, &fw) == CLIMB_STATUS_SUCCESS && fw == 0);
    EXPECT(climb_load_wisdom(NULL, NULL) == CLIMB_STATUS_INVALID_VALUE);
    cudaStream_t s = (cudaStream_t)&s;
    EXPECT(climb_set_stream(h, s) == CLIMB_STATUS_SUCCESS);
    cudaStream_t got = NULL;
    EXPECT(climb_get_stream(h, &got) == CLIMB_STATUS_SUCCESS && got == s);
    EXPECT(climb_set_stream(h, NULL) == CLIMB_STATUS_SUCCESS);
}

/* A call's tuning key by option name: the values land at the options' places in the workload's table, parsed as
 * their kinds; a name the workload lacks, a value that does not parse, fail (never a key set at the wrong place). */
static void test_api_key(void)
{
    const climb_workload *w = climb_find_workload("sgemm");
    climb_api_key k;
    EXPECT(w && climb_api_key_make(&k, w, (climb_shape)CLIMB_SHAPE3(5, 6, 7), CLIMB_F32, "form", "tn", NULL) == 0);
    const int form = climb_opt_find(w->options, w->n_options, "form");
    EXPECT(form >= 0 && k.key.opts == k.opts && k.opts[form].choice == 1 && strcmp(k.opts[form].text, "tn") == 0);
    for (int i = 0; i < w->n_options; i++)
        EXPECT(i == form || !k.opts[i].text);
    EXPECT(k.key.shape.d[2] == 7 && k.key.type == CLIMB_F32);
    EXPECT(climb_api_key_make(&k, w, (climb_shape)CLIMB_SHAPE3(5, 6, 7), CLIMB_F32, "shape", "tn", NULL) == -1);
    EXPECT(climb_api_key_make(&k, w, (climb_shape)CLIMB_SHAPE3(5, 6, 7), CLIMB_F32, "form", "nx", NULL) == -1);
    w = climb_find_workload("conv");
    EXPECT(w && climb_api_key_make(&k, w, (climb_shape)CLIMB_SHAPE2(9, 9), CLIMB_F32, "radius", "3", "dims", "2",
                                   NULL) == 0);
    const int radius = climb_opt_find(w->options, w->n_options, "radius");
    EXPECT(radius >= 0 && k.opts[radius].i == 3);
    EXPECT(climb_api_key_make(&k, w, (climb_shape)CLIMB_SHAPE2(9, 9), CLIMB_F32, "radius", "three", NULL) == -1);
}

int main(void)
{
    /* No wisdom file of the machine's: the defaults, whatever is there. */
    setenv("CLIMB_WISDOM", "/nonexistent/climb-test/wisdom.json", 1);
    memset(arena, 0xA5, sizeof arena);
    test_api_key();
    climb_shim_set_mode(CLIMB_SHIM_OFFLINE);
    climb_shim_fake_device((const void *)DEV_BASE, DEV_BYTES);
    climb_shim_fake_device(arena, sizeof arena);

    /* an H100 as climb_device_read describes it */
    climb_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "NVIDIA H100 80GB HBM3 (offline)");
    dev.cc_major = 9;
    dev.sms = 132;
    dev.sm_clock_khz = 1980000;
    dev.mem_clock_khz = 2619000;
    dev.bus_width_bits = 5120;
    dev.l2_bytes = 50 << 20;
    dev.smem_per_sm = 233472;
    dev.smem_per_block_optin = 232448;
    dev.regs_per_sm = 65536;
    dev.max_threads_per_sm = 2048;
    dev.max_blocks_per_sm = 32;
    dev.global_mem_bytes = (size_t)80 << 30;
    dev.fp32_lanes_per_sm = 128;
    climb_handle h = NULL;
    EXPECT(climb_handle_offline(&h, &dev) == CLIMB_STATUS_SUCCESS && h != NULL);
    if (!h)
        return test_finish("test_cpu_api_args");

    reduce_scan_histogram(h);
    spmv(h);
    dense(h);
    cnn(h);
    coulomb(h);
    mriq(h);
    sort_bezier_quadtree_bfs(h);
    handle_calls(h);

    /* the shim itself: a call that passes is seen working, so ACCEPTED cannot pass by accident */
    climb_shim_reset();
    EXPECT(climb_reduce_sum_i32(h, D(0), 4, D(64)) == CLIMB_STATUS_NO_DEVICE && climb_shim_work_calls() > 0);
    EXPECT(strstr(climb_shim_log(), "cudaGetDevice") != NULL);
    EXPECT(climb_destroy(h) == CLIMB_STATUS_NO_DEVICE); /* its wait for the stream fails offline; freed all the same */
    climb_shim_set_mode(CLIMB_SHIM_PASS);
    climb_shim_forget_devices();
    return test_finish("test_cpu_api_args");
}
