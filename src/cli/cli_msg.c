/*
 * cli_msg: what every part of the command-line front end needs and nothing of
 * the run: the "ioprobe: " messages, the stop flag (and its time), the exit code
 * of an output error, the view's emergency restore, the probes' warn and idle
 * callbacks (the idle one looks after the run's hang watchdog). A leaf: it
 * calls no other cli*.c file, so the parts below cli.c never call back up
 * into it.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "out.h"
#include "sbuf.h"

/* The prefix of every message, "ioprobe: ". */
#define CLI_MSG_PREFIX "ioprobe: "
#define CLI_MSG_PREFIX_LEN (sizeof(CLI_MSG_PREFIX) - 1)

volatile sig_atomic_t cli_stop;
_Atomic uint64_t cli_stop_at;
/* While a view runs: its async-signal-safe terminal restore, called before _exit. */
void (*volatile cli_view_emergency)(void);
/* The last message said on stderr (--check repeats it in its UNKNOWN line). */
char cli_last_msg[512];

/*
 * One "ioprobe: ..." line on stderr. Control characters in the text (from a
 * path or a device name) are shown escaped: a message is always one line and
 * never drives the terminal.
 */
void cli_msg(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT, text = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(&text, fmt, ap);
	va_end(ap);
	sbuf_puts(&sb, CLI_MSG_PREFIX);
	esc_append(&sb, sbuf_str(&text), text.len);
	snprintf(cli_last_msg, sizeof(cli_last_msg), "%s", sbuf_str(&sb) + CLI_MSG_PREFIX_LEN);
	sbuf_free(&text);
	sbuf_putc(&sb, '\n');
	out_write(STDERR_FILENO, sbuf_str(&sb), sb.len);
	sbuf_free(&sb);
}

/* Exit code for a stdout error: a closed pipe ends the run quietly. */
int cli_out_error(int err)
{
	if (err == -EPIPE)
		return CLI_EXIT_OK;
	cli_msg("write error on standard output: %s", strerror(-err));
	return CLI_EXIT_RUNTIME;
}

void cli_on_warn(void *ctx, const char *text)
{
	(void)ctx;
	cli_msg("%s", text);
}

void cli_run_idle(void *ctx)
{
	struct cli_target *tg = ctx;

	watchdog_check(&tg->run->wd); /* killed: a new one, said */
}

void cli_view_message(const char *text)
{
	cli_msg("%s", text);
}
