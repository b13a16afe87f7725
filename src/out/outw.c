#include "config.h"

#include "outw.h"

#include "out.h"

void outw_init(struct outw *w, int fd, bool json_lines)
{
	pthread_mutex_init(&w->lock, NULL);
	w->fd = fd;
	w->json_lines = json_lines;
	w->json_started = false;
	w->err = 0;
}

void outw_destroy(struct outw *w)
{
	pthread_mutex_destroy(&w->lock);
}

void outw_keep_err(struct outw *w, int err)
{
	if (err && !w->err)
		w->err = err;
}

int outw_flush(struct outw *w, struct sbuf *sb)
{
	int ret = out_write_sbuf(w->fd, sb);

	sbuf_reset(sb);
	outw_keep_err(w, ret);
	return ret;
}

void outw_json_sep(struct outw *w, struct sbuf *sb)
{
	if (w->json_started && !w->json_lines)
		sbuf_putc(sb, ',');
	w->json_started = true;
}
