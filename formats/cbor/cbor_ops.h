// CBOR's operations for the interpreter (formats/ops.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "formats/format_table.h"
#include "formats/ops.h"

namespace jitser {

const FormatWriter& cbor_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* cbor_reader(void* storage);
/// An enum's name as CBOR writes it: a text string.
std::string cbor_enum_text(std::string_view name);
/// The map head before an object of `fields` fields.
std::string cbor_object_head(std::size_t fields);
/// What the kernel's put for an instruction may write.
WriteBound cbor_write_bound(const Instr& in);

}  // namespace jitser
