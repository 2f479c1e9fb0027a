#include "jit/perf_jitdump.h"

#include <elf.h>
#include <fcntl.h>
#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace jitser::jit {
namespace {

// The jitdump format: tools/perf/Documentation/jitdump-specification.txt in the Linux tree.
struct FileHeader {
  std::uint32_t magic = 0x4A695444;  // "JiTD" read as little-endian
  std::uint32_t version = 1;
  std::uint32_t total_size = sizeof(FileHeader);
  std::uint32_t elf_mach = EM_X86_64;
  std::uint32_t pad = 0;
  std::uint32_t pid = 0;
  std::uint64_t timestamp = 0;
  std::uint64_t flags = 0;  // timestamps are CLOCK_MONOTONIC, not the architecture's counter
};

struct CodeLoad {
  std::uint32_t id = 0;  // JIT_CODE_LOAD
  std::uint32_t total_size = 0;
  std::uint64_t timestamp = 0;
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
  std::uint64_t vma = 0;
  std::uint64_t code_addr = 0;
  std::uint64_t code_size = 0;
  std::uint64_t code_index = 0;
};

std::uint64_t now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// perf expects one dump and one map per process, so these files are the one piece of
// process-wide state in jitser: every Engine that profiles appends to them.
class ProcessFiles {
 public:
  static ProcessFiles& get() {
    static ProcessFiles files;
    return files;
  }

  void add(const std::string& name, std::uint64_t address, const std::uint8_t* code,
           std::uint64_t size) {
    std::lock_guard lock(mutex_);
    if (dump_ < 0 && map_ == nullptr) return;
    if (dump_ >= 0) {
      CodeLoad record;
      record.total_size = static_cast<std::uint32_t>(sizeof(CodeLoad) + name.size() + 1 + size);
      record.timestamp = now();
      record.pid = static_cast<std::uint32_t>(getpid());
      record.tid = static_cast<std::uint32_t>(syscall(SYS_gettid));
      record.vma = record.code_addr = address;
      record.code_size = size;
      record.code_index = index_++;
      write_all(&record, sizeof record);
      write_all(name.c_str(), name.size() + 1);
      write_all(code, size);
    }
    if (map_) {
      std::fprintf(map_, "%llx %llx %s\n", static_cast<unsigned long long>(address),
                   static_cast<unsigned long long>(size), name.c_str());
      std::fflush(map_);
    }
  }

 private:
  ProcessFiles() {
    const std::string pid = std::to_string(getpid());
    dump_ = open(("/tmp/jit-" + pid + ".dump").c_str(), O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (dump_ >= 0) {
      FileHeader header;
      header.pid = static_cast<std::uint32_t>(getpid());
      header.timestamp = now();
      write_all(&header, sizeof header);
      // perf record notices the dump by this executable mapping of it.
      marker_ = mmap(nullptr, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)),
                     PROT_READ | PROT_EXEC, MAP_PRIVATE, dump_, 0);
    }
    map_ = std::fopen(("/tmp/perf-" + pid + ".map").c_str(), "w");
  }

  void write_all(const void* data, std::size_t n) {
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t done = ::write(dump_, p, n);
      if (done <= 0) return;
      p += done;
      n -= static_cast<std::size_t>(done);
    }
  }

  std::mutex mutex_;
  int dump_ = -1;
  void* marker_ = nullptr;
  std::FILE* map_ = nullptr;
  std::uint64_t index_ = 0;
};

}  // namespace

void PerfJitdumpPlugin::modifyPassConfig(llvm::orc::MaterializationResponsibility&,
                                         llvm::jitlink::LinkGraph&,
                                         llvm::jitlink::PassConfiguration& config) {
  // After fixups the code bytes are final and every symbol has its address.
  config.PostFixupPasses.push_back([](llvm::jitlink::LinkGraph& graph) {
    for (llvm::jitlink::Symbol* symbol : graph.defined_symbols()) {
      if (!symbol->hasName() || !symbol->isCallable() || symbol->getSize() == 0) continue;
      const llvm::ArrayRef<char> content = symbol->getBlock().getContent();
      if (symbol->getOffset() + symbol->getSize() > content.size()) continue;
      ProcessFiles::get().add(
          symbol->getName().str(), symbol->getAddress().getValue(),
          reinterpret_cast<const std::uint8_t*>(content.data() + symbol->getOffset()),
          symbol->getSize());
    }
    return llvm::Error::success();
  });
}

}  // namespace jitser::jit
