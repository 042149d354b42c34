/* The climb command: the CLI over the built-in workloads (src/cli/main.c has the commands). */
#include "cli.h"

int main(int argc, char **argv) { return climb_cli_main(argc, argv); }
