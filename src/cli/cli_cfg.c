#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine.h"
#include "msg.h"
#include "opener.h"
#include "opts.h"
#include "view.h"

static void cli_target_cfg(const struct opts *o, struct target_cfg *tc)
{
	*tc = (struct target_cfg){
		.path = o->path, .size = opts_request_size(o), .work_size = o->work_size,
		.work_offset = o->work_offset, .seed = o->seed, .write = o->write,
		.rapid = o->rapid, .direct = o->direct, .sync = o->sync, .dsync = o->dsync,
		.keep = o->keep,
	};
}

int cli_target_open(const struct opts *o, struct target *t, const struct target_progress *pg,
		    int *err, char *why, size_t whylen)
{
	struct target_cfg tc;
	char msg[MSG_MAX];
	int ret;

	cli_target_cfg(o, &tc);
	ret = opener_open(t, &tc, &cli_stop, pg, msg, sizeof(msg));
	if (err)
		*err = ret;
	if (!ret)
		return 0;
	cli_msg("%s", msg);
	if (why)
		snprintf(why, whylen, "%s", msg);
	return ret == -EDOM ? CLI_EXIT_USAGE : CLI_EXIT_PREPARE;
}

void cli_probe_cfg(const struct opts *o, struct probe_cfg *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->count = o->count;
	pc->deadline = opts_deadline(o);
	pc->interval = opts_interval(o);
	pc->burst = o->burst;
	pc->print_count = o->print_count;
	pc->print_interval = o->print_interval;
	pc->seed = o->seed;
	pc->linear = o->linear;
	pc->cached = o->cached;
	pc->write = opts_writes_only(o);
	pc->read_write = o->read_write;
	pc->ignore_error = o->ignore_error;
	pc->nowait = o->nowait;
	pc->depth = (unsigned)o->depth;
	pc->poisson = o->poisson;
	pc->account.warmup = o->warmup;
	pc->account.min_time = o->min_time;
	pc->account.max_time = o->max_time;
	pc->account.split = o->read_write;
}

void cli_report_cfg(const struct opts *o, const struct target *t, struct report_cfg *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->target.path = o->path;
	rc->target.name = o->name;
	rc->target.fstype = t->fstype;
	rc->target.device = t->device;
	rc->target.device_size = t->device_size;
	rc->time_format = o->time_format;
	rc->size = t->size;
	rc->write = opts_writes_only(o);
	rc->read_write = o->read_write;
	rc->json_lines = o->json_lines;
	rc->raw_percentiles = o->raw_percentiles;
	rc->pcts = o->pcts_set ? &o->pcts : NULL;
	rc->response = opts_response(o);
}

void cli_view_cfg(const struct opts *o, const struct target *t, struct view_cfg *vc)
{
	memset(vc, 0, sizeof(*vc));
	vc->path = o->path;
	vc->name = o->name;
	vc->ascii = o->ascii;
	vc->no_color = o->no_color;
	vc->write = opts_writes_only(o);
	vc->read_write = o->read_write;
	vc->direct = o->direct;
	vc->cached = o->cached;
	vc->sync = o->sync;
	vc->dsync = o->dsync;
	vc->burst = o->burst;
	vc->print_count = o->print_count;
	vc->print_interval = o->print_interval;
	vc->rate_limit = o->rate_limit;
	vc->speed_limit = o->speed_limit;
	vc->work_size = t->work_size;
	vc->asked_rate = opts_asked_rate(o);
	vc->interval = opts_interval(o);
	vc->sweep = o->sweep;
	vc->sweep_rates = o->sweep_rates;
	vc->sweep_step = o->deadline_set ? o->deadline : OPTS_SWEEP_STEP;
	vc->response = opts_response(o);
	vc->depth = (unsigned)o->depth;
}

void cli_view_cfg_recorded(const struct opts *o, const struct rec_header *h, size_t i,
			   struct view_cfg *vc)
{
	const struct rec_target *t = &h->target[i];

	memset(vc, 0, sizeof(*vc));
	vc->path = t->path;
	vc->name = t->name && t->name[0] ? t->name : NULL;
	vc->ascii = o->ascii;
	vc->no_color = o->no_color;
	vc->write = h->write;
	vc->read_write = h->read_write;
	vc->direct = h->direct;
	vc->cached = h->cached;
	vc->sync = h->sync;
	vc->dsync = h->dsync;
	vc->burst = h->burst;
	vc->print_count = h->print_count;
	vc->print_interval = h->print_interval;
	vc->rate_limit = h->rate_limit;
	vc->speed_limit = h->speed_limit;
	vc->asked_rate = h->asked;
	vc->interval = h->interval;
	vc->response = h->response;
	vc->depth = h->depth;
}

void *cli_buffers_alloc(size_t len)
{
	void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void cli_buffers_free(void *buf, size_t len)
{
	if (buf)
		munmap(buf, len ? len : 1);
}

/* One request's buffer: the request size, on pages of its own when several are in flight. */
static size_t cli_buffer_stride(const struct opts *o, const struct target *t)
{
	return o->depth > 1 ? (t->size + 4095) / 4096 * 4096 : t->size;
}

size_t cli_buffers_len(const struct opts *o, const struct target *t)
{
	return cli_buffer_stride(o, t) * o->depth;
}

int cli_engine_start(const struct opts *o, const struct target *t,
		     const struct engine_ops *ops, struct engine *eng, void **buf, bool spin)
{
	struct engine_params ep = { 0 };
	int ret;

	/* one buffer per request in flight, each on its own pages */
	ep.depth = (unsigned)o->depth;
	ep.buf_stride = cli_buffer_stride(o, t);
	*buf = cli_buffers_alloc(cli_buffers_len(o, t));
	if (!*buf) {
		cli_msg("buffer allocation failed");
		return -ENOMEM;
	}
	ep.fd = t->fd;
	ep.buf = *buf;
	ep.buf_len = t->size;
	ep.nowait = o->nowait;
	ep.hipri = o->hipri;
	ep.spin_ns = spin ? CLI_ENGINE_SPIN_NS : 0;
	ep.arg = o->engine ? strchr(o->engine, ':') : NULL;
	if (ep.arg)
		ep.arg++;
	ret = engine_start(eng, ops, &ep);
	if (ret) {
		cli_msg("failed to start the %s engine: %s", ops->name, strerror(-ret));
		cli_buffers_free(*buf, cli_buffers_len(o, t));
	}
	return ret;
}
