#include <new>

#include "tests/random_schema/random_types.h"

namespace jitser::random_schema {

bool TrackedResource::holds(const void* p) const {
  const auto* at = static_cast<const std::byte*>(p);
  std::lock_guard lock(mutex_);
  auto it = blocks_.upper_bound(at);
  if (it == blocks_.begin()) return false;
  --it;
  return at < it->first + it->second;
}

void* TrackedResource::do_allocate(std::size_t bytes, std::size_t align) {
  void* p = ::operator new(bytes, std::align_val_t(align));
  std::lock_guard lock(mutex_);
  blocks_.emplace(static_cast<const std::byte*>(p), bytes);
  return p;
}

void TrackedResource::do_deallocate(void* p, std::size_t bytes, std::size_t align) {
  {
    std::lock_guard lock(mutex_);
    blocks_.erase(static_cast<const std::byte*>(p));
  }
  ::operator delete(p, bytes, std::align_val_t(align));
}

TrackedResource* tracked_resource() {
  static TrackedResource resource;
  return &resource;
}

}  // namespace jitser::random_schema
