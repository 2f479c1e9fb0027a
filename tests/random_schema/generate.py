#!/usr/bin/env python3
"""Writes random C++ struct and enum types, and their jitser registration, for the random-schema
test (tests/random_schema_test.cpp).

Every kind the builder describes appears: each scalar width, enums with random names (not only
identifiers) and values at the ends of their range, decimals, times in every unit, nested
structs, value wrappers, vectors (of bool too), std::array and T[N], optionals, unique and shared
pointers, maps and unordered maps of every key kind, the std::pmr forms of strings, vectors and
maps, jitser::Value, nested several levels deep, with renames, nullable fields and defaults.
Some structs are allocator-aware (a std::pmr allocator, made with tracked_resource()), so that a
read into one as the root makes its shared objects there. The same seed always writes the same
file.

  generate.py --seeds 1 2 3 --count 40 --out-dir DIR

writes DIR/types_<seed>.cpp for each seed and DIR/schemas.cpp, the table of them.
"""
import argparse
import random

INTS = {  # C++ type: (min, max)
    "std::int8_t": (-2**7, 2**7 - 1), "std::int16_t": (-2**15, 2**15 - 1),
    "std::int32_t": (-2**31, 2**31 - 1), "std::int64_t": (-2**63, 2**63 - 1),
    "std::uint8_t": (0, 2**8 - 1), "std::uint16_t": (0, 2**16 - 1),
    "std::uint32_t": (0, 2**32 - 1), "std::uint64_t": (0, 2**64 - 1),
}
TIME_UNITS = ["std::chrono::seconds", "std::chrono::milliseconds", "std::chrono::microseconds",
              "std::chrono::nanoseconds"]
DURATIONS = ["std::chrono::duration<std::int64_t>", "std::chrono::duration<std::int64_t, std::milli>",
             "std::chrono::duration<std::int64_t, std::micro>",
             "std::chrono::duration<std::int64_t, std::nano>"]
# Types whose default constructor initializes them.
CLASSES = ("std::vector", "std::map", "std::unordered_map", "std::optional", "std::unique_ptr",
           "std::shared_ptr", "std::string", "std::pmr::", "jitser::Value", "jitser::Decimal", "S")
STRINGS = ("std::string", "std::pmr::string")
# Names that are not identifiers: spaces, quotes, backslashes, controls, non-ASCII, digits first.
ODD_NAMES = ["a b", "\"q\"", "back\\slash", "tab\t", "nl\n", "\u00e9t\u00e9", "\u65e5\u672c",
             "9lives", "x/y", "{}", "", "\U0001F600", "ctrl\x01", "<&>", "'"]


def cpp_string(text):
    """A C++ string literal for any UTF-8 text."""
    out = '"'
    for b in text.encode("utf-8"):
        c = chr(b)
        if c in '"\\':
            out += "\\" + c
        elif 0x20 <= b < 0x7f and c != "?":
            out += c
        else:
            out += '\\%03o' % b
    return out + '"'


class Generator:
    def __init__(self, seed, count):
        self.r = random.Random(seed)
        self.count = count
        self.enums = []    # (name, underlying, [(value name, value)])
        self.structs = []  # (name, wrapper, [(field name, member, type, options)])
        self.used_names = set()
        self.messages = set()  # structs marked Protobuf messages
        self.aware = set()  # allocator-aware structs

    def name(self, prefix):
        """A registered name: an identifier most of the time, any UTF-8 text sometimes."""
        while True:
            if self.r.random() < 0.2:
                n = prefix + self.r.choice(ODD_NAMES) + str(self.r.randrange(1000))
            else:
                n = prefix + str(self.r.randrange(10**6))
            if n not in self.used_names:
                self.used_names.add(n)
                return n

    def value_names(self, n):
        names = set()
        while len(names) < n:
            choice = self.r.random()
            if choice < 0.4:
                names.add("V%d" % self.r.randrange(100))
            elif choice < 0.7:
                names.add(self.r.choice(["A", "B", "SMALL", "LARGE", "x", "yes", "no"]) +
                          str(self.r.randrange(3)))
            else:
                odd = self.r.choice(ODD_NAMES)
                if odd:
                    names.add(odd)
        return sorted(names)

    def make_enum(self):
        underlying = self.r.choice(list(INTS))
        lo, hi = INTS[underlying]
        n = self.r.randint(1, 5)
        values = set()
        for v in [lo, hi, 0, 1, hi - 1]:
            if len(values) < n and self.r.random() < 0.5:
                values.add(v)
        while len(values) < n:
            values.add(self.r.randint(lo, hi))
        names = self.value_names(n)
        name = "E%d" % len(self.enums)
        self.enums.append((name, underlying, list(zip(names, sorted(values)))))
        return name

    def scalar(self):
        kinds = ["bool", "float", "double", "std::string", "std::pmr::string",
                 "std::vector<std::uint8_t>", "std::vector<std::byte>",
                 "std::pmr::vector<std::uint8_t>", "jitser::Decimal", "jitser::Value", "char16_t",
                 "time", "duration", "enum"] + list(INTS) * 1
        k = self.r.choice(kinds)
        if k == "time":
            return "std::chrono::sys_time<%s>" % self.r.choice(TIME_UNITS)
        if k == "duration":
            return self.r.choice(DURATIONS)
        if k == "enum":
            if self.enums and self.r.random() < 0.6:
                return self.r.choice(self.enums)[0]
            return self.make_enum()
        return k

    def key(self):
        k = self.r.choice(list(STRINGS) + ["enum"] + list(INTS))
        if k == "enum":
            return self.r.choice(self.enums)[0] if self.enums else self.make_enum()
        return k

    def type(self, depth, index):
        """A field type. Structs declared earlier may be held by value; any struct, this one
        too, may be reached through a pointer or a container."""
        roll = self.r.random()
        if depth >= 3 or roll < 0.45:
            if self.structs and self.r.random() < 0.25:
                return self.r.choice(self.structs)[0]
            return self.scalar()
        inner = self.type(depth + 1, index)
        c = self.r.choice(["vector", "vector", "array", "optional", "unique", "shared", "map",
                           "umap", "vecbool", "self"])
        # The std::pmr forms of the containers that allocate, now and then.
        pmr = "pmr::" if c in ("vector", "map", "umap") and self.r.random() < 0.25 else ""
        if c == "vector":
            return "std::%svector<%s>" % (pmr, inner)
        if c == "array":
            return "std::array<%s, %d>" % (inner, self.r.randint(1, 3))
        if c == "optional":
            return "std::optional<%s>" % inner
        if c == "unique":
            return "std::unique_ptr<%s>" % inner
        if c == "shared":
            return "std::shared_ptr<%s>" % inner
        if c in ("map", "umap"):
            return "std::%s%s<%s, %s>" % (pmr, "map" if c == "map" else "unordered_map",
                                          self.key(), inner)
        if c == "vecbool":
            return "std::vector<bool>"
        # A pointer back to the struct being declared: recursion the filler bounds by depth.
        return "std::%s<S%d>" % (self.r.choice(["unique_ptr", "shared_ptr"]), index)

    def default_for(self, t):
        if t == "bool":
            return self.r.choice(["true", "false"])
        if t in INTS:
            lo, hi = INTS[t]
            v = self.r.choice([lo, hi, 0, self.r.randint(lo, hi)])
            return "%s(%s)" % (t, "%dULL" % v if v > 2**63 - 1 else ("INT64_MIN" if v == -2**63 else "%dLL" % v))
        if t in ("float", "double"):
            return self.r.choice(["0.5", "-2.25", "1e10", "0.0"])
        if t in STRINGS:
            return cpp_string(self.r.choice(["", "dflt", "\u00e9", "a\"b"]))
        return None

    def make_struct(self):
        index = len(self.structs)
        name = self.name("S")
        if self.r.random() < 0.1:
            t = self.scalar()
            self.structs.append(("S%d" % index, name, True, [("value", "value", t, "")]))
            return
        fields = []
        wire_names = set()
        for i in range(self.r.randint(0, 8)):
            t = self.type(0, index)
            while True:
                fname = self.r.choice(["f%d" % i, "field_%d" % i, "x%d" % i] +
                                      [o + str(i) for o in ODD_NAMES])
                if fname not in wire_names:
                    break
            options = []
            wire = fname
            if self.r.random() < 0.15:
                wire = "w%d_%s" % (i, self.r.choice(ODD_NAMES))
                if wire in wire_names:
                    wire = fname
                else:
                    options.append(".rename(%s)" % cpp_string(wire))
            wire_names.add(wire)
            if self.r.random() < 0.08:
                alias = "alias%d_%s" % (i, self.r.choice(ODD_NAMES))
                if alias not in wire_names:
                    wire_names.add(alias)
                    options.append(".alias(%s)" % cpp_string(alias))
            if self.r.random() < 0.1:
                options.append(".number(%d)" % (100 + i))
            if self.r.random() < 0.15:
                options.append(".nullable()")
            d = self.default_for(t)
            if d is not None and self.r.random() < 0.3:
                options.append(".default_to(%s)" % d)
            fields.append((fname, "m%d" % i, t, "".join(options)))
        if self.r.random() < 0.2:
            # A oneof: adjacent optionals and pointers of which the filler sets at most one.
            group = self.r.choice(["choice", "kind", "o\u00e9"])
            for k in range(self.r.randint(1, 3)):
                i = len(fields)
                holder = self.r.choice(["optional", "unique_ptr", "shared_ptr"])
                t = "std::%s<%s>" % (holder, self.type(1, index))
                fields.append(("alt%d" % i, "m%d" % i, t, ".oneof(%s)" % cpp_string(group)))
        # Now and then allocator-aware, with an object behind a shared_ptr to make in its
        # resource.
        if self.r.random() < 0.15:
            self.aware.add("S%d" % index)
            i = len(fields)
            fields.append(("shared%d" % i, "m%d" % i, "std::shared_ptr<%s>" % self.type(1, index),
                           ""))
        # Now and then a Protobuf message, whose JSON follows Protobuf's mapping.
        if self.r.random() < 0.15:
            self.messages.add("S%d" % index)
        self.structs.append(("S%d" % index, name, False, fields))

    def write(self, seed):
        for _ in range(self.count):
            self.make_struct()
        out = ["// Written by tests/random_schema/generate.py --seed %d --count %d." % (seed, self.count),
               '#include "tests/random_schema/random_types.h"', "",
               "namespace jitser::random_schema::seed_%d {" % seed, "namespace {", ""]
        for name, underlying, values in self.enums:
            body = ", ".join("v%d = %s" % (i, "%dULL" % v if v > 2**63 - 1 else (
                "INT64_MIN" if v == -2**63 else "%dLL" % v)) for i, (_, v) in enumerate(values))
            out.append("enum class %s : %s { %s };" % (name, underlying, body))
        for cname, _, _, _ in self.structs:
            out.append("struct %s;" % cname)
        for cname, _, _, fields in self.structs:
            out.append("struct %s {" % cname)
            if cname in self.aware:
                out += ["  using allocator_type = std::pmr::polymorphic_allocator<>;",
                        "  %s() = default;" % cname,
                        "  explicit %s(const allocator_type& a) : resource(a.resource()) {}" % cname,
                        "  allocator_type get_allocator() const { return resource; }",
                        "  std::pmr::memory_resource* resource = tracked_resource();"]
            for _, member, t, _ in fields:
                # A C array now and then, where the element is a plain value.
                if t.startswith("std::array<") and self.r.random() < 0.3 and "," not in t[11:-1].rsplit(",", 1)[0]:
                    elem, n = t[11:-1].rsplit(",", 1)
                    if int(n) > 0:
                        out.append("  %s %s[%s]{};" % (elem, member, n.strip()))
                        continue
                # Class members get no initializer: GCC 12 fails on some (an internal error)
                # where the class holds a container of the struct being declared.
                needs_init = not t.startswith(CLASSES)
                out.append("  %s %s%s;" % (t, member, "{}" if needs_init else ""))
            out.append("};")
        out += ["", "}  // namespace", "", "Status register_types(Engine& engine) {",
                "  Status s;"]
        for name, _, values in self.enums:
            chain = "".join(".value(%s, %s::v%d)" % (cpp_string(n), name, i)
                            for i, (n, _) in enumerate(values))
            out.append("  if (s = engine.add(Enum<%s>(\"%s\")%s); !s) return s;" % (name, name, chain))
        for cname, name, wrapper, fields in self.structs:
            chain = ""
            for fname, member, _, options in fields:
                if wrapper:
                    chain += ".wraps(%s, &%s::%s)" % (cpp_string(fname), cname, member)
                else:
                    chain += ".field(%s, &%s::%s%s)" % (cpp_string(fname), cname, member,
                                                        ", opt()" + options if options else "")
            if cname in self.messages:
                chain = ".message()" + chain
            out.append("  if (s = engine.add(Struct<%s>(%s)%s); !s) return s;" % (cname, cpp_string(name), chain))
        out += ["  return s;", "}", "",
                "const std::vector<std::string>& struct_names() {",
                "  static const std::vector<std::string> names{%s};" % ", ".join(
                    cpp_string(n) for _, n, _, _ in self.structs),
                "  return names;", "}", "",
                "}  // namespace jitser::random_schema::seed_%d" % seed, ""]
        return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", required=True)
    p.add_argument("--count", type=int, default=40, help="structs per seed")
    p.add_argument("--out-dir", required=True)
    a = p.parse_args()
    for seed in a.seeds:
        write_if_changed("%s/types_%d.cpp" % (a.out_dir, seed), Generator(seed, a.count).write(seed))
    table = ['// Written by tests/random_schema/generate.py.',
             '#include "tests/random_schema/random_types.h"', "", "namespace jitser::random_schema {"]
    for seed in a.seeds:
        table += ["namespace seed_%d {" % seed, "Status register_types(Engine& engine);",
                  "const std::vector<std::string>& struct_names();", "}"]
    table += ["", "const std::vector<Schema>& schemas() {", "  static const std::vector<Schema> all{"]
    table += ["      {%d, &seed_%d::register_types, &seed_%d::struct_names}," % (s, s, s)
              for s in a.seeds]
    table += ["  };", "  return all;", "}", "", "}  // namespace jitser::random_schema", ""]
    write_if_changed("%s/schemas.cpp" % a.out_dir, "\n".join(table))


def write_if_changed(path, text):
    """Leaves an unchanged file alone, so that a new configure does not rebuild it."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
