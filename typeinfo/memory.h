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

/// The object a reader reads a shared_ptr's new object into: the one `holder` (of shared_ptr
/// type `type`) holds when nobody else holds it, read in place as a nested struct is, so that a
/// used value keeps its objects' storage; else a new one, made in `resource` when given.
/// An object another shared_ptr holds is never written, and an object kept stays in the memory
/// it was made in.
inline void* shared_object_to_read(const TypeDesc& type, void* holder,
                                   std::pmr::memory_resource* resource) {
  const SharedOps& ops = *type.shared_ops;
  if (void* object = ops.sole(&type, holder)) return object;
  return ops.emplace(&type, holder, resource);
}

}  // namespace jitser
