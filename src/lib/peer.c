/* The C API of a copy between GPUs: climb_comm_peer_copy over the rung marked best, on a communicator's streams
 * (src/lib/comm.c). */
#include "comm.h"
#include "handle.h"
#include "../base/checked.h"
#include "../workloads/peer.h"

climb_status climb_comm_peer_copy(climb_comm c, int to, void *d_dst, int from, const void *d_src, size_t bytes)
{
    if (!c || to < 0 || to >= c->P || from < 0 || from >= c->P)
        return CLIMB_STATUS_INVALID_VALUE;
    if (bytes == 0)
        return CLIMB_STATUS_SUCCESS;
    climb_span s, d;
    if (!climb_span_of(d_src, bytes, 1, &s) || !climb_span_of(d_dst, bytes, 1, &d) || climb_spans_overlap(s, d))
        return CLIMB_STATUS_INVALID_VALUE;
    if (!climb_comm_reachable(c, from, d_src, 1) || !climb_comm_reachable(c, to, d_dst, 1))
        return CLIMB_STATUS_INVALID_VALUE;
    const int ranks[2] = {to, from};
    climb_comm_call call;
    cudaError_t e = climb_comm_begin(c, to, ranks, from == to ? 1 : 2, &call);
    if (e == cudaSuccess)
        e = cudaSetDevice(c->devices[from]);
    if (e == cudaSuccess)
        e = climb_peer_copy_async(d_dst, d_src, bytes, from == to || c->access[from][to], c->sms[from],
                                  c->st[from]);
    return climb_comm_end(&call, e);
}
