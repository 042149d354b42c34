/* A counting shim over the CUDA runtime, for the tests of the C API's argument checks. climb-tests is linked with
 * --wrap for every runtime function the library calls (tests/CMakeLists.txt), so each call of the library or of a
 * test goes through tests/cuda_shim.c, which counts it and then:
 *  - CLIMB_SHIM_PASS (the default): calls the runtime;
 *  - CLIMB_SHIM_OFFLINE: calls nothing. cudaPointerGetAttributes calls memory registered by climb_shim_fake_device
 *    device memory (and the rest host memory the device cannot reach); cudaGetDevice says 0, cudaSetDevice,
 *    cudaGetLastError, cudaPeekAtLastError, cudaStreamIsCapturing (not capturing) and
 *    cudaThreadExchangeStreamCaptureMode succeed, and so do cudaDeviceEnablePeerAccess and
 *    cudaDeviceDisablePeerAccess (climb's own record of peer access is what the tests look at); every other call fails with cudaErrorNoDevice, which it also leaves
 *    in the last-error state (cudaGetLastError returns and clears it, as the runtime does). A C API call on an
 *    offline handle (climb_handle_offline) that passes its checks thus goes on to its first piece of work and fails
 *    there with CLIMB_STATUS_NO_DEVICE, where no GPU exists: the checks are tested on the CPU, exactly. */
#ifndef CLIMB_TESTS_CUDA_SHIM_H
#define CLIMB_TESTS_CUDA_SHIM_H

#include <stddef.h>

typedef enum climb_shim_mode { CLIMB_SHIM_PASS = 0, CLIMB_SHIM_OFFLINE = 1 } climb_shim_mode;

void climb_shim_set_mode(climb_shim_mode m);
/* Zeroes the counters and the log. */
void climb_shim_reset(void);
/* Runtime calls since the reset: all of them; those other than the pointer and error-state queries
 * (cudaPointerGetAttributes, cudaGetLastError, cudaPeekAtLastError); the launches, allocations and frees. */
long climb_shim_calls(void);
long climb_shim_work_calls(void);
long climb_shim_launches(void);
/* The names of the calls since the reset, space-separated (the first 60). */
const char *climb_shim_log(void);
/* Offline: [base, base + bytes) is device memory from now on (up to 16 regions; climb_shim_forget_devices drops
 * them). The addresses need not be backed: nothing reads them. */
void climb_shim_fake_device(const void *base, size_t bytes);
/* The same on device `device` (the ordinal cudaPointerGetAttributes then says). */
void climb_shim_fake_device_on(const void *base, size_t bytes, int device);
void climb_shim_forget_devices(void);

#endif
