#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "devstack.h"
#include "devwatch.h"
#include "fiojob.h"
#include "iostat.h"
#include "msg.h"
#include "out.h"
#include "sbuf.h"
#include "usage.h"

/* Is name one of the comma-separated names in list? */
static bool cli_name_listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strcspn(p, ",") == len && !strncmp(p, name, len))
			return true;
	}
	return false;
}

/*
 * Each target's own device (the first of its stack), each once, comma
 * separated into sb: the devices --fio-job imitates when --iostat names none.
 * Returns 0 or -errno.
 */
static int cli_fio_job_own(const struct opts *o, struct sbuf *sb)
{
	struct devstack *ds = calloc(1, sizeof(*ds));
	int ret = 0;

	if (!ds)
		return -ENOMEM;
	for (unsigned i = 0; i < o->npaths && !ret; i++) {
		if (devwatch_stack(o->paths[i], ds) || !ds->ndev ||
		    cli_name_listed(sbuf_str(sb), ds->dev[0].name))
			continue;
		ret = sbuf_printf(sb, "%s%s", sb->len ? "," : "", ds->dev[0].name);
	}
	free(ds);
	return ret;
}

/*
 * --fio-job: watch the targets' devices (or the devices named with --iostat)
 * for the window without issuing a single request, then print a fio job that
 * imitates what they did: one section per device, which fio runs side by
 * side. A signal ends the window early (the job covers what was seen).
 * Returns the exit code.
 */
int cli_fio_job(const struct opts *o)
{
	struct devwatch *w = malloc(sizeof(*w));
	struct sbuf sb = SBUF_INIT, own = SBUF_INIT;
	const char *pick;
	char msg[MSG_MAX];
	uint64_t t0;
	double seconds;
	int ret, code = CLI_EXIT_OK, jobs = 0;

	if (!w || cli_fio_job_own(o, &own)) {
		cli_msg("out of memory");
		code = CLI_EXIT_PREPARE;
		goto out;
	}
	ret = o->npaths > 1 ? devwatch_for_paths(w, o->paths, o->npaths, o->iostat_devices, msg,
						 sizeof(msg))
			    : devwatch_for_path(w, o->path, o->iostat_devices, msg, sizeof(msg));
	if (!ret && (ret = devwatch_sample(w, NULL, 0)))
		err_set(msg, sizeof(msg), ret, "--fio-job: cannot read /proc/diskstats: %s",
			strerror(-ret));
	if (ret) {
		cli_msg("%s", msg);
		code = CLI_EXIT_PREPARE;
		goto out;
	}
	pick = o->iostat_devices ? o->iostat_devices : sbuf_str(&own);
	t0 = clock_now();
	clock_wait_until(t0 + o->fio_job_window, &cli_stop);
	seconds = (double)(clock_now() - t0) / NS_PER_S;
	if ((ret = devwatch_sample(w, NULL, 0))) {
		cli_msg("--fio-job: cannot read /proc/diskstats: %s", strerror(-ret));
		code = CLI_EXIT_PREPARE;
		goto out;
	}
	fiojob_global(&sb, seconds, usage_version());
	for (size_t i = 0; i < w->ndev; i++) {
		const struct devwatch_dev *d = &w->dev[i];
		struct fiojob_dev fd = { d->name, d->row, d->max_sectors_kb };

		if (!cli_name_listed(pick, d->name))
			continue;
		if (d->state != DEVWATCH_OK) {
			cli_msg("--fio-job: %s: no complete interval to read", d->name);
			continue;
		}
		if (!fiojob_section(&sb, &fd))
			jobs++;
		else
			cli_msg("%s: no reads or writes in %.1f s, nothing to imitate", d->name,
				seconds);
	}
	if (!jobs)
		code = CLI_EXIT_PREPARE;
	else if ((ret = out_write_sbuf(STDOUT_FILENO, &sb)))
		code = cli_out_error(ret);
out:
	sbuf_free(&sb);
	sbuf_free(&own);
	free(w);
	return code;
}
