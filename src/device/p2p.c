/* The copy engines between GPUs, measured: for every ordered pair of a set, cudaMemcpyPeerAsync of one buffer one
 * way, and both ways at once (a copy each way, on each GPU's stream), with peer access on where the pair has it.
 * Each figure is the best of a few repetitions after a warm-up, timed by events on the sending GPU (both ways: from
 * before either copy to after both). What a transfer between the two can reach: the ceiling of the rows that move
 * bytes between GPUs. And the latency of a small copy, as p2pBandwidthLatencyTest measures it: P2P_LAT_COPIES
 * copies of 4 bytes back to back on the sender's stream, the time over their number (the best of a few). */
#include "device.h"

#include <stdio.h>
#include <stdlib.h>

#define P2P_REPS 5
#define P2P_LAT_COPIES 100

/* The best of P2P_REPS timings (µs) of one 4-byte copy a -> b among P2P_LAT_COPIES back to back; -1 on an error. */
static double time_latency(int a, int b, void *src_a, void *dst_b, cudaStream_t sa, cudaEvent_t start, cudaEvent_t stop)
{
    double best = -1;
    for (int k = 0; k <= P2P_REPS; k++) {
        float ms = 0;
        if (cudaSetDevice(a) != cudaSuccess || cudaEventRecord(start, sa) != cudaSuccess)
            return -1;
        for (int c = 0; c < P2P_LAT_COPIES; c++)
            if (cudaMemcpyPeerAsync(dst_b, b, src_a, a, 4, sa) != cudaSuccess)
                return -1;
        if (cudaEventRecord(stop, sa) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
            cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
            return -1;
        const double us = ms * 1e3 / P2P_LAT_COPIES;
        if (k > 0 && (best < 0 || us < best))
            best = us;
    }
    return best;
}

/* The best of P2P_REPS timings (ms) of one copy a -> b, or of a -> b with b -> a at once; -1 on an error. */
static double time_pair(int a, int b, void *src_a, void *dst_b, void *src_b, void *dst_a, size_t bytes, int both,
                        cudaStream_t sa, cudaStream_t sb, cudaEvent_t start, cudaEvent_t stop, cudaEvent_t done_b)
{
    double best = -1;
    for (int k = 0; k <= P2P_REPS; k++) { /* k = 0: the warm-up */
        float ms = 0;
        if (cudaSetDevice(a) != cudaSuccess || cudaEventRecord(start, sa) != cudaSuccess)
            return -1;
        if (both && cudaStreamWaitEvent(sb, start, 0) != cudaSuccess)
            return -1;
        if (cudaMemcpyPeerAsync(dst_b, b, src_a, a, bytes, sa) != cudaSuccess)
            return -1;
        if (both) {
            if (cudaSetDevice(b) != cudaSuccess || cudaMemcpyPeerAsync(dst_a, a, src_b, b, bytes, sb) != cudaSuccess ||
                cudaEventRecord(done_b, sb) != cudaSuccess || cudaSetDevice(a) != cudaSuccess ||
                cudaStreamWaitEvent(sa, done_b, 0) != cudaSuccess)
                return -1;
        }
        if (cudaEventRecord(stop, sa) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
            cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
            return -1;
        if (k > 0 && (best < 0 || ms < best))
            best = ms;
    }
    return best;
}

int climb_measure_p2p(const int *devices, int n, size_t bytes, double *one_way, double *both_ways, double *latency_us)
{
    for (int i = 0; i < n * n; i++)
        one_way[i] = both_ways[i] = latency_us[i] = -1;
    void *src[64] = {0}, *dst[64] = {0};
    cudaStream_t st[64] = {0};
    cudaEvent_t start = NULL, stop = NULL, done[64] = {0};
    int rc = n > 64 ? -1 : 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        if (cudaSetDevice(devices[i]) != cudaSuccess || cudaMalloc(&src[i], bytes) != cudaSuccess ||
            cudaMalloc(&dst[i], bytes) != cudaSuccess || cudaMemset(src[i], 0x5A, bytes) != cudaSuccess ||
            cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking) != cudaSuccess ||
            cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming) != cudaSuccess)
            rc = -1;
        for (int j = 0; rc == 0 && j < n; j++) { /* peer access on where the pair has it */
            int can = 0;
            if (j != i && cudaDeviceCanAccessPeer(&can, devices[i], devices[j]) == cudaSuccess && can &&
                climb_peer_access(devices[i], devices[j], 1) != cudaSuccess)
                rc = -1;
        }
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        if (cudaSetDevice(devices[i]) != cudaSuccess || cudaEventCreate(&start) != cudaSuccess ||
            cudaEventCreate(&stop) != cudaSuccess) {
            rc = -1;
            break;
        }
        for (int j = 0; rc == 0 && j < n; j++) {
            if (j == i)
                continue;
            for (int both = 0; both < 2 && rc == 0; both++) {
                const double ms = time_pair(devices[i], devices[j], src[i], dst[j], src[j], dst[i], bytes, both, st[i],
                                            st[j], start, stop, done[j]);
                if (ms <= 0)
                    rc = -1;
                else
                    (both ? both_ways : one_way)[i * n + j] = (double)bytes * (both ? 2 : 1) / (ms * 1e-3) / 1e9;
            }
            if (rc == 0 && (latency_us[i * n + j] = time_latency(devices[i], devices[j], src[i], dst[j], st[i], start,
                                                                 stop)) <= 0)
                rc = -1;
        }
        cudaSetDevice(devices[i]);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        start = stop = NULL;
    }
    for (int i = 0; i < n && i < 64; i++) {
        cudaSetDevice(devices[i]);
        cudaFree(src[i]);
        cudaFree(dst[i]);
        if (st[i])
            cudaStreamDestroy(st[i]);
        if (done[i])
            cudaEventDestroy(done[i]);
    }
    if (rc != 0)
        fprintf(stderr, "climb: the copies between GPUs could not be measured: %s\n",
                cudaGetErrorString(cudaGetLastError()));
    cudaGetLastError();
    return rc;
}

int climb_device_pairs(const int *devices, int n, int measure, climb_p2p *p2p)
{
    climb_nvlinks *links = calloc((size_t)(n > 0 ? n : 1), sizeof *links);
    if (!links)
        return climb_host_oom("the GPUs' NVLinks");
    for (int i = 0; i < n; i++)
        climb_device_nvlinks(devices[i], &links[i]); /* unread where NVML cannot say: the pairs say unknown */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            p2p[i * n + j] = (climb_p2p)CLIMB_P2P_UNKNOWN;
            if (i != j && climb_device_p2p(devices[i], devices[j], &p2p[i * n + j]) != 0)
                fprintf(stderr, "climb: the driver could not say how GPUs %d and %d are joined\n", devices[i],
                        devices[j]);
            if (i != j)
                climb_nvlink_pair(&links[i], &links[j], &p2p[i * n + j].nvlinks, &p2p[i * n + j].nvswitch);
        }
    free(links);
    if (!measure || n < 2)
        return 0;
    double *one = calloc((size_t)n * (size_t)n, sizeof *one), *both = calloc((size_t)n * (size_t)n, sizeof *both);
    double *lat = calloc((size_t)n * (size_t)n, sizeof *lat);
    if (!one || !both || !lat) {
        free(one);
        free(both);
        free(lat);
        return climb_host_oom("the copies between GPUs");
    }
    fprintf(stderr, "[%d GPUs] measuring the copies between them\n", n);
    climb_measure_p2p(devices, n, (size_t)256 << 20, one, both, lat); /* a failure is said; its figures stay unset */
    for (int i = 0; i < n * n; i++) {
        p2p[i].one_way_gbs = one[i] > 0 ? one[i] : 0;
        p2p[i].both_ways_gbs = both[i] > 0 ? both[i] : 0;
        p2p[i].latency_us = lat[i] > 0 ? lat[i] : 0;
    }
    free(one);
    free(both);
    free(lat);
    return 0;
}
