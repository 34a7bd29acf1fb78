// A command line read against the table of commands (clicommands.cpp), and the usage lines
// and help text written from it: what a person reads about an option and how it is parsed
// come from the one OptionSpec.
#include "clicommands.h"

#include <QCommandLineParser>

#include <algorithm>

namespace Cli {

namespace {

const int kHelpWidth = 100;
const char kExitStatus[] = "Exit status: 0 done, 2 invalid input or usage, 1 other.";

QString dashed(const QString &name)
{
    return (name.size() == 1 ? QLatin1String("-") : QLatin1String("--")) + name;
}

bool isHelp(const OptionSpec &o)
{
    return o.names.contains(QLatin1String("help"));
}

// The parts of a synopsis: the command, FILE, -o and every option in brackets.
QStringList synopsisParts(const CommandSpec &command, bool brief)
{
    QString file = command.fileName;
    for (const OptionSpec &o : command.options)
        if (o.insteadOfFile)
            file += QLatin1Char('|') + dashed(o.names.first()) + QLatin1Char(' ') + o.valueName;
    QStringList parts{QStringLiteral("fencescope-cli"), command.name, file};
    if (!command.outputName.isEmpty())
        parts << QStringLiteral("-o ") + command.outputName;
    bool any = false;
    for (const OptionSpec &o : command.options) {
        if (isHelp(o) || o.names.contains(QLatin1String("output")) || o.insteadOfFile)
            continue;
        const QString option = dashed(o.names.first()) +
                               (o.valueName.isEmpty() ? QString() : QLatin1Char(' ') + o.valueName);
        if (o.required)
            parts << option;
        else if (!brief)
            parts << QLatin1Char('[') + option + QLatin1Char(']');
        any = any || !o.required;
    }
    if (brief && any)
        parts << QStringLiteral("[options]");
    return parts;
}

// Words filled into lines of at most width columns; later lines start with indent spaces.
QString fill(const QStringList &words, int width, int indent, int firstColumn = 0)
{
    QString text;
    int column = firstColumn;
    for (const QString &word : words) {
        const bool first = text.isEmpty() && column == firstColumn;
        if (!first && width > 0 && column + 1 + word.size() > width) {
            text += QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
            column = indent;
        } else if (!first) {
            text += QLatin1Char(' ');
            ++column;
        }
        text += word;
        column += int(word.size());
    }
    return text;
}

QStringList words(const QString &text)
{
    return text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// The command's short usage for an error message: the whole synopsis when it is short.
QString usageForError(const CommandSpec &command)
{
    const QString full = synopsisParts(command, false).join(QLatin1Char(' '));
    return full.size() <= 80 ? full : synopsisParts(command, true).join(QLatin1Char(' '));
}

} // namespace

QString synopsis(const CommandSpec &command, int width, int indent, int firstColumn)
{
    return fill(synopsisParts(command, false), width, indent, firstColumn);
}

QString overviewHelp()
{
    QString text;
    const QString usage = QStringLiteral("usage: ");
    for (const CommandSpec &c : commands()) {
        // continuation lines start under FILE
        const int indent =
            int(usage.size() + QStringLiteral("fencescope-cli ").size() + c.name.size() + 1);
        text += (text.isEmpty() ? usage : QString(usage.size(), QLatin1Char(' '))) +
                synopsis(c, kHelpWidth, indent, int(usage.size())) + QLatin1Char('\n');
    }
    text += QString(usage.size(), QLatin1Char(' ')) +
            QStringLiteral("fencescope-cli help [COMMAND] | --help | --version\n\n");
    text += QStringLiteral("Simulates fencing-token scenarios and draws their timelines, without a "
                           "display.\n\nCommands:\n");
    int column = 4;
    for (const CommandSpec &c : commands())
        column = std::max(column, int(c.name.size()));
    column += 4;
    for (const CommandSpec &c : commands())
        text += QStringLiteral("  %1%2\n").arg(c.name.leftJustified(column - 2), c.summary);
    text += QStringLiteral("  %1%2\n\n")
                .arg(QStringLiteral("help").leftJustified(column - 2),
                     QStringLiteral("show this help, or a command's (as COMMAND --help does)"));
    text += QStringLiteral("FILE may be - for standard input. ") + QLatin1String(kExitStatus) +
            QLatin1Char('\n');
    return text;
}

QString commandHelp(const CommandSpec &command)
{
    const QString usage = QStringLiteral("usage: ");
    const int indent =
        int(usage.size() + QStringLiteral("fencescope-cli ").size() + command.name.size() + 1);
    const QString stdinNote =
        QStringLiteral("%1 may be - for standard input. ").arg(command.fileName);
    QString text =
        usage + synopsis(command, kHelpWidth, indent, int(usage.size())) + QStringLiteral("\n\n");
    text += fill(words(command.description), kHelpWidth, 0) + QStringLiteral("\n\nOptions:\n");
    QStringList left;
    int column = 0;
    for (const OptionSpec &o : command.options) {
        QStringList names;
        for (const QString &n : o.names)
            names << dashed(n);
        QString l = names.join(QLatin1String(", "));
        if (!o.valueName.isEmpty())
            l += QLatin1Char(' ') + o.valueName;
        left << l;
        column = std::max(column, int(l.size()));
    }
    column += 4; // two spaces before, two after
    for (size_t i = 0; i < command.options.size(); ++i) {
        const QString lead = QStringLiteral("  ") + left[qsizetype(i)].leftJustified(column - 2);
        text += lead + fill(words(command.options[i].description), kHelpWidth, column, column) +
                QLatin1Char('\n');
    }
    text += QLatin1Char('\n') + stdinNote + QLatin1String(kExitStatus) + QLatin1Char('\n');
    return text;
}

QString parse(const CommandSpec &command, const QStringList &args, Invocation *invocation)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    std::vector<QCommandLineOption> options;
    for (const OptionSpec &o : command.options) {
        options.emplace_back(o.names, o.description, o.valueName);
        parser.addOption(options.back());
    }
    const QString prefix = command.name + QLatin1String(": ");
    if (!parser.parse(QStringList{QStringLiteral("fencescope-cli")} + args)) {
        const QStringList unknown = parser.unknownOptionNames();
        if (!unknown.isEmpty())
            return prefix + QStringLiteral("unknown option ") + dashed(unknown.first());
        for (const OptionSpec &o : command.options) {
            for (const QString &n : o.names) {
                // given last with no value: judged as an empty value, as each option judges it
                if (!o.valueName.isEmpty() && !args.isEmpty() && args.last() == dashed(n)) {
                    Invocation scratch;
                    const QString error = o.apply(QString(), &scratch);
                    return error.isEmpty() ? dashed(n) + QStringLiteral(" needs a value") : error;
                }
                // a switch given a value
                const QString withValue = dashed(n) + QLatin1Char('=');
                for (const QString &a : args) {
                    if (o.valueName.isEmpty() && a.startsWith(withValue))
                        return QStringLiteral("%1 takes no value, not \"%2\"")
                            .arg(dashed(n), a.mid(withValue.size()));
                }
            }
        }
        return prefix + parser.errorText();
    }
    for (size_t i = 0; i < command.options.size(); ++i) {
        if (isHelp(command.options[i]) && parser.isSet(options[i])) {
            invocation->help = true;
            return {};
        }
    }
    for (size_t i = 0; i < command.options.size(); ++i) {
        const OptionSpec &o = command.options[i];
        if (!parser.isSet(options[i]))
            continue;
        // a repeated option: each value is checked, the last one counts
        const QStringList values =
            o.valueName.isEmpty() ? QStringList{QString()} : parser.values(options[i]);
        for (const QString &v : values) {
            QString error = o.apply(v, invocation);
            if (!error.isEmpty())
                return error;
        }
    }
    invocation->files = parser.positionalArguments();
    const OptionSpec *instead = nullptr;
    for (size_t i = 0; i < command.options.size(); ++i)
        if (command.options[i].insteadOfFile && parser.isSet(options[i]))
            instead = &command.options[i];
    if (instead && !invocation->files.isEmpty())
        return prefix +
               QStringLiteral("give %1 or %2 %3, not both")
                   .arg(command.fileName, dashed(instead->names.first()), instead->valueName);
    if (invocation->files.isEmpty() && !instead)
        return prefix + QStringLiteral("missing %1 (usage: %2)")
                            .arg(command.fileName, usageForError(command));
    if (invocation->files.size() > 1)
        return prefix + QStringLiteral("one %1 only, got also %2")
                            .arg(command.fileName, invocation->files.at(1));
    if (!command.outputName.isEmpty() && invocation->output.isEmpty())
        return prefix + QStringLiteral("missing -o %1 (usage: %2)")
                            .arg(command.outputName, usageForError(command));
    for (size_t i = 0; i < command.options.size(); ++i) {
        const OptionSpec &o = command.options[i];
        if (o.required && !parser.isSet(options[i]))
            return prefix + QStringLiteral("missing %1 %2 (usage: %3)")
                                .arg(dashed(o.names.first()), o.valueName, usageForError(command));
    }
    return {};
}

} // namespace Cli
