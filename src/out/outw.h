/*
 * outw: the standard-output writer a run's threads share (the run of N >= 1
 * targets in cli_run.c, its --iostat ticker). Each report piece is built
 * in the caller's sbuf and written whole under one lock, so the lines of
 * several threads never interleave; JSON objects get the separator the array
 * form needs; the first error is kept for the exit code.
 */
#ifndef IOPROBE_OUTW_H
#define IOPROBE_OUTW_H

#include <pthread.h>
#include <stdbool.h>

#include "sbuf.h"

struct outw {
	pthread_mutex_t lock;    /* whole pieces, one writer at a time */
	int fd;                  /* where they go (STDOUT_FILENO) */
	bool json_lines;         /* JSON lines: no ',' between the objects */
	bool json_started;       /* an object was written: the next needs a separator */
	int err;                 /* first error (-errno), 0 while none */
};

/* Set w up to write to fd; json_lines as the report's. Pair with outw_destroy(). */
void outw_init(struct outw *w, int fd, bool json_lines);

void outw_destroy(struct outw *w);

/*
 * Write sb whole to w->fd (out_write_sbuf()) and reset it; the caller holds
 * w->lock. An sbuf error (-ENOMEM) is returned instead of writing. Returns 0
 * or -errno, and keeps the first error in w->err.
 */
int outw_flush(struct outw *w, struct sbuf *sb);

/* Append the separator a JSON object needs before it (',' after the first one
 * of an array); the caller holds w->lock. */
void outw_json_sep(struct outw *w, struct sbuf *sb);

/* Keep err (-errno, or 0: nothing) in w->err unless an earlier error is kept. */
void outw_keep_err(struct outw *w, int err);

#endif
