// Must not compile (tests/CMakeLists.txt, "The layers"): compiled as a part of fencescope_views,
// it sees its own folder and the document's, and no window header.
#include "document/document.h"
#include "views/timelineview.h"
#include "window/mainwindow.h"
