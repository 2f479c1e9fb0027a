// The binary format's operations for the interpreter (formats/ops.h).
#pragma once

#include <memory>

#include "formats/format_table.h"
#include "formats/ops.h"

namespace jitser {

const FormatWriter& binary_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* binary_reader(void* storage);
/// What the kernel's put for `in` may write (binary_kernel.cpp).
WriteBound binary_write_bound(const Instr& in);

}  // namespace jitser
