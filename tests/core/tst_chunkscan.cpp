// The chunk scan (core/fastload/chunkscan.h): the look at a chunk's bytes that counts its actions
// without parsing them, for the threads of a file read in parts. Its count must be the parser's
// whenever it gives one, whatever the strings hold and wherever the 64-byte blocks fall; where
// it cannot know (a backslash), it says so; where the chunk cannot be whole actions, it says
// that.

#include "fastload/chunkscan.h"

#include "randomscenario.h"

#include <QTest>

#include <string>

using namespace Core;
using namespace Core::FastLoad;

namespace {

using Verdict = ChunkScan::Verdict;

ChunkScan scan(const std::string &text)
{
    return scanChunk(text);
}

} // namespace

class TestChunkScan : public QObject
{
    Q_OBJECT

private slots:
    void countsTheActions_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("actions");
        QTest::newRow("one") << "{ \"at\": 1, \"do\": \"release\" }" << 1;
        QTest::newRow("two, as the writer spaces them")
            << "{ \"at\": 1, \"do\": \"write\", \"value\": \"x\" },\n      { \"at\": 2, \"do\": "
               "\"pause\", \"for\": 3 }"
            << 2;
        QTest::newRow("compact") << "{\"at\":1,\"do\":\"release\"},{\"at\":2,\"do\":\"release\"}"
                                 << 2;
        QTest::newRow("what a cut looks for, in a string")
            << "{ \"at\": 1, \"do\": \"write\", \"value\": \"}, { {\" }, { \"at\": 2, \"do\": "
               "\"release\" }"
            << 2;
        QTest::newRow("an object inside an action")
            << "{ \"at\": 1, \"do\": \"release\", \"note\": { \"a\": { \"b\": 1 } } }, { \"at\": "
               "2, \"do\": \"release\" }"
            << 2;
        QTest::newRow("\"do\" first") << "{ \"do\": \"release\", \"at\": 4 }" << 1;
    }
    void countsTheActions()
    {
        QFETCH(QString, text);
        QFETCH(int, actions);
        const ChunkScan s = scan(text.toStdString());
        QCOMPARE(s.verdict, Verdict::Counted);
        QCOMPARE(s.objects, std::size_t(actions));
    }

    void saysWhatItCannotCount_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("verdict");
        QTest::newRow("an array in an action")
            << "{ \"at\": 1, \"do\": \"release\", \"x\": [1] }, { \"at\": 2, \"do\": \"release\" }"
            << int(Verdict::NotInner);
        QTest::newRow("the end of a client's actions")
            << "{ \"at\": 1, \"do\": \"release\" } ] }, { \"name\": \"B\", \"actions\": [ { "
               "\"at\": 1, \"do\": \"release\" }"
            << int(Verdict::NotInner);
        QTest::newRow("a bracket in a string")
            << "{ \"at\": 1, \"do\": \"write\", \"value\": \"[\" }" << int(Verdict::NotInner);
        QTest::newRow("no \"do\" in the first object: storages")
            << "{ \"name\": \"db\" }, { \"name\": \"cache\", \"do\": 1 }" << int(Verdict::NotInner);
        QTest::newRow("a string left open: a cut inside one")
            << "{ \"at\": 1, \"do\": \"write\", \"value\": \"x }, { y" << int(Verdict::NotInner);
        QTest::newRow("not at a \"{\"")
            << " { \"at\": 1, \"do\": \"release\" }" << int(Verdict::NotInner);
        QTest::newRow("an escaped quote")
            << "{ \"at\": 1, \"do\": \"write\", \"value\": \"\\\"}, {\" }" << int(Verdict::Unsure);
    }
    void saysWhatItCannotCount()
    {
        QFETCH(QString, text);
        QFETCH(int, verdict);
        QCOMPARE(int(scan(text.toStdString()).verdict), verdict);
    }

    // Strings of every length up to a few blocks, full of what the scan looks for, in runs of
    // actions of every length: the count is the number of actions made, each time.
    void countsRandomRunsAcrossBlocks()
    {
        TestSupport::Rng rng(20261204);
        const std::string alphabet = "ab {},:\"";
        for (int run = 0; run < 2000; ++run) {
            const int actions = 1 + int(rng.next() % 40);
            std::string text;
            for (int i = 0; i < actions; ++i) {
                if (i)
                    text += rng.chance(50) ? "," : " ,\n  ";
                std::string value;
                const int length = int(rng.next() % 150);
                for (int k = 0; k < length; ++k) {
                    const char c = alphabet[rng.next() % (alphabet.size() - 1)]; // (no quote)
                    value += c;
                }
                text += "{ \"at\": " + std::to_string(i) + ", \"do\": \"write\", \"value\": \"" +
                        value + "\"";
                if (rng.chance(20))
                    text += ", \"note\": { \"n\": { \"m\": 1 } }";
                text += " }";
            }
            const ChunkScan s = scan(text);
            QCOMPARE(s.verdict, Verdict::Counted);
            QCOMPARE(s.objects, std::size_t(actions));
        }
    }
};

QTEST_GUILESS_MAIN(TestChunkScan)
#include "tst_chunkscan.moc"
