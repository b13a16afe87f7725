#include "config.h"

#include "check.h"

#include "common.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

const char *check_state_name(enum check_state st)
{
	static const char *const names[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

	return names[st <= CHECK_UNKNOWN ? st : CHECK_UNKNOWN];
}

/* The output text must stay on one line and clear of the "|" separator. */
static void check_text(struct sbuf *sb, const char *s)
{
	for (; *s; s++)
		sbuf_putc(sb, (unsigned char)*s < ' ' || *s == '|' ? ' ' : *s);
}

bool check_range_alert(const struct check_range *r, double v)
{
	bool in = v >= r->lo && v <= r->hi;

	return r->inside ? in : !in;
}

void check_range_put(struct sbuf *sb, const struct check_range *r, double scale, int decimals)
{
	if (r->inside)
		sbuf_putc(sb, '@');
	if (isinf(r->lo) && r->lo < 0)
		sbuf_puts(sb, "~:");
	else if (r->lo != 0 || r->inside || isinf(r->hi))
		sbuf_printf(sb, "%.*f:", decimals, r->lo * scale);
	if (!isinf(r->hi))
		sbuf_printf(sb, "%.*f", decimals, r->hi * scale);
}

static double check_iops(const struct stats *v)
{
	return v->sum ? (double)v->count * NS_PER_S / (double)v->sum : 0.0;
}

/* The state of one run (problem: UNKNOWN, or CRITICAL when critical). */
static enum check_state check_judge(const struct check_cfg *cfg, const struct tally *t,
				    const char *problem, bool critical)
{
	const struct stats *v;
	double iops, p99;

	if (problem)
		return critical ? CHECK_CRITICAL : CHECK_UNKNOWN;
	if (!t)
		return CHECK_UNKNOWN;
	v = &t->valid;
	iops = check_iops(v);
	if (!v->count && !t->failed)
		return CHECK_UNKNOWN;
	p99 = (double)stats_percentile(v, 99);
	if (t->failed || check_range_alert(&cfg->crit, p99) ||
	    (cfg->iops && check_range_alert(&cfg->iops_crit, iops)))
		return CHECK_CRITICAL;
	if (check_range_alert(&cfg->warn, p99) ||
	    (cfg->iops && check_range_alert(&cfg->iops_warn, iops)))
		return CHECK_WARNING;
	return CHECK_OK;
}

/*
 * "p99 3.200 ms, avg 2.100 ms, 10.0 iops, 10 requests, 0 failed"; without a valid request
 * (t NULL: the run never started) "no latency measured, 0 requests, 0 failed".
 */
static void check_figures(struct sbuf *sb, const struct tally *t)
{
	const struct stats *v = t ? &t->valid : NULL;

	if (!v || !v->count) {
		sbuf_printf(sb, "no latency measured, %" PRIu64 " requests, %" PRIu64 " failed",
			    t ? t->requests : 0, t ? t->failed : 0);
		return;
	}
	sbuf_printf(sb, "p99 %.3f ms, avg %.3f ms, %.1f iops, %" PRIu64 " requests, %" PRIu64
		    " failed", (double)stats_percentile(v, 99) / 1e6, stats_mean(v) / 1e6,
		    check_iops(v), t->requests, t->failed);
}

/*
 * "=VALUEUNIT" with decimals digits, then rest; or "=U" (the guidelines' literal for a value
 * that could not be determined, which then has no unit) and rest, when not known.
 */
static void check_value(struct sbuf *sb, bool known, double value, int decimals,
			const char *unit, const char *rest)
{
	if (known)
		sbuf_printf(sb, "=%.*f%s%s", decimals, value, unit, rest);
	else
		sbuf_printf(sb, "=U%s", rest);
}

/* A perfdata label: 'prefixname'; a quote doubled, '=' (which ends a label) made '_'. */
static void check_label(struct sbuf *sb, const char *prefix, const char *name)
{
	sbuf_putc(sb, '\'');
	for (const char *s = prefix; *s; s++) {
		if (*s == '\'')
			sbuf_putc(sb, '\'');
		sbuf_putc(sb, (unsigned char)*s < ' ' || *s == '|' ? ' ' : *s == '=' ? '_' : *s);
	}
	sbuf_puts(sb, name);
	sbuf_putc(sb, '\'');
}

/*
 * The perfdata of one run; with a prefix (the target) the labels are "PREFIX p99"...
 * Latencies and the rate of a run without a valid request (t NULL: never started) are U,
 * the guidelines' "could not be determined", never a 0 that graphs as the best latency.
 */
static void check_perfdata(struct sbuf *sb, const struct check_cfg *cfg, const struct tally *t,
			   const char *prefix)
{
	const struct stats *v = t ? &t->valid : NULL;
	bool known = v && v->count;
	double p99 = known ? (double)stats_percentile(v, 99) / 1e6 : 0;
	double avg = known ? stats_mean(v) / 1e6 : 0, iops = known ? check_iops(v) : 0;

	check_label(sb, prefix, *prefix ? " p99" : "p99");
	check_value(sb, known, p99, 6, "ms", ";");
	check_range_put(sb, &cfg->warn, 1e-6, 6);
	sbuf_putc(sb, ';');
	check_range_put(sb, &cfg->crit, 1e-6, 6);
	sbuf_puts(sb, ";0 ");
	check_label(sb, prefix, *prefix ? " avg" : "avg");
	check_value(sb, known, avg, 6, "ms", ";;;0 ");
	check_label(sb, prefix, *prefix ? " iops" : "iops");
	if (cfg->iops) {
		check_value(sb, known, iops, 3, "", ";");
		check_range_put(sb, &cfg->iops_warn, 1, 3);
		sbuf_putc(sb, ';');
		check_range_put(sb, &cfg->iops_crit, 1, 3);
		sbuf_puts(sb, ";0 ");
	} else
		check_value(sb, known, iops, 3, "", ";;;0 ");
	check_label(sb, prefix, *prefix ? " requests" : "requests");
	sbuf_printf(sb, "=%" PRIu64 ";;;0 ", t ? t->requests : 0);
	check_label(sb, prefix, *prefix ? " failed" : "failed");
	sbuf_printf(sb, "=%" PRIu64 ";;0;0", t ? t->failed : 0);
}

enum check_state check_report(struct sbuf *sb, const struct check_cfg *cfg, const struct tally *t,
			      const char *problem)
{
	return check_report_as(sb, cfg, t, problem, false);
}

enum check_state check_report_as(struct sbuf *sb, const struct check_cfg *cfg,
				 const struct tally *t, const char *problem, bool critical)
{
	return check_report_verdict(sb, cfg, t, problem, critical, NULL);
}

/* ", VERDICT" after the figures (the plugin text's rules), when there is one. */
static void check_verdict(struct sbuf *sb, const char *verdict)
{
	if (!verdict || !*verdict)
		return;
	sbuf_puts(sb, ", ");
	check_text(sb, verdict);
}

enum check_state check_report_verdict(struct sbuf *sb, const struct check_cfg *cfg,
				      const struct tally *t, const char *problem, bool critical,
				      const char *verdict)
{
	enum check_state st = check_judge(cfg, t, problem, critical);

	if (st == CHECK_UNKNOWN) {
		sbuf_printf(sb, "IOPROBE %s - ", check_state_name(st));
		check_text(sb, problem ? problem : "no valid request completed");
		sbuf_putc(sb, '\n');
		return st;
	}
	sbuf_printf(sb, "IOPROBE %s - ", check_state_name(st));
	if (problem) {
		check_text(sb, problem);
		sbuf_puts(sb, "; ");
	}
	check_figures(sb, t);
	check_verdict(sb, verdict);
	sbuf_puts(sb, " | ");
	check_perfdata(sb, cfg, t, "");
	sbuf_putc(sb, '\n');
	return st;
}

/* Severity for the worst over targets: OK < UNKNOWN < WARNING < CRITICAL. */
static int check_rank(enum check_state st)
{
	static const int rank[] = { 0, 2, 3, 1 };

	return rank[st <= CHECK_UNKNOWN ? st : CHECK_UNKNOWN];
}

enum check_state check_report_multi(struct sbuf *sb, const struct check_cfg *cfg,
				    const struct check_target *t, size_t n)
{
	enum check_state worst = CHECK_OK;
	bool first = true, perf = false;

	for (size_t i = 0; i < n; i++) {
		enum check_state st = check_judge(cfg, t[i].tally, t[i].problem, t[i].critical);

		worst = check_rank(st) > check_rank(worst) ? st : worst;
	}
	sbuf_printf(sb, "IOPROBE %s - ", check_state_name(worst));
	for (int r = 3; r >= 0; r--) { /* worst first, in the order given within a state */
		for (size_t i = 0; i < n; i++) {
			enum check_state st = check_judge(cfg, t[i].tally, t[i].problem,
							  t[i].critical);

			if (check_rank(st) != r)
				continue;
			sbuf_puts(sb, first ? "" : "; ");
			first = false;
			check_text(sb, t[i].name);
			sbuf_printf(sb, " %s ", check_state_name(st));
			if (t[i].problem)
				check_text(sb, t[i].problem);
			else if (st == CHECK_UNKNOWN)
				sbuf_puts(sb, "no valid request completed");
			else
				check_figures(sb, t[i].tally);
			if (!t[i].problem && st != CHECK_UNKNOWN)
				check_verdict(sb, t[i].verdict);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i].problem && !t[i].critical)
			continue;
		sbuf_puts(sb, perf ? " " : " | ");
		perf = true;
		check_perfdata(sb, cfg, t[i].tally, t[i].name);
	}
	sbuf_putc(sb, '\n');
	return worst;
}
