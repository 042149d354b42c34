/* The list of workloads: the one place a new workload is added. */
#include "../core/workload.h"
#include "reduce.h"

static const climb_workload *const WORKLOADS[] = {
    &climb_reduce_workload,
};

const climb_workload *const *climb_workloads(int *count)
{
    *count = (int)(sizeof WORKLOADS / sizeof WORKLOADS[0]);
    return WORKLOADS;
}
