#include "typeinfo/schema_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "typeinfo/registry.h"
#include "typeinfo/utf8.h"

namespace jitser {
namespace {

// Type expressions nest (list<optional<...>>); deeper than this is refused rather than
// recursed into, so no schema text can exhaust the stack.
constexpr int kMaxTypeDepth = 64;
// Structs inside structs by value, as deep as this: no codec could go deeper (it counts each
// struct against EngineOptions::max_depth), and what walks them need not guard its stack.
constexpr std::size_t kMaxStructDepth = 256;

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '.'; }

struct Token {
  enum class Type { End, Name, String, Number, Punct };
  Type type = Type::End;
  std::string text;  // Name: as written; String: decoded; Number: as written; Punct: one char
  std::size_t offset = 0;

  bool is(char punct) const { return type == Type::Punct && text.size() == 1 && text[0] == punct; }
  bool is_name(std::string_view name) const { return type == Type::Name && text == name; }
};

// The built-in types, which no declaration may take the name of.
std::optional<Kind> leaf_kind(std::string_view name) {
  static constexpr std::pair<std::string_view, Kind> kLeaves[] = {
      {"bool", Kind::Bool},       {"int8", Kind::Int8},       {"int16", Kind::Int16},
      {"int32", Kind::Int32},     {"int64", Kind::Int64},     {"uint8", Kind::UInt8},
      {"uint16", Kind::UInt16},   {"uint32", Kind::UInt32},   {"uint64", Kind::UInt64},
      {"float32", Kind::Float32}, {"float64", Kind::Float64}, {"string", Kind::String},
      {"bytes", Kind::Bytes},     {"decimal", Kind::Decimal}, {"value", Kind::Dynamic},
  };
  for (const auto& [n, k] : kLeaves) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::optional<Kind> wrapper_kind(std::string_view name) {
  if (name == "list") return Kind::List;
  if (name == "optional") return Kind::Optional;
  if (name == "unique_ptr") return Kind::UniquePtr;
  if (name == "shared_ptr") return Kind::SharedPtr;
  return std::nullopt;
}

bool is_builtin(std::string_view name) {
  return leaf_kind(name) || wrapper_kind(name) || name == "array" || name == "map" ||
         name == "timestamp" || name == "duration";
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<ParsedSchema> parse() {
    if (Status s = tokenize(); !s) return s;
    while (peek().type != Token::Type::End) {
      if (Status s = declaration(); !s) return s;
    }
    if (Status s = bind(); !s) return s;
    if (Status s = check_cycles(); !s) return s;
    return std::move(schema_);
  }

 private:
  // A reference to a declared type, bound once every declaration is known.
  struct Reference {
    TypeDesc* named;
    std::size_t offset;
    std::string path;
  };
  // Where a field's default was written, checked against the field's type once it is bound.
  struct DefaultAt {
    TypeDesc* decl;
    std::size_t field;
    std::size_t offset;
    std::string path;
  };
  // A default written as a name: an enum value, looked up once the enum is known.
  struct EnumDefault {
    TypeDesc* decl;
    std::size_t field;
    std::string value;
    std::size_t offset;
    std::string path;
  };

  // --- errors

  Status error(std::size_t offset, Errc code, const std::string& message,
               std::string path = {}) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) {
        ++column;  // a column per character, not per byte of UTF-8
      }
    }
    return Status(
        code,
        "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message,
        offset, std::move(path));
  }
  Status syntax(const Token& at, const std::string& expected) const {
    const std::string found = at.type == Token::Type::End      ? "the end of the text"
                              : at.type == Token::Type::String ? "a quoted name"
                                                               : "'" + at.text + "'";
    return error(at.offset, Errc::syntax_error, "expected " + expected + ", found " + found);
  }

  // --- tokens

  Status tokenize() {
    std::size_t i = 0;
    const std::size_t n = text_.size();
    if (std::size_t bad = 0;
        !valid_utf8(reinterpret_cast<const std::uint8_t*>(text_.data()), n, &bad)) {
      return error(bad, Errc::invalid_utf8, "the schema text is not UTF-8");
    }
    while (true) {
      while (i < n) {
        const char c = text_[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
          ++i;
        } else if (c == '/' && i + 1 < n && text_[i + 1] == '/') {
          while (i < n && text_[i] != '\n') ++i;
        } else {
          break;
        }
      }
      Token t;
      t.offset = i;
      if (i == n) {
        tokens_.push_back(std::move(t));
        return Status();
      }
      const char c = text_[i];
      if (is_name_start(c)) {
        const std::size_t start = i;
        while (i < n && is_name_char(text_[i])) ++i;
        t.type = Token::Type::Name;
        t.text = std::string(text_.substr(start, i - start));
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        const std::size_t start = i++;
        while (i < n && ((text_[i] >= '0' && text_[i] <= '9') || text_[i] == '.' ||
                         text_[i] == 'e' || text_[i] == 'E' ||
                         ((text_[i] == '+' || text_[i] == '-') &&
                          (text_[i - 1] == 'e' || text_[i - 1] == 'E')))) {
          ++i;
        }
        t.type = Token::Type::Number;
        t.text = std::string(text_.substr(start, i - start));
      } else if (c == '"') {
        t.type = Token::Type::String;
        if (Status s = quoted(i, t.text); !s) return s;
      } else if (std::string_view("{}<>(),:=#?;/").find(c) != std::string_view::npos) {
        t.type = Token::Type::Punct;
        t.text = std::string(1, c);
        ++i;
      } else {
        return error(i, Errc::syntax_error,
                     "unexpected character '" + std::string(text_.substr(i, 1)) + "'");
      }
      tokens_.push_back(std::move(t));
    }
  }

  // A quoted name or string at text_[i] == '"'; leaves i after the closing quote.
  Status quoted(std::size_t& i, std::string& out) {
    const std::size_t start = i++;
    while (true) {
      if (i >= text_.size()) return error(start, Errc::syntax_error, "unterminated string");
      const char c = text_[i];
      if (c == '"') {
        ++i;
        return Status();
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return error(i, Errc::syntax_error, "a control character in a string; write it escaped");
      }
      if (c != '\\') {
        out += c;
        ++i;
        continue;
      }
      if (i + 1 >= text_.size()) return error(start, Errc::syntax_error, "unterminated string");
      const char e = text_[i + 1];
      i += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = 0;
          const auto [end, ec] =
              i + 4 <= text_.size()
                  ? std::from_chars(text_.data() + i, text_.data() + i + 4, code, 16)
                  : std::from_chars_result{nullptr, std::errc::invalid_argument};
          if (ec != std::errc() || end != text_.data() + i + 4 ||
              (code >= 0xD800 && code <= 0xDFFF)) {
            return error(i - 2, Errc::syntax_error,
                         "\\u needs four hex digits of a character outside the surrogates");
          }
          i += 4;
          append_utf8(out, code);
          break;
        }
        default:
          return error(i - 2, Errc::syntax_error,
                       "unknown escape '\\" + std::string(1, e) + "' in a string");
      }
    }
  }

  const Token& peek() const { return tokens_[at_]; }
  const Token& take() { return tokens_[at_ < tokens_.size() - 1 ? at_++ : at_]; }
  bool accept(char punct) {
    if (!peek().is(punct)) return false;
    take();
    return true;
  }
  Status expect(char punct, const char* what) {
    if (accept(punct)) return Status();
    return syntax(peek(), what);
  }
  // A name, plain or quoted.
  Status name(std::string& out, const char* what) {
    const Token& t = peek();
    if (t.type != Token::Type::Name && t.type != Token::Type::String) return syntax(t, what);
    if (t.text.empty()) return error(t.offset, Errc::syntax_error, "an empty name");
    out = take().text;
    return Status();
  }

  // --- declarations

  Status declaration() {
    auto decl = std::make_unique<TypeDesc>();
    const std::size_t at = peek().offset;
    if (Status s = name(decl->name, "a type name"); !s) return s;
    if (is_builtin(decl->name)) {
      return error(at, Errc::invalid_descriptor,
                   "'" + decl->name + "' is a built-in type and cannot be declared");
    }
    if (!declared_.emplace(decl->name, decl.get()).second) {
      return error(at, Errc::duplicate_type, "type '" + decl->name + "' is declared twice");
    }
    if (accept('=')) {
      if (peek().is_name("wrap")) {
        take();
        decl->wrapper = true;
      } else if (peek().is_name("message")) {
        take();
        decl->message = true;
      } else if (peek().is_name("enum")) {
        take();
        decl->kind = Kind::Enum;
        return enum_body(std::move(decl));
      } else {
        return syntax(peek(), "'wrap', 'message' or 'enum' after '='");
      }
    }
    decl->kind = Kind::Struct;
    return struct_body(std::move(decl), at);
  }

  Status enum_body(std::unique_ptr<TypeDesc> decl) {
    if (Status s = expect('(', "'(' and the enum's integer type"); !s) return s;
    const Token& kind = peek();
    const std::optional<Kind> underlying =
        kind.type == Token::Type::Name ? leaf_kind(kind.text) : std::nullopt;
    if (!underlying || !is_integer(*underlying)) return syntax(kind, "an integer type");
    take();
    decl->underlying = *underlying;
    if (Status s = expect(')', "')'"); !s) return s;
    if (Status s = expect('{', "'{'"); !s) return s;
    std::set<std::string> names;
    while (!accept('}')) {
      EnumValue v;
      const std::size_t at = peek().offset;
      if (Status s = name(v.name, "a value name or '}'"); !s) return s;
      if (Status s = expect('=', "'=' and the value's number"); !s) return s;
      const Token& number = peek();
      std::optional<std::int64_t> parsed = integer(number.text);
      if (!parsed && decl->underlying == Kind::UInt64) {
        // Values are kept as int64: the upper half of uint64 is their bit pattern.
        if (std::optional<std::uint64_t> u = unsigned_integer(number.text)) {
          parsed = static_cast<std::int64_t>(*u);
        }
      }
      if (number.type != Token::Type::Number || !parsed) {
        return syntax(number, "an integer");
      }
      if (!fits(decl->underlying, *parsed)) {
        return error(number.offset, Errc::out_of_range,
                     number.text + " does not fit the enum's " + kind_name(decl->underlying),
                     decl->name + "." + v.name);
      }
      take();
      v.value = *parsed;
      if (!names.insert(v.name).second) {
        return error(at, Errc::duplicate_field, "enum value '" + v.name + "' is declared twice",
                     decl->name);
      }
      decl->values.push_back(std::move(v));
      if (!accept(',')) accept(';');
    }
    schema_.types.push_back(std::move(decl));
    return Status();
  }

  // What a struct's body has declared so far, to refuse a name or number given twice.
  struct StructBody {
    TypeDesc& decl;
    std::set<std::string> names;
    std::set<std::uint32_t> numbers;
    std::set<std::string> oneofs;
    std::vector<std::size_t> at_of_field;
  };

  Status oneof_group(StructBody& body) {
    take();
    const std::size_t at = peek().offset;
    std::string group;
    if (Status s = name(group, "the oneof's name"); !s) return s;
    if (!body.oneofs.insert(group).second) {
      return error(at, Errc::duplicate_field, "oneof '" + group + "' is declared twice",
                   body.decl.name + "." + group);
    }
    if (Status s = expect('{', "'{' and the oneof's fields"); !s) return s;
    const std::size_t first = body.decl.fields.size();
    while (!accept('}')) {
      if (Status s = field(body, group); !s) return s;
      if (!accept(',')) accept(';');
    }
    if (body.decl.fields.size() == first) {
      return error(at, Errc::invalid_descriptor, "oneof '" + group + "' has no fields",
                   body.decl.name + "." + group);
    }
    return Status();
  }

  Status field(StructBody& body, const std::string& oneof) {
    FieldDesc f;
    const std::size_t at = peek().offset;
    if (Status s = name(f.name, "a field name or '}'"); !s) return s;
    f.cpp_name = f.name;
    f.oneof = oneof;
    const std::string path = body.decl.name + "." + f.name;
    if (!body.names.insert(f.name).second) {
      return error(at, Errc::duplicate_field, "field '" + f.name + "' is declared twice", path);
    }
    if (accept('/')) {
      const std::size_t alias_at = peek().offset;
      if (Status s = name(f.alias, "the field's second name"); !s) return s;
      if (!body.names.insert(f.alias).second) {
        return error(alias_at, Errc::duplicate_field,
                     "field name '" + f.alias + "' is declared twice", path);
      }
    }
    if (accept('#')) {
      const Token& number = peek();
      const std::optional<std::int64_t> n =
          number.type == Token::Type::Number ? integer(number.text) : std::nullopt;
      if (!n || *n < 1 || *n > std::int64_t{UINT32_MAX}) {
        return syntax(number, "a field number from 1 to 4294967295");
      }
      take();
      f.number = static_cast<std::uint32_t>(*n);
      if (!body.numbers.insert(f.number).second) {
        return error(number.offset, Errc::duplicate_number,
                     "field number " + number.text + " is taken by another field", path);
      }
    }
    if (accept('?')) f.nullable = true;
    if (Status s = expect(':', "':' and the field's type"); !s) return s;
    const std::size_t type_at = peek().offset;
    Result<TypeDesc> type = type_expression(path, 0);
    if (!type) return type.status();
    if (!oneof.empty() && type->kind != Kind::Optional && type->kind != Kind::UniquePtr &&
        type->kind != Kind::SharedPtr) {
      return error(type_at, Errc::invalid_descriptor,
                   "a field of oneof '" + oneof + "' is an optional or a pointer", path);
    }
    f.type = box(std::move(*type), type_at, path);
    // How its integers are written where a format gives a choice (Protobuf's sint, fixed).
    if (peek().is_name("zigzag") || peek().is_name("fixed")) {
      f.encoding = take().text == "zigzag" ? IntEncoding::Zigzag : IntEncoding::Fixed;
    }
    body.at_of_field.push_back(at);
    body.decl.fields.push_back(std::move(f));
    if (accept('=')) {
      if (Status s = default_value(body.decl, body.decl.fields.size() - 1, path); !s) return s;
    }
    return Status();
  }

  Status struct_body(std::unique_ptr<TypeDesc> decl, std::size_t decl_at) {
    if (Status s = expect('{', "'{'"); !s) return s;
    StructBody body{*decl, {}, {}, {}, {}};
    while (!accept('}')) {
      // `oneof` followed by a name opens a group; followed by anything else it is a field name.
      if (peek().is_name("oneof") && tokens_[at_ + 1].type != Token::Type::Punct) {
        if (Status s = oneof_group(body); !s) return s;
      } else if (Status s = field(body, {}); !s) {
        return s;
      }
      if (!accept(',')) accept(';');
    }
    std::vector<std::size_t> at_of_field = std::move(body.at_of_field);
    if (decl->wrapper && decl->fields.size() != 1) {
      return error(decl_at, Errc::invalid_descriptor,
                   "value wrapper '" + decl->name + "' needs exactly one field", decl->name);
    }
    field_offsets_[decl.get()] = std::move(at_of_field);
    schema_.types.push_back(std::move(decl));
    return Status();
  }

  // `= 7`, `= -1.5`, `= "text"`, `= true`, or `= NAME`, a value of the field's enum.
  Status default_value(TypeDesc& decl, std::size_t field, const std::string& path) {
    FieldDesc& f = decl.fields[field];
    const Token& t = peek();
    defaults_.push_back({&decl, field, t.offset, path});
    if (t.type == Token::Type::String) {
      f.default_value = take().text;
    } else if (t.is_name("true") || t.is_name("false")) {
      f.default_value = take().text == "true";
    } else if (t.type == Token::Type::Name) {
      enum_defaults_.push_back({&decl, field, t.text, t.offset, path});
      take();
    } else if (t.type == Token::Type::Number) {
      if (std::optional<std::int64_t> i = integer(t.text)) {
        f.default_value = *i;
      } else if (std::optional<std::uint64_t> u = unsigned_integer(t.text)) {
        f.default_value = *u;
      } else if (std::optional<double> d = floating(t.text)) {
        f.default_value = *d;
      } else {
        return error(t.offset, Errc::syntax_error, "'" + t.text + "' is not a number", path);
      }
      take();
    } else {
      return syntax(t, "a default value");
    }
    return Status();
  }

  static std::optional<std::int64_t> integer(const std::string& s) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
  }
  static std::optional<std::uint64_t> unsigned_integer(const std::string& s) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
  }
  static std::optional<double> floating(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  }

  // --- types

  Result<TypeDesc> type_expression(const std::string& path, int depth) {
    const Token& t = peek();
    if (depth > kMaxTypeDepth) {
      return error(t.offset, Errc::depth_exceeded, "types nested too deeply", path);
    }
    TypeDesc d;
    if (t.type == Token::Type::String) {  // a declared type with a name that is not plain
      d.kind = Kind::Named;
      d.name = take().text;
      return d;
    }
    if (t.type != Token::Type::Name) return syntax(t, "a type");
    const std::string word = take().text;
    if (std::optional<Kind> leaf = leaf_kind(word)) {
      d.kind = *leaf;
      return d;
    }
    if (word == "timestamp" || word == "duration") {
      d.kind = word == "timestamp" ? Kind::Timestamp : Kind::Duration;
      if (Status s = expect('(', "'(' and a unit: s, ms, us or ns"); !s) return s;
      const Token& unit = peek();
      static constexpr std::pair<std::string_view, TimeUnit> kUnits[] = {{"s", TimeUnit::Seconds},
                                                                         {"ms", TimeUnit::Millis},
                                                                         {"us", TimeUnit::Micros},
                                                                         {"ns", TimeUnit::Nanos}};
      bool known = false;
      for (const auto& [n, u] : kUnits) {
        if (unit.is_name(n)) {
          d.unit = u;
          known = true;
        }
      }
      if (!known) return syntax(unit, "a unit: s, ms, us or ns");
      take();
      if (Status s = expect(')', "')'"); !s) return s;
      return d;
    }
    if (std::optional<Kind> wrapper = wrapper_kind(word)) {
      d.kind = *wrapper;
      if (Status s = expect('<', "'<'"); !s) return s;
      if (Status s = element(d.element, path, depth); !s) return s;
      if (Status s = expect('>', "'>'"); !s) return s;
      return d;
    }
    if (word == "array") {
      d.kind = Kind::Array;
      if (Status s = expect('<', "'<'"); !s) return s;
      if (Status s = element(d.element, path, depth); !s) return s;
      if (Status s = expect(',', "',' and the array's length"); !s) return s;
      const Token& count = peek();
      const std::optional<std::int64_t> n =
          count.type == Token::Type::Number ? integer(count.text) : std::nullopt;
      if (!n || *n < 1) return syntax(count, "a length of at least 1");
      take();
      d.count = static_cast<std::size_t>(*n);
      if (Status s = expect('>', "'>'"); !s) return s;
      return d;
    }
    if (word == "map") {
      d.kind = Kind::Map;
      if (Status s = expect('<', "'<'"); !s) return s;
      const std::size_t key_at = peek().offset;
      if (Status s = element(d.key, path, depth); !s) return s;
      keys_.push_back({d.key.get(), key_at, path});
      if (Status s = expect(',', "',' and the map's value type"); !s) return s;
      if (Status s = element(d.element, path, depth); !s) return s;
      if (Status s = expect('>', "'>'"); !s) return s;
      return d;
    }
    d.kind = Kind::Named;
    d.name = word;
    return d;
  }

  Status element(TypeBox& out, const std::string& path, int depth) {
    const std::size_t at = peek().offset;
    Result<TypeDesc> inner = type_expression(path, depth + 1);
    if (!inner) return inner.status();
    out = box(std::move(*inner), at, path);
    return Status();
  }

  // Boxes a type; a reference is remembered, by its address in the box, to be bound later.
  TypeBox box(TypeDesc type, std::size_t at, const std::string& path) {
    TypeBox boxed(std::move(type));
    if (boxed->kind == Kind::Named) references_.push_back({boxed.get(), at, path});
    return boxed;
  }

  // --- after every declaration

  Status bind() {
    for (const Reference& r : references_) {
      const auto target = declared_.find(r.named->name);
      if (target == declared_.end()) {
        return error(r.offset, Errc::unregistered_type,
                     "type '" + r.named->name + "' is not declared", r.path);
      }
      r.named->target = target->second;
    }
    for (const Reference& k : keys_) {
      const TypeDesc& key = k.named->resolved();
      if (key.kind != Kind::String && key.kind != Kind::Enum && !is_integer(key.kind)) {
        return error(k.offset, Errc::invalid_descriptor,
                     "a map key must be a string, an integer or an enum, not " + display_name(key),
                     k.path);
      }
    }
    for (const EnumDefault& d : enum_defaults_) {
      FieldDesc& field = d.decl->fields[d.field];
      const TypeDesc& type = field.type->resolved();
      if (type.kind != Kind::Enum) {
        return error(d.offset, Errc::syntax_error,
                     "'" + d.value + "' is a default only for an enum field", d.path);
      }
      bool found = false;
      for (const EnumValue& v : type.values) {
        if (v.name == d.value) {
          field.default_value = v.value;
          found = true;
        }
      }
      if (!found) {
        return error(d.offset, Errc::unknown_enum,
                     "enum " + type.name + " has no value '" + d.value + "'", d.path);
      }
    }
    for (const DefaultAt& d : defaults_) {
      const FieldDesc& field = d.decl->fields[d.field];
      if (!default_fits(field.type->resolved(), field.default_value)) {
        return error(d.offset, Errc::invalid_descriptor,
                     "a default of the wrong type for " + display_name(*field.type), d.path);
      }
    }
    return Status();
  }

  // A struct that holds itself by value, through fields, arrays, optionals and wrappers, has no
  // finite size. Depth-first over those edges, with a stack of its own (a chain of structs may
  // be as long as the text allows); the field that closes a loop is the error.
  Status check_cycles() {
    enum class Mark { OnPath, Done };
    std::map<const TypeDesc*, Mark> marks;
    struct Frame {
      const TypeDesc* type;
      std::size_t next_field = 0;
    };
    for (const auto& root : schema_.types) {
      if (root->kind != Kind::Struct || marks.count(root.get())) continue;
      std::vector<Frame> path{{root.get()}};
      marks[root.get()] = Mark::OnPath;
      while (!path.empty()) {
        Frame& top = path.back();
        const TypeDesc& t = *top.type;
        if (top.next_field == t.fields.size()) {
          marks[&t] = Mark::Done;
          path.pop_back();
          continue;
        }
        const std::size_t i = top.next_field++;
        const TypeDesc* held = &t.fields[i].type->resolved();
        while (held->kind == Kind::Array || held->kind == Kind::Optional) {
          held = &held->element->resolved();
        }
        if (held->kind != Kind::Struct) continue;
        const auto mark = marks.find(held);
        if (mark == marks.end()) {
          if (path.size() >= kMaxStructDepth) {
            return error(
                field_offsets_.at(&t)[i], Errc::depth_exceeded,
                "structs nested by value more than " + std::to_string(kMaxStructDepth) + " deep",
                t.name + "." + t.fields[i].name);
          }
          marks[held] = Mark::OnPath;
          path.push_back({held});
        } else if (mark->second == Mark::OnPath) {
          const std::string field = t.name + "." + t.fields[i].name;
          return error(field_offsets_.at(&t)[i], Errc::recursive_by_value,
                       "struct " + held->name + " contains itself by value through " + field +
                           "; hold it through a list, map or pointer",
                       field);
        }
      }
    }
    return Status();
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  ParsedSchema schema_;
  std::vector<Reference> references_;
  std::vector<Reference> keys_;
  std::vector<EnumDefault> enum_defaults_;
  std::vector<DefaultAt> defaults_;
  std::map<std::string, const TypeDesc*, std::less<>> declared_;
  std::map<const TypeDesc*, std::vector<std::size_t>> field_offsets_;
};

}  // namespace

const TypeDesc* ParsedSchema::find(std::string_view name) const {
  for (const auto& t : types) {
    if (t->name == name) return t.get();
  }
  return nullptr;
}

Result<ParsedSchema> parse_schema(std::string_view text) { return Parser(text).parse(); }

std::string schema_name(std::string_view name) {
  bool plain = !name.empty() && is_name_start(name[0]);
  for (const char c : name) plain = plain && is_name_char(c);
  if (plain) return std::string(name);
  std::string out = "\"";
  for (const char c : name) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace jitser
