// fencescope-cli's lesson commands: `lesson check` (on QtCore, in fencescope-cli itself) and
// `lesson handout` (which draws: in the picture helper only, as export and storyboard).
#pragma once

#include "clicommands.h"

namespace Cli {

int lessonCheck(const Invocation &inv);
#if FENCESCOPE_CLI_PICTURES
int lessonHandout(const Invocation &inv);
#endif

} // namespace Cli
