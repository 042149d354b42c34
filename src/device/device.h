/* Device facts (read from the CUDA runtime) and measured ceilings (timed at the start of a run). */
#ifndef CLIMB_DEVICE_DEVICE_H
#define CLIMB_DEVICE_DEVICE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "../base/host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVML's view of the GPU at one moment (climb_device_nvml): right after the ceilings' measurement, while the GPU is
 * warm, or at the start of a run that measures none. -1: NVML could not say. */
typedef struct climb_nvml {
    int read;                 /* 1: NVML answered; 0: no NVML (no driver library, no such device), the rest unset */
    int sm_mhz, mem_mhz;      /* the clocks at that moment */
    int sm_max_mhz, mem_max_mhz;
    int app_sm_mhz, app_sm_default_mhz; /* the application SM clock and its default: unequal when someone set it */
    double power_limit_w, power_default_w, power_w; /* the enforced limit, its default, the draw */
    int temp_c;
    int reasons_known;
    unsigned long long reasons; /* NVML's clock event ("throttle") reasons, bits as climb_nvml_reasons names them */
} climb_nvml;

typedef struct climb_device_info {
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    int sms;
    int sm_clock_khz;         /* peak SM clock */
    int mem_clock_khz;        /* peak memory clock */
    int bus_width_bits;
    int l2_bytes;
    size_t smem_per_sm;
    size_t smem_per_block_optin;
    int regs_per_sm;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    size_t global_mem_bytes;
    int driver_version;       /* e.g. 13000 */
    int runtime_version;
    int fp32_lanes_per_sm;    /* FP32 FFMA units per SM for this architecture, 0 if not known */
    /* Theoretical peaks from the facts above. */
    double peak_bw_gbs;       /* 2 (double data rate) x memory clock x bus width / 8, in 10^9 B/s */
    double peak_ffma_gflops;  /* SMs x FP32 lanes x 2 flops x SM clock, in 10^9 flop/s */
    /* Measured ceilings; measured == 0 until climb_measure_ceilings has run. */
    int measured;
    double copy_gbs;          /* device-to-device copy kernel, bytes read + bytes written */
    double read_gbs;          /* read-only streaming kernel, bytes read */
    double write_gbs;         /* derived: the write rate a copy leaves after its reads, 1/write = 2/copy - 1/read */
    double ffma_gflops;       /* independent FFMA chains, 2 flops per FFMA */
    double dfma_gflops;       /* the same with FP64 DFMA */
    double sfu_gops;          /* 10^9 special-function ops (MUFU rsqrt) per second; 0 unless asked (CLIMB_MEASURE_SFU) */
    double tensor_bf16_gflops; /* the tensor cores, dense, FP32 accumulation: BF16 inputs and TF32 inputs, 10^9 flop/s
                                  (wgmma on sm_90a, mma.sync on other GPUs from sm_80); 0 unless asked */
    double tensor_tf32_gflops; /* (CLIMB_MEASURE_TENSOR), or before sm_80 */
    double launch_us;         /* an empty kernel, event to event, one launch at a time */
    climb_nvml nvml;          /* clocks, power and throttle reasons from NVML (read by the CLI; zero in the C API) */
} climb_device_info;

/* Reads d->nvml for device d->ordinal through NVML, opened at run time. 0, or -1 with d->nvml.read == 0 (no NVML). */
int climb_device_nvml(climb_device_info *d);
/* The reasons NVML holds the clocks down by, named: "software power cap, hardware slowdown"; "none" for 0. */
void climb_nvml_reasons(unsigned long long bits, char *buf, size_t len);
/* One line for the reports: "NVML: SM clock 1980 of 1980 MHz, memory clock 2619 of 2619 MHz; ...; clocks held by:
 * none", or that NVML was not available. */
void climb_nvml_line(const climb_nvml *s, char *buf, size_t len);

/* Number of usable CUDA devices; 0 when there is no device or no driver (reason written to `why`). */
int climb_device_count(char *why, size_t whylen);

/* What the driver says of the pair (a, b), a != b: whether a can reach b's memory (cudaDeviceCanAccessPeer), the
 * link's performance rank among the node's pairs (cudaDevP2PAttrPerformanceRank: 0 the best), and whether atomics
 * work across it. -1 where the driver cannot say. 0, or -1 when a query failed (its error cleared). */
typedef struct climb_p2p {
    int access, rank, atomics;
    double one_way_gbs, both_ways_gbs; /* climb_measure_p2p's figures; 0: not measured */
    double latency_us;                 /* a 4-byte copy, one of many back to back (climb_measure_p2p); 0: not measured */
    int nvlinks, nvswitch;             /* NVML: the NVLinks that join the pair (climb_nvlink_pair); -1: unknown */
} climb_p2p;
#define CLIMB_P2P_UNKNOWN {-1, -1, -1, 0, 0, 0, -1, -1}

/* A GPU's NVLinks as NVML reports them (climb_device_nvlinks): its own PCI address, and for each active link the
 * kind of device at the other end (0: a GPU, 1: an IBM NPU, 2: an NVSwitch, -1: unknown) and its PCI address
 * (domain << 32 | bus << 8 | device). read 0: NVML could not say (absent, or a GPU without NVLink queries). */
#define CLIMB_MAX_NVLINKS 18
typedef struct climb_nvlinks {
    int read, n;
    unsigned long long self;
    int remote_type[CLIMB_MAX_NVLINKS];
    unsigned long long remote[CLIMB_MAX_NVLINKS];
} climb_nvlinks;
int climb_device_nvlinks(int ordinal, climb_nvlinks *out);
/* The NVLinks between GPUs a and b: those of a's active links whose other end is b itself, or, where a's and b's
 * links go to NVSwitches (and none straight to each other), the fewer of the two GPUs' switch links (all of a
 * GPU's bandwidth reaches any other GPU on the switches, as nvidia-smi topo's NV# says). *links -1 and *nvswitch -1
 * where either GPU's links could not be read. */
void climb_nvlink_pair(const climb_nvlinks *a, const climb_nvlinks *b, int *links, int *nvswitch);
int climb_device_p2p(int a, int b, climb_p2p *out);

/* Peer access from device `dev` to `peer`'s memory on (on) or off, making dev current: turning on what is on, or
 * off what is off, is no error, and where climb set that state itself no runtime call is made. 0, or the CUDA
 * error, the runtime's error state cleared either way. */
cudaError_t climb_peer_access(int dev, int peer, int on);

/* The copy engines between every ordered pair of devices[0..n) (n <= 64), `bytes` a copy: GB/s one way
 * (one_way[i * n + j], GPU i to GPU j) and both ways at once (both_ways, 2 x bytes over the time), the best of five
 * after a warm-up, peer access on where a pair has it; the diagonal -1. 0, or -1 after printing why (the figures
 * measured so far kept, the rest -1). Leaves some device of the set current: the caller sets its own again. */
int climb_measure_p2p(const int *devices, int n, size_t bytes, double *one_way, double *both_ways, double *latency_us);

/* Every ordered pair of devices[0..n) into p2p[i * n + j]: what the driver says (climb_device_p2p; a pair it cannot
 * say is said) and, with measure, the copy engines measured (climb_measure_p2p, 256 MiB a copy); the diagonal
 * unset. 0, or -1 when out of host memory (said). Leaves some device of the set current. */
int climb_device_pairs(const int *devices, int n, int measure, climb_p2p *p2p);

/* A device buffer of `bytes` whose start *p lies `offset` bytes past the start of its allocation *alloc (inputs made
 * misaligned on purpose), with 16 bytes to spare after the end (vector loads that round up): free *alloc. 0, or
 * -1 after printing why (out of device memory, with `what`), the runtime's error cleared. */
int climb_device_alloc_offset(size_t bytes, size_t offset, void **alloc, void **p, const char *what);

/* Fills the facts for device `ordinal` and makes it current. Returns 0, or -1 after printing why. */
int climb_device_query(int ordinal, climb_device_info *d);

/* 1 when a list of CUDA architectures as CMake writes it ("80-real;86-real;89-real;90") holds code a GPU of compute
 * capability major.minor runs: machine code (NN or NN-real) of its major version and a minor version not above its
 * own, or PTX (NN or NN-virtual) of a version not above its own, which the driver compiles. Arch-specific entries
 * (90a) count for their own capability only. */
int climb_archs_cover(const char *archs, int cc_major, int cc_minor);
/* 0 when this build holds code device d runs (climb_build_arch, and a kernel's image checked with the runtime); else
 * -1 with one line in why: what the binary holds, what the GPU is, how to rebuild. */
int climb_device_code_check(const climb_device_info *d, char *why, size_t whylen);
/* The same facts, without printing and without changing the current device: the one reader the CLI and the C API
 * share, so a policy keyed on any of them (L2 size, clocks) behaves the same in both. The CUDA error, or
 * cudaSuccess; the runtime's last-error state is left clear. */
cudaError_t climb_device_read(int ordinal, climb_device_info *d);

/* The current device's SM count, for launchers that size grids without the device facts (the library face). The
 * CUDA error, or cudaSuccess with *sms set. */
cudaError_t climb_current_sms(int *sms);

/* Room in the device runtime's pool for `launches` device-side launches pending at once, plus a margin (the pool
 * holds 2048 unless raised; past it, launches spill to a slower pool or fail): raised, never lowered. For the
 * rungs that launch from the device, before their runs. */
cudaError_t climb_reserve_device_launches(size_t launches);

/* FP32 lanes per SM for a compute capability (0 if unknown). */
int climb_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* Extra ceilings climb_measure_ceilings takes only when asked (a workload names them). */
#define CLIMB_MEASURE_SFU 1u
#define CLIMB_MEASURE_TENSOR 2u

/* Measures copy, read, FFMA, DFMA and launch latency on the current device (about a second), and the ceilings
 * in `extra` (CLIMB_MEASURE_* bits) not measured yet. Returns 0, or -1 after printing why. */
int climb_measure_ceilings(climb_device_info *d, unsigned extra);

/* The write rate a copy leaves after its reads: 1/write = 2/copy - 1/read (a copy moves as many bytes each way),
 * so that bytes_read/read + bytes_written/write is the copy's own time for a copy. */
double climb_write_gbs(double copy_gbs, double read_gbs);


/* A device buffer of at least `need` bytes for a case's workspace: *buf (of *have bytes, NULL and 0 at first) is
 * kept when large enough, else freed and allocated again (contents not kept). 0, or -1 after printing why. */
int climb_grow_device_buffer(void **buf, size_t *have, size_t need);

/* A launch of fn: grid blocks of `block` threads, smem bytes of dynamic shared memory, on s, with args (as
 * cudaLaunchKernel takes them). With pdl, a programmatic dependent launch: it may start while the kernel before it
 * in s finishes, and waits in climb_grid_dependency_wait before it reads what that kernel wrote (sm_90 and later;
 * callers pass 0 before). */
cudaError_t climb_launch_ex(const void *fn, unsigned grid, unsigned block, size_t smem, cudaStream_t s, void **args,
                            int pdl);
/* *pdl = 1 when the current device takes programmatic dependent launches (sm_90 and later), else 0. */
cudaError_t climb_current_device_pdl(int *pdl);

/* Short lowercase slug of the device name for result folders: "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3". */
void climb_device_slug(const char *name, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
