// LinkPlugin: the base of the Compiler's JITLink plugins, which look at or change an object's
// graph as it is linked and keep nothing of it after, so they have nothing to free or hand on
// when ORC fails an object, removes its code or moves it to another owner.
#pragma once

#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>

namespace jitser::jit {

class LinkPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
 public:
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility&) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}
};

}  // namespace jitser::jit
