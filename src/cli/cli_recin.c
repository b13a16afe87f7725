/*
 * cli_recin: a recording read line by line into events, for each reader of one
 * (--replay's printing, its view, a live run's --report): the file opened (plain or
 * gzip), the lines parsed by recread, what is not a recording refused, and damage — a
 * line damaged or cut short, a compressed stream cut off — found and put in words for
 * the caller to say.
 */
#include "config.h"

#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define RECIN_CHUNK 65536u /* read at a time (and between two looks at the stop) */

int cli_recin_open(struct cli_recin *in, const char *path)
{
	struct stat st;
	int fd;

	*in = (struct cli_recin){ .path = path, .rd = RECREAD_INIT };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_msg("--replay: cannot open \"%s\": %s", path, strerror(errno));
		return CLI_EXIT_PREPARE;
	}
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		cli_msg("--replay: \"%s\" is a directory, not a recording", path);
		close(fd);
		return CLI_EXIT_PREPARE;
	}
	in->gz = gzdopen(fd, "rb"); /* reads a plain file as it is */
	in->ev = calloc(1, sizeof(*in->ev));
	in->buf = malloc(RECIN_CHUNK);
	if (!in->gz || !in->ev || !in->buf) {
		cli_msg("out of memory");
		if (in->gz)
			gzclose(in->gz);
		else
			close(fd);
		free(in->ev);
		free(in->buf);
		*in = (struct cli_recin){ .path = path, .rd = RECREAD_INIT };
		return CLI_EXIT_PREPARE;
	}
	return -1;
}

/* A stop asked for while reading? */
static bool recin_stopped(const struct cli_recin *in)
{
	return in->stop && *in->stop;
}

/*
 * The next line into line (its newline dropped; NUL bytes kept, for the parser to refuse):
 * 1 with *whole set when it ended with a newline, 0 at the end, -1 when the stream is
 * damaged, -2 when the line is longer than CLI_RECIN_LINE_MAX, -3 on a stop.
 */
static int recin_getline(struct cli_recin *in, struct sbuf *line, bool *whole)
{
	sbuf_reset(line);
	*whole = false;
	for (;;) {
		char *nl;
		int n;

		if (in->pos < in->len) {
			nl = memchr(in->buf + in->pos, '\n', in->len - in->pos);
			size_t take = nl ? (size_t)(nl - in->buf) - in->pos : in->len - in->pos;

			sbuf_append(line, in->buf + in->pos, take);
			in->pos += take + (nl ? 1 : 0);
			if (nl) {
				*whole = true;
				return 1;
			}
		}
		if (line->len > CLI_RECIN_LINE_MAX)
			return -2;
		if (recin_stopped(in))
			return -3;
		in->pos = in->len = 0;
		n = gzread(in->gz, in->buf, RECIN_CHUNK);
		if (n > 0) {
			in->len = (size_t)n;
			continue;
		}
		if (n < 0)
			return line->len ? 1 : -1;
		gzerror(in->gz, &n);
		if (n != Z_OK && n != Z_STREAM_END)
			return line->len ? 1 : -1;
		return line->len ? 1 : 0;
	}
}

int cli_recin_read(struct cli_recin *in, int (*each)(void *arg, const struct rec_event *ev),
		   void *arg)
{
	struct sbuf line = SBUF_INIT;
	char msg[MSG_MAX];
	unsigned long lineno = 0;
	int code = -1, ret, got;
	bool whole;

	in->damage[0] = '\0';
	while ((got = recin_getline(in, &line, &whole)) > 0) {
		lineno++;
		if (recin_stopped(in)) {
			got = -3;
			break;
		}
		ret = line.error ? -ENOMEM : recread_line(&in->rd, sbuf_str(&line), line.len, in->ev,
							  msg, sizeof(msg));
		if (ret == 1)
			continue;
		if (ret == -ENOMEM) {
			cli_msg("out of memory");
			code = CLI_EXIT_PREPARE;
			break;
		}
		if (ret == -EPROTO) { /* nothing of it is replayed */
			cli_msg("--replay: %s: %s", in->path, msg);
			code = CLI_EXIT_PREPARE;
			break;
		}
		if (ret && !in->rd.have_header) {
			cli_msg("--replay: %s: not an ioprobe recording (line %lu: %s)", in->path,
				lineno, msg);
			code = CLI_EXIT_PREPARE;
			break;
		}
		if (ret) {
			snprintf(in->damage, sizeof(in->damage), "--replay: %s: line %lu %s (%s); "
				 "replayed up to the line before it", in->path, lineno,
				 whole ? "is damaged" : "is cut short", msg);
			break;
		}
		if ((code = each(arg, in->ev)) >= 0)
			break;
	}
	sbuf_free(&line);
	if (code >= 0)
		return code;
	if (got == -3) {
		cli_msg("--replay: %s: interrupted while reading (after line %lu)", in->path, lineno);
		return CLI_EXIT_OK;
	}
	if (got == -2 && !in->damage[0]) {
		if (!in->rd.have_header) {
			cli_msg("--replay: %s: not an ioprobe recording (line 1 is longer than %u MiB, "
				"the longest a recording's line may be)", in->path,
				CLI_RECIN_LINE_MAX >> 20);
			return CLI_EXIT_PREPARE;
		}
		snprintf(in->damage, sizeof(in->damage), "--replay: %s: line %lu is too long (more "
			 "than %u MiB, the longest a recording's line may be); replayed up to the "
			 "line before it", in->path, lineno + 1, CLI_RECIN_LINE_MAX >> 20);
	}
	if (got < 0 && !in->damage[0]) {
		if (!in->rd.have_header) {
			cli_msg("--replay: %s: not a readable recording", in->path);
			return CLI_EXIT_PREPARE;
		}
		snprintf(in->damage, sizeof(in->damage), "--replay: %s: the compressed stream is "
			 "damaged or cut short after line %lu; replayed up to it", in->path, lineno);
	}
	if (!in->rd.have_header) {
		cli_msg("--replay: %s: empty: no recording in it", in->path);
		return CLI_EXIT_PREPARE;
	}
	return -1;
}

void cli_recin_close(struct cli_recin *in)
{
	if (in->gz)
		gzclose(in->gz);
	recread_free(&in->rd);
	free(in->ev);
	free(in->buf);
	in->gz = NULL;
	in->ev = NULL;
	in->buf = NULL;
}
