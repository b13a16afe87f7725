/*
 * libaio engine: Linux native AIO. At depth 1 one iocb is in flight
 * (io_submit, then io_getevents for exactly one event); at depth N (-Q N)
 * one iocb per buffer slot, submitted as they start and reaped with
 * io_getevents. -N maps to RWF_NOWAIT and -H to RWF_HIPRI through
 * iocb.aio_rw_flags. Without O_DIRECT the kernel runs io_submit
 * synchronously: depth needs -D to reach the device.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Completions collected per io_getevents call. */
#define AIO_REAP_MAX 64

struct aio_priv {
	io_context_t ctx;
	struct iocb cb;
	struct iocb *cbs;          /* one per slot (submit(), the open loop) */
	struct io_event ev[AIO_REAP_MAX];
};

static int aio_init(const struct engine_params *p, void **priv)
{
	struct aio_priv *a = calloc(1, sizeof(*a));
	unsigned depth = p->depth > 1 ? p->depth : 1;
	int ret;

	if (!a)
		return -ENOMEM;
	/* submit() at every depth: random arrivals run the open loop at depth 1 too */
	if (!(a->cbs = calloc(depth, sizeof(*a->cbs)))) {
		free(a);
		return -ENOMEM;
	}
	ret = io_setup((int)depth, &a->ctx);
	if (ret) {
		free(a->cbs);
		free(a);
		return ret < 0 ? ret : -ret;
	}
	*priv = a;
	return 0;
}

static void aio_prep(struct iocb *cb, const struct engine_params *p, void *buf, bool write,
		     uint64_t offset)
{
	if (write)
		io_prep_pwrite(cb, p->fd, buf, p->buf_len, (long long)offset);
	else
		io_prep_pread(cb, p->fd, buf, p->buf_len, (long long)offset);
	cb->aio_rw_flags = (p->nowait ? RWF_NOWAIT : 0) | (p->hipri ? RWF_HIPRI : 0);
}

static ssize_t aio_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	struct aio_priv *a = priv;
	struct iocb *cbs[1] = { &a->cb };
	struct io_event ev;
	int ret;

	aio_prep(&a->cb, p, p->buf, write, offset);
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

static int aio_submit(void *priv, const struct engine_params *p, unsigned slot, bool write,
		      uint64_t offset)
{
	struct aio_priv *a = priv;
	struct iocb *cb = &a->cbs[slot];
	int ret;

	aio_prep(cb, p, (char *)p->buf + (size_t)slot * p->buf_stride, write, offset);
	cb->data = (void *)(uintptr_t)slot;
	ret = io_submit(a->ctx, 1, &cb);
	if (ret != 1)
		return ret < 0 ? ret : -EAGAIN;
	return 0;
}

static int aio_reap(void *priv, const struct engine_params *p, struct engine_done *done,
		    unsigned max, uint64_t wait_ns)
{
	struct aio_priv *a = priv;
	struct timespec ts = { (time_t)(wait_ns / 1000000000u), (long)(wait_ns % 1000000000u) };
	int n;
	(void)p;

	if (max > AIO_REAP_MAX)
		max = AIO_REAP_MAX;
	n = io_getevents(a->ctx, wait_ns ? 1 : 0, (long)max, a->ev, &ts);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		done[i].slot = (unsigned)(uintptr_t)a->ev[i].data;
		done[i].result = (int64_t)(long)a->ev[i].res;
	}
	return n;
}

static void aio_cleanup(void *priv)
{
	struct aio_priv *a = priv;

	if (!a)
		return;
	io_destroy(a->ctx); /* waits for requests still in flight */
	free(a->cbs);
	free(a);
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.init = aio_init,
	.io = aio_io,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
