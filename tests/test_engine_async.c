/*
 * Tests for the engines' asynchronous interface (-Q N): the sync engine is
 * refused at depth > 1; null:TIME completes each request TIME after its
 * submit without blocking the submitter; libaio and io_uring keep N requests
 * in flight on a temporary file and return each in its own buffer slot.
 */
#include "config.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"

#define MS UINT64_C(1000000)
#define DEPTH 8
#define BS 4096

static void *bufs;

static struct engine_params params(int fd, const char *arg, unsigned depth)
{
	struct engine_params p = { 0 };

	if (!bufs)
		cr_assert_eq(posix_memalign(&bufs, 4096, DEPTH * BS), 0);
	p.fd = fd;
	p.buf = bufs;
	p.buf_len = BS;
	p.buf_stride = BS;
	p.depth = depth;
	p.arg = arg;
	return p;
}

Test(engine_async, sync_refuses_depth)
{
	struct engine e;
	struct engine_params p = params(-1, NULL, 2);

	cr_assert_not(engine_async(&engine_sync), "sync has no submit/reap");
	cr_assert_eq(engine_start(&e, &engine_sync, &p), -EOPNOTSUPP);
	p.depth = 1;
	cr_assert_eq(engine_start(&e, &engine_sync, &p), 0, "depth 1 is the io path");
	engine_stop(&e);
	p.depth = 0;
	cr_assert_eq(engine_start(&e, &engine_sync, &p), 0, "depth 0 means 1");
	engine_stop(&e);
}

Test(engine_async, stride_must_hold_a_request)
{
	struct engine e;
	struct engine_params p = params(-1, NULL, 4);

	p.buf_stride = BS / 2;
	cr_assert_eq(engine_start(&e, &engine_null, &p), -EINVAL);
}

Test(engine_async, registry_names_async_engines)
{
	cr_assert(engine_async(engine_find("null")));
	cr_assert(engine_async(engine_find("null:5ms")));
#if HAVE_LIBAIO
	cr_assert(engine_async(engine_find("libaio")));
#endif
#if HAVE_LIBURING
	cr_assert(engine_async(engine_find("io_uring")));
#endif
}

/* null:20ms: submits return at once; each completes 20 ms after its submit. */
Test(engine_async, null_time_does_not_block_submitter)
{
	struct engine e;
	struct engine_params p = params(-1, "20ms", DEPTH);
	struct engine_done done[DEPTH];
	uint64_t t0, t1;
	int n, got = 0;

	cr_assert_eq(engine_start(&e, &engine_null, &p), 0);
	t0 = clock_now();
	for (unsigned i = 0; i < DEPTH; i++)
		cr_assert_eq(engine_submit(&e, i, false, 0), 0);
	t1 = clock_now();
	cr_assert_lt(t1 - t0, 5 * MS, "8 submits took %llu ns", (unsigned long long)(t1 - t0));
	cr_assert_eq(engine_submit(&e, 0, false, 0), -EBUSY, "slot 0 is still in flight");
	cr_assert_eq(engine_reap(&e, done, DEPTH, 0), 0, "nothing complete yet, no wait");
	cr_assert_eq(engine_reap(&e, done, DEPTH, 1 * MS), 0, "a 1 ms wait times out");
	while (got < DEPTH) {
		n = engine_reap(&e, done, DEPTH, 100 * MS);
		cr_assert_gt(n, 0);
		for (int i = 0; i < n; i++)
			cr_assert_eq(done[i].result, BS);
		got += n;
	}
	t1 = clock_now();
	cr_assert_geq(t1 - t0, 20 * MS, "completed after the fake latency");
	cr_assert_lt(t1 - t0, 60 * MS, "all 8 in parallel, not one after another");
	engine_stop(&e);
}

/* Write a pattern per block, then read 8 blocks at depth 8: each slot holds its block. */
static void check_real_engine(const struct engine_ops *ops)
{
	char path[] = "/tmp/ioprobe-test-engine.XXXXXX";
	int fd = mkstemp(path);
	struct engine e;
	struct engine_params p;
	struct engine_done done[DEPTH];
	char block[BS];
	unsigned seen = 0;
	int ret;

	cr_assert_geq(fd, 0);
	unlink(path);
	for (int i = 0; i < DEPTH; i++) {
		memset(block, 'a' + i, BS);
		cr_assert_eq(pwrite(fd, block, BS, (off_t)i * BS), BS);
	}
	p = params(fd, NULL, DEPTH);
	ret = engine_start(&e, ops, &p);
	if (ret == -ENOSYS || ret == -EPERM)
		cr_skip_test("%s not allowed here", ops->name);
	cr_assert_eq(ret, 0, "%s: %s", ops->name, strerror(-ret));
	memset(bufs, 0, DEPTH * BS);
	for (unsigned i = 0; i < DEPTH; i++) /* slot i reads block 7 - i */
		cr_assert_eq(engine_submit(&e, i, false, (uint64_t)(DEPTH - 1 - i) * BS), 0);
	while (seen != (1u << DEPTH) - 1) {
		int n = engine_reap(&e, done, DEPTH, 1000 * MS);

		cr_assert_gt(n, 0, "%s: reap %d", ops->name, n);
		for (int i = 0; i < n; i++) {
			unsigned s = done[i].slot;

			cr_assert_lt(s, DEPTH);
			cr_assert_eq(done[i].result, BS);
			cr_assert_eq(((char *)bufs)[s * BS], 'a' + (DEPTH - 1 - (int)s),
				     "%s: slot %u got its own block", ops->name, s);
			seen |= 1u << s;
		}
	}
	engine_stop(&e);
	close(fd);
}

#if HAVE_LIBAIO
Test(engine_async, libaio_depth) { check_real_engine(&engine_libaio); }
#endif
#if HAVE_LIBURING
Test(engine_async, io_uring_depth) { check_real_engine(&engine_uring); }
#endif
