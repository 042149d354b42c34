/* Inside the SpMV workload: the case, and the formats the ladder converts CSR into (built in host memory by
 * formats.cu, then copied to the device, once per matrix and untimed: the report's setup columns). Every format
 * keeps the values in the case's type and 32-bit column indices; padding has column -1 (and value 0). */
#ifndef CLIMB_WORKLOADS_SPMV_CASE_H
#define CLIMB_WORKLOADS_SPMV_CASE_H

#include <cusparse.h>

#include "../../core/workload.h"
#include "plan_internal.h"
#include "spmv.h"

typedef struct spmv_sorted {
    int32_t *perm;        /* rows by length, longest first (ties in row order) */
    int32_t *len;         /* the sorted rows' lengths */
} spmv_sorted;

/* The sizes the formats would take, known before building them (refuses() compares them with the CSR's). */
typedef struct spmv_sizes {
    int32_t ell_width;          /* the longest row */
    int64_t ell_elems;          /* width x rows */
    int32_t hyb_width;          /* the hybrid's ELL width (from the row-length histogram) */
    int64_t hyb_coo;            /* nonzeros past it */
    int64_t sell_elems;         /* JDS + ELL sections: 32 x (each section's longest row), summed */
    int32_t sections;
} spmv_sizes;

/* Rows per JDS+ELL section: a warp, one lane per row. */
#define SPMV_SECTION 32

/* What each rung runs on: the CSR itself, or a format built from it in prepare. */
typedef enum spmv_format {
    FMT_CSR = 0, FMT_ELL, FMT_COO, FMT_HYB, FMT_JDS, FMT_SELL, FMT_WINDOWS, FMT_MERGE, FMT_ADAPTIVE, FMT_CUSPARSE
} spmv_format;
#define SPMV_N_FORMATS 10

struct climb_case {
    climb_case_params p;
    int matrix;
    double limit;                 /* format_limit */
    climb_csr gen;                /* the generated matrix (empty with a file) */
    const climb_csr *m;           /* the matrix: &gen or the file's */
    int grid[3];
    climb_spmv_stats st;
    spmv_sorted sorted;
    spmv_sizes sz;
    size_t tsize;
    char unfit[160];              /* why the values do not fit the type ("" when they do) */
    double *ref, *tol;            /* each row's product in double, and its tolerance */
    int *d_rp, *d_ci;             /* the CSR's indices on the device (the host's are the matrix's) */
    void *h_val, *d_val;          /* the values in the case's type */
    void *h_x, *d_x;              /* x in the case's type */
    void *h_y, *d_y;              /* y, and verify's download */
    /* formats, built on first use */
    int built[SPMV_N_FORMATS];
    climb_setup made[SPMV_N_FORMATS];
    int *d_ell_ci;
    void *d_ell_val;
    int *d_coo_row;
    int *d_hyb_ci, *d_hyb_row, *d_hyb_cci;
    void *d_hyb_val, *d_hyb_cval;
    int *d_perm, *d_jd_ptr, *d_jds_ci;
    void *d_jds_val;
    long long *d_sec_ptr;
    int *d_sec_w, *d_sell_ci;
    void *d_sell_val;
    int *d_win_perm, *d_win_jd, *d_win_ci; /* the windowed JDS (climb_spmv_windows_layout) */
    long long *d_win_off;
    void *d_win_val;
    spmv_merge_plan mplan;
    climb_spmv_plan_dev plan;
    int lanes;                    /* the sized CSR vector kernel's lanes per row */
    cusparseHandle_t sp;
    cusparseSpMatDescr_t sp_a;
    cusparseDnVecDescr_t sp_x, sp_y;
    void *sp_buf;
    size_t sp_bytes;
};

/* The rows sorted by length (0, or -1 out of host memory); freed by spmv_free_sorted. */
int spmv_sort_rows(const climb_csr *m, spmv_sorted *s);
void spmv_free_sorted(spmv_sorted *s);
/* The formats' sizes from the sorted lengths. 0, or -1 out of host memory. */
int spmv_compute_sizes(const climb_csr *m, const spmv_sorted *s, spmv_sizes *z);
/* Copies n values to a new device array in the case's type. 0, or -1 (printed). */
int spmv_upload_vals(const climb_case *c, const double *v, size_t n, void **d);
/* Builds format f of the case's matrix on the device (its bytes in c->made[f]). 0, or -1 (printed). */
int spmv_build_format(climb_case *c, spmv_format f);

#endif
