// MessagePack's operations for the interpreter (formats/ops.h).
#pragma once

#include "formats/ops.h"

namespace jitser {

const FormatWriter& msgpack_writer();
/// A reader made in `storage` (kReaderStorage bytes, aligned for any type).
FormatReader* msgpack_reader(void* storage);

}  // namespace jitser
