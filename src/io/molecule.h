/* Molecules and potential maps, the electrostatics workloads' files:
 *
 * PQR (the PDB-like format of PDB2PQR and APBS): ATOM and HETATM records, whose last five whitespace-separated
 * fields are x, y, z (Å), the charge (e) and the radius (Å); every other record (REMARK, CRYST1, TER, END, ...) is
 * skipped. Every malformed record gives "file:line: what is wrong", never a crash (tests/test_cpu_molecule.c fuzzes
 * it); a gzip'd file is refused with a message.
 *
 * OpenDX scalar maps in the layout APBS writes and VMD, PyMOL and APBS read: comment lines, "object 1 class
 * gridpositions counts nx ny nz", the origin, three delta lines, the connections, "object 3 class array type double
 * rank 0 items N data follows", the values three to a line with z varying fastest, then the field's attributes. */
#ifndef CLIMB_IO_MOLECULE_H
#define CLIMB_IO_MOLECULE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most atoms read: climb's largest systems are 1M atoms; 2^26 leaves room and bounds the memory. */
#define CLIMB_PQR_MAX_ATOMS ((size_t)1 << 26)

typedef struct climb_atoms {
    size_t n;
    float *xyzq;            /* 4 n: x, y, z, charge */
    float *radius;          /* n */
    double lo[3], hi[3];    /* the bounding box of the centres (0 when n is 0) */
} climb_atoms;

/* Reads a PQR file. 0, or -1 with err ("file:line: ..."). A file of no atoms is read (n = 0). */
int climb_pqr_read(const char *path, climb_atoms *a, char *err, size_t errlen);
void climb_atoms_free(climb_atoms *a);
/* A PQR file into atoms of its own (malloc'd): a FILE option's loader. NULL with err on failure. */
climb_atoms *climb_pqr_load(const char *path, char *err, size_t errlen);
/* Frees what climb_pqr_load returned (NULL is fine): a FILE option's unload. */
void climb_pqr_unload(void *atoms);

/* Generated atoms for the electrostatics workloads, from the generator r (a climb_rng): n atoms (x, y, z, q) into
 * xyzq for a lattice whose box starts at lo and spans ext (Å):
 *   CLIMB_ATOMS_RANDOM     uniform in the box and 20% beyond it on every side, charges uniform in [-1, 1);
 *   CLIMB_ATOMS_WATER      a water box: TIP3P-like molecules (O -0.834 e, two H +0.417 e at 0.96 Å) on a cubic
 *                          lattice 3.1 Å apart (about water's density), the box of molecules centred on the lattice's;
 *   CLIMB_ATOMS_ON_POINTS  as random, each atom then moved onto the nearest point of the lattice of spacing h. */
enum { CLIMB_ATOMS_RANDOM = 0, CLIMB_ATOMS_WATER = 1, CLIMB_ATOMS_ON_POINTS = 2 };
struct climb_rng;
void climb_atoms_generate(int kind, size_t n, const double lo[3], const double ext[3], double h, struct climb_rng *r,
                          float *xyzq);

/* A regular 3-D map: counts n[3] (x, y, z) points from origin, delta[3] apart along the axes. */
typedef struct climb_dx_grid {
    size_t n[3];
    double origin[3], delta[3];
} climb_dx_grid;

/* Writes values (n[0] n[1] n[2] of them, stored x fastest: v[(k n[1] + j) n[0] + i] is point (i, j, k)) as an
 * OpenDX map, in the file's z-fastest order, with `comment` (may be NULL) as comment lines. 0, or -1 with err. */
int climb_dx_write(const char *path, const climb_dx_grid *g, const float *v, const char *comment, char *err,
                   size_t errlen);
/* Reads an OpenDX scalar map on a regular grid (as written above, or by APBS) into *g and *v (malloc'd, stored x
 * fastest as above). 0, or -1 with err ("file:line: ..."). */
int climb_dx_read(const char *path, climb_dx_grid *g, float **v, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
