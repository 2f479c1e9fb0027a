#include "formats/compiled_abi.h"

namespace jitser {

extern "C" {

WriteSpan jitser_rt_grow(WriteContext* ctx, std::uint8_t* cursor, std::size_t need) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  std::uint8_t* at = out.ensure(need);
  return {at, at + (out.capacity() - out.size())};
}

}  // extern "C"

}  // namespace jitser
