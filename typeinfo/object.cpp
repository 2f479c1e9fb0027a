#include <new>
#include <utility>

#include <jitser/object.h>

namespace jitser {

Object::Object(const TypeDesc& type)
    : type_(&type), storage_(::operator new(type.size, std::align_val_t(type.align))) {
  try {
    type.value_ops->construct(&type, storage_);
  } catch (...) {
    ::operator delete(storage_, std::align_val_t(type.align));
    throw;
  }
}

Object::Object(Object&& other) noexcept
    : type_(std::exchange(other.type_, nullptr)),
      storage_(std::exchange(other.storage_, nullptr)) {}

Object& Object::operator=(Object&& other) noexcept {
  if (this != &other) {
    reset();
    type_ = std::exchange(other.type_, nullptr);
    storage_ = std::exchange(other.storage_, nullptr);
  }
  return *this;
}

Object::~Object() { reset(); }

void Object::reset() {
  if (!storage_) return;
  type_->value_ops->destroy(type_, storage_);
  ::operator delete(storage_, std::align_val_t(type_->align));
  storage_ = nullptr;
  type_ = nullptr;
}

}  // namespace jitser
