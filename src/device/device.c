#include "device.h"
#include "../base/check.h"
#include "../base/build_info.h"
#include "device_set.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


int climb_device_count(char *why, size_t whylen)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        /* With no driver at all the runtime says the driver is too old; the driver version it reads is then 0. */
        int driver = -1;
        if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0) {
            if (why)
                snprintf(why, whylen, "no NVIDIA driver found (libcuda.so.1 could not be loaded): install the NVIDIA "
                                      "driver, or run where there is a GPU");
        } else if (why) {
            snprintf(why, whylen, "no usable CUDA device: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        }
        cudaGetLastError(); /* clear the sticky-free error so later calls start clean */
        return 0;
    }
    if (n == 0 && why)
        snprintf(why, whylen, "no CUDA device present");
    return n;
}

int climb_fp32_lanes_per_sm(int major, int minor)
{
    /* FP32 FFMA lanes per SM, from the CUDA programming guide's arithmetic-throughput table. */
    switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    case 9: return 128;
    case 10: case 11: case 12: return 128;
    default: return 0;
    }
}

cudaError_t climb_device_read(int ordinal, climb_device_info *d)
{
    memset(d, 0, sizeof *d);
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, ordinal);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&d->sm_clock_khz, cudaDevAttrClockRate, ordinal);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&d->mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&d->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
    if (e == cudaSuccess)
        e = cudaDriverGetVersion(&d->driver_version);
    if (e == cudaSuccess)
        e = cudaRuntimeGetVersion(&d->runtime_version);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return e;
    }
    d->ordinal = ordinal;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    d->smem_per_sm = p.sharedMemPerMultiprocessor;
    d->smem_per_block_optin = p.sharedMemPerBlockOptin;
    d->regs_per_sm = p.regsPerMultiprocessor;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    d->global_mem_bytes = p.totalGlobalMem;
    d->fp32_lanes_per_sm = climb_fp32_lanes_per_sm(d->cc_major, d->cc_minor);
    d->peak_bw_gbs = 2.0 * d->mem_clock_khz * 1e3 * (d->bus_width_bits / 8.0) / 1e9;
    d->peak_ffma_gflops = (double)d->sms * d->fp32_lanes_per_sm * 2.0 * d->sm_clock_khz * 1e3 / 1e9;
    return cudaSuccess;
}

cudaError_t climb_current_sms(int *sms)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
    return e;
}

cudaError_t climb_reserve_device_launches(size_t launches)
{
    size_t have = 0;
    cudaError_t e = cudaDeviceGetLimit(&have, cudaLimitDevRuntimePendingLaunchCount);
    if (e == cudaSuccess && have < launches + 64)
        e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, launches + 64);
    return e;
}

int climb_device_query(int ordinal, climb_device_info *d)
{
    CLIMB_CHECK(cudaSetDevice(ordinal));
    const cudaError_t e = climb_device_read(ordinal, d);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: cannot read device %d's properties: %s (%s)\n", ordinal, cudaGetErrorName(e),
                cudaGetErrorString(e));
        return -1;
    }
    return 0;
}


int climb_device_alloc_offset(size_t bytes, size_t offset, void **alloc, void **p, const char *what)
{
    *alloc = *p = NULL;
    const cudaError_t e = cudaMalloc(alloc, bytes + offset + 16);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: out of device memory for %s (%zu bytes): %s\n", what, bytes + offset + 16,
                cudaGetErrorString(e));
        cudaGetLastError();
        *alloc = NULL;
        return -1;
    }
    *p = (char *)*alloc + offset;
    return 0;
}


int climb_grow_device_buffer(void **buf, size_t *have, size_t need)
{
    if (need <= *have && *buf)
        return 0;
    if (*buf)
        cudaFree(*buf);
    *buf = NULL;
    *have = 0;
    cudaError_t e = cudaMalloc(buf, need);
    if (e != cudaSuccess) {
        fprintf(stderr, "climb: out of device memory for a %zu-byte workspace: %s\n", need, cudaGetErrorString(e));
        cudaGetLastError();
        *buf = NULL;
        return -1;
    }
    *have = need;
    return 0;
}

void climb_device_slug(const char *name, char *out, size_t outlen)
{
    size_t o = 0;
    const char *s = name;
    if (strncmp(s, "NVIDIA ", 7) == 0)
        s += 7;
    int dash = 0;
    for (; *s && o + 1 < outlen; s++) {
        if (isalnum((unsigned char)*s)) {
            if (dash && o > 0 && o + 2 < outlen)
                out[o++] = '-';
            dash = 0;
            out[o++] = (char)tolower((unsigned char)*s);
        } else {
            dash = 1;
        }
    }
    if (o == 0 && outlen > 7) {
        strcpy(out, "unknown");
        return;
    }
    out[o] = '\0';
}

int climb_archs_cover(const char *archs, int cc_major, int cc_minor)
{
    const int cc = 10 * cc_major + cc_minor;
    const char *p = archs;
    while (p && *p) {
        while (*p == ';' || *p == ',' || *p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            break;
        int v = 0;
        while (isdigit((unsigned char)*p))
            v = 10 * v + (*p++ - '0');
        int specific = 0, sass = 1, ptx = 1;
        while (isalpha((unsigned char)*p)) { /* 90a, 100f: for that capability alone */
            specific = 1;
            p++;
        }
        if (strncmp(p, "-real", 5) == 0) {
            ptx = 0;
            p += 5;
        } else if (strncmp(p, "-virtual", 8) == 0) {
            sass = 0;
            p += 8;
        }
        if (specific ? v == cc : ((sass && v / 10 == cc_major && v <= cc) || (ptx && v <= cc)))
            return 1;
        while (*p && *p != ';' && *p != ',')
            p++;
    }
    return 0;
}

cudaError_t climb_kernel_image_probe(void); /* ceilings.cu */

int climb_device_code_check(const climb_device_info *d, char *why, size_t whylen)
{
    cudaError_t e = cudaSuccess;
    if (climb_archs_cover(climb_build_arch, d->cc_major, d->cc_minor)) {
        e = climb_kernel_image_probe();
        if (e == cudaSuccess)
            return 0;
        cudaGetLastError();
    }
    snprintf(why, whylen, "this build holds code for CUDA architectures %s, and device %s is compute capability %d.%d%s%s: "
             "rebuild with make CLIMB_CUDA_ARCH=%d%d (or run cmake with -DCLIMB_CUDA_ARCH=%d%d)", climb_build_arch,
             d->name, d->cc_major, d->cc_minor, e == cudaSuccess ? "" : "; the runtime says: ",
             e == cudaSuccess ? "" : cudaGetErrorString(e), d->cc_major, d->cc_minor, d->cc_major, d->cc_minor);
    return -1;
}

cudaError_t climb_current_device_pdl(int *pdl)
{
    int dev = 0, major = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    *pdl = e == cudaSuccess && major >= 9;
    return e;
}

cudaError_t climb_launch_ex(const void *fn, unsigned grid, unsigned block, size_t smem, cudaStream_t s, void **args,
                            int pdl)
{
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim.x = grid;
    cfg.gridDim.y = cfg.gridDim.z = 1;
    cfg.blockDim.x = block;
    cfg.blockDim.y = cfg.blockDim.z = 1;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = pdl ? &attr : NULL;
    cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelExC(&cfg, fn, args);
}

int climb_device_p2p(int a, int b, climb_p2p *out)
{
    out->access = out->rank = out->atomics = -1;
    out->one_way_gbs = out->both_ways_gbs = out->latency_us = 0;
    out->nvlinks = out->nvswitch = -1;
    int v = 0;
    if (cudaDeviceCanAccessPeer(&v, a, b) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    out->access = v;
    if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
        out->rank = v;
    if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, a, b) == cudaSuccess)
        out->atomics = v;
    cudaGetLastError();
    return 0;
}

/* The peer access climb left each ordered pair of ordinals with (0: off, as a process starts; 1: on), so that a
 * call that would repeat it makes none: the runtime answers one with an error (704 or 705), which a sanitizer
 * counts. Another library in the process (NCCL) may turn access on by itself: that is still no error here. */
static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char peer_on[CLIMB_MAX_DEVICES][CLIMB_MAX_DEVICES];

cudaError_t climb_peer_access(int dev, int peer, int on)
{
    const int known = dev >= 0 && dev < CLIMB_MAX_DEVICES && peer >= 0 && peer < CLIMB_MAX_DEVICES;
    cudaError_t e = cudaSetDevice(dev);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return e;
    }
    pthread_mutex_lock(&peer_lock);
    if (!known || peer_on[dev][peer] != !!on) {
        e = on ? cudaDeviceEnablePeerAccess(peer, 0) : cudaDeviceDisablePeerAccess(peer);
        cudaGetLastError(); /* "already enabled" and "not enabled" leave one behind */
        if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled)
            e = cudaSuccess;
        if (known && e == cudaSuccess)
            peer_on[dev][peer] = (unsigned char)!!on;
    }
    pthread_mutex_unlock(&peer_lock);
    return e;
}
