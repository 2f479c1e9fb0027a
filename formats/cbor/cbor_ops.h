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
/// After a write: with RunOptions::deterministic, every map's keys sorted by their bytes.
void cbor_finish_write(const RunOptions& options, Buffer& out);
/// An enum's name as CBOR writes it: a text string.
std::string cbor_enum_text(std::string_view name);
/// The head before an object of `fields` fields: a map's, or an array's where the Plan's
/// objects are positional.
std::string cbor_object_head(const FormatTraits& traits, std::size_t fields);
/// What the kernel's put for an instruction may write.
WriteBound cbor_write_bound(const Instr& in);

}  // namespace jitser
