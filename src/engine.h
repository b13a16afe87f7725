/*
 * engine: how one request reaches the kernel. Every back end (sync, libaio,
 * io_uring, null) fills the same ops table; the probe only calls the
 * engine_*() wrappers. Engines are chosen by name at run time from an
 * explicit registry (no constructor magic: that breaks in static libraries).
 * One request is in flight at a time.
 */
#ifndef IOPROBE_ENGINE_H
#define IOPROBE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct engine;

struct engine_params {
	int fd;          /* the target, already open */
	void *buf;       /* the request buffer (page aligned, O_DIRECT safe) */
	size_t buf_len;  /* its size: the request size */
	bool nowait;     /* RWF_NOWAIT on every request */
	bool hipri;      /* polled completion (RWF_HIPRI / IOPOLL) */
	const char *arg; /* text after "name:" in --engine=name:arg, or NULL */
};

struct engine_ops {
	const char *name;
	bool takes_arg;   /* accepts --engine=name:ARG (the others refuse an argument) */
	/* Set up; store private state in *priv. Returns 0 or -errno. */
	int (*init)(const struct engine_params *p, void **priv);
	/*
	 * Run one request to completion: read (write = false) or write buf_len
	 * bytes at offset. Returns the bytes transferred or -errno.
	 */
	ssize_t (*io)(void *priv, const struct engine_params *p, bool write, uint64_t offset);
	/* Release everything init() set up. */
	void (*cleanup)(void *priv);
};

struct engine {
	const struct engine_ops *ops;
	struct engine_params params;
	void *priv;
};

/*
 * Find an engine by name ("sync", "libaio", "io_uring", "null"); text after a
 * ':' is the engine's argument. NULL when no such engine is built.
 */
const struct engine_ops *engine_find(const char *spec);

/* Whether spec (up to its ':') names an engine ioprobe knows, built or not. */
bool engine_known(const char *spec);

/*
 * The registry's names into buf, "sync, libaio, io_uring" + last_sep +
 * "null" (with "[:time]" after those that take an argument when args),
 * built or not: the --help text and the unknown-engine message. Returns buf.
 */
char *engine_names(char *buf, size_t len, const char *last_sep, bool args);

/*
 * Start engine ops for the given parameters. Returns 0, or -errno (-ENOSYS,
 * -EPERM, -EINVAL... when the kernel refuses this engine).
 */
int engine_start(struct engine *e, const struct engine_ops *ops, const struct engine_params *p);

/* One request; see engine_ops.io. */
static inline ssize_t engine_io(struct engine *e, bool write, uint64_t offset)
{
	return e->ops->io(e->priv, &e->params, write, offset);
}

/* Tear down (idempotent). */
void engine_stop(struct engine *e);

extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_null;
#if HAVE_LIBAIO
extern const struct engine_ops engine_libaio;
#endif
#if HAVE_LIBURING
extern const struct engine_ops engine_uring;
#endif

#endif
