// Where the objects a read makes get their memory (docs/design.md, "Memory").
#pragma once

#include <memory_resource>

#include <jitser/type_desc.h>

namespace jitser {

/// The memory resource the value at `root` was made with, when its type is allocator-aware
/// (ValueOps::memory_resource); else null, and the objects a read makes behind shared_ptrs come
/// from the global allocator.
inline std::pmr::memory_resource* memory_resource_of(const TypeDesc& type, const void* root) {
  const TypeDesc& t = type.resolved();
  return t.value_ops && t.value_ops->memory_resource ? t.value_ops->memory_resource(&t, root)
                                                     : nullptr;
}

}  // namespace jitser
