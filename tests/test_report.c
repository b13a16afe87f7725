/*
 * Tests for src/out/report.c: exact request lines, summaries and raw lines, and the
 * structure of the JSON records.
 *
 * The expected human and raw texts are ioping 1.3's own output quoted in
 * runs of Debian's ioping 1.3 (/usr/bin/ioping: request lines, summaries, raw
 * lines; and one run for the
 * empty summary), rebuilt here from latencies that reproduce those printed
 * figures. ioprobe's deliberate differences: the header says "ioprobe
 * statistics", a percentile line follows min/avg/max/mdev, "failed" and
 * "skipped" counts may precede "generated", and the JSON records carry offset,
 * notice, start, lateness, percentiles, failed and skipped.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "iostat.h"
#include "msg.h"
#include "report.h"
#include "sbuf.h"
#include "stats.h"

#include "common.h"
#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)

/* 2026-11-21 05:08:59.123456789 UTC */
#define REALTIME (UINT64_C(1795237739) * UINT64_C(1000000000) + UINT64_C(123456789))

/* 252.0 GiB: not a whole number of GiB, so one decimal. */
#define FS_SIZE (252 * GIB + 3 * MIB)

static void use_tz(const char *tz)
{
	cr_assert_eq(setenv("TZ", tz, 1), 0);
	tzset();
}

static struct report_cfg dir_cfg(void)
{
	struct report_cfg c = { { "/mnt/data", "ext4", "/dev/sda", FS_SIZE, NULL }, NULL, 4096,
				false, false, false, false, false, false, NULL };

	return c;
}

static struct report_cfg blk_cfg(void)
{
	struct report_cfg c = { { "/dev/loop2", "block device", "", 256 * MIB, NULL }, NULL, 4096,
				false, false, false, false, false, false, NULL };

	return c;
}

static struct sample smp(uint64_t request, enum op op, int64_t result, uint64_t time)
{
	struct sample s = { 0 };

	s.request = request;
	s.op = op;
	s.size = 4096;
	s.result = result;
	s.time = time;
	return s;
}

/* A tally holding the given valid latencies, request count and wall time. */
static void make_tally(struct tally *t, const uint64_t *v, size_t n, uint64_t requests,
		       uint64_t wall)
{
	memset(t, 0, sizeof(*t));
	stats_init(&t->valid);
	stats_init(&t->response);
	for (size_t i = 0; i < n; i++)
		stats_add(&t->valid, v[i]);
	t->requests = requests;
	t->wall = wall;
}

/* ---- report_target_desc ------------------------------------------------- */

struct dcase {
	char fstype[24];
	char device[24];
	bool null_device;
	uint64_t size;
	char want[64];
};

ParameterizedTestParameters(report, target_desc)
{
	static struct dcase cases[] = {
		{ "ext4", "/dev/vda", false, 270553174016u, "ext4 /dev/vda 252.0 GiB" },
		{ "ext4", "/dev/sda", false, FS_SIZE, "ext4 /dev/sda 252.0 GiB" },
		{ "tmpfs", "tmpfs", false, 4 * GIB, "tmpfs tmpfs 4 GiB" },
		{ "block device", "", false, 256 * MIB, "block device 256 MiB" },
		{ "block device", "", true, 64 * MIB, "block device 64 MiB" },
		{ "character device", "", false, 0, "character device 0 B" },
		{ "xfs", "/dev/dm-0", false, 1000, "xfs /dev/dm-0 1000 B" },
	};
	return cr_make_param_array(struct dcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct dcase *c, report, target_desc)
{
	struct sbuf sb = SBUF_INIT;
	struct report_target t = { "x", c->fstype, c->null_device ? NULL : c->device,
				   c->size, NULL };

	report_target_desc(&sb, &t);
	cr_assert_str_eq(sbuf_str(&sb), c->want, "%s/%s/%" PRIu64 ": \"%s\", want \"%s\"",
			 c->fstype, c->device, c->size, sbuf_str(&sb), c->want);
	sbuf_free(&sb);
}

/* It appends: earlier contents stay. */
Test(report, target_desc_appends)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg c = blk_cfg();

	sbuf_puts(&sb, "(");
	report_target_desc(&sb, &c.target);
	sbuf_puts(&sb, ")");
	cr_assert_str_eq(sbuf_str(&sb), "(block device 256 MiB)");
	sbuf_free(&sb);
}

/* ---- request lines ------------------------------------------------------ */

struct lcase {
	bool block;          /* blk_cfg() instead of dir_cfg() */
	uint64_t request;
	enum op op;
	int64_t result;
	uint64_t time;
	enum notice notice;
	char want[160];
};

#define DIR_DESC "/mnt/data (ext4 /dev/sda 252.0 GiB)"
#define BLK_DESC "/dev/loop2 (block device 256 MiB)"

ParameterizedTestParameters(report, request_line)
{
	static struct lcase cases[] = {
		/* docs section 3.2, as ioping printed them */
		{ false, 1, OP_READ, 4096, 100200, NOTICE_WARMUP,
		  "4 KiB <<< " DIR_DESC ": request=1 time=100.2 us (warmup)\n" },
		{ false, 2, OP_READ, 4096, 288600, NOTICE_NONE,
		  "4 KiB <<< " DIR_DESC ": request=2 time=288.6 us\n" },
		{ true, 3, OP_READ, 4096, 51600, NOTICE_NONE,
		  "4 KiB <<< " BLK_DESC ": request=3 time=51.6 us\n" },
		{ true, 1, OP_WRITE, 4096, 427500, NOTICE_WARMUP,
		  "4 KiB >>> " BLK_DESC ": request=1 time=427.5 us (warmup)\n" },
		{ true, 3, OP_WRITE, 4096, 288300, NOTICE_NONE,
		  "4 KiB >>> " BLK_DESC ": request=3 time=288.3 us\n" },
		/* the other notices */
		{ false, 7, OP_READ, 4096, 5680, NOTICE_FAST,
		  "4 KiB <<< " DIR_DESC ": request=7 time=5.68 us (fast)\n" },
		{ false, 8, OP_READ, 4096, 12 * MS, NOTICE_SLOW,
		  "4 KiB <<< " DIR_DESC ": request=8 time=12 ms (slow)\n" },
		{ false, 9, OP_READ, 4096, 546, NOTICE_TOO_FAST,
		  "4 KiB <<< " DIR_DESC ": request=9 time=546 ns (too fast)\n" },
		{ false, 10, OP_WRITE, 4096, 90 * US * 1000, NOTICE_TOO_SLOW,
		  "4 KiB >>> " DIR_DESC ": request=10 time=90 ms (too slow)\n" },
		/* failures: 0 B and the errno name */
		{ false, 3, OP_READ, -EIO, MS, NOTICE_ERROR,
		  "0 B <<< " DIR_DESC ": request=3 time=1 ms (EIO)\n" },
		{ true, 4, OP_WRITE, -EAGAIN, 1500, NOTICE_ERROR,
		  "0 B >>> " BLK_DESC ": request=4 time=1.50 us (EAGAIN)\n" },
		{ true, 5, OP_READ, -EINVAL, 0, NOTICE_ERROR,
		  "0 B <<< " BLK_DESC ": request=5 time=0 ns (EINVAL)\n" },
		/* zero bytes: shown, no notice; short read: the bytes returned */
		{ true, 6, OP_READ, 0, 2300, NOTICE_EMPTY,
		  "0 B <<< " BLK_DESC ": request=6 time=2.30 us\n" },
		{ false, 12, OP_READ, 1000, 700, NOTICE_NONE,
		  "1000 B <<< " DIR_DESC ": request=12 time=700 ns\n" },
		{ false, 123456, OP_READ, 1048575, 1500 * MS, NOTICE_NONE,
		  "1024.0 KiB <<< " DIR_DESC ": request=123456 time=1.50 s\n" },
	};
	return cr_make_param_array(struct lcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct lcase *c, report, request_line)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg cfg = c->block ? blk_cfg() : dir_cfg();
	struct sample s = smp(c->request, c->op, c->result, c->time);

	report_request_line(&sb, &cfg, &s, c->notice, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb), c->want, "request %" PRIu64 ", result %" PRId64
			 ", time %" PRIu64 ":\n got  \"%s\"\n want \"%s\"", c->request, c->result,
			 c->time, sbuf_str(&sb), c->want);
	sbuf_free(&sb);
}

Test(report, request_line_character_device)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg c = { { "/dev/zero", "character device", "", 0, NULL }, NULL, 4096,
				false, false, false, false, false, false, NULL };
	struct sample s = smp(2, OP_READ, 4096, 4500);

	report_request_line(&sb, &c, &s, NOTICE_NONE, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb),
			 "4 KiB <<< /dev/zero (character device 0 B): request=2 time=4.50 us\n");
	sbuf_free(&sb);
}

/* The path is printed exactly as given. */
Test(report, request_line_path_as_given)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg c = dir_cfg();
	struct sample s = smp(2, OP_READ, 4096, 1000);

	c.target.path = "/mnt/data/../iop/";
	report_request_line(&sb, &c, &s, NOTICE_NONE, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb), "4 KiB <<< /mnt/data/../iop/ (ext4 /dev/sda 252.0 GiB): "
			 "request=2 time=1 us\n");
	sbuf_free(&sb);
}

Test(report, request_line_appends)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg c = blk_cfg();
	struct sample s = smp(2, OP_READ, 4096, 1000);

	report_request_line(&sb, &c, &s, NOTICE_NONE, REALTIME);
	s.request = 3;
	report_request_line(&sb, &c, &s, NOTICE_NONE, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb), "4 KiB <<< " BLK_DESC ": request=2 time=1 us\n"
			 "4 KiB <<< " BLK_DESC ": request=3 time=1 us\n");
	sbuf_free(&sb);
}

struct tcase {
	char tz[16];
	char format[32];
	char want[48]; /* the line's start */
};

ParameterizedTestParameters(report, request_line_time)
{
	static struct tcase cases[] = {
		{ "UTC", "%H:%M", "05:08 4 KiB <<< " },
		{ "UTC", "%b %d %T", "Nov 21 05:08:59 4 KiB <<< " }, /* -I */
		{ "UTC", "%FT%T%z", "2026-11-21T05:08:59+0000 4 KiB <<< " },
		{ "UTC", "%s", "1795237739 4 KiB <<< " },
		{ "JST-9", "%H:%M", "14:08 4 KiB <<< " }, /* local time, not UTC */
		{ "UTC", "", " 4 KiB <<< " },              /* ioping -time= */
	};
	return cr_make_param_array(struct tcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct tcase *c, report, request_line_time)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg cfg = blk_cfg();
	struct sample s = smp(2, OP_READ, 4096, 76400);
	char want[200];

	use_tz(c->tz);
	cfg.time_format = c->format;
	report_request_line(&sb, &cfg, &s, NOTICE_NONE, REALTIME);
	snprintf(want, sizeof(want), "%s" BLK_DESC ": request=2 time=76.4 us\n", c->want);
	cr_assert_str_eq(sbuf_str(&sb), want, "TZ %s, format \"%s\": \"%s\"", c->tz, c->format,
			 sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(report, errno_names)
{
	char buf[32];

	cr_assert_str_eq(errno_name(-EIO, buf, sizeof(buf)), "EIO");
	cr_assert_str_eq(errno_name(-EAGAIN, buf, sizeof(buf)), "EAGAIN");
	cr_assert_str_eq(errno_name(-ENOSPC, buf, sizeof(buf)), "ENOSPC");
	cr_assert_str_eq(errno_name(-4000, buf, sizeof(buf)), "E4000");
	cr_assert_str_eq(buf, "E4000", "the fallback is built in buf");
}

Test(report, request_line_unknown_errno)
{
	struct sbuf sb = SBUF_INIT;
	struct report_cfg c = blk_cfg();
	struct sample s = smp(2, OP_READ, -4000, 1000);

	report_request_line(&sb, &c, &s, NOTICE_ERROR, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb), "0 B <<< " BLK_DESC ": request=2 time=1 us (E4000)\n");
	sbuf_free(&sb);
}

/* ---- human summary ------------------------------------------------------- */

static void check_summary(const struct report_cfg *c, const struct tally *t,
			  const struct stats *rd, const struct stats *wr, const char *want)
{
	struct sbuf sb = SBUF_INIT;

	report_summary(&sb, c, t, rd, wr);
	cr_assert_str_eq(sbuf_str(&sb), want, "\ngot:\n%s\nwant:\n%s", sbuf_str(&sb), want);
	sbuf_free(&sb);
}

/* docs 3.2, `ioping -c 5 -i 0.1 /mnt/data` */
Test(report, summary_directory_example)
{
	static const uint64_t v[] = { 288600, 218800, 278600, 214300 };
	struct report_cfg c = dir_cfg();
	struct tally t;

	make_tally(&t, v, ARRAY_SIZE(v), 5, 400400000);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- " DIR_DESC " ioprobe statistics ---\n"
		      "4 requests completed in 1.00 ms, 16 KiB read, 4.00 k iops, 15.6 MiB/s\n"
		      "generated 5 requests in 400.4 ms, 20 KiB, 12 iops, 49.9 KiB/s\n"
		      "min/avg/max/mdev = 214.3 us / 250.1 us / 288.6 us / 33.7 us\n"
		      /* p50: midpoint of the bucket 217088..219135 holding 218.8 us */
		      "p50/p90/p99/p99.9 = 218.1 us / 288.6 us / 288.6 us / 288.6 us\n");
}

/* docs 3.2, `ioping -D -c 5 -i 0.1 /dev/loop2` */
Test(report, summary_block_device_example)
{
	static const uint64_t v[] = { 192010, 51570, 76390, 122830 };
	struct report_cfg c = blk_cfg();
	struct tally t;

	make_tally(&t, v, ARRAY_SIZE(v), 5, 400300000);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- " BLK_DESC " ioprobe statistics ---\n"
		      "4 requests completed in 442.8 us, 16 KiB read, 9.03 k iops, 35.3 MiB/s\n"
		      "generated 5 requests in 400.3 ms, 20 KiB, 12 iops, 50.0 KiB/s\n"
		      "min/avg/max/mdev = 51.6 us / 110.7 us / 192.0 us / 53.5 us\n"
		      /* p50: midpoint of the bucket 75776..76799 holding 76.39 us */
		      "p50/p90/p99/p99.9 = 76.3 us / 192.0 us / 192.0 us / 192.0 us\n");
}

/* docs 3.2, `ioping -WWW -c 3 -i 0.01 /dev/loop2` */
Test(report, summary_write_example)
{
	static const uint64_t v[] = { 369500, 288300 };
	struct report_cfg c = blk_cfg();
	struct tally t;

	c.write = true;
	make_tally(&t, v, ARRAY_SIZE(v), 3, 20370000);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- " BLK_DESC " ioprobe statistics ---\n"
		      "2 requests completed in 657.8 us, 8 KiB written, 3.04 k iops, 11.9 MiB/s\n"
		      "generated 3 requests in 20.4 ms, 12 KiB, 147 iops, 589.1 KiB/s\n"
		      "min/avg/max/mdev = 288.3 us / 328.9 us / 369.5 us / 40.6 us\n"
		      "p50/p90/p99/p99.9 = 288.3 us / 369.5 us / 369.5 us / 369.5 us\n");
}

/* The empty run, as `ioping -c 1 dir` prints it (only the warmup request). */
Test(report, summary_empty_run)
{
	struct report_cfg c = { { "/tmp", "ext4", "/dev/vda", 270553174016u, NULL }, NULL, 4096,
				false, false, false, false, false, false, NULL };
	struct tally t;

	make_tally(&t, NULL, 0, 1, 115420);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- /tmp (ext4 /dev/vda 252.0 GiB) ioprobe statistics ---\n"
		      "0 requests completed in 0 ns, 0 B read, 0 iops, 0 B/s\n"
		      "generated 1 requests in 115.4 us, 4 KiB, 8.66 k iops, 33.8 MiB/s\n"
		      "min/avg/max/mdev = 0 ns / 0 ns / 0 ns / 0 ns\n"
		      "p50/p90/p99/p99.9 = 0 ns / 0 ns / 0 ns / 0 ns\n");
}

/* Nothing at all (e.g. SIGINT before the first request ended). */
Test(report, summary_nothing)
{
	struct report_cfg c = blk_cfg();
	struct tally t;

	make_tally(&t, NULL, 0, 0, 0);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- " BLK_DESC " ioprobe statistics ---\n"
		      "0 requests completed in 0 ns, 0 B read, 0 iops, 0 B/s\n"
		      "generated 0 requests in 0 ns, 0 B, 0 iops, 0 B/s\n"
		      "min/avg/max/mdev = 0 ns / 0 ns / 0 ns / 0 ns\n"
		      "p50/p90/p99/p99.9 = 0 ns / 0 ns / 0 ns / 0 ns\n");
}

/* One request: "1 requests" (no plural handling), mdev 0. */
Test(report, summary_one_request)
{
	static const uint64_t v[] = { 88600 };
	struct report_cfg c = dir_cfg();
	struct tally t;

	make_tally(&t, v, 1, 2, 926700);
	check_summary(&c, &t, NULL, NULL,
		      "\n--- " DIR_DESC " ioprobe statistics ---\n"
		      "1 requests completed in 88.6 us, 4 KiB read, 11.3 k iops, 44.1 MiB/s\n"
		      "generated 2 requests in 926.7 us, 8 KiB, 2.16 k iops, 8.43 MiB/s\n"
		      "min/avg/max/mdev = 88.6 us / 88.6 us / 88.6 us / 0 ns\n"
		      "p50/p90/p99/p99.9 = 88.6 us / 88.6 us / 88.6 us / 88.6 us\n");
}

/* The line 2 prefixes, in order: failed, too fast, too slow, skipped. */
struct pcase {
	uint64_t failed, too_fast, too_slow, skipped;
	char want[96];
};

ParameterizedTestParameters(report, summary_prefixes)
{
	static struct pcase cases[] = {
		{ 0, 0, 5, 0, "5 too slow, generated 6 requests" },
		{ 0, 2, 0, 0, "2 too fast, generated 6 requests" },
		{ 3, 0, 0, 0, "3 failed, generated 6 requests" },
		{ 0, 0, 0, 4, "4 skipped, generated 6 requests" },
		{ 1, 2, 3, 4, "1 failed, 2 too fast, 3 too slow, 4 skipped, generated 6 requests" },
		{ 0, 1500, 0, 0, "1.50 k too fast, generated 6 requests" },
		{ 0, 0, 0, 0, "generated 6 requests" },
	};
	return cr_make_param_array(struct pcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct pcase *c, report, summary_prefixes)
{
	static const uint64_t v[] = { 100 * US };
	struct report_cfg cfg = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	char want[160];
	const char *out, *line;

	make_tally(&t, v, 1, 6, 367200);
	t.failed = c->failed;
	t.too_fast = c->too_fast;
	t.too_slow = c->too_slow;
	t.skipped = c->skipped;
	report_summary(&sb, &cfg, &t, NULL, NULL);
	out = sbuf_str(&sb);
	snprintf(want, sizeof(want), "\n%s in 367.2 us, 24 KiB, 16.3 k iops, 63.8 MiB/s\n",
		 c->want);
	line = strstr(out, "/s\n");
	cr_assert_not_null(line, "no line 1 in \"%s\"", out);
	cr_assert_eq(strncmp(line + 2, want, strlen(want)), 0, "%" PRIu64 "/%" PRIu64 "/%"
		     PRIu64 "/%" PRIu64 ": line 2 of\n%s\nwant%s", c->failed, c->too_fast,
		     c->too_slow, c->skipped, out, want);
	sbuf_free(&sb);
}

/* -G: no read/written word; read and write percentile lines follow. */
Test(report, summary_read_write)
{
	static const uint64_t v[] = { 300 * US, 400 * US, 253200 };
	static const uint64_t w[] = { 300 * US, 400 * US };
	struct report_cfg c = blk_cfg();
	struct stats rd, wr;
	struct tally t;

	c.read_write = true;
	c.write = true;
	make_tally(&t, v, ARRAY_SIZE(v), 4, 10 * MS);
	stats_init(&rd);
	stats_init(&wr);
	stats_add(&rd, 253200);
	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		stats_add(&wr, w[i]);
	check_summary(&c, &t, &rd, &wr,
		      "\n--- " BLK_DESC " ioprobe statistics ---\n"
		      "3 requests completed in 953.2 us, 12 KiB, 3.15 k iops, 12.3 MiB/s\n"
		      "generated 4 requests in 10 ms, 16 KiB, 400 iops, 1.56 MiB/s\n"
		      "min/avg/max/mdev = 253.2 us / 317.7 us / 400 us / 61.2 us\n"
		      /* p50: midpoint of the bucket 299008..303103 holding 300 us */
		      "p50/p90/p99/p99.9 = 301.1 us / 400 us / 400 us / 400 us\n"
		      "read p50/p90/p99/p99.9 = 253.2 us / 253.2 us / 253.2 us / 253.2 us\n"
		      "write p50/p90/p99/p99.9 = 300 us / 400 us / 400 us / 400 us\n");
}

/* -G without split statistics: only the common percentile line. */
Test(report, summary_read_write_without_split)
{
	static const uint64_t v[] = { 100 };
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	c.read_write = true;
	make_tally(&t, v, 1, 1, 1000);
	report_summary(&sb, &c, &t, NULL, NULL);
	cr_assert_null(strstr(sbuf_str(&sb), "read p50"), "%s", sbuf_str(&sb));
	cr_assert_null(strstr(sbuf_str(&sb), "write p50"), "%s", sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "\np50/p90/p99/p99.9 = 100 ns / "));
	cr_assert_not_null(strstr(sbuf_str(&sb), " requests completed in 100 ns, 4 KiB, "),
			   "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* Exact percentiles: below 128 ns every value has its own bucket. */
Test(report, summary_percentile_line_exact)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	uint64_t v[100];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = 100 - i;
	make_tally(&t, v, ARRAY_SIZE(v), 100, 1000000);
	report_summary(&sb, &c, &t, NULL, NULL);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\np50/p90/p99/p99.9 = 50 ns / 90 ns / 99 ns / "
				  "100 ns\n"), "%s", sbuf_str(&sb));
	/* large counts are abbreviated */
	cr_assert_not_null(strstr(sbuf_str(&sb), "\n100 requests completed in 5.05 us, 400 KiB "
				  "read, 19.8 M iops, 75.5 GiB/s\n"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* "55.7 k requests completed in 2.88 s" (docs 3.3). */
Test(report, summary_abbreviated_counts)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	make_tally(&t, NULL, 0, 55800, 2900 * MS);
	for (int i = 0; i < 55700; i++)
		stats_add(&t.valid, i % 2 ? 51000 : 52410);
	report_summary(&sb, &c, &t, NULL, NULL);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\n55.7 k requests completed in 2.88 s, "),
			   "%s", sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "\ngenerated 55.8 k requests in 2.90 s, "),
			   "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* ---- raw lines ------------------------------------------------------------ */

/* Split a raw line into integers; returns the field count, or -1 if malformed. */
static int raw_fields(const char *line, uint64_t *out, int max)
{
	int n = 0;
	const char *p = line;

	while (*p && *p != '\n') {
		char *end;

		if (n == max || *p < '0' || *p > '9')
			return -1;
		out[n++] = strtoull(p, &end, 10);
		p = end;
		if (*p == ' ')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	if (strcmp(p, "\n"))
		return -1;
	return n;
}

/*
 * docs 3.4: `ioping -B -p 5 -c 12 -i 0 /mnt/data`. The latencies below, fed
 * through the account module with -p 5, reproduce all three lines ioping printed.
 */
Test(report, raw_lines_ioping_example)
{
	static const uint64_t times[] = {
		101654,                                  /* warmup */
		58698, 56574, 59758, 60230, 57937,       /* period 1 */
		55708, 54592, 55924, 57576, 57300,       /* period 2 */
		55703,                                   /* trailing, total only */
	};
	static const uint64_t walls[] = { 395370, 316142 };
	struct report_cfg c = dir_cfg();
	struct account_cfg acfg = { 1, 0, UINT64_MAX, false };
	struct account a;
	struct sbuf sb = SBUF_INIT;
	struct tally period;
	int periods = 0;

	account_init(&a, &acfg);
	for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
		struct sample s = smp(i + 1, OP_READ, 4096, times[i]);

		account_add(&a, &s);
		if (a.period.valid.count == 5) {
			account_period_end(&a, walls[periods++], 0, &period);
			report_raw_line(&sb, &c, &period);
		}
	}
	a.total.wall = 774075;
	report_raw_line(&sb, &c, &a.total);
	cr_assert_str_eq(sbuf_str(&sb),
			 "5 293197 17053 69850646 56574 58639 60230 1307 6 395370\n"
			 "5 281100 17787 72856635 54592 56220 57576 1096 5 316142\n"
			 "11 630000 17460 71517460 54592 57273 60230 1703 12 774075\n");
	sbuf_free(&sb);
}

/* docs 3.4: `ioping -B -c 5 -i 0 /mnt/data` */
Test(report, raw_line_batch_example)
{
	static const uint64_t v[] = { 41049, 40190, 46109, 41534 };
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	uint64_t f[16];

	make_tally(&t, v, ARRAY_SIZE(v), 5, 254079);
	report_raw_line(&sb, &c, &t);
	cr_assert_str_eq(sbuf_str(&sb),
			 "4 168882 23685 97014483 40190 42220 46109 2296 5 254079\n");
	cr_assert_eq(raw_fields(sbuf_str(&sb), f, 16), 10);
	sbuf_free(&sb);
}

Test(report, raw_line_empty)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	make_tally(&t, NULL, 0, 1, 5000);
	report_raw_line(&sb, &c, &t);
	cr_assert_str_eq(sbuf_str(&sb), "0 0 0 0 0 0 0 0 1 5000\n");
	sbuf_free(&sb);
}

/* With raw_percentiles: 14 integer fields, the last four p50 p90 p99 p99.9. */
Test(report, raw_line_percentiles)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	uint64_t v[100], f[20];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = i + 1;
	c.raw_percentiles = true;
	c.size = 512;
	make_tally(&t, v, ARRAY_SIZE(v), 101, 2 * MS);
	report_raw_line(&sb, &c, &t);
	cr_assert_eq(raw_fields(sbuf_str(&sb), f, 20), 14, "\"%s\"", sbuf_str(&sb));
	/* 100 valid, sum 5050, iops 1e9*100/5050, bytes/s iops*512, min, avg 50.5, max, mdev */
	cr_assert_str_eq(sbuf_str(&sb),
			 "100 5050 19801980 10138613861 1 50 100 29 101 2000000 50 90 99 100\n");
	sbuf_free(&sb);
}

/* Large values stay exact integers (no exponent, no rounding of counts). */
Test(report, raw_line_large_values)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	uint64_t f[16];

	make_tally(&t, NULL, 0, 0, 0);
	stats_add(&t.valid, UINT64_C(3600000000000));
	stats_add(&t.valid, UINT64_C(3600000000000));
	t.requests = 3;
	t.wall = UINT64_C(7300000000001);
	report_raw_line(&sb, &c, &t);
	cr_assert_eq(raw_fields(sbuf_str(&sb), f, 16), 10, "\"%s\"", sbuf_str(&sb));
	cr_assert_eq(f[1], UINT64_C(7200000000000));
	cr_assert_eq(f[6], UINT64_C(3600000000000));
	cr_assert_eq(f[9], UINT64_C(7300000000001));
	cr_assert_eq(f[2], 0, "iops of 1/3600 s truncates to 0");
	sbuf_free(&sb);
}

/* ---- JSON ------------------------------------------------------------------ */

/*
 * Python prints every key of the object, depth first, as "path=value" with
 * the leaf value re-encoded by json.dumps, one per line; it fails on invalid
 * JSON, trailing data or a duplicate key.
 */
static const char py_walk[] =
	"import json, sys\n"
	"class Obj(list):\n"
	"    pass\n"
	"def pairs(kv):\n"
	"    keys = [k for k, _ in kv]\n"
	"    assert len(keys) == len(set(keys)), keys\n"
	"    return Obj(kv)\n"
	"def walk(o, p):\n"
	"    for k, v in o:\n"
	"        if isinstance(v, Obj):\n"
	"            print(p + k)\n"
	"            walk(v, p + k + '.')\n"
	"        else:\n"
	"            print(p + k + '=' + json.dumps(v))\n"
	"walk(json.loads(sys.stdin.read(), object_pairs_hook=pairs), '')\n";

static bool have_python(void)
{
	return system("command -v python3 >/dev/null 2>&1") == 0;
}

/* Run py_walk over json; returns its output (caller frees), or NULL when python failed. */
static char *json_walk(const char *json)
{
	char path[] = "/tmp/ioprobe-test-json-XXXXXX";
	int fd = mkstemp(path);
	char cmd[128], *out = NULL;
	size_t len = 0, cap = 0, got;
	FILE *p;
	int status;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	cr_assert_eq(setenv("PY_WALK", py_walk, 1), 0);
	snprintf(cmd, sizeof(cmd), "python3 -c \"$PY_WALK\" < %s 2>/dev/null", path);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			out = realloc(out, cap);
			cr_assert_not_null(out);
		}
		got = fread(out + len, 1, 4096, p);
		len += got;
	} while (got);
	out[len] = '\0';
	status = pclose(p);
	unlink(path);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static void check_json_valid(const char *json)
{
	char *got;

	if (!have_python())
		cr_skip_test("python3 is not available");
	got = json_walk(json);
	cr_assert_not_null(got, "invalid JSON:\n%s", json);
	free(got);
}

static void check_json(const char *json, const char *want)
{
	char *got;

	if (!have_python())
		cr_skip_test("python3 is not available");
	got = json_walk(json);
	cr_assert_not_null(got, "invalid JSON:\n%s", json);
	cr_assert_str_eq(got, want, "\nJSON:\n%s\nkeys:\n%s\nwant:\n%s", json, got, want);
	free(got);
}

/* The checker itself: it must reject what ioping 1.3 printed for a"b, and duplicates. */
Test(report, json_checker_rejects_bad_json)
{
	char *got;

	if (!have_python())
		cr_skip_test("python3 is not available");
	cr_assert_null(json_walk("{\"path\": \"a\"b\"}"), "unescaped quote accepted");
	cr_assert_null(json_walk("{\"a\": 1, \"a\": 2}"), "duplicate key accepted");
	cr_assert_null(json_walk("{\"a\": 1}{"), "trailing data accepted");
	got = json_walk("{\"a\": {\"b\": true}, \"c\": \"\\u0001\"}");
	cr_assert_not_null(got);
	cr_assert_str_eq(got, "a\na.b=true\nc=\"\\u0001\"\n");
	free(got);
}

#define TARGET_KEYS                                    \
	"target\n"                                     \
	"target.path=\"/mnt/data\"\n"                  \
	"target.fstype=\"ext4\"\n"                     \
	"target.device=\"/dev/sda\"\n"                 \
	"target.device_size=270586085376\n"

Test(report, json_request_keys)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(2, OP_WRITE, 4096, 81541);

	use_tz("UTC");
	c.time_format = "%FT%T%z";
	s.offset = 1052672;
	s.start = 100 * MS;
	s.lateness = 76 * US;
	report_json_request(&sb, &c, &s, NOTICE_NONE, REALTIME);
	check_json(sbuf_str(&sb),
		   "timestamp=1795237739.123457\n"
		   "localtime=\"2026-11-21T05:08:59+0000\"\n"
		   TARGET_KEYS
		   "io\n"
		   "io.request=2\n"
		   "io.operation=\"write\"\n"
		   "io.offset=1052672\n"
		   "io.size=4096\n"
		   "io.time=81541\n"
		   "io.ignored=false\n"
		   "io.notice=\"\"\n"
		   "io.start=100000000\n"
		   "io.lateness=76000\n"
		   "io.response=0\n");
	sbuf_free(&sb);
}

/* ioping's two-space layout, byte for byte (1.3's keys plus ioprobe's). */
Test(report, json_request_layout)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(1, OP_READ, 4096, 125256);

	use_tz("UTC");
	c.time_format = "%FT%T%z";
	report_json_request(&sb, &c, &s, NOTICE_WARMUP, REALTIME);
	cr_assert_str_eq(sbuf_str(&sb),
			 "{\n"
			 "  \"timestamp\": 1795237739.123457,\n"
			 "  \"localtime\": \"2026-11-21T05:08:59+0000\",\n"
			 "  \"target\": {\n"
			 "    \"path\": \"/mnt/data\",\n"
			 "    \"fstype\": \"ext4\",\n"
			 "    \"device\": \"/dev/sda\",\n"
			 "    \"device_size\": 270586085376\n"
			 "  },\n"
			 "  \"io\": {\n"
			 "    \"request\": 1,\n"
			 "    \"operation\": \"read\",\n"
			 "    \"offset\": 0,\n"
			 "    \"size\": 4096,\n"
			 "    \"time\": 125256,\n"
			 "    \"ignored\": true,\n"
			 "    \"notice\": \"warmup\",\n"
			 "    \"start\": 0,\n"
			 "    \"lateness\": 0,\n"
			 "    \"response\": 0\n"
			 "  }\n"
			 "}");
	sbuf_free(&sb);
}

struct jncase {
	enum notice notice;
	int64_t result;
	char ignored[8];
	char text[16];
	uint64_t size;
};

ParameterizedTestParameters(report, json_request_notice)
{
	static struct jncase cases[] = {
		{ NOTICE_NONE, 4096, "false", "", 4096 },
		{ NOTICE_FAST, 4096, "false", "fast", 4096 },
		{ NOTICE_SLOW, 4096, "false", "slow", 4096 },
		{ NOTICE_WARMUP, 4096, "true", "warmup", 4096 },
		{ NOTICE_TOO_FAST, 4096, "true", "too fast", 4096 },
		{ NOTICE_TOO_SLOW, 4096, "true", "too slow", 4096 },
		{ NOTICE_ERROR, -EIO, "true", "EIO", 0 },
		{ NOTICE_EMPTY, 0, "true", "", 0 },
		{ NOTICE_NONE, 512, "false", "", 512 },
	};
	return cr_make_param_array(struct jncase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct jncase *c, report, json_request_notice)
{
	struct report_cfg cfg = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(3, OP_READ, c->result, 1000);
	char want[128];

	cfg.json_lines = true;
	report_json_request(&sb, &cfg, &s, c->notice, REALTIME);
	snprintf(want, sizeof(want), "\"size\":%" PRIu64 ",\"time\":1000,\"ignored\":%s,"
		 "\"notice\":\"%s\",", c->size, c->ignored, c->text);
	cr_assert_not_null(strstr(sbuf_str(&sb), want), "notice %d, result %" PRId64
			   ": no %s in\n%s", c->notice, c->result, want, sbuf_str(&sb));
	sbuf_free(&sb);
}

/* Without a time format there is no "localtime" key. */
Test(report, json_without_localtime)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(2, OP_READ, 4096, 1000);

	report_json_request(&sb, &c, &s, NOTICE_NONE, UINT64_C(1500000000));
	check_json(sbuf_str(&sb),
		   "timestamp=1.5\n"
		   "target\n"
		   "target.path=\"/dev/loop2\"\n"
		   "target.fstype=\"block\"\n"
		   "target.device=\"device\"\n"
		   "target.device_size=268435456\n"
		   "io\n"
		   "io.request=2\n"
		   "io.operation=\"read\"\n"
		   "io.offset=0\n"
		   "io.size=4096\n"
		   "io.time=1000\n"
		   "io.ignored=false\n"
		   "io.notice=\"\"\n"
		   "io.start=0\n"
		   "io.lateness=0\n"
		   "io.response=0\n");
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"timestamp\": 1.500000,"), "%s",
			   sbuf_str(&sb));
	sbuf_free(&sb);
}

/* A NULL device on a filesystem target is written as "". */
Test(report, json_null_device)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(2, OP_READ, 4096, 1000);

	c.target.device = NULL;
	c.json_lines = true;
	report_json_request(&sb, &c, &s, NOTICE_NONE, REALTIME);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"fstype\":\"ext4\",\"device\":\"\","), "%s",
			   sbuf_str(&sb));
	sbuf_free(&sb);
}

/*
 * Devices: ioping 1.3 writes "fstype": "block" / "character" and "device":
 * "device" (checked with ioping -J on /dev/loop0 and /dev/zero); the human
 * line keeps "(block device 256 MiB)".
 */
struct devcase {
	char fstype[32];
	char device[16];
	char want[64];
};

ParameterizedTestParameters(report, json_device_fields)
{
	static struct devcase cases[] = {
		{ "block device", "", "\"fstype\":\"block\",\"device\":\"device\"," },
		{ "character device", "", "\"fstype\":\"character\",\"device\":\"device\"," },
		{ "ext4", "/dev/sda", "\"fstype\":\"ext4\",\"device\":\"/dev/sda\"," },
		{ " device", "", "\"fstype\":\" device\",\"device\":\"\"," },
		{ "fuse.device", "", "\"fstype\":\"fuse.device\",\"device\":\"\"," },
		{ "odd device", "/dev/x", "\"fstype\":\"odd device\",\"device\":\"/dev/x\"," },
	};
	return cr_make_param_array(struct devcase, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct devcase *d, report, json_device_fields)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT, line = SBUF_INIT;
	struct tally t;
	struct sample s = smp(2, OP_READ, 4096, 1000);

	c.target.fstype = d->fstype;
	c.target.device = d->device;
	c.json_lines = true;
	report_json_request(&sb, &c, &s, NOTICE_NONE, REALTIME);
	cr_expect_not_null(strstr(sbuf_str(&sb), d->want), "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	make_tally(&t, NULL, 0, 0, 0);
	report_json_stat(&sb, &c, &t, 0, true);
	cr_expect_not_null(strstr(sbuf_str(&sb), d->want), "%s", sbuf_str(&sb));
	report_request_line(&line, &c, &s, NOTICE_NONE, REALTIME);
	if (!strcmp(d->fstype, "block device"))
		cr_expect_not_null(strstr(sbuf_str(&line), "(block device 256 MiB)"), "%s",
				   sbuf_str(&line));
	sbuf_free(&sb);
	sbuf_free(&line);
}

/* The tally of the docs 3.2 directory example, as a JSON stat record. */
Test(report, json_stat_keys)
{
	static const uint64_t v[] = { 288600, 218800, 278600, 214300 };
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	use_tz("UTC");
	c.time_format = "%FT%T%z";
	make_tally(&t, v, ARRAY_SIZE(v), 5, 400400000);
	t.failed = 1;
	t.skipped = 2;
	report_json_stat(&sb, &c, &t, REALTIME, true);
	check_json(sbuf_str(&sb),
		   "timestamp=1795237739.123457\n"
		   "localtime=\"2026-11-21T05:08:59+0000\"\n"
		   TARGET_KEYS
		   "stat\n"
		   "stat.count=4\n"
		   "stat.size=16384\n"
		   "stat.time=1000300\n"
		   "stat.iops=3998.80036\n"
		   "stat.bps=16379086\n"
		   "stat.min=214300\n"
		   "stat.avg=250075\n"
		   "stat.max=288600\n"
		   "stat.mdev=33748\n"
		   "stat.percentiles\n"
		   "stat.percentiles.50=218111\n"
		   "stat.percentiles.90=288600\n"
		   "stat.percentiles.99=288600\n"
		   "stat.percentiles.99.9=288600\n"
		   "stat.percentiles.99.99=288600\n"
		   "stat.histogram=[[212992, 215039, 1], [217088, 219135, 1], [278528, 282623, 1], "
		   "[286720, 290815, 1]]\n"
		   "stat.response\n"
		   "stat.response.count=0\n"
		   "stat.response.min=0\n"
		   "stat.response.avg=0\n"
		   "stat.response.max=0\n"
		   "stat.response.percentiles\n"
		   "stat.response.percentiles.50=0\n"
		   "stat.response.percentiles.90=0\n"
		   "stat.response.percentiles.99=0\n"
		   "stat.response.percentiles.99.9=0\n"
		   "stat.response.percentiles.99.99=0\n"
		   "load\n"
		   "load.count=5\n"
		   "load.failed=1\n"
		   "load.skipped=2\n"
		   "load.size=20480\n"
		   "load.time=400400000\n"
		   "load.iops=12.487512\n"
		   "load.bps=51149\n");
	/* iops as %f, like ioping */
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"iops\": 3998.800360,\n"), "%s",
			   sbuf_str(&sb));
	sbuf_free(&sb);
}

Test(report, json_stat_empty)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	make_tally(&t, NULL, 0, 0, 0);
	report_json_stat(&sb, &c, &t, 0, false);
	check_json(sbuf_str(&sb),
		   "timestamp=0.0\n"
		   "target\n"
		   "target.path=\"/dev/loop2\"\n"
		   "target.fstype=\"block\"\n"
		   "target.device=\"device\"\n"
		   "target.device_size=268435456\n"
		   "stat\n"
		   "stat.count=0\n"
		   "stat.size=0\n"
		   "stat.time=0\n"
		   "stat.iops=0.0\n"
		   "stat.bps=0\n"
		   "stat.min=0\n"
		   "stat.avg=0\n"
		   "stat.max=0\n"
		   "stat.mdev=0\n"
		   "stat.percentiles\n"
		   "stat.percentiles.50=0\n"
		   "stat.percentiles.90=0\n"
		   "stat.percentiles.99=0\n"
		   "stat.percentiles.99.9=0\n"
		   "stat.percentiles.99.99=0\n"
		   "stat.histogram=[]\n"
		   "stat.response\n"
		   "stat.response.count=0\n"
		   "stat.response.min=0\n"
		   "stat.response.avg=0\n"
		   "stat.response.max=0\n"
		   "stat.response.percentiles\n"
		   "stat.response.percentiles.50=0\n"
		   "stat.response.percentiles.90=0\n"
		   "stat.response.percentiles.99=0\n"
		   "stat.response.percentiles.99.9=0\n"
		   "stat.response.percentiles.99.99=0\n"
		   "load\n"
		   "load.count=0\n"
		   "load.failed=0\n"
		   "load.skipped=0\n"
		   "load.size=0\n"
		   "load.time=0\n"
		   "load.iops=0.0\n"
		   "load.bps=0\n");
	sbuf_free(&sb);
}

/* ioping wrote a"b unescaped (invalid JSON); ioprobe escapes every string. */
Test(report, json_escapes_path)
{
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(2, OP_READ, 4096, 1000);
	struct tally t;

	c.target.path = "/mnt/a\"b\\c\001d\te";
	c.target.fstype = "fuse.\"x\"";
	c.time_format = "%H\"%M\\";
	use_tz("UTC");
	report_json_request(&sb, &c, &s, NOTICE_NONE, REALTIME);
	make_tally(&t, NULL, 0, 1, 1);
	{
		char *got;

		if (!have_python())
			cr_skip_test("python3 is not available");
		got = json_walk(sbuf_str(&sb));
		cr_assert_not_null(got, "invalid JSON:\n%s", sbuf_str(&sb));
		cr_assert_not_null(strstr(got, "\ntarget.path=\"/mnt/a\\\"b\\\\c\\u0001d\\te\"\n"),
				   "%s", got);
		cr_assert_not_null(strstr(got, "\ntarget.fstype=\"fuse.\\\"x\\\"\"\n"), "%s", got);
		cr_assert_not_null(strstr(got, "\nlocaltime=\"05\\\"08\\\\\"\n"), "%s", got);
		free(got);
	}
	sbuf_reset(&sb);
	report_json_stat(&sb, &c, &t, REALTIME, true);
	{
		char *got = json_walk(sbuf_str(&sb));

		cr_assert_not_null(got, "invalid JSON:\n%s", sbuf_str(&sb));
		cr_assert_not_null(strstr(got, "\ntarget.path=\"/mnt/a\\\"b\\\\c\\u0001d\\te\"\n"),
				   "%s", got);
		free(got);
	}
	sbuf_free(&sb);
}

/* json_lines: one compact line, "type" first. */
Test(report, json_lines_request)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(4, OP_WRITE, 4096, 2500);
	const char *out;

	use_tz("UTC");
	c.json_lines = true;
	c.time_format = "%T";
	s.offset = 8192;
	s.start = 3 * MS;
	s.lateness = 12;
	report_json_request(&sb, &c, &s, NOTICE_SLOW, REALTIME);
	out = sbuf_str(&sb);
	cr_assert_str_eq(out,
			 "{\"type\":\"request\",\"timestamp\":1795237739.123457,"
			 "\"localtime\":\"05:08:59\",\"target\":{\"path\":\"/dev/loop2\","
			 "\"fstype\":\"block\",\"device\":\"device\",\"device_size\":268435456},"
			 "\"io\":{\"request\":4,\"operation\":\"write\",\"offset\":8192,"
			 "\"size\":4096,\"time\":2500,\"ignored\":false,\"notice\":\"slow\","
			 "\"start\":3000000,\"lateness\":12,\"response\":0}}");
	sbuf_free(&sb);
}

struct jlcase {
	bool total;
	char type[8];
};

ParameterizedTestParameters(report, json_lines_stat)
{
	static struct jlcase cases[] = { { false, "period" }, { true, "total" } };

	return cr_make_param_array(struct jlcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct jlcase *c, report, json_lines_stat)
{
	static const uint64_t v[] = { 369500, 288300 };
	struct report_cfg cfg = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;
	char head[64];
	const char *out;

	cfg.json_lines = true;
	make_tally(&t, v, ARRAY_SIZE(v), 3, 20370000);
	report_json_stat(&sb, &cfg, &t, REALTIME, c->total);
	out = sbuf_str(&sb);
	snprintf(head, sizeof(head), "{\"type\":\"%s\",\"timestamp\":1795237739.123457,",
		 c->type);
	cr_assert_eq(strncmp(out, head, strlen(head)), 0, "%s: %s", c->type, out);
	cr_assert_null(strchr(out, '\n'), "%s: not one line: %s", c->type, out);
	cr_assert_null(strstr(out, ": "), "%s: not compact: %s", c->type, out);
	cr_assert_not_null(strstr(out, ",\"stat\":{\"count\":2,\"size\":8192,\"time\":657800,"
				  "\"iops\":3040.437823,\"bps\":12453633,\"min\":288300,"
				  "\"avg\":328900,\"max\":369500,\"mdev\":40600,"
				  "\"percentiles\":{\"50\":288300,\"90\":369500,\"99\":369500,"
				  "\"99.9\":369500,\"99.99\":369500},"
				  "\"histogram\":[[286720,290815,1],[368640,372735,1]],"
				  "\"response\":{\"count\":0,\"min\":0,\"avg\":0,\"max\":0,"
				  "\"percentiles\":{\"50\":0,\"90\":0,\"99\":0,\"99.9\":0,"
				  "\"99.99\":0}}},"
				  "\"load\":{\"count\":3,\"failed\":0,\"skipped\":0,\"size\":12288,"
				  "\"time\":20370000,\"iops\":147.275405,\"bps\":603240}}"),
			   "%s: %s", c->type, out);
	check_json_valid(out);
	sbuf_free(&sb);
}

/* The JSON timestamp is rounded to the microsecond, carrying into the seconds (ioping's %f). */
Test(report, json_timestamp_rounds_and_carries)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(1, OP_READ, 4096, 1000);

	c.json_lines = true;
	report_json_request(&sb, &c, &s, NOTICE_NONE, UINT64_C(41) * 1000000000 + 999999500);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"timestamp\":42.000000,"), "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	report_json_request(&sb, &c, &s, NOTICE_NONE, UINT64_C(41) * 1000000000 + 999999499);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"timestamp\":41.999999,"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* ---- response times (-Q, --response) ------------------------------------ */

/* A tally whose response times are 1..100 us and service times 1..100 ns. */
static void make_response_tally(struct tally *t)
{
	uint64_t v[100];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = i + 1;
	make_tally(t, v, ARRAY_SIZE(v), 100, 2 * MS);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		stats_add(&t->response, (i + 1) * 1000);
}

/* Without -Q/--response the summary has no response line; with it, one last line. */
Test(report, summary_response_line)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	static struct tally t;

	make_response_tally(&t);
	report_summary(&sb, &c, &t, NULL, NULL);
	cr_assert_null(strstr(sbuf_str(&sb), "response"), "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	c.response = true;
	report_summary(&sb, &c, &t, NULL, NULL);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\np50/p90/p99/p99.9 = 50 ns / 90 ns / 99 ns / "
					       "100 ns\nresponse p50/p90/p99/p99.9 = 49.9 us / "
					       "89.6 us / 98.8 us / 100 us\n"),
			   "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* --raw-percentiles with response: 18 fields, the response percentiles last. */
Test(report, raw_line_response_percentiles)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	static struct tally t;
	uint64_t f[24];

	make_response_tally(&t);
	c.response = true;
	report_raw_line(&sb, &c, &t);
	cr_assert_eq(raw_fields(sbuf_str(&sb), f, 24), 10, "response alone adds nothing");
	sbuf_reset(&sb);
	c.raw_percentiles = true;
	report_raw_line(&sb, &c, &t);
	cr_assert_eq(raw_fields(sbuf_str(&sb), f, 24), 18, "\"%s\"", sbuf_str(&sb));
	for (size_t i = 0; i < TALLY_PCTS; i++)
		cr_assert_eq(f[14 + i], stats_percentile(&t.response, tally_pcts[i]), "field %zu",
			     15 + i);
	cr_assert_eq(f[17], 100000, "p99.9 of 100 values is the max");
	sbuf_free(&sb);
}

/* JSON always carries io.response and stat.response.percentiles. */
Test(report, json_response_keys)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	static struct tally t;
	struct sample s = smp(2, OP_READ, 4096, 4500);

	s.response = 7777;
	report_json_request(&sb, &c, &s, NOTICE_NONE, 0);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"lateness\": 0,\n    \"response\": 7777\n"),
			   "%s", sbuf_str(&sb));
	sbuf_reset(&sb);
	make_response_tally(&t);
	report_json_stat(&sb, &c, &t, 0, true);
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"response\": {\n      \"count\": 100,\n"
					       "      \"min\": 1000,\n      \"avg\": 50500,\n"
					       "      \"max\": 100000,\n"), "%s", sbuf_str(&sb));
	/* the histogram's bucket midpoints, within 1 % */
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"percentiles\": {\n        \"50\": 49919,\n"
					       "        \"90\": 89599,"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* Several targets (raw_target): the path is the last field, one word even with spaces. */
Test(report, raw_line_target_field)
{
	static const uint64_t v[] = { 41049, 40190, 46109, 41534 };
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct tally t;

	make_tally(&t, v, ARRAY_SIZE(v), 5, 254079);
	c.raw_target = true;
	c.target.path = "/mnt/my disk\\1\n";
	report_raw_line(&sb, &c, &t);
	cr_assert_str_eq(sbuf_str(&sb), "4 168882 23685 97014483 40190 42220 46109 2296 5 254079 "
					"/mnt/my\\x20disk\\x5c1\\x0a\n");
	sbuf_reset(&sb);
	c.raw_percentiles = true;
	c.target.path = "/dev/sdb";
	report_raw_line(&sb, &c, &t);
	cr_assert(strstr(sbuf_str(&sb), " /dev/sdb\n"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* --iostat's JSON object from plain rows: the interval is the first row's, every row a disk. */
Test(report, json_iostat_from_plain_rows)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct iostat_row a = { .interval_ns = 1000000000, .r_s = 3 }, b = { .interval_ns = 1000000000 };
	struct iostat_dev_row rows[] = { { "vda", &a }, { "loop0", &b } };

	report_json_iostat(&sb, &c, rows, ARRAY_SIZE(rows), NULL, REALTIME);
	check_json_valid(sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"interval\": 1000000000,"), "%s", sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "[{\"disk_device\": \"vda\", \"r/s\": 3.00,"),
			   "%s", sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "}, {\"disk_device\": \"loop0\","), "%s",
			   sbuf_str(&sb));
	cr_assert_null(strstr(sbuf_str(&sb), "\"verdict\""), "no verdict without one");
	sbuf_reset(&sb);
	report_json_iostat(&sb, &c, NULL, 0, NULL, REALTIME);
	check_json_valid(sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"interval\": 0,"), "%s", sbuf_str(&sb));
	cr_assert_not_null(strstr(sbuf_str(&sb), "\"disk\": []"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
}

/* The object opened by head in json holds each of the keys a .. d, in order, before its "}". */
static void dir_has(const char *json, const char *head, const char *a, const char *b,
		    const char *c, const char *d)
{
	const char *p = strstr(json, head), *end;
	const char *want[4] = { a, b, c, d };

	cr_assert(p, "no %s in %s", head, json);
	end = strchr(p, '}');
	for (int k = 0; k < 4; k++) {
		p = strstr(p, want[k]);
		cr_assert(p && p < end, "%s: no %s in %s", head, want[k], json);
	}
}

/* -G: the total's "stat" carries the reads' and the writes' service times apart. */
Test(report, json_stat_reads_and_writes_apart)
{
	static const uint64_t v[] = { 288600, 218800, 278600, 214300 };
	struct report_cfg c = dir_cfg();
	struct sbuf sb = SBUF_INIT;
	struct stats rd, wr;
	struct tally t;

	make_tally(&t, v, ARRAY_SIZE(v), 5, 400400000);
	stats_init(&rd);
	stats_init(&wr);
	stats_add(&rd, 214300);
	stats_add(&rd, 218800);
	stats_add(&wr, 278600);
	stats_add(&wr, 288600);
	report_json_stat_rw(&sb, &c, &t, REALTIME, true, &rd, &wr);
	dir_has(sbuf_str(&sb), "\"read\": {", "\"count\": 2,", "\"min\": 214300,",
		"\"avg\": 216550,", "\"max\": 218800,");
	dir_has(sbuf_str(&sb), "\"write\": {", "\"count\": 2,", "\"min\": 278600,",
		"\"avg\": 283600,", "\"max\": 288600,");
	sbuf_reset(&sb);
	report_json_stat_rw(&sb, &c, &t, REALTIME, true, NULL, NULL);
	cr_assert(!strstr(sbuf_str(&sb), "\"read\""), "without -G: no split");
	sbuf_free(&sb);
}

/* --layers: a tally of two device requests (one split in four) and one page-cache hit. */
static struct layer_tally *layers_example(void)
{
	static struct layer_tally lt; /* ~120 KiB: not on the stack */
	struct sample s;

	layer_tally_init(&lt);
	memset(&s, 0, sizeof(s));
	s.layers = (struct layer_times){ 12000, 24600000, 3100, 61000, 1, true, false };
	layer_tally_add(&lt, &s, NOTICE_NONE);
	s.layers = (struct layer_times){ 12000, 24600000, 3100, 61000, 4, true, false };
	layer_tally_add(&lt, &s, NOTICE_NONE);
	s.layers = (struct layer_times){ 0, 0, 0, 0, 0, true, true };
	layer_tally_add(&lt, &s, NOTICE_NONE);
	return &lt;
}

Test(report, layers_line)
{
	struct sbuf sb = SBUF_INIT;

	report_layers(&sb, layers_example());
	cr_assert_str_eq(sbuf_str(&sb), "layers avg: submit 12 us, throttle 24.6 ms, queue 3.10 us, "
			 "device 61 us; 2.50 pieces per request; 1 without a device "
			 "request\n");
	sbuf_free(&sb);
}

Test(report, json_stat_layers)
{
	static const uint64_t v[] = { 24700000, 24700000 };
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT, plain = SBUF_INIT;
	struct tally t;
	char *got;

	make_tally(&t, v, ARRAY_SIZE(v), 3, 50000000);
	report_json_stat_layers(&sb, &c, &t, 0, true, NULL, NULL, layers_example());
	if (!have_python())
		cr_skip_test("python3 is not available");
	got = json_walk(sbuf_str(&sb));
	cr_assert_not_null(got, "invalid JSON:\n%s", sbuf_str(&sb));
	cr_assert(strstr(got, "stat.layers\n"
			      "stat.layers.submit\n"
			      "stat.layers.submit.avg=12000\n"
			      "stat.layers.submit.p50=12000\n"
			      "stat.layers.submit.p99=12000\n"
			      "stat.layers.throttle\n"
			      "stat.layers.throttle.avg=24600000\n"), "%s", got);
	cr_assert(strstr(got, "stat.layers.device.avg=61000\n"), "%s", got);
	cr_assert(strstr(got, "stat.layers.pieces=2.5\n"
			      "stat.layers.no_device=1\n"
			      "load\n"), "%s", got);
	free(got);
	/* without a tally: what report_json_stat_rw writes */
	report_json_stat_rw(&plain, &c, &t, 0, true, NULL, NULL);
	cr_assert_null(strstr(sbuf_str(&plain), "layers"));
	sbuf_free(&sb);
	sbuf_free(&plain);
}

Test(report, json_request_layers)
{
	struct report_cfg c = blk_cfg();
	struct sbuf sb = SBUF_INIT;
	struct sample s = smp(3, OP_READ, 4096, 24700000);
	char *got;

	report_json_request(&sb, &c, &s, NOTICE_NONE, 0);
	cr_assert_null(strstr(sbuf_str(&sb), "layers"), "no layers unless measured");
	sbuf_reset(&sb);
	s.layers = (struct layer_times){ 12000, 24600000, 3100, 61000, 4, true, false };
	report_json_request(&sb, &c, &s, NOTICE_NONE, 0);
	if (!have_python())
		cr_skip_test("python3 is not available");
	got = json_walk(sbuf_str(&sb));
	cr_assert_not_null(got, "invalid JSON:\n%s", sbuf_str(&sb));
	cr_assert(strstr(got, "io.layers\n"
			      "io.layers.submit=12000\n"
			      "io.layers.throttle=24600000\n"
			      "io.layers.queue=3100\n"
			      "io.layers.device=61000\n"
			      "io.layers.pieces=4\n"
			      "io.layers.no_device=false\n"), "%s", got);
	free(got);
	sbuf_free(&sb);
}
