/*
 * Tests for tui/tui_fmt.c: the short value formats of the full-screen view
 * (three significant digits, µs or "us", rates, sizes, elapsed times,
 * bars, the mode text), lines that leave out what does not fit and the
 * preparation line.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tui_fmt.h"

#include "common.h"

struct tcase {
	uint64_t ns;
	bool ascii;
	char want[24];
};

ParameterizedTestParameters(tui_fmt, time)
{
	static struct tcase cases[] = {
		{ 0, false, "0 ns" },
		{ 546, false, "546 ns" },
		{ 999, false, "999 ns" },
		{ 1000, false, "1.00 µs" },
		{ 5680, false, "5.68 µs" },
		{ 12345, false, "12.3 µs" },
		{ 123456, false, "123 µs" },
		{ 123456, true, "123 us" },
		{ 999499, false, "999 µs" },
		{ 999960, false, "1.00 ms" },   /* rounding reaches 1000: next unit */
		{ 1500000, false, "1.50 ms" },
		{ 12300000000ull, false, "12.3 s" },
		{ 999000000000ull, false, "999 s" },
		{ 1000000000000ull, false, "16.7 min" },
		{ 9000000000000ull, false, "150 min" },
		{ 90000000000000ull, false, "25.0 h" },
		{ UINT64_MAX, false, "5124096 h" },
	};
	return cr_make_param_array(struct tcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct tcase *c, tui_fmt, time)
{
	char buf[TUI_FMT_LEN];

	tui_fmt_time(buf, sizeof(buf), c->ns, c->ascii);
	cr_assert_str_eq(buf, c->want, "%llu ns: \"%s\", want \"%s\"", (unsigned long long)c->ns,
			 buf, c->want);
}

struct rcase {
	double v;
	char want[16];
};

ParameterizedTestParameters(tui_fmt, rate)
{
	static struct rcase cases[] = {
		{ 0, "0" },          { -3, "0" },         { 0.5, "0.50" },   { 1, "1.00" },
		{ 9.99, "9.99" },    { 12.34, "12.3" },   { 123.4, "123" },  { 1234, "1234" },
		{ 9999.4, "9999" },  { 12345, "12.3k" },  { 123456, "123k" }, { 999999, "1.00M" },
		{ 1.5e9, "1.50G" },  { 1e18, "1000P" },
	};
	return cr_make_param_array(struct rcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct rcase *c, tui_fmt, rate)
{
	char buf[TUI_FMT_LEN];

	tui_fmt_rate(buf, sizeof(buf), c->v);
	cr_assert_str_eq(buf, c->want, "%g: \"%s\", want \"%s\"", c->v, buf, c->want);
}

Test(tui_fmt, rate_nan)
{
	char buf[TUI_FMT_LEN];

	cr_assert_str_eq(tui_fmt_rate(buf, sizeof(buf), NAN), "0");
}

Test(tui_fmt, count)
{
	char buf[TUI_FMT_LEN];

	cr_assert_str_eq(tui_fmt_count(buf, sizeof(buf), 0), "0");
	cr_assert_str_eq(tui_fmt_count(buf, sizeof(buf), 7), "7");
	cr_assert_str_eq(tui_fmt_count(buf, sizeof(buf), 999999), "999999");
	cr_assert_str_eq(tui_fmt_count(buf, sizeof(buf), 1234567), "1.23M");
	cr_assert_str_eq(tui_fmt_count(buf, sizeof(buf), UINT64_MAX), "18447P");
}

Test(tui_fmt, bytes)
{
	char buf[TUI_FMT_LEN];

	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 0), "0 B");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 512), "512 B");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 4096), "4.00 KiB");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 1048576), "1.00 MiB");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 16379086), "15.6 MiB");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 67108864), "64.0 MiB");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 270553174016.0), "252 GiB");
}

Test(tui_fmt, bytes_switch_unit_at_1000)
{
	char buf[TUI_FMT_LEN];

	/* 1000 KiB rounds past three digits: shown in MiB */
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 1000 * 1024.0), "0.98 MiB");
	cr_assert_str_eq(tui_fmt_bytes(buf, sizeof(buf), 999 * 1024.0), "999 KiB");
}

Test(tui_fmt, elapsed)
{
	char buf[TUI_FMT_LEN];

	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 0), "0:00");
	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 999999999), "0:00");
	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 65000000000ull), "1:05");
	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 3599000000000ull), "59:59");
	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 3725000000000ull), "1:02:05");
	cr_assert_str_eq(tui_fmt_elapsed(buf, sizeof(buf), 90000000000000ull), "1d 01:00:00");
}

Test(tui_fmt, span)
{
	char buf[TUI_FMT_LEN];

	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 60000000000ull, false), "1 min");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 600000000000ull, false), "10 min");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 3600000000000ull, false), "1 h");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 1000000000ull, false), "1 s");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 250000000ull, false), "250 ms");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 1500000000ull, false), "1500 ms");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 1500, false), "1.50 µs");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 1500, true), "1.50 us");
	cr_assert_str_eq(tui_fmt_span(buf, sizeof(buf), 0, false), "0 ns");
}

/* Cells of a UTF-8 string (every character here is one cell wide). */
static int cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

Test(tui_fmt, bar_utf8)
{
	char buf[128];

	tui_fmt_bar(buf, sizeof(buf), 10, 0.5, false);
	cr_assert_str_eq(buf, "█████     ");
	tui_fmt_bar(buf, sizeof(buf), 10, 0, false);
	cr_assert_str_eq(buf, "          ");
	tui_fmt_bar(buf, sizeof(buf), 10, 1.7, false);
	cr_assert_str_eq(buf, "██████████", "clamped to full");
	tui_fmt_bar(buf, sizeof(buf), 10, 0.05, false);
	cr_assert_str_eq(buf, "▌         ", "half a cell is a half block");
	tui_fmt_bar(buf, sizeof(buf), 8, 0.123, false);
	cr_assert_eq(cells(buf), 8);
	tui_fmt_bar(buf, sizeof(buf), 4, NAN, false);
	cr_assert_str_eq(buf, "    ");
}

Test(tui_fmt, bar_ascii)
{
	char buf[64];

	tui_fmt_bar(buf, sizeof(buf), 10, 0.5, true);
	cr_assert_str_eq(buf, "#####-----");
	tui_fmt_bar(buf, sizeof(buf), 10, 0.26, true);
	cr_assert_str_eq(buf, "###-------", "a 6/10 cell rounds up in ASCII");
	tui_fmt_bar(buf, sizeof(buf), 0, 0.5, true);
	cr_assert_str_eq(buf, "");
}

Test(tui_fmt, bar_never_overflows)
{
	char buf[10];

	tui_fmt_bar(buf, sizeof(buf), 20, 1.0, false);
	cr_assert_leq(strlen(buf), sizeof(buf) - 1);
	cr_assert_eq(strlen(buf) % 3, 0, "no half-written UTF-8 sequence: %zu", strlen(buf));
}

Test(tui_fmt, wrap)
{
	const char *s = "no block device (tmpfs tmpfs on /dev/shm)";

	cr_assert_eq(tui_fmt_wrap(s, 100), strlen(s));
	cr_assert_eq(tui_fmt_wrap(s, 20), 16, "after \"device \"");
	cr_assert_eq(tui_fmt_wrap(s, 15), 15, "fits exactly");
	cr_assert_eq(tui_fmt_wrap(s, 14), 9, "\"device\" does not fit: after \"block \"");
	cr_assert_eq(tui_fmt_wrap(s, 8), 8, "\"no block\"");
	cr_assert_eq(tui_fmt_wrap(s, 7), 3, "\"no \"");
	cr_assert_eq(tui_fmt_wrap("abcdefgh", 3), 3, "no space: hard break");
	cr_assert_eq(tui_fmt_wrap("ab cd", 2), 2, "a space right after the fit");
	cr_assert_eq(tui_fmt_wrap("loop0 → vda", 7), 9, "→ is one cell of 3 bytes");
	cr_assert_eq(tui_fmt_wrap("loop0 → vda", 6), 6);
	cr_assert_eq(tui_fmt_wrap("→→→→", 2), 6, "never splits a character");
	cr_assert_eq(tui_fmt_wrap("", 5), 0);
	cr_assert_eq(tui_fmt_wrap("abc", 0), 0);
}

Test(tui_fmt, mode)
{
	char buf[96];
	struct tui_mode m = { 0 };

	cr_assert_str_eq(tui_fmt_mode(buf, sizeof(buf), &m), "read buffered");
	m.direct = true;
	m.engine = "io_uring";
	cr_assert_str_eq(tui_fmt_mode(buf, sizeof(buf), &m), "read direct, io_uring engine");
	m.write = true;
	m.sync = true;
	m.engine = NULL;
	cr_assert_str_eq(tui_fmt_mode(buf, sizeof(buf), &m), "write direct+sync");
	memset(&m, 0, sizeof(m));
	m.read_write = true;
	m.write = true;
	m.cached = true;
	m.dsync = true;
	cr_assert_str_eq(tui_fmt_mode(buf, sizeof(buf), &m), "rw cached+dsync");
}

Test(tui_fmt, fit_keeps_everything_that_fits)
{
	const struct tui_fit_item it[] = { { "busy 96.0%", 0 }, { "r/s 0.00", 2 },
					   { "aqu-sz 0.97", 0 } };
	char buf[128];

	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 3, 80), 3);
	cr_assert_str_eq(buf, "busy 96.0%  r/s 0.00  aqu-sz 0.97");
}

Test(tui_fmt, fit_drops_the_least_needed_first_and_keeps_order)
{
	const struct tui_fit_item it[] = { { "aaaa", 0 }, { "bbbb", 3 }, { "cccc", 1 },
					   { "dddd", 3 }, { "eeee", 0 } };
	char buf[128];

	/* 5 x 4 + 4 x 2 = 28 cells; 22 fit: the later of the two prio 3 goes first */
	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 5, 22), 4);
	cr_assert_str_eq(buf, "aaaa  bbbb  cccc  eeee");
	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 5, 16), 3);
	cr_assert_str_eq(buf, "aaaa  cccc  eeee");
	/* prio 0 stays even when the line is still too wide */
	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 5, 3), 2);
	cr_assert_str_eq(buf, "aaaa  eeee");
}

Test(tui_fmt, fit_counts_utf8_characters_as_one_cell)
{
	const struct tui_fit_item it[] = { { "p50 7.41 \u00b5s", 0 }, { "x", 1 } };
	char buf[64];

	/* "p50 7.41 µs" is 11 cells (13 bytes); with "  x" 14 */
	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 2, 14), 2);
	cr_assert_eq(tui_fmt_fit(buf, sizeof(buf), it, 2, 13), 1);
}

Test(tui_fmt, prep_line)
{
	char buf[96];

	tui_fmt_prep(buf, sizeof(buf), 128ull << 20, 256ull << 20, 4000000000ull);
	cr_assert_str_eq(buf, "128 MiB of 256 MiB (32.0 MiB/s)");
	tui_fmt_prep(buf, sizeof(buf), 0, 1ull << 30, 0);
	cr_assert_str_eq(buf, "0 B of 1.00 GiB (0 B/s)");
}

/* The rows a text wraps into: what the iostat panel keeps for a whole verdict. */
Test(tui_fmt, wrap_rows)
{
	cr_assert_eq(tui_fmt_wrap_rows("", 10), 0);
	cr_assert_eq(tui_fmt_wrap_rows("keeps up", 10), 1);
	cr_assert_eq(tui_fmt_wrap_rows("other I/O: dev 153/s", 10), 2, "other I/O: | dev 153/s");
	cr_assert_eq(tui_fmt_wrap_rows("abcdefghijklmnopqrstu", 10), 3, "hard breaks");
	cr_assert_eq(tui_fmt_wrap_rows("a b", 0), 0);
}
