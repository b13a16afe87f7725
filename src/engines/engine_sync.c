/*
 * sync engine: pread/pwrite, or preadv2/pwritev2 with RWF_NOWAIT / RWF_HIPRI.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

static int sync_init(const struct engine_params *p, void **priv)
{
	(void)p;
	*priv = NULL;
	return 0;
}

static ssize_t sync_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	ssize_t n;
	(void)priv;

	if (p->nowait || p->hipri) {
		struct iovec iov = { p->buf, p->buf_len };
		int flags = (p->nowait ? RWF_NOWAIT : 0) | (p->hipri ? RWF_HIPRI : 0);

		n = write ? pwritev2(p->fd, &iov, 1, (off_t)offset, flags) :
			    preadv2(p->fd, &iov, 1, (off_t)offset, flags);
	} else {
		n = write ? pwrite(p->fd, p->buf, p->buf_len, (off_t)offset) :
			    pread(p->fd, p->buf, p->buf_len, (off_t)offset);
	}
	return n < 0 ? -errno : n;
}

static void sync_cleanup(void *priv)
{
	(void)priv;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.init = sync_init,
	.io = sync_io,
	.cleanup = sync_cleanup,
};
