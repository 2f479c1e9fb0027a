#include "bench/peers/json_peers.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <nlohmann/json.hpp>

namespace jitser::bench::json_peers {
namespace {

using namespace jitser::payloads;

// Each struct's fields, once, for all three bindings: f(key, member) in declaration order.
template <class F>
void fields(Image& v, F&& f) {
  f("uri", v.uri), f("title", v.title), f("width", v.width), f("height", v.height);
  f("size", v.size);
}
template <class F>
void fields(Media& v, F&& f) {
  f("uri", v.uri), f("title", v.title), f("width", v.width), f("height", v.height);
  f("format", v.format), f("duration", v.duration), f("size", v.size), f("bitrate", v.bitrate);
  f("hasBitrate", v.hasBitrate), f("persons", v.persons), f("player", v.player);
  f("copyright", v.copyright);
}
template <class F>
void fields(MediaContent& v, F&& f) {
  f("media", v.media), f("images", v.images);
}
template <class F>
void fields(A1& v, F&& f) {
  f("id", v.id), f("name", v.name), f("score", v.score), f("active", v.active);
  f("tags", v.tags), f("timestamp", v.timestamp);
}
template <class F>
void fields(Moshi& v, F&& f) {
  f("a", v.a), f("b", v.b), f("c", v.c);
}
template <class F>
void fields(Foo& v, F&& f) {
  f("bar", v.bar), f("baz", v.baz);
}
template <class F>
void fields(FooImmutable& v, F&& f) {
  f("bar", v.bar), f("baz", v.baz);
}
template <class F>
void fields(FooWithDefault& v, F&& f) {
  f("bar", v.bar), f("baz", v.baz);
}
template <class F>
void fields(FooWithValueClass& v, F&& f) {
  f("bar", v.bar), f("bizz", v.bizz.value);  // a value class is its one field
}
template <class F>
void fields(StringList& v, F&& f) {
  f("items", v.items);
}
template <class F>
void fields(StringMap& v, F&& f) {
  f("items", v.items);
}

template <class T>
concept Record = requires(T& t) {
  fields(t, [](const char*, auto&) {});
};

const char* name_of(Player p) { return p == Player::JAVA ? "JAVA" : "FLASH"; }
const char* name_of(Size s) { return s == Size::SMALL ? "SMALL" : "LARGE"; }
bool from_name(std::string_view n, Player& p) {
  if (n == "JAVA") return p = Player::JAVA, true;
  if (n == "FLASH") return p = Player::FLASH, true;
  return false;
}
bool from_name(std::string_view n, Size& s) {
  if (n == "SMALL") return s = Size::SMALL, true;
  if (n == "LARGE") return s = Size::LARGE, true;
  return false;
}
template <class T>
concept NamedEnum = std::is_same_v<T, Player> || std::is_same_v<T, Size>;

// ---------------------------------------------------------------------------------------------
// RapidJSON: Writer into a StringBuffer; Document parse, then members bound by name.

using RjWriter = rapidjson::Writer<rapidjson::StringBuffer>;

template <Record T>
void rj_put(RjWriter& w, const T& v);
template <Record T>
bool rj_get(const rapidjson::Value& j, T& v);

void rj_put(RjWriter& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
void rj_put(RjWriter& w, bool b) { w.Bool(b); }
void rj_put(RjWriter& w, std::int32_t i) { w.Int(i); }
void rj_put(RjWriter& w, std::int64_t i) { w.Int64(i); }
void rj_put(RjWriter& w, double d) { w.Double(d); }
template <NamedEnum E>
void rj_put(RjWriter& w, E e) {
  w.String(name_of(e));
}
template <class T>
void rj_put(RjWriter& w, const std::optional<T>& o) {
  if (o) {
    rj_put(w, *o);
  } else {
    w.Null();
  }
}
template <class T>
void rj_put(RjWriter& w, const std::vector<T>& list) {
  w.StartArray();
  for (const T& e : list) rj_put(w, e);
  w.EndArray();
}
void rj_put(RjWriter& w, const std::map<std::string, std::string>& m) {
  w.StartObject();
  for (const auto& [k, v] : m) {
    w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    rj_put(w, v);
  }
  w.EndObject();
}
template <Record T>
void rj_put(RjWriter& w, const T& v) {
  w.StartObject();
  fields(const_cast<T&>(v), [&](const char* key, const auto& member) {
    w.Key(key);
    rj_put(w, member);
  });
  w.EndObject();
}

bool rj_get(const rapidjson::Value& j, std::string& s) {
  if (!j.IsString()) return false;
  s.assign(j.GetString(), j.GetStringLength());
  return true;
}
bool rj_get(const rapidjson::Value& j, bool& b) {
  if (!j.IsBool()) return false;
  b = j.GetBool();
  return true;
}
bool rj_get(const rapidjson::Value& j, std::int32_t& i) {
  if (!j.IsInt()) return false;
  i = j.GetInt();
  return true;
}
bool rj_get(const rapidjson::Value& j, std::int64_t& i) {
  if (!j.IsInt64()) return false;
  i = j.GetInt64();
  return true;
}
bool rj_get(const rapidjson::Value& j, double& d) {
  if (!j.IsNumber()) return false;
  d = j.GetDouble();
  return true;
}
template <NamedEnum E>
bool rj_get(const rapidjson::Value& j, E& e) {
  return j.IsString() && from_name({j.GetString(), j.GetStringLength()}, e);
}
template <class T>
bool rj_get(const rapidjson::Value& j, std::optional<T>& o) {
  if (j.IsNull()) {
    o.reset();
    return true;
  }
  return rj_get(j, o.emplace());
}
template <class T>
bool rj_get(const rapidjson::Value& j, std::vector<T>& list) {
  if (!j.IsArray()) return false;
  list.resize(j.Size());
  for (rapidjson::SizeType i = 0; i < j.Size(); ++i) {
    if (!rj_get(j[i], list[i])) return false;
  }
  return true;
}
bool rj_get(const rapidjson::Value& j, std::map<std::string, std::string>& m) {
  if (!j.IsObject()) return false;
  m.clear();
  for (const auto& member : j.GetObject()) {
    std::string value;
    if (!rj_get(member.value, value)) return false;
    m.emplace(std::string(member.name.GetString(), member.name.GetStringLength()),
              std::move(value));
  }
  return true;
}
template <Record T>
bool rj_get(const rapidjson::Value& j, T& v) {
  if (!j.IsObject()) return false;
  bool ok = true;
  fields(v, [&](const char* key, auto& member) {
    auto it = j.FindMember(key);
    ok = ok && it != j.MemberEnd() && rj_get(it->value, member);
  });
  return ok;
}

// ---------------------------------------------------------------------------------------------
// nlohmann/json: to_json and from_json through a json value.

template <Record T>
void nl_put(nlohmann::json& j, const T& v);
template <Record T>
void nl_get(const nlohmann::json& j, T& v);

void nl_put(nlohmann::json& j, const std::string& s) { j = s; }
void nl_put(nlohmann::json& j, bool b) { j = b; }
void nl_put(nlohmann::json& j, std::int32_t i) { j = i; }
void nl_put(nlohmann::json& j, std::int64_t i) { j = i; }
void nl_put(nlohmann::json& j, double d) { j = d; }
template <NamedEnum E>
void nl_put(nlohmann::json& j, E e) {
  j = name_of(e);
}
template <class T>
void nl_put(nlohmann::json& j, const std::optional<T>& o) {
  if (o) {
    nl_put(j, *o);
  } else {
    j = nullptr;
  }
}
template <class T>
void nl_put(nlohmann::json& j, const std::vector<T>& list) {
  j = nlohmann::json::array();
  for (const T& e : list) nl_put(j.emplace_back(), e);
}
void nl_put(nlohmann::json& j, const std::map<std::string, std::string>& m) { j = m; }
template <Record T>
void nl_put(nlohmann::json& j, const T& v) {
  j = nlohmann::json::object();
  fields(const_cast<T&>(v), [&](const char* key, const auto& member) { nl_put(j[key], member); });
}

template <class T>
requires std::is_arithmetic_v<T> || std::is_same_v<T, std::string>
void nl_get(const nlohmann::json& j, T& v) { j.get_to(v); }
template <NamedEnum E>
void nl_get(const nlohmann::json& j, E& e) {
  if (!from_name(j.get_ref<const std::string&>(), e)) throw std::invalid_argument("enum");
}
template <class T>
void nl_get(const nlohmann::json& j, std::optional<T>& o) {
  if (j.is_null()) {
    o.reset();
  } else {
    nl_get(j, o.emplace());
  }
}
template <class T>
void nl_get(const nlohmann::json& j, std::vector<T>& list) {
  list.resize(j.size());
  for (std::size_t i = 0; i < list.size(); ++i) nl_get(j.at(i), list[i]);
}
void nl_get(const nlohmann::json& j, std::map<std::string, std::string>& m) { j.get_to(m); }
template <Record T>
void nl_get(const nlohmann::json& j, T& v) {
  fields(v, [&](const char* key, auto& member) { nl_get(j.at(key), member); });
}

// ---------------------------------------------------------------------------------------------
// simdjson On-Demand: each object's fields in the order they come, matched by key.

namespace od = simdjson::ondemand;

template <Record T>
bool sj_get(od::value j, T& v);

bool sj_get(od::value j, std::string& s) {
  std::string_view view;
  if (j.get_string().get(view)) return false;
  s.assign(view);
  return true;
}
bool sj_get(od::value j, bool& b) { return !j.get_bool().get(b); }
bool sj_get(od::value j, std::int32_t& i) {
  std::int64_t wide;
  if (j.get_int64().get(wide) || wide != static_cast<std::int32_t>(wide)) return false;
  i = static_cast<std::int32_t>(wide);
  return true;
}
bool sj_get(od::value j, std::int64_t& i) { return !j.get_int64().get(i); }
bool sj_get(od::value j, double& d) { return !j.get_double().get(d); }
template <NamedEnum E>
bool sj_get(od::value j, E& e) {
  std::string_view view;
  return !j.get_string().get(view) && from_name(view, e);
}
template <class T>
bool sj_get(od::value j, std::optional<T>& o) {
  bool null = false;
  if (j.is_null().get(null)) return false;
  if (null) {
    o.reset();
    return true;
  }
  return sj_get(j, o.emplace());
}
template <class T>
bool sj_get(od::value j, std::vector<T>& list) {
  od::array array;
  if (j.get_array().get(array)) return false;
  std::size_t n = 0;
  for (auto element : array) {
    od::value v;
    if (element.get(v)) return false;
    if (n >= list.size()) list.resize(n + 1);
    if (!sj_get(v, list[n++])) return false;
  }
  list.resize(n);
  return true;
}
bool sj_get(od::value j, std::map<std::string, std::string>& m) {
  od::object object;
  if (j.get_object().get(object)) return false;
  m.clear();
  for (auto field : object) {
    std::string_view key;
    od::value v;
    std::string value;
    if (field.unescaped_key().get(key) || field.value().get(v) || !sj_get(v, value)) return false;
    m.emplace(std::string(key), std::move(value));
  }
  return true;
}
template <Record T>
bool sj_get(od::value j, T& v) {
  od::object object;
  if (j.get_object().get(object)) return false;
  for (auto field : object) {
    std::string_view key;
    od::value value;
    if (field.unescaped_key().get(key) || field.value().get(value)) return false;
    bool ok = true;
    bool found = false;
    fields(v, [&](const char* name, auto& member) {
      if (!found && key == name) {
        found = true;
        ok = sj_get(value, member);
      }
    });
    if (!ok) return false;
  }
  return true;
}

}  // namespace

template <class T>
bool rapidjson_write(const T& value, std::string& out) {
  rapidjson::StringBuffer buffer;
  RjWriter writer(buffer);
  rj_put(writer, value);
  out.assign(buffer.GetString(), buffer.GetSize());
  return true;
}

template <class T>
bool rapidjson_read(std::string_view json, T& out) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  return !doc.HasParseError() && rj_get(doc, out);
}

template <class T>
bool nlohmann_write(const T& value, std::string& out) {
  nlohmann::json j;
  nl_put(j, value);
  out = j.dump();
  return true;
}

template <class T>
bool nlohmann_read(std::string_view json, T& out) {
  try {
    nl_get(nlohmann::json::parse(json), out);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

template <class T>
bool simdjson_read(std::string_view json, T& out) {
  thread_local od::parser parser;
  od::document doc;
  if (parser.iterate(json.data(), json.size(), json.size() + simdjson::SIMDJSON_PADDING).get(doc))
    return false;
  od::value root;
  return !doc.get_value().get(root) && sj_get(root, out);
}

// The payloads the peers bind.
#define JITSER_JSON_PEER(T)                                 \
  template bool rapidjson_write<T>(const T&, std::string&); \
  template bool rapidjson_read<T>(std::string_view, T&);    \
  template bool nlohmann_write<T>(const T&, std::string&);  \
  template bool nlohmann_read<T>(std::string_view, T&);     \
  template bool simdjson_read<T>(std::string_view, T&);
JITSER_JSON_PEER(MediaContent)
JITSER_JSON_PEER(A1)
JITSER_JSON_PEER(Moshi)
JITSER_JSON_PEER(Foo)
JITSER_JSON_PEER(FooImmutable)
JITSER_JSON_PEER(FooWithDefault)
JITSER_JSON_PEER(FooWithValueClass)
JITSER_JSON_PEER(StringList)
JITSER_JSON_PEER(StringMap)
#undef JITSER_JSON_PEER

}  // namespace jitser::bench::json_peers
