/*
 * fuzz_recread: recread_line() on every line of the input, in order, as a
 * replay reads a recording (the first line must be a header).
 *
 * Invariants (abort() on violation):
 *  - every call returns 0, 1, -EINVAL, -EPROTO or -ENOMEM, with a message for
 *    the errors;
 *  - an event's target index is below the header's number of targets, its
 *    row count within REC_DEVS, its stats' buckets add up to their count;
 *  - no line is accepted before a header; a header's version is at most
 *    REC_VERSION.
 */
#include "config.h"

#include <errno.h>

#include "fuzz_common.h"
#include "recread.h"

static void check_stats(const struct stats *s)
{
	uint64_t total = 0;

	for (size_t i = 0; i < STATS_BUCKETS; i++)
		total += s->hist[i];
	CHECK(total == s->count, "buckets %llu vs count %llu", (unsigned long long)total,
	      (unsigned long long)s->count);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rec_event ev;
	struct recread rd = RECREAD_INIT;
	const char *s = (const char *)data, *end = s + size;
	char msg[256];

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		bool had = rd.have_header;
		int ret = recread_line(&rd, s, len, &ev, msg, sizeof(msg));

		CHECK(ret == 0 || ret == 1 || ret == -EINVAL || ret == -EPROTO || ret == -ENOMEM,
		      "ret %d", ret);
		if (ret < 0) {
			CHECK(msg[0], "an error without a message");
			break;
		}
		if (ret == 0 && !had)
			CHECK(ev.kind == REC_HEADER && rd.h.version <= REC_VERSION &&
			      rd.h.ntargets >= 1, "accepted before a header");
		if (ret == 0 && ev.kind != REC_HEADER) {
			CHECK(ev.target < rd.h.ntargets, "target %zu", ev.target);
			CHECK(ev.nrows <= REC_DEVS, "rows %zu", ev.nrows);
			if (ev.kind == REC_PERIOD || ev.kind == REC_SUMMARY) {
				check_stats(&ev.tally.valid);
				check_stats(&ev.tally.response);
			}
		}
		s += len + 1;
	}
	recread_free(&rd);
	return 0;
}
