/*
 * exporters: the fleet outputs of a run — the --listen endpoint, the
 * --prometheus textfile and the --influx lines — around one metrics entry per
 * target (one series set each, in the order added). Each probe's sink feeds
 * its entry (exporters_request/_skipped/_period on that probe's thread: a
 * short critical section, never a wait); the endpoint and
 * the textfile writer run in threads of their own that only copy snapshots,
 * so a hung request never stalls them and they never stall the probe.
 * cli_fleet.c and cli_run.c start and stop them and print what they report through warn().
 */
#ifndef IOPROBE_EXPORTERS_H
#define IOPROBE_EXPORTERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "httpd.h"
#include "layerstat.h"
#include "metrics.h"
#include "probe.h"
#include "promfmt.h"
#include "sbuf.h"
#include "stats.h"
#include "ticker.h"

#define EXPORTERS_PROM_PERIOD 10000000000ull /* default --prometheus-period */

struct exporters_cfg {
	const char *listen;        /* --listen [ADDR:]PORT, or NULL */
	const char *web_config;    /* --web-config FILE for the endpoint, or NULL */
	const char *prom_file;     /* --prometheus FILE.prom, or NULL */
	uint64_t prom_period;      /* ns between textfile writes */
	bool influx;               /* --influx: line protocol on stdout every period */
	uint64_t influx_period;    /* ns: the -P period (0: periods of -p requests; a hung
				    * target's line then comes every second) */
	const char *engine;        /* engine name (ioprobe_probe_info) */
	const struct pcts *pcts;   /* --influx's percentile fields (--percentiles); NULL default */
	void (*warn)(const char *text); /* a problem worth a line on stderr (thread-safe) */
};

/* One target as the exporters describe it (filled from the options by the caller). */
struct exporters_target_cfg {
	const char *path;          /* the target as given */
	const char *name;          /* its short name, or NULL */
	uint64_t interval;         /* ns between request starts (0 = as fast as possible) */
	bool write, read_write;    /* -W (writes only), -G (reads and writes) */
	bool response;             /* -Q or --response: response times are published */
	bool layers;               /* --layers asked (its probe measures them): published; not
	                            * --iostat's own try, whose replay could not publish them */
	bool verdict;              /* the run judges it (exporters_verdict): published */
};

/* Per operation, the current period's latencies (and response times) for --influx. */
struct exporters_period {
	struct stats valid;
	struct stats response;                   /* used when the target publishes them */
	struct layer_tally layers;               /* --layers: the period's measured layers */
	uint64_t requests, errors, bytes;
};

/* What the exporters keep of one target besides its metrics. */
struct exporters_tgt {
	char device[64], disk[64], mode[16];     /* strings of its metrics_info */
	struct probe_ctl own_ctl;                /* in-flight state when no watchdog gives one */
	struct exporters_period *period;         /* [METRICS_OPS], --influx only */
	struct sbuf line;                        /* --influx output buffer (its probe thread) */
	uint64_t skip_mark;                      /* --influx: skipped slots at the last line */
	_Atomic uint64_t last_line;              /* --influx: monotonic ns of its last period line */
};

struct exporters {
	struct exporters_cfg cfg;
	size_t cap;                              /* targets prepared for */
	size_t n;                                /* targets added (exporters_add) */
	struct metrics_target *target;           /* [cap] */
	struct exporters_tgt *tgt;               /* [cap] */
	struct httpd httpd;
	bool listening;
	struct ticker prom;
	struct ticker hung;                      /* --influx: lines for targets whose request hangs */
	_Atomic bool prom_failed;                /* said once */
	pthread_mutex_t out_lock;                /* --influx: one target's lines at a time */
	pthread_t stdin_thread;                  /* --influx: ends the run at stdin's EOF */
	bool stdin_running;
	_Atomic bool stopping;
	pthread_t probe_thread;
};

/*
 * The device labels of a target at path: device = the top of the stack under it, disk =
 * its first whole disk (the top itself when nothing below is one and it is no partition);
 * "" when unknown.
 */
void exporters_devices_of(const char *path, char *device, size_t dlen, char *disk, size_t klen);

/* Is any exporter asked for? */
bool exporters_wanted(const struct exporters_cfg *cfg);

/*
 * Prepare for up to n targets: check the textfile name, bind the listening
 * socket. Returns 0, or -errno with msg filled (exit 2; -EINVAL for a bad
 * argument: exit 1). exporters_stop() releases it either way.
 */
int exporters_prepare(struct exporters *x, const struct exporters_cfg *cfg, size_t n, char *msg,
		      size_t msglen);

/*
 * Describe the next target t (as tc says) probed by p (its index is the
 * number of targets added before). Its in-flight state is read from p->ctl;
 * when p->ctl is NULL the exporters give p one of their own (set it before:
 * the watchdog's; a session keeps the one it finds). Returns 0 or -errno
 * with msg filled.
 */
int exporters_add(struct exporters *x, const struct exporters_target_cfg *tc,
		  const struct target *t, struct probe *p, char *msg, size_t msglen);

/* Start the threads (after every exporters_add). Returns 0 or -errno with msg filled. */
int exporters_start(struct exporters *x, char *msg, size_t msglen);

/* Probe thread of target i: one finished request with its notice. */
void exporters_request(struct exporters *x, size_t i, const struct sample *s, enum notice n);

/* Probe thread of target i: skipped slots (probe_sink.skipped) enter its response times. */
void exporters_skipped(struct exporters *x, size_t i, uint64_t hi, uint64_t step, uint64_t n);

/*
 * The judging thread (the run's verdict ticker, the view): target i's interval of period_ns
 * was judged v. Its verdict series and the next --influx lines carry it.
 */
void exporters_verdict(struct exporters *x, size_t i, const struct verdict *v,
		       uint64_t period_ns);

/*
 * Probe thread of target i: a period closed; with --influx write its lines
 * (whole, under a lock shared by the targets). Returns 0 or -errno (stdout).
 */
int exporters_period(struct exporters *x, size_t i, uint64_t now_real);

/*
 * Render /metrics of every target into sb in format f (the protobuf one with
 * native histograms). Returns 0, -ENOMEM, or -ENOTSUP for protobuf in a build
 * without it.
 */
int exporters_render(struct exporters *x, struct sbuf *sb, enum promfmt_format f);

/*
 * Stop the threads, write the textfile a last time, release everything. Call
 * it after the probes stopped and before their ctl goes away (the watchdog's
 * page). Idempotent.
 */
void exporters_stop(struct exporters *x);

#endif
