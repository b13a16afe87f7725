/*
 * tui_fmt: the short value formats of the full-screen view — latencies with
 * three significant digits in ns/µs/ms/s, rates, byte counts, elapsed
 * times, the probe mode text, bars, lines that leave out what does not
 * fit, and the preparation progress. Pure: no curses, no clocks, no I/O. Every function writes a
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

/* Big enough for every tui_fmt_* result except tui_fmt_bar, tui_fmt_fit and tui_fmt_prep. */
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

/* The rows s takes when word-wrapped at width by tui_fmt_wrap (0 for an empty s). */
int tui_fmt_wrap_rows(const char *s, int width);

/* The probe's mode word list, e.g. "read direct", "write cached", "rw sync+direct". */
struct tui_mode {
	bool write, read_write;
	bool direct, cached, sync, dsync;
	const char *engine; /* "sync", "io_uring", ...; NULL = not shown */
};
char *tui_fmt_mode(char *buf, size_t len, const struct tui_mode *m);

/* One item of a line that leaves out what does not fit (tui_fmt_fit). */
struct tui_fit_item {
	const char *text;
	int prio;            /* 0 = most needed; higher goes first */
};

/*
 * Join the items' texts in order with two spaces between them, leaving out
 * the least needed ones (highest prio, the later one on ties) until the line
 * is at most width cells (a UTF-8 character is one cell); prio 0 items stay
 * even when the line is still too wide. Returns the number of items shown.
 */
int tui_fmt_fit(char *buf, size_t len, const struct tui_fit_item *it, int n, int width);

/*
 * The preparation line: "128 MiB of 256 MiB (33.0 MiB/s)" for done of total
 * bytes after elapsed ns ("(0 B/s)" until elapsed is known).
 */
char *tui_fmt_prep(char *buf, size_t len, uint64_t done, uint64_t total, uint64_t elapsed);

#endif
