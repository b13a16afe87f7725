/*
 * Tests for src/bpf/layers_map.c: a file offset found on the device through
 * the extents (inside one, across its end, in a hole, before and after all of
 * them), and a real file's map where the file system has FIEMAP on a block
 * device.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layers_map.h"

#define KIB UINT64_C(1024)

static struct layers_map *map3(void)
{
	static struct layers_map m; /* ~6 KiB */

	memset(&m, 0, sizeof(m));
	m.dev = 7u << 20;
	m.n = 3; /* [0, 64k) at 1M, hole [64k, 128k), [128k, 192k) at 8M, [192k, 196k) at 4k */
	m.ext[0] = (struct layers_extent){ 0, 1024 * KIB, 64 * KIB };
	m.ext[1] = (struct layers_extent){ 128 * KIB, 8192 * KIB, 64 * KIB };
	m.ext[2] = (struct layers_extent){ 192 * KIB, 4 * KIB, 4 * KIB };
	return &m;
}

Test(layers_map, inside_an_extent)
{
	uint64_t off, len;

	cr_assert(layers_map_find(map3(), 8 * KIB, 4 * KIB, &off, &len));
	cr_assert_eq(off, 1032 * KIB);
	cr_assert_eq(len, 4 * KIB);
	cr_assert(layers_map_find(map3(), 128 * KIB, 4 * KIB, &off, &len));
	cr_assert_eq(off, 8192 * KIB);
	cr_assert(layers_map_find(map3(), 195 * KIB, KIB, &off, &len));
	cr_assert_eq(off, 7 * KIB);
}

Test(layers_map, across_the_extents_end)
{
	uint64_t off, len;

	cr_assert(layers_map_find(map3(), 60 * KIB, 16 * KIB, &off, &len));
	cr_assert_eq(off, 1084 * KIB);
	cr_assert_eq(len, 4 * KIB, "only the bytes of the extent that holds the start");
}

Test(layers_map, holes_and_outside)
{
	uint64_t off = 1, len = 1;

	cr_assert_not(layers_map_find(map3(), 64 * KIB, 4 * KIB, &off, &len));
	cr_assert_not(layers_map_find(map3(), 127 * KIB, 4 * KIB, &off, &len));
	cr_assert_not(layers_map_find(map3(), 196 * KIB, 4 * KIB, &off, &len));
	cr_assert_not(layers_map_find(map3(), UINT64_MAX - 4096, 4 * KIB, &off, &len));
}

Test(layers_map, empty)
{
	static struct layers_map m;
	uint64_t off, len;

	cr_assert_not(layers_map_find(&m, 0, 4 * KIB, &off, &len));
}

Test(layers_map, a_real_file)
{
	static struct layers_map m;
	char path[] = "/var/tmp/ioprobe-test-map-XXXXXX";
	static char buf[64 * 1024];
	int fd = mkstemp(path), err;
	uint64_t off, len;

	cr_assert_geq(fd, 0);
	unlink(path);
	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	err = layers_map_file(&m, fd, 0, sizeof(buf));
	if (err == -ENOTBLK || err == -EOPNOTSUPP) {
		close(fd);
		cr_assert_eq(m.dev, 0);
		cr_skip_test("no FIEMAP on a block device under /var/tmp (%d)", err);
	}
	cr_assert_eq(err, 0);
	cr_assert_neq(m.dev, 0);
	cr_assert_geq(m.n, 1, "the written (synced) bytes have a place");
	cr_assert(layers_map_find(&m, 4096, 4096, &off, &len));
	cr_assert_eq(len, 4096);
	close(fd);
	/* a directory is no regular file */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	cr_assert_eq(layers_map_file(&m, fd, 0, 4096), -ENOTBLK);
	close(fd);
}
