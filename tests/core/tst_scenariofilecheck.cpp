// The check (ScenarioFile::checkBytes, checkFile) against the loader (parse, load): it reads
// every action into one scratch action instead of keeping it, and must say exactly what the
// loader says of the same bytes (the same message, the same place) and count what it loads.
// Every file of the test data, the fuzz corpus and regressions and the built-in scenarios, and
// thousands of mutations of them, through both; the cases where the check keeps a problem for
// later (an acquire's wait keys, the keepalive bound) one by one. tst_scenariofile puts every
// input of its own tables through both as well; reading in parts is
// tst_scenariofilecheck_parts's. Under FENCESCOPE_QUICK=1 (the sanitizer suite,
// scripts/sanitize.sh) each input gets a tenth of the mutations; every input is still read as
// it is.

#include "scenariofileinputs.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Core;
using namespace ScenarioFileInputs;

class TestScenarioFileCheck : public QObject
{
    Q_OBJECT

private slots:
    void everyFileSaysTheSame_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = inputFiles();
        QVERIFY(files.size() >= 60); // the corpora are there
        for (const QString &path : files)
            QTest::newRow(qPrintable(path.mid(int(sizeof(FENCESCOPE_SOURCE_DIR))))) << path;
    }
    void everyFileSaysTheSame()
    {
        QFETCH(QString, path);
        const QByteArray bytes = readFile(path);
        // from the file (mapped) and from bytes in memory, with the default and tight limits
        QCOMPARE(difference(ScenarioFile::load(path), ScenarioFile::checkFile(path)), QString());
        QCOMPARE(bytesDifference(bytes), QString());
        QCOMPARE(difference(ScenarioFile::load(path, tightLimits()),
                            ScenarioFile::checkFile(path, tightLimits())),
                 QString());
        QCOMPARE(bytesDifference(bytes, tightLimits()), QString());
    }

    void everyBuiltinChecksWithItsCounts()
    {
        for (const QString &name : ScenarioFile::builtinNames()) {
            const QString path = ScenarioFile::builtinPath(name);
            const LoadResult loaded = ScenarioFile::load(path);
            QVERIFY2(loaded.ok(), qPrintable(name + QLatin1String(": ") + loaded.error));
            const CheckResult checked = ScenarioFile::checkFile(path);
            QVERIFY2(checked.ok(), qPrintable(checked.error));
            QCOMPARE(checked.actions, loaded.scenario->actionCount());
            QVERIFY(checked.actions > 0);
            QCOMPARE(checked.clients, loaded.scenario->clients.size());
        }
    }

    void mutationsSayTheSame()
    {
        QList<QByteArray> seeds;
        for (const QString &path : inputFiles()) {
            const QByteArray bytes = readFile(path);
            if (QJsonDocument::fromJson(bytes).isObject())
                seeds << bytes;
        }
        for (int seed = 1; seed <= 20; ++seed) {
            TestSupport::RandomScenarioOptions o;
            o.lePercent = 20;
            seeds << ScenarioFile::serialize(TestSupport::randomScenario(std::uint64_t(seed), o));
        }
        QVERIFY(seeds.size() > 40);
        TestSupport::Rng rng(20261202);
        int refused = 0;
        int runs = 0;
        for (const QByteArray &seed : seeds) {
            const QJsonObject root = QJsonDocument::fromJson(seed).object();
            for (int i = 0; i < mutationCount(60, 6); ++i) {
                QJsonValue v = root;
                for (std::uint64_t n = 1 + rng.next() % 3; n > 0; --n)
                    v = mutated(v, rng);
                const QByteArray json = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
                const FileLimits limits = rng.chance(20) ? tightLimits() : FileLimits();
                const LoadResult loaded = ScenarioFile::parse(json, limits);
                refused += !loaded.ok();
                ++runs;
                const QString diff = difference(loaded, ScenarioFile::checkBytes(json, limits));
                QVERIFY2(diff.isEmpty(), qPrintable(diff + QLatin1String("\nfor ") + json));
            }
            for (int i = 0; i < mutationCount(20, 2); ++i) {
                const QByteArray bytes = damaged(seed, rng);
                const QString diff = bytesDifference(bytes);
                QVERIFY2(diff.isEmpty(), qPrintable(diff + QLatin1String("\nfor ") + bytes));
            }
        }
        // the mutations reach both sides: many refused, many still loading
        QVERIFY2(refused > runs / 4 && refused < runs * 9 / 10,
                 qPrintable(QStringLiteral("%1 of %2 refused").arg(refused).arg(runs)));
    }

    // The check reads an acquire's wait keys as it goes, and keeps the first problem: a later
    // problem of the reader's still wins, and so does one with the lock, as in the loader.
    void problemsKeptForLaterComeInTheLoadersOrder_data() { addProblemsKeptForLater(); }
    void problemsKeptForLaterComeInTheLoadersOrder()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QCOMPARE(ScenarioFile::parse(json).error, message);
        QCOMPARE(ScenarioFile::checkBytes(json).error, message);
    }

    void actionLimitAndCounts()
    {
        TestSupport::RandomScenarioOptions o;
        o.minActions = 30;
        o.maxActions = 40;
        o.minClients = 3;
        const QByteArray json = ScenarioFile::serialize(TestSupport::randomScenario(7, o));
        const LoadResult loaded = ScenarioFile::parse(json);
        QVERIFY(loaded.ok());
        const std::size_t n = loaded.scenario->actionCount();
        QVERIFY(n >= 90);
        QCOMPARE(ScenarioFile::checkBytes(json).actions, n);
        FileLimits l;
        l.maxActions = n;
        QVERIFY(ScenarioFile::checkBytes(json, l).ok());
        l.maxActions = n - 1;
        const CheckResult over = ScenarioFile::checkBytes(json, l);
        QVERIFY(!over.ok());
        QVERIFY2(
            over.error.endsWith(
                QStringLiteral(".actions: too many actions (more than %1 in the file)").arg(n - 1)),
            qPrintable(over.error));
        QCOMPARE(over.error, ScenarioFile::parse(json, l).error);
    }

    // A file the check cannot open or read says what load() says.
    void fileProblems()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        QCOMPARE(ScenarioFile::checkFile(missing).error,
                 QStringLiteral("file: cannot open %1 (No such file or directory)").arg(missing));
        QCOMPARE(ScenarioFile::checkFile(dir.path()).error,
                 QStringLiteral("file: %1 is a folder, not a scenario file").arg(dir.path()));
        FileLimits l;
        l.maxFileBytes = 10;
        const QString builtin = ScenarioFile::builtinPath(QStringLiteral("default"));
        QCOMPARE(ScenarioFile::checkFile(builtin, l).error, ScenarioFile::load(builtin, l).error);
        QVERIFY(
            ScenarioFile::checkFile(builtin, l).error.startsWith(QLatin1String("file: too large")));
    }
};

QTEST_GUILESS_MAIN(TestScenarioFileCheck)
#include "tst_scenariofilecheck.moc"
