/*
 * Tests for src/cli/opts.c.
 *
 * Every error text and status below was checked against Debian's ioping 1.3
 * (/usr/bin/ioping) with `ioping <words>`: ioping prints "ioping: <msg>", and
 * for OPTS_ERR_USAGE cases also an empty line and the usage (exit 1 either
 * way). Accepted spellings were checked the same way against a path that does
 * not exist (ioping then gets as far as the stat error, exit 2). Options that
 * ioping 1.3 lacks (-E, -U, --engine) follow opts.h.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"

#include "common.h"
#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)
#define MSEC UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

/* Words after argv[0]; the first empty word ends the list. Inline: no pointers in params. */
#define MAXW 8
#define WLEN 40

typedef char words_t[MAXW][WLEN];

static char prog_name[] = "ioprobe";

/* Build argv (program name first, NULL last) from w; returns argc. */
static int build_argv(words_t *w, char *argv[MAXW + 2])
{
	int argc = 0;

	argv[argc++] = prog_name;
	for (int i = 0; i < MAXW && (*w)[i][0]; i++)
		argv[argc++] = (*w)[i];
	argv[argc] = NULL;
	return argc;
}

/* The words joined by spaces, for assertion messages. */
static const char *joined(words_t *w, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < MAXW && (*w)[i][0] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", (*w)[i]);
	return buf;
}

/* Parse a NULL-terminated list of words (argv[0] included). */
static enum opts_status run_parse(struct opts *o, char *msg, const char *const *words)
{
	int argc = 0;

	while (words[argc])
		argc++;
	return opts_parse(argc, (char *const *)words, o, msg, OPTS_MSG_MAX);
}

#define PARSE(o, msg, ...) \
	run_parse((o), (msg), (const char *const[]){ "ioprobe", __VA_ARGS__, NULL })

/* Parse words that must succeed with action OPTS_RUN and path "dir". */
#define PARSE_OK(o, ...)                                                              \
	do {                                                                          \
		char ok_msg_[OPTS_MSG_MAX];                                           \
		enum opts_status ok_st_ = PARSE((o), ok_msg_, __VA_ARGS__);          \
		cr_assert_eq(ok_st_, OPTS_OK, "%s: status %d, message \"%s\"",          \
			     #__VA_ARGS__, ok_st_, ok_msg_);                           \
		cr_assert_str_eq(ok_msg_, "", "%s: message on success", #__VA_ARGS__); \
		cr_assert_eq((o)->action, OPTS_RUN, "%s: action", #__VA_ARGS__);     \
	} while (0)

/* ---- defaults and actions ---------------------------------------------- */

Test(opts, defaults)
{
	struct opts o;

	memset(&o, 0xa5, sizeof(o));
	opts_defaults(&o);
	cr_expect_eq(o.action, OPTS_RUN);
	cr_expect_null(o.path);
	cr_expect_eq(o.warmup, 1);
	cr_expect_eq(o.burst, 0);
	cr_expect_eq(o.count, 0);
	cr_expect_eq(o.seed, 0);
	cr_expect_eq(o.interval, SEC);
	cr_expect_not(o.interval_set);
	cr_expect_eq(o.speed_limit, 0);
	cr_expect(o.rate_limit == 0.0);
	cr_expect_eq(o.size, 0);
	cr_expect_eq(o.work_size, 0);
	cr_expect_eq(o.work_offset, 0);
	cr_expect_eq(o.deadline, 0);
	cr_expect_not(o.deadline_set);
	cr_expect_eq(o.min_time, 0);
	cr_expect_eq(o.max_time, UINT64_MAX);
	cr_expect_eq(o.print_count, 0);
	cr_expect_eq(o.print_interval, 0);
	cr_expect_null(o.time_format);
	cr_expect_not(o.json || o.batch || o.quiet || o.rapid || o.linear || o.cached);
	cr_expect_not(o.direct || o.sync || o.dsync || o.nowait || o.hipri || o.keep);
	cr_expect_not(o.ignore_error || o.read_write);
	cr_expect_eq(o.write, 0);
	cr_expect_null(o.engine);
}

Test(opts, path_only_gives_defaults)
{
	struct opts o, d;

	PARSE_OK(&o, "dir");
	cr_assert_str_eq(o.path, "dir");
	opts_defaults(&d);
	d.path = o.path;
	d.paths[0] = o.path;
	d.npaths = 1;
	d.argc = o.argc; /* the command line as given (a recording keeps it) */
	d.argv = o.argv;
	cr_assert_eq(memcmp(&o, &d, sizeof(o)), 0, "\"dir\" changed a default");
}

Test(opts, no_arguments_is_usage)
{
	struct opts o;
	char msg[OPTS_MSG_MAX] = "junk";
	const char *const words[] = { "ioprobe", NULL };

	cr_assert_eq(run_parse(&o, msg, words), OPTS_OK);
	cr_assert_eq(o.action, OPTS_USAGE);
	cr_assert_str_eq(msg, "");
}

Test(opts, help_and_version)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "-h"), OPTS_OK);
	cr_assert_eq(o.action, OPTS_HELP);
	cr_assert_eq(PARSE(&o, msg, "--help"), OPTS_OK);
	cr_assert_eq(o.action, OPTS_HELP);
	cr_assert_eq(PARSE(&o, msg, "-v"), OPTS_OK);
	cr_assert_eq(o.action, OPTS_VERSION);
	cr_assert_eq(PARSE(&o, msg, "-version"), OPTS_OK);
	cr_assert_eq(o.action, OPTS_VERSION);
}

/* ioping -h -x prints the usage and exits 0: parsing stops at -h. */
Test(opts, help_stops_parsing)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "-h", "-x", "a", "b"), OPTS_OK, "msg \"%s\"", msg);
	cr_assert_eq(o.action, OPTS_HELP);
	cr_assert_eq(PARSE(&o, msg, "dir", "-v", "-c", "abc"), OPTS_OK, "msg \"%s\"", msg);
	cr_assert_eq(o.action, OPTS_VERSION);
}

/* ioping -x -h fails on -x first. */
Test(opts, error_before_help_wins)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "-x", "-h"), OPTS_ERR_USAGE);
	cr_assert_str_eq(msg, "unrecognized option '-x'");
}

/* ---- spellings of one option ------------------------------------------- */

struct fcase {
	words_t w;
	uint64_t count;
};

ParameterizedTestParameters(opts, count_spellings)
{
	static struct fcase cases[] = {
		{ { "-c", "5", "dir" }, 5 },
		{ { "-c5", "dir" }, 5 },
		{ { "-count", "5", "dir" }, 5 },
		{ { "--count", "5", "dir" }, 5 },
		{ { "-count=5", "dir" }, 5 },
		{ { "--count=5", "dir" }, 5 },
		{ { "-cou", "2", "dir" }, 2 },
		{ { "--cou", "2", "dir" }, 2 },
		{ { "-coun=7", "dir" }, 7 },
		{ { "dir", "-c", "3" }, 3 },          /* GNU permutation */
		{ { "dir", "--count=4" }, 4 },
		{ { "-qc5", "dir" }, 5 },             /* bundle ending in an attached argument */
		{ { "-qc", "6", "dir" }, 6 },         /* ... or taking the next word */
		{ { "-c", "1k", "dir" }, 1000 },      /* number suffixes */
		{ { "-c", "1", "-c", "9", "dir" }, 9 }, /* the last one wins */
		{ { "-count=", "dir" }, 0 },          /* empty value: 0 (ioping runs forever) */
		{ { "-c", "0x10", "dir" }, 16 },
	};
	return cr_make_param_array(struct fcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct fcase *c, opts, count_spellings)
{
	char *argv[MAXW + 2], msg[OPTS_MSG_MAX], desc[400];
	int argc = build_argv(&c->w, argv);
	struct opts o;
	enum opts_status st = opts_parse(argc, argv, &o, msg, sizeof(msg));

	joined(&c->w, desc, sizeof(desc));
	cr_assert_eq(st, OPTS_OK, "%s: status %d, message \"%s\"", desc, st, msg);
	cr_assert_eq(o.count, c->count, "%s: count %" PRIu64 ", want %" PRIu64, desc, o.count,
		     c->count);
	cr_assert_not_null(o.path, "%s: no path", desc);
	cr_assert_str_eq(o.path, "dir", "%s: path \"%s\"", desc, o.path);
}

/* ---- errors ------------------------------------------------------------ */

struct ecase {
	words_t w;
	enum opts_status st;
	char msg[200];
};

#define AMBIG_WO(d) \
	"option '" d "wo' is ambiguous; possibilities: '" d "work-size' '" d "work-offset' '" \
	d "work-time'"

ParameterizedTestParameters(opts, errors)
{
	static struct ecase cases[] = {
		{ { "-x", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-x'" },
		{ { "-x" }, OPTS_ERR_USAGE, "unrecognized option '-x'" },
		{ { "-Z", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-Z'" },
		{ { "--x", "dir" }, OPTS_ERR_USAGE, "unrecognized option '--x'" },
		{ { "-xyz", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-xyz'" },
		{ { "-xyz=1", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-xyz=1'" },
		{ { "-jsonx", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-jsonx'" },
		{ { "--c5", "dir" }, OPTS_ERR_USAGE, "unrecognized option '--c5'" },
		{ { "-json", "dir", "-x" }, OPTS_ERR_USAGE, "unrecognized option '-x'" },
		{ { "-qZ", "dir" }, OPTS_ERR_USAGE, "invalid option -- 'Z'" },
		{ { "-k-", "dir" }, OPTS_ERR_USAGE, "invalid option -- '-'" },
		{ { "dir", "-c" }, OPTS_ERR_USAGE, "option requires an argument -- 'c'" },
		{ { "-qc" }, OPTS_ERR_USAGE, "option requires an argument -- 'c'" },
		{ { "-e" }, OPTS_ERR_USAGE, "option requires an argument -- 'e'" },
		{ { "dir", "-count" }, OPTS_ERR_USAGE, "option '-count' requires an argument" },
		{ { "dir", "--count" }, OPTS_ERR_USAGE, "option '--count' requires an argument" },
		{ { "dir", "-cou" }, OPTS_ERR_USAGE, "option '-count' requires an argument" },
		{ { "dir", "--engine" }, OPTS_ERR_USAGE, "option '--engine' requires an argument" },
		{ { "-wo", "1", "dir" }, OPTS_ERR_USAGE, AMBIG_WO("-") },
		{ { "--wo", "1", "dir" }, OPTS_ERR_USAGE, AMBIG_WO("--") },
		{ { "-wo=1", "dir" }, OPTS_ERR_USAGE,
		  "option '-wo=1' is ambiguous; possibilities: '-work-size' '-work-offset' "
		  "'-work-time'" },
		{ { "--c", "1", "dir" }, OPTS_ERR_USAGE,
		  "option '--c' is ambiguous; possibilities: '--cached' '--count'" },
		{ { "--c=5", "dir" }, OPTS_ERR_USAGE,
		  "option '--c=5' is ambiguous; possibilities: '--cached' '--count'" },
		{ { "-c=", "5", "dir" }, OPTS_ERR_USAGE,
		  "option '-c=' is ambiguous; possibilities: '-cached' '-count'" },
		{ { "-h=1", "dir" }, OPTS_ERR_USAGE,
		  "option '-h=1' is ambiguous; possibilities: '-help' '-hipri'" },
		{ { "-json=1", "dir" }, OPTS_ERR_USAGE,
		  "option '-json' doesn't allow an argument" },
		{ { "--json=1", "dir" }, OPTS_ERR_USAGE,
		  "option '--json' doesn't allow an argument" },
		{ { "-cached=1", "dir" }, OPTS_ERR_USAGE,
		  "option '-cached' doesn't allow an argument" },
		{ { "-q=", "dir" }, OPTS_ERR_USAGE, "option '-quiet' doesn't allow an argument" },
		{ { "-c", "1" }, OPTS_ERR, "no destination specified" },
		{ { "-I" }, OPTS_ERR, "no destination specified" },
		{ { "-time" }, OPTS_ERR, "no destination specified" },
		{ { "--", "-" }, OPTS_OK, "" },
		/* several destinations are several targets (issue 16); each once */
		{ { "a", "b" }, OPTS_OK, "" },
		{ { "-", "-" }, OPTS_ERR, "duplicate target \"-\"" },
		{ { "a", "b", "a" }, OPTS_ERR, "duplicate target \"a\"" },
		{ { "--", "--", "dir" }, OPTS_OK, "" },
		{ { "--", "-c", "dir" }, OPTS_OK, "" },
		{ { "-ca", "dir", "dir" }, OPTS_ERR, "duplicate target \"dir\"" },
		{ { "-I", "%T", "dir" }, OPTS_OK, "" },
		{ { "-c", "5x", "dir" }, OPTS_ERR, "invalid suffix: \"x\"" },
		{ { "-c", "abc", "dir" }, OPTS_ERR, "invalid suffix: \"abc\"" },
		{ { "-c", "-q", "dir" }, OPTS_ERR, "invalid suffix: \"-q\"" },
		{ { "-count", "-q", "dir" }, OPTS_ERR, "invalid suffix: \"-q\"" },
		{ { "-qcZ", "dir" }, OPTS_ERR, "invalid suffix: \"Z\"" },
		{ { "-s", "1q", "dir" }, OPTS_ERR, "invalid suffix: \"q\"" },
		{ { "-i", "1x", "dir" }, OPTS_ERR, "invalid suffix: \"x\"" },
		{ { "-c", "-4k", "dir" }, OPTS_ERR, "integer overflow at parsing argument: -4k" },
		{ { "-c", "3g", "dir" }, OPTS_ERR, "integer overflow at parsing argument: 3g" },
		{ { "-r", "2e9", "dir" }, OPTS_ERR, "integer overflow at parsing argument: 2e9" },
		{ { "-c", "1/0", "dir" }, OPTS_ERR, "division by zero in parsing argument: 1/0" },
		/* ioping 1.3 wraps these sizes to a negative one and says so */
		{ { "-s", "9223372036854775807", "dir" }, OPTS_ERR,
		  "request size must be greater than zero" },
		{ { "-s", "8eb", "dir" }, OPTS_ERR, "request size must be greater than zero" },
		{ { "-s", "nan", "dir" }, OPTS_ERR, "request size must be greater than zero" },
		{ { "-size=8192pb", "dir" }, OPTS_ERR, "request size must be greater than zero" },
		{ { "-s", "9eb", "dir" }, OPTS_ERR, "integer overflow at parsing argument: 9eb" },
		{ { "-S", "8eb", "dir" }, OPTS_ERR, "integer overflow at parsing argument: 8eb" },
		/* prefixes of ioprobe-only options that ioping reads as a short option */
		{ { "-ig", "dir" }, OPTS_ERR, "invalid suffix: \"g\"" },
		{ { "-asc", "dir" }, OPTS_ERR, "invalid suffix: \"sc\"" },
		{ { "-tu", "dir" }, OPTS_ERR, "invalid suffix: \"u\"" },
		{ { "-io", "1", "dir" }, OPTS_ERR, "invalid suffix: \"o\"" },
		{ { "-raw", "dir" }, OPTS_ERR, "invalid suffix: \"aw\"" },
		{ { "-u", "dir" }, OPTS_ERR_USAGE, "unrecognized option '-u'" },
		{ { "-json-", "dir" }, OPTS_OK, "" },
		{ { "-no-c", "dir" }, OPTS_OK, "" },
		{ { "-no-l", "dir" }, OPTS_OK, "" },
		{ { "-no-", "dir" }, OPTS_ERR_USAGE,
		  "option '-no-' is ambiguous; possibilities: '-no-color' '-no-layers'" },
		{ { "-ra", "dir" }, OPTS_ERR_USAGE,
		  "option '-ra' is ambiguous; possibilities: '-rapid' '-rate-limit'" },
		{ { "--ra", "dir" }, OPTS_ERR_USAGE,
		  "option '--ra' is ambiguous; possibilities: '--rapid' '--rate-limit'" },
		{ { "-js", "dir" }, OPTS_OK, "" },
		{ { "-t", "1/0", "dir" }, OPTS_ERR, "division by zero in parsing argument: 1/0" },
		{ { "-c", "abc" }, OPTS_ERR, "invalid suffix: \"abc\"" },
		{ { "-c", "abc", "-x" }, OPTS_ERR, "invalid suffix: \"abc\"" },
		{ { "-x", "-c", "abc" }, OPTS_ERR_USAGE, "unrecognized option '-x'" },
	};
	return cr_make_param_array(struct ecase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ecase *c, opts, errors)
{
	char *argv[MAXW + 2], msg[OPTS_MSG_MAX], desc[400];
	int argc = build_argv(&c->w, argv);
	struct opts o;
	enum opts_status st = opts_parse(argc, argv, &o, msg, sizeof(msg));

	joined(&c->w, desc, sizeof(desc));
	cr_assert_eq(st, c->st, "%s: status %d, want %d (message \"%s\")", desc, st, c->st, msg);
	cr_assert_str_eq(msg, c->msg, "%s: message \"%s\", want \"%s\"", desc, msg, c->msg);
}

/*
 * A short buffer shortens the message (err_set: its middle becomes "...", its
 * end stays) and keeps it a C string within the buffer.
 */
Test(opts, message_truncated_to_buffer)
{
	struct opts o;
	char msg[24];
	const char *const amb[] = { "ioprobe", "-wo", "1", "dir", NULL };
	const char *const bad[] = { "ioprobe", "-xyzzy", "dir", NULL };

	memset(msg, 'X', sizeof(msg));
	cr_assert_eq(opts_parse(3, (char *const *)amb, &o, msg, sizeof(msg)), OPTS_ERR_USAGE);
	cr_assert_str_eq(msg, "optio... possibilities:");
	memset(msg, 'X', sizeof(msg));
	cr_assert_eq(opts_parse(3, (char *const *)bad, &o, msg, 10), OPTS_ERR_USAGE);
	cr_assert_str_eq(msg, "u...yzzy'");
}

/* msglen 0: the status still comes back, and msg is never touched. */
Test(opts, message_buffer_of_zero_length)
{
	struct opts o;
	const char *const amb[] = { "ioprobe", "-wo", "1", "dir", NULL };
	const char *const none[] = { "ioprobe", "-q", NULL };

	cr_assert_eq(opts_parse(4, (char *const *)amb, &o, NULL, 0), OPTS_ERR_USAGE);
	cr_assert_eq(opts_parse(2, (char *const *)none, &o, NULL, 0), OPTS_ERR);
}

/* ---- the getopt_long_only traps ---------------------------------------- */

/* -ca is -cached (a long prefix wins over the bundle -c a); 3 is then a path. */
Test(opts, ca_is_cached)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "-ca", "3"), OPTS_OK, "msg \"%s\"", msg);
	cr_assert(o.cached);
	cr_assert_eq(o.count, 0, "-ca must not set the count");
	cr_assert_str_eq(o.path, "3");
}

Test(opts, re_is_read_write)
{
	struct opts o;

	PARSE_OK(&o, "-re", "dir");
	cr_assert(o.read_write);
	cr_assert_eq(o.write, 1);
	cr_assert_eq(o.seed, 0, "-re must not be -r e");
	cr_assert(o.rate_limit == 0.0, "-re must not set a rate");
}

Test(opts, qk_is_a_bundle)
{
	struct opts o;

	PARSE_OK(&o, "-qk", "dir");
	cr_assert(o.quiet);
	cr_assert(o.keep);
	cr_assert_str_eq(o.path, "dir");
}

Test(opts, bundle_of_flags)
{
	struct opts o;

	PARSE_OK(&o, "-CDLNHYykq", "dir");
	cr_assert(o.cached && o.direct && o.linear && o.nowait && o.hipri);
	cr_assert(o.sync && o.dsync && o.keep && o.quiet);
	cr_assert_not(o.json || o.batch || o.rapid);
}

/* A single known letter stays short even when a long option starts with it. */
Test(opts, single_letter_stays_short)
{
	struct opts o;

	PARSE_OK(&o, "-s", "8k", "dir");
	cr_assert_eq(o.size, 8 * KIB);
	cr_assert_not(o.sync, "-s is not a prefix of -sync here");
	PARSE_OK(&o, "-w", "2", "dir");
	cr_assert_eq(o.deadline, 2 * SEC);
}

/* -i=0 is the unique prefix "i" of -interval with "=0" (ioprobe's -ignore-error loses). */
Test(opts, i_equals_zero_is_interval)
{
	struct opts o;

	PARSE_OK(&o, "-i=0", "dir");
	cr_assert(o.interval_set);
	cr_assert_eq(o.interval, 0);
	cr_assert_not(o.ignore_error);
}

Test(opts, en_is_entropy)
{
	struct opts o;

	PARSE_OK(&o, "-en", "1", "dir");
	cr_assert_eq(o.seed, 1);
	cr_assert_null(o.engine, "-en must not be -engine");
	cr_assert_str_eq(o.path, "dir");
	PARSE_OK(&o, "--e=7", "dir");
	cr_assert_eq(o.seed, 7);
	cr_assert_null(o.engine);
}

/* ioping reads -eng as -e ng (seed 0): -engine needs -engi after one dash. */
Test(opts, eng_is_entropy_engi_is_engine)
{
	struct opts o;

	PARSE_OK(&o, "-eng", "dir");
	cr_assert_null(o.engine);
	cr_assert_eq(o.seed, 0);
	PARSE_OK(&o, "-engi", "sync", "dir");
	cr_assert_str_eq(o.engine, "sync");
	cr_assert_eq(o.seed, 0);
	PARSE_OK(&o, "--eng=sync", "dir");
	cr_assert_str_eq(o.engine, "sync");
	PARSE_OK(&o, "--engine=null", "dir");
	cr_assert_str_eq(o.engine, "null");
	PARSE_OK(&o, "dir", "-engine", "io_uring");
	cr_assert_str_eq(o.engine, "io_uring");
	cr_assert_str_eq(o.path, "dir");
}

/* ---- paths, permutation, "--" and "-" ---------------------------------- */

Test(opts, options_after_path)
{
	struct opts o;

	PARSE_OK(&o, "/mnt/x", "-c", "2", "-q", "-i", "0");
	cr_assert_str_eq(o.path, "/mnt/x");
	cr_assert_eq(o.count, 2);
	cr_assert(o.quiet);
	cr_assert(o.interval_set);
	cr_assert_eq(o.interval, 0);
}

Test(opts, double_dash_ends_options)
{
	struct opts o;

	PARSE_OK(&o, "-q", "--", "-c");
	cr_assert_str_eq(o.path, "-c");
	cr_assert_eq(o.count, 0);
	cr_assert(o.quiet);
	PARSE_OK(&o, "-c", "2", "--", "--count");
	cr_assert_str_eq(o.path, "--count");
	cr_assert_eq(o.count, 2);
}

Test(opts, dash_alone_is_a_path)
{
	struct opts o;

	PARSE_OK(&o, "-");
	cr_assert_str_eq(o.path, "-");
	PARSE_OK(&o, "-c", "1", "-", "-q");
	cr_assert_str_eq(o.path, "-");
	cr_assert(o.quiet);
}

/* The path points into argv, not at a copy. */
Test(opts, path_points_into_argv)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];
	const char *const words[] = { "ioprobe", "-q", "some/where", NULL };

	cr_assert_eq(run_parse(&o, msg, words), OPTS_OK);
	cr_assert_eq(o.path, words[2]);
}

/* ---- -I and -J --------------------------------------------------------- */

Test(opts, time_flag_alone_uses_default_format)
{
	struct opts o;

	PARSE_OK(&o, "-I", "dir");
	cr_assert_str_eq(o.time_format, "%b %d %T");
	PARSE_OK(&o, "-time", "dir");
	cr_assert_str_eq(o.time_format, "%b %d %T");
	PARSE_OK(&o, "-qI", "dir");
	cr_assert_str_eq(o.time_format, "%b %d %T");
	cr_assert(o.quiet);
}

Test(opts, time_attached_argument)
{
	struct opts o;

	PARSE_OK(&o, "-I%T", "dir");
	cr_assert_str_eq(o.time_format, "%T");
	PARSE_OK(&o, "-I%H:%M", "dir");
	cr_assert_str_eq(o.time_format, "%H:%M");
	PARSE_OK(&o, "-time=%T", "dir");
	cr_assert_str_eq(o.time_format, "%T");
	PARSE_OK(&o, "--time=%F %T", "dir");
	cr_assert_str_eq(o.time_format, "%F %T");
	PARSE_OK(&o, "-qI%T", "dir");
	cr_assert_str_eq(o.time_format, "%T");
	cr_assert(o.quiet);
}

/* ioping -time= prints an empty time (the line starts with a space). */
Test(opts, time_empty_attached_argument)
{
	struct opts o;

	PARSE_OK(&o, "-time=", "dir");
	cr_assert_not_null(o.time_format);
	cr_assert_str_eq(o.time_format, "");
}

/* -I %T: the argument is optional and must be attached, so %T is the path. */
Test(opts, time_separate_word_is_the_path)
{
	struct opts o;

	PARSE_OK(&o, "-I", "%T");
	cr_assert_str_eq(o.time_format, "%b %d %T");
	cr_assert_str_eq(o.path, "%T");
	PARSE_OK(&o, "--time", "%T");
	cr_assert_str_eq(o.path, "%T");
}

Test(opts, json_sets_time_format)
{
	struct opts o;

	PARSE_OK(&o, "-J", "dir");
	cr_assert(o.json);
	cr_assert_str_eq(o.time_format, "%FT%T%z");
	PARSE_OK(&o, "--json", "dir");
	cr_assert(o.json);
	cr_assert_str_eq(o.time_format, "%FT%T%z");
}

Test(opts, json_then_time_overrides)
{
	struct opts o;

	PARSE_OK(&o, "-J", "-I%T", "dir");
	cr_assert(o.json);
	cr_assert_str_eq(o.time_format, "%T");
	PARSE_OK(&o, "-J", "-I", "dir");
	cr_assert_str_eq(o.time_format, "%FT%T%z", "-J -I keeps the ISO localtime (ioping)");
}

/* A bare -I keeps a format given earlier (ioping 1.3: -I%T -I prints 23:36:59). */
Test(opts, bare_time_keeps_earlier_format)
{
	struct opts o;

	PARSE_OK(&o, "-I%T", "-I", "dir");
	cr_assert_str_eq(o.time_format, "%T");
	PARSE_OK(&o, "-I%H", "-time", "dir");
	cr_assert_str_eq(o.time_format, "%H");
	PARSE_OK(&o, "-I", "-I%H", "dir");
	cr_assert_str_eq(o.time_format, "%H");
	PARSE_OK(&o, "--json-lines", "-I", "dir");
	cr_assert_str_eq(o.time_format, "%FT%T%z");
	PARSE_OK(&o, "-I", "-J", "dir");
	cr_assert_str_eq(o.time_format, "%FT%T%z");
}

/* ioping -I%T -J: the later -J sets its format back. */
Test(opts, time_then_json)
{
	struct opts o;

	PARSE_OK(&o, "-I%T", "-J", "dir");
	cr_assert(o.json);
	cr_assert_str_eq(o.time_format, "%FT%T%z");
}

/* ---- counters and flags ------------------------------------------------ */

struct wcase {
	words_t w;
	unsigned write;
	bool read_write;
};

ParameterizedTestParameters(opts, write_counter)
{
	static struct wcase cases[] = {
		{ { "dir" }, 0, false },
		{ { "-W", "dir" }, 1, false },
		{ { "-WW", "dir" }, 2, false },
		{ { "-WWW", "dir" }, 3, false },
		{ { "-W", "-W", "-W", "dir" }, 3, false },
		{ { "--write", "-write", "dir" }, 2, false },
		{ { "-G", "dir" }, 1, true },
		{ { "-GWW", "dir" }, 3, true },
		{ { "-WGW", "dir" }, 3, true },
		{ { "-read-write", "-W", "dir" }, 2, true },
		{ { "-qWWWk", "dir" }, 3, false },
	};
	return cr_make_param_array(struct wcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct wcase *c, opts, write_counter)
{
	char *argv[MAXW + 2], msg[OPTS_MSG_MAX], desc[400];
	int argc = build_argv(&c->w, argv);
	struct opts o;
	enum opts_status st = opts_parse(argc, argv, &o, msg, sizeof(msg));

	joined(&c->w, desc, sizeof(desc));
	cr_assert_eq(st, OPTS_OK, "%s: status %d, message \"%s\"", desc, st, msg);
	cr_assert_eq(o.write, c->write, "%s: write %u, want %u", desc, o.write, c->write);
	cr_assert_eq(o.read_write, c->read_write, "%s: read_write %d", desc, o.read_write);
}

/* Each flag sets exactly its own field (and -B, -R also quiet). */
struct flagcase {
	char word[16];
	size_t field;
	size_t also; /* a second field it sets, or (size_t)-1 */
};

#define NO_ALSO ((size_t)-1)
#define FIELD(f) offsetof(struct opts, f)

ParameterizedTestParameters(opts, flags)
{
	static struct flagcase cases[] = {
		{ "-k", FIELD(keep), NO_ALSO },
		{ "-keep", FIELD(keep), NO_ALSO },
		{ "-q", FIELD(quiet), NO_ALSO },
		{ "--quiet", FIELD(quiet), NO_ALSO },
		{ "-B", FIELD(batch), FIELD(quiet) },
		{ "-batch", FIELD(batch), FIELD(quiet) },
		{ "-R", FIELD(rapid), FIELD(quiet) },
		{ "--rapid", FIELD(rapid), FIELD(quiet) },
		{ "-L", FIELD(linear), NO_ALSO },
		{ "-lin", FIELD(linear), NO_ALSO },
		{ "-D", FIELD(direct), NO_ALSO },
		{ "-direct", FIELD(direct), NO_ALSO },
		{ "-C", FIELD(cached), NO_ALSO },
		{ "-N", FIELD(nowait), NO_ALSO },
		{ "-nowait", FIELD(nowait), NO_ALSO },
		{ "-H", FIELD(hipri), NO_ALSO },
		{ "-hi", FIELD(hipri), NO_ALSO },
		{ "-Y", FIELD(sync), NO_ALSO },
		{ "-sync", FIELD(sync), NO_ALSO },
		{ "-y", FIELD(dsync), NO_ALSO },
		{ "-dsync", FIELD(dsync), NO_ALSO },
		{ "-E", FIELD(ignore_error), NO_ALSO },
		{ "-ignore-error", FIELD(ignore_error), NO_ALSO },
		{ "-ign", FIELD(ignore_error), NO_ALSO },
		{ "--ig", FIELD(ignore_error), NO_ALSO },
		{ "-J", FIELD(json), NO_ALSO },
	};
	return cr_make_param_array(struct flagcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct flagcase *c, opts, flags)
{
	char msg[OPTS_MSG_MAX];
	char *argv[] = { prog_name, c->word, (char *)"dir", NULL };
	struct opts o, d;
	unsigned char *got = (unsigned char *)&o, *def = (unsigned char *)&d;
	enum opts_status st = opts_parse(3, argv, &o, msg, sizeof(msg));
	static const size_t bools[] = {
		FIELD(json), FIELD(batch), FIELD(quiet), FIELD(rapid), FIELD(linear),
		FIELD(cached), FIELD(direct), FIELD(sync), FIELD(dsync), FIELD(nowait),
		FIELD(hipri), FIELD(keep), FIELD(ignore_error), FIELD(read_write),
	};

	cr_assert_eq(st, OPTS_OK, "%s: status %d, message \"%s\"", c->word, st, msg);
	opts_defaults(&d);
	for (size_t i = 0; i < ARRAY_SIZE(bools); i++) {
		bool want = bools[i] == c->field || bools[i] == c->also;
		bool have = *(bool *)(got + bools[i]);

		cr_assert_eq(have, want, "%s: flag at offset %zu is %d, want %d", c->word,
			     bools[i], have, want);
		cr_assert_not(*(bool *)(def + bools[i]), "default of offset %zu", bools[i]);
	}
	cr_assert_eq(o.write, 0, "%s: write counter", c->word);
	cr_assert_null(o.engine, "%s: engine", c->word);
}

Test(opts, engines)
{
	struct opts o;

	PARSE_OK(&o, "-A", "dir");
	cr_assert_str_eq(o.engine, "libaio");
	PARSE_OK(&o, "-async", "dir");
	cr_assert_str_eq(o.engine, "libaio");
	PARSE_OK(&o, "-U", "dir");
	cr_assert_str_eq(o.engine, "io_uring");
	PARSE_OK(&o, "--uring", "dir");
	cr_assert_str_eq(o.engine, "io_uring");
	PARSE_OK(&o, "--engine", "sync", "dir");
	cr_assert_str_eq(o.engine, "sync");
	cr_assert_str_eq(o.path, "dir");
}

Test(opts, last_engine_wins)
{
	struct opts o;

	PARSE_OK(&o, "-A", "--engine", "null", "dir");
	cr_assert_str_eq(o.engine, "null");
	PARSE_OK(&o, "--engine=null", "-U", "dir");
	cr_assert_str_eq(o.engine, "io_uring");
	PARSE_OK(&o, "-U", "-A", "dir");
	cr_assert_str_eq(o.engine, "libaio");
}

/* ---- values ------------------------------------------------------------ */

struct vcase {
	words_t w;
	size_t field; /* offset of a uint64_t field */
	uint64_t want;
};

ParameterizedTestParameters(opts, values)
{
	static struct vcase cases[] = {
		{ { "-a", "0", "dir" }, FIELD(warmup), 0 },
		{ { "-warmup=3", "dir" }, FIELD(warmup), 3 },
		{ { "-b", "3", "dir" }, FIELD(burst), 3 },
		{ { "-burst", "2k", "dir" }, FIELD(burst), 2000 },
		{ { "-s", "64k", "dir" }, FIELD(size), 64 * KIB },
		{ { "-size=1m", "dir" }, FIELD(size), MIB },
		{ { "-s", "0", "dir" }, FIELD(size), 0 },
		{ { "-S", "1g", "dir" }, FIELD(work_size), GIB },
		{ { "-work-s", "2sector", "dir" }, FIELD(work_size), 1024 },
		{ { "-o", "1000", "dir" }, FIELD(work_offset), 1000 },
		{ { "-work-o=1page", "dir" }, FIELD(work_offset), 4096 },
		{ { "-w", "3", "dir" }, FIELD(deadline), 3 * SEC },
		{ { "-work-t=1min", "dir" }, FIELD(deadline), 60 * SEC },
		{ { "-i", "0.1", "dir" }, FIELD(interval), 100 * MSEC },
		{ { "-interval", "1ms", "dir" }, FIELD(interval), MSEC },
		{ { "-l", "400k", "dir" }, FIELD(speed_limit), 400 * KIB },
		{ { "-speed", "1m", "dir" }, FIELD(speed_limit), MIB },
		{ { "-t", "10us", "dir" }, FIELD(min_time), 10000 },
		{ { "-min=1/3ms", "dir" }, FIELD(min_time), 333333 },
		{ { "-T", "1s", "dir" }, FIELD(max_time), SEC },
		{ { "-max-time", "2h", "dir" }, FIELD(max_time), 7200 * SEC },
		{ { "-p", "5", "dir" }, FIELD(print_count), 5 },
		{ { "-print-c=10", "dir" }, FIELD(print_count), 10 },
		{ { "-P", "1", "dir" }, FIELD(print_interval), SEC },
		{ { "-print-i=100ms", "dir" }, FIELD(print_interval), 100 * MSEC },
		{ { "-e", "42", "dir" }, FIELD(seed), 42 },
	};
	return cr_make_param_array(struct vcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct vcase *c, opts, values)
{
	char *argv[MAXW + 2], msg[OPTS_MSG_MAX], desc[400];
	int argc = build_argv(&c->w, argv);
	struct opts o;
	enum opts_status st = opts_parse(argc, argv, &o, msg, sizeof(msg));
	uint64_t got;

	joined(&c->w, desc, sizeof(desc));
	cr_assert_eq(st, OPTS_OK, "%s: status %d, message \"%s\"", desc, st, msg);
	memcpy(&got, (unsigned char *)&o + c->field, sizeof(got));
	cr_assert_eq(got, c->want, "%s: got %" PRIu64 ", want %" PRIu64, desc, got, c->want);
	cr_assert_str_eq(o.path, "dir", "%s: path", desc);
}

Test(opts, interval_and_deadline_set_flags)
{
	struct opts o;

	PARSE_OK(&o, "-i", "0", "-w", "0", "dir");
	cr_assert(o.interval_set);
	cr_assert(o.deadline_set);
	cr_assert_eq(o.interval, 0);
	cr_assert_eq(o.deadline, 0);
	PARSE_OK(&o, "-c", "3", "dir");
	cr_assert_not(o.interval_set);
	cr_assert_not(o.deadline_set);
}

Test(opts, rate_limit)
{
	struct opts o;

	PARSE_OK(&o, "-r", "100", "dir");
	cr_assert_float_eq(o.rate_limit, 100.0, 1e-9);
	PARSE_OK(&o, "-rate=2.5k", "dir");
	cr_assert_float_eq(o.rate_limit, 2500.0, 1e-9);
	PARSE_OK(&o, "-r", "1/4", "dir");
	cr_assert_float_eq(o.rate_limit, 0.25, 1e-12);
}

/* -e is strtoull with base 0: hex and octal, no suffixes, trailing junk ignored. */
struct seedcase {
	char arg[32];
	uint64_t want;
};

ParameterizedTestParameters(opts, entropy)
{
	static struct seedcase cases[] = {
		{ "42", 42 },
		{ "0x10", 16 },
		{ "0X1f", 31 },
		{ "010", 8 },
		{ "1k", 1 },
		{ "abc", 0 },
		{ "0", 0 },
		{ "18446744073709551615", UINT64_MAX },
		{ "99999999999999999999", UINT64_MAX },
		{ " 7", 7 },
		{ "12.9", 12 },
	};
	return cr_make_param_array(struct seedcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct seedcase *c, opts, entropy)
{
	char msg[OPTS_MSG_MAX];
	char opt[] = "-e";
	char *argv[] = { prog_name, opt, c->arg, (char *)"dir", NULL };
	struct opts o;
	enum opts_status st = opts_parse(4, argv, &o, msg, sizeof(msg));

	cr_assert_eq(st, OPTS_OK, "-e \"%s\": status %d, message \"%s\"", c->arg, st, msg);
	cr_assert_eq(o.seed, c->want, "-e \"%s\": seed %" PRIu64 ", want %" PRIu64, c->arg,
		     o.seed, c->want);
}

/* ---- opts_request_size, opts_interval, opts_deadline -------------------- */

struct ncase {
	words_t w;
	uint64_t want;
};

static void check_derived(struct ncase *c, uint64_t (*fn)(const struct opts *), const char *name)
{
	char *argv[MAXW + 2], msg[OPTS_MSG_MAX], desc[400];
	int argc = build_argv(&c->w, argv);
	struct opts o;
	enum opts_status st = opts_parse(argc, argv, &o, msg, sizeof(msg));
	uint64_t got;

	joined(&c->w, desc, sizeof(desc));
	cr_assert_eq(st, OPTS_OK, "%s: status %d, message \"%s\"", desc, st, msg);
	got = fn(&o);
	cr_assert_eq(got, c->want, "%s: %s %" PRIu64 ", want %" PRIu64, desc, name, got,
		     c->want);
}

ParameterizedTestParameters(opts, request_size)
{
	static struct ncase cases[] = {
		{ { "dir" }, 4 * KIB },
		{ { "-L", "dir" }, 256 * KIB },
		{ { "-s", "8k", "dir" }, 8 * KIB },
		{ { "-L", "-s", "8k", "dir" }, 8 * KIB },
		{ { "-s", "1m", "-L", "dir" }, MIB },
		{ { "-L", "-s", "0", "dir" }, 256 * KIB },
		{ { "-s", "0", "dir" }, 4 * KIB },
		{ { "-s", "1", "dir" }, 1 },
	};
	return cr_make_param_array(struct ncase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ncase *c, opts, request_size)
{
	check_derived(c, opts_request_size, "request size");
}

ParameterizedTestParameters(opts, interval)
{
	static struct ncase cases[] = {
		{ { "dir" }, SEC },
		{ { "-i", "0.1", "dir" }, 100 * MSEC },
		{ { "-i", "0", "dir" }, 0 },
		{ { "-i", "5", "dir" }, 5 * SEC },
		{ { "-l", "400k", "dir" }, 10 * MSEC },    /* 4k at 400k/s */
		{ { "-l", "400k", "-s", "8k", "dir" }, 20 * MSEC },
		{ { "-L", "-l", "25600k", "dir" }, 10 * MSEC }, /* 256k default size */
		{ { "-l", "3", "-s", "1", "dir" }, 333333333 },  /* integer ns, truncated */
		{ { "-r", "100", "dir" }, 10 * MSEC },
		{ { "-r", "3", "dir" }, 333333333 },
		{ { "-r", "0.5", "dir" }, 2 * SEC },        /* longer than the 1 s default */
		{ { "-r", "100", "-b", "4", "dir" }, 10 * MSEC }, /* 1.3: not times the burst */
		{ { "-R", "dir" }, 0 },
		{ { "-R", "-i", "5ms", "dir" }, 5 * MSEC },
		{ { "-i", "1ms", "-l", "400k", "dir" }, 10 * MSEC },
		{ { "-l", "400k", "-i", "20ms", "dir" }, 20 * MSEC },
		{ { "-r", "100", "-i", "50ms", "dir" }, 50 * MSEC },
		{ { "-i", "1ms", "-r", "100", "dir" }, 10 * MSEC },
		{ { "-l", "400k", "-r", "200", "dir" }, 10 * MSEC },
		{ { "-l", "400k", "-r", "50", "dir" }, 20 * MSEC },
		{ { "-R", "-l", "400k", "-r", "20", "-i", "30ms", "dir" }, 50 * MSEC },
		{ { "-R", "-l", "400k", "-r", "20", "-i", "70ms", "dir" }, 70 * MSEC },
		{ { "-R", "-r", "1000", "dir" }, MSEC },
	};
	return cr_make_param_array(struct ncase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ncase *c, opts, interval)
{
	check_derived(c, opts_interval, "interval");
}

ParameterizedTestParameters(opts, deadline)
{
	static struct ncase cases[] = {
		{ { "dir" }, 0 },
		{ { "-w", "5", "dir" }, 5 * SEC },
		{ { "-w", "100ms", "dir" }, 100 * MSEC },
		{ { "-R", "dir" }, 3 * SEC },
		{ { "-R", "-w", "1", "dir" }, SEC },
		{ { "-w", "1", "-R", "dir" }, SEC },
		{ { "-R", "-w", "0", "dir" }, 0 },   /* an explicit -w 0 means no deadline */
		{ { "-B", "dir" }, 0 },
	};
	return cr_make_param_array(struct ncase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ncase *c, opts, deadline)
{
	check_derived(c, opts_deadline, "deadline");
}

/* The helpers read only the struct, so hand-built structs work too. */
Test(opts, derived_values_from_plain_struct)
{
	struct opts o;

	opts_defaults(&o);
	o.speed_limit = 1000;
	o.size = 1;
	cr_assert_eq(opts_interval(&o), MSEC);
	o.speed_limit = 1;
	o.size = UINT64_MAX;
	cr_assert_eq(opts_interval(&o), UINT64_MAX, "huge size/speed must saturate");
	opts_defaults(&o);
	o.rapid = true;
	cr_assert_eq(opts_interval(&o), 0);
	cr_assert_eq(opts_deadline(&o), 3 * SEC);
	o.deadline_set = true;
	o.deadline = 7;
	cr_assert_eq(opts_deadline(&o), 7);
}

/* The asked rate of the saturation method: SPEED / SIZE, -r, 1/-i, x -b; 0 unpaced. */
Test(opts, asked_rate)
{
	struct opts o;

	PARSE_OK(&o, "-s", "256k", "-l", "50m", "dir");
	cr_assert_float_eq(opts_asked_rate(&o), 200.0, 1e-9);
	PARSE_OK(&o, "-r", "70", "dir");
	cr_assert_float_eq(opts_asked_rate(&o), 70.0, 1e-4, "the interval is whole ns");
	PARSE_OK(&o, "-i", "10ms", "-b", "4", "dir");
	cr_assert_float_eq(opts_asked_rate(&o), 400.0, 1e-9);
	PARSE_OK(&o, "dir");
	cr_assert_float_eq(opts_asked_rate(&o), 1.0, 1e-9, "ioping's default: one a second");
	PARSE_OK(&o, "-R", "dir");
	cr_assert_eq(opts_asked_rate(&o), 0, "-R is unpaced");
}

/* Response time: with -Q (even -Q 1) or --response; writes only: -W without -G. */
Test(opts, response_and_writes_only)
{
	struct opts o;

	PARSE_OK(&o, "dir");
	cr_assert(!opts_response(&o) && !opts_writes_only(&o));
	PARSE_OK(&o, "-Q", "1", "dir");
	cr_assert(opts_response(&o), "-Q 1 asks for response time");
	PARSE_OK(&o, "--response", "dir");
	cr_assert(opts_response(&o));
	PARSE_OK(&o, "-W", "dir");
	cr_assert(opts_writes_only(&o));
	PARSE_OK(&o, "-W", "-G", "dir");
	cr_assert(!opts_writes_only(&o), "-G alternates reads and writes");
}

/* ---- miscellany ----------------------------------------------------------- */

Test(opts, long_prefixes_of_help_and_version)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "--he"), OPTS_OK, "msg \"%s\"", msg);
	cr_assert_eq(o.action, OPTS_HELP);
	cr_assert_eq(PARSE(&o, msg, "-vers"), OPTS_OK, "msg \"%s\"", msg);
	cr_assert_eq(o.action, OPTS_VERSION);
}

/* argv is read only: every word is unchanged after parsing. */
Test(opts, argv_not_modified)
{
	char w[6][16] = { "ioprobe", "-qc5", "-time=%T", "dir", "-wo=1", "x" };
	char copy[6][16];
	char *argv[7];
	char msg[OPTS_MSG_MAX];
	struct opts o;

	for (int i = 0; i < 6; i++)
		argv[i] = w[i];
	argv[6] = NULL;
	memcpy(copy, w, sizeof(w));
	cr_assert_eq(opts_parse(4, argv, &o, msg, sizeof(msg)), OPTS_OK, "msg \"%s\"", msg);
	cr_assert_eq(opts_parse(6, argv, &o, msg, sizeof(msg)), OPTS_ERR_USAGE);
	for (int i = 0; i < 6; i++)
		cr_assert_str_eq(argv[i], copy[i], "word %d changed", i);
}

/* Each parse starts from the defaults: nothing leaks from an earlier one. */
Test(opts, parse_starts_from_defaults)
{
	struct opts o;

	PARSE_OK(&o, "-q", "-c", "3", "-J", "-W", "dir");
	PARSE_OK(&o, "other");
	cr_assert_not(o.quiet);
	cr_assert_not(o.json);
	cr_assert_eq(o.count, 0);
	cr_assert_eq(o.write, 0);
	cr_assert_null(o.time_format);
	cr_assert_str_eq(o.path, "other");
}

/* Only the first '=' separates the value. */
Test(opts, value_keeps_later_equals)
{
	struct opts o;

	PARSE_OK(&o, "--engine=a=b", "dir");
	cr_assert_str_eq(o.engine, "a=b");
	PARSE_OK(&o, "-time=%H=%M", "dir");
	cr_assert_str_eq(o.time_format, "%H=%M");
}

Test(opts, entropy_long_forms)
{
	struct opts o;

	PARSE_OK(&o, "-entropy=0x10", "dir");
	cr_assert_eq(o.seed, 16);
	PARSE_OK(&o, "--entropy", "1k", "dir");
	cr_assert_eq(o.seed, 1);
	PARSE_OK(&o, "-e1k", "dir");
	cr_assert_eq(o.seed, 1, "-e1k: attached, and still no suffixes");
}

/* ioprobe's own long options (not in ioping 1.3). */
Test(opts_ioprobe, tui_letter_and_long)
{
	struct opts o;

	PARSE_OK(&o, "-X", ".");
	cr_assert(o.tui);
	PARSE_OK(&o, "--tui", "--no-color", "--ascii", ".");
	cr_assert(o.tui && o.no_color && o.ascii);
}

Test(opts_ioprobe, json_lines_sets_json_and_time_format)
{
	struct opts o;

	PARSE_OK(&o, "--json-lines", ".");
	cr_assert(o.json && o.json_lines);
	cr_assert_str_eq(o.time_format, "%FT%T%z");
}

Test(opts_ioprobe, raw_percentiles)
{
	struct opts o;

	PARSE_OK(&o, "-raw-p", "-p", "5", ".");
	cr_assert(o.raw_percentiles);
	cr_assert_eq(o.print_count, 5);
}

Test(opts_ioprobe, iostat_with_and_without_devices)
{
	struct opts o;

	PARSE_OK(&o, "--iostat", ".");
	cr_assert(o.iostat);
	cr_assert_null(o.iostat_devices);
	PARSE_OK(&o, "--iostat=sda,nvme0n1", ".");
	cr_assert_str_eq(o.iostat_devices, "sda,nvme0n1");
}

Test(opts_ioprobe, ioping_prefixes_still_win)
{
	struct opts o;

	PARSE_OK(&o, "-js", ".");   /* json, not json-lines */
	cr_assert(o.json && !o.json_lines);
	PARSE_OK(&o, "-no", ".");   /* nowait, not no-color */
	cr_assert(o.nowait && !o.no_color);
	PARSE_OK(&o, "-as", ".");   /* async, not ascii */
	cr_assert_str_eq(o.engine, "libaio");
	cr_assert_not(o.ascii);
}

Test(opts_ioprobe, empty_name_is_ambiguous)
{
	char *a[] = { "ioprobe", "-=", "." };
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(opts_parse(3, a, &o, msg, sizeof(msg)), OPTS_ERR_USAGE);
	cr_assert(strstr(msg, "option '-=' is ambiguous; possibilities: '-help' '-version'"),
		  "%s", msg);
}

/*
 * The shortest spelling of each ioprobe-only option: one letter fewer is not
 * that option (it is what ioping 1.3 makes of it, an error or another
 * option). "-" and "--" differ only where ioping would read a short option.
 */
struct pcase {
	char one[24];  /* shortest after one dash */
	char two[24];  /* shortest after two dashes */
	size_t field;  /* offsetof the bool it sets, or SIZE_MAX for engine */
};

ParameterizedTestParameters(opts_ioprobe, shortest_prefix)
{
	static struct pcase cases[] = {
		{ "-ur", "--u", SIZE_MAX },
		{ "-ign", "--ig", offsetof(struct opts, ignore_error) },
		{ "-tui", "--tu", offsetof(struct opts, tui) },
		{ "-no-c", "--no-c", offsetof(struct opts, no_color) },
		{ "-lay", "--la", offsetof(struct opts, layers) },
		{ "-asci", "--asc", offsetof(struct opts, ascii) },
		{ "-json-", "--json-", offsetof(struct opts, json_lines) },
		{ "-raw-", "--raw", offsetof(struct opts, raw_percentiles) },
		{ "-ios", "--io", offsetof(struct opts, iostat) },
	};
	return cr_make_param_array(struct pcase, cases, ARRAY_SIZE(cases));
}

static bool pcase_set(const struct opts *o, const struct pcase *c)
{
	if (c->field == SIZE_MAX)
		return o->engine && !strcmp(o->engine, "io_uring");
	return *(const bool *)((const char *)o + c->field);
}

ParameterizedTest(struct pcase *c, opts_ioprobe, shortest_prefix)
{
	const char *spell[] = { c->one, c->two };
	char msg[OPTS_MSG_MAX], shorter[24];
	struct opts o;

	for (int i = 0; i < 2; i++) {
		cr_assert_eq(PARSE(&o, msg, spell[i], "dir"), OPTS_OK, "%s: %s", spell[i], msg);
		cr_assert(pcase_set(&o, c), "%s", spell[i]);
		snprintf(shorter, sizeof(shorter), "%.*s", (int)strlen(spell[i]) - 1, spell[i]);
		if (!strcmp(shorter, "-") || !strcmp(shorter, "--"))
			continue;
		PARSE(&o, msg, shorter, "dir");
		cr_assert_not(pcase_set(&o, c), "%s must not be the option", shorter);
	}
}

/* -r and -l mean "no pacing" whatever their value (ioping: -r 0 runs flat out). */
Test(opts, zero_rate_or_speed_means_no_pacing)
{
	struct opts o;

	PARSE_OK(&o, "-r", "0", "dir");
	cr_assert_eq(opts_interval(&o), 0);
	PARSE_OK(&o, "-l", "0", "dir");
	cr_assert_eq(opts_interval(&o), 0);
	PARSE_OK(&o, "-rate-limit=0", "-c", "3", "dir");
	cr_assert_eq(opts_interval(&o), 0);
	PARSE_OK(&o, "-r", "0", "-i", "2", "dir");
	cr_assert_eq(opts_interval(&o), 2 * SEC, "-i wins");
	PARSE_OK(&o, "-i", "2", "-l", "0", "dir");
	cr_assert_eq(opts_interval(&o), 2 * SEC, "-i wins in any order");
}

/* A tiny -r (found by fuzz_opts): the interval saturates instead of an undefined cast. */
Test(opts_ioprobe, tiny_rate_saturates_interval)
{
	struct opts o;

	PARSE_OK(&o, "-r", "1e-11", ".");
	cr_assert_eq(opts_interval(&o), UINT64_MAX);
}

Test(opts_ioprobe, depth_and_response)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	PARSE_OK(&o, ".");
	cr_assert_eq(o.depth, 1, "default depth 1");
	cr_assert_not(o.depth_set);
	cr_assert_not(o.response);
	PARSE_OK(&o, "-Q", "8", ".");
	cr_assert_eq(o.depth, 8);
	cr_assert(o.depth_set);
	PARSE_OK(&o, "-Q32", ".");
	cr_assert_eq(o.depth, 32);
	PARSE_OK(&o, "--depth=4", ".");
	cr_assert_eq(o.depth, 4);
	PARSE_OK(&o, "-depth", "2", ".");
	cr_assert_eq(o.depth, 2);
	PARSE_OK(&o, "-Q", "1", ".");
	cr_assert(o.depth_set, "-Q 1 is given: response times shown");
	PARSE_OK(&o, "--response", ".");
	cr_assert(o.response);
	PARSE_OK(&o, "-resp", ".");
	cr_assert(o.response);
	cr_assert_eq(PARSE(&o, msg, "-Q", "0", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-Q: the queue depth must be 1 to 4096");
	cr_assert_eq(PARSE(&o, msg, "-Q", "4097", "."), OPTS_ERR);
	cr_assert_eq(PARSE(&o, msg, "-Q", "x", "."), OPTS_ERR);
	/* -re stays ioping's -read-write: --response needs a prefix ioping does not read */
	PARSE_OK(&o, "-re", ".");
	cr_assert(o.read_write);
	cr_assert_not(o.response);
}

/* Several destinations: kept in order, path is the first, at most OPTS_MAX_TARGETS. */
Test(opts, several_targets)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];
	static char names[OPTS_MAX_TARGETS + 1][16];
	static const char *words[OPTS_MAX_TARGETS + 4];

	cr_assert_eq(PARSE(&o, msg, "-c", "3", "b", "-q", "a", "--", "-x"), OPTS_OK, "%s", msg);
	cr_assert_eq(o.npaths, 3);
	cr_assert_str_eq(o.paths[0], "b");
	cr_assert_str_eq(o.paths[1], "a");
	cr_assert_str_eq(o.paths[2], "-x");
	cr_assert_str_eq(o.path, "b");
	cr_assert_eq(o.count, 3);
	cr_assert_eq(PARSE(&o, msg, "dir"), OPTS_OK);
	cr_assert_eq(o.npaths, 1);

	words[0] = "ioprobe";
	for (int i = 0; i <= OPTS_MAX_TARGETS; i++) {
		snprintf(names[i], sizeof(names[i]), "t%d", i);
		words[i + 1] = names[i];
	}
	cr_assert_eq(opts_parse(OPTS_MAX_TARGETS + 1, (char *const *)words, &o, msg, sizeof(msg)),
		     OPTS_OK, "%s", msg);
	cr_assert_eq(o.npaths, OPTS_MAX_TARGETS);
	cr_assert_str_eq(o.paths[OPTS_MAX_TARGETS - 1], "t255");
	cr_assert_eq(opts_parse(OPTS_MAX_TARGETS + 2, (char *const *)words, &o, msg, sizeof(msg)),
		     OPTS_ERR);
	cr_assert_str_eq(msg, "too many targets: 257 (at most 256)");
}

/* A plain number right after an option word is marked (`-ca 3 dir`), nothing else is. */
Test(opts, number_after_option_marked)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(PARSE(&o, msg, "-ca", "3", "dir"), OPTS_OK, "%s", msg);
	cr_assert_eq(o.npaths, 2);
	cr_assert_str_eq(o.path_after_option[0], "-ca");
	cr_assert_null(o.path_after_option[1]);
	cr_assert_eq(PARSE(&o, msg, "-C", "0.5", "dir"), OPTS_OK, "%s", msg);
	cr_assert_str_eq(o.path_after_option[0], "-C");
	/* a value taken by its option, a name that is no number, a number after a path or "--" */
	cr_assert_eq(PARSE(&o, msg, "-c", "3", "dir", "7", "-q", "x3", "--", "5"), OPTS_OK, "%s",
		     msg);
	cr_assert_eq(o.npaths, 4);
	for (unsigned i = 0; i < o.npaths; i++)
		cr_assert_null(o.path_after_option[i], "path %u", i);
	cr_assert_eq(PARSE(&o, msg, "3"), OPTS_OK, "%s", msg);
	cr_assert_null(o.path_after_option[0]);
}

/* --check thresholds (issue 26): a unit, WARN not above CRIT, no empty half; --check-iops
 * WARN not below CRIT (iops alerts below them); --check-timeout above 0. */
Test(opts_ioprobe, check_thresholds_refused_when_ambiguous)
{
	static const struct { const char *arg, *opt, *msg; } bad[] = {
		{ "--check", "10,50", "--check takes times with a unit (10ms,50ms): \"10\"" },
		{ "--check", "10ms,50", "--check takes times with a unit (10ms,50ms): \"50\"" },
		{ "--check", "50ms,10ms", "--check: WARN above CRIT: \"50ms,10ms\"" },
		{ "--check", "10ms,", "--check takes WARN,CRIT: \"10ms,\"" },
		{ "--check", ",10ms", "--check takes WARN,CRIT: \",10ms\"" },
		{ "--check-iops", "1,1G",
		  "--check-iops: WARN below CRIT (iops alerts below them): \"1,1G\"" },
		{ "--check-timeout", "0", "--check-timeout must be above 0: \"0\"" },
	};
	struct opts o;
	char msg[OPTS_MSG_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *w[] = { "ioprobe", "--check", "1ms,2ms", bad[i].arg, bad[i].opt, "/tmp",
				    NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_ERR, "%s %s", bad[i].arg, bad[i].opt);
		cr_assert_str_eq(msg, bad[i].msg);
	}
	{
		const char *w[] = { "ioprobe", "--check", "10ms,10ms", "--check-iops", "500,100",
				    "--check-timeout", "5s", "/tmp", NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert_float_eq(o.check_warn.hi, 1e7, 1e-6);
		cr_assert_eq(o.check_timeout, 5000000000ull);
	}
}

/* --check and --check-iops take the guidelines' ranges too. */
Test(opts_ioprobe, check_ranges)
{
	const char *w[] = { "ioprobe", "--check", "@1ms:5ms,~:50ms", "--check-iops", "500,100:",
			    "/tmp", NULL };
	const char *bad[] = { "ioprobe", "--check", "5ms:1ms,10ms", "/tmp", NULL };
	struct opts o;
	char msg[OPTS_MSG_MAX];

	cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
	cr_assert(o.check_warn.inside);
	cr_assert_float_eq(o.check_warn.lo, 1e6, 1e-6);
	cr_assert_float_eq(o.check_warn.hi, 5e6, 1e-6);
	cr_assert(isinf(o.check_crit.lo) && o.check_crit.lo < 0);
	cr_assert_float_eq(o.check_crit.hi, 5e7, 1e-6);
	cr_assert_float_eq(o.check_iops_warn.lo, 500, 1e-9, "a plain iops value: below it");
	cr_assert(isinf(o.check_iops_warn.hi));
	cr_assert_float_eq(o.check_iops_crit.lo, 100, 1e-9);
	cr_assert_eq(run_parse(&o, msg, bad), OPTS_ERR);
	cr_assert_str_eq(msg, "--check: \"5ms:1ms\" is not a threshold or range ([@]lo:hi, lo:, "
			      "~:hi)");
}

/* --sweep across sizes and depths: -s and -Q as lists, -Q auto, the thresholds, --yes. */
Test(opts_ioprobe, sweep_grid_lists)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	PARSE_OK(&o, "--sweep", "-s", "256k,512k,5m", "-Q", "1,4", ".");
	cr_assert_eq(o.nsizes, 3);
	cr_assert(o.sizes[0] == 256 * KIB && o.sizes[1] == 512 * KIB && o.sizes[2] == 5 * MIB);
	cr_assert_eq(o.size, 256 * KIB, "the first size is -s");
	cr_assert_eq(o.ndepths, 2);
	cr_assert(o.depths[0] == 1 && o.depths[1] == 4 && o.depth == 1);
	cr_assert(opts_sweep_grid(&o));
	cr_assert_float_eq(o.best_aqu, 1.0, 1e-9, "default thresholds");
	cr_assert_float_eq(o.limit_aqu, 4.0, 1e-9);
	cr_assert_not(o.yes);
	PARSE_OK(&o, "--sweep", "-Q", "auto", "--best-aqu", "0.9", "--limit-aqu=2.5", "--yes", ".");
	cr_assert(o.depth_auto && o.depth == 1 && o.depth_set && o.yes);
	cr_assert_float_eq(o.best_aqu, 0.9, 1e-9);
	cr_assert_float_eq(o.limit_aqu, 2.5, 1e-9);
	cr_assert(opts_sweep_grid(&o));
	PARSE_OK(&o, "--sweep", "-s", "256k,512k", "-s", "4k", ".");
	cr_assert(o.nsizes == 0 && o.size == 4 * KIB, "the last -s wins");
	cr_assert_not(opts_sweep_grid(&o), "one size, one depth: today's sweep");
	PARSE_OK(&o, "--sweep", "-Q", "1,4", "-Q", "2", ".");
	cr_assert(o.ndepths == 0 && o.depth == 2 && !o.depth_auto);
	cr_assert_eq(PARSE(&o, msg, "-s", "256k,512k", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-s takes a list only with --sweep");
	cr_assert_eq(PARSE(&o, msg, "-Q", "auto", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-Q takes a list or auto only with --sweep");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "4k,,8k", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-s: bad size list \"4k,,8k\"");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "4k,", "."), OPTS_ERR);
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "4k,0", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-s: a size must be above 0 (\"0\")");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-Q", "1,0", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-Q: the queue depth must be 1 to 4096");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-Q", ",4", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "-Q: bad depth list \",4\"");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "--best-aqu", "1", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "--best-aqu goes with --sweep across sizes or depths (-s A,B or "
			 "-Q A,B or -Q auto)");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "4k,8k", "--limit-aqu", "x", "."), OPTS_ERR);
	cr_assert_str_eq(msg, "--limit-aqu takes an aqu-sz above 0 (such as 1 or 2.5): \"x\"");
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "4k,8k", "--best-aqu", "-1", "."), OPTS_ERR);
	/* -Q 64 x 5 MiB x 1 target fits; -Q auto counts its deepest, 64 */
	cr_assert_eq(PARSE(&o, msg, "--sweep", "-s", "20m,4k", "-Q", "auto", "."), OPTS_ERR);
	cr_assert(strstr(msg, "-Q 64 x -s 20 MiB x 1 target needs 1.25 GiB"), "%s", msg);
}

/* --yes only after two dashes: -yes stays ioping 1.3's -y -e s. */
Test(opts_ioprobe, yes_needs_two_dashes)
{
	struct opts o;

	PARSE_OK(&o, "-yes", ".");
	cr_assert(o.dsync && !o.yes, "-yes is -y -e s");
	PARSE_OK(&o, "--yes", ".");
	cr_assert(o.yes && !o.dsync);
	PARSE_OK(&o, "--ye", ".");
	cr_assert(o.yes, "a prefix after two dashes");
}

/* Target names (issue 25 item 5): NAME=PATH, --name NAME,..., and what is refused. */
Test(opts_ioprobe, target_names)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	{
		const char *w[] = { "ioprobe", "db=/dev/sda", "/tmp", "./a=b", "log:1=/var/x=y",
				    NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert_eq(o.npaths, 4);
		cr_assert_str_eq(o.paths[0], "/dev/sda");
		cr_assert_str_eq(o.names[0], "db");
		cr_assert_str_eq(o.path, "/dev/sda");
		cr_assert_str_eq(o.name, "db");
		cr_assert_null(o.names[1]);
		cr_assert_str_eq(o.paths[2], "./a=b", "a '/' before '=': a path");
		cr_assert_null(o.names[2]);
		cr_assert_str_eq(o.paths[3], "/var/x=y", "split at the first '='");
		cr_assert_str_eq(o.names[3], "log:1");
	}
	{
		const char *w[] = { "ioprobe", "--name", "a,b", "/tmp", "/var", "/srv", NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert_str_eq(o.names[0], "a");
		cr_assert_str_eq(o.names[1], "b");
		cr_assert_null(o.names[2], "fewer names than targets: the rest unnamed");
	}
	{
		const char *w[] = { "ioprobe", "x=", "/tmp", NULL }; /* "x=" is a path */

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert_str_eq(o.paths[0], "x=");
		cr_assert_null(o.names[0]);
	}
	static const struct { const char *a, *b, *c, *msg; } bad[] = {
		{ "--name", "a b", "/tmp", "--name: \"a b\": a name is 1 to 40 letters, digits or "
					   "_ . : + -" },
		{ "--name", "a,,b", "/tmp", "--name: \"\": a name is 1 to 40 letters, digits or "
					    "_ . : + -" },
		{ "--name", "a,b", "/tmp", "--name: more names than targets (1)" },
		{ "--name", "a", "x=/tmp", "--name: \"/tmp\" is named x already" },
		{ "a=/tmp", "a=/var", "/srv", "duplicate target name \"a\"" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *w[] = { "ioprobe", bad[i].a, bad[i].b, bad[i].c, NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_ERR, "%s %s %s", bad[i].a, bad[i].b,
			     bad[i].c);
		cr_assert_str_eq(msg, bad[i].msg);
	}
}

/* ---- --record, --record-requests, --replay ------------------------------ */

Test(opts, record_and_replay)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	PARSE_OK(&o, "--record", "r.jsonl", "-record", "x.gz", "--record-requests", "dir");
	cr_assert_str_eq(o.record, "x.gz", "the last --record wins");
	cr_assert(o.record_requests);
	cr_assert_str_eq(o.path, "dir");
	cr_assert_eq(o.argc, 7);
	PARSE_OK(&o, "--replay", "r.jsonl", "-q", "-P", "2");
	cr_assert_str_eq(o.replay, "r.jsonl");
	cr_assert_null(o.path, "a replay has no destination");
	PARSE_OK(&o, "-repl=r.jsonl");
	cr_assert_str_eq(o.replay, "r.jsonl");
	PARSE_OK(&o, "--repl=r.jsonl");
	cr_assert_str_eq(o.replay, "r.jsonl");
	/* --rep is a prefix of --replay and --report: ambiguous since --report came */
	cr_assert_eq(PARSE(&o, msg, "--rep=r.jsonl"), OPTS_ERR_USAGE);
	cr_assert_eq(PARSE(&o, msg, "--replay", "r.jsonl", "dir"), OPTS_ERR);
	cr_assert_str_eq(msg, "--replay takes no destination: \"dir\"");
	cr_assert_eq(PARSE(&o, msg, "--record=", "dir"), OPTS_ERR);
	cr_assert_str_eq(msg, "--record needs a file name");
	cr_assert_eq(PARSE(&o, msg, "--replay="), OPTS_ERR);
	cr_assert_str_eq(msg, "--replay needs a file name");
	/* a prefix of record is one of record-requests too: ambiguous, as getopt says */
	cr_assert_eq(PARSE(&o, msg, "--reco", "x", "dir"), OPTS_ERR_USAGE);
	/* ioping's -r (rate) keeps its meaning: -rec is -r ec, no prefix of ours */
	cr_assert_neq(PARSE(&o, msg, "-rec", "dir"), OPTS_OK);
}

/* --report FILE.html: with --replay (no destination) or --record. */
Test(opts, report)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	PARSE_OK(&o, "--replay", "r.jsonl", "--report", "out.html");
	cr_assert_str_eq(o.report, "out.html");
	cr_assert_null(o.path);
	PARSE_OK(&o, "--record", "r.jsonl", "-report=a.html", "dir");
	cr_assert_str_eq(o.report, "a.html");
	cr_assert_str_eq(o.record, "r.jsonl");
	PARSE_OK(&o, "--repo=b.html", "dir");
	cr_assert_str_eq(o.report, "b.html");
	cr_assert_eq(PARSE(&o, msg, "--report=", "dir"), OPTS_ERR);
	cr_assert_str_eq(msg, "--report needs a file name");
}

/* --percentiles LIST (issue 25 item 6). */
Test(opts_ioprobe, percentiles)
{
	struct opts o;
	char msg[OPTS_MSG_MAX];

	{
		const char *w[] = { "ioprobe", "/tmp", NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert_not(o.pcts_set);
		cr_assert_eq(o.pcts.n, 4, "the default: 50 90 99 99.9");
	}
	{
		const char *w[] = { "ioprobe", "--percentiles", "50,95,99.99", "/tmp", NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_OK, "%s", msg);
		cr_assert(o.pcts_set);
		cr_assert_eq(o.pcts.n, 3);
		cr_assert_float_eq(o.pcts.p[1], 95, 1e-9);
		cr_assert_float_eq(o.pcts.p[2], 99.99, 1e-9);
	}
	static const struct { const char *arg, *msg; } bad[] = {
		{ "0", "--percentiles takes numbers above 0 and up to 100, comma-separated "
		       "(50,95,99.9): \"0\"" },
		{ "100.5", "--percentiles takes numbers above 0 and up to 100, comma-separated "
			   "(50,95,99.9): \"100.5\"" },
		{ "50,", "--percentiles takes numbers above 0 and up to 100, comma-separated "
			 "(50,95,99.9): \"50,\"" },
		{ "50,x", "--percentiles takes numbers above 0 and up to 100, comma-separated "
			  "(50,95,99.9): \"50,x\"" },
		{ "99,99", "--percentiles: 99 twice: \"99,99\"" },
		{ "1,2,3,4,5,6,7,8,9", "--percentiles: at most 8: \"1,2,3,4,5,6,7,8,9\"" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *w[] = { "ioprobe", "--percentiles", bad[i].arg, "/tmp", NULL };

		cr_assert_eq(run_parse(&o, msg, w), OPTS_ERR, "%s", bad[i].arg);
		cr_assert_str_eq(msg, bad[i].msg);
	}
}
