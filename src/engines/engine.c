#include "config.h"

#include "engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

/*
 * Every engine ioprobe knows, in the order --help lists them; ops is NULL
 * for one this build lacks (so it is "not available", not "unknown").
 */
static const struct {
	const char *name;
	const char *arg;               /* the argument's placeholder in --help, or "" */
	const struct engine_ops *ops;
} registry[] = {
	{ "sync", "", &engine_sync },
#if HAVE_LIBAIO
	{ "libaio", "", &engine_libaio },
#else
	{ "libaio", "", NULL },
#endif
#if HAVE_LIBURING
	{ "io_uring", "", &engine_uring },
#else
	{ "io_uring", "", NULL },
#endif
	{ "null", "[:time]", &engine_null },
};

/* The registry entry named by spec up to its ':', or -1. */
static int engine_index(const char *spec)
{
	size_t len = strcspn(spec, ":");

	for (size_t i = 0; i < ARRAY_SIZE(registry); i++)
		if (strlen(registry[i].name) == len && !strncmp(registry[i].name, spec, len))
			return (int)i;
	return -1;
}

const struct engine_ops *engine_find(const char *spec)
{
	int i = engine_index(spec);

	return i < 0 ? NULL : registry[i].ops;
}

bool engine_known(const char *spec)
{
	return engine_index(spec) >= 0;
}

char *engine_names(char *buf, size_t len, const char *last_sep, bool args)
{
	size_t o = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(registry) && o < len; i++) {
		const char *sep = !i ? "" : i + 1 == ARRAY_SIZE(registry) ? last_sep : ", ";
		int n = snprintf(buf + o, len - o, "%s%s%s", sep, registry[i].name,
				 args ? registry[i].arg : "");

		if (n < 0)
			break;
		o += (size_t)n;
	}
	return buf;
}

int engine_start(struct engine *e, const struct engine_ops *ops, const struct engine_params *p)
{
	int ret;

	memset(e, 0, sizeof(*e));
	if (!ops || !ops->io || !ops->init || !ops->cleanup)
		return -EINVAL;
	if (p->depth > 1 && !engine_async(ops))
		return -EOPNOTSUPP;
	if (p->depth > 1 && p->buf_stride < p->buf_len)
		return -EINVAL;
	e->params = *p;
	ret = ops->init(&e->params, &e->priv);
	if (ret)
		return ret;
	e->ops = ops;
	return 0;
}

void engine_stop(struct engine *e)
{
	if (e->ops)
		e->ops->cleanup(e->priv);
	e->ops = NULL;
	e->priv = NULL;
}
