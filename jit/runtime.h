// The contract between compiled codecs and the host: the context each call runs in, the entry
// signatures, and the native helpers compiled code calls for work that is not worth emitting as
// IR (allocation, UTF-8 validation, shared-object identity, map iteration).
//
// Compiled code only decides success or failure; it builds no messages. When it fails, the
// engine runs the interpreter on the same call, which finds the same failure and reports it with
// its code, offset and path. So errors are identical in both tiers by construction, and the hot
// code carries no string building.
//
// Both sides of this contract are compiled by the host compiler, except the IR emitted in
// jit/plan_to_ir.cpp, which must agree with the layouts below; std_layouts_match() checks them
// when a Compiler starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/buffer.h"
#include "formats/plan.h"
#include "typeinfo/type_desc.h"

namespace jitser {
struct Slot;
namespace json {
using Slot = ::jitser::Slot;
}  // namespace json
}  // namespace jitser

namespace jitser::jit {

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
  // JSON: the shared objects being written, outermost first; one met again is a cycle.
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

/// A compiled JSON routine: reads the value in `value` into the object at `base`.
using JsonReadFn = bool (*)(ReadContext* ctx, json::Slot* value, std::uint8_t* base);

extern "C" {
// Serialize helpers.
WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need);
/// The reference id of an object written before, or -1 after recording it as new.
std::int64_t jitser_rt_shared_id(WriteContext* ctx, const void* object, const SharedOps* ops);
WriteSpan jitser_rt_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                    const void* list, const ListOps* ops, std::size_t n);
WriteSpan jitser_rt_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                              const void* map, const MapOps* ops, std::uint8_t header, WriteFn key,
                              WriteFn value);
/// A jitser::Value, nested at most max_depth - depth levels further.
WriteSpan jitser_rt_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                const void* value);

// Deserialize helpers.
/// Checks the bytes are UTF-8 and assigns them to the std::string at `s`.
bool jitser_rt_assign_string(void* s, const std::uint8_t* p, std::size_t n);
void jitser_rt_assign_bytes(void* list, const ListOps* ops, const std::uint8_t* p, std::size_t n);
const std::uint8_t* jitser_rt_read_time(const std::uint8_t* p, const std::uint8_t* end,
                                        std::uint32_t unit, std::int64_t* ticks);
/// Reads a shared_ptr's flag (and reference id). Sets *fill to the new object whose fields come
/// next, or null when the flag said null or referred to an object read before.
const std::uint8_t* jitser_rt_read_shared(ReadContext* ctx, const std::uint8_t* p,
                                          const std::uint8_t* end, void* holder,
                                          const TypeDesc* type, void** fill);
const std::uint8_t* jitser_rt_read_bool_list(const std::uint8_t* p, const std::uint8_t* end,
                                             void* list, const ListOps* ops, std::size_t n);
const std::uint8_t* jitser_rt_read_value(ReadContext* ctx, const std::uint8_t* p,
                                         const std::uint8_t* end, void* value);
const std::uint8_t* jitser_rt_read_map(ReadContext* ctx, const std::uint8_t* p,
                                       const std::uint8_t* end, void* map, const TypeDesc* type,
                                       std::uint8_t header, std::uint32_t min_entry, ReadFn key,
                                       ReadFn value);

// JSON serialize helpers: the primitives of formats/json/json_write.h, each writing at `out`
// into room the caller reserved and returning the end, or null when the value has no JSON form.
char* jitser_rt_json_int(char* out, std::int64_t v);
char* jitser_rt_json_uint(char* out, std::uint64_t v);
char* jitser_rt_json_double(char* out, double v);
char* jitser_rt_json_float(char* out, float v);
char* jitser_rt_json_string(char* out, const char* data, std::size_t n);
/// put_string itself, for a string with bytes to escape or check as UTF-8.
char* jitser_rt_json_escaped_string(char* out, const char* data, std::size_t n);
char* jitser_rt_json_base64(char* out, const std::uint8_t* data, std::size_t n);
char* jitser_rt_json_decimal(char* out, const Decimal* d);
char* jitser_rt_json_time(char* out, std::int64_t ticks, std::uint32_t unit,
                          std::uint32_t duration);
WriteSpan jitser_rt_json_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                     const void* value);
WriteSpan jitser_rt_json_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                         std::uint8_t* limit, const void* list, const ListOps* ops);
/// `{key:value,...}`, keys and values by the compiled routines, one level deeper.
WriteSpan jitser_rt_json_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                   const void* map, const MapOps* ops, WriteFn key, WriteFn value);
/// Marks a shared object as being written; false when it already is (a cycle).
bool jitser_rt_json_open_shared(WriteContext* ctx, const void* object);
void jitser_rt_json_close_shared(WriteContext* ctx);
bool jitser_rt_json_omit(const FieldDesc* field, const void* slot, std::uint32_t omit_null,
                         std::uint32_t omit_default);

// JSON deserialize helpers, over the slots of formats/json/json_read.h; false on failure.
/// Opens the input [p, end) as the context's document and sets `root` to its value.
bool jitser_rt_json_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                         json::Slot* root);
/// After the root value: true when only whitespace is left.
bool jitser_rt_json_finish(ReadContext* ctx);
bool jitser_rt_json_begin_object(json::Slot* value, json::Slot* iterator);
/// 1 and the raw key (after its opening quote) with the field's value in `value`; 0 after
/// the last field; -1 on failure.
std::int32_t jitser_rt_json_next_field(json::Slot* iterator, json::Slot* value,
                                       const char** raw_key);
/// For a key no compiled compare matched: the index in `fields` (n of them) of the field its
/// unescaped text names, -1 for none, -2 for a malformed key.
std::int32_t jitser_rt_json_find_field(const char* raw_key, const FieldDesc* const* fields,
                                       std::uint32_t n);
bool jitser_rt_json_missing(const FieldDesc* field, void* slot);
bool jitser_rt_json_begin_array(json::Slot* value, json::Slot* iterator);
/// 1 with the element in `value`; 0 after the last; -1 on failure.
std::int32_t jitser_rt_json_next_element(json::Slot* iterator, json::Slot* value);
bool jitser_rt_json_take_null(json::Slot* value, bool* was_null);
bool jitser_rt_json_get_bool(json::Slot* value, std::uint8_t* out);
bool jitser_rt_json_get_int(json::Slot* value, std::int64_t* out);
bool jitser_rt_json_get_uint(json::Slot* value, std::uint64_t* out);
bool jitser_rt_json_get_double(json::Slot* value, double* out);
/// The unescaped string, valid until the document ends (strings and enum names, read in line).
bool jitser_rt_json_get_string(json::Slot* value, const char** data, std::size_t* size);
/// Assigns a string longer than compiled code stores in line.
void jitser_rt_json_assign_string(void* s, const char* data, std::size_t n);
bool jitser_rt_json_read_bytes(json::Slot* value, void* list, const ListOps* ops);
bool jitser_rt_json_read_decimal(json::Slot* value, void* p);
bool jitser_rt_json_read_time(json::Slot* value, void* p, std::uint32_t unit,
                              std::uint32_t duration);
bool jitser_rt_json_read_value(ReadContext* ctx, json::Slot* value, void* p);
bool jitser_rt_json_read_bool_list(json::Slot* value, void* list, const ListOps* ops);
/// An object into a map: keys by json::read_key as `key` says, values by the compiled routine.
bool jitser_rt_json_read_map(ReadContext* ctx, json::Slot* value, void* map, const TypeDesc* type,
                             const Instr* key, JsonReadFn read_value);
}

/// Compiled code reads the standard library's containers in place, as libstdc++ lays them out:
///   std::string     {char* data; size_t size; union {char local[16]; size_t capacity;}}
///   std::vector<T>  {T* begin; T* end; T* end_of_storage}
///   unique_ptr<T>, shared_ptr<T>: the T* first;  std::optional<T>: {T value; bool engaged}
/// It also counts nesting in the first field of its contexts. This checks those layouts in the
/// running program; the JIT refuses to start without them.
bool std_layouts_match();

/// A helper's name and address, for the JIT's symbol table.
struct HelperSymbol {
  const char* name;
  void* address;
};
std::vector<HelperSymbol> helper_symbols();

}  // namespace jitser::jit
