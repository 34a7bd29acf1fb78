// Lesson file version 1 (docs/LESSONS.md): the example of the page, every rule of the hostile
// corpus (tests/data/lessons/bad) refused with one message at its place, limits, unknown keys
// kept and listed, nothing half loaded, a canonical save that gives the same bytes after a load
// (every built-in lesson, and a lesson that uses every key), and atomic saves. Every expected
// message below was written from the rule it tests; the corpus file's name says which rule.

#include "lessonfile.h"
#include "lessonplay.h"
#include "testprinters.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Core;

namespace {

QString badPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_TESTDATA "/lessons/bad/%1.fencescope-lesson.json").arg(name);
}

QString goodPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_TESTDATA "/lessons/good/%1").arg(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The lesson of docs/LESSONS.md's example, as the page shows it.
QByteArray docExample()
{
    const QString page =
        QString::fromUtf8(readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/docs/LESSONS.md")));
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("```json\\n(.*?)```"),
                           QRegularExpression::DotMatchesEverythingOption)
            .match(page);
    return m.captured(1).toUtf8();
}

// A lesson with one scene of the default preset and the given question text spliced in.
QByteArray withQuestion(const char *question)
{
    return QByteArray(R"({"fencescope-lesson": 1, "title": "t", "scenes": [
        {"preset": "default", "question": )") +
           question + "}]}";
}

} // namespace

class TestLessonFile : public QObject
{
    Q_OBJECT
private slots:
    void docExampleLoadsAsThePageSays()
    {
        const LessonLoadResult r = LessonFile::parse(docExample(), QDir::currentPath());
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Lesson &l = *r.lesson;
        QCOMPARE(l.title, QStringLiteral("Why a lock needs fencing (a short version)"));
        QCOMPARE(l.objectives.size(), 1);
        QCOMPARE(l.sources.size(), 1);
        QCOMPARE(l.scenes.size(), std::size_t(2));
        const LessonScene &first = l.scenes[0];
        QVERIFY(first.source == SceneSource::Preset);
        QCOMPARE(first.reference, QStringLiteral("default"));
        QCOMPARE(first.view.fencing, std::optional<bool>(true));
        QCOMPARE(first.view.from, std::optional<Tick>(0));
        QCOMPARE(first.view.to, std::optional<Tick>(40));
        QVERIFY(!first.view.playhead);
        QVERIFY(first.question);
        QCOMPARE(first.question->freeze, Tick(29));
        QCOMPARE(first.question->options.size(), std::size_t(3));
        // the third option names A's write by its place: A has one write, so "first"
        QCOMPARE(first.question->options[2].claim.write.nth, 1u);
        QVERIFY(!first.question->options[2].claim.write.value);
        QCOMPARE(first.question->options[0].feedback, QString());
        const LessonScene &second = l.scenes[1];
        QVERIFY(second.source == SceneSource::Inline);
        QCOMPARE(second.scenario.title, QStringLiteral("B takes over"));
        QCOMPARE(second.scenario.clients.size(), std::size_t(2));
        QVERIFY(!second.scenario.fencing);
        QVERIFY(!second.question);
        // "Option A holds": A's write arrives at t=30 with token 1 after B's token 2
        const std::vector<ScenePlay> plays = playLesson(l);
        QCOMPARE(plays[0].right(), 0);
        QCOMPARE(plays[0].reveal(), Tick(30));
        QVERIFY(lessonProblems(l, plays).isEmpty());
        QVERIFY(r.unknownKeys.isEmpty());
    }

    // Each file of the corpus breaks one rule; the message names the place and the problem.
    void hostileCorpusRefusedAtItsPlace_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, const QString &message) {
            QTest::newRow(name) << QString::fromLatin1(name) << message;
        };
        // the file itself
        row("truncated", QStringLiteral("line 4, column 1: not valid JSON (unterminated object)"));
        row("array-root", QStringLiteral("file: must be a JSON object with \"fencescope-lesson\": "
                                         "1 at the top, not an array"));
        row("utf16", QStringLiteral("file: encoded as UTF-16; lesson files are UTF-8 (save it as "
                                    "UTF-8)"));
        // "}" once too often, at column 81, the file's last character
        row("trailing-garbage",
            QStringLiteral("line 1, column 81: not valid JSON (garbage at the end of the "
                           "document)"));
        // the 64th "[" of "extra" (the root is level 1) opens level 65
        row("deep-nesting",
            QStringLiteral("line 1, column 113: nested too deeply (more than 64 levels)"));
        row("duplicate-key", QStringLiteral("scenes[0].title: duplicate key (a key may appear "
                                            "only once in an object)"));
        // the root
        row("no-version", QStringLiteral("fencescope-lesson: missing: this is not a FenceScope "
                                         "lesson file (expected \"fencescope-lesson\": 1)"));
        row("version-2", QStringLiteral("fencescope-lesson: unsupported lesson format version 2 "
                                        "(this FenceScope reads version 1)"));
        row("scenario-file",
            QStringLiteral("file: a scenario file, not a lesson (open it as a scenario; a lesson "
                           "has \"fencescope-lesson\": 1 and names its scenarios in its scenes)"));
        row("no-title", QStringLiteral("title: missing: a lesson needs a title"));
        row("empty-title", QStringLiteral("title: must not be empty"));
        row("title-number", QStringLiteral("title: must be a string, not 5"));
        row("long-title", QStringLiteral("title: too long (301 characters; the limit is 300)"));
        row("no-scenes", QStringLiteral("scenes: missing: a lesson needs at least one scene"));
        row("empty-scenes", QStringLiteral("scenes: must hold at least one scene"));
        row("too-many-scenes", QStringLiteral("scenes: too many scenes (101; the limit is 100)"));
        row("objective-empty", QStringLiteral("objectives[1]: must not be empty"));
        row("sources-not-array",
            QStringLiteral("sources: must be an array of strings, not \"Kleppmann 2016\""));
        // scenes and their scenarios
        row("scene-not-object", QStringLiteral("scenes[0]: must be an object, not \"default\""));
        row("scene-no-scenario",
            QStringLiteral("scenes[0]: missing its scenario: give \"preset\" (a built-in "
                           "scenario's name), \"path\" (a scenario file) or \"scenario\" (the "
                           "scenario itself)"));
        row("scene-two-scenarios",
            QStringLiteral("scenes[0].path: a scene has one scenario: \"preset\" already gives "
                           "it (use one of \"preset\", \"path\" and \"scenario\")"));
        row("absolute-path",
            QStringLiteral("scenes[0].path: must be relative to the lesson's folder, not an "
                           "absolute path (/etc/fencescope/default.json)"));
        row("missing-path",
            QStringLiteral("scenes[0].path: nowhere.json: file: cannot open %1 (No such file or "
                           "directory)")
                .arg(QFileInfo(badPath(QStringLiteral("x"))).absolutePath() +
                     QStringLiteral("/nowhere.json")));
        row("inline-bad-ttl", QStringLiteral("scenes[0].scenario.clients[0].actions[0].ttl: must "
                                             "be a positive integer, not 0"));
        row("inline-no-version",
            QStringLiteral("scenes[0].scenario.fencescope: missing: this is not a FenceScope "
                           "scenario file (expected \"fencescope\": 1)"));
        row("inline-not-object", QStringLiteral("scenes[0].scenario: must be an object (a "
                                                "scenario, with \"fencescope\": 1), not "
                                                "\"default\""));
        // "1." on line 5 at column 87: the lesson's own line, not the scenario's
        row("inline-syntax",
            QStringLiteral("line 5, column 87: not valid JSON (a number as JSON does not allow "
                           "it, e.g. a leading '.' or a trailing '.')"));
        // views
        row("view-compare-own-source",
            QStringLiteral("scenes[0].view.compare: \"counter\" is the scenario's own token "
                           "source: compare with another one, or with \"fencing\""));
        row("view-compare-unknown",
            QStringLiteral("scenes[0].view.compare: must be \"fencing\" (fenced over unfenced) or "
                           "a token source (counter, etcd, zookeeper, raft-term, kafka-epoch, "
                           "chubby, none, random, wallclock), not \"unfenced\""));
        row("view-to-before-from",
            QStringLiteral("scenes[0].view.to: must be after \"from\" (10), not 5"));
        row("view-fencing-string",
            QStringLiteral("scenes[0].view.fencing: must be true or false, not \"off\""));
        row("view-playhead-after-freeze",
            QStringLiteral("scenes[0].view.playhead: must be at or before the question's freeze "
                           "tick (29), not 31"));
        // questions and options
        row("question-no-prompt",
            QStringLiteral("scenes[0].question.prompt: missing: a question needs its prompt"));
        row("question-no-freeze",
            QStringLiteral("scenes[0].question.freeze: missing: the tick the run stops at before "
                           "the reveal (a non-negative integer)"));
        row("question-negative-freeze",
            QStringLiteral("scenes[0].question.freeze: must be a non-negative integer, not -1"));
        row("options-one", QStringLiteral("scenes[0].question.options: must hold 2 to 5 options "
                                          "(A to E), not 1"));
        row("options-six", QStringLiteral("scenes[0].question.options: must hold 2 to 5 options "
                                          "(A to E), not 6"));
        row("option-no-claim",
            QStringLiteral("scenes[0].question.options[1].claim: missing: an option states a "
                           "claim the simulator checks"));
        // claims: their form
        row("claim-two-kinds", QStringLiteral("scenes[0].question.options[0].claim.some: a claim "
                                              "is of one kind: it already has \"write\""));
        row("claim-no-kind",
            QStringLiteral("scenes[0].question.options[0].claim: must have one of \"write\", "
                           "\"storage\", \"grant\", \"some\", \"no\", \"lock\" or \"belief\""));
        row("claim-unknown-key",
            QStringLiteral("scenes[0].question.options[0].claim.because: unknown key here (it "
                           "takes \"write\" and \"is\")"));
        row("claim-partial-write",
            QStringLiteral("scenes[0].question.options[0].claim.is: must be \"accepted\", "
                           "\"rejected\", \"corrupted\", \"lockedOut\" or \"skipped\", not "
                           "\"partial\""));
        row("write-by-tick",
            QStringLiteral("scenes[0].question.options[0].claim.write.at: unknown key here (it "
                           "takes \"client\", \"value\", \"storage\" and \"nth\")"));
        row("write-unnamed",
            QStringLiteral("scenes[0].question.options[0].claim.write: name the write by its "
                           "\"value\" or its \"nth\" (its place among the client's writes), "
                           "never by its tick"));
        row("write-nth-zero", QStringLiteral("scenes[0].question.options[0].claim.write.nth: must "
                                             "be a positive integer, not 0"));
        row("final-value-and-max",
            QStringLiteral("scenes[0].question.options[1].claim.maxToken: a claim about a "
                           "storage states its final \"value\" or its final \"maxToken\", not "
                           "both"));
        row("grant-token-bool",
            QStringLiteral("scenes[0].question.options[1].claim.token: must be a number, the "
                           "token as its source writes it (\"rev 5\", \"term 3\") or null (no "
                           "token), not a boolean"));
        row("lock-bad-word",
            QStringLiteral("scenes[0].question.options[1].claim.lock: must be \"exclusive\" "
                           "(never two at once) or \"overlapping\" (two at some moment), not "
                           "\"shared\""));
        // claims: the names they use, against the scenario (default: A writes "A", B writes
        // "B", one storage db)
        row("unknown-client", QStringLiteral("scenes[0].question.options[1].claim.write.client: "
                                             "unknown client \"C\" (known: A, B)"));
        row("unknown-value", QStringLiteral("scenes[0].question.options[1].claim.write.value: A "
                                            "has no write \"Z\""));
        // A writes "A" to db and to index
        row("ambiguous-value",
            QStringLiteral("scenes[0].question.options[0].claim.write.value: A has 2 writes "
                           "\"A\": say which with \"storage\" or \"nth\""));
        row("nth-too-large", QStringLiteral("scenes[0].question.options[1].claim.write.nth: A has "
                                            "only 1 write, not 2"));
        row("write-unknown-storage",
            QStringLiteral("scenes[0].question.options[1].claim.write.storage: unknown storage "
                           "\"cache\" (known: db)"));
        row("final-unknown-storage",
            QStringLiteral("scenes[0].question.options[1].claim.storage: unknown storage "
                           "\"cache\" (known: db)"));
        // A's lease of 5 ends, and its acquire at 10 is a second grant
        row("grant-ambiguous",
            QStringLiteral("scenes[0].question.options[0].claim.grant: A is granted the lock 2 "
                           "times in this run: say which with \"nth\""));
        row("grant-never-acquires",
            QStringLiteral("scenes[0].question.options[0].claim.grant.client: B never acquires "
                           "the lock"));
        // freeze ticks, against the run: A's write arrives at 30, the run's last event
        row("freeze-at-arrival",
            QStringLiteral("scenes[0].question.freeze: must be before t=30, when A's write "
                           "\"A\" arrives (option A names it): the answer would already be on "
                           "screen; not 30"));
        row("freeze-after-last-event",
            QStringLiteral("scenes[0].question.freeze: must be before the run's last event at "
                           "t=30: after it there is nothing left to predict; not 35"));
        row("freeze-outside-view",
            QStringLiteral("scenes[0].question.freeze: must be inside the scene's view (from 0 "
                           "to 20), not 29"));
    }
    void hostileCorpusRefusedAtItsPlace()
    {
        QFETCH(QString, name);
        QFETCH(QString, message);
        const LessonLoadResult r = LessonFile::load(badPath(name));
        QVERIFY(!r.ok()); // nothing half loaded
        QCOMPARE(r.error, message);
        QVERIFY(r.unknownKeys.isEmpty());
    }

    // Every file in the corpus has a row above, so a new file cannot go untested.
    void everyCorpusFileHasItsMessage()
    {
        const QStringList files =
            QDir(QStringLiteral(FENCESCOPE_TESTDATA "/lessons/bad"))
                .entryList({QStringLiteral("*.fencescope-lesson.json")}, QDir::Files);
        QCOMPARE(files.size(), 60);
        for (const QString &f : files) {
            const LessonLoadResult r =
                LessonFile::load(QStringLiteral(FENCESCOPE_TESTDATA "/lessons/bad/") + f);
            QVERIFY2(!r.ok(), qPrintable(f));
        }
    }

    // Cut short anywhere, or with bytes changed at random (seeded), a lesson is refused with a
    // message or loads whole: never a crash, never a lesson with an error beside it.
    void mutationsNeverHalfLoad()
    {
        const QByteArray example = docExample();
        // (every prefix that stops before the document's last brace)
        for (qsizetype n = 0; n <= example.lastIndexOf('}'); ++n) {
            const LessonLoadResult r = LessonFile::parse(example.left(n), QString());
            QVERIFY2(!r.ok() && !r.error.isEmpty(), qPrintable(QString::number(n)));
        }
        const QByteArray every =
            readAll(goodPath(QStringLiteral("every-feature.fencescope-lesson.json")));
        QRandomGenerator random(34);
        const char bytes[] = "{}[]\",:0123456789-.e \\nulltrue\x00\xff\xc3";
        int loaded = 0;
        for (int i = 0; i < 3000; ++i) {
            QByteArray m = i % 2 ? every : example;
            for (int k = 0; k < 1 + i % 3; ++k)
                m[random.bounded(int(m.size()))] = bytes[random.bounded(int(sizeof bytes - 1))];
            const LessonLoadResult r = LessonFile::parse(m, goodPath(QString()));
            QCOMPARE(r.ok(), r.error.isEmpty());
            loaded += r.ok() ? 1 : 0;
        }
        QVERIFY(loaded > 0); // some changes (inside a text) leave a lesson that loads
    }

    void unknownPresetListsTheKnownOnes()
    {
        const LessonLoadResult r = LessonFile::load(badPath(QStringLiteral("unknown-preset")));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.startsWith(QStringLiteral(
                     "scenes[0].preset: no built-in scenario \"defualt\" (known: default, ")),
                 qPrintable(r.error));
        QVERIFY(r.error.contains(QStringLiteral(" delayed-packet,")));
    }

    // A syntax error later in the file wins over a problem with the content earlier.
    void syntaxErrorWinsOverContent()
    {
        const LessonLoadResult r = LessonFile::parse(
            "{\"fencescope-lesson\": 2, \"title\": \"x\",\n \"scenes\": [ 1. ] }", QString());
        QCOMPARE(r.error, QStringLiteral("line 2, column 14: not valid JSON (a number as JSON "
                                         "does not allow it, e.g. a leading '.' or a trailing "
                                         "'.')"));
    }

    void limits()
    {
        const QByteArray ok =
            readAll(goodPath(QStringLiteral("every-feature.fencescope-lesson.json")));
        LessonLimits small;
        small.maxFileBytes = 1024;
        const LessonLoadResult big = LessonFile::parse(ok, goodPath(QString()), small);
        QCOMPARE(big.error, QStringLiteral("file: too large (%1 MiB; the limit is 0.0 MiB)")
                                .arg(double(ok.size()) / double(1 << 20), 0, 'f', 1));
        LessonLimits fewActions;
        fewActions.maxActions = 8; // the default preset has 6 actions, two-owners.json 4
        const LessonLoadResult many = LessonFile::parse(ok, goodPath(QString()), fewActions);
        QCOMPARE(many.error, QStringLiteral("scenes[1]: too many actions: the lesson's scenarios "
                                            "hold more than 8 together"));
        LessonLimits fewEntries;
        fewEntries.maxListEntries = 1;
        QCOMPARE(LessonFile::parse(ok, goodPath(QString()), fewEntries).error,
                 QStringLiteral("objectives: too many entries (2; the limit is 1)"));
    }

    void claimsKeepNoUnknownKeyButTheRestDo()
    {
        const LessonLoadResult r =
            LessonFile::load(goodPath(QStringLiteral("every-feature.fencescope-lesson.json")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.unknownKeys,
                 QStringList({QStringLiteral("later"), QStringLiteral("scenes[0].view.zoom"),
                              QStringLiteral("scenes[0].question.options[0].colour"),
                              QStringLiteral("scenes[0].question.votes"),
                              QStringLiteral("scenes[0].notes")}));
        const Lesson &l = *r.lesson;
        QCOMPARE(l.extra.value(QStringLiteral("later"))
                     .toObject()
                     .value(QStringLiteral("a key"))
                     .toArray()
                     .size(),
                 4);
        QCOMPARE(l.scenes[0].view.extra.value(QStringLiteral("zoom")).toInt(), 2);
        QCOMPARE(l.scenes[0].extra.value(QStringLiteral("notes")).toString(),
                 QStringLiteral("kept"));
        // the path scene: relative to the lesson's folder, and written back as a path
        QVERIFY(l.scenes[1].source == SceneSource::Path);
        QCOMPARE(l.scenes[1].reference, QStringLiteral("two-owners.json"));
        QCOMPARE(l.scenes[1].scenario.title, QStringLiteral("Two owners, one late packet"));
        QVERIFY(l.scenes[1].view.compare == SceneCompare::Source);
        QCOMPARE_NAME(l.scenes[1].view.compareSource, TokenSource::Etcd);
        QVERIFY(l.scenes[0].view.compare == SceneCompare::Fencing);
        QCOMPARE(l.scenes[0].view.playhead, std::optional<Tick>(5));
        QCOMPARE(
            l.scenes[0].narration,
            QStringLiteral("Markdown: **bold**, *italics* and `code`.\n\nA second paragraph."));
    }

    // load -> save -> load gives the same lesson, and saving it again the same bytes.
    void everyFeatureRoundTrips()
    {
        const LessonLoadResult r =
            LessonFile::load(goodPath(QStringLiteral("every-feature.fencescope-lesson.json")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QByteArray once = LessonFile::serialize(*r.lesson);
        const LessonLoadResult again = LessonFile::parse(once, goodPath(QString()));
        QVERIFY2(again.ok(), qPrintable(again.error));
        QVERIFY(*again.lesson == *r.lesson);
        QCOMPARE(LessonFile::serialize(*again.lesson), once);
        // the canonical form's choices, by hand: a view on one line, with its kept key last
        QVERIFY(once.contains(R"("view": { "fencing": true, "compare": "fencing", "from": 0, )"
                              R"("to": 40, "playhead": 5, "zoom": 2 },)"));
        QVERIFY(once.contains(R"({ "claim": { "grant": { "client": "B" }, "token": null } },)"));
        QVERIFY(once.contains(R"({ "claim": { "write": { "client": "A", "value": "x", )"
                              R"("storage": "index" }, "is": "lockedOut" } },)"));
    }

    // The built-in lessons are stored in the canonical form: loading and saving one gives the
    // file's bytes exactly (the lesson editor saves without changing what it did not edit).
    void builtinLessonsRoundTripByteForByte_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : LessonFile::builtinNames())
            QTest::newRow(qPrintable(name)) << name;
    }
    void builtinLessonsRoundTripByteForByte()
    {
        QFETCH(QString, name);
        const QString path = LessonFile::builtinPath(name);
        const LessonLoadResult r = LessonFile::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.unknownKeys.isEmpty());
        QTemporaryDir dir;
        const QString saved = dir.filePath(name + QLatin1String(LessonFile::kSuffix));
        QString error;
        QVERIFY2(LessonFile::save(*r.lesson, saved, &error), qPrintable(error));
        QCOMPARE(readAll(saved), readAll(path));
        // and the source tree holds the same bytes as the resource
        QCOMPARE(readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/lessons/") + name +
                         QLatin1String(LessonFile::kSuffix)),
                 readAll(path));
    }

    void builtinNamesInCourseOrder()
    {
        QCOMPARE(LessonFile::builtinNames(),
                 QStringList({QStringLiteral("1-why-a-lock-needs-fencing"),
                              QStringLiteral("2-where-tokens-come-from"),
                              QStringLiteral("3-how-fencing-goes-wrong")}));
    }

    void saveIsAtomic()
    {
        const LessonLoadResult r = LessonFile::parse(docExample(), QString());
        QVERIFY(r.ok());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.fencescope-lesson.json"));
        QVERIFY(writeFile(path, "old"));
        // a folder that cannot be written: the save fails, says why, and the old file stays
        if (geteuid() != 0) { // (root writes anyway)
            QVERIFY(chmod(qPrintable(dir.path()), 0555) == 0);
            QString error;
            QVERIFY(!LessonFile::save(*r.lesson, path, &error));
            QVERIFY2(error.startsWith(QStringLiteral("cannot save ") + path), qPrintable(error));
            QVERIFY(chmod(qPrintable(dir.path()), 0755) == 0);
            QCOMPARE(readAll(path), QByteArray("old"));
        }
        // a path that is a folder
        QString error;
        QVERIFY(!LessonFile::save(*r.lesson, dir.path(), &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot save ") + dir.path()), qPrintable(error));
        QVERIFY(LessonFile::save(*r.lesson, path, &error));
        QCOMPARE(readAll(path), LessonFile::serialize(*r.lesson));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList({QStringLiteral("l.fencescope-lesson.json")})); // no temporary left
    }

    void loadNamesTheFile()
    {
        QTemporaryDir dir;
        QCOMPARE(LessonFile::load(dir.path()).error,
                 QStringLiteral("file: %1 is a folder, not a lesson file").arg(dir.path()));
        const QString missing = dir.filePath(QStringLiteral("none.fencescope-lesson.json"));
        QCOMPARE(LessonFile::load(missing).error,
                 QStringLiteral("file: cannot open %1 (No such file or directory)").arg(missing));
    }

    // Naming by place counts only the writes that fit the value (and storage) given, and a
    // write so named arrives in the run like any other (freeze check).
    void nthNamesAmongTheWritesThatFit()
    {
        const LessonLoadResult r = LessonFile::parse(R"({"fencescope-lesson": 1, "title": "t",
            "scenes": [ { "scenario": { "fencescope": 1, "clients": [ { "name": "A", "actions": [
                { "at": 0, "do": "acquire", "ttl": 50 },
                { "at": 9, "do": "write", "value": "late" },
                { "at": 4, "do": "write", "value": "early" },
                { "at": 4, "do": "write", "value": "tie" } ] } ] },
              "question": { "prompt": "?", "freeze": 3, "options": [
                { "claim": { "write": { "client": "A", "nth": 2 }, "is": "accepted" } },
                { "claim": { "write": { "client": "A", "nth": 3, "value": "tie" }, "is": "accepted" } } ] } } ] })",
                                                     QString());
        QCOMPARE(r.error, QStringLiteral("scenes[0].question.options[1].claim.write.nth: A has "
                                         "only 1 write \"tie\", not 3"));
        const LessonLoadResult named =
            LessonFile::parse(withQuestion(R"({ "prompt": "?", "freeze": 29, "options": [
                { "claim": { "write": { "client": "B", "nth": 1 }, "is": "accepted" } },
                { "claim": { "write": { "client": "A", "nth": 1, "storage": "db" }, "is": "rejected" } } ] })"),
                              QString());
        // B's first write arrives at 13, before the freeze
        QCOMPARE(named.error, QStringLiteral("scenes[0].question.freeze: must be before t=13, "
                                             "when B's first write arrives (option A names it): "
                                             "the answer would already be on screen; not 29"));
    }
};

QTEST_GUILESS_MAIN(TestLessonFile)
#include "tst_lessonfile.moc"
