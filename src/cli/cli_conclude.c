#include "config.h"

#include "cli_conclude.h"

#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "cli.h"
#include "cli_int.h"
#include "outw.h"

/*
 * Whether a target's closing output follows its run: always with several targets (the
 * others' and its own totals so far), with -J (the array stays valid), after a request
 * given up at a stop (its totals up to it are whole); not after one target's failed
 * request (as ioping: the message is the end).
 */
static bool conclude_prints(const struct opts *o, const struct cli_end *e, size_t n)
{
	return n > 1 || !e->ret || o->json || e->ret == -ETIMEDOUT;
}

/* One target's closing output into sb (-J total, -B raw line or summary). */
static void conclude_one(const struct opts *o, const struct cli_end *e, uint64_t real,
			 struct sbuf *sb)
{
	if (o->json) {
		report_json_stat_layers(sb, e->rc, e->total, real, true, e->read, e->write,
					e->layers);
		if (o->json_lines)
			sbuf_putc(sb, '\n');
	} else if (o->batch) {
		report_raw_line(sb, e->rc, e->total);
	} else if (!(o->quiet && (o->print_count || o->print_interval)) && !e->steps) {
		report_summary(sb, e->rc, e->total, e->read, e->write);
		if (e->layers)
			report_layers(sb, e->layers);
	}
}

int cli_conclude(const struct opts *o, const struct cli_end *t, size_t n, uint64_t real,
		 struct outw *out, struct sbuf *sb, int (*flush)(void *ctx, struct sbuf *sb),
		 void *ctx)
{
	bool quiet = o->influx || o->check, failed = false;
	int code = CLI_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		const struct cli_end *e = &t[i];
		int c = CLI_EXIT_OK;

		if (!e->ran)
			continue;
		if (e->ret && !e->started)
			c = CLI_EXIT_PREPARE; /* no probe process */
		else if (e->ret || e->total->failed)
			c = CLI_EXIT_RUNTIME;
		code = c > code ? c : code;
		if (quiet || failed || !conclude_prints(o, e, n))
			continue;
		if (o->json)
			outw_json_sep(out, sb);
		conclude_one(o, e, real, sb);
		failed = flush(ctx, sb) != 0;
	}
	if (o->json && !o->json_lines && !quiet && !failed) {
		sbuf_puts(sb, "]\n");
		failed = flush(ctx, sb) != 0;
	}
	return code;
}

int cli_conclude_check(const struct opts *o, const struct cli_end *t, size_t n,
		       bool timed_out)
{
	struct check_target *ct;
	int code;

	if (n == 1 && (t[0].total || t[0].ret)) /* ran, or its preparation failed */
		return cli_check_conclude(o, &t[0], timed_out);
	ct = calloc(n, sizeof(*ct));
	if (!ct) {
		cli_msg("out of memory");
		return CHECK_UNKNOWN;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cli_end *e = &t[i];

		ct[i].name = e->path;
		if (!e->ran)
			ct[i].problem = e->msg && e->msg[0] ? e->msg : "could not be prepared";
		else if (e->ret)
			ct[i].problem = e->msg && e->msg[0] ? e->msg : "the run failed";
		if (e->ran)
			ct[i].tally = e->total;
		ct[i].critical = e->critical;
		ct[i].verdict = e->verdict;
	}
	code = cli_check_multi(o, ct, n);
	free(ct);
	return code;
}
