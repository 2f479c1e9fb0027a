// MessagePack's operations for the interpreter (formats/ops.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "formats/format_table.h"
#include "formats/ops.h"

namespace jitser {

const FormatWriter& msgpack_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* msgpack_reader(void* storage);
/// An enum's name as MessagePack writes it: a str.
std::string msgpack_enum_text(std::string_view name);
/// The head before an object of `fields` fields: a map's, or an array's where the Plan's
/// objects are positional.
std::string msgpack_object_head(const FormatTraits& traits, std::size_t fields);
/// What the kernel's put for an instruction may write.
WriteBound msgpack_write_bound(const Instr& in);

}  // namespace jitser
