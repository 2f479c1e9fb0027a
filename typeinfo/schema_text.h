// jitser's schema language (docs/schema.md): the text Engine::schema_text prints, which people
// may also write, with spaces, comments and defaults. Schema files are untrusted input: every
// error is a Status that names the line and column, never a crash.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include <jitser/export.h>
#include <jitser/status.h>
#include <jitser/type_desc.h>

namespace jitser {

/// The structs and enums a schema text declares, in the order written. A field whose type is
/// another declared type holds a Named descriptor bound to it (TypeDesc::target), so
/// canonical_text and fingerprint work on them. Nothing is laid out: sizes, offsets and
/// operations are left to whatever gives the types a memory layout.
struct ParsedSchema {
  std::vector<std::unique_ptr<TypeDesc>> types;  // stable addresses: references point at them

  /// The declaration of that name, or null.
  const TypeDesc* find(std::string_view name) const;
};

/// Parses a schema text. Besides syntax it checks what it can point at: a type declared twice,
/// two fields with one name or number, a reference to an undeclared type, a map key that is not
/// a string, integer or enum, a value wrapper without exactly one field, and a struct that
/// contains itself by value.
Result<ParsedSchema> parse_schema(std::string_view text);

/// `name` as the schema language writes it: as it is when it is a plain name (letters, digits,
/// `_` and `.`, not starting with a digit), otherwise quoted with escapes. Exported from
/// libjitser.so, though not a public header's, because libjitser_proto writes schema text too.
JITSER_API std::string schema_name(std::string_view name);

}  // namespace jitser
