// The JSON libraries a user would otherwise pick, bound by hand to the payload structs the way
// their documentation shows: RapidJSON (Writer; Document parse plus a binding), nlohmann/json
// (to_json/from_json) and simdjson On-Demand (deserialize only). Each writes and reads the same
// document jitser does: the struct's field names as keys, enums by name, absent optionals as
// null. Readers accept the keys in any order.
#pragma once

#include <string>
#include <string_view>

#include "bench/payloads.h"

namespace jitser::bench::json_peers {

/// The payloads every peer binds.
template <class F>
void for_each_payload(F&& f) {
  using namespace jitser::payloads;
  f("MediaContent", make_media_content());
  f("A1", make_a1());
  f("Moshi", make_moshi());
  f("Foo", make_foo());
  f("FooImmutable", make_foo_immutable());
  f("FooWithDefault", make_foo_with_default());
  f("FooWithValueClass", make_foo_with_value_class());
  f("StringList", make_string_list());
  f("StringMap", make_string_map());
}

template <class T>
bool rapidjson_write(const T& value, std::string& out);
template <class T>
bool rapidjson_read(std::string_view json, T& out);
template <class T>
bool nlohmann_write(const T& value, std::string& out);
template <class T>
bool nlohmann_read(std::string_view json, T& out);
/// `json` must be followed by simdjson's padding (64 readable bytes).
template <class T>
bool simdjson_read(std::string_view json, T& out);

}  // namespace jitser::bench::json_peers
