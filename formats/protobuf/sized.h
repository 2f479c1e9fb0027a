// A length-delimited value written forward: one byte is left for its length, which is filled
// in at the end, and the bytes move up in the rare case the length takes more than one byte.
// Measured against a size pass, docs/formats/protobuf.md says why this is the choice.
#pragma once

#include <cstddef>
#include <cstring>

#include <jitser/buffer.h>

#include "formats/protobuf/wire.h"

namespace jitser::protobuf {

/// Starts a length-delimited value: returns where its length goes.
inline std::size_t open_sized(Buffer& out) {
  const std::size_t mark = out.size();
  out.ensure(1);
  out.commit(1);
  return mark;
}

/// Ends the value opened at `mark`: writes its length there.
inline void close_sized(Buffer& out, std::size_t mark) {
  const std::size_t body = out.size() - mark - 1;
  if (body < 0x80) {
    out.data()[mark] = static_cast<std::uint8_t>(body);
    return;
  }
  // put_varint stores whole words, so the length is made apart and copied over its n bytes.
  std::uint8_t length[wire::kMaxVarintBytes];
  const auto n = static_cast<std::size_t>(wire::put_varint(length, body) - length);
  out.ensure(n - 1);
  std::uint8_t* at = out.data() + mark;
  std::memmove(at + n, at + 1, body);
  std::memcpy(at, length, n);
  out.commit(n - 1);
}

}  // namespace jitser::protobuf
