#include "tests/random_schema/value_walk.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#include <jitser/value.h>

#include "typeinfo/strings.h"

namespace jitser::random_schema {
namespace {

std::uint64_t pick(std::mt19937_64& rng, std::uint64_t n) { return n ? rng() % n : 0; }
bool chance(std::mt19937_64& rng, int percent) { return pick(rng, 100) < std::uint64_t(percent); }

// Integers near the ends of their range as often as anywhere else.
std::uint64_t random_bits(std::mt19937_64& rng, unsigned width, bool is_signed) {
  const unsigned bits = width * 8;
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const std::uint64_t top = 1ull << (bits - 1);
  std::uint64_t v;
  switch (pick(rng, 6)) {
    case 0: v = 0; break;
    case 1: v = is_signed ? top - 1 : mask; break;  // the largest
    case 2: v = is_signed ? top : 1; break;         // the smallest signed, or one
    case 3: v = pick(rng, 300); break;
    case 4: v = -pick(rng, 300); break;
    default: v = rng(); break;
  }
  return v & mask;
}

void store_bits(void* at, std::uint64_t v, unsigned width) {
  switch (width) {
    case 1: {
      std::uint8_t x = std::uint8_t(v);
      std::memcpy(at, &x, 1);
      break;
    }
    case 2: {
      std::uint16_t x = std::uint16_t(v);
      std::memcpy(at, &x, 2);
      break;
    }
    case 4: {
      std::uint32_t x = std::uint32_t(v);
      std::memcpy(at, &x, 4);
      break;
    }
    default: std::memcpy(at, &v, 8); break;
  }
}

double random_double(std::mt19937_64& rng) {
  switch (pick(rng, 8)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1.5;
    case 3: return std::numeric_limits<double>::max();
    case 4: return std::numeric_limits<double>::denorm_min();
    case 5: return -std::numeric_limits<double>::min();
    case 6: return double(std::int64_t(rng())) / 1024.0;
    default: {
      double d;
      do {
        const std::uint64_t bits = rng();
        std::memcpy(&d, &bits, 8);
      } while (!std::isfinite(d));
      return d;
    }
  }
}

float random_float(std::mt19937_64& rng) {
  if (chance(rng, 25)) {
    float f;
    do {
      const std::uint32_t bits = std::uint32_t(rng());
      std::memcpy(&f, &bits, 4);
    } while (!std::isfinite(f));
    return f;
  }
  switch (pick(rng, 5)) {
    case 0: return -0.0f;
    case 1: return std::numeric_limits<float>::max();
    case 2: return std::numeric_limits<float>::denorm_min();
    case 3: return 0.1f;
    default: return float(std::int32_t(rng())) / 64.0f;
  }
}

// Valid UTF-8 of every length class: empty, short, long enough to leave every in-line copy,
// with escapes, control characters and characters of two, three and four bytes.
std::string random_string(std::mt19937_64& rng) {
  static const char* const pieces[] = {"a",
                                       "Z",
                                       "0",
                                       " ",
                                       "\"",
                                       "\\",
                                       "/",
                                       "\n",
                                       "\t",
                                       "\x01",
                                       "\x1f",
                                       "\x7f",
                                       "\xc3\xa9",
                                       "\xe6\x97\xa5",
                                       "\xf0\x9f\x98\x80",
                                       "\xe2\x80\xa8",
                                       "{",
                                       "}",
                                       ":",
                                       ","};
  std::size_t n;
  switch (pick(rng, 6)) {
    case 0: n = 0; break;
    case 1: n = 1 + pick(rng, 15); break;
    case 2: n = 16 + pick(rng, 50); break;
    case 3: n = 100 + pick(rng, 400); break;
    default: n = pick(rng, 40); break;
  }
  std::string s;
  const bool plain = chance(rng, 40);
  for (std::size_t i = 0; i < n; ++i) {
    if (plain) {
      s += char('a' + pick(rng, 26));
    } else {
      s += pieces[pick(rng, std::size(pieces))];
    }
  }
  return s;
}

std::size_t random_count(std::mt19937_64& rng, int depth, const FillOptions& options) {
  if (depth >= options.max_depth) return 0;
  switch (pick(rng, 8)) {
    case 0: return 0;
    case 1: return depth == 0 && chance(rng, 20) ? 200 + pick(rng, 300) : 1;
    default: return pick(rng, 5);
  }
}

Value random_value(std::mt19937_64& rng, int depth, const FillOptions& options);

// One of the items only some formats' Values hold, of those the options allow; null when they
// allow none. Nothing here reads back as another type: tags are not bignums or decimal
// fractions (2, 3, 4) but for a negative integer below int64, held as the tag-3 bignum of its
// eight-byte magnitude; simple values are not false, true or null, and a map of Entries has a
// key that is not a string.
Value random_extra(std::mt19937_64& rng, int depth, const FillOptions& options) {
  enum Extra { kFloat, kEntries, kTagged, kBelowInt64, kSimple, kExtension };
  std::vector<Extra> allowed;
  if (options.value_floats) allowed.push_back(kFloat);
  if (options.value_entries && depth < 3) allowed.push_back(kEntries);
  if (options.value_cbor_items) {
    if (depth < 3) allowed.push_back(kTagged);
    allowed.push_back(kBelowInt64);
    allowed.push_back(kSimple);
  }
  if (options.value_extensions) allowed.push_back(kExtension);
  if (allowed.empty()) return Value();
  switch (allowed[pick(rng, allowed.size())]) {
    case kFloat: {
      const float f = static_cast<float>(random_double(rng));
      return Value(std::isfinite(f) ? f : 0.5f);
    }
    case kEntries: {
      Value::Entries m;
      m.emplace_back(Value(std::int64_t(random_bits(rng, 8, true))),
                     random_value(rng, depth + 1, options));
      for (std::size_t i = pick(rng, 3); i > 0; --i) {
        m.emplace_back(random_value(rng, depth + 1, options),
                       random_value(rng, depth + 1, options));
      }
      std::shuffle(m.begin(), m.end(), rng);
      return Value(std::move(m));
    }
    case kTagged: {
      const std::uint64_t numbers[] = {0,         1, 5, 24, 32, 1001, 55799, std::uint64_t{1} << 40,
                                       UINT64_MAX};
      return Value(
          Tagged(numbers[pick(rng, std::size(numbers))], random_value(rng, depth + 1, options)));
    }
    case kBelowInt64: {
      Value::Bytes magnitude(8);
      for (auto& x : magnitude) x = std::uint8_t(rng());
      magnitude[0] |= 0x80;
      return Value(Tagged(3, Value(std::move(magnitude))));
    }
    case kSimple: {
      const std::uint8_t simple[] = {0, 19, 23, 32, 200, 255};
      return Value(Simple{simple[pick(rng, std::size(simple))]});
    }
    case kExtension: {
      Value::Bytes b(pick(rng, 20));
      for (auto& x : b) x = std::uint8_t(rng());
      return Value(Extension{static_cast<std::int8_t>(rng()), std::move(b)});
    }
  }
  return Value();
}

Value random_value(std::mt19937_64& rng, int depth, const FillOptions& options) {
  if ((options.value_floats || options.value_entries || options.value_cbor_items ||
       options.value_extensions) &&
      chance(rng, 20)) {
    return random_extra(rng, depth, options);
  }
  const int kinds = depth >= 3 ? 6 : 9;
  switch (pick(rng, options.json_values         ? kinds
                    : options.no_value_decimals ? kinds + 1
                                                : kinds + 2)) {
    case 0: return Value();
    case 1: return Value(chance(rng, 50));
    case 2: return Value(std::int64_t(random_bits(rng, 8, true)));
    case 3: return Value(std::uint64_t(random_bits(rng, 8, false) | (std::uint64_t{1} << 63)));
    case 4: return Value(random_double(rng));
    case 5: return Value(random_string(rng));
    case 6:
    case 7: {
      Value::Array a;
      for (std::size_t i = pick(rng, 4); i > 0; --i)
        a.push_back(random_value(rng, depth + 1, options));
      return Value(std::move(a));
    }
    case 8: {
      Value::Map m;
      for (std::size_t i = pick(rng, 4); i > 0; --i) {
        m.emplace_back(random_string(rng), random_value(rng, depth + 1, options));
      }
      if (options.value_maps_in_key_order) {
        std::stable_sort(m.begin(), m.end(), [](const auto& a, const auto& b) {
          return a.first.size() != b.first.size() ? a.first.size() < b.first.size()
                                                  : a.first < b.first;
        });
      }
      return Value(std::move(m));
    }
    case 9: {
      Value::Bytes b(pick(rng, 20));
      for (auto& x : b) x = std::uint8_t(rng());
      return Value(std::move(b));
    }
    default:
      return Value(
          Decimal{std::int64_t(random_bits(rng, 8, true)), std::int32_t(pick(rng, 41)) - 20});
  }
}

std::size_t element_size(const TypeDesc& t) { return t.element->resolved().size; }

// A oneof holds at most one value: of the fields of each group that the filler gave one, a
// random one keeps it.
void keep_one_alternative(const TypeDesc& t, void* at, std::mt19937_64& rng) {
  for (std::size_t i = 0; i < t.fields.size();) {
    std::size_t end = i + 1;
    if (t.fields[i].oneof.empty()) {
      i = end;
      continue;
    }
    while (end < t.fields.size() && t.fields[end].oneof == t.fields[i].oneof) ++end;
    const std::size_t kept = i + pick(rng, end - i);
    for (std::size_t k = i; k < end; ++k) {
      const TypeDesc& ft = *t.fields[k].type;
      void* slot = static_cast<char*>(at) + t.fields[k].offset;
      if (k == kept) continue;
      if (ft.kind == Kind::SharedPtr) {
        ft.shared_ops->reset(&ft, slot);
      } else {
        ft.nullable_ops->reset(&ft, slot);
      }
    }
    i = end;
  }
}

void fill_at(const TypeDesc& declared, void* at, std::mt19937_64& rng, int depth,
             const FillOptions& options) {
  const TypeDesc& t = declared.resolved();
  switch (t.kind) {
    case Kind::Bool: *static_cast<bool*>(at) = chance(rng, 50); break;
    case Kind::Int8:
    case Kind::Int16:
    case Kind::Int32:
    case Kind::Int64:
      store_bits(at, random_bits(rng, unsigned(t.size), true), unsigned(t.size));
      break;
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
    case Kind::UInt64:
      store_bits(at, random_bits(rng, unsigned(t.size), false), unsigned(t.size));
      break;
    case Kind::Float32: *static_cast<float*>(at) = random_float(rng); break;
    case Kind::Float64: *static_cast<double*>(at) = random_double(rng); break;
    case Kind::String: assign_string(t, at, random_string(rng)); break;
    case Kind::Bytes: {
      const std::size_t n = chance(rng, 5) ? 3000 : pick(rng, 40);
      t.list_ops->resize(&t, at, n);
      auto* bytes = static_cast<std::uint8_t*>(t.list_ops->data(&t, at));
      for (std::size_t i = 0; i < n; ++i) bytes[i] = std::uint8_t(rng());
      break;
    }
    case Kind::Enum:
      store_bits(at, std::uint64_t(t.values[pick(rng, t.values.size())].value), unsigned(t.size));
      break;
    case Kind::Decimal: {
      // Scales from the ones JSON writes as plain digits to ones it needs an exponent for.
      const std::int32_t scales[] = {0, 2, 5, 20, 21, -1, -3, -312, 312, -400, 400};
      *static_cast<Decimal*>(at) =
          Decimal{std::int64_t(random_bits(rng, 8, true)), scales[pick(rng, std::size(scales))]};
      break;
    }
    case Kind::Timestamp:
    case Kind::Duration: {
      std::int64_t ticks = std::int64_t(random_bits(rng, 8, true));
      if (chance(rng, 60)) ticks %= 4'000'000'000ll;  // mostly within the years JSON writes
      std::memcpy(at, &ticks, 8);
      break;
    }
    case Kind::Dynamic: *static_cast<Value*>(at) = random_value(rng, depth, options); break;
    case Kind::Struct:
      for (const FieldDesc& f : t.fields) {
        fill_at(*f.type, static_cast<char*>(at) + f.offset, rng, depth + 1, options);
      }
      keep_one_alternative(t, at, rng);
      break;
    case Kind::List: {
      const std::size_t n = random_count(rng, depth, options);
      t.list_ops->resize(&t, at, n);
      if (!t.list_ops->data) {
        for (std::size_t i = 0; i < n; ++i) t.list_ops->set_bool(&t, at, i, chance(rng, 50));
        break;
      }
      char* data = static_cast<char*>(t.list_ops->data(&t, at));
      for (std::size_t i = 0; i < n; ++i) {
        fill_at(*t.element, data + i * element_size(t), rng, depth + 1, options);
      }
      break;
    }
    case Kind::Array:
      for (std::size_t i = 0; i < t.count; ++i) {
        fill_at(*t.element, static_cast<char*>(at) + i * element_size(t), rng, depth + 1, options);
      }
      break;
    case Kind::Optional:
    case Kind::UniquePtr:
      if (depth >= options.max_depth || chance(rng, 30)) {
        t.nullable_ops->reset(&t, at);
      } else {
        fill_at(*t.element, t.nullable_ops->fill(&t, at), rng, depth + 1, options);
      }
      break;
    case Kind::SharedPtr:
      if (depth >= options.max_depth || chance(rng, 30)) {
        t.shared_ops->reset(&t, at);
      } else {
        void* object = t.shared_ops->emplace(&t, at, nullptr);
        if (options.shared_with) {
          options.shared_with->push_back({&t.element->resolved(), t.shared_ops->share(&t, at)});
        }
        fill_at(*t.element, object, rng, depth + 1, options);
      }
      break;
    case Kind::Map: {
      t.map_ops->clear(&t, at);
      const TypeDesc& key = t.key->resolved();
      for (std::size_t n = random_count(rng, depth, options); n > 0; --n) {
        alignas(std::max_align_t) unsigned char storage[64];
        key.value_ops->construct(&key, storage);
        fill_at(key, storage, rng, depth + 1, options);
        const void* stored = nullptr;
        if (void* value = t.map_ops->insert(&t, at, storage, &stored)) {
          fill_at(*t.element, value, rng, depth + 1, options);
        }
        key.value_ops->destroy(&key, storage);
      }
      break;
    }
    case Kind::Named: break;  // resolved above
  }
}

bool differ(std::string& where, std::string at) {
  where = std::move(at);
  return false;
}

const void* held(const TypeDesc& t, const void* holder) {
  return t.nullable_ops ? t.nullable_ops->get(&t, holder) : t.shared_ops->get(&t, holder);
}

// What JSON writes as `null`.
bool holds_nothing(const TypeDesc& declared, const void* at) {
  const TypeDesc& t = declared.resolved();
  switch (t.kind) {
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr: {
      const void* x = held(t, at);
      return !x || holds_nothing(*t.element, x);
    }
    case Kind::Dynamic: return static_cast<const Value*>(at)->is_null();
    case Kind::Struct:  // a wrapper is written as its one field
      return t.wrapper && holds_nothing(*t.fields.front().type,
                                        static_cast<const char*>(at) + t.fields.front().offset);
    default: return false;
  }
}

bool equal_at(const TypeDesc& declared, const void* a, const void* b, const std::string& path,
              std::string& where, bool null_is_empty) {
  const TypeDesc& t = declared.resolved();
  switch (t.kind) {
    case Kind::Bool:
      return *static_cast<const bool*>(a) == *static_cast<const bool*>(b) || differ(where, path);
    case Kind::String: return string_at(t, a) == string_at(t, b) || differ(where, path);
    case Kind::Bytes: {
      const std::size_t n = t.list_ops->size(&t, a);
      const auto* x = static_cast<const std::uint8_t*>(t.list_ops->data(&t, const_cast<void*>(a)));
      const auto* y = static_cast<const std::uint8_t*>(t.list_ops->data(&t, const_cast<void*>(b)));
      return (n == t.list_ops->size(&t, b) && (n == 0 || std::memcmp(x, y, n) == 0)) ||
             differ(where, path);
    }
    case Kind::Dynamic:
      return *static_cast<const Value*>(a) == *static_cast<const Value*>(b) || differ(where, path);
    case Kind::Int8:
    case Kind::Int16:
    case Kind::Int32:
    case Kind::Int64:
    case Kind::UInt8:
    case Kind::UInt16:
    case Kind::UInt32:
    case Kind::UInt64:
    case Kind::Float32:
    case Kind::Float64:
    case Kind::Enum:
    case Kind::Timestamp:
    case Kind::Duration: return std::memcmp(a, b, t.size) == 0 || differ(where, path);
    case Kind::Decimal: {
      const auto& x = *static_cast<const Decimal*>(a);
      const auto& y = *static_cast<const Decimal*>(b);
      return x == y || differ(where, path);
    }
    case Kind::Struct:
      for (const FieldDesc& f : t.fields) {
        if (!equal_at(*f.type, static_cast<const char*>(a) + f.offset,
                      static_cast<const char*>(b) + f.offset, path + "." + f.cpp_name, where,
                      null_is_empty)) {
          return false;
        }
      }
      return true;
    case Kind::List: {
      const std::size_t n = t.list_ops->size(&t, a);
      if (n != t.list_ops->size(&t, b)) return differ(where, path + " (size)");
      for (std::size_t i = 0; i < n; ++i) {
        const std::string at = path + "[" + std::to_string(i) + "]";
        if (!t.list_ops->data) {
          if (t.list_ops->get_bool(&t, a, i) != t.list_ops->get_bool(&t, b, i))
            return differ(where, at);
          continue;
        }
        const char* x = static_cast<const char*>(t.list_ops->data(&t, const_cast<void*>(a)));
        const char* y = static_cast<const char*>(t.list_ops->data(&t, const_cast<void*>(b)));
        if (!equal_at(*t.element, x + i * element_size(t), y + i * element_size(t), at, where,
                      null_is_empty)) {
          return false;
        }
      }
      return true;
    }
    case Kind::Array:
      for (std::size_t i = 0; i < t.count; ++i) {
        if (!equal_at(*t.element, static_cast<const char*>(a) + i * element_size(t),
                      static_cast<const char*>(b) + i * element_size(t),
                      path + "[" + std::to_string(i) + "]", where, null_is_empty)) {
          return false;
        }
      }
      return true;
    case Kind::Optional:
    case Kind::UniquePtr:
    case Kind::SharedPtr: {
      if (null_is_empty && (holds_nothing(t, a) || holds_nothing(t, b))) {
        return (holds_nothing(t, a) && holds_nothing(t, b)) || differ(where, path + " (null)");
      }
      const void* x = held(t, a);
      const void* y = held(t, b);
      if (!x || !y) return (!x && !y) || differ(where, path + " (presence)");
      return equal_at(*t.element, x, y, path + "*", where, null_is_empty);
    }
    case Kind::Map: {
      if (t.map_ops->size(&t, a) != t.map_ops->size(&t, b)) return differ(where, path + " (size)");
      alignas(std::max_align_t) unsigned char ia[kMapIteratorSize];
      t.map_ops->begin(&t, a, ia);
      const void* ka;
      const void* va;
      std::string ignored;
      while (t.map_ops->next(&t, ia, &ka, &va)) {
        alignas(std::max_align_t) unsigned char ib[kMapIteratorSize];
        t.map_ops->begin(&t, b, ib);
        const void* kb;
        const void* vb;
        bool found = false;
        while (!found && t.map_ops->next(&t, ib, &kb, &vb))
          found = equal_at(*t.key, ka, kb, path, ignored, null_is_empty);
        if (!found) return differ(where, path + " (a key is missing)");
        if (!equal_at(*t.element, va, vb, path + "[key]", where, null_is_empty)) return false;
      }
      return true;
    }
    case Kind::Named: break;
  }
  return true;
}

void collect_shared(const TypeDesc& declared, const void* at, std::vector<const void*>& out) {
  const TypeDesc& t = declared.resolved();
  const auto* base = static_cast<const char*>(at);
  switch (t.kind) {
    case Kind::Struct:
      for (const FieldDesc& f : t.fields) collect_shared(*f.type, base + f.offset, out);
      break;
    case Kind::List: {
      if (!t.list_ops->data) break;  // bits
      const char* data = static_cast<const char*>(t.list_ops->data(&t, const_cast<void*>(at)));
      for (std::size_t i = 0, n = t.list_ops->size(&t, at); i < n; ++i)
        collect_shared(*t.element, data + i * element_size(t), out);
      break;
    }
    case Kind::Array:
      for (std::size_t i = 0; i < t.count; ++i)
        collect_shared(*t.element, base + i * element_size(t), out);
      break;
    case Kind::Optional:
    case Kind::UniquePtr:
      if (const void* x = held(t, at)) collect_shared(*t.element, x, out);
      break;
    case Kind::SharedPtr:
      if (const void* x = held(t, at); x && std::find(out.begin(), out.end(), x) == out.end()) {
        out.push_back(x);
        collect_shared(*t.element, x, out);
      }
      break;
    case Kind::Map: {
      alignas(std::max_align_t) unsigned char it[kMapIteratorSize];
      t.map_ops->begin(&t, at, it);
      const void* k;
      const void* v;
      while (t.map_ops->next(&t, it, &k, &v)) collect_shared(*t.element, v, out);
      break;
    }
    default: break;
  }
}

}  // namespace

void fill(const TypeDesc& type, void* at, std::mt19937_64& rng, const FillOptions& options) {
  fill_at(type, at, rng, 0, options);
}

bool equal(const TypeDesc& type, const void* a, const void* b, std::string& where,
           bool null_is_empty) {
  return equal_at(type, a, b, type.name, where, null_is_empty);
}

std::vector<const void*> shared_objects(const TypeDesc& type, const void* at) {
  std::vector<const void*> out;
  collect_shared(type, at, out);
  return out;
}

}  // namespace jitser::random_schema
