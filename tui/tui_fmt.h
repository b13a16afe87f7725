/*
 * tui_fmt: the short value formats of the full-screen view — latencies with
 * three significant digits in ns/µs/ms/s, rates, byte counts, elapsed
 * times, the probe mode text, bars, and the saturation hint of the iostat
 * panel. Pure: no curses, no clocks, no I/O. Every function writes a
 * NUL-terminated string into buf (truncated to len) and returns buf.
 *
 * ascii selects "us" instead of "µs" and '#'/'-' bars instead of block
 * elements, for terminals without UTF-8.
 */
#ifndef IOPROBE_TUI_FMT_H
#define IOPROBE_TUI_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Big enough for every tui_fmt_* result except tui_fmt_bar and tui_fmt_hint. */
#define TUI_FMT_LEN 32

/*
 * A latency: "0 ns", "546 ns", "5.68 µs", "12.3 µs", "123 µs", "1.00 ms",
 * "12.3 s", "123 s", "16.7 min", "2.50 h": three significant digits, the
 * unit switching up when rounding reaches 1000 (999.96 µs is "1.00 ms").
 */
char *tui_fmt_time(char *buf, size_t len, uint64_t ns, bool ascii);

/*
 * A per-second rate or count with three significant digits and a decimal
 * suffix: "0", "0.50", "9.99", "12.3", "123", "1234" (4 digits stay plain),
 * "12.3k", "123k", "1.23M", "12.3G". Negative and NaN values print "0".
 */
char *tui_fmt_rate(char *buf, size_t len, double v);

/* A count: plain digits below a million ("0", "123456"), then as tui_fmt_rate ("1.23M"). */
char *tui_fmt_count(char *buf, size_t len, uint64_t n);

/*
 * A byte count in binary units with three significant digits: "0 B",
 * "512 B", "4.00 KiB", "15.6 MiB", "1.00 GiB" ... up to "EiB".
 */
char *tui_fmt_bytes(char *buf, size_t len, double bytes);

/* Elapsed time "m:ss" below an hour, "h:mm:ss" from an hour, "Nd hh:mm:ss" from a day. */
char *tui_fmt_elapsed(char *buf, size_t len, uint64_t ns);

/*
 * A time for axis labels and the window: whole units where possible,
 * "1 min", "10 min", "1 h", "30 s", "250 ms"; otherwise tui_fmt_time.
 */
char *tui_fmt_span(char *buf, size_t len, uint64_t ns, bool ascii);

/*
 * A horizontal bar of width cells for frac (clamped to 0..1): UTF-8 full
 * and eighth blocks padded with spaces, or in ASCII '#' then '-'. Needs
 * len >= 3 * width + 1 for UTF-8; returns buf.
 */
char *tui_fmt_bar(char *buf, size_t len, int width, double frac, bool ascii);

/*
 * Word wrap: the byte length of the first line of s at most width cells wide
 * (a UTF-8 character is one cell), broken after the last space that fits, or
 * hard at width when no space does. The caller skips the spaces that follow.
 * 0 only for an empty s or width <= 0.
 */
size_t tui_fmt_wrap(const char *s, int width);

/* The probe's mode word list, e.g. "read direct", "write cached", "rw sync+direct". */
struct tui_mode {
	bool write, read_write;
	bool direct, cached, sync, dsync;
	const char *engine; /* "sync", "io_uring", ...; NULL = not shown */
};
char *tui_fmt_mode(char *buf, size_t len, const struct tui_mode *m);

/* What the saturation hint is computed from (one iostat interval). */
struct tui_hint_in {
	double probe_tps;      /* probe requests completed per second in the interval */
	double dev_tps;        /* the device's r/s + w/s (+ d/s) */
	double expected_tps;   /* verdict_expect's device r/s + w/s, 0 = unknown */
	double own_aqu;        /* the aqu-sz the probe explains: pieces x depth */
	double observed_aqu;   /* aqu-sz */
};

#define TUI_HINT_LINES 4
#define TUI_HINT_LEN 64

/*
 * The saturation hint of the iostat panel, up to TUI_HINT_LINES lines of
 * at most TUI_HINT_LEN - 1 bytes, most important first:
 *   0  what was asked against what the device did: "asked 1.00/s, dev 850/s"
 *   1  the verdict: "device idle", "other I/O on the device", "probe is the
 *      device's load", "device saw less than asked" (cache hits, merges)
 *   2  queueing: "queue building: aqu-sz 3.2" when aqu-sz is above the
 *      probe's own (own_aqu) by VERDICT_QUEUE_MARGIN, else "".
 * Unused lines are "". Returns the number of lines up to the last non-empty one.
 */
int tui_fmt_hint(char line[TUI_HINT_LINES][TUI_HINT_LEN], const struct tui_hint_in *in,
		 bool ascii);

#endif
