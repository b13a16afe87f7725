/*
 * qualify: a disk qualification — a fixed battery of steps, each a probe run
 * with ioprobe's own options, and thresholds that judge each step (issue 28).
 * Pure: no I/O, no clocks. The profile text is parsed here (the built-in
 * "db" profile is such a text too), the CLI runs each step and hands back its
 * measurements, and the judgement, its margins, the text report and the JSON
 * come from here.
 *
 * The profile format (one item a line; '#' starts a comment; blank lines are
 * ignored; words are separated by blanks, no quoting):
 *   qualify NAME             the profile's name (optional; default: the file's)
 *   step NAME OPTION...      a step: ioprobe's options, as on its command line
 *                            (no target: the command line's)
 *   about TEXT...            what the step is, in words (optional, once a step)
 *   require METRIC OP VALUE  a threshold on the step above it
 * METRIC: IOPS, MB/s (decimal megabytes, 10^6 bytes, per second) or a
 * percentile p50, p90, p99, p99.9 (any pN from p1 to p100) of the service
 * time, over every request, or of one direction: "read IOPS", "write MB/s",
 * "read p99". OP: > >= < <=. VALUE: a number for IOPS and MB/s, a time with
 * its unit (ns, us, ms, s) for a percentile — "read p99 < 20" is refused.
 * A step with -c and -w that ends at its deadline before its count failed:
 * "a disk that needs longer has failed" (the count is the work asked; as with
 * -c anywhere, the warmup request counts: give -a 0 for -c valid requests).
 *
 * IOPS and MB/s are over the step's wall time (first start to last
 * completion): requests completed / seconds, as fio counts them; the
 * direction's figures count that direction's requests over the same time,
 * so read + write = all.
 */
#ifndef IOPROBE_QUALIFY_H
#define IOPROBE_QUALIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"
#include "stats.h"

#define QUALIFY_MAX_STEPS 8
#define QUALIFY_MAX_CHECKS 16
#define QUALIFY_MAX_WORDS 40
#define QUALIFY_NAME_MAX 48
#define QUALIFY_TEXT_MAX 512
/* A profile file larger than this is refused (a profile is a few lines). */
#define QUALIFY_FILE_MAX 65536
/* The working set when the command line gives no -S (the notes' fio file). */
#define QUALIFY_WORK_SIZE (5ull << 30)

enum qualify_metric { QUALIFY_IOPS, QUALIFY_MBS, QUALIFY_PCT };
enum qualify_dir { QUALIFY_ALL, QUALIFY_READ, QUALIFY_WRITE };
enum qualify_op { QUALIFY_GT, QUALIFY_GE, QUALIFY_LT, QUALIFY_LE };

/* One threshold: metric (of dir; pct for QUALIFY_PCT) op limit (ns for a percentile). */
struct qualify_check {
	enum qualify_metric metric;
	enum qualify_dir dir;
	double pct;
	enum qualify_op op;
	double limit;
	unsigned line;         /* where the profile said it */
};

struct qualify_step {
	char name[QUALIFY_NAME_MAX];
	char about[QUALIFY_TEXT_MAX];     /* "" when the profile says nothing */
	char options[QUALIFY_TEXT_MAX];   /* the options as one line, for the report */
	char words[QUALIFY_TEXT_MAX];     /* the options, NUL-separated */
	int nwords;
	const char *argv[QUALIFY_MAX_WORDS]; /* into words (qualify_step_argv fills them) */
	struct qualify_check checks[QUALIFY_MAX_CHECKS];
	size_t nchecks;
	unsigned line;
};

struct qualify_profile {
	char name[QUALIFY_NAME_MAX];
	struct qualify_step steps[QUALIFY_MAX_STEPS];
	size_t nsteps;
};

/*
 * Checks a step's option words (argv[0] is "ioprobe", then the options):
 * returns 0, or non-zero with msg filled ("unrecognized option '--x'").
 * The CLI's runs them through its own option parser; tests may pass NULL.
 */
typedef int (*qualify_words_fn)(void *ctx, int argc, const char *const *argv, char *msg,
				size_t msglen);

/* The built-in profile's text for name ("db"), or NULL when there is none. */
const char *qualify_builtin(const char *name);

/*
 * Parse a profile text into *p (name: its name unless a "qualify" line says
 * another). Each step's words are checked with check (NULL: not checked).
 * Returns 0, or -EINVAL with msg "line N: reason".
 */
int qualify_parse(const char *text, const char *name, qualify_words_fn check, void *ctx,
		  struct qualify_profile *p, char *msg, size_t msglen);

/* Point s->argv at its words: argv[0] is "ioprobe", argc is 1 + s->nwords. */
int qualify_step_argv(struct qualify_step *s, const char **argv, int max);

/* What one step measured (the CLI fills it after the step's run). */
struct qualify_measure {
	uint64_t size;          /* bytes per request */
	uint64_t wall_ns;       /* first start to last completion */
	uint64_t count;         /* -c asked, 0 = none */
	uint64_t requests;      /* requests made (the warmup and failed ones too: what -c counts) */
	uint64_t deadline_ns;   /* -w, 0 = none */
	const struct stats *all, *read, *write; /* service times; read/write NULL when none */
	bool have_dev;          /* the top device's numbers over the step */
	char dev[32];
	double aqu, await_ms, util;
	const char *engine;     /* the engine's name */
	unsigned depth;
};

/* One threshold judged. */
struct qualify_result {
	const struct qualify_check *check;
	double value;           /* IOPS, MB/s, or ns */
	bool pass;
	double margin_pct;      /* how far on the passing side, % of the limit (< 0: failed) */
};

struct qualify_verdict {
	struct qualify_result r[QUALIFY_MAX_CHECKS];
	size_t n;
	bool complete;          /* the count was reached (or none was asked) */
	bool pass;              /* complete and every threshold held */
};

/* A measure's figures: requests/s and decimal MB/s of dir over the step's wall time. */
double qualify_iops(const struct qualify_measure *m, enum qualify_dir dir);
double qualify_mbs(const struct qualify_measure *m, enum qualify_dir dir);

/* Judge step s on m into v. */
void qualify_judge(const struct qualify_step *s, const struct qualify_measure *m,
		   struct qualify_verdict *v);

/* The report's head: "qualify db: TARGET (DESC), working set 5 GiB, 2 steps\n". */
void qualify_format_head(struct sbuf *sb, const struct qualify_profile *p, const char *target,
			 const char *desc, uint64_t work_size);

/* One step's block (i of n, from 0): what it is, its figures, device, thresholds. */
void qualify_format_step(struct sbuf *sb, const struct qualify_step *s, size_t i, size_t n,
			 const struct qualify_measure *m, const struct qualify_verdict *v);

/*
 * The final line, newline included: "QUALIFY db: PASS", or "QUALIFY db: FAIL
 * (randrw: IOPS 2978 < 5000; 96.6 MB/s < 150)" — each failing step's name
 * once, then its reasons.
 */
void qualify_format_final(struct sbuf *sb, const struct qualify_profile *p,
			  const struct qualify_measure *m, const struct qualify_verdict *v,
			  size_t nsteps);

/* One step as a JSON object (no separators). */
void qualify_json_step(struct sbuf *sb, const struct qualify_step *s,
		       const struct qualify_measure *m, const struct qualify_verdict *v);

/* Whether every step of v[0 .. n) passed. */
bool qualify_passed(const struct qualify_verdict *v, size_t n);

#endif
