// The template builder: describes C++ structs and enums from member pointers.
//
//   engine.add(jitser::Enum<Player>("Player").value("JAVA", Player::JAVA).value("FLASH", ...));
//   engine.add(jitser::Struct<Image>("Image")
//                  .field("uri", &Image::uri)
//                  .field("width", &Image::width, jitser::opt().default_to(0)));
//
// Field types are described at compile time. A struct or enum used as a field refers to another
// registered type by its C++ type; a type this builder cannot describe is a compile-time error.
// Maps, time points and durations are recognized by their interface, so this header includes
// none of <map>, <unordered_map> or <chrono>: a program includes what its own types use.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <optional>
#include <ratio>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <jitser/type_desc.h>
#include <jitser/value.h>

namespace jitser {

/// Options for one field, chained: `jitser::opt().rename("url").number(3).default_to(7)`.
class FieldOptions {
 public:
  FieldOptions& rename(std::string wire_name) {
    rename_ = std::move(wire_name);
    return *this;
  }
  FieldOptions& number(std::uint32_t n) {
    number_ = n;
    return *this;
  }
  /// A second name keyed formats accept on read (the writer uses the first).
  FieldOptions& alias(std::string name) {
    alias_ = std::move(name);
    return *this;
  }
  FieldOptions& nullable(bool on = true) {
    nullable_ = on;
    return *this;
  }
  /// Puts the field in a group of alternatives of which at most one holds a value (a Protobuf
  /// oneof). The field is an optional or a pointer, next to the other fields of the group.
  FieldOptions& oneof(std::string group) {
    oneof_ = std::move(group);
    return *this;
  }
  /// How the field's integers are written where a format gives a choice (Protobuf's sint32,
  /// sint64: zigzag varints; fixed32, sfixed64, ...: little-endian words).
  FieldOptions& encoding(IntEncoding e) {
    encoding_ = e;
    return *this;
  }
  template <class V>
  FieldOptions& default_to(V value) {
    if constexpr (std::is_same_v<V, bool>) {
      default_ = value;
    } else if constexpr (std::is_enum_v<V>) {
      default_ = static_cast<std::int64_t>(value);
    } else if constexpr (std::is_integral_v<V> && std::is_signed_v<V>) {
      default_ = static_cast<std::int64_t>(value);
    } else if constexpr (std::is_integral_v<V>) {
      default_ = static_cast<std::uint64_t>(value);
    } else if constexpr (std::is_floating_point_v<V>) {
      default_ = static_cast<double>(value);
    } else {
      default_ = std::string(value);
    }
    return *this;
  }

  void apply(FieldDesc& field) const {
    if (!rename_.empty()) field.name = rename_;
    field.number = number_;
    field.nullable = nullable_;
    field.default_value = default_;
    field.oneof = oneof_;
    field.alias = alias_;
    field.encoding = encoding_;
  }

 private:
  std::string rename_;
  std::uint32_t number_ = 0;
  bool nullable_ = false;
  DefaultValue default_;
  std::string oneof_;
  std::string alias_;
  IntEncoding encoding_ = IntEncoding::Varint;
};

inline FieldOptions opt() { return {}; }

namespace detail {

template <class T>
inline constexpr bool kAlwaysFalse = false;

// std::map, std::unordered_map and any map with their interface: a unique key per entry.
template <class M>
concept MapLike = requires(M& m, typename M::key_type& k) {
  typename M::mapped_type;
  m.try_emplace(std::move(k));
  m.begin()->second;
};

// std::chrono::duration<Rep, Period>.
template <class T>
concept DurationLike = requires(const T& d) {
  typename T::rep;
  T::period::num;
  T::period::den;
  d.count();
  T::zero();
};

// std::chrono::time_point of the system clock, the one standard clock with to_time_t.
template <class T>
concept SystemTimeLike = requires(const T& t) {
  typename T::duration;
  t.time_since_epoch();
  T::clock::to_time_t;
};

// Standard classes with no descriptor that would otherwise look like a user's struct: other
// containers (every standard one is an allocator-aware range; a user's struct may be
// allocator-aware without being a range), tuples, pairs and variants.
template <class T>
concept UnsupportedStandardClass = requires(const T& v) {
  typename T::allocator_type;
  typename T::value_type;
  v.begin();
}
|| requires { std::tuple_size<T>::value; }
|| requires(const T& v) {
  v.index();
  v.valueless_by_exception();
};

// Null for a type that cannot be moved: only containers of types with no C++ definition move
// their elements through ValueOps, and those are never such a type.
template <class T>
constexpr auto relocate_for() -> void (*)(const TypeDesc*, void*, void*) {
  if constexpr (std::is_move_constructible_v<T>) {
    return [](const TypeDesc*, void* from, void* to) {
      T& source = *static_cast<T*>(from);
      ::new (to) T(std::move(source));
      source.~T();
    };
  } else {
    return nullptr;
  }
}

// A type whose objects were made with a memory resource they can tell.
template <class T>
concept ResourceAware = requires(const T& t) {
  { t.get_allocator() } -> std::convertible_to<std::pmr::polymorphic_allocator<std::byte>>;
};

template <class T>
constexpr auto memory_resource_for() {
  using Fn = std::pmr::memory_resource* (*)(const TypeDesc*, const void*);
  if constexpr (ResourceAware<T>) {
    return Fn{[](const TypeDesc*, const void* at) {
      return std::pmr::polymorphic_allocator<std::byte>(static_cast<const T*>(at)->get_allocator())
          .resource();
    }};
  } else {
    return Fn{nullptr};
  }
}

template <class T>
const ValueOps* value_ops_for() {
  static constexpr ValueOps ops{
      [](const TypeDesc*, void* at) { ::new (at) T(); },
      [](const TypeDesc*, void* at) { static_cast<T*>(at)->~T(); },
      relocate_for<T>(),
      memory_resource_for<T>(),
  };
  return &ops;
}

template <class V>
const ListOps* list_ops_for() {
  using E = typename V::value_type;
  if constexpr (std::is_same_v<E, bool>) {
    static constexpr ListOps ops{
        [](const TypeDesc*, const void* l) { return static_cast<const V*>(l)->size(); },
        nullptr,
        [](const TypeDesc*, void* l, std::size_t n) { static_cast<V*>(l)->resize(n); },
        [](const TypeDesc*, const void* l, std::size_t i) -> bool {
          return (*static_cast<const V*>(l))[i];
        },
        [](const TypeDesc*, void* l, std::size_t i, bool b) { (*static_cast<V*>(l))[i] = b; },
        [](const TypeDesc*, void* l, std::size_t from, const std::uint8_t* values, std::size_t n) {
          auto bit = static_cast<V*>(l)->begin() + static_cast<std::ptrdiff_t>(from);
          for (std::size_t i = 0; i < n; ++i, ++bit) *bit = values[i] != 0;
        },
    };
    return &ops;
  } else {
    static constexpr ListOps ops{
        [](const TypeDesc*, const void* l) { return static_cast<const V*>(l)->size(); },
        [](const TypeDesc*, void* l) -> void* { return static_cast<V*>(l)->data(); },
        [](const TypeDesc*, void* l, std::size_t n) { static_cast<V*>(l)->resize(n); },
        nullptr,
        nullptr,
        nullptr,
    };
    return &ops;
  }
}

// std::optional<E> or std::unique_ptr<E>.
template <class H>
const NullableOps* nullable_ops_for() {
  using E = std::remove_reference_t<decltype(*std::declval<H&>())>;
  static constexpr NullableOps ops{
      [](const TypeDesc*, const void* h) -> const void* {
        const H& holder = *static_cast<const H*>(h);
        return holder ? static_cast<const void*>(&*holder) : nullptr;
      },
      [](const TypeDesc*, void* h) -> void* {
        H& holder = *static_cast<H*>(h);
        if (holder) return &*holder;
        if constexpr (std::is_same_v<H, std::optional<E>>) {
          return &holder.emplace();
        } else {
          holder = std::make_unique<E>();
          return holder.get();
        }
      },
      [](const TypeDesc*, void* h) { static_cast<H*>(h)->reset(); },
  };
  return &ops;
}

template <class E>
const SharedOps* shared_ops_for() {
  using H = std::shared_ptr<E>;
  static constexpr SharedOps ops{
      [](const TypeDesc*, const void* h) -> const void* { return static_cast<const H*>(h)->get(); },
      [](const TypeDesc*, void* h, std::pmr::memory_resource* resource) -> void* {
        H& holder = *static_cast<H*>(h);
        if (resource) {
          // One allocation for the object and its count, in the resource; polymorphic_allocator
          // constructs an allocator-aware E with itself.
          holder = std::allocate_shared<E>(std::pmr::polymorphic_allocator<E>(resource));
        } else {
          holder = std::make_shared<E>();
        }
        return holder.get();
      },
      [](const TypeDesc*, void* h) -> void* {
        H& holder = *static_cast<H*>(h);
        return holder.use_count() == 1 ? holder.get() : nullptr;
      },
      [](const TypeDesc*, void* h) { static_cast<H*>(h)->reset(); },
      [](const TypeDesc*, const void* h) -> std::shared_ptr<void> {
        return *static_cast<const H*>(h);
      },
      [](const TypeDesc*, void* h, const std::shared_ptr<void>& object) {
        *static_cast<H*>(h) = std::static_pointer_cast<E>(object);
      },
      // E() rather than E{}: GCC 12 stops with an internal error on aggregate initialization
      // of some structs that hold containers of themselves (found by the random-schema test).
      [](const TypeDesc*, void* object) { *static_cast<E*>(object) = E(); },
  };
  return &ops;
}

// Maps whose entries can be taken out and put back whole (std::map and std::unordered_map):
// a reader refills them reusing each entry's node and storage.
template <class M>
concept NodeMap = requires(M& m, typename M::node_type& n) {
  m.extract(m.begin());
  m.insert(m.end(), std::move(n));
  n.key();
  n.mapped();
};

// A reader's state while it refills a map of type M (MapOps::refill_begin): the entries the
// map held, set aside in a map of the same allocator (a memory resource's nodes go back to it)
// and the same ordering or hashing, which the swap between the two hands back;
// the entry whose key is being read (a spare one, when there is one); else a key of its own
// for a new entry.
template <class M>
struct MapRefill {
  using K = typename M::key_type;
  explicit MapRefill(const M& map) : spare(like(map)), key(key_like(map)) {}
  static M like(const M& map) {
    if constexpr (requires { M(map.key_comp(), map.get_allocator()); }) {
      return M(map.key_comp(), map.get_allocator());
    } else if constexpr (requires {
                           M(0, map.hash_function(), map.key_eq(), map.get_allocator());
                         }) {
      return M(0, map.hash_function(), map.key_eq(), map.get_allocator());
    } else {
      return M();
    }
  }
  // A key in the map's allocator (a pmr map's resource), so that one read into it and moved
  // into the map is moved, not copied from memory elsewhere.
  static K key_like(const M& map) {
    if constexpr (requires { map.get_allocator(); }) {
      return std::make_obj_using_allocator<K>(map.get_allocator());
    } else {
      return K{};
    }
  }
  M spare;
  std::conditional_t<NodeMap<M>, typename M::node_type, bool> entry{};
  K key;
};

template <class M>
const MapOps* map_ops_for() {
  using K = typename M::key_type;
  using It = typename M::const_iterator;
  using Refill = MapRefill<M>;
  struct Cursor {
    It at;
    It end;
  };
  static_assert(sizeof(Cursor) <= kMapIteratorSize && std::is_trivially_destructible_v<Cursor>,
                "jitser: this map's iterator does not fit the in-place iterator slot");
  static constexpr MapOps ops{
      [](const TypeDesc*, const void* m) { return static_cast<const M*>(m)->size(); },
      [](const TypeDesc*, void* m) { static_cast<M*>(m)->clear(); },
      [](const TypeDesc*, void* m, void* key, const void** stored_key) -> void* {
        auto [it, inserted] = static_cast<M*>(m)->try_emplace(std::move(*static_cast<K*>(key)));
        if (!inserted) return nullptr;
        *stored_key = &it->first;
        return &it->second;
      },
      [](const TypeDesc*, const void* m, void* iterator) {
        const M& map = *static_cast<const M*>(m);
        ::new (iterator) Cursor{map.begin(), map.end()};
      },
      [](const TypeDesc*, void* iterator, const void** key, const void** value) -> bool {
        Cursor& c = *std::launder(static_cast<Cursor*>(iterator));
        if (c.at == c.end) return false;
        *key = &c.at->first;
        *value = &c.at->second;
        ++c.at;
        return true;
      },
      [](const TypeDesc*, void* m, void* state, std::uint64_t count) {
        static_assert(
            sizeof(Refill) <= kMapRefillSize && alignof(Refill) <= alignof(std::max_align_t),
            "jitser: this map does not fit the in-place refill state");
        M& map = *static_cast<M*>(m);
        Refill& r = *::new (state) Refill(map);
        if constexpr (NodeMap<M>) {
          r.spare.swap(map);
        } else {
          map.clear();
        }
        // Unordered: buckets for the entries to come, or as many as the map held.
        if constexpr (requires { map.reserve(std::size_t{}); }) {
          map.reserve(count != UINT64_MAX ? static_cast<std::size_t>(count) : r.spare.size());
        }
      },
      [](const TypeDesc*, void* state) -> void* {
        Refill& r = *std::launder(static_cast<Refill*>(state));
        if constexpr (NodeMap<M>) {
          if (r.entry.empty() && !r.spare.empty()) r.entry = r.spare.extract(r.spare.begin());
          if (!r.entry.empty()) return &r.entry.key();
        }
        return &r.key;
      },
      [](const TypeDesc*, void* m, void* state, const void** stored_key) -> void* {
        M& map = *static_cast<M*>(m);
        Refill& r = *std::launder(static_cast<Refill*>(state));
        const std::size_t before = map.size();
        // At the end: a map written in key order is read back with one compare an entry.
        typename M::iterator at;
        if constexpr (NodeMap<M>) {
          if (!r.entry.empty()) {
            at = map.insert(map.end(), std::move(r.entry));
            if (!r.entry.empty()) return nullptr;  // the key was there; the entry stays spare
            *stored_key = &at->first;
            return &at->second;
          }
        }
        if constexpr (requires(const M& m) { m.key_comp(); }) {
          // The node is made first, so that putting it in compares keys once, where
          // try_emplace with a hint compares three times. (Making it as a spare map's node and
          // taking it out, as a used map's are, costs two trips through the spare's tree.)
          at = map.emplace_hint(map.end(), std::piecewise_construct,
                                std::forward_as_tuple(std::move(r.key)), std::tuple<>());
          // The key was there: the one read, which went with the node, is the one found, and
          // the error names it.
          if (map.size() == before) r.key = at->first;
        } else {
          at = map.try_emplace(map.end(), std::move(r.key));
        }
        if (map.size() == before) return nullptr;
        *stored_key = &at->first;
        return &at->second;
      },
      [](const TypeDesc*, void* state) { std::launder(static_cast<Refill*>(state))->~Refill(); },
      [](const TypeDesc*, void* m, const void* key) -> void* {
        M& map = *static_cast<M*>(m);
        const auto it = map.find(*static_cast<const K*>(key));
        return it == map.end() ? nullptr : &it->second;
      },
  };
  return &ops;
}

template <class Period>
constexpr TimeUnit time_unit_for() {
  if constexpr (std::is_same_v<Period, std::ratio<1>>) {
    return TimeUnit::Seconds;
  } else if constexpr (std::is_same_v<Period, std::milli>) {
    return TimeUnit::Millis;
  } else if constexpr (std::is_same_v<Period, std::micro>) {
    return TimeUnit::Micros;
  } else if constexpr (std::is_same_v<Period, std::nano>) {
    return TimeUnit::Nanos;
  } else {
    static_assert(kAlwaysFalse<Period>,
                  "jitser: durations and time points need a period of seconds, milliseconds, "
                  "microseconds or nanoseconds");
    return TimeUnit::Nanos;
  }
}

template <class T>
struct Describe;

template <class T>
TypeDesc describe();

template <class T>
TypeDesc leaf(Kind kind) {
  TypeDesc d;
  d.kind = kind;
  d.size = sizeof(T);
  d.align = alignof(T);
  d.value_ops = value_ops_for<T>();
  return d;
}

template <class T>
constexpr Kind integer_kind() {
  constexpr bool s = std::is_signed_v<T>;
  switch (sizeof(T)) {
    case 1: return s ? Kind::Int8 : Kind::UInt8;
    case 2: return s ? Kind::Int16 : Kind::UInt16;
    case 4: return s ? Kind::Int32 : Kind::UInt32;
    default: return s ? Kind::Int64 : Kind::UInt64;
  }
}

// Containers whose storage compiled code reads in place: with the standard allocator (or one
// with no state, which takes no room), or with std::pmr's, whose resource pointer comes first.
template <class A>
constexpr Allocator allocator_of() {
  using E = typename std::allocator_traits<A>::value_type;
  if constexpr (std::is_same_v<A, std::pmr::polymorphic_allocator<E>>) {
    return Allocator::Polymorphic;
  } else {
    static_assert(std::is_empty_v<A>,
                  "jitser: a container's allocator must be std::allocator, another allocator with "
                  "no state, or std::pmr::polymorphic_allocator");
    return Allocator::Standard;
  }
}

template <class M>
TypeDesc describe_map() {
  TypeDesc d = leaf<M>(Kind::Map);
  d.key = TypeBox(describe<typename M::key_type>());
  d.element = TypeBox(describe<typename M::mapped_type>());
  d.map_ops = map_ops_for<M>();
  return d;
}

template <class T>
struct Describe {
  static TypeDesc get() {
    if constexpr (std::is_same_v<T, bool>) {
      return leaf<T>(Kind::Bool);
    } else if constexpr (std::is_integral_v<T>) {
      static_assert(sizeof(T) <= 8, "jitser: integers wider than 64 bits are not supported");
      return leaf<T>(integer_kind<T>());
    } else if constexpr (std::is_same_v<T, float>) {
      return leaf<T>(Kind::Float32);
    } else if constexpr (std::is_same_v<T, double>) {
      return leaf<T>(Kind::Float64);
    } else if constexpr (std::is_pointer_v<T> || std::is_reference_v<T>) {
      static_assert(kAlwaysFalse<T>,
                    "jitser: raw pointers and references cannot be described; use "
                    "std::unique_ptr, std::shared_ptr or std::optional");
      return {};
    } else if constexpr (std::is_array_v<T>) {
      static_assert(std::rank_v<T> == 1, "jitser: describe nested arrays as std::array");
      using E = std::remove_extent_t<T>;
      TypeDesc d;
      d.kind = Kind::Array;
      d.size = sizeof(T);
      d.align = alignof(T);
      d.count = std::extent_v<T>;
      d.element = TypeBox(describe<E>());
      return d;
    } else if constexpr (MapLike<T>) {
      return describe_map<T>();
    } else if constexpr (SystemTimeLike<T>) {
      using D = typename T::duration;
      static_assert(std::is_same_v<typename D::rep, std::int64_t>,
                    "jitser: time points need a std::int64_t representation");
      TypeDesc d = leaf<T>(Kind::Timestamp);
      d.unit = time_unit_for<typename D::period>();
      return d;
    } else if constexpr (DurationLike<T>) {
      static_assert(std::is_same_v<typename T::rep, std::int64_t>,
                    "jitser: durations need a std::int64_t representation");
      TypeDesc d = leaf<T>(Kind::Duration);
      d.unit = time_unit_for<typename T::period>();
      return d;
    } else if constexpr (UnsupportedStandardClass<T>) {
      static_assert(kAlwaysFalse<T>,
                    "jitser: this standard container is not supported; use std::vector, "
                    "std::array, std::map or std::unordered_map");
      return {};
    } else if constexpr ((std::is_class_v<T> || std::is_enum_v<T>)&&!std::is_union_v<T>) {
      static_assert(std::is_default_constructible_v<T>,
                    "jitser: registered types must be default-constructible");
      TypeDesc d;
      d.kind = Kind::Named;
      d.size = sizeof(T);
      d.align = alignof(T);
      d.cpp_type = std::type_index(typeid(T));
      d.value_ops = value_ops_for<T>();
      return d;
    } else {
      static_assert(kAlwaysFalse<T>, "jitser: this C++ type cannot be described");
      return {};
    }
  }
};

// std::string and std::pmr::string: readers assign through one or the other.
template <class A>
struct Describe<std::basic_string<char, std::char_traits<char>, A>> {
  static TypeDesc get() {
    static_assert(std::is_same_v<A, std::allocator<char>> ||
                      std::is_same_v<A, std::pmr::polymorphic_allocator<char>>,
                  "jitser: strings are std::string or std::pmr::string");
    TypeDesc d = leaf<std::basic_string<char, std::char_traits<char>, A>>(Kind::String);
    d.allocator = allocator_of<A>();
    return d;
  }
};
template <>
struct Describe<Value> {
  static TypeDesc get() { return leaf<Value>(Kind::Dynamic); }
};

template <>
struct Describe<Decimal> {
  static TypeDesc get() { return leaf<Decimal>(Kind::Decimal); }
};

template <class E, class A>
struct Describe<std::vector<E, A>> {
  static TypeDesc get() {
    using V = std::vector<E, A>;
    if constexpr (std::is_same_v<E, std::uint8_t> || std::is_same_v<E, std::byte>) {
      TypeDesc d = leaf<V>(Kind::Bytes);
      d.list_ops = list_ops_for<V>();
      d.allocator = allocator_of<A>();
      return d;
    } else {
      TypeDesc d = leaf<V>(Kind::List);
      d.element = TypeBox(describe<E>());
      d.list_ops = list_ops_for<V>();
      d.allocator = allocator_of<A>();
      return d;
    }
  }
};

template <class E, std::size_t N>
struct Describe<std::array<E, N>> {
  static TypeDesc get() {
    static_assert(sizeof(std::array<E, N>) == N * sizeof(E),
                  "jitser: std::array with padding is not supported");
    TypeDesc d = leaf<std::array<E, N>>(Kind::Array);
    d.count = N;
    d.element = TypeBox(describe<E>());
    return d;
  }
};

template <class E>
struct Describe<std::optional<E>> {
  static TypeDesc get() {
    TypeDesc d = leaf<std::optional<E>>(Kind::Optional);
    d.element = TypeBox(describe<E>());
    d.nullable_ops = nullable_ops_for<std::optional<E>>();
    return d;
  }
};

template <class E>
struct Describe<std::unique_ptr<E>> {
  static TypeDesc get() {
    static_assert(!std::is_array_v<E>, "jitser: std::unique_ptr<T[]> is not supported");
    using H = std::unique_ptr<E>;
    TypeDesc d = leaf<H>(Kind::UniquePtr);
    d.element = TypeBox(describe<E>());
    d.nullable_ops = nullable_ops_for<H>();
    return d;
  }
};

template <class E>
struct Describe<std::shared_ptr<E>> {
  static TypeDesc get() {
    TypeDesc d = leaf<std::shared_ptr<E>>(Kind::SharedPtr);
    d.element = TypeBox(describe<E>());
    d.shared_ops = shared_ops_for<E>();
    return d;
  }
};

template <class T>
TypeDesc describe() {
  return Describe<std::remove_cv_t<T>>::get();
}

template <class T, class M>
std::size_t member_offset(M T::*member) {
  // Measured on a live object: offsetof is only defined for standard-layout types.
  alignas(T) unsigned char storage[sizeof(T)];
  T* object = ::new (storage) T();
  const auto offset =
      static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&(object->*member)) -
                               reinterpret_cast<const unsigned char*>(object));
  object->~T();
  return offset;
}

}  // namespace detail

/// Describes the C++ struct T field by field; hand the result to Engine::add.
template <class T>
class Struct {
 public:
  explicit Struct(std::string name) {
    static_assert(std::is_class_v<T> && std::is_default_constructible_v<T>,
                  "jitser: Struct<T> needs a default-constructible class");
    desc_.kind = Kind::Struct;
    desc_.name = std::move(name);
    desc_.size = sizeof(T);
    desc_.align = alignof(T);
    desc_.value_ops = detail::value_ops_for<T>();
    desc_.registered_cpp_type = std::type_index(typeid(T));
  }

  template <class M>
  Struct& field(std::string name, M T::*member, const FieldOptions& options = {}) {
    FieldDesc f;
    f.cpp_name = name;
    f.name = std::move(name);
    f.offset = detail::member_offset(member);
    f.type = TypeBox(detail::describe<M>());
    options.apply(f);
    desc_.fields.push_back(std::move(f));
    return *this;
  }

  /// Marks T a Protobuf message: JSON writes it as Protobuf's JSON mapping does (docs/proto.md).
  Struct& message() {
    desc_.message = true;
    return *this;
  }

  /// A single-field value wrapper: T encodes exactly as its one field (like a Kotlin value class).
  template <class M>
  Struct& wraps(std::string name, M T::*member) {
    desc_.wrapper = true;
    return field(std::move(name), member);
  }

  const TypeDesc& desc() const& { return desc_; }
  TypeDesc desc() && { return std::move(desc_); }

 private:
  TypeDesc desc_;
};

/// Describes the C++ enum E by its named values.
template <class E>
class Enum {
 public:
  explicit Enum(std::string name) {
    static_assert(std::is_enum_v<E>, "jitser: Enum<E> needs an enum type");
    desc_.kind = Kind::Enum;
    desc_.name = std::move(name);
    desc_.size = sizeof(E);
    desc_.align = alignof(E);
    desc_.underlying = detail::integer_kind<std::underlying_type_t<E>>();
    desc_.value_ops = detail::value_ops_for<E>();
    desc_.registered_cpp_type = std::type_index(typeid(E));
  }

  Enum& value(std::string name, E v) {
    desc_.values.push_back({std::move(name), static_cast<std::int64_t>(v)});
    return *this;
  }

  const TypeDesc& desc() const& { return desc_; }
  TypeDesc desc() && { return std::move(desc_); }

 private:
  TypeDesc desc_;
};

}  // namespace jitser
