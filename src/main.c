/*
 * ioprobe — a disk latency probe, ioping-compatible. main() only hands over
 * to the command-line front end, which owns messages and exit codes.
 */
#include "config.h"

#include "cli.h"

int main(int argc, char *argv[])
{
	return cli_main(argc, argv);
}
