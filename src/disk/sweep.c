#include "config.h"

#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "fmt.h"
#include "json.h"
#include "msg.h"
#include "stats.h"
#include "suffix.h"

#define SWEEP_RATE_MAX 1e9

void sweep_judge(struct verdict_hist *h, const struct sweep_probe *sp, double rate,
		 const struct tally *t, const struct verdict_dev *devs, size_t n,
		 struct verdict *v, struct sweep_row *r)
{
	struct verdict_probe vp = sp->run;
	const struct iostat_row *row = n ? devs[0].row : NULL;

	vp.asked = rate;
	vp.period_ns = t->wall;
	vp.done = t->requests;
	vp.skipped = t->skipped;
	vp.failed = t->failed;
	vp.p50_ns = stats_percentile(&t->valid, 50);
	vp.p99_ns = stats_percentile(&t->valid, 99);
	vp.sum_ns = t->valid.sum;
	verdict_probe_cpu(&vp, sp->cpu_known, sp->cpu_wait_ns, false, 0, sp->host_some_ns);
	verdict_judge(h, &vp, devs, n, v);
	*r = (struct sweep_row){
		.size = sp->run.size, .asked = rate, .achieved = v->achieved,
		.expected = v->expected, .dev_rate = v->dev_rate, .p50_ns = vp.p50_ns,
		.p99_ns = vp.p99_ns, .skipped = t->skipped,
		/* response time (completion - scheduled start) when -Q or --response asks */
		.rp50_ns = sp->response ? stats_percentile(&t->response, 50) : 0,
		.rp99_ns = sp->response ? stats_percentile(&t->response, 99) : 0,
		.kept_up = v->state == VERDICT_KEEPS_UP ||
			   (v->state == VERDICT_OTHER_IO && !v->falls_short && !v->queue_building),
		.cpu_ms_s = v->cpu_known ? v->cpu_ms_s : -1,
		.probe_side = v->falls_short && (v->reason == VERDICT_PROBE_CPU ||
						 v->reason == VERDICT_PROBE_LIMITED),
	};
	r->depth = sp->run.depth ? sp->run.depth : 1;
	r->pieces = 1;
	if (n) {
		struct verdict_expect e;

		if (!verdict_expect(&vp, &devs[0], rate, &e)) {
			r->pieces = e.pieces;
			r->flushes = e.per_request - e.pieces;
		}
	}
	if (row) {
		r->areq_kb = row->avgrq_sz / 2;
		r->aqu = row->aqu_sz;
		r->await_ms = row->await;
		r->util = row->util;
		r->dev_mbs = (row->rkb_s + row->wkb_s) / 1024;
	}
}

void sweep_row_split(struct sweep_row *r, const struct stats *reads, const struct stats *writes)
{
	r->split = true;
	r->read_p50_ns = stats_percentile(reads, 50);
	r->read_p99_ns = stats_percentile(reads, 99);
	r->write_p50_ns = stats_percentile(writes, 50);
	r->write_p99_ns = stats_percentile(writes, 99);
}

int sweep_parse(const char *arg, struct sweep_plan *p, char *msg, size_t msglen)
{
	const char *s = arg;

	memset(p, 0, sizeof(*p));
	if (!arg || !*arg || !strcmp(arg, "auto")) {
		p->automatic = true;
		return 0;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		char word[64];
		double rate;

		if (!len || len >= sizeof(word))
			return err_set(msg, msglen, -EINVAL, "--sweep: bad rate list \"%s\"", arg);
		if (p->nrates == SWEEP_MAX_STEPS)
			return err_set(msg, msglen, -EINVAL, "--sweep: at most %d rates",
				       SWEEP_MAX_STEPS);
		memcpy(word, s, len);
		word[len] = '\0';
		if (suffix_parse_rate(word, SWEEP_RATE_MAX, &rate, msg, msglen))
			return -EINVAL;
		if (!(rate > 0))
			return err_set(msg, msglen, -EINVAL,
				       "--sweep: a rate must be above 0 (\"%s\")", word);
		p->rates[p->nrates++] = rate;
		s += len;
		if (*s == ',' && !*++s)
			return err_set(msg, msglen, -EINVAL, "--sweep: bad rate list \"%s\"", arg);
	}
	return 0;
}

/* Auto mode: double until a step falls short, then bisect the gap. */
static double sweep_next_auto(struct sweep_plan *p)
{
	double next;

	if (!p->steps)
		return SWEEP_AUTO_START;
	if (!p->bad) {
		next = p->last * 2;
		return next <= SWEEP_AUTO_MAX ? next : 0;
	}
	if (!p->ok) /* the first step already fell short: halve until one keeps up */
		return p->bad / 2 >= 1.0 / 64 ? p->bad / 2 : 0;
	if (p->bad <= p->ok * (1 + SWEEP_AUTO_PRECISION))
		return 0;
	return (p->ok + p->bad) / 2;
}

double sweep_next(struct sweep_plan *p)
{
	double rate;

	if (p->done || p->steps >= SWEEP_MAX_STEPS)
		return 0;
	rate = p->automatic ? sweep_next_auto(p) : (p->steps < p->nrates ? p->rates[p->steps] : 0);
	if (!rate) {
		p->done = true;
		return 0;
	}
	p->steps++;
	p->last = rate;
	return rate;
}

void sweep_record(struct sweep_plan *p, double rate, bool kept_up)
{
	if (kept_up && rate > p->ok)
		p->ok = rate;
	if (!kept_up && (!p->bad || rate < p->bad))
		p->bad = rate;
	/* a list keeps going; so does auto, whose next step follows from ok and bad */
}

double sweep_knee(const struct sweep_plan *p)
{
	return p->ok;
}

/* "140/s" from 10 up, "2.5/s" below. */
static void sweep_rate(char *buf, size_t len, double rate)
{
	snprintf(buf, len, rate >= 10 ? "%.0f" : "%.1f", rate);
}

static void sweep_time(struct sbuf *sb, uint64_t ns)
{
	if (!ns)
		sbuf_printf(sb, " %8s", "-");
	else
		sbuf_printf(sb, " %8.3f", (double)ns / 1e6);
}

void sweep_format_header(struct sbuf *sb)
{
	sbuf_printf(sb, "%-9s %9s %10s %9s %9s %9s %8s %7s %8s %6s %8s %8s %8s %8s %8s %7s  %s\n",
		    "size", "asked/s", "asked-B/s", "got/s", "expect/s", "dev/s", "areq-kB",
		    "aqu-sz", "await", "%util", "dev-MB/s", "p50-ms", "p99-ms", "rp50-ms",
		    "rp99-ms", "skipped", "verdict");
}

void sweep_format_row(struct sbuf *sb, const struct sweep_row *r)
{
	char size[FMT_BUFSZ], bps[FMT_BUFSZ], asked[32], got[32];

	fmt_value(size, sizeof(size), r->size, FMT_SIZE);
	fmt_value(bps, sizeof(bps), (uint64_t)llround(r->asked * (double)r->size), FMT_SIZE);
	sweep_rate(asked, sizeof(asked), r->asked);
	sweep_rate(got, sizeof(got), r->achieved);
	sbuf_printf(sb, "%-9s %9s %10s %9s %9.1f %9.1f %8.2f %7.2f %8.2f %6.1f %8.2f", size, asked,
		    bps, got, r->expected, r->dev_rate, r->areq_kb, r->aqu, r->await_ms, r->util,
		    r->dev_mbs);
	sweep_time(sb, r->p50_ns);
	sweep_time(sb, r->p99_ns);
	sweep_time(sb, r->rp50_ns);
	sweep_time(sb, r->rp99_ns);
	sbuf_printf(sb, " %7" PRIu64 "  %s\n", r->skipped, r->verdict ? r->verdict : "-");
}

void sweep_format_knee(struct sbuf *sb, const struct sweep_plan *p, uint64_t size,
		       const char *last_bad)
{
	char rate[32], bps[FMT_BUFSZ], sz[FMT_BUFSZ];
	double knee = sweep_knee(p);

	fmt_value(sz, sizeof(sz), size, FMT_SIZE);
	if (!knee) {
		sweep_rate(rate, sizeof(rate), p->bad);
		if (last_bad && !strncmp(last_bad, "no verdict", 10)) /* nothing judged: no knee */
			sbuf_printf(sb, "no knee: the first step (%s/s at %s) has no verdict\n", rate,
				    sz);
		else
			sbuf_printf(sb, "falls short from the first step (%s/s at %s)%s%s\n", rate,
				    sz, last_bad ? ": " : "", last_bad ? last_bad : "");
		return;
	}
	sweep_rate(rate, sizeof(rate), knee);
	fmt_value(bps, sizeof(bps), (uint64_t)llround(knee * (double)size), FMT_SIZE);
	if (!p->bad) {
		sbuf_printf(sb, "keeps up with every step, up to %s/s (%s/s) at %s\n", rate, bps, sz);
		return;
	}
	sbuf_printf(sb, "keeps up to ~%s/s (%s/s) at %s; beyond it: %s\n", rate, bps, sz,
		    last_bad ? last_bad : "falls short");
}

void sweep_json_row(struct sbuf *sb, const struct sweep_row *r)
{
	sbuf_printf(sb, "{\"size\": %" PRIu64 ", \"asked\": %.3f, \"asked_bps\": %.0f, "
		    "\"achieved\": %.3f, \"expected\": %.3f, \"dev_rate\": %.3f, \"areq_kb\": %.2f, "
		    "\"aqu_sz\": %.2f, \"await_ms\": %.3f, \"util\": %.2f, \"dev_mbs\": %.3f, "
		    "\"p50\": %" PRIu64 ", \"p99\": %" PRIu64 ", ", r->size, r->asked,
		    r->asked * (double)r->size, r->achieved, r->expected, r->dev_rate, r->areq_kb,
		    r->aqu, r->await_ms, r->util, r->dev_mbs, r->p50_ns, r->p99_ns);
	if (r->rp50_ns)
		sbuf_printf(sb, "\"response_p50\": %" PRIu64 ", \"response_p99\": %" PRIu64 ", ",
			    r->rp50_ns, r->rp99_ns);
	sbuf_printf(sb, "\"skipped\": %" PRIu64 ", \"kept_up\": %s, \"verdict\": ", r->skipped,
		    r->kept_up ? "true" : "false");
	json_append_string(sb, r->verdict ? r->verdict : "");
	sbuf_putc(sb, '}');
}

void sweep_run_init(struct sweep_run *sr, const char *spec, const struct probe_cfg *base,
		    uint64_t step_ns, const struct verdict_probe *run, bool response)
{
	memset(sr, 0, sizeof(*sr));
	sweep_parse(spec, &sr->plan, NULL, 0);
	verdict_hist_init(&sr->hist);
	sr->sp.run = *run;
	sr->sp.response = response;
	sr->sp.host_some_ns = -1;
	sr->base = *base;
	sr->base.count = 0;
	sr->base.print_count = sr->base.print_interval = 0;
	sr->base.deadline = step_ns;
}

double sweep_run_step(struct sweep_run *sr, struct probe_cfg *pc)
{
	sr->rate = sweep_next(&sr->plan);
	*pc = sr->base;
	if (sr->rate > 0)
		pc->interval = sr->rate >= NS_PER_S ? 1 : (uint64_t)llround(NS_PER_S / sr->rate);
	return sr->rate;
}

void sweep_run_done(struct sweep_run *sr, const struct tally *t, const struct verdict_dev *devs,
		    size_t n, struct sweep_row *r, char *verdict, size_t len)
{
	struct sbuf text = SBUF_INIT;
	struct verdict v;

	sweep_judge(&sr->hist, &sr->sp, sr->rate, t, devs, n, &v, r);
	verdict_format(&text, &v);
	snprintf(verdict, len, "%s", sbuf_str(&text));
	sbuf_free(&text);
	r->verdict = verdict;
	verdict_words(&v, sr->words, sizeof(sr->words));
	sweep_record(&sr->plan, sr->rate, r->kept_up);
	if (!r->kept_up && (!sr->bad_rate || sr->rate < sr->bad_rate)) {
		sr->bad_rate = sr->rate; /* the knee line names the verdict's words only */
		verdict_words(&v, sr->bad, sizeof(sr->bad));
	}
}

void sweep_run_cpu(struct sweep_run *sr, bool known, uint64_t wait_ns, int64_t host_some_ns)
{
	sr->sp.cpu_known = known;
	sr->sp.cpu_wait_ns = wait_ns;
	sr->sp.host_some_ns = host_some_ns;
}

void sweep_run_knee(const struct sweep_run *sr, struct sbuf *sb)
{
	if (sr->plan.steps && (sr->plan.ok || sr->plan.bad))
		sweep_format_knee(sb, &sr->plan, sr->sp.run.size, sr->bad[0] ? sr->bad : NULL);
}
