#include "config.h"

#include "suffix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/*
 * Grammar (measured against ioping 1.3, see tests/test_suffix.c):
 *
 *   arg    := [num] ['/' den] suffix
 *   num    := anything strtod() accepts (leading blanks, sign, hex, inf, nan);
 *             missing means 0, or 1 when the next character is '/'
 *   den    := strtod() after the '/'; a zero (or missing) den is -EDOM,
 *             checked before the suffix
 *   suffix := the whole rest of the string, compared case-insensitively
 *             with one table entry (trailing blanks are part of it)
 *
 * The value is (num / den) * multiplier, computed in double, range-checked as
 * a double (negative, NaN or > max is -ERANGE), then truncated toward zero.
 * Unlike ioping 1.3, NaN and an exact 2^63 against a LONG_MAX limit are
 * rejected (ioping lets both through and converts them to garbage).
 * strtod() follows LC_NUMERIC: like ioping, the program must stay in the C
 * locale for numbers, or "1.5" stops parsing.
 */

struct suffix_unit {
	const char *name;
	double mult;
};

/* Time: result in nanoseconds, a bare number is seconds. There is no "d". */
static const struct suffix_unit suffix_time_units[] = {
	{ "", 1e9 },
	{ "ns", 1.0 },
	{ "nsec", 1.0 },
	{ "us", 1e3 },
	{ "usec", 1e3 },
	{ "ms", 1e6 },
	{ "msec", 1e6 },
	{ "s", 1e9 },
	{ "sec", 1e9 },
	{ "m", 60e9 },
	{ "min", 60e9 },
	{ "h", 3600e9 },
	{ "hour", 3600e9 },
	{ NULL, 0.0 },
};

/*
 * Size: bytes, binary multipliers for every spelling. ioping 1.3 has no bare
 * "p" or "e" and no "eib" (all three are invalid suffixes there).
 */
static const struct suffix_unit suffix_size_units[] = {
	{ "", 1.0 },
	{ "b", 1.0 },
	{ "k", 0x1p10 },
	{ "kb", 0x1p10 },
	{ "kib", 0x1p10 },
	{ "m", 0x1p20 },
	{ "mb", 0x1p20 },
	{ "mib", 0x1p20 },
	{ "g", 0x1p30 },
	{ "gb", 0x1p30 },
	{ "gib", 0x1p30 },
	{ "t", 0x1p40 },
	{ "tb", 0x1p40 },
	{ "tib", 0x1p40 },
	{ "pb", 0x1p50 },
	{ "pib", 0x1p50 },
	{ "eb", 0x1p60 },
	{ "sector", 512.0 },
	{ "page", 4096.0 },
	{ NULL, 0.0 },
};

/* Number: decimal multipliers ("m" and "M" are the same: mega). */
static const struct suffix_unit suffix_number_units[] = {
	{ "", 1.0 },
	{ "da", 10.0 },
	{ "k", 1e3 },
	{ "m", 1e6 },
	{ "g", 1e9 },
	{ "t", 1e12 },
	{ "p", 1e15 },
	{ "e", 1e18 },
	{ NULL, 0.0 },
};

/* Set msg to "" when there is room for it; used on success. */
static void suffix_clear_msg(char *msg, size_t msglen)
{
	if (msglen)
		msg[0] = '\0';
}

/* The table entry equal to s ignoring case, or NULL if there is none. */
static const struct suffix_unit *suffix_lookup(const struct suffix_unit *table, const char *s)
{
	for (; table->name; table++)
		if (!strcasecmp(s, table->name))
			return table;
	return NULL;
}

/*
 * Parse arg with the given table into a double, not range-checked yet.
 * Returns 0, -EDOM or -EINVAL (with the message written).
 */
static int suffix_parse_double(const char *arg, const struct suffix_unit *table, double *val,
			       char *msg, size_t msglen)
{
	const struct suffix_unit *unit;
	char *end;
	double num, den;

	num = strtod(arg, &end);
	if (*end == '/') {
		if (end == arg)
			num = 1.0;
		den = strtod(end + 1, &end);
		if (den == 0.0) {
			snprintf(msg, msglen, "division by zero in parsing argument: %s", arg);
			return -EDOM;
		}
		num /= den;
	}
	unit = suffix_lookup(table, end);
	if (!unit) {
		snprintf(msg, msglen, "invalid suffix: \"%s\"", end);
		return -EINVAL;
	}
	*val = num * unit->mult;
	return 0;
}

/* Write the out-of-range message for arg; returns -ERANGE. */
static int suffix_overflow(const char *arg, char *msg, size_t msglen)
{
	snprintf(msg, msglen, "integer overflow at parsing argument: %s", arg);
	return -ERANGE;
}

/*
 * Parse arg with table and check 0 <= value <= max, then truncate toward zero.
 * The comparisons are done on doubles before any conversion, so NaN, infinities
 * and values beyond 2^64 never reach the (otherwise undefined) cast; the second
 * check catches max values that round up when converted to double (LONG_MAX).
 */
static int suffix_parse_uint(const char *arg, const struct suffix_unit *table, uint64_t max,
			     uint64_t *out, char *msg, size_t msglen)
{
	double v;
	uint64_t u;
	int ret;

	ret = suffix_parse_double(arg, table, &v, msg, msglen);
	if (ret)
		return ret;
	if (v < 0.0 || !(v <= (double)max) || v >= 0x1p64)
		return suffix_overflow(arg, msg, msglen);
	u = (uint64_t)v;
	if (u > max)
		return suffix_overflow(arg, msg, msglen);
	*out = u;
	suffix_clear_msg(msg, msglen);
	return 0;
}

/* Duration in ns: bare number = seconds; ns us ms s m h (and long forms). */
int suffix_parse_time(const char *arg, uint64_t max_ns, uint64_t *ns, char *msg, size_t msglen)
{
	return suffix_parse_uint(arg, suffix_time_units, max_ns, ns, msg, msglen);
}

/* Size in bytes: binary k/m/g/t/pb/eb with b/ib spellings, sector, page. */
int suffix_parse_size(const char *arg, uint64_t max, uint64_t *bytes, char *msg, size_t msglen)
{
	return suffix_parse_uint(arg, suffix_size_units, max, bytes, msg, msglen);
}

/* Count with decimal suffixes da k m g t p e. */
int suffix_parse_number(const char *arg, uint64_t max, uint64_t *n, char *msg, size_t msglen)
{
	return suffix_parse_uint(arg, suffix_number_units, max, n, msg, msglen);
}

/* Rate with decimal suffixes; the fraction is kept, -0 is stored as +0. */
int suffix_parse_rate(const char *arg, double max, double *rate, char *msg, size_t msglen)
{
	double v;
	int ret;

	ret = suffix_parse_double(arg, suffix_number_units, &v, msg, msglen);
	if (ret)
		return ret;
	if (v < 0.0 || !(v <= max))
		return suffix_overflow(arg, msg, msglen);
	*rate = v + 0.0;
	suffix_clear_msg(msg, msglen);
	return 0;
}

bool suffix_size_wraps(const char *arg)
{
	double v;

	if (suffix_parse_double(arg, suffix_size_units, &v, NULL, 0))
		return false;
	return isnan(v) || v == 0x1p63;
}
