// JSON's helpers for compiled code, by name and address (formats/compiled_abi.h); those of the
// kernel (json_kernel.cpp) are declared here for the helpers and the table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> json_helpers();

extern "C" {
// The kernel's functions, compiled into the library and to the bitcode the JIT inlines.
std::uint8_t* jitser_json_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                    bool with_fingerprint, std::uint32_t enc);
std::uint8_t* jitser_json_put_bool(std::uint8_t* out, std::uint8_t v);
std::uint8_t* jitser_json_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                  std::uint32_t enc);
std::uint8_t* jitser_json_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                   std::uint32_t enc);
std::uint8_t* jitser_json_put_string(std::uint8_t* out, const char* data, std::size_t n);
std::uint8_t* jitser_json_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op,
                                         std::uint32_t enc);
std::uint8_t* jitser_json_put_end_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op);
bool jitser_json_begin_object(Slot* value, Slot* iterator);
std::int32_t jitser_json_next_field(Slot* iterator, Slot* value, const char** raw_key,
                                    std::uint32_t max_depth);
bool jitser_json_begin_list(Slot* value, Slot* iterator, std::uint64_t* count, std::uint32_t op,
                            std::uint32_t enc, std::uint32_t min_item_bytes);
std::int32_t jitser_json_next_element(Slot* iterator, Slot* value, std::uint32_t enc);
bool jitser_json_skip(Slot* value);
bool jitser_json_get_frame(Slot* value, std::uint64_t fingerprint, bool require);
bool jitser_json_get_null(Slot* value, std::uint8_t* is_null);
bool jitser_json_get_shared(Slot* value, std::uint32_t* ref, std::uint32_t* id);
bool jitser_json_get_bool(Slot* value, std::uint8_t* out);
bool jitser_json_get_int(Slot* value, std::int64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_json_get_uint(Slot* value, std::uint64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_json_get_double(Slot* value, double* out, std::uint32_t enc);
bool jitser_json_get_float(Slot* value, float* out, std::uint32_t enc);
/// Numbers of a Protobuf message's fields (json::kProto), out of line: json_read.h's
/// get_proto_int and friends, with the width check of get_int and get_uint.
bool jitser_json_get_proto_int(Slot* value, std::int64_t* out, std::uint32_t width);
bool jitser_json_get_proto_uint(Slot* value, std::uint64_t* out, std::uint32_t width);
bool jitser_json_get_proto_double(Slot* value, double* out);
/// Why a number did not read as json_slot.h's NumberRead `read` asked (json_read.h's get_int
/// and friends say what each reason means): the slow path under every number read, compiled
/// into the library alone rather than into every codec that reads a number.
Errc jitser_json_number_error(Slot* value, std::uint8_t read);
bool jitser_json_get_text(Slot* value, const char** data, std::size_t* size);
bool jitser_json_get_string(Slot* value, void* out, std::uint32_t allocator);
// The contract's functions that are helpers (formats/compiled_abi.h), out of line.
bool jitser_json_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end, Slot* root);
bool jitser_json_finish(ReadContext* ctx, Slot* root);
std::uint8_t* jitser_json_put_double(std::uint8_t* out, double v, std::uint32_t enc);
std::uint8_t* jitser_json_put_float(std::uint8_t* out, float v, std::uint32_t enc);
std::uint8_t* jitser_json_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n);
std::uint8_t* jitser_json_put_decimal(std::uint8_t* out, const Decimal* d);
std::uint8_t* jitser_json_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                   std::uint32_t duration, std::uint32_t enc);
WriteSpan jitser_json_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                  const void* value);
WriteSpan jitser_json_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      const void* list, const TypeDesc* type, std::uint64_t n);
WriteSpan jitser_json_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                const void* map, const TypeDesc* type, std::uint32_t enc,
                                WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                std::size_t item_key_size);
std::int32_t jitser_json_find_field(const char* raw_key, const FieldDesc* const* fields,
                                    std::uint32_t n);
bool jitser_json_get_bytes(Slot* value, void* list, const TypeDesc* type);
bool jitser_json_get_decimal(Slot* value, Decimal* d);
bool jitser_json_get_time(Slot* value, std::int64_t* out, std::uint32_t unit,
                          std::uint32_t duration, std::uint32_t enc);
bool jitser_json_read_value(ReadContext* ctx, Slot* value, void* p);
bool jitser_json_read_bool_list(Slot* value, void* list, const TypeDesc* type, std::uint32_t enc,
                                std::uint32_t append);
bool jitser_json_read_map(ReadContext* ctx, Slot* value, void* map, const TypeDesc* type,
                          const Instr* key, std::uint32_t enc, std::uint32_t min_entry,
                          SlotReadFn read_key, SlotReadFn read_value, void* refill);

/// A string of more than 15 bytes, for get_string (not in the kernel).
void jitser_json_assign_string(void* s, std::uint32_t allocator, const char* data, std::size_t n);
/// put_string itself, for a string with bytes to escape or check as UTF-8 (not in the kernel).
char* jitser_json_escaped_string(char* out, const char* data, std::size_t n);
}

}  // namespace jitser
