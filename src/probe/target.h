/*
 * target: what the probe reads or writes — a directory (through a temporary
 * file, see tempfile.h), a regular file, a block device or a character
 * device — opened and checked the way ioping 1.3 does, plus ioprobe's safety
 * rules: the path is opened once and everything is decided from fstat() of
 * that descriptor; with -WWW every open carries O_EXCL (a mounted or claimed
 * block device is refused, whatever the path pointed at when it was looked
 * at); nothing is written without -WWW except the directory's own temp file.
 *
 * target_open() returns 0 or a negative errno; on error msg holds the text to
 * print after "ioprobe: " (exit code 2, or 1 for -EDOM: a -D alignment problem
 * found before any I/O).
 */
#ifndef IOPROBE_TARGET_H
#define IOPROBE_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum target_kind { TARGET_DIR, TARGET_FILE, TARGET_BLOCK, TARGET_CHAR };

struct target {
	enum target_kind kind;
	int fd;                 /* open for the probe; -1 when closed */
	char fstype[256];       /* "ext4", "block device", "character device" */
	char device[4096];      /* "/dev/vda", "" for devices */
	uint64_t device_size;   /* fs size (dir/file) or device size, bytes */
	uint64_t size;          /* request size, bytes */
	uint64_t work_offset;   /* start of the working set in the file/device */
	uint64_t work_size;     /* working set size */
	unsigned align;         /* O_DIRECT alignment (logical block size), 0 = unknown */
	bool writable;          /* opened for writing */
};

/* What target_open() needs of the command line (the CLI fills it from its options). */
struct target_cfg {
	const char *path;       /* the file, directory or device */
	uint64_t size;          /* request size, bytes (defaults applied) */
	uint64_t work_size;     /* -S: working set, bytes; 0 = the default */
	uint64_t work_offset;   /* -o: start of the working set, bytes */
	uint64_t seed;          /* -e: seeds the temp file's random fill */
	unsigned write;         /* how many -W (and -G): 1-2 writes, 3 = -WWW (any target, O_EXCL) */
	bool rapid;             /* -R: the smaller default working set */
	bool direct;            /* -D: O_DIRECT, requests aligned to the logical block size */
	bool sync, dsync;       /* -Y, -y: O_SYNC, O_DSYNC */
	bool keep;              /* -k: keep and reuse the directory's temp file */
};

/*
 * Progress of a long preparation: fn(arg, done, total) in bytes, after each
 * chunk of the working set written (done == total at the end).
 */
struct target_progress {
	void (*fn)(void *arg, uint64_t done, uint64_t total);
	void *arg;
};

/*
 * Resolve the working set, open the target and (for a directory) create and
 * fill the temporary file, as cfg says. A non-zero *stop
 * (a signal during a long fill) ends the preparation with -EINTR. On failure
 * nothing is left behind (no temp file, fd closed). progress (NULL = none)
 * hears how the fill goes.
 */
int target_open(struct target *t, const struct target_cfg *cfg, const volatile sig_atomic_t *stop,
		const struct target_progress *progress, char *msg, size_t msglen);

/* Close the target (idempotent). */
void target_close(struct target *t);

/*
 * target_close() for the process that owns stdout: the descriptor is dropped
 * through child_close_apart(), so that the last reference to the target (a
 * directory's unnamed temp file, whose eviction truncates it on the disk under
 * test) is never dropped here.
 */
void target_close_apart(struct target *t);

#endif
