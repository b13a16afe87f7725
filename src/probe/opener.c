#include "config.h"

#include "opener.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "common.h"
#include "msg.h"

#define OPENER_POLL_MS 20
#define OPENER_PROGRESS_GAP_NS 50000000ull /* progress messages at most this often */

enum opener_kind { OPENER_PROGRESS, OPENER_RESULT };

/* One message from the child; a result carries the target's descriptor when ret is 0. */
struct opener_msg {
	enum opener_kind kind;
	uint64_t done, total;   /* OPENER_PROGRESS */
	int ret;                /* OPENER_RESULT: target_open()'s */
	struct target t;
	char text[MSG_MAX];
};

/* The child's state: its socket, the stop flag its signals set, the last progress sent. */
static int opener_sock = -1;
static volatile sig_atomic_t opener_stop;
static uint64_t opener_sent;

static void opener_on_stop(int sig)
{
	(void)sig;
	opener_stop = 1;
}

/* Send m (with fd when >= 0). 0 or -errno. */
static int opener_send(int sock, const struct opener_msg *m, int fd)
{
	struct iovec iov = { (void *)m, sizeof(*m) };
	union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		CMSG_FIRSTHDR(&mh)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&mh)->cmsg_type = SCM_RIGHTS;
		CMSG_FIRSTHDR(&mh)->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&mh)), &fd, sizeof(int));
	}
	while (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* The child's progress: a message at most every OPENER_PROGRESS_GAP_NS, and the last one. */
static void opener_progress(void *arg, uint64_t done, uint64_t total)
{
	struct opener_msg m = { .kind = OPENER_PROGRESS, .done = done, .total = total };
	uint64_t now = clock_now();

	(void)arg;
	if (done < total && now - opener_sent < OPENER_PROGRESS_GAP_NS)
		return;
	opener_sent = now;
	opener_send(opener_sock, &m, -1);
}

static _Noreturn void opener_child(int sock, pid_t parent, const struct target_cfg *cfg,
				   bool progress)
{
	static struct opener_msg m; /* large: not on the stack (the child's own copy) */
	struct target_progress pg = { opener_progress, NULL };

	/* the parent's stop, or its death, sets the flag: the fill stops and cleans up */
	if (child_signals(parent, opener_on_stop, SIGUSR1))
		opener_stop = 1;
	child_fds(&sock, 1);
	opener_sock = sock;
	m.kind = OPENER_RESULT;
	m.ret = target_open(&m.t, cfg, &opener_stop, progress ? &pg : NULL, m.text,
			    sizeof(m.text));
	opener_send(sock, &m, m.ret ? -1 : m.t.fd);
	if (!m.ret)
		close(m.t.fd); /* the caller holds its own copy now (the temp file stays unlinked) */
	close(sock);
	_exit(0);
}

/* Receive one message (and a descriptor into *fd, -1 if none). 1, 0 at EOF, or -errno. */
static int opener_recv(int sock, struct opener_msg *m, int *fd)
{
	struct iovec iov = { m, sizeof(*m) };
	union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if (n == 0)
		return 0;
	if (mh.msg_flags & MSG_CTRUNC) { /* no descriptor slot left for the target's */
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return -EMFILE;
	}
	if ((size_t)n != sizeof(*m)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return -EPROTO;
	}
	return 1;
}

/* Reap the child when it has ended; keep it when it has not (a request still hangs). */
static void opener_reap(pid_t pid, bool wait)
{
	while (waitpid(pid, NULL, wait ? 0 : WNOHANG) < 0 && errno == EINTR)
		;
}

/*
 * The caller's side: hear the child's progress until its result (0 with *t, or its error),
 * or give up OPENER_GRACE_NS after a stop. Closes sock.
 */
static int opener_wait(pid_t pid, int sock, struct opener_msg *m, struct target *t,
		       const char *path, const volatile sig_atomic_t *stop,
		       const struct target_progress *progress, char *msg, size_t msglen)
{
	uint64_t stop_at = 0;
	int fd, r;

	for (;;) {
		struct pollfd pfd = { sock, POLLIN, 0 };

		if (*stop && !stop_at) {
			stop_at = clock_now();
			kill(pid, SIGUSR1); /* the child's stop */
		}
		if (stop_at && clock_now() - stop_at >= OPENER_GRACE_NS) {
			close(sock);
			opener_reap(pid, false);
			return err_set(msg, msglen, -ETIMEDOUT, "preparing %s: a request did not "
				       "complete within %.1f s of the stop (the disk hangs); given up",
				       path, OPENER_GRACE_NS / NS_PER_S);
		}
		poll(&pfd, 1, OPENER_POLL_MS); /* EINTR (a stop signal) is a wake-up too */
		r = opener_recv(sock, m, &fd);
		if (r == -EAGAIN)
			continue;
		if (r == -EMFILE) {
			close(sock);
			opener_reap(pid, true);
			return err_set(msg, msglen, -EMFILE, "preparing %s: its descriptor could not be "
				       "received: %s", path, strerror(EMFILE));
		}
		if (r <= 0)
			break; /* EOF or an error: the child died without its result */
		if (m->kind == OPENER_PROGRESS) {
			if (progress && progress->fn)
				progress->fn(progress->arg, m->done, m->total);
			continue;
		}
		close(sock);
		opener_reap(pid, true);
		if (m->ret) {
			if (fd >= 0)
				close(fd);
			snprintf(msg, msglen, "%s", m->text);
			return m->ret;
		}
		if (fd < 0)
			return err_set(msg, msglen, -ECHILD, "preparing %s: no descriptor came back",
				       path);
		*t = m->t;
		t->fd = fd;
		return 0;
	}
	close(sock);
	opener_reap(pid, true);
	return err_set(msg, msglen, -ECHILD, "preparing %s: its process died", path);
}

int opener_open(struct target *t, const struct target_cfg *cfg, const volatile sig_atomic_t *stop,
		const struct target_progress *progress, char *msg, size_t msglen)
{
	struct opener_msg *m = malloc(sizeof(*m));
	sigset_t usr1, old;
	int sv[2], r;
	pid_t pid, parent = getpid();

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!m)
		return err_set(msg, msglen, -ENOMEM, "out of memory");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		free(m);
		return err_set(msg, msglen, -ECHILD, "cannot prepare %s: socketpair: %s", cfg->path,
			       strerror(errno));
	}
	/* SIGUSR1 (the child's stop) blocked until the child has its handler: a stop that
	 * comes at once does not kill it before it can clean up */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
	pid = fork();
	if (pid)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		r = -errno;
		free(m);
		close(sv[0]);
		close(sv[1]);
		return err_set(msg, msglen, -ECHILD, "cannot prepare %s: fork: %s", cfg->path,
			       strerror(-r));
	}
	if (pid == 0) {
		close(sv[0]);
		opener_child(sv[1], parent, cfg, progress && progress->fn);
	}
	close(sv[1]);
	r = opener_wait(pid, sv[0], m, t, cfg->path, stop, progress, msg, msglen);
	free(m);
	return r;
}
