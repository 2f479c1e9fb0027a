#include "formats/binary/lower_binary.h"

#include "formats/binary/wire.h"
#include "formats/lowering.h"
#include "typeinfo/registry.h"

namespace jitser {
namespace {

class BinaryLowering : public Lowering {
 public:
  explicit BinaryLowering(Plan& plan) : Lowering(plan) {}

  void compute_min_bytes() {
    std::vector<int> state(plan_.routines.size(), 0);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) min_bytes(r, state);
  }

 private:
  static std::uint8_t width(const TypeDesc& t) { return static_cast<std::uint8_t>(t.size); }

  // What each element of a list (each value of a map) carries: docs/formats/binary.md.
  static std::uint8_t element_header(const TypeDesc& element) {
    const Kind k = element.resolved().kind;
    std::uint8_t h = wire::kElemDeclared;
    if (k == Kind::SharedPtr) h |= wire::kElemTrackRef;
    if (k == Kind::Optional || k == Kind::UniquePtr) h |= wire::kElemNullable;
    return h;
  }

  void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
            std::vector<Instr>& out) override {
    const TypeDesc& t = type.resolved();
    Instr in{.op = Op::Int, .field = field, .offset = offset, .type = &t};
    switch (t.kind) {
      case Kind::Bool:
        in.op = Op::Bool;
        in.width = 1;
        break;
      case Kind::Int8:
      case Kind::Int16: number(in, Op::Int, t, wire::kFixed); break;
      case Kind::Int32: number(in, Op::Int, t, wire::kZigzag); break;
      case Kind::Int64: number(in, Op::Int, t, wire::kCompact); break;
      case Kind::UInt8:
      case Kind::UInt16: number(in, Op::UInt, t, wire::kFixed); break;
      case Kind::UInt32:
      case Kind::UInt64: number(in, Op::UInt, t, wire::kVarint); break;
      case Kind::Float32:
      case Kind::Float64: number(in, Op::Float, t, wire::kFixed); break;
      case Kind::String: in.op = Op::String; break;
      case Kind::Bytes: in.op = Op::Bytes; break;
      case Kind::Enum:
        in.op = Op::Enum;
        in.width = width(t);
        in.enc = wire::kZigzag;
        break;
      case Kind::Decimal: in.op = Op::Decimal; break;
      case Kind::Dynamic: in.op = Op::Dynamic; break;
      case Kind::Timestamp:
      case Kind::Duration: in.op = Op::Time; break;
      case Kind::Struct:
        if (t.wrapper) {
          const FieldDesc& inner = t.fields.front();
          slot(*inner.type, offset + static_cast<std::uint32_t>(inner.offset), field, out);
          return;
        }
        in.op = Op::Struct;
        in.a = struct_routine(t);
        break;
      case Kind::Optional:
      case Kind::UniquePtr:
        in.op = Op::Nullable;
        in.a = element_routine(*t.element);
        break;
      case Kind::SharedPtr:
        in.op = Op::Shared;
        in.a = element_routine(*t.element);
        break;
      case Kind::List:
        in.op = Op::List;
        in.enc = element_header(*t.element);
        in.a = element_routine(*t.element);
        break;
      case Kind::Array:
        in.op = Op::Array;
        in.a = element_routine(*t.element);
        in.count = static_cast<std::uint32_t>(t.count);
        break;
      case Kind::Map:
        in.op = Op::Map;
        in.enc = element_header(*t.element);
        in.a = element_routine(*t.key);
        in.b = element_routine(*t.element);
        break;
      case Kind::Named: break;  // resolved() never returns an unbound reference
    }
    out.push_back(in);
  }

  static void number(Instr& in, Op op, const TypeDesc& t, wire::Enc enc) {
    in.op = op;
    in.width = width(t);
    in.enc = enc;
  }

  std::uint32_t min_bytes(std::uint32_t routine, std::vector<int>& state) {
    Routine& r = plan_.routines[routine];
    if (state[routine] == 2) return r.min_wire_bytes;
    if (state[routine] == 1) return 0;  // only reachable through a pointer, counted as its flag
    state[routine] = 1;
    std::uint32_t total = 0;
    for (std::uint32_t i = r.begin; i < r.end; ++i) {
      const Instr& in = plan_.code[i];
      switch (in.op) {
        case Op::Frame: total += 2; break;
        case Op::Int:
        case Op::UInt:
        case Op::Float:
          total += in.enc == wire::kFixed ? in.width : in.enc == wire::kCompact ? 4 : 1;
          break;
        case Op::Decimal:
        case Op::Time: total += 2; break;
        case Op::Struct: total += min_bytes(in.a, state); break;
        case Op::Array: total += in.count * min_bytes(in.a, state); break;
        default: total += 1; break;
      }
    }
    state[routine] = 2;
    r.min_wire_bytes = total;
    return total;
  }
};

}  // namespace

Plan lower_binary(const TypeDesc& root, Direction direction, const RunOptions&) {
  Plan plan;
  plan.format = Format::Binary;
  plan.direction = direction;
  plan.root_type = &root;
  plan.traits = {.keyed_objects = false,
                 .containers = FormatTraits::Containers::CountPrefixed,
                 .shared_identity = true,
                 .literals = {.null = std::string(1, static_cast<char>(wire::kNull)),
                              .present = std::string(1, static_cast<char>(wire::kNotNull)),
                              .shared_new = std::string(1, static_cast<char>(wire::kRefValue))}};
  plan.fingerprint = fingerprint(root);
  BinaryLowering lowering(plan);
  plan.root = lowering.frame(root);
  lowering.compute_min_bytes();
  return plan;
}

const char* binary_enc_name(const Instr& in) {
  if (in.op == Op::List || in.op == Op::Map) {
    static constexpr const char* kHeaders[] = {"header=0x00", "header=0x01", "header=0x02",
                                               "header=0x03", "header=0x04", "header=0x05",
                                               "header=0x06", "header=0x07"};
    return in.enc < 8 ? kHeaders[in.enc] : "header=?";
  }
  if (in.op != Op::Int && in.op != Op::UInt && in.op != Op::Float && in.op != Op::Enum) return "";
  switch (in.enc) {
    case wire::kFixed: return "fixed";
    case wire::kVarint: return "varint";
    case wire::kZigzag: return "zigzag";
    case wire::kCompact: return "compact";
  }
  return "?";
}

}  // namespace jitser
