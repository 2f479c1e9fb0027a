#include "formats/protobuf/lower_protobuf.h"

#include <memory>
#include <string>

#include "formats/lowering.h"
#include "formats/protobuf/protobuf_slot.h"
#include "formats/protobuf/wire.h"
#include "typeinfo/registry.h"

namespace jitser {
namespace {

using namespace protobuf;

// A struct that encodes as its single field stands for that field's type.
const TypeDesc& unwrapped(const TypeDesc& type) {
  const TypeDesc* t = &type.resolved();
  while (t->kind == Kind::Struct && t->wrapper) t = &t->fields.front().type->resolved();
  return *t;
}

// Values Protobuf has no place for as an element, a map value or what an optional holds
// (a list of lists, an optional list, a list of optionals) go inside a message of one field.
bool needs_wrapper(const TypeDesc& type) {
  switch (unwrapped(type).kind) {
    case Kind::List:
    case Kind::Array:
    case Kind::Map:
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr: return true;
    default: return false;
  }
}

// The wire type of one value of a type, written as the encoding says.
wire::WireType wire_type(const TypeDesc& type, IntEncoding encoding) {
  const TypeDesc& t = unwrapped(type);
  const Kind k = t.kind == Kind::Enum ? t.underlying : t.kind;
  switch (k) {
    case Kind::Bool: return wire::kVarint;
    case Kind::Int8:
    case Kind::Int16:
    case Kind::Int32:
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
      return encoding == IntEncoding::Fixed && t.kind != Kind::Enum ? wire::kI32 : wire::kVarint;
    case Kind::Int64:
    case Kind::UInt64:
      return encoding == IntEncoding::Fixed && t.kind != Kind::Enum ? wire::kI64 : wire::kVarint;
    case Kind::Float32: return wire::kI32;
    case Kind::Float64: return wire::kI64;
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr:
      return needs_wrapper(*t.element) ? wire::kLen : wire_type(*t.element, encoding);
    default: return wire::kLen;
  }
}

bool packable(const TypeDesc& element, IntEncoding encoding) {
  return !needs_wrapper(element) && wire_type(element, encoding) != wire::kLen;
}

// The encoding byte of one scalar value.
std::uint8_t scalar_enc(const TypeDesc& type, IntEncoding encoding) {
  const TypeDesc& t = unwrapped(type);
  std::uint8_t enc = wire_type(t, encoding);
  if (encoding == IntEncoding::Zigzag && (t.kind == Kind::Int8 || t.kind == Kind::Int16 ||
                                          t.kind == Kind::Int32 || t.kind == Kind::Int64)) {
    enc |= wire::kZigzag;
  }
  return enc;
}

std::string encoded_tag(std::uint32_t number, wire::WireType type) {
  std::uint8_t bytes[wire::kMaxVarintBytes];
  const std::uint8_t* end = wire::put_varint(bytes, wire::tag(number, type));
  return std::string(reinterpret_cast<const char*>(bytes), end - bytes);
}

class ProtobufLowering : public Lowering {
 public:
  explicit ProtobufLowering(Plan& plan) : Lowering(plan) {}

  // The root routine: a message, the root struct's or one around a root of another kind.
  std::uint32_t root(const TypeDesc& root) {
    const TypeDesc& r = root.resolved();
    if (r.kind == Kind::Struct && !r.wrapper) return frame(root);
    const std::uint32_t index = reserve(root);
    std::vector<Instr> body;
    body.push_back(Instr{.op = Op::Frame});
    body.push_back(Instr{.op = Op::Struct, .a = wrapper(root, IntEncoding::Varint), .type = &root});
    finish(index, body);
    return index;
  }

 private:
  // What a reader compares a raw key with: the field number, four bytes little-endian, as the
  // reader gives every tag it reads (protobuf_ops.cpp).
  void keys(const FieldDesc& f, PlanField& field) override {
    field.required = false;
    field.omit_absent = true;
    const TypeDesc& t = unwrapped(*f.type);
    wire::WireType type = wire_type(t, f.encoding);
    // A packed run of scalars and each item of any other list or map is length-delimited.
    if (t.kind == Kind::List || t.kind == Kind::Array) {
      field.key_per_item = !packable(*t.element, f.encoding);
      type = wire::kLen;
    } else if (t.kind == Kind::Map) {
      field.key_per_item = true;
    }
    field.key = encoded_tag(field.number, type);
    const std::uint32_t n = field.number;
    field.match.assign(reinterpret_cast<const char*>(&n), 4);
  }

  IntEncoding encoding(std::uint16_t field) const {
    if (field != kNoField) return plan_.fields[field].desc->encoding;
    return static_cast<IntEncoding>(variant_);
  }

  // The routine of an element, a map's value or what an optional holds: the value's own, or a
  // message of one field around it.
  std::uint32_t item_routine(const TypeDesc& item, IntEncoding e) {
    if (needs_wrapper(item)) return wrapper(item, e);
    return element_routine(item, static_cast<std::uint8_t>(e));
  }

  // A message whose field 1, named "value", holds a value of `type`.
  std::uint32_t wrapper(const TypeDesc& type, IntEncoding e) {
    auto made = std::make_shared<FieldDesc>();
    made->name = "value";
    made->number = 1;
    made->type = TypeBox(type.resolved());
    made->encoding = e;
    plan_.made_fields.push_back(made);
    const std::uint32_t index = reserve(type.resolved());
    plan_.routines[index].object = true;
    std::vector<Instr> body;
    const std::uint8_t outer = variant_;
    variant_ = 0;
    slot(type, 0, field(*made, 0), body);
    variant_ = outer;
    finish(index, body);
    return index;
  }

  void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
            std::vector<Instr>& out) override {
    const TypeDesc& t = type.resolved();
    const IntEncoding e = encoding(field);
    Instr in{.op = Op::Int, .field = field, .offset = offset, .type = &t};
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
        in.a = item_routine(*t.element, e);
        break;
      case Kind::SharedPtr:
        in.op = Op::Shared;
        in.a = item_routine(*t.element, e);
        break;
      case Kind::List:
      case Kind::Array:
        in.op = t.kind == Kind::List ? Op::List : Op::Array;
        in.a = item_routine(*t.element, e);
        in.count = static_cast<std::uint32_t>(t.count);
        in.enc = scalar_enc(t.element->resolved(), e);
        if (packable(*t.element, e)) in.enc |= wire::kPacked;
        break;
      case Kind::Map:
        in.op = Op::Map;
        in.a = element_routine(*t.key, static_cast<std::uint8_t>(e));
        in.b = item_routine(*t.element, e);
        in.enc = static_cast<std::uint8_t>(
            wire_type(*t.key, e) |
            (needs_wrapper(*t.element) ? wire::kLen : wire_type(*t.element, e))
                << wire::kMapValueShift);
        break;
      case Kind::Named: break;  // resolved() never returns an unbound reference
    }
    if (in.op <= Op::Dynamic && in.op != Op::Frame) {
      in.width = static_cast<std::uint8_t>(t.size);
      in.enc = scalar_enc(t, e);
    }
    out.push_back(in);
  }
};

}  // namespace

Plan lower_protobuf(const TypeDesc& root, Direction direction, const RunOptions&) {
  Plan plan;
  plan.format = Format::Protobuf;
  plan.direction = direction;
  plan.root_type = &root;
  plan.traits = {.keyed_objects = true,
                 .containers = FormatTraits::Containers::SizePrefixed,
                 .shared_identity = false,
                 .repeated_keys = true,
                 .size_reserve = 1,
                 .open_enums = true};
  plan.fingerprint = fingerprint(root);
  ProtobufLowering lowering(plan);
  plan.root = lowering.root(root);
  if (unwritable_field(plan))
    plan.code[plan.routines[plan.root].begin].enc = wire::kUnwritableFrame;
  return plan;
}

const PlanField* unwritable_field(const Plan& plan) {
  for (const PlanField& field : plan.fields) {
    if (field.number > wire::kMaxFieldNumber) return &field;
  }
  return nullptr;
}

WriteBound protobuf_write_bound(const Instr& in) {
  switch (in.op) {
    case Op::Frame: return {.fallible = true};
    case Op::Bool: return {.fixed = 1};
    case Op::Int:
    case Op::UInt:
    case Op::Enum: return {.fixed = wire::kMaxVarintBytes};
    case Op::Float: return {.fixed = in.width};
    // The length, then the bytes; a string's are copied sixteen at a time (protobuf_kernel.cpp).
    case Op::String: return {.fixed = wire::kMaxVarintBytes + 16, .per_byte = 1};
    case Op::Bytes: return {.fixed = wire::kMaxVarintBytes, .per_byte = 1};
    case Op::Decimal:
    case Op::Time: return {.fixed = kMaxSmallMessage};
    case Op::List:
    case Op::Array: return {.sized = (in.enc & wire::kPacked) != 0};
    default: return {};
  }
}

const char* protobuf_enc_name(const Instr& in) {
  if (in.op == Op::Frame || in.op == Op::Struct || in.op == Op::Nullable || in.op == Op::Shared ||
      in.op == Op::Map) {
    return "";
  }
  const bool packed = (in.enc & wire::kPacked) != 0;
  const bool zig = (in.enc & wire::kZigzag) != 0;
  switch (in.enc & wire::kWireTypeMask) {
    case wire::kVarint:
      return packed ? (zig ? "packed zigzag" : "packed varint") : (zig ? "zigzag" : "varint");
    case wire::kI64: return packed ? "packed i64" : "i64";
    case wire::kI32: return packed ? "packed i32" : "i32";
    case wire::kLen: return "len";
  }
  return "?";
}

}  // namespace jitser
