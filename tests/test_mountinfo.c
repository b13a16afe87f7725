#include <criterion/criterion.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"
#include "sbuf.h"

/* Lines as found on a real machine (this sandbox plus a typical desktop/container). */
#define L_ROOT   "27 1 254:0 / / rw,relatime - ext4 /dev/vda " \
		 "rw,discard,resv_strict,resuid=65534,resgid=65534"
#define L_PROC   "22 27 0:21 / /proc rw,relatime - proc proc rw"
#define L_SYS    "23 27 0:22 / /sys rw,relatime - sysfs sysfs rw"
#define L_DEV    "24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs " \
		 "rw,size=12334460k,nr_inodes=3083615,mode=755"
#define L_SHM1   "25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k"
#define L_PTS1   "26 24 0:24 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=000"
#define L_PTS2   "29 26 0:26 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=000"
#define L_SHM2   "30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k"
#define L_CG     "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755"
#define L_CGCPU  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu"
#define L_CGACCT "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct"
#define L_OVL    "1071 1070 0:118 / / rw,relatime master:1 - overlay overlay " \
		 "rw,lowerdir=/var/lib/docker/overlay2/l/AB3:/var/lib/docker/overlay2/l/CD7," \
		 "upperdir=/var/lib/docker/overlay2/9f/diff," \
		 "workdir=/var/lib/docker/overlay2/9f/work"
#define L_GVFS   "60 29 0:52 / /run/user/1000/gvfs rw,nosuid,nodev,relatime shared:130 - " \
		 "fuse.gvfsd-fuse gvfsd-fuse rw,user_id=1000,group_id=1000"
#define L_SSHFS  "71 29 0:55 / /home/u/remote\\040dir rw,nosuid,nodev,relatime shared:140 - " \
		 "fuse.sshfs u@host:/srv/my\\040files rw,user_id=1000,group_id=1000"
#define L_BIND   "120 27 254:0 /var/lib/data /data rw,relatime - ext4 /dev/vda rw"
#define L_PROP3  "36 35 98:0 /mnt1 /mnt2 rw,noatime shared:1 master:2 propagate_from:3 - " \
		 "ext3 /dev/root rw,errors=continue"

/* The machine's table, in /proc/self/mountinfo order, with a trailing newline. */
#define SANDBOX L_PROC "\n" L_SYS "\n" L_DEV "\n" L_SHM1 "\n" L_PTS1 "\n" L_ROOT "\n" \
		L_PTS2 "\n" L_SHM2 "\n" L_CG "\n" L_CGCPU "\n" L_CGACCT "\n"

/* A heap entry of exactly the struct size, so ASan catches any overflow. */
static struct mountinfo_entry *new_entry(void)
{
	struct mountinfo_entry *e = malloc(sizeof(*e));

	cr_assert_not_null(e);
	memset(e, 0x5a, sizeof(*e));
	return e;
}

static void expect_entry(const struct mountinfo_entry *e, unsigned major, unsigned minor,
			 const char *root, const char *mp, const char *fstype, const char *source)
{
	cr_assert_eq(e->major, major);
	cr_assert_eq(e->minor, minor);
	cr_assert_str_eq(e->root, root);
	cr_assert_str_eq(e->mount_point, mp);
	cr_assert_str_eq(e->fstype, fstype);
	cr_assert_str_eq(e->source, source);
}

static void expect_parsed(const char *line, unsigned major, unsigned minor, const char *root,
			  const char *mp, const char *fstype, const char *source)
{
	struct mountinfo_entry *e = new_entry();

	cr_assert_eq(mountinfo_parse_line(line, e), 0, "rejected: %s", line);
	expect_entry(e, major, minor, root, mp, fstype, source);
	free(e);
}

/* line must be rejected with -EINVAL, leaving e untouched. */
static void expect_rejected(const char *line)
{
	struct mountinfo_entry *e = new_entry();
	struct mountinfo_entry *copy = new_entry();

	cr_assert_eq(mountinfo_parse_line(line, e), -EINVAL, "accepted: \"%s\"", line);
	cr_assert_eq(memcmp(e, copy, sizeof(*e)), 0, "entry written for: %s", line);
	free(e);
	free(copy);
}

Test(mountinfo, parse_real_lines)
{
	expect_parsed(L_ROOT, 254, 0, "/", "/", "ext4", "/dev/vda");
	expect_parsed(L_PROC, 0, 21, "/", "/proc", "proc", "proc");
	expect_parsed(L_SHM1, 0, 23, "/", "/dev/shm", "tmpfs", "tmpfs");
	expect_parsed(L_DEV, 0, 6, "/", "/dev", "devtmpfs", "devtmpfs");
	expect_parsed(L_BIND, 254, 0, "/var/lib/data", "/data", "ext4", "/dev/vda");
	expect_parsed("28 27 0:25 / /mnt/sandboxing/model_tools_env/v1/python "
		      "ro,nosuid,nodev,relatime - tmpfs model_tools_unavailable "
		      "ro,size=4k,mode=755",
		      0, 25, "/", "/mnt/sandboxing/model_tools_env/v1/python", "tmpfs",
		      "model_tools_unavailable");
}

Test(mountinfo, parse_overlay_and_fuse)
{
	expect_parsed(L_OVL, 0, 118, "/", "/", "overlay", "overlay");
	expect_parsed(L_GVFS, 0, 52, "/", "/run/user/1000/gvfs", "fuse.gvfsd-fuse", "gvfsd-fuse");
	expect_parsed(L_SSHFS, 0, 55, "/", "/home/u/remote dir", "fuse.sshfs",
		      "u@host:/srv/my files");
}

Test(mountinfo, optional_fields_zero_one_three)
{
	expect_parsed("36 35 98:0 /mnt1 /mnt2 rw,noatime - ext3 /dev/root rw,errors=continue",
		      98, 0, "/mnt1", "/mnt2", "ext3", "/dev/root");
	expect_parsed("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root "
		      "rw,errors=continue", 98, 0, "/mnt1", "/mnt2", "ext3", "/dev/root");
	expect_parsed(L_PROP3, 98, 0, "/mnt1", "/mnt2", "ext3", "/dev/root");
	expect_parsed("40 1 8:1 / /u rw unbindable - xfs /dev/sda1 rw", 8, 1, "/", "/u", "xfs",
		      "/dev/sda1");
}

Test(mountinfo, trailing_newline_optional_and_stops_at_newline)
{
	expect_parsed(L_PROC "\n", 0, 21, "/", "/proc", "proc", "proc");
	expect_parsed(L_PROC, 0, 21, "/", "/proc", "proc", "proc");
	/* parsing stops at the first newline: the next line does not leak in */
	expect_parsed(L_PROC "\n" L_ROOT "\n", 0, 21, "/", "/proc", "proc", "proc");
}

Test(mountinfo, escaped_paths_decoded)
{
	expect_parsed("50 27 8:2 /a\\040b /mnt/tab\\011x\\012nl\\134bs rw - ext4 "
		      "/dev/disk/by-label/my\\040disk rw",
		      8, 2, "/a b", "/mnt/tab\tx\nnl\\bs", "ext4", "/dev/disk/by-label/my disk");
	/* "\134040" is a backslash followed by the text 040, not a space */
	expect_parsed("50 27 8:2 / /m\\134040 rw - ext4 /dev/sda2 rw", 8, 2, "/", "/m\\040",
		      "ext4", "/dev/sda2");
	/* '#' is escaped by newer kernels in the source */
	expect_parsed("50 27 0:40 / /x rw - tmpfs a\\043b rw", 0, 40, "/", "/x", "tmpfs", "a#b");
	/* bytes above 0x7f as escapes and raw UTF-8 */
	expect_parsed("50 27 0:40 / /caf\xc3\xa9/\\303\\251 rw - tmpfs t rw", 0, 40, "/",
		      "/caf\xc3\xa9/\xc3\xa9", "tmpfs", "t");
}

Test(mountinfo, malformed_escapes_kept_literally)
{
	/* not three octal digits, out of byte range, NUL, cut at field end */
	expect_parsed("50 27 0:40 / /a\\9b\\400\\000\\04 rw - tmpfs x\\ rw", 0, 40, "/",
		      "/a\\9b\\400\\000\\04", "tmpfs", "x\\");
	expect_parsed("50 27 0:40 / /a\\0 rw - tmpfs \\01 rw", 0, 40, "/", "/a\\0", "tmpfs",
		      "\\01");
}

Test(mountinfo, source_none_and_empty)
{
	expect_parsed("51 27 0:45 / /mnt/x rw,relatime - tmpfs none rw", 0, 45, "/", "/mnt/x",
		      "tmpfs", "none");
	/* mount -t tmpfs "" /mnt/y: the kernel prints an empty source */
	expect_parsed("52 27 0:46 / /mnt/y rw,relatime - tmpfs  rw", 0, 46, "/", "/mnt/y",
		      "tmpfs", "");
}

Test(mountinfo, nsfs_root_and_big_device_numbers)
{
	expect_parsed("4 1 0:4 net:[4026531992] /run/netns/x rw - nsfs nsfs rw", 0, 4,
		      "net:[4026531992]", "/run/netns/x", "nsfs", "nsfs");
	expect_parsed("9 1 4294967295:4294967295 / /big rw - ext4 /dev/big rw",
		      4294967295u, 4294967295u, "/", "/big", "ext4", "/dev/big");
	expect_parsed("9 1 259:1048575 / /nvme rw - ext4 /dev/nvme0n1p1 rw", 259, 1048575,
		      "/", "/nvme", "ext4", "/dev/nvme0n1p1");
}

Test(mountinfo, malformed_lines_rejected)
{
	expect_rejected("");
	expect_rejected("\n");
	expect_rejected("27 1 254:0 / / rw,relatime ext4 /dev/vda rw");    /* no " - " */
	expect_rejected("27 1 254:0 / / rw,relatime -ext4 /dev/vda rw");
	expect_rejected("27 1 254:0 / /");
	expect_rejected("27 1 254:0 / / rw");
	expect_rejected("27 1 254:0 / / rw -");
	expect_rejected("27 1 254:0 / / rw - ext4");
	expect_rejected("27 1 254:0 / / rw - ext4 /dev/vda");             /* no super options */
	expect_rejected("27 1 254:0 / / rw -  /dev/vda rw");              /* empty fstype */
	expect_rejected("27 1 254:0 / / - ext4 /dev/vda rw");             /* no options */
	expect_rejected("27 1 254:0  / rw - ext4 /dev/vda rw");           /* empty root */
	expect_rejected("x 1 254:0 / / rw - ext4 /dev/vda rw");
	expect_rejected("27 -1 254:0 / / rw - ext4 /dev/vda rw");
	expect_rejected(" 27 1 254:0 / / rw - ext4 /dev/vda rw");
	/* the newline ends the line even if the next one would complete it */
	expect_rejected("27 1 254:0 / / rw\n- ext4 /dev/vda rw");
}

Test(mountinfo, bad_maj_min_rejected)
{
	expect_rejected("27 1 8-0 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 8: / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 :0 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 8 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 8:0x / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 8:0:1 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 +8:0 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 8:-0 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 4294967296:0 / / rw - ext4 /dev/sda rw");
	expect_rejected("27 1 0:99999999999999999999 / / rw - ext4 /dev/sda rw");
}

Test(mountinfo, long_fields_truncated_safely)
{
	struct mountinfo_entry *e = new_entry();
	struct sbuf line = SBUF_INIT;
	char want[4096];
	size_t i;

	/* root 5000 bytes, mount point 4094 bytes + "\040" then more, fstype 300 bytes */
	sbuf_puts(&line, "1 2 8:0 /");
	for (i = 0; i < 4999; i++)
		sbuf_putc(&line, 'r');
	sbuf_puts(&line, " /");
	for (i = 0; i < 4093; i++)
		sbuf_putc(&line, 'm');
	sbuf_puts(&line, "\\040tail rw - ");
	for (i = 0; i < 300; i++)
		sbuf_putc(&line, 't');
	sbuf_puts(&line, " ");
	for (i = 0; i < 5000; i++)
		sbuf_puts(&line, "\\134");
	sbuf_puts(&line, " rw");
	cr_assert_eq(line.error, 0);

	cr_assert_eq(mountinfo_parse_line(sbuf_str(&line), e), 0);
	cr_assert_eq(e->major, 8);
	cr_assert_eq(strlen(e->root), sizeof(e->root) - 1);
	cr_assert_eq(e->root[0], '/');
	cr_assert_eq(e->root[4094], 'r');
	cr_assert_eq(strlen(e->mount_point), sizeof(e->mount_point) - 1);
	cr_assert_eq(e->mount_point[4093], 'm');
	cr_assert_eq(e->mount_point[4094], ' ');       /* the escape fitted whole */
	cr_assert_eq(strlen(e->fstype), sizeof(e->fstype) - 1);
	memset(want, '\\', sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	cr_assert_str_eq(e->source, want);
	sbuf_free(&line);
	free(e);
}

Test(mountinfo, find_dev_first_match_wins)
{
	struct mountinfo_entry *e = new_entry();
	const char *text = L_PROC "\n" L_ROOT "\n" L_BIND "\n";

	cr_assert_eq(mountinfo_find_dev(text, 254, 0, e), 0);
	expect_entry(e, 254, 0, "/", "/", "ext4", "/dev/vda");
	cr_assert_eq(mountinfo_find_dev(text, 0, 21, e), 0);
	cr_assert_str_eq(e->mount_point, "/proc");
	/* order reversed: the bind mount comes first and wins */
	cr_assert_eq(mountinfo_find_dev(L_BIND "\n" L_ROOT, 254, 0, e), 0);
	cr_assert_str_eq(e->mount_point, "/data");
	cr_assert_str_eq(e->root, "/var/lib/data");
	free(e);
}

Test(mountinfo, find_dev_real_table_and_fuse)
{
	struct mountinfo_entry *e = new_entry();
	const char *text = SANDBOX L_GVFS "\n" L_SSHFS;

	cr_assert_eq(mountinfo_find_dev(text, 0, 27, e), 0);
	expect_entry(e, 0, 27, "/", "/dev/shm", "tmpfs", "tmpfs");
	cr_assert_eq(mountinfo_find_dev(text, 0, 55, e), 0);    /* last line, no newline */
	expect_entry(e, 0, 55, "/", "/home/u/remote dir", "fuse.sshfs", "u@host:/srv/my files");
	free(e);
}

Test(mountinfo, find_dev_no_match_and_skips_malformed)
{
	struct mountinfo_entry *e = new_entry();
	struct mountinfo_entry *copy = new_entry();
	const char *text = "27 1 8:1 / / rw - ext4 /dev/sda1\n"      /* no super options */
			   "garbage\n"
			   "\n"
			   "28 1 8-1 / /x rw - ext4 /dev/sda1 rw\n"
			   "29 1 8:1 / /good rw - ext4 /dev/sda1 rw\n";

	cr_assert_eq(mountinfo_find_dev(SANDBOX, 8, 0, e), -ENOENT);
	cr_assert_eq(mountinfo_find_dev("", 0, 0, e), -ENOENT);
	cr_assert_eq(mountinfo_find_dev("\n\n", 0, 0, e), -ENOENT);
	cr_assert_eq(memcmp(e, copy, sizeof(*e)), 0, "entry written without a match");
	cr_assert_eq(mountinfo_find_dev(text, 8, 1, e), 0);
	cr_assert_str_eq(e->mount_point, "/good");
	free(e);
	free(copy);
}

Test(mountinfo, find_path_root_matches_everything)
{
	struct mountinfo_entry *e = new_entry();

	cr_assert_eq(mountinfo_find_path(SANDBOX, "/etc/passwd", e), 0);
	expect_entry(e, 254, 0, "/", "/", "ext4", "/dev/vda");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	cr_assert_eq(mountinfo_find_path(L_OVL, "/var/tmp/x", e), 0);
	cr_assert_str_eq(e->fstype, "overlay");
	free(e);
}

Test(mountinfo, find_path_longest_prefix)
{
	struct mountinfo_entry *e = new_entry();

	cr_assert_eq(mountinfo_find_path(SANDBOX, "/sys/fs/cgroup/cpu/tasks", e), 0);
	expect_entry(e, 0, 29, "/", "/sys/fs/cgroup/cpu", "cgroup", "cgroup");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/sys/fs/cgroup/cpuacct", e), 0);
	cr_assert_str_eq(e->mount_point, "/sys/fs/cgroup/cpuacct");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/sys/fs/cgroup/memory", e), 0);
	cr_assert_str_eq(e->mount_point, "/sys/fs/cgroup");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/sys/kernel", e), 0);
	cr_assert_str_eq(e->mount_point, "/sys");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/proc/self/mountinfo", e), 0);
	cr_assert_str_eq(e->fstype, "proc");
	/* the longer mount wins whatever the line order */
	cr_assert_eq(mountinfo_find_path(L_CGCPU "\n" L_CG "\n" L_ROOT, "/sys/fs/cgroup/cpu/x", e),
		     0);
	cr_assert_str_eq(e->mount_point, "/sys/fs/cgroup/cpu");
	free(e);
}

Test(mountinfo, find_path_component_boundary)
{
	struct mountinfo_entry *e = new_entry();
	const char *text = L_ROOT "\n"
			   "60 27 8:17 / /mnt rw - ext4 /dev/sdb1 rw\n";

	cr_assert_eq(mountinfo_find_path(text, "/mnt", e), 0);
	cr_assert_str_eq(e->mount_point, "/mnt");
	cr_assert_eq(mountinfo_find_path(text, "/mnt/x", e), 0);
	cr_assert_str_eq(e->mount_point, "/mnt");
	cr_assert_eq(mountinfo_find_path(text, "/mntx", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	cr_assert_eq(mountinfo_find_path(text, "/mn", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	/* "/sys" is not a prefix of "/sysfoo" and there is no "/" here */
	cr_assert_eq(mountinfo_find_path(L_SYS, "/sysfoo", e), -ENOENT);
	free(e);
}

Test(mountinfo, find_path_over_mount_later_wins)
{
	struct mountinfo_entry *e = new_entry();

	/* this machine really has /dev/pts and /dev/shm mounted twice */
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/dev/pts/0", e), 0);
	expect_entry(e, 0, 26, "/", "/dev/pts", "devpts", "devpts");
	cr_assert_eq(mountinfo_find_path(SANDBOX, "/dev/shm", e), 0);
	cr_assert_eq(e->minor, 27);
	/* a container root over the host root */
	cr_assert_eq(mountinfo_find_path(L_ROOT "\n" L_OVL "\n", "/etc", e), 0);
	cr_assert_str_eq(e->fstype, "overlay");
	cr_assert_eq(mountinfo_find_path(L_OVL "\n" L_ROOT "\n", "/etc", e), 0);
	cr_assert_str_eq(e->fstype, "ext4");
	free(e);
}

Test(mountinfo, find_path_no_match)
{
	struct mountinfo_entry *e = new_entry();
	struct mountinfo_entry *copy = new_entry();
	const char *text = L_PROC "\n" L_SYS "\n" L_CGCPU "\n";

	cr_assert_eq(mountinfo_find_path(text, "/home", e), -ENOENT);
	cr_assert_eq(mountinfo_find_path(text, "/sys2", e), -ENOENT);
	cr_assert_eq(mountinfo_find_path("", "/", e), -ENOENT);
	cr_assert_eq(mountinfo_find_path("junk\nmore junk", "/", e), -ENOENT);
	cr_assert_eq(memcmp(e, copy, sizeof(*e)), 0, "entry written without a match");
	free(e);
	free(copy);
}

Test(mountinfo, find_path_escaped_mount_point)
{
	struct mountinfo_entry *e = new_entry();
	const char *text = L_ROOT "\n" L_GVFS "\n" L_SSHFS;  /* no trailing newline */

	cr_assert_eq(mountinfo_find_path(text, "/home/u/remote dir/file.txt", e), 0);
	expect_entry(e, 0, 55, "/", "/home/u/remote dir", "fuse.sshfs", "u@host:/srv/my files");
	cr_assert_eq(mountinfo_find_path(text, "/home/u/remote\\040dir", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	cr_assert_eq(mountinfo_find_path(text, "/home/u/remote dirt", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	cr_assert_eq(mountinfo_find_path(text, "/run/user/1000/gvfs/smb-share:x", e), 0);
	cr_assert_str_eq(e->fstype, "fuse.gvfsd-fuse");
	free(e);
}

Test(mountinfo, find_path_skips_malformed_lines)
{
	struct mountinfo_entry *e = new_entry();
	const char *text = L_ROOT "\n"
			   "61 27 8:17 / /data rw - ext4 /dev/sdb1\n"      /* malformed */
			   "62 27 8-18 / /data/x rw - ext4 /dev/sdb2 rw\n"  /* malformed */
			   "63 27 8:19 / /data/x/y rw - ext4 /dev/sdb3 rw";

	cr_assert_eq(mountinfo_find_path(text, "/data/x/file", e), 0);
	cr_assert_str_eq(e->mount_point, "/");
	cr_assert_eq(mountinfo_find_path(text, "/data/x/y/z", e), 0);
	cr_assert_str_eq(e->source, "/dev/sdb3");
	free(e);
}

Test(mountinfo, find_path_mount_point_longer_than_entry)
{
	struct mountinfo_entry *e = new_entry();
	struct sbuf text = SBUF_INIT, path = SBUF_INIT;
	size_t i;

	/* a 5001-byte mount point: compared exactly, stored truncated */
	sbuf_puts(&text, L_ROOT "\n70 27 8:33 / ");
	sbuf_putc(&path, '/');
	for (i = 0; i < 5000; i++)
		sbuf_putc(&path, (char)('a' + i % 26));
	sbuf_append(&text, path.buf, path.len);
	sbuf_puts(&text, " rw - ext4 /dev/sdc1 rw\n");
	sbuf_puts(&path, "/file");
	cr_assert_eq(text.error | path.error, 0);

	cr_assert_eq(mountinfo_find_path(sbuf_str(&text), sbuf_str(&path), e), 0);
	cr_assert_eq(e->minor, 33);
	cr_assert_eq(strlen(e->mount_point), sizeof(e->mount_point) - 1);
	cr_assert_eq(strncmp(e->mount_point, path.buf, sizeof(e->mount_point) - 1), 0);
	/* same long prefix, different last component: falls back to "/" */
	path.buf[5000] = 'X';
	cr_assert_eq(mountinfo_find_path(sbuf_str(&text), sbuf_str(&path), e), 0);
	cr_assert_eq(e->major, 254);
	sbuf_free(&text);
	sbuf_free(&path);
	free(e);
}
