#include "jit/code_memory.h"

#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Support/Memory.h>
#include <llvm/Support/Process.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace jitser::jit {
namespace {

using llvm::orc::MemProt;

// The address space a chunk reserves, unless one segment needs more: it costs no memory
// until written.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
// How far ahead of the objects the writable view is made present, in one call rather than a
// fault per page.
constexpr std::size_t kPopulateBytes = std::size_t{64} << 10;

// Bytes left unused at the start of a chunk of code or read-only data.
constexpr std::size_t kBeforeFirstObject = 16;

// MFD_NOEXEC_SEAL, which Linux 6.3 added: older headers lack it.
#ifdef MFD_NOEXEC_SEAL
constexpr unsigned kNoExecSeal = MFD_NOEXEC_SEAL;
#else
constexpr unsigned kNoExecSeal = 0x0008U;
#endif

llvm::Error os_error(const char* what) {
  return llvm::createStringError(std::error_code(errno, std::generic_category()), what);
}

int protection_flags(unsigned protection) {
  const auto has = [protection](MemProt bit) {
    return (protection & static_cast<unsigned>(bit)) != 0;
  };
  return (has(MemProt::Read) ? PROT_READ : 0) | (has(MemProt::Write) ? PROT_WRITE : 0) |
         (has(MemProt::Exec) ? PROT_EXEC : 0);
}

}  // namespace

class PackedCodeMemory::InFlight : public JITLinkMemoryManager::InFlightAlloc {
 public:
  InFlight(PackedCodeMemory& memory, llvm::jitlink::LinkGraph& graph, std::vector<Placed> placed)
      : memory_(memory), graph_(graph), placed_(std::move(placed)) {}

  void finalize(OnFinalizedFunction finalized) override {
    for (const Placed& p : placed_) std::memset(p.writable + p.content, 0, p.zero_fill);
    if (llvm::Error e = memory_.grant(placed_)) return finalized(std::move(e));
    auto deallocation = llvm::orc::shared::runFinalizeActions(graph_.allocActions());
    if (!deallocation) return finalized(deallocation.takeError());
    finalized(memory_.keep(std::move(*deallocation)));
  }

  // The memory stays with the arena, unused.
  void abandon(OnAbandonedFunction abandoned) override { abandoned(llvm::Error::success()); }

 private:
  PackedCodeMemory& memory_;
  llvm::jitlink::LinkGraph& graph_;
  std::vector<Placed> placed_;
};

llvm::Expected<std::unique_ptr<PackedCodeMemory>> PackedCodeMemory::Create() {
  llvm::Expected<unsigned> page = llvm::sys::Process::getPageSize();
  if (!page) return page.takeError();
  return std::make_unique<PackedCodeMemory>(*page);
}

PackedCodeMemory::~PackedCodeMemory() {
  for (const std::vector<Chunk>& arena : arenas_) {
    for (const Chunk& c : arena) {
      ::munmap(c.code, c.size);
      if (c.writable != c.code) ::munmap(c.writable, c.size);
    }
  }
}

llvm::Expected<PackedCodeMemory::Chunk> PackedCodeMemory::map_chunk(unsigned protection,
                                                                    std::size_t bytes) {
  const int flags = protection_flags(protection);
  // Writable segments need no second view: their one view has its protection from the start,
  // and is private, so a child process writes its own copy.
  if (flags & PROT_WRITE) {
    void* view = ::mmap(nullptr, bytes, flags, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (view == MAP_FAILED) return os_error("cannot map memory for code");
    return Chunk{static_cast<char*>(view), static_cast<char*>(view), bytes, ::getpid(), 0, bytes};
  }
  // A file nothing can execve, which systems that refuse other memory files allow
  // (vm.memfd_noexec); kernels older than the flag refuse it, and get an ordinary one.
  int file = ::memfd_create("jitser-code", MFD_CLOEXEC | kNoExecSeal);
  if (file < 0 && errno == EINVAL) file = ::memfd_create("jitser-code", MFD_CLOEXEC);
  if (file < 0) return os_error("cannot make memory for code");
  void* code = MAP_FAILED;
  void* writable = MAP_FAILED;
  if (::ftruncate(file, static_cast<off_t>(bytes)) == 0) {
    code = ::mmap(nullptr, bytes, PROT_NONE, MAP_SHARED, file, 0);
    writable = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0);
  }
  llvm::Error failed = code == MAP_FAILED || writable == MAP_FAILED
                           ? os_error("cannot map memory for code")
                           : llvm::Error::success();
  ::close(file);
  if (failed) {
    if (code != MAP_FAILED) ::munmap(code, bytes);
    if (writable != MAP_FAILED) ::munmap(writable, bytes);
    return failed;
  }
  // Clang's -fsanitize=function reads the bytes before a function called through a pointer,
  // so the first object of a chunk starts a little way in, where they are mapped.
  return Chunk{static_cast<char*>(code), static_cast<char*>(writable), bytes, ::getpid(),
               kBeforeFirstObject};
}

void PackedCodeMemory::allocate(const llvm::jitlink::JITLinkDylib*, llvm::jitlink::LinkGraph& graph,
                                OnAllocatedFunction allocated) {
  llvm::jitlink::BasicLayout layout(graph);
  std::vector<Placed> placed;
  for (auto& [group, segment] : layout.segments()) {
    llvm::Expected<Placed> p =
        place(static_cast<unsigned>(group.getMemProt()), segment.ContentSize + segment.ZeroFillSize,
              segment.Alignment.value());
    if (!p) return allocated(p.takeError());
    segment.Addr = llvm::orc::ExecutorAddr::fromPtr(p->code);
    segment.WorkingMem = p->writable;
    p->content = segment.ContentSize;
    p->zero_fill = segment.ZeroFillSize;
    placed.push_back(*p);
  }
  if (llvm::Error e = layout.apply()) return allocated(std::move(e));
  allocated(std::make_unique<InFlight>(*this, graph, std::move(placed)));
}

llvm::Expected<PackedCodeMemory::Placed> PackedCodeMemory::place(unsigned protection,
                                                                 std::size_t size,
                                                                 std::size_t align) {
  if (align > page_size_) {
    return llvm::createStringError("a segment is aligned to more than a page");
  }
  std::lock_guard lock(mutex_);
  std::vector<Chunk>& arena = arenas_[protection & 7];
  const pid_t process = ::getpid();
  if (arena.empty() || arena.back().owner != process ||
      llvm::alignTo(arena.back().used, align) + size > arena.back().size) {
    llvm::Expected<Chunk> chunk = map_chunk(
        protection,
        std::max(kChunkBytes, llvm::alignTo(kBeforeFirstObject + align + size, page_size_)));
    if (!chunk) return chunk.takeError();
    arena.push_back(*chunk);
  }
  Chunk& chunk = arena.back();
  const std::size_t offset = llvm::alignTo(chunk.used, align);
  chunk.used = offset + size;
  if (chunk.used > chunk.populated) {
    const std::size_t to = std::min(chunk.size, llvm::alignTo(chunk.used, kPopulateBytes));
    // Where the kernel lacks the call, pages fault in one by one as they are written.
    ::madvise(chunk.writable + chunk.populated, to - chunk.populated, MADV_POPULATE_WRITE);
    chunk.populated = to;
  }
  return Placed{.protection = protection & 7,
                .chunk = arena.size() - 1,
                .offset = offset,
                .code = chunk.code + offset,
                .writable = chunk.writable + offset};
}

llvm::Error PackedCodeMemory::grant(const std::vector<Placed>& segments) {
  std::lock_guard lock(mutex_);
  for (const Placed& p : segments) {
    Chunk& chunk = arenas_[p.protection][p.chunk];
    const std::size_t end = llvm::alignTo(p.offset + p.content + p.zero_fill, page_size_);
    if (end <= chunk.granted) continue;
    const int flags = protection_flags(p.protection);
    if (::mprotect(chunk.code + chunk.granted, end - chunk.granted, flags) != 0) {
      return os_error("cannot protect linked code");
    }
    if (flags & PROT_EXEC) {
      llvm::sys::Memory::InvalidateInstructionCache(chunk.code + chunk.granted,
                                                    end - chunk.granted);
    }
    chunk.granted = end;
  }
  return llvm::Error::success();
}

PackedCodeMemory::FinalizedAlloc PackedCodeMemory::keep(
    std::vector<llvm::orc::shared::WrapperFunctionCall> deallocation) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_allocation_++;
  deallocations_.emplace(id, std::move(deallocation));
  return FinalizedAlloc(llvm::orc::ExecutorAddr(id));
}

void PackedCodeMemory::deallocate(std::vector<FinalizedAlloc> allocations,
                                  OnDeallocatedFunction deallocated) {
  llvm::Error all = llvm::Error::success();
  for (FinalizedAlloc& a : allocations) {
    std::vector<llvm::orc::shared::WrapperFunctionCall> actions;
    {
      std::lock_guard lock(mutex_);
      auto found = deallocations_.find(a.release().getValue());
      if (found == deallocations_.end()) continue;
      actions = std::move(found->second);
      deallocations_.erase(found);
    }
    all = llvm::joinErrors(std::move(all), llvm::orc::shared::runDeallocActions(actions));
  }
  deallocated(std::move(all));
}

}  // namespace jitser::jit
