#include <cstddef>
#include <memory>
#include <new>
#include <set>
#include <utility>
#include <vector>

#include <jitser/object.h>

namespace jitser {
namespace {

// The shared objects a value reaches, each once, held alive by the walk.
class SharedObjects {
 public:
  void walk(const TypeDesc& declared, void* at) {
    const TypeDesc& t = declared.resolved();
    switch (t.kind) {
      case Kind::Struct:
        for (const FieldDesc& f : t.fields) walk(*f.type, static_cast<char*>(at) + f.offset);
        return;
      case Kind::List:
      case Kind::Array: {
        if (t.kind == Kind::List && !t.list_ops->data) return;  // std::vector<bool>
        const std::size_t n = t.kind == Kind::List ? t.list_ops->size(&t, at) : t.count;
        char* data = t.kind == Kind::List ? static_cast<char*>(t.list_ops->data(&t, at))
                                          : static_cast<char*>(at);
        const std::size_t stride = t.element->resolved().size;
        for (std::size_t i = 0; i < n; ++i) walk(*t.element, data + i * stride);
        return;
      }
      case Kind::Optional:
      case Kind::UniquePtr:
        if (const void* held = t.nullable_ops->get(&t, at))
          walk(*t.element, const_cast<void*>(held));
        return;
      case Kind::SharedPtr: {
        const void* object = t.shared_ops->get(&t, at);
        if (!object || !seen_.insert(object).second) return;
        held_.push_back({t.shared_ops->share(&t, at), &t});
        walk(*t.element, const_cast<void*>(object));
        return;
      }
      case Kind::Map: {
        alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
        t.map_ops->begin(&t, at, cursor);
        const void* key = nullptr;
        const void* value = nullptr;
        while (t.map_ops->next(&t, cursor, &key, &value)) {
          walk(*t.element, const_cast<void*>(value));
        }
        return;
      }
      default: return;
    }
  }

  // Every object drops its own references while the walk still holds each alive; then the
  // walk lets go, and each is freed with its last pointer, cycles included.
  void clear() {
    for (Held& h : held_) h.holder->shared_ops->clear_object(h.holder, h.object.get());
    held_.clear();
  }

 private:
  struct Held {
    std::shared_ptr<void> object;
    const TypeDesc* holder;
  };
  std::set<const void*> seen_;
  std::vector<Held> held_;
};

// Whether values of `t` can hold a shared_ptr: only those need the walk.
bool reaches_shared(const TypeDesc& declared, std::set<const TypeDesc*>& seen) {
  const TypeDesc& t = declared.resolved();
  if (!seen.insert(&t).second) return false;
  if (t.kind == Kind::SharedPtr) return true;
  for (const FieldDesc& f : t.fields) {
    if (reaches_shared(*f.type, seen)) return true;
  }
  return (t.element && reaches_shared(*t.element, seen));
}

}  // namespace

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
  // Shared objects read from input may refer to each other in a cycle, which reference counts
  // alone never free: they are broken first.
  if (std::set<const TypeDesc*> seen; reaches_shared(*type_, seen)) {
    SharedObjects shared;
    shared.walk(*type_, storage_);
    shared.clear();
  }
  type_->value_ops->destroy(type_, storage_);
  ::operator delete(storage_, std::align_val_t(type_->align));
  storage_ = nullptr;
  type_ = nullptr;
}

}  // namespace jitser
