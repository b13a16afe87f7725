#include "config.h"

#include "tui_iostat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sbuf.h"

#define TUI_IO_TEXT_MAX (16u << 20) /* never read more than this of /proc/diskstats */

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
}

void tui_iostat_setup(struct tui_iostat *io, const struct devstack *ds)
{
	struct sbuf sb = SBUF_INIT;

	io->ndev = 0;
	io->sel = 0;
	io->last = 0;
	io->probe_prev = 0;
	io->probe_tps = 0;
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

/* Read a whole (small, virtual) file into a new NUL-terminated buffer; NULL on failure. */
static char *tui_iostat_slurp(const char *path)
{
	struct sbuf sb = SBUF_INIT;
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && sb.len < TUI_IO_TEXT_MAX)
		sbuf_append(&sb, buf, (size_t)n);
	close(fd);
	if (n < 0 || sb.error) {
		sbuf_free(&sb);
		return NULL;
	}
	sbuf_putc(&sb, '\0'); /* an empty file still gives a buffer */
	return sb.buf;
}

void tui_iostat_open(struct tui_iostat *io, const char *path)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	char *mountinfo = tui_iostat_slurp("/proc/self/mountinfo");
	char *real = realpath(path, NULL);
	int ret = -ENOMEM;

	memset(io, 0, sizeof(*io));
	if (ds)
		ret = devstack_resolve_path("/sys", mountinfo, real ? real : path,
					    devstack_stat_path, NULL, ds);
	if (ret) {
		tui_iostat_setup(io, NULL);
		snprintf(io->stack, sizeof(io->stack), "no block device (%s)", strerror(-ret));
	} else {
		tui_iostat_setup(io, ds);
	}
	free(real);
	free(mountinfo);
	free(ds);
}

void tui_iostat_update(struct tui_iostat *io, const char *text, uint64_t now,
		       uint64_t probe_samples)
{
	if (io->last && now > io->last)
		io->probe_tps = (double)(probe_samples - io->probe_prev) * 1e9 /
				(double)(now - io->last);
	io->last = now;
	io->probe_prev = probe_samples;
	for (size_t i = 0; i < io->ndev; i++) {
		struct tui_iodev *d = &io->dev[i];
		struct disk_counters cur;

		if (!text || diskstats_find(text, d->major, d->minor, &cur)) {
			d->state = TUI_IO_STALE; /* gone, or never there */
			continue;
		}
		if (d->have_prev && now > d->prev_t) {
			int r = iostat_compute(&d->prev, &cur, now - d->prev_t, &d->row);

			d->state = r == IOSTAT_RESET ? TUI_IO_RESET : r ? TUI_IO_STALE : TUI_IO_OK;
		}
		d->prev = cur;
		d->prev_t = now;
		d->have_prev = true;
		d->last_ok = now;
	}
	for (size_t i = 0; i < io->ndev; i++) {
		struct tui_iodev *d = &io->dev[i];

		if (d->have_prev && now - d->last_ok > TUI_IO_STALE_NS)
			d->state = TUI_IO_STALE;
	}
}

uint64_t tui_iostat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int tui_iostat_sample(struct tui_iostat *io, uint64_t probe_samples)
{
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	if (io->no_blockdev)
		return 0;
	if (!io->text) {
		io->cap = 16384;
		io->text = malloc(io->cap);
		if (!io->text) {
			io->cap = 0;
			return -ENOMEM;
		}
	}
	fd = open("/proc/diskstats", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		tui_iostat_update(io, NULL, tui_iostat_now(), probe_samples);
		return err;
	}
	for (;;) {
		if (len + 1 >= io->cap) {
			char *t;

			if (io->cap >= TUI_IO_TEXT_MAX)
				break;
			t = realloc(io->text, io->cap * 2);
			if (!t)
				break;
			io->text = t;
			io->cap *= 2;
		}
		n = read(fd, io->text + len, io->cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				err = -errno;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	io->text[len] = '\0';
	tui_iostat_update(io, err ? NULL : io->text, tui_iostat_now(), probe_samples);
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

void tui_iostat_close(struct tui_iostat *io)
{
	free(io->text);
	io->text = NULL;
	io->cap = 0;
}
