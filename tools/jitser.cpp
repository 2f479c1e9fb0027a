// The jitser command-line tool: shows what the JIT makes of the types of a schema file, and
// converts data between formats.
//
//   jitser types    --schema payloads.jitser
//   jitser dump-ir  --schema payloads.jitser --type MediaContent --format binary [--optimized]
//   jitser dump-asm --schema payloads.jitser --type MediaContent --format binary
//   jitser stats    --schema payloads.jitser
//   jitser convert  --schema payloads.jitser --type MediaContent --from json --to binary
//   jitser check-schema order.jitser [--canonical]
//   jitser cache --dir ~/.cache/jitser stats
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <jitser/jitser.h>
#include <jitser/proto.h>

#include "jit/code_cache.h"
#include "tools/records.h"
#include "typeinfo/registry.h"
#include "typeinfo/schema_text.h"
#include "typeinfo/value_slot.h"

namespace {

using namespace jitser;

constexpr const char* kUsage =
    "usage: jitser <command> [options]\n"
    "\n"
    "Shows what jitser's JIT makes of the types of a schema file (docs/schema.md), and converts\n"
    "data between formats. Every command but check-schema reads its types from --schema FILE,\n"
    "in jitser's schema language or a .proto file (docs/proto.md; -I DIR where its imports\n"
    "are); examples/payloads.jitser holds the benchmark payload types.\n"
    "\n"
    "commands:\n"
    "  types      list the types of the schema file, with their fingerprints\n"
    "  dump-ir    print the LLVM IR of a codec, before or after optimization\n"
    "  dump-asm   print the machine code the JIT runs for a codec, as assembly\n"
    "  stats      compile every codec and print its compile time and code size\n"
    "  convert    read a value in one format from stdin, write it in another to stdout\n"
    "  check-schema  check a schema file (docs/schema.md) and print its types' fingerprints\n"
    "  cache      show or empty a code cache directory (docs/jit.md)\n"
    "\n"
    "`jitser <command> --help` describes a command's options.\n";

constexpr const char* kDumpIrUsage =
    "usage: jitser dump-ir --schema FILE --type T --format F [--direction D] [--optimized]\n"
    "\n"
    "Prints the LLVM IR module the JIT builds for one direction of T's codec in format F.\n"
    "\n"
    "  --schema FILE   the schema file that declares T (.jitser or .proto)\n"
    "  -I DIR          where a .proto schema's imports are found (repeatable)\n"
    "  --type T        a type from `jitser types`\n"
    "  --format F      binary, json, protobuf, msgpack or cbor\n"
    "  --direction D   serialize (default) or deserialize\n"
    "  --optimized     the IR after the JIT's optimization pipeline, as it is compiled\n";

constexpr const char* kDumpAsmUsage =
    "usage: jitser dump-asm --schema FILE --type T --format F [--direction D]\n"
    "\n"
    "Prints the host assembly of one direction of T's codec in format F: the code LLVM\n"
    "generates with the JIT's target machine from the optimized IR.\n"
    "\n"
    "  --schema FILE   the schema file that declares T (.jitser or .proto)\n"
    "  -I DIR          where a .proto schema's imports are found (repeatable)\n"
    "  --type T        a type from `jitser types`\n"
    "  --format F      binary, json, protobuf, msgpack or cbor\n"
    "  --direction D   serialize (default) or deserialize\n";

constexpr const char* kTypesUsage =
    "usage: jitser types --schema FILE [-I DIR]\n"
    "\n"
    "Lists the types of a schema file: kind, name and schema fingerprint.\n";

constexpr const char* kStatsUsage =
    "usage: jitser stats --schema FILE [-I DIR]\n"
    "\n"
    "Compiles the codecs of every struct of the schema file in every format and prints, per\n"
    "codec, the code it runs (first-tier or optimized, as JITSER_TIERS allows), each tier's\n"
    "compile time (LLVM's work, or linking code from the cache), the time from creating the\n"
    "codec to running that code, the size of its machine code, and what the code cache did\n"
    "(with JITSER_CACHE_DIR set: hit, stored, or why not); then the simdjson kernels the JSON\n"
    "reader runs. A codec whose compilation failed shows as failed, the reason under it.\n";

constexpr const char* kCacheUsage =
    "usage: jitser cache --dir DIR stats|clear\n"
    "\n"
    "A code cache directory (EngineOptions::cache_dir, JITSER_CACHE_DIR; docs/jit.md):\n"
    "\n"
    "  stats   print how many files it holds and their bytes\n"
    "  clear   remove its files, and print what was removed\n";

constexpr const char* kConvertUsage =
    "usage: jitser convert --schema FILE --type T --from F --to F [--records] [--pretty]\n"
    "                      [--struct-arrays] [--enum-integers] [--keys-by-number]\n"
    "                      [--deterministic] [--text-timestamps]\n"
    "       jitser convert --type Value --from F --to F [--records] [--pretty]\n"
    "\n"
    "Reads a value of type T in format --from from stdin and writes it in format --to to\n"
    "stdout. Input that is not a valid T is an error (exit status 1) that names the field and\n"
    "the byte offset.\n"
    "\n"
    "  --schema FILE  the schema file that declares T (.jitser or .proto)\n"
    "  -I DIR         where a .proto schema's imports are found (repeatable)\n"
    "  --type T       a type from `jitser types`, or Value: a document of any shape, read as\n"
    "                 a jitser::Value (no schema needed)\n"
    "  --from F       binary, json, protobuf, msgpack or cbor\n"
    "  --to F         binary, json, protobuf, msgpack or cbor\n"
    "  --records      a stream of values rather than one: JSON one document a line, the others\n"
    "                 each message after its length as an unsigned LEB128 varint (as\n"
    "                 protobuf's writeDelimitedTo); progress on stderr\n"
    "                 when it takes more than a few seconds\n"
    "  --pretty       JSON output with newlines and indentation (not with --records)\n"
    "  --struct-arrays  msgpack and cbor, read and written: structs as arrays of their fields\n"
    "                 in declaration order, not maps keyed by name\n"
    "  --enum-integers  msgpack and cbor, read and written: enums as integers, not names\n"
    "  --keys-by-number cbor: structs keyed by field number, not name (read: either kind)\n"
    "  --deterministic  cbor output: every map's keys sorted by their bytes (RFC 8949 4.2.1)\n"
    "  --text-timestamps  cbor output: timestamps as RFC 3339 text (tag 0), not epoch seconds\n";

constexpr const char* kCheckSchemaUsage =
    "usage: jitser check-schema FILE [--canonical] [-I DIR]\n"
    "\n"
    "Parses a schema file in jitser's schema language (docs/schema.md; - reads stdin) or a\n"
    ".proto file (docs/proto.md) and lists its types: kind, name and schema fingerprint, the one\n"
    "a binary header carries. An error names its line and column (exit status 1).\n"
    "\n"
    "  --canonical  print each struct's canonical schema text too, as Engine::schema_text does\n"
    "  -I DIR       where a .proto file's imports are found (repeatable)\n";

struct Args {
  std::map<std::string, std::string> values;
  std::vector<std::string> import_paths;  // -I DIR: where a .proto schema's imports are found
  bool help = false;
  std::string error;
};

// --name value pairs and bare --flags, and with `positional` the words that are neither;
// anything else is an error.
Args parse(int argc, char** argv, const std::vector<std::string>& with_value,
           const std::vector<std::string>& flags, std::vector<std::string>* positional = nullptr) {
  Args args;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (positional && (arg == "-" || arg.rfind("-", 0) != 0)) {
      positional->push_back(arg);
    } else if (arg == "--help" || arg == "-h") {
      args.help = true;
    } else if (arg.rfind("-I", 0) == 0) {
      if (arg.size() > 2) {
        args.import_paths.push_back(arg.substr(2));
      } else if (i + 1 < argc) {
        args.import_paths.push_back(argv[++i]);
      } else {
        args.error = "-I needs a directory";
        return args;
      }
    } else if (std::find(flags.begin(), flags.end(), arg) != flags.end()) {
      args.values.insert_or_assign(arg, std::string(1, '1'));  // "1": GCC 12 -Wrestrict at -O3
    } else if (std::find(with_value.begin(), with_value.end(), arg) != with_value.end()) {
      if (i + 1 >= argc) {
        args.error = arg + " needs a value";
        return args;
      }
      args.values[arg] = argv[++i];
    } else {
      args.error = "unknown option " + arg;
      return args;
    }
  }
  return args;
}

int fail(const std::string& message, const char* usage) {
  std::cerr << "jitser: " << message << "\n\n" << usage;
  return 2;
}

// The whole of a file, or none when it cannot be read ("-" is stdin).
std::optional<std::string> read_file(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  text << in.rdbuf();
  return text.str();
}

bool is_proto(const std::string& path) {
  return path.size() > 6 && path.compare(path.size() - 6, 6, ".proto") == 0;
}

// A schema file's text in jitser's schema language: a .proto file translated (with -I for its
// imports), any other read as it is. A message on stderr and none when it cannot be had.
std::optional<std::string> schema_file_text(const std::string& path, const Args& args) {
  if (is_proto(path)) {
    Result<std::string> text = proto_schema_text(path, args.import_paths);
    if (!text) {
      std::cerr << "jitser: " << text.status().to_string() << "\n";
      return std::nullopt;
    }
    return std::move(*text);
  }
  std::optional<std::string> text = read_file(path);
  if (!text) std::cerr << "jitser: cannot read " << path << "\n";
  return text;
}

// Loads --schema FILE into the engine; a message on stderr and false when it cannot.
bool load_schema(Engine& engine, Args& args, const char* usage, int& exit_code) {
  if (!args.values.count("--schema")) {
    exit_code = fail("--schema FILE is required", usage);
    return false;
  }
  const std::string& path = args.values["--schema"];
  const std::optional<std::string> text = schema_file_text(path, args);
  if (!text) {
    exit_code = 1;
    return false;
  }
  if (Status s = engine.load_schema(*text); !s) {
    std::cerr << "jitser: " << path << ": " << s.to_string() << "\n";
    exit_code = 1;
    return false;
  }
  return true;
}

// Nothing compiles until `stats` asks: dump-ir and dump-asm build their own module.
EngineOptions tool_options() {
  return EngineOptions{.jit = JitPolicy::Lazy, .lazy_calls = UINT32_MAX};
}

int dump(int argc, char** argv, bool assembly) {
  const char* usage = assembly ? kDumpAsmUsage : kDumpIrUsage;
  Args args = assembly ? parse(argc, argv, {"--schema", "--type", "--format", "--direction"}, {})
                       : parse(argc, argv, {"--schema", "--type", "--format", "--direction"},
                               {"--optimized"});
  if (args.help) {
    std::cout << usage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, usage);
  Engine engine(tool_options());
  if (int code = 0; !load_schema(engine, args, usage, code)) return code;
  if (!args.values.count("--type")) return fail("--type is required", usage);
  if (!args.values.count("--format")) return fail("--format is required", usage);
  const std::optional<Format> format = parse_format(args.values["--format"]);
  if (!format) return fail("unknown format " + args.values["--format"], usage);
  Direction direction = Direction::Serialize;
  if (args.values.count("--direction")) {
    const std::string& d = args.values["--direction"];
    if (d == "deserialize") {
      direction = Direction::Deserialize;
    } else if (d != "serialize") {
      return fail("--direction is serialize or deserialize, not " + d, usage);
    }
  }
  Result<DynCodec> codec = engine.codec(args.values["--type"], *format);
  if (!codec) {
    return fail(codec.status().to_string() + " (`jitser types` lists the known types)", usage);
  }
  Result<std::string> text = assembly
                                 ? codec->dump_asm(direction)
                                 : codec->dump_ir(direction, args.values.count("--optimized") > 0);
  if (!text) {
    std::cerr << "jitser: " << text.status().to_string() << "\n";
    return 1;
  }
  std::cout << *text;
  return 0;
}

int types(int argc, char** argv) {
  Args args = parse(argc, argv, {"--schema"}, {});
  if (args.help) {
    std::cout << kTypesUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kTypesUsage);
  Engine engine(tool_options());
  if (int code = 0; !load_schema(engine, args, kTypesUsage, code)) return code;
  for (const TypeDesc* type : engine.types()) {
    Result<std::uint64_t> fp = engine.fingerprint(type->name);
    char hex[17] = "";
    if (fp) std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(*fp));
    std::cout << (type->kind == Kind::Enum ? "enum   " : "struct ") << type->name << "  " << hex
              << "\n";
  }
  return 0;
}

int stats(int argc, char** argv) {
  Args args = parse(argc, argv, {"--schema"}, {});
  if (args.help) {
    std::cout << kStatsUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kStatsUsage);
  Engine engine(tool_options());
  if (int code = 0; !load_schema(engine, args, kStatsUsage, code)) return code;
  if (engine.jit_policy() == JitPolicy::Off) {
    // The environment overrides the tool's own policy: say so rather than list nothing.
    std::cerr << "jitser: JITSER_JIT=off in the environment: nothing compiles, so there are no "
                 "compile statistics (unset it, or set another policy)\n";
    return 1;
  }
  CompileScope every_struct;
  for (const TypeDesc* type : engine.types()) {
    if (type->kind == Kind::Struct) every_struct.types.push_back(type->name);
  }
  const Status compiled = engine.compile_all(every_struct);
  std::printf("%-22s %-7s %-9s %-9s %9s %12s %9s %10s  %s\n", "type", "format", "state", "code",
              "first ms", "optimized ms", "ready ms", "code bytes", "cache");
  for (const CodecStats& s : engine.stats()) {
    const char* state = s.jit == JitState::Compiled  ? "compiled"
                        : s.jit == JitState::Failed  ? "failed"
                        : !format_compiles(s.format) ? "interp"
                                                     : "other";
    // The cache in a word; the whole of what it did below, when that was not the usual.
    const bool stored = s.cache == "serialize: no file, stored; deserialize: no file, stored";
    const char* cache = s.cache.empty()                ? "-"
                        : s.cache == "hit"             ? "hit"
                        : stored                       ? "stored"
                        : s.cache.rfind("off", 0) == 0 ? "off"
                                                       : "see below";
    const char* code = s.code == CompiledCode::Optimized   ? "optimized"
                       : s.code == CompiledCode::FirstTier ? "first"
                                                           : "-";
    const double ready = s.code == CompiledCode::FirstTier ? s.first_ready_ms : s.ready_ms;
    std::printf("%-22s %-7s %-9s %-9s %9.2f %12.2f %9.2f %10zu  %s\n", s.type.c_str(),
                format_name(s.format), state, code, s.first_compile_ms, s.compile_ms, ready,
                s.code_bytes, cache);
    if (!s.failure.empty()) std::printf("  %s\n", s.failure.c_str());
    if (std::string_view(cache) == "see below" || std::string_view(cache) == "off") {
      std::printf("  cache: %s\n", s.cache.c_str());
    }
  }
  for (const CodecStats& s : engine.stats()) {
    if (!s.reader_kernel.empty()) {
      std::printf("\nJSON reading: simdjson %s\n", s.reader_kernel.c_str());
      break;
    }
  }
  if (!compiled) {
    std::cerr << "jitser: " << compiled.to_string() << "\n";
    return 1;
  }
  return 0;
}

// Each record of stdin read with `reader` and written with `writer`, until the stream ends.
int convert_records(const DynCodec& reader, const DynCodec& writer, const std::string& type) {
  tool::RecordReader in(stdin, reader.format());
  tool::Progress progress;
  ValueSlot value(reader.type());
  Buffer record, encoded, out;
  std::uint64_t count = 0;
  auto flush = [&] {
    const bool ok = std::fwrite(out.data(), 1, out.size(), stdout) == out.size();
    out.clear();
    return ok;
  };
  // What was converted before an error is written out: the records up to the bad one.
  while (in.next(record)) {
    if (Status s = reader.deserialize(record.padded(), value.get()); !s) {
      flush();
      std::cerr << "\njitser: record " << count << " (at byte " << in.record_offset()
                << " of the input) is not a " << type << " in " << format_name(reader.format())
                << ": " << s.to_string() << "\n";
      return 1;
    }
    if (Status s = writer.serialize(value.get(), encoded); !s) {
      flush();
      std::cerr << "\njitser: cannot write record " << count << " as "
                << format_name(writer.format()) << ": " << s.to_string() << "\n";
      return 1;
    }
    tool::append_record(writer.format(), encoded, out);
    if (out.size() >= (std::size_t{1} << 20) && !flush()) break;
    if (++count % 1024 == 0) progress.update(count, in.bytes_read());
  }
  if (!in.error().empty()) {
    flush();
    std::cerr << "\njitser: after record " << count << ": " << in.error() << "\n";
    return 1;
  }
  const bool written = flush() && std::fflush(stdout) == 0;
  progress.finish(count, in.bytes_read());
  if (!written) std::cerr << "jitser: cannot write the output\n";
  return written ? 0 : 1;
}

int convert(int argc, char** argv) {
  Args args = parse(argc, argv, {"--schema", "--type", "--from", "--to"},
                    {"--pretty", "--records", "--struct-arrays", "--enum-integers",
                     "--keys-by-number", "--deterministic", "--text-timestamps"});
  if (args.help) {
    std::cout << kConvertUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kConvertUsage);
  for (const char* required : {"--type", "--from", "--to"}) {
    if (!args.values.count(required))
      return fail(std::string(required) + " is required", kConvertUsage);
  }
  const std::optional<Format> from = parse_format(args.values["--from"]);
  if (!from) return fail("unknown format " + args.values["--from"], kConvertUsage);
  const std::optional<Format> to = parse_format(args.values["--to"]);
  if (!to) return fail("unknown format " + args.values["--to"], kConvertUsage);

  const bool records = args.values.count("--records") > 0;
  if (records && args.values.count("--pretty")) {
    return fail("--pretty writes lines of its own, which a stream of records cannot hold",
                kConvertUsage);
  }
  // One value is read and written once: the interpreter does it without compiling anything.
  // A stream runs interpreted until its codecs are compiled, in the background.
  EngineOptions options;
  options.jit = records ? JitPolicy::Async : JitPolicy::Off;
  options.pretty = args.values.count("--pretty") > 0;
  options.struct_arrays = args.values.count("--struct-arrays") > 0;
  options.enum_integers = args.values.count("--enum-integers") > 0;
  options.keys_by_number = args.values.count("--keys-by-number") > 0;
  options.deterministic = args.values.count("--deterministic") > 0;
  options.text_timestamps = args.values.count("--text-timestamps") > 0;
  Engine engine(options);
  // A document of unknown shape is read as a jitser::Value, which needs no schema.
  const bool any_shape = args.values["--type"] == "Value";
  if (int code = 0; (!any_shape || args.values.count("--schema")) &&
                    !load_schema(engine, args, kConvertUsage, code)) {
    return code;
  }
  auto codec = [&](Format format) -> Result<DynCodec> {
    if (!any_shape) return engine.codec(args.values["--type"], format);
    Result<Codec<Value>> typed = engine.codec<Value>(format);
    if (!typed) return typed.status();
    return typed->dyn();
  };
  Result<DynCodec> reader = codec(*from);
  if (!reader) {
    return fail(reader.status().to_string() + " (`jitser types` lists the known types)",
                kConvertUsage);
  }
  Result<DynCodec> writer = codec(*to);
  if (!writer) return fail(writer.status().to_string(), kConvertUsage);

  if (records) return convert_records(*reader, *writer, args.values["--type"]);

  Buffer input;
  char chunk[1 << 16];
  while (std::size_t n = std::fread(chunk, 1, sizeof chunk, stdin)) input.append(chunk, n);
  if (std::ferror(stdin)) {
    std::cerr << "jitser: cannot read stdin\n";
    return 1;
  }
  ValueSlot value(reader->type());
  if (Status s = reader->deserialize(input.padded(), value.get()); !s) {
    std::cerr << "jitser: input is not a " << args.values["--type"] << " in " << format_name(*from)
              << ": " << s.to_string() << "\n";
    return 1;
  }
  Buffer output;
  if (Status s = writer->serialize(value.get(), output); !s) {
    std::cerr << "jitser: cannot write it as " << format_name(*to) << ": " << s.to_string() << "\n";
    return 1;
  }
  if (*to == Format::Json) output.append("\n", 1);
  std::fwrite(output.data(), 1, output.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int cache(int argc, char** argv) {
  std::vector<std::string> words;
  Args args = parse(argc, argv, {"--dir"}, {}, &words);
  if (args.help) {
    std::cout << kCacheUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kCacheUsage);
  if (!args.values.count("--dir")) return fail("--dir DIR is required", kCacheUsage);
  if (words.size() != 1 || (words[0] != "stats" && words[0] != "clear")) {
    return fail("say stats or clear", kCacheUsage);
  }
  const std::string& dir = args.values["--dir"];
  const Result<jit::CacheTotals> totals =
      words[0] == "clear" ? jit::CodeCache::clear(dir) : jit::CodeCache::totals(dir);
  if (!totals) {
    std::cerr << "jitser: " << totals.status().message() << "\n";
    return 1;
  }
  std::printf("%s%zu files, %llu bytes\n", words[0] == "clear" ? "removed " : "", totals->files,
              static_cast<unsigned long long>(totals->bytes));
  return 0;
}

int check_schema(int argc, char** argv) {
  std::vector<std::string> files;
  Args args = parse(argc, argv, {}, {"--canonical"}, &files);
  if (args.help) {
    std::cout << kCheckSchemaUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kCheckSchemaUsage);
  if (files.size() != 1) return fail("name one schema file", kCheckSchemaUsage);
  const std::optional<std::string> text = schema_file_text(files[0], args);
  if (!text) return 1;
  Result<ParsedSchema> schema = parse_schema(*text);
  if (!schema) {
    std::cerr << "jitser: " << files[0] << ": " << schema.status().to_string() << "\n";
    return 1;
  }
  for (const auto& type : schema->types) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fingerprint(*type)));
    std::cout << (type->kind == Kind::Enum ? "enum   " : "struct ") << type->name << "  " << hex
              << "\n";
    if (args.values.count("--canonical") && type->kind == Kind::Struct) {
      std::cout << canonical_text(*type);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  if (command == "check-schema") return check_schema(argc, argv);
  if (command == "cache") return cache(argc, argv);
  if (command == "types") return types(argc, argv);
  if (command == "dump-ir") return dump(argc, argv, false);
  if (command == "dump-asm") return dump(argc, argv, true);
  if (command == "stats") return stats(argc, argv);
  if (command == "convert") return convert(argc, argv);
  return fail("unknown command " + command, kUsage);
}
