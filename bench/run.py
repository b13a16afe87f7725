#!/usr/bin/env python3
"""ioprobe benchmark: builds ioprobe and, in one run on this machine, compares it with
Debian's ioping (when installed) and with bench/floor (a bare request loop). Prints a
Markdown table and, with --readme, writes it into README.md between the bench markers.

Usage: bench/run.py [--build DIR] [--readme] [--quick] [--multi | --fleet | --depth]
--depth (issue 14): -Q 1/8/32 -i 0 requests/s with io_uring against fio (--ioengine=io_uring
--iodepth=N --rw=randread --bs=4k) on a cached file and on a loop device (root), in the same
run (goal >= 0.95 x fio); achieved/asked at -Q 8 with the null engine up to 1 M req/s (goal
>= 0.995); its table goes between the bench-depth markers.
--multi (issue 16): 16 file targets in one run at 1,000 req/s each (-C -i 1ms): achieved/asked
>= 0.995 for every target, start lateness p99 <= 100 us; its table goes between the
bench-multi markers. The view's own CPU with 16 targets at -i 1s (goal <= 2 % of a core) is
measured by bench/tui_cpu.sh (in tmux; the UI thread's utime+stime over 60 s).
--fleet (issue 17): /metrics serve time with 16 file targets at -i 1ms each (goal <= 2 ms per
scrape) and their achieved/asked rates under 20 scrapes/s; its table goes between the
bench-fleet markers.
--record (issue 27): what --record costs at 10 k req/s (-C -r 10k on a cached file, with and
without --record, alternating runs: achieved/asked and start lateness p99; goal: the rate
within 2 % and lateness p99 not moved), and --report of a 1-hour, 16-target recording (real
periods of 16 cached files, repeated to 3,600 periods each): the time to draw it (goal <= 2 s),
the file's size and the replay's max RSS against a 6-minute one (flat); its table goes between
the bench-record markers.
Goals (issue 3): rate achieved/asked >= 0.995 at -r 1k..100k; start lateness at -i 1ms
median <= 5 us, p99 <= 50 us; avg at -C -i 0: sync <= 1.02 x ioping, io_uring <= 1.15 x
the bare io_uring loop; -R requests/s >= 1.0 x ioping; max RSS <= 1.5 x ioping and flat.
"""
import argparse, json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def raw_fields(out):
    return [int(x) for x in out.split()[:10]]


def max_rss_kib(cmd):
    """Run cmd under GNU time; return its max RSS in KiB (a fork of this Python would
    report Python's own size)."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, check=True, text=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).stderr
    return int(out.strip().splitlines()[-1])


def write_table(a, rows, begin, end):
    uname = os.uname()
    table = [f"Measured {time.strftime('%Y-%m-%d')} on {uname.sysname} {uname.release}, "
             f"{os.cpu_count()} CPUs{' (quick run)' if a.quick else ''}; `bench/run.py"
             f"{' --multi' if a.multi else ''}{' --fleet' if a.fleet else ''}"
             f"{' --record' if getattr(a, 'record', False) else ''}` to reproduce.", "",
             "| measure | ioprobe | goal |", "|---|---|---|"]
    table += [f"| {x} | {y} | {z} |" for x, y, z in rows]
    replace_between(a, "\n".join(table), begin, end)


def build_probe(a):
    """Build ioprobe in a.build; its path."""
    subprocess.run(["meson", "compile", "-C", a.build, "ioprobe"], check=True, capture_output=True)
    return os.path.join(a.build, "ioprobe")


def make_files(work, n):
    """n files of 1 MiB of random bytes in work; their paths."""
    paths = [os.path.join(work, f"t{i:02d}") for i in range(n)]
    for path in paths:
        with open(path, "wb") as f:
            f.write(os.urandom(1 << 20))
    return paths


def multi(a):
    """16 cached file targets at -i 1ms in one process: per-target rate, start lateness, CPU."""
    probe = build_probe(a)
    secs, reps = (2, 1) if a.quick else (10, 3)
    # Targets and output in RAM (tmpfs): no page of a target lost to proactive reclaim (a
    # read from the disk would hold its thread), and no reader of a pipe competing with the
    # 16 probe threads for the 2 CPUs — the figures are the probe's own.
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="ioprobe-bench.", dir=base)
    runs = []
    try:
        paths = make_files(work, 16)
        out_path = os.path.join(work, "out.json")
        for _ in range(reps):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            with open(out_path, "w") as out:
                subprocess.run([probe, "-C", "-i", "1ms", "-w", str(secs), "--json-lines"] + paths,
                               stdout=out, check=True)
            wall = time.monotonic() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            objs = [json.loads(l) for l in open(out_path)]
            late = sorted(o["io"]["lateness"] for o in objs if o.get("type") == "request")
            ratios = [o["load"]["count"] / (o["load"]["time"] / 1e9) / 1000 for o in objs
                      if o.get("type") == "total"]
            cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / wall
            p99 = late[min(len(late) - 1, int(len(late) * 0.99))]
            runs.append((p99, late[len(late) // 2], len(late), min(ratios), max(ratios), cpu))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    runs.sort()
    p99, med, n, lo, hi, cpu = runs[len(runs) // 2]  # the run with the median p99
    rows = [("16 targets (tmpfs files) -C -i 1ms, achieved/asked per target, min / max",
             f"{min(r[3] for r in runs):.4f} / {max(r[4] for r in runs):.4f} "
             f"({len(runs)} runs x 16 targets)", "goal >= 0.995 each"),
            ("16 targets, start lateness median / p99 (the median run; p99 of each run)",
             f"{med / 1e3:.1f} us / {p99 / 1e3:.1f} us ({n} requests; "
             f"{', '.join(f'{r[0] / 1e3:.0f}' for r in runs)} us)", "goal p99 <= 100 us"),
            ("16 targets, CPU of the process (--json-lines to a file, 16,000 req/s)",
             f"{cpu * 100:.1f} % of a core", "-")]
    write_table(a, rows, "<!-- bench-multi:begin -->", "<!-- bench-multi:end -->")


def fio_iops(path, depth, secs, direct):
    """fio's read IOPS for 4 KiB random reads at iodepth DEPTH with io_uring."""
    out = run(["fio", "--name=bench", f"--filename={path}", "--ioengine=io_uring",
               f"--iodepth={depth}", "--rw=randread", "--bs=4k", f"--direct={int(direct)}", "--invalidate=0",
               "--time_based", f"--runtime={secs}", "--output-format=json"])
    return json.loads(out[out.index("{"):])["jobs"][0]["read"]["iops"]


def probe_rps(cmd):
    """Requests per second of a -B run: total requests / total run time."""
    f = raw_fields(run(cmd))
    return f[8] / (f[9] / 1e9)


def make_loop(backing):
    """A loop device over BACKING (root only); None when losetup is unavailable."""
    if os.geteuid() != 0 or not shutil.which("losetup"):
        return None
    try:
        return run(["losetup", "--find", "--show", backing]).strip()
    except subprocess.CalledProcessError:
        return None


def depth(a):
    """-Q 1/8/32 -i 0 against fio, io_uring, cached file and loop device; null-engine pacing."""
    probe = build_probe(a)
    secs, reps = (1, 1) if a.quick else (2, 7)
    work = tempfile.mkdtemp(prefix="ioprobe-bench.")
    # The loop device's backing file lives in RAM (tmpfs, no swap): a page-cache file on disk
    # may lose pages to proactive reclaim mid-run (DAMON does so on this VM), and then both
    # tools would be timing the disk under the loop device, differently from run to run.
    shm = tempfile.mkdtemp(prefix="ioprobe-bench.", dir="/dev/shm") \
        if os.access("/dev/shm", os.W_OK) else work
    loop, rows = None, []
    try:
        data = os.path.join(work, "data")
        with open(data, "wb") as f:
            f.write(os.urandom(64 << 20))
        with open(data, "rb") as f:
            while f.read(1 << 20):
                pass
        backing = os.path.join(shm, "loop.img")
        shutil.copyfile(data, backing)
        loop = make_loop(backing)
        cases = [("cached file", data, ["-C"], False)]
        if loop:
            # -C: no fadvise(DONTNEED) before each request (O_DIRECT bypasses the cache anyway;
            # fio does not drop it either)
            cases.append((f"loop device{' (tmpfs file)' if shm != work else ''}, -D -C", loop,
                          ["-D", "-C"], True))
        for label, path, flags, direct in cases:
            for q in (1, 8, 32):
                mine, theirs, ratios = [], [], []
                for _ in range(reps):  # alternate the two tools; medians, and of each pair's ratio
                    mine.append(probe_rps([probe, "-U", "-Q", str(q), "-i", "0", "-w", str(secs),
                                           "-q", "-B"] + flags + [path]))
                    if shutil.which("fio"):
                        theirs.append(fio_iops(path, q, secs, direct))
                        ratios.append(mine[-1] / theirs[-1])
                m = statistics.median(mine)
                t = statistics.median(theirs) if theirs else None
                rows.append((f"{label}, -U -Q {q} -i 0, requests/s", f"{m:.0f}",
                             f"{statistics.median(ratios):.3f} x fio ({t:.0f})" if t else "-",
                             "goal >= 0.95 x fio"))
        for rate in (1000, 10000, 100000, 1000000):
            r = probe_rps([probe, "--engine=null", "-Q", "8", "-r", str(rate), "-w", str(secs),
                           "-q", "-B", data]) / rate
            rows.append((f"null engine -Q 8 -r {rate // 1000}k, achieved/asked", f"{r:.4f}", "-",
                         "goal >= 0.995"))
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(shm, ignore_errors=True)
    uname = os.uname()
    fio = run(["fio", "--version"]).strip() if shutil.which("fio") else "not installed"
    table = [f"Measured {time.strftime('%Y-%m-%d')} on {uname.sysname} {uname.release}, "
             f"{os.cpu_count()} CPUs, {fio}{' (quick run)' if a.quick else ''}; "
             f"{reps} alternating {secs} s runs of each tool, medians (the ratio: of each pair's); "
             "`bench/run.py --depth` to reproduce.", "",
             "| measure | ioprobe | ratio | goal |", "|---|---|---|---|"]
    table += [f"| {w} | {x} | {y} | {z} |" for w, x, y, z in rows]
    replace_between(a, "\n".join(table), "<!-- bench-depth:begin -->", "<!-- bench-depth:end -->")


def replace_between(a, text, begin, end):
    """Print TEXT; with --readme also put it between BEGIN and END in README.md."""
    print(text)
    if a.readme:
        path = os.path.join(ROOT, "README.md")
        readme = open(path).read()
        i, j = readme.index(begin) + len(begin), readme.index(end)
        open(path, "w").write(readme[:i] + "\n" + text + "\n" + readme[j:])


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def scrape(port):
    """One GET /metrics on a new connection; returns its wall time in ns."""
    import socket
    t0 = time.perf_counter_ns()
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    while s.recv(65536):
        pass
    s.close()
    return time.perf_counter_ns() - t0


def bench_listen(probe, data, quick):
    """--listen: median/p99 time to serve /metrics (one target), and the probe's rate at
    -i 1ms with and without 20 scrapes a second."""
    rows, secs = [], 3 if quick else 10
    rates = {}
    for scrapes in (0, 20):
        port = free_port()
        p = subprocess.Popen([probe, "-C", "-i", "1ms", "-a", "0", "-w", str(secs), "-B",
                              "--listen", str(port), data], stdout=subprocess.PIPE, text=True)
        times = []
        time.sleep(0.3)
        end = time.monotonic() + secs - 0.5
        while scrapes and time.monotonic() < end:
            times.append(scrape(port))
            time.sleep(max(0, 1 / scrapes - times[-1] / 1e9))
        if not scrapes:  # serve time alone: back-to-back scrapes for 1 s
            t1 = time.monotonic() + 1
            while time.monotonic() < t1:
                times.append(scrape(port))
            serve = sorted(times)
        f = raw_fields(p.communicate()[0])
        rates[scrapes] = f[8] / (secs * 1000)
    rows.append(("/metrics serve time (1 target), median / p99",
                 f"{statistics.median(serve) / 1e3:.0f} us / {serve[len(serve) * 99 // 100] / 1e3:.0f} us",
                 "-", "goal <= 2 ms"))
    rows.append(("rate -i 1ms with 20 scrapes/s", f"{rates[20]:.4f}",
                 f"{rates[20] / rates[0]:.4f} x without ({rates[0]:.4f})", "goal >= 0.995"))
    return rows


def fleet(a):
    """--listen with 16 cached file targets at -i 1ms: /metrics serve time (back-to-back
    scrapes for 1 s, then 20 scrapes/s), and every target's achieved/asked meanwhile."""
    probe = build_probe(a)
    secs = 4 if a.quick else 10
    work = tempfile.mkdtemp(prefix="ioprobe-bench.")
    try:
        paths = make_files(work, 16)
        port = free_port()
        p = subprocess.Popen([probe, "-C", "-i", "1ms", "-w", str(secs), "-B", "--listen",
                              str(port)] + paths, stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        size = len(scrape_body(port))
        busy = []
        t1 = time.monotonic() + 1
        while time.monotonic() < t1:
            busy.append(scrape(port))
        paced = []
        end = time.monotonic() + secs - 2.5
        while time.monotonic() < end:
            paced.append(scrape(port))
            time.sleep(max(0, 1 / 20 - paced[-1] / 1e9))
        out = p.communicate()[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ratios = [int(l.split()[8]) / (int(l.split()[9]) / 1e9) / 1000 for l in out.splitlines()]

    def med_p99(t):
        t = sorted(t)
        return f"{statistics.median(t) / 1e3:.0f} us / {t[min(len(t) - 1, len(t) * 99 // 100)] / 1e3:.0f} us"
    rows = [(f"/metrics, 16 targets ({size // 1024} KiB), back-to-back scrapes: median / p99",
             f"{med_p99(busy)} ({len(busy)} scrapes)", "goal <= 2 ms"),
            ("/metrics, 16 targets, 20 scrapes/s: median / p99",
             f"{med_p99(paced)} ({len(paced)} scrapes)", "goal <= 2 ms"),
            ("16 targets -C -i 1ms beside the scrapes, achieved/asked min / max",
             f"{min(ratios):.4f} / {max(ratios):.4f} ({len(ratios)} targets)", "goal >= 0.995")]
    rows += fleet_idle(a)
    write_table(a, rows, "<!-- bench-fleet:begin -->", "<!-- bench-fleet:end -->")


def tree_split(pid):
    """(ns of pid's own threads, ns of its live children's threads): the main process, and the
    processes that issue the requests (the probers' children, the hang watchdog's)."""
    def threads(p):
        return [f"/proc/{p}/task/{t}" for t in os.listdir(f"/proc/{p}/task")]

    def ns(t):
        try:
            return int(open(f"{t}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            return 0  # a thread that ended between the listing and the read
    own = threads(pid)
    kids, sub = [], []
    for t in own:
        kids += open(f"{t}/children").read().split()
    for k in kids:
        try:
            sub += threads(k)
        except OSError:
            pass
    return sum(ns(t) for t in own), sum(ns(t) for t in sub)


def idle_cpu(cmd, port, secs):
    """Run cmd (an exporter listening on port), scraped every 15 s as Prometheus does by
    default; its steady CPU over secs (its children included) once 5 s passed (the start is
    not idle), in seconds, and the share of it its children took."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    try:
        scrape(port)
    except OSError:
        pass
    start = tree_split(p.pid)
    end = time.monotonic() + secs
    while time.monotonic() < end:
        time.sleep(min(15, max(0, end - time.monotonic())))
        try:
            scrape(port)
        except OSError:
            pass
    stop = tree_split(p.pid)
    p.terminate()
    p.wait()
    return (stop[0] - start[0] + stop[1] - start[1]) / 1e9, (stop[1] - start[1]) / 1e9


def fleet_idle(a):
    """#35's idle cost: --listen at the default 1 request a second, 16 file targets and one,
    against prometheus-node-exporter's own (defaults) in the same run, each scraped every 15 s."""
    probe = build_probe(a)
    secs = 10 if a.quick else 60
    work = tempfile.mkdtemp(prefix="ioprobe-bench.")
    try:
        paths = make_files(work, 16)
        rows, cost = [], {}
        for n in (16, 1):
            port = free_port()
            cpu, kids = idle_cpu([probe, "-q", "--listen", str(port)] + paths[:n], port, secs)
            cost[n] = cpu
            rows.append((f"--listen idle: {n} target{'s' if n > 1 else ''} at 1 request/s, "
                         f"scraped every 15 s: steady CPU over {secs} s (scheduler time)",
                         f"{cpu / secs * 100:.2f} % of a core ({cpu / (n * secs) * 1e3:.2f} ms "
                         f"per request; the processes that issue the requests "
                         f"{kids / secs * 100:.2f} %, the rest {(cpu - kids) / secs * 100:.2f} %)",
                         "goal <= 0.3 % for 16 targets" if n > 1 else ""))
        ne = shutil.which("prometheus-node-exporter")
        if ne:
            port = free_port()
            cpu = idle_cpu([ne, f"--web.listen-address=127.0.0.1:{port}"], port, secs)[0]
            rows.append(("prometheus-node-exporter (its default collectors), the same "
                         "scrapes: CPU", f"{cpu / secs * 100:.2f} % of a core; 16 targets "
                         f"are {cost[16] / max(cpu, 1e-9):.1f} x it", ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def scrape_body(port):
    """The body of one GET /metrics."""
    import socket
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data.split(b"\r\n\r\n", 1)[-1]


def lateness_p99(objs):
    late = sorted(o["io"]["lateness"] for o in objs if "io" in o)
    return late[min(len(late) - 1, int(len(late) * 0.99))], late[len(late) // 2]


def stretch(src, dst, periods):
    """Write to dst the recording src with its period lines repeated until every target has
    `periods` of them (seq, mono and real moved on by one recorded period each time)."""
    lines = [json.loads(l) for l in open(src)]
    head = lines[0]
    per = [l for l in lines if l["type"] == "period"]
    n = head["targets"] and len(head["targets"])
    step = head["period"] or 1000000000
    base = {}
    for l in per:
        base.setdefault(l["target"], []).append(l)
    with open(dst, "w") as f:
        f.write(json.dumps(head) + "\n")
        for k in range(periods):
            for t in range(n):
                src_l = dict(base[t][k % len(base[t])])
                src_l["seq"] = k
                src_l["mono"] = (k + 1) * step
                src_l["real"] = head["real"] + (k + 1) * step
                f.write(json.dumps(src_l, separators=(",", ":")) + "\n")
        f.write(json.dumps({"type": "end", "real": head["real"] + (periods + 1) * step,
                            "exit": 0}) + "\n")


def record(a):
    """--record's cost at 10 k req/s; --report of a 1-hour 16-target recording."""
    probe = build_probe(a)
    reps = 1 if a.quick else 3
    n = 5000 if a.quick else 20000
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="ioprobe-bench.", dir=base)
    rows = []
    try:
        paths = make_files(work, 16)
        res = {"plain": [], "record": [], "requests": []}
        for rep in range(reps):
            for kind in ("plain", "record", "requests"):
                extra = []
                if kind != "plain":
                    rec = os.path.join(work, f"r{rep}{kind}.jsonl")
                    extra = ["--record", rec] + (["--record-requests"] if kind == "requests" else [])
                objs = json.loads(run([probe, "-C", "-r", "10k", "-c", str(n), "-J"] + extra +
                                      [paths[0]]))
                tot = [o for o in objs if "load" in o][-1]["load"]
                p99, med = lateness_p99(objs)
                res[kind].append((tot["count"] / (tot["time"] / 1e9) / 10000, p99, med))
        for kind, what in (("plain", "no recording"), ("record", "--record"),
                           ("requests", "--record --record-requests")):
            r = res[kind]
            rows.append((f"-C -r 10k, {n} requests, {what}: achieved/asked, lateness median / p99",
                         f"{min(x[0] for x in r):.4f}..{max(x[0] for x in r):.4f}, "
                         f"{statistics.median(x[2] for x in r) / 1e3:.1f} us / "
                         f"{statistics.median(x[1] for x in r) / 1e3:.1f} us ({len(r)} runs)",
                         "goal: rate within 2 % of no recording, p99 not moved" if kind != "plain"
                         else "-"))
        # a real 16-target recording, stretched to an hour and to 6 minutes
        short = os.path.join(work, "short.jsonl")
        subprocess.run([probe, "-C", "-i", "1ms", "-w", "3" if a.quick else "8", "-q",
                        "--record", short] + paths, check=True, capture_output=True)
        for mins in (6, 60):
            rec = os.path.join(work, f"h{mins}.jsonl")
            stretch(short, rec, mins * 60)
            out = os.path.join(work, f"h{mins}.html")
            t0 = time.monotonic()
            rss = max_rss_kib([probe, "--replay", rec, "--report", out, "-q"])
            wall = time.monotonic() - t0
            rows.append((f"--replay --report of a {mins}-minute, 16-target recording "
                         f"({os.path.getsize(rec) / 1e6:.0f} MB): time, report size, max RSS",
                         f"{wall:.2f} s, {os.path.getsize(out) / 1e6:.2f} MB, {rss / 1024:.1f} MB",
                         "goal <= 2 s for 1 hour; RSS flat" if mins == 60 else "-"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    write_table(a, rows, "<!-- bench-record:begin -->", "<!-- bench-record:end -->")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--readme", action="store_true", help="write the table into README.md")
    ap.add_argument("--quick", action="store_true", help="shorter runs (smoke test)")
    ap.add_argument("--multi", action="store_true", help="only the 16-target run (issue 16)")
    ap.add_argument("--fleet", action="store_true",
                    help="only /metrics with 16 targets (issue 17)")
    ap.add_argument("--depth", action="store_true", help="only the queue-depth runs (issue 14)")
    ap.add_argument("--record", action="store_true",
                    help="only --record's cost and --report's time (issue 27)")
    a = ap.parse_args()
    if a.record:
        return record(a)
    if a.multi:
        return multi(a)
    if a.fleet:
        return fleet(a)
    if a.depth:
        return depth(a)
    subprocess.run(["meson", "compile", "-C", a.build, "ioprobe", "floor"], check=True,
                   capture_output=True)
    probe = os.path.join(a.build, "ioprobe")
    floor = os.path.join(a.build, "bench", "floor")
    ioping = shutil.which("ioping")
    rows = []
    work = tempfile.mkdtemp(prefix="ioprobe-bench.")
    try:
        data = os.path.join(work, "data")
        with open(data, "wb") as f:
            f.write(os.urandom(64 << 20))
        with open(data, "rb") as f:  # warm the page cache: -C runs read cached data
            while f.read(1 << 20):
                pass
        secs = "0.5" if a.quick else "2"

        # 1. achieved / asked rate on a cached file
        for rate in (1000, 10000, 20000, 50000, 100000):
            line = [f"rate -r {rate // 1000}k, achieved/asked"]
            for tool in ([probe] + ([ioping] if ioping else [])):
                f = raw_fields(run([tool, "-C", "-r", str(rate), "-w", secs, "-q", "-B", data]))
                line.append(f"{f[8] / (f[9] / 1e9) / rate:.4f}")
            rows.append((line[0], line[1], f"ioping {line[2]}" if ioping else "-",
                         "goal >= 0.995"))

        # 2. start lateness at -i 1ms (ioprobe's io.lateness; ioping has no such field)
        n = 500 if a.quick else 2000
        objs = json.loads(run([probe, "-C", "-i", "1ms", "-c", str(n), "-J", data]))
        late = sorted(o["io"]["lateness"] for o in objs if "io" in o)
        med, p99 = late[len(late) // 2], late[min(len(late) - 1, int(len(late) * 0.99))]
        rows.append(("start lateness -i 1ms, median / p99", f"{med / 1e3:.1f} us / {p99 / 1e3:.1f} us",
                     "-", "goal <= 5 us / <= 50 us"))

        # 3. reported avg at -C -i 0, per engine, medians of alternating runs
        count = "50000" if a.quick else "300000"
        reps = 7
        avg = {}
        for _ in range(reps):
            for name, cmd in [("sync", [probe, "--engine=sync"]), ("libaio", [probe, "-A"]),
                              ("io_uring", [probe, "-U"])] + ([("ioping", [ioping])] if ioping else []) \
                             + ([("ioping -A", [ioping, "-A"])] if ioping else []):
                f = raw_fields(run(cmd + ["-C", "-i", "0", "-c", count, "-B", data]))
                avg.setdefault(name, []).append(f[5])
            for mode in ("sync", "io_uring"):
                avg.setdefault("floor " + mode, []).append(int(run([floor, mode, data, count])))
        med = {k: statistics.median(v) for k, v in avg.items()}
        ref = med.get("ioping")
        rows.append(("avg -C -i 0, sync", f"{med['sync']:.0f} ns", f"{med['sync'] / ref:.3f} x ioping" if ref else "-",
                     "goal <= 1.02 x ioping"))
        rows.append(("avg -C -i 0, libaio", f"{med['libaio']:.0f} ns",
                     f"{med['libaio'] / med['ioping -A']:.3f} x ioping -A" if ref else "-", "-"))
        rows.append(("avg -C -i 0, io_uring", f"{med['io_uring']:.0f} ns",
                     f"{med['io_uring'] / med['floor io_uring']:.3f} x bare io_uring loop",
                     "goal <= 1.15 x bare loop"))
        rows.append(("avg -C -i 0, bare loops", f"sync {med['floor sync']:.0f} ns, io_uring {med['floor io_uring']:.0f} ns",
                     "-", "floor"))

        # 4. -R requests per second (rapid, 64m working set in a directory)
        rdir = os.path.join(work, "rdir")
        os.mkdir(rdir)
        rps = {}
        for _ in range(reps):
            for name, tool in [("ioprobe", probe)] + ([("ioping", ioping)] if ioping else []):
                f = raw_fields(run([tool, "-R", "-B", "-w", secs, rdir]))
                rps.setdefault(name, []).append(f[8] / (f[9] / 1e9))
        r = {k: statistics.median(v) for k, v in rps.items()}
        rows.append(("-R requests/s", f"{r['ioprobe']:.0f}",
                     f"{r['ioprobe'] / r['ioping']:.3f} x ioping" if ioping else "-", "goal >= 1.0 x"))

        # 5. max RSS with run length (each tool's RSS varies by ~150 KiB from run to run:
        # the median of alternating runs, 5 at 10^4 requests, 3 at the long length)
        for reqs in (("10000", "10^4"), ("1000000" if a.quick else "10000000", "10^6" if a.quick else "10^7")):
            n = 5 if reqs[0] == "10000" else 3
            mine_l, theirs_l = [], []
            for _ in range(n):
                mine_l.append(max_rss_kib([probe, "-C", "-i", "0", "-q", "-c", reqs[0], data]))
                if ioping:
                    theirs_l.append(max_rss_kib([ioping, "-C", "-i", "0", "-q", "-c", reqs[0], data]))
            mine = int(statistics.median(mine_l))
            theirs = int(statistics.median(theirs_l)) if theirs_l else None
            rows.append((f"max RSS, {reqs[1]} requests", f"{mine} KiB",
                         f"{mine / theirs:.2f} x ioping ({theirs} KiB)" if theirs else "-", "goal <= 1.5 x, flat"))

        # 6. fleet endpoint (issue 17): /metrics serve time, and 20 scrapes/s beside the probe
        rows.extend(bench_listen(probe, data, a.quick))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    uname = os.uname()
    table = [f"Measured {time.strftime('%Y-%m-%d')} on {uname.sysname} {uname.release}, "
             f"{os.cpu_count()} CPUs, ioping {'1.3 (Debian)' if ioping else 'not installed'}"
             f"{' (quick run)' if a.quick else ''}; `bench/run.py` to reproduce.", "",
             "| measure | ioprobe | ratio | goal |", "|---|---|---|---|"]
    table += [f"| {a_} | {b} | {c} | {d} |" for a_, b, c, d in rows]
    replace_between(a, "\n".join(table), "<!-- bench:begin -->", "<!-- bench:end -->")


if __name__ == "__main__":
    main()
