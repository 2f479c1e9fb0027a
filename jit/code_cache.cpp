#include "jit/code_cache.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>
#include <system_error>
#include <thread>

namespace jitser::jit {
namespace {

namespace fs = std::filesystem;

// "JITSERC" and the layout's version: a file of another version is not read.
constexpr char kMagic[8] = {'J', 'I', 'T', 'S', 'E', 'R', 'C', 2};
constexpr std::string_view kSuffix = ".jitcode";
constexpr std::string_view kTemporary = ".tmp.";
// A temporary file this old was left by a writer that died.
constexpr auto kAbandoned = std::chrono::minutes(10);

// The header: the magic, the identity's digest, the length of each other part, and a checksum
// of the digest and the parts.
struct Header {
  char magic[8];
  IdentityDigest identity;
  std::uint64_t environment;
  std::uint64_t hosts;
  std::uint64_t object;
  std::uint64_t checksum;  // checksum() of the digest and the parts, in order
};
static_assert(sizeof(Header) == 56);

// The checksum of the digest and the parts: the parts' XXH64, seeded with the digest's.
std::uint64_t checksum(const IdentityDigest& identity, std::string_view body) {
  return XXH64(body.data(), body.size(), XXH64(&identity, sizeof identity, 0));
}

Status io_failure(const std::string& what, const std::string& path) {
  return Status(Errc::cannot_read, what + " " + path + ": " + std::strerror(errno));
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    out += n;
    out += '\n';
  }
  return out;
}

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    out.emplace_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return out;
}

// What the first line of the environment that differs is about: its text before the colon
// ("CPU features").
std::string first_difference(std::string_view theirs, std::string_view ours) {
  const std::vector<std::string> a = split(theirs), b = split(ours);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "", y = i < b.size() ? b[i] : "";
    if (x != y) {
      const std::string& line = y.empty() ? x : y;
      return line.substr(0, line.find(':'));
    }
  }
  return "environment";
}

bool is_cache_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.ends_with(kSuffix) || name.find(kTemporary) != std::string::npos;
}

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return false;
    p += done;
    n -= static_cast<std::size_t>(done);
  }
  return true;
}

// dl_iterate_phdr's callback: the build ID note of the object that holds `find->address`.
struct BuildIdSearch {
  const void* address;
  std::string hex;
};
int find_build_id(dl_phdr_info* info, std::size_t, void* data) {
  auto* search = static_cast<BuildIdSearch*>(data);
  const auto at = reinterpret_cast<ElfW(Addr)>(search->address);
  bool holds = false;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && at >= info->dlpi_addr + ph.p_vaddr &&
        at < info->dlpi_addr + ph.p_vaddr + ph.p_memsz) {
      holds = true;
    }
  }
  if (!holds) return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
    const unsigned char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof note);
      const unsigned char* name = p + sizeof note;
      const unsigned char* desc = name + ((note.n_namesz + 3) & ~3u);
      if (desc + note.n_descsz > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        for (std::uint32_t k = 0; k < note.n_descsz; ++k) {
          char byte[3];
          std::snprintf(byte, sizeof byte, "%02x", desc[k]);
          search->hex += byte;
        }
        return 1;
      }
      p = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;  // the object, without a build ID
}

}  // namespace

std::string build_id() {
  BuildIdSearch search{reinterpret_cast<const void*>(&build_id), ""};
  dl_iterate_phdr(find_build_id, &search);
  return search.hex;
}

namespace {

// An open file, closed when it goes.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads and checks the cache file open as `file`: one fstat and one read, into a buffer that
// is not cleared first, for a warm cache reads thousands of them at start.
Result<CacheFile> read_open_file(const FileDescriptor& file, const std::string& path) {
  struct stat st;
  if (::fstat(file.get(), &st) != 0) return io_failure("cannot read", path);
  const auto size = static_cast<std::size_t>(st.st_size);
  const auto bytes = std::make_unique_for_overwrite<char[]>(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(file.get(), bytes.get() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return parse_cache_file(std::string_view(bytes.get(), got));  // a file cut while read is short
}

}  // namespace

Result<CacheFile> read_cache_file(const std::string& path) {
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return io_failure("cannot open", path);
  return read_open_file(file, path);
}

Result<CacheFile> parse_cache_file(std::string_view bytes) {
  auto bad = [](const char* why) { return Status(Errc::syntax_error, why); };
  Header h;
  if (bytes.size() < sizeof h) return bad("truncated: shorter than a header");
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    return bad("not a cache file of this version of jitser");
  }
  const std::uint64_t body = bytes.size() - sizeof h;
  // Each part at most the body, so the sum cannot wrap.
  if (h.environment > body || h.hosts > body || h.object > body ||
      h.environment + h.hosts + h.object != body) {
    return bad(h.environment + h.hosts + h.object > body ? "truncated: shorter than its header says"
                                                         : "longer than its header says");
  }
  const char* p = bytes.data() + sizeof h;
  if (checksum(h.identity, std::string_view(p, body)) != h.checksum) {
    return bad("corrupted: its checksum does not match");
  }
  CacheFile file;
  file.identity = h.identity;
  file.environment.assign(p, h.environment);
  p += h.environment;
  file.object.host_names = split(std::string_view(p, h.hosts));
  p += h.hosts;
  file.object.bytes.assign(p, p + h.object);
  return file;
}

Status write_cache_file(const std::string& path, const CacheFile& file) {
  const std::string hosts = joined(file.object.host_names);
  std::string body = file.environment + hosts;
  body.append(file.object.bytes.data(), file.object.bytes.size());
  Header h;
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.identity = file.identity;
  h.environment = file.environment.size();
  h.hosts = hosts.size();
  h.object = file.object.bytes.size();
  h.checksum = checksum(h.identity, body);

  // A name no other writer uses: this process and thread.
  const std::string temporary =
      path + std::string(kTemporary) + std::to_string(::getpid()) + "." +
      std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return io_failure("cannot create", temporary);
  const bool written = write_all(fd, &h, sizeof h) && write_all(fd, body.data(), body.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed || ::rename(temporary.c_str(), path.c_str()) != 0) {
    Status s = io_failure("cannot write", temporary);
    ::unlink(temporary.c_str());
    return s;
  }
  return Status();
}

Result<std::unique_ptr<CodeCache>> CodeCache::open(const std::string& dir, std::string environment,
                                                   std::uint64_t max_bytes) {
  // Its parents as the user's umask makes them (~/.cache may not exist yet); itself 0700.
  std::error_code made;
  if (const fs::path parent = fs::path(dir).parent_path(); !parent.empty()) {
    fs::create_directories(parent, made);
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return io_failure("cannot make the cache directory", dir);
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return io_failure("cannot use the cache directory", dir);
  auto refuse = [&](const std::string& why) {
    return Status(Errc::unsupported, "the cache directory " + dir + " " + why);
  };
  if (!S_ISDIR(st.st_mode)) return refuse("is not a directory");
  // What the directory holds is machine code this program will run: anyone who may write
  // there could make it run theirs.
  if (st.st_uid != ::geteuid()) return refuse("belongs to another user");
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    return refuse("may be written by its group or others (chmod go-w)");
  }
  return std::make_unique<CodeCache>(dir, std::move(environment), max_bytes);
}

IdentityDigest digest_of(std::string_view identity) {
  const XXH128_hash_t hash = XXH3_128bits(identity.data(), identity.size());
  return {hash.high64, hash.low64};
}

std::string CodeCache::path_of(const IdentityDigest& identity) const {
  char name[33];
  std::snprintf(name, sizeof name, "%016llx%016llx", static_cast<unsigned long long>(identity.high),
                static_cast<unsigned long long>(identity.low));
  return dir_ + "/" + name + std::string(kSuffix);
}

CacheLookup CodeCache::load(const std::string& identity) const {
  const IdentityDigest digest = digest_of(identity);
  const std::string path = path_of(digest);
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return {std::nullopt, "no file"};
    return {std::nullopt, "ignored a file: " + io_failure("cannot open", path).message()};
  }
  Result<CacheFile> file = read_open_file(fd, path);
  if (!file) return {std::nullopt, "ignored a file: " + file.status().message()};
  if (file->identity != digest) {
    return {std::nullopt, "ignored a file: it holds another codec's code"};
  }
  if (file->environment != environment_) {
    return {std::nullopt,
            "ignored a file: made with other " + first_difference(file->environment, environment_)};
  }
  ::futimens(fd.get(), nullptr);  // used now: the last to go
  return {std::move(file->object), ""};
}

Status CodeCache::store(const std::string& identity, const CachedObject& object) const {
  const IdentityDigest digest = digest_of(identity);
  const std::string path = path_of(digest);
  Status s = write_cache_file(path, CacheFile{digest, environment_, object});
  std::error_code missing;
  const std::uintmax_t bytes = s.ok() ? fs::file_size(path, missing) : 0;
  std::lock_guard lock(count_mutex_);
  if (counted_ && !missing) *counted_ += bytes;
  if (!counted_ || *counted_ > max_bytes_) counted_ = evict();
  return s;
}

std::uint64_t CodeCache::evict() const {
  struct Entry {
    fs::file_time_type used;
    std::uintmax_t bytes;
    fs::path path;
  };
  std::vector<Entry> files;
  std::uint64_t total = 0;
  std::error_code error;
  const auto now = fs::file_time_type::clock::now();
  std::error_code each;
  for (fs::directory_iterator it(dir_, error), end; !error && it != end; it.increment(error)) {
    const fs::directory_entry& e = *it;
    if (!is_cache_file(e.path())) continue;
    const fs::file_time_type used = e.last_write_time(each);
    const std::uintmax_t bytes = e.file_size(each);
    if (each) continue;  // gone meanwhile: another process evicts too
    if (e.path().filename().string().find(kTemporary) != std::string::npos) {
      if (now - used > kAbandoned) fs::remove(e.path(), each);
      continue;
    }
    files.push_back({used, bytes, e.path()});
    total += bytes;
  }
  if (total <= max_bytes_) return total;
  std::sort(files.begin(), files.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& f : files) {
    if (total <= max_bytes_) break;
    if (fs::remove(f.path, each)) total -= f.bytes;
  }
  return total;
}

Result<CacheTotals> CodeCache::totals(const std::string& dir) {
  CacheTotals t;
  std::error_code error;
  std::error_code each;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (!is_cache_file(it->path())) continue;
    const std::uintmax_t bytes = it->file_size(each);
    if (each) continue;
    ++t.files;
    t.bytes += bytes;
  }
  if (error) return Status(Errc::cannot_read, dir + ": " + error.message());
  return t;
}

Result<CacheTotals> CodeCache::clear(const std::string& dir) {
  Result<CacheTotals> t = totals(dir);
  if (!t) return t;
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (is_cache_file(it->path())) files.push_back(it->path());
  }
  for (const fs::path& f : files) fs::remove(f, error);
  return t;
}

}  // namespace jitser::jit
