#include "config.h"

#include "exporters.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "devstack.h"
#include "influx.h"
#include "out.h"
#include "promfile.h"
#include "promfmt.h"
#include "promproto.h"
#include "readfile.h"

bool exporters_wanted(const struct exporters_cfg *cfg)
{
	return cfg->listen || cfg->prom_file || cfg->influx;
}

void exporters_devices_of(const char *path, char *device, size_t dlen, char *disk, size_t klen)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	char real[PATH_MAX], *mountinfo;
	int err = 0;

	device[0] = disk[0] = '\0';
	if (!ds)
		return;
	mountinfo = readfile_text("/proc/self/mountinfo", &err);
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (!devstack_resolve_path("/sys", mountinfo, real, devstack_stat_path, NULL, ds) &&
	    ds->ndev) {
		snprintf(device, dlen, "%s", ds->dev[0].name);
		for (size_t i = 0; i < ds->ndev; i++) {
			if (ds->dev[i].kind == DEVSTACK_DISK) {
				snprintf(disk, klen, "%s", ds->dev[i].name);
				break;
			}
		}
		/* no disk below (a loop device over tmpfs, an md or dm device on its own): the top
		 * is the whole device node_disk_* reports, unless it is a partition */
		if (!disk[0] && ds->dev[0].kind != DEVSTACK_PARTITION)
			snprintf(disk, klen, "%s", ds->dev[0].name);
	}
	free(mountinfo);
	free(ds);
}

static void exporters_info(struct exporters *x, struct exporters_tgt *g,
			   const struct exporters_target_cfg *o,
			   const struct target *t, struct metrics_info *in)
{
	bool rw = o->read_write, w = o->write && !rw;

	snprintf(g->mode, sizeof(g->mode), "%s", rw ? "read-write" : w ? "write" : "read");
	exporters_devices_of(o->path, g->device, sizeof(g->device), g->disk, sizeof(g->disk));
	memset(in, 0, sizeof(*in));
	in->target = o->path;
	in->name = o->name;
	in->device = g->device;
	in->disk = g->disk;
	in->fstype = t->kind == TARGET_DIR || t->kind == TARGET_FILE ? t->fstype : "";
	in->engine = x->cfg.engine;
	in->mode = g->mode;
	in->interval = o->interval;
	in->size = t->size;
	in->start_real = clock_realtime();
	in->op[OP_READ] = !w;
	in->op[OP_WRITE] = w || rw;
	in->response = o->response; /* as the summary's response line */
	in->verdict = o->verdict;
}

int exporters_prepare(struct exporters *x, const struct exporters_cfg *cfg, size_t n, char *msg,
		      size_t msglen)
{
	int err;

	memset(x, 0, sizeof(*x));
	x->cfg = *cfg;
	x->httpd.fd = -1;
	x->httpd.wake[0] = x->httpd.wake[1] = -1;
	pthread_mutex_init(&x->out_lock, NULL);
	x->target = calloc(n, sizeof(*x->target));
	x->tgt = calloc(n, sizeof(*x->tgt));
	if (!x->target || !x->tgt) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	x->cap = n;
	if (cfg->listen && (err = httpd_listen(&x->httpd, cfg->listen, msg, msglen)))
		return err;
	if (cfg->listen && cfg->web_config &&
	    (err = httpd_secure(&x->httpd, cfg->web_config, cfg->warn, msg, msglen)))
		return err;
	x->listening = cfg->listen != NULL;
	return 0;
}

int exporters_add(struct exporters *x, const struct exporters_target_cfg *tc,
		  const struct target *t, struct probe *p, char *msg, size_t msglen)
{
	struct exporters_tgt *g = &x->tgt[x->n];
	struct metrics_target *m = &x->target[x->n];
	struct metrics_info info;
	int err;

	if (x->n >= x->cap)
		return -ENOSPC;
	g->line = (struct sbuf)SBUF_INIT;
	if (x->cfg.influx && !(g->period = calloc(METRICS_OPS, sizeof(*g->period)))) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; g->period && i < METRICS_OPS; i++) {
		stats_init(&g->period[i].valid);
		stats_init(&g->period[i].response);
		layer_tally_init(&g->period[i].layers);
	}
	exporters_info(x, g, tc, t, &info);
	info.layers = tc->layers && p->layers; /* --layers: each request's layers, measured */
	if ((err = metrics_target_init(m, &info, NULL))) {
		free(g->period);
		g->period = NULL;
		snprintf(msg, msglen, "cannot set up the metrics: %s", strerror(-err));
		return err;
	}
	if (!p->ctl)
		p->ctl = &g->own_ctl;
	m->inflight = &p->ctl->inflight;
	m->inflight_n = &p->ctl->inflight_n;
	x->n++;
	return 0;
}

/* The protobuf exposition: snapshots with their native buckets (32 KiB a target: only here). */
static int exporters_render_proto(struct exporters *x, struct sbuf *sb, uint64_t now)
{
	struct metrics_snap *s = calloc(x->n ? x->n : 1, sizeof(*s));
	struct metrics_natives *nat = calloc(x->n ? x->n : 1, sizeof(*nat));
	int err = -ENOMEM;

	if (s && nat) {
		for (size_t i = 0; i < x->n; i++)
			metrics_snapshot_native(&x->target[i], now, &s[i], &nat[i]);
		err = promproto_write(sb, s, x->n, PACKAGE_VERSION);
	}
	free(nat);
	free(s);
	return err;
}

int exporters_render(struct exporters *x, struct sbuf *sb, enum promfmt_format f)
{
	struct metrics_snap snap[1];
	struct metrics_snap *s;
	uint64_t now = clock_now();
	int err;

	if (f == PROMFMT_PROTOBUF)
		return exporters_render_proto(x, sb, now);
	s = x->n <= 1 ? snap : calloc(x->n, sizeof(*s)); /* one per target */
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++)
		metrics_snapshot(&x->target[i], now, &s[i]);
	err = promfmt_write(sb, s, x->n, PACKAGE_VERSION, f);
	if (s != snap)
		free(s);
	return err;
}

static int exporters_httpd_render(void *ctx, struct sbuf *sb, enum promfmt_format f)
{
	return exporters_render(ctx, sb, f);
}

/* Write the textfile now; a failure is said once (and again after a success). Returns 0 or -errno. */
static int exporters_write_prom(struct exporters *x)
{
	struct sbuf sb = SBUF_INIT;
	int err = exporters_render(x, &sb, PROMFMT_TEXT);
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
 * --influx: Telegraf's execd closes our stdin (a pipe) to stop us. Only a pipe or a socket
 * says so: at /dev/null (cron, a plain unit), a file or a terminal, EOF is no signal and the
 * run ends by its count, its deadline or a signal.
 */
static bool exporters_stdin_stops(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/*
 * --influx with stdin a pipe or socket: wait for EOF (or a hang-up) and stop the probe as
 * SIGTERM would, so the run ends with exit 0 (3 when requests failed, as with -E).
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

/* The operations' names in the --influx lines, by enum op. */
static const char *const exporters_ops[METRICS_OPS] = { "read", "write" };

/* The period of the hung-target lines: the -P period, or a second with -p. */
static uint64_t exporters_hung_period(const struct exporters *x)
{
	return x->cfg.influx_period ? x->cfg.influx_period : 1000000000ull;
}

/* The state key of t's last verdict mv for --influx, or NULL: not judged (yet). */
static const char *exporters_verdict_key(const struct metrics_target *t,
					 const struct metrics_verdict *mv)
{
	return t->info.verdict && mv->judged ? verdict_state_key(mv->state) : NULL;
}

/* How often the hung-target lines are looked for: an eighth of their period. */
#define EXPORTERS_HUNG_LOOKS 8

/*
 * --influx while a request hangs: a target whose period line is overdue (half a period late,
 * seen within an eighth of a period) and that has a request in flight gets a line then and
 * every period after, with no request counted and its in-flight fields, so Telegraf sees the
 * hang while it lasts. Its period counts are left to the probe's thread (they are empty
 * while it hangs).
 */
static void exporters_hung_tick(void *arg)
{
	struct exporters *x = arg;
	uint64_t period = exporters_hung_period(x), now = clock_now();
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < x->n; i++) {
		struct metrics_target *m = &x->target[i];
		int op = m->info.op[OP_WRITE] && !m->info.op[OP_READ] ? OP_WRITE : OP_READ;
		uint64_t oldest, last = atomic_load(&x->tgt[i].last_line);
		struct metrics_verdict mv;
		unsigned n;

		if (now - last < period + period / 2)
			continue;
		metrics_in_flight(m, now, &n, &oldest);
		if (!n)
			continue;
		mv = metrics_verdict_get(m);
		influx_line(&sb, &(struct influx_point){
			.target = m->info.target, .name = m->info.name, .pcts = x->cfg.pcts,
			.operation = exporters_ops[op],
			.device = m->info.device, .in_flight = n, .oldest_ms = (double)oldest / 1e6,
			.verdict = exporters_verdict_key(m, &mv),
			.reason = verdict_reason_key(mv.reason), .time = clock_realtime() });
		/* the next one a period on (on the same grid, not drifting by the looks' eighth),
		 * unless the probe's own line comes first */
		last = now - (last + period) < period + period / 2 ? last + period : now - period / 2;
		atomic_store(&x->tgt[i].last_line, last);
	}
	if (sb.len && !sb.error) {
		pthread_mutex_lock(&x->out_lock);
		out_write(STDOUT_FILENO, sbuf_str(&sb), sb.len);
		pthread_mutex_unlock(&x->out_lock);
	}
	sbuf_free(&sb);
}

int exporters_start(struct exporters *x, char *msg, size_t msglen)
{
	sigset_t all, old;
	int err = 0;

	sigfillset(&all); /* the threads inherit a full mask: signals wake the probe */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (x->listening && (err = httpd_start(&x->httpd, exporters_httpd_render, x)))
		snprintf(msg, msglen, "--listen: cannot start its thread: %s", strerror(-err));
	if (!err && x->cfg.prom_file)
		err = exporters_start_prom(x, msg, msglen);
	if (!err && x->cfg.influx) {
		x->probe_thread = pthread_self();
		if (exporters_stdin_stops()) {
			err = -pthread_create(&x->stdin_thread, NULL, exporters_stdin_main, x);
			x->stdin_running = !err;
		}
		for (size_t i = 0; !err && i < x->n; i++)
			atomic_store(&x->tgt[i].last_line, clock_now());
		if (!err)
			err = ticker_start(&x->hung, exporters_hung_period(x) / EXPORTERS_HUNG_LOOKS,
					   exporters_hung_tick, x);
		if (err)
			snprintf(msg, msglen, "--influx: cannot start its thread: %s", strerror(-err));
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

void exporters_request(struct exporters *x, size_t i, const struct sample *s, enum notice n)
{
	struct exporters_tgt *g = &x->tgt[i];

	metrics_record(&x->target[i], s, n, clock_realtime(), s->skipped);
	if (g->period) {
		struct exporters_period *pe = &g->period[s->op == OP_WRITE ? OP_WRITE : OP_READ];

		pe->requests += n != NOTICE_EMPTY;
		pe->errors += s->result < 0;
		if (s->result > 0 && n != NOTICE_WARMUP)
			pe->bytes += (uint64_t)s->result;
		if (s->result > 0 && (n == NOTICE_NONE || n == NOTICE_FAST || n == NOTICE_SLOW)) {
			stats_add(&pe->valid, s->time);
			if (x->target[i].info.response)
				stats_add(&pe->response, s->response);
		}
		if (x->target[i].info.layers) /* published only then: no tally for nothing */
			layer_tally_add(&pe->layers, s, n);
	}
}

void exporters_skipped(struct exporters *x, size_t i, uint64_t hi, uint64_t step, uint64_t n)
{
	struct metrics_target *m = &x->target[i];

	if (!m->info.response)
		return;
	metrics_record_skipped(m, hi, step, n);
	if (x->tgt[i].period)
		stats_add_series(&x->tgt[i].period[m->last_op].response, hi, step, n);
}

void exporters_verdict(struct exporters *x, size_t i, const struct verdict *v,
		       uint64_t period_ns)
{
	if (i < x->n && x->target[i].info.verdict)
		metrics_judged(&x->target[i], v, period_ns);
}

int exporters_period(struct exporters *x, size_t i, uint64_t now_real)
{
	struct exporters_tgt *g = &x->tgt[i];
	const struct metrics_info *in = &x->target[i].info;
	uint64_t now = clock_now(), oldest, skipped, total;
	struct metrics_verdict mv;
	unsigned in_flight;
	int err;

	if (!g->period)
		return 0;
	mv = metrics_verdict_get(&x->target[i]);
	metrics_in_flight(&x->target[i], now, &in_flight, &oldest);
	total = metrics_skipped(&x->target[i]);
	skipped = total - g->skip_mark;
	g->skip_mark = total;
	atomic_store(&g->last_line, now);
	sbuf_reset(&g->line);
	for (int op = 0; op < METRICS_OPS; op++) {
		struct exporters_period *pe = &g->period[op];
		struct influx_point pt = {
			.target = in->target, .name = in->name, .pcts = x->cfg.pcts,
			.operation = exporters_ops[op],
			.device = in->device,
			.requests = pe->requests, .errors = pe->errors, .bytes = pe->bytes,
			.in_flight = in_flight, .oldest_ms = (double)oldest / 1e6,
			.skipped = op == (int)x->target[i].last_op ? skipped : 0,
			.valid = &pe->valid, .response = in->response ? &pe->response : NULL,
			.layers = in->layers ? &pe->layers : NULL,
			.verdict = exporters_verdict_key(&x->target[i], &mv),
			.reason = verdict_reason_key(mv.reason), .time = now_real,
		};

		if (in->op[op])
			influx_line(&g->line, &pt);
		pe->requests = pe->errors = pe->bytes = 0;
		stats_init(&pe->valid);
		stats_init(&pe->response);
		layer_tally_init(&pe->layers);
	}
	err = g->line.error;
	if (!err) {
		pthread_mutex_lock(&x->out_lock);
		err = out_write(STDOUT_FILENO, sbuf_str(&g->line), g->line.len);
		pthread_mutex_unlock(&x->out_lock);
	}
	sbuf_reset(&g->line);
	return err;
}

void exporters_stop(struct exporters *x)
{
	if (!x->target) {
		free(x->tgt);
		x->tgt = NULL;
		return;
	}
	atomic_store(&x->stopping, true);
	ticker_stop(&x->hung);
	if (x->stdin_running)
		pthread_join(x->stdin_thread, NULL);
	x->stdin_running = false;
	httpd_stop(&x->httpd);
	if (x->prom.running) {
		ticker_stop(&x->prom);
		/* the final counts, with any request a stop gave up on still in flight (its
		 * control block lives until the front end releases the probe) */
		exporters_write_prom(x);
	}
	for (size_t i = 0; i < x->n; i++) { /* the probes have stopped; their ctl may go away */
		x->target[i].inflight = NULL;
		x->target[i].inflight_n = NULL;
	}
	for (size_t i = 0; i < x->n; i++) {
		metrics_target_destroy(&x->target[i]);
		free(x->tgt[i].period);
		sbuf_free(&x->tgt[i].line);
	}
	free(x->target);
	x->target = NULL;
	free(x->tgt);
	x->tgt = NULL;
	x->n = x->cap = 0;
	pthread_mutex_destroy(&x->out_lock);
}
