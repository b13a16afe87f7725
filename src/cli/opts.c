#include "config.h"

#include "opts.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "msg.h"
#include "suffix.h"
#include "common.h"

enum arg_kind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

/* The ids of the options without a letter: past every letter, so one switch takes all. */
enum opt_long_id {
	OPT_ENGINE = 256, OPT_NO_COLOR, OPT_ASCII, OPT_JSON_LINES, OPT_RAW_PERCENTILES,
	OPT_IOSTAT, OPT_FIO_JOB, OPT_SWEEP, OPT_RESPONSE, OPT_LISTEN, OPT_WEB_CONFIG, OPT_PROMETHEUS,
	OPT_PROMETHEUS_PERIOD, OPT_INFLUX, OPT_CHECK, OPT_CHECK_IOPS, OPT_CHECK_TIMEOUT,
	OPT_QUALIFY, OPT_BEST_AQU, OPT_LIMIT_AQU, OPT_YES, OPT_NAME, OPT_PERCENTILES,
	OPT_RECORD, OPT_RECORD_REQUESTS, OPT_REPLAY, OPT_REPORT, OPT_LAYERS, OPT_NO_LAYERS,
	OPT_ARRIVALS,
};

struct opt_def {
	const char *name;  /* long name */
	char letter;       /* short letter, or 0 */
	enum arg_kind arg;
	bool ioping;       /* one of ioping 1.3's options (see opt_min_prefix) */
	int long_id;       /* without a letter: its enum opt_long_id */
};

/* ioping 1.3's long options first, in its order (ambiguity messages list them so). */
static const struct opt_def opt_table[] = {
	{ "help", 'h', ARG_NONE, true, 0 },
	{ "version", 'v', ARG_NONE, true, 0 },
	{ "keep", 'k', ARG_NONE, true, 0 },
	{ "quiet", 'q', ARG_NONE, true, 0 },
	{ "batch", 'B', ARG_NONE, true, 0 },
	{ "time", 'I', ARG_OPTIONAL, true, 0 },
	{ "json", 'J', ARG_NONE, true, 0 },
	{ "rapid", 'R', ARG_NONE, true, 0 },
	{ "linear", 'L', ARG_NONE, true, 0 },
	{ "direct", 'D', ARG_NONE, true, 0 },
	{ "cached", 'C', ARG_NONE, true, 0 },
	{ "nowait", 'N', ARG_NONE, true, 0 },
	{ "hipri", 'H', ARG_NONE, true, 0 },
	{ "sync", 'Y', ARG_NONE, true, 0 },
	{ "dsync", 'y', ARG_NONE, true, 0 },
	{ "async", 'A', ARG_NONE, true, 0 },
	{ "write", 'W', ARG_NONE, true, 0 },
	{ "read-write", 'G', ARG_NONE, true, 0 },
	{ "size", 's', ARG_REQUIRED, true, 0 },
	{ "work-size", 'S', ARG_REQUIRED, true, 0 },
	{ "work-offset", 'o', ARG_REQUIRED, true, 0 },
	{ "count", 'c', ARG_REQUIRED, true, 0 },
	{ "work-time", 'w', ARG_REQUIRED, true, 0 },
	{ "interval", 'i', ARG_REQUIRED, true, 0 },
	{ "burst", 'b', ARG_REQUIRED, true, 0 },
	{ "speed-limit", 'l', ARG_REQUIRED, true, 0 },
	{ "rate-limit", 'r', ARG_REQUIRED, true, 0 },
	{ "warmup", 'a', ARG_REQUIRED, true, 0 },
	{ "min-time", 't', ARG_REQUIRED, true, 0 },
	{ "max-time", 'T', ARG_REQUIRED, true, 0 },
	{ "print-count", 'p', ARG_REQUIRED, true, 0 },
	{ "print-interval", 'P', ARG_REQUIRED, true, 0 },
	{ "entropy", 'e', ARG_REQUIRED, true, 0 },
	/* ioping HEAD and ioprobe's own */
	{ "uring", 'U', ARG_NONE, false, 0 },
	{ "ignore-error", 'E', ARG_NONE, false, 0 },
	{ "engine", 0, ARG_REQUIRED, false, OPT_ENGINE },
	{ "tui", 'X', ARG_NONE, false, 0 },
	{ "no-color", 0, ARG_NONE, false, OPT_NO_COLOR },
	{ "ascii", 0, ARG_NONE, false, OPT_ASCII },
	{ "json-lines", 0, ARG_NONE, false, OPT_JSON_LINES },
	{ "raw-percentiles", 0, ARG_NONE, false, OPT_RAW_PERCENTILES },
	{ "iostat", 0, ARG_OPTIONAL, false, OPT_IOSTAT },
	{ "fio-job", 0, ARG_OPTIONAL, false, OPT_FIO_JOB },
	{ "sweep", 0, ARG_OPTIONAL, false, OPT_SWEEP },
	{ "depth", 'Q', ARG_REQUIRED, false, 0 },
	{ "response", 0, ARG_NONE, false, OPT_RESPONSE },
	{ "arrivals", 0, ARG_REQUIRED, false, OPT_ARRIVALS },
	{ "layers", 0, ARG_NONE, false, OPT_LAYERS },
	{ "no-layers", 0, ARG_NONE, false, OPT_NO_LAYERS },
	{ "listen", 0, ARG_REQUIRED, false, OPT_LISTEN },
	{ "web-config", 0, ARG_REQUIRED, false, OPT_WEB_CONFIG },
	{ "prometheus", 0, ARG_REQUIRED, false, OPT_PROMETHEUS },
	{ "prometheus-period", 0, ARG_REQUIRED, false, OPT_PROMETHEUS_PERIOD },
	{ "influx", 0, ARG_NONE, false, OPT_INFLUX },
	{ "check", 0, ARG_REQUIRED, false, OPT_CHECK },
	{ "check-iops", 0, ARG_REQUIRED, false, OPT_CHECK_IOPS },
	{ "check-timeout", 0, ARG_REQUIRED, false, OPT_CHECK_TIMEOUT },
	{ "qualify", 0, ARG_REQUIRED, false, OPT_QUALIFY },
	{ "best-aqu", 0, ARG_REQUIRED, false, OPT_BEST_AQU },
	{ "limit-aqu", 0, ARG_REQUIRED, false, OPT_LIMIT_AQU },
	{ "yes", 0, ARG_NONE, false, OPT_YES },
	{ "name", 0, ARG_REQUIRED, false, OPT_NAME },
	{ "percentiles", 0, ARG_REQUIRED, false, OPT_PERCENTILES },
	{ "record", 0, ARG_REQUIRED, false, OPT_RECORD },
	{ "record-requests", 0, ARG_NONE, false, OPT_RECORD_REQUESTS },
	{ "replay", 0, ARG_REQUIRED, false, OPT_REPLAY },
	{ "report", 0, ARG_REQUIRED, false, OPT_REPORT },
};

#define OPT_COUNT ARRAY_SIZE(opt_table)

/* Only after two dashes: after one it is a bundle ioping 1.3 reads (-yes is -y -e s). */
static bool opt_two_dashes_only(const struct opt_def *d)
{
	return d->long_id == OPT_YES;
}

/* Limits of ioping 1.3's argument kinds. */
#define LIMIT_NUMBER ((uint64_t)INT_MAX)
#define LIMIT_SIZE ((uint64_t)LONG_MAX)
#define LIMIT_TIME ((uint64_t)LLONG_MAX)
#define LIMIT_RATE 1e9

void opts_defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->action = OPTS_RUN;
	o->warmup = 1;
	o->depth = 1;
	o->interval = 1000000000ull;
	o->max_time = UINT64_MAX;
	o->fio_job_window = OPTS_FIO_JOB_WINDOW;
	o->prometheus_period = 10000000000ull;
	o->best_aqu = 1.0;
	o->limit_aqu = 4.0;
	o->pcts = pcts_default;
}

/* --percentiles P,...: 1 to PCTS_MAX numbers in (0, 100], each once. 0 or -1 with msg. */
static int parse_pcts(const char *arg, struct pcts *out, char *msg, size_t msglen)
{
	const char *s = arg;

	out->n = 0;
	for (;;) {
		char *end;
		double p;

		errno = 0;
		p = strtod(s, &end);
		if (end == s || errno || !(p > 0 && p <= 100) || (*end && *end != ',')) {
			err_set(msg, msglen, 0, "--percentiles takes numbers above 0 and up to 100, "
				"comma-separated (50,95,99.9): \"%s\"", arg);
			return -1;
		}
		for (unsigned i = 0; i < out->n; i++)
			if (out->p[i] == p) {
				err_set(msg, msglen, 0, "--percentiles: %g twice: \"%s\"", p, arg);
				return -1;
			}
		if (out->n == PCTS_MAX) {
			err_set(msg, msglen, 0, "--percentiles: at most %d: \"%s\"", PCTS_MAX, arg);
			return -1;
		}
		out->p[out->n++] = p;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static const struct opt_def *opt_by_letter(char c)
{
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (opt_table[i].letter && opt_table[i].letter == c)
			return &opt_table[i];
	return NULL;
}

/* Length of the common prefix of a and b. */
static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/*
 * The shortest prefix of d's name that names d. ioping 1.3's options take
 * any unique prefix. An option ioping 1.3 lacks needs a prefix that is no
 * ioping option's prefix, so it never captures a spelling ioping reads
 * otherwise; after one dash, one letter more when ioping would read the
 * first letter as a short option that takes the rest as its argument (-ig is
 * -i g, -ign is -ignore-error), and never a single letter (-u is an unknown
 * option, as in ioping 1.3).
 */
static size_t opt_min_prefix(const struct opt_def *d, bool two_dashes)
{
	const struct opt_def *short_opt = opt_by_letter(d->name[0]);
	size_t len = 1, full = strlen(d->name);

	if (d->ioping)
		return 0;
	for (size_t i = 0; i < OPT_COUNT; i++) {
		size_t n = common_prefix(d->name, opt_table[i].name);

		if (opt_table[i].ioping && n + 1 > len)
			len = n + 1;
	}
	if (!two_dashes) {
		if (short_opt && short_opt->ioping && short_opt->arg != ARG_NONE)
			len++;
		if (len < 2)
			len = 2;
	}
	return len < full ? len : full;
}

/* Does name (len bytes) name d, exactly or as a long enough prefix? */
static bool opt_matches(const struct opt_def *d, const char *name, size_t len, bool two_dashes)
{
	if (opt_two_dashes_only(d) && !two_dashes)
		return false;
	return !strncmp(d->name, name, len) && len >= opt_min_prefix(d, two_dashes);
}

/*
 * Look up a long name (len bytes of name). Returns the option, or NULL with
 * *ambiguous set when several match a prefix.
 */
static const struct opt_def *opt_by_name(const char *name, size_t len, bool two_dashes,
					 bool *ambiguous)
{
	const struct opt_def *hit = NULL;
	unsigned hits = 0;

	*ambiguous = false;
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *d = &opt_table[i];

		if (strncmp(d->name, name, len) || (opt_two_dashes_only(d) && !two_dashes))
			continue;
		if (strlen(d->name) == len)
			return d;
		if (!opt_matches(d, name, len, two_dashes))
			continue;
		hit = d;
		hits++;
	}
	*ambiguous = hits > 1;
	return hits == 1 ? hit : NULL;
}

static void msg_ambiguous(char *msg, size_t msglen, const char *dashes, const char *name,
			  size_t len)
{
	bool two = dashes[1] == '-';

	size_t used;

	if (!msglen)
		return;
	/* glibc quotes the whole word after the dashes, "=value" included */
	err_set(msg, msglen, 0, "option '%s%s' is ambiguous; possibilities:", dashes, name);
	for (size_t i = 0; i < OPT_COUNT; i++) {
		if (!opt_matches(&opt_table[i], name, len, two))
			continue;
		used = strlen(msg);
		if (used + 1 < msglen)
			err_set(msg + used, msglen - used, 0, " '%s%s'", dashes, opt_table[i].name);
	}
}

static int parse_number(const char *arg, uint64_t *out, char *msg, size_t msglen)
{
	return suffix_parse_number(arg, LIMIT_NUMBER, out, msg, msglen);
}

static int parse_size(const char *arg, uint64_t *out, char *msg, size_t msglen)
{
	return suffix_parse_size(arg, LIMIT_SIZE, out, msg, msglen);
}

static int parse_time(const char *arg, uint64_t *out, char *msg, size_t msglen)
{
	return suffix_parse_time(arg, LIMIT_TIME, out, msg, msglen);
}

/*
 * Split "WARN,CRIT" into first (a copy of WARN) and *second (CRIT, inside
 * arg). Returns 0 or -EINVAL with msg filled.
 */
static int split_pair(const char *opt, const char *arg, char *first, size_t len,
		      const char **second, char *msg, size_t msglen)
{
	const char *comma = strchr(arg, ',');

	if (!comma || comma == arg || !comma[1] || (size_t)(comma - arg) >= len) {
		err_set(msg, msglen, 0, "%s takes WARN,CRIT: \"%s\"", opt, arg);
		return -EINVAL;
	}
	memcpy(first, arg, (size_t)(comma - arg));
	first[comma - arg] = '\0';
	*second = comma + 1;
	return 0;
}

/* One end of a --check range: a time with its unit ("10ms": a bare number would be seconds,
 * which a latency threshold almost never means) in ns, or a rate. 0 or -EINVAL. */
static int parse_check_value(const char *opt, const char *s, bool time, double *v, char *msg,
			     size_t msglen)
{
	size_t n = strlen(s);
	uint64_t ns;

	if (!time)
		return suffix_parse_rate(s, LIMIT_RATE, v, msg, msglen);
	if (n && isdigit((unsigned char)s[n - 1])) {
		err_set(msg, msglen, 0, "%s takes times with a unit (10ms,50ms): \"%s\"", opt, s);
		return -EINVAL;
	}
	if (parse_time(s, &ns, msg, msglen))
		return -EINVAL;
	*v = (double)ns;
	return 0;
}

/*
 * A threshold in the monitoring-plugins guidelines' range syntax: "[@]lo:hi", "lo:", "~:hi"
 * or a plain value — above it for a time (0:value), below it for a rate (value:, what
 * --check-iops always meant). 0 or -EINVAL with msg filled.
 */
static int parse_check_range(const char *opt, const char *s, bool time, struct check_range *r,
			     char *msg, size_t msglen)
{
	char lo[64];
	const char *colon;

	r->inside = *s == '@';
	s += r->inside;
	colon = strchr(s, ':');
	r->lo = 0;
	r->hi = INFINITY;
	if (!colon) {
		if (!*s)
			goto bad;
		return parse_check_value(opt, s, time, time ? &r->hi : &r->lo, msg, msglen);
	}
	if ((size_t)(colon - s) >= sizeof(lo))
		goto bad;
	memcpy(lo, s, (size_t)(colon - s));
	lo[colon - s] = '\0';
	if (!*lo)
		goto bad;
	if (!strcmp(lo, "~"))
		r->lo = -INFINITY;
	else if (parse_check_value(opt, lo, time, &r->lo, msg, msglen))
		return -EINVAL;
	if (colon[1] && parse_check_value(opt, colon + 1, time, &r->hi, msg, msglen))
		return -EINVAL;
	if (r->lo > r->hi)
		goto bad;
	return 0;
bad:
	err_set(msg, msglen, 0, "%s: \"%s\" is not a threshold or range ([@]lo:hi, lo:, ~:hi)",
		opt, s - r->inside);
	return -EINVAL;
}

/*
 * -s A,B,... (a list: a sweep across sizes): each a size above 0. Returns 0 or -EINVAL with
 * msg filled; a word without a comma leaves the list empty (one size).
 */
static int parse_size_list(struct opts *o, const char *arg, char *msg, size_t msglen)
{
	const char *s = arg;

	o->nsizes = 0;
	if (!strchr(arg, ','))
		return parse_size(arg, &o->size, msg, msglen);
	while (*s) {
		size_t len = strcspn(s, ",");
		char word[64];

		if (!len || len >= sizeof(word) || (s[len] == ',' && !s[len + 1]))
			return err_set(msg, msglen, -EINVAL, "-s: bad size list \"%s\"", arg);
		if (o->nsizes == OPTS_LIST_MAX)
			return err_set(msg, msglen, -EINVAL, "-s: at most %d sizes", OPTS_LIST_MAX);
		memcpy(word, s, len);
		word[len] = '\0';
		if (parse_size(word, &o->sizes[o->nsizes], msg, msglen))
			return -EINVAL;
		if (!o->sizes[o->nsizes])
			return err_set(msg, msglen, -EINVAL, "-s: a size must be above 0 (\"%s\")",
				       word);
		o->nsizes++;
		s += len + (s[len] == ',');
	}
	o->size = o->sizes[0];
	return 0;
}

/* One depth of -Q: a whole number from 1 to OPTS_DEPTH_MAX ("1.5" is refused, not cut to 1). */
static int parse_depth(const char *word, uint64_t *d, char *msg, size_t msglen)
{
	char tmsg[128];
	double v;

	if (parse_number(word, d, msg, msglen))
		return -EINVAL;
	if (!suffix_parse_rate(word, 1e300, &v, tmsg, sizeof(tmsg)) && v != floor(v))
		return err_set(msg, msglen, -EINVAL, "-Q: the queue depth is a whole number of "
			       "requests: \"%s\"", word);
	if (*d < 1 || *d > OPTS_DEPTH_MAX)
		return err_set(msg, msglen, -EINVAL, "-Q: the queue depth must be 1 to %u",
			       OPTS_DEPTH_MAX);
	return 0;
}

/* --arrivals fixed|poisson into *poisson. Returns 0 or -EINVAL with msg filled. */
static int parse_arrivals(const char *arg, bool *poisson, char *msg, size_t msglen)
{
	if (!strcmp(arg, "fixed") || !strcmp(arg, "poisson")) {
		*poisson = arg[0] == 'p';
		return 0;
	}
	return err_set(msg, msglen, -EINVAL, "--arrivals: fixed or poisson, not \"%s\"", arg);
}

/* -Q N, -Q A,B,... (a sweep across depths) or -Q auto. Returns 0 or -EINVAL with msg filled. */
static int parse_depth_list(struct opts *o, const char *arg, char *msg, size_t msglen)
{
	const char *s = arg;

	o->ndepths = 0;
	o->depth_auto = false;
	o->depth_set = true;
	if (!strcmp(arg, "auto")) {
		o->depth_auto = true;
		o->depth = 1;
		return 0;
	}
	if (!strchr(arg, ','))
		return parse_depth(arg, &o->depth, msg, msglen);
	while (*s) {
		size_t len = strcspn(s, ",");
		uint64_t d;
		char word[64];

		if (!len || len >= sizeof(word) || (s[len] == ',' && !s[len + 1]))
			return err_set(msg, msglen, -EINVAL, "-Q: bad depth list \"%s\"", arg);
		if (o->ndepths == OPTS_LIST_MAX)
			return err_set(msg, msglen, -EINVAL, "-Q: at most %d depths", OPTS_LIST_MAX);
		memcpy(word, s, len);
		word[len] = '\0';
		if (parse_depth(word, &d, msg, msglen))
			return -EINVAL;
		if (!o->ndepths)
			o->depth = d;
		o->depths[o->ndepths++] = (unsigned)d;
		s += len + (s[len] == ',');
	}
	return 0;
}

/* --best-aqu, --limit-aqu: a number above 0 (aqu-sz). Returns 0 or -EINVAL with msg filled. */
static int parse_aqu(const char *opt, const char *arg, double *v, char *msg, size_t msglen)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(*v) || !(*v > 0) || *v > OPTS_DEPTH_MAX)
		return err_set(msg, msglen, -EINVAL, "%s takes an aqu-sz above 0 (such as 1 or "
			       "2.5): \"%s\"", opt, arg);
	return 0;
}

/* The fleet options (--listen, --prometheus, --influx, --check...). Returns 0 or non-zero. */
static int opt_apply_fleet(struct opts *o, int id, const char *arg, char *msg, size_t msglen)
{
	char first[64];
	const char *second;

	switch (id) {
	case OPT_LISTEN:
		o->listen = arg;
		break;
	case OPT_WEB_CONFIG:
		o->web_config = arg;
		break;
	case OPT_PROMETHEUS:
		o->prometheus = arg;
		break;
	case OPT_PROMETHEUS_PERIOD:
		if (parse_time(arg, &o->prometheus_period, msg, msglen))
			return -EINVAL;
		if (o->prometheus_period < 100000000ull) {
			err_set(msg, msglen, 0, "--prometheus-period must be at least 100ms: \"%s\"", arg);
			return -EINVAL;
		}
		break;
	case OPT_INFLUX:
		o->influx = true;
		o->quiet = true;
		break;
	case OPT_CHECK:
		if (split_pair("--check", arg, first, sizeof(first), &second, msg, msglen) ||
		    parse_check_range("--check", first, true, &o->check_warn, msg, msglen) ||
		    parse_check_range("--check", second, true, &o->check_crit, msg, msglen))
			return -EINVAL;
		if (!strpbrk(arg, ":@") && o->check_warn.hi > o->check_crit.hi) { /* plain ones */
			err_set(msg, msglen, 0, "--check: WARN above CRIT: \"%s\"", arg);
			return -EINVAL;
		}
		o->check = true;
		o->quiet = true;
		break;
	case OPT_CHECK_IOPS:
		if (split_pair("--check-iops", arg, first, sizeof(first), &second, msg, msglen) ||
		    parse_check_range("--check-iops", first, false, &o->check_iops_warn, msg,
				      msglen) ||
		    parse_check_range("--check-iops", second, false, &o->check_iops_crit, msg,
				      msglen))
			return -EINVAL;
		/* plain ones alert below them: WARN must not be below CRIT */
		if (!strpbrk(arg, ":@") && o->check_iops_warn.lo < o->check_iops_crit.lo) {
			err_set(msg, msglen, 0, "--check-iops: WARN below CRIT (iops alerts below "
				"them): \"%s\"", arg);
			return -EINVAL;
		}
		o->check_iops = true;
		break;
	case OPT_CHECK_TIMEOUT:
		if (parse_time(arg, &o->check_timeout, msg, msglen))
			return -EINVAL;
		if (!o->check_timeout) {
			err_set(msg, msglen, 0, "--check-timeout must be above 0: \"%s\"", arg);
			return -EINVAL;
		}
		break;
	}
	return 0;
}

/* The options that only set a flag of struct opts. */
static const struct opt_flag {
	int id;     /* the letter, or the long option's OPT_* */
	size_t off; /* its bool in struct opts */
} opt_flags[] = {
	{ 'k', offsetof(struct opts, keep) }, { 'q', offsetof(struct opts, quiet) },
	{ 'L', offsetof(struct opts, linear) }, { 'D', offsetof(struct opts, direct) },
	{ 'C', offsetof(struct opts, cached) }, { 'N', offsetof(struct opts, nowait) },
	{ 'H', offsetof(struct opts, hipri) }, { 'Y', offsetof(struct opts, sync) },
	{ 'y', offsetof(struct opts, dsync) }, { 'E', offsetof(struct opts, ignore_error) },
	{ 'X', offsetof(struct opts, tui) }, { OPT_YES, offsetof(struct opts, yes) },
	{ OPT_NO_COLOR, offsetof(struct opts, no_color) },
	{ OPT_ASCII, offsetof(struct opts, ascii) },
	{ OPT_RAW_PERCENTILES, offsetof(struct opts, raw_percentiles) },
	{ OPT_RESPONSE, offsetof(struct opts, response) },
	{ OPT_RECORD_REQUESTS, offsetof(struct opts, record_requests) },
};

/* The options whose value is one count, size or time, into a uint64_t of struct opts. */
static const struct opt_value {
	int id;
	int (*parse)(const char *arg, uint64_t *out, char *msg, size_t msglen);
	size_t off;
} opt_values[] = {
	{ 'S', parse_size, offsetof(struct opts, work_size) },
	{ 'o', parse_size, offsetof(struct opts, work_offset) },
	{ 'c', parse_number, offsetof(struct opts, count) },
	{ 'b', parse_number, offsetof(struct opts, burst) },
	{ 'a', parse_number, offsetof(struct opts, warmup) },
	{ 't', parse_time, offsetof(struct opts, min_time) },
	{ 'T', parse_time, offsetof(struct opts, max_time) },
	{ 'p', parse_number, offsetof(struct opts, print_count) },
	{ 'P', parse_time, offsetof(struct opts, print_interval) },
};

/* The options that name a file (or a profile): the name, never empty, into struct opts. */
static const struct opt_file {
	int id;
	size_t off;        /* its const char * in struct opts */
	const char *empty; /* the message for an empty name */
} opt_files[] = {
	{ OPT_QUALIFY, offsetof(struct opts, qualify), "--qualify needs a profile: db or a file" },
	{ OPT_RECORD, offsetof(struct opts, record), "--record needs a file name" },
	{ OPT_REPLAY, offsetof(struct opts, replay), "--replay needs a file name" },
	{ OPT_REPORT, offsetof(struct opts, report), "--report needs a file name" },
};

/*
 * Option id from the tables above: applied, *ret set (0 or -1 with msg). Returns false when
 * id is none of theirs.
 */
static bool opt_apply_table(struct opts *o, int id, const char *arg, int *ret, char *msg,
			    size_t msglen)
{
	char *base = (char *)o;

	for (size_t i = 0; i < ARRAY_SIZE(opt_flags); i++)
		if (opt_flags[i].id == id) {
			*(bool *)(void *)(base + opt_flags[i].off) = true;
			return true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(opt_values); i++)
		if (opt_values[i].id == id) {
			*ret = opt_values[i].parse(arg, (uint64_t *)(void *)(base + opt_values[i].off),
						   msg, msglen);
			return true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(opt_files); i++)
		if (opt_files[i].id == id) {
			if (!*arg) {
				err_set(msg, msglen, 0, "%s", opt_files[i].empty);
				*ret = -1;
			}
			*(const char **)(void *)(base + opt_files[i].off) = arg;
			return true;
		}
	return false;
}

/* Apply one option with its argument (NULL when none). Returns 0 or an opts_status. */
static enum opts_status opt_apply(struct opts *o, const struct opt_def *d, const char *arg,
				  char *msg, size_t msglen)
{
	int ret = 0, id = d->letter ? d->letter : d->long_id;

	if (opt_apply_table(o, id, arg, &ret, msg, msglen))
		return ret ? OPTS_ERR : OPTS_OK;
	switch (id) {
	case 'h': o->action = OPTS_HELP; break;
	case 'v': o->action = OPTS_VERSION; break;
	case 'B': o->batch = true; o->quiet = true; break;
	case 'I': /* -time= : empty; a bare -I keeps an earlier format (-I%T -I, -J -I) */
		if (arg || !o->time_format)
			o->time_format = arg ? arg : "%b %d %T";
		break;
	case 'J': o->json = true; o->time_format = "%FT%T%z"; break;
	case 'R': o->rapid = true; o->quiet = true; break;
	case 'A': o->engine = "libaio"; break;
	case 'U': o->engine = "io_uring"; break;
	case 'W': o->write++; break;
	case 'G': o->read_write = true; o->write++; break;
	case 's':
		ret = parse_size_list(o, arg, msg, msglen);
		if (ret && suffix_size_wraps(arg)) /* ioping 1.3 wraps these to a negative size */
			err_set(msg, msglen, 0, "request size must be greater than zero");
		break;
	case 'w':
		ret = parse_time(arg, &o->deadline, msg, msglen);
		o->deadline_set = true;
		break;
	case 'i':
		ret = parse_time(arg, &o->interval, msg, msglen);
		o->interval_set = true;
		break;
	case 'l':
		ret = parse_size(arg, &o->speed_limit, msg, msglen);
		o->limit_set = true;
		break;
	case 'r':
		ret = suffix_parse_rate(arg, LIMIT_RATE, &o->rate_limit, msg, msglen);
		o->limit_set = true;
		break;
	case 'e': o->seed = strtoull(arg, NULL, 0); break;
	case 'Q': ret = parse_depth_list(o, arg, msg, msglen); break;
	case OPT_ARRIVALS: ret = parse_arrivals(arg, &o->poisson, msg, msglen); break;
	case OPT_BEST_AQU:
		ret = parse_aqu("--best-aqu", arg, &o->best_aqu, msg, msglen);
		o->best_aqu_set = true;
		break;
	case OPT_LIMIT_AQU:
		ret = parse_aqu("--limit-aqu", arg, &o->limit_aqu, msg, msglen);
		o->limit_aqu_set = true;
		break;
	case OPT_ENGINE: o->engine = arg; break;
	case OPT_JSON_LINES:
		o->json = o->json_lines = true;
		o->time_format = "%FT%T%z";
		break;
	case OPT_NAME: o->name_list = arg; break;
	case OPT_PERCENTILES: ret = parse_pcts(arg, &o->pcts, msg, msglen); o->pcts_set = true; break;
	case OPT_IOSTAT:
		o->iostat = true;
		o->iostat_devices = arg && *arg ? arg : NULL;
		break;
	case OPT_SWEEP:
		o->sweep = true;
		o->sweep_rates = arg && *arg ? arg : NULL;
		break;
	case OPT_FIO_JOB:
		o->fio_job = true;
		if (arg && *arg)
			ret = parse_time(arg, &o->fio_job_window, msg, msglen);
		if (!ret && !o->fio_job_window) {
			err_set(msg, msglen, 0, "--fio-job needs a window longer than 0");
			ret = -1;
		}
		break;
	case OPT_LAYERS: o->layers = o->layers_set = true; break;
	case OPT_NO_LAYERS: o->layers = false; o->layers_set = true; break;
	case OPT_LISTEN:
	case OPT_WEB_CONFIG:
	case OPT_PROMETHEUS:
	case OPT_PROMETHEUS_PERIOD:
	case OPT_INFLUX:
	case OPT_CHECK:
	case OPT_CHECK_IOPS:
	case OPT_CHECK_TIMEOUT:
		ret = opt_apply_fleet(o, d->long_id, arg, msg, msglen);
		break;
	default:
		break;
	}
	return ret ? OPTS_ERR : OPTS_OK;
}

/* One word that starts with "--", or with "-" and is read as a long option. */
static enum opts_status parse_long(struct opts *o, const struct opt_def *d, const char *dashes,
				   const char *value, int argc, char *const argv[], int *i,
				   char *msg, size_t msglen)
{
	if (d->arg == ARG_NONE && value) {
		err_set(msg, msglen, 0, "option '%s%s' doesn't allow an argument", dashes, d->name);
		return OPTS_ERR_USAGE;
	}
	if (d->arg == ARG_REQUIRED && !value) {
		if (*i + 1 >= argc) {
			err_set(msg, msglen, 0, "option '%s%s' requires an argument", dashes, d->name);
			return OPTS_ERR_USAGE;
		}
		value = argv[++*i];
	}
	return opt_apply(o, d, value, msg, msglen);
}

/* A bundle of short options after a single dash ("-qk", "-c5", "-I%T"). */
static enum opts_status parse_short(struct opts *o, const char *word, int argc,
				    char *const argv[], int *i, char *msg, size_t msglen)
{
	for (const char *p = word + 1; *p; p++) {
		const struct opt_def *d = opt_by_letter(*p);
		const char *value = NULL;

		if (!d) {
			err_set(msg, msglen, 0, "invalid option -- '%c'", *p);
			return OPTS_ERR_USAGE;
		}
		if (d->arg == ARG_OPTIONAL) {
			value = p[1] ? p + 1 : NULL;
		} else if (d->arg == ARG_REQUIRED) {
			if (p[1]) {
				value = p + 1;
			} else if (*i + 1 < argc) {
				value = argv[++*i];
			} else {
				err_set(msg, msglen, 0, "option requires an argument -- '%c'", *p);
				return OPTS_ERR_USAGE;
			}
		}
		enum opts_status st = opt_apply(o, d, value, msg, msglen);

		if (st != OPTS_OK || d->arg != ARG_NONE)
			return st;
	}
	return OPTS_OK;
}

/* Whether c may be in a target's name. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':' || c == '+' || c == '-';
}

/* The length of the name at s (up to end), or 0 when s[0..end) is not a valid name. */
static size_t name_len(const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	if (!n || n > OPTS_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!name_char(s[i]))
			return 0;
	return n;
}

/*
 * A destination "NAME=PATH": NAME is a valid name (no '/': "./a=b" is a path) and PATH is
 * not empty. Returns the length of NAME (PATH at word + len + 1), or 0 for a plain path.
 */
static size_t opts_split_name(const char *word)
{
	const char *eq = strchr(word, '=');

	return eq && eq[1] ? name_len(word, eq) : 0;
}

/* Keep name[0..len) for destination i; -1 with msg when the store is full. */
static int opts_keep_name(struct opts *o, unsigned i, const char *name, size_t len, char *msg,
			  size_t msglen)
{
	if (o->name_used + len + 1 > sizeof(o->name_store)) {
		err_set(msg, msglen, 0, "target names: more than %zu bytes in all",
			sizeof(o->name_store) - 1);
		return -1;
	}
	memcpy(o->name_store + o->name_used, name, len);
	o->name_store[o->name_used + len] = '\0';
	o->names[i] = o->name_store + o->name_used;
	o->name_used += len + 1;
	return 0;
}

/* --name NAME[,NAME...]: the destinations' names in order; each target named once. */
static enum opts_status opts_name_list(struct opts *o, unsigned paths, char *msg, size_t msglen)
{
	const char *s = o->name_list;
	unsigned i = 0;

	while (s) {
		const char *end = strchr(s, ',');
		size_t len;

		if (!end)
			end = s + strlen(s);
		len = name_len(s, end);
		if (!len) {
			err_set(msg, msglen, 0, "--name: \"%.*s\": a name is 1 to %d letters, digits "
				"or _ . : + -", (int)(end - s), s, OPTS_NAME_MAX);
			return OPTS_ERR;
		}
		if (i >= paths) {
			err_set(msg, msglen, 0, "--name: more names than targets (%u)", paths);
			return OPTS_ERR;
		}
		if (o->names[i]) {
			err_set(msg, msglen, 0, "--name: \"%s\" is named %s already", o->paths[i],
				o->names[i]);
			return OPTS_ERR;
		}
		if (opts_keep_name(o, i, s, len, msg, msglen))
			return OPTS_ERR;
		i++;
		s = *end ? end + 1 : NULL;
	}
	return OPTS_OK;
}

/*
 * Several destinations: at most OPTS_MAX_TARGETS, each named once (the same
 * file under two names is found later, when the targets are opened); their
 * short names (NAME=PATH, --name) distinct.
 */
static enum opts_status opts_check_paths(struct opts *o, unsigned paths, char *msg,
					 size_t msglen)
{
	if (paths > OPTS_MAX_TARGETS) {
		err_set(msg, msglen, 0, "too many targets: %u (at most %u)", paths, OPTS_MAX_TARGETS);
		return OPTS_ERR;
	}
	o->npaths = paths;
	for (unsigned i = 1; i < paths; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(o->paths[i], o->paths[j])) {
				err_set(msg, msglen, 0, "duplicate target \"%s\"", o->paths[i]);
				return OPTS_ERR;
			}
	if (o->name_list && opts_name_list(o, paths, msg, msglen) != OPTS_OK)
		return OPTS_ERR;
	for (unsigned i = 1; i < paths; i++)
		for (unsigned j = 0; j < i; j++)
			if (o->names[i] && o->names[j] && !strcmp(o->names[i], o->names[j])) {
				err_set(msg, msglen, 0, "duplicate target name \"%s\"", o->names[i]);
				return OPTS_ERR;
			}
	o->name = o->names[0];
	return OPTS_OK;
}

/*
 * The run's request buffers (one per request in flight per target, each on its own pages
 * when -Q > 1) within OPTS_BUFFER_BUDGET. One target at -Q 1 is left to the request-size
 * limit of the platform (checked when the target is opened, ioping's message).
 */
void opts_largest_request(const struct opts *o, uint64_t *size, uint64_t *depth)
{
	*size = opts_request_size(o);
	*depth = o->depth;
	for (unsigned i = 0; i < o->nsizes; i++) /* a grid: its largest cell */
		*size = o->sizes[i] > *size ? o->sizes[i] : *size;
	for (unsigned i = 0; i < o->ndepths; i++)
		*depth = o->depths[i] > *depth ? o->depths[i] : *depth;
	if (o->depth_auto)
		*depth = OPTS_AUTO_DEPTH_MAX;
}

static enum opts_status opts_check_buffers(const struct opts *o, char *msg, size_t msglen)
{
	uint64_t size, stride, depth;
	long double need;
	char b1[FMT_BUFSZ], b2[FMT_BUFSZ], b3[FMT_BUFSZ];

	opts_largest_request(o, &size, &depth);
	stride = (size + 4095) / 4096 * 4096;
	need = (long double)stride * (long double)depth * (long double)o->npaths;
	if ((depth <= 1 && o->npaths <= 1) || need <= (long double)OPTS_BUFFER_BUDGET)
		return OPTS_OK;
	err_set(msg, msglen, 0,
		"-Q %ju x -s %s x %u target%s needs %s of request buffers, more than the %s a run "
		"may take: lower -Q or -s", (uintmax_t)depth,
		fmt_value(b1, sizeof(b1), size, FMT_SIZE), o->npaths, o->npaths == 1 ? "" : "s",
		fmt_value(b2, sizeof(b2), need >= 0x1p64L ? UINT64_MAX : (uint64_t)need, FMT_SIZE),
		fmt_value(b3, sizeof(b3), OPTS_BUFFER_BUDGET, FMT_SIZE));
	return OPTS_ERR;
}

/* Lists of sizes and depths, -Q auto and the grid's thresholds go with --sweep only. */
static enum opts_status opts_check_grid(const struct opts *o, char *msg, size_t msglen)
{
	if ((o->nsizes || o->ndepths || o->depth_auto) && !o->sweep) {
		err_set(msg, msglen, 0, "%s takes a list%s only with --sweep",
			o->nsizes ? "-s" : "-Q", o->nsizes ? "" : " or auto");
		return OPTS_ERR;
	}
	if ((o->best_aqu_set || o->limit_aqu_set) && !opts_sweep_grid(o)) {
		err_set(msg, msglen, 0, "%s goes with --sweep across sizes or depths (-s A,B or "
			"-Q A,B or -Q auto)", o->best_aqu_set ? "--best-aqu" : "--limit-aqu");
		return OPTS_ERR;
	}
	return OPTS_OK;
}

/* True when word is digits, with at most one decimal point (`3`, `10`, `0.5`). */
static bool opts_plain_number(const char *word)
{
	bool digit = false, point = false;

	for (; *word; word++) {
		if (*word == '.' && !point)
			point = true;
		else if (*word >= '0' && *word <= '9')
			digit = true;
		else
			return false;
	}
	return digit;
}

/*
 * True when word may be meant as the value of option word opt, which takes none there: a
 * plain number after any option (`-ca 3`: ioping's count glued to -c), or a strftime format
 * after a bare -I (`-I %T`: the format goes glued, -I%T; ioping sees a second destination).
 */
static bool opts_value_like(const char *opt, const char *word)
{
	if (opt[0] != '-' || !opt[1])
		return false;
	if (!strcmp(opt, "-I") || !strcmp(opt, "-time") || !strcmp(opt, "--time"))
		return strchr(word, '%') != NULL;
	return opts_plain_number(word);
}

enum opts_status opts_parse(int argc, char *const argv[], struct opts *o, char *msg, size_t msglen)
{
	unsigned paths = 0;
	bool options_done = false;
	enum opts_status st;

	opts_defaults(o);
	o->argc = argc;
	o->argv = argv;
	if (msglen)
		msg[0] = '\0';
	if (argc < 2) {
		o->action = OPTS_USAGE;
		return OPTS_OK;
	}
	for (int i = 1; i < argc; i++) {
		const char *word = argv[i];

		if (options_done || word[0] != '-' || word[1] == '\0') {
			size_t named = opts_split_name(word);

			if (named && paths < OPTS_MAX_TARGETS &&
			    opts_keep_name(o, paths, word, named, msg, msglen))
				return OPTS_ERR;
			word += named ? named + 1 : 0;
			if (paths < OPTS_MAX_TARGETS) {
				o->paths[paths] = word;
				o->path_after_option[paths] =
					!options_done && i > 1 && opts_value_like(argv[i - 1], word) ?
					argv[i - 1] : NULL;
			}
			if (!paths++)
				o->path = word;
			continue;
		}
		if (!strcmp(word, "--")) {
			options_done = true;
			continue;
		}
		bool two = word[1] == '-';
		const char *name = word + (two ? 2 : 1);
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const char *dashes = two ? "--" : "-";
		bool ambiguous = false;
		const struct opt_def *d = NULL;

		/* getopt_long_only: a single letter that is a short option stays short */
		if (two || name[1] != '\0' || !opt_by_letter(name[0]))
			d = opt_by_name(name, len, two, &ambiguous);
		if (ambiguous) {
			msg_ambiguous(msg, msglen, dashes, name, len);
			return OPTS_ERR_USAGE;
		}
		if (d) {
			st = parse_long(o, d, dashes, eq ? eq + 1 : NULL, argc, argv, &i, msg,
					msglen);
		} else if (!two && opt_by_letter(name[0])) {
			st = parse_short(o, word, argc, argv, &i, msg, msglen);
		} else {
			err_set(msg, msglen, 0, "unrecognized option '%s'", word);
			return OPTS_ERR_USAGE;
		}
		if (st != OPTS_OK)
			return st;
		if (o->action == OPTS_HELP || o->action == OPTS_VERSION)
			return OPTS_OK;
	}
	if (o->replay) { /* the recording is the input: no destination */
		if (paths) {
			err_set(msg, msglen, 0, "--replay takes no destination: \"%s\"", o->paths[0]);
			return OPTS_ERR;
		}
		return OPTS_OK;
	}
	if (paths == 0) {
		err_set(msg, msglen, 0, "no destination specified");
		return OPTS_ERR;
	}
	st = opts_check_paths(o, paths, msg, msglen);
	if (st == OPTS_OK)
		st = opts_check_grid(o, msg, msglen);
	return st == OPTS_OK ? opts_check_buffers(o, msg, msglen) : st;
}

uint64_t opts_request_size(const struct opts *o)
{
	if (o->size)
		return o->size;
	return o->linear ? 256 * 1024 : 4096;
}

uint64_t opts_interval(const struct opts *o)
{
	uint64_t interval, size = opts_request_size(o);

	if (o->interval_set)
		interval = o->interval;
	else if (o->limit_set || o->speed_limit || o->rate_limit > 0 || o->rapid)
		interval = 0;
	else
		interval = 1000000000ull;
	if (o->speed_limit) {
		long double t = (long double)size * 1e9L / (long double)o->speed_limit;
		uint64_t ns = t >= (long double)UINT64_MAX ? UINT64_MAX : (uint64_t)t;

		if (ns > interval)
			interval = ns;
	}
	if (o->rate_limit > 0) {
		double t = NS_PER_S / o->rate_limit;
		uint64_t ns = t >= 0x1p64 ? UINT64_MAX : (uint64_t)t; /* -r 1e-11: no UB */

		if (ns > interval)
			interval = ns;
	}
	return interval;
}

uint64_t opts_deadline(const struct opts *o)
{
	if (o->deadline_set)
		return o->deadline;
	return o->rapid ? 3000000000ull : 0;
}

bool opts_response(const struct opts *o)
{
	return o->depth_set || o->response;
}

bool opts_sweep_grid(const struct opts *o)
{
	return o->sweep && (o->nsizes || o->ndepths || o->depth_auto);
}

bool opts_writes_only(const struct opts *o)
{
	return o->write > 0 && !o->read_write;
}

double opts_asked_rate(const struct opts *o)
{
	uint64_t iv = opts_interval(o);

	return iv ? (double)(o->burst > 1 ? o->burst : 1) * NS_PER_S / (double)iv : 0;
}
