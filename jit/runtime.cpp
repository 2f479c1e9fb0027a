#include "jit/runtime.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <optional>
#include <string>

#include "formats/format_table.h"
#include "typeinfo/strings.h"

namespace jitser::jit {

namespace {

template <class T>
const void* word_at(const T& object, std::size_t offset) {
  const void* word;
  std::memcpy(&word, reinterpret_cast<const char*>(&object) + offset, sizeof word);
  return word;
}
template <class T>
std::size_t size_at(const T& object, std::size_t offset) {
  std::size_t n;
  std::memcpy(&n, reinterpret_cast<const char*>(&object) + offset, sizeof n);
  return n;
}
// A pmr string or vector is its standard one after the resource pointer (typeinfo/strings.h).
// The arena lives on the stack and has no upstream: the check runs when an engine first compiles,
// which may be inside a caller's read, and must not draw on the caller's default resource.
bool pmr_layouts_match() {
  std::array<std::byte, 256> space;
  std::pmr::monotonic_buffer_resource arena(space.data(), space.size(),
                                            std::pmr::null_memory_resource());
  const std::pmr::string local("abc", &arena);
  const std::pmr::string heap(40, 'x', &arena);
  const std::pmr::vector<int> v({1, 2, 3}, &arena);
  const std::size_t at = std_layout_offset(Allocator::Polymorphic);
  return sizeof(std::pmr::string) == at + sizeof(std::string) &&
         sizeof(std::pmr::vector<int>) == at + sizeof(std::vector<int>) &&
         word_at(local, 0) == &arena && word_at(local, at) == local.data() &&
         size_at(local, at + 8) == 3 &&
         local.data() == reinterpret_cast<const char*>(&local) + at + 16 &&
         word_at(heap, at) == heap.data() && size_at(heap, at + 16) == heap.capacity() &&
         word_at(v, at) == v.data() && word_at(v, at + 8) == v.data() + 3;
}

template <class T>
bool engaged_at_end(std::optional<T>& o, T value) {
  const auto flag = [&] { return reinterpret_cast<const unsigned char*>(&o)[sizeof(T)]; };
  o.reset();
  if (flag() != 0) return false;
  o = std::move(value);
  return flag() == 1;
}

}  // namespace

bool std_layouts_match() {
  const std::string local = "abc";
  const std::string heap(40, 'x');
  const std::vector<int> v{1, 2, 3};
  const auto unique = std::make_unique<int>(1);
  const auto shared = std::make_shared<int>(1);
  std::optional<std::string> os;
  std::optional<std::int32_t> oi;
  std::optional<double> od;
  const WriteContext write_context;
  Buffer buffer;
  buffer.reserve(1);
  const ReadContext read_context{};
  // Compiled code counts nesting at the start of its context.
  return static_cast<const void*>(&write_context) == &write_context.depth &&
         reinterpret_cast<const char*>(&write_context.out) -
                 reinterpret_cast<const char*>(&write_context) ==
             kWriteContextOut &&
         word_at(buffer, 0) == buffer.data() &&
         static_cast<const void*>(&read_context) == &read_context.depth &&
         sizeof(std::string) == 32 && word_at(local, 0) == local.data() && size_at(local, 8) == 3 &&
         local.data() == reinterpret_cast<const char*>(&local) + 16 &&
         word_at(heap, 0) == heap.data() && size_at(heap, 16) == heap.capacity() &&
         word_at(v, 0) == v.data() && word_at(v, 8) == v.data() + 3 &&
         word_at(unique, 0) == unique.get() && word_at(shared, 0) == shared.get() &&
         engaged_at_end(os, std::string("x")) && engaged_at_end(oi, 7) && engaged_at_end(od, 1.5) &&
         pmr_layouts_match();
}

std::vector<HelperSymbol> helper_symbols() {
  std::vector<HelperSymbol> all(runtime_helpers().begin(), runtime_helpers().end());
  for (const FormatEntry& format : format_entries()) {
    if (!format.kernel) continue;
    for (const HelperSymbol& h : format.helpers()) all.push_back(h);
    // First-tier code calls the kernel compiled into the library; optimized code links the
    // kernel's bitcode into its module, where these names are its own.
    for (const HelperSymbol& h : format.kernel().functions) all.push_back(h);
  }
  return all;
}

}  // namespace jitser::jit
