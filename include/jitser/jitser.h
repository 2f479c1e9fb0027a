// jitser: serializers compiled at run time. Include this header to use the library; it needs
// only the installed include directory (`-I <prefix>/include`).
#pragma once

#include <jitser/buffer.h>     // IWYU pragma: export
#include <jitser/builder.h>    // IWYU pragma: export
#include <jitser/engine.h>     // IWYU pragma: export
#include <jitser/format.h>     // IWYU pragma: export
#include <jitser/object.h>     // IWYU pragma: export
#include <jitser/options.h>    // IWYU pragma: export
#include <jitser/status.h>     // IWYU pragma: export
#include <jitser/type_desc.h>  // IWYU pragma: export
#include <jitser/value.h>      // IWYU pragma: export
