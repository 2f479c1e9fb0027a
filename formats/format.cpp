#include "formats/format.h"

namespace jitser {

const char* format_name(Format format) {
  switch (format) {
    case Format::Binary: return "binary";
  }
  return "?";
}

}  // namespace jitser
