/*
 * filechild: a file ioprobe makes (--record, --report) created, written,
 * closed and, when nothing came for it, removed by a child process of its
 * own (child.h: signals ignored, every descriptor but its two pipes closed),
 * fed through a pipe. A disk that hangs then holds that child in its request,
 * never the process that owns stdout, the exit code and the signals: every
 * wait on the child here polls the run's stop flag and gives the child up
 * cfg.grace after the stop (-ETIMEDOUT), the child left to finish (and end)
 * when its request returns.
 */
#ifndef IOPROBE_FILECHILD_H
#define IOPROBE_FILECHILD_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "msg.h"

struct filechild_cfg {
	const char *path;       /* created O_CREAT|O_EXCL|O_NOFOLLOW, checked with fstat */
	const char *what;       /* the messages' first word: "--record", "--report" */
	const char *noun;       /* "a recording", "a report": is never overwritten */
	bool gz;                /* a zlib stream, Z_SYNC_FLUSH after each piece received */
	bool unlink_failed;     /* a failed write removes the file (else what was written stays) */
	const volatile sig_atomic_t *stop; /* the run's stop flag (NULL: none) */
	const _Atomic uint64_t *stop_at;   /* monotonic ns the stop signal came, 0 before (NULL) */
	uint64_t grace;         /* ns after a stop a request of the child is still waited for */
};

struct filechild {
	struct filechild_cfg cfg;
	pid_t pid;
	int wfd;                /* the data to the child (non-blocking); -1 once closed */
	int rfd;                /* the child's answers; -1 once closed */
	uint64_t seen;          /* monotonic ns a stop was first seen here (0: none yet) */
	int err;                /* the child's first failure (-errno; said in msg), 0 */
	bool sent;              /* a byte went to the child (else its file is removed at the end) */
	char msg[MSG_MAX];      /* the failure's text */
};

/*
 * Start the child and have it create cfg->path. Returns 0, or -errno with
 * msg filled (-EEXIST: it exists and is refused; -ETIMEDOUT: the creation
 * did not answer within cfg->grace of a stop; -ECHILD: no child).
 */
int filechild_open(struct filechild *fc, const struct filechild_cfg *cfg, char *msg,
		   size_t msglen);

/*
 * Hand len bytes to the child (waits while the pipe is full). Returns 0; the
 * child's write failure (-errno, its text in fc->msg; the bytes after it are
 * taken and dropped by the child); or -ETIMEDOUT (msg in fc->msg) when a stop
 * came and the child has not taken them cfg.grace later.
 */
int filechild_write(struct filechild *fc, const void *buf, size_t len);

/*
 * Whether the child said a write failed since (never waits): 0 or -errno
 * (fc->msg). Later calls return the same failure.
 */
int filechild_failed(struct filechild *fc);

/*
 * The end: the child told there is no more, it closes the file (a gzip
 * trailer) or, when nothing was ever written, removes it; waited for as
 * filechild_write waits. Returns 0 or the first failure (-errno, fc->msg
 * saying it; -ETIMEDOUT: given up after a stop). Idempotent.
 */
int filechild_close(struct filechild *fc);

#endif
