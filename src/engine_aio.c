/*
 * libaio engine: Linux native AIO, one iocb in flight (io_submit, then
 * io_getevents for exactly one event). -N maps to RWF_NOWAIT and -H to
 * RWF_HIPRI through iocb.aio_rw_flags.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>

struct aio_priv {
	io_context_t ctx;
	struct iocb cb;
};

static int aio_init(const struct engine_params *p, void **priv)
{
	struct aio_priv *a = calloc(1, sizeof(*a));
	int ret;
	(void)p;

	if (!a)
		return -ENOMEM;
	ret = io_setup(1, &a->ctx);
	if (ret) {
		free(a);
		return ret < 0 ? ret : -ret;
	}
	*priv = a;
	return 0;
}

static ssize_t aio_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	struct aio_priv *a = priv;
	struct iocb *cbs[1] = { &a->cb };
	struct io_event ev;
	int ret;

	if (write)
		io_prep_pwrite(&a->cb, p->fd, p->buf, p->buf_len, (long long)offset);
	else
		io_prep_pread(&a->cb, p->fd, p->buf, p->buf_len, (long long)offset);
	a->cb.aio_rw_flags = (p->nowait ? RWF_NOWAIT : 0) | (p->hipri ? RWF_HIPRI : 0);
	ret = io_submit(a->ctx, 1, cbs);
	if (ret != 1)
		return ret < 0 ? ret : -EAGAIN;
	do
		ret = io_getevents(a->ctx, 1, 1, &ev, NULL);
	while (ret == -EINTR);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	return (ssize_t)(long)ev.res;
}

static void aio_cleanup(void *priv)
{
	struct aio_priv *a = priv;

	if (!a)
		return;
	io_destroy(a->ctx);
	free(a);
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.init = aio_init,
	.io = aio_io,
	.cleanup = aio_cleanup,
};
