// The strings jitser reads and writes in place, std::string and std::pmr::string, and where the
// standard layout of a string or vector begins inside a value. libstdc++ stores a container's
// allocator first: a polymorphic allocator's resource pointer comes before the same words a
// std::string or std::vector holds, so compiled code reads either through one layout at an
// offset (jit::std_layouts_match checks this before any compiled code runs), and only
// allocation has to know which allocator it serves.
#pragma once

#include <cstddef>
#include <memory_resource>
#include <string>
#include <string_view>

#include <jitser/type_desc.h>

namespace jitser {

/// Bytes before a String's, Bytes' or List's standard layout: those of its allocator's state.
inline constexpr std::size_t std_layout_offset(Allocator allocator) {
  return allocator == Allocator::Polymorphic ? sizeof(void*) : 0;
}

/// The text of the String at `at`.
inline std::string_view string_at(const TypeDesc& type, const void* at) {
  if (type.allocator == Allocator::Polymorphic) return *static_cast<const std::pmr::string*>(at);
  return *static_cast<const std::string*>(at);
}

/// Makes the String at `at` hold the n bytes at `data`, allocating through its own allocator.
inline void assign_string(Allocator allocator, void* at, const char* data, std::size_t n) {
  if (allocator == Allocator::Polymorphic) {
    static_cast<std::pmr::string*>(at)->assign(data, n);
  } else {
    static_cast<std::string*>(at)->assign(data, n);
  }
}

inline void assign_string(const TypeDesc& type, void* at, std::string_view text) {
  assign_string(type.allocator, at, text.data(), text.size());
}

}  // namespace jitser
