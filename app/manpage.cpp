// fencescope-manpage CLI OUT.1: writes fencescope-cli's man page from the help the built binary
// prints (`--help`, then `COMMAND --help` for each command it lists), so the page says what the
// program does and cannot drift from it.

#include "savefile.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>

#include <cstdio>

namespace {

QString helpOf(const QString &cli, const QStringList &args, bool *ok)
{
    QProcess p;
    p.start(cli, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        std::fprintf(stderr, "fencescope-manpage: %s %s failed\n", qPrintable(cli),
                     qPrintable(args.join(QLatin1Char(' '))));
        *ok = false;
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Plain text as roff: backslashes and hyphens escaped, no line taken for a request.
QString roff(QString text)
{
    text.replace(QLatin1Char('\\'), QLatin1String("\\e"));
    text.replace(QLatin1Char('-'), QLatin1String("\\-"));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QLatin1String("\\&"));
    return text;
}

// "-o, --output OUT" -> bold option names, the value's name in italics.
QString term(const QString &left)
{
    QStringList parts;
    for (const QString &word : left.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const bool name = word.startsWith(QLatin1Char('-')) || !left.startsWith(QLatin1Char('-'));
        parts << (name ? QLatin1String("\\fB") : QLatin1String("\\fI")) + roff(word) +
                     QLatin1String("\\fR");
    }
    return parts.join(QLatin1Char(' '));
}

struct Entry
{
    QString term;
    QString text;
};

// One block of help text (between blank lines) as roff.
QString block(const QString &text, QList<Entry> *entries = nullptr)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    QString out;
    if (lines.first().startsWith(QLatin1String("usage: "))) {
        out += QLatin1String(".nf\n");
        for (const QString &line : lines)
            out += roff(line.mid(7)) + QLatin1Char('\n');
        return out + QLatin1String(".fi\n");
    }
    if (lines.first().endsWith(QLatin1Char(':')) && lines.size() > 1) {
        static const QRegularExpression item(QStringLiteral("^  (\\S.*?)  +(\\S.*)$"));
        QList<Entry> list;
        for (const QString &line : lines.mid(1)) {
            const QRegularExpressionMatch m = item.match(line);
            if (m.hasMatch())
                list.append({m.captured(1), m.captured(2)});
            else if (!list.isEmpty())
                list.last().text += QLatin1Char(' ') + line.trimmed();
        }
        if (!entries) // the list of commands has its section's title instead
            out += QLatin1String(".PP\n") + roff(lines.first()) + QLatin1Char('\n');
        for (const Entry &e : list)
            out += QLatin1String(".TP\n") + term(e.term) + QLatin1Char('\n') + roff(e.text) +
                   QLatin1Char('\n');
        if (entries)
            *entries = list;
        return out;
    }
    QStringList words;
    for (const QString &line : lines)
        words << line.trimmed();
    return QLatin1String(".PP\n") + roff(words.join(QLatin1Char(' '))) + QLatin1Char('\n');
}

QStringList blocks(const QString &help)
{
    QStringList list = help.trimmed().split(QStringLiteral("\n\n"));
    for (QString &b : list)
        b = b.trimmed().isEmpty() ? QString() : b;
    list.removeAll(QString());
    return list;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: fencescope-manpage PATH/TO/fencescope-cli OUT.1\n");
        return 2;
    }
    const QString &cli = args.at(1);
    bool ok = true;
    const QString version = helpOf(cli, {QStringLiteral("--version")}, &ok).trimmed();
    const QStringList overview = blocks(helpOf(cli, {QStringLiteral("--help")}, &ok));
    if (!ok || overview.size() < 3)
        return 1;

    // usage, a one-sentence description, the commands, then notes
    QString page =
        QStringLiteral(".TH FENCESCOPE\\-CLI 1 \"\" \"%1\" \"User Commands\"\n").arg(roff(version));
    QString summary = overview.at(1).simplified();
    if (summary.endsWith(QLatin1Char('.')))
        summary.chop(1);
    summary[0] = summary.at(0).toLower();
    page += QLatin1String(".SH NAME\nfencescope\\-cli \\- ") + roff(summary) + QLatin1Char('\n');
    page += QLatin1String(".SH SYNOPSIS\n") + block(overview.at(0));
    page += QLatin1String(".SH DESCRIPTION\n") + block(overview.at(1));
    for (const QString &b : overview.mid(3))
        page += block(b);
    QList<Entry> commands;
    page += QLatin1String(".SH COMMANDS\n") + block(overview.at(2), &commands);
    for (const Entry &command : commands) {
        if (command.term == QLatin1String("help"))
            continue;
        // a command of two words ("lesson check") is two arguments
        const QStringList help = blocks(
            helpOf(cli, command.term.split(QLatin1Char(' ')) << QStringLiteral("--help"), &ok));
        if (!ok)
            return 1;
        page += QStringLiteral(".SS \"%1\"\n").arg(roff(command.term));
        for (const QString &b : help) {
            if (!overview.contains(b)) // the shared notes are said once, above
                page += block(b);
        }
    }

    // as every save: whole or not at all, and the folder flushed after the rename
    if (const std::optional<Core::SaveFailure> failed =
            Core::saveWhole(args.at(2), page.toUtf8())) {
        std::fprintf(stderr, "fencescope-manpage: %s\n",
                     qPrintable(Core::cannotWrite(args.at(2), *failed)));
        return 1;
    }
    return 0;
}
