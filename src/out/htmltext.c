/*
 * htmltext: the report's text helpers (htmlreport_int.h): escaping, a
 * latency for people, a turned axis label. A leaf: htmlreport.c and
 * htmlsweep.c both call it. Pure: no I/O.
 */
#include "config.h"

#include "common.h"
#include "htmlreport_int.h"

#include <stdint.h>

void hr_esc(struct sbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sbuf_puts(sb, "&amp;"); break;
		case '<': sbuf_puts(sb, "&lt;"); break;
		case '>': sbuf_puts(sb, "&gt;"); break;
		case '"': sbuf_puts(sb, "&quot;"); break;
		case '\'': sbuf_puts(sb, "&#39;"); break;
		default:
			if ((unsigned char)*s < 0x20)
				sbuf_putc(sb, ' ');
			else
				sbuf_putc(sb, *s);
		}
	}
}

/* A latency for people: "812 µs", "9.97 ms", "1.20 s". */
void hr_lat(struct sbuf *sb, uint64_t ns)
{
	if (ns < 1000)
		sbuf_printf(sb, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		sbuf_printf(sb, "%.3g µs", ns / 1e3);
	else if (ns < 1000000000)
		sbuf_printf(sb, "%.3g ms", ns / 1e6);
	else
		sbuf_printf(sb, "%.3g s", ns / NS_PER_S);
}

/* A y axis label, turned, left of x0. */
void hr_ylabel(struct sbuf *sb, const char *text, double x, double ymid)
{
	sbuf_printf(sb, "<text class=\"axis-label y\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		    "transform=\"rotate(-90 %.1f %.1f)\">%s</text>", x, ymid, x, ymid, text);
}
