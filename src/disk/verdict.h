/*
 * verdict: does the device keep up with the rate the probe asked for? The
 * saturation method (drive a disk at a known rate, watch whether iostat's
 * rates follow) turned into one state with its reason and numbers, for
 * --iostat and the view alike. Pure: no I/O, no clocks.
 *
 * What the kernel counts, measured on Linux 6.18 (loop device, 40 writes of
 * 256 KiB with -D -WWW at 20/s, /proc/diskstats before and after):
 *   queue/write_cache "write back", fdatasync after each write:
 *     writes +80, sectors written +20480 (= 40 x 512), flushes +40:
 *     each fdatasync's PREFLUSH is counted as one more write that carries
 *     no data AND as one flush (f/s); its time goes into both the write
 *     ticks (field 8) and the flush ticks (field 17);
 *   -C (no fdatasync): writes +40, flushes +0;
 *   "write through": writes +40, flushes +0 (the block layer drops the
 *     PREFLUSH of a device without a volatile cache).
 * Requests above the device's request limit are split: each probe request
 * is ceil(size / limit) device requests ("pieces"), in flight together, so
 * an aqu-sz up to pieces x depth is the probe's own. The limit is the
 * smaller of queue/max_sectors_kb and queue/max_segments pages: a user
 * buffer's pages are one segment each, so a loop device's 128 segments bind
 * at 512 KiB before its 1280 KiB of sectors (a 4 MiB O_DIRECT read is 8
 * requests of 512 KiB, as iostat's rareq-sz shows).
 * /proc/diskstats field 11 is the sum of fields 4, 8, 15 and 17 since
 * Linux 5.7, so Little's law against aqu-sz is an identity and not used.
 *
 * Expected device requests per probe request, top device of the stack:
 *   read:  pieces reads;
 *   write: pieces writes, plus one write and one flush when the write is
 *          followed by fdatasync and the cache is write back (or unknown).
 *
 * States, checked in this order on each interval (the first words of the
 * verdict line, for grep):
 *   "no verdict"     nothing to compare: unpaced run, no device row, no
 *                    request finished and the device idle with nothing asked;
 *   "other I/O"      the device did more requests than the probe's own
 *                    share (achieved x per-request count) plus noise;
 *   "queue building" aqu-sz above the probe's own (pieces x depth) plus a
 *                    margin in this interval and the one before (or rising),
 *                    or await well above the first intervals' baseline;
 *   "falls short"    achieved below 99 % of asked over the window; the
 *                    reason is "wait above the device" (the probe's mean
 *                    time far above the device time per request), else
 *                    "device saturated" (busy >= 90 %; or the probe's whole
 *                    depth in the device, aqu-sz >= 0.9 x pieces x depth,
 *                    whatever %util reads: a serial device; or the device
 *                    rate flat at the highest seen while its time is the
 *                    probe's), else "depth limited" (the probe waited on
 *                    requests all the time, the device did not hold its
 *                    depth but its time is at least a third of each
 *                    request's: depth / mean is the most the probe gets,
 *                    raise -Q), else "probe limited" (the probe did not wait
 *                    on its requests, or its requests' time was mostly its
 *                    own side's, inferred: its schedule or the file system
 *                    held it), else "probe limited: CPU" where the probe's
 *                    CPU wait was measured material (VERDICT_CPU_SHARE) —
 *                    which also comes first whenever the device was not
 *                    busy: the probe's run delay is taken out of its time
 *                    per request before "wait above the device" and the
 *                    stall are weighed, so no device-side reason is given
 *                    for time the probe spent waiting for a CPU;
 *   "keeps up"       achieved >= 99 % of asked over the window (within
 *                    one request: the window's counting edge).
 * A verdict also says which later checks held (queue building and falls
 * short under other I/O, falls short under queue building).
 */
#ifndef IOPROBE_VERDICT_H
#define IOPROBE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iostat.h"
#include "sbuf.h"
#include "stats.h"

/*
 * Thresholds. Each one says where its number comes from.
 */
/* keeps up: achieved >= 99 % of asked (issue 13's definition of keeping up) */
#define VERDICT_KEEP_SHARE 0.99
/*
 * The rate is judged over a window: the last VERDICT_WINDOW intervals at the same asked rate
 * (the current one included). Counting completions in a window cuts the schedule at its two
 * ends, so a probe that keeps every slot counts asked x seconds +/- 1 request: one request per
 * window, not per interval, is counting noise (at 35/s over 3 s that is 1 %, where one request
 * per 1 s interval was 3 % and hid a -3 % shortfall).
 */
#define VERDICT_WINDOW 3
/*
 * ... and that one request of slack applies only while it is 1 % or more of the window's asked
 * requests (under 100: below 33/s with 1 s intervals), where 99 % cannot be told from one
 * request at the window's edge. Above it the window's count itself must reach 99 %: 35/s of
 * 512 KiB at a disk's capacity got 103 of 105 (34.3/s, -2 %) and read "keeps up" with the slack.
 */
#define VERDICT_KEEP_SLACK_REQS 1.0
#define VERDICT_KEEP_SLACK_BELOW 100.0
/*
 * Once short, a window must reach 99.5 % to keep up again (hysteresis): a disk at its capacity
 * counts 103 or 104 of 105 by where the window's edges fall, and flipped between "keeps up" and
 * "falls short" 4 times in 11 intervals.
 */
#define VERDICT_RECOVER_SHARE 0.995
/*
 * A stall: one request waited at least a quarter of the interval and 10 x the interval's p50
 * (an outlier, not a slow device: a serial 300 ms disk has its p50 near its slowest) — the
 * slowest that finished, or the one still in flight at the interval's end. Measured: the 7 ms
 * FUSE disk stopped for 1 s (SIGSTOP) held one request 0.7-1.0 s; the interval read
 * "probe limited" (the request in flight was not in the probe's time), and the next two
 * "device saturated; queue building" and "probe limited" again (the window still held the
 * stall). A window holding a stall falls short for that reason ("stalled"), and the interval
 * holding it judges no queue (its one long request fills aqu-sz and await).
 */
#define VERDICT_STALL_SHARE 0.25
#define VERDICT_STALL_FACTOR 10.0
/* device saturated: busy (%util) >= 90 % (issue 13; the probe alone above capacity: 96 %) */
#define VERDICT_BUSY_SATURATED 90.0
/* at its ceiling: device rate within 5 % of the highest rate seen this run (one request in 20) */
#define VERDICT_CEILING_SHARE 0.95
/* ... and its time per probe request at least half the probe's latency (it is the device's time) */
#define VERDICT_CEILING_DEV_SHARE 0.5
/*
 * ... and the device occupied: aqu-sz (in-flight time summed per request,
 * which unlike %util's io_ticks does not miss short requests) at least 0.9.
 * A steady rate is always "at its ceiling"; a device idle most of the
 * interval is not saturated. Measured: ioprobe held to a tenth of a CPU
 * (cgroup cpu quota) drove a loop device at 4279/s with aqu-sz 0.12, busy
 * 18 %; the serial 7 ms disk above capacity shows aqu-sz 0.97-0.99.
 */
#define VERDICT_CEILING_AQU 0.9
/*
 * wait above the device: the probe's MEAN time per request (its time, not
 * one percentile: a bursty throttle passes half the requests at once and
 * holds the rest for up to 72 ms, so p50 0.34 ms hid a mean of 10.8 ms) >
 * 2 x the device time per probe request (more of it above the device than
 * in it) and at least 1 ms more. Measured: a blkio throttle gave 10.9 ms
 * against 0.09 ms (x120); a bursty one 10.2 ms against 4.0 ms while other
 * work slowed the disk under the loop device (x2.5); the serial 7 ms disk
 * gives 7.4 ms against about 7.4 ms (x1); a page cache or file system hop on
 * a local disk, and a CPU quota descheduling the probe (0.27 ms), add well
 * under 1 ms.
 */
#define VERDICT_WAIT_ABOVE_FACTOR 2.0
#define VERDICT_WAIT_ABOVE_MIN_MS 1.0
/* depth limited: the device's time is at least a third of each request's (1 / this) */
#define VERDICT_DEPTH_DEV_FACTOR 3.0
/*
 * The probe waited on its requests the whole interval: the sum of its
 * request times is at least 90 % of depth x the interval (a probe at its
 * schedule, or held by its own CPU, waits far less; one in front of a
 * saturated serial disk waits 97-100 %; depth 1 back to back on a fast loop
 * device measured 92-95 %). Then it is not "probe limited": its depth is.
 */
#define VERDICT_PROBE_WAITED 0.9
/*
 * other I/O: the device rate above the probe's own share by more than 10 %
 * and 3 requests/s (an ext4 target adds two small journal writes now and
 * then), plus one probe request's worth of device requests at each end of
 * the interval (its requests complete around the boundary).
 */
/* The device did far less than the probe's own requests explain: below this share of them. */
#define VERDICT_LESS_SHARE 0.5
#define VERDICT_OTHER_SHARE 0.10
#define VERDICT_OTHER_MIN_S 3.0
/*
 * queue building: aqu-sz above pieces x depth by 0.5 (the probe alone above
 * capacity measured 0.97 with one piece; four pieces of one split request
 * 1.3; four background writers 5.4).
 */
#define VERDICT_QUEUE_MARGIN 0.5
/*
 * ... or await above 2 x its baseline and 1 ms more; the baseline is the
 * mean await of the first 3 intervals with device requests and neither
 * other I/O nor a queue (four writers
 * took w_await from 3.7 ms to 33 ms; steady runs move it by a few %).
 */
#define VERDICT_AWAIT_FACTOR 2.0
#define VERDICT_AWAIT_MIN_MS 1.0
#define VERDICT_BASELINE_PERIODS 3
/*
 * probe limited: CPU — measured, not inferred: the probing thread's run delay
 * (/proc/PID/schedstat: runnable, not running) over the window is at least
 * 5 % of it (50 ms of each second). Measured here: an idle probe at 100/s
 * waits 0-2 ms of each second; six probes in a cgroup held to 1.5 % of a core
 * wait hundreds of ms of each second. Then the probe's own time per request
 * loses its CPU wait before any device-side reason is weighed (wait above the
 * device, a stall), and a shortfall the device does not explain (busy < 90 %)
 * is the CPU's.
 */
#define VERDICT_CPU_SHARE 0.05
/*
 * The host short of CPU: PSI's "some" for cpu at least 10 % of the interval.
 * A device served by kernel or user threads (a loop device's worker, a FUSE
 * server) then waits for a CPU too: its await rising alone is no queue.
 */
#define VERDICT_HOST_SOME_SHARE 0.10
/*
 * With --layers (each request's time split in the kernel, measured): a
 * shortfall whose requests spent at least half their time in one layer above
 * the device is that layer's — "throttled above the device" (the cgroup's
 * throttle), "queued" (the block layer's queue) or "wait above the device"
 * (the submit path: file system, page cache, FUSE) — said with the measured
 * times; measured pieces replace the ones computed from sysfs. A shortfall
 * that would be "depth limited" (the probe waited throughout, the device not
 * full) with at least VERDICT_DEVICE_SLOW_SHARE of the probe's mean time per
 * request measured in the device is "device slow": the device's own time per
 * request is the limit at this depth. Every
 * measured request served without a block request, where the device saw less
 * than the probe's requests explain, is "page cache" (measured), not the
 * inferred "the device saw less".
 */
#define VERDICT_LAYER_SHARE 0.5
/*
 * Requests that failed (an errno) are the reason a window falls short when they are at least
 * half of the requests it lacks: a disk answering EIO to 8 of 100 requests a second fell
 * 8 % short for them alone; beside a stall that held one request 0.8 s (78 slots skipped),
 * 11 failed of 89 missing are not why (the stall is).
 */
#define VERDICT_FAILED_SHARE 0.5
#define VERDICT_DEVICE_SLOW_SHARE 0.85

enum verdict_state {
	VERDICT_NONE,
	VERDICT_KEEPS_UP,
	VERDICT_FALLS_SHORT,
	VERDICT_OTHER_IO,
	VERDICT_QUEUE_BUILDING,
};
#define VERDICT_STATES (VERDICT_QUEUE_BUILDING + 1)

enum verdict_reason {
	VERDICT_NO_REASON,
	VERDICT_DEVICE_SATURATED,
	VERDICT_WAIT_ABOVE,
	VERDICT_PROBE_LIMITED,
	VERDICT_UNPACED,     /* for VERDICT_NONE */
	VERDICT_NO_DEVICE,   /* for VERDICT_NONE: no row for the top device */
	VERDICT_DEVICE_LESS, /* for VERDICT_NONE: the device saw far fewer requests than the probe
			      * made (the page cache, a stacked device that absorbed them) */
	VERDICT_DEPTH_LIMITED, /* the probe waited throughout while the device did not hold its
				* depth: depth / mean time per request is the most it gets
				* (raise -Q) */
	VERDICT_STALLED,       /* one request held far longer than the others within the window
				* (VERDICT_STALL_*): a hiccup or a hang, not a rate the device
				* keeps */
	VERDICT_PROBE_CPU,     /* the probe waited for a CPU (VERDICT_CPU_SHARE, measured) and
				* the device does not explain the shortfall */
	VERDICT_THROTTLED,     /* --layers measured most of each request in the cgroup's
				* throttle, before the block layer queued it */
	VERDICT_QUEUED,        /* --layers measured most of it queued in the block layer, before
				* the device was given it */
	VERDICT_DEVICE_SLOW,   /* depth limited, with VERDICT_DEVICE_SLOW_SHARE of each request
				* measured in the device (--layers): its time per request is the
				* limit */
	VERDICT_PAGE_CACHE,    /* for VERDICT_NONE: --layers measured every request served
				* without a block request (what VERDICT_DEVICE_LESS infers) */
	VERDICT_FAILED,        /* requests failed in the window (an errno: the device or
				* the file system answered with an error): not the rate the
				* device keeps; neither the probe's pace nor its CPU is to
				* blame */
};

enum verdict_cache {
	VERDICT_CACHE_UNKNOWN = -1,
	VERDICT_CACHE_THROUGH = 0,
	VERDICT_CACHE_BACK = 1,
};

/* What the probe asked for and did in one interval. */
struct verdict_probe {
	double asked;          /* requests/s from -i/-l/-r/-b; 0 = unpaced */
	uint64_t size;         /* bytes per request */
	double write_share;    /* share of writes: 0 reads, 1 -W, 0.5 -G */
	bool flush;            /* each write is followed by fdatasync (no -C) */
	unsigned depth;        /* requests in flight at once; 0 counts as 1 */
	uint64_t period_ns;    /* the interval the numbers cover */
	uint64_t done;         /* requests finished in the interval */
	uint64_t finished;     /* ... as the probe itself counted them up to the device's read,
	                        * heard of yet or not (finished_known); the device's share */
	bool finished_known;
	uint64_t skipped;      /* schedule slots missed in the interval */
	uint64_t failed;       /* requests that failed in the interval (not in done) */
	uint64_t p50_ns;       /* latency percentiles of those requests; 0 if none */
	uint64_t p99_ns;
	uint64_t sum_ns;       /* the sum of their latencies (the probe's time waiting on them) */
	uint64_t max_ns;       /* the slowest of them; 0 if none */
	uint64_t inflight_ns;  /* the age of the request still in flight at the interval's end, 0 */
	uint64_t late_max_ns;  /* the latest start against its due time (wake-up lateness), 0 */
	/* the probing thread's CPU wait in the interval, measured (cpuwait.h): */
	bool cpu_known;        /* its run delay was read */
	uint64_t cpu_wait_ns;  /* ... runnable but not running */
	bool throttle_known;   /* its CPU cgroup has a quota account */
	uint64_t throttled_ns; /* ... the time the group was throttled */
	double host_some;      /* the host's PSI cpu "some" share of the interval; < 0 unknown */
	/* --layers over the interval (measured in the kernel for the probe's own requests): */
	bool layers_known;     /* some of its requests were measured */
	uint64_t layers_requests; /* measured valid requests */
	uint64_t layers_no_device; /* ... of them served without a block request */
	double layer_ns[4];    /* mean submit, throttle, queue, device (of those with one) */
	double layer_pieces;   /* mean block requests per request with one */
	bool layers_tried;     /* the run asked for them but could not have them (inferred) */
};

/*
 * The interval's --layers tally into p (plain numbers: this module reads
 * nothing): requests measured, of them without a device request, the mean
 * submit, throttle, queue and device ns and pieces of the others. tried: the
 * run asked for the layers and could not have them (the verdict says
 * "inferred"); with requests 0 nothing was measured.
 */
void verdict_probe_layers(struct verdict_probe *p, bool tried, uint64_t requests,
			  uint64_t no_device, const double layer_ns[4], double pieces);

/*
 * The interval's measured CPU wait into p (from cpuwait_read's delta, as plain
 * numbers: this module reads nothing): known says whether the run delay was
 * read, host_some_ns < 0 for an unknown host pressure.
 */
void verdict_probe_cpu(struct verdict_probe *p, bool known, uint64_t wait_ns, bool throttle_known,
		       uint64_t throttled_ns, int64_t host_some_ns);

/*
 * The fields of p a run sets once (the per-interval ones zero): asked
 * requests/s (0 = unpaced), size, the write share (-W 1, -G 0.5, else 0),
 * the one flush rule — each write is followed by fdatasync unless cached
 * (-C) — and depth (-Q). Every front end builds its verdict input here.
 */
void verdict_probe_settings(struct verdict_probe *p, double asked, uint64_t size, bool write,
			    bool read_write, bool cached, unsigned depth);

/*
 * Fill p's per-interval fields: the interval is period_ns long, lat holds the
 * latencies of its successful requests, skipped its missed slots, inflight_ns
 * the age at the interval's end of the oldest request still in flight (0: none).
 * Its failed requests are 0 until the caller sets p->failed.
 */
void verdict_probe_interval(struct verdict_probe *p, uint64_t period_ns, const struct stats *lat,
			    uint64_t skipped, uint64_t inflight_ns);

/*
 * The requests the probe finished over p's interval by its own count, taken at the device's
 * reads (probe_ctl.finished), after verdict_probe_interval(): the probe's share of the device
 * comes from it, not from the requests heard of in time (a starved consumer hears late).
 */
void verdict_probe_finished(struct verdict_probe *p, uint64_t finished);

/* One device of the stack: its row for the same interval and its queue. */
struct verdict_dev {
	const char *name;
	const struct iostat_row *row;  /* NULL: no row this interval */
	unsigned max_sectors_kb;       /* queue/max_sectors_kb; 0 = unknown (no split) */
	int write_cache;               /* enum verdict_cache, from queue/write_cache */
	unsigned max_segments;         /* queue/max_segments; 0 = unknown */
};

/* Device requests per second the probe explains, per class. */
struct verdict_expect {
	unsigned pieces;       /* device requests per probe request */
	double pieces_f;       /* ... unrounded (measured ones are a mean) */
	bool measured;         /* pieces measured by --layers, not computed from sysfs */
	double r_s, w_s, f_s;  /* at the rate given */
	double total;          /* r_s + w_s: what iostat's r/s + w/s should show */
	double per_request;    /* device reads + writes per probe request (mix-weighted) */
	double own_aqu;        /* pieces x depth */
};

/* Across intervals: the baseline and the previous interval. */
struct verdict_hist {
	unsigned base_n;       /* intervals in the await baseline (<= VERDICT_BASELINE_PERIODS) */
	double base_await;     /* their mean await, ms */
	double ceiling;        /* highest device rate seen */
	double prev_aqu;
	bool prev_above;       /* the previous interval's aqu-sz was above the probe's own */
	unsigned periods;      /* intervals judged with a device row */
	/* the rate window: the last intervals at win_asked (a ring, win_n <= VERDICT_WINDOW) */
	double win_asked;
	unsigned win_n, win_at;
	uint64_t win_done[VERDICT_WINDOW], win_ns[VERDICT_WINDOW], win_sum[VERDICT_WINDOW];
	uint64_t win_stall[VERDICT_WINDOW];  /* each interval's stall (its longest request), 0 */
	bool win_stall_inflight[VERDICT_WINDOW]; /* ... which was still in flight at its end */
	uint64_t win_failed[VERDICT_WINDOW]; /* each interval's failed requests */
	uint64_t win_cpu[VERDICT_WINDOW];    /* each interval's CPU wait (run delay) */
	bool win_cpu_known[VERDICT_WINDOW];
	bool was_short;        /* the last judged interval fell short (VERDICT_RECOVER_SHARE) */
};

struct verdict {
	enum verdict_state state;
	enum verdict_reason reason;
	bool queue_building;   /* the queue check held (whatever the state) */
	bool queue_by_await;   /* ... by the await rule alone (aqu-sz not above the probe's own) */
	bool falls_short;      /* achieved below asked (whatever the state) */
	bool other_io;
	bool device_less;      /* the device saw under VERDICT_LESS_SHARE of the probe's own */
	char dev[32];          /* the top device's name, "" without one */
	/* achieved, short_pct, mean_ns and probe_busy cover the window (window_s seconds, the
	 * last up to VERDICT_WINDOW intervals at this asked rate); the rest this interval */
	double asked, achieved, short_pct;  /* short_pct: (achieved - asked) / asked * 100 */
	double window_s;
	double mean_ns;        /* the probe's mean time per request */
	double probe_busy;     /* its requests' time / (depth x window): 1 = it waited throughout */
	double rate;           /* this interval's completions per second (device comparisons) */
	uint64_t done, skipped, p50_ns, p99_ns;
	uint64_t failed;       /* the window's failed requests (VERDICT_FAILED) */
	bool have_dev;
	double dev_rate;       /* r/s + w/s of the top device */
	double expected;       /* what the asked rate explains */
	double own;            /* what the achieved rate explains */
	unsigned pieces;
	double pieces_mean;    /* pieces unrounded (a measured mean) */
	bool pieces_measured;  /* counted by --layers, not computed from sysfs */
	double pieces_measured_mean; /* --layers' mean this interval (also without a device row) */
	uint64_t piece_bytes;  /* the largest request the device takes whole, 0 unknown */
	bool piece_segments;   /* ... set by max_segments (else by max_sectors_kb) */
	bool flush_counted;    /* a flush per write is in expected (and f/s) */
	double f_s, f_await;
	double busy, aqu, own_aqu, await, base_await;
	double dev_ms;         /* device time per probe request, ms (aqu-sz / this interval's rate) */
	double max_rate;       /* depth / mean: the highest rate this depth reaches; 0 unknown */
	uint64_t stall_ns;     /* the longest stall in the window, 0 none */
	bool stall_now;        /* ... and it is a request still in flight at this interval's end */
	double ceiling;
	/* the probe's measured CPU wait over the window (cpu_known: read in every interval) */
	bool cpu_known;
	double cpu_ms_s;       /* run delay, ms per second */
	double cpu_req_ns;     /* ... per finished request */
	bool cpu_material;     /* cpu_ms_s >= VERDICT_CPU_SHARE x 1000 */
	bool throttle_known;
	double throttled_ms_s; /* its CPU cgroup throttled, ms per second (this interval) */
	double host_some;      /* the host's PSI cpu some, % of this interval; < 0 unknown */
	bool host_short;       /* host_some >= VERDICT_HOST_SOME_SHARE */
	uint64_t late_max_ns;  /* this interval's latest start */
	/* --layers this interval (measured): means per request with a device request, ns */
	bool layers_known;
	double submit_ns, throttle_ns, queue_ns, device_ns;
	uint64_t layers_requests, layers_no_device;
	bool inferred;         /* the layers were asked for (--iostat) and could not be had */
};

/* One segment of a user buffer: a page. */
#define VERDICT_SEGMENT_BYTES 4096u

/*
 * The largest request device d takes whole, in bytes: the smaller of its
 * max_sectors_kb and max_segments pages (either may be unknown: 0); 0 when
 * both are unknown (no split).
 */
uint64_t verdict_piece_bytes(const struct verdict_dev *d);

/*
 * The device requests probe p explains on device d at rate requests/s.
 * Returns 0, or -EINVAL when an argument is NULL or p->size is 0.
 */
int verdict_expect(const struct verdict_probe *p, const struct verdict_dev *d, double rate,
		   struct verdict_expect *out);

/* Start a run: no baseline, no previous interval. */
void verdict_hist_init(struct verdict_hist *h);

/*
 * Judge one interval: p is the probe's, dev[0..ndev) the stack top first
 * (only dev[0] is judged: what the probe's requests hit). Updates h.
 * Returns 0, or -EINVAL when p, h or out is NULL (out zeroed when given).
 */
int verdict_judge(struct verdict_hist *h, const struct verdict_probe *p,
		  const struct verdict_dev *dev, size_t ndev, struct verdict *out);

/* "keeps up", "falls short", "other I/O", "queue building", "no verdict". */
const char *verdict_state_text(enum verdict_state s);

/* "device saturated", "wait above the device", "probe limited", "unpaced", ...; "" for none. */
const char *verdict_reason_text(enum verdict_reason r);

/*
 * The state as a metric label value: "none", "keeps_up", "falls_short", "other_io",
 * "queue_building" (the fleet outputs' words: the text's, in snake case).
 */
const char *verdict_state_key(enum verdict_state s);

/*
 * The reason as a metric label value: "device_saturated", "wait_above_device",
 * "probe_limited", "probe_limited_cpu", "throttled", "queued", "device_slow", "depth_limited",
 * "stalled", "page_cache", "unpaced", "no_device_row", "device_less"; "" for none.
 */
const char *verdict_reason_key(enum verdict_reason r);

/*
 * The reason v gives with its state, as its words do: a falls short's, or what a
 * "no verdict" lacks; VERDICT_NO_REASON for the other states (their reason field may
 * hold what a later check found).
 */
enum verdict_reason verdict_reason_of(const struct verdict *v);

/*
 * The verdict's first words, as operators grep them: the state, and for
 * "falls short" its reason ("falls short: device saturated", "keeps up").
 * Writes at most len bytes (NUL included) to buf, which it returns.
 */
char *verdict_words(const struct verdict *v, char *buf, size_t len);

/*
 * Append the probe line, no newline:
 * "probe: asked 200/s  got 131/s (-35 %)  skipped 69  p50 7.41 ms  p99 7.98 ms"
 * ("asked -" when unpaced). Returns 0 or -ENOMEM.
 */
int verdict_format_probe(struct sbuf *sb, const struct verdict *v);

/*
 * Append the verdict line, no newline. It starts with the state's words,
 * then ": " and the reason for falls short, then the numbers, e.g.
 * "falls short: device saturated: busy 96 %, dev 262/s (expected 400) ...".
 * Returns 0 or -ENOMEM.
 */
int verdict_format(struct sbuf *sb, const struct verdict *v);

/*
 * The same as verdict_format() without what the rates line beside it says
 * (verdict_format_rates(): got, asked and the device's rate against the
 * expected one) in the falls-short clause, so that a compound verdict stays
 * whole in the view's panel at 80 columns. Returns 0 or -ENOMEM.
 */
int verdict_format_brief(struct sbuf *sb, const struct verdict *v);

/*
 * Append the rates line the view shows:
 * "asked 200/s  got 131/s (-35 %)  dev 262/s (expected 400)". Returns 0 or -ENOMEM.
 */
int verdict_format_rates(struct sbuf *sb, const struct verdict *v);

/* A rate for humans: "%.0f" from 100 up and for whole rates, else "%.1f" ("17.5", "70",
 * "34.7", "0.5"). */
void verdict_rate_text(char *buf, size_t len, double rate);

#endif
