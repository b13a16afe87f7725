#include "config.h"

#include "promfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"

bool promfile_name_ok(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	return len > 5 && !strcmp(base + len - 5, ".prom");
}

int promfile_write(const char *path, const char *text, size_t len)
{
	char tmp[4096 + 32];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = out_write(fd, text, len);
	if (fchmod(fd, 0644) && !err) /* readable by node_exporter whatever the umask */
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
