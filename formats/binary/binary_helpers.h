// The binary format's helpers for compiled code, by name and address (formats/compiled_abi.h).
#pragma once

#include <span>

#include "formats/compiled_abi.h"

namespace jitser {

std::span<const HelperSymbol> binary_helpers();

}  // namespace jitser
