#include "config.h"

#include "qualify.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "esc.h"
#include "fmt.h"
#include "json.h"
#include "msg.h"
#include "suffix.h"

/*
 * The operators' database-host model (issue 28): a dd of 40 k 32 KiB writes with
 * oflag=dsync, and fio's random 32 KiB read/write 50/50, direct, 32 psync jobs at depth 1,
 * 10 s; the pass mark more than 5,000 IOPS and more than 150 MB/s. Both thresholds judge
 * the fio step's read and write requests together (the notes' example adds 1,484 read and
 * 1,494 write IOPS to 2,978); the dd step, which prints only its speed, is judged on MB/s
 * (1.25 GiB at 150 MB/s takes 8.9 s: the 30 s cap only ends a disk that has failed).
 * -C: no fdatasync after a write (the dd's O_DSYNC is -y; fio's direct writes have none).
 */
static const char profile_db[] =
	"# the operators' database-host model: two fixed tests, one pass mark\n"
	"qualify db\n"
	"step dsync-write -W -L -C -y -s 32k -c 40000 -w 30s -a 0 -i 0\n"
	"about sequential 32 KiB writes with O_DSYNC, 40000 requests or 30 s, whichever "
	"comes first (as dd bs=32k count=40k oflag=dsync)\n"
	"require MB/s > 150\n"
	"step randrw -G -D -C -A -s 32k -Q 32 -i 0 -w 10s -a 0\n"
	"about random 32 KiB reads and writes 50/50, O_DIRECT, 32 requests in flight for "
	"10 s (libaio at depth 32 stands in for fio's 32 psync jobs at depth 1)\n"
	"require IOPS > 5000\n"
	"require MB/s > 150\n";

const char *qualify_builtin(const char *name)
{
	return name && !strcmp(name, "db") ? profile_db : NULL;
}

/* ---- parsing ---- */

/* Split line (modified) into at most max blank-separated words; their count, or -1. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

static bool parse_op(const char *s, enum qualify_op *op)
{
	static const struct { const char *s; enum qualify_op op; } ops[] = {
		{ ">", QUALIFY_GT }, { ">=", QUALIFY_GE }, { "<", QUALIFY_LT }, { "<=", QUALIFY_LE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(s, ops[i].s)) {
			*op = ops[i].op;
			return true;
		}
	return false;
}

/*
 * Length of the plain decimal number s starts with ("150", "0.5": digits, at most one point
 * between digits), 0 when none: a profile's numbers are never hex, exponents or signs, which
 * strtod() would take ("0x10" is not 16).
 */
static size_t decimal_len(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (n && s[n] == '.' && isdigit((unsigned char)s[n + 1]))
		for (n++; isdigit((unsigned char)s[n]); n++)
			;
	return n;
}

/* "p99.9" -> 99.9; false when s is no percentile from p1 to p100. */
static bool parse_pct(const char *s, double *pct)
{
	char *end;

	if ((s[0] != 'p' && s[0] != 'P') || !decimal_len(s + 1) ||
	    decimal_len(s + 1) != strlen(s + 1))
		return false;
	*pct = strtod(s + 1, &end);
	return !*end && *pct >= 1 && *pct <= 100;
}

/* A plain non-negative number (IOPS, MB/s): "5000", "150", "0.5". */
static bool parse_plain(const char *s, double *v)
{
	char *end;

	if (!decimal_len(s) || decimal_len(s) != strlen(s))
		return false;
	*v = strtod(s, &end);
	return !*end && isfinite(*v);
}

/* "require METRIC OP VALUE": w[1 ..) of n words into c. 0 or -EINVAL with msg ("reason"). */
static int parse_require(char **w, int n, struct qualify_check *c, char *msg, size_t msglen)
{
	int i = 1;
	uint64_t ns;
	char tmsg[128];

	c->dir = QUALIFY_ALL;
	if (i < n && (!strcasecmp(w[i], "read") || !strcasecmp(w[i], "write")))
		c->dir = !strcasecmp(w[i++], "read") ? QUALIFY_READ : QUALIFY_WRITE;
	if (n - i != 3)
		return err_set(msg, msglen, -EINVAL, "a threshold is \"require [read|write] METRIC "
			       "OP VALUE\" (METRIC: IOPS, MB/s, p99, ...; OP: > >= < <=)");
	if (!strcasecmp(w[i], "iops"))
		c->metric = QUALIFY_IOPS;
	else if (!strcasecmp(w[i], "MB/s"))
		c->metric = QUALIFY_MBS;
	else if (parse_pct(w[i], &c->pct))
		c->metric = QUALIFY_PCT;
	else
		return err_set(msg, msglen, -EINVAL, "unknown metric \"%s\" (IOPS, MB/s, or a "
			       "percentile p50, p99, p99.9, ...)", w[i]);
	if (!parse_op(w[i + 1], &c->op))
		return err_set(msg, msglen, -EINVAL, "unknown comparison \"%s\" (> >= < <=)",
			       w[i + 1]);
	if (c->metric != QUALIFY_PCT) {
		if (!parse_plain(w[i + 2], &c->limit))
			return err_set(msg, msglen, -EINVAL, "%s takes a plain number: \"%s\"",
				       c->metric == QUALIFY_IOPS ? "IOPS" : "MB/s", w[i + 2]);
		return 0;
	}
	if (isdigit((unsigned char)w[i + 2][strlen(w[i + 2]) - 1]))
		return err_set(msg, msglen, -EINVAL, "a latency threshold needs a unit (ns, us, ms, "
			       "s): \"%s\"", w[i + 2]);
	for (const char *u = w[i + 2] + decimal_len(w[i + 2]); *u; u++)
		if (!decimal_len(w[i + 2]) || !isalpha((unsigned char)*u))
			return err_set(msg, msglen, -EINVAL, "a latency threshold is a decimal "
				       "number and a unit (ns, us, ms, s): \"%s\"", w[i + 2]);
	if (suffix_parse_time(w[i + 2], UINT64_MAX / 2, &ns, tmsg, sizeof(tmsg)))
		return err_set(msg, msglen, -EINVAL, "not a time: \"%s\"", w[i + 2]);
	c->limit = (double)ns;
	return 0;
}

/* "step NAME OPTION...": into a new step of p. 0 or -EINVAL with msg ("reason"). */
static int parse_step(char **w, int n, struct qualify_profile *p, qualify_words_fn check,
		      void *ctx, char *msg, size_t msglen)
{
	struct qualify_step *s;
	const char *argv[QUALIFY_MAX_WORDS + 1];
	size_t used = 0, oused = 0;
	char cmsg[512];

	if (n < 2)
		return err_set(msg, msglen, -EINVAL, "a step is \"step NAME OPTION...\"");
	if (p->nsteps == QUALIFY_MAX_STEPS)
		return err_set(msg, msglen, -EINVAL, "more than %d steps", QUALIFY_MAX_STEPS);
	if (strlen(w[1]) >= QUALIFY_NAME_MAX || w[1][0] == '-')
		return err_set(msg, msglen, -EINVAL, "bad step name \"%s\" (the name comes before "
			       "the options, at most %d characters)", w[1], QUALIFY_NAME_MAX - 1);
	for (size_t i = 0; i < p->nsteps; i++)
		if (!strcmp(p->steps[i].name, w[1]))
			return err_set(msg, msglen, -EINVAL, "a second step \"%s\"", w[1]);
	s = &p->steps[p->nsteps];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", w[1]);
	for (int i = 2; i < n; i++) {
		size_t len = strlen(w[i]);

		if (w[i][0] != '-' && (i == 2 || w[i - 1][0] != '-'))
			return err_set(msg, msglen, -EINVAL, "step \"%s\": \"%s\" is no option (the "
				       "target is the command line's)", s->name, w[i]);
		if (used + len + 1 > sizeof(s->words) || oused + len + 2 > sizeof(s->options))
			return err_set(msg, msglen, -EINVAL, "step \"%s\": options too long", s->name);
		memcpy(s->words + used, w[i], len + 1);
		used += len + 1;
		oused += (size_t)snprintf(s->options + oused, sizeof(s->options) - oused, "%s%s",
					  oused ? " " : "", w[i]);
		s->nwords++;
	}
	if (check) {
		int argc = qualify_step_argv(s, argv, (int)ARRAY_SIZE(argv));

		if (check(ctx, argc, argv, cmsg, sizeof(cmsg)))
			return err_set(msg, msglen, -EINVAL, "step \"%s\": %s", s->name, cmsg);
	}
	p->nsteps++;
	return 0;
}

/* One line (modified) of a profile. 0 or -EINVAL with msg ("reason"). */
static int parse_line(char *line, struct qualify_profile *p, qualify_words_fn check, void *ctx,
		      char *msg, size_t msglen)
{
	char *w[QUALIFY_MAX_WORDS + 2], *hash = strchr(line, '#');
	struct qualify_step *s = p->nsteps ? &p->steps[p->nsteps - 1] : NULL;
	int n;

	if (hash)
		*hash = '\0';
	n = split_words(line, w, (int)ARRAY_SIZE(w));
	if (n < 0)
		return err_set(msg, msglen, -EINVAL, "more than %d words", QUALIFY_MAX_WORDS);
	if (!n)
		return 0;
	if (!strcmp(w[0], "qualify")) {
		if (n != 2 || strlen(w[1]) >= QUALIFY_NAME_MAX)
			return err_set(msg, msglen, -EINVAL, "the name line is \"qualify NAME\"");
		snprintf(p->name, sizeof(p->name), "%s", w[1]);
		return 0;
	}
	if (!strcmp(w[0], "step"))
		return parse_step(w, n, p, check, ctx, msg, msglen);
	if (!strcmp(w[0], "about") || !strcmp(w[0], "require")) {
		if (!s)
			return err_set(msg, msglen, -EINVAL, "\"%s\" before the first step", w[0]);
		if (!strcmp(w[0], "about")) {
			size_t used = 0;

			for (int i = 1; i < n; i++)
				used += (size_t)snprintf(s->about + used, sizeof(s->about) - used,
							 "%s%s", i > 1 ? " " : "", w[i]);
			return 0;
		}
		if (s->nchecks == QUALIFY_MAX_CHECKS)
			return err_set(msg, msglen, -EINVAL, "more than %d thresholds in a step",
				       QUALIFY_MAX_CHECKS);
		return parse_require(w, n, &s->checks[s->nchecks++], msg, msglen);
	}
	return err_set(msg, msglen, -EINVAL, "unknown keyword \"%s\" (qualify, step, about, "
		       "require)", w[0]);
}

int qualify_parse(const char *text, const char *name, qualify_words_fn check, void *ctx,
		  struct qualify_profile *p, char *msg, size_t msglen)
{
	char line[1024], reason[768];
	unsigned no = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name ? name : "profile");
	while (*text) {
		size_t len = strcspn(text, "\n");

		no++;
		if (len >= sizeof(line))
			return err_set(msg, msglen, -EINVAL, "line %u: longer than %zu characters", no,
				       sizeof(line) - 1);
		memcpy(line, text, len);
		line[len] = '\0';
		text += len + (text[len] == '\n');
		if (memchr(line, '\0', len))
			return err_set(msg, msglen, -EINVAL, "line %u: a NUL byte", no);
		if (parse_line(line, p, check, ctx, reason, sizeof(reason)))
			return err_set(msg, msglen, -EINVAL, "line %u: %s", no, reason);
		if (p->nsteps) {
			struct qualify_step *s = &p->steps[p->nsteps - 1];

			if (!s->line)
				s->line = no;
			if (s->nchecks && !s->checks[s->nchecks - 1].line)
				s->checks[s->nchecks - 1].line = no;
		}
	}
	if (!p->nsteps)
		return err_set(msg, msglen, -EINVAL, "no step (\"step NAME OPTION...\")");
	for (size_t i = 0; i < p->nsteps; i++)
		if (!p->steps[i].nchecks)
			return err_set(msg, msglen, -EINVAL, "line %u: step \"%s\" has no threshold "
				       "(\"require METRIC OP VALUE\")", p->steps[i].line,
				       p->steps[i].name);
	return 0;
}

int qualify_step_argv(struct qualify_step *s, const char **argv, int max)
{
	const char *w = s->words;
	int n = 0;

	if (max < 1)
		return 0;
	argv[n++] = "ioprobe";
	for (int i = 0; i < s->nwords && n < max; i++) {
		argv[n++] = w;
		w += strlen(w) + 1;
	}
	return n;
}

/* ---- judging ---- */

static const struct stats *dir_stats(const struct qualify_measure *m, enum qualify_dir dir)
{
	return dir == QUALIFY_READ ? m->read : dir == QUALIFY_WRITE ? m->write : m->all;
}

double qualify_iops(const struct qualify_measure *m, enum qualify_dir dir)
{
	const struct stats *s = dir_stats(m, dir);

	return s && m->wall_ns ? (double)s->count * NS_PER_S / (double)m->wall_ns : 0;
}

double qualify_mbs(const struct qualify_measure *m, enum qualify_dir dir)
{
	return qualify_iops(m, dir) * (double)m->size / 1e6;
}

static double check_value(const struct qualify_check *c, const struct qualify_measure *m)
{
	const struct stats *s = dir_stats(m, c->dir);

	switch (c->metric) {
	case QUALIFY_IOPS:
		return qualify_iops(m, c->dir);
	case QUALIFY_MBS:
		return qualify_mbs(m, c->dir);
	case QUALIFY_PCT:
		break;
	}
	return s && s->count ? (double)stats_percentile(s, c->pct) : NAN;
}

void qualify_judge(const struct qualify_step *s, const struct qualify_measure *m,
		   struct qualify_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->complete = !m->count || m->requests >= m->count;
	v->pass = v->complete;
	for (size_t i = 0; i < s->nchecks; i++) {
		const struct qualify_check *c = &s->checks[i];
		struct qualify_result *r = &v->r[v->n++];
		bool above = c->op == QUALIFY_GT || c->op == QUALIFY_GE;

		r->check = c;
		r->value = check_value(c, m);
		if (isnan(r->value)) { /* no request of that direction: nothing to hold it to */
			r->pass = false;
			r->margin_pct = NAN;
		} else {
			r->pass = c->op == QUALIFY_GT ? r->value > c->limit :
				  c->op == QUALIFY_GE ? r->value >= c->limit :
				  c->op == QUALIFY_LT ? r->value < c->limit : r->value <= c->limit;
			r->margin_pct = c->limit > 0 ? (above ? r->value - c->limit :
						      c->limit - r->value) / c->limit * 100 : NAN;
		}
		v->pass = v->pass && r->pass;
	}
}

bool qualify_passed(const struct qualify_verdict *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!v[i].pass)
			return false;
	return n > 0;
}

/* ---- formatting ---- */

static const char *op_text(enum qualify_op op)
{
	static const char *const t[] = { ">", ">=", "<", "<=" };

	return t[op];
}

/* The failed comparison's words: 2978 "<" 5000 for a failed "> 5000"; "not >" at equality. */
static const char *op_failed(enum qualify_op op, double value, double limit)
{
	if (value == limit)
		return op == QUALIFY_GT ? "not >" : "not <";
	return op == QUALIFY_GT || op == QUALIFY_GE ? "<" : ">";
}

static const char *dir_text(enum qualify_dir d)
{
	return d == QUALIFY_READ ? "read " : d == QUALIFY_WRITE ? "write " : "";
}

/* A check's metric name: "IOPS", "read MB/s", "write p99.9". */
static void put_metric(struct sbuf *sb, const struct qualify_check *c)
{
	sbuf_puts(sb, dir_text(c->dir));
	if (c->metric == QUALIFY_IOPS)
		sbuf_puts(sb, "IOPS");
	else if (c->metric == QUALIFY_MBS)
		sbuf_puts(sb, "MB/s");
	else
		sbuf_printf(sb, "p%g", c->pct);
}

/* A value in the metric's unit: "2978", "96.6", "19.2 ms"; "-" for none. */
static void put_value(struct sbuf *sb, enum qualify_metric metric, double v)
{
	char b[FMT_BUFSZ];

	if (isnan(v))
		sbuf_puts(sb, "-");
	else if (metric == QUALIFY_IOPS)
		sbuf_printf(sb, "%.0f", v);
	else if (metric == QUALIFY_MBS)
		sbuf_printf(sb, "%.1f", v);
	else
		sbuf_puts(sb, fmt_value(b, sizeof(b), (uint64_t)llround(v), FMT_TIME));
}

/* "IOPS 2978 < 5000" (the failed form) or "MB/s 567.4 > 150" (as asked). */
static void put_compare(struct sbuf *sb, const struct qualify_result *r, bool failed_form)
{
	const struct qualify_check *c = r->check;
	bool iops = c->metric == QUALIFY_IOPS;

	if (iops || c->metric == QUALIFY_PCT) {
		put_metric(sb, c);
		sbuf_putc(sb, ' ');
	} else {
		sbuf_puts(sb, dir_text(c->dir));
	}
	put_value(sb, c->metric, r->value);
	if (c->metric == QUALIFY_MBS)
		sbuf_puts(sb, " MB/s");
	sbuf_printf(sb, " %s ", failed_form && !isnan(r->value) ?
				op_failed(c->op, r->value, c->limit) : op_text(c->op));
	if (c->metric == QUALIFY_MBS)
		sbuf_printf(sb, "%g", c->limit);
	else
		put_value(sb, c->metric, c->limit);
}

void qualify_format_head(struct sbuf *sb, const struct qualify_profile *p, const char *target,
			 const char *desc, uint64_t work_size)
{
	char b[FMT_BUFSZ];

	sbuf_puts(sb, "qualify ");
	esc_puts(sb, p->name); /* the profile's words: shown escaped, never driving the terminal */
	sbuf_puts(sb, ": ");
	esc_puts(sb, target);
	sbuf_puts(sb, " (");
	esc_puts(sb, desc);
	sbuf_printf(sb, "), working set %s, %zu step%s\n",
		    fmt_value(b, sizeof(b), work_size, FMT_SIZE), p->nsteps,
		    p->nsteps == 1 ? "" : "s");
}

static void put_pcts(struct sbuf *sb, const char *label, const struct stats *s)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	char b[FMT_BUFSZ];

	sbuf_printf(sb, "  %sp50/p90/p99/p99.9 = ", label);
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++)
		sbuf_printf(sb, "%s%s", i ? " / " : "",
			    fmt_value(b, sizeof(b), stats_percentile(s, pcts[i]), FMT_TIME));
	sbuf_putc(sb, '\n');
}

void qualify_format_step(struct sbuf *sb, const struct qualify_step *s, size_t i, size_t n,
			 const struct qualify_measure *m, const struct qualify_verdict *v)
{
	char b[FMT_BUFSZ];
	uint64_t done = m->all ? m->all->count : 0;

	sbuf_printf(sb, "\nstep %zu/%zu ", i + 1, n);
	esc_puts(sb, s->name);
	sbuf_puts(sb, ": ");
	esc_puts(sb, s->about[0] ? s->about : s->options);
	sbuf_puts(sb, "\n  options: ");
	esc_puts(sb, s->options);
	sbuf_printf(sb, " (%s engine, depth %u)\n", m->engine, m->depth ? m->depth : 1);
	sbuf_printf(sb, "  %llu requests in %s: %.0f IOPS, %.1f MB/s", (unsigned long long)done,
		    fmt_value(b, sizeof(b), m->wall_ns, FMT_TIME), qualify_iops(m, QUALIFY_ALL),
		    qualify_mbs(m, QUALIFY_ALL));
	if (m->read && m->write)
		sbuf_printf(sb, " (read %.0f IOPS, %.1f MB/s; write %.0f IOPS, %.1f MB/s)",
			    qualify_iops(m, QUALIFY_READ), qualify_mbs(m, QUALIFY_READ),
			    qualify_iops(m, QUALIFY_WRITE), qualify_mbs(m, QUALIFY_WRITE));
	sbuf_putc(sb, '\n');
	if (!v->complete)
		sbuf_printf(sb, "  stopped at %s after %llu of %llu requests: FAIL\n",
			    fmt_value(b, sizeof(b), m->deadline_ns, FMT_TIME),
			    (unsigned long long)m->requests, (unsigned long long)m->count);
	if (m->read && m->read->count)
		put_pcts(sb, "read  ", m->read);
	if (m->write && m->write->count)
		put_pcts(sb, "write ", m->write);
	if (m->have_dev)
		sbuf_printf(sb, "  device %s: aqu-sz %.2f  await %.2f ms  %%util %.1f\n", m->dev,
			    m->aqu, m->await_ms, m->util);
	else
		sbuf_puts(sb, "  device: - (no block device under the target)\n");
	for (size_t k = 0; k < v->n; k++) {
		const struct qualify_result *r = &v->r[k];

		sbuf_puts(sb, "  ");
		put_compare(sb, r, false);
		sbuf_printf(sb, ": %s", r->pass ? "PASS" : "FAIL");
		if (!isnan(r->margin_pct))
			sbuf_printf(sb, " (margin %+.1f %%)", r->margin_pct);
		else if (isnan(r->value))
			sbuf_puts(sb, " (no such request)");
		sbuf_putc(sb, '\n');
	}
}

void qualify_format_final(struct sbuf *sb, const struct qualify_profile *p,
			  const struct qualify_measure *m, const struct qualify_verdict *v,
			  size_t nsteps)
{
	bool any = false;

	sbuf_puts(sb, "\nQUALIFY ");
	esc_puts(sb, p->name);
	sbuf_printf(sb, ": %s", qualify_passed(v, nsteps) ? "PASS" : "FAIL");
	if (qualify_passed(v, nsteps)) {
		sbuf_putc(sb, '\n');
		return;
	}
	for (size_t i = 0; i < nsteps; i++) {
		bool named = false;

		if (v[i].pass)
			continue;
		sbuf_puts(sb, any ? "; " : " (");
		any = true;
		esc_puts(sb, p->steps[i].name);
		sbuf_puts(sb, ": ");
		if (!v[i].complete) {
			sbuf_printf(sb, "%llu of %llu requests in the time allowed",
				    (unsigned long long)m[i].requests,
				    (unsigned long long)m[i].count);
			named = true;
		}
		for (size_t k = 0; k < v[i].n; k++) {
			if (v[i].r[k].pass)
				continue;
			if (named)
				sbuf_puts(sb, "; ");
			named = true;
			put_compare(sb, &v[i].r[k], true);
		}
	}
	sbuf_puts(sb, any ? ")\n" : "\n");
}

/* "key": v, or null when v is not a number. */
static void json_num(struct json_w *w, const char *key, const char *fmt, double v)
{
	if (isnan(v) || isinf(v)) {
		json_w_key(w, key);
		sbuf_puts(w->sb, "null");
	} else {
		json_w_raw(w, key, fmt, v);
	}
}

static void json_dir(struct json_w *w, const char *key, const struct qualify_measure *m,
		     enum qualify_dir dir)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	static const char *const names[] = { "p50", "p90", "p99", "p99.9" };
	const struct stats *s = dir_stats(m, dir);

	if (!s) {
		json_w_key(w, key);
		sbuf_puts(w->sb, "null");
		return;
	}
	json_w_open(w, key);
	json_w_u64(w, "requests", s->count);
	json_num(w, "iops", "%.1f", qualify_iops(m, dir));
	json_num(w, "mbs", "%.3f", qualify_mbs(m, dir));
	json_w_open(w, "latency_ns");
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++)
		json_w_u64(w, names[i], stats_percentile(s, pcts[i]));
	json_w_close(w);
	json_w_close(w);
}

void qualify_json_step(struct sbuf *sb, const struct qualify_step *s,
		       const struct qualify_measure *m, const struct qualify_verdict *v)
{
	struct json_w w = { sb, true, 0, true };
	struct sbuf metric = SBUF_INIT;

	json_w_open(&w, NULL);
	json_w_str(&w, "name", s->name);
	json_w_str(&w, "about", s->about);
	json_w_str(&w, "options", s->options);
	json_w_str(&w, "engine", m->engine);
	json_w_u64(&w, "depth", m->depth ? m->depth : 1);
	json_w_u64(&w, "request_size", m->size);
	json_num(&w, "seconds", "%.6f", (double)m->wall_ns / NS_PER_S);
	json_w_u64(&w, "count_asked", m->count);
	json_w_u64(&w, "requests", m->requests);
	json_w_key(&w, "complete");
	sbuf_puts(sb, v->complete ? "true" : "false");
	json_dir(&w, "all", m, QUALIFY_ALL);
	json_dir(&w, "read", m, QUALIFY_READ);
	json_dir(&w, "write", m, QUALIFY_WRITE);
	if (m->have_dev) {
		json_w_open(&w, "device");
		json_w_str(&w, "name", m->dev);
		json_num(&w, "aqu_sz", "%.2f", m->aqu);
		json_num(&w, "await_ms", "%.2f", m->await_ms);
		json_num(&w, "util", "%.2f", m->util);
		json_w_close(&w);
	} else {
		json_w_key(&w, "device");
		sbuf_puts(sb, "null");
	}
	json_w_key(&w, "checks");
	sbuf_putc(sb, '[');
	for (size_t k = 0; k < v->n; k++) {
		const struct qualify_result *r = &v->r[k];
		struct json_w c = { sb, true, 0, true };

		if (k)
			sbuf_puts(sb, ", ");
		sbuf_reset(&metric);
		put_metric(&metric, r->check);
		json_w_open(&c, NULL);
		json_w_str(&c, "metric", sbuf_str(&metric));
		json_w_str(&c, "op", op_text(r->check->op));
		json_num(&c, "limit", "%.6g", r->check->limit);
		json_num(&c, "value", "%.6g", r->value);
		json_w_key(&c, "pass");
		sbuf_puts(sb, r->pass ? "true" : "false");
		json_num(&c, "margin_pct", "%.2f", r->margin_pct);
		json_w_close(&c);
	}
	sbuf_putc(sb, ']');
	json_w_key(&w, "pass");
	sbuf_puts(sb, v->pass ? "true" : "false");
	json_w_close(&w);
	sbuf_free(&metric);
}
