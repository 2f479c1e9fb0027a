// ValueSlot: a temporary of a registered type's value (a map key being read), constructed and
// destroyed through the type's ValueOps on every path out.
#pragma once

#include <cstddef>
#include <memory>

#include <jitser/type_desc.h>

namespace jitser {

class ValueSlot {
 public:
  explicit ValueSlot(const TypeDesc& type) : type_(type) {
    if (type.size > sizeof(storage_) || type.align > alignof(std::max_align_t)) {
      heap_ = std::make_unique<std::max_align_t[]>((type.size + sizeof(std::max_align_t) - 1) /
                                                   sizeof(std::max_align_t));
    }
    type_.value_ops->construct(&type_, get());
  }
  ~ValueSlot() { type_.value_ops->destroy(&type_, get()); }
  ValueSlot(const ValueSlot&) = delete;
  ValueSlot& operator=(const ValueSlot&) = delete;
  void* get() { return heap_ ? static_cast<void*>(heap_.get()) : static_cast<void*>(storage_); }

 private:
  const TypeDesc& type_;
  alignas(std::max_align_t) unsigned char storage_[64];
  std::unique_ptr<std::max_align_t[]> heap_;
};

}  // namespace jitser
