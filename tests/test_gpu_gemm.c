/* GPU: every tensor-core GEMM rung in every precision over the edge shapes (0, 1, odd, non-multiples of the
 * 128 x 128 tile and of the k stage), uniform and spread inputs, alpha and beta (beta != 0 restores C), padded
 * leading dimensions (the pipelined rung refuses the rows cp.async cannot move, and only those), against the CPU's
 * FP64 product within each precision's bound; the FP64 reference of a large shape (cuBLAS's DGEMM, CPU rows
 * agreeing; rows of whole 16-byte chunks, which every rung takes) with every rung within the bound of it; poisoned
 * output fails every rung; and each precision's measured error sits where it should (3xTF32 near FP32's, TF32 well
 * above). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/harness.h"
#include "device/device.h"
#include "workloads/gemm/gemm.h"
#include "test_plan.h"
#include "testing.h"

static const climb_workload *w = &climb_gemm_workload;
static climb_device_info dev;

static void test_check(uint64_t seed, const char *alpha, const char *beta, const char *pad, int allow_refused)
{
    climb_opt_plan p;
    test_plan(&p, w, "precision", "all", "inputs", "all", "alpha", alpha, "beta", beta, "pad", pad, NULL);
    char what[80];
    snprintf(what, sizeof what, "alpha %s beta %s pad %s", alpha, beta, pad);
    test_check_plan(w, &dev, &p, seed, allow_refused, what);
    climb_opt_plan_free(&p, NULL);
}

/* A shape past the CPU's limit: the FP64 reference on the GPU; every rung within the bound of it, and its error
 * note; poison fails. Returns the largest error of the rung named `rung`. */
static double test_large(const char *precision, const char *inputs, const char *rung)
{
    climb_opt_plan p;
    test_plan(&p, w, "precision", precision, "inputs", inputs, "beta", "0.5", NULL);
    climb_run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = climb_fresh_seed();
    climb_case_key k = {CLIMB_F32, CLIMB_SHAPE3(704, 648, 1200), 0};
    climb_open_case oc;
    EXPECT(climb_case_open(w, &o, &p, &k, 0, &dev, 0, &oc) == 0);
    EXPECT_MSG(strstr(oc.reference, "DGEMM") && strstr(oc.reference, "CPU rows agree"), "%s", oc.reference);
    double found = -1;
    for (int r = 0; r < w->n_rungs; r++) {
        char msg[600];
        EXPECT(climb_case_refuses(w, oc.c, r) == NULL);
        EXPECT(climb_case_prepare(w, oc.c, r) == 0 && climb_case_poison(w, oc.c) == 0 &&
               climb_case_reset(w, oc.c, 0) == 0);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 1, "%s: poison passed", w->rung(r)->name);
        EXPECT(climb_case_reset(w, oc.c, 0) == 0 && climb_case_run(w, oc.c, r, 0) == 0 &&
               cudaDeviceSynchronize() == cudaSuccess);
        EXPECT_MSG(climb_case_verify(w, oc.c, r, msg, sizeof msg) == 0, "%s %s: %s", precision, w->rung(r)->name, msg);
        const char *note = w->rung_note(oc.c, r);
        double largest = -1;
        EXPECT(note && sscanf(strstr(note, "largest ") ? strstr(note, "largest ") : "", "largest %lf", &largest) == 1);
        printf("%s %s %s: %s\n", precision, inputs, w->rung(r)->name, note ? note : "");
        if (strcmp(w->rung(r)->name, rung) == 0)
            found = largest;
    }
    climb_case_close(w, &oc);
    climb_opt_plan_free(&p, NULL);
    return found;
}

/* The tensor cores' ceilings: measured when asked, far above FFMA's, TF32 about half BF16's rate. */
static void test_tensor_ceiling(void)
{
    climb_device_info d = dev;
    EXPECT(climb_measure_ceilings(&d, CLIMB_MEASURE_TENSOR) == 0);
    printf("tensor cores: BF16 %.0f GFLOP/s, TF32 %.0f GFLOP/s; FFMA %.0f GFLOP/s\n", d.tensor_bf16_gflops,
           d.tensor_tf32_gflops, d.ffma_gflops);
    EXPECT_MSG(d.tensor_bf16_gflops > 4 * d.ffma_gflops && d.tensor_tf32_gflops > 0.3 * d.tensor_bf16_gflops &&
                   d.tensor_tf32_gflops < 0.7 * d.tensor_bf16_gflops,
               "BF16 %.0f, TF32 %.0f, FFMA %.0f GFLOP/s", d.tensor_bf16_gflops, d.tensor_tf32_gflops, d.ffma_gflops);
}

int main(void)
{
    test_require_gpu();
    EXPECT(climb_device_query(0, &dev) == 0);
    test_tensor_ceiling();
    const uint64_t fresh = climb_fresh_seed();
    test_check(fresh, "1", "0", "0", 0);
    test_check(fresh + 1, "-0.75", "1.5", "3", 1); /* odd rows: pipelined refuses */
    test_check(fresh + 2, "1", "0", "8", 0);        /* rows of whole 16-byte chunks again */
    for (int s = 0; s < 2; s++) {
        const char *in = s ? "spread" : "uniform";
        /* 3xTF32 is as accurate as FP32 on the CUDA cores (within 4x of its error), TF32 far less so (its inputs
         * rounded); BF16's error is the sum's alone (its inputs are BF16 values, exact in the reference too) */
        const double fp32 = test_large("3xtf32", in, "cublas"), x3 = test_large("3xtf32", in, "pipelined");
        const double tf32 = test_large("tf32", in, "pipelined"), bf16 = test_large("bf16", in, "pipelined");
        EXPECT_MSG(fp32 > 0 && x3 > 0 && x3 < 4 * fp32 && tf32 > 16 * x3 && bf16 >= 0,
                   "%s: largest errors: FP32 %.3g, 3xTF32 %.3g, TF32 %.3g, BF16 %.3g", in, fp32, x3, tf32, bf16);
    }
    return test_finish("test_gpu_gemm");
}
