// What a newcomer reads leads somewhere: docs/SCENARIO.md is the contract itself (byte for byte
// the original, where a checkout has that beside it), every place that cites "SCENARIO.md
// section N" names the copy a clone can open and a section it has, and every relative link of
// README and docs/ names a file that exists.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

const QString kRoot = QStringLiteral(FENCESCOPE_SOURCE_DIR);
// The line after which docs/SCENARIO.md is the contract, unchanged.
const QByteArray kMarker = "<!-- The contract, unchanged, from the next line to the end. -->\n";

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// docs/SCENARIO.md from the marker's next line on; empty without the marker.
QByteArray contractCopy()
{
    const QByteArray copy = readAll(kRoot + QStringLiteral("/docs/SCENARIO.md"));
    const qsizetype at = copy.indexOf(kMarker);
    return at < 0 ? QByteArray() : copy.mid(at + kMarker.size());
}

// The sections the contract has: "## 7. ..." and the amendments' "**15.3 ...".
QSet<QString> sectionsOf(const QByteArray &contract)
{
    QSet<QString> sections;
    static const QRegularExpression heading(
        QStringLiteral("^(?:## (\\d+)\\.|\\*\\*(\\d+\\.\\d+) )"),
        QRegularExpression::MultilineOption);
    auto it = heading.globalMatch(QString::fromUtf8(contract));
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        sections.insert(m.captured(1).isEmpty() ? m.captured(2) : m.captured(1));
    }
    return sections;
}

// Every text file of the project a reader may open (not the build trees, not the contract).
QStringList projectFiles()
{
    QStringList files{kRoot + QStringLiteral("/README.md"),
                      kRoot + QStringLiteral("/CMakeLists.txt")};
    const QStringList folders{QStringLiteral("app"),       QStringLiteral("bench"),
                              QStringLiteral("cmake"),     QStringLiteral("core"),
                              QStringLiteral("docs"),      QStringLiteral("fuzz"),
                              QStringLiteral("resources"), QStringLiteral("scripts"),
                              QStringLiteral("tests"),     QStringLiteral("ui")};
    const QStringList patterns{QStringLiteral("*.cpp"), QStringLiteral("*.h"),
                               QStringLiteral("*.md"),  QStringLiteral("*.json"),
                               QStringLiteral("*.txt"), QStringLiteral("*.cmake"),
                               QStringLiteral("*.sh")};
    for (const QString &folder : folders) {
        QDirIterator it(kRoot + QLatin1Char('/') + folder, patterns, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            // (not the contract itself, nor this test, whose examples cite sections it has not)
            if (!file.endsWith(QLatin1String("/docs/SCENARIO.md")) &&
                !file.endsWith(QLatin1String("/tst_docs.cpp")))
                files << file;
        }
    }
    files.sort();
    return files;
}

QString relative(const QString &path)
{
    return QDir(kRoot).relativeFilePath(path);
}

// The line of `offset` in `text`, from 1.
int lineOf(const QString &text, qsizetype offset)
{
    return int(text.left(offset).count(QLatin1Char('\n'))) + 1;
}

} // namespace

class TestDocs : public QObject
{
    Q_OBJECT

private slots:
    // The copy says what it is at its top, holds the whole contract after its marker (its title,
    // sections 1 to 15 and the amendments 15.1 to 15.7), and, where the original is beside the
    // checkout, is that original byte for byte: an edit of either fails here until both agree.
    void scenarioIsTheContract()
    {
        const QByteArray page = readAll(kRoot + QStringLiteral("/docs/SCENARIO.md"));
        QVERIFY2(page.startsWith("> **This page is FenceScope's contract.**"), page.left(80));
        QVERIFY(page.contains(kMarker));
        const QByteArray contract = contractCopy();
        QVERIFY(
            contract.startsWith("# FenceScope scenario semantics and file formats, version 1\n"));
        QSet<QString> expected;
        for (int n = 1; n <= 15; ++n)
            expected.insert(QString::number(n));
        for (int n = 1; n <= 7; ++n)
            expected.insert(QStringLiteral("15.%1").arg(n));
        QCOMPARE(sectionsOf(contract), expected);
#ifdef FENCESCOPE_SHARED_SPEC
        const QByteArray original = readAll(QStringLiteral(FENCESCOPE_SHARED_SPEC));
        QVERIFY2(!original.isEmpty(), FENCESCOPE_SHARED_SPEC);
        if (contract != original) {
            qsizetype i = 0;
            while (i < contract.size() && i < original.size() && contract[i] == original[i])
                ++i;
            QFAIL(qPrintable(QStringLiteral("docs/SCENARIO.md differs from %1 from line %2 of "
                                            "the contract on: copy the original again")
                                 .arg(QStringLiteral(FENCESCOPE_SHARED_SPEC))
                                 .arg(lineOf(QString::fromUtf8(contract.left(i)), i))));
        }
#endif
    }

    // "SCENARIO.md" alone leads nowhere from a clone: the code says docs/SCENARIO.md, a page of
    // docs/ links its sibling ([SCENARIO.md](SCENARIO.md)); the build names the original by its
    // path (../shared/spec/SCENARIO.md). And every section cited is one the
    // contract has ("section 16" or "section 15.9" would send a reader to nothing).
    void everyCitationOpens()
    {
        const QSet<QString> sections = sectionsOf(contractCopy());
        QVERIFY(!sections.isEmpty());
        static const QRegularExpression allowed(
            QStringLiteral("(?:docs|shared/spec)/SCENARIO\\.md"));
        static const QRegularExpression sibling(
            QStringLiteral("\\[SCENARIO\\.md\\]\\(SCENARIO\\.md\\)"));
        // (a citation may run on over a comment's next line: the leaders are read as a space)
        static const QRegularExpression leader(QStringLiteral("\\n[ \\t]*(?://+|#|\\*)?[ \\t]*"));
        static const QRegularExpression citation(
            QStringLiteral("SCENARIO\\.md(?:\\]\\([^)]*\\))?\\)?,?\\s*(?:§\\s*|sections?\\s+)"
                           "((?:\\d+(?:\\.\\d+)?(?:\\s*(?:,|-|and|or)\\s*)?)+)"));
        static const QRegularExpression number(QStringLiteral("\\d+(?:\\.\\d+)?"));
        QStringList problems;
        int citations = 0;
        for (const QString &file : projectFiles()) {
            const QString text = QString::fromUtf8(readAll(file));
            if (!text.contains(QLatin1String("SCENARIO.md")))
                continue;
            QString masked = text;
            masked.replace(allowed, QStringLiteral("docs/SCENARIO_md"));
            if (relative(file).startsWith(QLatin1String("docs/")))
                masked.replace(sibling, QStringLiteral("[SCENARIO_md](SCENARIO_md)"));
            for (qsizetype at = masked.indexOf(QLatin1String("SCENARIO.md")); at >= 0;
                 at = masked.indexOf(QLatin1String("SCENARIO.md"), at + 1))
                problems << QStringLiteral("%1:%2: SCENARIO.md without its folder (docs/)")
                                .arg(relative(file))
                                .arg(lineOf(text, at));
            QString flat = text;
            flat.replace(leader, QStringLiteral(" "));
            auto it = citation.globalMatch(flat);
            while (it.hasNext()) {
                const QRegularExpressionMatch m = it.next();
                auto numbers = number.globalMatch(m.captured(1));
                while (numbers.hasNext()) {
                    const QString n = numbers.next().captured(0);
                    ++citations;
                    if (!sections.contains(n))
                        problems << QStringLiteral("%1: cites section %2, which SCENARIO.md "
                                                   "does not have (\"%3\")")
                                        .arg(relative(file), n, m.captured(0).simplified());
                }
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(citations > 50,
                 qPrintable(QString::number(citations))); // (the pattern reads them)
    }

    // Every relative link of README.md and docs/*.md names a file of the repository.
    void everyLinkOpens()
    {
        static const QRegularExpression link(QStringLiteral("\\]\\(([^)\\s]+)\\)"));
        QStringList pages{kRoot + QStringLiteral("/README.md")};
        for (const QString &page :
             QDir(kRoot + QStringLiteral("/docs")).entryList({QStringLiteral("*.md")}, QDir::Files))
            pages << kRoot + QStringLiteral("/docs/") + page;
        QStringList problems;
        int links = 0;
        for (const QString &page : pages) {
            const QString text = QString::fromUtf8(readAll(page));
            auto it = link.globalMatch(text);
            while (it.hasNext()) {
                const QRegularExpressionMatch m = it.next();
                QString target = m.captured(1);
                if (target.contains(QLatin1String("://")) || target.startsWith(QLatin1Char('#')) ||
                    target.startsWith(QLatin1String("mailto:")))
                    continue;
                target = target.section(QLatin1Char('#'), 0, 0);
                ++links;
                if (!QFileInfo::exists(QFileInfo(page).dir().filePath(target)))
                    problems << QStringLiteral("%1:%2: %3 does not exist")
                                    .arg(relative(page))
                                    .arg(lineOf(text, m.capturedStart()))
                                    .arg(target);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(links > 10);
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "tst_docs.moc"
