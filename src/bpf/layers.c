#include "config.h"

#include "layers.h"

#include <stdatomic.h>
#include <string.h>

void layers_setup(struct layers_area *a, uint32_t tgid, uint32_t dev)
{
	__atomic_store_n(&a->seq, 0, __ATOMIC_RELEASE);
	a->tgid = tgid;
	a->dev = dev;
}

void layers_pidns(struct layers_area *a, uint64_t user_dev, uint64_t ino)
{
	bool init = !ino || ino == LAYERS_PIDNS_INIT_INO;

	a->ns_dev = init ? 0 : layers_dev(user_dev);
	a->ns_ino = init ? 0 : ino;
}

uint32_t layers_dev(uint64_t user_dev)
{
	/* glibc's dev_t: major in bits 8-19 and 32-43, minor in bits 0-7 and 20-31 */
	uint32_t major = (uint32_t)(((user_dev >> 8) & 0xfff) | ((user_dev >> 32) & ~0xfffu));
	uint32_t minor = (uint32_t)((user_dev & 0xff) | ((user_dev >> 12) & ~0xffu));

	return major << 20 | (minor & 0xfffff);
}

void layers_begin(struct layers_area *a, uint64_t seq, uint64_t offset, uint64_t size)
{
	a->lo = offset / 512;
	a->hi = (offset + size + 511) / 512;
	a->sleep = a->queue = a->issue = a->complete = 0;
	a->worker = a->queued = a->issues = a->completes = a->splits = a->merges = 0;
	/* the last request's bios go: a program that reads a slot between another's count and
	 * its store must not find a stale (freed, maybe reused) bio there */
	for (uint32_t i = 0; i < a->nbios && i < LAYERS_BIOS; i++)
		a->bios[i] = 0;
	a->nbios = 0;
	__atomic_store_n(&a->seq, seq, __ATOMIC_RELEASE);
}

void layers_end(struct layers_area *a, uint64_t t0, struct layer_times *out)
{
	__atomic_store_n(&a->seq, 0, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	layers_decode(a, t0, out);
}

/* b - a, 0 when b is not after a. */
static uint64_t span(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void layers_decode(const struct layers_area *a, uint64_t t0, struct layer_times *out)
{
	uint64_t queue = a->queue > t0 ? a->queue : t0, handed = queue;
	uint64_t issue = a->issue > queue ? a->issue : queue;

	memset(out, 0, sizeof(*out));
	out->measured = true;
	out->pieces = a->issues;
	if (!a->queued) {
		out->no_device = true;
		return;
	}
	/* queued by a worker: the probe handed the bio over when it went to sleep */
	if (a->worker && a->sleep)
		handed = a->sleep < t0 ? t0 : a->sleep > queue ? queue : a->sleep;
	else if (a->worker)
		handed = t0; /* it never slept (it polled): the whole wait is the throttle's */
	out->submit = span(t0, handed);
	out->throttle = span(handed, queue);
	if (a->issues)
		out->queue = span(queue, issue);
	if (a->issues && a->completes)
		out->device = span(issue, a->complete);
}
