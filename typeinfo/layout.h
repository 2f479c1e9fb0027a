// Memory layouts for types with no C++ definition (types loaded from a schema text).
//
// Such a type is laid out as a C++ compiler lays out the equivalent struct of standard types:
// strings, bytes and Values are std::string, std::vector<std::uint8_t> and jitser::Value; a
// list has std::vector's three pointers, an optional std::optional's value-then-flag, a
// unique_ptr one pointer and a shared_ptr std::shared_ptr<void>, so compiled code, which knows
// those layouts, reads them as it reads a C++ type's. Maps are jitser's own: ordered by key, as
// std::map is, behind the map operations. Every container's operations are shared by all such
// types and learn the element from the descriptor they are given (ValueOps and friends).
//
// Objects of these types hold descriptors of the Engine that made them: destroy them before it.
#pragma once

#include <map>
#include <memory>
#include <string>

#include <jitser/status.h>
#include <jitser/type_desc.h>

#include "typeinfo/schema_text.h"

namespace jitser {

/// The operations tables that laid-out types must not share. A shared reference is checked
/// against the table of the pointer it is read as, so every element type has a SharedOps table
/// of its own, with the same functions.
class LayoutTables {
 public:
  const SharedOps* shared_of(const std::string& element);

 private:
  std::map<std::string, std::unique_ptr<SharedOps>> shared_;
};

/// Gives every declaration of `schema`, and every type inside them, its size, alignment, field
/// offsets and operations, in place. The parser has refused structs that hold themselves by
/// value, so every struct has a finite size.
Status lay_out(ParsedSchema& schema, LayoutTables& tables);

}  // namespace jitser
