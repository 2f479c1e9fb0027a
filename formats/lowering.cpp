#include "formats/lowering.h"

#include "formats/field_default.h"

namespace jitser {

std::uint32_t Lowering::reserve(const TypeDesc& type) {
  plan_.routines.push_back(Routine{.type = &type});
  return static_cast<std::uint32_t>(plan_.routines.size() - 1);
}

void Lowering::finish(std::uint32_t index, const std::vector<Instr>& body) {
  Routine& r = plan_.routines[index];
  r.begin = static_cast<std::uint32_t>(plan_.code.size());
  plan_.code.insert(plan_.code.end(), body.begin(), body.end());
  r.end = static_cast<std::uint32_t>(plan_.code.size());
}

std::uint16_t Lowering::field(const FieldDesc& f, std::size_t index) {
  PlanField field{
      .name = f.cpp_name.empty() ? f.name : f.cpp_name,
      .number = f.number ? f.number : static_cast<std::uint32_t>(index + 1),
      .required = is_required(f),
      .desc = &f,
  };
  if (plan_.traits.keyed_objects) keys(f, field);
  plan_.fields.push_back(std::move(field));
  return static_cast<std::uint16_t>(plan_.fields.size() - 1);
}

std::uint32_t Lowering::frame(const TypeDesc& root) {
  const std::uint32_t index = reserve(root);
  std::vector<Instr> body;
  body.push_back(Instr{.op = Op::Frame});
  slot(root, 0, kNoField, body);
  finish(index, body);
  return index;
}

std::uint32_t Lowering::struct_routine(const TypeDesc& s) {
  if (auto it = structs_.find(&s); it != structs_.end()) return it->second;
  const std::uint32_t index = reserve(s);
  plan_.routines[index].object = true;
  structs_.emplace(&s, index);  // before the body: a struct may reach itself through pointers
  std::vector<Instr> body;
  const TypeDesc* outer = struct_;
  const std::uint8_t outer_variant = variant_;
  struct_ = &s;
  variant_ = 0;  // a variant is an element's role, which ends at a struct
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    const FieldDesc& f = s.fields[i];
    slot(*f.type, static_cast<std::uint32_t>(f.offset), field(f, i), body);
    if (!f.oneof.empty()) plan_.routines[index].oneofs = true;
  }
  struct_ = outer;
  variant_ = outer_variant;
  finish(index, body);
  return index;
}

std::uint32_t Lowering::element_routine(const TypeDesc& element, std::uint8_t variant) {
  const TypeDesc& r = element.resolved();
  if (r.kind == Kind::Struct && !r.wrapper) return struct_routine(r);
  const LeafKey key{display_name(r), r.size,       r.value_ops, r.list_ops,
                    r.nullable_ops,  r.shared_ops, r.map_ops,   variant};
  if (auto it = leaves_.find(key); it != leaves_.end()) return it->second;
  const std::uint32_t index = reserve(r);
  leaves_.emplace(key, index);
  std::vector<Instr> body;
  const std::uint8_t outer = variant_;
  variant_ = variant;
  slot(element, 0, kNoField, body);
  variant_ = outer;
  finish(index, body);
  return index;
}

void Lowering::value_slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
                          std::vector<Instr>& out) {
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
    case Kind::Enum:
      in.op = Op::Enum;
      if (!plan_.traits.enum_names) in.enc = kEnumInteger;
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

}  // namespace jitser
