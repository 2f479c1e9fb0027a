// HostBinder: binds a compiled object's host symbols (jit/plan_to_ir.h: the type descriptors,
// ops tables and fields its code refers to) to this process's addresses inside JITLink, as the
// object is linked.
//
// Defining them as symbols of the JITDylib instead costs ORC a symbol's bookkeeping (its
// definition, its lookup, its dependencies, its table entry for the Engine's life) for every
// host reference of every object, and a codec of a large schema refers to hundreds. Here each
// object's graph gets its host symbols as absolute addresses before JITLink looks up what the
// object refers to, so ORC sees only the kernel's functions and the runtime's helpers.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "jit/link_plugin.h"
#include "jit/plan_to_ir.h"

namespace jitser::jit {

class HostBinder : public LinkPlugin {
 public:
  /// The host addresses of the object named `object` (its buffer's name), which is linked
  /// next. Forgotten when it is linked, or by forget().
  void expect(const std::string& object, std::vector<HostAddress> hosts);
  /// Forgets what expect() said of an object that was not linked.
  void forget(const std::string& object);

  void modifyPassConfig(llvm::orc::MaterializationResponsibility& responsibility,
                        llvm::jitlink::LinkGraph& graph,
                        llvm::jitlink::PassConfiguration& config) override;

 private:
  llvm::Error bind(llvm::jitlink::LinkGraph& graph);

  std::mutex mutex_;
  std::map<std::string, std::vector<HostAddress>, std::less<>> expected_;
};

}  // namespace jitser::jit
