/*
 * recread: a recording's lines (recfmt.h) read back, one at a time, into
 * events a replay feeds to the report, iostat and verdict modules. The
 * header must come first; a line of a later format version is refused; a
 * type this version does not know is skipped (a newer minor addition); any
 * line that is not JSON, lacks a key its type needs or holds a number out of
 * range is damage (the caller stops there). Pure: no I/O.
 */
#ifndef IOPROBE_RECREAD_H
#define IOPROBE_RECREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "iostat.h"
#include "jsonr.h"
#include "layerstat.h"
#include "msg.h"
#include "recfmt.h"
#include "sample.h"
#include "verdict.h"

enum rec_kind {
	REC_HEADER, REC_PERIOD, REC_REQUEST, REC_IOSTAT, REC_VERDICT, REC_WARNING, REC_FAILURE,
	REC_SUMMARY, REC_END, REC_SKIPPED, REC_STEP, REC_KNEE,
};

struct rec_row {
	char name[REC_NAME_LEN];
	struct iostat_row row;
};

/* One line's content (the fields its kind uses; the rest are left as they were). */
struct rec_event {
	enum rec_kind kind;
	size_t target;              /* period, request, verdict, summary; failure/warning: */
	long target_or_run;         /* ... -1 for the run's own */
	uint64_t seq, mono, real;
	struct tally tally;         /* period, summary (total) */
	struct rec_errors errors;   /* period */
	bool split;                 /* summary: read and write are there (-G) */
	struct stats read, write;
	bool have_layers;           /* summary: --layers' tally is there */
	struct layer_tally layers;
	uint64_t hi, step, n;       /* skipped */
	struct sample sample;       /* request */
	enum notice notice;
	size_t nrows;               /* iostat: the block's rows; verdict: its own (own_rows) */
	bool own_rows;
	struct rec_row row[REC_DEVS];
	struct verdict_probe probe; /* verdict: the per-interval fields */
	char state[32], reason[48]; /* verdict: as recorded (the replay judges again) */
	int ret;                    /* summary: the probe's result; end: the exit code */
	char text[MSG_MAX];         /* warning, failure, summary message, verdict text; step: its
				     * verdict line; knee: the conclusions' lines */
	bool grid;                  /* step, knee: of a size x depth grid */
	struct sweep_row srow;      /* step: its row (verdict points at text); seq: its number */
	char line[512];             /* step: the table row as printed */
	long knee, best, limit;     /* knee: step numbers, -1 none */
};

struct recread {
	struct jsonr j;
	bool have_header;
	struct rec_header h;        /* valid once have_header */
	char **owned;               /* the header's strings and arrays */
	size_t nowned;
};

#define RECREAD_INIT { JSONR_INIT, false, { 0 }, NULL, 0 }

/*
 * Read one line (without its newline) into ev. Returns 0 (ev filled), 1 (a
 * line to skip: empty or of an unknown type), -EINVAL (damage; msg says
 * what), -EPROTO (not a recording, or a later version; msg says which) or
 * -ENOMEM. The header fills recread's h, and ev->kind = REC_HEADER.
 */
int recread_line(struct recread *rd, const char *line, size_t len, struct rec_event *ev,
		 char *msg, size_t msglen);

/* Release what the reader holds. */
void recread_free(struct recread *rd);

/*
 * Judge a recorded --iostat block again for target rt: rows[0 .. nrows) the
 * block's device rows (rt's own stack's or the table's), got the recorded
 * verdict input's per-interval fields (period, requests, skipped, p50, p99,
 * sum, max, in flight), copied into *vp (whose run settings stay) before
 * verdict_judge() with the history vh fills *v. Pure.
 */
void recread_judge(struct verdict_hist *vh, struct verdict_probe *vp, const struct rec_target *rt,
		   const struct rec_row *rows, size_t nrows, const struct verdict_probe *got,
		   struct verdict *v);

/* Parse a notice's recorded name ("", "warmup", ... "error", "empty"); -1 if unknown. */
int rec_notice_parse(const char *name);

#endif
