#!/usr/bin/env python3
"""Turns the benchmark's JSON output into a table of medians and ratios, and checks the speed
targets of bench/README.md against one run.

    build/jitser_bench --benchmark_repetitions=5 --benchmark_out=bench.json \\
        --benchmark_out_format=json
    bench/table.py bench.json

Exits 1 when a target is missed, 2 when an entry a target needs is missing.
"""
import json
import re
import statistics
import sys
from collections import defaultdict

# (format, payload, op, faster impl, slower impl, at least this many times faster)
TARGETS = [
    ("binary", "MediaContent", "serialize", "jit", "interp", 5.0),
    ("binary", "MediaContent", "deserialize", "jit", "interp", 3.0),
    ("binary", "Sample", "serialize", "jit", "interp", 3.0),
    ("binary", "Sample", "deserialize", "jit", "interp", 3.0),
    ("binary", "A1", "serialize", "jit", "interp", 3.0),
    ("binary", "A1", "deserialize", "jit", "interp", 3.0),
    ("binary", "MediaContent", "serialize", "jit", "protobuf:protobuf_generated", 2.0),
    ("binary", "MediaContent", "deserialize", "jit", "protobuf:protobuf_generated", 2.0),
    ("json", "MediaContent", "serialize", "jit", "rapidjson", 3.0),
    ("json", "A1", "serialize", "jit", "rapidjson", 3.0),
    ("json", "MediaContent", "serialize", "jit", "nlohmann", 10.0),
    ("json", "A1", "serialize", "jit", "nlohmann", 10.0),
    ("json", "MediaContent", "deserialize", "jit", "simdjson_ondemand", 1.0),
    ("json", "A1", "deserialize", "jit", "simdjson_ondemand", 1.0),
    ("json", "MediaContent", "deserialize", "jit", "nlohmann", 10.0),
    ("json", "A1", "deserialize", "jit", "nlohmann", 10.0),
    ("json", "MediaContent", "serialize", "jit", "interp", 3.0),
    ("json", "MediaContent", "deserialize", "jit", "interp", 3.0),
    # a type loaded at run time against protobuf's DynamicMessage, on the same value
    ("json", "MediaContent_schema", "serialize", "jit", "json:MediaContent:protobuf_dynamic_json", 10.0),
    ("json", "MediaContent_schema", "deserialize", "jit", "json:MediaContent:protobuf_dynamic_json", 10.0),
    ("protobuf", "MediaContent_schema", "serialize", "jit", "protobuf:MediaContent:protobuf_dynamic", 10.0),
    ("protobuf", "MediaContent_schema", "deserialize", "jit", "protobuf:MediaContent:protobuf_dynamic", 10.0),
] + [
    # the Protobuf wire format against protoc's generated classes: the same work (from and into
    # the plain struct) at most half the time, and reading at most 0.7x of their parse alone
    ("protobuf", payload, op, "jit", "protobuf_generated", 2.0)
    for payload in ("MediaContent", "Sample") for op in ("serialize", "deserialize")
] + [
    ("protobuf", payload, "deserialize", "jit", f"protobuf:{payload}:parse:protobuf_generated", 1 / 0.7)
    for payload in ("MediaContent", "Sample")
] + [
    ("protobuf", "MediaContent", op, "jit", "interp", 3.0) for op in ("serialize", "deserialize")
] + [
    # MessagePack against msgpack-cxx with MSGPACK_DEFINE_MAP, the same document
    ("msgpack", "MediaContent", "serialize", "jit", "msgpack_cxx_map", 4.0),
    ("msgpack", "MediaContent", "deserialize", "jit", "msgpack_cxx_map", 20.0),
] + [
    ("msgpack", "MediaContent", op, "jit", "interp", 3.0) for op in ("serialize", "deserialize")
] + [
    # structs as arrays (EngineOptions::struct_arrays) against MSGPACK_DEFINE, the same bytes
    ("msgpack", "MediaContent", op, "jit_array", "msgpack_cxx_array", 2.0)
    for op in ("serialize", "deserialize")
] + [
    # the two large collections: at least as fast as the faster of msgpack-cxx's layouts
    ("msgpack", payload, op, "jit", peer, 1.0)
    for payload in ("StringList", "StringMap") for op in ("serialize", "deserialize")
    for peer in ("msgpack_cxx_map", "msgpack_cxx_array")
] + [
    # CBOR against libcbor (cbor_encode_* into a buffer; cbor_load plus a binding)
    ("cbor", "MediaContent", "serialize", "jit", "libcbor", 2.0),
    ("cbor", "MediaContent", "deserialize", "jit", "libcbor", 25.0),
] + [
    ("cbor", "MediaContent", op, "jit", "interp", 3.0) for op in ("serialize", "deserialize")
] + [
    ("cbor", payload, op, "jit", "libcbor", 1.0)
    for payload in ("StringList", "StringMap") for op in ("serialize", "deserialize")
] + [
    # MediaContent's MessagePack and CBOR codecs compile within the time of its JSON codec
    (fmt, "MediaContent", "compile", "jit", "json:jit", 1.0) for fmt in ("msgpack", "cbor")
] + [
    # first-tier code (docs/jit.md), which runs while optimized code compiles
    (fmt, "MediaContent", op, "first", "interp", 2.0)
    for fmt in ("binary", "json", "protobuf", "msgpack", "cbor")
    for op in ("serialize", "deserialize")
]
# (format, payload, op, impl, other payload, at most this many times slower than on it)
SLOWDOWN_LIMITS = [
    ("json", "MediaContent_shuffled", "deserialize", "jit", "MediaContent", 1.5),
] + [
    (fmt, "MediaContent_text", op, "jit", "MediaContent", 1.1)
    for fmt in ("binary", "json", "protobuf") for op in ("serialize", "deserialize")
]
# (format, payload, op, impl, other payload): ratios printed for information, with no limit
INFO_RATIOS = [
    (fmt, "MediaContent_schema", op, "jit", "MediaContent")
    for fmt in ("binary", "json", "protobuf") for op in ("serialize", "deserialize")
]
COMPILE_LIMIT_MS = 50.0
# compile/MediaContent/first: MediaContent's binary and JSON codecs running first-tier code.
FIRST_LIMIT_MS = 50.0
# compile/all/cached: every payload codec, binary and JSON, linked from a warm code cache.
CACHED_LIMIT_MS = 20.0
# compile/MediaContent/optimized: MediaContent's binary and JSON codecs on optimized code, at
# most half the time they took before the first tier and the code cache (about 0.37 s).
OPTIMIZED_LIMIT_MS = 185.0
# compile/generated1000/{cold,cached}: 2,000 codecs of generated types on first-tier code.
GENERATED_COLD_LIMIT_MS = 30000.0
GENERATED_CACHED_LIMIT_MS = 1000.0
# The resident memory compiled code adds per codec of those (the KB_per_codec counter).
KB_PER_CODEC_LIMIT = 100.0


def entry_name(run):
    name = run.get("run_name", run["name"]).removesuffix("/manual_time")
    return re.sub(r"/iterations:\d+$", "", name)


def counters(path, counter):
    """The median of a user counter of each entry that reports it."""
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    values = defaultdict(list)
    for run in runs:
        if counter in run and run.get("run_type") != "aggregate":
            values[entry_name(run)].append(run[counter])
    return {name: statistics.median(v) for name, v in values.items()}


def medians(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    times = defaultdict(list)
    reported = {}
    for run in runs:
        if run.get("error_occurred"):
            print(f"error: {run['name']}: {run.get('error_message')}", file=sys.stderr)
            continue
        name = entry_name(run)
        if run.get("run_type") == "aggregate":
            if run.get("aggregate_name") == "median":
                reported[name] = run["real_time"], run["time_unit"]
            continue
        times[name].append((run["real_time"], run["time_unit"]))
    out = {}
    for name, samples in times.items():
        out[name] = statistics.median(t for t, _ in samples), samples[0][1]
    out.update(reported)
    return out


def key(fmt, payload, op, impl):
    # a peer under its own format name (protobuf:protobuf_generated), payload name
    # (json:MediaContent:protobuf_dynamic_json) and operation (protobuf:Sample:parse:...)
    parts = impl.split(":")
    if len(parts) == 2:
        fmt, impl = parts
    elif len(parts) == 3:
        fmt, payload, impl = parts
    elif len(parts) == 4:
        fmt, payload, op, impl = parts
    return f"{fmt}/{payload}/{op}/{impl}"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    m = medians(sys.argv[1])
    rows = defaultdict(dict)
    for name, (t, unit) in m.items():
        parts = name.split("/")
        if len(parts) == 4:
            rows[(parts[1], parts[2])][f"{parts[0]}/{parts[3]}"] = (t, unit)
    impls = sorted({i for r in rows.values() for i in r})
    print(f"{'payload':<18} {'op':<12}" + "".join(f"{i:>30}" for i in impls) + "   interp/jit")
    for (payload, op), r in sorted(rows.items()):
        cells = "".join(
            f"{(f'{r[i][0]:.1f} {r[i][1]}' if i in r else '-'):>30}" for i in impls)
        ratio = " ".join(f"{fmt} {r[f'{fmt}/interp'][0] / r[f'{fmt}/jit'][0]:.2f}x"
                         for fmt in ("binary", "json", "protobuf")
                         if f"{fmt}/jit" in r and f"{fmt}/interp" in r)
        print(f"{payload:<18} {op:<12}{cells}   {ratio}")

    print()
    status = 0
    for fmt, payload, op, fast, slow, factor in TARGETS:
        a, b = key(fmt, payload, op, fast), key(fmt, payload, op, slow)
        if a not in m or b not in m:
            print(f"missing  {a} or {b}")
            status = max(status, 2)
            continue
        ratio = m[b][0] / m[a][0]
        ok = ratio >= factor
        status = status if ok else max(status, 1)
        print(f"{'ok  ' if ok else 'MISS'}  {a} is {ratio:.2f}x faster than {b} (target {factor}x)")
    for fmt, payload, op, impl, other, limit in SLOWDOWN_LIMITS:
        a, b = key(fmt, payload, op, impl), key(fmt, other, op, impl)
        if a not in m or b not in m:
            print(f"missing  {a} or {b}")
            status = max(status, 2)
            continue
        ratio = m[a][0] / m[b][0]
        ok = ratio <= limit
        status = status if ok else max(status, 1)
        print(f"{'ok  ' if ok else 'MISS'}  {a} takes {ratio:.2f}x the time of {other} "
              f"(limit {limit}x)")
    for fmt, payload, op, impl, other in INFO_RATIOS:
        a, b = key(fmt, payload, op, impl), key(fmt, other, op, impl)
        if a in m and b in m:
            print(f"info  {a} takes {m[a][0] / m[b][0]:.2f}x the time of {other}")
    # Times in milliseconds against a limit: (entry, limit, what the line says before the time).
    for entry, limit, what in [
            ("binary/MediaContent/compile/jit", COMPILE_LIMIT_MS,
             "MediaContent compiled after registration in"),
            ("compile/MediaContent/first", FIRST_LIMIT_MS,
             "MediaContent's binary and JSON codecs on first-tier code in"),
            ("compile/all/cached", CACHED_LIMIT_MS,
             "every payload codec linked from a warm cache in"),
            ("compile/MediaContent/optimized", OPTIMIZED_LIMIT_MS,
             "MediaContent's binary and JSON codecs on optimized code in"),
            ("compile/generated1000/cold", GENERATED_COLD_LIMIT_MS,
             "2,000 codecs of generated types on first-tier code, cold, in"),
            ("compile/generated1000/cached", GENERATED_CACHED_LIMIT_MS,
             "2,000 codecs of generated types on first-tier code, from the cache, in")]:
        if entry not in m:
            continue
        t, unit = m[entry]
        ms = t if unit == "ms" else t / 1e6 if unit == "ns" else t / 1e3
        ok = ms <= limit
        status = status if ok else max(status, 1)
        print(f"{'ok  ' if ok else 'MISS'}  {what} {ms:.1f} ms (target {limit:.0f} ms)")
    for entry, kb in counters(sys.argv[1], "KB_per_codec").items():
        ok = kb <= KB_PER_CODEC_LIMIT
        status = status if ok else max(status, 1)
        print(f"{'ok  ' if ok else 'MISS'}  {entry}: compiled code adds {kb:.1f} KB of resident "
              f"memory per codec (limit {KB_PER_CODEC_LIMIT:.0f} KB)")
    return status


if __name__ == "__main__":
    sys.exit(main())
