// JITSER_API marks what libjitser.so exports: the library is built with hidden visibility, so
// only declarations marked here are part of its ABI. The same marking is harmless in the static
// library.
#pragma once

#define JITSER_API [[gnu::visibility("default")]]
