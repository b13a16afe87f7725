/*
 * htmlreport_int: what the report's parts share (htmlreport.c draws the
 * run, htmlsweep.c a --sweep's table and plot, htmltext.c the text helpers
 * both use): the plot geometry and the helpers. Internal to those files.
 */
#ifndef IOPROBE_HTMLREPORT_INT_H
#define IOPROBE_HTMLREPORT_INT_H

#include <stdint.h>

#include "htmlreport.h"
#include "sbuf.h"

#define W 1040.0    /* every plot's width */
#define X0 76.0     /* the plot area's left edge */
#define X1 1020.0   /* ... right edge */

/* Text for HTML: & < > " ' escaped, control characters as spaces. */
void hr_esc(struct sbuf *sb, const char *s);

/* A latency for people: "812 µs", "9.97 ms", "1.20 s". */
void hr_lat(struct sbuf *sb, uint64_t ns);

/* A y axis label, turned, left of its plot, centred on ymid. */
void hr_ylabel(struct sbuf *sb, const char *text, double x, double ymid);

/* A --sweep's section of target i: its plot, its table and its conclusions. */
void hr_sweep_section(struct sbuf *sb, const struct hr_target *tg, size_t i);

#endif
