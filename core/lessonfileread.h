#pragma once

// The lesson reader's two halves, internal to the core: lessonfile.cpp reads the document with
// simdjson into Nodes (file order kept, duplicate keys and depth checked as the scenario file's
// values are), lessonfileread.cpp turns the Nodes into a Lesson, checking every rule.

#include "lessonfile.h"
#include "scenariofilevalues.h"

#include <QString>
#include <QStringList>

#include <string_view>
#include <utility>
#include <vector>

namespace Core::LessonFormat {

// One JSON value of a lesson file, read whole (lesson files are small). Valid while the parser
// that read it lives: strings point into its buffers.
struct Node
{
    simdjson::ondemand::json_type type = simdjson::ondemand::json_type::null;
    ScenarioFormat::Token scalar;                  // a number, string, boolean or null
    std::vector<std::pair<QString, Node>> members; // an object's, in file order
    std::vector<Node> elements;                    // an array's
    // A scene's inline scenario is not read here: its text goes to the scenario loader whole.
    std::string_view raw;
    int depth = 1; // the root object is level 1
};

// The lesson in `root` (the document's object). Throws ScenarioFormat::Problem for the first
// problem, by place. Each scene's scenario is loaded (`path` relative to `baseDir`) and run.
Lesson readLesson(const Node &root, const QString &baseDir, const LessonLimits &limits,
                  QStringList *unknownKeys);

} // namespace Core::LessonFormat
