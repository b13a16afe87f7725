#include "config.h"

#include "usage.h"

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"

/* --help, with %s for the engine names (no other conversion in it). */
#define USAGE_FORMAT \
	" Usage: ioprobe [options...] directory|file|device\n" \
	"        ioprobe [options...] target target... (at most 256, one thread each)\n" \
	"        ioprobe -h | -v\n" \
	"\n" \
	" options:\n" \
	"      -A, -async                 use asynchronous I/O (libaio engine)\n" \
	"      -U, -uring                 use io_uring (io_uring engine)\n" \
	"          -engine <name>         I/O engine: %s\n"

/* The rest of --help (no conversion in it; a literal of its own: C99 caps one at 4095). */
#define USAGE_BODY \
	"      -C, -cached                use cached I/O (no cache flush/drop)\n" \
	"      -D, -direct                use direct I/O (O_DIRECT)\n" \
	"      -G, -read-write            read-write ping-pong mode\n" \
	"      -L, -linear                use sequential operations\n" \
	"      -N, -nowait                use nowait I/O (RWF_NOWAIT)\n" \
	"      -H, -hipri                 use high priority I/O (RWF_HIPRI)\n" \
	"      -W, -write                 use write I/O (please read manpage)\n" \
	"      -Y, -sync                  use sync I/O (O_SYNC)\n" \
	"      -y, -dsync                 use data sync I/O (O_DSYNC)\n" \
	"      -R, -rapid                 test with rapid I/O during 3s (-q -i 0 -w 3)\n" \
	"      -k, -keep                  keep and reuse temporary file (ioprobe.tmp)\n" \
	"      -E, -ignore-error          count failed requests and go on (exit 3 at the end)\n" \
	"      -X, -tui                   full-screen live view (latency graph, statistics;\n" \
	"                                 an overview of several targets; a -sweep's steps)\n" \
	"          -no-color              no colours in the full-screen view (also NO_COLOR)\n" \
	"          -ascii                 no braille or box drawing in the full-screen view\n" \
	"\n" \
	" parameters:\n" \
	"      -a, -warmup <count>        ignore <count> first requests (1)\n" \
	"      -b, -burst <count>         make <count> requests without delay (0)\n" \
	"      -c, -count <count>         stop after <count> requests\n" \
	"      -e, -entropy <seed>        seed for random number generator (0)\n" \
	"      -i, -interval <time>       interval between requests (1s)\n" \
	"      -s, -size <size>           request size (4k)\n" \
	"      -S, -work-size <size>      working set size (1m)\n" \
	"      -o, -work-offset <size>    working set offset (0)\n" \
	"      -w, -work-time <time>      stop after <time> passed\n" \
	"      -l, -speed-limit <size>    limit speed with <size> per second\n" \
	"      -r, -rate-limit <count>    limit rate with <count> per second\n" \
	"      -Q, -depth <count>         up to <count> requests in flight, started on schedule\n" \
	"                                 (libaio, io_uring, null; 1); buffers of a run:\n" \
	"                                 targets x depth x size <= 1 GiB\n" \
	"          -arrivals <how>        -Q's starts: fixed (every interval) or poisson\n" \
	"                                 (random, exponential gaps of mean -i; seeded by -e)\n" \
	"      -t, -min-time <time>       minimal valid request time (0us)\n" \
	"      -T, -max-time <time>       maximum valid request time\n"

/* The output options (a literal of its own: C99 caps one at 4095). */
#define USAGE_OUTPUT \
	"\n" \
	" output:\n" \
	"      -B, -batch                 print final statistics in raw format\n" \
	"      -I, -time [format]         print current time for every request\n" \
	"      -J, -json                  print output in JSON format\n" \
	"          -json-lines            one compact JSON object per line (request, period, total)\n" \
	"          -raw-percentiles       raw lines gain p50 p90 p99 p99.9 (ns) as fields 11-14\n" \
	"          -percentiles <p,...>   the percentiles shown (50,90,99,99.9; at most 8):\n" \
	"                                 summary, view, raw, JSON, -influx\n" \
	"          -response              response times (from the scheduled start) in the\n" \
	"                                 summary; raw lines gain their 4 percentiles (15-18)\n" \
	"          -layers                where each request spent its time in the kernel\n" \
	"                                 (submit, throttle, queue, device; eBPF, root):\n" \
	"                                 a summary line, JSON layers; -iostat tries them\n" \
	"                                 by itself for its verdict (-no-layers: off)\n" \
	"          -iostat[=dev,...]      iostat -dx rows for the target's devices every second\n" \
	"                                 (or every -P period), plus the named devices\n" \
	"          -sweep[=rate,...|auto] step the asked rate (auto: from 8/s, doubling,\n" \
	"                                 then bisecting), each step -w long (5s); print\n" \
	"                                 the saturation table and the knee (several\n" \
	"                                 targets: each in turn); -s and -Q as lists\n" \
	"                                 (-s 256k,512k,5m -Q 1,4 or -Q auto): each\n" \
	"                                 size x depth, one table, best and limit\n" \
	"          -fio-job[=time]        no requests: watch the targets' devices (or the\n" \
	"                                 -iostat devices) for <time> (10s), print a fio job\n" \
	"                                 that imitates their load\n" \
	"      -p, -print-count <count>   print statistics for every <count> requests\n" \
	"      -P, -print-interval <time> print statistics for every <time>\n" \
	"      -q, -quiet                 suppress human-readable output\n" \
	"          -name <name,...>       short names for the targets in order (also\n" \
	"                                 NAME=PATH): titles, raw $NF, JSON, labels, rows;\n" \
	"                                 a run whose memory (8 MiB + 1.25 MiB a target, 4.75\n" \
	"                                 under -X) its memory cgroup or host has not free is\n" \
	"                                 refused (1)\n"

/* The fleet outputs and the end of --help (a third literal: C99 caps one at 4095). */
#define USAGE_FLEET \
	"\n" \
	" sweep across sizes and depths (-sweep with -s A,B,... or -Q A,B,...|auto):\n" \
	"          -best-aqu <aqu>        best point: the most bytes/s kept up with aqu-sz\n" \
	"                                 near <aqu> (at most +0.1; 1)\n" \
	"          -limit-aqu <aqu>       limit: the most bytes/s kept up with aqu-sz at\n" \
	"                                 most <aqu> (4)\n" \
	"          --yes                  run a grid planned longer than 10 minutes\n" \
	"\n" \
	" qualification:\n" \
	"          -qualify <profile>     run a fixed battery on the target and judge it:\n" \
	"                                 db (32k O_DSYNC writes as dd, then 32k random\n" \
	"                                 read/write 50/50 at depth 32 as fio; IOPS > 5000,\n" \
	"                                 MB/s > 150) or a profile file; writes need -WWW;\n" \
	"                                 working set -S (5g); exit 0 pass, 1 fail, 2 not run;\n" \
	"                                 -X shows the steps as they run\n" \
	"\n" \
	" fleet outputs:\n" \
	"          -listen <[addr:]port>  serve /metrics (Prometheus/OpenMetrics; protobuf\n" \
	"                                 with native histograms when asked) on addr\n" \
	"                                 (127.0.0.1) port; systemd: the socket a\n" \
	"                                 .socket unit passed\n" \
	"          -web-config <file>     TLS, basic auth, headers of -listen, in the\n" \
	"                                 Prometheus exporter-toolkit's web config format\n" \
	"          -prometheus <file.prom> write the metrics for node_exporter's textfile\n" \
	"                                 collector every -prometheus-period and at exit\n" \
	"          -prometheus-period <time> between textfile writes (10s)\n" \
	"          -influx                InfluxDB line protocol on stdout every -P period\n" \
	"                                 (10s) for Telegraf; ends at the EOF of a stdin pipe\n" \
	"                                 (-listen, -prometheus, -influx count failed\n" \
	"                                 requests as -E does: a failing disk must show)\n" \
	"          -check <warn,crit>     monitoring plugin: p99 above warn/crit is WARNING/\n" \
	"                                 CRITICAL, failed requests CRITICAL; exit 0-3\n" \
	"          -check-iops <warn,crit> also WARNING/CRITICAL when iops is below\n" \
	"          -check-timeout <time>  -check answers within this (8s): a request in\n" \
	"                                 flight then is CRITICAL\n" \
	"\n" \
	" keep a run:\n" \
	"          -record <file>         write the run as JSON lines while it runs (periods,\n" \
	"                                 iostat blocks, verdicts, summaries; .gz compresses;\n" \
	"                                 an existing file is refused)\n" \
	"          -record-requests       the recording keeps every request too\n" \
	"          -replay <file>         print a recording as its run printed it: summaries,\n" \
	"                                 periods, JSON, iostat blocks, the check line;\n" \
	"                                 no destination; with -X show it in the view\n" \
	"                                 (space pause, , . step, g G first/last, + - speed)\n" \
	"          -report <file.html>    draw the recording (-replay's, or -record's at the\n" \
	"                                 end) as one self-contained HTML file: heatmap,\n" \
	"                                 histogram, percentiles, rates, iostat, verdicts\n" \
	"\n" \
	"      -h, -help                  display this message and exit\n" \
	"      -v, -version               display version and exit\n" \
	"\n" \
	" <time> takes ns us ms s m h (default s); <size> k m g t pb eb, sector, page\n" \
	" (binary, default bytes); <count> da k M G T P E (decimal). All but -e accept\n" \
	" fractions and ratios (0.5, 1/3); -e takes an integer (0x.. and 0.. too).\n" \
	" Exit codes: 0 ok, 1 usage, 2 preparation, 3 request failed or output error,\n" \
	" 4 second interrupt.\n" \
	"\n"

/* The text with the engine list from the registry (built once; a few KiB). */
const char *usage_text(void)
{
	static char text[sizeof(USAGE_FORMAT) + sizeof(USAGE_BODY) + sizeof(USAGE_OUTPUT) +
			 sizeof(USAGE_FLEET) + 128];
	char names[128];
	int n;

	if (text[0])
		return text;
	engine_names(names, sizeof(names), " or ", true);
	n = snprintf(text, sizeof(text), USAGE_FORMAT, names);
	if (n > 0 && (size_t)n < sizeof(text))
		snprintf(text + n, sizeof(text) - (size_t)n, "%s%s%s", USAGE_BODY, USAGE_OUTPUT,
			 USAGE_FLEET);
	return text;
}

const char *usage_version(void)
{
	return "ioprobe " PACKAGE_VERSION;
}
