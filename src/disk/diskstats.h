/*
 * diskstats: parse the kernel's per-device I/O counters from /proc/diskstats
 * lines and /sys/block/<dev>/stat files. Pure: works on text given by the
 * caller; reading the files is someone else's job.
 *
 * A /proc/diskstats line is "major minor name" followed by N statistics:
 *   N = 11 (2.6.25 - 4.17, 14 columns), 15 (4.18 - 5.4, adds discards, 18
 *   columns), 17 (5.5+, adds flushes, 20 columns), or 4 for a partition on
 *   kernels before 2.6.25 (7 columns: reads, sectors read, writes, sectors
 *   written). The sysfs stat file carries the same N numbers without the
 *   three identifiers. Lines are told apart by their field count, as sysstat
 *   does: 4 statistics is the old partition format; 11 or more is the full
 *   format, a missing tail (discard, flush) reads as 0 and statistics past
 *   the 17th (a future kernel) are ignored; anything else is malformed.
 *
 * Field numbers below are the kernel's (Documentation/admin-guide/iostats.rst),
 * counted after the device name; v[] is indexed by field number - 1.
 * Sectors are always 512 bytes. Fields 4, 8, 9, 10, 11, 15 and 17 are
 * unsigned 32-bit in the kernel (the ms fields wrap at 2^32); the others are
 * unsigned long (32 bits wide on 32-bit kernels). All are kept as uint64_t.
 */
#ifndef IOPROBE_DISKSTATS_H
#define IOPROBE_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The number of statistics a 5.5+ kernel prints per device. */
#define DISKSTATS_NFIELDS 17

/* Longest device name kept, plus its NUL (the kernel's DISK_NAME_LEN is 32). */
#define DISKSTATS_NAME_LEN 64

/* Index into disk_counters.v[] = kernel field number - 1. */
enum diskstats_field {
	DS_RD_IOS = 0,      /*  1 reads completed */
	DS_RD_MERGES,       /*  2 reads merged */
	DS_RD_SECTORS,      /*  3 sectors read */
	DS_RD_TICKS,        /*  4 ms spent reading (u32) */
	DS_WR_IOS,          /*  5 writes completed */
	DS_WR_MERGES,       /*  6 writes merged */
	DS_WR_SECTORS,      /*  7 sectors written */
	DS_WR_TICKS,        /*  8 ms spent writing (u32) */
	DS_IN_FLIGHT,       /*  9 I/Os currently in progress: a gauge (u32) */
	DS_IO_TICKS,        /* 10 ms with at least one I/O in flight (u32) */
	DS_TIME_IN_QUEUE,   /* 11 weighted ms doing I/O (u32) */
	DS_DC_IOS,          /* 12 discards completed (4.18+) */
	DS_DC_MERGES,       /* 13 discards merged */
	DS_DC_SECTORS,      /* 14 sectors discarded */
	DS_DC_TICKS,        /* 15 ms spent discarding (u32) */
	DS_FL_IOS,          /* 16 flush requests completed (5.5+) */
	DS_FL_TICKS,        /* 17 ms spent flushing (u32) */
};

struct disk_counters {
	unsigned major, minor;          /* 0:0 and "" when parsed from a sysfs stat file */
	char name[DISKSTATS_NAME_LEN];
	unsigned nfields;               /* statistics present: 4, or 11..17 */
	uint64_t v[DISKSTATS_NFIELDS];  /* absent fields are 0 */
};

/* True when kernel field index f (enum diskstats_field) is a u32 ms/gauge field. */
bool diskstats_field_is_u32(unsigned f);

/*
 * Parse one /proc/diskstats line (ending at '\n' or NUL; leading and
 * repeated blanks allowed) into out. Returns 0, or -EINVAL when the line is
 * malformed: fewer than 3 identifiers, a non-decimal or overflowing number
 * (major/minor must fit an unsigned, statistics a uint64_t), a name of
 * DISKSTATS_NAME_LEN bytes or more, or a statistics count other than 4 or
 * >= 11. out is fully written on success and left zeroed on failure.
 */
int diskstats_parse_line(const char *line, struct disk_counters *out);

/*
 * Parse the text of /sys/block/<dev>/stat (or <disk>/<part>/stat): 11, 15
 * or 17 numbers (>= 11 accepted like a diskstats line, 4 for an old
 * partition). major, minor and name are set to 0, 0, "": the caller knows
 * which device it read and fills them in. Returns 0 or -EINVAL.
 */
int diskstats_parse_sysfs_stat(const char *text, struct disk_counters *out);

/*
 * Called for each well-formed line by diskstats_foreach; a non-zero return
 * stops the walk and becomes diskstats_foreach's return value.
 */
typedef int (*diskstats_cb)(const struct disk_counters *c, void *arg);

/*
 * Walk every line of a /proc/diskstats text (lines separated by '\n'),
 * calling cb for each well-formed one in order. Blank lines are ignored;
 * malformed lines are skipped and counted into *nbad when nbad is not NULL.
 * Returns 0 after the last line, the callback's non-zero value if it
 * stopped the walk, or -EINVAL when text or cb is NULL.
 */
int diskstats_foreach(const char *text, diskstats_cb cb, void *arg, size_t *nbad);

/*
 * Parse every well-formed line of text into out[0 .. cap-1] in order
 * (out may be NULL when cap is 0). Returns the number of well-formed lines,
 * which may exceed cap (only the first cap are stored: call again with a
 * bigger array), or -EINVAL when text is NULL.
 */
int diskstats_parse(const char *text, struct disk_counters *out, size_t cap);

/*
 * Find the device major:minor in a /proc/diskstats text. Returns 0 and fills
 * out (first match wins), or -ENOENT.
 */
int diskstats_find(const char *text, unsigned major, unsigned minor, struct disk_counters *out);

/* Find the device called name (exact match) in a /proc/diskstats text. 0 or -ENOENT. */
int diskstats_find_name(const char *text, const char *name, struct disk_counters *out);

#endif
