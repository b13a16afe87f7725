/*
 * cli_replay: --replay FILE. The recording's lines (recread) are fed, in
 * file order, to the functions a live run prints with: report.c's request
 * lines, raw lines, JSON records and summaries, iostat.c's table, the
 * verdict judged again from the recorded rows and probe numbers (verdict.c
 * is pure: the same input gives the same verdict), check.c's plugin line.
 * Nothing is probed and nothing but stdout and stderr is written.
 *
 * Exit codes: what the live run's output implies (0, or 3 when a request
 * failed; --check: the plugin state); 1 for options a replay cannot honour;
 * 2 when the file cannot be read or is no recording of a version this
 * ioprobe reads; 3 after a damaged or truncated file (replayed up to the
 * damage) or one without its summaries (a killed run: totals from its
 * periods).
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"
#include "cli_conclude.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fmt.h"
#include "metrics.h"
#include "promfile.h"
#include "promfmt.h"
#include "usage.h"
#include "msg.h"
#include "outw.h"
#include "recread.h"
#include "report.h"

struct rp_target {
	struct report_cfg rc;
	struct tally merged;         /* every period: the totals when the summary is missing */
	struct tally group;          /* periods gathered for the next printed one (-P) */
	unsigned grouped;
	bool seen;                   /* a period or a summary of it was read */
	bool have_layers;            /* the summary held --layers' tally */
	struct layer_tally layers;
	bool have_summary, split;
	struct tally total;
	struct stats read, write;
	int ret;
	char msg[MSG_MAX];
	struct verdict_hist vh;
	struct verdict_probe vp;     /* the settings; each block's interval fields */
	bool have_v;                 /* a verdict in the open block */
	bool ended;                  /* its summary or failure was read: no more verdicts */
	struct verdict v;
	bool own_rows;
	size_t nown;
	struct rec_row own[REC_DEVS];
	struct rec_errors errors;    /* failures of every period */
	uint64_t last_real;          /* the last period's end */
	bool steps;                  /* --sweep steps were replayed: the table, not a summary */
	struct metrics_target *m;    /* --prometheus: what the exporters would have counted */
};

struct replay {
	const struct opts *o;
	const char *path;
	struct cli_recin in;         /* the recording being read */
	const struct rec_header *h;
	struct rp_target *t;
	size_t n;
	struct outw out;
	unsigned group;              /* recorded periods per printed period; 0: none printed */
	bool block_open;
	uint64_t block_real, block_seq;
	size_t nrows;
	struct rec_row rows[REC_DEVS];
	bool iso_time;
	bool have_end;
	int end_code;
	struct hr_run *hr;           /* --report: what the report draws, else NULL */
	struct filechild *report;    /* --report: the file's writer (NULL once written or dropped) */
	bool report_only;            /* a live run's --report: nothing printed */
	bool any_step;               /* a --sweep step was printed (the table's header is out) */
	bool hr_err;                 /* the report ran out of memory */
};

/* Options a replay cannot honour: -1 when fine, else 1 (said). */
static int rp_check_opts(const struct opts *o)
{
	const char *what = o->listen ? "--listen" :
			   o->influx ? "--influx" : o->sweep ? "--sweep" :
			   o->fio_job ? "--fio-job" : o->record ? "--record" : NULL;

	if (!what)
		return -1;
	cli_msg("--replay: %s cannot replay a recording; drop it", what);
	return CLI_EXIT_USAGE;
}

static int rp_flush(struct replay *p, struct sbuf *sb)
{
	if (p->report_only) {
		sbuf_reset(sb);
		return 0;
	}
	return outw_flush(&p->out, sb);
}

void cli_replay_report_cfg(const struct opts *o, const struct rec_header *h, size_t i,
			   struct report_cfg *rc)
{
	const struct rec_target *t = &h->target[i];

	memset(rc, 0, sizeof(*rc));
	rc->target.path = t->path;
	rc->target.name = t->name && t->name[0] ? t->name : NULL;
	rc->target.fstype = t->fstype;
	rc->target.device = t->device;
	rc->target.device_size = t->device_size;
	rc->time_format = o->time_format;
	rc->size = h->size;
	rc->write = h->write;
	rc->read_write = h->read_write;
	rc->response = h->response || opts_response(o);
}

/* The replay's report settings of target i, as cli_report_cfg() makes a live run's. */
static void rp_report_cfg(struct replay *p, size_t i)
{
	struct report_cfg *rc = &p->t[i].rc;

	cli_replay_report_cfg(p->o, p->h, i, rc);
	rc->json_lines = p->o->json_lines;
	rc->raw_percentiles = p->o->raw_percentiles;
	rc->raw_target = p->n > 1;
}

/* --prometheus: target i's series, described as the exporters describe it. 0 or -1 (said). */
static int rp_metrics_init(struct replay *p, size_t i)
{
	const struct rec_header *h = p->h;
	const struct rec_target *t = &h->target[i];
	static const char *const dev_words[] = { "block device", "character device" };
	struct metrics_info in = {
		.target = t->path, .name = t->name && t->name[0] ? t->name : NULL,
		.device = t->mdevice, .disk = t->mdisk, .fstype = t->fstype,
		.engine = h->engine, .interval = h->interval, .size = h->size,
		.start_real = h->real, .response = h->response,
		/* .verdict: from its first recorded verdict (a target the run did not judge,
		 * tmpfs or the null engine, has none) */
		.mode = h->read_write ? "read-write" : h->write ? "write" : "read",
	};

	for (size_t k = 0; k < sizeof(dev_words) / sizeof(dev_words[0]); k++)
		if (!strcmp(in.fstype, dev_words[k]))
			in.fstype = ""; /* a device has no file system label */
	in.op[OP_READ] = !h->write;
	in.op[OP_WRITE] = h->write || h->read_write;
	p->t[i].m = calloc(1, sizeof(*p->t[i].m));
	if (!p->t[i].m || metrics_target_init(p->t[i].m, &in, NULL)) {
		free(p->t[i].m);
		p->t[i].m = NULL;
		cli_msg("out of memory");
		return -1;
	}
	return 0;
}

/* The fleet histogram h from the log-linear stats s (each bucket by its midpoint). */
static void rp_metrics_hist(uint64_t *bucket, uint64_t *count, uint64_t *sum,
			    const struct stats *s)
{
	for (size_t k = 0; k < STATS_BUCKETS && s->count; k++)
		if (s->hist[k])
			bucket[metrics_bucket_index(stats_bucket_low(k) +
						    (stats_bucket_high(k) - stats_bucket_low(k)) / 2)] +=
				s->hist[k];
	*count += s->count;
	*sum = s->sum > UINT64_MAX - *sum ? UINT64_MAX : *sum + s->sum;
}

/*
 * Without request lines: target i's series from its totals — the latency and response
 * histograms from the log-linear ones (a bucket that straddles a fleet bound lands by its
 * midpoint), failures by errno from the periods, to the operation it did (-G: reads and
 * writes from their own statistics, response times with the reads).
 */
static void rp_metrics_from_totals(struct replay *p, struct rp_target *t)
{
	struct metrics_counts *c = &t->m->counts;
	int op = p->h->write ? OP_WRITE : OP_READ;
	struct metrics_op *o = &c->op[op];

	if (t->split) {
		rp_metrics_hist(c->op[OP_READ].bucket, &c->op[OP_READ].count, &c->op[OP_READ].sum,
				&t->read);
		rp_metrics_hist(c->op[OP_WRITE].bucket, &c->op[OP_WRITE].count,
				&c->op[OP_WRITE].sum, &t->write);
		c->op[OP_READ].bytes = c->op[OP_READ].count * p->h->size;
		c->op[OP_WRITE].bytes = c->op[OP_WRITE].count * p->h->size;
	} else {
		rp_metrics_hist(o->bucket, &o->count, &o->sum, &t->total.valid);
		o->bytes = o->count * p->h->size;
	}
	rp_metrics_hist(o->response.bucket, &o->response.count, &o->response.sum,
			&t->total.response);
	for (size_t k = 0; k < REC_ERRNOS && t->errors.err_no[k]; k++) {
		size_t s = 0;

		while (s < METRICS_ERRNOS && o->err_no[s] && o->err_no[s] != t->errors.err_no[k])
			s++;
		if (s == METRICS_ERRNOS) {
			o->errors_other += t->errors.count[k];
			continue;
		}
		o->err_no[s] = t->errors.err_no[k];
		o->errors[s] += t->errors.count[k];
	}
	o->errors_other += t->errors.other;
	c->skipped = t->total.skipped;
	o->last_real = t->last_real;
}

/* --prometheus FILE.prom: the textfile the run's exporters wrote last. 0 or the exit code. */
static int rp_prometheus(struct replay *p)
{
	struct metrics_snap *snap = calloc(p->n, sizeof(*snap));
	struct sbuf sb = SBUF_INIT;
	size_t n = 0;
	int err;

	if (!snap) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	for (size_t i = 0; i < p->n; i++) {
		struct rp_target *t = &p->t[i];

		if (!t->seen)
			continue;
		if (!p->h->requests)
			rp_metrics_from_totals(p, t);
		metrics_snapshot(t->m, 0, &snap[n++]);
	}
	err = promfmt_write(&sb, snap, n, PACKAGE_VERSION, PROMFMT_TEXT);
	if (!err)
		err = promfile_write(p->o->prometheus, sbuf_str(&sb), sb.len);
	sbuf_free(&sb);
	free(snap);
	if (err) {
		cli_msg("--prometheus: cannot write %s: %s", p->o->prometheus, strerror(-err));
		return CLI_EXIT_PREPARE;
	}
	return 0;
}

/* How many recorded periods make one printed period; 0 (none printed) or -1 (said). */
static int rp_group(struct replay *p)
{
	const struct opts *o = p->o;
	const struct rec_header *h = p->h;
	uint64_t base = h->period ? h->period : h->print_interval;
	char t1[FMT_BUFSZ], t2[FMT_BUFSZ];

	if (o->print_count) {
		if (h->print_count == o->print_count && !base)
			return 1;
		if (h->print_count && !base)
			cli_msg("--replay: -p %llu: the recording's periods are of %llu requests: "
				"replay them with -p %llu", (unsigned long long)o->print_count,
				(unsigned long long)h->print_count,
				(unsigned long long)h->print_count);
		else
			cli_msg("--replay: -p %llu: the recording's periods are %s long: replay "
				"them with -P", (unsigned long long)o->print_count,
				fmt_value(t1, sizeof(t1), base, FMT_TIME));
		return -1;
	}
	if (!o->print_interval)
		return 0;
	if (!base) {
		cli_msg("--replay: -P: the recording's periods are of %llu requests: replay them "
			"with -p %llu", (unsigned long long)h->print_count,
			(unsigned long long)h->print_count);
		return -1;
	}
	if (o->print_interval % base) {
		cli_msg("--replay: -P %s is no multiple of the recording's periods (%s)",
			fmt_value(t1, sizeof(t1), o->print_interval, FMT_TIME),
			fmt_value(t2, sizeof(t2), base, FMT_TIME));
		return -1;
	}
	return (int)(o->print_interval / base);
}

/* --report: the run's description for the report. 0 or -1 (said). */
static int rp_report_init(struct replay *p)
{
	const struct rec_header *h = p->h;

	if (hr_init(p->hr, p->n)) {
		cli_msg("out of memory");
		return -1;
	}
	p->hr->version = h->ioprobe;
	p->hr->host = h->host;
	p->hr->kernel = h->kernel;
	p->hr->engine = h->engine;
	p->hr->argc = h->argc;
	p->hr->argv = h->argv;
	p->hr->real = h->real;
	p->hr->size = h->size;
	p->hr->asked = h->asked;
	p->hr->mode = h->read_write ? "read-write" : h->write ? "write" : "read";
	for (size_t i = 0; i < p->n; i++) {
		p->hr->t[i].path = h->target[i].path;
		p->hr->t[i].name = h->target[i].name;
		p->hr->t[i].fstype = h->target[i].fstype;
		p->hr->t[i].device = h->target[i].device;
	}
	return 0;
}

static int rp_header(struct replay *p)
{
	const char *tf = getenv("S_TIME_FORMAT");
	struct sbuf sb = SBUF_INIT;
	int g;

	p->h = &p->in.rd.h;
	p->n = p->h->ntargets;
	p->t = calloc(p->n, sizeof(*p->t));
	if (!p->t) {
		cli_msg("out of memory");
		return CLI_EXIT_PREPARE;
	}
	if (p->o->prometheus && !p->report_only && !promfile_name_ok(p->o->prometheus)) {
		cli_msg("--prometheus: the file name must end in .prom (what node_exporter reads): "
			"\"%s\"", p->o->prometheus);
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < p->n; i++) {
		if (p->o->prometheus && !p->report_only && rp_metrics_init(p, i))
			return CLI_EXIT_PREPARE;
		rp_report_cfg(p, i);
		tally_init(&p->t[i].merged);
		tally_init(&p->t[i].group);
		verdict_hist_init(&p->t[i].vh);
		verdict_probe_settings(&p->t[i].vp, p->h->asked, p->h->size,
				       p->h->write || p->h->read_write, p->h->read_write,
				       p->h->cached, p->h->depth);
	}
	p->iso_time = tf && !strcmp(tf, "ISO");
	if (p->hr && rp_report_init(p))
		return CLI_EXIT_PREPARE;
	if (p->report_only)
		return -1;
	if ((g = rp_group(p)) < 0)
		return CLI_EXIT_USAGE;
	p->group = (unsigned)g;
	if (p->o->json && !p->o->json_lines && !p->o->check) {
		sbuf_putc(&sb, '[');
		rp_flush(p, &sb);
	}
	sbuf_free(&sb);
	return -1;
}

/* A warning or failure as the live run said it ("PATH: " first with several targets). */
static void rp_say(struct replay *p, long i, const char *text)
{
	if (p->report_only)
		return;
	if (p->n > 1 && i >= 0)
		cli_msg("%s: %s", p->h->target[i].path, text);
	else
		cli_msg("%s", text);
}

static void rp_request(struct replay *p, const struct rec_event *ev)
{
	struct rp_target *t = &p->t[ev->target];
	struct sbuf sb = SBUF_INIT;

	if (p->o->quiet)
		return;
	if (p->o->json) {
		outw_json_sep(&p->out, &sb);
		report_json_request(&sb, &t->rc, &ev->sample, ev->notice, ev->real);
		if (p->o->json_lines)
			sbuf_putc(&sb, '\n');
	} else {
		report_request_line(&sb, &t->rc, &ev->sample, ev->notice, ev->real);
	}
	rp_flush(p, &sb);
	sbuf_free(&sb);
}

static void rp_period(struct replay *p, const struct rec_event *ev)
{
	struct rp_target *t = &p->t[ev->target];
	struct sbuf sb = SBUF_INIT;

	t->seen = true;
	if (p->hr)
		hr_period(p->hr, ev->target, ev->mono, &ev->tally);
	tally_merge(&t->merged, &ev->tally);
	rec_errors_merge(&t->errors, &ev->errors);
	t->last_real = ev->real;
	if (!p->group)
		return;
	tally_merge(&t->group, &ev->tally);
	if (++t->grouped < p->group)
		return;
	if (p->o->json) {
		outw_json_sep(&p->out, &sb);
		report_json_stat(&sb, &t->rc, &t->group, ev->real, false);
		if (p->o->json_lines)
			sbuf_putc(&sb, '\n');
	} else if (!p->o->check) {
		report_raw_line(&sb, &t->rc, &t->group);
	}
	rp_flush(p, &sb);
	sbuf_free(&sb);
	tally_init(&t->group);
	t->grouped = 0;
}

/* rows[0..n) as the report functions take them. */
static size_t rp_dev_rows(const struct rec_row *rows, size_t n, struct iostat_dev_row *out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = (struct iostat_dev_row){ rows[k].name, &rows[k].row };
	return n;
}

/* Target i's side of the open block: the verdict judged again from the recorded input. */
static void rp_verdict(struct replay *p, const struct rec_event *ev)
{
	struct rp_target *t = &p->t[ev->target];
	const struct rec_target *rt = &p->h->target[ev->target];
	const struct rec_row *rows = ev->own_rows ? ev->row : p->rows;
	size_t nrows = ev->own_rows ? ev->nrows : p->nrows;

	if (!p->block_open || ev->seq != p->block_seq || t->have_v)
		return; /* another block's (a damaged file): not judged on this one's rows */
	recread_judge(&t->vh, &t->vp, rt, rows, nrows, &ev->probe, &t->v);
	t->have_v = true;
	if (t->m) { /* --prometheus: the verdict series as the live exporters had them */
		t->m->info.verdict = true;
		metrics_judged(t->m, &t->v, ev->probe.period_ns);
	}
	if (p->hr) {
		uint64_t end = p->block_real > p->h->real ? p->block_real - p->h->real : 0;

		hr_verdict(p->hr, ev->target, t->v.state);
		for (size_t j = 0; j < nrows; j++)
			hr_device(p->hr, ev->target, end, rows[j].row.interval_ns, rows[j].name,
				  &rows[j].row, t->v.state);
	}
	t->own_rows = ev->own_rows;
	t->nown = nrows;
	memcpy(t->own, rows, nrows * sizeof(*rows));
}

/* Target i as the live --iostat block named it: its name, else its path. */
static const char *rp_label(const struct replay *p, size_t i)
{
	return p->t[i].rc.target.name ? p->t[i].rc.target.name : p->h->target[i].path;
}

/* The open --iostat block printed as the live ticker printed it. */
static void rp_block_end(struct replay *p)
{
	struct iostat_dev_row rows[REC_DEVS];
	struct sbuf sb = SBUF_INIT;
	size_t n;

	if (!p->block_open)
		return;
	p->block_open = false;
	if (!p->o->iostat || p->o->check)
		goto done;
	if (p->o->json) {
		for (size_t i = 0; i < p->n; i++) {
			struct rp_target *t = &p->t[i];

			if (!t->have_v || !(n = rp_dev_rows(t->own, t->nown, rows)))
				continue;
			outw_json_sep(&p->out, &sb);
			report_json_iostat(&sb, &t->rc, rows, n, &t->v, p->block_real);
			if (p->o->json_lines)
				sbuf_putc(&sb, '\n');
		}
	} else {
		cli_iostat_time(&sb, p->iso_time, p->block_real);
		iostat_format_table(&sb, rows, rp_dev_rows(p->rows, p->nrows, rows));
		for (size_t i = 0; i < p->n; i++)
			if (p->t[i].have_v)
				cli_iostat_target(&sb, p->n > 1 ? rp_label(p, i) : NULL,
						  &p->t[i].v);
		sbuf_putc(&sb, '\n');
	}
	rp_flush(p, &sb);
done:
	for (size_t i = 0; i < p->n; i++)
		p->t[i].have_v = false;
	sbuf_free(&sb);
}

/* A sweep's table is printed as the live run printed it (not with -J, --check, -B, -P, -p). */
static bool rp_sweep_text(const struct replay *p)
{
	const struct opts *o = p->o;

	return !o->json && !o->check && !o->batch && !o->print_interval && !o->print_count;
}

/* --sweep: a step's row as the live run printed it, the table's header before the first. */
static void rp_step(struct replay *p, const struct rec_event *ev)
{
	struct rp_target *t = &p->t[ev->target];
	struct sbuf sb = SBUF_INIT;

	if (rp_sweep_text(p)) {
		if (!p->any_step)
			(ev->grid ? sweepgrid_format_header : sweep_format_header)(&sb);
		sbuf_printf(&sb, "%s\n", ev->line);
		rp_flush(p, &sb);
	}
	t->steps = p->any_step = true;
	sbuf_free(&sb);
	if (p->hr && hr_sweep_step(p->hr, ev->target, &ev->srow, ev->grid))
		p->hr_err = true;
}

/* Every target still running has its verdict in the open block. */
static bool rp_block_whole(const struct replay *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!p->t[i].ended && !p->t[i].have_v)
			return false;
	return true;
}

/*
 * Does ev close the open --iostat block (printed then)? A block is printed once its targets'
 * verdicts are in (rp_block_whole); a period, request or warning read between the block's
 * rows and its verdicts (older recordings wrote them apart, and another thread's line could
 * come between) was said before the block, as the live run said it; the next block, a
 * summary, a failure, a step or the end close it.
 */
static bool rp_block_closes(const struct replay *p, const struct rec_event *ev)
{
	switch (ev->kind) {
	case REC_VERDICT:
	case REC_REQUEST:
	case REC_SKIPPED:
	case REC_PERIOD:
	case REC_WARNING:
		return false;
	default:
		return p->block_open;
	}
}

static void rp_event(struct replay *p, const struct rec_event *ev)
{
	struct rp_target *t = &p->t[ev->target];

	if (rp_block_closes(p, ev))
		rp_block_end(p);
	switch (ev->kind) {
	case REC_HEADER:
		break;
	case REC_REQUEST:
		if (t->m)
			metrics_record(t->m, &ev->sample, ev->notice, ev->real, ev->sample.skipped);
		rp_request(p, ev);
		break;
	case REC_SKIPPED:
		if (t->m)
			metrics_record_skipped(t->m, ev->hi, ev->step, ev->n);
		break;
	case REC_PERIOD:
		rp_period(p, ev);
		break;
	case REC_IOSTAT:
		p->block_open = true;
		p->block_seq = ev->seq;
		p->block_real = ev->real;
		p->nrows = ev->nrows;
		memcpy(p->rows, ev->row, ev->nrows * sizeof(ev->row[0]));
		break;
	case REC_VERDICT:
		rp_verdict(p, ev);
		if (rp_block_whole(p))
			rp_block_end(p);
		break;
	case REC_WARNING:
		rp_say(p, ev->target_or_run, ev->text);
		break;
	case REC_FAILURE:
		if (ev->target_or_run >= 0)
			p->t[ev->target_or_run].ended = true;
		if (!(p->o->check && p->n == 1)) /* one target's --check line says it */
			rp_say(p, ev->target_or_run, ev->text);
		break;
	case REC_SUMMARY:
		t->seen = t->have_summary = t->ended = true;
		t->total = ev->tally;
		t->split = ev->split;
		t->read = ev->read;
		t->write = ev->write;
		t->have_layers = ev->have_layers;
		t->layers = ev->layers;
		t->ret = ev->ret;
		t->errors = ev->errors; /* the whole run's, the last partial period's too */
		snprintf(t->msg, sizeof(t->msg), "%s", ev->text);
		break;
	case REC_STEP:
		rp_step(p, ev);
		break;
	case REC_KNEE:
		if (t->steps && rp_sweep_text(p)) {
			struct sbuf sb = SBUF_INIT;

			sbuf_printf(&sb, "%s\n", ev->text);
			rp_flush(p, &sb);
			sbuf_free(&sb);
		}
		if (p->hr && hr_sweep_end(p->hr, ev->target, ev->text, ev->knee, ev->best,
					  ev->limit))
			p->hr_err = true;
		break;
	case REC_END:
		p->have_end = true;
		p->end_code = ev->ret;
		break;
	}
}

/* Every replayed target's end as cli_conclude() sees it (calloc'd; NULL: out of memory). */
static struct cli_end *rp_ends(struct replay *p)
{
	struct cli_end *e = calloc(p->n ? p->n : 1, sizeof(*e));

	if (!e) {
		cli_msg("out of memory");
		return NULL;
	}
	for (size_t i = 0; i < p->n; i++) {
		struct rp_target *t = &p->t[i];
		bool split = t->have_summary && t->split;

		if (t->seen && !t->have_summary)
			t->total = t->merged; /* the summary is missing: the periods' sum */
		e[i] = (struct cli_end){
			.rc = &t->rc, .path = p->h->target[i].path, .ran = t->seen,
			.started = true, .steps = t->steps, .ret = t->ret, .msg = t->msg,
			.total = &t->total, .read = split ? &t->read : NULL,
			.write = split ? &t->write : NULL,
			.layers = t->have_layers ? &t->layers : NULL,
		};
	}
	return e;
}

static int rp_end_flush(void *ctx, struct sbuf *sb)
{
	return rp_flush(ctx, sb);
}

/* The closing output of every target that ran, in order, as the live run's (cli_conclude). */
static int rp_conclude(struct replay *p, uint64_t real)
{
	struct sbuf sb = SBUF_INIT;
	struct cli_end *e = rp_ends(p);
	int code;

	if (!e)
		return CLI_EXIT_PREPARE;
	code = cli_conclude(p->o, e, p->n, real, &p->out, &sb, rp_end_flush, p);
	sbuf_free(&sb);
	if (p->report_only) {
		free(e);
		return code;
	}
	if (p->o->prometheus) {
		int c = rp_prometheus(p);

		if (c)
			code = c;
	}
	if (p->o->check)
		code = cli_conclude_check(p->o, e, p->n, false);
	free(e);
	return p->out.err && !p->o->check ? cli_out_error(p->out.err) : code;
}

/* cli_recin_read's each: the header sets the replay up, the rest is printed. */
static int rp_each(void *arg, const struct rec_event *ev)
{
	struct replay *p = arg;

	if (ev->kind == REC_HEADER)
		return rp_header(p);
	rp_event(p, ev);
	return p->out.err ? cli_out_error(p->out.err) : -1; /* a closed pipe ends quietly */
}

/* Read and print every line; the exit code. */
static int rp_run(struct replay *p)
{
	int code = cli_recin_read(&p->in, rp_each, p);
	bool damaged = p->in.damage[0];

	if (code >= 0)
		return code;
	if (damaged)
		cli_msg("%s", p->in.damage);
	rp_block_end(p);
	if (!p->have_end && !damaged)
		cli_msg("--replay: %s: the recording stops before the run's end (was it killed?); "
			"totals from its periods", p->path);
	code = rp_conclude(p, p->in.ev->real);
	if (p->hr) {
		int c;

		for (size_t i = 0; i < p->n; i++)
			if (p->t[i].seen)
				hr_total(p->hr, i, &p->t[i].total);
		if (p->hr_err) {
			cli_msg("--report: out of memory");
			cli_report_drop(p->o, p->report);
			p->report = NULL;
			return CLI_EXIT_PREPARE;
		}
		c = cli_report_write(p->o, p->report, p->hr);
		p->report = NULL;
		if (c)
			return c;
	}
	if (p->o->check)
		return code;
	return damaged || !p->have_end ? CLI_EXIT_RUNTIME : code;
}

/*
 * Replay path (a --replay FILE, or a live run's own recording for its report: report_only)
 * with the report rep (NULL: none); the exit code.
 */
static int rp_main(const struct opts *o, const char *path, struct filechild *rep,
		   bool report_only)
{
	struct replay p = { .o = o, .path = path, .report = rep, .report_only = report_only };
	struct hr_run hr = { 0 };
	int code;

	if (rep)
		p.hr = &hr;
	if ((code = cli_recin_open(&p.in, path)) >= 0) {
		if (rep)
			cli_report_drop(o, rep);
		return code;
	}
	if (!report_only) /* a live run's own recording is read after its stop, whole */
		p.in.stop = &cli_stop;
	outw_init(&p.out, STDOUT_FILENO, o->json_lines);
	code = rp_run(&p);
	outw_destroy(&p.out);
	cli_recin_close(&p.in);
	for (size_t i = 0; p.t && i < p.n; i++) {
		if (p.t[i].m)
			metrics_target_destroy(p.t[i].m);
		free(p.t[i].m);
	}
	free(p.t);
	if (p.report) /* never got to the report: no file left behind */
		cli_report_drop(o, p.report);
	hr_free(&hr);
	return code;
}

int cli_replay_check_opts(const struct opts *o)
{
	return rp_check_opts(o);
}

int cli_replay(const struct opts *o)
{
	struct filechild *rep = NULL;
	int code;

	if ((code = rp_check_opts(o)) >= 0)
		return code;
	if (o->report && !(rep = cli_report_create(o, &code)))
		return code;
	return rp_main(o, o->replay, rep, false);
}

int cli_replay_report(const struct opts *o, struct filechild *rep, int recorded, int code)
{
	int c;

	if (!rep)
		return code;
	if (recorded < 0) { /* never read back: its disk may hang */
		cli_msg("--report: \"%s\" is not written: the recording it is drawn from could not "
			"be finished", o->report);
		cli_report_drop(o, rep);
		return code ? code : CLI_EXIT_RUNTIME;
	}
	if (!recorded) {
		cli_report_drop(o, rep); /* nothing was recorded: nothing to draw */
		return code;
	}
	c = rp_main(o, o->record, rep, true);
	return c && !code ? c : code;
}
