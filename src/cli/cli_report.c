/*
 * cli_report: --report FILE.html, the file: created before anything is read
 * or probed (an existing name is refused, as every file ioprobe makes:
 * O_CREAT|O_EXCL|O_NOFOLLOW, checked with fstat), written in one piece at the
 * end from what htmlreport composed, removed again when there is nothing to
 * put in it — all of it by a process of its own (filechild.h), so that a
 * disk that hangs never holds the process that owns stdout and the exit code.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filechild.h"
#include "opener.h"

struct filechild *cli_report_create(const struct opts *o, int *code)
{
	struct filechild_cfg cfg = { .path = o->report, .what = "--report", .noun = "a report",
				     .unlink_failed = true, .stop = &cli_stop,
				     .stop_at = &cli_stop_at, .grace = OPENER_GRACE_NS };
	struct filechild *rep = malloc(sizeof(*rep));
	char msg[MSG_MAX];
	int ret;

	if (!rep) {
		cli_msg("out of memory");
		*code = CLI_EXIT_PREPARE;
		return NULL;
	}
	ret = filechild_open(rep, &cfg, msg, sizeof(msg));
	if (ret) {
		cli_msg("%s", msg);
		*code = ret == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
		free(rep);
		return NULL;
	}
	return rep;
}

void cli_report_drop(const struct opts *o, struct filechild *rep)
{
	(void)o;
	filechild_close(rep); /* nothing was sent: its process removes the file */
	free(rep);
}

int cli_report_write(const struct opts *o, struct filechild *rep, const struct hr_run *r)
{
	struct sbuf sb = SBUF_INIT;
	int err = htmlreport_write(&sb, r);

	(void)o;
	if (err) {
		cli_msg("--report: cannot write \"%s\": %s", o->report, strerror(-err));
		sbuf_free(&sb);
		cli_report_drop(o, rep);
		return CLI_EXIT_PREPARE;
	}
	err = filechild_write(rep, sb.buf, sb.len);
	sbuf_free(&sb);
	if (!err)
		err = filechild_close(rep);
	if (err) {
		filechild_close(rep);
		cli_msg("%s", rep->msg); /* a failed write removed the file */
	}
	free(rep);
	return err ? CLI_EXIT_PREPARE : 0;
}
