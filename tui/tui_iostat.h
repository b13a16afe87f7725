/*
 * tui_iostat: the iostat panel's data — the target's device stack (its top
 * device and the leaf disks under it, from devstack) and, once a second,
 * sysstat's `iostat -x` columns for each of them, plus the probe's own
 * request rate over the same interval. The sampling is src/devwatch's (the
 * same rows, max_sectors_kb and write_cache as --iostat's, which the
 * panel's verdict reads from io->watch); this module adds
 * what the panel shows about each device and the stale rule. Runs in the
 * UI thread, never in the probe thread.
 *
 * tui_iostat_setup() and tui_iostat_update() are pure (they take the
 * devstack and the /proc/diskstats text); tui_iostat_open() resolves the
 * stack and tui_iostat_sample() has devwatch read the file and the clock
 * (no reader or clock of its own). Times are CLOCK_BOOTTIME ns
 * (clock_boottime()), as /proc/uptime (what sysstat uses) counts them.
 *
 * Device states: initializing until two samples exist, ok, reset for an
 * interval where the counters went backwards (values withheld), stale when
 * the device is missing from /proc/diskstats or the file cannot be read
 * (the first sample after it is back is initializing again); no_blockdev when the target has no block
 * device below it (tmpfs, a character device, FUSE ...).
 */
#ifndef IOPROBE_TUI_IOSTAT_H
#define IOPROBE_TUI_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devstack.h"
#include "devwatch.h"
#include "iostat.h"

#define TUI_IO_PERIOD_NS 1000000000ull

enum tui_io_state { TUI_IO_INIT, TUI_IO_OK, TUI_IO_RESET, TUI_IO_STALE };

struct tui_iodev {
	char name[DEVSTACK_NAME_LEN];
	char kind[8];            /* "disk", "part", "dm", "md", "loop" */
	char detail[128];        /* dm name, md level or loop backing file; "" */
	unsigned major, minor;
	int rotational;          /* 1, 0, -1 unknown */
	unsigned max_sectors_kb; /* 0 unknown */
	bool top, leaf;
	enum tui_io_state state;
	struct iostat_row row;   /* the last interval (zero until the first) */
	uint64_t last_ok;        /* boottime ns of the last sample that found the device */
	int watch;               /* index in tui_iostat.watch.dev, -1 = not sampled */
};

struct tui_iostat {
	bool no_blockdev;
	char stack[512];         /* devstack_describe(), or why there is none */
	size_t ndev;
	struct tui_iodev dev[DEVSTACK_MAX];
	size_t sel;              /* the device shown in detail */
	uint64_t last;           /* boottime ns of the last update, 0 = none */
	uint64_t probe_prev;     /* probe sample count at the last update */
	double probe_tps;        /* probe requests per second over the last interval */
	struct devwatch watch;   /* the sampler: one entry per device above */
};

/* Start from a resolved stack: its top device and its leaves (pure). */
void tui_iostat_setup(struct tui_iostat *io, const struct devstack *ds);

/*
 * Resolve the device stack of path (as given on the command line) from
 * /sys and /proc/self/mountinfo and set up. Never fails: without a block
 * device io->no_blockdev is set and io->stack says why.
 */
void tui_iostat_open(struct tui_iostat *io, const char *path);

/*
 * One sample (pure): the /proc/diskstats text taken at boottime ns now
 * (NULL: it could not be read), with probe_samples requests completed by
 * the probe so far.
 */
void tui_iostat_update(struct tui_iostat *io, const char *text, uint64_t now,
		       uint64_t probe_samples);

/*
 * Sample now through devwatch (it reads /proc/diskstats and CLOCK_BOOTTIME)
 * and update. Returns 0 or -errno (the file could not be read: every
 * device is stale).
 */
int tui_iostat_sample(struct tui_iostat *io, uint64_t probe_samples);

/* The selected device, or NULL without devices. */
const struct tui_iodev *tui_iostat_selected(const struct tui_iostat *io);

/* Show the next device of the stack in detail (wraps around). */
void tui_iostat_next(struct tui_iostat *io);

/* "initializing", "ok", "reset", "stale" for the device's state. */
const char *tui_iostat_state_text(enum tui_io_state s);

#endif
