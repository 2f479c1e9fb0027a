// libFuzzer target: arbitrary bytes as a code cache file (jit/code_cache.h), which is input like
// any other: the directory may hold what a dying process, a full disk or another user left.
// Fails on a crash, a sanitizer report, or a file accepted whose parts do not add up to it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "jit/code_cache.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  jitser::Result<jitser::jit::CacheFile> file = jitser::jit::parse_cache_file(bytes);
  if (!file) return 0;
  std::size_t parts = sizeof file->identity + file->environment.size() + file->object.bytes.size();
  for (const auto& name : file->object.host_names) parts += name.size() + 1;
  if (parts > size) {
    std::fprintf(stderr, "jitser cache fuzz: a file of %zu bytes gave %zu bytes of parts\n", size,
                 parts);
    std::abort();
  }
  return 0;
}
