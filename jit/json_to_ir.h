// JSON Plans to LLVM IR. The emitted code makes the calls the interpreter makes
// (engine/interpret_json.cpp) through the helpers of jit/runtime.h; what it adds is everything
// the Plan fixes in advance: key literals stored as words, key dispatch as compares of the key's
// bytes against constants, and no instruction dispatch.
#pragma once

#include <string>
#include <vector>

#include "formats/plan.h"
#include "jit/plan_to_ir.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace jitser::jit {

/// Emits a JSON Plan into `module` and exports its entry as `entry`: a WriteFn for a serializing
/// Plan, a ReadFn for a deserializing one. The entry counts the root value's nesting level,
/// as the interpreter does.
void emit_json_plan(const Plan& plan, const RunOptions& options, llvm::Module& module,
                    const std::string& entry, std::vector<HostAddress>& hosts);

}  // namespace jitser::jit
