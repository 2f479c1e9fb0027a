// Streams of records, for `jitser convert --records`: newline-delimited JSON, one document a
// line, or binary messages each after its length as an unsigned LEB128 varint (as Protobuf's
// delimited streams frame theirs). Read a chunk at a time, so a stream of any length fits.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <jitser/buffer.h>
#include <jitser/format.h>

namespace jitser::tool {

class RecordReader {
 public:
  RecordReader(std::FILE* in, Format format) : in_(in), format_(format) {}

  /// The next record's bytes into `record`, with room after them for JSON to be read in place;
  /// false at the end of the stream, or on an error, which error() then describes.
  bool next(Buffer& record);
  const std::string& error() const { return error_; }
  /// Where the last record starts in the stream, and how many bytes have been read.
  std::uint64_t record_offset() const { return record_offset_; }
  std::uint64_t bytes_read() const { return consumed_ + pos_; }

 private:
  bool next_line(Buffer& record);
  bool next_message(Buffer& record);
  // At least `n` bytes buffered from `pos_`, unless the stream ends first.
  bool fill(std::size_t n);

  std::FILE* in_;
  Format format_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::uint64_t consumed_ = 0;  // bytes of the stream before buffer_[pos_]
  std::uint64_t record_offset_ = 0;
  std::string error_;
};

/// Appends one record to `out` in the stream's framing.
void append_record(Format format, const Buffer& record, Buffer& out);

/// Progress on stderr for a conversion that runs longer than a couple of seconds: records,
/// megabytes and the rate, on one line rewritten in a terminal, every few seconds otherwise.
class Progress {
 public:
  Progress();
  void update(std::uint64_t records, std::uint64_t bytes);
  /// The final count, if progress was shown.
  void finish(std::uint64_t records, std::uint64_t bytes);

 private:
  void show(std::uint64_t records, std::uint64_t bytes, const char* end);

  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
  bool terminal_;
  bool shown_ = false;
};

}  // namespace jitser::tool
