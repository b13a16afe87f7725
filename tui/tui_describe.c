#include "config.h"

#include "tui_describe.h"

#include <inttypes.h>
#include <stdio.h>

#include "esc.h"
#include "sbuf.h"
#include "tui_fmt.h"

char *tui_describe_target(char *buf, size_t len, const struct report_target *rt)
{
	struct sbuf sb = SBUF_INIT;

	if (rt->name) {
		esc_puts(&sb, rt->name);
		sbuf_puts(&sb, ": ");
	}
	esc_puts(&sb, rt->path);
	sbuf_puts(&sb, " (");
	report_target_desc(&sb, rt);
	sbuf_putc(&sb, ')');
	snprintf(buf, len, "%s", sb.error ? rt->path : sbuf_str(&sb));
	sbuf_free(&sb);
	return buf;
}

char *tui_describe_mode(char *buf, size_t len, const struct view_cfg *o, const char *engine)
{
	struct tui_mode m = {
		.write = o->write, .read_write = o->read_write, .direct = o->direct,
		.cached = o->cached, .sync = o->sync, .dsync = o->dsync, .engine = engine,
	};

	return tui_fmt_mode(buf, len, &m);
}

char *tui_describe_pace(char *buf, size_t len, const struct view_cfg *o, uint64_t interval,
			bool changed, bool ascii)
{
	char a[TUI_FMT_LEN], b[TUI_FMT_LEN], burst[48] = "";

	if (o->burst > 1)
		snprintf(burst, sizeof(burst), "bursts of %" PRIu64 " ", o->burst);
	tui_fmt_span(a, sizeof(a), interval, ascii);
	if (!interval)
		snprintf(buf, len, "%sflood (interval 0)", burst);
	else if (!changed && o->rate_limit > 0)
		snprintf(buf, len, "%srate %s/s (every %s)", burst,
			 tui_fmt_rate(b, sizeof(b), o->rate_limit), a);
	else if (!changed && o->speed_limit)
		snprintf(buf, len, "%sspeed %s/s (every %s)", burst,
			 tui_fmt_bytes(b, sizeof(b), (double)o->speed_limit), a);
	else
		snprintf(buf, len, "%severy %s", burst, a);
	return buf;
}

char *tui_describe_period(char *buf, size_t len, const struct view_cfg *o, uint64_t period,
			  bool ascii)
{
	char a[TUI_FMT_LEN];

	if (o->print_count)
		snprintf(buf, len, "-p %" PRIu64, o->print_count);
	else if (o->print_interval)
		snprintf(buf, len, "-P %s", tui_fmt_span(a, sizeof(a), o->print_interval, ascii));
	else
		snprintf(buf, len, "%s", tui_fmt_span(a, sizeof(a), period, ascii));
	return buf;
}
