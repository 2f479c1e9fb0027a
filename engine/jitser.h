// jitser: serializers compiled at run time. Include this header to use the library.
#pragma once

#include "engine/engine.h"       // IWYU pragma: export
#include "formats/buffer.h"      // IWYU pragma: export
#include "formats/format.h"      // IWYU pragma: export
#include "typeinfo/builder.h"    // IWYU pragma: export
#include "typeinfo/status.h"     // IWYU pragma: export
#include "typeinfo/type_desc.h"  // IWYU pragma: export
