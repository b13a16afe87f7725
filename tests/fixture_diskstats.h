/*
 * The shared /proc/diskstats fixture of the unit suites (test_diskstats,
 * test_iostat, test_devwatch): real captures from the development VM
 * (Linux 6.18, sysstat 12.6.1). `iostat -dx -p ALL 1 3` ran under
 * `strace -e trace=openat,read -s 65536`, so these are the exact bytes
 * iostat read, with /proc/uptime in centiseconds; a dd with O_DIRECT ran
 * on vda meanwhile. Header only, included by one test file each.
 */
#ifndef IOPROBE_FIXTURE_DISKSTATS_H
#define IOPROBE_FIXTURE_DISKSTATS_H

#include <stdint.h>

/* iostat -dx -p ALL 1 3: /proc/uptime (centiseconds) and /proc/diskstats per sample */
static const uint64_t P_UPTIME_CS[3] = { 110247, 110347, 110447 };
static const char *const P_DISKSTATS[3] = {
	"   7       0 loop0 1701 0 2117418 1371 708 276 55972 85 0 680 1524 6 0 393222 6 93 61\n"
	"   7       1 loop1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       2 loop2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       3 loop3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       4 loop4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       5 loop5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       6 loop6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       7 loop7 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 130715 9986 6548419 47933 50391 10888 173927488 563912 0 55484 622494 8327 70 173361640 10510 3612 138\n"
	" 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	"   7       0 loop0 1701 0 2117418 1371 708 276 55972 85 0 680 1524 6 0 393222 6 93 61\n"
	"   7       1 loop1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       2 loop2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       3 loop3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       4 loop4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       5 loop5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       6 loop6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       7 loop7 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 130715 9986 6548419 47933 50392 10888 173927496 563912 0 55484 622494 8329 70 173361656 10511 3612 138\n"
	" 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	"   7       0 loop0 1701 0 2117418 1371 708 276 55972 85 0 680 1524 6 0 393222 6 93 61\n"
	"   7       1 loop1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       2 loop2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       3 loop3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       4 loop4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       5 loop5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       6 loop6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       7 loop7 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 131315 9986 6625219 47992 50753 10988 174236808 564157 0 55644 622798 8329 70 173361656 10511 3613 138\n"
	" 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
};

#endif
