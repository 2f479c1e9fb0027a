// JSON's operations for the interpreter (formats/ops.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "formats/format_table.h"
#include "formats/ops.h"

namespace jitser {

const FormatWriter& json_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* json_reader(void* storage);
/// What the kernel's put for `in` may write (json_kernel.cpp, json_helpers.cpp).
WriteBound json_write_bound(const Instr& in);
/// An enum's name as JSON writes it: a quoted string.
std::string json_enum_text(std::string_view name);

}  // namespace jitser
