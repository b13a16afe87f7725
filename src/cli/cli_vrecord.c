/*
 * cli_vrecord: --record under the view. The view's iostat panels judge each
 * target's intervals on their own device samples (view_params.judged, called
 * from the view's one thread); the k-th sample of every target is gathered
 * into one --iostat block, as --iostat's ticker writes it: the union of the
 * targets' rows, and each target's side (with its own rows when there are
 * several). A block is written whole (recorder_block) once every target has
 * its side, or when a later sample or the end of the view comes first.
 */
#include "config.h"

#include "cli_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devwatch.h"
#include "recorder.h"
#include "recread.h"

struct cli_vside {
	bool expect;             /* under the view: its side is waited for */
	bool have;
	size_t nrows;
	struct rec_row rows[REC_DEVS];
	struct verdict_probe p;
	struct verdict v;
};

struct cli_vrec {
	struct recorder *rec;
	size_t n;
	bool open;               /* a block has sides not yet written */
	uint64_t seq, real;      /* the open block's sample number and device read time */
	struct cli_vside *side;  /* n */
	struct rec_row *all;     /* scratch: the block's union of rows */
	struct iostat_dev_row *drows, *own;
	struct rec_side *rs;
};

int cli_vrec_new(struct recorder *rec, size_t n, struct cli_vrec **out)
{
	struct cli_vrec *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return -ENOMEM;
	v->rec = rec;
	v->n = n;
	v->side = calloc(n, sizeof(*v->side));
	v->all = calloc(REC_DEVS, sizeof(*v->all));
	v->drows = calloc(REC_DEVS, sizeof(*v->drows));
	v->own = calloc(n * REC_DEVS, sizeof(*v->own));
	v->rs = calloc(n, sizeof(*v->rs));
	if (!v->side || !v->all || !v->drows || !v->own || !v->rs) {
		cli_vrec_free(v);
		return -ENOMEM;
	}
	*out = v;
	return 0;
}

/* Add the rows of one side to the block's union (by device name, first seen first). */
static size_t cli_vrec_union(struct cli_vrec *v, const struct cli_vside *sd, size_t nall)
{
	for (size_t k = 0; k < sd->nrows; k++) {
		size_t j = 0;

		while (j < nall && strcmp(v->all[j].name, sd->rows[k].name))
			j++;
		if (j == nall && nall < REC_DEVS)
			v->all[nall++] = sd->rows[k];
	}
	return nall;
}

/* Write the open block (the sides it has) and close it. */
static void cli_vrec_flush(struct cli_vrec *v)
{
	size_t nall = 0, ns = 0;

	if (!v->open)
		return;
	for (size_t i = 0; i < v->n; i++)
		if (v->side[i].have)
			nall = cli_vrec_union(v, &v->side[i], nall);
	for (size_t k = 0; k < nall; k++)
		v->drows[k] = (struct iostat_dev_row){ v->all[k].name, &v->all[k].row };
	for (size_t i = 0; i < v->n; i++) {
		struct cli_vside *sd = &v->side[i];
		struct iostat_dev_row *own = &v->own[i * REC_DEVS];

		if (!sd->have)
			continue;
		for (size_t k = 0; k < sd->nrows; k++)
			own[k] = (struct iostat_dev_row){ sd->rows[k].name, &sd->rows[k].row };
		v->rs[ns++] = (struct rec_side){ i, v->n > 1 ? own : NULL, v->n > 1 ? sd->nrows : 0,
						 &sd->p, &sd->v };
		sd->have = false;
	}
	recorder_block(v->rec, v->real, v->drows, nall, v->rs, ns);
	v->open = false;
}

void cli_vrec_expect(struct cli_vrec *v, size_t i)
{
	v->side[i].expect = true;
}

void cli_vrec_judged(struct cli_vrec *v, size_t i, uint64_t seq, uint64_t real,
		     const struct iostat_dev_row *rows, size_t n, const struct verdict_probe *p,
		     const struct verdict *vd)
{
	struct cli_vside *sd = &v->side[i];
	bool whole = true;

	if (v->open && (seq != v->seq || sd->have))
		cli_vrec_flush(v); /* a later sample (or the same target again): the block is over */
	if (!v->open) {
		v->open = true;
		v->seq = seq;
		v->real = real;
	}
	sd->have = true;
	sd->nrows = 0;
	for (size_t k = 0; k < n && k < REC_DEVS; k++) {
		struct rec_row *w = &sd->rows[sd->nrows++];

		snprintf(w->name, sizeof(w->name), "%s", rows[k].name);
		w->row = *rows[k].row;
	}
	sd->p = *p;
	sd->v = *vd;
	for (size_t k = 0; k < v->n; k++)
		whole &= v->side[k].have || !v->side[k].expect;
	if (whole)
		cli_vrec_flush(v);
}

void cli_vrec_end(struct cli_vrec *v)
{
	if (v)
		cli_vrec_flush(v);
}

void cli_vrec_free(struct cli_vrec *v)
{
	if (!v)
		return;
	free(v->side);
	free(v->all);
	free(v->drows);
	free(v->own);
	free(v->rs);
	free(v);
}
