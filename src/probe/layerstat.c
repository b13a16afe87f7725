#include "config.h"

#include "layerstat.h"

const char *layer_name(enum layer l)
{
	static const char *const names[LAYERS_N] = { "submit", "throttle", "queue", "device" };

	return l < LAYERS_N ? names[l] : "?";
}

void layer_tally_init(struct layer_tally *t)
{
	for (int i = 0; i < LAYERS_N; i++)
		stats_init(&t->layer[i]);
	t->requests = t->pieces = t->no_device = 0;
}

bool layer_counted(const struct sample *s, enum notice n)
{
	return s->layers.measured && (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW);
}

void layer_tally_add(struct layer_tally *t, const struct sample *s, enum notice n)
{
	const struct layer_times *l = &s->layers;

	if (!layer_counted(s, n))
		return;
	t->requests++;
	if (l->no_device) {
		t->no_device++;
		return;
	}
	t->pieces += l->pieces;
	stats_add(&t->layer[LAYER_SUBMIT], l->submit);
	stats_add(&t->layer[LAYER_THROTTLE], l->throttle);
	stats_add(&t->layer[LAYER_QUEUE], l->queue);
	stats_add(&t->layer[LAYER_DEVICE], l->device);
}

void layer_tally_merge(struct layer_tally *dst, const struct layer_tally *src)
{
	for (int i = 0; i < LAYERS_N; i++)
		stats_merge(&dst->layer[i], &src->layer[i]);
	dst->requests += src->requests;
	dst->pieces += src->pieces;
	dst->no_device += src->no_device;
}

double layer_tally_pieces(const struct layer_tally *t)
{
	uint64_t device = t->requests - t->no_device;

	return device ? (double)t->pieces / (double)device : 0;
}
