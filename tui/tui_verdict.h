/*
 * tui_verdict: the saturation verdict of the view's iostat panel — the same
 * src/verdict judgement as --iostat's, on the same inputs: the rate the
 * options ask for (opts_asked_rate, never the rate achieved), the request
 * size, mix, flush and depth, the probe's requests of the interval (count,
 * p50, p99, the probe's own skipped count) and the watched devices' rows
 * with max_sectors_kb and write_cache from src/devwatch. Pure: no curses,
 * no clocks; the UI thread feeds it the samples it drains and calls
 * tui_verdict_judge() after each iostat sample.
 */
#ifndef IOPROBE_TUI_VERDICT_H
#define IOPROBE_TUI_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuwait.h"
#include "devwatch.h"
#include "sample.h"
#include "sbuf.h"
#include "stats.h"
#include "verdict.h"

struct tui_verdict {
	struct verdict_probe p;    /* the run's fields, and the last interval's */
	struct verdict_hist hist;
	struct stats lat;          /* latencies of the open interval's successful requests */
	uint64_t skipped_run;      /* the probe's skipped count, as of the last sample */
	uint64_t skip_mark;        /* ... at the last judgement */
	bool have;                 /* v holds a judgement */
	struct verdict v;
	uint64_t late_max;         /* the open interval's latest start against its due time */
	struct cpuwait_delta cpu;  /* the probe's measured CPU wait for the next judgement */
	bool cpu_set;
	uint64_t cut;              /* tui_verdict_cut(): where the open interval ends; 0 = open */
	struct stats next;         /* requests that finished after cut: the next interval's */
	uint64_t next_late_max;
	uint64_t failed, next_failed; /* the open interval's failed requests (and the next's) */
	uint64_t added;            /* requests added so far (tui_verdict_add()) */
};

/* Start a run asking for run (verdict_probe_settings()). */
void tui_verdict_init(struct tui_verdict *tv, const struct verdict_probe *run);

/* The asked rate changed (the interval keys): requests/s, 0 = unpaced. */
void tui_verdict_set_asked(struct tui_verdict *tv, double asked);

/*
 * Count one finished request into the open interval, or, once the interval's end is
 * set (tui_verdict_cut()) and it finished after that end (s->start + s->time), into the
 * next one.
 */
void tui_verdict_add(struct tui_verdict *tv, const struct sample *s);

/*
 * The open interval ends at end_ns (the run's time, as a sample's start: when the
 * device's counters it is judged against were read). Requests added from now on that
 * finished after it count in the next interval, so that the probe's count and the
 * device's cover the same time whenever the samples reach the view (a view held off
 * its CPU drains late). tui_verdict_judge() opens the next interval.
 */
void tui_verdict_cut(struct tui_verdict *tv, uint64_t end_ns);

/*
 * The probe's CPU wait over the interval about to be judged (cpuwait_read()'s
 * delta, measured by the caller): the next tui_verdict_judge() weighs it.
 */
void tui_verdict_cpu(struct tui_verdict *tv, const struct cpuwait_delta *d);

/*
 * Judge the interval that just ended (period_ns long, as far as the probe
 * ran in it; 0 before its first request) on w's devices, top first, and open the next;
 * inflight_ns is the age of the probe's request still in flight (0: none). Returns true
 * when tv->v is this interval's; nothing is judged (false: the last verdict stays) when no
 * device has a complete row.
 */
bool tui_verdict_judge(struct tui_verdict *tv, const struct devwatch *w, uint64_t period_ns,
		       uint64_t inflight_ns);

/*
 * The panel's two texts: rates "asked 200/s  got 131/s (-35 %)  dev 262/s
 * (expected 400)" and the verdict line as --iostat prints it, less what the rates
 * line says (verdict_format_brief()). Returns 0,
 * -ENODATA before the first judgement, or -ENOMEM.
 */
int tui_verdict_text(const struct tui_verdict *tv, struct sbuf *rates, struct sbuf *verdict);

#endif
