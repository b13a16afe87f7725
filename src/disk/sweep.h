/*
 * sweep: the operators' saturation method, stepped. The probe is driven at
 * one asked rate after another (each step -w long) and every step becomes a
 * row of the operators' table: size, asked rate and bytes/s, achieved rate,
 * expected and measured device rate, areq-sz, aqu-sz, await, %util, MB/s,
 * service (and response) p50/p99, skipped slots, and the verdict's words.
 * Then one line names the knee: the highest asked rate the device kept up
 * with. Pure: the plan decides the next rate from the verdicts so far; the
 * CLI runs the steps.
 *
 * Plans: a list of rates (run as given, in order), or auto: start at
 * SWEEP_AUTO_START requests/s and double while the device keeps up; after
 * the first step that falls short, bisect between the highest rate that kept
 * up and the lowest that did not until they are within SWEEP_AUTO_PRECISION
 * of each other (the knee to within that share), or SWEEP_MAX_STEPS.
 */
#ifndef IOPROBE_SWEEP_H
#define IOPROBE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "probe.h"
#include "sbuf.h"
#include "verdict.h"

#define SWEEP_MAX_STEPS 32
/* auto: the first rate, requests/s (a slow disk still keeps up with it) */
#define SWEEP_AUTO_START 8.0
/* auto: the highest rate tried (a million requests/s is beyond any one probe thread) */
#define SWEEP_AUTO_MAX 1048576.0
/* auto: stop bisecting when the rate that fell short is within 5 % of the one that kept up */
#define SWEEP_AUTO_PRECISION 0.05

struct sweep_plan {
	bool automatic;
	double rates[SWEEP_MAX_STEPS]; /* the list (list mode) */
	size_t nrates;
	size_t steps;                  /* steps handed out so far */
	double ok;                     /* highest rate that kept up, 0 = none */
	double bad;                    /* lowest rate that did not, 0 = none */
	double last;                   /* the rate of the last step handed out */
	bool done;
};

/*
 * Parse --sweep's argument: NULL, "" or "auto" for the automatic plan, else
 * a comma-separated list of rates (requests/s, with the count suffixes k, M;
 * fractions allowed) of at most SWEEP_MAX_STEPS entries, each > 0. Returns 0,
 * or -EINVAL with msg filled.
 */
int sweep_parse(const char *arg, struct sweep_plan *p, char *msg, size_t msglen);

/* The next asked rate (requests/s), or 0 when the sweep is over. */
double sweep_next(struct sweep_plan *p);

/* Tell the plan how the step at rate ended: kept up (true) or not. */
void sweep_record(struct sweep_plan *p, double rate, bool kept_up);

/* The highest asked rate that kept up so far, 0 when none. */
double sweep_knee(const struct sweep_plan *p);

/* One step's numbers (0 where unknown; a response p50 of 0 means "not measured"). */
struct sweep_row {
	uint64_t size;              /* bytes per request */
	double asked, achieved;     /* requests/s */
	double expected, dev_rate;  /* device requests/s: explained by the asked rate, measured */
	double areq_kb, aqu, await_ms, util, dev_mbs;
	uint64_t p50_ns, p99_ns;    /* service time */
	uint64_t rp50_ns, rp99_ns;  /* response time (0 when not measured) */
	uint64_t skipped;
	bool kept_up;
	const char *verdict;        /* the verdict line's words ("keeps up", "falls short: ...") */
	unsigned depth;             /* requests in flight at most (-Q) */
	unsigned pieces;            /* device requests per probe request (max_sectors_kb, ...) */
	double flushes;             /* flushes per probe request in expected (write share x 1) */
	bool split;                 /* -G: reads and writes apart (sweep_row_split) */
	double cpu_ms_s;            /* the probe's measured CPU wait, ms of each second (< 0: unknown) */
	bool probe_side;            /* fell short for the probe's side (probe limited, CPU or not) */
	uint64_t read_p50_ns, read_p99_ns, write_p50_ns, write_p99_ns;
};

/* -G: put the step's read and write service-time percentiles into r apart (split set). */
void sweep_row_split(struct sweep_row *r, const struct stats *reads, const struct stats *writes);

/* What a step's probe was, for judging it. */
struct sweep_probe {
	struct verdict_probe run;   /* verdict_probe_settings() of the run (asked: any) */
	bool response;              /* -Q or --response: the row carries response percentiles */
	/* the step's measured CPU wait (sweep_run_cpu; verdict_probe_cpu's arguments) */
	bool cpu_known;
	uint64_t cpu_wait_ns;
	int64_t host_some_ns;       /* < 0: unknown */
};

/*
 * Judge one finished step at rate: t is its tally (wall, requests, skipped,
 * latencies), devs[0 .. n) the device rows over the step (top first). Fills
 * the verdict v and the row r (r->verdict is left NULL: the caller formats
 * v into it). h carries the verdict's history from step to step.
 */
void sweep_judge(struct verdict_hist *h, const struct sweep_probe *sp, double rate,
		 const struct tally *t, const struct verdict_dev *devs, size_t n,
		 struct verdict *v, struct sweep_row *r);

/* The table's header line, newline included. */
void sweep_format_header(struct sbuf *sb);

/* One row, newline included (the verdict last, whole). */
void sweep_format_row(struct sbuf *sb, const struct sweep_row *r);

/*
 * The knee line, newline included: "keeps up to ~140/s (35.0 MiB/s) at 256 KiB;
 * beyond it: falls short: device saturated" — or, when no step kept up,
 * "falls short from the first step (8/s): ...", or when every step kept up,
 * "keeps up with every step, up to 2048/s (8.00 MiB/s)". last_bad is the
 * verdict of the lowest rate that did not keep up (NULL when none).
 */
void sweep_format_knee(struct sbuf *sb, const struct sweep_plan *p, uint64_t size,
		       const char *last_bad);

/* One row as a JSON object (no separators), keys as in the header, numbers in base units. */
void sweep_json_row(struct sbuf *sb, const struct sweep_row *r);

/*
 * The one sweep runner, for the command line and the view alike: it gives
 * each step's probe settings and turns each finished step into its row; the
 * caller runs the probe between the two (a session, a child process: its
 * business) and samples the devices around it.
 */
struct sweep_run {
	struct sweep_plan plan;
	struct verdict_hist hist;
	struct sweep_probe sp;   /* the run's verdict settings, whether rows carry response times */
	struct probe_cfg base;   /* the probe's settings with no count, no periods, -w per step */
	double rate;             /* the step under way */
	double bad_rate;         /* the lowest rate that did not keep up so far (0: none) */
	char bad[160];           /* its verdict's words, for the knee line */
	char words[80];          /* the last finished step's verdict words (verdict_words) */
};

/*
 * Start a sweep over the asked rates spec (checked already: sweep_parse) with
 * the probe's settings base, steps step_ns long, the verdict's run settings
 * (verdict_probe_settings) and response (rows carry response times).
 */
void sweep_run_init(struct sweep_run *sr, const char *spec, const struct probe_cfg *base,
		    uint64_t step_ns, const struct verdict_probe *run, bool response);

/* The next step: its probe settings in *pc (base at the step's rate); its rate, 0 when done. */
double sweep_run_step(struct sweep_run *sr, struct probe_cfg *pc);

/*
 * The step under way finished: judge it on its tally t (the probe's own: its
 * wall time, requests, skipped slots, latencies) and the device rows
 * devs[0 .. n) over it; fill its row r with r->verdict = verdict (the whole
 * verdict line written there, at most len bytes), record it in the plan and
 * keep the knee's words.
 */
void sweep_run_done(struct sweep_run *sr, const struct tally *t, const struct verdict_dev *devs,
		    size_t n, struct sweep_row *r, char *verdict, size_t len);

/*
 * The step under way's measured CPU wait, for sweep_run_done()'s verdict: the probe's run
 * delay over the step (known: it was read) and the host's PSI cpu some time (< 0: unknown).
 */
void sweep_run_cpu(struct sweep_run *sr, bool known, uint64_t wait_ns, int64_t host_some_ns);

/* The knee line after the last step (nothing when no step finished), newline included. */
void sweep_run_knee(const struct sweep_run *sr, struct sbuf *sb);

#endif
