/* Unit tests for src/probe/opener.c: target_open() in a child process, the descriptor back. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "opener.h"

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_opener.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

/* Entries of dir besides . and .. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void progress(void *arg, uint64_t done, uint64_t total)
{
	uint64_t *last = arg;

	cr_assert_leq(done, total);
	*last = done;
}

/* A directory: the child creates and fills the temp file, the caller gets a working fd and
 * the child's progress, the last one with the whole working set. */
Test(opener, directory_target_comes_back_open)
{
	struct target_cfg cfg = { .size = 4096, .work_size = 1 << 20 };
	uint64_t last = 0;
	struct target_progress pg = { progress, &last };
	volatile sig_atomic_t stop = 0;
	struct target t;
	char msg[MSG_MAX], buf[4096];
	struct stat st;

	mkdir_tmp();
	cfg.path = dir;
	cr_assert_eq(opener_open(&t, &cfg, &stop, &pg, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_geq(t.fd, 0);
	cr_assert_eq(t.kind, TARGET_DIR);
	cr_assert_eq(fstat(t.fd, &st), 0, "the descriptor is ours");
	cr_assert_eq(pread(t.fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	cr_assert_eq(last, 1 << 20, "the last progress covers the working set");
	target_close(&t);
	cr_assert_eq(entries(), 0, "the temp file is unlinked once open");
	rmdir(dir);
}

/* The child's errors come back with their text; a stop before the fill interrupts it and
 * leaves nothing behind. */
Test(opener, errors_and_stop)
{
	struct target_cfg cfg = { .size = 4096, .work_size = 1 << 20 };
	volatile sig_atomic_t stop = 0;
	struct target t;
	char msg[MSG_MAX];

	cfg.path = "/nonexistent/ioprobe-opener";
	cr_assert_lt(opener_open(&t, &cfg, &stop, NULL, msg, sizeof(msg)), 0);
	cr_assert(strstr(msg, "/nonexistent/ioprobe-opener"), "%s", msg);
	cr_assert_eq(t.fd, -1);
	mkdir_tmp();
	cfg.path = dir;
	stop = 1;
	cr_assert_eq(opener_open(&t, &cfg, &stop, NULL, msg, sizeof(msg)), -EINTR, "%s", msg);
	cr_assert_str_eq(msg, "interrupted while preparing the working set; nothing was measured");
	cr_assert_eq(entries(), 0, "nothing left behind");
	rmdir(dir);
}
