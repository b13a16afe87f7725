/*
 * cli_int: what the command-line front end's files (cli*.c) share. Not for
 * other modules: messages and exit codes live only here. cli_msg.c is the
 * leaf every part uses (messages, the stop flag, an output error's exit code,
 * the view's emergency restore); cli.c parses, checks, prepares the target
 * and dispatches; cli_cfg.c maps the options onto each module's settings;
 * cli_run.c is the one run of N >= 1 targets (cli_iostat.c, cli_sweep.c and
 * cli_fleet.c are its --iostat, --sweep and fleet parts); cli_fiojob.c is
 * --fio-job; cli_qualify.c is --qualify (each step one cli_run()); cli_sweepgrid.c is
 * --sweep across sizes and depths (each cell one cli_run()); cli_conclude.c is the end of a
 * run and of its replay (cli_conclude.h); cli_record.c and cli_vrecord.c are --record (the
 * latter under the view); cli_recin.c reads a recording for every reader, cli_replay.c
 * prints it (--replay), cli_replay_view.c shows it in the view (-X), cli_report.c writes
 * --report's file. No part calls one above it.
 */
#ifndef IOPROBE_CLI_INT_H
#define IOPROBE_CLI_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "child.h"
#include "cpuwait.h"
#include "engine.h"
#include "filechild.h"
#include "htmlreport.h"
#include "msg.h"
#include "opts.h"
#include "outw.h"
#include "probe.h"
#include "recread.h"
#include "report.h"
#include "sbuf.h"
#include "stats.h"
#include "sweepgrid.h"
#include "target.h"
#include "ticker.h"
#include "verdict.h"
#include "view.h"
#include "watchdog.h"

struct devwatch;
struct exporters;
struct recorder;
struct stats;
struct view_cfg;
struct view_ops;
struct watchdog;

/* Set by SIGINT/TERM/HUP (a second one exits 4): every probe's stop flag. */
extern volatile sig_atomic_t cli_stop;
/* Monotonic ns the first stop signal came (0 before): a file's process is given up from it. */
extern _Atomic uint64_t cli_stop_at;

/* While a view runs: its async-signal-safe terminal restore, called before _exit. */
extern void (*volatile cli_view_emergency)(void);

/* The view's settings for target t opened from o. */
void cli_view_cfg(const struct opts *o, const struct target *t, struct view_cfg *vc);
/*
 * The view's settings of a recording's target i (header h), as cli_view_cfg() made the live
 * run's from its command line (o: this replay's --ascii, --no-color).
 */
void cli_view_cfg_recorded(const struct opts *o, const struct rec_header *h, size_t i,
			   struct view_cfg *vc);

/* The view's message callback: one "ioprobe: " line (cli_msg.c). */
void cli_view_message(const char *text);

/* A request in flight this long gets a warning on stderr (then at 2x, 4x, ...). */
#define CLI_HANG_WARN_NS 5000000000ull

/* One "ioprobe: ..." line on stderr, control characters escaped (cli_msg.c). */
void cli_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit code for a stdout error (-EPIPE ends quietly with 0, others say so and give 3). */
int cli_out_error(int err);

/*
 * Open target o->path with the command line's settings (pg: the fill's
 * progress, or NULL). Returns 0, or the exit code with the message said (1
 * for a -D alignment problem, else 2); when err or why is given, the opener's
 * 0 / -errno goes to *err and its message to why (-ETIMEDOUT: a request of the
 * preparation did not complete within its grace after a stop).
 */
int cli_target_open(const struct opts *o, struct target *t, const struct target_progress *pg,
		    int *err, char *why, size_t whylen);

/* The probe's settings from the command line. */
void cli_probe_cfg(const struct opts *o, struct probe_cfg *pc);

/* The report's settings for target t opened from o (o->path is its name). */
void cli_report_cfg(const struct opts *o, const struct target *t, struct report_cfg *rc);

/*
 * The longest an engine polls for a completion before sleeping (struct
 * engine_spin): beyond the wake-up cost of a VM (30-60 us) and a fast
 * device's request, short beside a disk's.
 */
#define CLI_ENGINE_SPIN_NS 100000u

/*
 * Start an engine of ops over t with zeroed aligned buffers, one per request
 * in flight (*buf, from cli_buffers_alloc: cli_buffers_free(*buf,
 * cli_buffers_len(o, t)) after engine_stop()); spin lets it poll for
 * completions (CLI_ENGINE_SPIN_NS) — not when the probe threads outnumber
 * the CPUs. Returns 0, or -errno with the message printed.
 */
int cli_engine_start(const struct opts *o, const struct target *t,
		     const struct engine_ops *ops, struct engine *eng, void **buf, bool spin);

/*
 * The request buffers (zeroed, page aligned) in a mapping shared with the
 * probe's child process (prober.h): its reads land in the same pages, nothing
 * is copied on write. NULL when out of memory.
 */
void *cli_buffers_alloc(size_t len);

/* Release cli_buffers_alloc()'s len bytes (buf may be NULL). */
void cli_buffers_free(void *buf, size_t len);

/* The length of cli_engine_start()'s buffers for target t opened from o. */
size_t cli_buffers_len(const struct opts *o, const struct target *t);

/* ---- the run of N >= 1 targets (cli_run.c, cli_iostat.c, cli_sweep.c, cli_fleet.c) ---- */

struct cli_run;

enum cli_target_state { CLI_TARGET_UNUSED, CLI_TARGET_READY, CLI_TARGET_RUNNING };

/* One target of a run: everything its probe's thread owns. */
struct cli_target {
	struct cli_run *run;
	struct opts o;           /* the command line with o.path = this target */
	struct target t;
	struct engine eng;
	void *buf;               /* the request buffers (cli_buffers_alloc) */
	struct probe *p;         /* shared with the probe's process (prober_alloc) */
	struct report_cfg rc;
	struct sbuf sb;          /* the line buffer of the thread that reads its probe */
	pthread_t thread;        /* n > 1: that thread (n = 1: the calling one) */
	enum cli_target_state state;
	int ret;                 /* prober_run()'s result, or the preparation's -errno */
	char msg[MSG_MAX];       /* its message when the run failed or could not start */
	size_t xi;               /* its series in run->x (the fleet outputs), when run->x */
	struct probe_sink tap;   /* beside the view: what the exporters hear of this probe */
	struct layers *lay;      /* --layers: its eBPF programs (layers_load.h), else NULL */
	struct layer_tally *ltot; /* --layers: the run's layers, else NULL */
	/* --iostat: this target's side of each interval (cli_iostat.c) */
	struct devwatch *watch;  /* its device stack, the verdict's rows (the run's when n = 1) */
	pthread_mutex_t iv_lock; /* held only to add a sample or to swap the buffers */
	struct stats *iv_lat[2]; /* latencies of the interval; the probe adds to iv_lat[iv_cur] */
	struct layer_tally *iv_lay[2]; /* --layers: the interval's layers, beside iv_lat */
	int iv_cur;
	uint64_t iv_skipped;     /* skipped slots of the run, as of the last sample */
	uint64_t iv_first;       /* boottime ns the first request started; 0 = none yet */
	uint64_t iv_late_max;    /* the interval's latest start against its due time */
	uint64_t iv_failed[2];   /* failed requests of the interval, beside iv_lat */
	uint64_t iv_cut;         /* run ns the open interval ends at (the device's read); 0 = open */
	uint64_t iv_added;       /* requests added so far */
	uint64_t iv_need;        /* the probe's finished requests at the cut (the ticker's) */
	uint64_t iv_need_prev;   /* ... at the previous cut */
	bool iv_have_need;       /* iv_need was read at this tick's cut */
	uint64_t iv_inflight;    /* ... and the age of the request in flight then (0: none) */
	struct cpuwait cpu;      /* its prober's measured CPU wait (the ticker's) */
	uint64_t iv_prev;        /* boottime ns of the previous block (the ticker's) */
	uint64_t iv_skip_mark;   /* iv_skipped at the previous block (the ticker's) */
	struct verdict_hist vhist;
	struct verdict_probe vp; /* what the run asks for (the per-interval fields are the ticker's) */
	char vwords[64];         /* the last verdict's first words (verdict_words), "" none yet */
};

/* What the targets of a run share: stdout, the devices shown, the helpers. */
struct cli_run {
	const struct opts *o;
	const struct engine_ops *ops;
	struct outw out;         /* stdout, shared by the probes' threads and the ticker */
	struct devwatch *watch;  /* --iostat/--sweep: the devices shown (the targets' stacks) */
	struct ticker iostat;    /* --iostat's sampler */
	bool iostat_failed;      /* a sample failed (said once on stderr) */
	bool iso_time;           /* S_TIME_FORMAT=ISO: block times as iostat -t prints them then */
	size_t n;                /* targets, in the order given */
	size_t ncpu;             /* online CPUs: more targets than that do not spin */
	bool layers_tried;       /* --iostat without the layers measured: its reasons are inferred */
	struct watchdog wd;      /* hang warnings, one control block per target */
	uint64_t base;           /* when the first target's schedule starts (staggering) */
	struct cli_target *tg;
	struct exporters *x;     /* --listen, --prometheus, --influx (one series set per target) */
	struct recorder *rec;    /* --record: the run written while it runs, or NULL */
	struct cli_vrec *vrec;   /* --record under the view: its judged intervals, or NULL */
	struct ticker check_timer; /* --check: stops the run at --check-timeout */
	volatile sig_atomic_t timed_out; /* ... and it did */
};

/* The last message said on stderr (--check repeats it in its UNKNOWN line). */
extern char cli_last_msg[512];
/* --check was given: every way out prints one plugin line (cli_main). */
extern bool cli_check_wanted;

/* The probe's warn callback: one message on stderr, ctx unused (cli_msg.c). */
void cli_on_warn(void *ctx, const char *text);

/*
 * The probes' idle callback (ctx: a struct cli_target of a run): the run's hang watchdog
 * looked after (watchdog_check: a killed one is started again, said; cli_msg.c).
 */
void cli_run_idle(void *ctx);

/* cli_mem.c: the run's memory, budgeted up front. */

/*
 * What a run of o's targets needs (membudget) against what its memory cgroup and the host
 * have free (memlimit): -1 when it fits (or the host's figures cannot be read), else
 * CLI_EXIT_USAGE after a message with both figures.
 */
int cli_mem_check(const struct opts *o);

/* cli_run.c: the run of N >= 1 targets. */

/*
 * Options that do not combine with the targets given (--sweep with the view and several
 * targets; a plain number right after an option that names no file): -1 when o is fine,
 * else the exit code after the message.
 */
int cli_run_check(const struct opts *o);

/*
 * --layers with what it does not measure yet (-Q > 1, the view, --sweep, --qualify,
 * --fio-job, --replay): -1 when o is fine, else CLI_EXIT_USAGE after the message.
 */
int cli_layers_check(const struct opts *o);

/*
 * Prepare every target of o (o->paths[0 .. npaths)), probe them all at once
 * (one target on the calling thread, several on a thread each, staggered),
 * report; returns the exit code: the worst over the targets (one that could
 * not be prepared counts 2, or 1 for a refused size), 2 when none could
 * start, or an output error's code. pg hears the working set fill (one
 * target only; NULL: nobody). With view (--tui) the targets run under it
 * (one target's screen, or the overview); the summaries follow it. With
 * --sweep each target's sweep runs in turn.
 */
int cli_run(const struct opts *o, const struct engine_ops *ops, const struct view_ops *view,
	    const struct target_progress *pg);

/* cli_iostat.c: --iostat, the device rows and each target's verdict every interval. */

/* Count a finished request of tg into the --iostat interval (brief: never waits on stdout). */
void cli_iv_add(struct cli_target *tg, const struct sample *s, enum notice n);

/*
 * Watch the devices --iostat (or a sweep) shows for the run's prepared
 * targets, baseline taken: r->watch, and each target's own stack when n > 1.
 * quiet (the fleet outputs' and --check's verdict, nothing printed): each target's own stack
 * only, r->watch NULL, and a target whose stack cannot be watched (or the null engine's) is
 * left unjudged instead of failing the run. Returns 0 or the exit code (said).
 */
int cli_iostat_prepare(struct cli_run *r, bool quiet);

/* Start the --iostat sampler. Returns 0 or the exit code (said). */
int cli_iostat_start(struct cli_run *r);

/*
 * --check, after the probes ended and the sampler stopped: judge the interval since the last
 * one when requests finished in it (a plugin run is often shorter than one interval).
 */
void cli_iostat_final(struct cli_run *r);

/* Release what cli_iostat_prepare() and the sampler took (the sampler stopped). */
void cli_iostat_release(struct cli_run *r);

/* A block's time line for realtime, as `iostat -t` prints it (iso: S_TIME_FORMAT=ISO). */
void cli_iostat_time(struct sbuf *sb, bool iso, uint64_t realtime);

/* A target's lines of a block: its probe line and its verdict ("PATH: " first unless NULL;
 * the caller gives a named target's name). */
void cli_iostat_target(struct sbuf *sb, const char *path, const struct verdict *v);

/* cli_vrecord.c: --record under the view (the iostat panels' judged intervals as blocks). */
struct cli_vrec;

/* A gatherer for rec's n targets in *out: 0 or -ENOMEM. */
int cli_vrec_new(struct recorder *rec, size_t n, struct cli_vrec **out);
/* Target i is shown by the view: a block waits for its side. */
void cli_vrec_expect(struct cli_vrec *v, size_t i);
/*
 * Target i's panel judged its sample seq (view_params.judged's arguments, copied): the
 * block of that sample is written once every expected target has its side, or when a
 * later sample comes first. Called from one thread only.
 */
void cli_vrec_judged(struct cli_vrec *v, size_t i, uint64_t seq, uint64_t real,
		     const struct iostat_dev_row *rows, size_t n, const struct verdict_probe *p,
		     const struct verdict *vd);
/* The view ended: the open block (v may be NULL) is written with the sides it has. */
void cli_vrec_end(struct cli_vrec *v);
/* Free it (NULL: nothing). */
void cli_vrec_free(struct cli_vrec *v);

/* cli_record.c: --record (the recorder wired to the run) and --replay. */

/* Create o->record before anything is prepared: 0, or the exit code (said). */
int cli_record_open(struct cli_run *r);

/* The same for n targets into *rec (a grid's one recording): 0, or the exit code (said). */
int cli_record_open_n(const struct opts *o, size_t n, struct recorder **rec);

/*
 * Start recording the run's prepared targets (after --iostat's devices are
 * watched, before any probe or ticker runs: the header comes first). 0 or the exit code.
 */
int cli_record_start(struct cli_run *r, bool own_periods);

/* Target tg's side: a request, skipped slots, a closed period, a warning, a failure. */
void cli_record_request(struct cli_target *tg, const struct sample *s, enum notice n);
void cli_record_skipped(struct cli_target *tg, uint64_t hi, uint64_t step, uint64_t n);
void cli_record_period(struct cli_target *tg, const struct tally *t);
void cli_record_warning(struct cli_target *tg, const char *text);
void cli_record_failure(struct cli_target *tg);

/* --sweep: a finished step's row and its printed line (no newline); its step number. */
uint64_t cli_record_step(struct cli_target *tg, const struct sweep_row *r, const char *line);

/* --sweep's conclusions (the lines after the table) and the knee's step number (-1 none). */
void cli_record_knee(struct cli_target *tg, const char *text, long knee);

/*
 * After the probes: the last periods, the summaries and the exit code; the file closed
 * (given up 0.5 s after a stop when its disk hangs). Returns code, or when the recording
 * could not be finished (said) 3 for a code of 0; *whole tells whether it was.
 */
int cli_record_end(struct cli_run *r, int code, bool *whole);

/*
 * A grid's recording after its last cell: the conclusions (text, the best point's and
 * the limit's step numbers, -1 none), the exit code; closed and freed. Returns code as
 * cli_record_end does; *recorded: 1 a header was written (there is something to replay),
 * 0 none, -1 the recording could not be finished.
 */
int cli_record_grid_end(struct recorder *rec, const char *text, long best, long limit,
			int code, int *recorded);

/*
 * Target i of recording h described for the report functions as a live run's target
 * is: path, file system, device, size, mode, response times (-Q/--response or
 * recorded), o's time format. The printing replay and the view add their own settings.
 */
void cli_replay_report_cfg(const struct opts *o, const struct rec_header *h, size_t i,
			   struct report_cfg *rc);

/* --replay FILE: print the recording as the run printed it; the exit code. */
int cli_replay(const struct opts *o);

/* The options no replay honours (--listen, --influx, --sweep, ...): -1 when none, else
 * the exit code (said). */
int cli_replay_check_opts(const struct opts *o);

/* The longest line a recording may have: a longer one is damage ("too long"). */
#define CLI_RECIN_LINE_MAX (256u << 20)

/* A recording being read (--replay, its view, a live run's --report). */
struct cli_recin {
	const char *path;
	void *gz;                   /* gzFile (a plain file reads as it is) */
	char *buf;                  /* what gzread gave and the lines have not taken yet */
	size_t pos, len;            /* buf[pos..len) is still to be split into lines */
	const volatile sig_atomic_t *stop; /* a stop ends the reading (NULL: read on) */
	struct recread rd;          /* rd.h: the header, once read */
	struct rec_event *ev;       /* the event of the last line read */
	char damage[MSG_MAX + 1200];/* after cli_recin_read: what stopped it early, or "" */
};

/* Open path for reading: -1, or the exit code (said: missing, a directory, out of memory). */
int cli_recin_open(struct cli_recin *in, const char *path);

/*
 * Read every line into events and hand each (the header first, as REC_HEADER) to
 * each(arg, ev), which returns -1 to go on or an exit code that stops the reading.
 * When in->stop is set (looked at every line and every 64 KiB read) the reading ends:
 * 0, said ("interrupted").
 * Returns -1 when the recording was read, to its end or to damage (a line damaged or
 * cut short, a compressed stream cut off: in->damage says which, for the caller to say
 * when it suits it); else the exit code — each's, or 2 said here: no recording (its first
 * line), a later format version, an empty file, out of memory.
 */
int cli_recin_read(struct cli_recin *in, int (*each)(void *arg, const struct rec_event *ev),
		   void *arg);

/* Close what cli_recin_open opened (and what reading kept). */
void cli_recin_close(struct cli_recin *in);

/*
 * --replay FILE -X (cli_replay_view.c): the whole recording loaded (a later version or no
 * recording refused, exit 2, before the screen is taken), shown by view->replay; then
 * what the view deferred on stderr and any damage. The exit code: 0, 3 after a damaged,
 * cut or unfinished recording, 1/2 when the view cannot run.
 */
int cli_replay_view(const struct opts *o, const struct view_ops *view);

/*
 * --record F --report OUT: after the run (its exit code code), the recording
 * o->record read back into the report rep (made by cli_report_create; NULL:
 * no --report), nothing printed — or, when nothing was recorded (recorded 0),
 * the report dropped (its empty file removed), and when the recording could
 * not be finished (recorded -1) dropped too, saying so (its disk may hang: it
 * is never read back). Returns code, or the report's exit code (said) when
 * code is 0.
 */
int cli_replay_report(const struct opts *o, struct filechild *rep, int recorded, int code);

/* cli_report.c: --report FILE.html, the file itself. */

/*
 * Create o->report in a process of its own (filechild.h: O_CREAT|O_EXCL|
 * O_NOFOLLOW, a regular file checked with fstat; given up 0.5 s after a
 * stop): the report's writer, or NULL with *code the exit code (said: 1 when
 * it exists, 2 when it cannot be created).
 */
struct filechild *cli_report_create(const struct opts *o, int *code);

/*
 * Hand the report of r to rep's process, which writes and closes it (rep
 * freed): 0 or the exit code (said: 2; the file removed, or given up 0.5 s
 * after a stop when its disk hangs).
 */
int cli_report_write(const struct opts *o, struct filechild *rep, const struct hr_run *r);

/* Nothing to write after all: rep's process removes the empty file (rep freed). */
void cli_report_drop(const struct opts *o, struct filechild *rep);

/* cli_sweep.c: --sweep. */

/*
 * --sweep on tg (prepared, its devices in tg->watch): step the asked rate
 * with the same options, each step -w long (5 s), judge each step with the
 * saturation verdict, print the operators' table row by row and then the
 * knee. A signal ends the sweep after the steps already finished (the one in
 * progress is not judged). Returns 0 or a negative errno with msg filled (a
 * failed request).
 */
int cli_sweep(struct cli_target *tg, char *msg, size_t msglen);

/* cli_sweepgrid.c: --sweep across sizes and depths (sweepgrid.h draws the table and the
 * conclusions). */

/*
 * A grid's rows, shared with each cell's sweep: a cell's options carry a pointer to it
 * (o->sweep_grid); cli_sweep() then adds its rows here and prints them in the grid's
 * table (no header, no knee: the grid's runner prints those).
 */
struct cli_grid {
	struct sweepgrid g;
	bool first;              /* -J: no row written yet */
	struct recorder *rec;    /* --record: the grid's one recording (every cell's run writes
				  * to it; the grid writes its conclusions and closes it), or NULL */
};

/* Options that do not go with a grid (several targets): -1 when o is fine, else the exit
 * code (said). */
int cli_sweep_grid_check(const struct opts *o);

/*
 * --sweep across sizes and depths on o's one target: the plan (refused when it may run
 * longer than SWEEPGRID_BOUND_NS without --yes: exit 1), then each size x depth as one
 * sweep through cli_run() (view: under the view), one table, the best point and the limit
 * (-J: one object). A signal ends the grid after the finished steps; the conclusions cover
 * them. Returns the exit code.
 */
int cli_sweep_grid(const struct opts *o, const struct engine_ops *ops,
		   const struct view_ops *view, const struct target_progress *pg);

/* cli_qualify.c: --qualify, the disk qualification (qualify.h judges it). */

/* Options that do not go with --qualify: -1 when o is fine, else the exit code (said). */
int cli_qualify_check(const struct opts *o);

/*
 * --qualify PROFILE TARGET: parse the profile, check the target (room for the working set,
 * -WWW for writes), run each step through cli_run() with the step's options, judge and
 * report (-J: one object). pg hears a directory's working set fill. With view (-X) each step
 * runs under it (struct view_qualify) and the report is printed once the screen is given back. Returns 0 when every
 * step passed, 1 when one failed, 2 when the battery could not run (or an output error's
 * code).
 */
int cli_qualify(const struct opts *o, const struct view_ops *view,
		const struct target_progress *pg);

/*
 * One step's record: what its run measured. A step's options carry a pointer to it
 * (o->qualify_step); cli_run() then runs the target's probe quietly, the device's
 * diskstats sampled around it, and fills it.
 */
struct cli_qstep {
	struct stats all, read, write; /* service times: every request, reads, writes */
	bool has_read, has_write;
	uint64_t wall;           /* the run's wall time, ns */
	uint64_t requests;       /* requests made (warmup and failed included: what -c counts) */
	bool have_dev;           /* the top device's numbers over the step */
	char dev[32];
	double aqu, await_ms, util;
	char desc[320];          /* the target as the report describes it */
	uint64_t work_size;
	bool ran;                /* it ran to its end (no failure, no signal) */
	/*
	 * -X: the battery's view state (NULL without the view), and the battery's judge of this
	 * step, which cli_run() calls once the record is filled (the view then shows its block).
	 */
	struct view_qualify *view;
	void (*judge)(void *ctx);
	void *judge_ctx;
};

/* cli_fleet.c: --listen, --prometheus, --influx, --check (exporters.c, check.c). */

/* Does the command line ask for --check (also when parsing stopped on it or before it)? */
bool cli_argv_check(int argc, char *argv[]);

/* Defaults the fleet modes imply, then their usage checks; -1 to go on, or the exit code. */
int cli_fleet_setup(struct opts *o);

/* --check, one target: the plugin line on stdout for its end e (its tally, or its failure
 * message when e->ret; its device's verdict after the figures); the exit code is its state. */
struct cli_end;
int cli_check_conclude(const struct opts *o, const struct cli_end *e, bool timed_out);

/* --check: a run that ended before its verdict is UNKNOWN, with the last message. */
int cli_check_unknown(int code);

/* cli_fiojob.c: --fio-job. */

/*
 * --fio-job: watch the target's device (or the devices named with --iostat)
 * for the window without issuing a single request, then print a fio job that
 * imitates what they did. A signal ends the window early (the job covers
 * what was seen). Returns the exit code.
 */
int cli_fio_job(const struct opts *o);

struct check_target;

/*
 * --listen/--prometheus/--influx asked: prepare the exporters for n targets
 * (*x, NULL when none is asked). Returns 0 or the exit code (said).
 */
int cli_fleet_prepare(const struct opts *o, const struct engine_ops *ops, size_t n,
		      struct exporters **x);

/*
 * Describe target t probed by p (opened from o) to the exporters x; judged: its verdict is
 * published (the run or the view judges it). 0 or -errno (said).
 */
int cli_fleet_add(struct exporters *x, const struct opts *o, const struct target *t,
		  struct probe *p, bool judged);

/*
 * Do the fleet outputs ask the run to judge its targets (--listen, --prometheus, --influx:
 * their verdict series and fields), --iostat or not? Not with --arrivals poisson.
 */
bool cli_fleet_judges(const struct opts *o);

/* Does a plain run judge its targets: --iostat, the fleet outputs' or --check's verdict? */
bool cli_run_judges(const struct opts *o);

/* Start the prepared exporters; 0, or the exit code (said; they are stopped and freed). */
int cli_fleet_run(struct exporters **x);

/* Stop and free the exporters (the textfile gets its last version); NULL is fine. */
void cli_fleet_end(struct exporters **x);

/* --check over several targets: the plugin line on stdout; returns its state as the exit code. */
int cli_check_multi(const struct opts *o, const struct check_target *t, size_t n);

#endif
