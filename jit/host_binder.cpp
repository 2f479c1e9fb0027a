#include "jit/host_binder.h"

#include <llvm/ExecutionEngine/JITLink/JITLink.h>

#include <string_view>
#include <unordered_map>
#include <utility>

namespace jitser::jit {

void HostBinder::expect(const std::string& object, std::vector<HostAddress> hosts) {
  std::lock_guard lock(mutex_);
  expected_[object] = std::move(hosts);
}

void HostBinder::forget(const std::string& object) {
  std::lock_guard lock(mutex_);
  expected_.erase(object);
}

void HostBinder::modifyPassConfig(llvm::orc::MaterializationResponsibility&,
                                  llvm::jitlink::LinkGraph&,
                                  llvm::jitlink::PassConfiguration& config) {
  config.PrePrunePasses.push_back([this](llvm::jitlink::LinkGraph& graph) { return bind(graph); });
}

llvm::Error HostBinder::bind(llvm::jitlink::LinkGraph& graph) {
  std::vector<HostAddress> hosts;
  {
    std::lock_guard lock(mutex_);
    const auto found = expected_.find(graph.getName());
    if (found == expected_.end()) return llvm::Error::success();
    hosts = std::move(found->second);
    expected_.erase(found);
  }
  std::unordered_map<std::string_view, const void*> address_of;
  for (const HostAddress& h : hosts) address_of.emplace(h.name, h.address);
  // Made absolute after the walk: that takes them out of the set being walked.
  std::vector<std::pair<llvm::jitlink::Symbol*, const void*>> bound;
  for (llvm::jitlink::Symbol* symbol : graph.external_symbols()) {
    const auto found = address_of.find(std::string_view(symbol->getName()));
    if (found != address_of.end()) bound.emplace_back(symbol, found->second);
  }
  for (const auto& [symbol, address] : bound) {
    graph.makeAbsolute(*symbol, llvm::orc::ExecutorAddr::fromPtr(address));
  }
  return llvm::Error::success();
}

}  // namespace jitser::jit
