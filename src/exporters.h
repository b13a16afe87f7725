/*
 * exporters: the fleet outputs of a run — the --listen endpoint, the
 * --prometheus textfile and the --influx lines — around one metrics entry per
 * target. The probe's sink feeds them (exporters_request/exporters_period on
 * the probe thread: a short critical section, never a wait); the endpoint and
 * the textfile writer run in threads of their own that only copy snapshots,
 * so a hung request never stalls them and they never stall the probe.
 * cli_fleet.c starts and stops them and prints what they report through warn().
 */
#ifndef IOPROBE_EXPORTERS_H
#define IOPROBE_EXPORTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "httpd.h"
#include "metrics.h"
#include "probe.h"
#include "sbuf.h"
#include "stats.h"
#include "ticker.h"

#define EXPORTERS_PROM_PERIOD 10000000000ull /* default --prometheus-period */

struct exporters_cfg {
	const char *listen;        /* --listen [ADDR:]PORT, or NULL */
	const char *prom_file;     /* --prometheus FILE.prom, or NULL */
	uint64_t prom_period;      /* ns between textfile writes */
	bool influx;               /* --influx: line protocol on stdout every period */
	const char *engine;        /* engine name (ioprobe_probe_info) */
	const char *path;          /* the target as given */
	uint64_t interval;         /* ns between request starts (0 = as fast as possible) */
	bool write, read_write;    /* -W (writes only), -G (reads and writes) */
	void (*warn)(const char *text); /* a problem worth a line on stderr (thread-safe) */
};

/* Per operation, the current period's latencies for --influx. */
struct exporters_period {
	struct stats valid;
	uint64_t requests, errors, bytes;
};

struct exporters {
	struct exporters_cfg cfg;
	size_t n;                                /* targets (one today) */
	struct metrics_target *target;
	char device[64], disk[64], mode[16];     /* strings of target[0].info */
	struct probe_ctl own_ctl;                /* in-flight start when no watchdog gives one */
	const struct probe *probe;
	struct httpd httpd;
	bool listening;
	struct ticker prom;
	_Atomic bool prom_failed;                /* said once */
	struct exporters_period *period;         /* [METRICS_OPS], --influx only */
	pthread_t stdin_thread;                  /* --influx: ends the run at stdin's EOF */
	bool stdin_running;
	_Atomic bool stopping;
	pthread_t probe_thread;
	struct sbuf line;                        /* --influx output buffer (probe thread) */
};

/* Is any exporter asked for? */
bool exporters_wanted(const struct exporters_cfg *cfg);

/*
 * Prepare for target t (cfg->path as given): check the textfile name, bind
 * the listening socket, describe the target. Returns 0, or -errno with msg
 * filled (exit 2; -EINVAL for a bad argument: exit 1).
 */
int exporters_prepare(struct exporters *x, const struct exporters_cfg *cfg,
		      const struct target *t, char *msg, size_t msglen);

/*
 * Start the threads for probe p (set p->ctl first: its inflight is read;
 * when p->ctl is NULL the exporters give it one of their own). Returns 0 or
 * -errno with msg filled.
 */
int exporters_start(struct exporters *x, struct probe *p, char *msg, size_t msglen);

/* Probe thread: one finished request with its notice. */
void exporters_request(struct exporters *x, const struct sample *s, enum notice n);

/* Probe thread: a period closed; with --influx write its lines. Returns 0 or -errno (stdout). */
int exporters_period(struct exporters *x, uint64_t now_real);

/* Render /metrics of every target into sb. Returns 0 or -ENOMEM. */
int exporters_render(struct exporters *x, struct sbuf *sb, bool openmetrics);

/*
 * Stop the threads, write the textfile a last time, release everything. Call
 * it before the probe's ctl goes away (the watchdog's page). Idempotent.
 */
void exporters_stop(struct exporters *x);

#endif
