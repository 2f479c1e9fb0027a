#include "formats/plan.h"

namespace jitser {

const char* op_name(Op op) {
  switch (op) {
    case Op::Header: return "header";
    case Op::Bool: return "bool";
    case Op::Fixed: return "fixed";
    case Op::VarUint: return "varuint";
    case Op::VarSint: return "varsint";
    case Op::Int64Compact: return "int64_compact";
    case Op::String: return "string";
    case Op::Bytes: return "bytes";
    case Op::Enum: return "enum";
    case Op::Decimal: return "decimal";
    case Op::Time: return "time";
    case Op::Struct: return "struct";
    case Op::Nullable: return "nullable";
    case Op::Shared: return "shared";
    case Op::List: return "list";
    case Op::Array: return "array";
    case Op::Map: return "map";
    case Op::Dynamic: return "dynamic";
    case Op::Int: return "int";
    case Op::UInt: return "uint";
    case Op::Float: return "float";
  }
  return "?";
}

std::string dump_plan(const Plan& plan) {
  std::string out = std::string("plan ") + format_name(plan.format) + " " +
                    (plan.direction == Direction::Serialize ? "serialize" : "deserialize") + " " +
                    display_name(*plan.root_type) + " root=r" + std::to_string(plan.root) + "\n";
  for (std::size_t r = 0; r < plan.routines.size(); ++r) {
    const Routine& routine = plan.routines[r];
    out += "r" + std::to_string(r) + " " + display_name(*routine.type) +
           " min_bytes=" + std::to_string(routine.min_wire_bytes) + "\n";
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan.code[i];
      out += "  " + std::string(op_name(in.op));
      if (in.name != kNoName) out += " ." + plan.names[in.name];
      out += " @" + std::to_string(in.offset);
      if (in.op == Op::List || in.op == Op::Map) {
        static const char* hex = "0123456789ABCDEF";
        out += std::string(" header=0x") + hex[in.width >> 4] + hex[in.width & 15];
      } else if (in.width) {
        out += " w" + std::to_string(in.width);
      }
      switch (in.op) {
        case Op::Struct:
        case Op::Nullable:
        case Op::Shared:
        case Op::List: out += " -> r" + std::to_string(in.a); break;
        case Op::Array: out += " -> r" + std::to_string(in.a) + " x" + std::to_string(in.b); break;
        case Op::Map: out += " -> r" + std::to_string(in.a) + " r" + std::to_string(in.b); break;
        default: break;
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace jitser
