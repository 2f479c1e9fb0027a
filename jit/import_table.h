// The import table: a module's references to what it does not define, routed through a table
// of addresses in the module's own read-only data.
//
// Code generation reaches an external symbol through a GOT entry, and calls one through a stub
// and its GOT entry. JITLink makes each entry and each stub a block of the object's graph, and
// for every object ORC computes which blocks each block reaches, transitively, to track the
// symbols the object depends on. A first-tier codec refers to dozens of host symbols and kernel
// functions, so its graph had several times more GOT and stub blocks than code, and that
// dependency walk was the largest part of linking a codec from the code cache. Loads from a
// table in the object's data leave one block of data, whose entries JITLink fills in as plain
// 64-bit addresses; a call through the table is an indirect call, as a call through a stub
// ends in one.
#pragma once

#include "jit/link_plugin.h"

namespace llvm {
class Module;
}

namespace jitser::jit {

/// Replaces every use, by an instruction, of a function or variable that `module` declares but
/// does not define (intrinsics aside) with a load of its address from an internal table, made
/// here. Uses in the initializers of the module's own data stay: they are data relocations
/// already. Run last, before code generation, so that no optimization folds the loads back.
void route_imports_through_table(llvm::Module& module);

/// Makes an object's import table read-only once linked, as JITLink's own GOT is: the code
/// generator marks data with relocations writable.
class ImportTableSealer : public LinkPlugin {
 public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility& responsibility,
                        llvm::jitlink::LinkGraph& graph,
                        llvm::jitlink::PassConfiguration& config) override;
};

}  // namespace jitser::jit
