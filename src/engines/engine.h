/*
 * engine: how one request reaches the kernel. Every back end (sync, libaio,
 * io_uring, null) fills the same ops table; the probe only calls the
 * engine_*() wrappers. Engines are chosen by name at run time from an
 * explicit registry (no constructor magic: that breaks in static libraries).
 * At depth 1 one request is in flight at a time (io). At depth N (-Q N) the
 * engines that have submit/reap keep up to N in flight, one buffer each.
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
	unsigned depth;  /* requests in flight at most; 0 or 1 = io() only */
	size_t buf_stride; /* depth > 1: buffer i is buf + i * buf_stride (page multiple) */
	bool nowait;     /* RWF_NOWAIT on every request */
	bool hipri;      /* polled completion (RWF_HIPRI / IOPOLL) */
	uint64_t spin_ns; /* poll for a completion this long before sleeping (0 = sleep at once) */
	const char *arg; /* text after "name:" in --engine=name:arg, or NULL */
};

/* One completed request of the asynchronous interface. */
struct engine_done {
	unsigned slot;  /* the buffer slot given to submit() */
	int64_t result; /* bytes transferred or -errno */
};

struct engine_ops {
	const char *name;
	bool takes_arg;   /* accepts --engine=name:ARG (the others refuse an argument) */
	bool no_device;   /* its requests never reach a device (null): no verdict to give */
	/* Set up; store private state in *priv. Returns 0 or -errno. */
	int (*init)(const struct engine_params *p, void **priv);
	/*
	 * Run one request to completion: read (write = false) or write buf_len
	 * bytes at offset. Returns the bytes transferred or -errno.
	 */
	ssize_t (*io)(void *priv, const struct engine_params *p, bool write, uint64_t offset);
	/*
	 * Depth > 1 (NULL in engines that keep one request in flight): queue one
	 * request using buffer slot (< depth, not in flight) without waiting for
	 * it. It reaches the kernel at the latest in the next reap(). Returns 0
	 * or -errno.
	 */
	int (*submit)(void *priv, const struct engine_params *p, unsigned slot, bool write,
		      uint64_t offset);
	/*
	 * Hand queued requests to the kernel and collect up to max completions
	 * into done[], waiting up to wait_ns for the first one (0 = do not
	 * wait). Returns how many completed (0 on timeout) or -errno (-EINTR
	 * when a signal arrived).
	 */
	int (*reap)(void *priv, const struct engine_params *p, struct engine_done *done,
		    unsigned max, uint64_t wait_ns);
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
 * -EPERM, -EINVAL... when the kernel refuses this engine; -EOPNOTSUPP for a
 * depth > 1 on an engine without submit/reap).
 */
int engine_start(struct engine *e, const struct engine_ops *ops, const struct engine_params *p);

/* One request; see engine_ops.io. */
static inline ssize_t engine_io(struct engine *e, bool write, uint64_t offset)
{
	return e->ops->io(e->priv, &e->params, write, offset);
}

/* Whether the engine keeps more than one request in flight (-Q N > 1). */
static inline bool engine_async(const struct engine_ops *ops)
{
	return ops->submit && ops->reap;
}

/* Queue one request; see engine_ops.submit. */
static inline int engine_submit(struct engine *e, unsigned slot, bool write, uint64_t offset)
{
	return e->ops->submit(e->priv, &e->params, slot, write, offset);
}

/* Collect completions; see engine_ops.reap. */
static inline int engine_reap(struct engine *e, struct engine_done *done, unsigned max,
			      uint64_t wait_ns)
{
	return e->ops->reap(e->priv, &e->params, done, max, wait_ns);
}

/*
 * The engines' wait for a completion on a fast device: poll the completion
 * queue for a while before sleeping, because a sleep and the wake-up cost
 * tens of microseconds (more in a VM, where the idle CPU halts) — as much as
 * the request itself. The poll runs only while recent waits ended within it,
 * so a slow device costs no CPU.
 */
struct engine_spin {
	uint64_t avg; /* running average of the waits (ns), weight 1/8; 0 at first */
};

/* How long to poll before sleeping: max_ns while the average wait is within it, else 0. Pure. */
static inline uint64_t engine_spin_budget(const struct engine_spin *s, uint64_t max_ns)
{
	return s->avg <= max_ns ? max_ns : 0;
}

/* Count one wait of waited_ns (polled or slept) into the average. Pure. */
static inline void engine_spin_note(struct engine_spin *s, uint64_t waited_ns)
{
	s->avg = s->avg - s->avg / 8 + waited_ns / 8;
}

/* Buffer of slot i. */
static inline void *engine_buf(const struct engine *e, unsigned slot)
{
	return (char *)e->params.buf + (size_t)slot * e->params.buf_stride;
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
