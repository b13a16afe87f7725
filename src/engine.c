#include "config.h"

#include "engine.h"

#include <errno.h>
#include <string.h>

static const struct engine_ops *const registry[] = {
	&engine_sync,
#if HAVE_LIBAIO
	&engine_libaio,
#endif
#if HAVE_LIBURING
	&engine_uring,
#endif
	&engine_null,
};

const struct engine_ops *const *engine_list(size_t *count)
{
	*count = sizeof(registry) / sizeof(registry[0]);
	return registry;
}

const struct engine_ops *engine_find(const char *spec)
{
	size_t len = strcspn(spec, ":");

	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (strlen(registry[i]->name) == len && !strncmp(registry[i]->name, spec, len))
			return registry[i];
	return NULL;
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
