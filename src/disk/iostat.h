/*
 * iostat: sysstat 12.6's `iostat -dx` columns from two disk_counters samples,
 * and the exact `iostat -dx` text and `-o JSON` layouts (the saturation
 * verdict is verdict.h's).
 * Pure: no I/O, no clocks.
 *
 * Formulas (sysstat 12.6.1 iostat.c / rd_stats.c), with Δx = cur - prev and
 * S(Δ) = Δ / itv * 100 where itv = interval_ns / 1e7 (centiseconds, what
 * sysstat reads from /proc/uptime; for a whole number of centiseconds every
 * operation is the same as sysstat's, so the "%.2f" text matches exactly):
 *   r/s w/s d/s f/s   S(Δios)                fields 1, 5, 12, 16
 *   rkB/s wkB/s dkB/s S(Δsectors) / 2        fields 3, 7, 14
 *   rrqm/s ...        S(Δmerges)             fields 2, 6, 13
 *   %rrqm ...         Δmerges / (Δmerges + Δios) * 100, 0 when both are 0
 *   r_await ...       Δticks / Δios (ms), 0 when Δios is 0; f_await = Δ17 / Δ16
 *   rareq-sz ...      Δsectors / Δios / 2 (kB), 0 when Δios is 0
 *   aqu-sz            S(Δfield 11) / 1000
 *   %util             S(Δfield 10) / 10
 *   in-flight         field 9 of cur (a gauge, not a delta)
 *   avgrq-sz          (Δrd + Δwr + Δdc sectors) / (Δrd + Δwr + Δdc ios), in
 *                     512-byte sectors (the pre-11.5.7 column), 0 without I/O
 *   tps, await        (Δrd + Δwr + Δdc ios) / T; Σ Δticks / Σ Δios of the
 *                     same three (the `-s` columns; flushes excluded)
 *
 * Deltas: the u32 fields (ms and in-flight, see diskstats_field_is_u32) are
 * taken modulo 2^32, so their wrap is invisible. For the unsigned-long
 * counters, cur < prev is taken as a 32-bit wrap (Δ = cur + 2^32 - prev)
 * when prev <= UINT32_MAX and that Δ is below 2^31 (a wrap on a 32-bit
 * kernel within one interval); anything else going backwards is a reset.
 */
#ifndef IOPROBE_IOSTAT_H
#define IOPROBE_IOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "diskstats.h"
#include "sbuf.h"

/* iostat_compute's return value when the interval was a reset (not an error). */
#define IOSTAT_RESET 1

struct iostat_row {
	uint64_t interval_ns; /* the interval the row covers */
	bool reset;           /* counters went backwards or the device changed: all values 0 */
	double r_s, rkb_s, rrqm_s, rrqm_pct, r_await, rareq_sz;
	double w_s, wkb_s, wrqm_s, wrqm_pct, w_await, wareq_sz;
	double d_s, dkb_s, drqm_s, drqm_pct, d_await, dareq_sz;
	double f_s, f_await;
	double aqu_sz;        /* average requests outstanding */
	double util;          /* %util (busy time), may exceed 100 on jiffy edges */
	double in_flight;     /* field 9 of cur */
	double avgrq_sz;      /* sectors */
	double tps, await;    /* iostat -s style: reads+writes+discards */
};

/* One device's row by name: what a report of several devices takes. */
struct iostat_dev_row {
	const char *name;
	const struct iostat_row *row;
};

/*
 * Compute the row for the interval prev -> cur lasting interval_ns
 * (CLOCK_BOOTTIME delta; /proc/uptime semantics). prev == NULL means an
 * all-zero baseline with cur's identity: the "since boot" first report,
 * with interval_ns = uptime.
 *
 * Returns 0 with every column filled; IOSTAT_RESET when cur is not the
 * same device as prev (major, minor or name differ) or an unsigned-long
 * counter went backwards beyond a plausible 32-bit wrap: out->reset is set
 * and every value is 0 (except in_flight, still cur's gauge) so that no
 * spike is shown; or -EINVAL when cur or out is NULL or interval_ns is 0
 * (out zeroed). out->interval_ns is always set to interval_ns.
 */
int iostat_compute(const struct disk_counters *prev, const struct disk_counters *cur,
		   uint64_t interval_ns, struct iostat_row *out);

/*
 * Append sysstat 12.6.1's `iostat -dx` header line (kB units, no -h/-p
 * options), newline included:
 * "Device" padded to 13, then r/s ... %util in the widths of the rows.
 * Returns 0 or -ENOMEM.
 */
int iostat_format_header(struct sbuf *sb);

/*
 * Append one `iostat -dx` row for row, newline included: devname as
 * "%-13s" (a longer name is printed whole and pushes the row right, as
 * iostat does; NULL prints as ""), then each column as " %*.2f" with widths
 * r/s 7, rkB/s 9, rrqm/s 8, %rrqm 6, r_await 7, rareq-sz 8 (same for w and
 * d), f/s 7, f_await 7, aqu-sz 7, %util 6. Values wider than their column
 * widen it. Returns 0 or -ENOMEM.
 */
int iostat_format_row(struct sbuf *sb, const char *devname, const struct iostat_row *row);

/* The header line, then one row line per rows[0..n). Returns 0 or -ENOMEM. */
int iostat_format_table(struct sbuf *sb, const struct iostat_dev_row *rows, size_t n);

/*
 * Append one `iostat -dx -o JSON` device object, without indentation, comma
 * or newline:
 * {"disk_device": "vda", "r/s": 0.00, "w/s": ..., "d/s", "f/s", "rkB/s",
 *  "wkB/s", "dkB/s", "rrqm/s", "wrqm/s", "drqm/s", "rrqm", "wrqm", "drqm",
 *  "r_await", "w_await", "d_await", "f_await", "rareq-sz", "wareq-sz",
 *  "dareq-sz", "aqu-sz", "util"} with ", " separators and "%.2f" values.
 * The name is JSON-escaped (sysstat prints it raw; identical for real
 * device names). Returns 0 or -ENOMEM.
 */
int iostat_json_row(struct sbuf *sb, const char *devname, const struct iostat_row *row);

#endif
