// CBOR's helpers for compiled code, by name and address (formats/compiled_abi.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/compiled_abi.h"
#include "formats/cursor_input.h"

namespace jitser {

std::span<const HelperSymbol> cbor_helpers();

extern "C" {
// The contract's helpers (formats/compiled_abi.h), out of line.
WriteSpan jitser_cbor_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                  const void* value);
WriteSpan jitser_cbor_write_bool_list(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                      const void* list, const TypeDesc* type, std::size_t n);
WriteSpan jitser_cbor_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                const void* map, const TypeDesc* type, std::uint32_t enc,
                                WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                std::size_t item_key_size);
std::int32_t jitser_cbor_find_field(const char* raw_key, const FieldDesc* const* fields,
                                    std::uint32_t n);
bool jitser_cbor_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t enc,
                                std::uint32_t append);
bool jitser_cbor_read_value(ReadContext* ctx, Slot* s, void* value);
bool jitser_cbor_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                          const Instr* key, std::uint32_t enc, std::uint32_t min_entry,
                          SlotReadFn read_key, SlotReadFn read_value, void* refill);

// Helpers the kernel calls for what is not worth inlining.
/// Writes the n bytes at data after a text head's room, checked as UTF-8: the end, or null.
std::uint8_t* jitser_cbor_put_text(std::uint8_t* out, const char* data, std::size_t n);
/// Steps over the item at the position, checking it is well-formed.
bool jitser_cbor_skip_item(CursorInput* in);
/// A timestamp as tag 0 and RFC 3339 text (cbor::put_time_text): the end, or null.
std::uint8_t* jitser_cbor_put_time_text(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit);
/// The text after tag 0 as a timestamp of `unit`; an indefinite string declines.
bool jitser_cbor_get_time_text(CursorInput* in, std::int64_t* ticks, std::uint32_t unit);
}

}  // namespace jitser
