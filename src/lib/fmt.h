/*
 * fmt: ioping 1.3's human number format, used in every human-readable field.
 * Pure: no I/O.
 *
 * Units are tried largest first; the first whose multiplier is <= value wins
 * (values below every multiplier use the smallest unit). Then 0 decimals when
 * value is an exact multiple of the unit, 1 decimal when value >= 10 units,
 * else 2 decimals; printed as "%.*f <unit>" ("%.*f" alone for FMT_INT below
 * 1000). Examples: "4 KiB", "252.0 GiB", "100.2 us", "5.68 us", "546 ns",
 * "0 ns", "1.50 min", "4.00 k", "55.7 k", "12", "1000.0 us" (999960 ns).
 */
#ifndef IOPROBE_FMT_H
#define IOPROBE_FMT_H

#include <stddef.h>
#include <stdint.h>

enum fmt_kind {
	FMT_TIME, /* ns -> hour min s ms us ns */
	FMT_SIZE, /* bytes -> PiB TiB GiB MiB KiB B */
	FMT_INT,  /* count -> T G M k (none) */
};

/* Enough for any uint64_t in any kind, with its unit and NUL. */
#define FMT_BUFSZ 40

/* Format value into buf (at least FMT_BUFSZ bytes is always enough); returns buf. */
char *fmt_value(char *buf, size_t len, uint64_t value, enum fmt_kind kind);

/*
 * Truncate a double to uint64_t the way ioping does before formatting
 * (NaN and negatives give 0, huge values saturate).
 */
uint64_t fmt_trunc(double value);

#endif
