#include "config.h"

#include "promfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "newfile.h"
#include "out.h"

bool promfile_name_ok(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	return len > 5 && !strcmp(base + len - 5, ".prom");
}

/*
 * Create a new temporary file beside path: a random name, O_CREAT|O_EXCL|O_NOFOLLOW (never
 * through a link, a FIFO or a file planted at a guessed name: those are EEXIST, and another
 * name is drawn), O_NONBLOCK, then fstat to be a regular file (*ino). Returns the descriptor
 * with the name in tmp, or -errno.
 */
static int promfile_create(const char *path, char *tmp, size_t tmplen, struct stat *ino)
{
	char prefix[4096 + 8];
	struct stat st;
	int fd;

	if (snprintf(prefix, sizeof(prefix), "%s.tmp", path) >= (int)sizeof(prefix))
		return -ENAMETOOLONG;
	fd = newfile_create(AT_FDCWD, prefix, O_WRONLY | O_NONBLOCK, 0644, tmp, tmplen);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) { /* cannot be, after O_EXCL: never write */
		close(fd);
		return -EEXIST;
	}
	*ino = st;
	return fd;
}

/* Remove tmp only while the name still refers to the file created as *mine. */
static void promfile_discard(const char *tmp, const struct stat *mine)
{
	struct stat now;

	if (!lstat(tmp, &now) && now.st_dev == mine->st_dev && now.st_ino == mine->st_ino)
		unlink(tmp);
}

int promfile_write(const char *path, const char *text, size_t len)
{
	char tmp[4096 + 32];
	struct stat mine;
	int fd, err;

	fd = promfile_create(path, tmp, sizeof(tmp), &mine);
	if (fd < 0)
		return fd;
	err = out_write(fd, text, len);
	if (fchmod(fd, 0644) && !err) /* readable by node_exporter whatever the umask */
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		promfile_discard(tmp, &mine);
	return err;
}
