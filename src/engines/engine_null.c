/*
 * null engine: completes every request without I/O, after an optional fixed
 * fake latency (--engine=null:2ms), so the pacer, statistics and views can be
 * tested deterministically. At depth N (-Q N) submit() only notes when the
 * request will complete (now + TIME) and reap() waits for the earliest.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "suffix.h"

struct null_priv {
	uint64_t latency; /* ns */
	unsigned depth;
	uint64_t *due;    /* completion time per slot, 0 = free */
};

static int null_init(const struct engine_params *p, void **priv)
{
	struct null_priv *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	if (p->arg && suffix_parse_time(p->arg, 3600000000000ull, &n->latency, NULL, 0)) {
		free(n);
		return -EINVAL;
	}
	n->depth = p->depth > 1 ? p->depth : 1;
	/* every depth can submit: random arrivals run the open loop at depth 1 too */
	if (!(n->due = calloc(n->depth, sizeof(*n->due)))) {
		free(n);
		return -ENOMEM;
	}
	*priv = n;
	return 0;
}

static ssize_t null_io(void *priv, const struct engine_params *p, bool write, uint64_t offset)
{
	struct null_priv *n = priv;
	(void)write;
	(void)offset;

	if (n->latency)
		clock_wait_until(clock_now() + n->latency, NULL);
	return (ssize_t)p->buf_len;
}

static int null_submit(void *priv, const struct engine_params *p, unsigned slot, bool write,
		       uint64_t offset)
{
	struct null_priv *n = priv;
	(void)p;
	(void)write;
	(void)offset;

	if (slot >= n->depth || n->due[slot])
		return -EBUSY;
	n->due[slot] = clock_now() + n->latency;
	if (!n->due[slot])
		n->due[slot] = 1;
	return 0;
}

/* Collect every request due by now into done[] (at most max). */
static int null_collect(struct null_priv *n, const struct engine_params *p,
			struct engine_done *done, unsigned max, uint64_t now)
{
	int got = 0;

	for (unsigned i = 0; i < n->depth && (unsigned)got < max; i++) {
		if (!n->due[i] || n->due[i] > now)
			continue;
		n->due[i] = 0;
		done[got].slot = i;
		done[got++].result = (int64_t)p->buf_len;
	}
	return got;
}

static int null_reap(void *priv, const struct engine_params *p, struct engine_done *done,
		     unsigned max, uint64_t wait_ns)
{
	struct null_priv *n = priv;
	uint64_t now = clock_now(), first = UINT64_MAX;
	int got = null_collect(n, p, done, max, now);

	if (got || !wait_ns)
		return got;
	for (unsigned i = 0; i < n->depth; i++)
		if (n->due[i] && n->due[i] < first)
			first = n->due[i];
	if (first == UINT64_MAX || first - now > wait_ns)
		first = now + wait_ns;
	if (clock_wait_until(first, NULL))
		return -EINTR;
	return null_collect(n, p, done, max, clock_now());
}

static void null_cleanup(void *priv)
{
	struct null_priv *n = priv;

	if (n)
		free(n->due);
	free(n);
}

const struct engine_ops engine_null = {
	.name = "null",
	.takes_arg = true,
	.no_device = true,
	.init = null_init,
	.io = null_io,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
