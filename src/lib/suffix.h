/*
 * suffix: command-line number parsing with ioping 1.3's syntax and suffix
 * tables. Pure: no I/O, no globals.
 *
 * A value is a strtod() number, optionally a ratio "A/B" (an empty A means 1:
 * "/100"), followed by a unit suffix matched case-insensitively:
 *   time   (result in ns; no suffix = seconds): ns nsec us usec ms msec s sec m min h hour
 *   size   (bytes; binary): "" b k kb kib m mb mib g gb gib t tb tib pb pib eb
 *          sector (512) page (4096)   (bare p, bare e and eib are not units, as in ioping)
 *   number (decimal): "" da k M/m G T P E
 * Every function returns 0 and stores the value, or returns a negative errno
 * and writes ioping's message (without the "ioprobe: " prefix) into msg:
 *   -EINVAL  `invalid suffix: "x"`
 *   -EDOM    `division by zero in parsing argument: 1/0`
 *   -ERANGE  `integer overflow at parsing argument: -4k`  (negative, NaN or > max)
 * msg may be NULL when msglen is 0. The result is truncated toward zero.
 * Two deliberate differences from ioping: "nan" is -ERANGE (ioping runs with
 * garbage) and 2^63 is out of range for a LONG_MAX limit (ioping wraps it).
 */
#ifndef IOPROBE_SUFFIX_H
#define IOPROBE_SUFFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parse a duration into nanoseconds; values above max_ns are -ERANGE. */
int suffix_parse_time(const char *arg, uint64_t max_ns, uint64_t *ns, char *msg, size_t msglen);

/* Parse a size into bytes; values above max are -ERANGE. */
int suffix_parse_size(const char *arg, uint64_t max, uint64_t *bytes, char *msg, size_t msglen);

/* Parse a count (decimal suffixes); values above max are -ERANGE. */
int suffix_parse_number(const char *arg, uint64_t max, uint64_t *n, char *msg, size_t msglen);

/* Parse a rate (decimal suffixes, fractional result kept); above max is -ERANGE. */
int suffix_parse_rate(const char *arg, double max, double *rate, char *msg, size_t msglen);

/*
 * Is arg a size that ioping 1.3 accepts and then wraps to a negative value
 * (NaN, or exactly 2^63 such as 8eb or 9223372036854775807)? suffix_parse_size
 * rejects those with -ERANGE; for -s ioping says "request size must be
 * greater than zero" instead, and opts uses this to say the same.
 */
bool suffix_size_wraps(const char *arg);

#endif
