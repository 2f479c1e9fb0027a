#include "tools/records.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace jitser::tool {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
// A binary record longer than this is taken for a broken length rather than waited for.
constexpr std::uint64_t kMaxRecord = std::uint64_t{1} << 30;

bool blank(const char* p, std::size_t n) {
  return std::all_of(p, p + n, [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

void set_record(Buffer& record, const char* p, std::size_t n) {
  record.clear();
  record.reserve(n + kReadPadding);
  record.append(p, n);
}

}  // namespace

bool RecordReader::fill(std::size_t n) {
  while (buffer_.size() - pos_ < n && !eof_) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(pos_));
    consumed_ += pos_;
    pos_ = 0;
    const std::size_t have = buffer_.size();
    buffer_.resize(have + std::max(kChunk, n));
    const std::size_t got = std::fread(buffer_.data() + have, 1, buffer_.size() - have, in_);
    buffer_.resize(have + got);
    if (got == 0) {
      if (std::ferror(in_)) error_ = "cannot read the input";
      eof_ = true;
    }
  }
  return buffer_.size() - pos_ >= n;
}

bool RecordReader::next(Buffer& record) {
  return format_ == Format::Json ? next_line(record) : next_message(record);
}

bool RecordReader::next_line(Buffer& record) {
  for (;;) {
    std::size_t scanned = 0;
    const char* newline = nullptr;
    while (!newline) {
      const char* from = buffer_.data() + pos_ + scanned;
      const std::size_t left = buffer_.size() - pos_ - scanned;
      newline = static_cast<const char*>(std::memchr(from, '\n', left));
      if (newline) break;
      scanned += left;
      if (!fill(scanned + 1)) break;
    }
    const char* line = buffer_.data() + pos_;
    const std::size_t n =
        newline ? static_cast<std::size_t>(newline - line) : buffer_.size() - pos_;
    if (!newline && n == 0) return false;  // the end of the stream, or an error
    record_offset_ = consumed_ + pos_;
    pos_ += n + (newline ? 1 : 0);
    if (blank(line, n)) continue;  // blank lines separate nothing
    set_record(record, line, n);
    return true;
  }
}

bool RecordReader::next_message(Buffer& record) {
  record_offset_ = consumed_ + pos_;
  std::uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    if (!fill(1)) {
      if (shift != 0 && error_.empty()) error_ = "the stream ends inside a record's length";
      return false;
    }
    const auto byte = static_cast<std::uint8_t>(buffer_[pos_++]);
    if (shift == 63 && byte > 1) {
      error_ = "a record's length does not fit 64 bits";
      return false;
    }
    length |= std::uint64_t{byte & 0x7Fu} << shift;
    if (!(byte & 0x80)) break;
  }
  if (length > kMaxRecord) {
    error_ = "a record of " + std::to_string(length) + " bytes is longer than 1 GiB";
    return false;
  }
  const auto n = static_cast<std::size_t>(length);
  if (!fill(n)) {
    if (error_.empty()) error_ = "the stream ends inside a record";
    return false;
  }
  set_record(record, buffer_.data() + pos_, n);
  pos_ += n;
  return true;
}

void append_record(Format format, const Buffer& record, Buffer& out) {
  if (format == Format::Json) {
    out.append(record.data(), record.size());
    out.append("\n", 1);
    return;
  }
  std::uint8_t length[10];
  std::size_t n = 0;
  for (std::uint64_t v = record.size();; v >>= 7) {
    length[n++] = static_cast<std::uint8_t>((v & 0x7F) | (v >= 0x80 ? 0x80 : 0));
    if (v < 0x80) break;
  }
  out.append(length, n);
  out.append(record.data(), record.size());
}

Progress::Progress() : terminal_(isatty(STDERR_FILENO) == 1) {}

void Progress::update(std::uint64_t records, std::uint64_t bytes) {
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(2)) return;
  if (shown_ &&
      now - last_ < (terminal_ ? std::chrono::milliseconds(250) : std::chrono::seconds(5))) {
    return;
  }
  last_ = now;
  show(records, bytes, terminal_ ? "\r" : "\n");
}

void Progress::finish(std::uint64_t records, std::uint64_t bytes) {
  if (shown_) show(records, bytes, "\n");
}

void Progress::show(std::uint64_t records, std::uint64_t bytes, const char* end) {
  shown_ = true;
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const double mb = static_cast<double>(bytes) / 1e6;
  std::fprintf(stderr, "jitser: %llu records, %.1f MB read, %.1f MB/s, %.0f records/s%s",
               static_cast<unsigned long long>(records), mb, mb / seconds,
               static_cast<double>(records) / seconds, end);
  std::fflush(stderr);
}

}  // namespace jitser::tool
