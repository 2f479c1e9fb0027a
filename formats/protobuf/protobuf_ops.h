// The Protobuf format's operations for the interpreter (formats/ops.h).
#pragma once

#include "formats/format_table.h"
#include "formats/ops.h"

namespace jitser {

const FormatWriter& protobuf_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* protobuf_reader(void* storage);

}  // namespace jitser
