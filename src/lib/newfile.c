#include "config.h"

#include "newfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "rng.h"

#define NEWFILE_TRIES 100

int newfile_create(int dirfd, const char *prefix, int flags, mode_t mode, char *name,
		   size_t namelen)
{
	struct rng rng;
	int fd = -EEXIST;

	rng_seed(&rng, clock_now() ^ (uint64_t)getpid() << 32);
	for (int i = 0; i < NEWFILE_TRIES && fd == -EEXIST; i++) {
		if (snprintf(name, namelen, "%s.%012llx", prefix,
			     (unsigned long long)(rng_next(&rng) & 0xffffffffffffull)) >=
		    (int)namelen)
			return -ENAMETOOLONG;
		fd = openat(dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
			    O_NOCTTY, mode);
		if (fd < 0)
			fd = -errno;
	}
	return fd;
}
