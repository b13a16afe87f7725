/*
 * devwatch: the one diskstats sampler, behind --iostat's rows and the
 * view's iostat panel (tui_iostat keeps a devwatch and adds what it shows
 * about each device). Knows which devices to watch (the target's device
 * stack plus any named by the user, or a list given one by one), reads
 * /proc/diskstats, and turns two samples into sysstat's `iostat -dx` rows.
 * The interval is measured on CLOCK_BOOTTIME (clock_boottime()), as
 * iostat's /proc/uptime is, in ns.
 */
#ifndef IOPROBE_DEVWATCH_H
#define IOPROBE_DEVWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devstack.h"
#include "diskstats.h"
#include "iostat.h"
#include "verdict.h"

#define DEVWATCH_MAX 64

enum devwatch_state {
	DEVWATCH_INIT,    /* one sample so far: no interval to show yet */
	DEVWATCH_OK,
	DEVWATCH_RESET,   /* counters went backwards or the device was re-created */
	DEVWATCH_MISSING, /* the device is gone from /proc/diskstats */
};

struct devwatch_dev {
	char name[DEVSTACK_NAME_LEN];
	unsigned major, minor;
	unsigned max_sectors_kb;   /* queue/max_sectors_kb read once at start; 0 = unknown */
	unsigned max_segments;     /* queue/max_segments read once at start; 0 = unknown */
	int write_cache;           /* queue/write_cache at start: 1 write back, 0 write through, -1 unknown */
	struct disk_counters prev;
	bool have_prev;
	enum devwatch_state state;
	struct iostat_row row;     /* the last interval's row (when state is OK) */
};

struct devwatch {
	char proc_path[256];       /* "/proc/diskstats" (a parameter for tests) */
	size_t ndev;
	struct devwatch_dev dev[DEVWATCH_MAX];
	uint64_t prev_ns;          /* CLOCK_BOOTTIME of the previous sample; 0 = none */
	uint64_t read_mono_ns;     /* CLOCK_MONOTONIC of the previous sample's read; 0 = given text */
};

/* Start watching nothing; proc_path NULL = /proc/diskstats. */
void devwatch_reset(struct devwatch *w, const char *proc_path);

/*
 * Watch one more device (by its kernel name; major:minor are kept for the
 * caller). Returns its index in w->dev, the existing index for a name
 * already watched, or -1 when DEVWATCH_MAX are watched.
 */
int devwatch_watch(struct devwatch *w, const char *name, unsigned major, unsigned minor);

/*
 * Watch every device of ds (top first), with the queue attributes ds read
 * (max_sectors_kb, write_cache), and then the devices named in extra
 * (comma-separated kernel names such as "sda,nvme0n1", or NULL; their queue
 * attributes are unknown). Duplicates are dropped. Returns 0, or -ENOENT with msg filled when a named device is
 * not in proc_path (NULL = /proc/diskstats), -EINVAL when nothing is left to
 * watch (a target with no block device and no names).
 */
int devwatch_init(struct devwatch *w, const struct devstack *ds, const char *extra,
		  const char *proc_path, char *msg, size_t msglen);

/*
 * Take a sample now (text is the content of proc_path, or NULL to read it;
 * now_ns is CLOCK_BOOTTIME, or 0 to read the clock) and update every
 * device's row and state. A read of its own is dated by the tightest of up to
 * three reads bracketed by the clocks (read_mono_ns: its CLOCK_MONOTONIC, and
 * the CLOCK_BOOTTIME taken unless now_ns is given); the rows then cover
 * what completed between two such moments. The first call only sets the baseline (state
 * INIT); a device missing from text is MISSING and starts again with INIT
 * when it is back. Returns 0 or -errno when the file cannot be read.
 */
int devwatch_sample(struct devwatch *w, const char *text, uint64_t now_ns);

/*
 * One read of w's diskstats file for several watches: *text (the caller frees it) dated as
 * devwatch_sample() dates a read of its own (*boot_ns, *mono_ns). Returns 0 or -errno.
 */
int devwatch_read_dated(const struct devwatch *w, char **text, uint64_t *boot_ns,
			uint64_t *mono_ns);

/* devwatch_sample() of text read at boot_ns / mono_ns (devwatch_read_dated()'s). */
int devwatch_sample_dated(struct devwatch *w, const char *text, uint64_t boot_ns,
			  uint64_t mono_ns);

/*
 * The devices with a row this interval (state OK or RESET), in watch order,
 * as plain rows pointing into w (valid until the next sample): at most max
 * of them into out. Returns how many.
 */
size_t devwatch_rows(const struct devwatch *w, struct iostat_dev_row *out, size_t max);

/*
 * Every device of w (NULL: none), top first, as the verdict reads them: the
 * row only where it is complete this interval (state OK), with max_sectors_kb
 * and write_cache read at start. At most max into out; returns how many.
 */
size_t devwatch_verdict_devs(const struct devwatch *w, struct verdict_dev *out, size_t max);

/*
 * The device stack under path (a file, directory or device), resolved
 * through /sys and /proc/self/mountinfo. Returns 0, -ENOENT when there is
 * no block device below path (ds->no_blockdev may say why), or -errno.
 */
int devwatch_stack(const char *path, struct devstack *ds);

/*
 * devwatch_init for the device stack under path, plus extra. Returns 0 or
 * -errno with msg filled.
 */
int devwatch_for_path(struct devwatch *w, const char *path, const char *extra, char *msg,
		      size_t msglen);

/*
 * devwatch_for_path for several targets: the union of their device stacks,
 * each device once, in the order the targets come, then extra. A target
 * with no block device below it adds nothing. Returns 0 or -errno with msg
 * filled (-EINVAL when no target has a device and extra names none).
 */
int devwatch_for_paths(struct devwatch *w, const char *const *paths, size_t n,
		       const char *extra, char *msg, size_t msglen);

#endif
