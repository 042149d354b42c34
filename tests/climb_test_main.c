/* climb-test: the climb command with the test workload (tests/workloads/affine.cu) registered beside the built-in
 * ones, so that the CLI tests can exercise options, input files, two-dim shapes and the new types. */
#include "cli/cli.h"
#include "workloads/affine.h"

int main(int argc, char **argv)
{
    if (climb_register_workload(&climb_affine_workload) != 0)
        return 1;
    return climb_cli_main(argc, argv);
}
