// The persistent code cache (docs/jit.md): compiled objects kept in a directory across runs, so
// that a program that starts again links its codecs' code instead of compiling it.
//
// A file is named by a digest of its codec's identity (what decides the code: the Plan, the run
// options) and holds, after a header, that digest, the environment it was compiled
// in (LLVM, CPU, kernels, build), the names of the host symbols the object refers to, and the
// object. Every part is checked before the object is used: a file that is truncated, corrupted,
// of another identity or environment is ignored, with the reason, and replaced when the codec
// has compiled. Writers write to a name of their own and rename it into place, so no reader
// sees half a file. The directory holds machine code this program will run: one that others
// can write to is refused.
//
// No LLVM here: the cache stores bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jitser/status.h>

namespace jitser::jit {

/// One codec direction's compiled code as the cache keeps it.
struct CachedObject {
  std::vector<std::string> host_names;  // the host symbols it refers to, to bind before linking
  std::vector<char> bytes;              // the relocatable object
};

/// What one look-up found: an object, or why there is none ("no file", "truncated", ...).
struct CacheLookup {
  std::optional<CachedObject> object;
  std::string why_not;
};

/// The XXH3-128 digest of a codec's identity: its file's name, and kept in the file, so that a
/// file another codec's code was copied or renamed to is told apart. A codec's identity runs to
/// kilobytes, which a warm cache read and compared for every file.
struct IdentityDigest {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const IdentityDigest&) const = default;
};
IdentityDigest digest_of(std::string_view identity);

/// What a cache file holds besides its header.
struct CacheFile {
  IdentityDigest identity;
  std::string environment;
  CachedObject object;
};

/// A cache file's parts, checked: the reason is Errc::syntax_error's message when the file is
/// not a sound cache file (truncated, corrupted, not one at all), cannot_read's when it cannot
/// be read.
Result<CacheFile> read_cache_file(const std::string& path);
/// The same, of a file's bytes.
Result<CacheFile> parse_cache_file(std::string_view bytes);
/// Writes a cache file at `path`, through a temporary name of this process's in the same
/// directory, renamed into place.
Status write_cache_file(const std::string& path, const CacheFile& file);

/// A directory's totals, for `jitser cache stats`.
struct CacheTotals {
  std::size_t files = 0;
  std::uint64_t bytes = 0;
};

/// The GNU build ID of the binary this code is linked into, in hex, or "" when it has none.
/// Code compiled by another build of jitser is not used, as its emitter may differ.
std::string build_id();

class CodeCache {
 public:
  /// Opens the cache at `dir`, made (mode 0700, and its parents) when it does not exist. Refused,
  /// with the reason, when it is not a directory, belongs to another user, or others may write to
  /// it. `environment` describes what compiled the code besides its identity, a line per thing,
  /// `what: value` (a file of another environment is ignored as "made with other <what>");
  /// `max_bytes` bounds the directory.
  static Result<std::unique_ptr<CodeCache>> open(const std::string& dir, std::string environment,
                                                 std::uint64_t max_bytes);

  /// The object compiled for `identity`, when the directory holds a sound one.
  CacheLookup load(const std::string& identity) const;
  /// Keeps an object for `identity`, then removes the least recently used files while the
  /// directory holds more than its bound. A failure to write is not an error of the codec:
  /// it is returned for the statistics.
  Status store(const std::string& identity, const CachedObject& object) const;

  /// The files of a cache directory; removing them. Neither checks who may write to it.
  static Result<CacheTotals> totals(const std::string& dir);
  static Result<CacheTotals> clear(const std::string& dir);

  /// Through open(), which checks the directory.
  CodeCache(std::string dir, std::string environment, std::uint64_t max_bytes)
      : dir_(std::move(dir)), environment_(std::move(environment)), max_bytes_(max_bytes) {}

 private:
  std::string path_of(const IdentityDigest& identity) const;
  /// Removes the least recently used files while the directory holds more than its bound;
  /// returns what it holds then.
  std::uint64_t evict() const;

  std::string dir_;
  std::string environment_;
  std::uint64_t max_bytes_;
  /// What this process counts the directory to hold: what it found when it last looked, plus
  /// what it stored since. Looking costs a stat of every file, so it looks again only when the
  /// count passes the bound, not at every store. Other processes' files count from then on.
  mutable std::mutex count_mutex_;
  mutable std::optional<std::uint64_t> counted_;
};

}  // namespace jitser::jit
