// A large generated set of types, for what registration and compilation cost at scale: a schema
// text (docs/schema.md) of many structs of every kind of field, nested and in containers.
#pragma once

#include <string>
#include <vector>

namespace jitser::bench {

/// A schema text of `count` structs of `fields` fields each, named G0, G1, ... (struct_names).
/// Fields cycle through every kind the schema language has: scalars, strings, bytes, decimals,
/// values, times, lists, arrays, optionals, pointers, maps, enums, and other structs by value
/// and inside containers. Structs refer to others of their group of four only, so each codec
/// covers a few types, as a real schema's do, and not all of them.
std::string generated_schema(int count, int fields);

/// The names of the structs of generated_schema(count, ...).
std::vector<std::string> generated_struct_names(int count);

}  // namespace jitser::bench
