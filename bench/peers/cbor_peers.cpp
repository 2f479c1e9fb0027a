// libcbor bound to the payloads (cbor_peers.h): an encoder over cbor_encode_*, and a binding of
// cbor_load's items to the payload structs, written as a libcbor user writes them.
#include "bench/peers/cbor_peers.h"

#include <cbor.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jitser::bench::cbor_peers {
namespace {

using namespace jitser::payloads;

// A growing buffer for cbor_encode_*, each of which writes nothing when the room is short.
class Encoder {
 public:
  template <class Encode>
  void put(Encode encode) {
    for (;;) {
      if (const std::size_t n = encode(bytes_.data() + used_, bytes_.size() - used_)) {
        used_ += n;
        return;
      }
      grow(16);
    }
  }
  void raw(const void* data, std::size_t n) {
    if (bytes_.size() - used_ < n) grow(n);
    if (n) std::memcpy(bytes_.data() + used_, data, n);
    used_ += n;
  }
  void clear() { used_ = 0; }
  std::span<const std::uint8_t> bytes() const { return {bytes_.data(), used_}; }

 private:
  void grow(std::size_t need) {
    bytes_.resize(std::max({std::size_t{256}, bytes_.size() * 2, used_ + need}));
  }
  std::vector<std::uint8_t> bytes_;
  std::size_t used_ = 0;
};

constexpr std::array<std::string_view, 2> kPlayers = {"JAVA", "FLASH"};
constexpr std::array<std::string_view, 2> kSizes = {"SMALL", "LARGE"};

// ---- writing --------------------------------------------------------------------------------

void put(Encoder& e, std::int64_t v) {
  if (v >= 0) {
    e.put([&](unsigned char* at, std::size_t room) {
      return cbor_encode_uint(static_cast<std::uint64_t>(v), at, room);
    });
  } else {
    e.put([&](unsigned char* at, std::size_t room) {
      return cbor_encode_negint(~static_cast<std::uint64_t>(v), at, room);
    });
  }
}
void put(Encoder& e, std::int32_t v) { put(e, std::int64_t{v}); }
void put(Encoder& e, bool v) {
  e.put([&](unsigned char* at, std::size_t room) { return cbor_encode_bool(v, at, room); });
}
void put(Encoder& e, double v) {
  e.put([&](unsigned char* at, std::size_t room) { return cbor_encode_double(v, at, room); });
}
void put(Encoder& e, std::string_view s) {
  e.put([&](unsigned char* at, std::size_t room) {
    return cbor_encode_string_start(s.size(), at, room);
  });
  e.raw(s.data(), s.size());
}
void put(Encoder& e, const std::string& s) { put(e, std::string_view(s)); }
void put(Encoder& e, const std::optional<std::string>& s) {
  if (s) {
    put(e, *s);
  } else {
    e.put([](unsigned char* at, std::size_t room) { return cbor_encode_null(at, room); });
  }
}
void put(Encoder& e, Player p) { put(e, kPlayers[static_cast<std::size_t>(p)]); }
void put(Encoder& e, Size s) { put(e, kSizes[static_cast<std::size_t>(s)]); }
void array(Encoder& e, std::size_t n) {
  e.put([&](unsigned char* at, std::size_t room) { return cbor_encode_array_start(n, at, room); });
}
void map(Encoder& e, std::size_t n) {
  e.put([&](unsigned char* at, std::size_t room) { return cbor_encode_map_start(n, at, room); });
}
template <class V>
void put(Encoder& e, const std::vector<V>& list) {
  array(e, list.size());
  for (const V& v : list) put(e, v);
}
void put(Encoder& e, const std::map<std::string, std::string>& m) {
  map(e, m.size());
  for (const auto& [k, v] : m) {
    put(e, k);
    put(e, v);
  }
}
// A struct: a map of its fields by name.
template <class V>
void field(Encoder& e, std::string_view name, const V& v) {
  put(e, name);
  put(e, v);
}

void put(Encoder& e, const Image& v) {
  map(e, 5);
  field(e, "uri", v.uri);
  field(e, "title", v.title);
  field(e, "width", v.width);
  field(e, "height", v.height);
  field(e, "size", v.size);
}
void put(Encoder& e, const Media& v) {
  map(e, 12);
  field(e, "uri", v.uri);
  field(e, "title", v.title);
  field(e, "width", v.width);
  field(e, "height", v.height);
  field(e, "format", v.format);
  field(e, "duration", v.duration);
  field(e, "size", v.size);
  field(e, "bitrate", v.bitrate);
  field(e, "hasBitrate", v.hasBitrate);
  field(e, "persons", v.persons);
  field(e, "player", v.player);
  field(e, "copyright", v.copyright);
}
void put(Encoder& e, const MediaContent& v) {
  map(e, 2);
  field(e, "media", v.media);
  field(e, "images", v.images);
}
void put(Encoder& e, const A1& v) {
  map(e, 6);
  field(e, "id", v.id);
  field(e, "name", v.name);
  field(e, "score", v.score);
  field(e, "active", v.active);
  field(e, "tags", v.tags);
  field(e, "timestamp", v.timestamp);
}
template <class F>
void put_foo(Encoder& e, const F& v) {
  map(e, 2);
  field(e, "bar", v.bar);
  field(e, "baz", v.baz);
}
void put(Encoder& e, const Foo& v) { put_foo(e, v); }
void put(Encoder& e, const FooImmutable& v) { put_foo(e, v); }
void put(Encoder& e, const FooWithDefault& v) { put_foo(e, v); }
void put(Encoder& e, const FooWithValueClass& v) {
  map(e, 2);
  field(e, "bar", v.bar);
  field(e, "bizz", v.bizz.value);
}
void put(Encoder& e, const StringList& v) {
  map(e, 1);
  field(e, "items", v.items);
}
void put(Encoder& e, const StringMap& v) {
  map(e, 1);
  field(e, "items", v.items);
}

// ---- reading --------------------------------------------------------------------------------

// The structs' bindings, which the container templates below call.
bool get(const cbor_item_t* i, Image& v);

bool get(const cbor_item_t* i, std::string& out) {
  if (!cbor_isa_string(i) || !cbor_string_is_definite(i)) return false;
  out.assign(reinterpret_cast<const char*>(cbor_string_handle(i)), cbor_string_length(i));
  return true;
}
bool get(const cbor_item_t* i, std::optional<std::string>& out) {
  if (cbor_is_null(i)) {
    out.reset();
    return true;
  }
  return get(i, out.emplace());
}
bool get(const cbor_item_t* i, std::int64_t& out) {
  if (cbor_isa_uint(i)) {
    const std::uint64_t v = cbor_get_int(i);
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = static_cast<std::int64_t>(v);
    return true;
  }
  if (cbor_isa_negint(i)) {
    const std::uint64_t v = cbor_get_int(i);
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = -1 - static_cast<std::int64_t>(v);
    return true;
  }
  return false;
}
bool get(const cbor_item_t* i, std::int32_t& out) {
  std::int64_t v = 0;
  if (!get(i, v) || v < std::numeric_limits<std::int32_t>::min() ||
      v > std::numeric_limits<std::int32_t>::max()) {
    return false;
  }
  out = static_cast<std::int32_t>(v);
  return true;
}
bool get(const cbor_item_t* i, double& out) {
  if (!cbor_is_float(i)) return false;
  out = cbor_float_get_float(i);
  return true;
}
bool get(const cbor_item_t* i, bool& out) {
  if (!cbor_is_bool(i)) return false;
  out = cbor_get_bool(i);
  return true;
}
template <class E, std::size_t N>
bool get_enum(const cbor_item_t* i, const std::array<std::string_view, N>& names, E& out) {
  std::string name;
  if (!get(i, name)) return false;
  for (std::size_t k = 0; k < N; ++k) {
    if (names[k] == name) {
      out = static_cast<E>(k);
      return true;
    }
  }
  return false;
}
bool get(const cbor_item_t* i, Player& out) { return get_enum(i, kPlayers, out); }
bool get(const cbor_item_t* i, Size& out) { return get_enum(i, kSizes, out); }
template <class V>
bool get(const cbor_item_t* i, std::vector<V>& out) {
  if (!cbor_isa_array(i) || !cbor_array_is_definite(i)) return false;
  const std::size_t n = cbor_array_size(i);
  cbor_item_t** items = cbor_array_handle(i);
  out.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (!get(items[k], out[k])) return false;
  }
  return true;
}
bool get(const cbor_item_t* i, std::map<std::string, std::string>& out) {
  if (!cbor_isa_map(i) || !cbor_map_is_definite(i)) return false;
  out.clear();
  const cbor_pair* pairs = cbor_map_handle(i);
  for (std::size_t k = 0; k < cbor_map_size(i); ++k) {
    std::string key, value;
    if (!get(pairs[k].key, key) || !get(pairs[k].value, value)) return false;
    out.emplace_hint(out.end(), std::move(key), std::move(value));
  }
  return true;
}
// A struct's map: each field by its name; names the struct does not have are skipped.
template <class Each>
bool fields(const cbor_item_t* i, Each each) {
  if (!cbor_isa_map(i) || !cbor_map_is_definite(i)) return false;
  const cbor_pair* pairs = cbor_map_handle(i);
  for (std::size_t k = 0; k < cbor_map_size(i); ++k) {
    const cbor_item_t* key = pairs[k].key;
    if (!cbor_isa_string(key) || !cbor_string_is_definite(key)) return false;
    const std::string_view name(reinterpret_cast<const char*>(cbor_string_handle(key)),
                                cbor_string_length(key));
    if (!each(name, pairs[k].value)) return false;
  }
  return true;
}

bool get(const cbor_item_t* i, Image& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "uri") return get(x, v.uri);
    if (k == "title") return get(x, v.title);
    if (k == "width") return get(x, v.width);
    if (k == "height") return get(x, v.height);
    if (k == "size") return get(x, v.size);
    return true;
  });
}
bool get(const cbor_item_t* i, Media& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "uri") return get(x, v.uri);
    if (k == "title") return get(x, v.title);
    if (k == "width") return get(x, v.width);
    if (k == "height") return get(x, v.height);
    if (k == "format") return get(x, v.format);
    if (k == "duration") return get(x, v.duration);
    if (k == "size") return get(x, v.size);
    if (k == "bitrate") return get(x, v.bitrate);
    if (k == "hasBitrate") return get(x, v.hasBitrate);
    if (k == "persons") return get(x, v.persons);
    if (k == "player") return get(x, v.player);
    if (k == "copyright") return get(x, v.copyright);
    return true;
  });
}
bool get(const cbor_item_t* i, MediaContent& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "media") return get(x, v.media);
    if (k == "images") return get(x, v.images);
    return true;
  });
}
bool get(const cbor_item_t* i, A1& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "id") return get(x, v.id);
    if (k == "name") return get(x, v.name);
    if (k == "score") return get(x, v.score);
    if (k == "active") return get(x, v.active);
    if (k == "tags") return get(x, v.tags);
    if (k == "timestamp") return get(x, v.timestamp);
    return true;
  });
}
template <class F>
bool get_foo(const cbor_item_t* i, F& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "bar") return get(x, v.bar);
    if (k == "baz") return get(x, v.baz);
    return true;
  });
}
bool get(const cbor_item_t* i, Foo& v) { return get_foo(i, v); }
bool get(const cbor_item_t* i, FooImmutable& v) { return get_foo(i, v); }
bool get(const cbor_item_t* i, FooWithDefault& v) { return get_foo(i, v); }
bool get(const cbor_item_t* i, FooWithValueClass& v) {
  return fields(i, [&](std::string_view k, const cbor_item_t* x) {
    if (k == "bar") return get(x, v.bar);
    if (k == "bizz") return get(x, v.bizz.value);
    return true;
  });
}
bool get(const cbor_item_t* i, StringList& v) {
  return fields(
      i, [&](std::string_view k, const cbor_item_t* x) { return k != "items" || get(x, v.items); });
}
bool get(const cbor_item_t* i, StringMap& v) {
  return fields(
      i, [&](std::string_view k, const cbor_item_t* x) { return k != "items" || get(x, v.items); });
}

}  // namespace

template <class T>
struct LibCbor<T>::Impl {
  T value;
  Encoder out;
};

template <class T>
LibCbor<T>::LibCbor(const T& value) : impl_(std::make_unique<Impl>()) {
  impl_->value = value;
}

template <class T>
LibCbor<T>::~LibCbor() = default;

template <class T>
std::span<const std::uint8_t> LibCbor<T>::write() {
  impl_->out.clear();
  put(impl_->out, impl_->value);
  return impl_->out.bytes();
}

template <class T>
bool LibCbor<T>::read(std::span<const std::uint8_t> bytes) {
  cbor_load_result result;
  cbor_item_t* item = cbor_load(bytes.data(), bytes.size(), &result);
  if (!item) return false;
  const bool ok = result.read == bytes.size() && get(item, impl_->value);
  cbor_decref(&item);
  return ok;
}

template <class T>
const T& LibCbor<T>::value() const {
  return impl_->value;
}

template class LibCbor<MediaContent>;
template class LibCbor<A1>;
template class LibCbor<Foo>;
template class LibCbor<FooImmutable>;
template class LibCbor<FooWithDefault>;
template class LibCbor<FooWithValueClass>;
template class LibCbor<StringList>;
template class LibCbor<StringMap>;

}  // namespace jitser::bench::cbor_peers
