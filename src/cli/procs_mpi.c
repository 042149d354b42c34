#include "procs_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#if CLIMB_HAVE_MPI
#include <mpi.h>

static void mpi_said(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", rc);
    fprintf(stderr, "climb: %s: %s\n", what, text);
}

static int mpi_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    (void)ctx;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (bytes > INT_MAX) {
        fprintf(stderr, "climb: an all-gather of %zu bytes a process (MPI's counts stop at %d)\n", bytes, INT_MAX);
        return -1;
    }
    /* a process's own part already in place in `all` goes as MPI_IN_PLACE (MPI forbids the two buffers to overlap) */
    const void *send = (const char *)all + (size_t)rank * bytes == (const char *)mine ? MPI_IN_PLACE : mine;
    const int rc = MPI_Allgather(send, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        mpi_said(rc, "MPI_Allgather");
        return -1;
    }
    return 0;
}

static int mpi_barrier(void *ctx)
{
    (void)ctx;
    const int rc = MPI_Barrier(MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        mpi_said(rc, "MPI_Barrier");
        return -1;
    }
    return 0;
}

static void mpi_abort(void *ctx)
{
    (void)ctx;
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int climb_mpi_built(void) { return 1; }

int climb_mpi_start(int *argc, char ***argv, climb_procs *out, int *local_rank, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    int rc = MPI_Init(argc, argv);
    if (rc != MPI_SUCCESS) {
        snprintf(why, len, "MPI_Init failed (error %d)", rc);
        return -1;
    }
    /* errors come back to climb's checks, which say what failed */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &out->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &out->size);
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, out->rank, MPI_INFO_NULL, &node) != MPI_SUCCESS) {
        snprintf(why, len, "MPI_Comm_split_type could not find this node's processes");
        return -1;
    }
    int on_node = 0;
    MPI_Comm_rank(node, local_rank);
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    out->one_node = on_node == out->size;
    out->allgather = mpi_allgather;
    out->barrier = mpi_barrier;
    out->abort = mpi_abort;
    return 0;
}

void climb_mpi_finish(void) { MPI_Finalize(); }

#else

int climb_mpi_built(void) { return 0; }

int climb_mpi_start(int *argc, char ***argv, climb_procs *out, int *local_rank, char *why, size_t len)
{
    (void)argc, (void)argv, (void)local_rank;
    memset(out, 0, sizeof *out);
    snprintf(why, len, "this climb was built without MPI: install an MPI's development files (Debian: libopenmpi-dev) "
                       "and build again (CMake finds it)");
    return -1;
}

void climb_mpi_finish(void) {}

#endif
