#include "occupancy_check.h"

#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "../base/check.h"

int climb_occupancy_check_kernel(const climb_device_info *dev, const climb_kernel_desc *d, climb_occ_check *out)
{
    memset(out, 0, sizeof *out);
    struct cudaFuncAttributes a;
    CLIMB_CHECK(cudaFuncGetAttributes(&a, d->func));
    out->regs = a.numRegs;
    out->static_smem = a.sharedSizeBytes;
    out->local_bytes = a.localSizeBytes;
    climb_occ_input in = {dev->cc_major, dev->cc_minor, d->block_threads, a.numRegs, a.sharedSizeBytes + d->dynamic_smem, 0};
    if (climb_occupancy(&in, &out->predicted) != CLIMB_STATUS_SUCCESS) {
        fprintf(stderr, "climb: occupancy of %s: the calculator takes no block of %d threads, %d registers and %zu "
                        "bytes of shared memory on CC %d.%d\n", d->name, d->block_threads, a.numRegs,
                (size_t)in.smem_per_block, dev->cc_major, dev->cc_minor);
        return -1;
    }
    CLIMB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->runtime_blocks, d->func, d->block_threads,
                                                              d->dynamic_smem));
    return 0;
}

int climb_occupancy_check_device(const climb_device_info *dev, char *msg, size_t len)
{
    const climb_occ_arch *a = climb_occ_arch_find(dev->cc_major, dev->cc_minor);
    msg[0] = '\0';
    if (!a) {
        snprintf(msg, len, "the calculator has no row for CC %d.%d", dev->cc_major, dev->cc_minor);
        return -1;
    }
    int reserved = 0, per_block = 0, regs_per_block = 0, warp = 0;
    if (cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev->ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlock, dev->ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&regs_per_block, cudaDevAttrMaxRegistersPerBlock, dev->ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev->ordinal) != cudaSuccess) {
        cudaGetLastError();
        snprintf(msg, len, "device attributes could not be read");
        return 1;
    }
    struct { const char *what; long table, device; } f[] = {
        {"threads per warp", a->threads_per_warp, warp},
        {"threads per SM", a->max_threads_per_sm, dev->max_threads_per_sm},
        {"blocks per SM", a->max_blocks_per_sm, dev->max_blocks_per_sm},
        {"registers per SM", a->regs_per_sm, dev->regs_per_sm},
        {"registers per block", a->max_regs_per_block, regs_per_block},
        {"shared memory per SM", a->smem_per_sm, (long)dev->smem_per_sm},
        {"shared memory per block", a->smem_per_block, per_block},
        {"shared memory per block (opt-in)", a->smem_per_block_optin, (long)dev->smem_per_block_optin},
        {"shared memory reserved per block", a->smem_reserved_per_block, reserved},
    };
    int diffs = 0;
    size_t used = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].table != f[i].device) {
            int k = snprintf(msg + used, used < len ? len - used : 0, "%s%s: table %ld, device %ld", diffs ? "; " : "",
                             f[i].what, f[i].table, f[i].device);
            if (k > 0)
                used += (size_t)k;
            diffs++;
        }
    return diffs;
}
