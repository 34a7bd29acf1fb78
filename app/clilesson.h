// fencescope-cli's lesson commands: `lesson check` (on QtCore, in fencescope-cli itself) and
// `lesson handout` (which draws: in the picture helper only, as export and storyboard).
#pragma once

#include "clicommands.h"
#include "lessonfile.h"

namespace Cli {

// The lesson at `file`, or from standard input for "-" (a scene's path then relative to the
// current folder).
Core::LessonLoadResult loadLesson(const QString &file);

int lessonCheck(const Invocation &inv);
#if FENCESCOPE_CLI_PICTURES
int lessonHandout(const Invocation &inv);
#endif

} // namespace Cli
