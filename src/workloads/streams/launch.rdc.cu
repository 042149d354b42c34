/*
 * launch.rdc.cu - the streams ladder's rung whose kernels are launched from the device: one kernel's threads
 * launch the K chains (fire and forget: each a grid of its own, free to run beside the others), and each kernel of a
 * chain launches the chain's next as a tail launch (it starts when the launching grid has finished, its writes
 * visible). No host launch a kernel, no stream a chain. The one file of the workload compiled as relocatable device
 * code (a file named *.rdc.cu; cmake/climb.cmake), so that the other rungs' kernels load in modules without device
 * launches. See streams.cu.
 */
#include "kernels.cuh"

/* Kernel j of chain i: every thread's steps; the first thread counts the kernel and launches the chain's next. */
__global__ void st_chain_kernel(st_dev_args a, unsigned i, unsigned j)
{
    const size_t per = (size_t)a.blocks * a.threads, e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t *in = j == 0 ? a.x0 + i * per : a.out + ((size_t)i * a.chain + j - 1) * per;
    a.out[((size_t)i * a.chain + j) * per + e] = st_steps(in[e], a.iters);
    if (e == 0) {
        atomicAdd(&a.count[(size_t)i * a.chain + j], 1u);
        if (j + 1 < a.chain)
            st_chain_kernel<<<a.blocks, a.threads, 0, cudaStreamTailLaunch>>>(a, i, j + 1);
    }
}

/* Thread i launches chain i's first kernel. */
__global__ void st_spawn_kernel(st_dev_args a)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.K)
        st_chain_kernel<<<a.blocks, a.threads, 0, cudaStreamFireAndForget>>>(a, i, 0);
}

cudaError_t st_launch_from_device(const st_dev_args *a, cudaStream_t s)
{
    if (a->K)
        st_spawn_kernel<<<(a->K + 63) / 64, 64, 0, s>>>(*a);
    return cudaGetLastError();
}

int st_device_kernels(climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)st_spawn_kernel, 64, 0, "st_spawn_kernel");
    return climb_kernel_at(o, max, n, (const void *)st_chain_kernel, 64, 0, "st_chain_kernel");
}
