#pragma once

// The corrupted-input corpus: every file that must be refused with a message, and the few
// odd-but-valid ones that must load. Shared by the CLI test and the GUI's open-path test.

#include <QDir>
#include <QStringList>

namespace HostileFiles {

inline QStringList directories()
{
    return {QStringLiteral(FENCESCOPE_TESTDATA "/hostile"), QStringLiteral(FENCESCOPE_TESTDATA "/invalid"),
            QStringLiteral(FENCESCOPE_SOURCE_DIR "/fuzz/regressions")};
}

// Files (by name) that are odd but valid: they must load. (Lone surrogates are refused: no
// UTF-8 file can hold one, so a scenario that kept it could not be saved as it was read.)
inline QStringList valid()
{
    return {QStringLiteral("bom.json"), QStringLiteral("control-chars.json"),
            QStringLiteral("huge-string.json"), QStringLiteral("long-fraction.json"),
            QStringLiteral("ttl-overflow-region.json")};
}

// Every corpus file, as absolute paths.
inline QStringList all()
{
    QStringList files;
    for (const QString &d : directories()) {
        const QDir dir(d);
        for (const QString &name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name))
            if (name != QLatin1String(".gitkeep"))
                files << dir.filePath(name);
    }
    return files;
}

} // namespace HostileFiles
