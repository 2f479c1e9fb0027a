// The memory linked code lives in: objects packed side by side, each protection in arenas of
// its own. An arena of code or read-only data is mapped twice: JITLink writes an object
// through its writable view, and the code runs from its other view, whose pages only ever
// gain a protection, once. An arena of writable data is private memory, writable from the
// start.
//
// ORC's own managers give each object whole pages per protection and then take write access
// away from them. A codec's objects are a few kilobytes, so most of those pages were padding,
// and each page first touched costs a fault; and taking a permission away obliges the kernel
// to flush stale translations from every core that runs the process, an interrupt to each,
// for every segment of every object. Loading a warm code cache spent a fifth of its time in
// those flushes. Here an object shares pages with the objects before it, a page of the code's
// view is granted its protection when the first object reaches it, and nothing is flushed,
// for a permission granted to pages that view has never touched changes no translation. The
// writable view is never handed to compiled code, so no address is both writable and
// executable.
//
// Memory is not reused: jitser never unloads code while its Engine lives, and an Engine's
// arenas are unmapped with it.
#pragma once

#include <llvm/ExecutionEngine/JITLink/JITLinkMemoryManager.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace jitser::jit {

class PackedCodeMemory : public llvm::jitlink::JITLinkMemoryManager {
 public:
  static llvm::Expected<std::unique_ptr<PackedCodeMemory>> Create();
  explicit PackedCodeMemory(std::size_t page_size) : page_size_(page_size) {}
  PackedCodeMemory(const PackedCodeMemory&) = delete;
  PackedCodeMemory& operator=(const PackedCodeMemory&) = delete;
  ~PackedCodeMemory() override;

  void allocate(const llvm::jitlink::JITLinkDylib* dylib, llvm::jitlink::LinkGraph& graph,
                OnAllocatedFunction allocated) override;
  // Runs the deallocation actions (unregistering unwind frames); the memory stays mapped.
  void deallocate(std::vector<FinalizedAlloc> allocations,
                  OnDeallocatedFunction deallocated) override;

 private:
  class InFlight;

  // A stretch of address space of one protection: `code` runs, `writable` is written. A child
  // process shares the pages of its parent's chunks, so it links into chunks of its own.
  struct Chunk {
    char* code;
    char* writable;
    std::size_t size;
    pid_t owner;
    std::size_t used = 0;
    std::size_t granted = 0;    // bytes from the start whose code view has the protection
    std::size_t populated = 0;  // bytes from the start of the writable view made present
  };
  // Where one segment of an object went.
  struct Placed {
    unsigned protection;  // llvm::orc::MemProt's bits
    std::size_t chunk;    // in the protection's arena
    std::size_t offset;
    std::size_t content = 0;
    std::size_t zero_fill = 0;
    char* code;
    char* writable;
  };

  llvm::Expected<Chunk> map_chunk(unsigned protection, std::size_t bytes);
  llvm::Expected<Placed> place(unsigned protection, std::size_t size, std::size_t align);
  llvm::Error grant(const std::vector<Placed>& segments);
  FinalizedAlloc keep(std::vector<llvm::orc::shared::WrapperFunctionCall> deallocation);

  std::size_t page_size_;
  std::mutex mutex_;
  // By protection; the last chunk of each takes new objects.
  std::array<std::vector<Chunk>, 8> arenas_;
  std::unordered_map<std::uint64_t, std::vector<llvm::orc::shared::WrapperFunctionCall>>
      deallocations_;
  std::uint64_t next_allocation_ = 1;
};

}  // namespace jitser::jit
