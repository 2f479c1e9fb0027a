#include "jit/plan_to_ir.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "jit/emitter.h"

namespace jitser::jit {

std::string entry_name(const Plan& plan) {
  return std::string("jitser.") +
         (plan.direction == Direction::Serialize ? "serialize." : "deserialize.") +
         format_name(plan.format) + "." + ir::symbol_text(display_name(*plan.root_type));
}

namespace {

// How many instructions the copies of one routine, past the first, may add.
constexpr std::size_t kCopyBudget = 2048;

// Merging routines into their callers (jit/emitter.h) lets a codec optimize as one function,
// but copies a routine into each caller, and with it the routines it calls: a struct used by
// six fields of a struct used by six fields would be emitted 36 times, and a schema a few
// levels deep would take minutes and megabytes of code. A routine whose copies would add more
// than the budget therefore stays a function of its own, called from each place. Routines are
// decided after the routines they call, so a routine's size counts its callees as they will be.
class CopyLimit {
 public:
  void decide(llvm::Function& f) {
    if (!sizes_.emplace(&f, 0).second) return;  // decided, or a recursive call under way
    std::size_t size = 0;
    for (const llvm::BasicBlock& block : f) {
      for (const llvm::Instruction& instr : block) {
        ++size;
        const auto* call = llvm::dyn_cast<llvm::CallBase>(&instr);
        llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
        if (!callee || !merged(*callee)) continue;
        decide(*callee);
        if (merged(*callee)) size += sizes_[callee];
      }
    }
    sizes_[&f] = size;
    const std::size_t copies = f.getNumUses() > 1 ? f.getNumUses() - 1 : 0;
    if (copies * size > kCopyBudget) f.removeFnAttr(llvm::Attribute::AlwaysInline);
  }

 private:
  static bool merged(const llvm::Function& f) {
    return !f.isDeclaration() && f.hasFnAttribute(llvm::Attribute::AlwaysInline);
  }
  std::unordered_map<const llvm::Function*, std::size_t> sizes_;
};

}  // namespace

std::vector<HostAddress> emit_plan(const Plan& plan, const RunOptions& options,
                                   llvm::Module& module, const std::string& entry) {
  std::vector<HostAddress> hosts;
  if (plan.direction == Direction::Serialize) {
    emit_writer(plan, options, module, entry, hosts);
  } else {
    emit_reader(plan, options, module, entry, hosts);
  }
  CopyLimit limit;
  for (llvm::Function& f : module) {
    if (!f.isDeclaration()) limit.decide(f);
  }
  return hosts;
}

}  // namespace jitser::jit
