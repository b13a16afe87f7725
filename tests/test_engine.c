/*
 * Tests for src/engines/engine.c and the engines: the registry (engine_find's
 * "name:arg" parsing, known-but-not-built names, the names for --help) and
 * every engine built in, reading and writing a temporary file — no root,
 * so libaio and io_uring are exercised on a laptop too. A kernel that
 * refuses io_uring (seccomp, sysctl) skips that engine, not the suite.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "engine.h"

Test(engine, find_by_name_up_to_the_colon)
{
	cr_assert_eq(engine_find("sync"), &engine_sync);
	cr_assert_eq(engine_find("null"), &engine_null);
	cr_assert_eq(engine_find("null:3s"), &engine_null);
	cr_assert_eq(engine_find("sync:"), &engine_sync);
	cr_assert_null(engine_find("syn"));
	cr_assert_null(engine_find("syncx"));
	cr_assert_null(engine_find(""));
	cr_assert_null(engine_find(":sync"));
#if HAVE_LIBAIO
	cr_assert_eq(engine_find("libaio"), &engine_libaio);
#else
	cr_assert_null(engine_find("libaio"));
#endif
#if HAVE_LIBURING
	cr_assert_eq(engine_find("io_uring:x"), &engine_uring);
#else
	cr_assert_null(engine_find("io_uring"));
#endif
}

Test(engine, known_names_whether_built_or_not)
{
	cr_assert(engine_known("libaio"));
	cr_assert(engine_known("io_uring:arg"));
	cr_assert(engine_known("null"));
	cr_assert_not(engine_known("posixaio"));
	cr_assert_not(engine_known("io_urin"));
}

Test(engine, names_for_help_and_messages)
{
	char buf[128];

	cr_assert_str_eq(engine_names(buf, sizeof(buf), " or ", true),
			 "sync, libaio, io_uring or null[:time]");
	cr_assert_str_eq(engine_names(buf, sizeof(buf), ", ", false),
			 "sync, libaio, io_uring, null");
	engine_names(buf, 8, ", ", false);
	cr_assert_eq(strlen(buf), 7, "cut, still terminated");
}

Test(engine, null_engine_argument_is_parsed_at_start)
{
	struct engine e;
	struct engine_params p = { .fd = -1, .buf_len = 4096, .arg = "junk" };

	cr_assert_lt(engine_start(&e, &engine_null, &p), 0);
	p.arg = "1us";
	cr_assert_eq(engine_start(&e, &engine_null, &p), 0);
	cr_assert_eq(engine_io(&e, false, 0), 4096);
	engine_stop(&e);
	engine_stop(&e); /* idempotent */
	cr_assert_eq(engine_start(&e, NULL, &p), -EINVAL);
}

/* Write a pattern with ops at offset 4096, read it back, check the bytes. */
static void round_trip(const struct engine_ops *ops, uint64_t spin_ns)
{
	char path[] = "/tmp/ioprobe-engine.XXXXXX";
	int fd = mkstemp(path);
	struct engine_params p = { .fd = fd, .buf_len = 4096, .spin_ns = spin_ns };
	struct engine e;
	void *buf;
	int ret;

	cr_assert_geq(fd, 0);
	unlink(path);
	cr_assert_eq(ftruncate(fd, 1 << 16), 0);
	cr_assert_eq(posix_memalign(&buf, 4096, 4096), 0);
	p.buf = buf;
	ret = engine_start(&e, ops, &p);
	if (ret == -ENOSYS || ret == -EPERM) {
		cr_log_warn("%s refused by this kernel (%s): skipped", ops->name, strerror(-ret));
		goto out;
	}
	cr_assert_eq(ret, 0, "%s: %s", ops->name, strerror(-ret));
	memset(buf, 0x5a, 4096);
	cr_assert_eq(engine_io(&e, true, 4096), 4096, "%s write", ops->name);
	memset(buf, 0, 4096);
	cr_assert_eq(engine_io(&e, false, 4096), 4096, "%s read", ops->name);
	cr_assert_eq(((unsigned char *)buf)[4095], 0x5a, "%s read back", ops->name);
	cr_assert_eq(engine_io(&e, false, 1 << 16), 0, "%s: at the end, 0 bytes", ops->name);
	engine_stop(&e);
out:
	free(buf);
	close(fd);
}

Test(engine, sync_on_a_file)
{
	round_trip(&engine_sync, 0);
}

#if HAVE_LIBAIO
Test(engine, libaio_on_a_file)
{
	round_trip(&engine_libaio, 0);
}
#endif

#if HAVE_LIBURING
Test(engine, io_uring_on_a_file)
{
	round_trip(&engine_uring, 0);
}

/* The completion queue polled before sleeping: the same results. */
Test(engine, io_uring_polling_on_a_file)
{
	round_trip(&engine_uring, 100000);
}
#endif

/* The poll runs while the running average of the waits stays within it. */
Test(engine, spin_budget_follows_the_waits)
{
	struct engine_spin s = { 0 };

	cr_assert_eq(engine_spin_budget(&s, 100000), 100000, "first wait: poll");
	cr_assert_eq(engine_spin_budget(&s, 0), 0, "0 = never poll");
	for (int i = 0; i < 50; i++)
		engine_spin_note(&s, 20000);
	cr_assert(s.avg > 19000 && s.avg <= 20000, "avg %llu", (unsigned long long)s.avg);
	cr_assert_eq(engine_spin_budget(&s, 100000), 100000, "fast device: poll");
	engine_spin_note(&s, 2000000); /* one 2 ms wait: 1/8 of it */
	cr_assert_eq(engine_spin_budget(&s, 100000), 0, "after a 2 ms wait: sleep");
	for (int i = 0; i < 40; i++)
		engine_spin_note(&s, 30000); /* fast again (slept: wait + wake-up) */
	cr_assert_eq(engine_spin_budget(&s, 100000), 100000, "fast again: poll again");
}
