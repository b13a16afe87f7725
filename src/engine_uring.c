/*
 * io_uring engine: a one-entry ring with the buffer and the file registered,
 * each request submitted and waited for in one io_uring_enter() call.
 * -N maps to RWF_NOWAIT; -H sets up a polled ring (IORING_SETUP_IOPOLL).
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/uio.h>

struct uring_priv {
	struct io_uring ring;
	bool fixed_buf;
};

static int uring_init(const struct engine_params *p, void **priv)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	struct iovec iov = { p->buf, p->buf_len };
	int ret;

	if (!u)
		return -ENOMEM;
	ret = io_uring_queue_init(1, &u->ring, p->hipri ? IORING_SETUP_IOPOLL : 0);
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
	ret = io_uring_submit_and_wait(&u->ring, 1);
	if (ret < 0)
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
	.cleanup = uring_cleanup,
};
