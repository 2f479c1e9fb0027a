// Makes compiled functions visible to Linux perf. With JITSER_PERF=1 every function the JIT
// links is written to the process's jitdump file (/tmp/jit-<pid>.dump, for `perf inject --jit`,
// which also gives `perf annotate` the code bytes) and to its perf map (/tmp/perf-<pid>.map,
// which `perf report` reads as it is). Record with `perf record -k mono`: the dump's timestamps
// are CLOCK_MONOTONIC, which the header's flags (0) declare.
#pragma once

#include "jit/link_plugin.h"

namespace jitser::jit {

class PerfJitdumpPlugin : public LinkPlugin {
 public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility& responsibility,
                        llvm::jitlink::LinkGraph& graph,
                        llvm::jitlink::PassConfiguration& config) override;
};

}  // namespace jitser::jit
