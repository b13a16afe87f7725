#include "config.h"

#include "tui.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static int tui_check(char *msg, size_t msglen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(msg, msglen, "--tui needs a terminal on standard input and output");
		return -ENOTTY;
	}
	return 0;
}

static int tui_run(const struct view_params *vp, char *msg, size_t msglen)
{
	(void)vp;
	snprintf(msg, msglen, "the full-screen view is not written yet");
	return -ENOSYS;
}

const struct view_ops tui_view = {
	.name = "tui",
	.check = tui_check,
	.run = tui_run,
};
