#include "config.h"

#include "filechild.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "child.h"
#include "clock.h"
#include "common.h"
#include "out.h"

#define FC_POLL_MS 20
#define FC_CHUNK (1u << 16)

/* What the child says, one answer per write (atomic on a pipe). */
enum fc_step { FC_OPENED, FC_CREATE, FC_NOTREG, FC_GZ, FC_WRITE, FC_CLOSE, FC_DONE };

struct fc_answer {
	int step; /* enum fc_step */
	int err;  /* errno (positive), or 0 */
};

/* The child's end: its pipes closed first (a process ends with no descriptor of ours). */
static _Noreturn void fc_exit(int rfd, int wfd, int code)
{
	close(rfd);
	close(wfd);
	_exit(code);
}

static void fc_say(int fd, int step, int err)
{
	struct fc_answer a = { step, err };

	if (write(fd, &a, sizeof(a)) != (ssize_t)sizeof(a))
		return; /* the parent gave up on us: nobody to tell */
}

/* Write n bytes of buf to the file (through gz when set); 0 or errno. */
static int fc_put(int fd, gzFile gz, const char *buf, size_t n)
{
	int ret;

	if (!gz)
		return -out_write(fd, buf, n);
	while (n) {
		int w = gzwrite(gz, buf, (unsigned)n);

		if (w <= 0)
			return errno ? errno : EIO;
		buf += w;
		n -= (size_t)w;
	}
	errno = 0;
	ret = gzflush(gz, Z_SYNC_FLUSH);
	return ret == Z_OK ? 0 : errno ? errno : EIO;
}

/* The child: create the file, write what comes on rfd until EOF, close (or remove) it. */
static _Noreturn void fc_child(const struct filechild_cfg *cfg, int rfd, int wfd, pid_t parent)
{
	static char buf[FC_CHUNK];
	int keep[2] = { rfd < wfd ? rfd : wfd, rfd < wfd ? wfd : rfd };
	gzFile gz = NULL;
	struct stat st;
	bool any = false;
	int fd, err = 0;

	if (child_signals(parent, SIG_IGN, 0))
		fc_exit(rfd, wfd, 1);
	child_fds(keep, 2);
	fd = open(cfg->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fc_say(wfd, FC_CREATE, errno);
		fc_exit(rfd, wfd, 0);
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		fc_say(wfd, FC_NOTREG, 0);
		fc_exit(rfd, wfd, 0);
	}
	if (cfg->gz && !(gz = gzdopen(fd, "wb"))) {
		close(fd);
		unlink(cfg->path);
		fc_say(wfd, FC_GZ, 0);
		fc_exit(rfd, wfd, 0);
	}
	fc_say(wfd, FC_OPENED, 0);
	for (;;) {
		ssize_t n = read(rfd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		any = true;
		if (!err && (err = fc_put(fd, gz, buf, (size_t)n)))
			fc_say(wfd, FC_WRITE, err); /* the rest is taken and dropped */
	}
	errno = 0;
	if ((gz ? gzclose(gz) != Z_OK : close(fd) != 0) && !err)
		fc_say(wfd, FC_CLOSE, err = errno ? errno : EIO);
	if (!any || (err && cfg->unlink_failed))
		unlink(cfg->path); /* ours: created O_EXCL above */
	fc_say(wfd, FC_DONE, 0);
	fc_exit(rfd, wfd, 0);
}

/* Has the stop come cfg.grace ago (counted from the signal when known, else from now)? */
static bool fc_give_up(struct filechild *fc)
{
	uint64_t now = clock_now(), at = fc->cfg.stop_at ? atomic_load(fc->cfg.stop_at) : 0;

	if (!fc->seen && ((fc->cfg.stop && *fc->cfg.stop) || at))
		fc->seen = at && at < now ? at : now;
	if (at && at < fc->seen)
		fc->seen = at;
	return fc->seen && now - fc->seen >= fc->cfg.grace;
}

/* The child's failure (step, errno err) into fc->err and fc->msg, unless one is there. */
static int fc_fail(struct filechild *fc, int step, int err)
{
	const char *w = fc->cfg.what, *p = fc->cfg.path;
	int ret = -(err ? err : EIO);

	if (fc->err)
		return fc->err;
	if (step == FC_CREATE && err == EEXIST)
		ret = err_set(fc->msg, sizeof(fc->msg), -EEXIST, "%s: \"%s\" exists: %s is never "
			      "overwritten (remove it or choose another name)", w, p, fc->cfg.noun);
	else if (step == FC_CREATE)
		ret = err_set(fc->msg, sizeof(fc->msg), ret, "%s: cannot create \"%s\": %s", w, p,
			      strerror(-ret));
	else if (step == FC_NOTREG)
		ret = err_set(fc->msg, sizeof(fc->msg), -EINVAL, "%s: \"%s\" is not a regular file",
			      w, p);
	else if (step == FC_GZ)
		ret = err_set(fc->msg, sizeof(fc->msg), -ENOMEM, "%s: cannot start compressing "
			      "\"%s\"", w, p);
	else if (step == FC_WRITE || step == FC_CLOSE)
		ret = err_set(fc->msg, sizeof(fc->msg), ret, "%s: cannot %s \"%s\": %s", w,
			      step == FC_WRITE ? "write" : "finish", p, strerror(-ret));
	else if (err == ETIMEDOUT)
		ret = err_set(fc->msg, sizeof(fc->msg), -ETIMEDOUT, "%s: \"%s\": a request did not "
			      "complete within %.1f s of the stop (the disk hangs); given up", w, p,
			      fc->cfg.grace / NS_PER_S);
	else
		ret = err_set(fc->msg, sizeof(fc->msg), -ECHILD, "%s: \"%s\": its writing process "
			      "died", w, p);
	fc->err = ret;
	return ret;
}

/* The child given up (err: -ETIMEDOUT) or gone (-ECHILD): our ends closed, the failure set. */
static int fc_lost(struct filechild *fc, int err)
{
	fc_fail(fc, -1, -err);
	if (fc->wfd >= 0)
		close(fc->wfd);
	if (fc->rfd >= 0)
		close(fc->rfd);
	fc->wfd = fc->rfd = -1;
	if (fc->pid > 0 && err != -ETIMEDOUT)
		while (waitpid(fc->pid, NULL, 0) < 0 && errno == EINTR)
			;
	else if (fc->pid > 0)
		waitpid(fc->pid, NULL, WNOHANG);
	fc->pid = 0;
	return fc->err;
}

/*
 * Wait until wfd takes bytes (want_out) or the child answers (*a filled). 1: writable;
 * 0: an answer; -ETIMEDOUT: a stop came cfg.grace ago; -ECHILD: the child is gone.
 */
static int fc_wait(struct filechild *fc, bool want_out, struct fc_answer *a)
{
	for (;;) {
		struct pollfd p[2] = { { fc->rfd, POLLIN, 0 },
				       { want_out ? fc->wfd : -1, POLLOUT, 0 } };
		ssize_t r;

		if (fc_give_up(fc))
			return -ETIMEDOUT;
		if (poll(p, 2, FC_POLL_MS) <= 0)
			continue; /* EINTR (a stop signal) is a wake-up too */
		if (p[0].revents) {
			r = read(fc->rfd, a, sizeof(*a));
			if (r < 0 && errno == EINTR)
				continue;
			return r == (ssize_t)sizeof(*a) ? 0 : -ECHILD;
		}
		if (p[1].revents)
			return 1;
	}
}

int filechild_open(struct filechild *fc, const struct filechild_cfg *cfg, char *msg,
		   size_t msglen)
{
	int data[2], ans[2], r;
	pid_t parent = getpid();
	struct fc_answer a;

	memset(fc, 0, sizeof(*fc));
	fc->cfg = *cfg;
	fc->wfd = fc->rfd = -1;
	if (pipe2(data, O_CLOEXEC))
		return err_set(msg, msglen, -errno, "%s: pipe: %s", cfg->what, strerror(errno));
	if (pipe2(ans, O_CLOEXEC)) {
		r = errno;
		close(data[0]);
		close(data[1]);
		return err_set(msg, msglen, -r, "%s: pipe: %s", cfg->what, strerror(r));
	}
	fc->pid = fork();
	if (fc->pid == 0) {
		close(data[1]);
		close(ans[0]);
		fc_child(&fc->cfg, data[0], ans[1], parent);
	}
	r = errno;
	close(data[0]);
	close(ans[1]);
	fc->wfd = data[1];
	fc->rfd = ans[0];
	if (fc->pid < 0) {
		fc->pid = 0;
		fc_lost(fc, -ECHILD);
		return err_set(msg, msglen, -ECHILD, "%s: fork: %s", cfg->what, strerror(r));
	}
	fcntl(fc->wfd, F_SETFL, O_NONBLOCK);
	r = fc_wait(fc, false, &a);
	if (!r && a.step != FC_OPENED)
		r = fc_fail(fc, a.step, a.err);
	if (r) {
		fc_lost(fc, r == -ETIMEDOUT ? r : -ECHILD);
		snprintf(msg, msglen, "%s", fc->msg);
		return fc->err;
	}
	return 0;
}

/* The child's answer a heard: a failure is kept (the first); DONE is not expected here. */
static void fc_heard(struct filechild *fc, const struct fc_answer *a)
{
	if (a->step != FC_OPENED && a->step != FC_DONE)
		fc_fail(fc, a->step, a->err);
}

int filechild_failed(struct filechild *fc)
{
	struct pollfd p = { fc->rfd, POLLIN, 0 };
	struct fc_answer a;

	while (!fc->err && fc->rfd >= 0 && poll(&p, 1, 0) > 0) {
		if (read(fc->rfd, &a, sizeof(a)) != (ssize_t)sizeof(a))
			return fc_lost(fc, -ECHILD);
		fc_heard(fc, &a);
	}
	return fc->err;
}

int filechild_write(struct filechild *fc, const void *buf, size_t len)
{
	const char *p = buf;

	if (fc->wfd < 0)
		return fc->err ? fc->err : -EBADF;
	while (len && !fc->err) {
		ssize_t n = write(fc->wfd, p, len);
		struct fc_answer a;
		int r;

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return fc_lost(fc, -ECHILD); /* EPIPE: the child is gone */
		r = fc_wait(fc, true, &a);
		if (r < 0)
			return fc_lost(fc, r);
		if (!r)
			fc_heard(fc, &a);
	}
	return fc->err;
}

int filechild_close(struct filechild *fc)
{
	struct fc_answer a;

	if (fc->wfd >= 0) {
		close(fc->wfd); /* the child's EOF */
		fc->wfd = -1;
	}
	while (fc->rfd >= 0) {
		int r = fc_wait(fc, false, &a);

		if (r < 0)
			return fc_lost(fc, r);
		if (a.step == FC_DONE)
			break;
		fc_heard(fc, &a);
	}
	if (fc->rfd >= 0) {
		close(fc->rfd);
		fc->rfd = -1;
	}
	if (fc->pid > 0)
		while (waitpid(fc->pid, NULL, 0) < 0 && errno == EINTR)
			;
	fc->pid = 0;
	return fc->err;
}
