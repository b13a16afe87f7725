/*
 * recfmt: the lines of a recording (--record FILE), one JSON object per
 * line, composed into an sbuf: the header, a target's period (its tally
 * with the histogram's non-empty buckets, percentiles, failures by errno),
 * a request (--record-requests), an --iostat block's device rows and each
 * target's verdict input and result, warnings and failures, each target's
 * summary and the end. The man page's RECORD FORMAT section is the
 * interface; REC_VERSION changes when a reader of the old version would
 * misread a new file. recread.h reads the lines back. Pure: no I/O, no
 * clocks (every time is passed in).
 */
#ifndef IOPROBE_RECFMT_H
#define IOPROBE_RECFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "iostat.h"
#include "layerstat.h"
#include "sample.h"
#include "sbuf.h"
#include "sweep.h"
#include "verdict.h"

#define REC_FORMAT "ioprobe-record"
#define REC_VERSION 1
#define REC_NAME_LEN 64  /* a device's kernel name */
#define REC_DEVS 64      /* devices of a target's stack, rows of a block (DEVWATCH_MAX) */
#define REC_ERRNOS 8     /* distinct errno values counted per period; more go to "other" */

/* One device of a target's stack, with what the verdict reads of its queue. */
struct rec_dev {
	char name[REC_NAME_LEN];
	unsigned max_sectors_kb;  /* 0 = unknown */
	unsigned max_segments;    /* 0 = unknown */
	int write_cache;          /* 1 write back, 0 write through, -1 unknown */
};

struct rec_target {
	const char *path, *fstype, *device; /* as the report describes it */
	const char *name;                   /* NAME=PATH or --name ("" none; absent in older files) */
	uint64_t device_size;               /* bytes */
	const char *mdevice, *mdisk;        /* the fleet outputs' device and disk labels */
	size_t ndev;
	struct rec_dev dev[REC_DEVS];       /* top first: the devices the verdict judges */
};

/* What a reader needs to know of the run: the first line. */
struct rec_header {
	unsigned version;
	const char *ioprobe, *host, *kernel, *engine;
	uint64_t real;               /* CLOCK_REALTIME ns at the start */
	size_t argc;
	const char *const *argv;     /* the command line */
	uint64_t size;               /* request size, bytes */
	uint64_t interval;           /* ns between starts (0 unpaced) */
	double asked;                /* requests/s asked (0 unpaced) */
	unsigned depth;              /* requests in flight at most */
	bool write, read_write;      /* -W (writes only), -G (mixed) */
	bool cached;                 /* -C: no fdatasync after writes */
	bool direct, sync, dsync;    /* -D, -Y, -y (absent in older files: false) */
	uint64_t burst;              /* -b, 0 off (absent: 0) */
	double rate_limit;           /* -r: the rate the interval came from, 0 none (absent: 0) */
	uint64_t speed_limit;        /* -l: bytes/s the interval came from, 0 none (absent: 0) */
	bool response;               /* the summary shows response times (-Q, --response) */
	bool iostat;                 /* --iostat blocks follow */
	bool requests;               /* --record-requests: a line per request */
	uint64_t period;             /* ns per period when the recorder closes them, else 0 */
	uint64_t print_count;        /* -p: the probe's periods of N requests (0 = none) */
	uint64_t print_interval;     /* -P: the probe's periods of T ns (0 = none) */
	size_t ntargets;
	struct rec_target *target;
};

/* Failed requests by errno (positive values). */
struct rec_errors {
	int err_no[REC_ERRNOS];
	uint64_t count[REC_ERRNOS];
	uint64_t other;
};

/* Count one failure of -errno neg into e; n of them. */
void rec_errors_add(struct rec_errors *e, int64_t neg);
void rec_errors_add_n(struct rec_errors *e, int64_t neg, uint64_t n);

/* Merge src into dst. */
void rec_errors_merge(struct rec_errors *dst, const struct rec_errors *src);

/* The header line. */
void recfmt_header(struct sbuf *sb, const struct rec_header *h);

/*
 * A period of target i: seq (0, 1, ...), mono (ns since the run's start),
 * real (CLOCK_REALTIME ns at its end), its tally and its failures (e may be NULL).
 */
void recfmt_period(struct sbuf *sb, size_t i, uint64_t seq, uint64_t mono, uint64_t real,
		   const struct tally *t, const struct rec_errors *e);

/* One request of target i with its notice, finished at real. */
void recfmt_request(struct sbuf *sb, size_t i, uint64_t real, const struct sample *s,
		    enum notice n);

/* --record-requests: n skipped slots of target i (response times hi, hi - step, ...). */
void recfmt_skipped(struct sbuf *sb, size_t i, uint64_t hi, uint64_t step, uint64_t n);

/* An --iostat block's device rows (the table: the union of the stacks). */
void recfmt_iostat(struct sbuf *sb, uint64_t seq, uint64_t real, const struct iostat_dev_row *rows,
		   size_t n);

/*
 * Target i's side of block seq: its own stack's rows (own: n > 1 targets, else
 * NULL/0: the block's), the verdict's input p and its result v.
 */
void recfmt_verdict(struct sbuf *sb, uint64_t seq, size_t i, const struct iostat_dev_row *own,
		    size_t nown, const struct verdict_probe *p, const struct verdict *v);

/*
 * A "warning" or "failure" (type) of target i (-1: the run's), at real, with
 * errno err (positive, 0 none) and its text.
 */
void recfmt_text(struct sbuf *sb, const char *type, long i, uint64_t real, int err,
		 const char *text);

/*
 * Target i's summary at the end: the probe's result ret (0 or -errno) and its
 * message, its whole tally, its failures by errno (e, NULL: none counted) and,
 * with -G, its reads and writes (NULL otherwise), with --layers its layers'
 * tally (NULL otherwise).
 */
void recfmt_summary(struct sbuf *sb, size_t i, uint64_t real, int ret, const char *msg,
		    const struct tally *total, const struct rec_errors *e, const struct stats *read,
		    const struct stats *write, const struct layer_tally *lt);

/*
 * --sweep: step k (0, 1, ... over the whole sweep or grid) of target i ended
 * at real: its row r (r->verdict: the verdict line), and line, the table row
 * as it was printed (no newline); grid: a cell of a size x depth grid.
 */
void recfmt_step(struct sbuf *sb, size_t i, uint64_t k, uint64_t real, bool grid,
		 const struct sweep_row *r, const char *line);

/*
 * --sweep's conclusions for target i at real: text, the lines printed after
 * the table (newlines between them, none at the end); the step numbers of
 * the knee (a sweep) or of the best point and the limit (a grid), -1 for
 * none.
 */
void recfmt_knee(struct sbuf *sb, size_t i, uint64_t real, bool grid, const char *text,
		 long knee, long best, long limit);

/* The last line: the run's exit code. */
void recfmt_end(struct sbuf *sb, uint64_t real, int code);

/* The row keys, in the order written: sysstat's JSON names and ioprobe's. */
struct rec_row_key {
	const char *key;
	size_t offset;   /* of a double in struct iostat_row */
};
extern const struct rec_row_key rec_row_keys[];
extern const size_t rec_row_nkeys;

#endif
