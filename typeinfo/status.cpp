#include <jitser/status.h>

namespace jitser {

const char* errc_name(Errc code) {
  switch (code) {
    case Errc::ok: return "ok";
    case Errc::invalid_descriptor: return "invalid descriptor";
    case Errc::duplicate_type: return "duplicate type";
    case Errc::duplicate_field: return "duplicate field";
    case Errc::duplicate_number: return "duplicate field number";
    case Errc::unregistered_type: return "unregistered type";
    case Errc::recursive_by_value: return "recursive by value";
    case Errc::unknown_type: return "unknown type";
    case Errc::unsupported: return "unsupported";
    case Errc::cannot_read: return "cannot read";
    case Errc::empty_codec: return "empty codec";
    case Errc::truncated: return "truncated";
    case Errc::varint_overlong: return "overlong varint";
    case Errc::varint_overflow: return "varint overflow";
    case Errc::length_too_large: return "length too large";
    case Errc::invalid_bool: return "invalid bool";
    case Errc::unknown_enum: return "unknown enum value";
    case Errc::bad_reference: return "bad reference";
    case Errc::depth_exceeded: return "depth exceeded";
    case Errc::trailing_bytes: return "trailing bytes";
    case Errc::fingerprint_mismatch: return "fingerprint mismatch";
    case Errc::bad_header: return "bad header";
    case Errc::bad_flag: return "bad flag";
    case Errc::invalid_utf8: return "invalid UTF-8";
    case Errc::duplicate_key: return "duplicate key";
    case Errc::out_of_range: return "out of range";
    case Errc::syntax_error: return "syntax error";
    case Errc::type_mismatch: return "type mismatch";
    case Errc::missing_field: return "missing field";
    case Errc::unknown_field: return "unknown field";
    case Errc::invalid_base64: return "invalid base64";
    case Errc::oneof_conflict: return "oneof conflict";
    case Errc::not_finite: return "not finite";
    case Errc::cycle: return "cycle";
    case Errc::jit_failed: return "jit failed";
    case Errc::internal: return "internal error";
  }
  return "unknown error";
}

Status::Status(Errc code, std::string message, std::size_t offset, std::string path)
    : detail_(std::make_unique<Detail>(Detail{code == Errc::ok ? Errc::internal : code,
                                              std::move(message), offset, std::move(path)})) {}

Status::Status(const Status& other)
    : detail_(other.detail_ ? std::make_unique<Detail>(*other.detail_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) detail_ = other.detail_ ? std::make_unique<Detail>(*other.detail_) : nullptr;
  return *this;
}

Errc Status::code() const { return detail_ ? detail_->code : Errc::ok; }

const std::string& Status::message() const {
  static const std::string empty;
  return detail_ ? detail_->message : empty;
}

std::size_t Status::offset() const { return detail_ ? detail_->offset : kNoOffset; }

const std::string& Status::path() const {
  static const std::string empty;
  return detail_ ? detail_->path : empty;
}

std::string Status::to_string() const {
  if (!detail_) return "ok";
  std::string s = errc_name(detail_->code);
  if (detail_->offset != kNoOffset) s += " at byte " + std::to_string(detail_->offset);
  if (!detail_->path.empty()) s += " in " + detail_->path;
  if (!detail_->message.empty()) s += ": " + detail_->message;
  return s;
}

}  // namespace jitser
