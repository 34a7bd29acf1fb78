// Must not compile (tests/CMakeLists.txt, "The layers"): compiled as a part of
// fencescope_document, it sees its own folder and no view header.
#include "document/document.h"
#include "views/timelineview.h"
