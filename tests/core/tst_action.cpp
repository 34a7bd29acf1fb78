// An action as a value: the fields few actions have (waitFor, keepalive, gap, group, unknown
// keys) live behind one shared pointer, and none of that may show. Setting, copying, comparing
// and saving behave as if they were plain members; an action that uses none of them holds none,
// and a loaded file's plain actions stay plain (a million of them is what a large file holds).

#include "scenario.h"
#include "scenariofile.h"

#include <QJsonValue>
#include <QTest>

using namespace Core;

class TestAction : public QObject
{
    Q_OBJECT

private slots:
    void aNewActionHasNoneOfTheRareFields()
    {
        const Action a = Action::acquire(3, 10);
        QVERIFY(a.plain());
        QCOMPARE(a.waitFor(), Tick(0));
        QCOMPARE(a.keepalive(), Tick(0));
        QCOMPARE(a.gap(), Tick(0));
        QVERIFY(a.group().isEmpty());
        QVERIFY(a.extra().isEmpty());
        QVERIFY(!a.usesPitfalls());
    }

    // Zero, an empty group and no keys are what an action holds without them: setting them
    // makes nothing.
    void settingTheDefaultsKeepsAnActionPlain()
    {
        Action a = Action::write(5, QStringLiteral("x"));
        a.setWaitFor(0);
        a.setKeepalive(0);
        a.setGap(0);
        a.setGroup(QString());
        a.setGroup(QStringLiteral(""));
        a.setExtra(QJsonObject());
        QVERIFY(a.plain());
        QCOMPARE(a, Action::write(5, QStringLiteral("x")));
    }

    void eachFieldReadsBackWhatWasSet()
    {
        Action a = Action::acquire(1, 9);
        a.setWaitFor(4);
        a.setKeepalive(3);
        a.setGap(2);
        a.setGroup(QStringLiteral("order"));
        a.editExtra().insert(QStringLiteral("note"), QStringLiteral("hi"));
        QVERIFY(!a.plain());
        QCOMPARE(a.waitFor(), Tick(4));
        QCOMPARE(a.keepalive(), Tick(3));
        QCOMPARE(a.gap(), Tick(2));
        QCOMPARE(a.group(), QStringLiteral("order"));
        QCOMPARE(a.extra().value(QStringLiteral("note")), QJsonValue(QStringLiteral("hi")));
        // the full range of a file's integers
        a.setKeepalive(kMaxFileInteger);
        QCOMPARE(a.keepalive(), kMaxFileInteger);
    }

    // A copy is a value of its own: changing it leaves the original as it was, field by field.
    void aCopyChangesAlone()
    {
        Action a = Action::acquire(1, 9);
        a.setKeepalive(3);
        a.setGroup(QStringLiteral("g"));
        a.editExtra().insert(QStringLiteral("k"), 1);
        const Action original = a;
        for (int field = 0; field < 5; ++field) {
            Action b = a;
            switch (field) {
            case 0:
                b.setWaitFor(7);
                break;
            case 1:
                b.setKeepalive(8);
                break;
            case 2:
                b.setGap(1);
                break;
            case 3:
                b.setGroup(QStringLiteral("h"));
                break;
            default:
                b.editExtra().insert(QStringLiteral("k"), 2);
                break;
            }
            QVERIFY2(b != a, qPrintable(QString::number(field)));
            QCOMPARE(a, original);
            QCOMPARE(a.keepalive(), Tick(3));
            QCOMPARE(a.group(), QStringLiteral("g"));
            QCOMPARE(a.extra().value(QStringLiteral("k")).toInt(), 1);
        }
    }

    // Equality is by value: an action that once held a rare field and was set back equals one
    // that never did, and each rare field counts.
    void equalityIsByValue()
    {
        Action plain = Action::acquire(2, 6);
        Action back = plain;
        back.setKeepalive(5);
        QVERIFY(back != plain);
        back.setKeepalive(0);
        QVERIFY(!back.plain());
        QCOMPARE(back, plain);
        QCOMPARE(plain, back);

        Action g1 = Action::write(4, QStringLiteral("v"));
        Action g2 = g1;
        g1.setGroup(QStringLiteral("a"));
        g2.setGroup(QStringLiteral("b"));
        QVERIFY(g1 != g2);
        g2.setGroup(QStringLiteral("a"));
        QCOMPARE(g1, g2);

        Action e1 = Action::release(1);
        Action e2 = Action::release(1);
        e1.editExtra().insert(QStringLiteral("why"), QJsonValue());
        QVERIFY(e1 != e2);
        QVERIFY(e2 != e1);
    }

    void usesPitfallsSeesTheRareFields()
    {
        Action acquire = Action::acquire(0, 5);
        acquire.setWaitFor(3); // section 10, not 11 or 12
        QVERIFY(!acquire.usesPitfalls());
        acquire.setKeepalive(2);
        QVERIFY(acquire.usesPitfalls());
        Action write = Action::write(0, QStringLiteral("x"));
        write.setGroup(QStringLiteral("g"));
        QVERIFY(write.usesPitfalls());
        Action checked = Action::write(0, QStringLiteral("x"));
        checked.check = true;
        QVERIFY(checked.usesPitfalls());
        QVERIFY(Action::read(0).usesPitfalls());
    }

    // What a file gives its actions: plain ones stay plain, the rest hold what the file says,
    // and a save writes it all back.
    void aLoadedFileKeepsPlainActionsPlain()
    {
        const QByteArray json = R"({"fencescope": 1, "clients": [{"name": "A", "actions": [
            {"at": 1, "do": "acquire", "ttl": 10},
            {"at": 2, "do": "write", "value": "x", "delay": 1},
            {"at": 3, "do": "release"},
            {"at": 4, "do": "acquire", "ttl": 10, "keepalive": 3},
            {"at": 5, "do": "write", "value": "y", "group": "g"},
            {"at": 6, "do": "pause", "for": 2, "note": "gc"},
            {"at": 7, "do": "write", "value": "z", "check": true, "gap": 2}]}]})";
        const LoadResult r = ScenarioFile::parse(json);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const std::vector<Action> &a = r.scenario->clients[0].actions;
        QCOMPARE(a.size(), std::size_t(7));
        QVERIFY(a[0].plain() && a[1].plain() && a[2].plain());
        QCOMPARE(a[3].keepalive(), Tick(3));
        QCOMPARE(a[4].group(), QStringLiteral("g"));
        QCOMPARE(a[5].extra().value(QStringLiteral("note")).toString(), QStringLiteral("gc"));
        QVERIFY(a[6].check);
        QCOMPARE(a[6].gap(), Tick(2));
        QVERIFY(a[6].plain() == false);
        const LoadResult again = ScenarioFile::parse(ScenarioFile::serialize(*r.scenario));
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.scenario->clients[0].actions, a);
    }
};

QTEST_GUILESS_MAIN(TestAction)
#include "tst_action.moc"
