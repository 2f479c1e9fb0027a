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
    value_slot(type, offset, field, out);
  }
};

}  // namespace

Plan lower_msgpack(const TypeDesc& root, Direction direction, const RunOptions& options) {
  Plan plan;
  plan.format = Format::Msgpack;
  plan.direction = direction;
  plan.traits = {.keyed_objects = !options.struct_arrays,
                 .counted_objects = true,
                 .enum_names = !options.enum_integers,
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
