/*
 * fuzz_diskstats: the /proc/diskstats and sysfs stat parsers on the input
 * text, and the iostat columns computed and formatted from what they parse.
 *
 * Per line: diskstats_parse_line() on the line inside the text and on an
 * exact-size heap copy of it, compared with a small reference parser written
 * from the header's rules; the statistics part of every good line through
 * diskstats_parse_sysfs_stat(). Whole text: diskstats_foreach (counts,
 * order, early stop), diskstats_parse (NULL/short/exact arrays),
 * diskstats_find/diskstats_find_name, diskstats_parse_sysfs_stat.
 * Then iostat_compute() on pairs of parsed counters (since boot, same sample
 * twice, line i -> i+1 and back) over intervals from 1 ns to UINT64_MAX
 * (and 0), and iostat_format_row()/iostat_json_row() of the rows into sbufs.
 *
 * Invariants (abort() on violation):
 *  - parse: 0 or -EINVAL; a failure leaves the struct all zero; a success
 *    has nfields 4 or 11..17, a non-empty blank-free name shorter than
 *    DISKSTATS_NAME_LEN, absent fields 0; the result equals the reference
 *    parser's and does not depend on what follows the line's '\n';
 *  - foreach: good + bad == non-blank lines, callbacks in line order, a
 *    non-zero callback value stops the walk and is returned; parse counts the
 *    same lines and stores the first cap; find returns the first match;
 *  - compute: -EINVAL (row zeroed) for a zero interval, else 0 or
 *    IOSTAT_RESET as the reference delta rules say; a reset row is all zero
 *    but in_flight; otherwise every value is finite and >= 0, every merge % is
 *    <= 100 and > 0 exactly when there were merges, tps = r/s + w/s + d/s,
 *    await and avgrq-sz lie between the smallest and the largest per-class
 *    value they average, r/s and w/s match Δ/interval (the Δs computed by a
 *    reference of the header's wrap/reset rules); a sample against itself
 *    gives an all-zero row; the verdict's expectation and states stay sane;
 *  - format_row: NUL-terminated sbuf, one line, 23 fields (name + 22
 *    "%.2f" numbers equal to the row's values), as wide as the header when
 *    every value fits its column;
 *  - json_row: valid UTF-8 without raw control bytes; the device name
 *    decodes back to the original bytes; the rest is exactly the documented
 *    key order with "%.2f" values.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "diskstats.h"
#include "fuzz_common.h"
#include "iostat.h"
#include "verdict.h"
#include "sbuf.h"

#define MAX_GOOD 5     /* parsed lines kept for the iostat checks */
#define MAX_LINES 4096 /* lines looked at one by one */

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* ---- a reference parser, written independently from the header ---- */

struct tok {
	const char *s;
	size_t n;
};

/* Split [s, s+len) at blanks into at most max tokens; returns the token count (may exceed max). */
static size_t ref_tokens(const char *s, size_t len, struct tok *t, size_t max)
{
	size_t count = 0, i = 0;

	while (i < len) {
		size_t j;

		if (blank(s[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && !blank(s[j]); j++)
			;
		if (count < max) {
			t[count].s = s + i;
			t[count].n = j - i;
		}
		count++;
		i = j;
	}
	return count;
}

/* Decimal digits only, value <= max. */
static bool ref_number(const struct tok *t, uint64_t max, uint64_t *v)
{
	char buf[32];
	size_t z = 0, n;
	unsigned long long x;

	if (t->n == 0)
		return false;
	for (size_t k = 0; k < t->n; k++)
		if (t->s[k] < '0' || t->s[k] > '9')
			return false;
	while (z + 1 < t->n && t->s[z] == '0') /* leading zeros, keeping one digit */
		z++;
	n = t->n - z;
	if (n >= sizeof(buf)) /* 32 significant digits or more: above UINT64_MAX */
		return false;
	memcpy(buf, t->s + z, n);
	buf[n] = '\0';
	errno = 0;
	x = strtoull(buf, NULL, 10);
	if (errno == ERANGE || x > max)
		return false;
	*v = x;
	return true;
}

/*
 * Parse a diskstats line [s, s+len) (no '\n' inside) the way the header
 * describes it; ids = false parses a sysfs stat line (statistics only).
 */
static int ref_parse_line(const char *s, size_t len, struct disk_counters *out, bool ids)
{
	uint64_t x[DISKSTATS_NFIELDS];
	size_t i = 0, k = 0, nstats = 0;

	memset(out, 0, sizeof(*out));
	while (i < len) {
		struct tok t;
		uint64_t v;
		size_t j;

		if (blank(s[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && !blank(s[j]); j++)
			;
		t.s = s + i;
		t.n = j - i;
		i = j;
		if (ids && k < 2) {
			if (!ref_number(&t, UINT_MAX, &v))
				goto bad;
			if (k == 0)
				out->major = (unsigned)v;
			else
				out->minor = (unsigned)v;
		} else if (ids && k == 2) {
			if (t.n >= DISKSTATS_NAME_LEN)
				goto bad;
			memcpy(out->name, t.s, t.n);
		} else {
			if (!ref_number(&t, UINT64_MAX, &v))
				goto bad;
			if (nstats < DISKSTATS_NFIELDS)
				x[nstats] = v;
			nstats++;
		}
		k++;
	}
	if (ids && k < 3)
		goto bad;
	if (nstats == 4) {
		out->v[DS_RD_IOS] = x[0];
		out->v[DS_RD_SECTORS] = x[1];
		out->v[DS_WR_IOS] = x[2];
		out->v[DS_WR_SECTORS] = x[3];
		out->nfields = 4;
	} else if (nstats >= 11) {
		out->nfields = nstats < DISKSTATS_NFIELDS ? (unsigned)nstats : DISKSTATS_NFIELDS;
		memcpy(out->v, x, out->nfields * sizeof(x[0]));
	} else {
		goto bad;
	}
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

/* ---- checks ---- */

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool same_counters(const struct disk_counters *a, const struct disk_counters *b)
{
	return a->major == b->major && a->minor == b->minor && strcmp(a->name, b->name) == 0 &&
	       a->nfields == b->nfields && memcmp(a->v, b->v, sizeof(a->v)) == 0;
}

static void check_counters(const struct disk_counters *c, bool named)
{
	size_t len;

	CHECK(fuzz_has_nul(c->name, sizeof(c->name)), "name not NUL-terminated");
	len = strlen(c->name);
	if (named)
		CHECK(len > 0, "empty name");
	else
		CHECK(len == 0 && c->major == 0 && c->minor == 0, "sysfs stat with an identity");
	for (size_t i = 0; i < len; i++)
		CHECK(!blank(c->name[i]) && c->name[i] != '\n', "blank in name");
	CHECK(c->nfields == 4 || (c->nfields >= 11 && c->nfields <= DISKSTATS_NFIELDS),
	      "nfields %u", c->nfields);
	for (unsigned i = 0; i < DISKSTATS_NFIELDS; i++) {
		bool present = c->nfields == 4 ? (i == DS_RD_IOS || i == DS_RD_SECTORS ||
						   i == DS_WR_IOS || i == DS_WR_SECTORS)
					       : i < c->nfields;

		CHECK(present || c->v[i] == 0, "absent field %u is %llu", i + 1,
		      (unsigned long long)c->v[i]);
	}
}

static const uint64_t intervals[] = {
	0, 1, 9999999, 10000000, 1000000000, 3600000000000ull, UINT64_MAX,
};
#define N_INTERVALS (sizeof(intervals) / sizeof(intervals[0]))

/* Reference Δ: false for a reset. */
static bool ref_delta(const struct disk_counters *p, const struct disk_counters *c, unsigned f,
		      uint64_t *d)
{
	uint64_t pv = p->v[f], cv = c->v[f];

	if (diskstats_field_is_u32(f)) {
		*d = (cv - pv) & 0xffffffffu;
		return true;
	}
	if (cv >= pv) {
		*d = cv - pv;
		return true;
	}
	if (pv <= UINT32_MAX && (pv - cv) > (UINT64_C(1) << 31) && (pv - cv) <= (UINT64_C(1) << 32)) {
		/* cv + 2^32 - pv < 2^31 */
		*d = (UINT64_C(1) << 32) - (pv - cv);
		return true;
	}
	return false;
}

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want) + 1e-300;
}

static double maxd(double a, double b, double c)
{
	return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

/* The smallest of the r/w/d values whose class had requests; 0 when none had. */
static double min_active(const uint64_t *d, double r, double w, double dc)
{
	double m = HUGE_VAL;

	if (d[DS_RD_IOS] && r < m)
		m = r;
	if (d[DS_WR_IOS] && w < m)
		m = w;
	if (d[DS_DC_IOS] && dc < m)
		m = dc;
	return m == HUGE_VAL ? 0 : m;
}

static void check_row(const struct disk_counters *prev, const struct disk_counters *cur,
		      uint64_t itv, int ret, const struct iostat_row *r)
{
	const double vals[] = {
		r->r_s, r->rkb_s, r->rrqm_s, r->rrqm_pct, r->r_await, r->rareq_sz,
		r->w_s, r->wkb_s, r->wrqm_s, r->wrqm_pct, r->w_await, r->wareq_sz,
		r->d_s, r->dkb_s, r->drqm_s, r->drqm_pct, r->d_await, r->dareq_sz,
		r->f_s, r->f_await, r->aqu_sz, r->util, r->avgrq_sz, r->tps, r->await,
	};
	struct disk_counters zero;
	const struct disk_counters *p = prev;
	bool reset = false;
	uint64_t d[DISKSTATS_NFIELDS];

	if (itv == 0) {
		CHECK(ret == -EINVAL && all_zero(r, sizeof(*r)), "zero interval: %d", ret);
		return;
	}
	CHECK(ret == 0 || ret == IOSTAT_RESET, "compute returned %d", ret);
	CHECK(r->interval_ns == itv, "interval_ns %llu", (unsigned long long)r->interval_ns);
	CHECK(r->in_flight == (double)(uint32_t)cur->v[DS_IN_FLIGHT], "in_flight %g", r->in_flight);
	CHECK(r->reset == (ret == IOSTAT_RESET), "reset flag %d with %d", r->reset, ret);

	if (!p) {
		memset(&zero, 0, sizeof(zero));
		p = &zero;
	} else {
		reset = p->major != cur->major || p->minor != cur->minor || strcmp(p->name, cur->name);
	}
	for (unsigned f = 0; f < DISKSTATS_NFIELDS && !reset; f++)
		reset = !ref_delta(p, cur, f, &d[f]);
	CHECK(reset == (ret == IOSTAT_RESET), "reset %d but reference says %d", ret, reset);
	if (prev == cur)
		CHECK(ret == 0, "a sample against itself is a reset");

	if (ret == IOSTAT_RESET) {
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			CHECK(vals[i] == 0, "reset row value %zu is %g", i, vals[i]);
		return;
	}
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		CHECK(isfinite(vals[i]) && vals[i] >= 0, "value %zu is %g", i, vals[i]);
	if (prev == cur)
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			CHECK(vals[i] == 0, "zero interval delta, value %zu is %g", i, vals[i]);
	CHECK(r->rrqm_pct <= 100 && r->wrqm_pct <= 100 && r->drqm_pct <= 100,
	      "merge %% above 100: %g %g %g", r->rrqm_pct, r->wrqm_pct, r->drqm_pct);
	CHECK((r->rrqm_pct > 0) == (d[DS_RD_MERGES] > 0) && (r->wrqm_pct > 0) == (d[DS_WR_MERGES] > 0) &&
	      (r->drqm_pct > 0) == (d[DS_DC_MERGES] > 0), "merge %% %g %g %g for merges %llu %llu %llu",
	      r->rrqm_pct, r->wrqm_pct, r->drqm_pct, (unsigned long long)d[DS_RD_MERGES],
	      (unsigned long long)d[DS_WR_MERGES], (unsigned long long)d[DS_DC_MERGES]);
	CHECK(near(r->r_s, (double)d[DS_RD_IOS] / ((double)itv / 1e7) * 100), "r/s %g", r->r_s);
	CHECK(near(r->w_s, (double)d[DS_WR_IOS] / ((double)itv / 1e7) * 100), "w/s %g", r->w_s);
	CHECK(near(r->tps, r->r_s + r->w_s + r->d_s), "tps %g vs %g + %g + %g", r->tps, r->r_s,
	      r->w_s, r->d_s);
	/*
	 * await and avgrq-sz average the r/w/d classes, so they lie within the
	 * per-class values, unless a class has ticks or sectors without requests
	 * (counted in the sum, shown as 0 in its own column).
	 */
	if ((d[DS_RD_IOS] || !d[DS_RD_TICKS]) && (d[DS_WR_IOS] || !d[DS_WR_TICKS]) &&
	    (d[DS_DC_IOS] || !d[DS_DC_TICKS])) {
		CHECK(r->await <= maxd(r->r_await, r->w_await, r->d_await) * (1 + 1e-9),
		      "await %g above every class (%g %g %g)", r->await, r->r_await, r->w_await,
		      r->d_await);
		CHECK(r->await >= min_active(d, r->r_await, r->w_await, r->d_await) * (1 - 1e-9),
		      "await %g below every class (%g %g %g)", r->await, r->r_await, r->w_await,
		      r->d_await);
	}
	if ((d[DS_RD_IOS] || !d[DS_RD_SECTORS]) && (d[DS_WR_IOS] || !d[DS_WR_SECTORS]) &&
	    (d[DS_DC_IOS] || !d[DS_DC_SECTORS])) {
		CHECK(r->avgrq_sz <= 2 * maxd(r->rareq_sz, r->wareq_sz, r->dareq_sz) * (1 + 1e-9),
		      "avgrq-sz %g above every class (%g %g %g kB)", r->avgrq_sz, r->rareq_sz,
		      r->wareq_sz, r->dareq_sz);
		CHECK(r->avgrq_sz >= 2 * min_active(d, r->rareq_sz, r->wareq_sz, r->dareq_sz) * (1 - 1e-9),
		      "avgrq-sz %g below every class (%g %g %g kB)", r->avgrq_sz, r->rareq_sz,
		      r->wareq_sz, r->dareq_sz);
	}
}

/* Column widths of an `iostat -dx` row after the name. */
static const int widths[22] = {
	7, 9, 8, 6, 7, 8,
	7, 9, 8, 6, 7, 8,
	7, 9, 8, 6, 7, 8,
	7, 7, 7, 6,
};

static void check_format_row(const char *name, const struct iostat_row *r, bool with_header)
{
	const double vals[22] = {
		r->r_s, r->rkb_s, r->rrqm_s, r->rrqm_pct, r->r_await, r->rareq_sz,
		r->w_s, r->wkb_s, r->wrqm_s, r->wrqm_pct, r->w_await, r->wareq_sz,
		r->d_s, r->dkb_s, r->drqm_s, r->drqm_pct, r->d_await, r->dareq_sz,
		r->f_s, r->f_await, r->aqu_sz, r->util,
	};
	struct sbuf sb = SBUF_INIT, hdr = SBUF_INIT;
	const char *row, *p;
	size_t hlen = 0, nfields = 0;
	bool fits = strlen(name) <= 13;
	int ret;

	CHECK(iostat_format_header(&hdr) == 0, "header");
	if (with_header) {
		CHECK(iostat_format_header(&sb) == 0, "header");
		hlen = sb.len;
	}
	ret = iostat_format_row(&sb, name, r);
	CHECK(ret == 0 && sb.error == 0, "format_row returned %d", ret);
	CHECK(sb.buf && sb.buf[sb.len] == '\0' && strlen(sb.buf) == sb.len,
	      "sbuf not NUL-terminated at its length");
	CHECK(!with_header || memcmp(sb.buf, hdr.buf, hdr.len) == 0, "header overwritten");
	row = sb.buf + hlen;
	CHECK(sb.len > hlen && row[sb.len - hlen - 1] == '\n' && strchr(row, '\n') == row + sb.len - hlen - 1,
	      "row is not one line: \"%s\"", row);
	CHECK(strncmp(row, name, strlen(name)) == 0, "row does not start with the name");
	for (p = row; *p;) {
		const char *s;
		size_t n;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		for (s = p; *p && !isspace((unsigned char)*p); p++)
			;
		n = (size_t)(p - s);
		if (nfields == 0 && name[0]) {
			CHECK(n == strlen(name) && memcmp(s, name, n) == 0, "first field is not the name");
		} else {
			size_t k = nfields - (name[0] ? 1 : 0), dot;
			char buf[512];
			double v;

			CHECK(k < 22, "more than 22 numbers in \"%s\"", row);
			CHECK(n >= 4 && n < sizeof(buf), "field %zu \"%.*s\"", k, (int)n, s);
			dot = n - 3;
			CHECK(s[dot] == '.' && isdigit((unsigned char)s[dot + 1]) &&
			      isdigit((unsigned char)s[dot + 2]), "field %zu \"%.*s\" is not %%.2f", k,
			      (int)n, s);
			for (size_t i = 0; i < dot; i++)
				CHECK(isdigit((unsigned char)s[i]), "field %zu \"%.*s\"", k, (int)n, s);
			memcpy(buf, s, n);
			buf[n] = '\0';
			v = strtod(buf, NULL);
			CHECK(fabs(v - vals[k]) <= 0.005000001 + 1e-15 * vals[k],
			      "field %zu \"%s\" for %.17g", k, buf, vals[k]);
			if ((int)n > widths[k])
				fits = false;
		}
		nfields++;
	}
	CHECK(nfields == (name[0] ? 23u : 22u), "%zu fields in \"%s\"", nfields, row);
	if (fits)
		CHECK(sb.len - hlen == hdr.len, "row width %zu, header %zu: \"%s\"", sb.len - hlen,
		      hdr.len, row);
	sbuf_free(&sb);
	sbuf_free(&hdr);
}

/* Strict UTF-8 (no overlongs, surrogates or code points above U+10FFFF). */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need, cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07;
		else
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if (i + k >= n || (s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += need + 1;
	}
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void check_json_row(const char *name, const struct iostat_row *r)
{
	static const char head[] = "{\"disk_device\": \"";
	struct sbuf sb = SBUF_INIT, want = SBUF_INIT;
	char decoded[DISKSTATS_NAME_LEN * 2];
	size_t nd = 0;
	const char *p;
	int ret;

	ret = iostat_json_row(&sb, name, r);
	CHECK(ret == 0 && sb.error == 0, "json_row returned %d", ret);
	CHECK(sb.buf && sb.buf[sb.len] == '\0' && strlen(sb.buf) == sb.len,
	      "sbuf not NUL-terminated at its length");
	CHECK(valid_utf8((const unsigned char *)sb.buf, sb.len), "invalid UTF-8 in \"%s\"", sb.buf);
	for (size_t i = 0; i < sb.len; i++)
		CHECK((unsigned char)sb.buf[i] >= 0x20 && sb.buf[i] != 0x7f,
		      "raw control byte 0x%02x in JSON", (unsigned char)sb.buf[i]);
	CHECK(fuzz_starts_with(sb.buf, head), "JSON row starts \"%.20s\"", sb.buf);
	for (p = sb.buf + strlen(head); *p != '"'; p++) {
		char c = *p;

		CHECK(c != '\0', "unterminated JSON string");
		if (c == '\\') {
			p++;
			switch (*p) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case '/': c = '/'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				int h[4];

				for (int k = 0; k < 4; k++) {
					h[k] = hexval(p[1 + k]);
					CHECK(h[k] >= 0, "bad \\u escape");
				}
				CHECK(h[0] == 0 && h[1] == 0, "\\u escape above 0xff for a byte");
				c = (char)(h[2] << 4 | h[3]);
				p += 4;
				break;
			}
			default:
				CHECK(0, "bad escape \\%c", *p);
			}
		}
		CHECK(nd < sizeof(decoded) - 1, "JSON name longer than the device name");
		decoded[nd++] = c;
	}
	decoded[nd] = '\0';
	CHECK(nd == strlen(name) && memcmp(decoded, name, nd) == 0,
	      "name \"%s\" decodes as \"%s\"", name, decoded);
	p++; /* the closing quote */
	sbuf_printf(&want, ", \"r/s\": %.2f, \"w/s\": %.2f, \"d/s\": %.2f, \"f/s\": %.2f, "
		    "\"rkB/s\": %.2f, \"wkB/s\": %.2f, \"dkB/s\": %.2f, "
		    "\"rrqm/s\": %.2f, \"wrqm/s\": %.2f, \"drqm/s\": %.2f, "
		    "\"rrqm\": %.2f, \"wrqm\": %.2f, \"drqm\": %.2f, "
		    "\"r_await\": %.2f, \"w_await\": %.2f, \"d_await\": %.2f, \"f_await\": %.2f, "
		    "\"rareq-sz\": %.2f, \"wareq-sz\": %.2f, \"dareq-sz\": %.2f, "
		    "\"aqu-sz\": %.2f, \"util\": %.2f}",
		    r->r_s, r->w_s, r->d_s, r->f_s, r->rkb_s, r->wkb_s, r->dkb_s,
		    r->rrqm_s, r->wrqm_s, r->drqm_s, r->rrqm_pct, r->wrqm_pct, r->drqm_pct,
		    r->r_await, r->w_await, r->d_await, r->f_await,
		    r->rareq_sz, r->wareq_sz, r->dareq_sz, r->aqu_sz, r->util);
	CHECK(strcmp(p, sbuf_str(&want)) == 0, "JSON tail \"%s\"", p);
	sbuf_free(&sb);
	sbuf_free(&want);
}

static void check_verdict(const struct iostat_row *r, uint64_t h)
{
	static const uint64_t sizes[] = { 1, 512, 4096, 1 << 20, UINT64_MAX };
	static const unsigned kbs[] = { 0, 1, 128, 1280, UINT_MAX };
	static const double rates[] = { -1, 0, 1, 1e9 };
	struct verdict_probe p = { 0 };
	struct verdict_dev d = { "sda", r, kbs[(h >> 8) % 5], (int)((h >> 28) % 3) - 1, 0 };
	struct verdict_expect e;
	struct verdict_hist hist;
	struct verdict v;
	uint64_t chunk = (uint64_t)d.max_sectors_kb * 1024;

	p.size = sizes[h % 5];
	p.asked = rates[(h >> 16) % 4];
	p.write_share = (h >> 24) & 1;
	p.flush = (h >> 25) & 1;
	p.period_ns = r->interval_ns;
	p.done = h >> 40;
	p.p50_ns = h >> 20;
	CHECK(verdict_expect(&p, &d, p.asked, &e) == 0, "verdict_expect failed");
	CHECK(e.pieces == (chunk ? (unsigned)((p.size + chunk - 1) / chunk) : 1) || !chunk ||
	      p.size > UINT64_MAX - chunk, "pieces %u", e.pieces);
	CHECK(!isnan(e.total) && e.total >= 0, "expected total %g", e.total);
	verdict_hist_init(&hist);
	for (int i = 0; i < 4; i++) {
		CHECK(verdict_judge(&hist, &p, &d, 1, &v) == 0, "verdict_judge failed");
		CHECK(v.state <= VERDICT_QUEUE_BUILDING && !isnan(v.achieved) && !isnan(v.dev_ms),
		      "verdict state %d", (int)v.state);
	}
}

/* compute prev -> cur over every interval; format a few of the rows. */
static void fuzz_pair(const struct disk_counters *prev, const struct disk_counters *cur,
		      uint64_t h)
{
	uint64_t extra = h >> 3 ? h >> 3 : 1;

	for (size_t i = 0; i <= N_INTERVALS; i++) {
		uint64_t itv = i < N_INTERVALS ? intervals[i] : extra;
		struct iostat_row row;
		int ret;

		memset(&row, 0x5a, sizeof(row));
		ret = iostat_compute(prev, cur, itv, &row);
		check_row(prev, cur, itv, ret, &row);
		if (ret < 0)
			continue;
		/* formatted: the input-derived interval and one of the fixed ones in turn */
		if (i == N_INTERVALS || i == (h % N_INTERVALS)) {
			check_format_row(cur->name, &row, (h >> 5) & 1);
			check_json_row(cur->name, &row);
		}
		if (i == N_INTERVALS)
			check_verdict(&row, h);
	}
}

struct walk {
	const struct disk_counters *good;
	size_t ngood;   /* entries of good[] */
	size_t calls;
	size_t stop_at; /* return non-zero on this call (1-based), 0 = never */
};

static int walk_cb(const struct disk_counters *c, void *arg)
{
	struct walk *w = arg;

	check_counters(c, true);
	if (w->calls < w->ngood)
		CHECK(same_counters(c, &w->good[w->calls]), "callback %zu out of order", w->calls);
	w->calls++;
	if (w->stop_at && w->calls == w->stop_at)
		return 1000 + (int)w->calls;
	return 0;
}

/* The statistics part of a good line (after the name) through the sysfs parser. */
static void check_sysfs_tail(const char *line, size_t len, const struct disk_counters *c)
{
	struct tok t[3];
	struct disk_counters s;
	const char *tail;
	size_t tlen;
	char *copy;

	CHECK(ref_tokens(line, len, t, 3) >= 3, "good line with fewer than 3 tokens");
	tail = t[2].s + t[2].n;
	tlen = len - (size_t)(tail - line);
	copy = malloc(tlen + 4);
	if (!copy)
		abort();
	memcpy(copy, tail, tlen);
	copy[tlen] = '\0';
	CHECK(diskstats_parse_sysfs_stat(copy, &s) == 0, "sysfs parse of a good line's tail failed");
	check_counters(&s, false);
	CHECK(s.nfields == c->nfields && memcmp(s.v, c->v, sizeof(s.v)) == 0, "sysfs tail differs");
	memcpy(copy + tlen, "\n \n", 4);
	CHECK(diskstats_parse_sysfs_stat(copy, &s) == 0 && s.nfields == c->nfields,
	      "sysfs tail with trailing newlines failed");
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	uint64_t h = fuzz_hash(data, size);
	struct disk_counters good[MAX_GOOD], c, c2, ref;
	size_t ngood = 0, ntotal = 0, nonblank = 0, nbad = 0, nlines = 0;
	const char *p;
	struct walk w;
	int ret;

	/* line by line */
	for (p = text; *p && nlines < MAX_LINES; nlines++) {
		const char *end = strchrnul(p, '\n');
		size_t len = (size_t)(end - p);
		bool is_blank = true;
		char *copy;
		int r1, r2, r3;

		for (const char *q = p; q < end; q++)
			if (!blank(*q))
				is_blank = false;
		nonblank += !is_blank;

		memset(&c, 0x5a, sizeof(c));
		r1 = diskstats_parse_line(p, &c);
		copy = fuzz_strndup((const uint8_t *)p, len);
		memset(&c2, 0x5a, sizeof(c2));
		r2 = diskstats_parse_line(copy, &c2);
		r3 = ref_parse_line(p, len, &ref, true);
		CHECK(r1 == 0 || r1 == -EINVAL, "parse_line returned %d", r1);
		CHECK(r1 == r2 && (r1 || same_counters(&c, &c2)), "line parses differently as a copy");
		CHECK(r1 == r3, "parse_line %d, reference %d on \"%s\"", r1, r3, copy);
		if (r1) {
			CHECK(all_zero(&c, sizeof(c)) && all_zero(&c2, sizeof(c2)),
			      "failed parse left data");
		} else {
			check_counters(&c, true);
			CHECK(same_counters(&c, &ref), "parse_line and reference differ on \"%s\"", copy);
			check_sysfs_tail(p, len, &c);
			if (ngood < MAX_GOOD)
				good[ngood++] = c;
			ntotal++;
		}
		free(copy);
		p = *end ? end + 1 : end;
	}
	if (*p) /* more lines than looked at: the counts below would not match */
		goto out;

	/* the whole text as a sysfs stat file: its first line, nothing but blank lines after */
	memset(&c, 0x5a, sizeof(c));
	ret = diskstats_parse_sysfs_stat(text, &c);
	{
		const char *nl = strchrnul(text, '\n');
		int want = ref_parse_line(text, (size_t)(nl - text), &ref, false);

		if (*nl)
			for (const char *q = nl + 1; *q; q++)
				if (*q != '\n' && !blank(*q))
					want = -EINVAL;
		CHECK(ret == want, "sysfs_stat %d, reference %d", ret, want);
		if (ret)
			CHECK(all_zero(&c, sizeof(c)), "failed sysfs parse left data");
		else
			CHECK(same_counters(&c, &ref), "sysfs_stat differs from the reference");
	}
	if (ret == 0)
		check_counters(&c, false);

	/* foreach: counts, order, early stop */
	w = (struct walk){ good, ngood, 0, 0 };
	ret = diskstats_foreach(text, walk_cb, &w, &nbad);
	CHECK(ret == 0 && w.calls == ntotal, "foreach %d with %zu calls, %zu good lines", ret, w.calls,
	      ntotal);
	CHECK(nbad + ntotal == nonblank, "bad %zu + good %zu != non-blank %zu", nbad, ntotal,
	      nonblank);
	CHECK(diskstats_foreach(text, walk_cb, &w, NULL) == 0, "foreach without nbad");
	if (ntotal) {
		w = (struct walk){ good, ngood, 0, 1 + h % ntotal };
		ret = diskstats_foreach(text, walk_cb, &w, NULL);
		CHECK(ret == 1000 + (int)w.stop_at && w.calls == w.stop_at, "early stop: %d after %zu",
		      ret, w.calls);
	}
	CHECK(diskstats_foreach(text, NULL, NULL, &nbad) == -EINVAL && nbad == 0, "NULL callback");

	/* parse: NULL, short and exact arrays */
	CHECK(diskstats_parse(text, NULL, 0) == (int)ntotal, "parse count");
	CHECK(diskstats_parse(text, NULL, 5) == (int)ntotal, "parse count with NULL out");
	for (size_t cap = ngood < 3 ? ngood : 3;; cap = ngood) {
		struct disk_counters *arr = malloc((cap ? cap : 1) * sizeof(*arr));

		if (!arr)
			abort();
		CHECK(diskstats_parse(text, arr, cap) == (int)ntotal, "parse count with cap %zu", cap);
		for (size_t i = 0; i < cap; i++)
			CHECK(same_counters(&arr[i], &good[i]), "parse entry %zu", i);
		free(arr);
		if (cap == ngood)
			break;
	}

	/* find: the first line with that identity */
	for (size_t i = 0; i < ngood && i < 3; i++) {
		size_t first = i, first_name = i;

		for (size_t j = 0; j < i; j++) {
			if (good[j].major == good[i].major && good[j].minor == good[i].minor &&
			    first == i)
				first = j;
			if (!strcmp(good[j].name, good[i].name) && first_name == i)
				first_name = j;
		}
		CHECK(diskstats_find(text, good[i].major, good[i].minor, &c) == 0 &&
		      same_counters(&c, &good[first]), "find %u:%u", good[i].major, good[i].minor);
		CHECK(diskstats_find_name(text, good[i].name, &c) == 0 &&
		      same_counters(&c, &good[first_name]), "find_name %s", good[i].name);
	}
	if (ntotal == 0)
		CHECK(diskstats_find(text, 8, 0, &c) == -ENOENT &&
		      diskstats_find_name(text, "sda", &c) == -ENOENT, "find in a text without devices");

	/* iostat on pairs of samples */
	for (size_t i = 0; i < ngood; i++) {
		fuzz_pair(NULL, &good[i], h + i);
		fuzz_pair(&good[i], &good[i], h ^ i);
		if (i + 1 < ngood) {
			fuzz_pair(&good[i], &good[i + 1], h + 7 * i);
			fuzz_pair(&good[i + 1], &good[i], h - i);
		}
	}
	{
		/* NULL name and row print "" and zeros */
		struct sbuf sb = SBUF_INIT;
		static const struct iostat_row zero;

		CHECK(iostat_format_row(&sb, NULL, NULL) == 0, "format_row(NULL, NULL)");
		CHECK(sb.buf && strlen(sb.buf) == sb.len, "format_row(NULL, NULL) length");
		sbuf_free(&sb);
		check_format_row("", &zero, false);
	}
out:
	free(text);
	return 0;
}
