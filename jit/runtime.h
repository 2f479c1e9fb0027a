// What the JIT adds to the contract between compiled codecs and the host
// (formats/compiled_abi.h): the check that the standard library lays out its containers as
// compiled code reads them, and the table of helpers compiled code calls by name.
#pragma once

#include <vector>

#include "formats/compiled_abi.h"

namespace jitser::jit {

/// Compiled code reads the standard library's containers in place, as libstdc++ lays them out:
///   std::string     {char* data; size_t size; union {char local[16]; size_t capacity;}}
///   std::vector<T>  {T* begin; T* end; T* end_of_storage}
///   unique_ptr<T>, shared_ptr<T>: the T* first;  std::optional<T>: {T value; bool engaged}
/// It also counts nesting in the first field of its contexts. This checks those layouts in the
/// running program; the JIT refuses to start without them.
bool std_layouts_match();

/// Every helper compiled code may call: the buffer's growth and each format's.
std::vector<HelperSymbol> helper_symbols();

}  // namespace jitser::jit
