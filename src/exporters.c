#include "config.h"

#include "exporters.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "devstack.h"
#include "influx.h"
#include "out.h"
#include "promfile.h"
#include "promfmt.h"
#include "readfile.h"
#include "usage.h"

bool exporters_wanted(const struct exporters_cfg *cfg)
{
	return cfg->listen || cfg->prom_file || cfg->influx;
}

/* device = the top of the stack under the target, disk = its first whole disk. */
static void exporters_devices(struct exporters *x, const char *path)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	char real[PATH_MAX], *mountinfo;
	int err = 0;

	if (!ds)
		return;
	mountinfo = readfile_text("/proc/self/mountinfo", &err);
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (!devstack_resolve_path("/sys", mountinfo, real, devstack_stat_path, NULL, ds) &&
	    ds->ndev) {
		snprintf(x->device, sizeof(x->device), "%s", ds->dev[0].name);
		for (size_t i = 0; i < ds->ndev; i++) {
			if (ds->dev[i].kind == DEVSTACK_DISK) {
				snprintf(x->disk, sizeof(x->disk), "%s", ds->dev[i].name);
				break;
			}
		}
	}
	free(mountinfo);
	free(ds);
}

static void exporters_info(struct exporters *x, const struct target *t, struct metrics_info *in)
{
	bool rw = x->cfg.read_write, w = x->cfg.write && !rw;

	snprintf(x->mode, sizeof(x->mode), "%s", rw ? "read-write" : w ? "write" : "read");
	exporters_devices(x, x->cfg.path);
	memset(in, 0, sizeof(*in));
	in->target = x->cfg.path;
	in->device = x->device;
	in->disk = x->disk;
	in->fstype = t->kind == TARGET_DIR || t->kind == TARGET_FILE ? t->fstype : "";
	in->engine = x->cfg.engine;
	in->mode = x->mode;
	in->interval = x->cfg.interval;
	in->size = t->size;
	in->start_real = clock_realtime();
	in->op[OP_READ] = !w;
	in->op[OP_WRITE] = w || rw;
}

int exporters_prepare(struct exporters *x, const struct exporters_cfg *cfg,
		      const struct target *t, char *msg, size_t msglen)
{
	struct metrics_info info;
	int err;

	memset(x, 0, sizeof(*x));
	x->cfg = *cfg;
	x->httpd.fd = -1;
	x->httpd.wake[0] = x->httpd.wake[1] = -1;
	x->line = (struct sbuf)SBUF_INIT;
	x->n = 1;
	x->target = calloc(x->n, sizeof(*x->target));
	if (cfg->influx)
		x->period = calloc(METRICS_OPS, sizeof(*x->period));
	if (!x->target || (cfg->influx && !x->period)) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; cfg->influx && i < METRICS_OPS; i++)
		stats_init(&x->period[i].valid);
	exporters_info(x, t, &info);
	if ((err = metrics_target_init(&x->target[0], &info, NULL))) {
		snprintf(msg, msglen, "cannot set up the metrics: %s", strerror(-err));
		return err;
	}
	if (cfg->listen && (err = httpd_listen(&x->httpd, cfg->listen, msg, msglen)))
		return err;
	x->listening = cfg->listen != NULL;
	return 0;
}

int exporters_render(struct exporters *x, struct sbuf *sb, bool openmetrics)
{
	struct metrics_snap snap[1];
	struct metrics_snap *s = x->n <= 1 ? snap : calloc(x->n, sizeof(*s));
	uint64_t now = clock_now();
	int err;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++)
		metrics_snapshot(&x->target[i], now, &s[i]);
	err = promfmt_write(sb, s, x->n, PACKAGE_VERSION,
			   openmetrics ? PROMFMT_OPENMETRICS : PROMFMT_TEXT);
	if (s != snap)
		free(s);
	return err;
}

static int exporters_httpd_render(void *ctx, struct sbuf *sb, bool openmetrics)
{
	return exporters_render(ctx, sb, openmetrics);
}

/* Write the textfile now; a failure is said once (and again after a success). Returns 0 or -errno. */
static int exporters_write_prom(struct exporters *x)
{
	struct sbuf sb = SBUF_INIT;
	int err = exporters_render(x, &sb, false);
	char text[PATH_MAX + 128];

	if (!err)
		err = promfile_write(x->cfg.prom_file, sbuf_str(&sb), sb.len);
	sbuf_free(&sb);
	if (err && !atomic_exchange(&x->prom_failed, true) && x->cfg.warn) {
		snprintf(text, sizeof(text), "--prometheus: cannot write %s: %s", x->cfg.prom_file,
			 strerror(-err));
		x->cfg.warn(text);
	} else if (!err) {
		atomic_store(&x->prom_failed, false);
	}
	return err;
}

static void exporters_prom_tick(void *arg)
{
	(void)exporters_write_prom(arg);
}

/* The first textfile (a failure ends the preparation), then its writer thread. */
static int exporters_start_prom(struct exporters *x, char *msg, size_t msglen)
{
	void (*warn)(const char *text) = x->cfg.warn;
	int err;

	x->cfg.warn = NULL; /* this failure is said through msg */
	err = exporters_write_prom(x);
	x->cfg.warn = warn;
	atomic_store(&x->prom_failed, false);
	if (err) {
		snprintf(msg, msglen, "--prometheus: cannot write %s: %s", x->cfg.prom_file,
			 strerror(-err));
		return err;
	}
	err = ticker_start(&x->prom, x->cfg.prom_period, exporters_prom_tick, x);
	if (err)
		snprintf(msg, msglen, "--prometheus: cannot start its thread: %s", strerror(-err));
	return err;
}

/*
 * --influx: Telegraf's execd closes our stdin to stop us. Wait for EOF (or a
 * hang-up) and stop the probe as SIGTERM would, so the run ends with exit 0.
 */
static void *exporters_stdin_main(void *arg)
{
	struct exporters *x = arg;
	char buf[512];

	while (!atomic_load(&x->stopping)) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		int r = poll(&pfd, 1, 200);

		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		if (pfd.revents & POLLNVAL)
			break;
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
			pthread_kill(x->probe_thread, SIGTERM);
			break;
		}
	}
	return NULL;
}

int exporters_start(struct exporters *x, struct probe *p, char *msg, size_t msglen)
{
	sigset_t all, old;
	int err = 0;

	if (!p->ctl)
		p->ctl = &x->own_ctl;
	x->probe = p;
	x->target[0].inflight = &p->ctl->inflight;
	sigfillset(&all); /* the threads inherit a full mask: signals wake the probe */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (x->listening && (err = httpd_start(&x->httpd, exporters_httpd_render, x)))
		snprintf(msg, msglen, "--listen: cannot start its thread: %s", strerror(-err));
	if (!err && x->cfg.prom_file)
		err = exporters_start_prom(x, msg, msglen);
	if (!err && x->cfg.influx) {
		x->probe_thread = pthread_self();
		err = -pthread_create(&x->stdin_thread, NULL, exporters_stdin_main, x);
		x->stdin_running = !err;
		if (err)
			snprintf(msg, msglen, "--influx: cannot start its thread: %s", strerror(-err));
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

void exporters_request(struct exporters *x, const struct sample *s, enum notice n)
{
	metrics_record(&x->target[0], s, n, clock_realtime(), s->skipped);
	if (x->period) {
		struct exporters_period *pe = &x->period[s->op == OP_WRITE ? OP_WRITE : OP_READ];

		pe->requests += n != NOTICE_EMPTY;
		pe->errors += s->result < 0;
		if (s->result > 0 && n != NOTICE_WARMUP)
			pe->bytes += (uint64_t)s->result;
		if (s->result > 0 && (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW))
			stats_add(&pe->valid, s->time);
	}
}

int exporters_period(struct exporters *x, uint64_t now_real)
{
	const struct metrics_info *in = &x->target[0].info;
	static const char *const ops[METRICS_OPS] = { "read", "write" };
	int err;

	if (!x->period)
		return 0;
	sbuf_reset(&x->line);
	for (int op = 0; op < METRICS_OPS; op++) {
		struct exporters_period *pe = &x->period[op];
		struct influx_point pt = {
			.target = in->target, .operation = ops[op], .device = in->device,
			.requests = pe->requests, .errors = pe->errors, .bytes = pe->bytes,
			.valid = &pe->valid, .time = now_real,
		};

		if (in->op[op])
			influx_line(&x->line, &pt);
		pe->requests = pe->errors = pe->bytes = 0;
		stats_init(&pe->valid);
	}
	err = x->line.error ? x->line.error : out_write(STDOUT_FILENO, sbuf_str(&x->line), x->line.len);
	sbuf_reset(&x->line);
	return err;
}

void exporters_stop(struct exporters *x)
{
	if (!x->target)
		return;
	atomic_store(&x->stopping, true);
	if (x->stdin_running)
		pthread_join(x->stdin_thread, NULL);
	x->stdin_running = false;
	httpd_stop(&x->httpd);
	for (size_t i = 0; i < x->n; i++)
		x->target[i].inflight = NULL; /* the probe has stopped; its ctl may go away */
	if (x->prom.running) {
		ticker_stop(&x->prom);
		exporters_write_prom(x); /* the final counts */
	}
	for (size_t i = 0; i < x->n; i++)
		metrics_target_destroy(&x->target[i]);
	free(x->target);
	x->target = NULL;
	free(x->period);
	x->period = NULL;
	sbuf_free(&x->line);
}
