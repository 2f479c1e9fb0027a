// The persistent code cache (jit/code_cache.h): a second Engine links what the first compiled,
// and every way a cache file can be wrong (cut short, a byte flipped, another codec's, made
// for other CPU features, written by two at once, in a directory others may write to) falls
// back to compiling, with the reason in the statistics, and the file is made sound again.
//
// These tests compile on their own terms (JitPolicy::Sync): they run once, not per policy.
#include "jit/code_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/payloads.h"
#include "formats/format_table.h"
#include "jit/code_identity.h"
#include "support.h"

namespace jitser {
namespace {

namespace fs = std::filesystem;

// A fresh directory of this user's, which only it may write to.
class CacheDir {
 public:
  CacheDir() {
    char name[] = "/tmp/jitser-cache-test-XXXXXX";
    path_ = ::mkdtemp(name);
  }
  ~CacheDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string path_;
};

EngineOptions cached(const std::string& dir, std::uint64_t max_bytes = std::uint64_t{256} << 20) {
  return EngineOptions{.jit = JitPolicy::Sync, .cache_dir = dir, .cache_max_bytes = max_bytes};
}

// Sample's binary codec in an Engine over `dir`: its statistics, after a round trip that
// must give back the value, in compiled code.
CodecStats sample_binary(const std::string& dir) {
  Engine e(cached(dir));
  EXPECT_TRUE(payloads::register_all(e).ok());
  Codec<payloads::Sample> codec = test::codec_of<payloads::Sample>(e, Format::Binary);
  const payloads::Sample value = payloads::make_sample();
  Buffer out;
  EXPECT_TRUE(codec.serialize(value, out).ok());
  payloads::Sample back;
  EXPECT_TRUE(codec.deserialize(out.bytes(), back).ok());
  EXPECT_TRUE(back == value);
  const CodecStats stats = codec.dyn().stats();
  EXPECT_EQ(stats.tier, Tier::Compiled) << stats.failure;
  return stats;
}

TEST(CodeCache, ASecondEngineLinksEveryPayloadCodecTheFirstCompiled) {
  CacheDir dir;
  for (const bool warm : {false, true}) {
    SCOPED_TRACE(warm ? "warm" : "cold");
    Engine e(cached(dir.path()));
    ASSERT_TRUE(payloads::register_all(e).ok());
    payloads::for_each_payload([&](const char* name, const auto& value) {
      using T = std::decay_t<decltype(value)>;
      for (const Format format : all_formats()) {
        if (!format_compiles(format)) continue;  // no code, so nothing cached
        // The Graph's cycles are written only by formats that keep identity.
        if (std::string_view(name) == "Graph" && format != Format::Binary) continue;
        Codec<T> codec = test::codec_of<T>(e, format);
        Buffer out;
        ASSERT_TRUE(codec.serialize(value, out).ok()) << name;
        T back{};
        ASSERT_TRUE(codec
                        .deserialize(PaddedString(std::string_view(
                                         reinterpret_cast<const char*>(out.data()), out.size())),
                                     back)
                        .ok())
            << name;
        EXPECT_TRUE(back == value) << name;
        const CodecStats stats = codec.dyn().stats();
        if (warm) {
          EXPECT_EQ(stats.cache, "hit") << name << " " << format_name(format);
        } else {
          EXPECT_EQ(stats.cache, "serialize: no file, stored; deserialize: no file, stored")
              << name << " " << format_name(format);
        }
      }
    });
  }
}

// Damages every file of Sample's binary codec one way; the next Engine says why it compiled,
// and the one after links the files it wrote instead.
void expect_recovers(const CacheDir& dir, const std::string& reason,
                     const std::function<void(const fs::path&)>& damage) {
  ASSERT_EQ(sample_binary(dir.path()).cache,
            "serialize: no file, stored; deserialize: no file, stored");
  const std::vector<fs::path> files = dir.files();
  ASSERT_EQ(files.size(), 2u);
  for (const fs::path& f : files) damage(f);
  const std::string why = "ignored a file: " + reason + ", stored";
  EXPECT_EQ(sample_binary(dir.path()).cache, "serialize: " + why + "; deserialize: " + why);
  EXPECT_EQ(sample_binary(dir.path()).cache, "hit");
}

TEST(CodeCache, ATruncatedFileIsIgnored) {
  CacheDir dir;
  expect_recovers(dir, "truncated: shorter than its header says",
                  [](const fs::path& f) { fs::resize_file(f, fs::file_size(f) - 100); });
  CacheDir short_dir;
  expect_recovers(short_dir, "truncated: shorter than a header",
                  [](const fs::path& f) { fs::resize_file(f, 20); });
}

TEST(CodeCache, AFlippedByteIsIgnored) {
  CacheDir dir;
  expect_recovers(dir, "corrupted: its checksum does not match", [](const fs::path& f) {
    std::fstream file(f, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(-1, std::ios::end);
    const char last = static_cast<char>(file.get());
    file.seekp(-1, std::ios::end);
    file.put(static_cast<char>(last ^ 0x40));
  });
}

TEST(CodeCache, AFileOfAnotherVersionIsIgnored) {
  CacheDir dir;
  expect_recovers(dir, "not a cache file of this version of jitser", [](const fs::path& f) {
    std::fstream file(f, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(7);
    file.put('\x7f');
  });
}

// Every file of another codec's, under this codec's names.
TEST(CodeCache, AnotherCodecsFileIsIgnored) {
  CacheDir other;
  {
    Engine e(cached(other.path()));
    ASSERT_TRUE(payloads::register_all(e).ok());
    (void)test::codec_of<payloads::Moshi>(e, Format::Binary);
  }
  CacheDir dir;
  std::vector<fs::path> donors = other.files();
  ASSERT_EQ(donors.size(), 2u);
  expect_recovers(dir, "it holds another codec's code", [&](const fs::path& f) {
    fs::copy_file(donors.back(), f, fs::copy_options::overwrite_existing);
    donors.pop_back();
  });
}

// A file made on a CPU with other features is sound but not for here.
TEST(CodeCache, CodeForOtherCpuFeaturesIsIgnored) {
  CacheDir dir;
  expect_recovers(dir, "made with other CPU features", [](const fs::path& f) {
    Result<jit::CacheFile> file = jit::read_cache_file(f);
    ASSERT_TRUE(file.ok()) << file.status().to_string();
    const std::string line = "CPU features: ";
    const std::size_t at = file->environment.find(line);
    ASSERT_NE(at, std::string::npos);
    file->environment.insert(at + line.size(), "+imaginary,");
    ASSERT_TRUE(jit::write_cache_file(f, *file).ok());
  });
}

TEST(CodeCache, ConcurrentWritersLeaveSoundFilesOnly) {
  CacheDir dir;
  std::vector<std::thread> writers;
  for (int i = 0; i < 4; ++i) {
    writers.emplace_back([&] {
      Engine e(cached(dir.path()));
      ASSERT_TRUE(payloads::register_all(e).ok());
      (void)test::codec_of<payloads::MediaContent>(e, Format::Json);
      (void)test::codec_of<payloads::Sample>(e, Format::Binary);
    });
  }
  for (std::thread& t : writers) t.join();
  for (const fs::path& f : dir.files()) {
    EXPECT_EQ(f.extension(), ".jitcode") << f;
    EXPECT_TRUE(jit::read_cache_file(f).ok()) << f;
  }
  EXPECT_EQ(sample_binary(dir.path()).cache, "hit");
}

// A directory that does not exist is made, with its parents, for this user alone.
TEST(CodeCache, AMissingDirectoryIsMadeForThisUserAlone) {
  CacheDir dir;
  const std::string nested = dir.path() + "/home/.cache/jitser";
  EXPECT_EQ(sample_binary(nested).cache,
            "serialize: no file, stored; deserialize: no file, stored");
  struct stat st;
  ASSERT_EQ(::stat(nested.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(sample_binary(nested).cache, "hit");
}

TEST(CodeCache, ADirectoryOthersMayWriteToIsNotUsed) {
  CacheDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  const CodecStats stats = sample_binary(dir.path());
  EXPECT_EQ(stats.cache, "off: the cache directory " + dir.path() +
                             " may be written by its group or others (chmod go-w)");
  EXPECT_TRUE(dir.files().empty());
  // Not a directory at all.
  const std::string file = dir.path() + "/plain";
  std::ofstream(file) << "x";
  ASSERT_EQ(::chmod(dir.path().c_str(), 0700), 0);
  EXPECT_EQ(sample_binary(file).cache, "off: the cache directory " + file + " is not a directory");
}

// Compiles six codecs, oldest first, into a cache bounded at max_bytes.
void fill_in_order(const std::string& dir, std::uint64_t max_bytes = std::uint64_t{256} << 20) {
  Engine e(cached(dir, max_bytes));
  ASSERT_TRUE(payloads::register_all(e).ok());
  (void)test::codec_of<payloads::MediaContent>(e, Format::Json);
  (void)test::codec_of<payloads::Graph>(e, Format::Binary);
  (void)test::codec_of<payloads::Sample>(e, Format::Json);
  (void)test::codec_of<payloads::A1>(e, Format::Json);
  (void)test::codec_of<payloads::Moshi>(e, Format::Json);
  (void)test::codec_of<payloads::StringMap>(e, Format::Json);
}

TEST(CodeCache, TheDirectoryStaysWithinItsBound) {
  // The bound is one byte short of what the six codecs write, measured here rather than fixed,
  // so that it keeps biting however large their code becomes.
  CacheDir unbounded;
  fill_in_order(unbounded.path());
  Result<jit::CacheTotals> all = jit::CodeCache::totals(unbounded.path());
  ASSERT_TRUE(all.ok());
  ASSERT_GT(all->bytes, 1u);
  const std::uint64_t bound = all->bytes - 1;

  CacheDir dir;
  fill_in_order(dir.path(), bound);
  Result<jit::CacheTotals> totals = jit::CodeCache::totals(dir.path());
  ASSERT_TRUE(totals.ok());
  EXPECT_LE(totals->bytes, bound);
  EXPECT_GT(totals->files, 0u);
  EXPECT_LT(totals->files, all->files);
  // The last compiled are the last to go; the first went.
  Engine e(cached(dir.path(), bound));
  ASSERT_TRUE(payloads::register_all(e).ok());
  EXPECT_EQ(test::codec_of<payloads::StringMap>(e, Format::Json).dyn().stats().cache, "hit");
  EXPECT_NE(test::codec_of<payloads::MediaContent>(e, Format::Json).dyn().stats().cache, "hit");
}

// Compiled code names an address by the first host candidate that has it, so a Plan's identity
// lists each candidate whose address an earlier one has, with that earliest one: checked here
// against an ordered map of every payload Plan's candidates, in every format and direction.
TEST(CodeIdentity, ListsEachCandidateThatHasAnEarlierOnesAddress) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  std::size_t shared = 0;
  for (const TypeDesc* type : e.types()) {
    if (type->kind != Kind::Struct) continue;
    for (const Format format : all_formats()) {
      for (const Direction direction : {Direction::Serialize, Direction::Deserialize}) {
        const Plan plan = format_entry(format).lower(*type, direction, RunOptions{});
        const std::vector<const void*> hosts = jit::host_candidates(plan);
        std::map<const void*, std::size_t> first;
        std::string expected = "\naliases";
        for (std::size_t j = 0; j < hosts.size(); ++j) {
          const auto [at, added] = first.emplace(hosts[j], j);
          if (added) continue;
          expected += " " + std::to_string(j) + "=" + std::to_string(at->second);
          ++shared;
        }
        EXPECT_NE(jit::code_identity(plan, RunOptions{}).find(expected + "\n"), std::string::npos)
            << type->name << " " << format_name(format);
      }
    }
  }
  EXPECT_GT(shared, 0u);
}

}  // namespace
}  // namespace jitser
