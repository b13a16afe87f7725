/*
 * null engine: completes every request without I/O, after an optional fixed
 * fake latency (--engine=null:2ms), so the pacer, statistics and views can be
 * tested deterministically.
 */
#include "config.h"

#include "engine.h"

#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "suffix.h"

struct null_priv {
	uint64_t latency; /* ns */
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

static void null_cleanup(void *priv)
{
	free(priv);
}

const struct engine_ops engine_null = {
	.name = "null",
	.takes_arg = true,
	.init = null_init,
	.io = null_io,
	.cleanup = null_cleanup,
};
