// Loading scenario files from disk (core/scenariofile.cpp): a regular file is parsed where it is
// mapped, with the padding simdjson reads past the end supplied by a page of its own; whatever
// its size, load() must say exactly what parse() says of the same bytes. And the clock-rate
// rule the loader uses, exported as Core::parseRateText for the clock dialog, and its inverse
// Core::rateText (the writer's, the dialog's and the hit test's spelling).

#include "scenariofile.h"
#include "testprinters.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Core;

namespace {

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const QByteArray kValid = R"({"fencescope": 1, "title": "mapped", "clients": [{"name": "A", )"
                          R"("actions": [{"at": 1, "do": "acquire", "ttl": 5}, )"
                          R"({"at": 2, "do": "write", "value": "x"}]}]})";

// `json` followed by spaces (or, with `fill`, other bytes) up to exactly `size` bytes.
QByteArray sized(const QByteArray &json, qsizetype size, char fill = ' ')
{
    QByteArray bytes = json;
    if (bytes.size() < size)
        bytes.append(size - bytes.size(), fill);
    return bytes;
}

} // namespace

class TestScenarioFileLoad : public QObject
{
    Q_OBJECT

private slots:
    void fileEndingAtAPageBoundary_data()
    {
        QTest::addColumn<qsizetype>("size");
        const auto page = qsizetype(sysconf(_SC_PAGESIZE));
        // the end exactly at, just before and just after a page boundary, and with fewer bytes
        // left in the last page than simdjson's padding
        for (const qsizetype size : {page, page - 1, page + 1, page - 32, page - 64, page - 65,
                                     3 * page, 3 * page - 10, qsizetype(kValid.size())})
            QTest::addRow("%lld bytes", qlonglong(size)) << size;
    }

    void fileEndingAtAPageBoundary()
    {
        QFETCH(qsizetype, size);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));

        // a valid file: the same scenario as parse() gives
        const QByteArray valid = sized(kValid, size);
        QCOMPARE(valid.size(), size);
        QVERIFY(writeAll(path, valid));
        const LoadResult loaded = ScenarioFile::load(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.scenario->title, QStringLiteral("mapped"));
        QCOMPARE(loaded.scenario->actionCount(), std::size_t(2));
        QCOMPARE(*loaded.scenario, *ScenarioFile::parse(valid).scenario);

        // a file cut short in its last byte: the syntax error names the end of the file
        QByteArray cut = sized(kValid, size);
        cut.chop(cut.size() - kValid.size() + 1); // drops the closing brace and the spaces
        cut = sized(cut, size - 1, '\n');
        QVERIFY(writeAll(path, cut));
        const LoadResult broken = ScenarioFile::load(path);
        QVERIFY(!broken.ok());
        QCOMPARE(broken.error, ScenarioFile::parse(cut).error);
        // the place just past the last byte: after the last newline, or on the one line
        const qsizetype lines = cut.count('\n');
        const qsizetype column = cut.size() - (cut.lastIndexOf('\n') + 1) + 1;
        QCOMPARE(broken.error,
                 QStringLiteral("line %1, column %2: not valid JSON (unterminated object)")
                     .arg(lines + 1)
                     .arg(column));

        // garbage after the document, up to the last byte before the boundary
        QByteArray trailing = sized(kValid, size - 1);
        trailing.append('x');
        QVERIFY(writeAll(path, trailing));
        QCOMPARE(ScenarioFile::load(path).error, ScenarioFile::parse(trailing).error);
        QVERIFY(!ScenarioFile::load(path).ok());
    }

    void fileOverTheLimitIsRefusedBeforeItIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(writeAll(path, sized(kValid, 3 << 20)));
        FileLimits limits;
        limits.maxFileBytes = 2 << 20;
        QCOMPARE(ScenarioFile::load(path, limits).error,
                 QStringLiteral("file: too large (3.0 MiB; the limit is 2.0 MiB)"));
        QVERIFY(ScenarioFile::load(path).ok());
    }

    void anEmptyFileIsReadNotMapped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("empty.json"));
        QVERIFY(writeAll(path, {}));
        QCOMPARE(ScenarioFile::load(path).error, ScenarioFile::parse({}).error);
        QVERIFY(!ScenarioFile::load(path).error.isEmpty());
    }

    void rateText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("milli"); // -1: refused
        QTest::newRow("1") << "1" << 1000;
        QTest::newRow("0.5") << "0.5" << 500;
        QTest::newRow("1.500") << "1.500" << 1500;
        QTest::newRow("1.5e0") << "1.5e0" << 1500;
        QTest::newRow("15e-1") << "15e-1" << 1500;
        QTest::newRow("0.001") << "0.001" << 1;
        QTest::newRow("1E-3") << "1E-3" << 1;
        QTest::newRow("100") << "100" << 100000;
        QTest::newRow("1e+2") << "1e+2" << 100000;
        QTest::newRow("100.000") << "100.000" << 100000;
        QTest::newRow("0.0010000") << "0.0010000" << 1;
        QTest::newRow("12.345") << "12.345" << 12345;
        // refused: zero, out of range, more than three decimals
        QTest::newRow("0") << "0" << -1;
        QTest::newRow("0.000") << "0.000" << -1;
        QTest::newRow("0.0005") << "0.0005" << -1;
        QTest::newRow("100.001") << "100.001" << -1;
        QTest::newRow("1e3") << "1e3" << -1;
        QTest::newRow("0.1000000000000000001") << "0.1000000000000000001" << -1;
        QTest::newRow("1e999999999999") << "1e999999999999" << -1;
        QTest::newRow("1e-999999999999") << "1e-999999999999" << -1;
        // refused: not a JSON number
        QTest::newRow("-1") << "-1" << -1;
        QTest::newRow("+1") << "+1" << -1;
        QTest::newRow("empty") << "" << -1;
        QTest::newRow("space before") << " 1" << -1;
        QTest::newRow("space after") << "1 " << -1;
        QTest::newRow("1.") << "1." << -1;
        QTest::newRow(".5") << ".5" << -1;
        QTest::newRow("01") << "01" << -1;
        QTest::newRow("1e") << "1e" << -1;
        QTest::newRow("1e+") << "1e+" << -1;
        QTest::newRow("1,5") << "1,5" << -1;
        QTest::newRow("0x10") << "0x10" << -1;
        QTest::newRow("fullwidth 1") << QStringLiteral("\uff11") << -1;
        QTest::newRow("1 then fullwidth 0") << QStringLiteral("1\uff10") << -1;
    }

    void rateText()
    {
        QFETCH(QString, text);
        QFETCH(int, milli);
        QString error = QStringLiteral("untouched");
        const std::optional<std::uint32_t> rate = parseRateText(text, &error);
        if (milli < 0) {
            QVERIFY(!rate);
            QCOMPARE(error, QStringLiteral("must be a number from 0.001 to 100 with at most three "
                                           "decimals, not ") +
                                text);
        } else {
            QVERIFY(rate);
            QCOMPARE(*rate, std::uint32_t(milli));
            QCOMPARE(error, QStringLiteral("untouched"));
        }
        QCOMPARE(parseRateText(text).has_value(), milli >= 0); // without an error to fill in
    }

    void rateTextIsTheFilesSpelling()
    {
        QCOMPARE(Core::rateText(500), QStringLiteral("0.5"));
        QCOMPARE(Core::rateText(1000), QStringLiteral("1"));
        QCOMPARE(Core::rateText(1), QStringLiteral("0.001"));
        QCOMPARE(Core::rateText(1250), QStringLiteral("1.25"));
        QCOMPARE(Core::rateText(100000), QStringLiteral("100"));
        // what it writes reads back as the same rate, for every rate a file may hold
        for (std::uint32_t milli = 1; milli <= 100000; ++milli)
            QCOMPARE(parseRateText(Core::rateText(milli)), std::optional<std::uint32_t>(milli));
    }

    void rateTextIsTheLoadersRule()
    {
        // the same text as a file's clock.rate: the same value, or the same message with its place
        for (const char *text : {"1.5e0", "0.25", "100", "0.0005", "100.5", "0"}) {
            const QByteArray json = QByteArray(R"({"fencescope": 1, "clients": [{"name": "A", )"
                                               R"("clock": {"rate": )") +
                                    text + "}}]}";
            const LoadResult r = ScenarioFile::parse(json);
            QString error;
            const auto rate = parseRateText(QString::fromLatin1(text), &error);
            if (rate) {
                QVERIFY2(r.ok(), qPrintable(r.error));
                QCOMPARE(r.scenario->clients[0].clock.rateMilli, *rate);
            } else {
                QCOMPARE(r.error, QStringLiteral("clients[0].clock.rate: ") + error);
            }
        }
    }

    // Core::rateText writes what parseRateText reads: the shortest decimal, as the file has it
    void rateTextSpellsTheFilesRate_data()
    {
        QTest::addColumn<int>("milli");
        QTest::addColumn<QString>("text");
        QTest::newRow("0.001") << 1 << "0.001";
        QTest::newRow("0.01") << 10 << "0.01";
        QTest::newRow("0.5") << 500 << "0.5";
        QTest::newRow("0.999") << 999 << "0.999";
        QTest::newRow("1") << 1000 << "1";
        QTest::newRow("1.25") << 1250 << "1.25";
        QTest::newRow("1.5") << 1500 << "1.5";
        QTest::newRow("12.345") << 12345 << "12.345";
        QTest::newRow("20.05") << 20050 << "20.05";
        QTest::newRow("100") << 100000 << "100";
    }
    void rateTextSpellsTheFilesRate()
    {
        QFETCH(int, milli);
        QFETCH(QString, text);
        QCOMPARE(Core::rateText(std::uint32_t(milli)), text);
        QCOMPARE(parseRateText(text), std::optional<std::uint32_t>(std::uint32_t(milli)));
    }
    void rateTextRoundTripsEveryRate()
    {
        for (std::uint32_t milli = 1; milli <= 100'000; ++milli) {
            const QString text = Core::rateText(milli);
            if (parseRateText(text) != std::optional<std::uint32_t>(milli))
                QFAIL(qPrintable(QStringLiteral("%1 is written as %2").arg(milli).arg(text)));
        }
        // and a saved clock carries that text
        Scenario s;
        s.clients.emplace_back().name = QStringLiteral("A");
        s.clients[0].clock.rateMilli = 20050;
        QVERIFY(ScenarioFile::serialize(s).contains("\"rate\": 20.05 "));
    }
};

QTEST_GUILESS_MAIN(TestScenarioFileLoad)
#include "tst_scenariofileload.moc"
