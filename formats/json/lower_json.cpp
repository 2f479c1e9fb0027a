#include "formats/json/lower_json.h"

#include "formats/field_default.h"
#include "formats/json/json_write.h"
#include "formats/lowering.h"

namespace jitser {
namespace {

// Map keys are written as strings, so an integer key lowers to an integer in quotes.
constexpr std::uint8_t kMapKey = 1;
// Elements and map values inside a Protobuf message's field.
constexpr std::uint8_t kMessageElement = 2;

class JsonLowering : public Lowering {
 public:
  explicit JsonLowering(Plan& plan) : Lowering(plan) {}

 private:
  void keys(const FieldDesc& f, PlanField& field) override {
    std::string key(json::string_bound(f.name.size()) + 1, '\0');
    char* end = json::put_string(key.data(), f.name.data(), f.name.size());
    key.resize(end ? static_cast<std::size_t>(end - key.data()) : 0);  // names are UTF-8: checked
    // A reader's raw key starts after its opening quote and runs past its closing one.
    field.match = key.substr(1);
    field.key = key + ":";
    // Protobuf's JSON leaves out what holds its default value, and a field that is not
    // required holds its default when it is empty or zero.
    field.omit_empty = in_message() && !is_required(f);
  }

  // Lowering a field of a Protobuf message, or a value inside one.
  bool in_message() const { return variant_ == kMessageElement || (struct_ && struct_->message); }

  void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
            std::vector<Instr>& out) override {
    const TypeDesc& t = type.resolved();
    const auto width = static_cast<std::uint8_t>(t.size);
    const bool message = in_message();
    const std::uint8_t held = message ? kMessageElement : 0;
    Instr in{.op = Op::Int,
             .enc = variant_ == kMapKey ? json::kQuoted
                    : message           ? json::kProto
                                        : json::kPlain,
             .field = field,
             .offset = offset,
             .type = &t};
    switch (t.kind) {
      case Kind::Bool:
        in.op = Op::Bool;
        in.width = width;
        break;
      case Kind::Int8:
      case Kind::Int16:
      case Kind::Int32:
      case Kind::Int64:
        in.op = Op::Int;
        in.width = width;
        break;
      case Kind::UInt8:
      case Kind::UInt16:
      case Kind::UInt32:
      case Kind::UInt64:
        in.op = Op::UInt;
        in.width = width;
        break;
      case Kind::Float32:
      case Kind::Float64:
        in.op = Op::Float;
        in.width = width;
        break;
      case Kind::String: in.op = Op::String; break;
      case Kind::Bytes: in.op = Op::Bytes; break;
      case Kind::Enum:
        in.op = Op::Enum;
        in.width = width;
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
        in.a = element_routine(*t.element, held);
        break;
      case Kind::SharedPtr:
        in.op = Op::Shared;
        in.a = element_routine(*t.element, held);
        break;
      case Kind::List:
        in.op = Op::List;
        in.a = element_routine(*t.element, held);
        break;
      case Kind::Array:
        in.op = Op::Array;
        in.a = element_routine(*t.element, held);
        in.count = static_cast<std::uint32_t>(t.count);
        break;
      case Kind::Map:
        in.op = Op::Map;
        in.a = element_routine(*t.key, kMapKey);
        in.b = element_routine(*t.element, held);
        break;
      case Kind::Named: break;  // resolved() never returns an unbound reference
    }
    out.push_back(in);
  }
};

}  // namespace

Plan lower_json(const TypeDesc& root, Direction direction, const RunOptions&) {
  Plan plan;
  plan.format = Format::Json;
  plan.direction = direction;
  plan.traits = {.keyed_objects = true,
                 .enum_names = true,
                 .containers = FormatTraits::Containers::Terminated,
                 .shared_identity = false,
                 .literals = {.object_begin = "{",
                              .field_separator = ",",
                              .object_end = "}",
                              .element_separator = ",",
                              .null = "null",
                              .present = "",
                              .shared_new = ""}};
  plan.root_type = &root;
  JsonLowering lowering(plan);
  plan.root = lowering.frame(root);
  return plan;
}

const char* json_enc_name(const Instr& in) {
  return in.enc == json::kQuoted ? "quoted" : in.enc == json::kProto ? "protobuf" : "";
}

}  // namespace jitser
