#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli_conclude.h"
#include "common.h"
#include "engine.h"
#include "exporters.h"
#include "msg.h"
#include "opts.h"
#include "out.h"
#include "promfile.h"
#include "sbuf.h"

/* ---- fleet outputs: --listen, --prometheus, --influx, --check (exporters.c, check.c) ---- */

/* --check was given: every way out prints one plugin line (cli_main). */
bool cli_check_wanted;
static bool cli_check_said;

/* Does the command line ask for --check (also when parsing stopped on it or before it)? */
bool cli_argv_check(int argc, char *argv[])
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--check", 7) || !strncmp(argv[i], "-check", 6))
			return true;
	return false;
}

static void cli_fleet_warn(const char *text)
{
	cli_msg("%s", text);
}

/* Defaults the fleet modes imply, then their usage checks; -1 to go on, or the exit code. */
int cli_fleet_setup(struct opts *o)
{
	cli_check_wanted = o->check;
	if (o->check) {
		o->ignore_error = true; /* failed requests are counted: CRITICAL */
		if (!o->count && !o->deadline_set && !o->rapid)
			o->count = 10;
		if (!o->interval_set && !o->rapid && !o->rate_limit && !o->speed_limit) {
			o->interval = 100000000ull;
			o->interval_set = true;
		}
	}
	/* a failing disk is what a fleet must see: the exporters count failed requests (as -E)
	 * instead of ending at the first; the exit status still says some failed */
	if (o->listen || o->prometheus || o->influx)
		o->ignore_error = true;
	if (o->influx && !o->print_count && !o->print_interval)
		o->print_interval = 10000000000ull;
	if (o->prometheus && !promfile_name_ok(o->prometheus)) {
		cli_msg("--prometheus: the file name must end in .prom (what node_exporter reads): "
			"\"%s\"", o->prometheus);
		return CLI_EXIT_USAGE;
	}
	if ((o->influx || o->check) && (o->json || o->batch || o->tui || (o->influx && o->check))) {
		cli_msg("--influx and --check own standard output: not with -J, -B, --tui or each "
			"other");
		return CLI_EXIT_USAGE;
	}
	if (o->web_config && !o->listen) {
		cli_msg("--web-config needs --listen");
		return CLI_EXIT_USAGE;
	}
	if (o->check_iops && !o->check) {
		cli_msg("--check-iops needs --check");
		return CLI_EXIT_USAGE;
	}
	if (o->check_timeout && !o->check) {
		cli_msg("--check-timeout needs --check");
		return CLI_EXIT_USAGE;
	}
	if (o->check && !o->check_timeout)
		o->check_timeout = OPTS_CHECK_TIMEOUT;
	if ((o->listen || o->prometheus || o->influx || o->check) && (o->sweep || o->fio_job)) {
		cli_msg("--listen, --prometheus, --influx and --check do not combine with --sweep "
			"or --fio-job");
		return CLI_EXIT_USAGE;
	}
	return -1;
}

int cli_fleet_prepare(const struct opts *o, const struct engine_ops *ops, size_t n,
		      struct exporters **x)
{
	struct exporters_cfg cfg = {
		.listen = o->listen, .web_config = o->web_config, .prom_file = o->prometheus,
		.prom_period = o->prometheus_period, .influx = o->influx,
		.influx_period = o->print_count ? 0 : o->print_interval, .engine = ops->name,
		.pcts = o->pcts_set ? &o->pcts : NULL,
		.warn = cli_fleet_warn,
	};
	char msg[MSG_MAX];
	int err;

	*x = NULL;
	if (!exporters_wanted(&cfg))
		return 0;
	*x = malloc(sizeof(**x));
	if (!*x) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	err = exporters_prepare(*x, &cfg, n, msg, sizeof(msg));
	if (err) {
		cli_msg("%s", msg);
		cli_fleet_end(x);
		return err == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	return 0;
}

bool cli_fleet_judges(const struct opts *o)
{
	/* not with random arrivals: the verdict weighs what the probe got against a fixed rate */
	return (o->listen || o->prometheus || o->influx) && !o->poisson;
}

bool cli_run_judges(const struct opts *o)
{
	return o->iostat || cli_fleet_judges(o) || (o->check && !o->poisson);
}

int cli_fleet_add(struct exporters *x, const struct opts *o, const struct target *t,
		  struct probe *p, bool judged)
{
	const struct exporters_target_cfg tc = {
		.path = o->path, .name = o->name, .interval = opts_interval(o), .write = o->write > 0,
		.read_write = o->read_write, .response = opts_response(o), .layers = o->layers,
		.verdict = judged,
	};
	char msg[MSG_MAX];
	int err = exporters_add(x, &tc, t, p, msg, sizeof(msg));

	if (err)
		cli_msg("%s", msg);
	return err;
}

int cli_fleet_run(struct exporters **x)
{
	char msg[MSG_MAX];
	int err = *x ? exporters_start(*x, msg, sizeof(msg)) : 0;

	if (err) {
		cli_msg("%s", msg);
		cli_fleet_end(x);
		return err == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
	}
	return 0;
}

void cli_fleet_end(struct exporters **x)
{
	if (!*x)
		return;
	exporters_stop(*x);
	free(*x);
	*x = NULL;
}

/* --check's thresholds from the options. */
static struct check_cfg cli_check_cfg(const struct opts *o)
{
	return (struct check_cfg){ o->check_warn, o->check_crit, o->check_iops,
				   o->check_iops_warn, o->check_iops_crit };
}

/* Write the plugin line in sb to stdout and free sb; st, or UNKNOWN when it could not be said. */
static int cli_check_say(struct sbuf *sb, enum check_state st)
{
	int err = out_write_sbuf(STDOUT_FILENO, sb);

	sbuf_free(sb);
	cli_check_said = true;
	if (err && err != -EPIPE)
		cli_msg("write error on standard output: %s", strerror(-err));
	return err && err != -EPIPE ? CHECK_UNKNOWN : (int)st;
}

int cli_check_conclude(const struct opts *o, const struct cli_end *e, bool timed_out)
{
	struct check_cfg cfg = cli_check_cfg(o);
	struct sbuf sb = SBUF_INIT;
	char text[MSG_MAX + 64];
	const char *problem = e->ret ? e->msg : NULL;
	bool critical = false;

	if (timed_out && e->ret == -ETIMEDOUT) { /* the disk did not answer within the timeout */
		snprintf(text, sizeof(text), "%s (--check-timeout %.1f s)", e->msg,
			 (double)o->check_timeout / NS_PER_S);
		problem = text;
		critical = true;
	}
	return cli_check_say(&sb, check_report_verdict(&sb, &cfg, e->total, problem, critical,
						       e->verdict));
}

int cli_check_multi(const struct opts *o, const struct check_target *t, size_t n)
{
	struct check_cfg cfg = cli_check_cfg(o);
	struct sbuf sb = SBUF_INIT;

	return cli_check_say(&sb, check_report_multi(&sb, &cfg, t, n));
}

/* --check: a run that ended before its verdict is UNKNOWN, with the last message. */
int cli_check_unknown(int code)
{
	char line[sizeof(cli_last_msg) + 32];

	if (!cli_check_wanted || cli_check_said)
		return code;
	snprintf(line, sizeof(line), "IOPROBE UNKNOWN - %s\n",
		 cli_last_msg[0] ? cli_last_msg : "the run did not complete");
	out_write(STDOUT_FILENO, line, strlen(line));
	return CHECK_UNKNOWN;
}
