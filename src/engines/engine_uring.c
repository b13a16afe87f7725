/*
 * io_uring engine: a one-entry ring with the buffer and the file registered,
 * each request submitted and waited for in one io_uring_enter() call. At
 * depth N (-Q N) a ring of N entries and N registered buffers: submit()
 * only fills an SQE, reap() submits them and waits in one io_uring_enter().
 * -N maps to RWF_NOWAIT; -H sets up a polled ring (IORING_SETUP_IOPOLL).
 * With spin_ns set, a wait first polls the completion queue in user space
 * (see struct engine_spin), then sleeps in io_uring_enter() for the rest;
 * the ring is then cooperative (IORING_SETUP_COOP_TASKRUN): a completion
 * does not interrupt the polling CPU, the poll collects it.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "clock.h"

struct uring_priv {
	struct io_uring ring;
	bool fixed_buf;
	unsigned nbufs;
	struct engine_spin spin;
};

/*
 * Poll the completion queue until a completion is there or the clock reaches
 * until. yield: give the CPU to any other runnable thread between looks (at
 * depth 1 the one request often waits for a kernel worker woken on this very
 * CPU, such as a loop device's); otherwise a pause instruction between looks
 * (at depth > 1 the workers are busy elsewhere and a system call per look
 * only delays the reaping). Returns whether one is there.
 */
static bool uring_poll_until(struct io_uring *ring, uint64_t until, bool yield)
{
	while (!io_uring_cq_ready(ring)) {
		if (clock_now() >= until)
			return false;
		if (IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_TASKRUN)
			io_uring_get_events(ring); /* completions wait for this task to post them */
		else if (yield)
			sched_yield();
#if defined(__x86_64__) || defined(__i386__)
		else
			__builtin_ia32_pause();
#endif
	}
	return true;
}

/*
 * Submit what is queued and wait up to wait_ns (UINT64_MAX = no limit) for
 * one completion: poll first while recent waits were short, then sleep.
 * Returns 0 (a completion is there), -ETIME, or -errno.
 */
static int uring_submit_wait(struct uring_priv *u, const struct engine_params *p,
			     uint64_t wait_ns)
{
	/* a polled ring (-H) completes only inside io_uring_enter(): nothing to watch */
	uint64_t poll = p->hipri ? 0 : engine_spin_budget(&u->spin, p->spin_ns);
	uint64_t t0, left = wait_ns, now;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int ret;

	if (poll) {
		if ((ret = io_uring_submit(&u->ring)) < 0)
			return ret;
		if (io_uring_cq_ready(&u->ring)) { /* completed inline (a cached read): no wait */
			engine_spin_note(&u->spin, 0);
			return 0;
		}
		t0 = clock_now();
		if (uring_poll_until(&u->ring, t0 + (poll < wait_ns ? poll : wait_ns), p->depth <= 1))
			goto done;
		now = clock_now();
		if (wait_ns != UINT64_MAX)
			left = now - t0 >= wait_ns ? 0 : wait_ns - (now - t0);
		if (!left)
			return -ETIME;
	} else {
		t0 = p->spin_ns ? clock_now() : 0; /* no poll ever: nothing to measure */
	}
	if (left == UINT64_MAX) {
		ret = poll ? io_uring_wait_cqe(&u->ring, &cqe) : io_uring_submit_and_wait(&u->ring, 1);
	} else {
		ts.tv_sec = (long long)(left / 1000000000u);
		ts.tv_nsec = (long long)(left % 1000000000u);
		ret = poll ? io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts)
			   : io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	}
	if (ret < 0)
		return ret;
done:
	if (p->spin_ns)
		engine_spin_note(&u->spin, clock_now() - t0);
	return 0;
}

/* Register the buffers (one per slot); a registered buffer saves page pinning per request. */
static bool uring_register_bufs(struct uring_priv *u, const struct engine_params *p,
				unsigned n)
{
	struct iovec *iov = calloc(n, sizeof(*iov));
	bool ok;

	if (!iov)
		return false;
	for (unsigned i = 0; i < n; i++) {
		iov[i].iov_base = (char *)p->buf + (size_t)i * p->buf_stride;
		iov[i].iov_len = p->buf_len;
	}
	ok = io_uring_register_buffers(&u->ring, iov, n) == 0;
	free(iov);
	return ok;
}

static int uring_init(const struct engine_params *p, void **priv)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	struct iovec iov = { p->buf, p->buf_len };
	unsigned depth = p->depth > 1 ? p->depth : 1;
	int ret;

	if (!u)
		return -ENOMEM;
	/*
	 * A polling ring posts completions when the task enters the kernel
	 * anyway, without an interrupt to the polling CPU; it raises a flag
	 * (IORING_SQ_TASKRUN) that the poll answers (kernel 5.19+, else the
	 * plain ring).
	 */
	ret = -EINVAL;
	if (p->spin_ns && !p->hipri)
		ret = io_uring_queue_init(depth, &u->ring,
					  IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG);
	if (ret == -EINVAL)
		ret = io_uring_queue_init(depth, &u->ring, p->hipri ? IORING_SETUP_IOPOLL : 0);
	if (ret) {
		free(u);
		return ret;
	}
	ret = io_uring_register_files(&u->ring, &p->fd, 1);
	if (ret) {
		io_uring_queue_exit(&u->ring);
		free(u);
		return ret;
	}
	/* a registered buffer saves page pinning per request; not every buffer qualifies */
	if (depth > 1)
		u->fixed_buf = uring_register_bufs(u, p, depth);
	else
		u->fixed_buf = io_uring_register_buffers(&u->ring, &iov, 1) == 0;
	*priv = u;
	return 0;
}

static ssize_t uring_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	struct uring_priv *u = priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int ret, res;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_buf && write)
		io_uring_prep_write_fixed(sqe, 0, p->buf, (unsigned)p->buf_len, offset, 0);
	else if (u->fixed_buf)
		io_uring_prep_read_fixed(sqe, 0, p->buf, (unsigned)p->buf_len, offset, 0);
	else if (write)
		io_uring_prep_write(sqe, 0, p->buf, (unsigned)p->buf_len, offset);
	else
		io_uring_prep_read(sqe, 0, p->buf, (unsigned)p->buf_len, offset);
	sqe->flags |= IOSQE_FIXED_FILE;
	if (p->nowait)
		sqe->rw_flags = RWF_NOWAIT;
	if ((ret = uring_submit_wait(u, p, UINT64_MAX)) < 0)
		return ret;
	do
		ret = io_uring_wait_cqe(&u->ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	return res;
}

/* Fill one SQE for buffer slot; -EBUSY when the ring is full. */
static int uring_submit(void *priv, const struct engine_params *p, unsigned slot, bool write,
			uint64_t offset)
{
	struct uring_priv *u = priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	void *buf = (char *)p->buf + (size_t)slot * p->buf_stride;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_buf && write)
		io_uring_prep_write_fixed(sqe, 0, buf, (unsigned)p->buf_len, offset, (int)slot);
	else if (u->fixed_buf)
		io_uring_prep_read_fixed(sqe, 0, buf, (unsigned)p->buf_len, offset, (int)slot);
	else if (write)
		io_uring_prep_write(sqe, 0, buf, (unsigned)p->buf_len, offset);
	else
		io_uring_prep_read(sqe, 0, buf, (unsigned)p->buf_len, offset);
	sqe->flags |= IOSQE_FIXED_FILE;
	if (p->nowait)
		sqe->rw_flags = RWF_NOWAIT;
	io_uring_sqe_set_data64(sqe, slot);
	return 0;
}

static int uring_reap(void *priv, const struct engine_params *p, struct engine_done *done,
		      unsigned max, uint64_t wait_ns)
{
	struct uring_priv *u = priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int ret;

	ret = wait_ns ? uring_submit_wait(u, p, wait_ns) : io_uring_submit(&u->ring);
	if (ret < 0 && ret != -ETIME)
		return ret;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (n == max)
			break;
		done[n].slot = (unsigned)io_uring_cqe_get_data64(cqe);
		done[n].result = cqe->res;
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
}

static void uring_cleanup(void *priv)
{
	struct uring_priv *u = priv;

	if (!u)
		return;
	/*
	 * Drop the registered file and buffer synchronously: the ring's own
	 * teardown is deferred to a kernel worker, and until it runs the file
	 * stays open — a block device opened with O_EXCL would still be claimed,
	 * so the next run writing to it would find it busy.
	 */
	io_uring_unregister_files(&u->ring);
	if (u->fixed_buf)
		io_uring_unregister_buffers(&u->ring);
	io_uring_queue_exit(&u->ring);
	free(u);
}

const struct engine_ops engine_uring = {
	.name = "io_uring",
	.init = uring_init,
	.io = uring_io,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
