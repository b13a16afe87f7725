#!/usr/bin/env python3
"""Hostile and ordinary HTTP clients against `ioprobe --listen` (t_fleet_http.sh).

Usage: fleet_http.py PORT CHECK
Each CHECK prints "ok - ..." or "FAIL - ..." lines and the script exits 1 on any
failure. Every wait is bounded (socket timeouts, deadlines); nothing loops forever.
"""
import os
import random
import resource
import select
import socket
import sys
import time

HOST = "127.0.0.1"
PORT = int(sys.argv[1])
FAILS = 0


def report(ok, text):
    global FAILS
    print(("ok - " if ok else "FAIL - ") + text, flush=True)
    if not ok:
        FAILS += 1


def connect(timeout=5.0):
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    return s


def read_response(s, deadline):
    """Read one response (head + Content-Length body). Returns (status, headers, body) or
    (None, reason) when the connection closed or the deadline passed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except (socket.timeout, TimeoutError):
            return None, "timeout", b""
        except (ConnectionResetError, BrokenPipeError):
            return None, "reset", b""
        if not chunk:
            return None, "closed", b""
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, v = line.split(":", 1)
        headers[k.strip().lower()] = v.strip()
    n = int(headers.get("content-length", "0"))
    return status, headers, body, n


def request(raw, deadline_s=3.0, head=False):
    s = connect()
    s.sendall(raw)
    r = read_response(s, time.monotonic() + deadline_s)
    if r[0] is None:
        s.close()
        return r[0], r[1], b""
    status, headers, body, n = r
    if not head:
        while len(body) < n:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    s.close()
    return status, headers, body


def check_basic():
    st, h, b = request(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    report(st == 200 and h.get("content-type") == "text/plain; version=0.0.4; charset=utf-8"
           and b.startswith(b"# HELP ioprobe_request_duration_seconds ")
           and len(b) == int(h["content-length"]), "GET /metrics: 200, text 0.0.4, full body")
    st, h, b = request(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text;"
                       b"version=1.0.0,text/plain;version=0.0.4;q=0.5\r\nConnection: close\r\n\r\n")
    report(st == 200 and h.get("content-type") ==
           "application/openmetrics-text; version=1.0.0; charset=utf-8"
           and b.endswith(b"# EOF\n"), "GET /metrics with OpenMetrics Accept: OpenMetrics")
    st, h, b = request(b"HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", head=True)
    report(st == 200 and int(h.get("content-length", 0)) > 1000 and b == b"",
           "HEAD /metrics: length, no body")
    st, h, b = request(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    report(st == 200 and b'href="/metrics"' in b and h["content-type"].startswith("text/html"),
           "GET /: landing page")
    st, h, b = request(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    report(st == 405 and h.get("allow") == "GET, HEAD", "POST /metrics: 405 with Allow")
    for path in (b"/../", b"/../etc/passwd", b"/metrics/../metrics", b"/nope"):
        st, h, b = request(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        report(st == 404, "GET %s: 404" % path.decode())
    st, h, b = request(b"GET /metrics HTTP/1.1\r\n" + b"X-Big: " + b"a" * 9000 + b"\r\n\r\n")
    report(st == 431, "9000-byte header: 431")
    st, h, b = request(b"GET /metrics HTTP/2.0\r\n\r\n")
    report(st == 505, "HTTP/2.0 request line: 505")
    # keep-alive: two requests, one connection, the second pipelined behind the first
    s = connect()
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    r1 = read_response(s, time.monotonic() + 3)
    ok = r1[0] == 200
    if ok:
        body = r1[2][r1[3]:]  # bytes of the second response already read
        s2 = read_response_from(s, body, time.monotonic() + 3)
        ok = s2 == 200
    s.close()
    report(ok, "keep-alive: two pipelined requests on one connection")


def read_response_from(s, pending, deadline):
    data = pending
    while b"\r\n\r\n" not in data:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return int(data.split(b"\r\n", 1)[0].split()[1])


def check_garbage():
    """20 random blobs at once: each is answered (4xx/5xx) or dropped within the head
    timeout (5 s) plus margin."""
    t0 = time.monotonic()
    rnd = random.Random(7)
    socks = []
    for i in range(20):
        blob = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 600)))
        s = connect()
        try:
            s.sendall(blob)
        except OSError:
            pass
        socks.append(s)
    outcomes = []
    for s in socks:
        try:
            r = read_response(s, t0 + 7.5)
            outcomes.append(r[0] if r[0] is not None else r[1])
        except OSError:
            outcomes.append("reset")
        s.close()
    bad = [o for o in outcomes if o not in (400, 414, 431, 505, 404, 405, "closed", "reset")]
    report(not bad and time.monotonic() - t0 < 8,
           "20 garbage blobs answered 4xx/5xx or dropped in %.2f s (%s)"
           % (time.monotonic() - t0, sorted(set(map(str, outcomes)))))


def check_long_line():
    t0 = time.monotonic()
    s = connect()
    s.settimeout(5)
    line = b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\n\r\n"
    sent_err = None
    try:
        s.sendall(line)
    except OSError as e:
        sent_err = e
    r = read_response(s, time.monotonic() + 5)
    s.close()
    dt = time.monotonic() - t0
    report((r[0] == 414 or r[1] in ("closed", "reset")) and dt < 8,
           "1 MiB request line: %s in %.2f s" % (r[0] or r[1], dt))


def check_slowloris():
    """70 clients trickle a request a byte at a time: others are still served at once, and
    every trickler is cut within the head timeout (5 s) plus margin."""
    slow = []
    for i in range(70):
        s = connect()
        s.setblocking(False)
        slow.append(s)
    t0 = time.monotonic()
    msg = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    closed_at = {}
    served = []
    pos = 0
    while time.monotonic() - t0 < 9 and len(closed_at) < len(slow):
        for s in slow:
            if s in closed_at:
                continue
            try:
                s.send(msg[pos % len(msg):pos % len(msg) + 1])
                if s.recv(4096) == b"":
                    closed_at[s] = time.monotonic() - t0
            except BlockingIOError:
                pass
            except OSError:
                closed_at[s] = time.monotonic() - t0
        pos += 1
        if pos % 5 == 0:
            q0 = time.monotonic()
            st, h, b = request(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                               deadline_s=2)
            served.append((st, time.monotonic() - q0))
        time.sleep(0.2)
    for s in slow:
        s.close()
    ok_served = served and all(st == 200 and dt < 1.0 for st, dt in served)
    report(ok_served, "slowloris: %d ordinary scrapes meanwhile all 200 within 1 s (max %.3f s)"
           % (len(served), max((dt for _, dt in served), default=0)))
    report(len(closed_at) == len(slow) and max(closed_at.values()) < 7.5,
           "slowloris: all %d tricklers cut within 7.5 s (%d cut, last at %.2f s)"
           % (len(slow), len(closed_at), max(closed_at.values(), default=-1)))


def check_thousand():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    t0 = time.monotonic()
    socks = []
    for i in range(1000):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect((HOST, PORT))
        except BlockingIOError:
            pass
        socks.append(s)
    req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    pending = {s: b"" for s in socks}
    unsent = set(socks)
    result = {}
    deadline = time.monotonic() + 20
    while pending and time.monotonic() < deadline:
        r, w, _ = select.select(list(pending)[:900], list(unsent)[:900], [], 0.2)
        for s in w:
            try:
                s.send(req)
            except OSError:
                result[s] = "reset"
                pending.pop(s, None)
            unsent.discard(s)
        for s in r:
            try:
                chunk = s.recv(65536)
            except OSError:
                chunk = b""
            if chunk:
                pending[s] += chunk
            else:
                data = pending.pop(s)
                result[s] = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/1.1 ") \
                    else "dropped"
    for s in socks:
        s.close()
    dt = time.monotonic() - t0
    counts = {}
    for v in result.values():
        counts[v] = counts.get(v, 0) + 1
    report(len(result) == 1000 and counts.get("200", 0) >= 500 and dt < 20,
           "1000 connections at once: all resolved in %.2f s %s" % (dt, counts))


for name in sys.argv[2:]:
    globals()["check_" + name]()
sys.exit(1 if FAILS else 0)
