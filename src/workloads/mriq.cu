/*
 * mriq.cu - the Q matrix of non-Cartesian MRI reconstruction (Parboil's MRI-Q), f32, the MRI-Q ladder of Hwu, Kirk
 * and El Hajj, "Programming Massively Parallel Processors" (PMPP), chapter "Application case study: non-Cartesian
 * MRI":
 *
 *   Q(x) = sum over the k-space samples k of |phi(k)|^2 (cos + i sin)(2 pi k . x),   at every voxel x.
 *
 * The ladder: scatter (a thread per sample adds its term to every voxel with atomics); loop fission (|phi|^2 once
 * per sample, its own kernel) and interchange into a gather (a thread per voxel, its coordinates and sums read and
 * written in global memory at every sample); the voxel's coordinates and sums in registers; the samples in constant
 * memory in chunks of 2000, one array each; the samples as one (kx, ky, kz, |phi|^2) record (AoS: one broadcast
 * read a sample); thread coarsening (4 voxels a thread, a block's width apart: a sample read once for all four);
 * the hardware's __sinf and __cosf (MUFU) instead of the accurate sincosf, whose error is measured against the
 * accurate rungs and said in each report's notes; and the best rung: the records staged through shared memory
 * (one launch for every sample and no constant symbol, so calls on several streams cannot race), tuned voxels a
 * thread and block size.
 *
 * Counted per case: samples x voxels evaluations (the items), each a sin and a cos (two MUFU operations: the
 * special-function ceiling) and 10 flops; the accurate rungs declare their own counts (no MUFU work; their sin and
 * cos are a software routine on the FMA pipe). See docs/mriq.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/rng.h"
#include "../core/workload.cuh"
#include "../base/check.h"
#include "../device/device.h"
#include "../io/parboil.h"
#include "../io/text.h"
#include "mriq.h"

#define MRIQ_2PI 6.2831853071795864769f

/* ---------------------------------------------------------------- CPU reference */

extern "C" void climb_mriq_ref_at(const climb_mriq_kspace *ks, float x, float y, float z, int sfu, double *qr,
                                  double *qi, double *tol, double *mag)
{
    const double two_pi = 6.283185307179586476925286766559;
    double r = 0, i = 0, m_sum = 0, arg_err = 0;
    for (size_t k = 0; k < ks->k; k++) {
        const double m = (double)ks->phi_r[k] * ks->phi_r[k] + (double)ks->phi_i[k] * ks->phi_i[k];
        const double a = (double)ks->kx[k] * x + (double)ks->ky[k] * y + (double)ks->kz[k] * z;
        r += m * cos(two_pi * a);
        i += m * sin(two_pi * a);
        m_sum += m;
        arg_err += m * two_pi * (fabs((double)ks->kx[k] * x) + fabs((double)ks->ky[k] * y) + fabs((double)ks->kz[k] * z));
    }
    *qr = r;
    *qi = i;
    if (tol)
        *tol = (sfu ? 8 : 6) * 0x1p-24 * arg_err + (sfu ? 0x1p-20 : 0x1p-22) * m_sum +
               1.01 * ((double)ks->k + 8) * 0x1p-24 * m_sum + 0x1p-22 * m_sum;
    if (mag)
        *mag = m_sum;
}

/* ---------------------------------------------------------------- kernels */

/* One sample's term at one voxel: the phase 2 pi k . x, then its cos and sin (accurate, or the MUFU's). */
template <bool SFU>
__device__ __forceinline__ void mriq_term(float kx, float ky, float kz, float m, float x, float y, float z, float &qr,
                                          float &qi)
{
    const float arg = MRIQ_2PI * fmaf(kz, z, fmaf(ky, y, kx * x));
    float s, c;
    if (SFU) {
        s = __sinf(arg);
        c = __cosf(arg);
    } else {
        sincosf(arg, &s, &c);
    }
    qr = fmaf(m, c, qr);
    qi = fmaf(m, s, qi);
}

/* scatter: a thread per sample computes |phi|^2 and adds its term to every voxel with two atomicAdds; Q is zeroed
 * first. Every thread of a warp adds to the same voxel at once. */
__global__ void __launch_bounds__(256) mriq_scatter_kernel(const float *kx, const float *ky, const float *kz,
                                                           const float *pr, const float *pi, int nk, const float *x,
                                                           const float *y, const float *z, int nv, float *qr, float *qi)
{
    const int k = blockIdx.x * 256 + threadIdx.x;
    if (k >= nk)
        return;
    const float m = pr[k] * pr[k] + pi[k] * pi[k];
    for (int v = 0; v < nv; v++) {
        float r = 0.0f, i = 0.0f;
        mriq_term<false>(kx[k], ky[k], kz[k], m, x[v], y[v], z[v], r, i);
        atomicAdd(qr + v, r);
        atomicAdd(qi + v, i);
    }
}

/* Loop fission: |phi|^2 of every sample, once (a kernel of its own). AOS: as (kx, ky, kz, |phi|^2) records. */
__global__ void __launch_bounds__(256) mriq_mag_kernel(const float *pr, const float *pi, int nk, float *mag)
{
    const int k = blockIdx.x * 256 + threadIdx.x;
    if (k < nk)
        mag[k] = pr[k] * pr[k] + pi[k] * pi[k];
}

__global__ void __launch_bounds__(256) mriq_aos_kernel(const float *kx, const float *ky, const float *kz,
                                                       const float *pr, const float *pi, int nk, float4 *rec)
{
    const int k = blockIdx.x * 256 + threadIdx.x;
    if (k < nk)
        rec[k] = make_float4(kx[k], ky[k], kz[k], pr[k] * pr[k] + pi[k] * pi[k]);
}

/* gather: a thread per voxel, every sample from global memory; the voxel's coordinates read and its sums read and
 * written in global memory at every sample (as a loop nest written for the CPU leaves them). Q is zeroed first. */
__global__ void __launch_bounds__(256) mriq_gather_kernel(const float *kx, const float *ky, const float *kz,
                                                          const float *mag, int nk, const float *x, const float *y,
                                                          const float *z, int nv, float *qr, float *qi)
{
    const int v = blockIdx.x * 256 + threadIdx.x;
    if (v >= nv)
        return;
    for (int k = 0; k < nk; k++) {
        float r = qr[v], i = qi[v];
        mriq_term<false>(kx[k], ky[k], kz[k], mag[k], x[v], y[v], z[v], r, i);
        qr[v] = r;
        qi[v] = i;
    }
}

/* registers: the voxel's coordinates and sums in registers, one store at the end. */
__global__ void __launch_bounds__(256) mriq_registers_kernel(const float *__restrict__ kx, const float *__restrict__ ky,
                                                             const float *__restrict__ kz, const float *__restrict__ mag,
                                                             int nk, const float *x, const float *y, const float *z,
                                                             int nv, float *qr, float *qi)
{
    const int v = blockIdx.x * 256 + threadIdx.x;
    if (v >= nv)
        return;
    const float px = x[v], py = y[v], pz = z[v];
    float r = 0.0f, i = 0.0f;
    for (int k = 0; k < nk; k++)
        mriq_term<false>(kx[k], ky[k], kz[k], mag[k], px, py, pz, r, i);
    qr[v] = r;
    qi[v] = i;
}

/* The samples in constant memory, 2000 at a time (the book's chunks: 32 KB as four arrays or as records, both in
 * the module's 64 KB), a launch a chunk, each adding to Q (the first writes it). */
#define MRIQ_CHUNK 2000
__constant__ float mriq_ckx[MRIQ_CHUNK], mriq_cky[MRIQ_CHUNK], mriq_ckz[MRIQ_CHUNK], mriq_cmag[MRIQ_CHUNK];
__constant__ float4 mriq_crec[MRIQ_CHUNK];

__global__ void __launch_bounds__(256) mriq_const_kernel(int nk, const float *x, const float *y, const float *z, int nv,
                                                         float *qr, float *qi, int first)
{
    const int v = blockIdx.x * 256 + threadIdx.x;
    if (v >= nv)
        return;
    const float px = x[v], py = y[v], pz = z[v];
    float r = 0.0f, i = 0.0f;
    for (int k = 0; k < nk; k++)
        mriq_term<false>(mriq_ckx[k], mriq_cky[k], mriq_ckz[k], mriq_cmag[k], px, py, pz, r, i);
    qr[v] = first ? r : qr[v] + r;
    qi[v] = first ? i : qi[v] + i;
}

/* The records in constant memory: one 16-byte broadcast a sample. V voxels a thread, 256 apart (coarsening: the
 * record read once for all of them); SFU: __sinf and __cosf. */
template <int V, bool SFU>
__global__ void __launch_bounds__(256) mriq_const_rec_kernel(int nk, const float *x, const float *y, const float *z,
                                                             int nv, float *qr, float *qi, int first)
{
    const int v0 = blockIdx.x * 256 * V + threadIdx.x;
    float px[V], py[V], pz[V], r[V], i[V];
#pragma unroll
    for (int u = 0; u < V; u++) {
        const int v = min(v0 + u * 256, nv - 1);
        px[u] = x[v];
        py[u] = y[v];
        pz[u] = z[v];
        r[u] = i[u] = 0.0f;
    }
    for (int k = 0; k < nk; k++) {
        const float4 s = mriq_crec[k];
#pragma unroll
        for (int u = 0; u < V; u++)
            mriq_term<SFU>(s.x, s.y, s.z, s.w, px[u], py[u], pz[u], r[u], i[u]);
    }
#pragma unroll
    for (int u = 0; u < V; u++) {
        const int v = v0 + u * 256;
        if (v < nv) {
            qr[v] = first ? r[u] : qr[v] + r[u];
            qi[v] = first ? i[u] : qi[v] + i[u];
        }
    }
}

/* The best rung: the records staged through shared memory, BLOCK at a time (one launch, no constant symbol), V
 * voxels a thread BLOCK apart, the MUFU's sin and cos. Where the voxels are too few to fill the GPU, the samples are
 * split into gridDim.y slices of `per` (a multiple of BLOCK): each block sums its slice and adds it to Q (zeroed
 * first) with atomics. */
template <int V, int BLOCK>
__global__ void __launch_bounds__(BLOCK) mriq_best_kernel(const float4 *__restrict__ rec, int nk, int per,
                                                          const float *__restrict__ x, const float *__restrict__ y,
                                                          const float *__restrict__ z, int nv, float *qr, float *qi)
{
    __shared__ float4 tile[BLOCK];
    const int t = threadIdx.x, v0 = blockIdx.x * BLOCK * V + t;
    float px[V], py[V], pz[V], r[V], i[V];
#pragma unroll
    for (int u = 0; u < V; u++) {
        const int v = min(v0 + u * BLOCK, nv - 1);
        px[u] = x[v];
        py[u] = y[v];
        pz[u] = z[v];
        r[u] = i[u] = 0.0f;
    }
    const int k_end = min(nk, (int)(blockIdx.y + 1) * per);
    for (int k0 = blockIdx.y * per; k0 < k_end; k0 += BLOCK) {
        const int m = min(BLOCK, k_end - k0);
        __syncthreads();
        if (t < m)
            tile[t] = rec[k0 + t];
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < m; k++) {
            const float4 s = tile[k];
#pragma unroll
            for (int u = 0; u < V; u++)
                mriq_term<true>(s.x, s.y, s.z, s.w, px[u], py[u], pz[u], r[u], i[u]);
        }
    }
#pragma unroll
    for (int u = 0; u < V; u++) {
        const int v = v0 + u * BLOCK;
        if (v < nv && gridDim.y > 1) {
            atomicAdd(qr + v, r[u]);
            atomicAdd(qi + v, i[u]);
        } else if (v < nv) {
            qr[v] = r[u];
            qi[v] = i[u];
        }
    }
}

/* ---------------------------------------------------------------- the best rung, for the library face */

static const int MRIQ_VOXELS[] = {1, 2, 4, 8};
static const int MRIQ_BLOCK[] = {128, 256, 512};

extern "C" void climb_mriq_set_tuning(climb_mriq_tuning *t, const int *values)
{
    t->voxels = values[0];
    t->block = values[1];
}

static size_t cdiv(size_t n, size_t d) { return (n + d - 1) / d; }

extern "C" cudaError_t climb_mriq_best(const climb_mriq_tuning *t, const climb_mriq_kspace *ks, const float *x,
                                       const float *y, const float *z, size_t voxels, float *qr, float *qi, void *ws,
                                       cudaStream_t s)
{
    if (voxels == 0)
        return cudaSuccess;
    if (voxels > INT32_MAX || ks->k > INT32_MAX || t->voxels < 1 || t->block < 1)
        return cudaErrorInvalidValue;
    float4 *rec = (float4 *)ws;
    const int nk = (int)ks->k, nv = (int)voxels;
    if (nk)
        mriq_aos_kernel<<<(unsigned)cdiv(ks->k, 256), 256, 0, s>>>(ks->kx, ks->ky, ks->kz, ks->phi_r, ks->phi_i, nk, rec);
    /* Slices of the samples while the voxels' blocks hold fewer threads than the SMs (2048 each), at least a tile of
     * samples a slice. */
    int sms = 1;
    cudaError_t e = climb_current_sms(&sms);
    if (e != cudaSuccess)
        return e;
    const size_t blocks = cdiv(voxels, (size_t)t->voxels * t->block);
    const size_t want = (size_t)sms * 2048 / t->block, tiles = cdiv(ks->k, (size_t)t->block);
    size_t slices = blocks < want ? cdiv(want, blocks) : 1;
    slices = slices > tiles ? tiles : slices;
    slices = slices < 1 ? 1 : slices > 65535 ? 65535 : slices;
    const int per = (int)(cdiv(tiles, slices) * t->block);
    slices = per > 0 ? cdiv(ks->k, (size_t)per) : 1;
    if (slices > 1) {
        if ((e = cudaMemsetAsync(qr, 0, voxels * sizeof(float), s)) != cudaSuccess ||
            (e = cudaMemsetAsync(qi, 0, voxels * sizeof(float), s)) != cudaSuccess)
            return e;
    } else {
        slices = 1;
    }
#define MRIQ_BEST(V_, B_)                                                                                    \
    if (t->voxels == V_ && t->block == B_) {                                                                 \
        mriq_best_kernel<V_, B_><<<dim3((unsigned)blocks, (unsigned)slices), B_, 0, s>>>(rec, nk, per, x, y, z, nv, \
                                                                                          qr, qi);           \
        return cudaGetLastError();                                                                           \
    }
    MRIQ_BEST(1, 128) MRIQ_BEST(1, 256) MRIQ_BEST(1, 512)
    MRIQ_BEST(2, 128) MRIQ_BEST(2, 256) MRIQ_BEST(2, 512)
    MRIQ_BEST(4, 128) MRIQ_BEST(4, 256) MRIQ_BEST(4, 512)
    MRIQ_BEST(8, 128) MRIQ_BEST(8, 256) MRIQ_BEST(8, 512)
#undef MRIQ_BEST
    return cudaErrorInvalidValue;
}

/* ---------------------------------------------------------------- the case */

enum { MRIQ_N_RUNGS = 8 };  /* the table's rows (a static_assert below holds it to the table) */

struct climb_case {
    climb_case_params p;
    size_t nk, nv;
    float *h_k, *d_k;            /* 5 nk: kx, ky, kz, phi_r, phi_i */
    float *h_x, *d_x;            /* 3 nv: x, y, z */
    float *d_mag;                /* nk: |phi|^2 (gather, registers, const_chunks) */
    float4 *d_rec;               /* nk records (the record rungs and the best) */
    float *h_qr, *d_qr, *h_qi, *d_qi;  /* Q, and verify's download */
    climb_ref_mode mode;
    double *ref_r, *ref_i, *tol, *tol_sfu, *mag;
    size_t *samples, n_samples;
    double worst[MRIQ_N_RUNGS];  /* per rung: its last verified run's largest error over sum |phi|^2 */
    climb_mriq_tuning tn;
};

static climb_mriq_kspace kspace_of(const climb_case *c, const float *base)
{
    climb_mriq_kspace ks = {c->nk, base, base + c->nk, base + 2 * c->nk, base + 3 * c->nk, base + 4 * c->nk};
    return ks;
}

#define DK(i) (c->d_k + (size_t)(i) * c->nk)
#define DX(i) (c->d_x + (size_t)(i) * c->nv)

static cudaError_t zero_q(climb_case *c, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(c->d_qr, 0, c->nv * sizeof(float), s);
    return e == cudaSuccess ? cudaMemsetAsync(c->d_qi, 0, c->nv * sizeof(float), s) : e;
}

static cudaError_t launch_scatter(climb_case *c, cudaStream_t s)
{
    cudaError_t e = zero_q(c, s);
    if (e != cudaSuccess || c->nk == 0)
        return e;
    mriq_scatter_kernel<<<(unsigned)cdiv(c->nk, 256), 256, 0, s>>>(DK(0), DK(1), DK(2), DK(3), DK(4), (int)c->nk, DX(0),
                                                                   DX(1), DX(2), (int)c->nv, c->d_qr, c->d_qi);
    return cudaGetLastError();
}

static cudaError_t fission(climb_case *c, cudaStream_t s)
{
    if (c->nk)
        mriq_mag_kernel<<<(unsigned)cdiv(c->nk, 256), 256, 0, s>>>(DK(3), DK(4), (int)c->nk, c->d_mag);
    return cudaGetLastError();
}

static cudaError_t launch_gather(climb_case *c, cudaStream_t s)
{
    cudaError_t e = zero_q(c, s);
    if (e != cudaSuccess || (e = fission(c, s)) != cudaSuccess)
        return e;
    mriq_gather_kernel<<<(unsigned)cdiv(c->nv, 256), 256, 0, s>>>(DK(0), DK(1), DK(2), c->d_mag, (int)c->nk, DX(0),
                                                                  DX(1), DX(2), (int)c->nv, c->d_qr, c->d_qi);
    return cudaGetLastError();
}

static cudaError_t launch_registers(climb_case *c, cudaStream_t s)
{
    cudaError_t e = fission(c, s);
    if (e != cudaSuccess)
        return e;
    mriq_registers_kernel<<<(unsigned)cdiv(c->nv, 256), 256, 0, s>>>(DK(0), DK(1), DK(2), c->d_mag, (int)c->nk, DX(0),
                                                                     DX(1), DX(2), (int)c->nv, c->d_qr, c->d_qi);
    return cudaGetLastError();
}

/* The constant-memory rungs: kind 0 four arrays; 1 records; 2 records, 4 voxels a thread; 3 and the MUFU. */
static cudaError_t const_chunks(climb_case *c, cudaStream_t s, int kind)
{
    cudaError_t e = kind == 0 ? fission(c, s) : cudaSuccess;
    if (e == cudaSuccess && kind > 0 && c->nk)
        mriq_aos_kernel<<<(unsigned)cdiv(c->nk, 256), 256, 0, s>>>(DK(0), DK(1), DK(2), DK(3), DK(4), (int)c->nk,
                                                                   c->d_rec);
    if (e != cudaSuccess || (e = cudaGetLastError()) != cudaSuccess)
        return e;
    const int V = kind >= 2 ? 4 : 1;
    for (size_t k0 = 0; k0 == 0 || k0 < c->nk; k0 += MRIQ_CHUNK) {
        const size_t m = c->nk - k0 < MRIQ_CHUNK ? c->nk - k0 : MRIQ_CHUNK;
        const cudaMemcpyKind d2d = cudaMemcpyDeviceToDevice;
        if (m && kind == 0) {
            const float *src[4] = {DK(0) + k0, DK(1) + k0, DK(2) + k0, c->d_mag + k0};
            const void *sym[4] = {(const void *)mriq_ckx, (const void *)mriq_cky, (const void *)mriq_ckz,
                                  (const void *)mriq_cmag};
            for (int a = 0; a < 4 && e == cudaSuccess; a++)
                e = cudaMemcpyToSymbolAsync(sym[a], src[a], m * sizeof(float), 0, d2d, s);
        } else if (m) {
            e = cudaMemcpyToSymbolAsync(mriq_crec, c->d_rec + k0, m * sizeof(float4), 0, d2d, s);
        }
        if (e != cudaSuccess)
            return e;
        const unsigned blocks = (unsigned)cdiv(c->nv, (size_t)256 * V);
        const int first = k0 == 0;
        if (kind == 0)
            mriq_const_kernel<<<blocks, 256, 0, s>>>((int)m, DX(0), DX(1), DX(2), (int)c->nv, c->d_qr, c->d_qi, first);
        else if (kind == 1)
            mriq_const_rec_kernel<1, false><<<blocks, 256, 0, s>>>((int)m, DX(0), DX(1), DX(2), (int)c->nv, c->d_qr,
                                                                   c->d_qi, first);
        else if (kind == 2)
            mriq_const_rec_kernel<4, false><<<blocks, 256, 0, s>>>((int)m, DX(0), DX(1), DX(2), (int)c->nv, c->d_qr,
                                                                   c->d_qi, first);
        else
            mriq_const_rec_kernel<4, true><<<blocks, 256, 0, s>>>((int)m, DX(0), DX(1), DX(2), (int)c->nv, c->d_qr,
                                                                  c->d_qi, first);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return e;
        if (c->nk == 0)
            break;
    }
    return cudaSuccess;
}

static cudaError_t launch_const(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 0); }
static cudaError_t launch_records(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 1); }
static cudaError_t launch_coarse(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 2); }
static cudaError_t launch_sfu(climb_case *c, cudaStream_t s) { return const_chunks(c, s, 3); }

static cudaError_t launch_best(climb_case *c, cudaStream_t s)
{
    const climb_mriq_kspace ks = kspace_of(c, c->d_k);
    return climb_mriq_best(&c->tn, &ks, DX(0), DX(1), DX(2), c->nv, c->d_qr, c->d_qi, c->d_rec, s);
}

/* ---------------------------------------------------------------- the registry */

static int k_scatter(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return climb_one_kernel(o, max, (const void *)mriq_scatter_kernel, "mriq_scatter_kernel", 256, 0);
}
static int k_gather(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)mriq_mag_kernel, 256, 0, "mriq_mag_kernel");
    return climb_kernel_at(o, max, n, (const void *)mriq_gather_kernel, 256, 0, "mriq_gather_kernel");
}
static int k_registers(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)mriq_mag_kernel, 256, 0, "mriq_mag_kernel");
    return climb_kernel_at(o, max, n, (const void *)mriq_registers_kernel, 256, 0, "mriq_registers_kernel");
}
static int k_const(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)mriq_mag_kernel, 256, 0, "mriq_mag_kernel");
    return climb_kernel_at(o, max, n, (const void *)mriq_const_kernel, 256, 0, "mriq_const_kernel");
}
static int k_rec(climb_kernel_desc *o, int max, const void *f, const char *name)
{
    const int n = climb_kernel_at(o, max, 0, (const void *)mriq_aos_kernel, 256, 0, "mriq_aos_kernel");
    return climb_kernel_at(o, max, n, f, 256, 0, "%s", name);
}
static int k_records(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_rec(o, max, (const void *)mriq_const_rec_kernel<1, false>, "mriq_const_rec_kernel<1, false>");
}
static int k_coarse(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_rec(o, max, (const void *)mriq_const_rec_kernel<4, false>, "mriq_const_rec_kernel<4, false>");
}
static int k_sfu(climb_dtype, const climb_device_info *, const int *, climb_kernel_desc *o, int max)
{
    return k_rec(o, max, (const void *)mriq_const_rec_kernel<4, true>, "mriq_const_rec_kernel<4, true>");
}
static int k_best(climb_dtype, const climb_device_info *, const int *tuning, climb_kernel_desc *o, int max)
{
    climb_mriq_tuning t;
    climb_mriq_set_tuning(&t, tuning);
    const int n = climb_kernel_at(o, max, 0, (const void *)mriq_aos_kernel, 256, 0, "mriq_aos_kernel");
#define MRIQ_K(V_, B_)                                                                                       \
    if (t.voxels == V_ && t.block == B_)                                                                     \
        return climb_kernel_at(o, max, n, (const void *)mriq_best_kernel<V_, B_>, B_, 0, "mriq_best_kernel<%d, %d>", V_, B_);
    MRIQ_K(1, 128) MRIQ_K(1, 256) MRIQ_K(1, 512)
    MRIQ_K(2, 128) MRIQ_K(2, 256) MRIQ_K(2, 512)
    MRIQ_K(4, 128) MRIQ_K(4, 256) MRIQ_K(4, 512)
    MRIQ_K(8, 128) MRIQ_K(8, 256) MRIQ_K(8, 512)
#undef MRIQ_K
    return n;
}

/* The atomic rung's rule: beyond 2^30 pairs its atomics (a warp's all on one voxel) take seconds. */
static const char *refuses_scatter(const climb_case *c)
{
    if ((double)c->nk * (double)c->nv > 1073741824.0)
        return "samples x voxels up to 2^30 (its 2 atomics a pair, all of a warp on one voxel, take seconds beyond)";
    return NULL;
}

typedef struct mriq_rung {
    climb_rung_info info;
    int sfu;                  /* 1: sin and cos on the special-function unit (its tolerance, its counts) */
} mriq_rung;

static const mriq_rung MRIQ_RUNGS[] = {
    {.info = {.name = "scatter", .idea = "a thread per k-space sample adds its term to every voxel with atomicAdd",
              .needs = "samples x voxels up to 2^30 (its 2 atomics a pair, all of a warp on one voxel, take seconds "
                       "beyond)",
              .kind = CLIMB_RUNG_LADDER, .kernels = k_scatter, .launch = launch_scatter,
              .refuses = refuses_scatter}},
    {.info = {.name = "gather", .idea = "loop fission (|phi|^2 its own kernel) and interchange: a thread per voxel, "
                                        "no atomics; its coordinates and sums in global memory",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_gather, .launch = launch_gather}},
    {.info = {.name = "registers", .idea = "the voxel's coordinates and sums in registers, one store at the end",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_registers, .launch = launch_registers}},
    {.info = {.name = "const_chunks", .idea = "the samples in constant memory, 2000 a launch, as four arrays",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_const, .launch = launch_const}},
    {.info = {.name = "const_records", .idea = "each sample one (kx, ky, kz, |phi|^2) record (AoS): one 16-byte "
                                               "broadcast read",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_records, .launch = launch_records}},
    {.info = {.name = "coarsened", .idea = "4 voxels a thread, a block's width apart: a sample read once for four",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_coarse, .launch = launch_coarse}},
    {.info = {.name = "sfu", .idea = "__sinf and __cosf on the special-function unit instead of the accurate sincosf "
                                     "(error measured: see the notes)",
              .needs = "", .kind = CLIMB_RUNG_LADDER, .kernels = k_sfu, .launch = launch_sfu},
     .sfu = 1},
    {.info = {.name = "shared_records", .idea = "the records staged through shared memory (one launch, no constant "
                                                "symbol), tuned voxels a thread and block; the samples split in "
                                                "slices where the voxels cannot fill the GPU",
              .needs = "", .kind = CLIMB_RUNG_BEST, .kernels = k_best, .launch = launch_best},
     .sfu = 1},
};

static_assert(CLIMB_COUNT(MRIQ_RUNGS) == MRIQ_N_RUNGS, "MRIQ_N_RUNGS is the table's length");

static const climb_rung_info *mriq_rung_info(int i) { return &MRIQ_RUNGS[i].info; }

/* ---------------------------------------------------------------- options and tuning */

enum { OPT_TRAJECTORY, OPT_INPUT };
static const char *const MRIQ_TRAJ[] = {"spiral", "random", NULL};
static constexpr climb_option MRIQ_OPTIONS[] = {
    {.name = "trajectory", .kind = CLIMB_OPT_CHOICE,
     .meaning = "generated k-space samples: a stack of spirals (Archimedean in kx-ky, interleaved over kz planes) or "
                "uniform random, both to the Nyquist limit of the voxel grid; phi uniform in [-1, 1)^2; the voxels a "
                "cubic grid over the field of view [-0.5, 0.5)^3",
     .def = "spiral", .choices = MRIQ_TRAJ, .generator = 1},
    {.name = "input", .kind = CLIMB_OPT_FILE,
     .meaning = "a Parboil MRI-Q input file (int32 samples, voxels, then float32 kx ky kz x y z phiR phiI); its sizes "
                "are the case's",
     .def = ""},
};
CLIMB_OPTION_AT(MRIQ_OPTIONS, OPT_TRAJECTORY, "trajectory");
CLIMB_OPTION_AT(MRIQ_OPTIONS, OPT_INPUT, "input");

static const climb_tunable MRIQ_TUNABLES[] = {
    {.name = "voxels", .meaning = "voxels a thread, a block's width apart", .values = MRIQ_VOXELS,
     .n_values = CLIMB_COUNT(MRIQ_VOXELS)},
    {.name = "block", .meaning = "threads a block (and samples a shared tile)", .values = MRIQ_BLOCK,
     .n_values = CLIMB_COUNT(MRIQ_BLOCK)},
};

static const char *mriq_defaults(const climb_device_info *dev, const climb_tuning_key *k, int *values)
{
    (void)dev;
    (void)k;
    values[0] = 4;
    values[1] = 256;
    return "built-in: 4 voxels a thread, 256 threads a block";
}

static const climb_tuning MRIQ_TUNING = {.params = MRIQ_TUNABLES, .n_params = CLIMB_COUNT(MRIQ_TUNABLES),
                                         .candidates = NULL, .n_candidates = 0, .defaults = mriq_defaults,
                                         .rejects = NULL};

/* ---------------------------------------------------------------- harness glue */

static int mriq_load(const char *path, void **data, climb_shape *shape, char *desc, size_t desclen, char *err,
                     size_t errlen)
{
    climb_mriq_input *in = (climb_mriq_input *)calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "%s: out of host memory", path);
        return -1;
    }
    if (climb_mriq_read(path, in, err, errlen) != 0) {
        free(in);
        return -1;
    }
    *data = in;
    *shape = (climb_shape)CLIMB_SHAPE2(in->k, in->x);
    snprintf(desc, desclen, "%s: %zu samples, %zu voxels", climb_base_name(path), in->k, in->x);
    return 0;
}

/* A dry run's look at the file: its two counts and its length. */
static int mriq_peek(const char *path, climb_shape *shape, char *desc, size_t desclen, char *err, size_t errlen)
{
    size_t k, x;
    if (climb_mriq_peek(path, &k, &x, err, errlen) != 0)
        return -1;
    *shape = (climb_shape)CLIMB_SHAPE2(k, x);
    snprintf(desc, desclen, "%s: %zu samples, %zu voxels", climb_base_name(path), k, x);
    return 0;
}

static void mriq_unload(void *data)
{
    climb_mriq_input *in = (climb_mriq_input *)data;
    if (in)
        climb_mriq_free(in);
    free(in);
}

static void mriq_fini(climb_case *c)
{
    free(c->ref_r);
    free(c->ref_i);
    free(c->tol);
    free(c->tol_sfu);
    free(c->mag);
    free(c->samples);
}

/* Generated samples and voxels (see the `trajectory` option). */
static void make_inputs(climb_case *c, int traj, climb_rng *r)
{
    const size_t side = (size_t)ceil(cbrt((double)(c->nv ? c->nv : 1)) - 1e-9);
    const double kmax = (double)side / 2;
    float *h = c->h_x;
    for (size_t v = 0; v < c->nv; v++) {
        h[v] = (float)((double)(v % side) / (double)side - 0.5);
        h[c->nv + v] = (float)((double)((v / side) % side) / (double)side - 0.5);
        h[2 * c->nv + v] = (float)((double)(v / (side * side)) / (double)side - 0.5);
    }
    float *k = c->h_k;
    const size_t planes = (size_t)fmax(1.0, floor(cbrt((double)c->nk) / 2)), per = cdiv(c->nk ? c->nk : 1, planes);
    const double turns = fmax(1.0, (double)per / 64);
    for (size_t i = 0; i < c->nk; i++) {
        if (traj == 0) {
            const size_t p = i % planes;
            const double u = (double)(i / planes) / (double)per, th = 2 * M_PI * turns * u;
            k[i] = (float)(kmax * u * cos(th));
            k[c->nk + i] = (float)(kmax * u * sin(th));
            k[2 * c->nk + i] = (float)(planes > 1 ? kmax * ((double)p / (double)(planes - 1) * 2 - 1) : 0.0);
        } else {
            for (int d = 0; d < 3; d++)
                k[d * c->nk + i] = (float)climb_rng_double(r, -kmax, kmax);
        }
        k[3 * c->nk + i] = climb_rng_float(r, -1, 1);
        k[4 * c->nk + i] = climb_rng_float(r, -1, 1);
    }
}

static int mriq_init(climb_case *c)
{
    const climb_mriq_input *file = (const climb_mriq_input *)c->p.opts[OPT_INPUT].data;
    c->nk = file ? file->k : c->p.shape.d[0];
    c->nv = file ? file->x : c->p.shape.d[1];
    c->tn.voxels = 4;
    c->tn.block = 256;
    if (c->nk > INT32_MAX || c->nv > INT32_MAX) {
        fprintf(stderr, "climb: mriq: more than 2^31 samples or voxels\n");
        return -1;
    }
    return 0;
}

/* A Parboil file's samples and voxels, or generated ones. */
static int mriq_fill(climb_case *c)
{
    const climb_mriq_input *file = (const climb_mriq_input *)c->p.opts[OPT_INPUT].data;
    if (file) {
        const float *src[5] = {file->kx, file->ky, file->kz, file->phi_r, file->phi_i};
        for (int a = 0; a < 5; a++)
            memcpy(c->h_k + a * c->nk, src[a], c->nk * sizeof(float));
        const float *xs[3] = {file->x_, file->y_, file->z_};
        for (int a = 0; a < 3; a++)
            memcpy(c->h_x + a * c->nv, xs[a], c->nv * sizeof(float));
    } else {
        climb_rng rng;
        climb_rng_seed(&rng, c->p.seed);
        make_inputs(c, c->p.opts[OPT_TRAJECTORY].choice, &rng);
    }
    return 0;
}

static size_t k_bytes(const climb_case *c) { return 5 * (c->nk ? c->nk : 1) * sizeof(float); }
static size_t x_bytes(const climb_case *c) { return 3 * (c->nv ? c->nv : 1) * sizeof(float); }
static size_t mag_bytes(const climb_case *c) { return (c->nk ? c->nk : 1) * sizeof(float); }
static size_t rec_bytes(const climb_case *c) { return (c->nk ? c->nk : 1) * sizeof(float4); }
static size_t q_bytes(const climb_case *c) { return (c->nv ? c->nv : 1) * sizeof(float); }

/* Q's poison is all ones: a NaN, which no sum of finite terms becomes. */
static const climb_buffer MRIQ_BUFFERS[] = {
    {.name = "samples", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = k_bytes,
     .host_at = offsetof(climb_case, h_k), .device_at = offsetof(climb_case, d_k)},
    {.name = "voxels", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_INPUT, .bytes = x_bytes,
     .host_at = offsetof(climb_case, h_x), .device_at = offsetof(climb_case, d_x)},
    {.name = "|phi|^2", .flags = CLIMB_BUF_DEVICE, .bytes = mag_bytes, .device_at = offsetof(climb_case, d_mag)},
    {.name = "records", .flags = CLIMB_BUF_DEVICE, .bytes = rec_bytes, .device_at = offsetof(climb_case, d_rec)},
    {.name = "Qr", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = q_bytes,
     .host_at = offsetof(climb_case, h_qr), .device_at = offsetof(climb_case, d_qr), .poison = 0xFF},
    {.name = "Qi", .flags = CLIMB_BUF_HOST | CLIMB_BUF_DEVICE | CLIMB_BUF_OUTPUT | CLIMB_BUF_OFFSET, .bytes = q_bytes,
     .host_at = offsetof(climb_case, h_qi), .device_at = offsetof(climb_case, d_qi), .poison = 0xFF},
};

static int mriq_empty(const climb_case *c) { return c->nv == 0; }

static const char *mriq_describe(const climb_case *c)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%zu k-space samples, %zu voxels", c->nk, c->nv);
    return buf;
}

#define MRIQ_SAMPLES 4096

static int mriq_reference(climb_case *c, climb_ref_mode mode, char *desc, size_t desclen)
{
    c->mode = mode;
    if (mode == CLIMB_REF_SAMPLES || mode == CLIMB_REF_VENDOR) {
        climb_rng rng;
        climb_rng_seed(&rng, c->p.seed ^ 0x3319ULL);
        c->samples = climb_rng_samples(&rng, c->nv, MRIQ_SAMPLES, &c->n_samples);
        if (!c->samples)
            return -1;
    } else {
        c->n_samples = c->nv;
    }
    const size_t n = c->n_samples ? c->n_samples : 1;
    c->ref_r = (double *)malloc(n * sizeof(double));
    c->ref_i = (double *)malloc(n * sizeof(double));
    c->tol = (double *)malloc(n * sizeof(double));
    c->tol_sfu = (double *)malloc(n * sizeof(double));
    c->mag = (double *)malloc(n * sizeof(double));
    if (!c->ref_r || !c->ref_i || !c->tol || !c->tol_sfu || !c->mag)
        return climb_host_oom("the mriq reference");
    const climb_mriq_kspace ks = kspace_of(c, c->h_k);
    for (size_t s = 0; s < c->n_samples; s++) {
        const size_t v = c->samples ? c->samples[s] : s;
        climb_mriq_ref_at(&ks, c->h_x[v], c->h_x[c->nv + v], c->h_x[2 * c->nv + v], 0, &c->ref_r[s], &c->ref_i[s],
                          &c->tol[s], &c->mag[s]);
        double r2, i2;
        climb_mriq_ref_at(&ks, c->h_x[v], c->h_x[c->nv + v], c->h_x[2 * c->nv + v], 1, &r2, &i2, &c->tol_sfu[s], NULL);
    }
    snprintf(desc, desclen, "CPU, %s in double; each within sum |phi|^2 (c 2^-24 A + e) + (1.01 (K + 8) 2^-24 + "
                            "2^-22) sum |phi|^2, A the phase's magnitude: c = 6, e = 2^-22 (sincosf); c = 8, e = 2^-20 "
                            "(MUFU)",
             c->samples ? "4096 random voxels" : "every voxel");
    return 0;
}

static double mriq_ref_cost(const climb_case *c) { return (double)c->nk * (double)c->nv; }

static int mriq_verify(climb_case *c, int rung, char *msg, size_t msglen)
{
    const double *tol = MRIQ_RUNGS[rung].sfu ? c->tol_sfu : c->tol;
    double worst = 0;
    climb_compare k;
    climb_compare_begin(&k, msg, msglen);
    for (size_t s = 0; s < c->n_samples; s++) {
        const size_t v = c->samples ? c->samples[s] : s;
        const double er = fabs(c->h_qr[v] - c->ref_r[s]), ei = fabs(c->h_qi[v] - c->ref_i[s]);
        if (c->mag[s] > 0)
            worst = fmax(worst, fmax(er, ei) / c->mag[s]);
        climb_compare_check(&k, er <= tol[s] && ei <= tol[s], "Q[%zu] = (%.9g, %.9g), expected (%.9g, %.9g)", v,
                            c->h_qr[v], c->h_qi[v], c->ref_r[s], c->ref_i[s]);
    }
    c->worst[rung] = worst;
    return climb_compare_end(&k);
}

#define MRIQ_FLOPS 10.0

static void mriq_counts(const climb_case *c, climb_counts *out)
{
    memset(out, 0, sizeof *out);
    const double evals = (double)c->nk * (double)c->nv;
    out->items = evals;
    out->special_ops = 2 * evals;
    out->flops = MRIQ_FLOPS * evals;
    out->bytes_read = 20.0 * (double)c->nk + 12.0 * (double)c->nv;
    out->bytes_written = 8.0 * (double)c->nv;
}

/* The accurate rungs do no MUFU work: their sin and cos are a software routine on the FMA pipe (its flops are not
 * counted). */
static int mriq_rung_counts(const climb_case *c, int rung, climb_counts *out)
{
    if (MRIQ_RUNGS[rung].sfu)
        return 0;
    mriq_counts(c, out);
    out->special_ops = 0;
    return 1;
}

static const char *mriq_rung_note(climb_case *c, int rung)
{
    static char buf[200];
    if (c->n_samples == 0)
        return NULL;
    snprintf(buf, sizeof buf, "largest error %.3g x sum |phi|^2 over the %zu voxels checked (%s)", c->worst[rung],
             c->n_samples, MRIQ_RUNGS[rung].sfu ? "__sinf and __cosf" : "the accurate sincosf");
    return buf;
}

static void mriq_set_tuning(climb_case *c, const int *values) { climb_mriq_set_tuning(&c->tn, values); }

/* samples, voxels: Parboil's two datasets' sizes (generated), and a larger grid. */
static const climb_shape MRIQ_BENCH_SHAPES[] = {CLIMB_SHAPE2(3072, 32768), CLIMB_SHAPE2(2048, 262144),
                                                CLIMB_SHAPE2(8192, 2097152)};
/* The quick run's size class (bench all): past the L2, or a full wave, at a small cost in inputs and references. */
static const climb_shape MRIQ_MAIN_SHAPES[] = {CLIMB_SHAPE2(2048, 262144)};
/* Empty, one, odd, more samples than a constant chunk, fewer voxels than a block, no multiple of a block. */
static const climb_shape MRIQ_CHECK_SHAPES[] = {
    CLIMB_SHAPE2(0, 0),     CLIMB_SHAPE2(5, 0),     CLIMB_SHAPE2(0, 7),       CLIMB_SHAPE2(1, 1),
    CLIMB_SHAPE2(3, 1000),  CLIMB_SHAPE2(100, 37),  CLIMB_SHAPE2(2001, 1025), CLIMB_SHAPE2(777, 4097),
    CLIMB_SHAPE2(6200, 300), CLIMB_SHAPE2(513, 33333)};
static const climb_shape MRIQ_QUICK_SHAPES[] = {CLIMB_SHAPE2(100, 37), CLIMB_SHAPE2(2001, 1025)};

static const climb_sweep MRIQ_SWEEPS[] = {
    {.name = "parboil", .title = "Parboil's MRI-Q datasets: evaluations/s against the voxels",
     .args = "--input {data}/parboil/mri-q/32_32_32_dataset.bin --input {data}/parboil/mri-q/64_64_64_dataset.bin",
     .x = "voxels", .log_x = 1},
};

/* The host memory a case needs at the least (the samples, the voxels and Q), for the harness's check before anything is allocated. */
static double mriq_case_bytes(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return 20.0 * (double)s->d[0] + 20.0 * (double)s->d[1];
}

/* create's size rule, for the dry run too (a Parboil file's counts come in as the shape). */
static const char *mriq_case_refuses(const climb_shape *s, climb_dtype t, const climb_opt_value *opts)
{
    (void)t;
    (void)opts;
    return s->d[0] > INT32_MAX || s->d[1] > INT32_MAX ? "more than 2^31 samples or voxels" : NULL;
}

extern "C" const climb_workload climb_mriq_workload = {
    .name = "mriq",
    .title = "MRI-Q: the Q matrix of non-Cartesian MRI reconstruction (f32)",
    .sources = "Hwu, Kirk and El Hajj, Programming Massively Parallel Processors, MRI-Q (scatter, fission and "
                "interchange, registers, constant memory chunks, AoS, coarsening, SFU sin/cos)",
    .command = NULL,
    .dims = {"samples", "voxels"},
    .shape_format = "{samples} samples x {voxels} voxels",
    .types = CLIMB_TYPE_BIT(CLIMB_F32),
    .options = MRIQ_OPTIONS,
    .n_options = CLIMB_COUNT(MRIQ_OPTIONS),
    .bytes_counted = "read: the samples (5 floats each) and voxels (3 floats each) once; written: Q (2 floats a voxel)",
    .items_unit = "sample-voxel evaluations",
    .items_rate = "Geval/s",
    .extra_ceiling = CLIMB_CEIL_SFU,
    .bench_shapes = MRIQ_BENCH_SHAPES,
    .n_bench_shapes = CLIMB_COUNT(MRIQ_BENCH_SHAPES),
    .check_shapes = MRIQ_CHECK_SHAPES,
    .n_check_shapes = CLIMB_COUNT(MRIQ_CHECK_SHAPES),
    .quick_shapes = MRIQ_QUICK_SHAPES,
    .n_quick_shapes = CLIMB_COUNT(MRIQ_QUICK_SHAPES),
    .main_shapes = MRIQ_MAIN_SHAPES,
    .n_main_shapes = CLIMB_COUNT(MRIQ_MAIN_SHAPES),
    .check_max_offset = 3,
    .n_rungs = CLIMB_COUNT(MRIQ_RUNGS),
    .rung = mriq_rung_info,
    .published = NULL,
    .sweeps = MRIQ_SWEEPS,
    .n_sweeps = CLIMB_COUNT(MRIQ_SWEEPS),
    .load = mriq_load,
    .unload = mriq_unload,
    .peek = mriq_peek,
    .case_size = sizeof(climb_case),
    .buffers = MRIQ_BUFFERS,
    .n_buffers = CLIMB_COUNT(MRIQ_BUFFERS),
    .init = mriq_init,
    .fill = mriq_fill,
    .fini = mriq_fini,
    .create = NULL,
    .describe = mriq_describe,
    .reference = mriq_reference,
    .ref_cost = mriq_ref_cost,
    .ref_cost_limit = 2e8,
    .case_bytes = mriq_case_bytes,
    .case_refuses = mriq_case_refuses,
    .refuses = NULL,
    .prepare = NULL,
    .setup = NULL,
    .modifies = NULL,
    .reset = NULL,
    .run = NULL,
    .empty = mriq_empty,
    .poison = NULL,
    .verify = mriq_verify,
    .counts = mriq_counts,
    .rung_counts = mriq_rung_counts,
    .rung_note = mriq_rung_note,
    .release = NULL,
    .save = NULL,
    .destroy = NULL,
    .tuning = &MRIQ_TUNING,
    .set_tuning = mriq_set_tuning,
};
