// MessagePack's helpers for compiled code, by name and address (formats/compiled_abi.h), and the
// kernel's functions (msgpack_kernel.cpp) as compiled into the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> msgpack_helpers();

extern "C" {
// The contract's helpers (formats/compiled_abi.h), out of line.
WriteSpan jitser_msgpack_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                     const void* value);
WriteSpan jitser_msgpack_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                         std::uint8_t* limit, const void* list,
                                         const TypeDesc* type, std::size_t n);
WriteSpan jitser_msgpack_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                   const void* map, const TypeDesc* type, std::uint32_t enc,
                                   WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                   std::size_t item_key_size);
std::int32_t jitser_msgpack_find_field(const char* raw_key, const FieldDesc* const* fields,
                                       std::uint32_t n);
bool jitser_msgpack_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t enc,
                                   std::uint32_t append);
bool jitser_msgpack_read_value(ReadContext* ctx, Slot* s, void* value);
bool jitser_msgpack_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                             const Instr* key, std::uint32_t enc, std::uint32_t min_entry,
                             SlotReadFn read_key, SlotReadFn read_value, void* refill);

// Helpers the kernel calls for what is not worth inlining.
/// Writes the n bytes at data after a str head's room, checked as UTF-8: the end, or null.
std::uint8_t* jitser_msgpack_put_text(std::uint8_t* out, const char* data, std::size_t n);
}

}  // namespace jitser
