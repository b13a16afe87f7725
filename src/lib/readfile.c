#include "config.h"

#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

char *readfile_text(const char *path, int *err)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!buf || fd < 0) {
		*err = fd < 0 ? -errno : -ENOMEM;
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 == cap) {
			char *p = realloc(buf, cap * 2);

			if (!p) {
				*err = -ENOMEM;
				free(buf);
				close(fd);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
	}
	*err = n < 0 ? -errno : 0;
	close(fd);
	buf[len] = '\0';
	if (*err) {
		free(buf);
		return NULL;
	}
	return buf;
}
