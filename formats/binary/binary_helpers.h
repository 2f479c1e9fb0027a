// The binary format's helpers for compiled code, by name and address (formats/compiled_abi.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> binary_helpers();

extern "C" {
// The kernel's functions (binary_kernel.cpp), compiled into the library and to the bitcode the
// JIT inlines: the puts of the kernel contract (formats/compiled_abi.h).
std::uint8_t* jitser_binary_put_frame(std::uint8_t* out, std::uint64_t fingerprint,
                                      bool with_fingerprint, std::uint32_t enc);
std::uint8_t* jitser_binary_put_bool(std::uint8_t* out, std::uint8_t v);
std::uint8_t* jitser_binary_put_int(std::uint8_t* out, std::int64_t v, std::uint32_t width,
                                    std::uint32_t enc);
std::uint8_t* jitser_binary_put_uint(std::uint8_t* out, std::uint64_t v, std::uint32_t width,
                                     std::uint32_t enc);
std::uint8_t* jitser_binary_put_float(std::uint8_t* out, float v, std::uint32_t enc);
std::uint8_t* jitser_binary_put_double(std::uint8_t* out, double v, std::uint32_t enc);
std::uint8_t* jitser_binary_put_string(std::uint8_t* out, const char* data, std::size_t n);
std::uint8_t* jitser_binary_put_bytes(std::uint8_t* out, const std::uint8_t* data, std::size_t n);
std::uint8_t* jitser_binary_put_enum(std::uint8_t* out, std::int64_t v);
std::uint8_t* jitser_binary_put_decimal(std::uint8_t* out, const Decimal* d);
std::uint8_t* jitser_binary_put_time(std::uint8_t* out, std::int64_t ticks, std::uint32_t unit,
                                     std::uint32_t duration, std::uint32_t enc);
std::uint8_t* jitser_binary_put_begin_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op,
                                           std::uint32_t enc);
std::uint8_t* jitser_binary_put_end_list(std::uint8_t* out, std::uint64_t n, std::uint32_t op);
std::uint8_t* jitser_binary_put_shared_ref(std::uint8_t* out, std::uint32_t id);
bool jitser_binary_open(ReadContext* ctx, const std::uint8_t* p, const std::uint8_t* end,
                        Slot* root);
bool jitser_binary_finish(ReadContext* ctx, Slot* root);
bool jitser_binary_get_frame(Slot* s, std::uint64_t fingerprint, bool require);
bool jitser_binary_get_bool(Slot* s, std::uint8_t* out);
bool jitser_binary_get_int(Slot* s, std::int64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_binary_get_uint(Slot* s, std::uint64_t* out, std::uint32_t width, std::uint32_t enc);
bool jitser_binary_get_float(Slot* s, float* out, std::uint32_t enc);
bool jitser_binary_get_double(Slot* s, double* out, std::uint32_t enc);
bool jitser_binary_get_string(Slot* s, void* out, std::uint32_t allocator);
bool jitser_binary_get_bytes(Slot* s, void* list, const TypeDesc* type);
bool jitser_binary_get_enum(Slot* s, std::int64_t* out);
bool jitser_binary_get_decimal(Slot* s, Decimal* d);
bool jitser_binary_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit,
                            std::uint32_t duration, std::uint32_t enc);
bool jitser_binary_get_null(Slot* s, std::uint8_t* is_null);
bool jitser_binary_get_shared(Slot* s, std::uint32_t* ref, std::uint32_t* id);
bool jitser_binary_begin_list(Slot* s, Slot* iterator, std::uint64_t* n, std::uint32_t op,
                              std::uint32_t enc, std::uint32_t min_item_bytes);

// The contract's helpers (formats/compiled_abi.h), out of line.
WriteSpan jitser_binary_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                    const void* value);
WriteSpan jitser_binary_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                        std::uint8_t* limit, const void* list, const TypeDesc* type,
                                        std::size_t n);
WriteSpan jitser_binary_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                  const void* map, const TypeDesc* type, std::uint32_t header,
                                  WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                  std::size_t item_key_size);
bool jitser_binary_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t header,
                                  std::uint32_t append);
bool jitser_binary_read_value(ReadContext* ctx, Slot* s, void* value);
bool jitser_binary_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                            const Instr* key, std::uint32_t header, std::uint32_t min_entry,
                            SlotReadFn read_key, SlotReadFn read_value, void* refill);
}

}  // namespace jitser
