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
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <jitser/buffer.h>
#include <jitser/type_desc.h>

#include "formats/ops.h"

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

/// Where compiled code finds WriteContext::out, and in the Buffer its data pointer (offset 0),
/// the origin of the offsets at which formats that size values left room for a size.
inline constexpr std::size_t kWriteContextOut = 8;

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
  // Compiled code met input it leaves to the interpreter (jitser_rt_decline): the failure it
  // returns is not one, and the engine reads the input again with the interpreter.
  bool declined = false;
  // The root's memory resource, when it was made with one: shared objects are made there.
  std::pmr::memory_resource* resource = nullptr;
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

/// The helpers below, which every format's compiled code may call.
std::span<const HelperSymbol> runtime_helpers();

extern "C" {
/// Makes room for `need` more bytes after `cursor`, growing the context's buffer.
WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need);
/// Formats that keep identity: the reference id of a shared object written before, or -1 for
/// one met the first time (which gets the next id).
std::int64_t jitser_rt_shared_id(WriteContext* ctx, const void* object, const SharedOps* ops);
/// Formats that copy shared objects: starts writing `object`, false when it is being written
/// already (a cycle); close_shared ends the last one started.
bool jitser_rt_open_shared(WriteContext* ctx, const void* object);
void jitser_rt_close_shared(WriteContext* ctx);
/// Checks the n bytes at p are UTF-8 and makes them the String at s (of `allocator`, an
/// Allocator); false when they are not UTF-8.
bool jitser_rt_assign_text(void* s, std::uint32_t allocator, const std::uint8_t* p, std::size_t n);
/// Makes the byte vector at `list`, of `type`, the n bytes at p.
void jitser_rt_assign_bytes(void* list, const TypeDesc* type, const std::uint8_t* p, std::size_t n);
/// Whether the field holding `slot` is left out (formats/field_default.h, left_out).
bool jitser_rt_omit(const FieldDesc* field, const void* slot, std::uint32_t omit_null,
                    std::uint32_t omit_default, std::uint32_t omit_empty);
}

/// The room a WriteSpan has for `need` more bytes after `cursor`, grown when it has not.
inline WriteSpan room_for(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                          std::size_t need) {
  if (static_cast<std::size_t>(limit - cursor) >= need) return {cursor, limit};
  return jitser_rt_grow(ctx, cursor, need);
}

/// For formats whose maps state their count first (binary, MessagePack), after the count: each
/// entry of the map, its key then its value, written by their routines.
WriteSpan write_entries(WriteContext* ctx, WriteSpan span, const void* map, const TypeDesc* type,
                        WriteFn key, WriteFn value);
/// And read: n entries, each a key then a value read from `s` by their routines, refilling the
/// map (typeinfo/map_refill.h). False when a routine fails or a key comes twice.
bool read_entries(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type, std::uint64_t n,
                  SlotReadFn key, SlotReadFn value);

/// What a kernel's get_shared says a shared_ptr's encoding holds.
inline constexpr std::uint32_t kSharedNull = 0;     // no object
inline constexpr std::uint32_t kSharedNew = 1;      // an object follows
inline constexpr std::uint32_t kSharedEarlier = 2;  // the object read before with the given id

extern "C" {
/// Reading a shared_ptr at `holder` of `type`: the object read before with reference id `id`,
/// false for an id never given or an object of another layout; or a new object, registered
/// for later references in formats that keep identity, to read the value into.
bool jitser_rt_shared_earlier(ReadContext* ctx, void* holder, const TypeDesc* type,
                              std::uint32_t id);
void* jitser_rt_shared_new(ReadContext* ctx, void* holder, const TypeDesc* type,
                           std::uint32_t identity);
/// A field the input left out: its default, or false when it is required.
bool jitser_rt_missing(const FieldDesc* field, void* slot);
/// The same in formats where no field is required (FormatTraits::repeated_keys): its default,
/// else empty or zero.
void jitser_rt_absent(const FieldDesc* field, void* slot);
/// Leaves this input to the interpreter, for a path compiled code does not take (a message
/// that appears twice and merges); returns false, which compiled code returns too.
bool jitser_rt_decline(ReadContext* ctx);
/// Formats that write fields only when they hold something other than what a reader makes of
/// them absent (PlanField::omit_absent): whether the field at `slot` is left out.
bool jitser_rt_absent_value(const FieldDesc* field, const void* slot);
/// Written or read: false when two fields of one oneof of the struct at `base` hold a value.
bool jitser_rt_oneofs(const TypeDesc* type, const void* base);
}

/// The kernel contract: what compiled code calls a format's functions by, as
/// `jitser_<format>_<name>`. Each is in the format's kernel, which compiled code inlines, or a
/// helper of the format. A put writes one value at `out` into room the caller reserved (as the
/// format's WriteBound says) and returns the end, or null for a value the format refuses:
///
///   put_frame(out, u64 fingerprint, bool with_fingerprint, u32 enc)   the framing before the root
///   put_bool(out, u8 v)            put_enum(out, i64 v)      (Plans writing closed enums as
///                                  integers; open ones are written by put_int and put_uint)
///   put_int(out, i64 v, u32 width, u32 enc)   put_uint(out, u64 v, u32 width, u32 enc)
///   put_float(out, float v, u32 enc)   put_double(out, double v, u32 enc)
///   put_string(out, const char* data, size_t n)    data: a String's storage (16 readable)
///   put_bytes(out, const u8* data, size_t n)
///   put_decimal(out, const Decimal* d)
///   put_time(out, i64 ticks, u32 unit, u32 is_duration, u32 enc)
///   put_begin_list(out, u64 n, u32 op, u32 enc)   put_end_list(out, u64 n, u32 op)
///   put_shared_ref(out, u32 id)    (formats that keep identity)
///
/// and, for values whose size is known only by walking them, with a WriteSpan of their own:
///
///   write_value(ctx, cursor, limit, const Value*)
///   write_map(ctx, cursor, limit, const void* map, const TypeDesc*, u32 enc, WriteFn key,
///             WriteFn value, const u8* item_key, size_t item_key_size)   item_key: the field's
///             key, written before each entry (PlanField::key_per_item), else empty
///   close_sized(ctx, cursor, limit, u64 mark)   formats that size values (size_reserve): fills
///             in the size of what follows the room left at offset `mark` of the output
///   write_bool_list(ctx, cursor, limit, const void* list, const TypeDesc*, u64 n)  the elements
///
/// A reader works on Slots (formats/ops.h) that only the format reads: a value, an iterator, or
/// in positional formats the input left, from which fields and elements are read in turn. Each
/// returns false when the input is not what the Plan says, and compiled code then lets the
/// interpreter find out why:
///
///   open(ctx, const u8* p, const u8* end, Slot* root)   finish(ctx, Slot* root)
///   get_frame(Slot*, u64 fingerprint, bool require)
///   get_bool(Slot*, u8* out)       get_enum(Slot*, i64* out)   (Plans reading closed enums
///                                  as integers; open ones are read by get_int and get_uint)
///   get_int(Slot*, i64* out, u32 width, u32 enc)   get_uint(Slot*, u64* out, u32 width, u32 enc)
///                                  (a value that does not fit `width` bytes fails)
///   get_float(Slot*, float* out, u32 enc)   get_double(Slot*, double* out, u32 enc)
///   get_string(Slot*, void* out, u32 allocator)   (out: a String of that Allocator)
///   get_bytes(Slot*, void* list, const TypeDesc*)
///   get_text(Slot*, const char** data, size_t* n)   (Plans reading enums by name: the text,
///                                  with 8 bytes readable past it)
///   get_decimal(Slot*, Decimal*)
///   get_time(Slot*, i64* ticks, u32 unit, u32 is_duration, u32 enc)
///   get_null(Slot*, u8* is_null)   get_shared(Slot*, u32* ref, u32* id)   (kShared*)
///   begin_list(Slot*, Slot* iterator, u64* count, u32 op, u32 enc, u32 min_item_bytes)
///                                  count-prefixed formats set *count (an array's is preset)
///   next_element(Slot* iterator, Slot* element, u32 enc) -> i32   1 an element, 0 the end,
///                                  -1 failure; enc: the list's. In formats with repeated
///                                  keys begin_list gives each appearance's count, and
///                                  next_element is called that many times
///   keyed formats: begin_object(Slot*, Slot* iterator),
///                  next_field(Slot* iterator, Slot* value, const char** raw_key,
///                             u32 max_depth) -> i32   (max_depth bounds what it skips whole),
///                  find_field(const char* raw_key, const FieldDesc* const*, u32 n) -> i32
///                  (the field a key names when its raw bytes matched no PlanField::match:
///                  -1 none, -2 malformed), skip(Slot* value);
///                  optionally expect_field(Slot* iterator, Slot* value, const char* key,
///                  u32 key_size) -> bool: when the next field's key is `key` as written
///                  (PlanField::key), reads it as next_field would and returns true, else
///                  leaves the iterator as it was; compiled code tries the key of the field
///                  expected next with it before next_field
///   positional formats that count an object's fields (FormatTraits::counted_objects):
///                  begin_fields(Slot*, u32 n): the head of an object, which must count n
///   optionally copy_elements(Slot* iterator, void* first, u64 n, u32 op, u32 width, u32 enc)
///                  -> bool: when the n elements begin_list counted lie in the input as the
///                  list's numbers (Instr op and width) lie in memory, copies them to `first`
///                  and returns true, else returns false and compiled code reads them by
///                  next_element
///
/// A raw key is readable 8 bytes past the length of any PlanField::match it is compared with.
/// And, out of line:
///
///   read_value(ctx, Slot*, Value*)
///   read_bool_list(Slot*, void* list, const TypeDesc*, u32 enc, u32 append)   the list read
///            replaces what it held, or with `append` (a later appearance of its field, in
///            formats with repeated keys) adds to it
///   read_map(ctx, Slot*, void* map, const TypeDesc*, const Instr* key, u32 enc, u32 min_entry,
///            SlotReadFn key, SlotReadFn value, void* refill)   in formats with repeated
///            keys, one appearance of the field, whose entries replace those of the same key,
///            read into the map's refill (MapOps), which compiled code begins at the field's
///            first appearance and ends after the object; elsewhere refill is null

}  // namespace jitser
