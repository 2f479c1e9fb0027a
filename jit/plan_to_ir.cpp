#include "jit/plan_to_ir.h"

#include <string>
#include <vector>

#include "jit/emitter.h"

namespace jitser::jit {

std::string entry_name(const Plan& plan) {
  return std::string("jitser.") +
         (plan.direction == Direction::Serialize ? "serialize." : "deserialize.") +
         format_name(plan.format) + "." + ir::symbol_text(display_name(*plan.root_type));
}

std::vector<HostAddress> emit_plan(const Plan& plan, const RunOptions& options,
                                   llvm::Module& module, const std::string& entry) {
  std::vector<HostAddress> hosts;
  if (plan.direction == Direction::Serialize) {
    emit_writer(plan, options, module, entry, hosts);
  } else {
    emit_reader(plan, options, module, entry, hosts);
  }
  return hosts;
}

}  // namespace jitser::jit
