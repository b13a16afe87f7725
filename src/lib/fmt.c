#include "config.h"

#include "fmt.h"

#include <stdio.h>

struct fmt_unit {
	const char *name;
	uint64_t mult;
};

/* Each table is ordered largest first and ends with its multiplier-1 unit. */
static const struct fmt_unit fmt_time_units[] = {
	{ "hour", 3600000000000ULL },
	{ "min", 60000000000ULL },
	{ "s", 1000000000ULL },
	{ "ms", 1000000ULL },
	{ "us", 1000ULL },
	{ "ns", 1ULL },
	{ NULL, 0 },
};

static const struct fmt_unit fmt_size_units[] = {
	{ "PiB", 1ULL << 50 },
	{ "TiB", 1ULL << 40 },
	{ "GiB", 1ULL << 30 },
	{ "MiB", 1ULL << 20 },
	{ "KiB", 1ULL << 10 },
	{ "B", 1ULL },
	{ NULL, 0 },
};

static const struct fmt_unit fmt_int_units[] = {
	{ "T", 1000000000000ULL },
	{ "G", 1000000000ULL },
	{ "M", 1000000ULL },
	{ "k", 1000ULL },
	{ "", 1ULL },
	{ NULL, 0 },
};

static const struct fmt_unit *fmt_table(enum fmt_kind kind)
{
	switch (kind) {
	case FMT_TIME:
		return fmt_time_units;
	case FMT_SIZE:
		return fmt_size_units;
	case FMT_INT:
		break;
	}
	return fmt_int_units;
}

/* The largest unit whose multiplier is <= value, or the smallest unit. */
static const struct fmt_unit *fmt_pick(const struct fmt_unit *u, uint64_t value)
{
	while (u[1].name && u->mult > value)
		u++;
	return u;
}

/* 0 decimals for an exact multiple, 1 from 10 units up, else 2. */
static int fmt_precision(uint64_t value, uint64_t mult)
{
	if (value % mult == 0)
		return 0;
	if (value >= 10 * mult)
		return 1;
	return 2;
}

/* Format value as "%.*f <unit>" (no unit and no space for small FMT_INT). */
char *fmt_value(char *buf, size_t len, uint64_t value, enum fmt_kind kind)
{
	const struct fmt_unit *u = fmt_pick(fmt_table(kind), value);
	int prec = fmt_precision(value, u->mult);
	double v = (double)value / (double)u->mult;

	if (u->name[0])
		snprintf(buf, len, "%.*f %s", prec, v, u->name);
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* Double to uint64_t, truncating: NaN and values <= 0 give 0, >= 2^64 saturate. */
uint64_t fmt_trunc(double value)
{
	if (!(value > 0.0))
		return 0;
	if (value >= 0x1p64)
		return UINT64_MAX;
	return (uint64_t)value;
}
