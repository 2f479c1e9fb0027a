#include "formats/msgpack/lower_msgpack.h"

#include "formats/lowering.h"
#include "formats/msgpack/wire.h"

namespace jitser {
namespace {

class MsgpackLowering : public Lowering {
 public:
  explicit MsgpackLowering(Plan& plan) : Lowering(plan) {}

 private:
  // A field's key is its name as a str in its shortest head; a reader's raw key is the key's
  // bytes as they came, head included, so a key written so matches on one compare.
  void keys(const FieldDesc& f, PlanField& field) override {
    field.key = msgpack::str_item(f.name);
    field.match = field.key;
  }

  void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
            std::vector<Instr>& out) override {
    const TypeDesc& t = type.resolved();
    Instr in{.op = Op::Int,
             .width = static_cast<std::uint8_t>(t.size),
             .field = field,
             .offset = offset,
             .type = &t};
    switch (t.kind) {
      case Kind::Bool: in.op = Op::Bool; break;
      case Kind::Int8:
      case Kind::Int16:
      case Kind::Int32:
      case Kind::Int64: in.op = Op::Int; break;
      case Kind::UInt8:
      case Kind::UInt16:
      case Kind::UInt32:
      case Kind::UInt64: in.op = Op::UInt; break;
      case Kind::Float32:
      case Kind::Float64: in.op = Op::Float; break;
      case Kind::String: in.op = Op::String; break;
      case Kind::Bytes: in.op = Op::Bytes; break;
      case Kind::Enum: in.op = Op::Enum; break;
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
        in.a = element_routine(*t.element);
        break;
      case Kind::Array:
        in.op = Op::Array;
        in.a = element_routine(*t.element);
        in.count = static_cast<std::uint32_t>(t.count);
        break;
      case Kind::Map:
        in.op = Op::Map;
        in.a = element_routine(*t.key);
        in.b = element_routine(*t.element);
        break;
      case Kind::Named: break;  // resolved() never returns an unbound reference
    }
    if (in.op != Op::Bool && in.op != Op::Int && in.op != Op::UInt && in.op != Op::Float &&
        in.op != Op::Enum) {
      in.width = 0;
    }
    out.push_back(in);
  }
};

}  // namespace

Plan lower_msgpack(const TypeDesc& root, Direction direction) {
  Plan plan;
  plan.format = Format::Msgpack;
  plan.direction = direction;
  plan.traits = {.keyed_objects = true,
                 .counted_objects = true,
                 .containers = FormatTraits::Containers::CountPrefixed,
                 .shared_identity = false,
                 .literals = {.null = std::string(1, static_cast<char>(msgpack::kNil))}};
  plan.root_type = &root;
  MsgpackLowering lowering(plan);
  plan.root = lowering.frame(root);
  return plan;
}

const char* msgpack_enc_name(const Instr&) { return ""; }

}  // namespace jitser
