/*
 * opts: the command line, parsed into plain values. Pure: no I/O; nothing is
 * opened or checked against the target here (target.c does that; the
 * derived values come from opts_request_size(), opts_interval() and
 * opts_deadline() below).
 *
 * The syntax is glibc getopt_long_only's, as ioping 1.3 uses it: long options
 * with one or two dashes, unique prefixes, "=value" or the next word as the
 * value, short bundles, GNU permutation (options after the path), "--" ends
 * options. One deliberate rule on top: an option ioping 1.3 lacks (-E, -U and
 * ioprobe's own) answers only to a prefix that is no prefix of any ioping 1.3
 * option, after one dash one letter longer when ioping would read the word as
 * a short option with its argument, and never to one letter. So every
 * spelling ioping 1.3 reads keeps its meaning: `-en 1` is `-entropy 1`, `-ig`
 * is `-i g` (an error), `-u` is unknown; `-ign` is `-ignore-error`.
 */
#ifndef IOPROBE_OPTS_H
#define IOPROBE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "check.h"

/* Most destinations one run takes (each costs a thread, an engine and fixed memory). */
#define OPTS_MAX_TARGETS 256
/* A target's short name (NAME=PATH, --name): 1 to OPTS_NAME_MAX of [A-Za-z0-9_.:+-]. */
#define OPTS_NAME_MAX 40
#define OPTS_NAME_STORE 2048 /* all names together, with their NULs */

/* Most entries of a -s or -Q list (--sweep across sizes and depths). */
#define OPTS_LIST_MAX 16

enum opts_action {
	OPTS_RUN,
	OPTS_HELP,    /* -h: usage on stdout, exit 0 */
	OPTS_VERSION, /* -v: version on stdout, exit 0 */
	OPTS_USAGE,   /* no arguments at all: usage on stdout, exit 1 */
};

struct opts {
	enum opts_action action;
	const char *path;          /* the (first) destination (points into argv) */
	const char *paths[OPTS_MAX_TARGETS]; /* every destination, in the order given */
	unsigned npaths;           /* how many (1 = today's single-target run) */
	/* for a destination right after an option word that may be meant as its value though
	 * it takes none there (`-ca 3`: a plain number; `-I %T`: a format), that option word;
	 * else NULL */
	const char *path_after_option[OPTS_MAX_TARGETS];
	/* each destination's short name (NAME=PATH, --name), or NULL; the strings live in
	 * name_store of the opts that parsed them (a copy of opts points at the original's) */
	const char *names[OPTS_MAX_TARGETS];
	const char *name;          /* the name of o->path (a target's own opts), or NULL */
	const char *name_list;     /* --name NAME[,NAME...]: names for the destinations in order */
	char name_store[OPTS_NAME_STORE];
	size_t name_used;

	uint64_t warmup;           /* -a, default 1 */
	uint64_t burst;            /* -b, 0 = off */
	uint64_t count;            /* -c, 0 = unlimited */
	uint64_t seed;             /* -e, 0 = from the clock */
	uint64_t interval;         /* -i, ns */
	bool interval_set;
	uint64_t speed_limit;      /* -l, bytes per second, 0 = off */
	double rate_limit;         /* -r, requests per second, 0 = off */
	bool limit_set;            /* -l or -r given (any value, 0 too: no pacing, as ioping) */
	uint64_t size;             /* -s, bytes, 0 = default */
	uint64_t work_size;        /* -S, bytes, 0 = default */
	uint64_t work_offset;      /* -o, bytes */
	uint64_t deadline;         /* -w, ns, 0 = none */
	bool deadline_set;
	uint64_t min_time;         /* -t, ns */
	uint64_t max_time;         /* -T, ns, UINT64_MAX = none */
	uint64_t print_count;      /* -p */
	uint64_t print_interval;   /* -P, ns */
	const char *time_format;   /* -I / -J strftime format, NULL = no time */

	bool json;                 /* -J */
	bool batch;                /* -B */
	bool quiet;                /* -q (also set by -B and -R) */
	bool rapid;                /* -R */
	bool linear;               /* -L */
	bool cached;               /* -C */
	bool direct;               /* -D */
	bool sync;                 /* -Y */
	bool dsync;                /* -y */
	bool nowait;               /* -N */
	bool hipri;                /* -H */
	bool keep;                 /* -k */
	bool ignore_error;         /* -E */
	bool read_write;           /* -G */
	unsigned write;            /* number of -W and -G given */
	const char *engine;        /* -A, -U, --engine; NULL = sync */
	bool tui;                  /* -X, --tui: the full-screen view */
	bool no_color;             /* --no-color (NO_COLOR in the environment too) */
	bool ascii;                /* --ascii: no braille or box drawing */
	bool json_lines;           /* --json-lines: one compact JSON object per line (sets json) */
	bool raw_percentiles;      /* --raw-percentiles: raw lines gain the percentiles */
	struct pcts pcts;          /* --percentiles LIST; pcts_default unless set */
	bool pcts_set;
	bool iostat;               /* --iostat[=DEV,...]: device statistics beside the probe */
	const char *iostat_devices;/* extra devices for --iostat, comma-separated, or NULL */
	bool sweep;                /* --sweep[=RATE,...|auto]: step the asked rate */
	const char *sweep_rates;   /* its list, or NULL for auto */
	/* several targets' sweeps in turn (cli.c): put before this sweep's output; set printed */
	const char *sweep_prefix;
	bool *sweep_printed;
	bool fio_job;              /* --fio-job[=TIME]: watch the devices, print a fio job */
	uint64_t fio_job_window;   /* its window, ns */
	uint64_t depth;            /* -Q, --depth: requests in flight at most, default 1 */
	bool depth_set;            /* -Q given (the summary then shows response times) */
	bool response;             /* --response: response-time percentiles in the summary */
	bool poisson;              /* --arrivals poisson (else fixed): -Q's open-loop gaps */
	bool layers;               /* --layers (--no-layers: false, the default): each request's
				    * time in the kernel's layers, measured with eBPF */
	bool layers_set;           /* --layers or --no-layers given (--iostat then does not try
				    * them by itself) */
	const char *listen;        /* --listen [ADDR:]PORT: the metrics endpoint, or NULL */
	const char *web_config;    /* --web-config FILE: its TLS, basic auth, headers; or NULL */
	const char *prometheus;    /* --prometheus FILE.prom: node_exporter textfile, or NULL */
	uint64_t prometheus_period;/* --prometheus-period, ns (default 10 s) */
	bool influx;               /* --influx: line protocol on stdout every period */
	bool check;                /* --check WARN,CRIT: a monitoring-plugin run */
	struct check_range check_warn; /* p99 (ns) raising WARNING ("10ms": above 10 ms) */
	struct check_range check_crit; /* ... CRITICAL */
	bool check_iops;           /* --check-iops WARN,CRIT given */
	struct check_range check_iops_warn; /* iops raising WARNING ("500": below 500/s) */
	struct check_range check_iops_crit; /* ... CRITICAL */
	uint64_t check_timeout;    /* --check-timeout, ns: the run ends by then (0: the default) */
	const char *qualify;       /* --qualify PROFILE: a built-in profile's name or a file */
	/* one step of a qualification (cli_qualify.c): the run measures into it, prints nothing */
	void *qualify_step;
	/* --sweep across sizes and depths: -s and -Q as lists (or -Q auto) */
	uint64_t sizes[OPTS_LIST_MAX]; /* -s A,B,...: the sizes (nsizes > 1; o->size the first) */
	unsigned nsizes;
	unsigned depths[OPTS_LIST_MAX];/* -Q A,B,...: the depths (ndepths > 1; o->depth the first) */
	unsigned ndepths;
	bool depth_auto;           /* -Q auto: 1, 2, 4, ... while the device's queue follows */
	double best_aqu;           /* --best-aqu: aqu-sz of the best operating point (default 1) */
	double limit_aqu;          /* --limit-aqu: aqu-sz the limit may reach (default 4) */
	bool best_aqu_set, limit_aqu_set;
	bool yes;                  /* --yes: run a grid planned longer than its bound */
	/* one cell of a grid (cli_sweepgrid.c): its sweep's rows go into this grid */
	void *sweep_grid;
	const char *record;        /* --record FILE: the run written as JSON lines, or NULL */
	bool record_requests;      /* --record-requests: a line per request in it too */
	const char *replay;        /* --replay FILE: show a recording instead of probing */
	const char *report;        /* --report FILE.html: the recording drawn as HTML, or NULL */
	int argc;                  /* the command line as given (a recording's header keeps it) */
	char *const *argv;
};

/* --check's default timeout: below the 10 s most plugin runners (NRPE, Icinga) allow. */
#define OPTS_CHECK_TIMEOUT 8000000000ull

/* --sweep's default step length (-w sets it). */
#define OPTS_SWEEP_STEP 5000000000ull

/* --fio-job's default window. */
#define OPTS_FIO_JOB_WINDOW 10000000000ull


/* Largest -Q. */
#define OPTS_DEPTH_MAX 4096u
/* -Q auto's deepest (sweepgrid.h's SWEEPGRID_AUTO_DEPTH_MAX) */
#define OPTS_AUTO_DEPTH_MAX 64u
/* --iostat's block period without -P (iostat's usual interval) */
#define OPTS_IOSTAT_PERIOD 1000000000ull
/* the request buffers of one run (targets x -Q x size, each buffer on whole pages) at most */
#define OPTS_BUFFER_BUDGET (1024ull * 1024 * 1024)

/* Size of the message buffer callers should pass to opts_parse(). */
#define OPTS_MSG_MAX 2048

/* Parse status (negative errno-like codes are not used here). */
enum opts_status {
	OPTS_OK = 0,
	OPTS_ERR = 1,       /* msg holds the message; exit 1 */
	OPTS_ERR_USAGE = 2, /* msg holds the message; print a blank line and the usage after it */
};

/* Fill o with ioping's defaults (before any option). */
void opts_defaults(struct opts *o);

/*
 * Parse argv (argv[0] is the program name and is skipped). argv is not
 * modified; o->path and o->time_format point into it or at static strings.
 * Returns OPTS_OK, or an error status with the message (no "ioprobe: "
 * prefix) in msg.
 */
enum opts_status opts_parse(int argc, char *const argv[], struct opts *o, char *msg, size_t msglen);

/* Request size after defaults: -s, else 256 KiB with -L, else 4 KiB. */
uint64_t opts_request_size(const struct opts *o);

/* The largest request a run of o makes (*size, the largest of a grid's sizes) and its
 * deepest queue (*depth: the largest -Q of a grid, -Q auto's ceiling). */
void opts_largest_request(const struct opts *o, uint64_t *size, uint64_t *depth);

/*
 * Time between request starts in ns, as ioping 1.3: start from -i if given,
 * else 0 when -l, -r (whatever their value, 0 included) or -R is given, else
 * 1 s; then take the largest of that, size*1e9/speed and 1e9/rate
 * (saturating at UINT64_MAX: -r 1e-11 never starts a second request).
 */
uint64_t opts_interval(const struct opts *o);

/*
 * The rate the run asks for, requests per second: -b N requests (1 without
 * -b) every opts_interval(); 0 when unpaced (interval 0: -R, or -i 0).
 */
double opts_asked_rate(const struct opts *o);

/* Deadline in ns after which no request starts (-w, or 3 s for -R); 0 = none. */
uint64_t opts_deadline(const struct opts *o);

/* Whether response time is measured beside service time: -Q given (any depth) or --response. */
bool opts_response(const struct opts *o);

/*
 * Whether --sweep runs a grid: a list of sizes or depths, or -Q auto (one size and one depth
 * is today's sweep, its output unchanged).
 */
bool opts_sweep_grid(const struct opts *o);

/* Whether every request writes: -W without -G (-G alternates reads and writes). */
bool opts_writes_only(const struct opts *o);

#endif
