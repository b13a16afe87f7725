/*
 * ioprobe — a disk latency probe, ioping-compatible. main() only hands over
 * to the command-line front end, which owns messages and exit codes, and
 * tells it which full-screen view was built.
 */
#include "config.h"

#include <stddef.h>

#include "cli.h"
#if HAVE_TUI
#include "tui.h"
#endif

int main(int argc, char *argv[])
{
#if HAVE_TUI
	return cli_main(argc, argv, &tui_view);
#else
	return cli_main(argc, argv, NULL);
#endif
}
