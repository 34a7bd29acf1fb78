// The built-in lessons (resources/lessons): each loads, has 6 to 12 scenes and its sources, and
// every question has exactly one option that holds, the one worked out by hand below from the
// scene's scenario, revealed at the tick worked out with it; every wrong option carries the
// misconception behind it. A preset or simulator change that breaks a question fails here (and
// `fencescope-cli lesson check`).

#include "lessonfile.h"
#include "lessonplay.h"

#include <QTest>

using namespace Core;

class TestLessons : public QObject
{
    Q_OBJECT
private slots:
    void everyQuestionHasItsOneRightAnswer_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("answers"); // the right letter of each question, in order
        QTest::addColumn<QList<Tick>>("reveals");
        // 2: A's stale write lands over B's (fencing off); 3: the leases never overlap; 4: 1 <
        // max 2; 5: the late packet meets max 2; 6: equal tokens pass under lt; 7: le turns the
        // live holder away; 8: a renewal keeps 1, B is the second owner
        QTest::newRow("why a lock needs fencing")
            << QStringLiteral("1-why-a-lock-needs-fencing") << QStringLiteral("BAABACB")
            << QList<Tick>{30, 30, 30, 20, 4, 4, 20};
        // 1: puts at 3, 6, 9, the expiry at 10 and the put at 12 come before B's key: rev 8;
        // 2: rev 2 < rev 8; 3: epoch 2 in the high bits; 4: the split vote used term 2; 5: B's
        // epoch 1 fenced A at 5; 6: untagged, from the live holder; 7: with seed 7 A's draw is the
        // larger; 8: 1000 + 12 - 20 = 992 < 1000; 9: the restore counts from 3 again: rev 4
        // twice; 10: 3 + 10 + 1 = 14 > 4
        QTest::newRow("where tokens come from")
            << QStringLiteral("2-where-tokens-come-from") << QStringLiteral("BABBBBBBBA")
            << QList<Tick>{12, 30, 12, 12, 12, 13, 30, 12, 21, 25};
        // 1: the send at the thaw (19) lands over B's (fencing off); 2: the write goes before
        // the keepalive and meets max 2; 3: by A's half-speed clock 7 ticks passed, the storage
        // rejects 1 < 2; 4: the bypass write lands over B's; 5: the restart forgot max 2; 6:
        // version 0 named, 1 found; 7: nobody wrote since A read; 8: the row stays, the index
        // refuses
        QTest::newRow("how fencing goes wrong")
            << QStringLiteral("3-how-fencing-goes-wrong") << QStringLiteral("BBBBCBAB")
            << QList<Tick>{19, 25, 15, 11, 16, 17, 17, 19};
    }
    void everyQuestionHasItsOneRightAnswer()
    {
        QFETCH(QString, name);
        QFETCH(QString, answers);
        QFETCH(QList<Tick>, reveals);
        const LessonLoadResult r = LessonFile::load(LessonFile::builtinPath(name));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const Lesson &l = *r.lesson;
        QVERIFY(l.scenes.size() >= 6 && l.scenes.size() <= 12);
        QVERIFY(!l.sources.isEmpty());
        QVERIFY(!l.objectives.isEmpty());
        QVERIFY(!l.audience.isEmpty());
        const std::vector<ScenePlay> plays = playLesson(l);
        QCOMPARE(lessonProblems(l, plays), QStringList());
        QString letters;
        QList<Tick> ticks;
        for (std::size_t i = 0; i < l.scenes.size(); ++i) {
            const LessonScene &scene = l.scenes[i];
            QVERIFY(!scene.narration.isEmpty());
            if (!scene.question)
                continue;
            const QuestionVerdict &v = *plays[i].verdict;
            QVERIFY2(v.sound(), qPrintable(v.error + v.problem));
            QCOMPARE(v.holding().size(), std::size_t(1));
            letters += optionLetter(std::size_t(v.right));
            ticks << v.reveal;
            for (std::size_t o = 0; o < scene.question->options.size(); ++o)
                if (int(o) != v.right)
                    QVERIFY2(!scene.question->options[o].feedback.isEmpty(),
                             qPrintable(QStringLiteral("scene %1, option %2 has no feedback")
                                            .arg(i + 1)
                                            .arg(optionLetter(o))));
        }
        QCOMPARE(letters, answers);
        QCOMPARE(ticks, reveals);
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
