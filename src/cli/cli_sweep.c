#include "config.h"

#include "cli_int.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>

#include "devwatch.h"
#include "iostat.h"
#include "json.h"
#include "opts.h"
#include "outw.h"
#include "probe.h"
#include "prober.h"
#include "sbuf.h"
#include "stats.h"
#include "sweep.h"
#include "verdict.h"

/* Put one piece of the sweep's output on stdout (whole lines, flushed). */
static int cli_sweep_out(struct cli_target *tg, struct sbuf *sb)
{
	struct outw *out = &tg->run->out;
	int ret;

	pthread_mutex_lock(&out->lock);
	ret = outw_flush(out, sb);
	pthread_mutex_unlock(&out->lock);
	return ret;
}

/*
 * The sweep's end into sb: the knee line (bad: the verdict's words at the
 * lowest rate that fell short, or NULL), or with -J the array's end and the
 * "knee" object (null when no step finished).
 */
static void cli_sweep_end(const struct cli_target *tg, const struct sweep_run *sr,
			  struct sbuf *sb)
{
	struct sbuf knee = SBUF_INIT;

	sweep_run_knee(sr, &knee);
	if (tg->run->o->json) {
		sbuf_puts(sb, "], \"knee\": ");
		if (knee.len) {
			sbuf_printf(sb, "{\"rate\": %.3f, \"size\": %llu, \"line\": ",
				    sweep_knee(&sr->plan), (unsigned long long)sr->sp.run.size);
			knee.buf[knee.len - 1] = '\0'; /* no newline inside the string */
			json_append_string(sb, sbuf_str(&knee));
			sbuf_puts(sb, "}}\n");
		} else {
			sbuf_puts(sb, "null}\n");
		}
	} else {
		sbuf_append(sb, sbuf_str(&knee), knee.len);
	}
	sbuf_free(&knee);
}

/* --record: step r with its table row (in line, emptied); the step's number. */
static uint64_t cli_sweep_record(struct cli_target *tg, const struct sweep_row *r,
				 struct sbuf *line)
{
	uint64_t k;

	if (line->len && line->buf[line->len - 1] == '\n')
		line->buf[--line->len] = '\0';
	k = cli_record_step(tg, r, sbuf_str(line));
	sbuf_reset(line);
	return k;
}

/*
 * One step at pc's rate: the probe run in its process, the device rows and the CPU wait
 * around it, judged into r (its verdict line in verdict[len]). 0, or the run's error.
 */
static int cli_sweep_measure(struct cli_target *tg, struct sweep_run *sr,
			     const struct probe_cfg *pc, struct probe_ctl *ctl, struct cpuwait *cw,
			     struct sweep_row *r, char *verdict, size_t len, char *msg,
			     size_t msglen)
{
	struct probe_sink quiet = { tg, NULL, NULL, NULL, cli_on_warn, NULL, cli_run_idle };
	struct verdict_dev devs[DEVWATCH_MAX];
	struct cpuwait_delta cd;
	struct probe *p = tg->p;
	uint64_t cpu_wait;
	size_t n;
	int ret;

	probe_init(p, pc, p->target, p->engine, p->buf);
	p->ctl = ctl; /* the watchdog's, shared with the probe's process */
	devwatch_sample(tg->watch, NULL, 0);
	cpuwait_read(cw, 0, &cd); /* the host's pressure over the step */
	ret = prober_run(p, &quiet, &cli_stop, msg, msglen);
	if (tg->run->rec && !ret)
		cli_record_period(tg, &p->acct.total); /* each step is one period */
	if (ret || cli_stop)
		return ret;
	devwatch_sample(tg->watch, NULL, 0);
	n = devwatch_verdict_devs(tg->watch, devs, DEVWATCH_MAX);
	cpuwait_read(cw, 0, &cd);
	/* the probe's run delay over the step, read by its process at its end */
	sweep_run_cpu(sr, prober_cpu_wait(p, &cpu_wait), cpu_wait,
		      cd.have_host ? (int64_t)cd.host_some_ns : -1);
	sweep_run_done(sr, &p->acct.total, devs, n, r, verdict, len);
	r->depth = (unsigned)tg->run->o->depth;
	return 0;
}

/* A grid cell's step: its row into the grid, the recording and sb. 0 or -ENOMEM (msg). */
static int cli_sweep_grid_row(struct cli_target *tg, const struct sweep_run *sr,
			      struct sweep_row *r, const char *verdict, struct sbuf *sb,
			      struct sbuf *line, char *msg, size_t msglen)
{
	const struct opts *o = tg->run->o;
	struct cli_grid *grid = o->sweep_grid;
	struct probe *p = tg->p;
	long i;

	if (p->cfg.read_write) /* reads and writes apart in the grid's rows */
		sweep_row_split(r, &p->acct.read, &p->acct.write);
	i = sweepgrid_add(&grid->g, r, verdict, sr->words);
	if (i < 0)
		return err_set(msg, msglen, (int)i, "out of memory");
	if (tg->run->rec) {
		sweepgrid_format_row(line, &grid->g, (size_t)i);
		cli_sweep_record(tg, r, line);
	}
	if (o->json) {
		if (!grid->first)
			sbuf_puts(sb, ", ");
		sweepgrid_json_row(sb, &grid->g, (size_t)i);
	} else {
		sweepgrid_format_row(sb, &grid->g, (size_t)i);
	}
	grid->first = false;
	return 0;
}

/*
 * --sweep: step the asked rate on the same target with the same options,
 * each step -w long (5 s), judge each step with the saturation verdict, print
 * the operators' table row by row and then the knee. A signal ends the sweep
 * after the steps already finished (the one in progress is not judged).
 * Returns 0 or a negative errno with msg filled (a failed request).
 */
int cli_sweep(struct cli_target *tg, char *msg, size_t msglen)
{
	const struct opts *o = tg->run->o;
	struct probe *p = tg->p;
	struct probe_ctl *ctl = p->ctl; /* set when the target was prepared */
	struct verdict_probe run;
	struct sweep_run sr;
	struct probe_cfg pc;
	struct sbuf sb = SBUF_INIT, line = SBUF_INIT;
	struct cli_grid *grid = o->sweep_grid; /* a cell of a grid: rows go there */
	double knee_rate = 0;
	long knee = -1;
	bool first = true;
	int ret = 0;
	struct cpuwait cw;        /* the host's CPU pressure over each step */

	cpuwait_init(&cw);
	verdict_probe_settings(&run, 0, p->target->size, o->write > 0, o->read_write, o->cached,
			       (unsigned)o->depth);
	sweep_run_init(&sr, o->sweep_rates, &p->cfg,
		       o->deadline_set ? o->deadline : OPTS_SWEEP_STEP, &run, opts_response(o));
	if (o->sweep_prefix)
		sbuf_puts(&sb, o->sweep_prefix);
	if (o->sweep_printed)
		*o->sweep_printed = true;
	if (grid) {
		/* the grid's runner wrote its header */
	} else if (o->json) {
		sbuf_puts(&sb, "{\"target\": ");
		json_append_string(&sb, o->path);
		sbuf_puts(&sb, ", \"sweep\": [");
	} else {
		sweep_format_header(&sb);
	}
	ret = cli_sweep_out(tg, &sb);
	while (!ret && !cli_stop && sweep_run_step(&sr, &pc)) {
		struct sweep_row r;
		char verdict[200];

		ret = cli_sweep_measure(tg, &sr, &pc, ctl, &cw, &r, verdict, sizeof(verdict), msg,
					msglen);
		if (ret || cli_stop)
			break;
		if (grid) {
			ret = cli_sweep_grid_row(tg, &sr, &r, verdict, &sb, &line, msg, msglen);
			if (ret)
				break;
		} else {
			if (tg->run->rec) {
				uint64_t k;

				sweep_format_row(&line, &r);
				k = cli_sweep_record(tg, &r, &line);
				if (r.kept_up && r.asked >= knee_rate) {
					knee_rate = r.asked;
					knee = (long)k;
				}
			}
			if (o->json) {
				if (!first)
					sbuf_puts(&sb, ", ");
				sweep_json_row(&sb, &r);
			} else {
				sweep_format_row(&sb, &r);
			}
		}
		first = false;
		ret = cli_sweep_out(tg, &sb);
	}
	if (!ret && !grid) {
		cli_sweep_end(tg, &sr, &sb);
		if (tg->run->rec) {
			sweep_run_knee(&sr, &line);
			if (line.len)
				line.buf[--line.len] = '\0'; /* no newline at the end */
			cli_record_knee(tg, sbuf_str(&line), knee);
			sbuf_reset(&line);
		}
		ret = cli_sweep_out(tg, &sb);
	}
	sbuf_free(&line);
	sbuf_free(&sb);
	return ret;
}
