#include "formats/format.h"

namespace jitser {

const char* format_name(Format format) {
  switch (format) {
    case Format::Binary: return "binary";
    case Format::Json: return "json";
  }
  return "?";
}

}  // namespace jitser
