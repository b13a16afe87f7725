#include "config.h"

#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int out_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int out_write_sbuf(int fd, const struct sbuf *sb)
{
	return sb->error ? sb->error : out_write(fd, sbuf_str(sb), sb->len);
}

int out_guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lower fds are open by now, so this takes exactly fd */
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) < 0)
			return -errno;
	}
	return 0;
}
