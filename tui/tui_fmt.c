#include "config.h"

#include "tui_fmt.h"
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct tui_unit {
	const char *name;  /* UTF-8 name */
	const char *ascii; /* ASCII name */
	double mult;       /* ns per unit */
};

static const struct tui_unit tui_time_units[] = {
	{ "ns", "ns", 1.0 },
	{ "µs", "us", 1e3 },
	{ "ms", "ms", 1e6 },
	{ "s", "s", 1e9 },
	{ "min", "min", 60e9 },
	{ "h", "h", 3600e9 },
};
#define TUI_TIME_UNITS ARRAY_SIZE(tui_time_units)

/* Decimals giving three significant digits for v in [0, 999.5); -1 when v rounds to 1000. */
static int tui_fmt_decimals(double v)
{
	if (v < 9.995)
		return 2;
	if (v < 99.95)
		return 1;
	if (v < 999.5)
		return 0;
	return -1;
}

char *tui_fmt_time(char *buf, size_t len, uint64_t ns, bool ascii)
{
	double v = (double)ns;

	if (ns < 1000) {
		snprintf(buf, len, "%u ns", (unsigned)ns);
		return buf;
	}
	for (size_t i = 1; i < TUI_TIME_UNITS; i++) {
		const struct tui_unit *u = &tui_time_units[i];
		double x = v / u->mult;
		int d = tui_fmt_decimals(x);

		if (d >= 0 || i == TUI_TIME_UNITS - 1) {
			if (d < 0)
				d = 0;
			snprintf(buf, len, "%.*f %s", d, x, ascii ? u->ascii : u->name);
			return buf;
		}
	}
	return buf; /* not reached: the last unit always prints */
}

char *tui_fmt_rate(char *buf, size_t len, double v)
{
	static const char sfx[] = { 'k', 'M', 'G', 'T', 'P' };
	int d;

	if (!(v > 0)) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (v < 9999.5) {
		d = tui_fmt_decimals(v);
		snprintf(buf, len, "%.*f", d < 0 ? 0 : d, v);
		return buf;
	}
	for (size_t i = 0; i < sizeof(sfx); i++) {
		v /= 1000.0;
		d = tui_fmt_decimals(v);
		if (d >= 0 || i == sizeof(sfx) - 1) {
			snprintf(buf, len, "%.*f%c", d < 0 ? 0 : d, v, sfx[i]);
			return buf;
		}
	}
	return buf;
}

char *tui_fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 1000000)
		snprintf(buf, len, "%u", (unsigned)n);
	else
		tui_fmt_rate(buf, len, (double)n);
	return buf;
}

char *tui_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = bytes;
	int d;

	if (!(v > 0)) {
		snprintf(buf, len, "0 B");
		return buf;
	}
	if (v < 999.5) {
		snprintf(buf, len, "%.0f B", v);
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		v /= 1024.0;
		d = tui_fmt_decimals(v);
		if (d >= 0 || i == ARRAY_SIZE(units) - 1) {
			snprintf(buf, len, "%.*f %s", d < 0 ? 0 : d, v, units[i]);
			return buf;
		}
	}
	return buf;
}

char *tui_fmt_elapsed(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;
	unsigned sec = (unsigned)(s % 60), min = (unsigned)(s / 60 % 60);
	unsigned hour = (unsigned)(s / 3600 % 24);
	unsigned long long day = (unsigned long long)(s / 86400);

	if (s < 3600)
		snprintf(buf, len, "%u:%02u", (unsigned)(s / 60), sec);
	else if (s < 86400)
		snprintf(buf, len, "%u:%02u:%02u", (unsigned)(s / 3600), min, sec);
	else
		snprintf(buf, len, "%llud %02u:%02u:%02u", day, hour, min, sec);
	return buf;
}

char *tui_fmt_span(char *buf, size_t len, uint64_t ns, bool ascii)
{
	static const struct {
		uint64_t mult;
		const char *name;
	} whole[] = {
		{ 3600000000000ull, "h" }, { 60000000000ull, "min" }, { 1000000000ull, "s" },
		{ 1000000ull, "ms" },
	};

	if (ns) {
		for (size_t i = 0; i < ARRAY_SIZE(whole); i++) {
			if (ns % whole[i].mult == 0) {
				snprintf(buf, len, "%llu %s",
					 (unsigned long long)(ns / whole[i].mult), whole[i].name);
				return buf;
			}
		}
	}
	return tui_fmt_time(buf, len, ns, ascii);
}

char *tui_fmt_bar(char *buf, size_t len, int width, double frac, bool ascii)
{
	/* U+2588 full block, then U+2589..U+258F: 7/8 down to 1/8 */
	static const char *const eighth[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	size_t pos = 0;
	int full, rem, cells = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (width <= 0)
		return buf;
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	full = (int)(frac * width);
	rem = (int)lround((frac * width - full) * 8);
	if (rem == 8) {
		full++;
		rem = 0;
	}
	if (full > width)
		full = width;
	for (; cells < full; cells++) {
		const char *s = ascii ? "#" : "█";
		size_t n = strlen(s);

		if (pos + n + 1 > len)
			break;
		memcpy(buf + pos, s, n);
		pos += n;
	}
	if (rem && cells < width) {
		const char *s = ascii ? (rem >= 4 ? "#" : "-") : eighth[rem];
		size_t n = strlen(s);

		if (pos + n + 1 <= len) {
			memcpy(buf + pos, s, n);
			pos += n;
			cells++;
		}
	}
	for (; cells < width && pos + 2 <= len; cells++)
		buf[pos++] = ascii ? '-' : ' ';
	buf[pos] = '\0';
	return buf;
}

size_t tui_fmt_wrap(const char *s, int width)
{
	size_t n = 0, brk = 0;
	int cells = 0;

	if (width <= 0)
		return 0;
	while (s[n] && cells < width) {
		if (s[n] == ' ')
			brk = n + 1;
		n++;
		while ((s[n] & 0xc0) == 0x80)
			n++;
		cells++;
	}
	if (!s[n] || s[n] == ' ' || !brk)
		return n;
	return brk;
}

char *tui_fmt_mode(char *buf, size_t len, const struct tui_mode *m)
{
	const char *rw = m->read_write ? "rw" : m->write ? "write" : "read";
	char io[48] = "";

	if (m->direct)
		strcat(io, "direct");
	if (m->cached)
		strcat(io, *io ? "+cached" : "cached");
	if (m->sync)
		strcat(io, *io ? "+sync" : "sync");
	if (m->dsync)
		strcat(io, *io ? "+dsync" : "dsync");
	if (!*io)
		strcat(io, "buffered");
	if (m->engine)
		snprintf(buf, len, "%s %s, %s engine", rw, io, m->engine);
	else
		snprintf(buf, len, "%s %s", rw, io);
	return buf;
}

/* Cells of s: UTF-8 continuation bytes take none. */
static int tui_fmt_cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

int tui_fmt_fit(char *buf, size_t len, const struct tui_fit_item *it, int n, int width)
{
	bool shown[64];
	int used, count = n < 64 ? n : 64, nshown = count;

	for (int i = 0; i < count; i++)
		shown[i] = true;
	for (;;) {
		int drop = -1;

		used = 0;
		for (int i = 0, k = 0; i < count; i++)
			if (shown[i])
				used += (k++ ? 2 : 0) + tui_fmt_cells(it[i].text);
		if (used <= width)
			break;
		for (int i = 0; i < count; i++)
			if (shown[i] && it[i].prio > 0 && (drop < 0 || it[i].prio >= it[drop].prio))
				drop = i;
		if (drop < 0)
			break;
		shown[drop] = false;
		nshown--;
	}
	if (len)
		buf[0] = '\0';
	for (int i = 0, k = 0, pos = 0; i < count && len; i++) {
		int w;

		if (!shown[i])
			continue;
		w = snprintf(buf + pos, len - (size_t)pos, "%s%s", k++ ? "  " : "", it[i].text);
		if (w < 0 || (size_t)(pos + w) >= len)
			break;
		pos += w;
	}
	return nshown;
}

char *tui_fmt_prep(char *buf, size_t len, uint64_t done, uint64_t total, uint64_t elapsed)
{
	char a[TUI_FMT_LEN], b[TUI_FMT_LEN], r[TUI_FMT_LEN];
	double rate = elapsed ? (double)done * NS_PER_S / (double)elapsed : 0;

	snprintf(buf, len, "%s of %s (%s/s)", tui_fmt_bytes(a, sizeof(a), (double)done),
		 tui_fmt_bytes(b, sizeof(b), (double)total), tui_fmt_bytes(r, sizeof(r), rate));
	return buf;
}

int tui_fmt_wrap_rows(const char *s, int width)
{
	int rows = 0;

	while (*s) {
		size_t n = tui_fmt_wrap(s, width);

		if (!n)
			break;
		rows++;
		s += n;
		while (*s == ' ')
			s++;
	}
	return rows;
}
