/* recfmt writes, recread reads back: every field a replay needs, exactly; damage found. */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "account.h"
#include "recfmt.h"
#include "recread.h"
#include "sbuf.h"

static const char *const argv_[] = { "ioprobe", "--record", "r.jsonl", "/mnt/my disk" };

static struct rec_header header(struct rec_target *t)
{
	memset(t, 0, sizeof(*t));
	t->path = "/mnt/my disk\xff";
	t->fstype = "ext4";
	t->device = "/dev/vda";
	t->device_size = 1ull << 40;
	t->mdevice = "loop0";
	t->mdisk = "vda";
	t->name = "vic";
	t->ndev = 2;
	strcpy(t->dev[0].name, "loop0");
	t->dev[0].max_sectors_kb = 1280;
	t->dev[0].max_segments = 128;
	t->dev[0].write_cache = -1;
	strcpy(t->dev[1].name, "vda");
	t->dev[1].write_cache = 1;
	return (struct rec_header){ .ioprobe = "ioprobe 0.1.0", .host = "h", .kernel = "6.1",
				    .engine = "sync", .real = 1795000000123456789ull, .argc = 4,
				    .argv = argv_, .size = 4096, .interval = 10000000,
				    .asked = 100.0 / 3, .depth = 4, .read_write = true,
				    .cached = true, .response = true, .iostat = true,
				    .direct = true, .dsync = true, .burst = 4, .rate_limit = 100.0 / 3,
				    .period = 1000000000, .ntargets = 1, .target = t };
}

/* Feed the lines of sb to rd; the event of the last one. */
static int read_all(struct recread *rd, const struct sbuf *sb, struct rec_event *ev, char *msg)
{
	const char *s = sb->buf, *nl;
	int ret = 0;

	while ((nl = strchr(s, '\n'))) {
		ret = recread_line(rd, s, (size_t)(nl - s), ev, msg, 256);
		if (ret < 0)
			return ret;
		s = nl + 1;
	}
	return ret;
}

static void tally_fill(struct tally *t)
{
	struct sample s = { .result = 4096, .op = OP_READ };

	tally_init(t);
	for (uint64_t k = 1; k <= 500; k++) {
		s.request = k;
		s.time = k * k * 997 % 10000019;
		s.response = s.time + k;
		tally_add(t, &s, k == 1 ? NOTICE_WARMUP : k % 50 ? NOTICE_NONE : NOTICE_ERROR);
	}
	tally_add_skipped(t, 5000000, 10000000 / 3, 77);
	t->skipped = 77;
	t->wall = 999999999;
}

static void stats_same(const struct stats *a, const struct stats *b)
{
	cr_assert_eq(a->count, b->count);
	cr_assert_eq(a->sum, b->sum);
	cr_assert_eq(a->min, b->min);
	cr_assert_eq(a->max, b->max);
	cr_assert_eq(a->mean, b->mean, "mean %.17g vs %.17g", a->mean, b->mean);
	cr_assert_eq(a->m2, b->m2);
	cr_assert_eq(memcmp(a->hist, b->hist, sizeof(a->hist)), 0);
}

Test(recfmt, header_round_trip)
{
	struct rec_target t;
	struct rec_header h = header(&t);
	struct sbuf sb = SBUF_INIT;
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	char msg[256];

	recfmt_header(&sb, &h);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert_eq(ev->kind, REC_HEADER);
	cr_assert_eq(rd.h.version, REC_VERSION);
	cr_assert_str_eq(rd.h.target[0].path, t.path);
	cr_assert_eq(rd.h.target[0].device_size, t.device_size);
	cr_assert_str_eq(rd.h.target[0].mdevice, "loop0");
	cr_assert_str_eq(rd.h.target[0].mdisk, "vda");
	cr_assert_eq(rd.h.argc, 4);
	cr_assert_str_eq(rd.h.argv[3], "/mnt/my disk");
	cr_assert_eq(rd.h.asked, h.asked);
	cr_assert(rd.h.read_write && !rd.h.write && rd.h.cached && rd.h.response && rd.h.iostat);
	cr_assert_eq(rd.h.depth, 4);
	cr_assert_eq(rd.h.period, 1000000000);
	cr_assert_eq(rd.h.target[0].ndev, 2);
	cr_assert_eq(rd.h.target[0].dev[0].max_sectors_kb, 1280);
	cr_assert_eq(rd.h.target[0].dev[0].write_cache, -1);
	cr_assert_eq(rd.h.target[0].dev[1].write_cache, 1);
	/* what the screens describe: the name and the settings beside the mode */
	cr_assert_str_eq(rd.h.target[0].name, "vic");
	cr_assert(rd.h.direct && rd.h.dsync && !rd.h.sync);
	cr_assert_eq(rd.h.burst, 4);
	cr_assert_eq(rd.h.rate_limit, 100.0 / 3);
	cr_assert_eq(rd.h.speed_limit, 0);
	recread_free(&rd);
	sbuf_free(&sb);
	free(ev);
}

/* A recording of an older ioprobe (no name, direct, sync, dsync, burst, rate_limit,
 * speed_limit) still reads: no name, and those settings off. */
Test(recfmt, header_of_an_older_recording)
{
	static const char old[] =
		"{\"type\":\"header\",\"format\":\"ioprobe-record\",\"version\":1,"
		"\"ioprobe\":\"ioprobe 0.1.0\",\"host\":\"h\",\"kernel\":\"6.1\","
		"\"real\":1,\"argv\":[\"ioprobe\"],\"size\":4096,\"mode\":\"read\","
		"\"cached\":false,\"engine\":\"sync\",\"depth\":1,\"interval\":1000000000,"
		"\"asked\":1,\"response\":false,\"iostat\":false,\"requests\":false,"
		"\"period\":0,\"print_count\":0,\"print_interval\":1000000000,\"targets\":"
		"[{\"path\":\"/a\",\"fstype\":\"ext4\",\"device\":\"/dev/vda\","
		"\"device_size\":1,\"stack\":[]}]}";
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	char msg[256];

	cr_assert_eq(recread_line(&rd, old, sizeof(old) - 1, ev, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(rd.h.target[0].name, "");
	cr_assert(!rd.h.direct && !rd.h.sync && !rd.h.dsync);
	cr_assert_eq(rd.h.burst, 0);
	cr_assert_eq(rd.h.rate_limit, 0);
	recread_free(&rd);
	free(ev);
}

Test(recfmt, period_and_summary_exact)
{
	struct rec_target t;
	struct rec_header h = header(&t);
	struct sbuf sb = SBUF_INIT;
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct tally *tl = malloc(sizeof(*tl));
	struct stats *r = malloc(sizeof(*r)), *w = malloc(sizeof(*w));
	struct rec_errors e = { 0 };
	char msg[256];

	tally_fill(tl);
	stats_init(r);
	stats_init(w);
	stats_add(r, 12345);
	stats_add(w, 54321);
	rec_errors_add(&e, -EIO);
	rec_errors_add(&e, -EIO);
	rec_errors_add(&e, -ENOSPC);
	recfmt_header(&sb, &h);
	recfmt_period(&sb, 0, 7, 8000000000, 1795000008000000000ull, tl, &e);
	cr_assert(strstr(sb.buf, "\"errors\":{\"EIO\":2,\"ENOSPC\":1}"), "%s", sb.buf);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert_eq(ev->kind, REC_PERIOD);
	cr_assert_eq(memcmp(&ev->errors, &e, sizeof(e)), 0, "failures by errno read back");
	cr_assert_eq(ev->seq, 7);
	cr_assert_eq(ev->mono, 8000000000);
	cr_assert_eq(ev->tally.requests, tl->requests);
	cr_assert_eq(ev->tally.failed, tl->failed);
	cr_assert_eq(ev->tally.skipped, 77);
	cr_assert_eq(ev->tally.wall, 999999999);
	stats_same(&ev->tally.valid, &tl->valid);
	stats_same(&ev->tally.response, &tl->response);
	sbuf_reset(&sb);
	recfmt_summary(&sb, 0, 5, -EIO, "request failed: EIO", tl, &e, r, w, NULL);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert_eq(ev->kind, REC_SUMMARY);
	cr_assert_eq(ev->ret, -EIO);
	cr_assert_str_eq(ev->text, "request failed: EIO");
	cr_assert_eq(memcmp(&ev->errors, &e, sizeof(e)), 0, "the run's failures by errno");
	cr_assert(ev->split);
	stats_same(&ev->read, r);
	stats_same(&ev->write, w);
	stats_same(&ev->tally.valid, &tl->valid);
	sbuf_reset(&sb);
	recfmt_end(&sb, 9, 3);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_END && ev->ret == 3);
	recread_free(&rd);
	sbuf_free(&sb);
	free(ev);
	free(tl);
	free(r);
	free(w);
}

Test(recfmt, request_iostat_verdict_text)
{
	struct rec_target t;
	struct rec_header h = header(&t);
	struct sbuf sb = SBUF_INIT;
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct sample s = { .request = 42, .op = OP_WRITE, .offset = 8192, .size = 4096,
			     .result = -EIO, .time = 1234567, .start = 42000000, .lateness = 17,
			     .skipped = 3, .response = 1234584 };
	struct iostat_row row = { .interval_ns = 1000000000, .r_s = 1.0 / 3, .aqu_sz = 0.97,
				  .util = 99.9, .w_await = 7.25, .in_flight = 1 };
	struct iostat_dev_row rows[1] = { { "loop0", &row } };
	struct verdict_probe p = { .period_ns = 1000000000, .done = 137, .skipped = 63,
				   .p50_ns = 7000000, .p99_ns = 9000000, .sum_ns = 999000000,
				   .max_ns = 9500000, .inflight_ns = 300000000 };
	struct verdict v = { .state = VERDICT_FALLS_SHORT, .reason = VERDICT_DEVICE_SATURATED };
	char msg[256];

	recfmt_header(&sb, &h);
	recfmt_request(&sb, 0, 77, &s, NOTICE_ERROR);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert_eq(ev->kind, REC_REQUEST);
	cr_assert_eq(memcmp(&ev->sample, &s, sizeof(s)), 0);
	cr_assert_eq(ev->notice, NOTICE_ERROR);
	sbuf_reset(&sb);
	recfmt_iostat(&sb, 3, 5, rows, 1);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_IOSTAT && ev->nrows == 1 && ev->seq == 3);
	cr_assert_str_eq(ev->row[0].name, "loop0");
	cr_assert_eq(memcmp(&ev->row[0].row, &row, sizeof(row)), 0);
	sbuf_reset(&sb);
	recfmt_verdict(&sb, 3, 0, NULL, 0, &p, &v);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_VERDICT && !ev->own_rows);
	cr_assert_eq(ev->probe.done, 137);
	cr_assert_eq(ev->probe.sum_ns, 999000000);
	cr_assert_eq(ev->probe.max_ns, 9500000);
	cr_assert_eq(ev->probe.inflight_ns, 300000000);
	cr_assert_str_eq(ev->state, "falls short");
	cr_assert_str_eq(ev->reason, "device saturated");
	sbuf_reset(&sb);
	recfmt_skipped(&sb, 0, 5000000, 3333333, 12);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_SKIPPED && ev->hi == 5000000 && ev->step == 3333333 &&
		  ev->n == 12);
	sbuf_reset(&sb);
	recfmt_text(&sb, "warning", -1, 5, 0, "request in flight for 5.0 s");
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_WARNING && ev->target_or_run == -1);
	cr_assert_str_eq(ev->text, "request in flight for 5.0 s");
	recread_free(&rd);
	sbuf_free(&sb);
	free(ev);
}

Test(recfmt, refusals_and_damage)
{
	struct rec_target t;
	struct rec_header h = header(&t);
	struct sbuf sb = SBUF_INIT, bad = SBUF_INIT;
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct tally *tl = malloc(sizeof(*tl));
	char msg[256];
	char *v2;

	/* a first line that is no header, a later version */
	cr_assert_eq(recread_line(&rd, "{\"type\":\"period\"}", 17, ev, msg, sizeof(msg)), -EPROTO);
	recfmt_header(&sb, &h);
	v2 = strdup(sb.buf);
	memcpy(strstr(v2, "\"version\":1,"), "\"version\":2,", 12);
	cr_assert_eq(recread_line(&rd, v2, strlen(v2) - 1, ev, msg, sizeof(msg)), -EPROTO);
	cr_assert(strstr(msg, "newer"), "%s", msg);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0);
	/* an unknown type is skipped; a blank line too */
	cr_assert_eq(recread_line(&rd, "{\"type\":\"future\",\"x\":1}", 23, ev, msg, sizeof(msg)), 1);
	cr_assert_eq(recread_line(&rd, "", 0, ev, msg, sizeof(msg)), 1);
	/* a period cut short, a bucket that is not the histogram's, counts that disagree, a
	 * target out of range */
	tally_fill(tl);
	recfmt_period(&bad, 0, 0, 1, 2, tl, NULL);
	for (size_t cut = 1; cut + 1 < bad.len; cut += 97)
		cr_assert_eq(recread_line(&rd, bad.buf, cut, ev, msg, sizeof(msg)), -EINVAL);
	v2 = realloc(v2, bad.len + 1);
	strcpy(v2, bad.buf);
	*strstr(v2, "\"count\":") = ' '; /* no key "count" */
	cr_assert_eq(recread_line(&rd, v2, strlen(v2) - 1, ev, msg, sizeof(msg)), -EINVAL);
	strcpy(v2, bad.buf);
	v2[strstr(v2, "\"target\":0") - v2 + 9] = '5';
	cr_assert_eq(recread_line(&rd, v2, strlen(v2) - 1, ev, msg, sizeof(msg)), -EINVAL);
	cr_assert(strstr(msg, "target"), "%s", msg);
	strcpy(v2, bad.buf);
	memcpy(strstr(v2, "\"count\":") + 8, "9", 1); /* the buckets no longer add up */
	cr_assert_eq(recread_line(&rd, v2, strlen(v2) - 1, ev, msg, sizeof(msg)), -EINVAL);
	recread_free(&rd);
	sbuf_free(&sb);
	sbuf_free(&bad);
	free(v2);
	free(ev);
	free(tl);
}

/* --sweep: a step's row and printed line, the conclusions with their step numbers. */
Test(recfmt, sweep_step_and_knee)
{
	struct rec_target t;
	struct rec_header h = header(&t);
	struct sbuf sb = SBUF_INIT;
	struct recread rd = RECREAD_INIT;
	struct rec_event *ev = calloc(1, sizeof(*ev));
	struct sweep_row r = { .size = 262144, .asked = 35, .achieved = 34.9, .expected = 70,
			       .dev_rate = 70.2, .areq_kb = 128, .aqu = 0.95, .await_ms = 13.5,
			       .util = 99.1, .dev_mbs = 8.77, .p50_ns = 14000000,
			       .p99_ns = 19000000, .skipped = 2, .kept_up = true,
			       .verdict = "keeps up: dev 70/s \"2 pieces\"", .depth = 4 };
	char msg[256];

	recfmt_header(&sb, &h);
	recfmt_step(&sb, 0, 7, 99, true, &r, "256 KiB  4  35 ...");
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_STEP && ev->seq == 7 && ev->grid && ev->real == 99);
	cr_assert(ev->srow.size == 262144 && ev->srow.depth == 4 && ev->srow.kept_up);
	cr_assert(ev->srow.asked == 35 && ev->srow.achieved == 34.9 && ev->srow.aqu == 0.95);
	cr_assert(ev->srow.p50_ns == 14000000 && ev->srow.p99_ns == 19000000);
	cr_assert(ev->srow.skipped == 2 && ev->srow.dev_mbs == 8.77 && ev->srow.util == 99.1);
	cr_assert_str_eq(ev->srow.verdict, "keeps up: dev 70/s \"2 pieces\"");
	cr_assert_str_eq(ev->line, "256 KiB  4  35 ...");
	sbuf_reset(&sb);
	recfmt_knee(&sb, 0, 100, true, "best: 256 KiB\nlimit: 1 MiB", -1, 3, 7);
	cr_assert_eq(read_all(&rd, &sb, ev, msg), 0, "%s", msg);
	cr_assert(ev->kind == REC_KNEE && ev->knee == -1 && ev->best == 3 && ev->limit == 7);
	cr_assert_str_eq(ev->text, "best: 256 KiB\nlimit: 1 MiB");
	sbuf_reset(&sb);
	sbuf_puts(&sb, "{\"type\":\"step\",\"target\":0,\"step\":1}\n");
	cr_assert_eq(read_all(&rd, &sb, ev, msg), -EINVAL, "a step without its row is damage");
	recread_free(&rd);
	sbuf_free(&sb);
	free(ev);
}
