#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include <jitser/proto.h>

#include "typeinfo/schema_text.h"

namespace jitser {
namespace {

namespace pb = google::protobuf;

// The user's import paths, then the well-known types, served from the descriptors compiled into
// libprotobuf: a machine needs no .proto files of protobuf's own, as protoc needs none.
class ProtoSources : public pb::compiler::SourceTree {
 public:
  explicit ProtoSources(const std::vector<std::string>& paths) {
    for (const std::string& p : paths) disk_.MapPath("", p);
  }

  // The name under which `file` is imported: relative to the import path that holds it, or,
  // in none, to its own directory, which then becomes the last import path.
  std::string virtual_name(const std::string& file) {
    std::string name, shadowing;
    if (disk_.DiskFileToVirtualFile(file, &name, &shadowing) ==
        pb::compiler::DiskSourceTree::SUCCESS) {
      return name;
    }
    const std::filesystem::path path(file);
    disk_.MapPath("", path.has_parent_path() ? path.parent_path().string() : ".");
    return path.filename().string();
  }

  pb::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    if (pb::io::ZeroCopyInputStream* in = disk_.Open(filename)) return in;
    if (filename.rfind("google/protobuf/", 0) != 0) return nullptr;
    const pb::FileDescriptor* known =
        pb::DescriptorPool::generated_pool()->FindFileByName(filename);
    if (!known) return nullptr;
    texts_.push_back(std::make_unique<std::string>(known->DebugString()));
    const std::string& text = *texts_.back();
    // The SourceTree interface hands the caller ownership of a raw pointer.
    return std::make_unique<pb::io::ArrayInputStream>(text.data(), static_cast<int>(text.size()))
        .release();
  }

  std::string GetLastErrorMessage() override { return disk_.GetLastErrorMessage(); }

 private:
  pb::compiler::DiskSourceTree disk_;
  std::vector<std::unique_ptr<std::string>> texts_;  // what the streams above read
};

std::string where(const std::string& file, int line, int column) {
  if (line < 0) return file + ": ";
  return file + ", line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) +
         ": ";
}

// protoc's first error that has a place (a missing import is reported without one, then at
// the import), or else its first. protoc counts lines and columns from 0.
class FirstError : public pb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& filename, int line, int column,
                const std::string& message) override {
    if (!status.ok() && (located_ || line < 0)) return;
    located_ = line >= 0;
    const Errc code = message.find("is not defined") != std::string::npos ? Errc::unregistered_type
                                                                          : Errc::syntax_error;
    status = Status(code, where(filename, line, column) + message, Status::kNoOffset, filename);
  }

  Status status;

 private:
  bool located_ = false;
};

template <class Descriptor>
std::string place(const Descriptor* d) {
  pb::SourceLocation loc;
  if (!d->GetSourceLocation(&loc)) return where(d->file()->name(), -1, 0);
  return where(d->file()->name(), loc.start_line, loc.start_column);
}

// A well-known message jitser writes as one of its own kinds.
std::optional<std::string> known_kind(const pb::Descriptor* m) {
  static const std::map<std::string_view, const char*> kinds = {
      {"google.protobuf.Timestamp", "timestamp(ns)"},
      {"google.protobuf.Duration", "duration(ns)"},
      {"google.protobuf.Struct", "value"},
      {"google.protobuf.Value", "value"},
      {"google.protobuf.ListValue", "value"},
  };
  if (auto it = kinds.find(m->full_name()); it != kinds.end()) return it->second;
  return std::nullopt;
}

// google.protobuf.Int32Value and friends: an optional of their one value.
std::optional<std::string> wrapped_kind(const pb::Descriptor* m) {
  static const std::map<std::string_view, const char*> kinds = {
      {"google.protobuf.DoubleValue", "float64"}, {"google.protobuf.FloatValue", "float32"},
      {"google.protobuf.Int64Value", "int64"},    {"google.protobuf.UInt64Value", "uint64"},
      {"google.protobuf.Int32Value", "int32"},    {"google.protobuf.UInt32Value", "uint32"},
      {"google.protobuf.BoolValue", "bool"},      {"google.protobuf.StringValue", "string"},
      {"google.protobuf.BytesValue", "bytes"},
  };
  if (auto it = kinds.find(m->full_name()); it != kinds.end()) return it->second;
  return std::nullopt;
}

class Translator {
 public:
  Result<std::string> run(const pb::FileDescriptor* file) {
    if (file->extension_count() > 0) return extension(file->extension(0));
    for (int i = 0; i < file->enum_type_count(); ++i) want(file->enum_type(i));
    for (int i = 0; i < file->message_type_count(); ++i) want_nested(file->message_type(i));
    // Declarations in the order first wanted; what they use is wanted as they are written.
    for (std::size_t i = 0; i < order_.size(); ++i) {
      if (Status s = declare(order_[i]); !s) return s;
    }
    return std::move(text_);
  }

 private:
  using Item = std::variant<const pb::Descriptor*, const pb::EnumDescriptor*>;

  Status extension(const pb::FieldDescriptor* f) {
    return Status(Errc::unsupported,
                  place(f) + "extension '" + f->full_name() +
                      "': jitser does not map extensions; declare the field in the message",
                  Status::kNoOffset, f->full_name());
  }

  void want(const pb::EnumDescriptor* e) {
    if (wanted_.insert(e->full_name()).second) order_.push_back(e);
  }
  void want(const pb::Descriptor* m) {
    if (wanted_.insert(m->full_name()).second) order_.push_back(m);
  }
  void want_nested(const pb::Descriptor* m) {
    if (m->options().map_entry()) return;
    want(m);
    for (int i = 0; i < m->enum_type_count(); ++i) want(m->enum_type(i));
    for (int i = 0; i < m->nested_type_count(); ++i) want_nested(m->nested_type(i));
  }

  Status declare(const Item& item) {
    if (const auto* e = std::get_if<const pb::EnumDescriptor*>(&item)) {
      declare_enum(*e);
      return Status();
    }
    return declare_message(std::get<const pb::Descriptor*>(item));
  }

  void declare_enum(const pb::EnumDescriptor* e) {
    text_ += schema_name(e->full_name()) + " = enum(int32) {";
    std::set<int> values;
    for (int i = 0; i < e->value_count(); ++i) {
      const pb::EnumValueDescriptor* v = e->value(i);
      // An alias (allow_alias) names a value declared before: the first name is the value's.
      if (!values.insert(v->number()).second) continue;
      text_ += " " + schema_name(v->name()) + " = " + std::to_string(v->number()) + ",";
    }
    text_ += " }\n";
  }

  // Fields in the order of their numbers, as Protobuf writes them, but for a oneof's fields,
  // which stay together where the first of them is.
  static std::vector<const pb::FieldDescriptor*> in_number_order(const pb::Descriptor* m) {
    std::vector<const pb::FieldDescriptor*> fields;
    for (int i = 0; i < m->field_count(); ++i) fields.push_back(m->field(i));
    // Field numbers are unique in a message: the order is total.
    std::sort(fields.begin(), fields.end(),
              [](const pb::FieldDescriptor* a, const pb::FieldDescriptor* b) {
                return a->number() < b->number();
              });
    std::vector<const pb::FieldDescriptor*> out;
    std::set<const pb::OneofDescriptor*> placed;
    for (const pb::FieldDescriptor* f : fields) {
      const pb::OneofDescriptor* oneof = f->real_containing_oneof();
      if (!oneof) {
        out.push_back(f);
      } else if (placed.insert(oneof).second) {
        for (const pb::FieldDescriptor* g : fields) {
          if (g->real_containing_oneof() == oneof) out.push_back(g);
        }
      }
    }
    return out;
  }

  Status declare_message(const pb::Descriptor* m) {
    if (m->extension_count() > 0) return extension(m->extension(0));
    text_ += schema_name(m->full_name()) + " = message {\n";
    const pb::OneofDescriptor* open = nullptr;
    for (const pb::FieldDescriptor* f : in_number_order(m)) {
      const pb::OneofDescriptor* oneof = f->real_containing_oneof();
      if (open && oneof != open) text_ += "  }\n";
      if (oneof && oneof != open) text_ += "  oneof " + schema_name(oneof->name()) + " {\n";
      open = oneof;
      Result<std::string> type = field_type(m, f);
      if (!type) return type.status();
      text_ += open ? "    " : "  ";
      // The JSON name (lowerCamelCase, or json_name) is the field's name; readers accept the
      // field's own name too.
      text_ += schema_name(f->json_name());
      if (f->json_name() != f->name()) text_ += "/" + schema_name(f->name());
      text_ += " #" + std::to_string(f->number());
      // Input may leave out any field but a required one: what has no presence (a proto3
      // scalar, a list, a map) then reads as its zero value, as Protobuf's readers do.
      const bool holder = type->rfind("optional<", 0) == 0 || type->rfind("unique_ptr<", 0) == 0;
      if (!f->is_required() && !holder) text_ += "?";
      text_ += ": " + *type + encoding(f) + "\n";
    }
    if (open) text_ += "  }\n";
    text_ += "}\n";
    return Status();
  }

  // The keyword that makes the Protobuf format write the field's integers as the .proto says:
  // a map's value decides for a map, whose keys are written as varints.
  static std::string encoding(const pb::FieldDescriptor* f) {
    using T = pb::FieldDescriptor;
    const pb::FieldDescriptor* v = f->is_map() ? f->message_type()->map_value() : f;
    switch (v->type()) {
      case T::TYPE_SINT32:
      case T::TYPE_SINT64: return " zigzag";
      case T::TYPE_FIXED32:
      case T::TYPE_FIXED64:
      case T::TYPE_SFIXED32:
      case T::TYPE_SFIXED64: return " fixed";
      default: return "";
    }
  }

  Result<std::string> field_type(const pb::Descriptor* owner, const pb::FieldDescriptor* f) {
    if (f->is_map()) {
      const pb::FieldDescriptor* key = f->message_type()->map_key();
      if (encoding(key) != "") {
        return Status(Errc::unsupported,
                      place(f) + "field '" + f->full_name() +
                          "' is a map whose keys are sint or fixed integers, which jitser "
                          "writes as varints; declare them int32, int64, uint32 or uint64",
                      Status::kNoOffset, f->full_name());
      }
      if (key->type() == pb::FieldDescriptor::TYPE_BOOL) {
        return Status(Errc::unsupported,
                      place(f) + "field '" + f->full_name() +
                          "' is a map with bool keys, which jitser's maps do not have",
                      Status::kNoOffset, f->full_name());
      }
      Result<std::string> k = value_type(key);
      if (!k) return k;
      Result<std::string> v = value_type(f->message_type()->map_value());
      if (!v) return v;
      return "map<" + *k + ", " + *v + ">";
    }
    Result<std::string> t = value_type(f);
    if (!t) return t;
    if (f->is_repeated()) return "list<" + *t + ">";
    const pb::Descriptor* m = f->message_type();
    const bool plain_message = m && !known_kind(m) && !wrapped_kind(m);
    // A message held by value would make a type that reaches itself infinite: one that can get
    // back to the field's message is held through a pointer.
    if (plain_message && reaches(m, owner)) return "unique_ptr<" + *t + ">";
    if (f->is_required()) return t;
    // Struct, Value and ListValue: a jitser::Value, whose null is its absence.
    if (m && known_kind(m) == "value" && !f->real_containing_oneof()) return t;
    if (f->has_presence()) return "optional<" + *t + ">";
    return t;
  }

  // The type of one value of the field: an element, a map's key or value, or the field itself.
  Result<std::string> value_type(const pb::FieldDescriptor* f) {
    using T = pb::FieldDescriptor;
    switch (f->type()) {
      case T::TYPE_DOUBLE: return std::string("float64");
      case T::TYPE_FLOAT: return std::string("float32");
      case T::TYPE_INT64:
      case T::TYPE_SINT64:
      case T::TYPE_SFIXED64: return std::string("int64");
      case T::TYPE_UINT64:
      case T::TYPE_FIXED64: return std::string("uint64");
      case T::TYPE_INT32:
      case T::TYPE_SINT32:
      case T::TYPE_SFIXED32: return std::string("int32");
      case T::TYPE_UINT32:
      case T::TYPE_FIXED32: return std::string("uint32");
      case T::TYPE_BOOL: return std::string("bool");
      case T::TYPE_STRING: return std::string("string");
      case T::TYPE_BYTES: return std::string("bytes");
      case T::TYPE_ENUM: want(f->enum_type()); return schema_name(f->enum_type()->full_name());
      case T::TYPE_MESSAGE: {
        const pb::Descriptor* m = f->message_type();
        if (std::optional<std::string> k = known_kind(m)) return *k;
        if (std::optional<std::string> k = wrapped_kind(m)) return *k;
        want(m);
        return schema_name(m->full_name());
      }
      case T::TYPE_GROUP:
        return Status(Errc::unsupported,
                      place(f) + "field '" + f->full_name() +
                          "' is a group, which jitser does not map; declare a message field",
                      Status::kNoOffset, f->full_name());
    }
    return Status(Errc::unsupported,
                  place(f) + "field '" + f->full_name() + "' has a type " + "jitser does not know");
  }

  // Whether `from` holds `to` by value, through singular message fields held by value.
  bool reaches(const pb::Descriptor* from, const pb::Descriptor* to) {
    std::set<const pb::Descriptor*> seen;
    std::vector<const pb::Descriptor*> stack{from};
    while (!stack.empty()) {
      const pb::Descriptor* m = stack.back();
      stack.pop_back();
      if (m == to) return true;
      if (!seen.insert(m).second) continue;
      for (int i = 0; i < m->field_count(); ++i) {
        const pb::FieldDescriptor* f = m->field(i);
        const pb::Descriptor* held = f->message_type();
        if (held && !f->is_repeated() && !known_kind(held) && !wrapped_kind(held)) {
          stack.push_back(held);
        }
      }
    }
    return false;
  }

  std::set<std::string> wanted_;
  std::vector<Item> order_;
  std::string text_;
};

}  // namespace

Result<std::string> proto_schema_text(const std::string& file,
                                      const std::vector<std::string>& import_paths) {
  ProtoSources sources(import_paths);
  FirstError errors;
  pb::compiler::Importer importer(&sources, &errors);
  const pb::FileDescriptor* parsed = importer.Import(sources.virtual_name(file));
  if (!errors.status.ok()) return errors.status;
  if (!parsed) {
    return Status(Errc::unknown_type, file + ": cannot read it: " + sources.GetLastErrorMessage());
  }
  return Translator().run(parsed);
}

Status load_proto(Engine& engine, const std::string& file,
                  const std::vector<std::string>& import_paths) {
  Result<std::string> text = proto_schema_text(file, import_paths);
  if (!text) return text.status();
  if (Status s = engine.load_schema(*text); !s) {
    return Status(s.code(), file + ": " + s.message(), s.offset(), s.path());
  }
  return Status();
}

}  // namespace jitser
