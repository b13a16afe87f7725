/*
 * report: every line ioprobe prints about requests and statistics, composed
 * into an sbuf — ioping 1.3's request lines, human summary, raw lines and
 * JSON records, with ioprobe's additions. Pure: no I/O; the realtime clock
 * value is passed in.
 */
#ifndef IOPROBE_REPORT_H
#define IOPROBE_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "layerstat.h"
#include "sbuf.h"

struct report_target {
	const char *path;     /* as given on the command line */
	const char *fstype;   /* "ext4", "block device", "character device" */
	const char *device;   /* "/dev/vda"; "" for devices */
	uint64_t device_size; /* filesystem or device size, bytes */
	const char *name;     /* its short name (NAME=PATH, --name), or NULL */
};

struct report_cfg {
	struct report_target target;
	const char *time_format; /* strftime format for request lines / JSON, or NULL */
	uint64_t size;           /* configured request size, bytes */
	bool write;              /* every request writes */
	bool read_write;         /* -G: mixed */
	bool json_lines;         /* compact one-object-per-line JSON */
	bool raw_percentiles;    /* raw lines get the percentiles (pcts) appended */
	bool response;           /* -Q or --response: response-time percentiles too (summary, raw) */
	bool raw_target;         /* raw lines end with the target path (esc_field): several targets */
	const struct pcts *pcts; /* --percentiles: the summary's, raw lines', JSON's; NULL: the
				  * default (p50 p90 p99 p99.9; JSON 50 90 99 99.9 99.99) */
};

/*
 * "(ext4 /dev/vda 252.0 GiB)" without the parentheses: "<fstype> [<device> ]<size>",
 * control characters escaped (esc.h).
 */
void report_target_desc(struct sbuf *sb, const struct report_target *t);

/*
 * One request line, with its newline:
 * "[<time> ]<bytes> <<< <path> (<desc>): request=<n> time=<t>[ (<notice>)]".
 * realtime is CLOCK_REALTIME in ns (used only with a time format). The path
 * and the description are shown with control characters escaped (esc.h).
 */
void report_request_line(struct sbuf *sb, const struct report_cfg *c, const struct sample *s,
			 enum notice n, uint64_t realtime);

/*
 * The human summary: blank line, "--- <path> (<desc>) ioprobe statistics ---",
 * the valid line, the load line, min/avg/max/mdev and the percentile line;
 * with -G also "read p50/..." and "write p50/..." lines (read/write may be
 * NULL when not split); with c->response last "response p50/...", the
 * response times. The path is shown escaped as in request lines.
 */
void report_summary(struct sbuf *sb, const struct report_cfg *c, const struct tally *total,
		    const struct stats *read, const struct stats *write);

/*
 * --layers' summary line, with its newline (after report_summary's):
 * "layers avg: submit 12.0 us, throttle 24.6 ms, queue 3.1 us, device 61.0 us;
 * 1.00 pieces per request; 0 without a device request" — the averages over the
 * requests that reached the device, the pieces per such request, the requests
 * served without one.
 */
void report_layers(struct sbuf *sb, const struct layer_tally *lt);

/*
 * One raw line of 10 integers (14 with raw_percentiles, 18 with response
 * too: the response times' p50 p90 p99 p99.9 last), ns and bytes, then
 * with raw_target the target path as one last field (esc_field), and the
 * newline.
 */
void report_raw_line(struct sbuf *sb, const struct report_cfg *c, const struct tally *t);

/*
 * JSON object for one request (no separators around it); with s->layers.measured (--layers)
 * "io" gains "layers": {"submit", "throttle", "queue", "device" (ns), "pieces", "no_device"}.
 */
void report_json_request(struct sbuf *sb, const struct report_cfg *c, const struct sample *s,
			 enum notice n, uint64_t realtime);

/* JSON object for a period or the whole run (no separators around it). */
void report_json_stat(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
		      uint64_t realtime, bool total);

/*
 * The same with -G's reads and writes apart: "stat" gains "read" and "write"
 * objects (count, min, avg, max, mdev, percentiles) when read and write are
 * not NULL (as report_json_stat when they are).
 */
void report_json_stat_rw(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
			 uint64_t realtime, bool total, const struct stats *read,
			 const struct stats *write);

/*
 * report_json_stat_rw() with --layers' tally (NULL: left out) as "stat"'s
 * "layers": {"submit": {"avg", "p50", "p99"}, "throttle": {...}, "queue":
 * {...}, "device": {...} (ns), "pieces": mean per request that reached the
 * device, "no_device": requests served without one}.
 */
void report_json_stat_layers(struct sbuf *sb, const struct report_cfg *c, const struct tally *t,
			     uint64_t realtime, bool total, const struct stats *read,
			     const struct stats *write, const struct layer_tally *lt);

struct iostat_dev_row;
struct verdict;

/*
 * JSON object for one --iostat interval: the usual head (timestamp,
 * localtime, target) and "iostat": {"interval": ns (rows[0]'s; 0 when n is
 * 0), "disk": [...]}, one sysstat `iostat -o JSON` device object per row of
 * rows[0..n); with v
 * (NULL: left out) also "probe": {"asked", "achieved" (requests/s; asked 0
 * = unpaced), "requests", "skipped", "p50", "p99" (ns)} and "verdict":
 * {"state", "reason" ("" unless one), "device", "device_rate", "expected",
 * "own", "text" (verdict_format's line)}.
 */
void report_json_iostat(struct sbuf *sb, const struct report_cfg *c,
			const struct iostat_dev_row *rows, size_t n, const struct verdict *v,
			uint64_t realtime);


#endif
