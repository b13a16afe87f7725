#include "config.h"

#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "msg.h"

#define CHILD_POLL_MS 20
/* how long child_close_apart waits for its closer: a healthy disk's closes end well within it
 * (a kept file's lock is released before the next run looks), a hung one's never do */
#define CHILD_CLOSE_WAIT_MS 100

int child_signals(pid_t parent, void (*kick)(int), int death_sig)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = kick; /* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, death_sig);
	return getppid() != parent ? -ESRCH : 0; /* the parent died before the line above */
}

void child_fds(const int *keep, size_t n)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	unsigned first = 3;

	for (int fd = 0; fd < 3 && null >= 0; fd++)
		if (null != fd)
			dup2(null, fd); /* dup2 clears O_CLOEXEC on the copy */
	for (size_t i = 0; i <= n; i++) {
		unsigned last = i < n ? (unsigned)keep[i] : ~0u;

		if (i < n && (unsigned)keep[i] < first)
			continue;
		if (last > first)
			syscall(SYS_close_range, first, last - 1, 0);
		first = last + 1;
	}
}

static int child_fd_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The grandchild of child_close_apart: keep only keep[0..n-1] (the caller's descriptors, gate,
 * the read end of a pipe whose write end the caller closes after its own copies, and the write
 * end of the pipe the caller waits on for "done"), wait for gate's EOF, then close them all and
 * end. Its closes come last: one before the caller's would leave the caller's the last reference.
 */
static _Noreturn void child_closer(int *keep, size_t n, int gate)
{
	char c;

	qsort(keep, n, sizeof(*keep), child_fd_cmp);
	child_signals(getppid(), SIG_IGN, 0);
	child_fds(keep, n);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	for (size_t i = 0; i < n; i++)
		close(keep[i]);
	free(keep);
	_exit(0);
}

/* Wait up to CHILD_CLOSE_WAIT_MS for the closer's end (done's EOF); a signal ends the wait. */
static void child_close_wait(int done)
{
	struct pollfd p = { .fd = done, .events = POLLIN };

	(void)poll(&p, 1, CHILD_CLOSE_WAIT_MS);
}

int child_close_apart(const int *fds, size_t n)
{
	int *copy = n ? malloc((n + 2) * sizeof(*copy)) : NULL;
	int ret = 0, status, gate[2] = { -1, -1 }, done[2] = { -1, -1 };
	pid_t pid = -1;

	if (!n)
		return 0;
	if (copy && !pipe2(gate, O_CLOEXEC) && !pipe2(done, O_CLOEXEC)) {
		memcpy(copy, fds, n * sizeof(*copy));
		copy[n] = gate[0];
		copy[n + 1] = done[1];
		pid = fork();
	}
	if (pid < 0)
		ret = copy ? -errno : -ENOMEM;
	if (pid == 0) {
		pid_t g;

		close(gate[1]); /* the closer must see EOF once the caller's copy is gone */
		g = fork();     /* the closer is orphaned at once: init reaps it */
		if (g == 0)
			child_closer(copy, n + 2, gate[0]);
		/* nothing of the caller's stays open here (the closer and the caller hold the
		 * descriptors; what the caller had opened besides, an eBPF program's, goes too) */
		syscall(SYS_close_range, 3, ~0u, 0);
		free(copy);
		_exit(g < 0 ? 1 : 0);
	}
	if (done[1] >= 0)
		close(done[1]); /* the closer's copy is then the only one: its end is done's EOF */
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = -ECHILD; /* no closer: ours are then the last */
	}
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	for (int i = 0; i < 2; i++)
		if (gate[i] >= 0)
			close(gate[i]); /* the write end's close: now the closer closes its copies */
	if (done[0] >= 0) {
		if (pid > 0 && !ret)
			child_close_wait(done[0]);
		close(done[0]);
	}
	free(copy);
	return ret;
}

/* What child_call's child sends back. */
struct child_answer {
	int ret;
	char msg[MSG_MAX];
	unsigned char arg[CHILD_CALL_ARG_MAX];
};

static _Noreturn void child_call_child(int (*fn)(void *, char *, size_t), void *arg,
				       size_t argsize, const int *keep, size_t nkeep, int wfd,
				       pid_t parent)
{
	static struct child_answer a; /* the child's own copy; large */
	int *all = malloc((nkeep + 1) * sizeof(*all));
	bool ok;

	if (child_signals(parent, SIG_IGN, SIGKILL) || !all)
		_exit(1);
	if (nkeep) /* keep may be NULL with none */
		memcpy(all, keep, nkeep * sizeof(*all));
	all[nkeep] = wfd;
	qsort(all, nkeep + 1, sizeof(*all), child_fd_cmp);
	child_fds(all, nkeep + 1);
	free(all);
	a.ret = fn(arg, a.msg, sizeof(a.msg));
	memcpy(a.arg, arg, argsize);
	ok = write(wfd, &a, sizeof(a)) == (ssize_t)sizeof(a);
	syscall(SYS_close_range, 3, ~0u, 0); /* what fn left open, and wfd: as _exit would */
	_exit(ok ? 0 : 1);
}

/* Read the child's answer from rfd until it comes, the child dies, or the grace runs out. */
static int child_call_wait(pid_t pid, int rfd, void *arg, size_t argsize,
			   const volatile sig_atomic_t *stop, uint64_t grace_ns, char *msg,
			   size_t msglen)
{
	struct child_answer a;
	uint64_t stop_at = 0;
	size_t got = 0;

	for (;;) {
		struct pollfd pfd = { rfd, POLLIN, 0 };
		ssize_t r;

		if (stop && *stop && !stop_at)
			stop_at = clock_now();
		if (stop_at && clock_now() - stop_at >= grace_ns) {
			waitpid(pid, NULL, WNOHANG);
			return err_set(msg, msglen, -ETIMEDOUT, "a request did not complete within "
				       "%.1f s of the stop (the disk hangs); given up",
				       grace_ns / NS_PER_S);
		}
		if (poll(&pfd, 1, CHILD_POLL_MS) <= 0)
			continue; /* EINTR (a stop signal) is a wake-up too */
		r = read(rfd, (char *)&a + got, sizeof(a) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == sizeof(a)) {
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			snprintf(msg, msglen, "%s", a.msg);
			memcpy(arg, a.arg, argsize);
			return a.ret;
		}
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return err_set(msg, msglen, -ECHILD, "its process died");
}

int child_call(int (*fn)(void *arg, char *msg, size_t msglen), void *arg, size_t argsize,
	       const int *keep, size_t nkeep, const volatile sig_atomic_t *stop,
	       uint64_t grace_ns, char *msg, size_t msglen)
{
	int p[2], r;
	pid_t pid, parent = getpid();

	if (argsize > CHILD_CALL_ARG_MAX)
		return err_set(msg, msglen, -EINVAL, "child_call: %zu bytes of argument", argsize);
	if (pipe2(p, O_CLOEXEC))
		return err_set(msg, msglen, -ECHILD, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		r = errno;
		close(p[0]);
		close(p[1]);
		return err_set(msg, msglen, -ECHILD, "fork: %s", strerror(r));
	}
	if (pid == 0)
		child_call_child(fn, arg, argsize, keep, nkeep, p[1], parent);
	close(p[1]);
	r = child_call_wait(pid, p[0], arg, argsize, stop, grace_ns, msg, msglen);
	close(p[0]);
	return r;
}
