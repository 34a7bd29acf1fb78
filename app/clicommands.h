// fencescope-cli's commands and options: one table that the parser, the usage lines, the help
// text and (through --help) the man page all read, so an option behaves and reads the same in
// every command that takes it. QtCore alone: fencescope-cli loads no QtGui, and hands export
// and storyboard to its picture helper, built from the same sources (app/CMakeLists.txt).
#pragma once

#include "sweep.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace Cli {

// What export, storyboard and animate are asked to draw. The picture helper makes ExportOptions of
// it (pictureOptions() in cli.cpp): what is unset or off keeps ExportOptions' defaults.
struct PictureArgs
{
    bool compare = false;
    std::optional<double> width;
    std::optional<double> scale;
    std::optional<double> fromTick;
    std::optional<double> toTick;
    std::optional<Core::Tick> playhead; // export --at
    QString theme;                      // one of themeNames(); empty: the default
    QString caption;                    // empty: the default caption
    bool noTitle = false;
    bool noLegend = false;
    bool noCaption = false;
    bool slide = false; // a 16:9 slide (ExportOptions::slide)
};

// What one command line asks for, filled in by the options' apply functions.
struct Invocation
{
    QStringList files;
    QString output;
    std::optional<bool> fencing; // unset: the file's own switch
    bool summary = false;
    bool everyEvent = false;
    std::vector<Core::Tick> ticks; // storyboard --at
    PictureArgs picture;
    // animate
    std::optional<int> fps;
    std::optional<double> stepSeconds;
    std::optional<int> loop;
    QString lesson; // animate --lesson: the lesson to animate, in place of FILE
    // sweep and find
    Core::SweepAxis vary;
    Core::SweepAxis vary2;
    std::uint64_t runs = 0; // 0: the command's default
    std::uint64_t seed = 1;
    int threads = 0; // 0: one per core
    QString csv;
    bool json = false;
    bool fixed = false;
    std::optional<Core::SweepSchedules> schedules; // unset: near (--fixed: fixed)
    std::optional<Core::Tick> jitter;              // unset: 1
    int failure = 0;                               // index into Core::outcomes()
    bool anyFailure = false; // find --any: not only a write that tells the outcome's story
    bool shrink = true;
    bool noKey = false; // lesson handout
    // live
    QString etcd;          // empty or "auto": a throwaway etcd; else a running one's client URL
    bool postgres = false; // --store postgres
    std::optional<double> tickMs;
    std::uint64_t repeat = 1;
    bool help = false;
};

struct OptionSpec
{
    QStringList names;   // "o" is -o, "output" is --output
    QString valueName;   // empty: a switch
    QString description; // one line
    // Takes one value (empty for a switch) into the invocation; returns an error or "".
    std::function<QString(const QString &value, Invocation *)> apply;
    bool required = false; // shown without brackets; missing is a usage error
    // Given in place of the command's FILE ("animate --lesson LESSON"): the synopsis shows
    // "FILE|--lesson LESSON", and exactly one of the two is asked for.
    bool insteadOfFile = false;
};

struct CommandSpec
{
    QString name;
    QString summary;     // one line for the list of commands
    QString description; // a paragraph for `COMMAND --help`
    QString outputName;  // non-empty: -o is required and this is its value's name
    std::vector<OptionSpec> options;
    QString fileName = QStringLiteral("FILE"); // what the one positional argument is
};

const std::vector<CommandSpec> &commands();
// A command by name; a command of two words ("lesson check") is named with both.
const CommandSpec *findCommand(const QString &name);
QString commandNames(); // "run, check, export, storyboard, animate, sweep, find, lesson check, ..., live"

// "fencescope-cli run FILE [--fencing on|off] [--summary]"; with width > 0 wrapped at that many
// columns (the first line starting at firstColumn), continuation lines indented by indent spaces.
QString synopsis(const CommandSpec &command, int width = 0, int indent = 0, int firstColumn = 0);
QString overviewHelp();
QString commandHelp(const CommandSpec &command);

// Parses the arguments after the command's name. Returns an error for one line on stderr, or "".
QString parse(const CommandSpec &command, const QStringList &args, Invocation *invocation);

} // namespace Cli
