/*
 * A probe over a 1 MiB temporary file with the null engine (no I/O): the
 * probe from prober_alloc() and its buffers in a shared mapping, as the CLI
 * runs one. What test_prober.c and test_session.c start from. For tests only.
 */
#ifndef IOPROBE_FIXTURE_NULLPROBE_H
#define IOPROBE_FIXTURE_NULLPROBE_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine.h"
#include "prober.h"

#define NULLPROBE_BUFS (4096 * 8) /* up to -Q 8 */

struct nullprobe {
	struct target t;
	struct engine e;
	struct probe *p;
	void *buf;
	unsigned probers; /* how many the run has (prober_alloc's argument; 0: one) */
};

/*
 * Open n (zeroed but for n->probers) with probe settings pc (depth pc->depth) and the null
 * engine's argument null_arg.
 */
static inline void nullprobe_open(struct nullprobe *n, const struct probe_cfg *pc,
				  const char *null_arg)
{
	struct engine_params ep = { 0 };
	char path[] = "/tmp/ioprobe-nullprobe.XXXXXX";

	n->p = prober_alloc(n->probers ? n->probers : 1);
	cr_assert(n->p);
	n->buf = mmap(NULL, NULLPROBE_BUFS, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	cr_assert(n->buf != MAP_FAILED);
	n->t.fd = mkstemp(path);
	cr_assert_geq(n->t.fd, 0);
	unlink(path);
	cr_assert_eq(ftruncate(n->t.fd, 1 << 20), 0);
	n->t.size = 4096;
	n->t.work_size = 1 << 20;
	ep.fd = n->t.fd;
	ep.buf = n->buf;
	ep.buf_len = 4096;
	ep.depth = pc->depth;
	ep.buf_stride = 4096;
	ep.arg = null_arg;
	cr_assert_eq(engine_start(&n->e, &engine_null, &ep), 0);
	probe_init(n->p, pc, &n->t, &n->e, n->buf);
}

static inline void nullprobe_close(struct nullprobe *n)
{
	engine_stop(&n->e);
	close(n->t.fd);
	munmap(n->buf, NULLPROBE_BUFS);
	prober_free(n->p);
}

#endif
