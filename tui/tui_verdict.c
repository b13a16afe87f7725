#include "config.h"

#include "tui_verdict.h"

#include <errno.h>
#include <string.h>

void tui_verdict_init(struct tui_verdict *tv, const struct verdict_probe *run)
{
	memset(tv, 0, sizeof(*tv));
	tv->p = *run;
	verdict_hist_init(&tv->hist);
	stats_init(&tv->lat);
	stats_init(&tv->next);
}

void tui_verdict_set_asked(struct tui_verdict *tv, double asked)
{
	tv->p.asked = asked;
}

void tui_verdict_add(struct tui_verdict *tv, const struct sample *s)
{
	bool later = tv->cut && s->start + s->time > tv->cut;
	struct stats *lat = later ? &tv->next : &tv->lat;
	uint64_t *late = later ? &tv->next_late_max : &tv->late_max;

	if (s->result >= 0) /* as --iostat counts them */
		stats_add(lat, s->time);
	else
		(*(later ? &tv->next_failed : &tv->failed))++;
	if (s->lateness > *late)
		*late = s->lateness;
	tv->skipped_run = s->skipped;
	tv->added++;
}

void tui_verdict_cut(struct tui_verdict *tv, uint64_t end_ns)
{
	tv->cut = end_ns;
}

void tui_verdict_cpu(struct tui_verdict *tv, const struct cpuwait_delta *d)
{
	tv->cpu = *d;
	tv->cpu_set = true;
}

bool tui_verdict_judge(struct tui_verdict *tv, const struct devwatch *w, uint64_t period_ns,
		       uint64_t inflight_ns)
{
	struct verdict_dev dev[DEVWATCH_MAX];
	struct iostat_dev_row rows[DEVWATCH_MAX];
	size_t n = devwatch_verdict_devs(w, dev, DEVWATCH_MAX);
	bool any = devwatch_rows(w, rows, DEVWATCH_MAX) > 0; /* a device with a row (OK, RESET) */

	verdict_probe_interval(&tv->p, period_ns, &tv->lat, tv->skipped_run - tv->skip_mark,
			       inflight_ns);
	tv->p.late_max_ns = tv->late_max;
	tv->p.failed = tv->failed;
	tv->failed = tv->next_failed;
	tv->next_failed = 0;
	tv->late_max = tv->next_late_max;
	tv->next_late_max = 0;
	if (tv->cpu_set)
		verdict_probe_cpu(&tv->p, tv->cpu.have_wait, tv->cpu.wait_ns, tv->cpu.have_throttle,
				  tv->cpu.throttled_ns,
				  tv->cpu.have_host ? (int64_t)tv->cpu.host_some_ns : -1);
	tv->cpu_set = false;
	tv->skip_mark = tv->skipped_run;
	tv->lat = tv->next; /* what finished after the cut opens the next interval */
	stats_init(&tv->next);
	tv->cut = 0;
	if (!any)
		return false;
	verdict_judge(&tv->hist, &tv->p, dev, n, &tv->v);
	tv->have = true;
	return true;
}

int tui_verdict_text(const struct tui_verdict *tv, struct sbuf *rates, struct sbuf *verdict)
{
	if (!tv->have)
		return -ENODATA;
	if (verdict_format_rates(rates, &tv->v) || verdict_format_brief(verdict, &tv->v))
		return -ENOMEM;
	return 0;
}
