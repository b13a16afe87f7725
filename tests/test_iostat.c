#include <criterion/criterion.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diskstats.h"
#include "iostat.h"
#include "sbuf.h"

#include "fixture_diskstats.h"

#define NS_PER_CS UINT64_C(10000000)

/*
 * Real captures from the development VM (Linux 6.18, sysstat 12.6.1): each
 * iostat ran under `strace -e trace=openat,read -s 65536`, so the inputs
 * below are the exact bytes iostat read, and the reports are what it printed
 * for them (stdout not a tty: no colours). A dd with O_DIRECT ran meanwhile.
 * The first report of each run is "since boot": zero baseline, interval =
 * uptime.
 */
/* iostat -dx 1 3 (reads /sys/block/<dev>/stat): uptime and the stat files per sample */
static const uint64_t S_UPTIME_CS[3] = { 110449, 110549, 110649 };
static const char *const S_VDA_STAT[3] = {
	"  131315     9986  6625219    47992    50753    10988 174236808   564157        0    55644   622798     8329       70 173361656    10511     3613      138\n",
	"  131315     9986  6625219    47992    50754    10988 174236816   564157        0    55644   622799     8331       70 173361672    10511     3613      138\n",
	"  131915     9986  6702019    48063    51070    11006 174544304   564364        0    55864   623112     8333       70 173668872    10546     3614      138\n",
};
static const char *const S_LOOP0_STAT[3] = {
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
};
/* iostat -dx -o JSON 1 3: same inputs */
static const uint64_t J_UPTIME_CS[3] = { 110651, 110751, 110851 };
static const char *const J_VDA_STAT[3] = {
	"  131915     9986  6702019    48063    51070    11006 174544304   564364        0    55864   623112     8333       70 173668872    10546     3614      138\n",
	"  131915     9986  6702019    48063    51071    11006 174544312   564364        0    55864   623113     8336       70 173668896    10547     3614      138\n",
	"  132515     9986  6778819    48140    51392    11038 174851960   564587        0    56088   623446     8338       70 173976096    10580     3615      138\n",
};
static const char *const J_LOOP0_STAT[3] = {
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
	"    1701        0  2117418     1371      708      276    55972       85        0      680     1524        6        0   393222        6       93       61\n",
};
/* iostat -dx -g averyveryverylonggroupname vda 1 2: a group of vda alone, named " averyveryverylonggroupname" */
static const uint64_t G_UPTIME_CS[2] = { 124896, 124996 };
static const char *const G_VDA_STAT[2] = {
	"  206574    10000 15121307    55150    64364    11417 177593880   577870        0    65136   644494    10138       70 177034352    11258     5772      215\n",
	"  206574    10000 15121307    55150    64365    11417 177593888   577871        0    65136   644494    10140       70 177034368    11258     5772      215\n",
};

/* What iostat printed for those inputs: each report (header + rows), and the JSON rows. */
static const char *const P_REPORT[3] = {
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            1.54    960.31     0.00   0.00    0.81   622.40    0.64     25.38     0.25  28.05    0.12    39.53    0.01    178.34     0.00   0.00    1.00 32768.50    0.08    0.66    0.00   0.06\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop2            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop3            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop4            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop5            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop6            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop7            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"vda            118.57   2969.89     9.06   7.10    0.37    25.05   45.71  78880.83     9.88  17.77   11.19  1725.78    7.55  78624.20     0.06   0.83    1.26 10409.61    3.28    0.04    0.56   5.03\n"
	"zram0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n",
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop2            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop3            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop4            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop5            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop6            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop7            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"vda              0.00      0.00     0.00   0.00    0.00     0.00    1.00      4.00     0.00   0.00    0.00     4.00    2.00      8.00     0.00   0.00    0.50     4.00    0.00    0.00    0.00   0.00\n"
	"zram0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n",
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop1            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop2            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop3            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop4            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop5            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop6            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"loop7            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"vda            600.00  38400.00     0.00   0.00    0.10    64.00  361.00 154656.00   100.00  21.69    0.68   428.41    0.00      0.00     0.00   0.00    0.00     0.00    1.00    0.00    0.30  16.00\n"
	"zram0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n",
};
static const char *const S_REPORT[3] = {
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            1.54    958.55     0.00   0.00    0.81   622.40    0.64     25.34     0.25  28.05    0.12    39.53    0.01    178.01     0.00   0.00    1.00 32768.50    0.08    0.66    0.00   0.06\n"
	"vda            118.89   2999.22     9.04   7.07    0.37    25.23   45.95  78876.59     9.95  17.80   11.12  1716.52    7.54  78480.41     0.06   0.83    1.26 10407.11    3.27    0.04    0.56   5.04\n",
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"vda              0.00      0.00     0.00   0.00    0.00     0.00    1.00      4.00     0.00   0.00    0.00     4.00    2.00      8.00     0.00   0.00    0.00     4.00    0.00    0.00    0.00   0.00\n",
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"loop0            0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.00   0.00\n"
	"vda            600.00  38400.00     0.00   0.00    0.12    64.00  316.00 153744.00    18.00   5.39    0.66   486.53    2.00 153600.00     0.00   0.00   17.50 76800.00    1.00    0.00    0.31  22.00\n",
};
static const char *const G_REPORT[2] = {
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"vda            165.40   6053.56     8.01   4.62    0.27    36.60   51.53  71096.70     9.14  15.07    8.98  1379.61    8.12  70872.71     0.06   0.69    1.11  8731.23    4.62    0.04    0.52   5.22\n"
	" averyveryverylonggroupname  165.40   6053.56     8.01   4.62    0.27    36.60   51.53  71096.70     9.14  15.07    8.98  1379.61    8.12  70872.71     0.06   0.69    1.11  8731.23    4.62    0.04    0.52   5.22\n",
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
	"vda              0.00      0.00     0.00   0.00    0.00     0.00    1.00      4.00     0.00   0.00    1.00     4.00    2.00      8.00     0.00   0.00    0.00     4.00    0.00    0.00    0.00   0.00\n"
	" averyveryverylonggroupname    0.00      0.00     0.00   0.00    0.00     0.00    1.00      4.00     0.00   0.00    1.00     4.00    2.00      8.00     0.00   0.00    0.00     4.00    0.00    0.00    0.00   0.00\n",
};
static const char *const J_JSON[6] = {
	"{\"disk_device\": \"loop0\", \"r/s\": 1.54, \"w/s\": 0.64, \"d/s\": 0.01, \"f/s\": 0.08, \"rkB/s\": 956.80, \"wkB/s\": 25.29, \"dkB/s\": 177.69, \"rrqm/s\": 0.00, \"wrqm/s\": 0.25, \"drqm/s\": 0.00, \"rrqm\": 0.00, \"wrqm\": 28.05, \"drqm\": 0.00, \"r_await\": 0.81, \"w_await\": 0.12, \"d_await\": 1.00, \"f_await\": 0.66, \"rareq-sz\": 622.40, \"wareq-sz\": 39.53, \"dareq-sz\": 32768.50, \"aqu-sz\": 0.00, \"util\": 0.06}",
	"{\"disk_device\": \"vda\", \"r/s\": 119.22, \"w/s\": 46.15, \"d/s\": 7.53, \"f/s\": 3.27, \"rkB/s\": 3028.45, \"wkB/s\": 78871.54, \"dkB/s\": 78475.96, \"rrqm/s\": 9.02, \"wrqm/s\": 9.95, \"drqm/s\": 0.06, \"rrqm\": 7.04, \"wrqm\": 17.73, \"drqm\": 0.83, \"r_await\": 0.36, \"w_await\": 11.05, \"d_await\": 1.27, \"f_await\": 0.04, \"rareq-sz\": 25.40, \"wareq-sz\": 1708.87, \"dareq-sz\": 10420.55, \"aqu-sz\": 0.56, \"util\": 5.05}",
	"{\"disk_device\": \"loop0\", \"r/s\": 0.00, \"w/s\": 0.00, \"d/s\": 0.00, \"f/s\": 0.00, \"rkB/s\": 0.00, \"wkB/s\": 0.00, \"dkB/s\": 0.00, \"rrqm/s\": 0.00, \"wrqm/s\": 0.00, \"drqm/s\": 0.00, \"rrqm\": 0.00, \"wrqm\": 0.00, \"drqm\": 0.00, \"r_await\": 0.00, \"w_await\": 0.00, \"d_await\": 0.00, \"f_await\": 0.00, \"rareq-sz\": 0.00, \"wareq-sz\": 0.00, \"dareq-sz\": 0.00, \"aqu-sz\": 0.00, \"util\": 0.00}",
	"{\"disk_device\": \"vda\", \"r/s\": 0.00, \"w/s\": 1.00, \"d/s\": 3.00, \"f/s\": 0.00, \"rkB/s\": 0.00, \"wkB/s\": 4.00, \"dkB/s\": 12.00, \"rrqm/s\": 0.00, \"wrqm/s\": 0.00, \"drqm/s\": 0.00, \"rrqm\": 0.00, \"wrqm\": 0.00, \"drqm\": 0.00, \"r_await\": 0.00, \"w_await\": 0.00, \"d_await\": 0.33, \"f_await\": 0.00, \"rareq-sz\": 0.00, \"wareq-sz\": 4.00, \"dareq-sz\": 4.00, \"aqu-sz\": 0.00, \"util\": 0.00}",
	"{\"disk_device\": \"loop0\", \"r/s\": 0.00, \"w/s\": 0.00, \"d/s\": 0.00, \"f/s\": 0.00, \"rkB/s\": 0.00, \"wkB/s\": 0.00, \"dkB/s\": 0.00, \"rrqm/s\": 0.00, \"wrqm/s\": 0.00, \"drqm/s\": 0.00, \"rrqm\": 0.00, \"wrqm\": 0.00, \"drqm\": 0.00, \"r_await\": 0.00, \"w_await\": 0.00, \"d_await\": 0.00, \"f_await\": 0.00, \"rareq-sz\": 0.00, \"wareq-sz\": 0.00, \"dareq-sz\": 0.00, \"aqu-sz\": 0.00, \"util\": 0.00}",
	"{\"disk_device\": \"vda\", \"r/s\": 600.00, \"w/s\": 321.00, \"d/s\": 2.00, \"f/s\": 1.00, \"rkB/s\": 38400.00, \"wkB/s\": 153824.00, \"dkB/s\": 153600.00, \"rrqm/s\": 0.00, \"wrqm/s\": 32.00, \"drqm/s\": 0.00, \"rrqm\": 0.00, \"wrqm\": 9.07, \"drqm\": 0.00, \"r_await\": 0.13, \"w_await\": 0.69, \"d_await\": 16.50, \"f_await\": 0.00, \"rareq-sz\": 64.00, \"wareq-sz\": 479.20, \"dareq-sz\": 76800.00, \"aqu-sz\": 0.33, \"util\": 22.40}",
};

/*
 * A worked example: two /proc/diskstats lines of sda one second apart (itv =
 * 100 cs), whose iostat -dx row sysstat 12.6 prints as the DOC_* values below.
 */
#define DOC_PREV "254 0 sda 207719 8031 13925634 17324 12877 7247 2578304 8419 0 13364 26053 4054 51 672048 264 1466 44"
#define DOC_CUR  "254 0 sda 207722 8031 13925882 17325 13090 7247 2987976 8477 0 13428 26112 4056 51 672064 264 1470 45"

static void parse(const char *line, struct disk_counters *c)
{
	cr_assert_eq(diskstats_parse_line(line, c), 0, "cannot parse %s", line);
}

static void expect2(double v, const char *want, const char *what)
{
	char got[64];

	snprintf(got, sizeof(got), "%.2f", v);
	cr_expect_str_eq(got, want, "%s: got %s, want %s", what, got, want);
}

static void doc_row(struct iostat_row *r)
{
	struct disk_counters p, c;

	parse(DOC_PREV, &p);
	parse(DOC_CUR, &c);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, r), 0);
}

Test(iostat, doc_worked_example_every_column)
{
	struct iostat_row r;

	doc_row(&r);
	cr_assert_not(r.reset);
	cr_assert_eq(r.interval_ns, UINT64_C(1000000000));
	expect2(r.r_s, "3.00", "r/s");
	expect2(r.rkb_s, "124.00", "rkB/s");
	expect2(r.rrqm_s, "0.00", "rrqm/s");
	expect2(r.rrqm_pct, "0.00", "%rrqm");
	expect2(r.r_await, "0.33", "r_await");
	expect2(r.rareq_sz, "41.33", "rareq-sz");
	expect2(r.w_s, "213.00", "w/s");
	expect2(r.wkb_s, "204836.00", "wkB/s");
	expect2(r.wrqm_s, "0.00", "wrqm/s");
	expect2(r.wrqm_pct, "0.00", "%wrqm");
	expect2(r.w_await, "0.27", "w_await");
	expect2(r.wareq_sz, "961.67", "wareq-sz");
	expect2(r.d_s, "2.00", "d/s");
	expect2(r.dkb_s, "8.00", "dkB/s");
	expect2(r.drqm_s, "0.00", "drqm/s");
	expect2(r.drqm_pct, "0.00", "%drqm");
	expect2(r.d_await, "0.00", "d_await");
	expect2(r.dareq_sz, "4.00", "dareq-sz");
	expect2(r.f_s, "4.00", "f/s");
	expect2(r.f_await, "0.25", "f_await");
	expect2(r.aqu_sz, "0.06", "aqu-sz");
	expect2(r.util, "6.40", "%util");
	/* extras: in-flight gauge, old avgrq-sz in sectors, -s tps/await */
	expect2(r.in_flight, "0.00", "in-flight");
	expect2(r.avgrq_sz, "1880.44", "avgrq-sz"); /* (248+409672+16)/(3+213+2) */
	expect2(r.tps, "218.00", "tps");
	expect2(r.await, "0.27", "await");           /* (1+58+0)/218 */
}

Test(iostat, doc_worked_example_row_text)
{
	struct sbuf sb = SBUF_INIT;
	struct iostat_row r;

	doc_row(&r);
	cr_assert_eq(iostat_format_row(&sb, "sda", &r), 0);
	cr_assert_str_eq(sbuf_str(&sb),
		"sda          "
		"    3.00    124.00     0.00   0.00    0.33    41.33"
		"  213.00 204836.00     0.00   0.00    0.27   961.67"
		"    2.00      8.00     0.00   0.00    0.00     4.00"
		"    4.00    0.25    0.06   6.40\n");
	sbuf_free(&sb);
}

Test(iostat, header_is_iostat_12_6)
{
	struct sbuf sb = SBUF_INIT;
	const char *nl;

	cr_assert_eq(iostat_format_header(&sb), 0);
	nl = strchr(P_REPORT[0], '\n');
	cr_assert_not_null(nl);
	cr_assert_eq(sb.len, (size_t)(nl - P_REPORT[0]) + 1);
	cr_assert_eq(memcmp(sbuf_str(&sb), P_REPORT[0], sb.len), 0);
	cr_assert_str_eq(sbuf_str(&sb),
		"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz"
		"     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz"
		"     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz"
		"     f/s f_await  aqu-sz  %util\n");
	sbuf_free(&sb);
}

/* Rebuild iostat -dx -p ALL's report k from the captured /proc/diskstats (one table). */
static void p_report(int k, struct sbuf *sb)
{
	struct disk_counters cur[16], prev[16];
	struct iostat_row r[16];
	struct iostat_dev_row rows[16];
	int n, np = 0, i;

	n = diskstats_parse(P_DISKSTATS[k], cur, 16);
	cr_assert_eq(n, 10);
	if (k > 0)
		np = diskstats_parse(P_DISKSTATS[k - 1], prev, 16);
	for (i = 0; i < n; i++) {
		uint64_t itv = k ? P_UPTIME_CS[k] - P_UPTIME_CS[k - 1] : P_UPTIME_CS[0];

		cr_assert_eq(np == 0 || np == n, 1);
		cr_assert_eq(iostat_compute(k ? &prev[i] : NULL, &cur[i], itv * NS_PER_CS, &r[i]),
			     0);
		rows[i] = (struct iostat_dev_row){ cur[i].name, &r[i] };
	}
	cr_assert_eq(iostat_format_table(sb, rows, (size_t)n), 0);
}

Test(iostat, real_proc_diskstats_reports_byte_identical)
{
	for (int k = 0; k < 3; k++) {
		struct sbuf sb = SBUF_INIT;

		p_report(k, &sb);
		cr_expect_str_eq(sbuf_str(&sb), P_REPORT[k], "report %d differs:\n%s", k,
				 sbuf_str(&sb));
		sbuf_free(&sb);
	}
}

/* One row from sysfs stat texts: since boot when k == 0. */
static void stat_row(const char *const *texts, const uint64_t *up, int k, const char *name,
		     struct iostat_row *r)
{
	struct disk_counters c, p;

	cr_assert_eq(diskstats_parse_sysfs_stat(texts[k], &c), 0);
	snprintf(c.name, sizeof(c.name), "%s", name);
	if (k) {
		cr_assert_eq(diskstats_parse_sysfs_stat(texts[k - 1], &p), 0);
		snprintf(p.name, sizeof(p.name), "%s", name);
	}
	cr_assert_eq(iostat_compute(k ? &p : NULL, &c,
				    (k ? up[k] - up[k - 1] : up[0]) * NS_PER_CS, r), 0);
}

Test(iostat, real_sysfs_stat_reports_byte_identical)
{
	for (int k = 0; k < 3; k++) {
		struct sbuf sb = SBUF_INIT;
		struct iostat_row r;

		iostat_format_header(&sb);
		stat_row(S_LOOP0_STAT, S_UPTIME_CS, k, "loop0", &r);
		iostat_format_row(&sb, "loop0", &r);
		stat_row(S_VDA_STAT, S_UPTIME_CS, k, "vda", &r);
		iostat_format_row(&sb, "vda", &r);
		cr_expect_str_eq(sbuf_str(&sb), S_REPORT[k], "report %d differs:\n%s", k,
				 sbuf_str(&sb));
		sbuf_free(&sb);
	}
}

Test(iostat, long_name_pushes_the_row_right_like_iostat)
{
	for (int k = 0; k < 2; k++) {
		struct sbuf sb = SBUF_INIT;
		struct iostat_row r;

		stat_row(G_VDA_STAT, G_UPTIME_CS, k, "vda", &r);
		iostat_format_header(&sb);
		iostat_format_row(&sb, "vda", &r);
		/* sysstat prefixes group names with a space; 27 chars > 13 */
		iostat_format_row(&sb, " averyveryverylonggroupname", &r);
		cr_expect_str_eq(sbuf_str(&sb), G_REPORT[k], "report %d differs:\n%s", k,
				 sbuf_str(&sb));
		sbuf_free(&sb);
	}
}

Test(iostat, name_of_exactly_13_and_empty_names)
{
	struct sbuf sb = SBUF_INIT;
	struct iostat_row r;

	memset(&r, 0, sizeof(r));
	r.r_s = 1;
	iostat_format_row(&sb, "abcdefghijklm", &r);
	cr_assert_eq(strncmp(sbuf_str(&sb), "abcdefghijklm    1.00", 21), 0);
	sbuf_reset(&sb);
	iostat_format_row(&sb, NULL, &r);
	cr_assert_eq(strncmp(sbuf_str(&sb), "                 1.00", 21), 0);
	sbuf_free(&sb);
}

Test(iostat, real_json_rows_byte_identical)
{
	for (int k = 0; k < 3; k++) {
		struct sbuf sb = SBUF_INIT;
		struct iostat_row r;

		stat_row(J_LOOP0_STAT, J_UPTIME_CS, k, "loop0", &r);
		cr_assert_eq(iostat_json_row(&sb, "loop0", &r), 0);
		cr_expect_str_eq(sbuf_str(&sb), J_JSON[2 * k], "loop0 report %d:\n%s", k, sbuf_str(&sb));
		sbuf_reset(&sb);
		stat_row(J_VDA_STAT, J_UPTIME_CS, k, "vda", &r);
		cr_assert_eq(iostat_json_row(&sb, "vda", &r), 0);
		cr_expect_str_eq(sbuf_str(&sb), J_JSON[2 * k + 1], "vda report %d:\n%s", k, sbuf_str(&sb));
		sbuf_free(&sb);
	}
}

Test(iostat, json_name_is_escaped)
{
	struct sbuf sb = SBUF_INIT;
	struct iostat_row r;

	memset(&r, 0, sizeof(r));
	r.util = 100;
	iostat_json_row(&sb, "we\"ird\\", &r);
	cr_assert_str_eq(sbuf_str(&sb),
		"{\"disk_device\": \"we\\\"ird\\\\\", "
		"\"r/s\": 0.00, \"w/s\": 0.00, \"d/s\": 0.00, \"f/s\": 0.00, "
		"\"rkB/s\": 0.00, \"wkB/s\": 0.00, \"dkB/s\": 0.00, "
		"\"rrqm/s\": 0.00, \"wrqm/s\": 0.00, \"drqm/s\": 0.00, "
		"\"rrqm\": 0.00, \"wrqm\": 0.00, \"drqm\": 0.00, "
		"\"r_await\": 0.00, \"w_await\": 0.00, \"d_await\": 0.00, \"f_await\": 0.00, "
		"\"rareq-sz\": 0.00, \"wareq-sz\": 0.00, \"dareq-sz\": 0.00, "
		"\"aqu-sz\": 0.00, \"util\": 100.00}");
	sbuf_free(&sb);
}

/* A 17-field sample with every count and tick set from v[]. */
static void mk(struct disk_counters *c, const uint64_t v[DISKSTATS_NFIELDS])
{
	memset(c, 0, sizeof(*c));
	c->major = 8;
	c->minor = 0;
	strcpy(c->name, "sda");
	c->nfields = DISKSTATS_NFIELDS;
	memcpy(c->v, v, sizeof(c->v));
}

Test(iostat, u32_wrap_of_ms_fields)
{
	uint64_t pv[DISKSTATS_NFIELDS] = { 100, 0, 800, 4294967290u, 10, 0, 80, 4294967295u,
					   0, 4294967200u, 4294967000u, 0, 0, 0, 4294967295u, 5, 4294967294u };
	uint64_t cv[DISKSTATS_NFIELDS] = { 110, 0, 880, 14, 20, 0, 160, 19,
					   3, 300, 1000, 0, 0, 0, 4294967295u, 7, 2 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), 0);
	cr_assert_not(r.reset);
	expect2(r.r_await, "2.00", "r_await");   /* 20 ms / 10 */
	expect2(r.w_await, "2.00", "w_await");   /* 20 ms / 10 */
	expect2(r.util, "39.60", "%util");       /* 396 ms busy of 1000 */
	expect2(r.aqu_sz, "1.30", "aqu-sz");     /* 1296 ms / 1000 ms */
	expect2(r.f_await, "2.00", "f_await");   /* 4 ms / 2 */
	expect2(r.in_flight, "3.00", "in-flight");
}

Test(iostat, ms_fields_beyond_u32_are_taken_mod_2_32)
{
	uint64_t pv[DISKSTATS_NFIELDS] = { 1, 0, 8, UINT64_C(0x100000005), 0 };
	uint64_t cv[DISKSTATS_NFIELDS] = { 2, 0, 16, 9, 0 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), 0);
	expect2(r.r_await, "4.00", "r_await");
}

Test(iostat, u32_wrap_of_unsigned_long_counter)
{
	/* a 32-bit kernel: sectors read wrap from near 2^32 to 200 */
	uint64_t pv[DISKSTATS_NFIELDS] = { 4294967290u, 0, 4294967000u, 50, 7, 0, 56, 9 };
	uint64_t cv[DISKSTATS_NFIELDS] = { 4, 0, 200, 60, 7, 0, 56, 9 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 200 * NS_PER_CS, &r), 0);
	cr_assert_not(r.reset);
	expect2(r.r_s, "5.00", "r/s");           /* 10 reads in 2 s */
	expect2(r.rkb_s, "124.00", "rkB/s");     /* 496 sectors = 248 kB in 2 s */
	expect2(r.rareq_sz, "24.80", "rareq-sz");
	expect2(r.r_await, "1.00", "r_await");
}

Test(iostat, backwards_counter_is_a_reset)
{
	/* 64-bit counter above 2^32 going down cannot be a 32-bit wrap */
	uint64_t pv[DISKSTATS_NFIELDS] = { 5000000000u, 0, 9000000000u, 100, 5, 0, 40, 3, 1, 500, 600 };
	uint64_t cv[DISKSTATS_NFIELDS] = { 4999999999u, 0, 9000000100u, 101, 6, 0, 48, 4, 2, 510, 620 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	cr_assert(r.reset);
	cr_assert_eq(r.r_s, 0);
	cr_assert_eq(r.w_s, 0);
	cr_assert_eq(r.util, 0);
	cr_assert_eq(r.aqu_sz, 0);
	cr_assert_eq(r.in_flight, 2);
	cr_assert_eq(r.interval_ns, 100 * NS_PER_CS);
}

Test(iostat, implausible_wrap_is_a_reset)
{
	/* prev below 2^32 but the "wrapped" delta would be ~4e9 in one interval */
	uint64_t pv[DISKSTATS_NFIELDS] = { 130715, 9986, 6548419, 47933, 50391 };
	uint64_t cv[DISKSTATS_NFIELDS] = { 130716, 9986, 6548427, 47934, 50390 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	cr_assert(r.reset);
}

Test(iostat, device_recreated_is_a_reset)
{
	struct disk_counters p, c;
	struct iostat_row r;

	/* dm churn: dm-3 removed and created again, its counters start over */
	parse("253 3 dm-3 52000 0 416000 9000 81000 0 648000 30000 0 41000 39000 0 0 0 0 0 0", &p);
	parse("253 3 dm-3 12 0 96 1 30 0 240 4 0 8 5 0 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	cr_assert(r.reset);

	/* same name, new major:minor (every counter larger: only identity tells) */
	parse("253 4 dm-3 52001 0 416008 9001 81000 0 648000 30000 0 41001 39001 0 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	/* same devno, another name */
	parse("253 3 dm-4 52001 0 416008 9001 81000 0 648000 30000 0 41001 39001 0 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	/* the same device moving on is fine */
	parse("253 3 dm-3 52001 0 416008 9001 81000 0 648000 30000 0 41001 39001 0 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), 0);
	expect2(r.r_s, "1.00", "r/s");
}

Test(iostat, zero_interval_and_null_arguments)
{
	struct disk_counters p, c;
	struct iostat_row r;

	parse(DOC_PREV, &p);
	parse(DOC_CUR, &c);
	memset(&r, 0x5a, sizeof(r));
	cr_assert_eq(iostat_compute(&p, &c, 0, &r), -EINVAL);
	cr_assert_eq(r.r_s, 0);
	cr_assert_not(r.reset);
	cr_assert_eq(r.interval_ns, 0);
	cr_assert_eq(iostat_compute(&p, NULL, 1000, &r), -EINVAL);
	cr_assert_eq(iostat_compute(&p, &c, 1000, NULL), -EINVAL);
}

Test(iostat, idle_interval_is_all_zero_not_nan)
{
	struct disk_counters c;
	struct iostat_row r;
	struct sbuf sb = SBUF_INIT;

	parse(DOC_CUR, &c);
	cr_assert_eq(iostat_compute(&c, &c, 100 * NS_PER_CS, &r), 0);
	cr_assert_eq(r.r_s, 0);
	cr_assert_eq(r.rrqm_pct, 0);
	cr_assert_eq(r.r_await, 0);
	cr_assert_eq(r.rareq_sz, 0);
	cr_assert_eq(r.f_await, 0);
	cr_assert_eq(r.avgrq_sz, 0);
	cr_assert_eq(r.await, 0);
	iostat_format_row(&sb, "sda", &r);
	cr_assert_null(strstr(sbuf_str(&sb), "nan"));
	cr_assert_null(strstr(sbuf_str(&sb), "-0.00"));
	sbuf_free(&sb);
}

Test(iostat, since_boot_is_a_zero_baseline)
{
	struct disk_counters c, z;
	struct iostat_row a, b;

	parse(DOC_CUR, &c);
	memset(&z, 0, sizeof(z));
	z.major = c.major;
	z.minor = c.minor;
	strcpy(z.name, c.name);
	cr_assert_eq(iostat_compute(NULL, &c, 54812 * NS_PER_CS, &a), 0);
	cr_assert_eq(iostat_compute(&z, &c, 54812 * NS_PER_CS, &b), 0);
	cr_assert_eq(memcmp(&a, &b, sizeof(a)), 0);
	expect2(a.r_s, "378.97", "r/s");   /* 207722 / 548.12 s */
}

Test(iostat, nanosecond_interval)
{
	struct disk_counters p, c;
	struct iostat_row r;

	parse(DOC_PREV, &p);
	parse(DOC_CUR, &c);
	cr_assert_eq(iostat_compute(&p, &c, UINT64_C(1500000000), &r), 0);
	expect2(r.w_s, "142.00", "w/s");           /* 213 / 1.5 */
	expect2(r.util, "4.27", "%util");          /* 64 / 1500 */
	cr_assert_eq(iostat_compute(&p, &c, UINT64_C(999956000), &r), 0);
	expect2(r.w_s, "213.01", "w/s");           /* CLOCK_MONOTONIC's 0.999956 s */
	/* per-request columns do not depend on the interval */
	expect2(r.w_await, "0.27", "w_await");
}

Test(iostat, old_partition_format)
{
	struct disk_counters p, c;
	struct iostat_row r;

	parse("3 1 hda1 35486 38030 38030 38030", &p);
	parse("3 1 hda1 35496 38110 38032 38046", &c);
	cr_assert_eq(iostat_compute(&p, &c, 200 * NS_PER_CS, &r), 0);
	expect2(r.r_s, "5.00", "r/s");
	expect2(r.rkb_s, "20.00", "rkB/s");
	expect2(r.rareq_sz, "4.00", "rareq-sz");
	expect2(r.w_s, "1.00", "w/s");
	expect2(r.wkb_s, "4.00", "wkB/s");
	expect2(r.r_await, "0.00", "r_await");
	expect2(r.util, "0.00", "%util");
	expect2(r.avgrq_sz, "8.00", "avgrq-sz");
}

Test(iostat, merge_percentages)
{
	uint64_t pv[DISKSTATS_NFIELDS] = { 0 };
	uint64_t cv[DISKSTATS_NFIELDS] = { 30, 10, 320, 3, 1, 3, 64, 1, 0, 0, 0, 2, 6, 16, 1 };
	struct disk_counters p, c;
	struct iostat_row r;

	mk(&p, pv);
	mk(&c, cv);
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), 0);
	expect2(r.rrqm_pct, "25.00", "%rrqm");
	expect2(r.wrqm_pct, "75.00", "%wrqm");
	expect2(r.drqm_pct, "75.00", "%drqm");
	expect2(r.rrqm_s, "10.00", "rrqm/s");
	expect2(r.dareq_sz, "4.00", "dareq-sz");
	expect2(r.d_await, "0.50", "d_await");
}

Test(iostat, reset_row_formats_as_zeros)
{
	struct sbuf sb = SBUF_INIT;
	struct iostat_row r;
	struct disk_counters p, c;

	parse(DOC_CUR, &p);
	parse(DOC_PREV, &c);   /* backwards */
	cr_assert_eq(iostat_compute(&p, &c, 100 * NS_PER_CS, &r), IOSTAT_RESET);
	iostat_format_row(&sb, "sda", &r);
	cr_assert_str_eq(sbuf_str(&sb),
		"sda          "
		"    0.00      0.00     0.00   0.00    0.00     0.00"
		"    0.00      0.00     0.00   0.00    0.00     0.00"
		"    0.00      0.00     0.00   0.00    0.00     0.00"
		"    0.00    0.00    0.00   0.00\n");
	sbuf_free(&sb);
}

/* Counters near 2^64 (found by fuzz_diskstats): sums must not wrap into nonsense. */
Test(iostat, huge_counters_do_not_wrap_sums)
{
	struct disk_counters c;
	struct iostat_row r;

	parse("8 0 sda 0 0 0 0 18446744073709551615 2 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(NULL, &c, 1000000000ull, &r), 0);
	cr_assert_leq(r.wrqm_pct, 100.0, "%%wrqm %f", r.wrqm_pct);
	cr_assert_float_eq(r.wrqm_pct, 2.0 / 18446744073709551617.0 * 100, 1e-9);
	parse("8 0 sda 1 0 0 0 18446744073709551615 0 0 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(NULL, &c, 1000000000ull, &r), 0);
	cr_assert_float_eq(r.tps, r.r_s + r.w_s + r.d_s, r.tps * 1e-12, "tps %f", r.tps);
	parse("8 0 sda 1 0 18446744073709551615 0 1 0 2 0 0 0 0", &c);
	cr_assert_eq(iostat_compute(NULL, &c, 1000000000ull, &r), 0);
	cr_assert_geq(r.avgrq_sz, 2.0, "avgrq-sz %f below the write class", r.avgrq_sz);
}
