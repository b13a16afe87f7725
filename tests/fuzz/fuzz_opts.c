/*
 * fuzz_opts: opts_parse() on an argv made from the input, then
 * opts_request_size(), opts_interval() and opts_deadline().
 *
 * The input is split into words at '\n' and NUL bytes (a separator at the
 * very end adds no empty word; at most MAX_WORDS words, the rest is
 * ignored); argv[0] is "ioprobe" and each word is its own exact-size heap
 * block, so reading past a word's NUL is caught by ASan.
 *
 * Invariants (abort() on violation):
 *  - the status is OPTS_OK, OPTS_ERR or OPTS_ERR_USAGE; msg is NUL-terminated
 *    inside OPTS_MSG_MAX; it is "" on success and, on failure, starts with one
 *    of the texts opts.c and suffix.c write (per status);
 *  - no arguments means OPTS_USAGE; an OPTS_RUN success has exactly one path,
 *    which is one of the argv words;
 *  - time_format, engine and iostat_devices are NULL, a known static string
 *    or point inside an argv word;
 *  - every parsed value is within ioping's limits (INT_MAX counts, LONG_MAX
 *    sizes, LLONG_MAX times, rates in [0, 1e9]); implied flags hold (-B, -R
 *    imply -q; -G counts as a write; --json-lines implies -J);
 *  - opts_request_size/opts_interval/opts_deadline follow their documented
 *    rules (the interval is never below -i, nor below size/speed or 1/rate);
 *  - the same argv parsed with a short exact-size msg buffer gives the same
 *    status and values and the message truncated.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>

#include "fuzz_common.h"
#include "opts.h"

#define MAX_WORDS 64

/* Split data into words; returns argc (argv[0] = "ioprobe"), argv NULL-terminated. */
static int make_argv(const uint8_t *data, size_t size, char **argv)
{
	int argc = 0;
	size_t start = 0;

	argv[argc++] = fuzz_strndup((const uint8_t *)"ioprobe", 7);
	while (start < size && argc < MAX_WORDS + 1) {
		size_t end = start;

		while (end < size && data[end] != '\n' && data[end] != '\0')
			end++;
		argv[argc++] = fuzz_strndup(data + start, end - start);
		start = end + 1;
	}
	argv[argc] = NULL;
	return argc;
}

/* True when p points at a byte of one of argv[1..argc-1] (its NUL included). */
static bool in_argv(const char *p, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

/* p points into one of the argv words (an option's value after '=' or a whole word). */
static bool in_argv_word(const char *p, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

/* Whether p is an argv word, or the PATH of a word "NAME=PATH" (a named destination). */
static bool is_dest_word(const char *p, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (p == argv[i] || (p > argv[i] && p <= argv[i] + strlen(argv[i]) && p[-1] == '=' &&
				     !memchr(argv[i], '/', (size_t)(p - argv[i]))))
			return true;
	return false;
}

static void check_msg(enum opts_status st, const char *msg)
{
	static const char *const usage_prefixes[] = {
		"option '",                          /* ambiguous, doesn't allow / requires an argument */
		"invalid option -- '",
		"option requires an argument -- '",
		"unrecognized option '",
		NULL,
	};
	static const char *const err_prefixes[] = {
		"no destination specified",
		"invalid suffix: \"",
		"division by zero in parsing argument: ",
		"integer overflow at parsing argument: ",
		"request size must be greater than zero",
		"duplicate target \"",
		"duplicate target name \"",
		"--name: ",
		"--percentiles",
		"target names: ",
		"too many targets: ",
		"-Q: the queue depth is a whole number of requests: ", /* 0.3, 1e3, /3M */
		"-Q: the queue depth must be 1 to ",
		"-Q ",                               /* -Q D x -s S x N targets needs ... buffers */
		"--fio-job needs a window longer than 0",
		"-s: bad size list ",
		"-s: at most ",
		"-s: a size must be above 0",
		"-Q: bad depth list ",
		"-Q: at most ",
		"-s takes a list only with --sweep",
		"-Q takes a list or auto only with --sweep",
		"--best-aqu takes an aqu-sz above 0",
		"--limit-aqu takes an aqu-sz above 0",
		"--best-aqu goes with --sweep across sizes or depths",
		"--limit-aqu goes with --sweep across sizes or depths",
		"--qualify needs a profile: db or a file",
		"--prometheus-period must be at least ",
		"--check takes WARN,CRIT: ",
		"--check-iops takes WARN,CRIT: ",
		"--check-timeout must be above 0: ",
		"--check takes times with a unit (10ms,50ms): ",
		"--check: \"",                            /* a range that is none */
		"--check-iops: \"",
		"--check: WARN above CRIT: ",
		"--check-iops: WARN below CRIT (iops alerts below them): ",
		"--record needs a file name",
		"--replay needs a file name",
		"--report needs a file name",
		"--replay takes no destination: ",
		"--arrivals: fixed or poisson, not \"",
		NULL,
	};
	const char *const *p;

	CHECK(fuzz_has_nul(msg, OPTS_MSG_MAX), "msg not NUL-terminated");
	switch (st) {
	case OPTS_OK:
		CHECK(msg[0] == '\0', "success with msg \"%s\"", msg);
		return;
	case OPTS_ERR_USAGE:
		p = usage_prefixes;
		break;
	case OPTS_ERR:
		p = err_prefixes;
		break;
	default:
		CHECK(0, "unknown status %d", (int)st);
	}
	for (; *p; p++)
		if (fuzz_starts_with(msg, *p)) {
			/* "-Q " stands for the buffer budget's message only; others have their own */
			if (!strcmp(*p, "-Q ") && !strstr(msg, " of request buffers, more than the "))
				continue;
			return;
		}
	CHECK(0, "status %d with unexpected msg \"%s\"", (int)st, msg);
}

static void check_values(const struct opts *o, int argc, char **argv)
{
	static const char *const formats[] = { "%b %d %T", "%FT%T%z", NULL };
	bool fmt_ok = o->time_format == NULL;

	CHECK(o->count <= INT_MAX && o->burst <= INT_MAX && o->warmup <= INT_MAX &&
	      o->print_count <= INT_MAX, "count-like value above INT_MAX");
	CHECK(o->size <= LONG_MAX && o->work_size <= LONG_MAX && o->work_offset <= LONG_MAX &&
	      o->speed_limit <= LONG_MAX, "size-like value above LONG_MAX");
	CHECK(o->interval <= LLONG_MAX && o->deadline <= LLONG_MAX && o->min_time <= LLONG_MAX &&
	      o->print_interval <= LLONG_MAX && (o->max_time <= LLONG_MAX || o->max_time == UINT64_MAX),
	      "time value above LLONG_MAX");
	CHECK(!isnan(o->rate_limit) && o->rate_limit >= 0 && o->rate_limit <= 1e9 &&
	      !signbit(o->rate_limit), "rate_limit %g", o->rate_limit);
	/* the defaults of -I and -J (string literals: compared by content) */
	for (const char *const *f = formats; *f && !fmt_ok; f++)
		fmt_ok = !strcmp(o->time_format, *f);
	CHECK(fmt_ok || in_argv(o->time_format, argc, argv), "time_format points elsewhere");
	CHECK(!o->qualify || in_argv(o->qualify, argc, argv), "qualify points elsewhere");
	CHECK(!o->engine || !strcmp(o->engine, "libaio") || !strcmp(o->engine, "io_uring") ||
	      in_argv(o->engine, argc, argv), "engine points elsewhere");
	CHECK(!o->iostat_devices || (o->iostat && o->iostat_devices[0] &&
				     in_argv(o->iostat_devices, argc, argv)),
	      "iostat_devices points elsewhere");
	CHECK(!o->batch || o->quiet, "-B without quiet");
	CHECK(!o->rapid || o->quiet, "-R without quiet");
	CHECK(!o->read_write || o->write >= 1, "-G without a write");
	CHECK(!o->json_lines || o->json, "--json-lines without json");
	CHECK(!o->json || o->time_format, "json without a time format");
}

static void check_derived(const struct opts *o)
{
	uint64_t size = opts_request_size(o), interval = opts_interval(o), deadline = opts_deadline(o);

	CHECK(size == (o->size ? o->size : o->linear ? 256 * 1024 : 4096), "request size %llu",
	      (unsigned long long)size);
	if (o->interval_set)
		CHECK(interval >= o->interval, "interval %llu below -i %llu",
		      (unsigned long long)interval, (unsigned long long)o->interval);
	else if (!o->limit_set && !o->speed_limit && !(o->rate_limit > 0) && !o->rapid)
		CHECK(interval == 1000000000ull, "default interval %llu", (unsigned long long)interval);
	if (o->speed_limit) {
		long double t = (long double)size * 1e9L / (long double)o->speed_limit;

		CHECK((long double)interval >= floorl(t) || interval == UINT64_MAX,
		      "interval %llu below size/speed %Lg", (unsigned long long)interval, t);
	}
	if (o->rate_limit > 0) {
		double t = 1e9 / o->rate_limit;

		CHECK((double)interval >= floor(t) * (1 - 1e-15) || interval == UINT64_MAX,
		      "interval %llu below 1/rate %g", (unsigned long long)interval, t);
	}
	if (o->deadline_set)
		CHECK(deadline == o->deadline, "deadline %llu", (unsigned long long)deadline);
	else
		CHECK(deadline == (o->rapid ? 3000000000ull : 0), "default deadline %llu",
		      (unsigned long long)deadline);
}

/* The fields that must not depend on the message buffer. */
static bool same_opts(const struct opts *a, const struct opts *b)
{
	return a->action == b->action && a->path == b->path && a->warmup == b->warmup &&
	       a->burst == b->burst && a->count == b->count && a->seed == b->seed &&
	       a->interval == b->interval && a->interval_set == b->interval_set &&
	       a->speed_limit == b->speed_limit &&
	       (a->rate_limit == b->rate_limit || (isnan(a->rate_limit) && isnan(b->rate_limit))) &&
	       a->size == b->size && a->work_size == b->work_size &&
	       a->work_offset == b->work_offset && a->deadline == b->deadline &&
	       a->deadline_set == b->deadline_set && a->min_time == b->min_time &&
	       a->max_time == b->max_time && a->print_count == b->print_count &&
	       a->print_interval == b->print_interval && a->time_format == b->time_format &&
	       a->json == b->json && a->batch == b->batch && a->quiet == b->quiet &&
	       a->rapid == b->rapid && a->linear == b->linear && a->cached == b->cached &&
	       a->direct == b->direct && a->sync == b->sync && a->dsync == b->dsync &&
	       a->nowait == b->nowait && a->hipri == b->hipri && a->keep == b->keep &&
	       a->ignore_error == b->ignore_error && a->read_write == b->read_write &&
	       a->write == b->write && a->engine == b->engine && a->tui == b->tui &&
	       a->no_color == b->no_color && a->ascii == b->ascii &&
	       a->json_lines == b->json_lines && a->raw_percentiles == b->raw_percentiles &&
	       a->iostat == b->iostat && a->iostat_devices == b->iostat_devices &&
	       !strcmp(a->name ? a->name : "", b->name ? b->name : "") &&
	       a->pcts_set == b->pcts_set && a->pcts.n == b->pcts.n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 2];
	int argc = make_argv(data, size, argv);
	char *msg = fuzz_msgbuf(OPTS_MSG_MAX), *small;
	size_t smalllen = 1 + (size_t)(fuzz_hash(data, size) % 97);
	struct opts o, o2;
	enum opts_status st, st2;

	st = opts_parse(argc, argv, &o, msg, OPTS_MSG_MAX);
	check_msg(st, msg);
	if (argc < 2)
		CHECK(st == OPTS_OK && o.action == OPTS_USAGE, "no arguments: %d/%d", (int)st,
		      (int)o.action);
	CHECK(o.action == OPTS_RUN || o.action == OPTS_HELP || o.action == OPTS_VERSION ||
	      o.action == OPTS_USAGE, "action %d", (int)o.action);
	check_values(&o, argc, argv);
	if (st == OPTS_OK && o.action == OPTS_RUN && !o.replay)
		CHECK(o.path && is_dest_word(o.path, argc, argv), "success without an argv path");
	if (st == OPTS_OK && o.action == OPTS_RUN && o.replay) /* a replay has no destination */
		CHECK(!o.path && in_argv_word(o.replay, argc, argv) && *o.replay,
		      "a replay with a path or without its file");
	CHECK(!o.path || is_dest_word(o.path, argc, argv), "path is not an argv word");
	CHECK(!o.name || (strlen(o.name) >= 1 && strlen(o.name) <= OPTS_NAME_MAX &&
			  !strchr(o.name, '/')), "a bad name \"%s\"", o.name ? o.name : "");
	if (st == OPTS_OK)
		check_derived(&o);

	small = fuzz_msgbuf(smalllen);
	st2 = opts_parse(argc, argv, &o2, small, smalllen);
	CHECK(st2 == st && same_opts(&o, &o2), "result depends on msglen %zu", smalllen);
	CHECK(fuzz_is_shortening(small, smalllen, msg),
	      "msg \"%.*s\" (msglen %zu) is not a shortening of \"%s\"", (int)smalllen, small,
	      smalllen, msg);

	free(small);
	free(msg);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
