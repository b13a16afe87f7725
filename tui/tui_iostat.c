#include "config.h"

#include "tui_iostat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sbuf.h"

static const char *tui_iostat_kind(enum devstack_kind k)
{
	switch (k) {
	case DEVSTACK_DISK: return "disk";
	case DEVSTACK_PARTITION: return "part";
	case DEVSTACK_DM: return "dm";
	case DEVSTACK_MD: return "md";
	case DEVSTACK_LOOP: return "loop";
	}
	return "?";
}

static void tui_iostat_add(struct tui_iostat *io, const struct devstack_dev *d, bool top,
			   bool leaf)
{
	struct tui_iodev *v;

	for (size_t i = 0; i < io->ndev; i++) {
		if (io->dev[i].major == d->major && io->dev[i].minor == d->minor) {
			io->dev[i].top |= top;
			io->dev[i].leaf |= leaf;
			return;
		}
	}
	if (io->ndev >= DEVSTACK_MAX)
		return;
	v = &io->dev[io->ndev++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", d->name);
	snprintf(v->kind, sizeof(v->kind), "%s", tui_iostat_kind(d->kind));
	if (d->kind == DEVSTACK_DM)
		snprintf(v->detail, sizeof(v->detail), "%s", d->dm_name);
	else if (d->kind == DEVSTACK_MD)
		snprintf(v->detail, sizeof(v->detail), "%s", d->md_level);
	else if (d->kind == DEVSTACK_LOOP)
		snprintf(v->detail, sizeof(v->detail), "%.*s", (int)sizeof(v->detail) - 1,
			 d->backing_file);
	v->major = d->major;
	v->minor = d->minor;
	v->rotational = d->rotational;
	v->max_sectors_kb = d->max_sectors_kb;
	v->top = top;
	v->leaf = leaf;
	v->state = TUI_IO_INIT;
	v->watch = devwatch_watch(&io->watch, d->name, d->major, d->minor);
	if (v->watch >= 0) { /* what the verdict reads, as devwatch_init keeps them */
		io->watch.dev[v->watch].max_sectors_kb = d->max_sectors_kb;
		io->watch.dev[v->watch].write_cache = d->write_cache;
	}
}

void tui_iostat_setup(struct tui_iostat *io, const struct devstack *ds)
{
	struct sbuf sb = SBUF_INIT;

	io->ndev = 0;
	io->sel = 0;
	io->last = 0;
	io->probe_prev = 0;
	io->probe_tps = 0;
	devwatch_reset(&io->watch, NULL);
	io->no_blockdev = !ds || ds->no_blockdev || !ds->ndev;
	io->stack[0] = '\0';
	if (ds) {
		devstack_describe(ds, &sb);
		snprintf(io->stack, sizeof(io->stack), "%s", sbuf_str(&sb));
		sbuf_free(&sb);
	} else {
		snprintf(io->stack, sizeof(io->stack), "no block device");
	}
	if (io->no_blockdev)
		return;
	tui_iostat_add(io, &ds->dev[0], true, ds->ndev == 1);
	for (size_t i = 0; i < ds->nleaves && i < DEVSTACK_MAX; i++)
		if (ds->leaf[i] < ds->ndev)
			tui_iostat_add(io, &ds->dev[ds->leaf[i]], false, true);
}

void tui_iostat_open(struct tui_iostat *io, const char *path)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	int ret = ds ? devwatch_stack(path, ds) : -ENOMEM;

	memset(io, 0, sizeof(*io));
	if (ret) {
		tui_iostat_setup(io, NULL);
		snprintf(io->stack, sizeof(io->stack), "no block device (%s)", strerror(-ret));
	} else {
		tui_iostat_setup(io, ds);
	}
	free(ds);
}

static enum tui_io_state tui_iostat_state(enum devwatch_state s)
{
	switch (s) {
	case DEVWATCH_INIT: return TUI_IO_INIT;
	case DEVWATCH_OK: return TUI_IO_OK;
	case DEVWATCH_RESET: return TUI_IO_RESET;
	case DEVWATCH_MISSING: return TUI_IO_STALE;
	}
	return TUI_IO_STALE;
}

/* After devwatch sampled at boottime ns now: the probe's rate and each device's state. */
static void tui_iostat_follow(struct tui_iostat *io, uint64_t now, uint64_t probe_samples)
{
	if (io->last && now > io->last)
		io->probe_tps = (double)(probe_samples - io->probe_prev) * NS_PER_S /
				(double)(now - io->last);
	io->last = now;
	io->probe_prev = probe_samples;
	for (size_t i = 0; i < io->ndev; i++) {
		struct tui_iodev *d = &io->dev[i];
		const struct devwatch_dev *wd;

		if (d->watch < 0) {
			d->state = TUI_IO_STALE;
			continue;
		}
		wd = &io->watch.dev[d->watch];
		d->state = tui_iostat_state(wd->state);
		if (wd->state == DEVWATCH_OK || wd->state == DEVWATCH_RESET)
			d->row = wd->row;
		if (wd->state != DEVWATCH_MISSING)
			d->last_ok = now;
	}
}

void tui_iostat_update(struct tui_iostat *io, const char *text, uint64_t now,
		       uint64_t probe_samples)
{
	devwatch_sample(&io->watch, text ? text : "", now); /* no text: every device missing */
	tui_iostat_follow(io, now, probe_samples);
}

int tui_iostat_sample(struct tui_iostat *io, uint64_t probe_samples)
{
	int err;

	if (io->no_blockdev)
		return 0;
	err = devwatch_sample(&io->watch, NULL, 0); /* devwatch reads the file and the clock */
	if (err)
		devwatch_sample(&io->watch, "", 0); /* unreadable: every device missing */
	tui_iostat_follow(io, io->watch.prev_ns, probe_samples);
	return err;
}

const struct tui_iodev *tui_iostat_selected(const struct tui_iostat *io)
{
	if (!io->ndev)
		return NULL;
	return &io->dev[io->sel < io->ndev ? io->sel : 0];
}

void tui_iostat_next(struct tui_iostat *io)
{
	if (io->ndev)
		io->sel = (io->sel + 1) % io->ndev;
}

const char *tui_iostat_state_text(enum tui_io_state s)
{
	switch (s) {
	case TUI_IO_INIT: return "initializing";
	case TUI_IO_OK: return "ok";
	case TUI_IO_RESET: return "reset";
	case TUI_IO_STALE: return "stale";
	}
	return "?";
}
