// jitser::Ref: access to the values of an Object by name and path, and their conversion to and
// from jitser::Value, through nothing but the TypeDesc and its operations tables, so it works
// alike on C++ types and on types laid out from a schema.
#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <jitser/object.h>

#include "typeinfo/integers.h"
#include "typeinfo/map_refill.h"
#include "typeinfo/strings.h"

namespace jitser {
namespace {

// Deeper than any codec reads (EngineOptions::max_depth), and shallow enough for the stack.
constexpr int kMaxDepth = 512;

bool is_signed_int(Kind k) {
  return k == Kind::Int8 || k == Kind::Int16 || k == Kind::Int32 || k == Kind::Int64;
}
Kind integer_kind_of(const TypeDesc& t) { return t.kind == Kind::Enum ? t.underlying : t.kind; }

std::uint64_t load_unsigned(const void* p, std::size_t width) {
  switch (width) {
    case 1: return *static_cast<const std::uint8_t*>(p);
    case 2: return *static_cast<const std::uint16_t*>(p);
    case 4: return *static_cast<const std::uint32_t*>(p);
    default: return *static_cast<const std::uint64_t*>(p);
  }
}
void store_bits(void* p, std::size_t width, std::uint64_t v) {
  switch (width) {
    case 1: *static_cast<std::uint8_t*>(p) = static_cast<std::uint8_t>(v); break;
    case 2: *static_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v); break;
    case 4: *static_cast<std::uint32_t*>(p) = static_cast<std::uint32_t>(v); break;
    default: *static_cast<std::uint64_t*>(p) = v; break;
  }
}
bool fits_signed(std::int64_t v, std::size_t width) {
  if (width >= 8) return true;
  const std::int64_t limit = std::int64_t{1} << (width * 8 - 1);
  return v >= -limit && v < limit;
}
bool fits_unsigned(std::uint64_t v, std::size_t width) {
  return width >= 8 || v < (std::uint64_t{1} << (width * 8));
}

Status mismatch(const std::string& path, const TypeDesc& t, const std::string& wanted) {
  return Status(Errc::type_mismatch, "a " + display_name(t) + ", not " + wanted, Status::kNoOffset,
                path);
}
Status out_of_range(const std::string& path, const std::string& what) {
  return Status(Errc::out_of_range, what, Status::kNoOffset, path);
}

bool is_holder(Kind k) {
  return k == Kind::Optional || k == Kind::UniquePtr || k == Kind::SharedPtr;
}

const void* held(const TypeDesc& t, const void* at) {
  return t.kind == Kind::SharedPtr ? t.shared_ops->get(&t, at) : t.nullable_ops->get(&t, at);
}

std::string key_text(const TypeDesc& key, const void* at) {
  const TypeDesc& k = key.resolved();
  if (k.kind == Kind::String) return std::string(string_at(k, at));
  const bool unsigned_key = is_unsigned(integer_kind_of(k));
  const std::int64_t v = load_integer(k, at);
  if (k.kind == Kind::Enum) {
    for (const EnumValue& e : k.values) {
      if (e.value == v) return e.name;
    }
  }
  return unsigned_key ? std::to_string(static_cast<std::uint64_t>(v)) : std::to_string(v);
}

std::string key_path(const Value& key) {
  switch (key.type()) {
    case Value::Type::Int: return "[" + std::to_string(key.as_int()) + "]";
    case Value::Type::UInt: return "[" + std::to_string(key.as_uint()) + "]";
    case Value::Type::String: return "[\"" + key.as_string() + "\"]";
    default: return "[?]";
  }
}

// A map key read from text, exactly: digits for an integer ("007" is not 7), a name for an
// enum, as JSON reads integer-keyed maps.
Value key_value(const TypeDesc& key, const std::string& text) {
  const TypeDesc& k = key.resolved();
  if (k.kind == Kind::String || k.kind == Kind::Enum) return Value(text);
  const char* end = text.data() + text.size();
  if (is_unsigned(k.kind)) {
    std::uint64_t u = 0;
    auto [p, ec] = std::from_chars(text.data(), end, u);
    if (ec == std::errc() && p == end && !text.empty() && (text[0] != '0' || text.size() == 1)) {
      return Value(u);
    }
  } else {
    std::int64_t i = 0;
    auto [p, ec] = std::from_chars(text.data(), end, i);
    const std::size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
    const char first = text[text.size() - digits];
    if (ec == std::errc() && p == end && (first != '0' || digits == 1)) return Value(i);
  }
  return Value();  // null: not a key of this type
}

// A value of `t` made in scratch storage, destroyed with it.
class Scratch {
 public:
  explicit Scratch(const TypeDesc& t)
      : t_(t), at_(::operator new(t.size, std::align_val_t(t.align))) {
    try {
      t.value_ops->construct(&t, at_);
    } catch (...) {
      ::operator delete(at_, std::align_val_t(t.align));
      throw;
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (live_) t_.value_ops->destroy(&t_, at_);
    ::operator delete(at_, std::align_val_t(t_.align));
  }
  void* get() { return at_; }
  // The value moved out to uninitialized memory at `to`.
  void relocate_to(void* to) {
    t_.value_ops->relocate(&t_, at_, to);
    live_ = false;
  }

 private:
  const TypeDesc& t_;
  void* at_;
  bool live_ = true;
};

// The walk from a value to a Value: shared objects open on the way, to find a cycle.
class ToValue {
 public:
  Result<Value> run(const TypeDesc& declared, const void* at, const std::string& path, int depth) {
    if (depth > kMaxDepth) {
      return Status(Errc::depth_exceeded, "nests too deep", Status::kNoOffset, path);
    }
    const TypeDesc& t = declared.resolved();
    switch (t.kind) {
      case Kind::Bool: return Value(*static_cast<const bool*>(at));
      case Kind::Int8:
      case Kind::Int16:
      case Kind::Int32:
      case Kind::Int64: return Value(load_signed(at, t.size));
      case Kind::UInt8:
      case Kind::UInt16:
      case Kind::UInt32:
      case Kind::UInt64: return Value(load_unsigned(at, t.size));
      case Kind::Float32: return Value(double{*static_cast<const float*>(at)});
      case Kind::Float64: return Value(*static_cast<const double*>(at));
      case Kind::String: return Value(std::string(string_at(t, at)));
      case Kind::Bytes: {
        const std::size_t n = t.list_ops->size(&t, at);
        const auto* data =
            static_cast<const std::uint8_t*>(t.list_ops->data(&t, const_cast<void*>(at)));
        return Value(Value::Bytes(data, data + n));
      }
      case Kind::Enum: {
        const std::int64_t v = load_integer(t, at);
        for (const EnumValue& e : t.values) {
          if (e.value == v) return Value(e.name);
        }
        if (is_unsigned(t.underlying)) return Value(static_cast<std::uint64_t>(v));
        return Value(v);
      }
      case Kind::Decimal: return Value(*static_cast<const Decimal*>(at));
      case Kind::Timestamp:
      case Kind::Duration: return Value(*static_cast<const std::int64_t*>(at));
      case Kind::Dynamic: return *static_cast<const Value*>(at);
      case Kind::Struct: {
        if (t.wrapper) {
          const FieldDesc& f = t.fields.front();
          return run(*f.type, static_cast<const char*>(at) + f.offset, path, depth + 1);
        }
        Value::Map members;
        for (const FieldDesc& f : t.fields) {
          Result<Value> v =
              run(*f.type, static_cast<const char*>(at) + f.offset, path + "." + f.name, depth + 1);
          if (!v) return v;
          members.emplace_back(f.name, std::move(*v));
        }
        return Value(std::move(members));
      }
      case Kind::List:
      case Kind::Array: {
        const bool list = t.kind == Kind::List;
        const std::size_t n = list ? t.list_ops->size(&t, at) : t.count;
        Value::Array items;
        items.reserve(n);
        if (list && !t.list_ops->data) {
          for (std::size_t i = 0; i < n; ++i) items.emplace_back(t.list_ops->get_bool(&t, at, i));
          return Value(std::move(items));
        }
        const char* data =
            list ? static_cast<const char*>(t.list_ops->data(&t, const_cast<void*>(at)))
                 : static_cast<const char*>(at);
        const std::size_t stride = t.element->resolved().size;
        for (std::size_t i = 0; i < n; ++i) {
          Result<Value> v =
              run(*t.element, data + i * stride, path + "[" + std::to_string(i) + "]", depth + 1);
          if (!v) return v;
          items.push_back(std::move(*v));
        }
        return Value(std::move(items));
      }
      case Kind::Optional:
      case Kind::UniquePtr:
      case Kind::SharedPtr: {
        const void* h = held(t, at);
        if (!h) return Value();
        if (t.kind != Kind::SharedPtr) return run(*t.element, h, path, depth + 1);
        if (std::find(open_.begin(), open_.end(), h) != open_.end()) {
          return Status(Errc::cycle, "holds a shared object that contains it", Status::kNoOffset,
                        path);
        }
        open_.push_back(h);
        Result<Value> v = run(*t.element, h, path, depth + 1);
        open_.pop_back();
        return v;
      }
      case Kind::Map: {
        alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
        t.map_ops->begin(&t, at, cursor);
        const void* key = nullptr;
        const void* value = nullptr;
        Value::Map members;
        while (t.map_ops->next(&t, cursor, &key, &value)) {
          std::string text = key_text(*t.key, key);
          Result<Value> v = run(*t.element, value, path + "[\"" + text + "\"]", depth + 1);
          if (!v) return v;
          members.emplace_back(std::move(text), std::move(*v));
        }
        return Value(std::move(members));
      }
      case Kind::Named: break;
    }
    return Status(Errc::internal, "an unbound type reference", Status::kNoOffset, path);
  }

 private:
  std::vector<const void*> open_;
};

const char* value_kind(const Value& v) { return value_type_name(v.type()); }

Status from_value(const TypeDesc& declared, void* at, const Value& v, const std::string& path,
                  int depth);

Status set_integer(const TypeDesc& t, void* at, const Value& v, const std::string& path) {
  const Kind k = integer_kind_of(t);
  if (v.type() != Value::Type::Int && v.type() != Value::Type::UInt) {
    return mismatch(path, t, std::string("a ") + value_kind(v));
  }
  const bool negative = v.type() == Value::Type::Int && v.as_int() < 0;
  if (is_unsigned(k)) {
    const std::uint64_t u =
        v.type() == Value::Type::UInt ? v.as_uint() : static_cast<std::uint64_t>(v.as_int());
    if (negative || !fits_unsigned(u, t.size)) {
      return out_of_range(path, "the number does not fit a " + display_name(t));
    }
    store_bits(at, t.size, u);
    return Status();
  }
  if (v.type() == Value::Type::UInt && v.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) {
    return out_of_range(path, "the number does not fit a " + display_name(t));
  }
  const std::int64_t i =
      v.type() == Value::Type::Int ? v.as_int() : static_cast<std::int64_t>(v.as_uint());
  if (!fits_signed(i, t.size)) {
    return out_of_range(path, "the number does not fit a " + display_name(t));
  }
  store_bits(at, t.size, static_cast<std::uint64_t>(i));
  return Status();
}

Status set_enum(const TypeDesc& t, void* at, const Value& v, const std::string& path) {
  if (v.type() == Value::Type::String) {
    for (const EnumValue& e : t.values) {
      if (e.name == v.as_string()) {
        store_bits(at, t.size, static_cast<std::uint64_t>(e.value));
        return Status();
      }
    }
    return Status(Errc::unknown_enum, t.name + " has no value '" + v.as_string() + "'",
                  Status::kNoOffset, path);
  }
  if (v.type() != Value::Type::Int && v.type() != Value::Type::UInt) {
    return mismatch(path, t, std::string("a ") + value_kind(v));
  }
  const std::int64_t n =
      v.type() == Value::Type::Int ? v.as_int() : static_cast<std::int64_t>(v.as_uint());
  for (const EnumValue& e : t.values) {
    if (e.value == n) {
      store_bits(at, t.size, static_cast<std::uint64_t>(n));
      return Status();
    }
  }
  return Status(Errc::unknown_enum, t.name + " declares no value " + std::to_string(n),
                Status::kNoOffset, path);
}

Status set_float(const TypeDesc& t, void* at, const Value& v, const std::string& path) {
  double d = 0;
  switch (v.type()) {
    case Value::Type::Double: d = v.as_double(); break;
    case Value::Type::Float: d = static_cast<double>(v.as_float()); break;
    case Value::Type::Int: d = static_cast<double>(v.as_int()); break;
    case Value::Type::UInt: d = static_cast<double>(v.as_uint()); break;
    default: return mismatch(path, t, std::string("a ") + value_kind(v));
  }
  if (t.kind == Kind::Float32) {
    if (std::isfinite(d) && std::fabs(d) > FLT_MAX) {
      return out_of_range(path, "the number does not fit a float32");
    }
    *static_cast<float*>(at) = static_cast<float>(d);
  } else {
    *static_cast<double*>(at) = d;
  }
  return Status();
}

// A map's entry for `key`: found, or with `insert` made default. Null and the failure in *s
// when there is none.
void* map_entry(const TypeDesc& t, void* map, const Value& key, bool insert,
                const std::string& path, Status* s) {
  Scratch temp(t.key->resolved());
  if (Status k = from_value(*t.key, temp.get(), key, path + key_path(key), 0); !k) {
    *s = k;
    return nullptr;
  }
  const std::string wanted = key_text(*t.key, temp.get());
  if (insert) {
    const void* stored = nullptr;
    if (void* made = t.map_ops->insert(&t, map, temp.get(), &stored)) return made;
  }
  alignas(std::max_align_t) unsigned char cursor[kMapIteratorSize];
  t.map_ops->begin(&t, map, cursor);
  const void* k = nullptr;
  const void* value = nullptr;
  while (t.map_ops->next(&t, cursor, &k, &value)) {
    if (key_text(*t.key, k) == wanted) return const_cast<void*>(value);
  }
  *s = out_of_range(path, "the map has no entry " + key_path(key));
  return nullptr;
}

Status from_value(const TypeDesc& declared, void* at, const Value& v, const std::string& path,
                  int depth) {
  if (depth > kMaxDepth) {
    return Status(Errc::depth_exceeded, "nests too deep", Status::kNoOffset, path);
  }
  const TypeDesc& t = declared.resolved();
  switch (t.kind) {
    case Kind::Bool:
      if (v.type() != Value::Type::Bool)
        return mismatch(path, t, std::string("a ") + value_kind(v));
      *static_cast<bool*>(at) = v.as_bool();
      return Status();
    case Kind::Int8:
    case Kind::Int16:
    case Kind::Int32:
    case Kind::Int64:
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
    case Kind::UInt64: return set_integer(t, at, v, path);
    case Kind::Float32:
    case Kind::Float64: return set_float(t, at, v, path);
    case Kind::String:
      if (v.type() != Value::Type::String)
        return mismatch(path, t, std::string("a ") + value_kind(v));
      assign_string(t, at, v.as_string());
      return Status();
    case Kind::Bytes: {
      if (v.type() != Value::Type::Bytes)
        return mismatch(path, t, std::string("a ") + value_kind(v));
      const Value::Bytes& b = v.as_bytes();
      t.list_ops->resize(&t, at, b.size());
      if (!b.empty()) std::memcpy(t.list_ops->data(&t, at), b.data(), b.size());
      return Status();
    }
    case Kind::Enum: return set_enum(t, at, v, path);
    case Kind::Decimal:
      if (v.type() == Value::Type::Int) {
        *static_cast<Decimal*>(at) = Decimal{v.as_int(), 0};
        return Status();
      }
      if (v.type() != Value::Type::Decimal)
        return mismatch(path, t, std::string("a ") + value_kind(v));
      *static_cast<Decimal*>(at) = v.as_decimal();
      return Status();
    case Kind::Timestamp:
    case Kind::Duration:
      if (v.type() == Value::Type::Int) {
        *static_cast<std::int64_t*>(at) = v.as_int();
        return Status();
      }
      if (v.type() == Value::Type::UInt) {
        if (v.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) {
          return out_of_range(path, "the number of ticks does not fit an int64");
        }
        *static_cast<std::int64_t*>(at) = static_cast<std::int64_t>(v.as_uint());
        return Status();
      }
      return mismatch(path, t, std::string("a ") + value_kind(v));
    case Kind::Dynamic: *static_cast<Value*>(at) = v; return Status();
    case Kind::Struct: {
      if (t.wrapper) {
        const FieldDesc& f = t.fields.front();
        return from_value(*f.type, static_cast<char*>(at) + f.offset, v, path, depth + 1);
      }
      if (v.type() != Value::Type::Map) return mismatch(path, t, std::string("a ") + value_kind(v));
      for (const Value::Member& m : v.as_map()) {
        const auto f = std::find_if(t.fields.begin(), t.fields.end(),
                                    [&](const FieldDesc& d) { return d.name == m.first; });
        if (f == t.fields.end()) {
          return Status(Errc::unknown_field, t.name + " has no field '" + m.first + "'",
                        Status::kNoOffset, path);
        }
      }
      // Fields the map leaves out become default: the struct starts from a default value.
      {
        Scratch fresh(t);
        t.value_ops->destroy(&t, at);
        fresh.relocate_to(at);
      }
      for (const Value::Member& m : v.as_map()) {
        const auto f = std::find_if(t.fields.begin(), t.fields.end(),
                                    [&](const FieldDesc& d) { return d.name == m.first; });
        if (Status s = from_value(*f->type, static_cast<char*>(at) + f->offset, m.second,
                                  path + "." + f->name, depth + 1);
            !s) {
          return s;
        }
      }
      return Status();
    }
    case Kind::List:
    case Kind::Array: {
      if (v.type() != Value::Type::Array)
        return mismatch(path, t, std::string("a ") + value_kind(v));
      const Value::Array& items = v.as_array();
      if (t.kind == Kind::Array && items.size() != t.count) {
        return out_of_range(path, "an array of " + std::to_string(t.count) + " elements, not " +
                                      std::to_string(items.size()));
      }
      if (t.kind == Kind::List) t.list_ops->resize(&t, at, items.size());
      if (t.kind == Kind::List && !t.list_ops->data) {
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (items[i].type() != Value::Type::Bool) {
            return mismatch(path + "[" + std::to_string(i) + "]", *t.element,
                            std::string("a ") + value_kind(items[i]));
          }
          t.list_ops->set_bool(&t, at, i, items[i].as_bool());
        }
        return Status();
      }
      char* data = t.kind == Kind::List ? static_cast<char*>(t.list_ops->data(&t, at))
                                        : static_cast<char*>(at);
      const std::size_t stride = t.element->resolved().size;
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (Status s = from_value(*t.element, data + i * stride, items[i],
                                  path + "[" + std::to_string(i) + "]", depth + 1);
            !s) {
          return s;
        }
      }
      return Status();
    }
    case Kind::Optional:
    case Kind::UniquePtr:
      if (v.is_null()) {
        t.nullable_ops->reset(&t, at);
        return Status();
      }
      return from_value(*t.element, t.nullable_ops->fill(&t, at), v, path, depth + 1);
    case Kind::SharedPtr:
      if (v.is_null()) {
        t.shared_ops->reset(&t, at);
        return Status();
      }
      return from_value(*t.element, t.shared_ops->emplace(&t, at, nullptr), v, path, depth + 1);
    case Kind::Map: {
      if (v.type() != Value::Type::Map) return mismatch(path, t, std::string("a ") + value_kind(v));
      MapRefill refill(t, at, v.as_map().size());
      for (const Value::Member& m : v.as_map()) {
        const Value key = key_value(*t.key, m.first);
        const std::string where = path + "[\"" + m.first + "\"]";
        if (key.is_null()) {
          return Status(Errc::type_mismatch, "not a key of " + display_name(*t.key),
                        Status::kNoOffset, where);
        }
        if (Status s = from_value(*t.key, refill.key(), key, where, depth + 1); !s) return s;
        const void* stored = nullptr;
        void* value = refill.insert(&stored);
        if (!value) {
          return Status(Errc::duplicate_key, "the key appears twice", Status::kNoOffset, where);
        }
        if (Status s = from_value(*t.element, value, m.second, where, depth + 1); !s) return s;
      }
      return Status();
    }
    case Kind::Named: break;
  }
  return Status(Errc::internal, "an unbound type reference", Status::kNoOffset, path);
}

}  // namespace

Ref::Ref(const TypeDesc& type, void* at, std::string path)
    : type_(&type), at_(at), path_(std::move(path)) {}

Result<Ref> Ref::field(std::string_view name) const {
  const TypeDesc& t = type_->resolved();
  if (t.kind != Kind::Struct || bits_) return mismatch(path_, t, "a struct");
  for (const FieldDesc& f : t.fields) {
    if (f.name == name || f.cpp_name == name) {
      return Ref(*f.type, static_cast<char*>(at_) + f.offset, path_ + "." + f.name);
    }
  }
  return Status(Errc::unknown_field, t.name + " has no field '" + std::string(name) + "'",
                Status::kNoOffset, path_);
}

namespace {

// A step into a value passes through the optionals and pointers that hold it.
Result<Ref> through_holders(Ref here) {
  for (;;) {
    const TypeDesc& t = here.type().resolved();
    if (!is_holder(t.kind)) return here;
    Result<bool> has = here.has_value();
    if (!has) return has.status();
    if (!*has) {
      return Status(Errc::out_of_range, "holds nothing", Status::kNoOffset, here.path());
    }
    Result<Ref> inner = here.value();
    if (!inner) return inner;
    here = std::move(*inner);
  }
}

}  // namespace

Result<Ref> Ref::at(std::string_view path) const {
  Ref here = *this;
  std::size_t i = 0;
  auto bad = [&](const std::string& why) {
    return Status(Errc::syntax_error,
                  "path \"" + std::string(path) + "\", at " + std::to_string(i) + ": " + why);
  };
  while (i < path.size()) {
    const bool bracket = path[i] == '[';
    if (!bracket && i > 0 && path[i] != '.') return bad("expected '.' or '['");
    if (path[i] == '.') {
      if (i == 0) return bad("a path starts with a field name or '['");
      ++i;
    }
    Result<Ref> inner = through_holders(std::move(here));
    if (!inner) return inner;
    here = std::move(*inner);
    Result<Ref> next = here;
    if (bracket) {
      const std::size_t close = path.find(']', i);
      if (close == std::string_view::npos) return bad("no ']'");
      const std::string_view inside = path.substr(i + 1, close - i - 1);
      Value key;
      if (!inside.empty() && inside.front() == '"') {
        std::string text;
        std::size_t k = 1;
        for (; k < inside.size() && inside[k] != '"'; ++k) {
          if (inside[k] == '\\' && k + 1 < inside.size()) ++k;
          text += inside[k];
        }
        if (k + 1 != inside.size()) return bad("a quoted key ends with '\"]'");
        key = Value(std::move(text));
      } else {
        std::int64_t n = 0;
        auto [p, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), n);
        if (inside.empty() || ec != std::errc() || p != inside.data() + inside.size()) {
          return bad("an index, or a key in brackets");
        }
        key = Value(n);
      }
      if (here.type().resolved().kind == Kind::Map) {
        next = here.find(key);
      } else if (key.type() == Value::Type::Int && key.as_int() >= 0) {
        next = here.element(static_cast<std::size_t>(key.as_int()));
      } else {
        next = mismatch(here.path(), here.type().resolved(), "a map");
      }
      i = close + 1;
    } else {
      const std::size_t end = std::min(path.find('.', i), path.find('[', i));
      const std::string_view name =
          path.substr(i, end == std::string_view::npos ? path.size() - i : end - i);
      if (name.empty()) return bad("a field name");
      next = here.field(name);
      i += name.size();
    }
    if (!next) return next;
    here = std::move(*next);
  }
  return here;
}

Result<std::size_t> Ref::size() const {
  const TypeDesc& t = type_->resolved();
  if (bits_) return mismatch(path_, t, "a list, an array or a map");
  switch (t.kind) {
    case Kind::List: return t.list_ops->size(&t, at_);
    case Kind::Array: return t.count;
    case Kind::Map: return t.map_ops->size(&t, at_);
    default: return mismatch(path_, t, "a list, an array or a map");
  }
}

Result<Ref> Ref::element(std::size_t index) const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || (t.kind != Kind::List && t.kind != Kind::Array)) {
    return mismatch(path_, t, "a list or an array");
  }
  const std::size_t n = t.kind == Kind::List ? t.list_ops->size(&t, at_) : t.count;
  const std::string path = path_ + "[" + std::to_string(index) + "]";
  if (index >= n) {
    return out_of_range(path, "past the end of " + std::to_string(n) + " elements");
  }
  if (t.kind == Kind::List && !t.list_ops->data) {
    Ref bit(*t.element, at_, path);
    bit.bits_ = &t;
    bit.bit_ = index;
    return bit;
  }
  char* data = t.kind == Kind::List ? static_cast<char*>(t.list_ops->data(&t, at_))
                                    : static_cast<char*>(at_);
  return Ref(*t.element, data + index * t.element->resolved().size, path);
}

Result<Ref> Ref::append() const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || t.kind != Kind::List) return mismatch(path_, t, "a list");
  const std::size_t n = t.list_ops->size(&t, at_);
  t.list_ops->resize(&t, at_, n + 1);
  return element(n);
}

Result<Ref> Ref::entry(const Value& key) const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || t.kind != Kind::Map) return mismatch(path_, t, "a map");
  Status s;
  void* value = map_entry(t, at_, key, true, path_, &s);
  if (!value) return s;
  return Ref(*t.element, value, path_ + key_path(key));
}

Result<Ref> Ref::find(const Value& key) const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || t.kind != Kind::Map) return mismatch(path_, t, "a map");
  Status s;
  void* value = map_entry(t, at_, key, false, path_, &s);
  if (!value) return s;
  return Ref(*t.element, value, path_ + key_path(key));
}

Result<bool> Ref::has_value() const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || !is_holder(t.kind)) return mismatch(path_, t, "an optional or a pointer");
  return held(t, at_) != nullptr;
}

Result<Ref> Ref::value() const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || !is_holder(t.kind)) return mismatch(path_, t, "an optional or a pointer");
  void* h = t.kind == Kind::SharedPtr
                ? (t.shared_ops->get(&t, at_) ? const_cast<void*>(t.shared_ops->get(&t, at_))
                                              : t.shared_ops->emplace(&t, at_, nullptr))
                : t.nullable_ops->fill(&t, at_);
  return Ref(*t.element, h, path_);
}

Status Ref::reset() const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || !is_holder(t.kind)) return mismatch(path_, t, "an optional or a pointer");
  if (t.kind == Kind::SharedPtr) {
    t.shared_ops->reset(&t, at_);
  } else {
    t.nullable_ops->reset(&t, at_);
  }
  return Status();
}

Result<std::int64_t> Ref::get_int() const {
  const TypeDesc& t = type_->resolved();
  if (!bits_ && (t.kind == Kind::Timestamp || t.kind == Kind::Duration)) {
    return *static_cast<const std::int64_t*>(at_);
  }
  const Kind k = integer_kind_of(t);
  if (bits_ || (!is_signed_int(k) && !is_unsigned(k))) return mismatch(path_, t, "an integer");
  if (is_signed_int(k)) return load_signed(at_, t.size);
  const std::uint64_t u = load_unsigned(at_, t.size);
  if (u > static_cast<std::uint64_t>(INT64_MAX)) return out_of_range(path_, "beyond int64");
  return static_cast<std::int64_t>(u);
}

Result<std::uint64_t> Ref::get_uint() const {
  const TypeDesc& t = type_->resolved();
  const Kind k = integer_kind_of(t);
  if (bits_ || (!is_signed_int(k) && !is_unsigned(k))) return mismatch(path_, t, "an integer");
  if (is_unsigned(k)) return load_unsigned(at_, t.size);
  const std::int64_t i = load_signed(at_, t.size);
  if (i < 0) return out_of_range(path_, "negative");
  return static_cast<std::uint64_t>(i);
}

Result<double> Ref::get_double() const {
  const TypeDesc& t = type_->resolved();
  if (!bits_ && t.kind == Kind::Float64) return *static_cast<const double*>(at_);
  if (!bits_ && t.kind == Kind::Float32) return double{*static_cast<const float*>(at_)};
  return mismatch(path_, t, "a float");
}

Result<bool> Ref::get_bool() const {
  if (bits_) return bits_->list_ops->get_bool(bits_, at_, bit_);
  const TypeDesc& t = type_->resolved();
  if (t.kind != Kind::Bool) return mismatch(path_, t, "a bool");
  return *static_cast<const bool*>(at_);
}

Result<std::string_view> Ref::get_string() const {
  const TypeDesc& t = type_->resolved();
  if (bits_ || t.kind != Kind::String) return mismatch(path_, t, "a string");
  return string_at(t, at_);
}

Result<Value> Ref::get() const {
  if (bits_) return Value(bits_->list_ops->get_bool(bits_, at_, bit_));
  return ToValue().run(*type_, at_, path_, 0);
}

Status Ref::set(const Value& v) const {
  if (bits_) {
    if (v.type() != Value::Type::Bool) return mismatch(path_, type_->resolved(), "a bool");
    bits_->list_ops->set_bool(bits_, at_, bit_, v.as_bool());
    return Status();
  }
  return from_value(*type_, at_, v, path_, 0);
}

Result<Ref> Object::root() {
  if (!storage_) return Status(Errc::type_mismatch, "the Object is empty");
  return Ref(*type_, storage_, type_->name);
}

Result<Ref> Object::at(std::string_view path) {
  Result<Ref> r = root();
  if (!r) return r;
  return r->at(path);
}

}  // namespace jitser
