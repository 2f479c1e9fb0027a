// JSON's operations for the interpreter (formats/ops.h).
#pragma once

#include <memory>

#include "formats/ops.h"

namespace jitser {

const FormatWriter& json_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* json_reader(void* storage);

}  // namespace jitser
