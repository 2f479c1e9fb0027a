// What compiled codecs and the host share: the context each call runs in, the entry and
// routine signatures, and the helpers compiled code calls for work not worth emitting as IR
// (growing the buffer, allocation, UTF-8 validation, shared-object identity, map iteration).
// A format's helpers live in its folder and are listed in the table of formats; the JIT
// resolves compiled code's calls to them by name.
//
// Compiled code only decides success or failure; it builds no messages. When it fails, the
// engine runs the interpreter on the same call, which finds the same failure and reports it with
// its code, offset and path. So errors are identical in both tiers by construction, and the hot
// code carries no string building.
//
// The IR the JIT emits must agree with the layouts below; jit::std_layouts_match() checks the
// standard library's when a Compiler starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/buffer.h"
#include "formats/ops.h"
#include "typeinfo/type_desc.h"

namespace jitser {

/// Where a serializer writes: the cursor and the end of the buffer's capacity. A failed write
/// returns a null cursor.
struct WriteSpan {
  std::uint8_t* cursor;
  std::uint8_t* limit;
};

struct WriteContext {
  std::uint32_t depth = 0;  // offset 0: compiled code counts nesting here
  std::uint32_t max_depth = 0;
  Buffer* out = nullptr;
  // Shared objects written so far, keyed by (address, shared_ptr type), as the interpreter does;
  // made by the first shared_ptr written, so calls without any pay nothing for it.
  struct IdentityHash {
    std::size_t operator()(const std::pair<const void*, const SharedOps*>& k) const {
      return std::hash<const void*>()(k.first) * 31 + std::hash<const void*>()(k.second);
    }
  };
  using IdentityMap =
      std::unordered_map<std::pair<const void*, const SharedOps*>, std::uint32_t, IdentityHash>;
  std::unique_ptr<IdentityMap> refs;
  // Formats that write shared objects as copies: those being written, outermost first; one met
  // again is a cycle.
  std::vector<const void*> open;
};

struct ReadContext {
  ReadContext() = default;
  ReadContext(const ReadContext&) = delete;
  ReadContext& operator=(const ReadContext&) = delete;
  ~ReadContext() {
    if (close_input) close_input(input);
  }

  std::uint32_t depth = 0;  // offset 0, as in WriteContext
  std::uint32_t max_depth = 0;
  std::size_t padding = 0;  // bytes past the input's end that may be read
  // Objects read through shared_ptr fields, by reference id, with the type they were read as.
  struct SharedObject {
    std::shared_ptr<void> object;
    const TypeDesc* holder;
  };
  std::vector<SharedObject> refs;
  // A format's state for reading this input (JSON: its simdjson document), made in place by
  // the compiled entry and destroyed with the context by close_input.
  alignas(16) unsigned char input[128];
  void (*close_input)(void* input) = nullptr;
};

/// A compiled routine. Serialize: writes the object at `base`; deserialize: reads into it and
/// returns the input position after the value, or null on failure. A codec's entries have
/// these types in every format: a deserializer returns `end` when it read the whole input.
using WriteFn = WriteSpan (*)(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                              const std::uint8_t* base);
using ReadFn = const std::uint8_t* (*)(ReadContext* ctx, const std::uint8_t* p,
                                       const std::uint8_t* end, std::uint8_t* base);
/// A compiled routine of a format that reads values from slots (JSON): reads the value in
/// `value` into the object at `base`.
using SlotReadFn = bool (*)(ReadContext* ctx, Slot* value, std::uint8_t* base);

/// A helper's name and address, for the JIT's symbol table.
struct HelperSymbol {
  const char* name;
  void* address;
};

extern "C" {
/// Makes room for `need` more bytes after `cursor`, growing the context's buffer.
WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need);
}

}  // namespace jitser
