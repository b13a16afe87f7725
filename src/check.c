#include "config.h"

#include "check.h"

#include <inttypes.h>
#include <string.h>

const char *check_state_name(enum check_state st)
{
	static const char *const names[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

	return names[st <= CHECK_UNKNOWN ? st : CHECK_UNKNOWN];
}

static enum check_state check_worse(enum check_state a, enum check_state b)
{
	return a > b ? a : b;
}

/* The output text must stay on one line and clear of the "|" separator. */
static void check_text(struct sbuf *sb, const char *s)
{
	for (; *s; s++)
		sbuf_putc(sb, (unsigned char)*s < ' ' || *s == '|' ? ' ' : *s);
}

static double check_iops(const struct stats *v)
{
	return v->sum ? (double)v->count * 1e9 / (double)v->sum : 0.0;
}

enum check_state check_report(struct sbuf *sb, const struct check_cfg *cfg, const struct tally *t,
			      const char *problem)
{
	const struct stats *v = &t->valid;
	double p99 = (double)stats_percentile(v, 99) / 1e6, avg = stats_mean(v) / 1e6;
	
	double iops = check_iops(v);
	enum check_state st = CHECK_OK;

	if (problem || (!v->count && !t->failed)) {
		sbuf_puts(sb, "IOPROBE UNKNOWN - ");
		check_text(sb, problem ? problem : "no valid request completed");
		sbuf_putc(sb, '\n');
		return CHECK_UNKNOWN;
	}
	if (t->failed || stats_percentile(v, 99) > cfg->crit ||
	    (cfg->iops && iops < cfg->iops_crit))
		st = CHECK_CRITICAL;
	else if (stats_percentile(v, 99) > cfg->warn || (cfg->iops && iops < cfg->iops_warn))
		st = check_worse(st, CHECK_WARNING);
	sbuf_printf(sb, "IOPROBE %s - p99 %.3f ms, avg %.3f ms, %.1f iops, %" PRIu64
		    " requests, %" PRIu64 " failed", check_state_name(st), p99, avg, iops,
		    t->requests, t->failed);
	sbuf_printf(sb, " | 'p99'=%.6fms;%.6f;%.6f;0 'avg'=%.6fms;;;0", p99,
		    (double)cfg->warn / 1e6, (double)cfg->crit / 1e6, avg);
	if (cfg->iops)
		sbuf_printf(sb, " 'iops'=%.3f;%.3f:;%.3f:;0", iops, cfg->iops_warn, cfg->iops_crit);
	else
		sbuf_printf(sb, " 'iops'=%.3f;;;0", iops);
	sbuf_printf(sb, " 'requests'=%" PRIu64 ";;;0 'failed'=%" PRIu64 ";;0;0\n", t->requests,
		    t->failed);
	return st;
}
