#include "formats/cbor/lower_cbor.h"

#include "formats/cbor/time_rules.h"
#include "formats/cbor/wire.h"
#include "formats/lowering.h"

namespace jitser {
namespace {

class CborLowering : public Lowering {
 public:
  CborLowering(Plan& plan, const RunOptions& options)
      : Lowering(plan),
        by_number_(options.keys_by_number),
        text_timestamps_(options.text_timestamps) {}

 private:
  // A field's key is its name as a text string in its shortest head, or its number as an
  // integer (RunOptions::keys_by_number); a reader's raw key is a definite key's bytes as they
  // came, head included, so a key written so matches on one compare.
  void keys(const FieldDesc& f, PlanField& field) override {
    field.key =
        by_number_ ? cbor::head_item(cbor::Major::Unsigned, field.number) : cbor::text_item(f.name);
    field.match = field.key;
  }

  void slot(const TypeDesc& type, std::uint32_t offset, std::uint16_t field,
            std::vector<Instr>& out) override {
    value_slot(type, offset, field, out);
    if (text_timestamps_ && type.kind == Kind::Timestamp && out.back().op == Op::Time) {
      out.back().enc = cbor::kTimeText;
    }
  }

  const bool by_number_;
  const bool text_timestamps_;
};

}  // namespace

Plan lower_cbor(const TypeDesc& root, Direction direction, const RunOptions& options) {
  Plan plan;
  plan.format = Format::Cbor;
  plan.direction = direction;
  plan.traits = {.keyed_objects = !options.struct_arrays,
                 .counted_objects = true,
                 .enum_names = !options.enum_integers,
                 .containers = FormatTraits::Containers::CountPrefixed,
                 .shared_identity = false,
                 .literals = {.null = std::string(1, static_cast<char>(cbor::kNull))}};
  plan.root_type = &root;
  CborLowering lowering(plan, options);
  plan.root = lowering.frame(root);
  return plan;
}

const char* cbor_enc_name(const Instr& in) {
  return in.op == Op::Time && in.enc == cbor::kTimeText ? "tag0" : "";
}

}  // namespace jitser
