/*
 * fiojob: a fio job file that imitates a load seen in /proc/diskstats, the
 * way operators turn iostat numbers into fio parameters: the read/write mix
 * from r/s and w/s, bs from rareq-sz and wareq-sz, iodepth from aqu-sz,
 * rate_iops per direction, direct=1, a time-based runtime. Pure: the rows
 * come from devwatch (--fio-job in cli_fiojob.c); no I/O here.
 *
 * What the averages cannot tell is written into the job as comments: a mean
 * request size hides a mix of sizes, merges mean the requests arrived
 * smaller (and probably sequential), a flush after each write shows up in
 * f/s and — on a write-back cache, as this kernel counts it — as one more
 * empty write, and requests larger than max_sectors_kb were split.
 *
 * A job with writes never names the observed device: its filename is the
 * placeholder FIOJOB_PLACEHOLDER, which fio refuses until the user points
 * it at a scratch device or file. A read-only job reads the observed device.
 */
#ifndef IOPROBE_FIOJOB_H
#define IOPROBE_FIOJOB_H

#include <stdbool.h>
#include <stdint.h>

#include "iostat.h"
#include "sbuf.h"

#define FIOJOB_PLACEHOLDER "/dev/SET-ME-TO-A-SCRATCH-DEVICE"

/* Below this many requests per second in both directions a device counts as idle. */
#define FIOJOB_IDLE_IOPS 0.5

struct fiojob_dev {
	const char *name;          /* kernel name ("sdb") */
	struct iostat_row row;     /* the observed window */
	unsigned max_sectors_kb;   /* queue/max_sectors_kb, 0 = unknown */
};

/* The derived job parameters (also used by the tests). */
struct fiojob_params {
	double reads, writes;      /* data requests per second (flush-only writes removed) */
	uint64_t rbs, wbs;         /* bytes per request, rounded to 512 */
	unsigned rwmixread;        /* percent of reads */
	unsigned iodepth;          /* %util >= 90: aqu-sz rounded up (within 0.25 of the integer
				    * below: it), at least 1; else twice aqu-sz (1 below 0.5) */
	unsigned fdatasync;        /* fio fdatasync=N (a flush every N writes), 0 = none */
	unsigned rate_r, rate_w;   /* rate_iops per direction */
	bool unpaced;              /* %util >= 90 with aqu-sz >= 0.75: the rates are the device's
				    * limit, not the load's pace; rate_iops is written as a comment */
};

/*
 * Derive the parameters for one device. Returns 0, or -ENODATA when the
 * device did neither reads nor writes at FIOJOB_IDLE_IOPS or more.
 */
int fiojob_derive(const struct fiojob_dev *d, struct fiojob_params *p);

/*
 * Append the [global] section: a comment header naming the window
 * (seconds) and the version string, then ioengine=libaio, direct=1,
 * time_based, runtime.
 */
void fiojob_global(struct sbuf *sb, double seconds, const char *version);

/*
 * Append one job section for d (its parameters and the comments on what
 * they hide). Returns 0, or -ENODATA (nothing appended) when d was idle.
 */
int fiojob_section(struct sbuf *sb, const struct fiojob_dev *d);

#endif
