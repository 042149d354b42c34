/* CPU: the peer workload's table (valid; vendor first, one best; it spans 2 or more GPUs; its options parse), and the
 * two pieces of its policy: which copies the best rung stores with a kernel, and the pipelined rung's pieces
 * (never more than 1024, covering every byte, at least the chunk asked for); peer access turned on or off once
 * for a pair, a call that would repeat climb's own state making no runtime call (offline, through the shim). */
#include <string.h>

#include "device/device.h"
#include "workloads/peer.h"
#include "cuda_shim.h"
#include "testing.h"

static void test_table(void)
{
    const climb_workload *w = &climb_peer_workload;
    char msg[2000];
    EXPECT_MSG(climb_workload_validate(w, msg, sizeof msg) == 0, "%s", msg);
    EXPECT(climb_vendor_rung(w) == 0 && climb_best_rung(w) > 0);
    EXPECT(climb_spans_devices(w) && w->min_devices == 2 && w->max_devices >= 8);
    EXPECT(w->items_unit && strcmp(w->items_unit, "bytes") == 0 && strcmp(w->items_rate, "GB/s") == 0);
    const int from = climb_opt_find(w->options, w->n_options, "from"), to = climb_opt_find(w->options, w->n_options, "to");
    EXPECT(from >= 0 && to >= 0 && strcmp(w->options[from].def, "0") == 0 && strcmp(w->options[to].def, "1") == 0);
    climb_opt_value v;
    EXPECT(climb_opt_parse(&w->options[from], "64", &v, msg, sizeof msg) == -1); /* past any set */
    EXPECT(w->bench_shapes[0].d[0] == 4 && w->bench_shapes[w->n_bench_shapes - 1].d[0] == 1u << 30);
}

static void test_policy(void)
{
    EXPECT(climb_peer_best_uses_kernel(4) && climb_peer_best_uses_kernel(0) && !climb_peer_best_uses_kernel(1u << 28));
    EXPECT(climb_peer_best_uses_kernel((1u << 20) - 1) && !climb_peer_best_uses_kernel(1u << 20));
    const size_t sizes[] = {0, 1, 4096, 4194303, 4194305, (size_t)1 << 30, ((size_t)1 << 32) + 7};
    const size_t chunks[] = {4096, 65536, 4194304, (size_t)1 << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t j = 0; j < sizeof chunks / sizeof chunks[0]; j++) {
            const size_t p = climb_peer_piece(sizes[i], chunks[j]), pieces = (sizes[i] + p - 1) / p;
            EXPECT_MSG(p >= 1 && p >= chunks[j] && pieces <= 1024 && pieces * p >= sizes[i], "%zu bytes, chunk %zu: %zu",
                       sizes[i], chunks[j], p);
        }
}

static int count_in(const char *log, const char *name)
{
    int n = 0;
    for (const char *p = strstr(log, name); p; p = strstr(p + 1, name))
        n++;
    return n;
}

static void test_access_once(void)
{
    climb_shim_set_mode(CLIMB_SHIM_OFFLINE);
    climb_shim_reset();
    EXPECT(climb_peer_access(0, 1, 1) == cudaSuccess && climb_peer_access(0, 1, 1) == cudaSuccess);
    EXPECT_MSG(count_in(climb_shim_log(), "cudaDeviceEnablePeerAccess") == 1, "%s", climb_shim_log());
    EXPECT(climb_peer_access(0, 1, 0) == cudaSuccess && climb_peer_access(0, 1, 0) == cudaSuccess);
    EXPECT(climb_peer_access(0, 1, 1) == cudaSuccess);
    EXPECT_MSG(count_in(climb_shim_log(), "cudaDeviceDisablePeerAccess") == 1 &&
                   count_in(climb_shim_log(), "cudaDeviceEnablePeerAccess") == 2, "%s", climb_shim_log());
    /* An ordinal past any set is not kept: each call asks the runtime. A device that cannot be made current is
     * the runtime's error, and nothing is recorded. */
    climb_shim_reset();
    EXPECT(climb_peer_access(0, 70, 1) == cudaSuccess && climb_peer_access(0, 70, 1) == cudaSuccess);
    EXPECT_MSG(count_in(climb_shim_log(), "cudaDeviceEnablePeerAccess") == 2, "%s", climb_shim_log());
    EXPECT(climb_peer_access(1, 0, 1) == cudaErrorInvalidDevice && cudaGetLastError() == cudaSuccess);
    climb_shim_set_mode(CLIMB_SHIM_PASS);
}

int main(void)
{
    test_table();
    test_policy();
    test_access_once();
    return test_finish("test_cpu_peer");
}
