/*
 * cli: the command-line front end — parse, prepare, probe, report, and turn
 * every failure into a message on stderr ("ioprobe: ...") and an exit code:
 * 0 ok (also after SIGINT/TERM/HUP or a closed pipe), 1 usage, 2 preparation,
 * 3 request failure (or any failed request with -E) or output error,
 * 4 second signal.
 */
#ifndef IOPROBE_CLI_H
#define IOPROBE_CLI_H

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_USAGE = 1,
	CLI_EXIT_PREPARE = 2,
	CLI_EXIT_RUNTIME = 3,
	CLI_EXIT_SIGNAL = 4,
};

struct view_ops;

/*
 * Run ioprobe with argv; returns the process exit code. tui is the
 * full-screen view for --tui, or NULL when it was not built.
 */
int cli_main(int argc, char *argv[], const struct view_ops *tui);

#endif
