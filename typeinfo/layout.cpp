#include "typeinfo/layout.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <jitser/builder.h>
#include <jitser/value.h>

namespace jitser {
namespace {

std::byte* at(void* p, std::size_t offset) { return static_cast<std::byte*>(p) + offset; }
std::size_t align_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

const TypeDesc& element(const TypeDesc* t) { return t->element->resolved(); }

void construct(const TypeDesc& t, void* p) { t.value_ops->construct(&t, p); }
void destroy(const TypeDesc& t, void* p) { t.value_ops->destroy(&t, p); }
void relocate(const TypeDesc& t, void* from, void* to) { t.value_ops->relocate(&t, from, to); }

void* allocate(const TypeDesc& t, std::size_t n = 1) {
  if (n > std::numeric_limits<std::size_t>::max() / t.size) throw std::length_error("jitser");
  return ::operator new(n* t.size, std::align_val_t(t.align));
}
void deallocate(const TypeDesc& t, void* p) { ::operator delete(p, std::align_val_t(t.align)); }

// --- structs: each field at its offset

void struct_construct(const TypeDesc* t, void* p) {
  std::memset(p, 0, t->size);  // padding too, so two equal objects have equal bytes
  for (const FieldDesc& f : t->fields) construct(f.type->resolved(), at(p, f.offset));
}
void struct_destroy(const TypeDesc* t, void* p) {
  for (auto f = t->fields.rbegin(); f != t->fields.rend(); ++f) {
    destroy(f->type->resolved(), at(p, f->offset));
  }
}
void struct_relocate(const TypeDesc* t, void* from, void* to) {
  std::memset(to, 0, t->size);
  for (const FieldDesc& f : t->fields) {
    relocate(f.type->resolved(), at(from, f.offset), at(to, f.offset));
  }
}
constexpr ValueOps kStructOps{struct_construct, struct_destroy, struct_relocate};

// --- arrays: count elements in a row

void array_construct(const TypeDesc* t, void* p) {
  const TypeDesc& e = element(t);
  for (std::size_t i = 0; i < t->count; ++i) construct(e, at(p, i * e.size));
}
void array_destroy(const TypeDesc* t, void* p) {
  const TypeDesc& e = element(t);
  for (std::size_t i = t->count; i-- > 0;) destroy(e, at(p, i * e.size));
}
void array_relocate(const TypeDesc* t, void* from, void* to) {
  const TypeDesc& e = element(t);
  for (std::size_t i = 0; i < t->count; ++i) relocate(e, at(from, i * e.size), at(to, i * e.size));
}
constexpr ValueOps kArrayOps{array_construct, array_destroy, array_relocate};

// --- lists: std::vector's begin, end and end of storage

struct Vector {
  std::byte* begin;
  std::byte* end;
  std::byte* capacity;
};
static_assert(sizeof(Vector) == sizeof(std::vector<int>));

Vector& vector(void* p) { return *static_cast<Vector*>(p); }
const Vector& vector(const void* p) { return *static_cast<const Vector*>(p); }

std::size_t list_size(const TypeDesc* t, const void* p) {
  const Vector& v = vector(p);
  return static_cast<std::size_t>(v.end - v.begin) / element(t).size;
}
void* list_data(const TypeDesc*, void* p) { return vector(p).begin; }
void list_resize(const TypeDesc* t, void* p, std::size_t n) {
  const TypeDesc& e = element(t);
  Vector& v = vector(p);
  const std::size_t have = list_size(t, p);
  if (n <= have) {
    for (std::size_t i = n; i < have; ++i) destroy(e, v.begin + i * e.size);
    v.end = v.begin + n * e.size;
    return;
  }
  if (n > static_cast<std::size_t>(v.capacity - v.begin) / e.size) {
    const std::size_t room =
        std::max(n, 2 * static_cast<std::size_t>(v.capacity - v.begin) / e.size);
    auto* bigger = static_cast<std::byte*>(allocate(e, room));
    for (std::size_t i = 0; i < have; ++i) relocate(e, v.begin + i * e.size, bigger + i * e.size);
    if (v.begin) deallocate(e, v.begin);
    v.begin = bigger;
    v.end = bigger + have * e.size;
    v.capacity = bigger + room * e.size;
  }
  for (std::size_t i = have; i < n; ++i) construct(e, v.begin + i * e.size);
  v.end = v.begin + n * e.size;
}
constexpr ListOps kListOps{list_size, list_data, list_resize, nullptr, nullptr, nullptr};

void list_construct(const TypeDesc*, void* p) { ::new (p) Vector{}; }
void list_destroy(const TypeDesc* t, void* p) {
  list_resize(t, p, 0);
  if (vector(p).begin) deallocate(element(t), vector(p).begin);
}
void list_relocate(const TypeDesc*, void* from, void* to) { std::memcpy(to, from, sizeof(Vector)); }
constexpr ValueOps kListValueOps{list_construct, list_destroy, list_relocate};

// --- optionals: the value, then whether there is one, as std::optional

bool& engaged(const TypeDesc* t, void* p) {
  return *reinterpret_cast<bool*>(at(p, element(t).size));
}
const void* optional_get(const TypeDesc* t, const void* p) {
  return engaged(t, const_cast<void*>(p)) ? p : nullptr;
}
void* optional_fill(const TypeDesc* t, void* p) {
  if (!engaged(t, p)) {
    construct(element(t), p);
    engaged(t, p) = true;
  }
  return p;
}
void optional_reset(const TypeDesc* t, void* p) {
  if (engaged(t, p)) {
    destroy(element(t), p);
    engaged(t, p) = false;
  }
}
constexpr NullableOps kOptionalOps{optional_get, optional_fill, optional_reset};

void optional_construct(const TypeDesc* t, void* p) { std::memset(p, 0, t->size); }
void optional_relocate(const TypeDesc* t, void* from, void* to) {
  std::memset(to, 0, t->size);
  if (engaged(t, from)) {
    relocate(element(t), from, to);
    engaged(t, to) = true;
  }
}
constexpr ValueOps kOptionalValueOps{optional_construct, optional_reset, optional_relocate};

// --- unique_ptr: one owning pointer

void*& pointer(void* p) { return *static_cast<void**>(p); }
const void* unique_get(const TypeDesc*, const void* p) { return *static_cast<void* const*>(p); }
void unique_reset(const TypeDesc* t, void* p) {
  if (void* object = std::exchange(pointer(p), nullptr)) {
    destroy(element(t), object);
    deallocate(element(t), object);
  }
}
void* unique_fill(const TypeDesc* t, void* p) {
  if (!pointer(p)) {
    void* object = allocate(element(t));
    construct(element(t), object);
    pointer(p) = object;
  }
  return pointer(p);
}
constexpr NullableOps kUniqueOps{unique_get, unique_fill, unique_reset};

void unique_construct(const TypeDesc*, void* p) { pointer(p) = nullptr; }
void unique_relocate(const TypeDesc*, void* from, void* to) { pointer(to) = pointer(from); }
constexpr ValueOps kUniqueValueOps{unique_construct, unique_reset, unique_relocate};

// --- shared_ptr: a std::shared_ptr<void> whose deleter knows the object's type

using Shared = std::shared_ptr<void>;
Shared& shared(void* p) { return *static_cast<Shared*>(p); }
const Shared& shared(const void* p) { return *static_cast<const Shared*>(p); }

struct Deleter {
  const TypeDesc* type;
  void operator()(void* object) const {
    destroy(*type, object);
    deallocate(*type, object);
  }
};

const void* shared_get(const TypeDesc*, const void* p) { return shared(p).get(); }
// Loaded types hold no allocator, so their objects come from the global allocator whatever the
// root's memory resource.
void* shared_emplace(const TypeDesc* t, void* p, std::pmr::memory_resource*) {
  const TypeDesc& e = element(t);
  void* object = allocate(e);
  try {
    construct(e, object);
  } catch (...) {
    deallocate(e, object);
    throw;
  }
  shared(p) = Shared(object, Deleter{&e});
  return object;
}
void* shared_sole(const TypeDesc*, void* p) {
  return shared(p).use_count() == 1 ? shared(p).get() : nullptr;
}
void shared_reset(const TypeDesc*, void* p) { shared(p).reset(); }
Shared shared_share(const TypeDesc*, const void* p) { return shared(p); }
void shared_assign(const TypeDesc*, void* p, const Shared& object) { shared(p) = object; }
void shared_clear_object(const TypeDesc* t, void* object) {
  destroy(element(t), object);
  construct(element(t), object);
}
constexpr SharedOps kSharedOps{shared_get,   shared_emplace, shared_sole,        shared_reset,
                               shared_share, shared_assign,  shared_clear_object};

void shared_construct(const TypeDesc*, void* p) { ::new (p) Shared(); }
void shared_destroy(const TypeDesc*, void* p) { shared(p).~Shared(); }
void shared_relocate(const TypeDesc*, void* from, void* to) {
  ::new (to) Shared(std::move(shared(from)));
  shared(from).~Shared();
}
constexpr ValueOps kSharedValueOps{shared_construct, shared_destroy, shared_relocate};

// --- maps: ordered by key as std::map orders its keys; each key and value on the heap

Kind key_kind(const TypeDesc& key) { return key.kind == Kind::Enum ? key.underlying : key.kind; }

template <class I>
bool less_as(const void* a, const void* b) {
  return *static_cast<const I*>(a) < *static_cast<const I*>(b);
}

struct KeyLess {
  Kind kind;
  bool operator()(const void* a, const void* b) const {
    switch (kind) {
      case Kind::String:
        return *static_cast<const std::string*>(a) < *static_cast<const std::string*>(b);
      case Kind::Int8: return less_as<std::int8_t>(a, b);
      case Kind::Int16: return less_as<std::int16_t>(a, b);
      case Kind::Int32: return less_as<std::int32_t>(a, b);
      case Kind::Int64: return less_as<std::int64_t>(a, b);
      case Kind::UInt8: return less_as<std::uint8_t>(a, b);
      case Kind::UInt16: return less_as<std::uint16_t>(a, b);
      case Kind::UInt32: return less_as<std::uint32_t>(a, b);
      default: return less_as<std::uint64_t>(a, b);
    }
  }
};
using Map = std::map<void*, void*, KeyLess>;
Map& map(void* p) { return *static_cast<Map*>(p); }
const Map& map(const void* p) { return *static_cast<const Map*>(p); }

std::size_t map_size(const TypeDesc*, const void* p) { return map(p).size(); }
void free_entry(const TypeDesc* t, void* key, void* value) {
  const TypeDesc& k = t->key->resolved();
  const TypeDesc& v = element(t);
  destroy(k, key);
  deallocate(k, key);
  destroy(v, value);
  deallocate(v, value);
}
void map_clear(const TypeDesc* t, void* p) {
  for (auto& [key, value] : map(p)) free_entry(t, key, value);
  map(p).clear();
}
// The key is moved out of *key, which its owner still destroys: strings are moved, integers
// copied.
void* map_insert(const TypeDesc* t, void* p, void* key, const void** stored_key) {
  Map& m = map(p);
  if (m.find(key) != m.end()) return nullptr;
  const TypeDesc& k = t->key->resolved();
  const TypeDesc& v = element(t);
  void* kept = allocate(k);
  if (k.kind == Kind::String) {
    ::new (kept) std::string(std::move(*static_cast<std::string*>(key)));
  } else {
    std::memcpy(kept, key, k.size);
  }
  void* value = allocate(v);
  construct(v, value);
  m.emplace(kept, value);
  *stored_key = kept;
  return value;
}
struct MapCursor {
  Map::const_iterator at;
  Map::const_iterator end;
};
static_assert(sizeof(MapCursor) <= kMapIteratorSize && std::is_trivially_destructible_v<MapCursor>);
void map_begin(const TypeDesc*, const void* p, void* iterator) {
  ::new (iterator) MapCursor{map(p).begin(), map(p).end()};
}
bool map_next(const TypeDesc*, void* iterator, const void** key, const void** value) {
  MapCursor& c = *std::launder(static_cast<MapCursor*>(iterator));
  if (c.at == c.end) return false;
  *key = c.at->first;
  *value = c.at->second;
  ++c.at;
  return true;
}
// A refill (MapOps::refill_begin): the entries set aside, the one whose key is being read, or
// else a new key's storage, constructed.
struct MapRefill {
  Map spare;
  Map::node_type entry;
  void* key = nullptr;
};
static_assert(sizeof(MapRefill) <= kMapRefillSize);
MapRefill& refill(void* state) { return *std::launder(static_cast<MapRefill*>(state)); }
void map_refill_begin(const TypeDesc* t, void* p, void* state, std::uint64_t) {
  MapRefill& r = *::new (state) MapRefill{Map(KeyLess{key_kind(t->key->resolved())}), {}};
  r.spare.swap(map(p));
}
void* map_refill_key(const TypeDesc* t, void* state) {
  MapRefill& r = refill(state);
  if (r.entry.empty() && !r.spare.empty()) r.entry = r.spare.extract(r.spare.begin());
  if (!r.entry.empty()) return r.entry.key();
  if (!r.key) {
    const TypeDesc& k = t->key->resolved();
    r.key = allocate(k);
    construct(k, r.key);
  }
  return r.key;
}
void* map_refill_insert(const TypeDesc* t, void* p, void* state, const void** stored_key) {
  Map& m = map(p);
  MapRefill& r = refill(state);
  if (!r.entry.empty()) {
    const auto at = m.insert(m.end(), std::move(r.entry));
    if (!r.entry.empty()) return nullptr;  // the key was there; the entry stays spare
    *stored_key = at->first;
    return at->second;
  }
  if (m.find(r.key) != m.end()) return nullptr;
  const TypeDesc& v = element(t);
  void* value = allocate(v);
  construct(v, value);
  m.emplace_hint(m.end(), r.key, value);
  *stored_key = std::exchange(r.key, nullptr);
  return value;
}
void map_refill_end(const TypeDesc* t, void* state) {
  MapRefill& r = refill(state);
  if (!r.entry.empty()) free_entry(t, r.entry.key(), r.entry.mapped());
  if (r.key) {
    const TypeDesc& k = t->key->resolved();
    destroy(k, r.key);
    deallocate(k, r.key);
  }
  for (auto& [key, value] : r.spare) free_entry(t, key, value);
  r.~MapRefill();
}
void* map_find(const TypeDesc*, void* p, const void* key) {
  Map& m = map(p);
  const auto it = m.find(const_cast<void*>(key));
  return it == m.end() ? nullptr : it->second;
}
constexpr MapOps kMapOps{map_size,       map_clear,        map_insert,     map_begin,
                         map_next,       map_refill_begin, map_refill_key, map_refill_insert,
                         map_refill_end, map_find};

void map_construct(const TypeDesc* t, void* p) {
  ::new (p) Map(KeyLess{key_kind(t->key->resolved())});
}
void map_destroy(const TypeDesc* t, void* p) {
  map_clear(t, p);
  map(p).~Map();
}
void map_relocate(const TypeDesc*, void* from, void* to) {
  ::new (to) Map(std::move(map(from)));
  map(from).~Map();
}
constexpr ValueOps kMapValueOps{map_construct, map_destroy, map_relocate};

// --- laying out

// A leaf takes the layout and operations of its C++ type; the kind (and a time's unit) stay.
void take_leaf(TypeDesc& t, const TypeDesc& cpp) {
  t.size = cpp.size;
  t.align = cpp.align;
  t.value_ops = cpp.value_ops;
  t.list_ops = cpp.list_ops;
}

TypeDesc integer_desc(Kind kind) {
  switch (kind) {
    case Kind::Int8: return detail::describe<std::int8_t>();
    case Kind::Int16: return detail::describe<std::int16_t>();
    case Kind::Int32: return detail::describe<std::int32_t>();
    case Kind::UInt8: return detail::describe<std::uint8_t>();
    case Kind::UInt16: return detail::describe<std::uint16_t>();
    case Kind::UInt32: return detail::describe<std::uint32_t>();
    case Kind::UInt64: return detail::describe<std::uint64_t>();
    default: return detail::describe<std::int64_t>();
  }
}

// No laid-out type may be larger than this: an array's count is the schema's to choose, and a
// value that no allocation can hold would fail when a reader makes one, in the middle of input.
constexpr std::size_t kMaxSize = std::size_t{1} << 30;

class LayOut {
 public:
  explicit LayOut(LayoutTables& tables) : tables_(tables) {}

  // The first type found too large, if any.
  const std::string& too_large() const { return too_large_; }

  // A type expression inside a field. Named references are sized later (size_references):
  // their targets may not be laid out yet; what holds a value by value reads the target.
  void type(TypeDesc& t) {
    switch (t.kind) {
      case Kind::Bool: take_leaf(t, detail::describe<bool>()); return;
      case Kind::Float32: take_leaf(t, detail::describe<float>()); return;
      case Kind::Float64: take_leaf(t, detail::describe<double>()); return;
      case Kind::String: take_leaf(t, detail::describe<std::string>()); return;
      case Kind::Bytes: take_leaf(t, detail::describe<std::vector<std::uint8_t>>()); return;
      case Kind::Decimal: take_leaf(t, detail::describe<Decimal>()); return;
      case Kind::Dynamic: take_leaf(t, detail::describe<Value>()); return;
      case Kind::Timestamp:
      case Kind::Duration: take_leaf(t, detail::describe<std::int64_t>()); return;
      case Kind::Named: return;
      case Kind::List:
        type(*t.element.get());
        if (t.element->resolved().kind == Kind::Bool) {
          take_leaf(t, detail::describe<std::vector<bool>>());
        } else {
          t.size = sizeof(Vector);
          t.align = alignof(Vector);
          t.value_ops = &kListValueOps;
          t.list_ops = &kListOps;
        }
        return;
      case Kind::Array: {
        type(*t.element.get());
        const TypeDesc& e = t.element->resolved();
        if (e.size == 0 || t.count > kMaxSize / e.size) {
          if (too_large_.empty()) too_large_ = display_name(t);
          t.count = 1;  // a size that stays finite until the error is returned
        }
        t.size = e.size * t.count;
        t.align = e.align;
        t.value_ops = &kArrayOps;
        return;
      }
      case Kind::Optional: {
        type(*t.element.get());
        const TypeDesc& e = t.element->resolved();
        t.size = align_up(e.size + 1, e.align);
        t.align = e.align;
        t.value_ops = &kOptionalValueOps;
        t.nullable_ops = &kOptionalOps;
        return;
      }
      case Kind::UniquePtr:
        type(*t.element.get());
        t.size = sizeof(void*);
        t.align = alignof(void*);
        t.value_ops = &kUniqueValueOps;
        t.nullable_ops = &kUniqueOps;
        return;
      case Kind::SharedPtr:
        type(*t.element.get());
        t.size = sizeof(Shared);
        t.align = alignof(Shared);
        t.value_ops = &kSharedValueOps;
        t.shared_ops = tables_.shared_of(display_name(*t.element));
        return;
      case Kind::Map:
        type(*t.key.get());
        type(*t.element.get());
        t.size = sizeof(Map);
        t.align = alignof(Map);
        t.value_ops = &kMapValueOps;
        t.map_ops = &kMapOps;
        return;
      default: take_leaf(t, integer_desc(t.kind)); return;
    }
  }

  // A struct's fields in order, each at the next offset its alignment allows, as C++ does.
  void structure(TypeDesc& s) {
    std::size_t end = 0;
    std::size_t align = 1;
    for (FieldDesc& f : s.fields) {
      type(*f.type.get());
      const TypeDesc& held = f.type->resolved();
      f.offset = align_up(end, held.align);
      end = f.offset + held.size;
      align = std::max(align, held.align);
    }
    s.size = std::max<std::size_t>(align_up(end, align), 1);  // an empty struct has a byte
    s.align = align;
    s.value_ops = &kStructOps;
    if (s.size > kMaxSize && too_large_.empty()) too_large_ = s.name;
  }

  void enumeration(TypeDesc& e) {
    const TypeDesc underlying = integer_desc(e.underlying);
    e.size = underlying.size;
    e.align = underlying.align;
    e.value_ops = underlying.value_ops;
  }

  // Every reference takes its target's size, for the checks that compare them.
  static void size_references(TypeDesc& t) {
    if (t.kind == Kind::Named && t.target) {
      t.size = t.target->size;
      t.align = t.target->align;
      t.value_ops = t.target->value_ops;
    }
    if (t.element) size_references(*t.element.get());
    if (t.key) size_references(*t.key.get());
  }

 private:
  LayoutTables& tables_;
  std::string too_large_;
};

// The structs a struct holds by value, which must be laid out before it.
std::vector<TypeDesc*> held_by_value(const TypeDesc& s) {
  std::vector<TypeDesc*> out;
  for (const FieldDesc& f : s.fields) {
    const TypeDesc* t = &f.type->resolved();
    while (t->kind == Kind::Array || t->kind == Kind::Optional) t = &t->element->resolved();
    if (t->kind == Kind::Struct) out.push_back(const_cast<TypeDesc*>(t));
  }
  return out;
}

}  // namespace

const SharedOps* LayoutTables::shared_of(const std::string& element) {
  std::unique_ptr<SharedOps>& table = shared_[element];
  if (!table) table = std::make_unique<SharedOps>(kSharedOps);
  return table.get();
}

Status lay_out(ParsedSchema& schema, LayoutTables& tables) {
  LayOut lay(tables);
  for (auto& t : schema.types) {
    if (t->kind == Kind::Enum) lay.enumeration(*t);
  }
  // Structs after the structs they hold by value: depth-first with a stack of its own, as a
  // chain of structs may be as long as the text.
  std::map<const TypeDesc*, bool> done;  // false: on the stack
  for (auto& root : schema.types) {
    if (root->kind != Kind::Struct || done.count(root.get())) continue;
    std::vector<std::pair<TypeDesc*, std::vector<TypeDesc*>>> stack;
    stack.emplace_back(root.get(), held_by_value(*root));
    done[root.get()] = false;
    while (!stack.empty()) {
      auto& [s, waiting] = stack.back();
      if (waiting.empty()) {
        lay.structure(*s);
        done[s] = true;
        stack.pop_back();
        continue;
      }
      TypeDesc* next = waiting.back();
      waiting.pop_back();
      if (done.count(next)) {
        if (!done[next]) return Status(Errc::recursive_by_value, next->name + " holds itself");
        continue;
      }
      done[next] = false;
      stack.emplace_back(next, held_by_value(*next));
    }
  }
  if (!lay.too_large().empty()) {
    return Status(Errc::invalid_descriptor, lay.too_large() + " would take more than " +
                                                std::to_string(kMaxSize >> 20) + " MiB");
  }
  for (auto& t : schema.types) {
    for (FieldDesc& f : t->fields) LayOut::size_references(*f.type.get());
  }
  return Status();
}

}  // namespace jitser
