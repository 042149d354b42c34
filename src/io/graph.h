/* Sparse patterns and graphs for the irregular workloads (SpMV, BFS, stencils), in one place so that no workload
 * includes another: the generators (PDE stencils, banded, uniform random, a power law, a 2-D grid, R-MAT with the
 * Graph500 parameters), a CSR built from an edge list, and a reader of graph files (SNAP edge lists and the DIMACS
 * shortest-path format). Every matrix is a climb_csr (mtx.h): 32-bit indices and row pointers; a graph of more
 * than 2^31 - 1 stored edges is refused with a message, never truncated. Host code; every reader error is
 * "file:line: what is wrong" (tests/test_cpu_graph.c fuzzes the reader). */
#ifndef CLIMB_IO_GRAPH_H
#define CLIMB_IO_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "mtx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- generators ----
 *   POISSON: the 3-D 7-point stencil on a g x g x gz grid, g = round(cbrt(rows)), gz = ceil(rows / g^2), the points
 *     in x-fastest order and the last plane cut at `rows` (160^3 exactly at rows = 4096000);
 *   STENCIL27: the 27-point stencil on the same grid;
 *   BANDED: columns r - band .. r + band;
 *   RANDOM: `per_row` distinct columns per row, uniform;
 *   POWERLAW: row lengths floor(u^(-1/1.2)) capped at max_row (a Pareto tail: mean about 4.6), distinct uniform
 *     columns;
 *   GRID2D: the grid graph of a g x gy grid, g = round(sqrt(rows)), gy = ceil(rows / g), x fastest, the last row of
 *     the grid cut at `rows`: each point linked to its 4 neighbours (no diagonal: a graph, not the 5-point matrix;
 *     road-like: degree at most 4, diameter about 2 sqrt(rows));
 *   RMAT: an R-MAT / Kronecker graph with the Graph500 parameters (A, B, C, D) = (0.57, 0.19, 0.19, 0.05) and edge
 *     factor `per_row` (Graph500: 16): rows x per_row edges drawn over 2^ceil(log2 rows) vertices (a vertex at or
 *     past rows is drawn again), vertex labels permuted at random as the Graph500 generator does, made undirected
 *     (both directions stored, unless `directed`), self-loops and repeated edges dropped. No per-level noise.
 *   ELASTIC27: 3-D linear elasticity on the 27-point stencil: 3 unknowns a node (row 3 node + component), a node on
 *     a g x g x gz grid (g = round(cbrt(rows / 3))), each row the 3 x 3 blocks of the node's 27 neighbours: 81 a row
 *     inside the grid, 3 x 3 blocks of columns as a finite-element stiffness matrix has them;
 *   FEM: finite-element-like rows: a length uniform in [per_row / 2, 3 per_row / 2] (at most 2 W + 1), distinct
 *     columns uniform in the window r - W .. r + W, W = max(band, per_row): varied lengths, no long row, a band.
 * Columns at or past `cols` are dropped (a rectangular cut of the square pattern; RMAT and GRID2D are square:
 * cols must equal rows). Values uniform in [-1, 1). */
enum {
    CLIMB_GEN_POISSON = 0,
    CLIMB_GEN_STENCIL27 = 1,
    CLIMB_GEN_BANDED = 2,
    CLIMB_GEN_RANDOM = 3,
    CLIMB_GEN_POWERLAW = 4,
    CLIMB_GEN_GRID2D = 5,
    CLIMB_GEN_RMAT = 6,
    CLIMB_GEN_ELASTIC27 = 7,
    CLIMB_GEN_FEM = 8,
    CLIMB_GEN_KINDS = 9
};

typedef struct climb_sparse_gen {
    int kind;                 /* CLIMB_GEN_* */
    int64_t rows, cols;
    int band;                 /* BANDED; FEM: the least half-width of the window */
    int per_row;              /* RANDOM: columns per row; FEM: the mean; RMAT: the edge factor */
    int max_row;              /* POWERLAW: the longest row */
    uint64_t seed;
    int directed;             /* RMAT: the edges stored as drawn (u -> v only), not both ways: the same draws and
                                 relabelling as the undirected graph of this seed, whose symmetrization it is */
} climb_sparse_gen;

/* "poisson", "stencil27", "banded", "random", "powerlaw", "grid2d", "rmat"; "?" for another kind. */
const char *climb_sparse_gen_name(int kind);
/* Builds the pattern into *m (values as drawn, in double). 0, or -1 with err (over 32-bit indices, out of host
 * memory, a square kind asked for a rectangle). *grid gets the stencils' grid (x, y, z extents; z 1 for GRID2D)
 * when grid is not NULL. */
int climb_sparse_generate(const climb_sparse_gen *g, climb_csr *m, int grid[3], char *err, size_t errlen);

/* ---- from an edge list ---- */

/* The rows x cols CSR of the n edges src[i] -> dst[i] (each index in range), each row's columns sorted; with
 * `symmetrize` each edge is stored both ways (rows must equal cols); self-loops dropped unless `self_loops`;
 * repeated edges stored once with the smallest value. val may be NULL (1.0 each). *dropped (if not NULL) gets the
 * self-loops and repeats left out. 0, or -1 with err (over 2^31 - 1 stored edges, out of memory). */
int climb_csr_from_edges(int32_t rows, int32_t cols, int64_t n, const int32_t *src, const int32_t *dst,
                         const double *val, int symmetrize, int self_loops, climb_csr *m, int64_t *dropped, char *err,
                         size_t errlen);

/* ---- graph files ---- */

typedef enum climb_graph_format {
    CLIMB_GRAPH_SNAP = 0,     /* "u v" per line, node ids from 0, '#' comment lines (SNAP's edge lists) */
    CLIMB_GRAPH_DIMACS = 1    /* 9th DIMACS Challenge shortest paths: "c" comments, "p sp N M", "a u v w" (ids 1..N) */
} climb_graph_format;

typedef struct climb_graph_info {
    climb_graph_format format;
    int64_t edges;            /* edge lines read */
    int64_t dropped;          /* self-loops and repeated edges left out */
    int directed;             /* the file says it is directed (SNAP's "# Directed graph", DIMACS always) */
} climb_graph_info;

/* Reads the graph at `path` (the format recognised from its first lines) into *g, an n x n pattern CSR (values
 * 1.0; DIMACS: the arc lengths), n = the largest node id + 1 (SNAP) or N (DIMACS); with `symmetrize` every edge is
 * stored both ways (an undirected graph from a directed file). Self-loops and repeated edges are dropped. A
 * gzip'd file is refused with a message. 0, or -1 with err ("path:line: what is wrong"). */
int climb_graph_read(const char *path, int symmetrize, climb_csr *g, climb_graph_info *info, char *err,
                     size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
