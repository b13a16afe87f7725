/*
 * cli_report: --report FILE.html, the file: created before anything is read
 * or probed (an existing name is refused, as every file ioprobe makes:
 * O_CREAT|O_EXCL|O_NOFOLLOW, checked with fstat), written in one piece at the
 * end from what htmlreport composed, removed again when there is nothing to
 * put in it.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_report_create(const struct opts *o, int *code)
{
	struct stat st;
	int fd = open(o->report, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0) {
		if (errno == EEXIST) {
			cli_msg("--report: \"%s\" exists: a report is never overwritten (remove it or "
				"choose another name)", o->report);
			*code = CLI_EXIT_USAGE;
		} else {
			cli_msg("--report: cannot create \"%s\": %s", o->report, strerror(errno));
			*code = CLI_EXIT_PREPARE;
		}
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cli_msg("--report: \"%s\" is not a regular file", o->report);
		close(fd);
		*code = CLI_EXIT_PREPARE;
		return -1;
	}
	return fd;
}

void cli_report_drop(const struct opts *o, int fd)
{
	close(fd);
	unlink(o->report);
}

int cli_report_write(const struct opts *o, int fd, const struct hr_run *r)
{
	struct sbuf sb = SBUF_INIT;
	size_t done = 0;
	int err = htmlreport_write(&sb, r);

	while (!err && done < sb.len) {
		ssize_t n = write(fd, sb.buf + done, sb.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	sbuf_free(&sb);
	if (!err && close(fd))
		err = -errno;
	else if (err)
		close(fd);
	if (err) {
		cli_msg("--report: cannot write \"%s\": %s", o->report, strerror(-err));
		unlink(o->report);
		return CLI_EXIT_PREPARE;
	}
	return 0;
}
