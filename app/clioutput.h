// What every command of fencescope-cli says on its way out: one line on stderr for invalid
// input or usage, "-" for standard streams, a whole write or the one line saying it failed.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdio>

namespace Cli {

// Exactly one line on stderr, then exit status 2.
inline int invalid(const QString &message)
{
    const QByteArray line = message.simplified().toUtf8();
    std::fprintf(stderr, "fencescope-cli: %s\n", line.constData());
    return 2;
}

// "-" for an output is standard output, as it is standard input for a scenario file.
inline bool isStandardStream(const QString &file)
{
    return file == QLatin1String("-");
}

// All of `text` on `stream`; on failure the one line saying so, and false.
inline bool writeAll(std::FILE *stream, const QByteArray &text)
{
    if (std::fwrite(text.constData(), 1, std::size_t(text.size()), stream) ==
            std::size_t(text.size()) &&
        std::fflush(stream) == 0)
        return true;
    std::fprintf(stderr, "fencescope-cli: cannot write to standard %s\n",
                 stream == stdout ? "output" : "error");
    return false;
}

} // namespace Cli
