/* The list of built-in workloads: the one place a new workload is added (beside its line in CMakeLists.txt). */
#include "../core/workload.h"
#include "bandwidth.h"
#include "coalescing.h"
#include "histogram.h"
#include "matadd.h"
#include "reduce.h"
#include "scan.h"
#include "sgemm.h"
#include "spmv.h"
#include "transpose.h"
#include "trapezoid.h"

static const climb_workload *const WORKLOADS[] = {
    &climb_reduce_workload,
    &climb_transpose_workload,
    &climb_coalescing_workload,
    &climb_bandwidth_workload,
    &climb_scan_workload,
    &climb_histogram_workload,
    &climb_trapezoid_workload,
    &climb_spmv_workload,
    &climb_matadd_workload,
    &climb_sgemm_workload,
};

const climb_workload *const *climb_builtin_workloads(int *count)
{
    *count = CLIMB_COUNT(WORKLOADS);
    return WORKLOADS;
}
