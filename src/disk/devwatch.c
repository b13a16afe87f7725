#include "config.h"

#include "devwatch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "readfile.h"

/* a read of /proc/diskstats dated within 1 ms, else the tightest of three */
#define DEVWATCH_READ_TRIES 3
#define DEVWATCH_READ_TIGHT_NS 1000000ull

void devwatch_reset(struct devwatch *w, const char *proc_path)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->proc_path, sizeof(w->proc_path), "%s", proc_path ? proc_path : "/proc/diskstats");
}

int devwatch_watch(struct devwatch *w, const char *name, unsigned major, unsigned minor)
{
	struct devwatch_dev *d;

	for (size_t i = 0; i < w->ndev; i++)
		if (!strcmp(w->dev[i].name, name))
			return (int)i;
	if (w->ndev >= DEVWATCH_MAX)
		return -1;
	d = &w->dev[w->ndev];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->major = major;
	d->minor = minor;
	d->write_cache = -1;
	d->state = DEVWATCH_INIT;
	return (int)w->ndev++;
}

int devwatch_init(struct devwatch *w, const struct devstack *ds, const char *extra,
		  const char *proc_path, char *msg, size_t msglen)
{
	char *text = NULL;
	int err = 0;

	devwatch_reset(w, proc_path);
	for (size_t i = 0; ds && i < ds->ndev; i++) {
		int k = devwatch_watch(w, ds->dev[i].name, ds->dev[i].major, ds->dev[i].minor);

		if (k >= 0) {
			w->dev[k].max_sectors_kb = ds->dev[i].max_sectors_kb;
			w->dev[k].max_segments = ds->dev[i].max_segments;
			w->dev[k].write_cache = ds->dev[i].write_cache;
		}
	}
	if (extra && *extra) {
		const char *p = extra;

		text = readfile_text(w->proc_path, &err);
		if (!text) {
			snprintf(msg, msglen, "cannot read %s: %s", w->proc_path, strerror(-err));
			return err;
		}
		while (*p) {
			size_t len = strcspn(p, ",");
			char name[DEVSTACK_NAME_LEN];
			struct disk_counters c;

			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			p += len + (p[len] == ',');
			if (!*name)
				continue;
			if (diskstats_find_name(text, name, &c)) {
				snprintf(msg, msglen, "--iostat: no device \"%s\" in %s", name,
					 w->proc_path);
				free(text);
				return -ENOENT;
			}
			devwatch_watch(w, name, c.major, c.minor);
		}
		free(text);
	}
	if (!w->ndev) {
		snprintf(msg, msglen, "--iostat: the target is on no block device; name one "
			 "with --iostat=DEV");
		return -EINVAL;
	}
	return 0;
}

/*
 * Read proc_path into *text (owned), with when it was read: the midpoint of the tightest of up to
 * DEVWATCH_READ_TRIES reads bracketed by the clocks (a process held off its CPU between the read
 * and a clock would otherwise date the counts up to a throttling period late).
 */
static int devwatch_read(const struct devwatch *w, char **text, uint64_t *boot_ns,
			 uint64_t *mono_ns)
{
	uint64_t best = UINT64_MAX;
	int err = 0;

	*text = NULL;
	for (int i = 0; i < DEVWATCH_READ_TRIES && best > DEVWATCH_READ_TIGHT_NS; i++) {
		uint64_t b0 = clock_boottime(), m0 = clock_now(), m1, b1;
		char *t = readfile_text(w->proc_path, &err);

		m1 = clock_now();
		b1 = clock_boottime();
		if (!t)
			break;
		if (m1 - m0 < best) {
			best = m1 - m0;
			free(*text);
			*text = t;
			*boot_ns = b0 + (b1 - b0) / 2;
			*mono_ns = m0 + (m1 - m0) / 2;
		} else {
			free(t);
		}
	}
	return *text ? 0 : err;
}

int devwatch_sample(struct devwatch *w, const char *text, uint64_t now_ns)
{
	char *owned = NULL;
	uint64_t mono = 0;
	int err;

	if (!text) {
		uint64_t boot = 0;

		err = devwatch_read(w, &owned, &boot, &mono);
		if (err)
			return err;
		text = owned;
		if (!now_ns)
			now_ns = boot;
	}
	if (!now_ns)
		now_ns = clock_boottime();
	w->read_mono_ns = mono;
	for (size_t i = 0; i < w->ndev; i++) {
		struct devwatch_dev *d = &w->dev[i];
		struct disk_counters cur;

		if (diskstats_find_name(text, d->name, &cur)) {
			d->state = DEVWATCH_MISSING;
			d->have_prev = false;
			continue;
		}
		if (d->have_prev && w->prev_ns && now_ns > w->prev_ns) {
			int r = iostat_compute(&d->prev, &cur, now_ns - w->prev_ns, &d->row);

			d->state = r == IOSTAT_RESET ? DEVWATCH_RESET :
				   r == 0 ? DEVWATCH_OK : DEVWATCH_INIT;
		} else {
			d->state = DEVWATCH_INIT;
		}
		d->prev = cur;
		d->have_prev = true;
	}
	w->prev_ns = now_ns;
	free(owned);
	return 0;
}

int devwatch_read_dated(const struct devwatch *w, char **text, uint64_t *boot_ns,
			uint64_t *mono_ns)
{
	return devwatch_read(w, text, boot_ns, mono_ns);
}

int devwatch_sample_dated(struct devwatch *w, const char *text, uint64_t boot_ns,
			  uint64_t mono_ns)
{
	int err = devwatch_sample(w, text, boot_ns);

	w->read_mono_ns = mono_ns;
	return err;
}

size_t devwatch_rows(const struct devwatch *w, struct iostat_dev_row *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < w->ndev && n < max; i++) {
		const struct devwatch_dev *d = &w->dev[i];

		if (d->state == DEVWATCH_OK || d->state == DEVWATCH_RESET)
			out[n++] = (struct iostat_dev_row){ d->name, &d->row };
	}
	return n;
}

size_t devwatch_verdict_devs(const struct devwatch *w, struct verdict_dev *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; w && i < w->ndev && n < max; i++, n++) {
		const struct devwatch_dev *d = &w->dev[i];

		out[n] = (struct verdict_dev){ d->name, d->state == DEVWATCH_OK ? &d->row : NULL,
					       d->max_sectors_kb, d->write_cache, d->max_segments };
	}
	return n;
}

int devwatch_stack(const char *path, struct devstack *ds)
{
	char *mountinfo, *real;
	int err = 0, ret;

	mountinfo = readfile_text("/proc/self/mountinfo", &err);
	real = realpath(path, NULL);
	ret = devstack_resolve_path("/sys", mountinfo, real ? real : path, devstack_stat_path,
				    NULL, ds);
	free(real);
	free(mountinfo);
	return ret;
}

int devwatch_for_path(struct devwatch *w, const char *path, const char *extra, char *msg,
		      size_t msglen)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	int ret;

	if (!ds) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	ret = devwatch_stack(path, ds);
	if (ret && ret != -ENOENT) {
		snprintf(msg, msglen, "--iostat: cannot find the device under \"%s\": %s", path,
			 strerror(-ret));
		free(ds);
		return ret;
	}
	ret = devwatch_init(w, ret ? NULL : ds, extra, NULL, msg, msglen);
	free(ds);
	return ret;
}

int devwatch_for_paths(struct devwatch *w, const char *const *paths, size_t n,
		       const char *extra, char *msg, size_t msglen)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	int ret;

	if (!ds) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	devwatch_reset(w, NULL);
	for (size_t i = 0; i < n; i++) {
		ret = devwatch_stack(paths[i], ds);
		if (ret == -ENOENT)
			continue;
		if (ret) {
			snprintf(msg, msglen, "--iostat: cannot find the device under \"%s\": %s",
				 paths[i], strerror(-ret));
			free(ds);
			return ret;
		}
		for (size_t d = 0; d < ds->ndev; d++)
			devwatch_watch(w, ds->dev[d].name, ds->dev[d].major, ds->dev[d].minor);
	}
	free(ds);
	if (!w->ndev || (extra && *extra)) {
		struct devwatch *more = malloc(sizeof(*more));

		if (!more) {
			snprintf(msg, msglen, "out of memory");
			return -ENOMEM;
		}
		ret = devwatch_init(more, NULL, extra, NULL, msg, msglen);
		if (ret && !(ret == -EINVAL && w->ndev)) {
			free(more);
			return ret;
		}
		for (size_t d = 0; !ret && d < more->ndev; d++)
			devwatch_watch(w, more->dev[d].name, more->dev[d].major, more->dev[d].minor);
		free(more);
	}
	return 0;
}
