#!/usr/bin/python3
"""Decode a protobuf exposition (varint-delimited io.prometheus.client.MetricFamily messages)
without protobuf libraries, from the wire format alone (an independent reader of what
ioprobe's protobuf-c encoder writes), and print it as text 0.0.4 does:

  # HELP name help / # TYPE name counter|gauge|histogram, then the samples
  name{labels} value; a histogram as _bucket{...,le="..."} (cumulative, +Inf = the count),
  _sum and _count, and its native part on a line of its own:
  # NATIVE name{labels} schema=4 zero_threshold=9.313225746154785e-10 zero_count=0
    buckets=INDEX:COUNT,...

Values are printed with repr() (the shortest string that reads back as the same double).
Usage: fleet_proto.py BODY_FILE
"""
import struct
import sys

TYPES = {0: "counter", 1: "gauge", 2: "summary", 3: "untyped", 4: "histogram"}


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def zigzag(v):
    return (v >> 1) ^ -(v & 1)


def fields(b):
    """(number, wire type, value) of each field of message b; bytes for length-delimited."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = struct.unpack("<d", b[i:i + 8])[0]
            i += 8
        elif wt == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif wt == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v


def repeated_sint(wt, v):
    """A repeated sint field, packed (wire type 2) or not."""
    if wt == 0:
        return [zigzag(v)]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(zigzag(x))
    return out


def label_text(labels, extra=None):
    parts = ['%s="%s"' % (n, v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
             for n, v in labels]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}"


def fmt(x):
    if x == float("inf"):
        return "+Inf"
    return repr(float(x))


def metric(name, ftype, b, out):
    labels, value, hist = [], None, None
    for num, wt, v in fields(b):
        if num == 1:
            ln = lv = ""
            for n2, _, v2 in fields(v):
                if n2 == 1:
                    ln = v2.decode()
                elif n2 == 2:
                    lv = v2.decode()
            labels.append((ln, lv))
        elif num in (2, 3):  # gauge, counter: field 1 is the value
            value = 0.0
            for n2, _, v2 in fields(v):
                if n2 == 1:
                    value = v2
        elif num == 7:
            hist = v
    if ftype != "histogram":
        out.append("%s%s %s" % (name, label_text(labels), fmt(value)))
        return
    count, total, buckets, native = 0, 0.0, [], {}
    spans, deltas = [], []
    for num, wt, v in fields(hist):
        if num == 1:
            count = v
        elif num == 2:
            total = v
        elif num == 3:
            cum, le = 0, None
            for n2, _, v2 in fields(v):
                if n2 == 1:
                    cum = v2
                elif n2 == 2:
                    le = v2
            buckets.append((le, cum))
        elif num == 5:
            native["schema"] = zigzag(v)
        elif num == 6:
            native["zero_threshold"] = v
        elif num == 7:
            native["zero_count"] = v
        elif num == 12:
            off = length = 0
            for n2, _, v2 in fields(v):
                if n2 == 1:
                    off = zigzag(v2)
                elif n2 == 2:
                    length = v2
            spans.append((off, length))
        elif num == 13:
            deltas += repeated_sint(wt, v)
    for le, cum in buckets:
        out.append("%s_bucket%s %s" % (name, label_text(labels, 'le="%s"' % le_text(le)),
                                       fmt(cum)))
    if not buckets or buckets[-1][0] != float("inf"):
        out.append("%s_bucket%s %s" % (name, label_text(labels, 'le="+Inf"'), fmt(count)))
    out.append("%s_sum%s %s" % (name, label_text(labels), fmt(total)))
    out.append("%s_count%s %s" % (name, label_text(labels), fmt(count)))
    if native:
        at, d, c, pairs = 0, 0, 0, []
        for off, length in spans:
            at += off
            for _ in range(length):
                c += deltas[d]
                d += 1
                if c:
                    pairs.append("%d:%d" % (at, c))
                at += 1
        assert d == len(deltas), "a delta per bucket of the spans"
        out.append("# NATIVE %s%s schema=%d zero_threshold=%r zero_count=%d buckets=%s" % (
            name, label_text(labels), native.get("schema", 0), native.get("zero_threshold", 0.0),
            native.get("zero_count", 0), ",".join(pairs)))


def le_text(le):
    """The OpenMetrics canonical number Prometheus makes of an upper bound (1e-05, 1.0)."""
    return "+Inf" if le == float("inf") else repr(le)


def main():
    b = open(sys.argv[1], "rb").read()
    i, out = 0, []
    while i < len(b):
        n, i = varint(b, i)
        msg, i = b[i:i + n], i + n
        name = help_text = ""
        ftype, metrics = "untyped", []
        for num, _, v in fields(msg):
            if num == 1:
                name = v.decode()
            elif num == 2:
                help_text = v.decode()
            elif num == 3:
                ftype = TYPES.get(v, str(v))
            elif num == 4:
                metrics.append(v)
        out.append("# HELP %s %s" % (name, help_text))
        out.append("# TYPE %s %s" % (name, ftype))
        for m in metrics:
            metric(name, ftype, m, out)
    print("\n".join(out))


main()
