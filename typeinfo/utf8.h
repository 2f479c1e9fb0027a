// UTF-8 validation (RFC 3629): rejects overlong forms, surrogates and code points past U+10FFFF.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jitser {

/// True when the bytes are well-formed UTF-8. On failure, *bad (if given) is the offset of the
/// first byte of the bad sequence.
bool valid_utf8(const std::uint8_t* data, std::size_t size, std::size_t* bad = nullptr);

}  // namespace jitser
