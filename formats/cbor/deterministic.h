// Core deterministic encoding (RFC 8949, section 4.2.1), an option of the writer
// (EngineOptions::deterministic): preferred serialization with definite lengths, which jitser
// always writes, and every map's entries in the bytewise order of their encoded keys. The
// order is that of the bytes, not of the values: a shorter text key comes first, as its head is
// smaller, and 10 (0x0a) comes before -1 (0x20).
#pragma once

#include <jitser/buffer.h>

namespace jitser::cbor {

/// Rewrites the item in `out`, as a writer of both tiers made it, with every map's entries
/// sorted by their keys' bytes; a map within a key or value is sorted first. False, with `out`
/// as it was, for bytes that are not one well-formed item of definite lengths.
bool sort_map_keys(Buffer& out);

}  // namespace jitser::cbor
