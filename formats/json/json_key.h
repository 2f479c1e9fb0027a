// Map keys in JSON: object keys are strings, so a map whose keys are integers or enums reads
// each key from its text. Both tiers read keys with this one function.
#pragma once

#include <string_view>

#include <jitser/status.h>

#include "formats/plan.h"

namespace jitser::json {

/// Reads the unescaped key `text` into `p` as `in` (the only instruction of a map's key routine)
/// says: a string as it is, an integer from its whole text ("333"), an enum by name. Fails with
/// type_mismatch when the text is not an integer that fits, unknown_enum for an unknown name.
Errc read_key(const Instr& in, std::string_view text, void* p);

}  // namespace jitser::json
