#include "config.h"

#include "influx.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (len bytes left), 0 when none starts there. */
static size_t influx_utf8_len(const unsigned char *s, size_t len)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
	    s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
	if (!n || len < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static bool influx_special(char c, enum influx_part part)
{
	switch (part) {
	case INFLUX_MEASUREMENT: return c == ',' || c == ' ';
	case INFLUX_TAG: return c == ',' || c == '=' || c == ' ';
	case INFLUX_FIELD_STRING: return c == '"' || c == '\\';
	}
	return false;
}

void influx_escape(struct sbuf *sb, const char *s, enum influx_part part)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s);
	bool str = part == INFLUX_FIELD_STRING;

	if (str)
		sbuf_putc(sb, '"');
	for (size_t i = 0; i < len;) {
		size_t n = influx_utf8_len(u + i, len - i);
		bool bad = !n || (!str && (u[i] < ' ' || u[i] == 0x7f)) ||
			   (!str && u[i] == '\\' && i + 1 == len);

		if (bad) {
			sbuf_puts(sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		/* a backslash before a special character or another backslash is doubled: two
		 * contiguous backslashes read as one, so "a\\ b" is not taken for an escaped
		 * backslash and the end of the tag set; elsewhere a backslash is literal */
		if (n == 1 && (influx_special(s[i], part) ||
			       (!str && s[i] == '\\' && i + 1 < len &&
				(s[i + 1] == '\\' || influx_special(s[i + 1], part)))))
			sbuf_putc(sb, '\\');
		sbuf_append(sb, s + i, n);
		i += n;
	}
	if (str)
		sbuf_putc(sb, '"');
}

/* ",key=value" with value in ms from ns (plain decimal, a float to the parser). */
static void influx_ms(struct sbuf *sb, const char *key, double ns)
{
	sbuf_printf(sb, ",%s=%.6f", key, ns / 1e6);
}

/* The latency fields of v (min, avg, the percentiles of pc, max), each key after prefix. */
static void influx_stats(struct sbuf *sb, const char *prefix, const struct stats *v,
			 const struct pcts *pc)
{
	char name[48], key[32];

	snprintf(name, sizeof(name), "%smin_ms", prefix);
	influx_ms(sb, name, (double)stats_min(v));
	snprintf(name, sizeof(name), "%savg_ms", prefix);
	influx_ms(sb, name, stats_mean(v));
	for (unsigned i = 0; i < pc->n; i++) {
		snprintf(name, sizeof(name), "%s%s_ms", prefix, pcts_key(pc->p[i], key, sizeof(key)));
		influx_ms(sb, name, (double)stats_percentile(v, pc->p[i]));
	}
	snprintf(name, sizeof(name), "%smax_ms", prefix);
	influx_ms(sb, name, (double)v->max);
}

/* The layer fields of l (--layers): counts always, times and pieces once a request had a device. */
static void influx_layers(struct sbuf *sb, const struct layer_tally *l)
{
	char name[48];

	sbuf_printf(sb, ",layer_requests=%" PRIu64 "i,layer_no_device=%" PRIu64 "i", l->requests,
		    l->no_device);
	if (l->requests == l->no_device)
		return;
	sbuf_printf(sb, ",layer_pieces=%.3f", layer_tally_pieces(l));
	for (int i = 0; i < LAYERS_N; i++) {
		snprintf(name, sizeof(name), "layer_%s_avg_ms", layer_name((enum layer)i));
		influx_ms(sb, name, stats_mean(&l->layer[i]));
		snprintf(name, sizeof(name), "layer_%s_p99_ms", layer_name((enum layer)i));
		influx_ms(sb, name, (double)stats_percentile(&l->layer[i], 99));
	}
}

int influx_line(struct sbuf *sb, const struct influx_point *p)
{
	influx_escape(sb, "ioprobe", INFLUX_MEASUREMENT);
	sbuf_puts(sb, ",target=");
	influx_escape(sb, p->target, INFLUX_TAG);
	if (p->name) {
		sbuf_puts(sb, ",name=");
		influx_escape(sb, p->name, INFLUX_TAG);
	}
	sbuf_puts(sb, ",operation=");
	influx_escape(sb, p->operation, INFLUX_TAG);
	if (p->device && *p->device) {
		sbuf_puts(sb, ",device=");
		influx_escape(sb, p->device, INFLUX_TAG);
	}
	sbuf_printf(sb, " requests=%" PRIu64 "i,errors=%" PRIu64 "i,bytes=%" PRIu64 "i",
		    p->requests, p->errors, p->bytes);
	sbuf_printf(sb, ",in_flight=%ui,oldest_in_flight_ms=%.3f,skipped=%" PRIu64 "i",
		    p->in_flight, p->oldest_ms >= 0 ? p->oldest_ms : 0, p->skipped);
	if (p->valid && p->valid->count)
		influx_stats(sb, "", p->valid, p->pcts ? p->pcts : &pcts_default);
	if (p->response && p->response->count)
		influx_stats(sb, "resp_", p->response, p->pcts ? p->pcts : &pcts_default);
	if (p->layers)
		influx_layers(sb, p->layers);
	if (p->verdict) {
		sbuf_puts(sb, ",verdict=");
		influx_escape(sb, p->verdict, INFLUX_FIELD_STRING);
		sbuf_puts(sb, ",reason=");
		influx_escape(sb, p->reason ? p->reason : "", INFLUX_FIELD_STRING);
	}
	sbuf_printf(sb, " %" PRIu64 "\n", p->time);
	return sb->error;
}
