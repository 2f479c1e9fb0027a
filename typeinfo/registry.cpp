#include "typeinfo/registry.h"

#include <cxxabi.h>
#include <xxhash.h>

#include <cstdlib>
#include <set>

#include <jitser/builder.h>

#include "typeinfo/schema_text.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

std::string cpp_type_name(std::type_index type) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string name = status == 0 && demangled ? demangled : type.name();
  std::free(demangled);
  return name;
}

Status invalid(const std::string& where, const std::string& what) {
  return Status(Errc::invalid_descriptor, where + ": " + what);
}

// Checks one type node in isolation: the ops its kind needs, its element types.
Status check_node(const TypeDesc& t, const std::string& where) {
  auto need = [&](bool ok, const char* what) {
    return ok ? Status() : invalid(where, std::string(kind_name(t.kind)) + " needs " + what);
  };
  Status s;
  switch (t.kind) {
    case Kind::List:
      if (!(s = need(t.list_ops && t.element, "list_ops and an element type"))) return s;
      if (!t.list_ops->data && !t.list_ops->get_bool) return need(false, "data or get_bool");
      return check_node(*t.element, where + "[]");
    case Kind::Bytes: return need(t.list_ops && t.list_ops->data, "list_ops with data");
    case Kind::Array:
      if (!(s = need(t.element && t.count > 0, "an element type and a count"))) return s;
      if (t.element->size * t.count != t.size) {
        return invalid(where, "array size is not count times element size");
      }
      return check_node(*t.element, where + "[]");
    case Kind::Optional:
    case Kind::UniquePtr:
      if (!(s = need(t.nullable_ops && t.element, "nullable_ops and an element type"))) return s;
      return check_node(*t.element, where);
    case Kind::SharedPtr:
      if (!(s = need(t.shared_ops && t.element, "shared_ops and an element type"))) return s;
      return check_node(*t.element, where);
    case Kind::Map:
      if (!(s = need(t.map_ops && t.key && t.element, "map_ops, a key and a value type"))) return s;
      if (!t.key->value_ops) return need(false, "a key type with value_ops");
      if (!(s = check_node(*t.key, where + "{key}"))) return s;
      return check_node(*t.element, where + "{}");
    case Kind::Named:
      return need(!t.name.empty() || t.cpp_type, "a name or a C++ type to refer to");
    case Kind::Struct:
    case Kind::Enum:
      return invalid(where, "refer to registered structs and enums with a Named type");
    default: return Status();
  }
}

// Names become keys and enum values in text formats and appear in every error message: each is
// non-empty, valid UTF-8 text.
Status check_name(const std::string& where, const std::string& name, const char* what) {
  if (name.empty()) return invalid(where, std::string(what) + " is empty");
  std::size_t bad = 0;
  if (!valid_utf8(reinterpret_cast<const std::uint8_t*>(name.data()), name.size(), &bad)) {
    return invalid(where,
                   std::string(what) + " is not valid UTF-8 (at byte " + std::to_string(bad) + ")");
  }
  return Status();
}

// A oneof's fields are adjacent, so schema text can write them as one group, and each can hold
// nothing, so that all but one can.
Status check_oneofs(const TypeDesc& t) {
  std::set<std::string> closed;
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const FieldDesc& f = t.fields[i];
    if (f.oneof.empty()) continue;
    const std::string where = t.name + "." + (f.cpp_name.empty() ? f.name : f.cpp_name);
    if (Status s = check_name(where, f.oneof, "a oneof's name"); !s) return s;
    const Kind k = f.type->kind;
    if (k != Kind::Optional && k != Kind::UniquePtr && k != Kind::SharedPtr) {
      return invalid(where, "a field of oneof '" + f.oneof +
                                "' is an optional or a pointer, not a " + display_name(*f.type));
    }
    if (t.wrapper) return invalid(where, "a value wrapper's field is in no oneof");
    if (closed.count(f.oneof)) {
      return invalid(where, "the fields of oneof '" + f.oneof + "' are not adjacent");
    }
    if (i + 1 == t.fields.size() || t.fields[i + 1].oneof != f.oneof) closed.insert(f.oneof);
  }
  return Status();
}

Status check_struct(const TypeDesc& t) {
  if (t.name.empty()) return invalid("struct", "a registered type needs a name");
  if (Status s = check_name("struct", t.name, "the struct's name"); !s) return s;
  if (t.size == 0 || t.align == 0 || (t.align & (t.align - 1)) != 0) {
    return invalid(t.name, "size must be positive and alignment a power of two");
  }
  if (t.wrapper && t.message) return invalid(t.name, "a value wrapper is not a message");
  if (t.wrapper && t.fields.size() != 1) {
    return invalid(t.name,
                   "a value wrapper has exactly one field, not " + std::to_string(t.fields.size()));
  }
  std::set<std::string> names;
  std::map<std::uint32_t, std::string> numbers;
  for (const FieldDesc& f : t.fields) {
    const std::string where = t.name + "." + (f.cpp_name.empty() ? f.name : f.cpp_name);
    if (f.name.empty()) return invalid(t.name, "a field has an empty name");
    if (Status s = check_name(t.name, f.name, "a field's wire name"); !s) return s;
    if (!f.cpp_name.empty()) {
      if (Status s = check_name(t.name, f.cpp_name, "a field's name"); !s) return s;
    }
    if (!names.insert(f.name).second) {
      return Status(Errc::duplicate_field, t.name + " has two fields named '" + f.name + "'");
    }
    if (!f.alias.empty()) {
      if (Status s = check_name(t.name, f.alias, "a field's second name"); !s) return s;
      if (!names.insert(f.alias).second) {
        return Status(Errc::duplicate_field, t.name + " has two fields named '" + f.alias + "'");
      }
    }
    if (f.number != 0) {
      if (f.number >= (1u << 29) || (f.number >= 19000 && f.number <= 19999)) {
        return invalid(where, "field number " + std::to_string(f.number) +
                                  " is outside 1..2^29-1 or in the reserved range 19000-19999");
      }
      auto [it, inserted] = numbers.emplace(f.number, f.name);
      if (!inserted) {
        return Status(Errc::duplicate_number, t.name + " fields '" + it->second + "' and '" +
                                                  f.name + "' share number " +
                                                  std::to_string(f.number));
      }
    }
    if (!f.type) return invalid(where, "a field needs a type");
    if (f.type->align == 0 || f.offset % f.type->align != 0 || f.offset + f.type->size > t.size) {
      return invalid(where, "offset " + std::to_string(f.offset) + " does not fit a " +
                                display_name(*f.type) + " inside " + std::to_string(t.size) +
                                " bytes");
    }
    if (Status s = check_node(*f.type, where); !s) return s;
  }
  return check_oneofs(t);
}

Status check_enum(const TypeDesc& t) {
  if (t.name.empty()) return invalid("enum", "a registered type needs a name");
  if (Status s = check_name("enum", t.name, "the enum's name"); !s) return s;
  if (!is_integer(t.underlying)) return invalid(t.name, "an enum's underlying type is an integer");
  std::set<std::string> names;
  std::set<std::int64_t> values;
  for (const EnumValue& v : t.values) {
    if (v.name.empty()) return invalid(t.name, "an enum value has an empty name");
    if (Status s = check_name(t.name, v.name, "an enum value's name"); !s) return s;
    if (!names.insert(v.name).second) {
      return Status(Errc::duplicate_field, t.name + " has two values named '" + v.name + "'");
    }
    if (!values.insert(v.value).second) {
      return Status(Errc::duplicate_number,
                    t.name + " has two names for value " + std::to_string(v.value));
    }
    if (!fits(t.underlying, v.value)) {
      return invalid(t.name + "." + v.name,
                     "value does not fit " + std::string(kind_name(t.underlying)));
    }
  }
  return Status();
}

}  // namespace

Status Registry::check(const TypeDesc& desc) const {
  Status s = desc.kind == Kind::Struct ? check_struct(desc)
             : desc.kind == Kind::Enum ? check_enum(desc)
                                       : invalid(desc.name.empty() ? "type" : desc.name,
                                                 "only structs and enums are registered");
  if (!s) return s;
  if (by_name_.count(desc.name)) {
    return Status(Errc::duplicate_type, "a type named '" + desc.name + "' is already registered");
  }
  if (desc.registered_cpp_type && by_cpp_type_.count(*desc.registered_cpp_type)) {
    return Status(Errc::duplicate_type, "C++ type " + cpp_type_name(*desc.registered_cpp_type) +
                                            " is already registered as '" +
                                            by_cpp_type_.at(*desc.registered_cpp_type)->name + "'");
  }
  return Status();
}

Status Registry::add(TypeDesc desc) {
  if (Status s = check(desc); !s) return s;
  types_.push_back(std::make_unique<TypeDesc>(std::move(desc)));
  TypeDesc* stored = types_.back().get();
  by_name_.emplace(stored->name, stored);
  if (stored->registered_cpp_type) by_cpp_type_.emplace(*stored->registered_cpp_type, stored);
  return Status();
}

std::vector<const TypeDesc*> Registry::types() const {
  std::vector<const TypeDesc*> out;
  for (const auto& t : types_) out.push_back(t.get());
  return out;
}

TypeDesc* Registry::lookup(const TypeDesc& reference) {
  if (reference.cpp_type) {
    auto it = by_cpp_type_.find(*reference.cpp_type);
    return it == by_cpp_type_.end() ? nullptr : it->second;
  }
  auto it = by_name_.find(reference.name);
  return it == by_name_.end() ? nullptr : it->second;
}

Registry::Registry() : value_type_(detail::describe<Value>()) {
  value_type_.name = "jitser::Value";
}

Result<const TypeDesc*> Registry::resolve(std::string_view name) {
  auto it = by_name_.find(name);
  if (it == by_name_.end() && name == value_type_.name) return &value_type_;
  if (it == by_name_.end()) {
    return Status(Errc::unknown_type, "no type named '" + std::string(name) + "' is registered");
  }
  return resolve_graph(it->second);
}

Result<const TypeDesc*> Registry::resolve(std::type_index cpp_type) {
  auto it = by_cpp_type_.find(cpp_type);
  if (it == by_cpp_type_.end() && cpp_type == std::type_index(typeid(Value))) return &value_type_;
  if (it == by_cpp_type_.end()) {
    return Status(Errc::unknown_type, "C++ type " + cpp_type_name(cpp_type) + " is not registered");
  }
  return resolve_graph(it->second);
}

Result<const TypeDesc*> Registry::resolve_graph(TypeDesc* root) {
  // Pass 1: bind every reference reachable from root. A bound reference is never rebound, so
  // codecs already handed out keep reading the same pointers.
  std::set<const TypeDesc*> seen;
  std::vector<TypeDesc*> todo{root};
  Status failure;
  auto bind = [&](auto&& self, TypeDesc& node, const std::string& where) -> bool {
    switch (node.kind) {
      case Kind::Named: {
        TypeDesc* target = node.target ? const_cast<TypeDesc*>(node.target) : lookup(node);
        if (!target) {
          const std::string what =
              node.cpp_type ? "C++ type " + cpp_type_name(*node.cpp_type) : "'" + node.name + "'";
          failure = Status(Errc::unregistered_type,
                           where + " refers to " + what + ", which is not registered");
          return false;
        }
        if (node.size != 0 && node.size != target->size) {
          failure = invalid(where, "refers to '" + target->name + "' of a different size");
          return false;
        }
        if (!node.target) node.target = target;
        if (seen.insert(target).second) todo.push_back(target);
        return true;
      }
      case Kind::Map:
        return self(self, *node.key.get(), where + "{key}") &&
               self(self, *node.element.get(), where + "{}");
      case Kind::List:
      case Kind::Array: return self(self, *node.element.get(), where + "[]");
      case Kind::Optional:
      case Kind::UniquePtr:
      case Kind::SharedPtr: return self(self, *node.element.get(), where);
      default: return true;
    }
  };
  seen.insert(root);
  while (!todo.empty()) {
    TypeDesc* t = todo.back();
    todo.pop_back();
    for (FieldDesc& f : t->fields) {
      if (!bind(bind, *f.type.get(), t->name + "." + f.cpp_name)) return failure;
    }
  }

  // Pass 2: rules that need resolved types.
  for (const TypeDesc* t : seen) {
    for (const FieldDesc& f : t->fields) {
      const std::string where = t->name + "." + f.cpp_name;
      if (!default_fits(f.type->resolved(), f.default_value)) {
        return invalid(where, "default value does not match " + display_name(*f.type));
      }
      for (const TypeDesc* n = f.type.get(); n;) {
        if (n->kind == Kind::Map) {
          const Kind k = n->key->resolved().kind;
          if (!(k == Kind::String || k == Kind::Enum || is_integer(k))) {
            return invalid(
                where, "map keys must be strings, integers or enums, not " + display_name(*n->key));
          }
        }
        n = n->element ? n->element.get() : nullptr;
      }
    }
  }

  // Pass 3: a struct may not contain itself through by-value edges (fields, arrays, optionals).
  std::map<const TypeDesc*, int> state;  // 1 visiting, 2 done
  auto by_value = [&](auto&& self, const TypeDesc& s, std::string path) -> bool {
    state[&s] = 1;
    for (const FieldDesc& f : s.fields) {
      const TypeDesc* n = f.type.get();
      while (n->kind == Kind::Array || n->kind == Kind::Optional) n = n->element.get();
      const TypeDesc& r = n->resolved();
      if (r.kind != Kind::Struct) continue;
      const std::string next = path + "." + f.cpp_name;
      if (state[&r] == 1) {
        failure = Status(Errc::recursive_by_value,
                         r.name + " contains itself by value through " + next +
                             "; break the cycle with std::unique_ptr, std::shared_ptr or a "
                             "container");
        return false;
      }
      if (state[&r] == 0 && !self(self, r, next)) return false;
    }
    state[&s] = 2;
    return true;
  };
  // From the root first, so the path in the message starts at the type asked for; `seen` is
  // ordered by address, which differs from run to run.
  if (root->kind == Kind::Struct && !by_value(by_value, *root, root->name)) return failure;
  for (const TypeDesc* t : seen) {
    if (t->kind == Kind::Struct && state[t] == 0 && !by_value(by_value, *t, t->name)) {
      return failure;
    }
  }
  return static_cast<const TypeDesc*>(root);
}

namespace {

void canonical_type(const TypeDesc& t, std::string& out, std::vector<const TypeDesc*>& pending) {
  const TypeDesc& r = t.resolved();
  switch (r.kind) {
    case Kind::Struct:
    case Kind::Enum:
      out += schema_name(r.name);
      pending.push_back(&r);
      return;
    case Kind::List:
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr:
      out += kind_name(r.kind);
      out += '<';
      canonical_type(*r.element, out, pending);
      out += '>';
      return;
    case Kind::Array:
      out += "array<";
      canonical_type(*r.element, out, pending);
      out += "," + std::to_string(r.count) + ">";
      return;
    case Kind::Map:
      out += "map<";
      canonical_type(*r.key, out, pending);
      out += ',';
      canonical_type(*r.element, out, pending);
      out += '>';
      return;
    default: out += display_name(r);
  }
}

}  // namespace

bool default_fits(const TypeDesc& type, const DefaultValue& d) {
  if (std::holds_alternative<std::monostate>(d)) return true;
  const Kind k = type.kind;
  if (k == Kind::Bool) return std::holds_alternative<bool>(d);
  if (is_integer(k) || k == Kind::Enum) {
    return std::holds_alternative<std::int64_t>(d) || std::holds_alternative<std::uint64_t>(d);
  }
  if (k == Kind::Float32 || k == Kind::Float64) {
    return !std::holds_alternative<bool>(d) && !std::holds_alternative<std::string>(d);
  }
  if (k == Kind::String) return std::holds_alternative<std::string>(d);
  return false;
}

bool is_integer(Kind k) {
  return k == Kind::Int8 || k == Kind::Int16 || k == Kind::Int32 || k == Kind::Int64 ||
         k == Kind::UInt8 || k == Kind::UInt16 || k == Kind::UInt32 || k == Kind::UInt64;
}

bool fits(Kind k, std::int64_t v) {
  switch (k) {
    case Kind::Int8: return v >= INT8_MIN && v <= INT8_MAX;
    case Kind::Int16: return v >= INT16_MIN && v <= INT16_MAX;
    case Kind::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case Kind::UInt8: return v >= 0 && v <= UINT8_MAX;
    case Kind::UInt16: return v >= 0 && v <= UINT16_MAX;
    case Kind::UInt32: return v >= 0 && v <= static_cast<std::int64_t>(UINT32_MAX);
    default: return true;  // 64-bit kinds: enum values are held as int64 already
  }
}

std::string canonical_text(const TypeDesc& root) {
  std::string out;
  std::set<const TypeDesc*> written;
  std::vector<const TypeDesc*> pending{&root.resolved()};
  // Breadth-first from the root, each named type once: the text depends only on the schema.
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const TypeDesc& t = *pending[i];
    if (!written.insert(&t).second) continue;
    if (t.kind == Kind::Enum) {
      out += schema_name(t.name) + "=enum(" + kind_name(t.underlying) + "){";
      for (const EnumValue& v : t.values) {
        out += schema_name(v.name) + "=" + std::to_string(v.value) + ",";
      }
      out += "}\n";
      continue;
    }
    if (t.kind != Kind::Struct) continue;
    out += schema_name(t.name) + (t.wrapper ? "=wrap{" : t.message ? "=message{" : "{");
    for (std::size_t k = 0; k < t.fields.size(); ++k) {
      const FieldDesc& f = t.fields[k];
      const bool opens = !f.oneof.empty() && (k == 0 || t.fields[k - 1].oneof != f.oneof);
      const bool closes =
          !f.oneof.empty() && (k + 1 == t.fields.size() || t.fields[k + 1].oneof != f.oneof);
      if (opens) out += "oneof " + schema_name(f.oneof) + "{";
      out += schema_name(f.name);
      if (!f.alias.empty()) out += "/" + schema_name(f.alias);
      if (f.number) {
        out += '#';  // not "#" + ...: GCC 12 at -O3 warns falsely (-Wrestrict) of that
        out += std::to_string(f.number);
      }
      if (f.nullable) out += "?";
      out += ':';
      canonical_type(*f.type, out, pending);
      if (f.encoding == IntEncoding::Zigzag) out += " zigzag";
      if (f.encoding == IntEncoding::Fixed) out += " fixed";
      out += closes ? ",}," : ",";
    }
    out += "}\n";
  }
  return out;
}

std::uint64_t fingerprint(const TypeDesc& root) {
  const std::string text = canonical_text(root);
  return XXH64(text.data(), text.size(), 0);
}

}  // namespace jitser
