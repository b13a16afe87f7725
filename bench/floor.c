/*
 * floor: the bare loop ioprobe is measured against in bench/run.py. It times
 * N single 4 KiB requests at random aligned offsets of a (cached) file with
 * nothing else in the loop — no pacing, no statistics, no output — and prints
 * the average latency in ns. Usage: floor sync|io_uring FILE COUNT
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if HAVE_LIBURING
#include <liburing.h>
#endif

#define REQ 4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	uint64_t count, blocks, seed = 42, sum = 0;
	struct stat st;
	void *buf;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: floor sync|io_uring FILE COUNT\n");
		return 1;
	}
	count = strtoull(argv[3], NULL, 0);
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < REQ || !count) {
		fprintf(stderr, "floor: cannot use %s\n", argv[2]);
		return 1;
	}
	blocks = (uint64_t)st.st_size / REQ;
	if (posix_memalign(&buf, 4096, REQ))
		return 1;
	if (!strcmp(argv[1], "sync")) {
		for (uint64_t i = 0; i < count; i++) {
			off_t off = (off_t)(xorshift(&seed) % blocks * REQ);
			uint64_t t0 = now_ns();

			if (pread(fd, buf, REQ, off) != REQ)
				return 1;
			sum += now_ns() - t0;
		}
#if HAVE_LIBURING
	} else if (!strcmp(argv[1], "io_uring")) {
		struct io_uring ring;
		struct iovec iov = { buf, REQ };

		if (io_uring_queue_init(1, &ring, 0) || io_uring_register_files(&ring, &fd, 1) ||
		    io_uring_register_buffers(&ring, &iov, 1))
			return 1;
		for (uint64_t i = 0; i < count; i++) {
			uint64_t off = xorshift(&seed) % blocks * REQ;
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			struct io_uring_cqe *cqe;
			uint64_t t0 = now_ns();

			io_uring_prep_read_fixed(sqe, 0, buf, REQ, off, 0);
			sqe->flags |= IOSQE_FIXED_FILE;
			io_uring_submit_and_wait(&ring, 1);
			if (io_uring_wait_cqe(&ring, &cqe) || cqe->res != REQ)
				return 1;
			io_uring_cqe_seen(&ring, cqe);
			sum += now_ns() - t0;
		}
		io_uring_queue_exit(&ring);
#endif
	} else {
		fprintf(stderr, "floor: unknown mode %s\n", argv[1]);
		return 1;
	}
	printf("%llu\n", (unsigned long long)(sum / count));
	free(buf);
	close(fd);
	return 0;
}
