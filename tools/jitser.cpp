// The jitser command-line tool: shows what the JIT makes of a registered type.
//
//   jitser types
//   jitser dump-ir  --type MediaContent --format binary [--direction deserialize] [--optimized]
//   jitser dump-asm --type MediaContent --format binary [--direction serialize]
//   jitser stats
//
// Until schema files exist the tool knows the benchmark payload types (bench/payloads.h).
#include "engine/jitser.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/payloads.h"

namespace {

using namespace jitser;

constexpr const char* kUsage =
    "usage: jitser <command> [options]\n"
    "\n"
    "Shows what jitser's JIT makes of a registered type. The tool knows the benchmark payload\n"
    "types (see `jitser types`).\n"
    "\n"
    "commands:\n"
    "  types      list the types the tool knows, with their schema fingerprints\n"
    "  dump-ir    print the LLVM IR of a codec, before or after optimization\n"
    "  dump-asm   print the machine code the JIT runs for a codec, as assembly\n"
    "  stats      compile every codec and print its compile time and code size\n"
    "\n"
    "`jitser <command> --help` describes a command's options.\n";

constexpr const char* kDumpIrUsage =
    "usage: jitser dump-ir --type T --format F [--direction D] [--optimized]\n"
    "\n"
    "Prints the LLVM IR module the JIT builds for one direction of T's codec in format F.\n"
    "\n"
    "  --type T        a type from `jitser types`\n"
    "  --format F      binary\n"
    "  --direction D   serialize (default) or deserialize\n"
    "  --optimized     the IR after the JIT's optimization pipeline, as it is compiled\n";

constexpr const char* kDumpAsmUsage =
    "usage: jitser dump-asm --type T --format F [--direction D]\n"
    "\n"
    "Prints the host assembly of one direction of T's codec in format F: the code LLVM\n"
    "generates with the JIT's target machine from the optimized IR.\n"
    "\n"
    "  --type T        a type from `jitser types`\n"
    "  --format F      binary\n"
    "  --direction D   serialize (default) or deserialize\n";

constexpr const char* kTypesUsage =
    "usage: jitser types\n"
    "\n"
    "Lists the registered types the tool knows: kind, name and schema fingerprint.\n";

constexpr const char* kStatsUsage =
    "usage: jitser stats\n"
    "\n"
    "Compiles the binary codec of every known struct and prints, per codec, its compile time\n"
    "(LLVM's work), the time from creating the codec to running compiled code, and the size\n"
    "of its machine code.\n";

struct Args {
  std::map<std::string, std::string> values;
  bool help = false;
  std::string error;
};

// --name value pairs and bare --flags; anything else is an error.
Args parse(int argc, char** argv, const std::vector<std::string>& with_value,
           const std::vector<std::string>& flags) {
  Args args;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      args.help = true;
    } else if (std::find(flags.begin(), flags.end(), arg) != flags.end()) {
      args.values[arg] = "1";
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

std::optional<Format> parse_format(const std::string& name) {
  if (name == format_name(Format::Binary)) return Format::Binary;
  return std::nullopt;
}

int fail(const std::string& message, const char* usage) {
  std::cerr << "jitser: " << message << "\n\n" << usage;
  return 2;
}

int dump(Engine& engine, int argc, char** argv, bool assembly) {
  const char* usage = assembly ? kDumpAsmUsage : kDumpIrUsage;
  Args args = assembly ? parse(argc, argv, {"--type", "--format", "--direction"}, {})
                       : parse(argc, argv, {"--type", "--format", "--direction"}, {"--optimized"});
  if (args.help) {
    std::cout << usage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, usage);
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

int types(Engine& engine, int argc, char** argv) {
  Args args = parse(argc, argv, {}, {});
  if (args.help) {
    std::cout << kTypesUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kTypesUsage);
  for (const TypeDesc* type : engine.types()) {
    Result<std::uint64_t> fp = engine.fingerprint(type->name);
    char hex[17] = "";
    if (fp) std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(*fp));
    std::cout << (type->kind == Kind::Enum ? "enum   " : "struct ") << type->name << "  " << hex
              << "\n";
  }
  return 0;
}

int stats(Engine& engine, int argc, char** argv) {
  Args args = parse(argc, argv, {}, {});
  if (args.help) {
    std::cout << kStatsUsage;
    return 0;
  }
  if (!args.error.empty()) return fail(args.error, kStatsUsage);
  const Status compiled = engine.compile_all();
  std::printf("%-22s %-7s %-9s %11s %11s %10s\n", "type", "format", "state", "compile ms",
              "ready ms", "code bytes");
  for (const CodecStats& s : engine.stats()) {
    const char* state = s.jit == JitState::Compiled ? "compiled"
                        : s.jit == JitState::Failed ? "failed"
                                                    : "other";
    std::printf("%-22s %-7s %-9s %11.2f %11.2f %10zu\n", s.type.c_str(), format_name(s.format),
                state, s.compile_ms, s.ready_ms, s.code_bytes);
    if (!s.failure.empty()) std::printf("  %s\n", s.failure.c_str());
  }
  if (!compiled) {
    std::cerr << "jitser: " << compiled.to_string() << "\n";
    return 1;
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
  // Nothing compiles until `stats` asks: dump-ir and dump-asm build their own module.
  Engine engine(EngineOptions{.jit = JitPolicy::Lazy, .lazy_calls = UINT32_MAX});
  if (Status s = payloads::register_all(engine); !s) {
    std::cerr << "jitser: " << s.to_string() << "\n";
    return 1;
  }
  const std::string command = argv[1];
  if (command == "types") return types(engine, argc, argv);
  if (command == "dump-ir") return dump(engine, argc, argv, false);
  if (command == "dump-asm") return dump(engine, argc, argv, true);
  if (command == "stats") return stats(engine, argc, argv);
  return fail("unknown command " + command, kUsage);
}
