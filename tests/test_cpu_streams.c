/* CPU tests of the many-small-kernels workload: the jump-ahead reference against the recurrence stepped one by one
 * (0 to 10^5 steps, and steps past 2^32 against their composition), the calibration's arithmetic (the launch's fixed
 * cost cancels; no slope is refused; the limits hold), and the table. */
#include <stdint.h>
#include <string.h>

#include <stdlib.h>

#include "base/rng.h"
#include "core/harness.h"
#include "workloads/streams/streams.h"
#include "testing.h"

static uint32_t stepped(uint32_t x, uint64_t n)
{
    for (uint64_t k = 0; k < n; k++)
        x = x * 1664525u + 1013904223u;
    return x;
}

int main(void)
{
    climb_rng rng;
    climb_rng_seed(&rng, climb_fresh_seed());
    const uint64_t steps[] = {0, 1, 2, 3, 4, 5, 7, 8, 63, 64, 1000, 4097, 65536, 100003};
    for (int t = 0; t < 20; t++) {
        const uint32_t x = (uint32_t)climb_rng_next(&rng);
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
            EXPECT_MSG(climb_streams_lcg(x, steps[k]) == stepped(x, steps[k]), "x %u, %llu steps", x,
                       (unsigned long long)steps[k]);
    }
    /* a long jump is the composition of two shorter ones */
    const uint64_t a = 3000000011ull, b = 5000000029ull;
    EXPECT(climb_streams_lcg(climb_streams_lcg(12345u, a), b) == climb_streams_lcg(12345u, a + b));
    /* the calibration: 2 us fixed + 0.001 us a step: 16384 steps 18.384 us, 65536 steps 67.536 us -> 10 us is 10000
     * steps, whatever the fixed cost */
    EXPECT(climb_streams_iters(10, 2 + 16.384, 2 + 65.536, 16384) == 10000);
    EXPECT(climb_streams_iters(10, 7 + 16.384, 7 + 65.536, 16384) == 10000);
    EXPECT(climb_streams_iters(100, 18.384, 67.536, 16384) == 100000);
    EXPECT(climb_streams_iters(10, 20, 20, 16384) == 0 && climb_streams_iters(10, 20, 19, 16384) == 0);
    EXPECT(climb_streams_iters(10, 18.384, 67.536, 0) == 0);
    EXPECT(climb_streams_iters(1e-9, 18.384, 67.536, 16384) == 1);
    EXPECT(climb_streams_iters(1e12, 18.384, 67.536, 16384) == CLIMB_STREAMS_MAX_ITERS);
    /* connections stands for CUDA_DEVICE_MAX_CONNECTIONS: 0 runs anywhere; another value only where the variable
     * holds it, else refused, saying which */
    {
        const climb_workload *sw = &climb_streams_workload;
        climb_opt_plan plan;
        char err[300], buf[400];
        const int k = climb_opt_find(sw->options, sw->n_options, "connections");
        EXPECT(k >= 0 && sw->options[k].env && strcmp(sw->options[k].env, "CUDA_DEVICE_MAX_CONNECTIONS") == 0);
        EXPECT(climb_opt_plan_init(&plan, sw->options, sw->n_options, err, sizeof err) == 0);
        EXPECT(climb_opt_plan_set(&plan, k, "0,4", 0, err, sizeof err) == 0);
        climb_opt_value zero[8], four[8];
        climb_opt_plan_combo(&plan, 0, zero);
        climb_opt_plan_combo(&plan, 1, four);
        unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
        EXPECT(climb_case_env_refuses(sw, zero, buf, sizeof buf) == NULL);
        EXPECT_MSG(climb_case_env_refuses(sw, four, buf, sizeof buf) &&
                       strstr(buf, "connections=4 needs CUDA_DEVICE_MAX_CONNECTIONS=4") && strstr(buf, "unset"),
                   "%s", buf);
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 1);
        EXPECT(climb_case_env_refuses(sw, four, buf, sizeof buf) && strstr(buf, "here it is 8"));
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", "4", 1);
        EXPECT(climb_case_env_refuses(sw, four, buf, sizeof buf) == NULL);
        EXPECT(climb_case_env_refuses(sw, zero, buf, sizeof buf) == NULL);
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", "4x", 1);
        EXPECT(climb_case_env_refuses(sw, four, buf, sizeof buf) != NULL);
        const climb_case_key key = {CLIMB_U32, CLIMB_SHAPE1(8), 1};
        EXPECT(climb_case_too_large(sw, &key, four, buf, sizeof buf) != NULL && strstr(buf, "connections=4"));
        unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
        climb_opt_plan_free(&plan, NULL);
    }
    /* the table */
    const climb_workload *w = &climb_streams_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_best_rung(w) >= 0 && climb_bound_rung(w) >= 0 && climb_vendor_rung(w) < 0);
    EXPECT(climb_find_rung(w, "one_stream") >= 0 && climb_find_rung(w, "threads") >= 0 &&
           climb_find_rung(w, "graph") >= 0 && climb_find_rung(w, "graph_pdl") == climb_best_rung(w) && climb_find_rung(w, "one_launch") == climb_bound_rung(w));
    return test_finish("test_cpu_streams");
}
