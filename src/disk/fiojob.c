#include "config.h"

#include "fiojob.h"

#include <errno.h>
#include <math.h>

/* Merges above this share of requests suggest a sequential load. */
#define FIOJOB_MERGE_PCT 25.0
/* An average request within this factor of max_sectors_kb was probably split. */
#define FIOJOB_SPLIT_NEAR 0.9

static uint64_t fiojob_bs(double kb)
{
	uint64_t b = (uint64_t)llround(kb * 1024.0 / 512.0) * 512;

	return b ? b : 512;
}

/*
 * iodepth from aqu-sz and %util. A device busy all the window (%util >=
 * FIOJOB_BUSY) held the load's queue all the time, and there fio fills the
 * queue to iodepth: iodepth is the mean queue rounded up — unless it lies
 * within FIOJOB_QUEUE_SLACK of the whole number below (a saturated serial
 * device reads 0.97-1.01, a saturated depth 4 3.9-4.05) — at least one.
 * Measured (issue 24): twice aqu-sz there doubled aqu-sz and await of a
 * saturated depth-4 load (8 against 4). A device with idle time was paced by
 * the load (rate_iops): the queue is rate x time-in-device whatever iodepth
 * allows, and iodepth must leave room for the requests that overlap at
 * times: twice the mean, rounded up (1 below half a request) — measured, a
 * paced load at aqu-sz 0.67 copied at iodepth 1 read 0.51, at 2 0.68.
 */
#define FIOJOB_BUSY 90.0
#define FIOJOB_QUEUE_SLACK 0.25
#define FIOJOB_QUEUE_ONE 0.5

static unsigned fiojob_iodepth(double aqu_sz, double util)
{
	double d;

	if (util < FIOJOB_BUSY)
		return aqu_sz < FIOJOB_QUEUE_ONE ? 1 : (unsigned)ceil(2.0 * aqu_sz);
	d = ceil(aqu_sz - FIOJOB_QUEUE_SLACK);
	return d < 1 ? 1 : (unsigned)d;
}

int fiojob_derive(const struct fiojob_dev *d, struct fiojob_params *p)
{
	const struct iostat_row *r = &d->row;
	double wkb = r->wkb_s, writes = r->w_s;

	*p = (struct fiojob_params){ 0 };
	/*
	 * A flush on a write-back cache is counted as one more write of no data
	 * as well as in f/s: take those empty writes out of the data writes.
	 */
	if (r->f_s > 0 && writes >= r->f_s && wkb > 0)
		writes -= r->f_s;
	p->reads = r->r_s;
	p->writes = wkb > 0 ? writes : 0;
	if (p->reads < FIOJOB_IDLE_IOPS && p->writes < FIOJOB_IDLE_IOPS)
		return -ENODATA;
	if (p->reads < FIOJOB_IDLE_IOPS)
		p->reads = 0;
	if (p->writes < FIOJOB_IDLE_IOPS)
		p->writes = 0;
	p->rbs = p->reads > 0 ? fiojob_bs(r->rkb_s / p->reads) : 0;
	p->wbs = p->writes > 0 ? fiojob_bs(wkb / p->writes) : 0;
	p->rwmixread = (unsigned)lround(100.0 * p->reads / (p->reads + p->writes));
	p->iodepth = fiojob_iodepth(r->aqu_sz, r->util);
	p->unpaced = r->util >= FIOJOB_BUSY && r->aqu_sz >= 1.0 - FIOJOB_QUEUE_SLACK;
	if (p->writes > 0 && r->f_s > 0)
		p->fdatasync = (unsigned)fmax(1.0, round(p->writes / r->f_s));
	p->rate_r = (unsigned)lround(p->reads);
	p->rate_w = (unsigned)lround(p->writes);
	if (p->reads > 0 && !p->rate_r)
		p->rate_r = 1;
	if (p->writes > 0 && !p->rate_w)
		p->rate_w = 1;
	return 0;
}

void fiojob_global(struct sbuf *sb, double seconds, const char *version)
{
	long runtime = lround(seconds) > 0 ? lround(seconds) : 1;

	sbuf_printf(sb, "; fio job imitating the load /proc/diskstats showed for %.1f s, "
		    "written by %s --fio-job\n", seconds, version);
	sbuf_puts(sb, "; Averages over the window stand for the whole load: read the notes of "
		  "each job\n; before trusting it, and compare iostat -dx while it runs.\n");
	sbuf_puts(sb, "[global]\nioengine=libaio\ndirect=1\ntime_based=1\n");
	sbuf_printf(sb, "runtime=%ld\n", runtime);
	sbuf_puts(sb, "; with a synchronous engine instead: ioengine=psync, and numjobs=<iodepth> "
		  "with\n; rate_iops divided by numjobs (each job is paced on its own)\n");
}

/* The observed row, as comments. */
static void fiojob_observed(struct sbuf *sb, const struct fiojob_dev *d)
{
	const struct iostat_row *r = &d->row;

	sbuf_printf(sb, "; observed on %s: r/s %.2f  w/s %.2f  rkB/s %.2f  wkB/s %.2f  "
		    "rareq-sz %.2f kB  wareq-sz %.2f kB\n", d->name, r->r_s, r->w_s, r->rkb_s,
		    r->wkb_s, r->rareq_sz, r->wareq_sz);
	sbuf_printf(sb, ";   f/s %.2f  %%rrqm %.2f  %%wrqm %.2f  aqu-sz %.2f  r_await %.2f ms  "
		    "w_await %.2f ms  %%util %.2f\n", r->f_s, r->rrqm_pct, r->wrqm_pct, r->aqu_sz,
		    r->r_await, r->w_await, r->util);
}

/* What the averages hide, for this device's numbers. */
static void fiojob_caveats(struct sbuf *sb, const struct fiojob_dev *d,
			   const struct fiojob_params *p)
{
	const struct iostat_row *r = &d->row;

	sbuf_puts(sb, "; - bs is the mean request size: a mix of sizes (say 4k and 1m) has the same "
		  "mean;\n;   use bssplit= if you know the mix\n");
	sbuf_puts(sb, "; - diskstats cannot tell random from sequential: rw=rand* is a guess\n");
	if (r->rrqm_pct > FIOJOB_MERGE_PCT || r->wrqm_pct > FIOJOB_MERGE_PCT)
		sbuf_printf(sb, "; - %.0f %% of reads and %.0f %% of writes were merged: the "
			    "requests arrived smaller\n;   and probably sequential (try rw=rw, a "
			    "smaller bs and a larger iodepth)\n", r->rrqm_pct, r->wrqm_pct);
	if (r->f_s > 0 && p->writes > 0)
		sbuf_printf(sb, "; - %.2f flushes/s: fdatasync=%u (each flush was also counted as "
			    "an empty write,\n;   so w/s above is %.2f data writes)\n", r->f_s,
			    p->fdatasync, p->writes);
	else if (r->f_s > 0)
		sbuf_printf(sb, "; - %.2f flushes/s without data writes are not imitated\n",
			    r->f_s);
	if (d->max_sectors_kb &&
	    ((p->rbs && p->rbs >= FIOJOB_SPLIT_NEAR * d->max_sectors_kb * 1024.0) ||
	     (p->wbs && p->wbs >= FIOJOB_SPLIT_NEAR * d->max_sectors_kb * 1024.0)))
		sbuf_printf(sb, "; - the mean size is near max_sectors_kb (%u): larger requests "
			    "were split into\n;   pieces of that size before they were counted\n",
			    d->max_sectors_kb);
	sbuf_puts(sb, "; - iodepth: on a device busy all the time (%util >= 90), aqu-sz rounded "
		  "up (there\n;   fio fills the queue to iodepth); else twice aqu-sz (rate_iops sets "
		  "the pace,\n;   iodepth leaves room for overlaps); aqu-sz also counts other "
		  "processes' requests\n");
	if (p->unpaced)
		sbuf_puts(sb, "; - the device was busy all the time with a queue: the rates are what "
			  "it could do,\n;   not what the load asked, so the job is unpaced (a rate_iops "
			  "at a device's\n;   limit lets its queue drain); the rates are a comment\n");
}

/* rate_iops=R[,W], as a comment when the job is unpaced. */
static void fiojob_rate(struct sbuf *sb, const struct fiojob_params *p)
{
	const char *c = p->unpaced ? "; " : "";

	if (p->reads > 0 && p->writes > 0)
		sbuf_printf(sb, "%srate_iops=%u,%u\n", c, p->rate_r, p->rate_w);
	else if (p->reads > 0)
		sbuf_printf(sb, "%srate_iops=%u\n", c, p->rate_r);
	else
		sbuf_printf(sb, "%srate_iops=%u\n", c, p->rate_w);
}

int fiojob_section(struct sbuf *sb, const struct fiojob_dev *d)
{
	struct fiojob_params p;

	if (fiojob_derive(d, &p))
		return -ENODATA;
	sbuf_putc(sb, '\n');
	fiojob_observed(sb, d);
	fiojob_caveats(sb, d, &p);
	sbuf_printf(sb, "[%s]\n", d->name);
	if (p.writes > 0) {
		sbuf_puts(sb, "; this job WRITES: point filename at a scratch device or file, never "
			  "at a disk\n; whose data you want to keep\n");
		sbuf_printf(sb, "filename=%s\n", FIOJOB_PLACEHOLDER);
	} else {
		/* fio takes --readonly on its command line only; a job file line is refused */
		sbuf_puts(sb, "; this job only reads: run it as fio --readonly JOBFILE to have fio "
			  "refuse any\n; write\n");
		sbuf_printf(sb, "filename=/dev/%s\n", d->name);
	}
	if (p.reads > 0 && p.writes > 0)
		sbuf_printf(sb, "rw=randrw\nrwmixread=%u\nbs=%llu,%llu\n", p.rwmixread,
			    (unsigned long long)p.rbs, (unsigned long long)p.wbs);
	else if (p.reads > 0)
		sbuf_printf(sb, "rw=randread\nbs=%llu\n", (unsigned long long)p.rbs);
	else
		sbuf_printf(sb, "rw=randwrite\nbs=%llu\n", (unsigned long long)p.wbs);
	fiojob_rate(sb, &p);
	sbuf_printf(sb, "iodepth=%u\n", p.iodepth);
	if (p.fdatasync)
		sbuf_printf(sb, "fdatasync=%u\n", p.fdatasync);
	return 0;
}
