#include "formats/binary/lower_binary.h"

#include "formats/binary/wire.h"
#include "formats/lowering.h"
#include "typeinfo/registry.h"

namespace jitser {
namespace {

class BinaryLowering : public Lowering {
 public:
  explicit BinaryLowering(Plan& plan) : Lowering(plan) {}

  std::uint32_t frame(const TypeDesc& root) {
    const std::uint32_t index = reserve(root);
    std::vector<Instr> body;
    body.push_back(Instr{.op = Op::Header});
    slot(root, 0, kNoName, body);
    finish(index, body);
    return index;
  }

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
    Instr in{.op = Op::Fixed, .name = field, .offset = offset, .type = &t};
    switch (t.kind) {
      case Kind::Bool: in.op = Op::Bool; break;
      case Kind::Int8:
      case Kind::UInt8:
      case Kind::Int16:
      case Kind::UInt16:
      case Kind::Float32:
      case Kind::Float64:
        in.op = Op::Fixed;
        in.width = width(t);
        break;
      case Kind::Int32:
        in.op = Op::VarSint;
        in.width = 4;
        break;
      case Kind::UInt32:
      case Kind::UInt64:
        in.op = Op::VarUint;
        in.width = width(t);
        break;
      case Kind::Int64: in.op = Op::Int64Compact; break;
      case Kind::String: in.op = Op::String; break;
      case Kind::Bytes: in.op = Op::Bytes; break;
      case Kind::Enum:
        in.op = Op::Enum;
        in.width = width(t);
        break;
      case Kind::Decimal: in.op = Op::Decimal; break;
      case Kind::Dynamic: in.op = Op::Dynamic; break;
      case Kind::Timestamp:
      case Kind::Duration:
        in.op = Op::Time;
        in.width = static_cast<std::uint8_t>(t.unit);
        break;
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
        in.width = element_header(*t.element);
        in.a = element_routine(*t.element);
        break;
      case Kind::Array:
        in.op = Op::Array;
        in.a = element_routine(*t.element);
        in.b = static_cast<std::uint32_t>(t.count);
        break;
      case Kind::Map:
        in.op = Op::Map;
        in.width = element_header(*t.element);
        in.a = element_routine(*t.key);
        in.b = element_routine(*t.element);
        break;
      case Kind::Named: break;  // resolved() never returns an unbound reference
    }
    out.push_back(in);
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
        case Op::Header: total += 2; break;
        case Op::Fixed: total += in.width; break;
        case Op::Int64Compact: total += 4; break;
        case Op::Decimal:
        case Op::Time: total += 2; break;
        case Op::Struct: total += min_bytes(in.a, state); break;
        case Op::Array: total += in.b * min_bytes(in.a, state); break;
        default: total += 1; break;
      }
    }
    state[routine] = 2;
    r.min_wire_bytes = total;
    return total;
  }
};

}  // namespace

Plan lower_binary(const TypeDesc& root, Direction direction) {
  Plan plan;
  plan.format = Format::Binary;
  plan.direction = direction;
  plan.root_type = &root;
  plan.fingerprint = fingerprint(root);
  BinaryLowering lowering(plan);
  plan.root = lowering.frame(root);
  lowering.compute_min_bytes();
  return plan;
}

}  // namespace jitser
