// The Protobuf format's functions for compiled code (formats/compiled_abi.h): the kernel's
// (protobuf_kernel.cpp), compiled into the library and to the bitcode the JIT inlines, and the
// helpers compiled code calls out of line (protobuf_helpers.cpp), on the same rules as the
// interpreter's operations (protobuf_slot.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> protobuf_helpers();

extern "C" {
// The kernel's functions.
std::uint8_t* jitser_protobuf_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                        bool with_fingerprint, std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_bool(std::uint8_t* out, std::uint8_t v);
std::uint8_t* jitser_protobuf_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                      std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                       std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_float(std::uint8_t* out, float v, std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_double(std::uint8_t* out, double v, std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_string(std::uint8_t* out, const char* data, std::size_t n);
std::uint8_t* jitser_protobuf_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n);
std::uint8_t* jitser_protobuf_put_decimal(std::uint8_t* out, const Decimal* d);
std::uint8_t* jitser_protobuf_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                       std::uint32_t duration, std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op,
                                             std::uint32_t enc);
std::uint8_t* jitser_protobuf_put_end_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op);
WriteSpan jitser_protobuf_close_sized(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      std::uint64_t mark);
bool jitser_protobuf_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                          Slot* root);
bool jitser_protobuf_finish(ReadContext* ctx, Slot* root);
bool jitser_protobuf_get_frame(Slot* s, std::uint64_t fingerprint, bool require);
bool jitser_protobuf_get_bool(Slot* s, std::uint8_t* out);
bool jitser_protobuf_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_protobuf_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_protobuf_get_float(Slot* s, float* out, std::uint32_t enc);
bool jitser_protobuf_get_double(Slot* s, double* out, std::uint32_t enc);
bool jitser_protobuf_get_string(Slot* s, void* out, std::uint32_t allocator);
bool jitser_protobuf_get_bytes(Slot* s, void* list, const TypeDesc* type);
bool jitser_protobuf_get_null(Slot* s, std::uint8_t* is_null);
bool jitser_protobuf_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t* id);
bool jitser_protobuf_begin_object(Slot* value, Slot* iterator);
std::int32_t jitser_protobuf_next_field(Slot* iterator, Slot* value, const char** raw_key,
                                        std::uint32_t max_depth);
std::int32_t jitser_protobuf_find_field(const char* raw_key, const FieldDesc* const* fields,
                                        std::uint32_t n);
bool jitser_protobuf_skip(Slot* value);
bool jitser_protobuf_begin_list(Slot* value, Slot* iterator, std::uint64_t* count, std::uint32_t op,
                                std::uint32_t enc, std::uint32_t min_item_bytes);
std::int32_t jitser_protobuf_next_element(Slot* iterator, Slot* element, std::uint32_t enc);

// The contract's functions out of line.
bool jitser_protobuf_get_decimal(Slot* s, Decimal* d);
bool jitser_protobuf_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit,
                              std::uint32_t duration, std::uint32_t enc);
WriteSpan jitser_protobuf_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      const void* value);
WriteSpan jitser_protobuf_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                          std::uint8_t* limit, const void* list,
                                          const TypeDesc* type, std::size_t n);
WriteSpan jitser_protobuf_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                    const void* map, const TypeDesc* type, std::uint32_t enc,
                                    WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                    std::size_t item_key_size);
bool jitser_protobuf_read_value(ReadContext* ctx, Slot* s, void* value);
bool jitser_protobuf_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t enc,
                                    std::uint32_t append);
bool jitser_protobuf_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                              const Instr* key, std::uint32_t enc, std::uint32_t min_entry,
                              SlotReadFn read_key, SlotReadFn read_value, void* refill);

// What the kernel calls for work not worth inlining.
/// The size of a value of 128 bytes or more at `mark`: the body moves up to make room.
WriteSpan jitser_protobuf_widen_sized(WriteContext* ctx, std::uint8_t* cursor, std::uint64_t mark);
/// Skips the group `number` whose fields start at *p, advancing *p past its end; false when it
/// is malformed.
bool jitser_protobuf_skip_group(const std::uint8_t** p, const std::uint8_t* end,
                                std::uint32_t number, std::uint32_t max_depth);
}

}  // namespace jitser
