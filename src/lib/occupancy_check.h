/* The calculator against the CUDA runtime on the current device: a kernel's real registers and shared
 * memory (from the compiled code), the calculator's prediction, and cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
#ifndef CLIMB_LIB_OCCUPANCY_CHECK_H
#define CLIMB_LIB_OCCUPANCY_CHECK_H

#include <stddef.h>

#include "climb_occupancy.h"
#include "../device/device.h"
#include "../core/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct climb_occ_check {
    int regs;                  /* cudaFuncAttributes.numRegs */
    size_t static_smem;        /* cudaFuncAttributes.sharedSizeBytes */
    size_t local_bytes;        /* cudaFuncAttributes.localSizeBytes (spills) */
    climb_occ_result predicted;
    int runtime_blocks;        /* the runtime's answer */
} climb_occ_check;

/* Fills `out` for kernel d on the current device (dev). 0, or -1 after printing the CUDA error. */
int climb_occupancy_check_kernel(const climb_device_info *dev, const climb_kernel_desc *d, climb_occ_check *out);

/* Compares the calculator's table row for dev's CC with what the device reports (warps, blocks, registers,
 * shared memory per SM and per block, the reservation). 0 when they agree; else the number of differences,
 * each described in msg (semicolon-separated). -1 when the table has no row for this CC. */
int climb_occupancy_check_device(const climb_device_info *dev, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif
