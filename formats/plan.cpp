#include "formats/plan.h"

namespace jitser {
namespace {

// Bytes as text, with those that are not printable ASCII (and backslashes) as \xNN.
std::string printable(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F && c != '\\') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

}  // namespace

const char* op_name(Op op) {
  switch (op) {
    case Op::Frame: return "frame";
    case Op::Bool: return "bool";
    case Op::Int: return "int";
    case Op::UInt: return "uint";
    case Op::Float: return "float";
    case Op::String: return "string";
    case Op::Bytes: return "bytes";
    case Op::Enum: return "enum";
    case Op::Decimal: return "decimal";
    case Op::Time: return "time";
    case Op::Dynamic: return "dynamic";
    case Op::Struct: return "struct";
    case Op::Nullable: return "nullable";
    case Op::Shared: return "shared";
    case Op::List: return "list";
    case Op::Array: return "array";
    case Op::Map: return "map";
  }
  return "?";
}

std::string dump_plan(const Plan& plan, const char* (*enc_name)(const Instr&)) {
  std::string out = std::string("plan ") + format_name(plan.format) + " " +
                    (plan.direction == Direction::Serialize ? "serialize" : "deserialize") + " " +
                    display_name(*plan.root_type) + " root=r" + std::to_string(plan.root) + "\n";
  const FormatTraits::Literals& l = plan.traits.literals;
  out += "literals object=[" + printable(l.object_begin) + "][" + printable(l.field_separator) +
         "][" + printable(l.object_end) + "] element=[" + printable(l.element_separator) +
         "] null=[" + printable(l.null) + "] present=[" + printable(l.present) + "] shared_new=[" +
         printable(l.shared_new) + "]\n";
  for (std::size_t r = 0; r < plan.routines.size(); ++r) {
    const Routine& routine = plan.routines[r];
    out += "r" + std::to_string(r) + " " + display_name(*routine.type) +
           " min_bytes=" + std::to_string(routine.min_wire_bytes) +
           (routine.oneofs ? " oneofs" : "") + "\n";
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan.code[i];
      out += "  " + std::string(op_name(in.op));
      if (in.field != kNoField) {
        const PlanField& f = plan.fields[in.field];
        out += " ." + f.name;
        if (plan.traits.keyed_objects) {
          out += " key=" + printable(f.key);
          if (f.required) out += " required";
          if (f.omit_absent) out += " omit_absent";
          if (f.key_per_item) out += " key_per_item";
        }
      }
      out += " @" + std::to_string(in.offset);
      if (in.width) out += " w" + std::to_string(in.width);
      if (const char* enc = enc_name(in); enc && *enc) out += std::string(" ") + enc;
      switch (in.op) {
        case Op::Struct:
        case Op::Nullable:
        case Op::Shared:
        case Op::List: out += " -> r" + std::to_string(in.a); break;
        case Op::Array:
          out += " -> r" + std::to_string(in.a) + " x" + std::to_string(in.count);
          break;
        case Op::Map: out += " -> r" + std::to_string(in.a) + " r" + std::to_string(in.b); break;
        default: break;
      }
      out += "\n";
    }
  }
  return out;
}

RunOptions run_options(const EngineOptions& options) {
  return RunOptions{.max_depth = options.max_depth,
                    .write_fingerprint = options.write_fingerprint,
                    .require_fingerprint = options.require_fingerprint,
                    .pretty = options.pretty,
                    .omit_null = options.omit_null,
                    .omit_default = options.omit_default,
                    .strict = options.strict,
                    .struct_arrays = options.struct_arrays,
                    .enum_integers = options.enum_integers,
                    .keys_by_number = options.keys_by_number,
                    .deterministic = options.deterministic,
                    .text_timestamps = options.text_timestamps};
}

std::string describe_options(const RunOptions& options) {
  return "options depth=" + std::to_string(options.max_depth) +
         " fingerprint=" + std::to_string(options.write_fingerprint) +
         std::to_string(options.require_fingerprint) + " pretty=" + std::to_string(options.pretty) +
         " omit=" + std::to_string(options.omit_null) + std::to_string(options.omit_default) +
         " strict=" + std::to_string(options.strict) +
         " struct_arrays=" + std::to_string(options.struct_arrays) +
         " enum_integers=" + std::to_string(options.enum_integers) +
         " keys_by_number=" + std::to_string(options.keys_by_number) +
         " deterministic=" + std::to_string(options.deterministic) +
         " text_timestamps=" + std::to_string(options.text_timestamps);
}

const char* int_name(const Instr& in) {
  static const char* s[] = {"", "int8", "int16", "", "int32", "", "", "", "int64"};
  static const char* u[] = {"", "uint8", "uint16", "", "uint32", "", "", "", "uint64"};
  return (in.op == Op::Int ? s : u)[in.width];
}

}  // namespace jitser
