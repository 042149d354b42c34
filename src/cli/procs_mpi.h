/* One process a GPU under an MPI launcher (`mpirun -np N climb bench allreduce`): the processes' climb_procs from
 * MPI, where CMake found an MPI when climb was built (CLIMB_HAVE_MPI); without one, the launcher's processes are
 * refused with how to build it. */
#ifndef CLIMB_CLI_PROCS_MPI_H
#define CLIMB_CLI_PROCS_MPI_H

#include <stddef.h>

#include "../base/procs.h"

/* 1 where this climb was built with MPI. */
int climb_mpi_built(void);
/* MPI started (MPI_Init), *out its world (rank, size, the all-gather, barrier and abort over MPI_COMM_WORLD) and
 * *local_rank this process's rank among those of its node. 0, or -1 with why (built without MPI, or MPI failed). */
int climb_mpi_start(int *argc, char ***argv, climb_procs *out, int *local_rank, char *why, size_t len);
/* MPI finished (MPI_Finalize). */
void climb_mpi_finish(void);

#endif
