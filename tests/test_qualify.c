/* Unit tests for src/disk/qualify.c: profiles, thresholds, margins, the report and JSON. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qualify.h"

/* A word checker that refuses "--frob" as the CLI's parser would. */
static int check_words(void *ctx, int argc, const char *const *argv, char *msg, size_t len)
{
	(void)ctx;
	cr_assert_str_eq(argv[0], "ioprobe");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--frob")) {
			snprintf(msg, len, "unrecognized option '--frob'");
			return -1;
		}
	return 0;
}

static int parse(const char *text, struct qualify_profile *p, char *msg, size_t len)
{
	return qualify_parse(text, "file", check_words, NULL, p, msg, len);
}

/* Fill s with n samples of ns each. */
static void fill(struct stats *s, uint64_t n, uint64_t ns)
{
	stats_init(s);
	for (uint64_t i = 0; i < n; i++)
		stats_add(s, ns);
}

Test(qualify, db_is_built_in_and_parses)
{
	struct qualify_profile p;
	char msg[256];

	cr_assert_null(qualify_builtin("nosuch"));
	cr_assert_eq(parse(qualify_builtin("db"), &p, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(p.name, "db");
	cr_assert_eq(p.nsteps, 2);
	cr_assert_str_eq(p.steps[0].options, "-W -L -C -y -s 32k -c 40000 -w 30s -a 0 -i 0");
	cr_assert_eq(p.steps[0].nchecks, 1);
	cr_assert_eq(p.steps[0].checks[0].metric, QUALIFY_MBS);
	cr_assert_eq(p.steps[0].checks[0].limit, 150);
	cr_assert_eq(p.steps[1].nchecks, 2);
	cr_assert_eq(p.steps[1].checks[0].metric, QUALIFY_IOPS);
	cr_assert_eq(p.steps[1].checks[0].op, QUALIFY_GT);
	cr_assert_eq(p.steps[1].checks[0].limit, 5000);
	cr_assert_eq(p.steps[1].checks[0].dir, QUALIFY_ALL);
	cr_assert(strstr(p.steps[1].about, "stands in for fio's 32 psync jobs"));
}

Test(qualify, step_words_and_argv)
{
	struct qualify_profile p;
	const char *argv[8];
	char msg[256];

	cr_assert_eq(parse("qualify mine\nstep s1 -G -s 4k -w 2s # comment\nabout two words\n"
			   "require read p99.9 <= 2.5ms\nrequire write IOPS >= 10\n", &p, msg,
			   sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(p.name, "mine");
	cr_assert_eq(qualify_step_argv(&p.steps[0], argv, 8), 6);
	cr_assert_str_eq(argv[1], "-G");
	cr_assert_str_eq(argv[5], "2s");
	cr_assert_str_eq(p.steps[0].about, "two words");
	cr_assert_eq(p.steps[0].checks[0].dir, QUALIFY_READ);
	cr_assert_eq(p.steps[0].checks[0].metric, QUALIFY_PCT);
	cr_assert_float_eq(p.steps[0].checks[0].pct, 99.9, 1e-9);
	cr_assert_eq(p.steps[0].checks[0].limit, 2500000);
	cr_assert_eq(p.steps[0].checks[0].op, QUALIFY_LE);
	cr_assert_eq(p.steps[0].checks[0].line, 4);
	cr_assert_eq(p.steps[0].checks[1].dir, QUALIFY_WRITE);
	cr_assert_eq(p.steps[0].checks[1].op, QUALIFY_GE);
}

/* Each bad profile names its line and reason. */
Test(qualify, errors_name_the_line_and_the_reason)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "step a -c 1 --frob\nrequire IOPS > 1\n", "line 1: step \"a\": unrecognized option '--frob'" },
		{ "step a -c 1\nrequire read p99 < 20\n", "line 2: a latency threshold needs a unit (ns, us, ms, s): \"20\"" },
		{ "step a -c 1\n\nrequire IOPS >> 5\n", "line 3: unknown comparison \">>\"" },
		{ "step a -c 1\nrequire IOPS > 5k\n", "line 2: IOPS takes a plain number: \"5k\"" },
		{ "step a -c 1\nrequire iops > \n", "line 2: a threshold is" },
		{ "step a -c 1\nrequire p0 < 1ms\n", "line 2: unknown metric \"p0\"" },
		{ "step a -c 1\nrequire p99 < 1parsec\n", "line 2: not a time: \"1parsec\"" },
		{ "require IOPS > 1\n", "line 1: \"require\" before the first step" },
		{ "stop a -c 1\n", "line 1: unknown keyword \"stop\"" },
		{ "step a -c 1 /dev/sda\nrequire IOPS > 1\n", "line 1: step \"a\": \"/dev/sda\" is no option" },
		{ "step a -c 1\nrequire IOPS > 1\nstep a -c 2\n", "line 3: a second step \"a\"" },
		{ "step a -c 1\n", "line 1: step \"a\" has no threshold" },
		{ "# nothing\n", "no step" },
		{ "step\n", "line 1: a step is \"step NAME OPTION...\"" },
	};
	struct qualify_profile p;
	char msg[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse(bad[i].text, &p, msg, sizeof(msg)), -EINVAL, "case %zu", i);
		cr_assert(!strncmp(msg, bad[i].msg, strlen(bad[i].msg)), "case %zu: \"%s\"", i, msg);
	}
}

/* The notes' example: 1,484 read + 1,494 write IOPS of 32 KiB over 10 s fails both marks. */
Test(qualify, notes_example_fails_both_with_margins)
{
	struct qualify_profile p;
	struct stats all, rd, wr;
	struct qualify_measure m[2] = { 0 };
	struct qualify_verdict v[2];
	struct sbuf sb = SBUF_INIT;
	char msg[256];

	cr_assert_eq(parse(qualify_builtin("db"), &p, msg, sizeof(msg)), 0);
	fill(&rd, 14840, 192000000);
	fill(&wr, 14940, 190000);
	all = rd;
	stats_merge(&all, &wr);
	/* step 1 passed: 40000 writes in 5 s */
	struct stats s1;

	fill(&s1, 40000, 100000);
	m[0] = (struct qualify_measure){ .size = 32768, .wall_ns = 5000000000ull, .count = 40000,
					 .requests = 40000,
					 .all = &s1, .write = &s1, .engine = "sync", .depth = 1 };
	m[1] = (struct qualify_measure){ .size = 32768, .wall_ns = 10000000000ull, .all = &all,
					 .read = &rd, .write = &wr, .engine = "libaio", .depth = 32 };
	qualify_judge(&p.steps[0], &m[0], &v[0]);
	qualify_judge(&p.steps[1], &m[1], &v[1]);
	cr_assert(v[0].pass && v[0].complete);
	cr_assert(!v[1].pass);
	cr_assert_float_eq(v[1].r[0].value, 2978, 1e-6);
	cr_assert_float_eq(v[1].r[0].margin_pct, (2978.0 - 5000) / 5000 * 100, 1e-9);
	cr_assert_float_eq(v[1].r[1].value, 2978 * 32768 / 1e6, 1e-6);
	cr_assert(!qualify_passed(v, 2));
	qualify_format_final(&sb, &p, m, v, 2);
	cr_assert_str_eq(sbuf_str(&sb), "\nQUALIFY db: FAIL (randrw: IOPS 2978 < 5000; 97.6 MB/s < 150)\n");
	sbuf_reset(&sb);
	qualify_format_step(&sb, &p.steps[1], 1, 2, &m[1], &v[1]);
	cr_assert(strstr(sbuf_str(&sb), "  read  p50/p90/p99/p99.9 = 192 ms / "), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "  write p50/p90/p99/p99.9 = 190 us / "), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "(read 1484 IOPS, 48.6 MB/s; write 1494 IOPS, 49.0 MB/s)"));
	cr_assert(strstr(sbuf_str(&sb), "  IOPS 2978 > 5000: FAIL (margin -40.4 %)\n"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "  97.6 MB/s > 150: FAIL (margin -34.9 %)\n"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "  device: - (no block device under the target)\n"));
	sbuf_free(&sb);
}

Test(qualify, a_pass_and_its_margins)
{
	struct qualify_profile p;
	struct stats s;
	struct qualify_measure m = { 0 };
	struct qualify_verdict v;
	struct sbuf sb = SBUF_INIT;
	char msg[256];

	cr_assert_eq(parse("qualify x\nstep a -W -w 1s\nrequire MB/s > 100\nrequire write p99 < 1ms\n"
			   "require read p99 < 1ms\n", &p, msg, sizeof(msg)), 0);
	fill(&s, 10000, 500000);
	m = (struct qualify_measure){ .size = 65536, .wall_ns = 1000000000ull, .all = &s,
				      .write = &s, .have_dev = true, .dev = "sdb", .aqu = 0.98,
				      .await_ms = 0.49, .util = 97.5, .engine = "sync" };
	qualify_judge(&p.steps[0], &m, &v);
	cr_assert(v.r[0].pass);
	cr_assert_float_eq(v.r[0].margin_pct, (655.36 - 100) / 100 * 100, 1e-9);
	cr_assert(v.r[1].pass);
	cr_assert_float_eq(v.r[1].margin_pct, 50, 1e-9);
	/* no read in a write step: that threshold cannot hold */
	cr_assert(!v.r[2].pass && isnan(v.r[2].value));
	qualify_format_step(&sb, &p.steps[0], 0, 1, &m, &v);
	cr_assert(strstr(sbuf_str(&sb), "  device sdb: aqu-sz 0.98  await 0.49 ms  %util 97.5\n"));
	cr_assert(strstr(sbuf_str(&sb), "  write p99 500 us < 1 ms: PASS (margin +50.0 %)\n"),
		  "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "  read p99 - < 1 ms: FAIL (no such request)\n"), "%s",
		  sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(qualify, equality_fails_a_strict_mark)
{
	struct qualify_profile p;
	struct stats s;
	struct qualify_measure m;
	struct qualify_verdict v;
	struct sbuf sb = SBUF_INIT;
	char msg[256];

	cr_assert_eq(parse("qualify e\nstep a -w 1s\nrequire IOPS > 5000\nrequire IOPS >= 5000\n", &p,
			   msg, sizeof(msg)), 0);
	fill(&s, 5000, 1000);
	m = (struct qualify_measure){ .size = 4096, .wall_ns = 1000000000ull, .all = &s, .read = &s,
				      .engine = "sync" };
	qualify_judge(&p.steps[0], &m, &v);
	cr_assert(!v.r[0].pass);
	cr_assert(v.r[1].pass);
	qualify_format_final(&sb, &p, &m, &v, 1);
	cr_assert_str_eq(sbuf_str(&sb), "\nQUALIFY e: FAIL (a: IOPS 5000 not > 5000)\n");
	sbuf_free(&sb);
}

/* A step with -c and -w that ends at its deadline before its count has failed. */
Test(qualify, an_unfinished_count_fails)
{
	struct qualify_profile p;
	struct stats s;
	struct qualify_measure m;
	struct qualify_verdict v;
	struct sbuf sb = SBUF_INIT;
	char msg[256];

	cr_assert_eq(parse(qualify_builtin("db"), &p, msg, sizeof(msg)), 0);
	fill(&s, 2100, 14000000);
	m = (struct qualify_measure){ .size = 32768, .wall_ns = 30000000000ull, .count = 40000,
				      .requests = 2100, .deadline_ns = 30000000000ull, .all = &s, .write = &s,
				      .engine = "sync" };
	qualify_judge(&p.steps[0], &m, &v);
	cr_assert(!v.complete && !v.pass);
	qualify_format_step(&sb, &p.steps[0], 0, 2, &m, &v);
	cr_assert(strstr(sbuf_str(&sb), "  stopped at 30 s after 2100 of 40000 requests: FAIL\n"),
		  "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	qualify_format_final(&sb, &p, &m, &v, 1);
	cr_assert_str_eq(sbuf_str(&sb), "\nQUALIFY db: FAIL (dsync-write: 2100 of 40000 requests in "
			 "the time allowed; 2.3 MB/s < 150)\n");
	sbuf_free(&sb);
}

Test(qualify, json_step_is_one_object)
{
	struct qualify_profile p;
	struct stats s;
	struct qualify_measure m;
	struct qualify_verdict v;
	struct sbuf sb = SBUF_INIT;
	char msg[256];

	cr_assert_eq(parse("step \"a\\ -w 1s\nrequire IOPS > 1\n", &p, msg, sizeof(msg)), 0);
	fill(&s, 10, 1000);
	m = (struct qualify_measure){ .size = 4096, .wall_ns = 1000000000ull, .all = &s, .read = &s,
				      .engine = "sync" };
	qualify_judge(&p.steps[0], &m, &v);
	qualify_json_step(&sb, &p.steps[0], &m, &v);
	cr_assert(strstr(sbuf_str(&sb), "{\"name\":\"\\\"a\\\\\","), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"write\":null"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"device\":null"));
	cr_assert(strstr(sbuf_str(&sb), "\"checks\":[{\"metric\":\"IOPS\",\"op\":\">\",\"limit\":1,"
			 "\"value\":10,\"pass\":true,\"margin_pct\":900.00}]"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"latency_ns\":{\"p50\":1000,"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* -c counts the warmup request as everywhere: 20 made, 19 measured is complete. */
Test(qualify, the_count_counts_the_warmup)
{
	struct qualify_profile p;
	struct stats s;
	struct qualify_measure m;
	struct qualify_verdict v;
	char msg[256];

	cr_assert_eq(parse("step a -c 20 -w 5s\nrequire IOPS > 1\n", &p, msg, sizeof(msg)), 0);
	fill(&s, 19, 1000);
	m = (struct qualify_measure){ .size = 4096, .wall_ns = 1000000, .count = 20, .requests = 20,
				      .deadline_ns = 5000000000ull, .all = &s, .read = &s,
				      .engine = "sync" };
	qualify_judge(&p.steps[0], &m, &v);
	cr_assert(v.complete && v.pass);
	m.requests = 19;
	qualify_judge(&p.steps[0], &m, &v);
	cr_assert(!v.complete && !v.pass);
}
