/*
 * cli_sweepgrid: --sweep across request sizes and queue depths (`--sweep -s
 * 256k,512k,5m -Q 1,4`, or -Q auto). The plan first: a grid that may run
 * longer than SWEEPGRID_BOUND_NS is refused without --yes, its plan said.
 * Then each size x depth runs as one sweep of the asked rate through
 * cli_run() (the target opened, the engine started at that depth, each step
 * judged as today), its rows printed as they finish in the grid's one table;
 * at the end the best operating point and the limit (sweepgrid.h). -J: one
 * object with the plan, every row, the two conclusions.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "json.h"
#include "out.h"
#include "sbuf.h"
#include "sweep.h"
#include "sweepgrid.h"

_Static_assert(OPTS_LIST_MAX <= SWEEPGRID_MAX_SIZES && OPTS_LIST_MAX <= SWEEPGRID_MAX_DEPTHS,
	       "a -s or -Q list fits the grid");
_Static_assert(OPTS_AUTO_DEPTH_MAX == SWEEPGRID_AUTO_DEPTH_MAX, "-Q auto's deepest");

int cli_sweep_grid_check(const struct opts *o)
{
	if (opts_sweep_grid(o) && o->npaths > 1) {
		cli_msg("--sweep across sizes or depths takes one target (sweep each in turn)");
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* The grid's settings from the command line. */
static void grid_cfg(const struct opts *o, struct sweepgrid_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (o->nsizes) {
		memcpy(cfg->sizes, o->sizes, o->nsizes * sizeof(o->sizes[0]));
		cfg->nsizes = o->nsizes;
	} else {
		cfg->sizes[0] = opts_request_size(o);
		cfg->nsizes = 1;
	}
	if (o->ndepths) {
		memcpy(cfg->depths, o->depths, o->ndepths * sizeof(o->depths[0]));
		cfg->ndepths = o->ndepths;
	} else {
		cfg->depths[0] = (unsigned)o->depth;
		cfg->ndepths = 1;
	}
	cfg->depth_auto = o->depth_auto;
	cfg->best_aqu = o->best_aqu;
	cfg->limit_aqu = o->limit_aqu;
}

/* Write sb to stdout; 0 or the exit code of an output error. */
static int grid_out(struct sbuf *sb)
{
	int ret = out_write_sbuf(STDOUT_FILENO, sb);

	sbuf_reset(sb);
	return ret ? cli_out_error(ret) : 0;
}

/* The plan as JSON members (no braces). */
static void grid_json_plan(struct sbuf *sb, const struct sweepgrid_plan *p)
{
	sbuf_printf(sb, "\"plan\": {\"sizes\": %zu, \"depths\": %zu, \"cells\": %zu, "
		    "\"rates\": %zu, \"rates_auto\": %s, \"depth_auto\": %s, \"step_ns\": %" PRIu64
		    ", \"at_most_ns\": %" PRIu64 "}", p->sizes, p->depths, p->cells, p->steps,
		    p->rates_auto ? "true" : "false", p->depth_auto ? "true" : "false", p->step_ns,
		    p->total_ns);
}

/*
 * The plan: refused (exit 1, the plan said) when it may run longer than the bound without
 * --yes. Returns -1 to go on, or the exit code.
 */
static int grid_guard(const struct opts *o, const struct sweepgrid_plan *p, struct sbuf *line)
{
	char total[FMT_BUFSZ], bound[FMT_BUFSZ], step[FMT_BUFSZ];

	if (!sweepgrid_plan_too_long(p) || o->yes)
		return -1;
	fmt_value(total, sizeof(total), p->total_ns, FMT_TIME);
	fmt_value(bound, sizeof(bound), SWEEPGRID_BOUND_NS, FMT_TIME);
	fmt_value(step, sizeof(step), p->step_ns, FMT_TIME);
	line->buf[line->len - 1] = '\0';
	cli_msg("%s", sbuf_str(line));
	cli_msg("this sweep may run %s%s, longer than %s: nothing was run; add --yes to run it, "
		"or shorten each step (-w, now %s) or the lists", p->rates_auto || p->depth_auto ?
		"up to " : "", total, bound, step);
	return CLI_EXIT_USAGE;
}

/*
 * --record: the grid's conclusions (in the table's words) into its recording, which is
 * then closed; --report: the report drawn from it (or dropped when nothing was
 * recorded). Returns the exit code.
 */
static int grid_record_end(const struct opts *o, struct cli_grid *grid, struct filechild *rep,
			   int code)
{
	struct sbuf text = SBUF_INIT;
	long beyond;
	int recorded;

	sweepgrid_format_best(&text, &grid->g);
	sweepgrid_format_limit(&text, &grid->g);
	if (text.len)
		text.buf[--text.len] = '\0';
	code = cli_record_grid_end(grid->rec, sbuf_str(&text), sweepgrid_best(&grid->g),
				   sweepgrid_limit(&grid->g, &beyond), code, &recorded);
	grid->rec = NULL;
	sbuf_free(&text);
	return cli_replay_report(o, rep, recorded, code);
}

int cli_sweep_grid(const struct opts *o, const struct engine_ops *ops,
		   const struct view_ops *view, const struct target_progress *pg)
{
	struct cli_grid grid = { .first = true };
	struct sweepgrid_cfg cfg;
	struct sweepgrid_plan plan;
	struct sweep_plan rates;
	struct sbuf sb = SBUF_INIT, line = SBUF_INIT;
	uint64_t size;
	unsigned depth;
	struct filechild *rep = NULL;
	int code = CLI_EXIT_OK, c;

	grid_cfg(o, &cfg);
	sweep_parse(o->sweep_rates, &rates, NULL, 0); /* checked already */
	sweepgrid_plan(&cfg, rates.automatic ? 0 : rates.nrates,
		       o->deadline_set ? o->deadline : OPTS_SWEEP_STEP, &plan);
	sweepgrid_format_plan(&line, &plan);
	if ((c = grid_guard(o, &plan, &line)) >= 0) {
		sbuf_free(&line);
		return c;
	}
	if (o->report && !(rep = cli_report_create(o, &code))) {
		sbuf_free(&line);
		return code;
	}
	if (o->record && (code = cli_record_open_n(o, 1, &grid.rec))) {
		if (rep)
			cli_report_drop(o, rep);
		sbuf_free(&line);
		return code;
	}
	sweepgrid_init(&grid.g, &cfg);
	if (o->json) {
		sbuf_puts(&sb, "{\"target\": ");
		json_append_string(&sb, o->path);
		sbuf_puts(&sb, ", ");
		grid_json_plan(&sb, &plan);
		sbuf_puts(&sb, ", \"grid\": [");
	} else {
		sbuf_append(&sb, sbuf_str(&line), line.len);
		sweepgrid_format_header(&sb);
	}
	code = grid_out(&sb);
	while (!code && !cli_stop && sweepgrid_next_cell(&grid.g, &size, &depth)) {
		struct opts one = *o;

		one.size = size;
		one.depth = depth;
		one.nsizes = one.ndepths = 0;
		one.depth_auto = false;
		one.sweep_grid = &grid;
		c = cli_run(&one, ops, view, pg);
		code = c > code ? c : code;
	}
	{ /* the conclusions on what finished (-J: the object closed whatever happened) */
		if (o->json) {
			sbuf_puts(&sb, "], ");
			sweepgrid_json_end(&sb, &grid.g);
			sbuf_puts(&sb, "}\n");
		} else {
			sweepgrid_format_best(&sb, &grid.g);
			sweepgrid_format_limit(&sb, &grid.g);
		}
		c = grid_out(&sb);
		code = c ? c : code;
	}
	if (grid.rec)
		code = grid_record_end(o, &grid, rep, code);
	else
		code = cli_replay_report(o, rep, 0, code); /* nothing recorded */
	sweepgrid_free(&grid.g);
	sbuf_free(&sb);
	sbuf_free(&line);
	return code;
}
